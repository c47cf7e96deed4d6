//! `cardboard play`: a game at a terminal, people and computer seats
//! together, through [`GameState`] only.
//!
//! Each `human` seat is asked for its moves at the terminal and shown the
//! game from its own side ([`GameState::observe`], drawn by
//! [`screen::draw`]); with several people at one terminal, the screen is
//! cleared and the next one asked to take it before their hand is shown.
//! Computer seats (`random`, `mcts:N`, `ismcts:N`: [`Seats::player`])
//! play on their own; what anyone did is told to each person by its
//! label as far as they may see it ([`GameState::move_label_seen_by`]),
//! with what the rules announced ([`GameState::announcements_for`]). A
//! forced move (one
//! legal move) plays itself unless [`PlayOptions::auto_forced`] is off
//! (`--no-auto-forced`). At the end: the
//! scores and winners, and the moves or the position saved on request.
//!
//! Every move is played as a command ([`crate::command`]: the decision it
//! answers and its text as the seat to play reads it), as over the
//! network: the moves saved (`--transcript`, `transcript FILE`) are the
//! game's record ([`GameRecord`], the same as `serve --record` writes),
//! and `--moves FILE` plays a record's commands again, each checked as a
//! server checks it, from the same start.
//!
//! Over the network (`cardboard serve` and `cardboard join`): `protocol.rs` has the messages
//! (docs/protocol.md), `server/` the authoritative server, `join.rs` the
//! terminal client, which draws with [`screen`] too, and `web/` the page
//! the server serves to browsers, a client of the same protocol.

pub mod join;
pub mod protocol;
pub mod screen;
pub mod server;
pub mod web;

use crate::command::{Command, CommandError, CommandedGame, GameRecord};
use crate::game::{GameState, Status};
use crate::player::Player;
use crate::search::seats::{SeatKind, Seats};
use screen::Input;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

/// The longest line read at a prompt; the rest of a longer one is dropped.
const MAX_LINE: u64 = 4096;

/// How a game at the terminal is played.
#[derive(Clone, Debug, Default)]
pub struct PlayOptions {
    /// Who plays each seat (at least one may be `human`; none `remote`).
    pub seats: Seats,
    /// Seeds the computer seats ([`Seats::player`]).
    pub seed: u64,
    /// Stop after this many decisions (counted from the start of play).
    pub max_decisions: u64,
    /// Commands to play first (`--moves`: a record's), each checked as a
    /// server checks it.
    pub moves: Vec<Command>,
    /// Write the moves played to this file when the game ends or is left.
    pub transcript: Option<PathBuf>,
    /// Write the position to this file when the game ends or is left.
    pub save: Option<PathBuf>,
    /// Clear the screen (ANSI) before a person's hand is shown, when
    /// several people share the terminal.
    pub clear: bool,
    /// What a saved record says besides its commands: the rules, the
    /// seed, the settings, the seats, the position started from.
    pub record: GameRecord,
    /// Play a person's forced move (their decision has one legal move)
    /// for them, after [`PlayOptions::forced_pause`] (`play` does unless
    /// `--no-auto-forced`).
    pub auto_forced: bool,
    /// How long a forced move shows before it plays itself.
    pub forced_pause: std::time::Duration,
}

/// How a game at the terminal ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayEnd {
    /// The game finished (or the engine stopped it, or a rules error did:
    /// the screen said so).
    Over(Status),
    /// The decision limit was reached.
    AtLimit,
    /// A person typed `quit`.
    Quit,
    /// The input ended while a person was asked.
    EndOfInput,
    /// The game could not be played (seats, a move of `--moves`, a
    /// computer seat's error); the text says why.
    Refused(String),
}

impl PlayEnd {
    /// The exit code of `cardboard play`: 0 for a game played to its end
    /// (or left with `quit`), 1 for one that failed or was refused, 3
    /// when the input ended before the game.
    pub fn exit_code(&self) -> i32 {
        match self {
            PlayEnd::Over(Status::Failed(_)) | PlayEnd::Refused(_) => 1,
            PlayEnd::EndOfInput => 3,
            _ => 0,
        }
    }
}

/// The terminal: lines typed in, the screen out.
pub struct Terminal<R: BufRead, W: Write> {
    /// What the people type (standard input).
    pub input: R,
    /// The screen (standard output).
    pub output: W,
}

impl<R: BufRead, W: Write> Terminal<R, W> {
    /// Writes `text` and flushes it (a prompt must show before the read).
    pub fn put(&mut self, text: &str) -> io::Result<()> {
        self.output.write_all(text.as_bytes())?;
        self.output.flush()
    }

    /// One line typed (without its end), `None` at the end of input. A
    /// line longer than [`MAX_LINE`] bytes is cut; bytes that are not
    /// UTF-8 are replaced.
    pub fn line(&mut self) -> io::Result<Option<String>> {
        let mut buf = Vec::new();
        let mut limited = io::Read::take(&mut self.input, MAX_LINE);
        let n = limited.read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(None);
        }
        if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE {
            // Drop the rest of the over-long line.
            let mut rest = Vec::new();
            self.input.read_until(b'\n', &mut rest)?;
        }
        Ok(Some(String::from_utf8_lossy(&buf).trim_end().to_string()))
    }
}

/// Plays `state` at `term` (see the module doc); `position` writes the
/// state as a position (for `save`), when the game can. Errors are the
/// terminal's (the output closed).
pub fn play<S, R, W>(
    state: &mut S,
    options: &PlayOptions,
    term: &mut Terminal<R, W>,
    position: &dyn Fn(&S) -> Option<String>,
) -> io::Result<PlayEnd>
where
    S: GameState,
    R: BufRead,
    W: Write,
{
    let players = state.num_players();
    let seats = &options.seats;
    if let Err(e) = seats.check_count(players) {
        return Ok(PlayEnd::Refused(e));
    }
    let kinds: Vec<SeatKind> = (0..players).map(|p| seats.kind(p)).collect();
    if let Some(p) = kinds.iter().position(|k| *k == SeatKind::Remote) {
        return Ok(PlayEnd::Refused(format!(
            "seat {p} is `remote`: remote seats are for `cardboard serve`"
        )));
    }
    if seats.any_ismcts() {
        state.keep_seen();
    }
    state.keep_announcements();
    let people: Vec<usize> = (0..players)
        .filter(|p| kinds[*p] == SeatKind::Human)
        .collect();
    let mut game = Game {
        kinds,
        people,
        told: vec![Vec::new(); players],
        game: CommandedGame::new(state.clone()),
        facing: None,
    };
    let end = play_game(&mut game, options, term, position);
    *state = game.game.into_state();
    end
}

/// The loop of [`play`]: the commands given, then each seat asked in turn.
fn play_game<S, R, W>(
    game: &mut Game<S>,
    options: &PlayOptions,
    term: &mut Terminal<R, W>,
    position: &dyn Fn(&S) -> Option<String>,
) -> io::Result<PlayEnd>
where
    S: GameState,
    R: BufRead,
    W: Write,
{
    let players = game.kinds.len();
    let seats = &options.seats;
    let mut computer = seats.player(options.seed);
    let seats_line: Vec<String> = (0..players).map(|p| seats.kind(p).to_string()).collect();
    term.put(&format!("seats: {}\n", seats_line.join(", ")))?;
    if game.people.is_empty() {
        term.put("no human seat: the computer plays every seat\n")?;
    }
    // The commands given to replay, each checked as a server checks it
    // and told as any other move.
    for (i, command) in options.moves.iter().enumerate() {
        let seat = game.game.state().current_player();
        let refused = match game.game.resolve(None, command) {
            Ok(mv) => {
                if game.people.is_empty() {
                    let seat = seat.unwrap_or(0);
                    term.put(&format!("p{seat} (replayed): {}\n", command.mv))?;
                }
                match game.play(&mv, command.clone()) {
                    Ok(()) => None,
                    // A rules error of the last command: the game failed
                    // as the recorded one did (told below).
                    Err(CommandError::Rules(_)) if i + 1 == options.moves.len() => None,
                    Err(e) => Some(e),
                }
            }
            Err(e) => Some(e),
        };
        if let Some(e) = refused {
            let why = format!(
                "command {} of --moves (decision {}, `{}`): {e}",
                i + 1,
                command.decision,
                command.mv
            );
            return finish(game, options, term, position, PlayEnd::Refused(why));
        }
    }
    if !options.moves.is_empty() {
        term.put(&format!("replayed {} moves\n", options.moves.len()))?;
    }
    let mut decisions = 0u64;
    let end = loop {
        let state = game.game.state();
        let status = state.status();
        if status != Status::Running {
            break PlayEnd::Over(status);
        }
        if decisions >= options.max_decisions {
            break PlayEnd::AtLimit;
        }
        let Some(seat) = state.current_player() else {
            break PlayEnd::Over(state.status());
        };
        let (mv, command) = if game.kinds[seat] == SeatKind::Human {
            match ask(seat, game, options, term, position)? {
                Asked::Move(mv, command) => (mv, command),
                Asked::End(end) => break end,
            }
        } else {
            let mv = match computer.choose_move(state) {
                Ok(Some(mv)) => mv,
                Ok(None) => break PlayEnd::Refused(format!("p{seat} has no legal move")),
                Err(e) => break PlayEnd::Refused(format!("p{seat}: {e}")),
            };
            match game.game.command_for(&mv) {
                Some(command) => (mv, command),
                None => break PlayEnd::Refused(format!("p{seat} chose a move that is not legal")),
            }
        };
        if game.people.is_empty() {
            let first = format!("p{seat} ({}): ", game.kinds[seat]);
            let text = game.game.state().move_to_text(&mv);
            term.put(&screen::wrap(&text, screen::WIDTH, &first, "    "))?;
        }
        if let Err(e) = game.play(&mv, command) {
            // A rules error: the game is Failed, told below.
            term.put(&format!("p{seat}'s move: {e}\n"))?;
        }
        decisions += 1;
    };
    finish(game, options, term, position, end)
}

/// The game played by commands, the seats and what each person has yet
/// to be told.
struct Game<S: GameState> {
    kinds: Vec<SeatKind>,
    /// The `human` seats.
    people: Vec<usize>,
    /// Per seat: the moves of others as that seat saw them, since it last
    /// had the screen.
    told: Vec<Vec<String>>,
    /// The game and the commands played.
    game: CommandedGame<S>,
    /// The person who has the screen now.
    facing: Option<usize>,
}

impl<S: GameState> Game<S> {
    /// Plays `mv` (the move of `command`) for the current player, telling
    /// each other person of it by its label as they may read it
    /// (`GameState::move_label_seen_by`: a card they may not see is `a
    /// card`), and every person what the rules announced while it was
    /// played (`GameState::announcements_for`).
    fn play(&mut self, mv: &S::Move, command: Command) -> Result<(), CommandError> {
        let state = self.game.state();
        let mover = state.current_player().unwrap_or(0);
        let kind = self.kinds.get(mover).copied().unwrap_or(SeatKind::Random);
        for &p in self.people.iter().filter(|&&p| p != mover) {
            let words = state.move_label_seen_by(mv, p);
            self.told[p].push(format!("p{mover} ({kind}): {words}"));
        }
        self.game.apply(mv, command)?;
        let state = self.game.state();
        for &p in &self.people {
            for said in state.announcements_for(p) {
                self.told[p].push(format!("announced: {said}"));
            }
        }
        Ok(())
    }
}

/// What asking a person gave.
enum Asked<M> {
    /// The move and its command.
    Move(M, Command),
    End(PlayEnd),
}

/// Asks person `seat` for a move: hands them the screen, shows what
/// happened since their last turn and their view, and reads until a legal
/// move (or the end).
fn ask<S, R, W>(
    seat: usize,
    game: &mut Game<S>,
    options: &PlayOptions,
    term: &mut Terminal<R, W>,
    position: &dyn Fn(&S) -> Option<String>,
) -> io::Result<Asked<S::Move>>
where
    S: GameState,
    R: BufRead,
    W: Write,
{
    if !hand_over(seat, game, options, term)? {
        return Ok(Asked::End(PlayEnd::EndOfInput));
    }
    tell_news(seat, game, term)?;
    let state = game.game.state();
    let seen = state.observe(seat);
    term.put(&format!("\n{}", screen::draw(&seen)))?;
    let legal = state.legal_moves();
    if let ([mv], [view], true) = (legal.as_slice(), seen.moves.as_slice(), options.auto_forced) {
        // A forced move plays itself.
        term.put(&format!(
            "your only move, played for you: {}\n",
            screen::move_words(view)
        ))?;
        std::thread::sleep(options.forced_pause);
        let command = Command {
            decision: game.game.decision(),
            mv: view.text.clone(),
        };
        return Ok(Asked::Move(mv.clone(), command));
    }
    loop {
        term.put(&format!("p{seat}> "))?;
        let Some(line) = term.line()? else {
            term.put("\nend of input: the game is left unfinished\n")?;
            return Ok(Asked::End(PlayEnd::EndOfInput));
        };
        match screen::read_input(&line, &seen.moves) {
            Ok(Input::Move(id)) => match (legal.get(id), seen.moves.get(id)) {
                (Some(mv), Some(view)) => {
                    let command = Command {
                        decision: game.game.decision(),
                        mv: view.text.clone(),
                    };
                    return Ok(Asked::Move(mv.clone(), command));
                }
                _ => term.put(&format!("there is no move {id}\n"))?,
            },
            Ok(Input::Help) => term.put(screen::HELP)?,
            Ok(Input::Look) => term.put(&screen::draw_everything(&seen))?,
            Ok(Input::Quit) => {
                term.put("you leave the game\n")?;
                return Ok(Asked::End(PlayEnd::Quit));
            }
            Ok(Input::Save(file)) => {
                let said = save_position(state, &PathBuf::from(file), position);
                term.put(&format!("{}\n", said.unwrap_or_else(|e| e)))?;
            }
            Ok(Input::Transcript(file)) => {
                let said = save_transcript(&game.game, &PathBuf::from(file), options);
                term.put(&format!("{}\n", said.unwrap_or_else(|e| e)))?;
            }
            Err(e) => term.put(&format!("{e}\n"))?,
        }
    }
}

/// Gives the screen to person `seat`: with several people at the
/// terminal, when someone else had it, clears it and waits for Enter.
/// False when the input ended.
fn hand_over<S: GameState, R: BufRead, W: Write>(
    seat: usize,
    game: &mut Game<S>,
    options: &PlayOptions,
    term: &mut Terminal<R, W>,
) -> io::Result<bool> {
    if game.people.len() > 1 && game.facing != Some(seat) {
        if options.clear {
            // The screen and what scrolled off it.
            term.put("\x1b[2J\x1b[3J\x1b[H")?;
        }
        term.put(&format!(
            "\n--- pass the screen to p{seat}: p{seat}, press Enter when the others cannot see it ---\n"
        ))?;
        if term.line()?.is_none() {
            term.put("\nend of input: the game is left unfinished\n")?;
            return Ok(false);
        }
    }
    game.facing = Some(seat);
    Ok(true)
}

/// Shows person `seat` what the others did since their last turn.
fn tell_news<S: GameState, R: BufRead, W: Write>(
    seat: usize,
    game: &mut Game<S>,
    term: &mut Terminal<R, W>,
) -> io::Result<()> {
    let news = std::mem::take(&mut game.told[seat]);
    if !news.is_empty() {
        // Each move on lines of its own, broken between words.
        let lines: String = (news.iter())
            .map(|n| screen::wrap(n, screen::WIDTH, "  ", "      "))
            .collect();
        term.put(&format!("\nsince your last turn:\n{lines}"))?;
    }
    Ok(())
}

/// The end: what the people have yet to be told, the result, the files
/// asked for.
fn finish<S, R, W>(
    game: &mut Game<S>,
    options: &PlayOptions,
    term: &mut Terminal<R, W>,
    position: &dyn Fn(&S) -> Option<String>,
    end: PlayEnd,
) -> io::Result<PlayEnd>
where
    S: GameState,
    R: BufRead,
    W: Write,
{
    match &end {
        PlayEnd::Over(_) => match game.people.as_slice() {
            // One person: the last moves as they saw them, and the table
            // from their side with the result.
            [p] => {
                let p = *p;
                tell_news(p, game, term)?;
                let seen = game.game.state().observe(p);
                term.put(&format!("\n{}", screen::draw(&seen)))?;
            }
            // Several (whoever looks now may not see the others' sides)
            // or none: the result only, which everyone may see.
            _ => {
                let seen = (game.game.state()).observe(game.people.first().copied().unwrap_or(0));
                term.put(&format!(
                    "\n=== the game is over ===\n{}",
                    screen::draw_result_for(&seen, None)
                ))?;
            }
        },
        PlayEnd::AtLimit => {
            term.put(&format!(
                "\nstopped after {} decisions (--max-decisions)\n",
                options.max_decisions
            ))?;
        }
        // The caller says why (on standard error).
        PlayEnd::Refused(_) | PlayEnd::Quit | PlayEnd::EndOfInput => {}
    }
    // `--transcript` and `--save`: a file that cannot be written (a full
    // disk) is an error of the command, as for `run --save`.
    let mut failed = None;
    if let Some(path) = &options.transcript {
        match save_transcript(&game.game, path, options) {
            Ok(said) => term.put(&format!("{said}\n"))?,
            Err(why) => failed = Some(why),
        }
    }
    if let Some(path) = &options.save {
        match save_position(game.game.state(), path, position) {
            Ok(said) => term.put(&format!("{said}\n"))?,
            Err(why) => failed = failed.or(Some(why)),
        }
    }
    match failed {
        Some(why) => Err(std::io::Error::other(SaveFailed { why, end })),
        None => Ok(end),
    }
}

/// `--transcript` or `--save` could not be written when the game ended:
/// the error [`play`] returns, with how the game ended.
#[derive(Debug)]
pub struct SaveFailed {
    /// What could not be written, and why.
    pub why: String,
    /// How the game ended.
    pub end: PlayEnd,
}

impl std::fmt::Display for SaveFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

impl std::error::Error for SaveFailed {}

/// Writes the game's record (the commands played) to `path`; says what
/// it did, or why it could not.
fn save_transcript<S: GameState>(
    game: &CommandedGame<S>,
    path: &PathBuf,
    options: &PlayOptions,
) -> Result<String, String> {
    let mut record = options.record.clone();
    record.commands = game.log().to_vec();
    match std::fs::write(path, record.to_text()) {
        Ok(()) => Ok(format!(
            "saved {} moves to {} (play them again: --moves {})",
            record.commands.len(),
            path.display(),
            path.display()
        )),
        Err(e) => Err(format!("cannot save the moves to {}: {e}", path.display())),
    }
}

/// Writes the position to `path`; says what it did (a game that has no
/// position is said so), or why it could not write it.
fn save_position<S: GameState>(
    state: &S,
    path: &PathBuf,
    position: &dyn Fn(&S) -> Option<String>,
) -> Result<String, String> {
    let Some(text) = position(state) else {
        return Ok("this game cannot be saved as a position".to_string());
    };
    match std::fs::write(path, text) {
        Ok(()) => Ok(format!("saved the position to {}", path.display())),
        Err(e) => Err(format!(
            "cannot save the position to {}: {e}",
            path.display()
        )),
    }
}
