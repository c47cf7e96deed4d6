//! The server facing the internet (docs/protocol.md, "Limits and
//! security"): a message over 16 KiB is refused by the WebSocket layer
//! before it is read, so that many connections sending large messages
//! leave the server small and an honest player answered; half-open
//! connections (an HTTP request never finished) are closed; the caps on
//! connections refuse with 503; a connection holding no seat that sends
//! nothing is closed; a move is answered at once (`TCP_NODELAY`); and
//! the flags of `serve` set these limits.
//! Loopback only, every wait bounded.

mod net;

use cardboard::play::protocol::{ClientMessage, ErrorCode, ServerMessage, MAX_MESSAGE};
use cardboard::play::server::connection::Farewell;
use cardboard::play::server::{SeatSpec, ServeConfig, HANDSHAKE_TIME};
use cardboard::search::seats::SeatKind;
use net::{shipped, start, Client};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::MaybeTlsStream;

/// `cardboard serve ARGS`, killed when dropped.
struct Served {
    child: Child,
    /// Its `host:port`.
    addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Starts `cardboard serve` on two-player Agram against a random seat,
    /// with `more` arguments.
    fn agram(more: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardboard"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["serve", "games/agram.rcy", "--set", "NUMP=2"])
            .args(["--seats", "remote,random", "--games", "100"])
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        lines.read_line(&mut first).expect("the URL line");
        let addr = first
            .split_whitespace()
            .find_map(|w| w.strip_prefix("ws://"))
            .and_then(|w| w.strip_suffix("/ws"))
            .unwrap_or_else(|| panic!("a URL in `{first}`"))
            .to_string();
        // The rest of its output is read and dropped.
        std::thread::spawn(move || lines.lines().for_each(drop));
        Served { child, addr }
    }

    fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// A line of the server's /proc status (`VmRSS`, `VmHWM`), in KiB.
    fn memory_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{field} in /proc status"))
    }
}

/// Opens a WebSocket by hand on a raw TCP connection (the handshake of
/// RFC 6455); `None` when the server refuses or closes.
async fn raw_websocket(addr: &str) -> Option<TcpStream> {
    let mut tcp = TcpStream::connect(addr).await.ok()?;
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    tcp.write_all(request.as_bytes()).await.ok()?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if tcp.read(&mut byte).await.ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    head.starts_with(b"HTTP/1.1 101").then_some(tcp)
}

/// A megabyte of payload, shared by the attackers.
static PAYLOAD: [u8; 1_000_000] = [b' '; 1_000_000];

/// Sends one text message of [`PAYLOAD`] (masked with the zero key, so the
/// bytes go as they are); stops at the first refused write.
async fn send_megabyte(tcp: &mut TcpStream) {
    let mut header = vec![0x81, 0x80 | 127];
    header.extend_from_slice(&(PAYLOAD.len() as u64).to_be_bytes());
    header.extend_from_slice(&[0, 0, 0, 0]);
    if tcp.write_all(&header).await.is_ok() {
        let _ = tcp.write_all(&PAYLOAD).await;
    }
}

/// The longest of `n` answers to `sync` for `client`.
async fn slowest_sync(client: &mut Client, n: usize) -> Duration {
    let mut slowest = Duration::ZERO;
    for _ in 0..n {
        let asked = Instant::now();
        client.send(&ClientMessage::Sync).await;
        client
            .until(|m| matches!(m, ServerMessage::State { .. }).then_some(()))
            .await;
        slowest = slowest.max(asked.elapsed());
    }
    slowest
}

/// Connections sending a large message each, at once.
const ATTACKERS: usize = 300;

/// The most the server's peak memory may grow while they do: some 100 KiB
/// a connection (old code, which read each message whole: about 1 MB a
/// connection).
const GROWTH_KIB: u64 = 32 * 1024;

/// The longest an honest player's `sync` may wait meanwhile.
const REPLY: Duration = Duration::from_millis(500);

/// Many connections each sending a 1 MB message: each is closed as its
/// message's header is read, the server's memory stays within
/// [`GROWTH_KIB`] of what it was, and an honest player is answered within
/// [`REPLY`] all along.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_messages_from_many_connections_leave_the_server_small() {
    let limit = (2 * ATTACKERS).to_string();
    let served = Served::agram(&[
        "--max-connections",
        &limit,
        "--max-connections-per-address",
        &limit,
    ]);
    let mut honest = Client::join(&served.url(), Some(0)).await;
    honest
        .until(|m| matches!(m, ServerMessage::State { .. }).then_some(()))
        .await;
    let before = served.memory_kib("VmRSS");
    let done = Arc::new(AtomicUsize::new(0));
    let attackers: Vec<_> = (0..ATTACKERS)
        .map(|_| {
            let addr = served.addr.clone();
            let done = Arc::clone(&done);
            tokio::spawn(async move {
                let tcp = match raw_websocket(&addr).await {
                    Some(mut tcp) => {
                        send_megabyte(&mut tcp).await;
                        Some(tcp) // held open
                    }
                    None => None,
                };
                done.fetch_add(1, Ordering::AcqRel);
                tcp
            })
        })
        .collect();
    // The honest player asks all along, until every attacker has sent.
    let mut slowest = Duration::ZERO;
    let mut asked = 0;
    while done.load(Ordering::Acquire) < ATTACKERS || asked < 5 {
        slowest = slowest.max(slowest_sync(&mut honest, 1).await);
        asked += 1;
    }
    let mut held = Vec::new();
    for attacker in attackers {
        held.push(attacker.await.expect("an attacker runs"));
    }
    let peak = served.memory_kib("VmHWM");
    let growth = peak.saturating_sub(before);
    eprintln!(
        "{ATTACKERS} connections x 1 MB: VmRSS before {before} KiB, VmHWM after {peak} KiB \
         (+{growth} KiB); an honest sync's slowest answer {slowest:?} ({asked} asked); \
         {} handshakes done",
        held.iter().flatten().count()
    );
    assert!(growth < GROWTH_KIB, "the server grew by {growth} KiB");
    assert!(slowest < REPLY, "an honest sync waited {slowest:?}");
}

/// Half-open connections (an HTTP request begun and never finished, or
/// sent a byte a second) are closed within the handshake's time, and an
/// honest player is served meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_are_closed() {
    let served = Served::agram(&[]);
    let began = Instant::now();
    let mut stalled = Vec::new();
    for i in 0..50 {
        let addr = served.addr.clone();
        stalled.push(tokio::spawn(async move {
            let mut tcp = TcpStream::connect(&addr).await.expect("connects");
            let part = format!("GET /ws HTTP/1.1\r\nHost: {addr}\r\n");
            tcp.write_all(part.as_bytes()).await.expect("writes");
            let mut buf = [0u8; 256];
            let closed = async {
                loop {
                    // One connection in ten trickles a byte a second.
                    let read = tokio::time::timeout(Duration::from_secs(1), tcp.read(&mut buf));
                    match read.await {
                        Ok(Ok(0) | Err(_)) => return,
                        Ok(Ok(_)) => {}
                        Err(_) if i % 10 == 0 => {
                            if tcp.write_all(b"X").await.is_err() {
                                return;
                            }
                        }
                        Err(_) => {}
                    }
                }
            };
            let limit = HANDSHAKE_TIME + Duration::from_secs(3);
            tokio::time::timeout(limit, closed).await.is_ok()
        }));
    }
    let mut honest = Client::join(&served.url(), Some(0)).await;
    let slowest = slowest_sync(&mut honest, 5).await;
    let mut closed = 0;
    for s in stalled {
        closed += usize::from(s.await.expect("runs"));
    }
    eprintln!(
        "50 half-open connections: {closed} closed by the server within {:?} (all done after \
         {:?}); an honest sync's slowest answer {slowest:?}",
        HANDSHAKE_TIME + Duration::from_secs(3),
        began.elapsed()
    );
    assert_eq!(closed, 50);
}

/// A client's connection from the loopback address `ip` (127.0.0.x).
async fn connect_from(ip: &str, url: &str) -> Result<Client, u16> {
    let addr = url
        .trim_start_matches("ws://")
        .trim_end_matches("/ws")
        .parse()
        .expect("an address");
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(format!("{ip}:0").parse().expect("an address"))
        .expect("binds");
    let tcp = socket.connect(addr).await.expect("connects");
    match tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp)).await {
        Ok((socket, _)) => Ok(Client::from_socket(socket)),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(response.status().as_u16())
        }
        Err(e) => panic!("neither a WebSocket nor a refusal: {e}"),
    }
}

/// The caps on connections: in all and from one address. Past them a
/// connection is answered 503; a place given back is taken again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_caps_are_refused_with_503() {
    let mut config = ServeConfig::new("agram.rcy");
    config.settings = vec![("NUMP".into(), "2".into())];
    config.max_connections = 3;
    config.max_connections_per_address = 2;
    let (url, _server) = start(shipped("agram.rcy"), config).await;
    let a = connect_from("127.0.0.1", &url).await.expect("the first");
    let _b = connect_from("127.0.0.1", &url).await.expect("the second");
    assert_eq!(connect_from("127.0.0.1", &url).await.err(), Some(503));
    let _c = connect_from("127.0.0.2", &url)
        .await
        .expect("another address");
    assert_eq!(connect_from("127.0.0.3", &url).await.err(), Some(503));
    // A connection closed gives its place back (once it has lingered).
    a.close().await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match connect_from("127.0.0.1", &url).await {
            Ok(_) => break,
            Err(code) => assert!(Instant::now() < deadline, "still refused ({code})"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A WebSocket holding no seat that sends nothing is closed with 4002
/// after the idle timeout; one holding a seat is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_without_a_seat_that_sends_nothing_is_closed() {
    let mut config = ServeConfig::new("agram.rcy");
    config.settings = vec![("NUMP".into(), "2".into())];
    config.seats = vec![SeatSpec::Remote, SeatSpec::Computer(SeatKind::Random)];
    config.idle_timeout = Duration::from_millis(500);
    let (url, _server) = start(shipped("agram.rcy"), config).await;
    let mut seated = Client::join(&url, Some(0)).await;
    let mut idle = Client::connect(&url).await;
    let began = Instant::now();
    let close = idle.closing().await;
    let waited = began.elapsed();
    assert_eq!(
        close,
        Some((Farewell::Idle.code(), Farewell::Idle.reason().to_string()))
    );
    assert!(
        waited >= Duration::from_millis(450),
        "closed after {waited:?}"
    );
    assert!(waited < Duration::from_secs(5), "closed after {waited:?}");
    // The seated connection, silent as long, is still served.
    tokio::time::sleep(Duration::from_millis(700)).await;
    slowest_sync(&mut seated, 1).await;
}

/// A message over 16 KiB is answered `too_long` and the connection closed
/// with 1009; one of 16 KiB is read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_16_kib_closes_the_connection_with_1009() {
    let mut config = ServeConfig::new("agram.rcy");
    config.settings = vec![("NUMP".into(), "2".into())];
    let (url, _server) = start(shipped("agram.rcy"), config).await;
    let mut client = Client::connect(&url).await;
    let pad = MAX_MESSAGE - r#"{"type":"sync","x":""}"#.len();
    let fits = format!(r#"{{"type":"sync","x":"{}"}}"#, " ".repeat(pad));
    assert_eq!(fits.len(), MAX_MESSAGE);
    // Read and answered (a `sync` before joining).
    assert_eq!(client.refused(fits).await, ErrorCode::NotJoined);
    client.send_text(" ".repeat(MAX_MESSAGE + 1)).await;
    let close = client.closing().await;
    assert!(client
        .received
        .iter()
        .any(|m| matches!(m, ServerMessage::Error { code, .. } if *code == ErrorCode::TooLong)));
    assert_eq!(
        close,
        Some((
            Farewell::TooLong.code(),
            Farewell::TooLong.reason().to_string()
        ))
    );
    assert_eq!(Farewell::TooLong.code(), 1009);
}

/// Moves answered at once: a plain client (nothing set on its socket)
/// playing a random seat gets the state after the seat's reply, each move,
/// in a median under [`PROMPT`] (before `TCP_NODELAY`: about 44 ms, the
/// delayed acknowledgement of the client holding back the server's second
/// message).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_answered_in_milliseconds() {
    const PROMPT: Duration = Duration::from_millis(10);
    let mut config = ServeConfig::new("agram.rcy");
    config.settings = vec![("NUMP".into(), "2".into())];
    config.seats = vec![SeatSpec::Remote, SeatSpec::Computer(SeatKind::Random)];
    config.games = 10;
    let (url, _server) = start(shipped("agram.rcy"), config).await;
    let mut client = Client::join(&url, Some(0)).await;
    let mut waits = Vec::new();
    let mut offered: Option<Instant> = None;
    while waits.len() < 25 {
        let message = client.next().await.expect("the server goes on");
        match message {
            ServerMessage::State {
                game,
                decision,
                observation,
                ..
            } if !observation.moves.is_empty() => {
                if let Some(asked) = offered.take() {
                    waits.push(asked.elapsed());
                }
                let command = cardboard::play::protocol::MoveCommand {
                    game,
                    decision,
                    mv: cardboard::play::protocol::MoveChoice::Id(observation.moves[0].id),
                };
                offered = Some(Instant::now());
                client.send(&ClientMessage::Command { command }).await;
            }
            ServerMessage::End { .. } => offered = None,
            _ => {}
        }
    }
    waits.sort();
    let median = waits[waits.len() / 2];
    eprintln!(
        "a move's answer from a random seat: median {median:?}, slowest {:?} ({} moves)",
        waits[waits.len() - 1],
        waits.len()
    );
    assert!(median < PROMPT, "median {median:?}");
}

/// `serve`'s flags set the limits: with `--max-connections 1` a second
/// connection is refused with 503; `--idle-timeout` closes a silent
/// connection; an idle timeout of 0 is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flags_of_serve_set_the_limits() {
    let served = Served::agram(&["--max-connections", "1", "--idle-timeout", "0.3"]);
    let mut first = connect_from("127.0.0.1", &served.url())
        .await
        .expect("the first");
    assert_eq!(
        connect_from("127.0.0.1", &served.url()).await.err(),
        Some(503)
    );
    assert_eq!(
        first.closing().await.map(|(code, _)| code),
        Some(Farewell::Idle.code())
    );
    let refused = Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["serve", "games/agram.rcy", "--idle-timeout", "0"])
        .output()
        .expect("serve runs");
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("--idle-timeout 0"), "{err}");
}
