//! Scripted clients of the network protocol for the server's tests: a
//! client over a real WebSocket on the loopback, every wait bounded in
//! time, and a player that picks its moves from a seeded generator.
#![allow(dead_code)] // each test binary uses a part

use cardboard::command::Command;
use cardboard::engine::Rules;
use cardboard::play::protocol::{
    ClientMessage, ErrorCode, MoveChoice, MoveCommand, ServerMessage, VERSION,
};
use cardboard::play::server::{GameReport, ServeConfig, Server};
use cardboard::random::{below, GameRng};
use futures_util::{SinkExt, StreamExt};
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The longest any test waits for one message.
pub const WAIT: Duration = Duration::from_secs(60);

/// The rules of a shipped game.
pub fn shipped(name: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(name);
    Rules::load(&path).unwrap_or_else(|_| panic!("{name} loads"))
}

/// Starts a server for `rules` on a free loopback port: its URL and the
/// task that returns its reports.
pub async fn start(
    rules: Rules,
    config: ServeConfig,
) -> (String, tokio::task::JoinHandle<Vec<GameReport>>) {
    let server = Server::bind(rules, config)
        .await
        .expect("the server starts");
    let url = server.url();
    (url, tokio::spawn(server.run()))
}

/// A client's connection, every message it received kept.
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, in order.
    pub received: Vec<ServerMessage>,
    /// The seat and token of the last `welcome`.
    pub seat: Option<usize>,
    pub token: Option<String>,
    /// The longest wait from a command sent to its answer.
    pub slowest: Duration,
}

impl Client {
    /// Connects to `url`.
    pub async fn connect(url: &str) -> Client {
        let (socket, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url))
            .await
            .expect("connects in time")
            .expect("connects");
        Client::from_socket(socket)
    }

    /// A client on a WebSocket already open.
    pub fn from_socket(socket: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            socket,
            received: Vec::new(),
            seat: None,
            token: None,
            slowest: Duration::ZERO,
        }
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, text: String) {
        self.socket
            .send(Message::Text(text.into()))
            .await
            .expect("sends");
    }

    /// Sends raw text; `false` when the connection is gone.
    pub async fn try_send_text(&mut self, text: String) -> bool {
        let send = self.socket.send(Message::Text(text.into()));
        matches!(tokio::time::timeout(WAIT, send).await, Ok(Ok(())))
    }

    /// Sends a WebSocket message as it is.
    pub async fn send_raw(&mut self, message: Message) {
        self.socket.send(message).await.expect("sends");
    }

    /// Sends a message.
    pub async fn send(&mut self, message: &ClientMessage) {
        self.send_text(message.to_text()).await;
    }

    /// The next message (`None` when the server closed the connection).
    pub async fn next(&mut self) -> Option<ServerMessage> {
        loop {
            let message = tokio::time::timeout(WAIT, self.socket.next())
                .await
                .expect("a message in time");
            match message {
                Some(Ok(Message::Text(text))) => {
                    let message: ServerMessage =
                        serde_json::from_str(text.as_str()).expect("the server's message reads");
                    if let ServerMessage::Welcome { seat, token, .. } = &message {
                        self.seat = Some(*seat);
                        self.token = Some(token.clone());
                    }
                    self.received.push(message.clone());
                    return Some(message);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    /// Reads what is left until the server closes the connection: the
    /// messages (kept in `received`) and the close frame's code and
    /// reason (`None` when the connection ended without one).
    pub async fn closing(&mut self) -> Option<(u16, String)> {
        loop {
            let message = tokio::time::timeout(WAIT, self.socket.next())
                .await
                .expect("the server closes in time");
            match message {
                Some(Ok(Message::Text(text))) => {
                    let message: ServerMessage =
                        serde_json::from_str(text.as_str()).expect("the server's message reads");
                    self.received.push(message);
                }
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()))
                }
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    /// Reads messages until one that `f` picks, which is returned.
    pub async fn until<T>(&mut self, mut f: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let Some(message) = self.next().await else {
                let n = self.received.len();
                let last = &self.received[n.saturating_sub(3)..];
                panic!(
                    "the connection closed (seat {:?}) after {last:?}",
                    self.seat
                );
            };
            if let Some(found) = f(&message) {
                return found;
            }
        }
    }

    /// Sends `message` and returns the error code of the answer (panics on
    /// anything else before an error).
    pub async fn refused(&mut self, text: String) -> ErrorCode {
        self.send_text(text).await;
        self.until(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await
    }

    /// Joins `seat` (or any) and waits for the welcome.
    pub async fn join(url: &str, seat: Option<usize>) -> Client {
        let mut client = Client::connect(url).await;
        let join = ClientMessage::Join {
            version: VERSION,
            name: Some(format!("bot{}", seat.unwrap_or(99))),
            seat,
            table: None,
        };
        client.send(&join).await;
        client
            .until(|m| match m {
                ServerMessage::Welcome { .. } => Some(()),
                ServerMessage::Error { message, .. } => panic!("join refused: {message}"),
                _ => None,
            })
            .await;
        client
    }

    /// Reads until the server closes the connection: the close frame's
    /// code and reason (`None`: closed without a frame or a code).
    pub async fn closed_with(&mut self) -> Option<(u16, String)> {
        loop {
            let message = tokio::time::timeout(WAIT, self.socket.next())
                .await
                .expect("the close in time");
            match message {
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()))
                }
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}

/// What a scripted player did.
pub struct Played {
    /// Every message received.
    pub received: Vec<ServerMessage>,
    /// The commands it sent and saw accepted.
    pub commands: Vec<Command>,
    /// The longest wait for an answer to a command.
    pub slowest: Duration,
    /// Commands sent.
    pub sent: u64,
}

/// Plays `client`'s seat with moves drawn from a generator seeded with
/// `seed`, each answered by its id (a command names its game and
/// decision; the command kept is the one the server records, with the
/// move's text), until the server says goodbye (or, with `stop_after`, until it
/// has played that many moves: it then returns at once, the connection
/// open).
pub async fn play(client: &mut Client, seed: u64, stop_after: Option<usize>) -> Played {
    let mut rng = GameRng::new(seed);
    let mut commands = Vec::new();
    let mut sent = 0;
    loop {
        if stop_after.is_some_and(|n| commands.len() >= n) {
            break;
        }
        let Some(message) = client.next().await else {
            break;
        };
        match message {
            ServerMessage::State {
                game,
                decision,
                observation,
                ..
            } if !observation.moves.is_empty() => {
                let moves = &observation.moves;
                let i = below(&mut rng, moves.len());
                let command = Command {
                    decision,
                    mv: moves[i].text.clone(),
                };
                let asked = Instant::now();
                client
                    .send(&ClientMessage::Command {
                        command: MoveCommand {
                            game,
                            decision,
                            mv: MoveChoice::Id(moves[i].id),
                        },
                    })
                    .await;
                sent += 1;
                client
                    .until(|m| match m {
                        ServerMessage::Accepted {
                            game: g,
                            decision: d,
                        } if (*g, *d) == (game, decision) => Some(()),
                        ServerMessage::Error { message, .. } => {
                            panic!("a command refused: {message}")
                        }
                        _ => None,
                    })
                    .await;
                client.slowest = client.slowest.max(asked.elapsed());
                commands.push(command);
            }
            ServerMessage::Bye => break,
            _ => {}
        }
    }
    Played {
        received: client.received.clone(),
        commands,
        slowest: client.slowest,
        sent,
    }
}
