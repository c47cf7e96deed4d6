//! Connect Four (`examples/connect4.rcy`, discs in the squares'
//! storages, and `examples/connect4-pieces.rcy`, discs as pieces) against
//! an independent reading of its rules in Rust: the reference's perft from the start agrees with
//! the published counts (the same as OpenSpiel's `connect_four`), the
//! engine's perft with the reference's (on 6 x 7 and on smaller boards,
//! where wins and full boards come early), and seeded random games played
//! through the engine agree with the reference at every decision (the
//! positions every legal move leads to, the end and the winner).
//!
//! The rules as read here: 6 rows of 7 columns, red (seat 0) and yellow
//! (seat 1), red to move. A move drops a disc of the mover's colour in a
//! column that is not full, onto the lowest empty square. Four discs of
//! one player in a row, a column or a diagonal win; a full board without
//! such a line is a draw.

#[path = "common/classic.rs"]
mod classic;

use cardboard::drivers::perft::perft as engine_perft;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use classic::{Reference, View};
use std::cell::Cell;
use std::sync::OnceLock;

/// A position: each square 0 (empty), 1 (red) or 2 (yellow), row by row
/// from the top; the seat to move, `None` once the game is over, and then
/// the winner (`None` for a draw).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pos {
    cells: Vec<u8>,
    mover: Option<usize>,
    winner: Option<usize>,
}

struct Connect4 {
    rows: i32,
    cols: i32,
    /// Wins and full boards offered (so that a test can tell the random
    /// games went through both ends).
    wins: Cell<u64>,
    draws: Cell<u64>,
}

impl Connect4 {
    fn new(rows: i32, cols: i32) -> Connect4 {
        Connect4 {
            rows,
            cols,
            wins: Cell::new(0),
            draws: Cell::new(0),
        }
    }

    fn initial(&self) -> Pos {
        Pos {
            cells: vec![0; (self.rows * self.cols) as usize],
            mover: Some(0),
            winner: None,
        }
    }

    fn at(&self, cells: &[u8], r: i32, c: i32) -> Option<u8> {
        (r >= 0 && c >= 0 && r < self.rows && c < self.cols)
            .then(|| cells[(r * self.cols + c) as usize])
    }

    /// Whether `cells` hold four of `disc` in a line anywhere.
    fn four(&self, cells: &[u8], disc: u8) -> bool {
        (0..self.rows).any(|r| {
            (0..self.cols).any(|c| {
                [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|(dr, dc)| {
                    (0..4).all(|k| self.at(cells, r + k * dr, c + k * dc) == Some(disc))
                })
            })
        })
    }
}

impl Reference for Connect4 {
    type Pos = Pos;

    fn read(&self, s: &State) -> Pos {
        let view = View::of(s);
        let mut cells = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                // A disc in the storage DISC, or a piece in the location DISC.
                let square = format!("BOARD[{r},{c}]");
                let pieces = view.cards(&square, "vloc DISC");
                cells.push(match (view.int(&square, "DISC"), pieces.as_slice()) {
                    (disc @ 0..=2, []) => disc as u8,
                    (0, [piece]) if piece == "RED" => 1,
                    (0, [piece]) if piece == "YELLOW" => 2,
                    other => panic!("{square} holds {other:?}"),
                });
            }
        }
        let mover = s.current_player();
        let winner = mover.is_none().then(|| s.outcome().unwrap().winners);
        Pos {
            cells,
            mover,
            winner: winner.and_then(|w| (w.len() == 1).then(|| w[0])),
        }
    }

    fn successors(&self, p: &Pos) -> Vec<Pos> {
        let Some(seat) = p.mover else {
            return Vec::new();
        };
        let disc = seat as u8 + 1;
        (0..self.cols)
            .filter_map(|c| {
                let r = (0..self.rows)
                    .rev()
                    .find(|&r| self.at(&p.cells, r, c) == Some(0))?;
                let mut cells = p.cells.clone();
                cells[(r * self.cols + c) as usize] = disc;
                let won = self.four(&cells, disc);
                let full = !cells.contains(&0);
                if won {
                    self.wins.set(self.wins.get() + 1);
                } else if full {
                    self.draws.set(self.draws.get() + 1);
                }
                Some(Pos {
                    cells,
                    mover: (!won && !full).then_some(1 - seat),
                    winner: won.then_some(seat),
                })
            })
            .collect()
    }

    fn winners(&self, p: &Pos) -> Option<Vec<usize>> {
        p.mover.is_none().then(|| match p.winner {
            Some(w) => vec![w],
            None => vec![0, 1],
        })
    }
}

/// Published perft of Connect Four 6 x 7 (OpenSpiel's `connect_four`
/// gives the same): nodes at depths 1 to 8; the first wins are at depth 7.
const PUBLISHED: [u64; 8] = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234];

/// The two files, each with the variable that names a copy to test instead.
const FILES: [(&str, &str); 2] = [
    ("connect4.rcy", "CONNECT4_RULES"),
    ("connect4-pieces.rcy", "CONNECT4_PIECES_RULES"),
];

fn rules(file: usize) -> &'static Rules {
    static RULES: [OnceLock<Rules>; 2] = [OnceLock::new(), OnceLock::new()];
    let (name, var) = FILES[file];
    RULES[file].get_or_init(|| classic::load(&classic::example(name, var)))
}

fn start(file: usize, r: &Connect4, seed: u64) -> State {
    let set = [
        ("ROWS", r.rows.to_string()),
        ("COLUMNS", r.cols.to_string()),
    ];
    classic::start(rules(file), seed, &set)
}

#[test]
fn reference_perft_matches_the_published_counts() {
    // Depth 7 here; CONNECT4_DEPTH=8 for the whole table.
    let depth = classic::games("CONNECT4_DEPTH", 7) as usize;
    let r = Connect4::new(6, 7);
    let counts = classic::perft(&r, &r.initial(), depth);
    assert_eq!(&counts[1..], &PUBLISHED[..depth]);
}

#[test]
fn engine_perft_matches_the_reference() {
    for file in 0..FILES.len() {
        engine_perft_of(file);
    }
}

fn engine_perft_of(file: usize) {
    let name = FILES[file].0;
    let r = Connect4::new(6, 7);
    let s = start(file, &r, 1);
    assert_eq!(r.read(&s), r.initial(), "{name}");
    let counts = engine_perft(&s, 4).unwrap();
    assert_eq!(counts, vec![1, 7, 49, 343, 2401], "{name}");
    // On small boards the first wins (four in a column or in the bottom
    // row, from depth 7) come sooner in the tree; the diagonals take ten
    // discs, too deep for perft here: the random games check them.
    for (rows, cols, depth) in [(4, 4, 8), (4, 5, 7)] {
        let small = Connect4::new(rows, cols);
        let s = start(file, &small, 1);
        assert_eq!(small.read(&s), small.initial(), "{name}");
        assert_eq!(
            engine_perft(&s, depth).unwrap(),
            classic::perft(&small, &small.initial(), depth),
            "{name} {rows} x {cols}"
        );
        assert!(small.wins.get() > 0, "{rows} x {cols}: wins were counted");
    }
}

#[test]
fn random_games_agree_with_the_reference_at_every_decision() {
    // CONNECT4_GAMES=N for a longer run: 6 x 7, 4 x 4 and 5 x 4 in turn.
    let n = classic::games("CONNECT4_GAMES", 24);
    for (file, (name, _)) in FILES.iter().enumerate() {
        let (mut wins, mut draws) = (0, 0);
        let mut decisions = 0;
        for seed in 0..n {
            let (rows, cols) = [(6, 7), (4, 4), (5, 4)][seed as usize % 3];
            let r = Connect4::new(rows, cols);
            decisions += classic::agree(&r, start(file, &r, seed), seed);
            wins += r.wins.get();
            draws += r.draws.get();
        }
        eprintln!(
            "{name}: {n} games, {decisions} decisions; offered: {wins} wins, {draws} full boards"
        );
        assert!(
            wins > 0 && draws > 0,
            "{name}: the games went through wins and full boards"
        );
    }
}
