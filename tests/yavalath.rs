//! Yavalath (`examples/yavalath.rcy`, a hexagon board) against an
//! independent reading of its rules in Rust, the cells in cube
//! coordinates (x + y + z = 0, each at most SIDE - 1 from 0) and the rows
//! along the three axes: the engine's perft equals the reference's (the
//! whole game on a hexagon of side 2, four plies on side 5), and seeded
//! random games played through the engine agree with the reference at
//! every decision (sides 5 and 3).
//!
//! The rules as read here: white (seat 0) and black (seat 1) put a stone
//! on an empty cell in turn, white first. Four or more of one's stones in
//! a row win; three in a row, and not four, lose; a full board is a draw.

#[path = "common/classic.rs"]
mod classic;

use cardboard::drivers::perft::perft as engine_perft;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use classic::{Reference, View};
use std::cell::Cell;
use std::sync::OnceLock;

/// The three axes of a hex grid, in cube coordinates.
const AXES: [(i32, i32, i32); 3] = [(1, -1, 0), (1, 0, -1), (0, 1, -1)];

struct Yavalath {
    side: i32,
    /// Every cell, in cube coordinates.
    cells: Vec<(i32, i32, i32)>,
    wins: Cell<u64>,
    losses: Cell<u64>,
    draws: Cell<u64>,
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pos {
    stones: Vec<u8>,
    mover: Option<usize>,
    winner: Option<usize>,
}

impl Yavalath {
    fn new(side: i32) -> Yavalath {
        let k = side - 1;
        let mut cells = Vec::new();
        for x in -k..=k {
            for y in -k..=k {
                let z = -x - y;
                if z.abs() <= k {
                    cells.push((x, y, z));
                }
            }
        }
        Yavalath {
            side,
            cells,
            wins: Cell::new(0),
            losses: Cell::new(0),
            draws: Cell::new(0),
        }
    }

    fn find(&self, c: (i32, i32, i32)) -> Option<usize> {
        self.cells.iter().position(|x| *x == c)
    }

    /// The engine's name of a cell: a hex board's row and column (axial:
    /// the column is x, the row z, each counted from the top left).
    fn name(&self, (x, _, z): (i32, i32, i32)) -> String {
        format!("HEX[{},{}]", z + self.side - 1, x + self.side - 1)
    }

    /// The longest row of `stone` through cell `i`.
    fn longest(&self, stones: &[u8], i: usize, stone: u8) -> usize {
        let (x, y, z) = self.cells[i];
        AXES.iter()
            .map(|&(dx, dy, dz)| {
                let mut n = 1;
                for sign in [1, -1] {
                    let mut k = 1;
                    while let Some(j) =
                        self.find((x + sign * k * dx, y + sign * k * dy, z + sign * k * dz))
                    {
                        if stones[j] != stone {
                            break;
                        }
                        n += 1;
                        k += 1;
                    }
                }
                n
            })
            .max()
            .unwrap_or(1)
    }

    fn initial(&self) -> Pos {
        Pos {
            stones: vec![0; self.cells.len()],
            mover: Some(0),
            winner: None,
        }
    }
}

impl Reference for Yavalath {
    type Pos = Pos;

    fn read(&self, s: &State) -> Pos {
        let view = View::of(s);
        let stones = self
            .cells
            .iter()
            .map(|&c| view.int(&self.name(c), "MARK") as u8)
            .collect();
        let mover = s.current_player();
        let winners = mover.is_none().then(|| s.outcome().unwrap().winners);
        Pos {
            stones,
            mover,
            winner: winners.and_then(|w| (w.len() == 1).then(|| w[0])),
        }
    }

    fn successors(&self, p: &Pos) -> Vec<Pos> {
        let Some(seat) = p.mover else {
            return Vec::new();
        };
        let stone = seat as u8 + 1;
        (0..self.cells.len())
            .filter(|&i| p.stones[i] == 0)
            .map(|i| {
                let mut stones = p.stones.clone();
                stones[i] = stone;
                let run = self.longest(&stones, i, stone);
                let full = !stones.contains(&0);
                let winner = match run {
                    4.. => Some(seat),
                    3 => Some(1 - seat),
                    _ => None,
                };
                match (winner, full) {
                    (Some(w), _) if w == seat => self.wins.set(self.wins.get() + 1),
                    (Some(_), _) => self.losses.set(self.losses.get() + 1),
                    (None, true) => self.draws.set(self.draws.get() + 1),
                    _ => {}
                }
                let over = winner.is_some() || full;
                Pos {
                    stones,
                    mover: (!over).then_some(1 - seat),
                    winner,
                }
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

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| classic::load(&classic::example("yavalath.rcy", "YAVALATH_RULES")))
}

fn start(r: &Yavalath, seed: u64) -> State {
    classic::start(rules(), seed, &[("SIDE", r.side.to_string())])
}

#[test]
fn the_hexagons_have_the_cells_of_their_side() {
    for (side, cells) in [(1, 1), (2, 7), (3, 19), (5, 61)] {
        let r = Yavalath::new(side);
        assert_eq!(r.cells.len(), cells);
        assert_eq!(r.read(&start(&r, 1)), r.initial(), "side {side}");
    }
}

#[test]
fn engine_perft_matches_the_reference() {
    // Side 2: the whole game (three in a row through the centre, or a
    // full board, ends it).
    let small = Yavalath::new(2);
    let s = start(&small, 1);
    let counts = engine_perft(&s, 7).unwrap();
    assert_eq!(counts, classic::perft(&small, &small.initial(), 7));
    assert!(
        small.losses.get() > 0 && small.draws.get() > 0,
        "losses and full boards"
    );
    let r = Yavalath::new(5);
    let s = start(&r, 1);
    assert_eq!(
        engine_perft(&s, 3).unwrap(),
        classic::perft(&r, &r.initial(), 3)
    );
}

#[test]
fn random_games_agree_with_the_reference_at_every_decision() {
    // YAVALATH_GAMES=N for a longer run: sides 5 and 3 in turn.
    let n = classic::games("YAVALATH_GAMES", 40);
    let (mut decisions, mut wins, mut losses, mut draws) = (0, 0, 0, 0);
    for seed in 0..n {
        let r = Yavalath::new([5, 3][seed as usize % 2]);
        decisions += classic::agree(&r, start(&r, seed), seed);
        wins += r.wins.get();
        losses += r.losses.get();
        draws += r.draws.get();
    }
    eprintln!("{n} games, {decisions} decisions; offered: {wins} wins, {losses} losses, {draws} full boards");
    // Full boards are rare in random games: perft on side 2 counts them.
    assert!(
        wins > 0 && losses > 0,
        "the games went through wins and losses"
    );
}
