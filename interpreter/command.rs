//! Moves as commands: one serializable value per move, `{"decision": n,
//! "move": "text"}`, which a network client sends, a server validates and
//! applies, and a game's record keeps, so that a game is replayed from its
//! log of commands ([`GameRecord::replay`]).
//!
//! A command names the decision it answers (the decisions taken before
//! it: 0 at the start of the game, [`GameState::decisions`], the
//! `decision` of the seat's observation) and the move by its text as
//! the seat to play reads it ([`GameState::moves_to_text_for`], the texts
//! of its observation's moves, where a card it may not see is `a card`): a
//! command meant for another decision, or a text that is not one of the
//! legal moves now, is refused and changes nothing.
//!
//! ```
//! use cardboard::command::{Command, CommandedGame};
//! use cardboard::engine::{GameOptions, Rules};
//! use cardboard::game::GameState;
//!
//! let rules = Rules::from_source("take.rcy", r#"
//!   (game
//!    (setup (create players 2)
//!           (create deck (game vloc ROW) (deck (RANK (A, B)))))
//!    (stage player (end (== (size (game vloc ROW)) 0))
//!      (choice ((any (game vloc ROW) 'C (move 'C (top ((current player) vloc HAND)))))))
//!    (scoring max (size ((current player) vloc HAND))))"#).expect("valid rules");
//! let options = GameOptions { seed: 1, overrides: vec![] };
//! let mut game = CommandedGame::new(rules.start(&options).expect("starts"));
//! let text = game.move_texts()[0].clone();
//! let command = Command { decision: 0, mv: text };
//! assert!(game.play(Some(0), &command).is_ok());
//! // The same command again is out of date: decision 1 is asked now.
//! assert!(game.play(Some(1), &command).is_err());
//! assert_eq!(game.log(), &[command]);
//! ```

use crate::drivers::Ruleset;
use crate::engine::GameOptions;
use crate::game::{GameState, PlayError};
use serde::{Deserialize, Serialize};

/// One move as a command: the decision it answers and the move's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// The decision the move answers: the decisions taken before it in
    /// the game (0 at its start), as the observation's `decision` says.
    pub decision: u64,
    /// The move, as the seat to play reads it
    /// ([`GameState::moves_to_text_for`]).
    #[serde(rename = "move")]
    pub mv: String,
}

/// Why a command was refused (the game is then as it was), or what went
/// wrong when it was played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The game is over: nothing more can be played.
    #[error("the game is over")]
    GameOver,
    /// The command was sent by a seat that is not to play.
    #[error("it is not your turn: player {to_move} is to play")]
    NotYourTurn {
        /// The seat that must decide now.
        to_move: usize,
    },
    /// The command answers another decision than the one asked now.
    #[error("the command answers decision {given}, but decision {asked} is asked now")]
    WrongDecision {
        /// The decision the command names.
        given: u64,
        /// The decision asked now.
        asked: u64,
    },
    /// The text is not one of the legal moves now.
    #[error("`{0}` is not a legal move now")]
    Illegal(String),
    /// The move was legal but the rules failed while playing it (or on the
    /// way to the next decision): the game is stopped with this message.
    #[error("rules error: {0}")]
    Rules(String),
}

/// A game played by commands: the state, the number of the decision asked
/// now, and the commands played so far.
#[derive(Clone, Debug)]
pub struct CommandedGame<S: GameState> {
    state: S,
    decision: u64,
    log: Vec<Command>,
}

impl<S: GameState> CommandedGame<S> {
    /// A game from `state` (the decision asked next is
    /// [`GameState::decisions`]: 0 at the game's start).
    pub fn new(state: S) -> CommandedGame<S> {
        CommandedGame {
            decision: state.decisions(),
            state,
            log: Vec::new(),
        }
    }

    /// The game.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The decision asked now: the decisions taken so far (the state's
    /// count at the start, plus the commands played).
    pub fn decision(&self) -> u64 {
        self.decision
    }

    /// The commands played, in order.
    pub fn log(&self) -> &[Command] {
        &self.log
    }

    /// The texts of the legal moves now as the seat to play reads them
    /// ([`GameState::moves_to_text_for`]), in the order of
    /// [`GameState::legal_moves`] (empty when the game is not running).
    pub fn move_texts(&self) -> Vec<String> {
        self.listed().1
    }

    /// The game, taken out.
    pub fn into_state(self) -> S {
        self.state
    }

    /// The legal moves and their texts for the seat to play.
    fn listed(&self) -> (Vec<S::Move>, Vec<String>) {
        let Some(seat) = self.state.current_player() else {
            return (Vec::new(), Vec::new());
        };
        let moves = self.state.legal_moves();
        let texts = self.state.moves_to_text_for(&moves, seat);
        (moves, texts)
    }

    /// The command for `mv`, a legal move now (none when it is not one).
    pub fn command_for(&self, mv: &S::Move) -> Option<Command> {
        let (moves, mut texts) = self.listed();
        let i = moves.iter().position(|m| m == mv)?;
        Some(Command {
            decision: self.decision,
            mv: texts.swap_remove(i),
        })
    }

    /// Checks `command` for `seat` (`None`: whoever is to play, as a
    /// replay does) and returns its move, changing nothing.
    pub fn resolve(&self, seat: Option<usize>, command: &Command) -> Result<S::Move, CommandError> {
        let Some(to_move) = self.state.current_player() else {
            return Err(CommandError::GameOver);
        };
        if seat.is_some_and(|s| s != to_move) {
            return Err(CommandError::NotYourTurn { to_move });
        }
        if command.decision != self.decision {
            return Err(CommandError::WrongDecision {
                given: command.decision,
                asked: self.decision,
            });
        }
        let (mut moves, texts) = self.listed();
        match texts.iter().position(|t| *t == command.mv) {
            Some(i) => Ok(moves.swap_remove(i)),
            None => Err(CommandError::Illegal(command.mv.clone())),
        }
    }

    /// Checks `command` for `seat` (`None`: whoever is to play) and plays
    /// it. A refused command changes nothing; a rules error stops the game
    /// ([`crate::game::Status::Failed`]) and is logged with its command.
    pub fn play(&mut self, seat: Option<usize>, command: &Command) -> Result<(), CommandError> {
        let mv = self.resolve(seat, command)?;
        self.apply(&mv, command.clone())
    }

    /// Plays `mv`, one of the legal moves now (a computer seat's choice),
    /// and logs its command.
    pub fn play_move(&mut self, mv: &S::Move) -> Result<(), CommandError> {
        if self.state.current_player().is_none() {
            return Err(CommandError::GameOver);
        }
        let Some(command) = self.command_for(mv) else {
            return Err(CommandError::Illegal(self.state.move_to_text(mv)));
        };
        self.apply(mv, command)
    }

    /// Plays `mv`, the move of `command` (as [`Self::resolve`] found it).
    pub fn apply(&mut self, mv: &S::Move, command: Command) -> Result<(), CommandError> {
        match self.state.apply(mv) {
            Ok(()) => {
                self.decision += 1;
                self.log.push(command);
                Ok(())
            }
            Err(PlayError::Rules(why)) => {
                self.decision += 1;
                self.log.push(command);
                Err(CommandError::Rules(why))
            }
            Err(PlayError::IllegalMove(why)) => Err(CommandError::Illegal(why)),
            Err(PlayError::GameOver) => Err(CommandError::GameOver),
        }
    }
}

/// The version of the record format ([`GameRecord`], docs/protocol.md,
/// "A game's record"): a record names it, and one of another version is
/// not read.
pub const RECORD_VERSION: u32 = 1;

/// A saved game: how it started and every command played, enough to play
/// it again ([`GameRecord::replay`]). `cardboard play --transcript` and
/// `cardboard serve --record` write it ([`GameRecord::to_text`]),
/// `cardboard play --moves` reads it ([`read_records`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The format's version, [`RECORD_VERSION`].
    pub record: u32,
    /// The rules file's name (to tell the reader; the replay is given the
    /// rules).
    #[serde(default)]
    pub rules: String,
    /// The position file the game started from, if it did (a replay must
    /// be given it again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The seed of the game's chance.
    pub seed: u64,
    /// The `--set` overrides, as `NAME=VALUE` pairs.
    #[serde(default)]
    pub settings: Vec<(String, String)>,
    /// Who played each seat (`human`, `remote`, `random`, `mcts:N`...), to
    /// tell the reader.
    #[serde(default)]
    pub seats: Vec<String>,
    /// The table and the game's number at it, for a served game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<usize>,
    /// The game's number at its table, for a served game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<u64>,
    /// The decisions the computer played for a remote player away past
    /// `--takeover`, in order (a served game; empty, and not written,
    /// when there was none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taken_over: Vec<u64>,
    /// The commands, in the order they were played.
    pub commands: Vec<Command>,
}

/// The fields of a record before its commands, as [`GameRecord::to_text`]
/// writes them on its first line.
#[derive(Serialize)]
struct RecordHead<'a> {
    record: u32,
    rules: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: &'a Option<String>,
    seed: u64,
    settings: &'a [(String, String)],
    seats: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<u64>,
    #[serde(skip_serializing_if = "<[u64]>::is_empty")]
    taken_over: &'a [u64],
}

/// Reads a file of records: one or more [`GameRecord`]s, JSON objects
/// one after another (as [`GameRecord::to_text`] writes them, or one a
/// line). An error names the record (from 1) and what is wrong.
pub fn read_records(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut records = Vec::new();
    let values = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    for value in values {
        let n = records.len() + 1;
        let value = value.map_err(|e| format!("record {n}: not JSON: {e}"))?;
        match value.get("record") {
            Some(v) if v.as_u64() == Some(u64::from(RECORD_VERSION)) => {}
            Some(v) => {
                return Err(format!(
                    "record {n}: a record of version {v}; this cardboard reads version {RECORD_VERSION}"
                ))
            }
            None => {
                return Err(format!(
                    "record {n}: not a game record (a JSON object with \"record\": {RECORD_VERSION}, docs/protocol.md)"
                ))
            }
        }
        let record = serde_json::from_value(value).map_err(|e| format!("record {n}: {e}"))?;
        records.push(record);
    }
    if records.is_empty() {
        return Err("no game record in the file".to_string());
    }
    Ok(records)
}

impl Default for GameRecord {
    /// A record of a game seeded with 0, no settings, no command.
    fn default() -> GameRecord {
        GameRecord::new(0, Vec::new())
    }
}

impl GameRecord {
    /// A record of a game started with `seed` and `settings`, no command
    /// played yet.
    pub fn new(seed: u64, settings: Vec<(String, String)>) -> GameRecord {
        GameRecord {
            record: RECORD_VERSION,
            rules: String::new(),
            position: None,
            seed,
            settings,
            seats: Vec::new(),
            table: None,
            game: None,
            taken_over: Vec::new(),
            commands: Vec::new(),
        }
    }

    /// The record as text: one JSON object, its fields on the first line
    /// and then one command a line, ending with a line break (records
    /// written one after another make a file of records, [`read_records`]).
    pub fn to_text(&self) -> String {
        let head = RecordHead {
            record: self.record,
            rules: &self.rules,
            position: &self.position,
            seed: self.seed,
            settings: &self.settings,
            seats: &self.seats,
            table: self.table,
            game: self.game,
            taken_over: &self.taken_over,
        };
        // Strings and numbers only: writing them cannot fail.
        let head = serde_json::to_string(&head).unwrap_or_default();
        let mut text = head.strip_suffix('}').unwrap_or(&head).to_string();
        text.push_str(",\"commands\":[");
        for (i, command) in self.commands.iter().enumerate() {
            text.push_str(if i == 0 { "\n" } else { ",\n" });
            text.push_str(&serde_json::to_string(command).unwrap_or_default());
        }
        text.push_str("\n]}\n");
        text
    }

    /// Starts the recorded game from `rules` and plays its commands, each
    /// checked as a server checks it (for whoever is to play); the first
    /// command refused is an error naming its place in the log. A rules
    /// error met by the last command is not an error of the replay: the
    /// replayed game is then failed, as the recorded one was.
    pub fn replay<R: Ruleset>(&self, rules: &R) -> Result<CommandedGame<R::State>, String> {
        let options = GameOptions {
            seed: self.seed,
            overrides: self.settings.clone(),
        };
        let state = rules
            .start(&options)
            .map_err(|e| format!("the game cannot start: {e}"))?;
        let mut game = CommandedGame::new(state);
        let last = self.commands.len();
        for (i, command) in self.commands.iter().enumerate() {
            match game.play(None, command) {
                Ok(()) => {}
                Err(CommandError::Rules(_)) if i + 1 == last => {}
                Err(e) => return Err(format!("command {} of the record: {e}", i + 1)),
            }
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;

    const TAKE: &str = "(game
      (setup (create players 2)
             (create deck (game vloc ROW) (deck (RANK (A, B, C, D)))))
      (stage player (end (== (size (game vloc ROW)) 0))
        (choice ((any (game vloc ROW) 'C (move 'C (top ((current player) vloc HAND)))))))
      (scoring max (size ((current player) vloc HAND))))";

    /// A command names the decision as the observation does: from 0 at
    /// the start, and from the position's count in a game started from a
    /// position.
    #[test]
    fn commands_number_decisions_as_observations_do() {
        let rules = Rules::from_source("take.rcy", TAKE).expect("valid rules");
        let options = GameOptions {
            seed: 3,
            overrides: vec![],
        };
        let mut game = CommandedGame::new(rules.start(&options).expect("starts"));
        for _ in 0..2 {
            let seat = game.state().current_player().expect("runs");
            let seen = game.state().observe(seat);
            assert_eq!(seen.decision, game.decision());
            let command = Command {
                decision: seen.decision,
                mv: seen.moves[0].text.clone(),
            };
            game.play(Some(seat), &command).expect("plays");
        }
        assert_eq!(game.log()[0].decision, 0);
        assert_eq!(game.log()[1].decision, 1);
        // The game saved here and started again from the position: the
        // next command answers decision 2.
        let saved = game.state().to_position();
        let again = rules.load_position(&saved).expect("the position loads");
        let resumed = CommandedGame::new(again);
        assert_eq!(resumed.decision(), 2);
        assert_eq!(resumed.state().observe(0).decision, 2);
        let stale = Command {
            decision: 0,
            mv: resumed.move_texts()[0].clone(),
        };
        assert!(matches!(
            resumed.resolve(None, &stale),
            Err(CommandError::WrongDecision { given: 0, asked: 2 })
        ));
    }
}
