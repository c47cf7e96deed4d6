//! `cardboard join URL`: the terminal client of network play. It takes a
//! seat at a server (`cardboard serve`), shows the game from that seat as
//! `play` does, and sends the move typed (its number or its text) as a
//! command. A line typed while it is not the seat's turn is kept, in
//! order, for the seat's next decision (so a script piped in plays its
//! moves one decision after another); `look` and `help` are answered as
//! soon as their turn in the lines comes (`look` before the server has
//! shown a game says that it has not started). At the end of the input the
//! client plays the lines it still holds and leaves when it is asked for a
//! move it has no line for (or when the server says goodbye). `--token`
//! takes a seat back after a dropped connection.

use crate::observation::{MoveView, Observation};
use crate::play::protocol::{
    ClientMessage, EndKind, ErrorCode, MoveChoice, MoveCommand, Played, ServerMessage, VERSION,
};
use crate::play::screen::{self, Input};
use futures_util::{Sink, SinkExt, StreamExt};
use std::collections::VecDeque;
use std::io::Write;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_tungstenite::tungstenite::Message;

/// What `help` says at the prompt.
const HELP: &str = "\
Type the number of a move, or (part of) its words: `3`, `move CLUBS-TEN`.
Commands:
  look   every pile and storage in full
  help   this help
  quit   leave the game (your seat waits for you: join again with --token)";

/// What `look` says before the server has shown this seat any game.
const LOOK_BEFORE_THE_GAME: &str =
    "the game has not started yet: nothing to look at (it starts when every seat has a player)";

/// How to join.
#[derive(Clone, Debug, Default)]
pub struct JoinConfig {
    /// The server's WebSocket URL (`ws://HOST:PORT/ws`).
    pub url: String,
    /// The name shown to the others.
    pub name: Option<String>,
    /// The seat wanted.
    pub seat: Option<usize>,
    /// The table wanted.
    pub table: Option<usize>,
    /// A reconnection token: take back that seat.
    pub token: Option<String>,
}

/// What the client shows: the screen of a seat.
struct Screen<W: Write> {
    out: W,
    seat: Option<usize>,
}

impl<W: Write> Screen<W> {
    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    /// Draws a `state` message: what was just played, then the screen of
    /// `cardboard play` ([`screen::draw`]: the seat's side of the game, its
    /// numbered moves when it must decide).
    fn state(&mut self, to_move: Option<usize>, observation: &Observation, last: Option<&Played>) {
        if let Some(last) = last {
            if Some(last.seat) != self.seat {
                let who = if last.computer {
                    " (the computer, for them)"
                } else {
                    ""
                };
                self.line(&format!("player {}{who} played: {}", last.seat, last.text));
            }
        }
        self.line(&format!("\n{}", screen::draw(observation).trim_end()));
        if !observation.moves.is_empty() {
            let _ = write!(self.out, "your move (number or text)> ");
            let _ = self.out.flush();
        } else if let Some(p) = to_move {
            self.line(&format!("waiting for player {p}..."));
        }
    }
}

/// Plays at the server of `config` with the keyboard (`input`) until the
/// server says goodbye; returns the exit code (0, or 1 when the server
/// cannot be reached or refuses the seat).
pub async fn join<W: Write>(config: &JoinConfig, out: W) -> i32 {
    let (socket, _) = match tokio_tungstenite::connect_async(config.url.as_str()).await {
        Ok(s) => s,
        Err(e) => {
            let mut err = std::io::stderr();
            let _ = writeln!(err, "error: cannot connect to {}: {e}", config.url);
            return 1;
        }
    };
    let (mut sink, mut stream) = socket.split();
    let hello = match &config.token {
        Some(token) => ClientMessage::Rejoin {
            version: VERSION,
            token: token.clone(),
        },
        None => ClientMessage::Join {
            version: VERSION,
            name: config.name.clone(),
            seat: config.seat,
            table: config.table,
        },
    };
    if sink
        .send(Message::Text(hello.to_text().into()))
        .await
        .is_err()
    {
        return 1;
    }
    let mut screen = Screen { out, seat: None };
    let mut keyboard = BufReader::new(tokio::io::stdin()).lines();
    let mut input_open = true;
    let mut rejoined = config.token.is_some();
    let mut play = Typed::default();
    loop {
        tokio::select! {
            message = stream.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(Some(frame)))) if !frame.reason.is_empty() => {
                        // The close frame says why (docs/protocol.md,
                        // "Limits and security").
                        screen.line(&format!("the server closed the connection: {}", frame.reason));
                        return 0;
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                        screen.line("the server closed the connection");
                        return 0;
                    }
                    Some(Ok(_)) => continue,
                };
                let Ok(message) = serde_json::from_str::<ServerMessage>(text.as_str()) else {
                    screen.line(&format!("(a message this client does not read: {text})"));
                    continue;
                };
                match message {
                    ServerMessage::Welcome { seat, token, players, seats, rules, .. } => {
                        screen.seat = Some(seat);
                        screen.line(&format!("{rules}: you are player {seat} of {players} ({})", seats.join(", ")));
                        screen.line(&format!("to take your seat back later: cardboard join {} --token {token}", config.url));
                    }
                    ServerMessage::Start { game, .. } => {
                        // After a rejoin the server starts the client on
                        // the game in play.
                        if rejoined {
                            screen.line(&format!("\n== back at game {game} =="));
                            rejoined = false;
                        } else {
                            screen.line(&format!("\n== game {game} starts =="));
                        }
                    }
                    ServerMessage::State { game, decision, to_move, observation, last } => {
                        screen.state(to_move, &observation, last.as_deref());
                        play.offered = (!observation.moves.is_empty()).then(|| ((game, decision), observation.moves.clone()));
                        play.seen = Some(observation);
                    }
                    ServerMessage::Accepted { .. } => {}
                    ServerMessage::Presence { seat, connected } => {
                        let what = if connected { "is here" } else { "left" };
                        screen.line(&format!("player {seat} {what}"));
                    }
                    ServerMessage::End { how, scores, winners, message, .. } => {
                        play.offered = None;
                        match how {
                            EndKind::Finished => {
                                screen.line(&format!("\n== the game is over ==\nscores: {:?}\nwinners: {:?}", scores.unwrap_or_default(), winners.unwrap_or_default()));
                            }
                            _ => screen.line(&format!("\n== the game ended: {} ==", message.unwrap_or_default())),
                        }
                    }
                    ServerMessage::Bye => {
                        screen.line("the server has played its games: goodbye");
                        return 0;
                    }
                    ServerMessage::Error { code, message } => {
                        screen.line(&format!("refused ({code:?}): {message}"));
                        if screen.seat.is_none() {
                            return 1;
                        }
                        // A move refused: ask for the state again, to be
                        // offered the moves of the decision asked now.
                        if matches!(code, ErrorCode::NotYourTurn | ErrorCode::WrongGame | ErrorCode::WrongDecision | ErrorCode::Illegal)
                            && sink.send(Message::Text(ClientMessage::Sync.to_text().into())).await.is_err()
                        {
                            screen.line("the connection is lost");
                            return 1;
                        }
                    }
                }
            }
            line = keyboard.next_line(), if input_open => {
                match line {
                    Ok(Some(line)) => play.type_line(line, &mut screen),
                    _ => input_open = false,
                }
            }
        }
        match play.answer(&mut screen, &mut sink).await {
            Ok(true) => {}
            Ok(false) => {
                screen.line("leaving the game (take the seat back with --token)");
                let _ = sink.close().await;
                return 0;
            }
            Err(()) => {
                screen.line("the connection is lost");
                return 1;
            }
        }
        if !input_open && play.typed.is_empty() && play.offered.is_some() {
            screen.line("end of input: leaving the game (take the seat back with --token)");
            let _ = sink.close().await;
            return 0;
        }
    }
}

/// What the player typed and what the server offers.
#[derive(Default)]
struct Typed {
    /// The lines typed and not answered yet, in order.
    typed: VecDeque<String>,
    /// The moves offered now, and the game and decision they answer.
    offered: Option<((u64, u64), Vec<MoveView>)>,
    /// The last observation, for `look`.
    seen: Option<Box<Observation>>,
}

impl Typed {
    /// Keeps a line typed (an empty one is dropped); says so when it
    /// waits for the seat's turn.
    fn type_line<W: Write>(&mut self, line: String, screen: &mut Screen<W>) {
        let line = line.trim().to_string();
        if line.is_empty() {
            return;
        }
        let is_move = screen::read_input(&line, &[]).is_err();
        if is_move && self.offered.is_none() {
            screen.line(&format!(
                "it is not your turn: `{line}` is kept for your next move"
            ));
        }
        self.typed.push_back(line);
    }

    /// Answers the lines typed, in order, as far as it can now: a move is
    /// sent when this seat must decide (a line that is no move is told
    /// so and dropped); otherwise the first move waits with those after
    /// it. `Ok(false)`: the player quits; `Err`: the connection is lost.
    async fn answer<W, S>(&mut self, screen: &mut Screen<W>, sink: &mut S) -> Result<bool, ()>
    where
        W: Write,
        S: Sink<Message> + Unpin,
    {
        while let Some(line) = self.typed.front() {
            let moves = self.offered.as_ref().map_or(&[][..], |(_, m)| m.as_slice());
            match screen::read_input(line, moves) {
                Ok(Input::Move(id)) => {
                    let (Some(chosen), Some(((game, decision), _))) =
                        (moves.iter().find(|m| m.id == id), &self.offered)
                    else {
                        break;
                    };
                    // The move by its id, for the game and decision that
                    // offered it: never taken for a later one.
                    let command = ClientMessage::Command {
                        command: MoveCommand {
                            game: *game,
                            decision: *decision,
                            mv: MoveChoice::Id(chosen.id),
                        },
                    };
                    if sink
                        .send(Message::Text(command.to_text().into()))
                        .await
                        .is_err()
                    {
                        return Err(());
                    }
                    screen.line(&format!("you play: {}", chosen.text));
                    self.offered = None;
                }
                Ok(Input::Quit) => return Ok(false),
                Ok(Input::Look) => match &self.seen {
                    Some(seen) => screen.line(&screen::draw_everything(seen)),
                    None => screen.line(LOOK_BEFORE_THE_GAME),
                },
                Ok(Input::Help) => screen.line(HELP),
                Ok(Input::Save(_) | Input::Transcript(_)) => screen.line(
                    "the server keeps the game: `save` and `transcript` are for `cardboard play`",
                ),
                // Not this seat's turn: the line waits for it.
                Err(_) if self.offered.is_none() => break,
                Err(why) => screen.line(&format!(
                    "{why}: type a move's number or words (`help` for more)"
                )),
            }
            self.typed.pop_front();
        }
        Ok(true)
    }
}
