//! The `cardboard` command line: check, run, simulate and perft a rules file.
//! Each subcommand is a thin layer over [`cardboard::drivers`].

use cardboard::command::{read_records, GameRecord};
use cardboard::drivers::check::{check_files, EXIT_BAD_FILE, EXIT_UNREADABLE};
use cardboard::drivers::output::{tell, Output, EXIT_OUTPUT};
use cardboard::drivers::perft::{perft_run, perft_table, MAX_DEPTH};
use cardboard::drivers::report::games_out::RowFormat;
use cardboard::drivers::report::{self, Branching, SimulateReport};
use cardboard::drivers::run::run_seated;
use cardboard::drivers::simulate::{simulate_sweep, Rows, Shard, SimulateConfig, Sweep};
use cardboard::drivers::{parse_set, FromPosition, GameEnd, Ruleset, DEFAULT_MAX_DECISIONS};
use cardboard::engine::limits::{self, Limits};
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::loading::LoadError;
use cardboard::play::server::cli::{join_command, serve_command, JoinArgs, ServeArgs};
use cardboard::play::{play, PlayEnd, PlayOptions, Terminal};
use cardboard::search::seats::Seats;
use clap::{Args, Parser, Subcommand};
use std::io::{ErrorKind, IsTerminal, Stdout};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Writes a line to standard error ([`tell`]: its failures are ignored).
macro_rules! say {
    ($($arg:tt)*) => {
        tell(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// cardboard: reads card and board games described in RECYCLE, checks their
/// rules, plays them, and simulates thousands of games for statistics.
#[derive(Parser, Debug)]
#[command(name = "cardboard", version, propagate_version = true)]
#[command(after_help = "Examples:
  cardboard check games/agram.rcy
  cardboard run games/agram.rcy --seed 7 --set NUMP=3
  cardboard simulate games/agram.rcy --games 10000 --json
  cardboard perft games/agram.rcy 4
  cardboard run games/agram.rcy --seed 7 --save-at 5 --save trick2.pos
  cardboard run games/agram.rcy --position trick2.pos --seed 1
  cardboard play games/agram.rcy --seats human,mcts:2000,random,random

Positions (--position, --save) are described in docs/positions.md.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check rules files: a good file prints nothing; a bad one prints every
    /// error found, with file, line and column.
    ///
    /// Exit code: 0 when all files are good, 1 when some have errors, 2 when
    /// some cannot be read.
    #[command(after_help = "Example:\n  cardboard check games/*.rcy")]
    Check {
        /// The rules files (`.rcy`).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Play one game with random players and print its transcript: the
    /// setup, every decision (player, legal moves, move taken), the result.
    ///
    /// The same file, seed and settings always give the same transcript.
    ///
    /// With --save, the position where the game stops (at its end, or after
    /// --save-at decisions) is written to a file, to be started from with
    /// --position.
    #[command(after_help = "Examples:
  cardboard run games/agram.rcy --seed 7 --set NUMP=3
  cardboard run games/agram.rcy --seed 7 --save-at 5 --save trick2.pos
  cardboard run games/agram.rcy --position trick2.pos --seed 3")]
    Run {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Who plays each seat, in seat order: random, mcts[:BUDGET],
        /// ismcts[:BUDGET], separated by commas (e.g. mcts:2000,random); a
        /// budget is iterations, or seconds with an s (mcts:0.5s, not
        /// reproducible); seats not named are random. See docs/search.md.
        #[arg(long, value_name = "SEATS", value_parser = Seats::parse)]
        seats: Option<Seats>,
        /// Stop the game after this many decisions.
        #[arg(long, value_name = "M", default_value_t = DEFAULT_MAX_DECISIONS)]
        max_decisions: u64,
        /// Write the position where the game stops to this file (see
        /// docs/positions.md).
        #[arg(long, value_name = "POS")]
        save: Option<PathBuf>,
        /// Stop after N decisions (counted in this run) and save the position
        /// there (needs --save).
        #[arg(long, value_name = "N", requires = "save")]
        save_at: Option<u64>,
    },
    /// Play a game at the terminal: people (`human` seats) against each
    /// other or the computer. Each person sees the game from their own
    /// side only and picks a move by its number or its words; several
    /// people at one terminal pass the screen between turns.
    ///
    /// Exit code 0 when the game was played to its end (or left with
    /// `quit`), 1 when it could not be played or failed, 3 when the input
    /// ended first.
    #[command(after_help = "Examples:
  cardboard play games/agram.rcy --seats human,mcts:2000,random,random
  cardboard play games/cardbot-derby.rcy --seats human,human --set NUMP=2
  cardboard play games/agram.rcy --seed 3 --transcript game.json
  cardboard play games/agram.rcy --moves game.json
  cardboard play games/agram.rcy --moves served.json --game 2 --seats random,random

A record (--transcript, serve --record, --moves) is the game's seed and
settings and every move as a command, JSON (docs/protocol.md, \"A game's
record\").
At the prompt, `help` lists the commands (look, save FILE, transcript FILE, quit).")]
    Play {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Who plays each seat, in seat order: human (a person at this
        /// terminal), random, mcts[:BUDGET], ismcts[:BUDGET] (iterations or SECONDSs),
        /// separated by commas; seats not named are random [default:
        /// human, then random seats].
        #[arg(long, value_name = "SEATS", value_parser = Seats::parse)]
        seats: Option<Seats>,
        /// Stop the game after this many decisions.
        #[arg(long, value_name = "M", default_value_t = DEFAULT_MAX_DECISIONS)]
        max_decisions: u64,
        /// Play a saved game again: a record, as --transcript and `serve
        /// --record` write it. The game starts with the record's seed and
        /// settings (which also seed the computer seats), its moves are
        /// played, each checked as a server checks it, and the game goes
        /// on from there with --seats (with --position: the position the
        /// record started from).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "set"])]
        moves: Option<PathBuf>,
        /// With --moves: which game of the file to play (from 0, in the
        /// file's order; `serve --record` writes one per game played).
        #[arg(long = "game", value_name = "K", requires = "moves")]
        record_game: Option<usize>,
        /// When the game ends or is left, write its record (seed,
        /// settings, every move as a command) to this file, for --moves.
        #[arg(long, value_name = "FILE")]
        transcript: Option<PathBuf>,
        /// When the game ends or is left, write its position to this file
        /// (docs/positions.md; it holds every hidden card).
        #[arg(long, value_name = "POS")]
        save: Option<PathBuf>,
    },
    /// Play many games with random players and report how they went: who
    /// wins, how long games last, how many moves a player has to choose from.
    ///
    /// Game i depends only on --seed and i, so the report is the same for any
    /// --jobs. Exit code 1 when some game failed with a rules error (a game
    /// stopped at the limit is not an error).
    #[command(after_help = "Examples:
  cardboard simulate games/agram.rcy --games 10000
  cardboard simulate games/agram.rcy --games 1000 --set NUMP=5 --jobs 1 --json")]
    Simulate {
        /// The rules file.
        file: PathBuf,
        /// Number of games (at least 1).
        #[arg(long, value_name = "N", value_parser = parse_games)]
        games: u64,
        #[command(flatten)]
        game: GameArgs,
        /// Threads to play on: no more than the cores, nor than the chunks of
        /// 32 games, are started [default: one per core].
        #[arg(long, short = 'j', value_name = "J", value_parser = parse_jobs)]
        jobs: Option<usize>,
        /// Stop a game after this many decisions (counted as stopped).
        #[arg(long, value_name = "M", default_value_t = DEFAULT_MAX_DECISIONS)]
        max_decisions: u64,
        /// Who plays each seat, in seat order: random, mcts[:BUDGET],
        /// ismcts[:BUDGET], separated by commas (e.g. mcts:2000,random); a
        /// budget is iterations, or seconds with an s (mcts:0.5s, not
        /// reproducible); seats not named are random. See docs/search.md.
        #[arg(long, value_name = "SEATS", value_parser = Seats::parse)]
        seats: Option<Seats>,
        /// Print the report as one JSON object (keys in docs/report.md).
        #[arg(long)]
        json: bool,
        /// Which games have their legal moves counted: `sampled` (games 0,
        /// 50, 100, ...: fast) or `all`.
        #[arg(long, value_name = "WHICH", default_value = "sampled", value_parser = parse_branching)]
        branching: Branching,
        /// Write one row per game (index, seed, end, decisions, winners,
        /// scores, message) to FILE: CSV for a `.csv` name, JSON lines for
        /// `.jsonl`.
        #[arg(long, value_name = "FILE")]
        games_out: Option<PathBuf>,
        /// Write the report as one self-contained HTML page, with charts.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Play only the games whose index is K mod N (same seeds as the
        /// whole run); `cardboard merge` puts the shards' JSON reports
        /// together.
        #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
    },
    /// Merge the JSON reports of shards of one simulation (`simulate
    /// --shard K/N --json`) into the report of the whole run.
    ///
    /// Every count and statistic is exactly that of the unsharded run;
    /// `seconds` and `jobs` are the sums of the shards'.
    #[command(after_help = "Example:
  for k in 0 1 2 3; do cardboard simulate games/agram.rcy --games 100000 --shard $k/4 --json > s$k.json; done
  cardboard merge s0.json s1.json s2.json s3.json --html agram.html")]
    Merge {
        /// The JSON reports.
        #[arg(required = true, value_name = "REPORT")]
        files: Vec<PathBuf>,
        /// Print the merged report as one JSON object.
        #[arg(long)]
        json: bool,
        /// Write the merged report as one self-contained HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Count the move sequences from the start of a game, depth by depth:
    /// `depth d: nodes N (total T)`, N the nodes at exactly depth d, T the
    /// nodes at depths 1 to d; then the time and nodes per second. Shuffles
    /// are fixed by --seed. The counts are the same for any --jobs.
    #[command(after_help = "Example:\n  cardboard perft games/agram.rcy 4 --seed 1 --jobs 2")]
    Perft {
        /// The rules file.
        file: PathBuf,
        /// How many moves deep to count (at most 10000).
        #[arg(value_parser = parse_depth)]
        depth: usize,
        #[command(flatten)]
        game: GameArgs,
        /// Threads to count on, each taking moves of the start in turn: no
        /// more than the cores, nor than those moves, are started [default:
        /// one per core].
        #[arg(long, short = 'j', value_name = "J", value_parser = parse_jobs)]
        jobs: Option<usize>,
    },
    /// Serve games over the network: players join seats with `cardboard
    /// join` (or any client of the protocol, docs/protocol.md) at the
    /// WebSocket URL printed at start; the server checks and plays their
    /// moves. Prints one line per game played, then exits.
    #[command(after_help = "Examples:
  cardboard serve games/agram.rcy --port 8080
  cardboard serve games/agram.rcy --seats remote,mcts:500,random,random --games 3
  cardboard join ws://127.0.0.1:8080/ws --name ann")]
    Serve {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        serve: ServeArgs,
    },
    /// Play at a server (`cardboard serve`) from this terminal: the game as
    /// your seat sees it, your moves picked by number or typed.
    #[command(
        after_help = "Example:\n  cardboard join ws://127.0.0.1:8080/ws --name ann --seat 1"
    )]
    Join {
        #[command(flatten)]
        join: JoinArgs,
    },
}

/// Options that fix a game: its seed and the `declare`d constants set, or
/// the position it starts from.
#[derive(Args, Debug)]
struct GameArgs {
    /// Seed of the game's chance (shuffles) and of the random players.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Override a `declare`d constant, e.g. --set NUMP=4 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    set: Vec<(String, String)>,
    /// Start from the position in this file (docs/positions.md) instead of
    /// the beginning. The position carries its settings and its chance;
    /// --seed then seeds only the random players.
    #[arg(long, value_name = "POS", conflicts_with = "set")]
    position: Option<PathBuf>,
    /// Stop a game that runs more than this many steps between two
    /// decisions (a pass through a stage, an item, an item of a collection
    /// looped over).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Stop a game that keeps more than this many changes to take back
    /// between two decisions (while moves are tried, and for perft and
    /// search, up to the next decision; about 50 bytes each).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_CHANGES)]
    max_changes: u64,
    /// Stop a game that would have more than this many cards in play.
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_CARDS)]
    max_cards: u64,
    /// Stop a game at a choice of more than this many legal moves.
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_OPTIONS)]
    max_options: u64,
    /// Refuse a game whose table would have more than this many locations
    /// and storages (every space of the boards has one of each name the
    /// rules use), before the boards are built.
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_SLOTS)]
    max_slots: u64,
}

/// Reads `--games`: a number of games, at least 1.
fn parse_games(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("there is nothing to simulate in 0 games: give at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("`{text}` is not a number of games: {e}")),
    }
}

/// Reads `--branching`: `sampled` or `all`.
fn parse_branching(text: &str) -> Result<Branching, String> {
    match text {
        "sampled" => Ok(Branching::Sampled),
        "all" => Ok(Branching::All),
        _ => Err(format!("`{text}`: write `sampled` (1 game in 50) or `all`")),
    }
}

/// Reads perft's depth: at most [`MAX_DEPTH`].
fn parse_depth(text: &str) -> Result<usize, String> {
    match text.parse::<u64>() {
        Ok(n) if n <= MAX_DEPTH as u64 => Ok(n as usize),
        Ok(_) => Err(format!("perft counts at most {MAX_DEPTH} moves deep")),
        Err(e) => Err(format!("`{text}` is not a depth: {e}")),
    }
}

/// Reads `--jobs`: a number of threads, at least 1.
fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("give at least 1 thread (the default is one per core)".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("`{text}` is not a number of threads: {e}")),
    }
}

impl GameArgs {
    /// The limits on a game's work and memory (docs/language.md).
    fn limits(&self) -> Limits {
        Limits {
            steps: self.max_steps,
            changes: self.max_changes,
            cards: self.max_cards,
            options: self.max_options,
            slots: self.max_slots,
        }
    }

    fn options(&self) -> GameOptions {
        GameOptions {
            seed: self.seed,
            overrides: self.set.clone(),
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to standard output, mistakes to standard
            // error; a full disk is told, a closed pipe is not.
            let mut code = e.exit_code();
            if let Err(failure) = e.print() {
                if failure.kind() != ErrorKind::BrokenPipe {
                    say!("error: cannot write the output: {failure}");
                    code = code.max(EXIT_OUTPUT);
                }
            }
            return exit_code(code);
        }
    };
    let mut out = Output::new(std::io::stdout());
    let code = command(cli.command, &mut out);
    let code = match out.finish() {
        Ok(()) => code,
        Err(e) => {
            say!("error: cannot write the output: {e}");
            code.max(EXIT_OUTPUT)
        }
    };
    exit_code(code)
}

/// The process's exit code for `code` (0 to 255).
fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(u8::MAX))
}

/// Runs one subcommand, its output to `out`; returns the exit code.
fn command(command: Command, out: &mut Output<Stdout>) -> i32 {
    match command {
        Command::Check { files } => check_files(&files, &mut std::io::stderr().lock()),
        Command::Run {
            file,
            game,
            seats,
            max_decisions,
            save,
            save_at,
        } => with_rules(&file, game.limits(), |rules| {
            let start = match position_of(rules, &game) {
                Ok(start) => start,
                Err(code) => return code,
            };
            let limit = save_at.map_or(max_decisions, |n| n.min(max_decisions));
            let seats = seats.clone().unwrap_or_default();
            let (result, end_state) = match start {
                Some(state) => {
                    let options = GameOptions {
                        seed: game.seed,
                        overrides: state.settings(),
                    };
                    run_seated(&FromPosition::new(state), &options, limit, &seats)
                }
                None => run_seated(rules, &game.options(), limit, &seats),
            };
            out.put(&format!("file: {}\n", file.display()));
            if let Some(pos) = &game.position {
                out.put(&format!("position: {}\n", pos.display()));
            }
            out.put(&result.text);
            let mut code = match &result.end {
                // A rules error is also told on standard error.
                GameEnd::Error(why) => {
                    say!("error: {}: {why}", file.display());
                    1
                }
                _ => 0,
            };
            if let Some(path) = save {
                code = code.max(save_position(&path, &result.end, end_state.as_ref()));
            }
            code
        }),
        Command::Play {
            file,
            game,
            seats,
            max_decisions,
            moves,
            record_game,
            transcript,
            save,
        } => with_rules(&file, game.limits(), |rules| {
            let replay = match &moves {
                None => None,
                Some(path) => match replayed_record(path, record_game.unwrap_or(0), &game) {
                    Ok(record) => Some(record),
                    Err(code) => return code,
                },
            };
            let (seed, settings) = match &replay {
                Some(r) => (r.seed, r.settings.clone()),
                None => (game.seed, game.set.clone()),
            };
            let mut state = match position_of(rules, &game) {
                Ok(Some(state)) => state,
                Ok(None) => {
                    let options = GameOptions {
                        seed,
                        overrides: settings.clone(),
                    };
                    match rules.start(&options) {
                        Ok(state) => state,
                        Err(e) => {
                            say!("error: {}: the game cannot start: {e}", file.display());
                            return 1;
                        }
                    }
                }
                Err(code) => return code,
            };
            let seats = match seats {
                Some(seats) => seats.clone(),
                None => Seats::parse("human").unwrap_or_default(),
            };
            let mut record = GameRecord::new(seed, settings);
            record.rules = file_name(&file);
            if let Some(pos) = &game.position {
                // The position carries its settings.
                record.position = Some(pos.display().to_string());
                record.settings = state.settings();
            }
            record.seats = seats.describe(cardboard::game::GameState::num_players(&state));
            let options = PlayOptions {
                record,
                seats,
                seed,
                max_decisions,
                moves: replay.map(|r| r.commands).unwrap_or_default(),
                transcript: transcript.clone(),
                save: save.clone(),
                clear: std::io::stdout().is_terminal(),
            };
            let mut term = Terminal {
                input: std::io::stdin().lock(),
                output: std::io::stdout().lock(),
            };
            let position = |s: &State| Some(s.to_position());
            match play(&mut state, &options, &mut term, &position) {
                Ok(end) => {
                    match &end {
                        PlayEnd::Refused(why) => say!("error: {}: {why}", file.display()),
                        PlayEnd::Over(cardboard::game::Status::Failed(why)) => {
                            say!("error: {}: {why}", file.display())
                        }
                        _ => {}
                    }
                    end.exit_code()
                }
                // The terminal went away: a closed pipe quietly.
                Err(e) if e.kind() == ErrorKind::BrokenPipe => 0,
                Err(e) => {
                    say!("error: cannot write the output: {e}");
                    EXIT_OUTPUT
                }
            }
        }),
        Command::Simulate {
            file,
            games,
            game,
            jobs,
            max_decisions,
            seats,
            json,
            branching,
            games_out,
            html,
            shard,
        } => with_rules(&file, game.limits(), |rules| {
            let seats = seats.clone().unwrap_or_default();
            let config = SimulateConfig {
                games,
                seed: game.seed,
                overrides: game.set.clone(),
                max_decisions,
                jobs: jobs.unwrap_or(0),
            };
            let files = ReportFiles {
                json,
                html: html.clone(),
                games_out: games_out.clone(),
            };
            let sweep = || Sweep {
                branching,
                shard,
                file: file.display().to_string(),
                rows: None,
            };
            match position_of(rules, &game) {
                Ok(Some(state)) => simulate_command(
                    &FromPosition::new(state),
                    &config,
                    &seats,
                    sweep(),
                    &files,
                    out,
                ),
                Ok(None) => simulate_command(rules, &config, &seats, sweep(), &files, out),
                Err(code) => code,
            }
        }),
        Command::Merge { files, json, html } => merge_command(&files, json, html.as_deref(), out),
        Command::Serve {
            file,
            game,
            serve: args,
        } => serve(&file, &game, &args, out),
        Command::Join { join } => join_command(&join),
        Command::Perft {
            file,
            depth,
            game,
            jobs,
        } => with_rules(&file, game.limits(), |rules| {
            let start = match position_of(rules, &game) {
                Ok(Some(state)) => state,
                Ok(None) => match rules.start(&game.options()) {
                    Ok(state) => state,
                    Err(e) => {
                        say!("error: {}: the game cannot start: {e}", file.display());
                        return 1;
                    }
                },
                Err(code) => return code,
            };
            match perft_run(&start, depth, jobs.unwrap_or(0)) {
                Ok(run) => {
                    out.put(&perft_table(&run.counts));
                    let per_second = if run.seconds > 0.0 {
                        run.nodes() as f64 / run.seconds
                    } else {
                        0.0
                    };
                    out.put(&format!(
                        "time: {:.3} s, {per_second:.0} nodes/s, {} threads\n",
                        run.seconds, run.threads
                    ));
                    0
                }
                Err(e) => {
                    say!("error: {}: {e}", file.display());
                    1
                }
            }
        }),
    }
}

/// The record of `play --moves PATH` chosen with `--game K`; what is
/// wrong with it is said here and gives the exit code.
fn replayed_record(path: &Path, k: usize, game: &GameArgs) -> Result<GameRecord, i32> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        say!("error: cannot read {}: {e}", path.display());
        EXIT_UNREADABLE
    })?;
    let mut records = read_records(&text).map_err(|e| {
        say!("error: {}: {e}", path.display());
        EXIT_BAD_FILE
    })?;
    let n = records.len();
    if k >= n {
        say!(
            "error: {}: there is no game {k}: the file holds {n} (--game 0 to {})",
            path.display(),
            n - 1
        );
        return Err(EXIT_BAD_FILE);
    }
    let record = records.swap_remove(k);
    match (&record.position, &game.position) {
        (Some(pos), None) => {
            say!(
                "error: {}: the game started from the position {pos}: give it with --position",
                path.display()
            );
            Err(1)
        }
        (None, Some(_)) => {
            say!(
                "error: {}: the game started at the beginning, not from a position: leave out --position",
                path.display()
            );
            Err(1)
        }
        _ => Ok(record),
    }
}

/// The name of a rules file, as records and clients are told it.
fn file_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Runs `cardboard serve` on the rules (or the position) of `game`.
fn serve(file: &Path, game: &GameArgs, args: &ServeArgs, out: &mut Output<Stdout>) -> i32 {
    let name = file_name(file);
    with_rules(file, game.limits(), |rules| {
        match position_of(rules, game) {
            Ok(Some(state)) => {
                let settings = state.settings();
                let position = game.position.as_ref().map(|p| p.display().to_string());
                serve_command(
                    FromPosition::new(state),
                    &name,
                    position,
                    game.seed,
                    settings,
                    args,
                    out,
                )
            }
            Ok(None) => serve_command(
                rules.clone(),
                &name,
                None,
                game.seed,
                game.set.clone(),
                args,
                out,
            ),
            Err(code) => code,
        }
    })
}

/// Loads the rules at `path` and runs `command` on them, with `limits`; a
/// file that cannot be read or has errors is reported here.
fn with_rules(path: &Path, limits: Limits, command: impl FnOnce(&Rules) -> i32) -> i32 {
    match Rules::load(path) {
        Ok(rules) => command(&rules.with_limits(limits)),
        Err(LoadError::Io(message)) => {
            say!("error: {message}");
            EXIT_UNREADABLE
        }
        Err(LoadError::Check(e)) => {
            tell(format_args!("{}", e.render()));
            EXIT_BAD_FILE
        }
    }
}

/// The state of `--position`, if given; a position that cannot be read or
/// loaded is reported here (file, line, what) and gives the exit code.
fn position_of(rules: &Rules, game: &GameArgs) -> Result<Option<State>, i32> {
    let Some(path) = &game.position else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        say!("error: cannot read {}: {e}", path.display());
        EXIT_UNREADABLE
    })?;
    rules.load_position(&text).map(Some).map_err(|e| {
        if e.line > 0 {
            say!("error: {}:{}: {}", path.display(), e.line, e.message);
        } else {
            say!("error: {}: {}", path.display(), e.message);
        }
        EXIT_BAD_FILE
    })
}

/// Writes the position where a run stopped to `path` (`--save`); returns
/// the exit code.
fn save_position(path: &Path, end: &GameEnd, state: Option<&State>) -> i32 {
    let state = match (end, state) {
        (GameEnd::Error(_), _) | (_, None) => {
            say!("error: the game failed: no position saved");
            return 1;
        }
        (GameEnd::Stopped(_), _) => {
            say!("error: the engine stopped the game away from any decision: no position saved");
            return 1;
        }
        (_, Some(state)) => state,
    };
    match std::fs::write(path, state.to_position()) {
        Ok(()) => {
            say!(
                "saved the position after {} decisions to {}",
                state.decisions(),
                path.display()
            );
            0
        }
        Err(e) => {
            say!("error: cannot write {}: {e}", path.display());
            EXIT_UNREADABLE
        }
    }
}

/// Where `simulate` writes besides its report on standard output.
struct ReportFiles {
    /// The report as JSON rather than text.
    json: bool,
    /// `--html`.
    html: Option<PathBuf>,
    /// `--games-out`.
    games_out: Option<PathBuf>,
}

fn simulate_command<R: Ruleset>(
    rules: &R,
    config: &SimulateConfig,
    seats: &Seats,
    base: Sweep<'static>,
    files: &ReportFiles,
    out: &mut Output<Stdout>,
) -> i32 {
    use std::io::Write;
    let mut rows_file = None;
    if let Some(path) = &files.games_out {
        let format = match RowFormat::of_path(path) {
            Ok(format) => format,
            Err(e) => {
                say!("error: {e}");
                return 2;
            }
        };
        match std::fs::File::create(path) {
            Ok(f) => rows_file = Some((format, std::io::BufWriter::new(f))),
            Err(e) => {
                say!("error: cannot write {}: {e}", path.display());
                return EXIT_UNREADABLE;
            }
        }
    }
    let mut sweep = Sweep {
        branching: base.branching,
        shard: base.shard,
        file: base.file,
        rows: None,
    };
    let mut write_rows;
    if let Some((format, writer)) = rows_file.as_mut() {
        let name = files.games_out.clone().unwrap_or_default();
        write_rows = move |text: &str| {
            writer
                .write_all(text.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", name.display()))
        };
        sweep.rows = Some(Rows {
            format: *format,
            write: &mut write_rows,
        });
    }
    let bar = Progress::new(config.games, files.json);
    let result = simulate_sweep(rules, config, seats, sweep, &|n| bar.inc(n));
    bar.finish();
    let report = match result {
        Ok(report) => report,
        Err(e) => {
            say!("error: {e}");
            return 1;
        }
    };
    if let Some((_, mut writer)) = rows_file {
        if let Err(e) = writer.flush() {
            let name = files.games_out.clone().unwrap_or_default();
            say!("error: cannot write {}: {e}", name.display());
            return EXIT_UNREADABLE;
        }
    }
    let code = show_report(&report, files.json, files.html.as_deref(), out);
    if report.errors > 0 {
        code.max(1)
    } else {
        code
    }
}

/// Prints `report` (JSON or text) and writes its page to `html`; returns
/// the exit code.
fn show_report(
    report: &SimulateReport,
    json: bool,
    html: Option<&Path>,
    out: &mut Output<Stdout>,
) -> i32 {
    if json {
        out.put(&format!("{}\n", report.to_json()));
    } else {
        out.put(&report.to_text());
    }
    if let Some(path) = html {
        if let Err(e) = std::fs::write(path, report::html::page(report)) {
            say!("error: cannot write {}: {e}", path.display());
            return EXIT_UNREADABLE;
        }
    }
    0
}

/// `cardboard merge`: reads the reports, merges them, shows the result.
fn merge_command(
    files: &[PathBuf],
    json: bool,
    html: Option<&Path>,
    out: &mut Output<Stdout>,
) -> i32 {
    let mut reports = Vec::new();
    for path in files {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                say!("error: cannot read {}: {e}", path.display());
                return EXIT_UNREADABLE;
            }
        };
        match SimulateReport::from_json(&text) {
            Ok(r) => reports.push(r),
            Err(e) => {
                say!(
                    "error: {}: not a report of `simulate --json`: {e}",
                    path.display()
                );
                return EXIT_BAD_FILE;
            }
        }
    }
    match report::merge(&reports) {
        Ok(merged) => show_report(&merged, json, html, out),
        Err(e) => {
            say!("error: {e}");
            EXIT_BAD_FILE
        }
    }
}

/// The progress bar of `simulate` on standard error: drawn only when
/// standard error is a terminal, not with `--json`, and only once the run
/// has lasted a second (a short run shows nothing).
struct Progress {
    bar: indicatif::ProgressBar,
    started: std::time::Instant,
    shown: std::sync::atomic::AtomicBool,
    wanted: bool,
}

impl Progress {
    fn new(games: u64, json: bool) -> Progress {
        use std::io::IsTerminal;
        let bar = indicatif::ProgressBar::hidden();
        bar.set_length(games);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} games, {per_sec}, eta {eta}",
        ) {
            bar.set_style(style);
        }
        Progress {
            bar,
            started: std::time::Instant::now(),
            shown: std::sync::atomic::AtomicBool::new(false),
            wanted: !json && std::io::stderr().is_terminal(),
        }
    }

    fn inc(&self, games: u64) {
        use std::sync::atomic::Ordering;
        self.bar.inc(games);
        if self.wanted
            && !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed().as_secs_f64() >= 1.0
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(4));
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
