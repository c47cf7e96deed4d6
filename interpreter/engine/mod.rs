//! The engine: runs a compiled [`Program`] as a [`GameState`].
//! (Stub signatures; the implementation is being written.)

use crate::game::{GameState, Outcome, PlayError, Status};
use crate::ir::Program;
use std::sync::Arc;

/// Options for starting one game.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// Seed of the game's chance (shuffles, random tie breaks).
    pub seed: u64,
    /// `--set NAME=VALUE`: overrides of `declare`d constants.
    pub overrides: Vec<(String, String)>,
}

/// A compiled rules file, ready to start games.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The compiled program.
    pub program: Arc<Program>,
}

/// A move: which option of the choice, and the item picked at each `any`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Index of the condact in the choice.
    pub option: u16,
    /// Item index picked at each `any`, in the order they were reached.
    pub path: Vec<u32>,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct State {
    _p: Arc<Program>,
}

impl Rules {
    /// Starts a game: evaluates declares (with overrides), runs setup and
    /// plays on to the first decision.
    pub fn start(&self, _options: &GameOptions) -> Result<State, PlayError> {
        todo!()
    }
}

impl State {
    /// The whole table, hidden cards included (for transcripts).
    pub fn describe(&self) -> String {
        todo!()
    }
    /// Decisions taken so far.
    pub fn decisions(&self) -> u64 {
        todo!()
    }
}

impl GameState for State {
    type Move = Move;
    fn num_players(&self) -> usize {
        todo!()
    }
    fn current_player(&self) -> Option<usize> {
        todo!()
    }
    fn status(&self) -> Status {
        todo!()
    }
    fn legal_moves(&self) -> Vec<Move> {
        todo!()
    }
    fn apply(&mut self, _mv: &Move) -> Result<(), PlayError> {
        todo!()
    }
    fn outcome(&self) -> Option<Outcome> {
        todo!()
    }
    fn observation(&self, _player: usize) -> String {
        todo!()
    }
    fn move_to_text(&self, _mv: &Move) -> String {
        todo!()
    }
    fn move_from_text(&self, _text: &str) -> Result<Move, PlayError> {
        todo!()
    }
}
