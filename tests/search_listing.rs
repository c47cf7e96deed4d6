//! The `mcts` search lists the moves of a tree node once when no chance
//! was drawn on the way there (`GameState::chance_drawn`), then plays its
//! moves unchecked (`GameState::apply_legal`), and keeps the state of
//! such a node to start later iterations from: it must choose exactly as
//! the search that lists the moves in every iteration and plays every
//! move from the root, for games with chance and without, and list and
//! play far less.

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
    played: Arc<AtomicU64>,
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
        self.played.fetch_add(1, Relaxed);
        self.inner.apply(mv)
    }
    fn apply_legal(&mut self, mv: &Move) -> Result<(), PlayError> {
        assert!(self.hooks, "apply_legal without the hooks");
        self.played.fetch_add(1, Relaxed);
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

/// What a search did: the visits of the root's moves, and how many times
/// it listed moves, heard that chance was drawn, and played a move.
#[derive(Debug)]
struct Done {
    visits: Vec<u32>,
    listed: u64,
    drawn: u64,
    played: u64,
}

/// What `mcts` with `iterations` from `state` (seed `seed`) did, with the
/// hooks or without.
fn search(state: &State, hooks: bool, iterations: u32, seed: u64) -> Done {
    let counted = Counted {
        inner: state.clone(),
        hooks,
        listed: Arc::new(AtomicU64::new(0)),
        drawn: Arc::new(AtomicU64::new(0)),
        played: Arc::new(AtomicU64::new(0)),
    };
    let moves = counted.legal_moves();
    let mut searcher = Searcher::new(
        Method::Mcts,
        SearchConfig::with_iterations(iterations),
        seed,
    );
    let visits = searcher.visits(&counted, &moves).expect("searches");
    Done {
        visits,
        listed: counted.listed.load(Relaxed),
        drawn: counted.drawn.load(Relaxed),
        played: counted.played.load(Relaxed),
    }
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
fn a_game_without_chance_is_searched_alike_listed_once_a_node_and_played_less() {
    for path in ["examples/connect4.rcy", "examples/othello.rcy"] {
        for (k, state) in positions(path, 7, 3).iter().enumerate() {
            let iterations = 150;
            let seed = k as u64 + 1;
            let plain = search(state, false, iterations, seed);
            let hooked = search(state, true, iterations, seed);
            assert_eq!(plain.visits, hooked.visits, "{path}, position {k}");
            assert_eq!(hooked.drawn, 0, "{path}: no chance is drawn");
            // Once a node at most (the root's moves are given), where the
            // plain search lists them at every node it goes through.
            assert!(
                hooked.listed <= u64::from(iterations) && hooked.listed < plain.listed,
                "{path}, position {k}: {hooked:?} against {plain:?}"
            );
            // The moves down the kept nodes are not played again.
            assert!(
                hooked.played < plain.played,
                "{path}, position {k}: {hooked:?} against {plain:?}"
            );
        }
    }
}

/// Nim on a count to 12 where a die may add one after each take (`random
/// 1`): which takes are legal depends on the chance drawn on the way.
const DICE_NIM: &str = "(game (setup (create players 2)) \
     (stage player (end (>= (game sto TAKEN) 12)) \
       (choice ((inc (game sto TAKEN) 1) \
                ((<= (game sto TAKEN) 10) (inc (game sto TAKEN) 2)) \
                ((<= (game sto TAKEN) 9) (inc (game sto TAKEN) 3)))) \
       (inc (game sto TAKEN) (random 1)) \
       ((>= (game sto TAKEN) 12) (set ((current player) sto WON) 1))) \
     (scoring max ((current player) sto WON)))";

#[test]
fn a_game_with_chance_is_searched_alike() {
    // The iterations that drew chance list the moves and play from the
    // root as before.
    let rules = Rules::from_source("dice-nim.rcy", DICE_NIM).expect("compiles");
    let mut drew = 0;
    for seed in 1..=4 {
        let options = GameOptions {
            seed,
            overrides: Vec::new(),
        };
        let state = rules.start(&options).expect("starts");
        let plain = search(&state, false, 200, seed);
        let hooked = search(&state, true, 200, seed);
        assert_eq!(plain.visits, hooked.visits, "seed {seed}");
        drew += hooked.drawn;
    }
    assert!(drew > 0, "no chance drawn: the test shows nothing");
}
