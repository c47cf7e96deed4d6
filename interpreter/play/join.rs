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
//! takes a seat back after a dropped connection. A forced move (one legal
//! move) plays itself after a short pause unless `--no-auto-forced`; what
//! the others played is told by its label, with what the rules announced;
//! the result is told once, by the server's `end` message.

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
  look   every pile and storage in full, and every move's whole text
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
    /// Play a forced move (one legal move) without asking, after
    /// `forced_pause`.
    pub auto_forced: bool,
    /// How long a forced move shows before it plays itself.
    pub forced_pause: std::time::Duration,
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

    /// Draws a `state` message: what was just played (its label, else its
    /// text, and what the rules announced), then the screen of `cardboard
    /// play` without the result, which the `end` message tells
    /// ([`screen::draw_game`]: the seat's side of the game, its numbered
    /// moves when it must decide).
    fn state(
        &mut self,
        to_move: Option<usize>,
        observation: &Observation,
        last: Option<&Played>,
        auto_forced: bool,
    ) {
        if let Some(last) = last {
            let words = if last.label.is_empty() {
                &last.text
            } else {
                &last.label
            };
            if Some(last.seat) != self.seat {
                let who = if last.computer {
                    " (the computer, for them)"
                } else {
                    ""
                };
                let first = format!("player {}{who} played: ", last.seat);
                let text = screen::wrap(words, screen::WIDTH, &first, "    ");
                self.line(text.trim_end());
            }
            for said in &last.announcements {
                self.line(screen::wrap(said, screen::WIDTH, "  » ", "    ").trim_end());
            }
        }
        self.line(&format!("\n{}", screen::draw_game(observation).trim_end()));
        if observation.moves.len() == 1 && auto_forced {
            // Played by `Typed::answer`, without a prompt.
        } else if !observation.moves.is_empty() {
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
    let mut play = Typed {
        auto_forced: config.auto_forced,
        forced_pause: config.forced_pause,
        ..Typed::default()
    };
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
                        // Games counted from 1, as the lobby and the page
                        // count them.
                        if rejoined {
                            screen.line(&format!("\n== back at game {} ==", game + 1));
                            rejoined = false;
                        } else {
                            screen.line(&format!("\n== game {} starts ==", game + 1));
                        }
                    }
                    ServerMessage::State { game, decision, to_move, observation, last } => {
                        screen.state(to_move, &observation, last.as_deref(), play.auto_forced);
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
                                let empty = Observation::default();
                                let seen = play.seen.as_deref().unwrap_or(&empty);
                                let result = screen::scores_text(seen, &scores.unwrap_or_default(), &winners.unwrap_or_default(), screen.seat);
                                screen.line(&format!("\n== the game is over ==\n{}", result.trim_end()));
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
    /// Play a forced move without asking.
    auto_forced: bool,
    /// How long a forced move shows before it plays itself.
    forced_pause: std::time::Duration,
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
        // A forced move plays itself, before any line typed.
        if let (true, Some(((game, decision), moves))) = (self.auto_forced, &self.offered) {
            if let [only] = moves.as_slice() {
                let command = ClientMessage::Command {
                    command: MoveCommand {
                        game: *game,
                        decision: *decision,
                        mv: MoveChoice::Id(only.id),
                    },
                };
                screen.line(&format!(
                    "your only move, played for you: {}",
                    screen::move_words(only)
                ));
                tokio::time::sleep(self.forced_pause).await;
                if sink
                    .send(Message::Text(command.to_text().into()))
                    .await
                    .is_err()
                {
                    return Err(());
                }
                self.offered = None;
            }
        }
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
                    screen.line(&format!("you play: {}", screen::move_words(chosen)));
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
