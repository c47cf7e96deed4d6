//! Players: whoever picks one of the legal moves. A [`Player`] sees only the
//! [`GameState`] interface, so random players, search and people at a
//! terminal all plug into the same drivers.

use crate::game::GameState;
use crate::random::{below, GameRng};

/// Something that picks a move.
pub trait Player<S: GameState> {
    /// Picks one of `moves` (the current legal moves of `state`, never empty)
    /// and returns its index.
    fn choose(&mut self, state: &S, moves: &[S::Move]) -> usize;
}

/// Picks uniformly at random with its own seeded ChaCha8 generator
/// ([`GameRng`]), so a
/// given seed always gives the same choices.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: GameRng,
}

impl RandomPlayer {
    /// A random player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: GameRng::new(seed),
        }
    }
}

impl<S: GameState> Player<S> for RandomPlayer {
    fn choose(&mut self, _state: &S, moves: &[S::Move]) -> usize {
        below(&mut self.rng, moves.len())
    }
}
