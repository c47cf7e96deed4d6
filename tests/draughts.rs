//! English draughts (checkers, `examples/draughts.rcy`) against an
//! independent reading of its rules in Rust: the reference's perft from
//! the start agrees with the published counts, the engine's perft with the
//! reference's, and seeded random games played through the engine agree
//! with the reference at every decision (the positions every legal move
//! leads to, the end and the winner).
//!
//! The rules as read here: an 8 x 8 board whose playable squares are those
//! with row + column odd; black (seat 0) has men on the playable squares of
//! rows 0 to 2 and moves first, towards row 7; white (seat 1) on rows 5 to
//! 7, towards row 0. A man steps diagonally forward to an empty square; a
//! king diagonally in any direction. A capture jumps diagonally over an
//! adjacent piece of the opponent (forward only for a man) to the empty
//! square beyond and removes it; from there the same piece must jump again
//! while it can, the whole chain being one move, except that a man reaching
//! the far row is crowned and the move ends there. When any capture is
//! possible, the player must capture (any chain, not necessarily the
//! longest). A man ending its move on the far row becomes a king. A player
//! who cannot move loses. A game in which 80 moves in a row (40 by each
//! player) neither capture nor move a man is drawn (checked after the
//! loss: a move that leaves the opponent without a move wins).

#[path = "common/classic.rs"]
mod classic;

use cardboard::drivers::perft::perft as engine_perft;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use classic::{Reference, View};
use std::cell::Cell;
use std::sync::OnceLock;

/// Moves in a row without a capture or a man's move after which the game
/// is drawn (the file's `QUIET`, which `--set` changes).
const QUIET_LIMIT: i64 = 80;

const EMPTY: u8 = 0;
const MAN: u8 = 1;
const KING: u8 = 2;

/// A position: each square 0 (empty) or colour * 2 + 1 (a man) or colour *
/// 2 + 2 (a king), colour 0 black and 1 white; the moves in a row without
/// capture or man move; the seat to move, `None` once the game is over,
/// and then the winners.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pos {
    cells: [u8; 64],
    quiet: i64,
    mover: Option<usize>,
    winners: Option<Vec<usize>>,
}

fn colour(piece: u8) -> usize {
    ((piece - 1) / 2) as usize
}

fn kind(piece: u8) -> u8 {
    (piece - 1) % 2 + 1
}

fn at(cells: &[u8; 64], r: i32, c: i32) -> Option<u8> {
    ((0..8).contains(&r) && (0..8).contains(&c)).then(|| cells[(r * 8 + c) as usize])
}

/// The diagonal directions a piece moves in.
fn directions(piece: u8) -> Vec<(i32, i32)> {
    let forward = if colour(piece) == 0 { 1 } else { -1 };
    let mut out = vec![(forward, -1), (forward, 1)];
    if kind(piece) == KING {
        out.extend([(-forward, -1), (-forward, 1)]);
    }
    out
}

fn bump(c: &Cell<u64>) {
    c.set(c.get() + 1);
}

fn far_row(seat: usize) -> i32 {
    if seat == 0 {
        7
    } else {
        0
    }
}

/// The reference, counting what the moves it offered did (so that a test
/// can tell the random games went through every rule).
#[derive(Default)]
struct Draughts {
    /// The draw comes after this many quiet moves (0: QUIET_LIMIT).
    quiet: i64,
    /// Moves that take more than one piece.
    chains: Cell<u64>,
    /// Moves that crown a man.
    crowns: Cell<u64>,
    /// Games won by leaving the opponent without a move, and drawn.
    wins: Cell<u64>,
    draws: Cell<u64>,
}

impl Draughts {
    fn limit(&self) -> i64 {
        if self.quiet == 0 {
            QUIET_LIMIT
        } else {
            self.quiet
        }
    }

    fn initial(&self) -> Pos {
        let mut cells = [EMPTY; 64];
        for r in 0..8 {
            for c in 0..8 {
                if (r + c) % 2 == 1 && r != 3 && r != 4 {
                    let seat = if r < 3 { 0 } else { 1 };
                    cells[(r * 8 + c) as usize] = seat * 2 + MAN;
                }
            }
        }
        Pos {
            cells,
            quiet: 0,
            mover: Some(0),
            winners: None,
        }
    }

    /// Every chain of jumps the piece on (r, c) can go on with, as the
    /// boards they end on (the piece moved, the jumped pieces gone).
    fn chains(&self, cells: &[u8; 64], r: i32, c: i32, out: &mut Vec<[u8; 64]>, jumped: bool) {
        let piece = cells[(r * 8 + c) as usize];
        let seat = colour(piece);
        let mut more = false;
        for (dr, dc) in directions(piece) {
            let over = at(cells, r + dr, c + dc);
            let to = at(cells, r + 2 * dr, c + 2 * dc);
            if matches!(over, Some(p) if p != EMPTY && colour(p) != seat) && to == Some(EMPTY) {
                more = true;
                let mut next = *cells;
                next[(r * 8 + c) as usize] = EMPTY;
                next[((r + dr) * 8 + c + dc) as usize] = EMPTY;
                let (tr, tc) = (r + 2 * dr, c + 2 * dc);
                if kind(piece) == MAN && tr == far_row(seat) {
                    next[(tr * 8 + tc) as usize] = piece + 1;
                    out.push(next);
                } else {
                    next[(tr * 8 + tc) as usize] = piece;
                    self.chains(&next, tr, tc, out, true);
                }
            }
        }
        if jumped && !more {
            out.push(*cells);
        }
    }

    /// The boards after each move of `seat`, and whether they capture.
    fn moves(&self, cells: &[u8; 64], seat: usize) -> (Vec<[u8; 64]>, bool) {
        let mut captures = Vec::new();
        let mut steps = Vec::new();
        for r in 0..8 {
            for c in 0..8 {
                let piece = cells[(r * 8 + c) as usize];
                if piece == EMPTY || colour(piece) != seat {
                    continue;
                }
                self.chains(cells, r, c, &mut captures, false);
                for (dr, dc) in directions(piece) {
                    if at(cells, r + dr, c + dc) == Some(EMPTY) {
                        let mut next = *cells;
                        next[(r * 8 + c) as usize] = EMPTY;
                        let crowned = kind(piece) == MAN && r + dr == far_row(seat);
                        next[((r + dr) * 8 + c + dc) as usize] = piece + crowned as u8;
                        steps.push(next);
                    }
                }
            }
        }
        if captures.is_empty() {
            (steps, false)
        } else {
            (captures, true)
        }
    }
}

impl Reference for Draughts {
    type Pos = Pos;

    fn read(&self, s: &State) -> Pos {
        let view = View::of(s);
        let mut cells = [EMPTY; 64];
        for r in 0..8 {
            for c in 0..8 {
                let pieces = view.cards(&format!("BOARD[{r},{c}]"), "vloc PIECE");
                assert!(pieces.len() <= 1, "{} pieces at {r},{c}", pieces.len());
                if let Some(p) = pieces.first() {
                    assert_eq!((r + c) % 2, 1, "a piece on a light square {r},{c}");
                    // BLACK-MAN-A: colour, rank and a letter to tell them apart.
                    let kind: Vec<&str> = p.split('-').take(2).collect();
                    cells[(r * 8 + c) as usize] = match kind.join("-").as_str() {
                        "BLACK-MAN" => 1,
                        "BLACK-KING" => 2,
                        "WHITE-MAN" => 3,
                        "WHITE-KING" => 4,
                        other => panic!("a piece {other} at {r},{c}"),
                    };
                }
            }
        }
        let mover = s.current_player();
        Pos {
            cells,
            quiet: view.int("game", "STILL"),
            mover,
            winners: mover.is_none().then(|| s.outcome().unwrap().winners),
        }
    }

    fn successors(&self, p: &Pos) -> Vec<Pos> {
        let Some(seat) = p.mover else {
            return Vec::new();
        };
        let (boards, captures) = self.moves(&p.cells, seat);
        boards
            .into_iter()
            .map(|cells| {
                // A man moved when the squares of the mover's men changed.
                let man = seat as u8 * 2 + MAN;
                let man_moved = (0..64).any(|i| (p.cells[i] == man) != (cells[i] == man));
                let count =
                    |b: &[u8; 64], f: &dyn Fn(u8) -> bool| b.iter().filter(|&&x| f(x)).count();
                let theirs = |x: u8| x != EMPTY && colour(x) != seat;
                if count(&p.cells, &theirs) > count(&cells, &theirs) + 1 {
                    bump(&self.chains);
                }
                let kings = |x: u8| x == seat as u8 * 2 + KING;
                if count(&cells, &kings) > count(&p.cells, &kings) {
                    bump(&self.crowns);
                }
                let quiet = if captures || man_moved {
                    0
                } else {
                    p.quiet + 1
                };
                let mut next = Pos {
                    cells,
                    quiet,
                    mover: Some(1 - seat),
                    winners: None,
                };
                if self.moves(&next.cells, 1 - seat).0.is_empty() {
                    next.mover = None;
                    next.winners = Some(vec![seat]);
                    bump(&self.wins);
                } else if quiet >= self.limit() {
                    next.mover = None;
                    next.winners = Some(vec![0, 1]);
                    bump(&self.draws);
                }
                next
            })
            .collect()
    }

    fn winners(&self, p: &Pos) -> Option<Vec<usize>> {
        p.winners.clone()
    }
}

/// Published perft of English draughts (8 x 8 checkers) from the start:
/// nodes at depths 1 to 8, as Aart Bik posted them ("perft for 8x8
/// checkers", talkchess.com, May 2009; captures that differ only in the
/// order of the pieces taken are counted apart, as here and in the engine).
const PUBLISHED: [u64; 8] = [7, 49, 302, 1469, 7361, 36768, 179740, 845931];

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| classic::load(&classic::example("draughts.rcy", "DRAUGHTS_RULES")))
}

fn start(seed: u64) -> State {
    classic::start(rules(), seed, &[])
}

fn start_quiet(seed: u64, quiet: i64) -> State {
    classic::start(rules(), seed, &[("QUIET", quiet.to_string())])
}

#[test]
fn reference_perft_matches_the_published_counts() {
    // Depth 6 here; DRAUGHTS_DEPTH=8 for the whole published table.
    let depth = classic::games("DRAUGHTS_DEPTH", 6) as usize;
    let counts = classic::perft(&Draughts::default(), &Draughts::default().initial(), depth);
    assert_eq!(&counts[1..], &PUBLISHED[..depth]);
}

#[test]
fn engine_perft_matches_the_reference() {
    let s = start(1);
    assert_eq!(Draughts::default().read(&s), Draughts::default().initial());
    let counts = engine_perft(&s, 4).unwrap();
    assert_eq!(&counts[1..], &PUBLISHED[..4]);
}

#[test]
fn random_games_agree_with_the_reference_at_every_decision() {
    // DRAUGHTS_GAMES=N for a longer run.
    // Every other game is drawn after 2 quiet moves rather than 80, so
    // that draws happen.
    let n = classic::games("DRAUGHTS_GAMES", 6);
    let mut r = Draughts::default();
    let mut decisions = 0;
    for seed in 0..n {
        r.quiet = if seed % 2 == 0 { 0 } else { 2 };
        decisions += classic::agree(&r, start_quiet(seed, r.limit()), seed);
    }
    eprintln!(
        "{n} games, {decisions} decisions; offered: {} chains of captures, {} crownings, \
         {} winning moves, {} drawing moves",
        r.chains.get(),
        r.crowns.get(),
        r.wins.get(),
        r.draws.get()
    );
    // The games went through every rule.
    assert!(r.chains.get() > 0 && r.crowns.get() > 0 && r.wins.get() > 0 && r.draws.get() > 0);
}
