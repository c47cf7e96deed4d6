//! The server's credentials: reconnection tokens come from the operating
//! system, not from anything a player knows (the seed, the clock of the
//! server's start), and a seat taken back with its token tells the
//! connection that held it, and closes it with a close code and reason.
//! Loopback only, every wait bounded.

mod net;

use cardboard::play::protocol::{ClientMessage, ErrorCode, ServerMessage, VERSION};
use cardboard::play::server::connection::Farewell;
use cardboard::play::server::{SeatSpec, ServeConfig, Server};
use cardboard::random::{mix64, GameRng};
use cardboard::search::seats::SeatKind;
use net::{play, shipped, Client};
use rand::Rng as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// Nanoseconds since the epoch.
fn clock() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The most clock values the search below tries (some 2 s of a debug
/// build): a window of 8 ms around the servers' start.
const SEARCH: u64 = 8_000_000;

/// A config for two-player Agram against a random seat, with `seed`.
fn agram(seed: u64) -> ServeConfig {
    let mut config = ServeConfig::new("agram.rcy");
    config.seed = seed;
    config.settings = vec![("NUMP".into(), "2".into())];
    config.seats = vec![SeatSpec::Remote, SeatSpec::Computer(SeatKind::Random)];
    config
}

/// Two servers started at the same instant with the same seed hand out
/// different tokens, 128 bits each; and neither token is the one a
/// generator seeded from the clock and the seed would give, for any clock
/// reading (to the nanosecond) while the servers started: the way the
/// tokens were made before (issue 27, "Reconnection tokens can be
/// predicted"), which a player who knew the seed and the start to some
/// milliseconds could search.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_of_two_servers_with_one_seed_differ_and_owe_nothing_to_the_seed() {
    let seed = 7;
    let before = clock();
    let (a, b) = tokio::join!(
        Server::bind(shipped("agram.rcy"), agram(seed)),
        Server::bind(shipped("agram.rcy"), agram(seed))
    );
    let after = clock();
    let (a, b) = (a.expect("a starts"), b.expect("b starts"));
    let (url_a, url_b) = (a.url(), b.url());
    tokio::spawn(a.run());
    tokio::spawn(b.run());
    let first = Client::join(&url_a, Some(0)).await;
    let second = Client::join(&url_b, Some(0)).await;
    let tokens = [
        first.token.clone().expect("a token"),
        second.token.clone().expect("a token"),
    ];
    assert_ne!(tokens[0], tokens[1]);
    for token in &tokens {
        assert_eq!(token.len(), 32, "128 bits in hexadecimal: {token}");
        assert!(token.bytes().all(|c| c.is_ascii_hexdigit()));
    }
    // The old way: the first token of a server was the first two words of
    // GameRng::new(mix64(clock ^ mix64(seed))).
    let window = after.saturating_sub(before).min(SEARCH);
    let salt = mix64(seed);
    let found = (before..=before + window).find(|&at| {
        let mut rng = GameRng::new(mix64(at ^ salt));
        let token = format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64());
        tokens.contains(&token)
    });
    assert_eq!(
        found,
        None,
        "a token was found from the seed and the clock ({} values searched)",
        window + 1
    );
    eprintln!("searched {} clock values: no token found", window + 1);
}

/// A token takes its seat even from a connection still open (the newest
/// holder of the credential wins: the old connection may be one the
/// server has not yet seen drop); the old connection is told `taken_back`
/// and closed with code 4000 and a reason; the game goes on with the new.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_taken_back_tells_and_closes_the_connection_that_held_it() {
    let (url, server) = net::start(shipped("agram.rcy"), agram(3)).await;
    let mut old = Client::join(&url, Some(0)).await;
    let token = old.token.clone().expect("a token");
    // The game starts; the old connection is still open and reading.
    old.until(|m| matches!(m, ServerMessage::State { .. }).then_some(()))
        .await;
    let mut new = Client::connect(&url).await;
    new.send(&ClientMessage::Rejoin {
        version: VERSION,
        token: token.clone(),
    })
    .await;
    let seat = new
        .until(|m| match m {
            ServerMessage::Welcome { seat, .. } => Some(*seat),
            _ => None,
        })
        .await;
    assert_eq!(seat, 0);
    let close = old.closing().await;
    let told = old.received.iter().find_map(|m| match m {
        ServerMessage::Error { code, message } => Some((*code, message.clone())),
        _ => None,
    });
    let (code, message) = told.expect("the old connection is told");
    assert_eq!(code, ErrorCode::TakenBack);
    assert!(message.contains("taken back"), "{message}");
    assert_eq!(
        close,
        Some((
            Farewell::TakenBack.code(),
            Farewell::TakenBack.reason().to_string()
        ))
    );
    assert_eq!(Farewell::TakenBack.code(), 4000);
    // The seat plays on with its new connection, to the end.
    let played = play(&mut new, 1, None).await;
    assert!(!played.commands.is_empty());
    let reports = server.await.expect("ends");
    assert_eq!(reports.len(), 1);
    // The server's goodbye closes with 1000.
    assert_eq!(new.closing().await.map(|(code, _)| code), Some(1000));
}
