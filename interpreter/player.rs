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

    /// Picks a move for the current player of `state` (a running game):
    /// `Ok(None)` when there is no legal move, an `Err` saying what went
    /// wrong when the player picks something that is not a move. The
    /// default lists the legal moves and asks [`Player::choose`]; a player
    /// that needs no list (the random player) does without it.
    fn choose_move(&mut self, state: &S) -> Result<Option<S::Move>, String> {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return Ok(None);
        }
        let chosen = self.choose(state, &moves);
        let n = moves.len();
        match moves.into_iter().nth(chosen) {
            Some(mv) => Ok(Some(mv)),
            None => Err(format!("the player chose move {chosen} of {n}")),
        }
    }
}

/// Picks uniformly at random with its own seeded ChaCha8 generator
/// ([`GameRng`]), so a given seed always gives the same choices. It never
/// lists the legal moves: [`GameState::random_move`] draws one (the engine
/// samples and checks; other games list and draw an index).
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

    fn choose_move(&mut self, state: &S) -> Result<Option<S::Move>, String> {
        Ok(state.random_move(&mut self.rng))
    }
}
