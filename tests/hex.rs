//! Hex (`examples/hex.rcy`) against an independent reading of its rules in
//! Rust: perft counted by hand on the smallest board, the engine's perft
//! against the reference's, and seeded random games played through the
//! engine that agree with the reference at every decision (the positions
//! every legal move leads to, the end and the winner).
//!
//! The rules as read here: a rhombus of N x N hexagonal cells (row 0 at
//! the top, column 0 at the left); cell (r, c) touches (r - 1, c),
//! (r - 1, c + 1), (r, c - 1), (r, c + 1), (r + 1, c - 1) and (r + 1, c).
//! Red (seat 0) moves first; each move puts a stone of one's colour on an
//! empty cell. Red wins when a chain of touching red stones joins row 0
//! to row N - 1, blue (seat 1) when one joins column 0 to column N - 1.
//! The board cannot fill without a winner, so there is no draw.

#[path = "common/classic.rs"]
mod classic;

use cardboard::drivers::perft::perft as engine_perft;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use classic::{Reference, View};
use std::cell::Cell;
use std::sync::OnceLock;

/// The six neighbours of a cell, as offsets (row, column).
const TOUCH: [(i32, i32); 6] = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)];

/// A position: each cell 0 (empty), 1 (red) or 2 (blue); the seat to move,
/// `None` once the game is over, and then the winner.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pos {
    cells: Vec<u8>,
    mover: Option<usize>,
    winner: Option<usize>,
}

struct Hex {
    size: i32,
    /// Winning moves offered to each seat (so that a test can tell the
    /// random games went through both sides' wins).
    wins: [Cell<u64>; 2],
}

impl Hex {
    fn new(size: i32) -> Hex {
        Hex {
            size,
            wins: Default::default(),
        }
    }

    fn initial(&self) -> Pos {
        Pos {
            cells: vec![0; (self.size * self.size) as usize],
            mover: Some(0),
            winner: None,
        }
    }

    /// Whether the stones of `seat` join its two sides: a search from
    /// every stone on its first side.
    fn joined(&self, cells: &[u8], seat: usize) -> bool {
        let n = self.size;
        let stone = seat as u8 + 1;
        // Red's sides are rows, blue's are columns: (along, across).
        let cell = |a: i32, b: i32| if seat == 0 { (a, b) } else { (b, a) };
        let mut seen = vec![false; cells.len()];
        let mut stack = Vec::new();
        for b in 0..n {
            let (r, c) = cell(0, b);
            let i = (r * n + c) as usize;
            if cells[i] == stone {
                seen[i] = true;
                stack.push((r, c));
            }
        }
        while let Some((r, c)) = stack.pop() {
            if (if seat == 0 { r } else { c }) == n - 1 {
                return true;
            }
            for (dr, dc) in TOUCH {
                let (rr, cc) = (r + dr, c + dc);
                if (0..n).contains(&rr) && (0..n).contains(&cc) {
                    let i = (rr * n + cc) as usize;
                    if cells[i] == stone && !seen[i] {
                        seen[i] = true;
                        stack.push((rr, cc));
                    }
                }
            }
        }
        false
    }
}

impl Reference for Hex {
    type Pos = Pos;

    fn read(&self, s: &State) -> Pos {
        let view = View::of(s);
        let mut cells = Vec::new();
        for r in 0..self.size {
            for c in 0..self.size {
                let stones = view.cards(&format!("BOARD[{r},{c}]"), "vloc STONE");
                assert!(stones.len() <= 1, "{} stones at {r},{c}", stones.len());
                cells.push(match stones.first().map(String::as_str) {
                    None => 0,
                    Some("RED") => 1,
                    Some("BLUE") => 2,
                    Some(other) => panic!("a stone {other} at {r},{c}"),
                });
            }
        }
        let mover = s.current_player();
        let winner = mover.is_none().then(|| {
            let winners = s.outcome().unwrap().winners;
            assert_eq!(winners.len(), 1, "Hex has no tie: {winners:?}");
            winners[0]
        });
        Pos {
            cells,
            mover,
            winner,
        }
    }

    fn successors(&self, p: &Pos) -> Vec<Pos> {
        let Some(seat) = p.mover else {
            return Vec::new();
        };
        (0..p.cells.len())
            .filter(|&i| p.cells[i] == 0)
            .map(|i| {
                let mut cells = p.cells.clone();
                cells[i] = seat as u8 + 1;
                let won = self.joined(&cells, seat);
                if won {
                    self.wins[seat].set(self.wins[seat].get() + 1);
                }
                Pos {
                    cells,
                    mover: (!won).then_some(1 - seat),
                    winner: won.then_some(seat),
                }
            })
            .collect()
    }

    fn winners(&self, p: &Pos) -> Option<Vec<usize>> {
        p.winner.map(|w| vec![w])
    }
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| classic::load(&classic::example("hex.rcy", "HEX_RULES")))
}

fn start(size: i32, seed: u64) -> State {
    classic::start(rules(), seed, &[("SIZE", size.to_string())])
}

/// On 2 x 2, counted by hand: 4 first moves, 4 x 3 answers, 4 x 3 x 2
/// third moves. Red's two stones join the top row to the bottom one
/// unless they lie in one row or on (0,0) and (1,1), which do not touch
/// (the short diagonal runs from (0,1) to (1,0)): three pairs of six, each
/// reached in 2 orders with blue on either of the other 2 cells, so 12 of
/// the 24 games go on. Then blue fills the last cell, and its two stones
/// always join the columns (a row, or (0,1) and (1,0)): 12 games at depth
/// 4, none later.
#[test]
fn perft_on_two_by_two_matches_the_count_by_hand() {
    let hand = vec![1, 4, 12, 24, 12];
    let two = Hex::new(2);
    assert_eq!(
        classic::perft(&two, &two.initial(), 5),
        [hand.clone(), vec![0]].concat()
    );
    assert_eq!(engine_perft(&start(2, 1), 4).unwrap(), hand);
}

#[test]
fn engine_perft_matches_the_reference() {
    for (size, depth) in [(3, 7), (4, 4)] {
        let r = Hex::new(size);
        let s = start(size, 1);
        assert_eq!(r.read(&s), r.initial());
        assert_eq!(
            engine_perft(&s, depth).unwrap(),
            classic::perft(&r, &r.initial(), depth),
            "{size} x {size}"
        );
    }
}

#[test]
fn random_games_agree_with_the_reference_at_every_decision() {
    // HEX_GAMES=N for a longer run: 11 x 11, 5 x 5 and 7 x 7 in turn.
    let n = classic::games("HEX_GAMES", 6);
    let mut wins = [0, 0];
    let mut decisions = 0;
    for seed in 0..n {
        let r = Hex::new([11, 5, 7][seed as usize % 3]);
        decisions += classic::agree(&r, start(r.size, seed), seed);
        wins[0] += r.wins[0].get();
        wins[1] += r.wins[1].get();
    }
    eprintln!("{n} games, {decisions} decisions; winning moves offered: {wins:?}");
    assert!(wins[0] > 0 && wins[1] > 0, "both sides' wins were offered");
}
