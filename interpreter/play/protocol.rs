//! The messages of network play (docs/protocol.md, "Messages"): JSON
//! objects over a WebSocket, each with a `"type"`, shared by the server
//! (`play/server/`) and the terminal client (`play/join.rs`).
//!
//! A client reads [`ServerMessage`]s and writes [`ClientMessage`]s; the
//! server reads a client's text with [`ClientMessage::read`], which tells a
//! message too long, not JSON, of an unknown type, or of the wrong shape
//! apart, each its own [`ErrorCode`].

use crate::observation::Observation;
use crate::step::Step;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The version of the protocol: a client's `join` must name it. Version 3
/// added a move's `steps`, the `game` of a command (and of `accepted`),
/// the answer by a move's id, and the error code `wrong_game`.
pub const VERSION: u32 = 3;

/// The longest message the server reads, in bytes: a longer one (or a
/// longer frame) is refused by the WebSocket layer as its header is read,
/// answered with [`ErrorCode::TooLong`], and the connection closed (close
/// code 1009; the seat may rejoin).
pub const MAX_MESSAGE: usize = 16 * 1024;

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Take a seat: the first free one, or `seat` (at `table`, when the
    /// server plays several games at once).
    Join {
        /// Must be [`VERSION`].
        version: u32,
        /// The player's name, shown to the others (at most 64 characters).
        #[serde(default)]
        name: Option<String>,
        /// The seat wanted (from 0).
        #[serde(default)]
        seat: Option<usize>,
        /// The table wanted (from 0).
        #[serde(default)]
        table: Option<usize>,
    },
    /// Take back a seat after a dropped connection, with the token of its
    /// `welcome`.
    Rejoin {
        /// Must be [`VERSION`].
        version: u32,
        /// The reconnection token.
        token: String,
    },
    /// Play a move.
    Command {
        /// The move, and the game and decision it answers.
        command: MoveCommand,
    },
    /// Ask for the current state again (answered with a `state`).
    Sync,
}

/// A command as a client sends it: the game and the decision it answers
/// (both required: a command meant for a game or decision past is
/// refused, never played in the next) and the move, by its id or its
/// text. The server records it as a [`crate::command::Command`] with the
/// move's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveCommand {
    /// The game it answers: the `game` of the `state` that asked.
    pub game: u64,
    /// The decision it answers: the `decision` of the `state` that asked.
    pub decision: u64,
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveChoice,
}

/// A move as a command names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MoveChoice {
    /// Its `id` among the legal moves offered (a JSON number).
    Id(usize),
    /// Its `text` as the seat reads it (a JSON string).
    Text(String),
}

/// The kinds of message a client may send, as their `"type"` reads.
const CLIENT_TYPES: [&str; 4] = ["join", "rejoin", "command", "sync"];

/// Why a client's message was refused. Nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not a JSON object of a known type with the fields of that type (or
    /// not a text message).
    Malformed,
    /// Longer than [`MAX_MESSAGE`] bytes.
    TooLong,
    /// A JSON object whose `"type"` is no message of the protocol.
    UnknownType,
    /// A `join` or `rejoin` naming another protocol version.
    Version,
    /// A command before the connection has a seat.
    NotJoined,
    /// A second `join` or `rejoin` on a connection that has a seat.
    AlreadyJoined,
    /// The seat asked for is held by another player.
    SeatTaken,
    /// No such seat or table, or no free seat left.
    NoSeat,
    /// A command naming another game than the one being played (sent
    /// for a game that ended).
    WrongGame,
    /// A `rejoin` with a token the server did not give.
    BadToken,
    /// A command while no game is being played (before the first game, or
    /// after the last).
    NoGame,
    /// A command from a seat that is not to play.
    NotYourTurn,
    /// Sent by the server, unasked, to a connection whose seat was taken
    /// back with its token on another connection; the connection is then
    /// closed (close code 4000).
    TakenBack,
    /// A command for another decision than the one asked.
    WrongDecision,
    /// A move that is not legal now.
    Illegal,
}

/// A move played, as the receiving seat may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The decision it answered.
    pub decision: u64,
    /// The seat that played it.
    pub seat: usize,
    /// Its text as the receiving seat may see it played
    /// ([`crate::game::GameState::move_to_text_seen_by`]: a card the
    /// receiver sees neither where it lay nor where it lands is `a card`).
    pub text: String,
    /// Whether the computer played it for a seat whose player is away.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub computer: bool,
    /// Its steps, as its text writes them for the receiving seat (a card
    /// the text writes `a card` is absent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// The move as the receiving seat reads it, short (empty when the
    /// server gives none: a client shows the text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// What the rules announced while it was played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub announcements: Vec<String>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// The game finished: scores and winners.
    Finished,
    /// The engine stopped it (a limit) or it reached the decision limit.
    Stopped,
    /// A rules error stopped it.
    Failed,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to a `join` or `rejoin`: the seat taken and its token.
    Welcome {
        /// The protocol version.
        version: u32,
        /// The table (from 0).
        table: usize,
        /// The seat (from 0).
        seat: usize,
        /// The token to `rejoin` with after a dropped connection.
        token: String,
        /// The number of seats.
        players: usize,
        /// Each seat's kind: `remote`, or the computer's (`random`,
        /// `mcts:N`, `ismcts:N`).
        seats: Vec<String>,
        /// The rules file's name.
        rules: String,
        /// How many games the table plays one after another.
        games: u64,
    },
    /// A game starts (every remote seat has joined).
    Start {
        /// The game's number at its table, from 0.
        game: u64,
        /// The players' names (`null` for a computer seat or a seat not
        /// joined).
        names: Vec<Option<String>>,
    },
    /// The game as the receiving seat sees it, sent at the start, after
    /// every move, and on `sync`.
    State {
        /// The game's number at its table.
        game: u64,
        /// The decision asked now: the decisions taken so far (0 at the
        /// start), the observation's `decision`; a command answers it.
        decision: u64,
        /// The seat to play, if the game runs.
        to_move: Option<usize>,
        /// The receiving seat's observation (docs/protocol.md); its
        /// `moves` are the legal moves when this seat must decide.
        observation: Box<Observation>,
        /// The move just played, as the receiver may know it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last: Option<Box<Played>>,
    },
    /// The command was played.
    Accepted {
        /// The game it answered.
        game: u64,
        /// The decision it answered.
        decision: u64,
    },
    /// A seat's player took it, left or came back.
    Presence {
        /// The seat.
        seat: usize,
        /// Whether a player is connected to it now.
        connected: bool,
    },
    /// The game ended.
    End {
        /// The game's number at its table.
        game: u64,
        /// How.
        how: EndKind,
        /// Each seat's score (finished games).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scores: Option<Vec<i64>>,
        /// The winners (finished games).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winners: Option<Vec<usize>>,
        /// Why a game stopped or failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// The table played all its games: the server closes the connection.
    Bye,
    /// A message of the client was refused; nothing changed.
    Error {
        /// What kind of mistake.
        code: ErrorCode,
        /// The mistake in words.
        message: String,
    },
}

impl ServerMessage {
    /// An error reply.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
        }
    }

    /// The message as JSON text.
    pub fn to_text(&self) -> String {
        // A message holds only strings, numbers, lists and JSON values:
        // writing it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl ClientMessage {
    /// Reads a client's message, telling apart what is wrong with it.
    pub fn read(text: &str) -> Result<ClientMessage, ServerMessage> {
        if text.len() > MAX_MESSAGE {
            return Err(ServerMessage::error(
                ErrorCode::TooLong,
                format!(
                    "the message has {} bytes; at most {MAX_MESSAGE} are read",
                    text.len()
                ),
            ));
        }
        let value: Value = serde_json::from_str(text)
            .map_err(|e| ServerMessage::error(ErrorCode::Malformed, format!("not JSON: {e}")))?;
        let kind = match value.get("type") {
            Some(Value::String(kind)) => kind.clone(),
            _ => {
                return Err(ServerMessage::error(
                    ErrorCode::Malformed,
                    "a message is a JSON object with a \"type\" string",
                ))
            }
        };
        if !CLIENT_TYPES.contains(&kind.as_str()) {
            return Err(ServerMessage::error(
                ErrorCode::UnknownType,
                format!(
                    "unknown message type `{}` (expected one of {})",
                    kind.chars().take(64).collect::<String>(),
                    CLIENT_TYPES.join(", ")
                ),
            ));
        }
        serde_json::from_value(value).map_err(|e| {
            ServerMessage::error(ErrorCode::Malformed, format!("a bad `{kind}` message: {e}"))
        })
    }

    /// The message as JSON text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_kind_of_mistake() {
        let code = |text: &str| match ClientMessage::read(text) {
            Err(ServerMessage::Error { code, .. }) => Some(code),
            _ => None,
        };
        assert_eq!(code("{"), Some(ErrorCode::Malformed));
        assert_eq!(code("[1]"), Some(ErrorCode::Malformed));
        assert_eq!(code(r#"{"type":"fly"}"#), Some(ErrorCode::UnknownType));
        assert_eq!(code(r#"{"type":"command"}"#), Some(ErrorCode::Malformed));
        assert_eq!(
            code(r#"{"type":"command","command":{"game":0,"decision":1,"move":"x","extra":2}}"#),
            Some(ErrorCode::Malformed)
        );
        // Version 3: the game is required, and a move is a number or a
        // string, nothing else.
        assert_eq!(
            code(r#"{"type":"command","command":{"decision":1,"move":"x"}}"#),
            Some(ErrorCode::Malformed)
        );
        for bad in ["-1", "1.5", "true", "null", "[0]", "{}"] {
            let text =
                format!(r#"{{"type":"command","command":{{"game":0,"decision":1,"move":{bad}}}}}"#);
            assert_eq!(code(&text), Some(ErrorCode::Malformed), "{bad}");
        }
        assert_eq!(code(&"x".repeat(MAX_MESSAGE + 1)), Some(ErrorCode::TooLong));
        let join = ClientMessage::read(r#"{"type":"join","version":3}"#);
        assert_eq!(
            join.ok(),
            Some(ClientMessage::Join {
                version: 3,
                name: None,
                seat: None,
                table: None
            })
        );
        let command = r#"{"type":"command","command":{"game":1,"decision":3,"move":"take 1"}}"#;
        let read = ClientMessage::read(command).ok();
        assert_eq!(read.map(|m| m.to_text()), Some(command.to_string()));
        let by_id = r#"{"type":"command","command":{"game":0,"decision":3,"move":2}}"#;
        let read = ClientMessage::read(by_id).ok();
        assert_eq!(
            read,
            Some(ClientMessage::Command {
                command: MoveCommand {
                    game: 0,
                    decision: 3,
                    mv: MoveChoice::Id(2)
                }
            })
        );
    }
}
