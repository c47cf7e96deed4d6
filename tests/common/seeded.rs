//! Seeded games of every shipped game and example, stopped at their
//! start, in their middle and at their end: the positions the terminal
//! screen's snapshots (`tests/screens.rs`) and the browser page's drawing
//! (`tests/web.rs`) are checked at.

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};
use std::path::Path;

/// The most decisions a seeded game is played for; a game still running
/// then is taken as it stands for its "end".
pub const MAX_DECISIONS: usize = 3000;

/// One position of a seeded game.
pub struct Seeded {
    /// The rules file's stem (`othello`).
    pub game: String,
    /// `start`, `middle` or `end`.
    pub when: &'static str,
    /// The game at that moment.
    pub state: State,
    /// The seat it is drawn for: the seat to play, else seat 0.
    pub seat: usize,
}

/// The start, the middle and the end of the game of `file` played with
/// random moves drawn from `seed` (the game's own seed too).
pub fn positions(file: &Path, seed: u64) -> Vec<Seeded> {
    let rules = Rules::load(file).unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
    let start = rules
        .start(&GameOptions {
            seed,
            overrides: vec![],
        })
        .unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
    let mut rng = GameRng::new(seed);
    let mut picks = Vec::new();
    let mut state = start.clone();
    while state.status() == Status::Running && picks.len() < MAX_DECISIONS {
        let legal = state.legal_moves();
        if legal.is_empty() {
            break;
        }
        let pick = below(&mut rng, legal.len());
        state.apply(&legal[pick]).expect("a legal move plays");
        picks.push(pick);
    }
    let mut middle = start.clone();
    for &pick in &picks[..picks.len() / 2] {
        let legal = middle.legal_moves();
        middle.apply(&legal[pick]).expect("a legal move plays");
    }
    let game = (file.file_stem().unwrap_or_default().to_string_lossy()).to_string();
    [("start", start), ("middle", middle), ("end", state)]
        .into_iter()
        .map(|(when, state)| Seeded {
            game: game.clone(),
            when,
            seat: state.current_player().unwrap_or(0),
            state,
        })
        .collect()
}
