//! `cardboard join URL`: the terminal client of network play. It takes a
//! seat at a server (`cardboard serve`), shows the game from that seat as
//! `play` does, and sends the move typed (its number or its text) as a
//! command. Lines typed while it is not the seat's turn are answered, not
//! sent. `--token` takes a seat back after a dropped connection.

use crate::command::Command;
use crate::observation::{MoveView, Observation};
use crate::play::protocol::{ClientMessage, EndKind, Played, ServerMessage, VERSION};
use futures_util::{SinkExt, StreamExt};
use std::io::Write;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_tungstenite::tungstenite::Message;

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

    /// Draws a `state` message: what was just played, the observation,
    /// and the numbered moves when it is this seat's turn.
    fn state(
        &mut self,
        decision: u64,
        to_move: Option<usize>,
        observation: &Observation,
        last: Option<&Played>,
    ) {
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
        self.line(&format!(
            "\n== decision {decision} ==\n{}",
            observation.to_text().trim_end()
        ));
        if !observation.moves.is_empty() {
            self.line("your moves:");
            for m in &observation.moves {
                self.line(&format!("  {}: {}", m.id, m.text));
            }
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
    // The moves offered now, and the decision they answer.
    let mut offered: Option<(u64, Vec<MoveView>)> = None;
    loop {
        tokio::select! {
            message = stream.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
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
                    ServerMessage::Start { game, .. } => screen.line(&format!("\n== game {game} starts ==")),
                    ServerMessage::State { decision, to_move, observation, last, .. } => {
                        screen.state(decision, to_move, &observation, last.as_ref());
                        offered = (!observation.moves.is_empty()).then(|| (decision, observation.moves.clone()));
                    }
                    ServerMessage::Accepted { .. } => {}
                    ServerMessage::Presence { seat, connected } => {
                        let what = if connected { "is here" } else { "left" };
                        screen.line(&format!("player {seat} {what}"));
                    }
                    ServerMessage::End { how, scores, winners, message, .. } => {
                        offered = None;
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
                    }
                }
            }
            line = keyboard.next_line() => {
                let line = match line {
                    Ok(Some(line)) => line,
                    _ => {
                        screen.line("end of input: leaving the game");
                        let _ = sink.close().await;
                        return 0;
                    }
                };
                let typed = line.trim();
                if typed.is_empty() {
                    continue;
                }
                let Some((decision, moves)) = &offered else {
                    screen.line("it is not your turn");
                    continue;
                };
                let chosen = match typed.parse::<usize>() {
                    Ok(i) => moves.iter().find(|m| m.id == i),
                    Err(_) => moves.iter().find(|m| m.text == typed),
                };
                let Some(chosen) = chosen else {
                    screen.line(&format!("`{typed}` is not one of your moves: type its number (0 to {}) or its text", moves.len().saturating_sub(1)));
                    continue;
                };
                let command = ClientMessage::Command {
                    command: Command { decision: *decision, mv: chosen.text.clone() },
                };
                if sink.send(Message::Text(command.to_text().into())).await.is_err() {
                    screen.line("the connection is lost");
                    return 1;
                }
                offered = None;
            }
        }
    }
}
