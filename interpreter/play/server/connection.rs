//! One client's WebSocket connection: reads its messages, answers the
//! mistaken ones, hands the others to its table; a task of its own writes
//! what is queued for it (a bounded queue: a client that does not read is
//! let go rather than waited for). Nothing a client sends can panic the
//! server: every message is read with [`ClientMessage::read`] and every
//! seat and table number is looked up, never indexed blindly.

use super::table::Conn;
use super::{lock, Hub};
use crate::drivers::Ruleset;
use crate::game::GameState;
use crate::play::protocol::{ClientMessage, ErrorCode, ServerMessage, VERSION};
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, Notify};

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

/// What a connection knows of itself.
struct Session {
    id: u64,
    tx: mpsc::Sender<String>,
    kick: Arc<Notify>,
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
    let kick = Arc::new(Notify::new());
    let writer_kick = Arc::clone(&kick);
    let mut writer = tokio::spawn(async move {
        let bye = ServerMessage::Bye.to_text();
        let mut said_bye = false;
        while let Some(text) = rx.recv().await {
            said_bye = text == bye;
            let sent = tokio::time::timeout(SEND_TIME, sink.send(Message::Text(text.into()))).await;
            if !matches!(sent, Ok(Ok(()))) {
                break;
            }
        }
        // After `bye` the server closes with 1000 (normal closure) and a
        // reason; otherwise as the socket closes.
        if said_bye {
            let close = Message::Close(Some(CloseFrame {
                code: close_code::NORMAL,
                reason: BYE_REASON.into(),
            }));
            let _ = tokio::time::timeout(SEND_TIME, sink.send(close)).await;
        }
        let _ = tokio::time::timeout(SEND_TIME, sink.close()).await;
        // A client that stopped reading (or a closed connection) ends the
        // reading side too, which leaves the seat.
        writer_kick.notify_one();
    });
    let mut session = Session {
        id: hub.next_conn.fetch_add(1, Ordering::Relaxed),
        tx,
        kick,
        seat: None,
    };
    loop {
        let kick = Arc::clone(&session.kick);
        let message = tokio::select! {
            m = stream.next() => m,
            _ = kick.notified() => break,
        };
        let keep = match message {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
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
            let token = hub.new_token(t, s);
            (Ok(s), table.join(s, name, token, conn))
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
