//! Players that search: `mcts` (UCT Monte Carlo tree search, for
//! perfect-information play) and `ismcts` (single-observer
//! information-set MCTS, for hidden information), and the seats of a game
//! (`--seats`). They talk to a game only through the [`GameState`]
//! interface, so they play every rules file, shipped or not.
//!
//! Both build one tree per decision ([`tree`]); each iteration plays from a
//! state drawn afresh:
//! - `mcts` copies the game and draws its chance to come anew
//!   ([`GameState::reseed_chance`]): it sees the whole table (hidden cards
//!   included), so it is for games without hidden information, but it
//!   never knows the order of a shuffle or a die still to come;
//! - `ismcts` asks the game for a determinization from what the seat has
//!   seen ([`GameState::resample`]) and never plays on the true state.
//!
//! A searcher draws everything from its own ChaCha8 generator, seeded per
//! seat from the game's seed ([`seats::Seats::player`]): a game with a
//! given seed, seats and budgets is played the same way every time, on any
//! number of threads. docs/search.md describes the players and their
//! strength.

pub mod seats;
pub mod tree;

use crate::game::GameState;
use crate::player::Player;
use crate::random::{below, GameRng};
use tree::{most_visited, search, Identity, SearchConfig, Source};

/// Which search a [`Searcher`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// UCT on copies of the game (perfect information).
    Mcts,
    /// Single-observer ISMCTS on determinizations.
    Ismcts,
}

/// A player that searches before each decision with more than one move.
#[derive(Clone, Debug)]
pub struct Searcher {
    method: Method,
    config: SearchConfig,
    rng: GameRng,
}

impl Searcher {
    /// A searcher of `method` with `config`, whose choices are fixed by
    /// `seed`.
    pub fn new(method: Method, config: SearchConfig, seed: u64) -> Searcher {
        Searcher {
            method,
            config,
            rng: GameRng::new(seed),
        }
    }

    /// The visits of each of `moves` (the legal moves of `state`) after a
    /// search, or why the search cannot run.
    pub fn visits<S: GameState>(
        &mut self,
        state: &S,
        moves: &[S::Move],
    ) -> Result<Vec<u32>, String> {
        let Some(me) = state.current_player() else {
            return Err("the game is not running".to_string());
        };
        let config = self.config;
        match self.method {
            Method::Mcts => Ok(search(
                moves,
                &[],
                Identity::Value,
                me,
                &config,
                &mut self.rng,
                Source::Copies(state),
            )),
            Method::Ismcts => {
                // Moves are told apart by their text as the seat to play
                // may read it (`moves_to_text_for`): the seat's own moves
                // read the same in every state it cannot tell from the
                // true one, and a move that would draw a card it cannot
                // see says `a card`, so the true state's texts name no
                // hidden card the determinizations could be matched on.
                let texts = state.moves_to_text_for(moves, me);
                let mut drew = false;
                let mut draw = |slot: &mut Option<S>, rng: &mut GameRng| {
                    *slot = state.resample(me, rng);
                    drew |= slot.is_some();
                    slot.is_some()
                };
                let visits = search(
                    moves,
                    &texts,
                    Identity::Text,
                    me,
                    &config,
                    &mut self.rng,
                    Source::Drawn(&mut draw),
                );
                if !drew && config.iterations > 0 {
                    return Err("this game cannot be resampled for ismcts".to_string());
                }
                Ok(visits)
            }
        }
    }
}

impl<S: GameState> Player<S> for Searcher {
    /// The most visited move; when the search cannot run (a game that
    /// cannot resample, for `ismcts`) a move drawn at random, since
    /// `choose` cannot tell an error: the drivers call
    /// [`Player::choose_move`], which does.
    fn choose(&mut self, state: &S, moves: &[S::Move]) -> usize {
        if moves.len() < 2 {
            return 0;
        }
        match self.visits(state, moves) {
            Ok(visits) => most_visited(&visits),
            Err(_) => below(&mut self.rng, moves.len()),
        }
    }

    fn choose_move(&mut self, state: &S) -> Result<Option<S::Move>, String> {
        let moves = state.legal_moves();
        match moves.len() {
            0 => Ok(None),
            1 => Ok(moves.into_iter().next()),
            n => {
                let visits = self.visits(state, &moves)?;
                let i = most_visited(&visits);
                moves
                    .into_iter()
                    .nth(i)
                    .map(Some)
                    .ok_or_else(|| format!("the search chose move {i} of {n}"))
            }
        }
    }
}
