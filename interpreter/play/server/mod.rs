//! `cardboard serve`: the authoritative server of network play. It holds
//! the games; clients join seats over a WebSocket at `/ws` and send their
//! moves as commands (docs/protocol.md); `/` serves the browser page
//! ([`crate::play::web`]) and `/lobby` the seats it offers ([`lobby`]).
//!
//! The server plays `tables` games at once, each table `games` games one
//! after another (game `i` of table `t` seeded with
//! [`game_seed`](crate::drivers::game_seed)`(seed, t * games + i)`); a
//! table's game starts when every remote seat has a player. Each table is
//! a [`table::Table`] behind a mutex; a connection
//! ([`connection`]) reads its client's messages and hands them to its
//! table, and writes the table's messages from a bounded queue, so a slow
//! client only loses its own connection. The computer's moves are found on
//! blocking threads, off the runtime.
//!
//! ```no_run
//! # async fn demo(rules: cardboard::engine::Rules) -> Result<(), String> {
//! use cardboard::play::server::{ServeConfig, Server};
//! let config = ServeConfig::new("agram.rcy");
//! let server = Server::bind(rules, config).await?;
//! println!("{}", server.url());
//! let reports = server.run().await;
//! # Ok(()) }
//! ```

pub mod cli;
pub mod connection;
pub mod credentials;
pub mod listener;
pub mod lobby;
pub mod table;

use crate::command::GameRecord;
use crate::drivers::{Ruleset, DEFAULT_MAX_DECISIONS};
use crate::game::{GameState, Outcome};
use crate::play::protocol::EndKind;
use crate::search::seats::{SeatKind, Seats};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use listener::{GuardedListener, Limits, Peer};
use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use table::{Action, Table};
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// Who holds a seat at the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatSpec {
    /// A player over the network.
    Remote,
    /// The computer, as `--seats` names it elsewhere.
    Computer(SeatKind),
}

impl SeatSpec {
    /// Reads `serve --seats`: `remote`, or a computer's kind (`random`,
    /// `mcts[:N]`, `ismcts[:N]`), separated by commas.
    pub fn parse_list(text: &str) -> Result<Vec<SeatSpec>, String> {
        let seats = Seats::parse(text)?;
        (0..text.split(',').count())
            .map(|i| match seats.kind(i) {
                SeatKind::Remote => Ok(SeatSpec::Remote),
                SeatKind::Human => Err(format!(
                    "seat {i}: a human seat plays at one terminal (`cardboard play`); \
                     at a server, players are remote and join with `cardboard join`"
                )),
                kind => Ok(SeatSpec::Computer(kind)),
            })
            .collect()
    }

    /// The kind of the computer's player of the seat (remote seats, when the
    /// computer takes them over, play as `takeover_by`).
    fn computer_kind(&self, takeover_by: SeatKind) -> String {
        match self {
            SeatSpec::Remote => takeover_by.to_string(),
            SeatSpec::Computer(kind) => kind.to_string(),
        }
    }
}

impl fmt::Display for SeatSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatSpec::Remote => write!(f, "remote"),
            SeatSpec::Computer(kind) => write!(f, "{kind}"),
        }
    }
}

/// How the server runs (the options of `cardboard serve`).
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on (loopback by default).
    pub bind: IpAddr,
    /// The port; 0 for any free one.
    pub port: u16,
    /// Who holds each seat; seats not named are remote.
    pub seats: Vec<SeatSpec>,
    /// Games each table plays one after another.
    pub games: u64,
    /// Tables playing at once.
    pub tables: usize,
    /// The base seed of the games' chance and of the computer's players.
    pub seed: u64,
    /// The `--set` overrides.
    pub settings: Vec<(String, String)>,
    /// How long a remote seat's player may be away before the computer
    /// plays for it (`None`: the game waits).
    pub takeover: Option<Duration>,
    /// Who plays for a remote seat taken over (`random`, `mcts:N`,
    /// `ismcts:N`).
    pub takeover_by: SeatKind,
    /// A game still running after this many decisions is stopped.
    pub max_decisions: u64,
    /// The rules file's name, told to the clients.
    pub rules_name: String,
    /// The position file the games start from, if they do (for the
    /// records).
    pub position: Option<String>,
    /// Where each game's record is sent as the game ends (`--record`:
    /// to the thread writing the file; `None` ends that thread).
    pub records: Option<std::sync::mpsc::Sender<Option<GameRecord>>>,
    /// Connections open at once, in all (`--max-connections`).
    pub max_connections: usize,
    /// Connections open at once from one address
    /// (`--max-connections-per-address`).
    pub max_connections_per_address: usize,
    /// How long a WebSocket connection holding no seat may send nothing
    /// before it is closed (`--idle-timeout`).
    pub idle_timeout: Duration,
    /// How long a connection is given to send a whole HTTP request (its
    /// WebSocket handshake), [`HANDSHAKE_TIME`].
    pub handshake_timeout: Duration,
}

/// The default of `--max-connections`.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1000;

/// The default of `--max-connections-per-address`.
pub const DEFAULT_MAX_PER_ADDRESS: usize = 100;

/// The default of `--idle-timeout`.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// The time a connection is given to send a whole HTTP request, its
/// WebSocket handshake included ([`listener`]).
pub const HANDSHAKE_TIME: Duration = Duration::from_secs(5);

/// The read buffer of a WebSocket connection, in bytes: with the limit
/// of a message ([`crate::play::protocol::MAX_MESSAGE`]), what bounds the
/// memory a client's messages take at the server.
pub const READ_BUFFER: usize = 4 * 1024;

impl ServeConfig {
    /// One table, one game, every seat remote, on a free loopback port.
    pub fn new(rules_name: &str) -> ServeConfig {
        ServeConfig {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            seats: Vec::new(),
            games: 1,
            tables: 1,
            seed: 0,
            settings: Vec::new(),
            takeover: None,
            takeover_by: SeatKind::Random,
            max_decisions: DEFAULT_MAX_DECISIONS,
            rules_name: rules_name.to_string(),
            position: None,
            records: None,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: DEFAULT_MAX_PER_ADDRESS,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            handshake_timeout: HANDSHAKE_TIME,
        }
    }
}

/// One game played at the server.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Its table.
    pub table: usize,
    /// Its number at the table.
    pub game: u64,
    /// Its seed, settings and commands (to replay it).
    pub record: GameRecord,
    /// How it ended.
    pub how: EndKind,
    /// Its result, when it finished.
    pub outcome: Option<Outcome>,
    /// Why it stopped or failed.
    pub message: Option<String>,
    /// The whole table at its end ([`Ruleset::describe`]).
    pub table_text: String,
}

/// What the tables and connections share.
pub struct Hub<R: Ruleset> {
    tables: Vec<Mutex<Table<R>>>,
    config: Arc<ServeConfig>,
    /// The settings the games are played with (the lobby's `values`).
    values: Vec<(String, String)>,
    /// Each token's table and seat.
    tokens: Mutex<HashMap<String, (usize, usize)>>,
    next_conn: AtomicU64,
    tables_left: AtomicUsize,
    /// Connections still open.
    open: AtomicUsize,
    all_done: Notify,
    /// Told when the last connection closes.
    all_closed: Notify,
}

/// Locks a mutex; a panic elsewhere (which the release build turns into an
/// abort) leaves nothing half-changed that matters here.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<R> Hub<R>
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
{
    /// Locks table `t`, lets `f` change it, then starts the work it asks
    /// for.
    fn with_table<T>(
        self: &Arc<Self>,
        t: usize,
        f: impl FnOnce(&mut Table<R>) -> (T, Vec<Action<R::State>>),
    ) -> Option<T> {
        let table = self.tables.get(t)?;
        let (value, actions) = f(&mut lock(table));
        for action in actions {
            self.start(t, action);
        }
        Some(value)
    }

    fn start(self: &Arc<Self>, t: usize, action: Action<R::State>) {
        match action {
            Action::Compute {
                game,
                decision,
                state,
                mut player,
            } => {
                let hub = Arc::clone(self);
                tokio::spawn(async move {
                    let found = tokio::task::spawn_blocking(move || {
                        let mv = crate::player::Player::choose_move(&mut *player, &*state);
                        (*player, mv)
                    })
                    .await;
                    if let Ok((player, mv)) = found {
                        hub.with_table(t, |table| ((), table.computed(game, decision, player, mv)));
                    }
                });
            }
            Action::WakeAt(at) => {
                let hub = Arc::clone(self);
                tokio::spawn(async move {
                    tokio::time::sleep_until(at).await;
                    hub.with_table(t, |table| ((), table.wake()));
                });
            }
            Action::Done => {
                if self.tables_left.fetch_sub(1, Ordering::AcqRel) == 1 {
                    self.all_done.notify_one();
                }
            }
        }
    }

    /// A new reconnection token, for `seat` at table `t`: from the
    /// operating system's randomness only ([`credentials::token`]).
    fn new_token(&self, t: usize, seat: usize) -> Result<String, String> {
        let token = credentials::token()?;
        lock(&self.tokens).insert(token.clone(), (t, seat));
        Ok(token)
    }
}

/// The number of players of the games `config` serves and the settings
/// they are played with ([`GameState::settings`]): those of a game of
/// `rules` started with the config's first seed. Errors (the rules' or
/// the seats') when that game cannot start, `config` names more seats,
/// or leaves no seat remote.
pub fn players<R: Ruleset>(
    rules: &R,
    config: &ServeConfig,
) -> Result<(usize, Vec<(String, String)>), String> {
    let options = crate::engine::GameOptions {
        seed: crate::drivers::game_seed(config.seed, 0),
        overrides: config.settings.clone(),
    };
    let first = rules
        .start(&options)
        .map_err(|e| format!("the game cannot start: {e}"))?;
    let players = first.num_players();
    if config.seats.len() > players {
        return Err(format!(
            "--seats names {} seats but the game has {players} players",
            config.seats.len()
        ));
    }
    // A table starts its game when its last remote seat is taken: with
    // none, no one could join and nothing would ever start.
    if config.seats.len() == players && !config.seats.contains(&SeatSpec::Remote) {
        return Err(
            "--seats gives every seat to the computer: no one could join, and no game \
             would start (`cardboard simulate --seats ...` plays the computer against itself)"
                .to_string(),
        );
    }
    Ok((players, first.settings()))
}

/// A server bound to its address, ready to run.
pub struct Server<R: Ruleset> {
    listener: TcpListener,
    hub: Arc<Hub<R>>,
}

impl<R> Server<R>
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
{
    /// Binds the address of `config` and sets up its tables (the number
    /// of seats is that of a game started with the config's first seed,
    /// [`players`]).
    pub async fn bind(rules: R, config: ServeConfig) -> Result<Server<R>, String> {
        let (players, values) = players(&rules, &config)?;
        if config.tables == 0 || config.games == 0 {
            return Err("give at least one table and one game".to_string());
        }
        let listener = TcpListener::bind(SocketAddr::new(config.bind, config.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
        let rules = Arc::new(rules);
        let tables_n = config.tables;
        let config = Arc::new(config);
        let tables = (0..tables_n)
            .map(|t| {
                Mutex::new(Table::new(
                    t,
                    Arc::clone(&rules),
                    Arc::clone(&config),
                    players,
                ))
            })
            .collect();
        // The tokens are credentials: a server that cannot make one would
        // seat nobody, so it does not start.
        credentials::token()?;
        let hub = Hub {
            tables,
            config: Arc::clone(&config),
            values,
            tokens: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(0),
            tables_left: AtomicUsize::new(tables_n),
            open: AtomicUsize::new(0),
            all_done: Notify::new(),
            all_closed: Notify::new(),
        };
        Ok(Server {
            listener,
            hub: Arc::new(hub),
        })
    }

    /// The address listened on.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// The address a client on this machine reaches the server at
    /// ([`reachable`]).
    pub fn reachable_addr(&self) -> Option<SocketAddr> {
        self.local_addr().map(reachable)
    }

    /// The WebSocket URL clients on this machine join.
    pub fn url(&self) -> String {
        match self.reachable_addr() {
            Some(addr) => format!("ws://{addr}/ws"),
            None => "ws://?/ws".to_string(),
        }
    }

    /// Serves until every table has played its games, then returns their
    /// reports (by table, then game).
    pub async fn run(self) -> Vec<GameReport> {
        let hub = Arc::clone(&self.hub);
        let app = Router::new()
            .merge(crate::play::web::routes())
            .route("/lobby", get(lobby::lobby::<R>))
            .route("/ws", get(upgrade::<R>))
            .with_state(Arc::clone(&hub));
        let done = Arc::clone(&hub);
        let shutdown = async move { done.all_done.notified().await };
        let config = &hub.config;
        let limits = Limits {
            max_connections: config.max_connections,
            max_per_address: config.max_connections_per_address,
            handshake: config.handshake_timeout,
        };
        let listener = GuardedListener::new(self.listener, limits);
        let _ = axum::serve(listener, app.into_make_service_with_connect_info::<Peer>())
            .with_graceful_shutdown(shutdown)
            .await;
        // Let the connections send their last messages (bounded in time).
        let closing = async {
            while hub.open.load(Ordering::Acquire) > 0 {
                hub.all_closed.notified().await;
            }
        };
        let _ = tokio::time::timeout(Duration::from_secs(5), closing).await;
        let mut reports = Vec::new();
        for table in &hub.tables {
            reports.extend(lock(table).take_reports());
        }
        reports
    }
}

/// The address a client on this machine reaches a server listening on
/// `addr` at: `addr` itself, but loopback (127.0.0.1 or ::1) for the
/// unspecified address (`--bind 0.0.0.0`: every interface), which no
/// client can join and no one can share.
pub fn reachable(addr: SocketAddr) -> SocketAddr {
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port())
}

/// `/ws`: a client's connection. A message or frame over
/// [`MAX_MESSAGE`](crate::play::protocol::MAX_MESSAGE) is refused as its
/// header is read, before its payload is (the connection is closed,
/// [`connection`]).
async fn upgrade<R>(
    ws: WebSocketUpgrade,
    ConnectInfo(peer): ConnectInfo<Peer>,
    State(hub): State<Arc<Hub<R>>>,
) -> impl IntoResponse
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
{
    peer.upgraded();
    let most = crate::play::protocol::MAX_MESSAGE;
    ws.max_message_size(most)
        .max_frame_size(most)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| connection::serve(socket, hub))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_of_a_server() {
        let seats = SeatSpec::parse_list("remote, mcts:20,random").expect("reads");
        assert_eq!(
            seats,
            vec![
                SeatSpec::Remote,
                SeatSpec::Computer(SeatKind::Mcts(20)),
                SeatSpec::Computer(SeatKind::Random)
            ]
        );
        assert!(SeatSpec::parse_list("remote,human").is_err());
        assert!(SeatSpec::parse_list("robot").is_err());
    }

    #[test]
    fn every_interface_is_reached_at_loopback() {
        let at = |text: &str| reachable(text.parse().expect("an address")).to_string();
        assert_eq!(at("0.0.0.0:8080"), "127.0.0.1:8080");
        assert_eq!(at("[::]:8080"), "[::1]:8080");
        assert_eq!(at("127.0.0.1:9"), "127.0.0.1:9");
        assert_eq!(at("192.168.1.20:9"), "192.168.1.20:9");
        assert_eq!(at("[fe80::1]:9"), "[fe80::1]:9");
    }
}
