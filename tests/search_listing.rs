//! The `mcts` search lists the moves of a tree node once when no chance
//! was drawn on the way there (`GameState::chance_drawn`), then plays its
//! moves unchecked (`GameState::apply_legal`): it must choose exactly as
//! the search that lists them in every iteration, for games with chance
//! and without, and list far less.

use cardboard::engine::{GameOptions, Move, Rules, State};
use cardboard::game::{GameState, Outcome, PlayError, Status};
use cardboard::random::GameRng;
use cardboard::search::tree::SearchConfig;
use cardboard::search::{Method, Searcher};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// A game that counts its listings and its answers to `chance_drawn`;
/// with `hooks` false it leaves `chance_drawn` and `apply_legal` to the
/// trait's defaults (chance always drawn, every move checked), as a game
/// that cannot tell.
#[derive(Clone, Debug)]
struct Counted {
    inner: State,
    hooks: bool,
    listed: Arc<AtomicU64>,
    drawn: Arc<AtomicU64>,
}

impl GameState for Counted {
    type Move = Move;
    type Undo = cardboard::engine::MoveUndo;
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    fn current_player(&self) -> Option<usize> {
        self.inner.current_player()
    }
    fn status(&self) -> Status {
        self.inner.status()
    }
    fn legal_moves(&self) -> Vec<Move> {
        self.listed.fetch_add(1, Relaxed);
        self.inner.legal_moves()
    }
    fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        self.inner.random_move(rng)
    }
    fn apply(&mut self, mv: &Move) -> Result<(), PlayError> {
        self.inner.apply(mv)
    }
    fn apply_legal(&mut self, mv: &Move) -> Result<(), PlayError> {
        assert!(self.hooks, "apply_legal without the hooks");
        self.inner.apply_legal(mv)
    }
    fn apply_undoable(&mut self, mv: &Move) -> Result<Self::Undo, PlayError> {
        self.inner.apply_undoable(mv)
    }
    fn undo(&mut self, undo: Self::Undo) {
        self.inner.undo(undo)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()
    }
    fn score_now(&self) -> Option<Outcome> {
        self.inner.score_now()
    }
    fn move_to_text(&self, mv: &Move) -> String {
        self.inner.move_to_text(mv)
    }
    fn moves_to_text(&self, moves: &[Move]) -> Vec<String> {
        self.inner.moves_to_text(moves)
    }
    fn move_from_text(&self, text: &str) -> Result<Move, PlayError> {
        self.inner.move_from_text(text)
    }
    fn reseed_chance(&mut self, seed: u64) {
        self.inner.reseed_chance(seed)
    }
    fn chance_drawn(&self) -> bool {
        if !self.hooks {
            return true;
        }
        let drawn = self.inner.chance_drawn();
        self.drawn.fetch_add(u64::from(drawn), Relaxed);
        drawn
    }
}

/// The visits of `mcts` with `iterations` from `state` (seed `seed`), and
/// the listings and `chance_drawn` answers of `true` it asked for, with
/// the hooks and without.
fn visits(state: &State, hooks: bool, iterations: u32, seed: u64) -> (Vec<u32>, u64, u64) {
    let counted = Counted {
        inner: state.clone(),
        hooks,
        listed: Arc::new(AtomicU64::new(0)),
        drawn: Arc::new(AtomicU64::new(0)),
    };
    let moves = counted.legal_moves();
    let mut searcher = Searcher::new(
        Method::Mcts,
        SearchConfig::with_iterations(iterations),
        seed,
    );
    let visits = searcher.visits(&counted, &moves).expect("searches");
    (
        visits,
        counted.listed.load(Relaxed),
        counted.drawn.load(Relaxed),
    )
}

/// Positions of `path` after 0, 5, 10, ... random moves (seeded), as long
/// as the game runs.
fn positions(path: &str, seed: u64, count: usize) -> Vec<State> {
    let rules = Rules::load(std::path::Path::new(path)).expect("loads");
    let options = GameOptions {
        seed,
        overrides: Vec::new(),
    };
    let mut state = rules.start(&options).expect("starts");
    let mut rng = GameRng::new(seed);
    let mut out = Vec::new();
    while out.len() < count && state.current_player().is_some() {
        out.push(state.clone());
        for _ in 0..5 {
            match state.random_move(&mut rng) {
                Some(mv) => state.apply(&mv).expect("plays"),
                None => break,
            }
        }
    }
    out
}

#[test]
fn a_game_without_chance_is_searched_alike_and_listed_once_a_node() {
    for path in ["examples/connect4.rcy", "examples/othello.rcy"] {
        for (k, state) in positions(path, 7, 3).iter().enumerate() {
            let iterations = 150;
            let seed = k as u64 + 1;
            let (plain, listed_plain, _) = visits(state, false, iterations, seed);
            let (hooked, listed, drawn) = visits(state, true, iterations, seed);
            assert_eq!(plain, hooked, "{path}, position {k}");
            assert_eq!(drawn, 0, "{path}: no chance is drawn");
            // Once a node at most (the root's moves are given), where the
            // plain search lists them at every node it goes through.
            assert!(
                listed <= u64::from(iterations) && listed < listed_plain,
                "{path}, position {k}: {listed} listings, {listed_plain} without the hooks"
            );
        }
    }
}

#[test]
fn a_game_with_chance_is_searched_alike() {
    // Cartagena draws cards in play: the iterations that drew one list
    // the moves as before.
    let mut drew = 0;
    for (k, state) in positions("games/cartagena.rcy", 3, 4).iter().enumerate() {
        let seed = k as u64 + 1;
        let (plain, _, _) = visits(state, false, 150, seed);
        let (hooked, _, drawn) = visits(state, true, 150, seed);
        assert_eq!(plain, hooked, "cartagena, position {k}");
        drew += drawn;
    }
    assert!(drew > 0, "no chance drawn: the test shows nothing");
}
