//! One client's WebSocket connection: reads its messages, answers the
//! mistaken ones, hands the others to its table; a task of its own writes
//! what is queued for it (a bounded queue: a client that does not read is
//! let go rather than waited for). Nothing a client sends can panic the
//! server: every message is read with [`ClientMessage::read`] and every
//! seat and table number is looked up, never indexed blindly.
//!
//! The server closes a connection with a close frame that says why
//! ([`Farewell`]: its code and reason): the table played its games, a
//! message too long, the seat taken back with its token elsewhere, a client
//! that does not read, or one that holds no seat and sent nothing for
//! `--idle-timeout`.

use super::table::Conn;
use super::{lock, Hub};
use crate::drivers::Ruleset;
use crate::game::GameState;
use crate::play::protocol::{ClientMessage, ErrorCode, ServerMessage, VERSION};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, Notify};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite;

/// Messages queued for one client at most; past this the client is let go
/// (it may rejoin, and is sent the whole state again).
pub const QUEUE: usize = 256;

/// The longest a write to a client may take before the client is let go.
const SEND_TIME: Duration = Duration::from_secs(10);

/// The longest a closing connection may take to send what is queued.
const DRAIN_TIME: Duration = Duration::from_secs(2);

/// The reason of the close frame (code 1000) that follows `bye`.
pub const BYE_REASON: &str = "the table played its games";

/// The longest player name kept, in characters.
const MAX_NAME: usize = 64;

/// Why the server closes a connection: the code and reason of its close
/// frame (docs/protocol.md, "Limits and security").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Farewell {
    /// 1000: the table played its games (after `bye`), or the client
    /// closed first.
    Done,
    /// 1002: the client broke the WebSocket protocol.
    Protocol,
    /// 1009: a message or frame longer than
    /// [`MAX_MESSAGE`](crate::play::protocol::MAX_MESSAGE) (after a
    /// `too_long` error).
    TooLong,
    /// 4000: the seat was taken back with its token on another connection
    /// (after a `taken_back` error).
    TakenBack,
    /// 4001: the client did not read what it was sent (its queue full, or
    /// a write waited too long).
    TooSlow,
    /// 4002: the connection held no seat and sent no message for
    /// `--idle-timeout`.
    Idle,
}

impl Farewell {
    /// The close code.
    pub fn code(self) -> u16 {
        match self {
            Farewell::Done => 1000,
            Farewell::Protocol => 1002,
            Farewell::TooLong => 1009,
            Farewell::TakenBack => 4000,
            Farewell::TooSlow => 4001,
            Farewell::Idle => 4002,
        }
    }

    /// The close reason (at most 123 bytes, as a close frame allows).
    pub fn reason(self) -> &'static str {
        match self {
            Farewell::Done => "goodbye",
            Farewell::Protocol => "the WebSocket protocol was broken",
            Farewell::TooLong => "a message over 16384 bytes",
            Farewell::TakenBack => "the seat was taken back with its token on another connection",
            Farewell::TooSlow => "the client did not read what it was sent",
            Farewell::Idle => "no seat and no message for too long",
        }
    }
}

/// How a connection is told to end, and why.
#[derive(Debug, Default)]
pub struct Kick {
    notify: Notify,
    why: Mutex<Option<Farewell>>,
}

impl Kick {
    /// Ends the connection with `why` (the first reason given is kept).
    pub fn let_go(&self, why: Farewell) {
        lock(&self.why).get_or_insert(why);
        self.notify.notify_one();
    }

    /// Why the connection was let go, if it was.
    fn why(&self) -> Option<Farewell> {
        *lock(&self.why)
    }
}

/// What a connection knows of itself.
struct Session {
    id: u64,
    tx: mpsc::Sender<String>,
    kick: Arc<Kick>,
    /// Its table and seat, once joined.
    seat: Option<(usize, usize)>,
}

impl Session {
    /// Queues `message`; `false` when the client does not keep up.
    fn reply(&self, message: &ServerMessage) -> bool {
        self.tx.try_send(message.to_text()).is_ok()
    }

    fn conn(&self) -> Conn {
        Conn {
            id: self.id,
            tx: self.tx.clone(),
            kick: Arc::clone(&self.kick),
        }
    }
}

/// Serves one connection until it closes or its table lets it go.
pub async fn serve<R>(socket: WebSocket, hub: Arc<Hub<R>>)
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
{
    hub.open.fetch_add(1, Ordering::AcqRel);
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<String>(QUEUE);
    let kick = Arc::new(Kick::default());
    let writer_kick = Arc::clone(&kick);
    let mut writer = tokio::spawn(async move {
        let mut read = true;
        let bye = ServerMessage::Bye.to_text();
        let mut said_bye = false;
        while let Some(text) = rx.recv().await {
            said_bye = text == bye;
            let sent = tokio::time::timeout(SEND_TIME, sink.send(Message::Text(text.into()))).await;
            if !matches!(sent, Ok(Ok(()))) {
                read = false;
                break;
            }
        }
        // A client that stopped reading (or a closed connection) ends the
        // reading side too, which leaves the seat.
        if !read {
            writer_kick.let_go(Farewell::TooSlow);
        }
        let why = writer_kick.why().unwrap_or(Farewell::Done);
        // After `bye` the normal closure (1000) says the games are over.
        let reason = match why {
            Farewell::Done if said_bye => BYE_REASON,
            _ => why.reason(),
        };
        let frame = CloseFrame {
            code: why.code(),
            reason: reason.into(),
        };
        let _ = tokio::time::timeout(SEND_TIME, sink.send(Message::Close(Some(frame)))).await;
        writer_kick.notify.notify_one();
    });
    let mut session = Session {
        id: hub.next_conn.fetch_add(1, Ordering::Relaxed),
        tx,
        kick,
        seat: None,
    };
    let idle = hub.config.idle_timeout;
    let mut heard = Instant::now();
    loop {
        let kick = Arc::clone(&session.kick);
        let seatless = session.seat.is_none();
        let message = tokio::select! {
            m = stream.next() => m,
            _ = kick.notify.notified() => break,
            _ = tokio::time::sleep_until(heard + idle), if seatless => {
                kick.let_go(Farewell::Idle);
                break;
            }
        };
        if matches!(message, Some(Ok(Message::Text(_) | Message::Binary(_)))) {
            heard = Instant::now();
        }
        let keep = match message {
            None | Some(Ok(Message::Close(_))) => break,
            Some(Err(e)) => {
                refuse_broken(&session, e);
                break;
            }
            Some(Ok(Message::Text(text))) => match ClientMessage::read(text.as_str()) {
                Ok(message) => handle(&hub, &mut session, message),
                Err(refused) => session.reply(&refused),
            },
            Some(Ok(Message::Binary(_))) => session.reply(&ServerMessage::error(
                ErrorCode::Malformed,
                "messages are JSON text, not binary",
            )),
            Some(Ok(_)) => true, // ping and pong
        };
        if !keep {
            break;
        }
    }
    if let Some((t, seat)) = session.seat {
        let id = session.id;
        hub.with_table(t, |table| ((), table.left(seat, id)));
    }
    drop(session);
    // What is queued goes out (a goodbye, say), unless the client does not
    // read: then the writer is stopped.
    if tokio::time::timeout(DRAIN_TIME, &mut writer).await.is_err() {
        writer.abort();
    }
    if hub.open.fetch_sub(1, Ordering::AcqRel) == 1 {
        hub.all_closed.notify_one();
    }
}

/// A message the WebSocket layer refused (`e`): one too long is answered
/// with `too_long`, and the connection is let go with the close code that
/// says why.
fn refuse_broken(session: &Session, e: axum::Error) {
    let Ok(e) = e.into_inner().downcast::<tungstenite::Error>() else {
        return;
    };
    match *e {
        tungstenite::Error::Capacity(tungstenite::error::CapacityError::MessageTooLong {
            size,
            max_size,
        }) => {
            session.reply(&ServerMessage::error(
                ErrorCode::TooLong,
                format!(
                    "a message of {size} bytes: at most {max_size} are read; \
                     the connection closes"
                ),
            ));
            session.kick.let_go(Farewell::TooLong);
        }
        tungstenite::Error::Capacity(_) | tungstenite::Error::Protocol(_) => {
            session.kick.let_go(Farewell::Protocol);
        }
        _ => {}
    }
}

/// Handles one well-formed message; `false` when the connection is to end.
fn handle<R>(hub: &Arc<Hub<R>>, session: &mut Session, message: ClientMessage) -> bool
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
{
    match message {
        ClientMessage::Join { .. } | ClientMessage::Rejoin { .. } if session.seat.is_some() => {
            session.reply(&ServerMessage::error(
                ErrorCode::AlreadyJoined,
                "this connection has a seat already",
            ))
        }
        ClientMessage::Join { version, .. } | ClientMessage::Rejoin { version, .. }
            if version != VERSION =>
        {
            session.reply(&ServerMessage::error(
                ErrorCode::Version,
                format!("the server speaks version {VERSION} of the protocol, not {version}"),
            ))
        }
        ClientMessage::Join {
            name, seat, table, ..
        } => join(hub, session, name, seat, table),
        ClientMessage::Rejoin { token, .. } => {
            let found = lock(&hub.tokens).get(&token).copied();
            let Some((t, seat)) = found else {
                return session.reply(&ServerMessage::error(
                    ErrorCode::BadToken,
                    "this token was not given by this server",
                ));
            };
            let conn = session.conn();
            let refused = hub.with_table(t, |table| {
                if table.finished() {
                    let e =
                        ServerMessage::error(ErrorCode::NoGame, "the table has played its games");
                    (Some(e), Vec::new())
                } else {
                    (None, table.rejoin(seat, conn))
                }
            });
            match refused {
                Some(None) => {
                    session.seat = Some((t, seat));
                    true
                }
                Some(Some(e)) => session.reply(&e),
                None => true,
            }
        }
        ClientMessage::Command { command } => {
            seated(hub, session, |table, seat| table.command(seat, &command))
        }
        ClientMessage::Sync => seated(hub, session, |table, seat| table.sync(seat)),
    }
}

/// Runs `f` on the session's seat, or answers that it has none.
fn seated<R>(
    hub: &Arc<Hub<R>>,
    session: &mut Session,
    f: impl FnOnce(&mut super::table::Table<R>, usize) -> Vec<super::table::Action<R::State>>,
) -> bool
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
{
    let Some((t, seat)) = session.seat else {
        return session.reply(&ServerMessage::error(
            ErrorCode::NotJoined,
            "join a seat first",
        ));
    };
    let id = session.id;
    let held = hub.with_table(t, |table| {
        if table.holds(seat, id) {
            (true, f(table, seat))
        } else {
            (false, Vec::new())
        }
    });
    if held == Some(true) {
        return true;
    }
    session.seat = None;
    session.reply(&ServerMessage::error(
        ErrorCode::NotJoined,
        "this connection no longer holds a seat (it was taken back with its token)",
    ))
}

/// Seats the session: at `seat` of `table` when given, else at the first
/// table with the seat (or any seat) free.
fn join<R>(
    hub: &Arc<Hub<R>>,
    session: &mut Session,
    name: Option<String>,
    seat: Option<usize>,
    table: Option<usize>,
) -> bool
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
{
    let name = name.map(|n| {
        n.chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME)
            .collect::<String>()
    });
    let tables: Vec<usize> = match table {
        Some(t) if t < hub.tables.len() => vec![t],
        Some(t) => {
            return session.reply(&ServerMessage::error(
                ErrorCode::NoSeat,
                format!("there is no table {t}: the server has {}", hub.tables.len()),
            ))
        }
        None => (0..hub.tables.len()).collect(),
    };
    let mut refusal = None;
    for t in tables {
        let conn = session.conn();
        let name = name.clone();
        let taken = hub.with_table(t, |table| {
            let wanted = seat.or_else(|| table.first_free());
            let Some(s) = wanted else {
                return (Err(None), Vec::new());
            };
            if let Some(refused) = table.refuse_join(s) {
                return (Err(Some(refused)), Vec::new());
            }
            match hub.new_token(t, s) {
                Ok(token) => (Ok(s), table.join(s, name, token, conn)),
                Err(e) => (
                    Err(Some(ServerMessage::error(ErrorCode::NoSeat, e))),
                    Vec::new(),
                ),
            }
        });
        match taken {
            Some(Ok(s)) => {
                session.seat = Some((t, s));
                return true;
            }
            Some(Err(why)) => refusal = refusal.or(why),
            None => {}
        }
    }
    let refusal =
        refusal.unwrap_or_else(|| ServerMessage::error(ErrorCode::NoSeat, "no free seat is left"));
    session.reply(&refusal)
}
