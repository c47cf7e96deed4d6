//! One table of the server: its seats, the game being played and the
//! games still to play. A table is a plain value behind a mutex: each
//! event (a join, a command, a connection lost, a computer's move, a timer)
//! locks it, changes it and queues messages to the seats' connections
//! without waiting (a full queue drops that connection, so a slow client
//! never holds up the others), and hands back the work to start once it
//! is unlocked ([`Action`]): a computer's move, a timer.

use super::connection::{Farewell, Kick};
use super::{GameReport, SeatSpec, ServeConfig};
use crate::command::{Command, CommandError, CommandedGame, GameRecord};
use crate::drivers::{game_seed, Ruleset};
use crate::engine::GameOptions;
use crate::game::{GameState, Status};
use crate::play::protocol::{EndKind, ErrorCode, MoveChoice, MoveCommand, Played, ServerMessage};
use crate::search::seats::{SeatedPlayer, Seats};
use crate::step::Described;
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// A client's connection as a table holds it: where to queue its messages.
#[derive(Clone, Debug)]
pub struct Conn {
    /// The connection's number (unique in the server).
    pub id: u64,
    /// Its bounded queue of messages (JSON texts).
    pub tx: mpsc::Sender<String>,
    /// Told when the table lets the connection go (too slow, replaced by a
    /// rejoin, the last game played), and why.
    pub kick: Arc<Kick>,
}

/// One seat.
#[derive(Debug)]
struct Seat {
    spec: SeatSpec,
    name: Option<String>,
    token: Option<String>,
    conn: Option<Conn>,
    /// Since when a joined remote seat has had no connection.
    away_since: Option<Instant>,
}

/// Work to start once the table is unlocked.
pub enum Action<S: GameState> {
    /// Ask the computer for the move of decision `decision` of game `game`.
    Compute {
        game: u64,
        decision: u64,
        state: Box<S>,
        player: Box<SeatedPlayer>,
    },
    /// Look at the table again at this time (a seat's time away runs out).
    WakeAt(Instant),
    /// The table played its last game.
    Done,
}

/// A game being played.
struct Running<S: GameState> {
    game: CommandedGame<S>,
    seed: u64,
    /// The players of the computer's seats (and of remote seats taken over);
    /// `None` while it thinks.
    player: Option<SeatedPlayer>,
    /// The decisions the computer played for a remote seat away.
    taken_over: Vec<u64>,
}

/// A table: seats, the game in play, the games to come.
pub struct Table<R: Ruleset> {
    index: usize,
    rules: Arc<R>,
    config: Arc<ServeConfig>,
    players: usize,
    seats: Vec<Seat>,
    /// The seats' kinds for the computer's players (remote seats: the
    /// kind that takes them over, `--takeover-by`).
    computer: Seats,
    /// Games started so far (the number of the game in play, if any).
    game_no: u64,
    running: Option<Running<R::State>>,
    finished: bool,
    /// Seats whose connection was dropped during the current event.
    dropped: Vec<usize>,
    reports: Vec<GameReport>,
}

impl<R: Ruleset> Table<R> {
    /// Table `index` of `players` seats.
    pub fn new(index: usize, rules: Arc<R>, config: Arc<ServeConfig>, players: usize) -> Self {
        let specs: Vec<SeatSpec> = (0..players)
            .map(|p| config.seats.get(p).copied().unwrap_or(SeatSpec::Remote))
            .collect();
        let kinds: Vec<String> = specs
            .iter()
            .map(|s| s.computer_kind(config.takeover_by))
            .collect();
        let computer = Seats::parse(&kinds.join(",")).unwrap_or_default();
        let seats = specs
            .into_iter()
            .map(|spec| Seat {
                spec,
                name: None,
                token: None,
                conn: None,
                away_since: None,
            })
            .collect();
        Table {
            index,
            rules,
            config,
            players,
            seats,
            computer,
            game_no: 0,
            running: None,
            finished: false,
            dropped: Vec::new(),
            reports: Vec::new(),
        }
    }

    /// The reports of the games played, taken out.
    pub fn take_reports(&mut self) -> Vec<GameReport> {
        std::mem::take(&mut self.reports)
    }

    /// Whether the table played all its games.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The table as the lobby shows it (`GET /lobby`).
    pub fn lobby(&self) -> super::lobby::LobbyTable {
        let seats = self.seats.iter().enumerate().map(|(seat, s)| {
            let holder = match (s.spec, &s.token) {
                (SeatSpec::Computer(_), _) => "computer",
                (SeatSpec::Remote, None) => "free",
                (SeatSpec::Remote, Some(_)) => "taken",
            };
            super::lobby::LobbySeat {
                seat,
                kind: s.spec.to_string(),
                holder: holder.to_string(),
                name: s.name.clone(),
                connected: s.conn.is_some(),
            }
        });
        super::lobby::LobbyTable {
            table: self.index,
            started: self.game_no + u64::from(self.running.is_some()),
            playing: self.running.is_some(),
            finished: self.finished,
            seats: seats.collect(),
        }
    }

    /// Whether `seat` is a remote seat nobody holds yet.
    pub fn free(&self, seat: usize) -> bool {
        self.seats
            .get(seat)
            .is_some_and(|s| s.spec == SeatSpec::Remote && s.token.is_none())
    }

    /// The first free remote seat.
    pub fn first_free(&self) -> Option<usize> {
        (0..self.players).find(|&s| self.free(s))
    }

    /// Why `seat` cannot be joined, if it cannot.
    pub fn refuse_join(&self, seat: usize) -> Option<ServerMessage> {
        let refuse = |code, text: String| Some(ServerMessage::error(code, text));
        match self.seats.get(seat) {
            _ if self.finished => {
                refuse(ErrorCode::NoGame, "the table has played its games".into())
            }
            None => refuse(
                ErrorCode::NoSeat,
                format!(
                    "there is no seat {seat}: the game has {} seats",
                    self.players
                ),
            ),
            Some(s) if s.spec != SeatSpec::Remote => refuse(
                ErrorCode::NoSeat,
                format!("seat {seat} is played by the computer ({})", s.spec),
            ),
            Some(s) if s.token.is_some() => refuse(
                ErrorCode::SeatTaken,
                format!("seat {seat} is taken by another player"),
            ),
            Some(_) => None,
        }
    }

    /// Seats a new player at `seat` (free: see [`Table::refuse_join`]) with
    /// `token`, answers `welcome` and tells the others.
    pub fn join(
        &mut self,
        seat: usize,
        name: Option<String>,
        token: String,
        conn: Conn,
    ) -> Vec<Action<R::State>> {
        self.seats[seat].name = name;
        self.seats[seat].token = Some(token);
        self.connect(seat, conn);
        self.settle()
    }

    /// Gives `seat` back to its player on a new connection. A connection
    /// that still held it is told (`taken_back`) and let go: the token is
    /// the seat's credential, and its newest holder has it (the old
    /// connection may be one the server has not yet seen drop).
    pub fn rejoin(&mut self, seat: usize, conn: Conn) -> Vec<Action<R::State>> {
        if let Some(old) = self.seats[seat].conn.take() {
            let told = ServerMessage::error(
                ErrorCode::TakenBack,
                format!(
                    "seat {seat} of table {} was taken back with its token on another \
                     connection: this one closes",
                    self.index
                ),
            );
            let _ = old.tx.try_send(told.to_text());
            old.kick.let_go(Farewell::TakenBack);
        }
        self.connect(seat, conn);
        let messages = self.running.as_ref().map(|running| {
            let start = ServerMessage::Start {
                game: self.game_no,
                names: self.names(),
            };
            (start, self.state_message(running, seat, None))
        });
        if let Some((start, state)) = messages {
            self.send(seat, &start);
            self.send(seat, &state);
        }
        self.settle()
    }

    fn connect(&mut self, seat: usize, conn: Conn) {
        let s = &mut self.seats[seat];
        s.conn = Some(conn);
        s.away_since = None;
        let welcome = ServerMessage::Welcome {
            version: crate::play::protocol::VERSION,
            table: self.index,
            seat,
            token: s.token.clone().unwrap_or_default(),
            players: self.players,
            seats: self.seats.iter().map(|s| s.spec.to_string()).collect(),
            rules: self.config.rules_name.clone(),
            games: self.config.games,
        };
        self.send(seat, &welcome);
        self.tell_others(
            seat,
            &ServerMessage::Presence {
                seat,
                connected: true,
            },
        );
    }

    /// The connection `conn_id` of `seat` was lost.
    pub fn left(&mut self, seat: usize, conn_id: u64) -> Vec<Action<R::State>> {
        let s = &mut self.seats[seat];
        if s.conn.as_ref().is_some_and(|c| c.id == conn_id) {
            s.conn = None;
            s.away_since = Some(Instant::now());
            self.dropped.push(seat);
        }
        self.settle()
    }

    /// Whether `conn_id` holds `seat` now (a connection whose seat was
    /// taken back by a rejoin no longer does).
    pub fn holds(&self, seat: usize, conn_id: u64) -> bool {
        self.seats[seat]
            .conn
            .as_ref()
            .is_some_and(|c| c.id == conn_id)
    }

    /// A timer ran out: the computer may take a seat now.
    pub fn wake(&mut self) -> Vec<Action<R::State>> {
        self.settle()
    }

    /// Answers `sync`: the state again.
    pub fn sync(&mut self, seat: usize) -> Vec<Action<R::State>> {
        match &self.running {
            Some(running) => {
                let state = self.state_message(running, seat, None);
                self.send(seat, &state);
            }
            None => self.send(
                seat,
                &ServerMessage::error(ErrorCode::NoGame, "no game is being played now"),
            ),
        }
        self.settle()
    }

    /// Plays `command` for `seat`, or answers why not.
    pub fn command(&mut self, seat: usize, command: &MoveCommand) -> Vec<Action<R::State>> {
        let resolved = match &self.running {
            None => Err(ServerMessage::error(
                ErrorCode::NoGame,
                "no game is being played now",
            )),
            Some(_) if command.game != self.game_no => Err(ServerMessage::error(
                ErrorCode::WrongGame,
                format!(
                    "the command answers game {}, but game {} is played now",
                    command.game, self.game_no
                ),
            )),
            Some(running) => Self::recorded(running, seat, command).and_then(|command| {
                let refused = |e: CommandError| {
                    let code = match e {
                        CommandError::GameOver => ErrorCode::NoGame,
                        CommandError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
                        CommandError::WrongDecision { .. } => ErrorCode::WrongDecision,
                        CommandError::Illegal(_) | CommandError::Rules(_) => ErrorCode::Illegal,
                    };
                    ServerMessage::error(code, e.to_string())
                };
                let mv = running
                    .game
                    .resolve(Some(seat), &command)
                    .map_err(refused)?;
                Ok((mv, command))
            }),
        };
        match resolved {
            Ok((mv, command)) => {
                let (game, decision) = (self.game_no, command.decision);
                self.send(seat, &ServerMessage::Accepted { game, decision });
                self.play(seat, &mv, command, false);
            }
            Err(refusal) => self.send(seat, &refusal),
        }
        self.settle()
    }

    /// The command `command` stands for, as a record keeps it (the move
    /// by the text the seat reads): a move's id is looked up among the
    /// legal moves when `seat` is to play that decision (otherwise the
    /// command is refused for that, with no text needed).
    fn recorded(
        running: &Running<R::State>,
        seat: usize,
        command: &MoveCommand,
    ) -> Result<Command, ServerMessage> {
        let decision = command.decision;
        let mv = match &command.mv {
            MoveChoice::Text(text) => text.clone(),
            MoveChoice::Id(id) => {
                let asked = running.game.state().current_player() == Some(seat)
                    && running.game.decision() == decision;
                if !asked {
                    String::new()
                } else {
                    let mut texts = running.game.move_texts();
                    if *id >= texts.len() {
                        return Err(ServerMessage::error(
                            ErrorCode::Illegal,
                            format!(
                                "there is no move {id}: the legal moves are numbered 0 to {}",
                                texts.len().saturating_sub(1)
                            ),
                        ));
                    }
                    texts.swap_remove(*id)
                }
            }
        };
        Ok(Command { decision, mv })
    }

    /// The computer chose `mv` for decision `decision` of game `game`
    /// (`None`: it found none; an `Err`: it failed).
    pub fn computed(
        &mut self,
        game: u64,
        decision: u64,
        player: SeatedPlayer,
        mv: Result<Option<<R::State as GameState>::Move>, String>,
    ) -> Vec<Action<R::State>> {
        let Some(running) = self.running.as_mut().filter(|_| self.game_no == game) else {
            return self.settle();
        };
        running.player = Some(player);
        if running.game.decision() != decision {
            // The player came back and played the decision first.
            return self.settle();
        }
        let Some(mover) = running.game.state().current_player() else {
            return self.settle();
        };
        match mv {
            Ok(Some(mv)) => match running.game.command_for(&mv) {
                Some(command) => {
                    let computer = self.seats[mover].spec == SeatSpec::Remote;
                    self.play(mover, &mv, command, computer);
                }
                None => self.end_game(
                    EndKind::Failed,
                    Some("the computer chose a move that is not legal".to_string()),
                ),
            },
            Ok(None) => self.end_game(
                EndKind::Failed,
                Some(format!(
                    "the game runs but player {mover} has no legal move"
                )),
            ),
            Err(why) => self.end_game(EndKind::Failed, Some(why)),
        }
        self.settle()
    }

    /// Plays `mv` (the move of `command`) for `mover` and tells every seat
    /// what it may see of it.
    fn play(
        &mut self,
        mover: usize,
        mv: &<R::State as GameState>::Move,
        command: Command,
        computer: bool,
    ) {
        let Some(running) = &mut self.running else {
            return;
        };
        // What each connected seat may see of the move, asked before it
        // is played: the mover reads it as it was offered (the text of
        // its command).
        let state = running.game.state();
        let seen: Vec<Option<Described>> = (0..self.players)
            .map(|s| {
                let connected = self.seats[s].conn.is_some();
                connected.then(|| match s == mover {
                    true => {
                        let offered = state.moves_described_for(std::slice::from_ref(mv), s);
                        let steps = offered.into_iter().next().unwrap_or_default().steps;
                        Described {
                            text: command.mv.clone(),
                            steps,
                        }
                    }
                    false => state.move_described_seen_by(mv, s),
                })
            })
            .collect();
        if computer {
            running.taken_over.push(command.decision);
        }
        // A rules error stops the game: all are told when the table
        // settles.
        let _ = running.game.apply(mv, command);
        self.after_move(mover, computer, seen);
    }

    /// Tells every seat the game after `mover` played (`seen`: the move's
    /// text as each connected seat may see it).
    fn after_move(&mut self, mover: usize, computer: bool, seen: Vec<Option<Described>>) {
        let Some(running) = &self.running else {
            return;
        };
        let decision = running.game.decision() - 1;
        let mut messages = Vec::new();
        for (seat, described) in seen.into_iter().enumerate() {
            let Some(Described { text, steps }) = described else {
                continue;
            };
            let played = Played {
                decision,
                seat: mover,
                text,
                computer,
                steps,
                label: String::new(),
                announcements: Vec::new(),
            };
            messages.push((seat, self.state_message(running, seat, Some(played))));
        }
        for (seat, message) in messages {
            self.send(seat, &message);
        }
    }

    /// The `state` message for `seat`.
    fn state_message(
        &self,
        running: &Running<R::State>,
        seat: usize,
        last: Option<Played>,
    ) -> ServerMessage {
        let state = running.game.state();
        let mut observation = state.observe(seat);
        // No moves are offered past the decision limit: the game stops.
        if running.game.log().len() as u64 >= self.config.max_decisions {
            observation.moves.clear();
        }
        ServerMessage::State {
            game: self.game_no,
            decision: running.game.decision(),
            to_move: state.current_player(),
            observation: Box::new(observation),
            last: last.map(Box::new),
        }
    }

    fn names(&self) -> Vec<Option<String>> {
        self.seats.iter().map(|s| s.name.clone()).collect()
    }

    /// Queues `message` to `seat`'s connection; a full or closed queue lets
    /// the connection go (the seat is then away).
    fn send(&mut self, seat: usize, message: &ServerMessage) {
        let s = &mut self.seats[seat];
        let Some(conn) = &s.conn else {
            return;
        };
        if conn.tx.try_send(message.to_text()).is_err() {
            conn.kick.let_go(Farewell::TooSlow);
            s.conn = None;
            s.away_since = Some(Instant::now());
            self.dropped.push(seat);
        }
    }

    fn tell_others(&mut self, seat: usize, message: &ServerMessage) {
        for other in 0..self.players {
            if other != seat {
                self.send(other, message);
            }
        }
    }

    fn broadcast(&mut self, message: &ServerMessage) {
        for seat in 0..self.players {
            self.send(seat, message);
        }
    }

    /// Tells of the connections dropped, then moves the table on as far as
    /// it goes without a player: starts games, ends them, asks the
    /// computer. Returns the work to start.
    fn settle(&mut self) -> Vec<Action<R::State>> {
        let mut actions = Vec::new();
        loop {
            while let Some(seat) = self.dropped.pop() {
                self.tell_others(
                    seat,
                    &ServerMessage::Presence {
                        seat,
                        connected: false,
                    },
                );
            }
            if self.finished {
                return actions;
            }
            let Some(running) = &mut self.running else {
                if self.game_no >= self.config.games {
                    self.finish();
                    actions.push(Action::Done);
                    return actions;
                }
                if self
                    .seats
                    .iter()
                    .any(|s| s.spec == SeatSpec::Remote && s.token.is_none())
                {
                    return actions;
                }
                self.start_game();
                continue;
            };
            match running.game.state().status() {
                Status::Running => {}
                Status::Finished => {
                    self.end_game(EndKind::Finished, None);
                    continue;
                }
                Status::Stopped(why) => {
                    self.end_game(EndKind::Stopped, Some(why));
                    continue;
                }
                Status::Failed(why) => {
                    self.end_game(EndKind::Failed, Some(why));
                    continue;
                }
            }
            if running.game.log().len() as u64 >= self.config.max_decisions {
                let why = format!(
                    "stopped at the limit of {} decisions",
                    self.config.max_decisions
                );
                self.end_game(EndKind::Stopped, Some(why));
                continue;
            }
            let Some(mover) = running.game.state().current_player() else {
                self.end_game(
                    EndKind::Failed,
                    Some("the game runs but nobody is to play".into()),
                );
                continue;
            };
            let Some(player) = running.player.as_ref() else {
                return actions; // the computer is thinking
            };
            let seat = &self.seats[mover];
            let computer = match seat.spec {
                SeatSpec::Computer(_) => true,
                SeatSpec::Remote => match (seat.away_since, self.config.takeover) {
                    (Some(since), Some(limit)) => {
                        let at = since + limit;
                        if Instant::now() < at {
                            actions.push(Action::WakeAt(at));
                            return actions;
                        }
                        true
                    }
                    _ => false,
                },
            };
            if computer {
                actions.push(Action::Compute {
                    game: self.game_no,
                    decision: running.game.decision(),
                    state: Box::new(running.game.state().clone()),
                    player: Box::new(player.clone()),
                });
                running.player = None;
            }
            return actions;
        }
    }

    fn start_game(&mut self) {
        let seed = game_seed(
            self.config.seed,
            self.index as u64 * self.config.games + self.game_no,
        );
        let options = GameOptions {
            seed,
            overrides: self.config.settings.clone(),
        };
        let names = self.names();
        self.broadcast(&ServerMessage::Start {
            game: self.game_no,
            names,
        });
        match self.rules.start(&options) {
            Ok(mut state) => {
                if self.computer.any_ismcts() {
                    state.keep_seen();
                }
                let running = Running {
                    game: CommandedGame::new(state),
                    seed,
                    player: Some(self.computer.player(seed)),
                    taken_over: Vec::new(),
                };
                for seat in 0..self.players {
                    let message = self.state_message(&running, seat, None);
                    self.send(seat, &message);
                }
                self.running = Some(running);
            }
            Err(e) => {
                let message = ServerMessage::End {
                    game: self.game_no,
                    how: EndKind::Failed,
                    scores: None,
                    winners: None,
                    message: Some(format!("the game cannot start: {e}")),
                };
                self.broadcast(&message);
                self.keep(GameReport {
                    table: self.index,
                    game: self.game_no,
                    record: self.record(seed, Vec::new(), Vec::new()),
                    how: EndKind::Failed,
                    outcome: None,
                    message: Some(e.to_string()),
                    table_text: String::new(),
                });
                self.game_no += 1;
            }
        }
    }

    /// Ends the game in play: tells everyone and keeps its report.
    fn end_game(&mut self, how: EndKind, message: Option<String>) {
        let Some(running) = self.running.take() else {
            return;
        };
        let outcome = (how == EndKind::Finished)
            .then(|| running.game.state().outcome())
            .flatten();
        let end = ServerMessage::End {
            game: self.game_no,
            how: how.clone(),
            scores: outcome.as_ref().map(|o| o.scores.clone()),
            winners: outcome.as_ref().map(|o| o.winners.clone()),
            message: message.clone(),
        };
        self.broadcast(&end);
        self.keep(GameReport {
            table: self.index,
            game: self.game_no,
            record: self.record(
                running.seed,
                running.game.log().to_vec(),
                running.taken_over.clone(),
            ),
            how,
            outcome,
            message,
            table_text: self.rules.describe(running.game.state()),
        });
        self.game_no += 1;
    }

    /// Keeps the report of a game that ended, and hands its record to
    /// the record's writer, if any, at once.
    fn keep(&mut self, report: GameReport) {
        if let Some(records) = &self.config.records {
            // The writer is gone only when the server is ending.
            let _ = records.send(Some(report.record.clone()));
        }
        self.reports.push(report);
    }

    /// The record of the game in play, seeded with `seed`, with its
    /// `commands` and the decisions the computer played for a seat away.
    fn record(&self, seed: u64, commands: Vec<Command>, taken_over: Vec<u64>) -> GameRecord {
        let mut record = GameRecord::new(seed, self.config.settings.clone());
        record.rules = self.config.rules_name.clone();
        record.position = self.config.position.clone();
        record.seats = self.seats.iter().map(|s| s.spec.to_string()).collect();
        record.table = Some(self.index);
        record.game = Some(self.game_no);
        record.commands = commands;
        record.taken_over = taken_over;
        record
    }

    /// The last game is played: says goodbye and lets the connections go.
    fn finish(&mut self) {
        self.finished = true;
        self.broadcast(&ServerMessage::Bye);
        for seat in &mut self.seats {
            if let Some(conn) = seat.conn.take() {
                conn.kick.let_go(Farewell::Done);
            }
        }
    }
}
