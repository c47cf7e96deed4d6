//! Tic-tac-toe (`examples/tictactoe.rcy`, marks in the squares'
//! storages, and `examples/tictactoe-pieces.rcy`, marks as pieces) against
//! an independent reading of its rules in Rust: the reference's perft and its tally of finished
//! games agree with the published counts (the same as OpenSpiel's
//! `tic_tac_toe`), the engine's whole game tree with the reference's
//! (nodes at every depth, and the games won by each side and drawn), and
//! seeded random games played through the engine agree with the reference
//! at every decision (the positions every legal move leads to, the end
//! and the winner).
//!
//! The rules as read here: a 3 x 3 board, crosses (seat 0) and noughts
//! (seat 1), crosses to move. A move puts the mover's mark on an empty
//! square. Three marks of one player in a row, a column or a diagonal win;
//! a full board without such a line is a draw.

#[path = "common/classic.rs"]
mod classic;

use cardboard::drivers::perft::perft as engine_perft;
use cardboard::engine::{Rules, State};
use cardboard::game::{GameState, Status};
use classic::{Reference, View};
use std::sync::OnceLock;

/// The eight lines of three squares (squares numbered row by row).
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A position: each square 0 (empty), 1 (crosses) or 2 (noughts); the
/// seat to move, `None` once the game is over.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pos {
    cells: [u8; 9],
    mover: Option<usize>,
}

struct TicTacToe;

impl TicTacToe {
    fn initial(&self) -> Pos {
        Pos {
            cells: [0; 9],
            mover: Some(0),
        }
    }

    /// The seat with three in a line, if any.
    fn line_of(cells: &[u8; 9]) -> Option<usize> {
        LINES.iter().find_map(|l| {
            let m = cells[l[0]];
            (m != 0 && cells[l[1]] == m && cells[l[2]] == m).then(|| m as usize - 1)
        })
    }
}

impl Reference for TicTacToe {
    type Pos = Pos;

    fn read(&self, s: &State) -> Pos {
        let view = View::of(s);
        let mut cells = [0; 9];
        for (i, cell) in cells.iter_mut().enumerate() {
            // A mark in the storage MARK, or a piece in the location MARK.
            let square = format!("BOARD[{},{}]", i / 3, i % 3);
            let pieces = view.cards(&square, "vloc MARK");
            *cell = match (view.int(&square, "MARK"), pieces.as_slice()) {
                (mark @ 0..=2, []) => mark as u8,
                (0, [piece]) if piece == "X" => 1,
                (0, [piece]) if piece == "O" => 2,
                other => panic!("square {i} holds {other:?}"),
            };
        }
        Pos {
            cells,
            mover: s.current_player(),
        }
    }

    fn successors(&self, p: &Pos) -> Vec<Pos> {
        let Some(seat) = p.mover else {
            return Vec::new();
        };
        (0..9)
            .filter(|&i| p.cells[i] == 0)
            .map(|i| {
                let mut cells = p.cells;
                cells[i] = seat as u8 + 1;
                let over = Self::line_of(&cells).is_some() || !cells.contains(&0);
                Pos {
                    cells,
                    mover: (!over).then_some(1 - seat),
                }
            })
            .collect()
    }

    fn winners(&self, p: &Pos) -> Option<Vec<usize>> {
        p.mover.is_none().then(|| match Self::line_of(&p.cells) {
            Some(seat) => vec![seat],
            None => vec![0, 1],
        })
    }
}

/// Published perft of tic-tac-toe (OpenSpiel's `tic_tac_toe` gives the
/// same): nodes at depths 1 to 9.
const PUBLISHED: [u64; 9] = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];

/// The finished games: won by crosses, won by noughts, drawn (255168 in all).
const GAMES: [u64; 3] = [131184, 77904, 46080];

/// The two files, each with the variable that names a copy to test instead.
const FILES: [(&str, &str); 2] = [
    ("tictactoe.rcy", "TICTACTOE_RULES"),
    ("tictactoe-pieces.rcy", "TICTACTOE_PIECES_RULES"),
];

fn rules(file: usize) -> &'static Rules {
    static RULES: [OnceLock<Rules>; 2] = [OnceLock::new(), OnceLock::new()];
    let (name, var) = FILES[file];
    RULES[file].get_or_init(|| classic::load(&classic::example(name, var)))
}

/// How the finished games under `p` end, added to `tally` (crosses won,
/// noughts won, drawn), by the reference.
fn reference_games(r: &TicTacToe, p: &Pos, tally: &mut [u64; 3]) {
    match r.winners(p) {
        Some(w) if w.len() == 1 => tally[w[0]] += 1,
        Some(_) => tally[2] += 1,
        None => r
            .successors(p)
            .iter()
            .for_each(|n| reference_games(r, n, tally)),
    }
}

/// The same tally by the engine, every move played and taken back.
fn engine_games(s: &mut State, tally: &mut [u64; 3]) {
    if s.status() == Status::Finished {
        let winners = s.outcome().unwrap().winners;
        match winners.as_slice() {
            [seat] => tally[*seat] += 1,
            [0, 1] => tally[2] += 1,
            other => panic!("winners {other:?}"),
        }
        return;
    }
    assert_eq!(s.status(), Status::Running);
    for m in s.legal_moves() {
        let undo = s.apply_undoable(&m).unwrap();
        engine_games(s, tally);
        s.undo(undo);
    }
}

#[test]
fn reference_matches_the_published_counts() {
    let counts = classic::perft(&TicTacToe, &TicTacToe.initial(), 10);
    assert_eq!(&counts[1..10], &PUBLISHED);
    assert_eq!(counts[10], 0, "no game lasts more than nine moves");
    let mut tally = [0; 3];
    reference_games(&TicTacToe, &TicTacToe.initial(), &mut tally);
    assert_eq!(tally, GAMES);
}

#[test]
fn engine_game_tree_matches_the_reference() {
    for (file, (name, _)) in FILES.iter().enumerate() {
        let mut s = classic::start(rules(file), 1, &[]);
        assert_eq!(TicTacToe.read(&s), TicTacToe.initial(), "{name}");
        assert_eq!(
            engine_perft(&s, 10).unwrap(),
            classic::perft(&TicTacToe, &TicTacToe.initial(), 10),
            "{name}"
        );
        let mut tally = [0; 3];
        engine_games(&mut s, &mut tally);
        assert_eq!(tally, GAMES, "{name}");
    }
}

#[test]
fn random_games_agree_with_the_reference_at_every_decision() {
    // TICTACTOE_GAMES=N for a longer run.
    let n = classic::games("TICTACTOE_GAMES", 40);
    for (file, (name, _)) in FILES.iter().enumerate() {
        random_games(name, rules(file), n);
    }
}

fn random_games(name: &str, rules: &Rules, n: u64) {
    let mut ends = [0; 3];
    let mut decisions = 0;
    for seed in 0..n {
        decisions += classic::agree(&TicTacToe, classic::start(rules, seed, &[]), seed);
    }
    // How the same games ended (the same seeds draw the same moves).
    for seed in 0..n {
        let mut s = classic::start(rules, seed, &[]);
        let mut rng = cardboard::random::GameRng::new(seed);
        while s.status() == Status::Running {
            let moves = s.legal_moves();
            let i = cardboard::random::below(&mut rng, moves.len());
            s.apply(&moves[i]).unwrap();
        }
        match s.outcome().unwrap().winners.as_slice() {
            [seat] => ends[*seat] += 1,
            _ => ends[2] += 1,
        }
    }
    eprintln!("{name}: {n} games, {decisions} decisions; crosses, noughts, draws: {ends:?}");
    assert!(
        ends.iter().all(|&e| e > 0),
        "{name}: the games went through both wins and a draw"
    );
}
