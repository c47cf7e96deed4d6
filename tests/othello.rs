//! Othello (`examples/othello.rcy`) against an independent reading of its
//! rules in Rust: the reference's perft from the start agrees with the
//! published counts, the engine's perft with the reference's, and seeded
//! random games played through the engine agree with the reference at
//! every decision (the positions every legal move leads to, passes, the
//! end and the winner).
//!
//! The rules as read here: an 8 x 8 board, black (seat 0) and white
//! (seat 1) discs, white on d4 and e5, black on d5 and e4, black to move. A move
//! puts a disc of the mover's colour on an empty square from which, in at
//! least one of the eight directions, a line of one or more of the
//! opponent's discs runs and ends in one of the mover's; every such line
//! is turned to the mover's colour. A player with no such square passes
//! (the pass is their move); when neither player has one the game ends,
//! and the player with more discs wins (equal numbers tie).

#[path = "common/classic.rs"]
mod classic;

use cardboard::drivers::perft::perft as engine_perft;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use classic::{Reference, View};
use std::cell::Cell;
use std::sync::OnceLock;

const DIRS: [(i32, i32); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// A position: each square 0 (empty), 1 (black) or 2 (white); the seat to
/// move, `None` once the game is over.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pos {
    cells: Vec<u8>,
    mover: Option<usize>,
}

struct Othello {
    size: i32,
    /// Passes offered, and games ended before the board was full (so
    /// that a test can tell the random games went through these rules).
    passes: Cell<u64>,
    early_ends: Cell<u64>,
}

impl Othello {
    fn at(&self, p: &Pos, r: i32, c: i32) -> Option<u8> {
        (r >= 0 && c >= 0 && r < self.size && c < self.size)
            .then(|| p.cells[(r * self.size + c) as usize])
    }

    fn initial(&self) -> Pos {
        let n = self.size;
        let mut cells = vec![0; (n * n) as usize];
        let (a, b) = (n / 2 - 1, n / 2);
        for (r, c, v) in [(a, a, 2), (b, b, 2), (a, b, 1), (b, a, 1)] {
            cells[(r * n + c) as usize] = v;
        }
        Pos {
            cells,
            mover: Some(0),
        }
    }

    /// The squares a disc of `colour` put on (r, c) turns over.
    fn flips(&self, p: &Pos, colour: u8, r: i32, c: i32) -> Vec<usize> {
        let mut out = Vec::new();
        if self.at(p, r, c) != Some(0) {
            return out;
        }
        for (dr, dc) in DIRS {
            let mut line = Vec::new();
            let (mut rr, mut cc) = (r + dr, c + dc);
            while self.at(p, rr, cc) == Some(3 - colour) {
                line.push((rr * self.size + cc) as usize);
                rr += dr;
                cc += dc;
            }
            if !line.is_empty() && self.at(p, rr, cc) == Some(colour) {
                out.extend(line);
            }
        }
        out
    }

    /// The boards after each placement of `colour`.
    fn placements(&self, p: &Pos, colour: u8) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for r in 0..self.size {
            for c in 0..self.size {
                let flips = self.flips(p, colour, r, c);
                if !flips.is_empty() {
                    let mut cells = p.cells.clone();
                    cells[(r * self.size + c) as usize] = colour;
                    for i in flips {
                        cells[i] = colour;
                    }
                    out.push(cells);
                }
            }
        }
        out
    }

    /// The position with `cells` and `next` to move, or over when neither
    /// player can place.
    fn settle(&self, cells: Vec<u8>, next: usize) -> Pos {
        let mut p = Pos {
            cells,
            mover: Some(next),
        };
        let can = |seat: usize, p: &Pos| !self.placements(p, seat as u8 + 1).is_empty();
        if !can(next, &p) && !can(1 - next, &p) {
            p.mover = None;
            if p.cells.contains(&0) {
                self.early_ends.set(self.early_ends.get() + 1);
            }
        }
        p
    }
}

impl Reference for Othello {
    type Pos = Pos;

    fn read(&self, s: &State) -> Pos {
        let view = View::of(s);
        let mut cells = Vec::new();
        for r in 0..self.size {
            for c in 0..self.size {
                let disc = view.int(&format!("BOARD[{r},{c}]"), "DISC");
                assert!((0..=2).contains(&disc), "a disc {disc} at {r},{c}");
                cells.push(disc as u8);
            }
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
        let boards = self.placements(p, seat as u8 + 1);
        if boards.is_empty() {
            // A pass (settle keeps the game going: the other player can move).
            self.passes.set(self.passes.get() + 1);
            return vec![self.settle(p.cells.clone(), 1 - seat)];
        }
        boards
            .into_iter()
            .map(|cells| self.settle(cells, 1 - seat))
            .collect()
    }

    fn winners(&self, p: &Pos) -> Option<Vec<usize>> {
        match p.mover {
            Some(_) => None,
            None => Some(by_discs(p)),
        }
    }
}

/// The winners of a finished position (by discs).
fn by_discs(p: &Pos) -> Vec<usize> {
    let black = p.cells.iter().filter(|&&c| c == 1).count();
    let white = p.cells.iter().filter(|&&c| c == 2).count();
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => vec![0],
        std::cmp::Ordering::Less => vec![1],
        std::cmp::Ordering::Equal => vec![0, 1],
    }
}

fn board(size: i32) -> Othello {
    Othello {
        size,
        passes: Cell::new(0),
        early_ends: Cell::new(0),
    }
}

/// Published perft of Othello from the start (passes counted as moves;
/// none happens this early): nodes at depths 1 to 8.
const PUBLISHED: [u64; 8] = [4, 12, 56, 244, 1396, 8200, 55092, 390216];

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| classic::load(&classic::example("othello.rcy", "OTHELLO_RULES")))
}

fn start(size: i32, seed: u64) -> State {
    classic::start(rules(), seed, &[("SIZE", size.to_string())])
}

#[test]
fn reference_perft_matches_the_published_counts() {
    // Depth 6 here; OTHELLO_DEPTH=8 for the whole published table.
    let depth = classic::games("OTHELLO_DEPTH", 6) as usize;
    let counts = classic::perft(&board(8), &board(8).initial(), depth);
    assert_eq!(&counts[1..], &PUBLISHED[..depth]);
}

#[test]
fn engine_perft_matches_the_reference() {
    let s = start(8, 1);
    assert_eq!(board(8).read(&s), board(8).initial());
    let counts = engine_perft(&s, 4).unwrap();
    assert_eq!(counts, vec![1, 4, 12, 56, 244]);
    // On 6 x 6 games end early enough for ends and passes to count.
    let six = board(6);
    let s = start(6, 1);
    assert_eq!(six.read(&s), six.initial());
    assert_eq!(
        engine_perft(&s, 5).unwrap(),
        classic::perft(&six, &six.initial(), 5)
    );
}

#[test]
fn random_games_agree_with_the_reference_at_every_decision() {
    // OTHELLO_GAMES=N for a longer run: 8 x 8, 4 x 4 and 6 x 6 in turn.
    let n = classic::games("OTHELLO_GAMES", 6);
    let (mut passes, mut early) = (0, 0);
    let mut decisions = 0;
    for seed in 0..n {
        let r = board([8, 4, 6][seed as usize % 3]);
        decisions += classic::agree(&r, start(r.size, seed), seed);
        passes += r.passes.get();
        early += r.early_ends.get();
    }
    eprintln!("{n} games, {decisions} decisions; offered: {passes} passes, {early} early ends");
    assert!(
        passes > 0 && early > 0,
        "the games went through passes and early ends"
    );
}
