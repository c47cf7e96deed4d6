//! The command-line side of `cardboard serve` and `cardboard join`: their
//! options (flattened into the `cardboard` command line) and the functions
//! that start a runtime and run them.

use super::{GameReport, SeatSpec, ServeConfig, Server};
use crate::command::GameRecord;
use crate::drivers::output::{tell, Output};
use crate::drivers::{Ruleset, DEFAULT_MAX_DECISIONS};
use crate::game::GameState;
use crate::play::join::{join, JoinConfig};
use crate::play::protocol::EndKind;
use crate::search::seats::{SeatKind, Seats};
use clap::Args;
use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The options of `cardboard serve` (besides the game's own).
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on. The default is this machine only
    /// (loopback); `0.0.0.0` opens the server to the network.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The port to listen on; 0 picks a free one (printed at start).
    #[arg(long, value_name = "P", default_value_t = 0)]
    pub port: u16,
    /// Who holds each seat, in seat order: remote (a player over the
    /// network), random, mcts[:ITERATIONS], ismcts[:ITERATIONS], separated
    /// by commas; seats not named are remote.
    #[arg(long, value_name = "SEATS", value_parser = SeatList::parse)]
    pub seats: Option<SeatList>,
    /// Games to play one after another (the same players keep their seats).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Tables playing at once, each with its own players and games.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub tables: u64,
    /// When a remote player is away this many seconds at their turn, the
    /// computer (--takeover-by) plays for them until they rejoin [default:
    /// the game waits].
    #[arg(long, value_name = "SECONDS")]
    pub takeover: Option<f64>,
    /// Who plays for a player away past --takeover: random,
    /// mcts[:ITERATIONS] or ismcts[:ITERATIONS].
    #[arg(long, value_name = "KIND", default_value = "random", value_parser = parse_takeover_by, requires = "takeover")]
    pub takeover_by: SeatKind,
    /// Stop a game after this many decisions.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MAX_DECISIONS)]
    pub max_decisions: u64,
    /// Write each game's record (seed, settings, every command) to this
    /// file, one after another, as each game ends; `cardboard play --moves
    /// FILE --game K` plays game K again (docs/protocol.md).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Connections open at once, in all (players, lobby and page
    /// included); past this a new connection is answered 503 Service
    /// Unavailable and closed.
    #[arg(long, value_name = "N", default_value_t = super::DEFAULT_MAX_CONNECTIONS as u64, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
    /// Connections open at once from one IP address; past this a new one
    /// from it is answered 503 Service Unavailable and closed.
    #[arg(long, value_name = "N", default_value_t = super::DEFAULT_MAX_PER_ADDRESS as u64, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections_per_address: u64,
    /// A WebSocket connection that holds no seat and sends no message for
    /// this many seconds is closed (close code 4002). A connection must
    /// also finish its HTTP request within 5 seconds, and no message may
    /// exceed 16 KiB (docs/protocol.md, "Limits and security").
    #[arg(long, value_name = "SECONDS", default_value_t = super::DEFAULT_IDLE_TIMEOUT.as_secs_f64())]
    pub idle_timeout: f64,
}

/// The seats of `serve --seats` (one value on the command line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatList(pub Vec<SeatSpec>);

impl SeatList {
    /// Reads `--seats` ([`SeatSpec::parse_list`]).
    pub fn parse(text: &str) -> Result<SeatList, String> {
        SeatSpec::parse_list(text).map(SeatList)
    }
}

/// Reads `--takeover-by`: a computer's kind.
fn parse_takeover_by(text: &str) -> Result<SeatKind, String> {
    if text.contains(',') {
        return Err(format!("`{text}`: give one kind of player"));
    }
    match Seats::parse(text)?.kind(0) {
        SeatKind::Human | SeatKind::Remote => Err(format!(
            "`{text}`: the computer takes a seat over: give random, mcts[:N] or ismcts[:N]"
        )),
        kind => Ok(kind),
    }
}

/// The options of `cardboard join`.
#[derive(Args, Debug, Clone)]
pub struct JoinArgs {
    /// The server's WebSocket URL, as `cardboard serve` prints it
    /// (`ws://127.0.0.1:PORT/ws`).
    pub url: String,
    /// Your name, shown to the other players.
    #[arg(long, value_name = "N")]
    pub name: Option<String>,
    /// The seat to take (from 0) [default: the first free one].
    #[arg(long, value_name = "K")]
    pub seat: Option<usize>,
    /// The table to sit at, when the server has several.
    #[arg(long, value_name = "T")]
    pub table: Option<usize>,
    /// Take back your seat after a dropped connection, with the token the
    /// server gave when you joined.
    #[arg(long, value_name = "TOKEN", conflicts_with_all = ["seat", "table"])]
    pub token: Option<String>,
    /// Ask for a forced move (a decision with one legal move) as for any
    /// other; without it, such a move plays itself after a short pause.
    #[arg(long)]
    pub no_auto_forced: bool,
}

/// A runtime for the server or the client.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}

/// The name of the rules file `file`, as records and clients are told it.
pub fn rules_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Runs `cardboard serve` on `rules`, read from `file` (started from the
/// position file `position`, if given); returns the exit code (1 when the
/// server cannot start or a game failed). An error of the rules or the
/// seats, and a game that failed, is told on standard error after the
/// path of `file`, as `run` tells it.
pub fn serve_command<R, W>(
    rules: R,
    file: &Path,
    position: Option<String>,
    seed: u64,
    settings: Vec<(String, String)>,
    args: &ServeArgs,
    out: &mut Output<W>,
) -> i32
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
    W: Write,
{
    let takeover = match args.takeover {
        None => None,
        Some(s) if s.is_finite() && (0.0..=86_400.0).contains(&s) => {
            Some(Duration::from_secs_f64(s))
        }
        Some(s) => {
            tell(format_args!(
                "error: --takeover {s}: give 0 to 86400 seconds\n"
            ));
            return 2;
        }
    };
    let idle_timeout = match args.idle_timeout {
        s if s.is_finite() && s > 0.0 && s <= 86_400.0 => Duration::from_secs_f64(s),
        s => {
            tell(format_args!(
                "error: --idle-timeout {s}: give more than 0 and at most 86400 seconds\n"
            ));
            return 2;
        }
    };
    if let Err(e) = rules.check_settings(&settings) {
        tell(format_args!("error: {}: {e}\n", file.display()));
        return 1;
    }
    let rules_name = rules_name(file);
    let mut config = ServeConfig {
        bind: args.bind,
        port: args.port,
        seats: args.seats.clone().map(|s| s.0).unwrap_or_default(),
        games: args.games,
        tables: args.tables as usize,
        seed,
        settings,
        takeover,
        takeover_by: args.takeover_by,
        max_decisions: args.max_decisions,
        rules_name: rules_name.clone(),
        position,
        records: None,
        max_connections: args.max_connections as usize,
        max_connections_per_address: args.max_connections_per_address as usize,
        idle_timeout,
        handshake_timeout: super::HANDSHAKE_TIME,
    };
    if let Err(e) = super::players(&rules, &config) {
        tell(format_args!("error: {}: {e}\n", file.display()));
        return 1;
    }
    // The records are written as each game ends (a server stopped
    // keeps the games it played), to a file made before serving.
    let (records, writer) = match &args.record {
        None => (None, None),
        Some(path) => match std::fs::File::create(path) {
            Ok(record_file) => {
                let (tx, rx) = std::sync::mpsc::channel::<Option<GameRecord>>();
                let writer = std::thread::spawn(move || write_records(record_file, &rx));
                (Some(tx), Some(writer))
            }
            Err(e) => {
                tell(format_args!(
                    "error: cannot write {}: {e}\n",
                    path.display()
                ));
                return 2;
            }
        },
    };
    config.records = records.clone();
    let runtime = match runtime() {
        Ok(r) => r,
        Err(e) => {
            tell(format_args!("error: {e}\n"));
            return 1;
        }
    };
    let reports = runtime.block_on(async {
        let server = Server::bind(rules, config).await?;
        out.put(&format!("serving {rules_name} at {}\n", server.url()));
        if let Some(addr) = server.reachable_addr() {
            out.put(&format!("page: http://{addr}/\n"));
        }
        if args.bind.is_unspecified() {
            out.put(&format!(
                "listening on every interface ({}): from another machine, use this \
                 machine's address in place of {}\n",
                args.bind,
                super::reachable((args.bind, 0).into()).ip()
            ));
        }
        Ok::<_, String>(server.run().await)
    });
    let reports = match reports {
        Ok(r) => r,
        Err(e) => {
            tell(format_args!("error: {e}\n"));
            return 1;
        }
    };
    let mut code = 0;
    for report in &reports {
        out.put(&format!("{}\n", summary(report)));
        if report.how == EndKind::Failed {
            // A game that failed is also told on standard error, with the
            // file, as `run` tells it.
            tell(format_args!(
                "error: {}: table {} game {}: {}\n",
                file.display(),
                report.table,
                report.game,
                report.message.as_deref().unwrap_or("the game failed")
            ));
            code = 1;
        }
    }
    if let (Some(records), Some(writer), Some(path)) = (records, writer, &args.record) {
        // Every game ended: its record was sent before this.
        let _ = records.send(None);
        if let Ok(Err(e)) | Err(e) = writer
            .join()
            .map_err(|_| std::io::Error::other("the writer stopped"))
        {
            tell(format_args!(
                "error: cannot write {}: {e}\n",
                path.display()
            ));
            code = code.max(2);
        }
    }
    code
}

/// Writes each record received to `file` as it comes, until `None`.
fn write_records(
    mut file: std::fs::File,
    records: &std::sync::mpsc::Receiver<Option<GameRecord>>,
) -> std::io::Result<()> {
    while let Ok(Some(record)) = records.recv() {
        file.write_all(record.to_text().as_bytes())?;
        file.flush()?;
    }
    Ok(())
}

/// One line for a game played.
fn summary(report: &GameReport) -> String {
    let head = format!(
        "table {} game {}: {} commands",
        report.table,
        report.game,
        report.record.commands.len()
    );
    match (&report.outcome, &report.message) {
        (Some(o), _) => format!("{head}, scores {:?}, winners {:?}", o.scores, o.winners),
        (None, Some(why)) => format!("{head}, {:?}: {why}", report.how),
        (None, None) => format!("{head}, {:?}", report.how),
    }
}

/// Runs `cardboard join`; returns the exit code.
pub fn join_command(args: &JoinArgs) -> i32 {
    let config = JoinConfig {
        url: args.url.clone(),
        name: args.name.clone(),
        seat: args.seat,
        table: args.table,
        token: args.token.clone(),
        auto_forced: !args.no_auto_forced,
        forced_pause: std::time::Duration::from_millis(
            if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                700
            } else {
                0
            },
        ),
    };
    match runtime() {
        Ok(runtime) => {
            let code = runtime.block_on(join(&config, std::io::stdout()));
            // The keyboard is read on a blocking thread that may still
            // wait for a line: do not wait for it.
            runtime.shutdown_background();
            code
        }
        Err(e) => {
            tell(format_args!("error: {e}\n"));
            1
        }
    }
}
