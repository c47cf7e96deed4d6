//! Nine Men's Morris (`examples/morris.rcy`, a graph board) against an
//! independent reading of its rules in Rust: the board worked out here
//! from the usual drawing (points named by file a-g and rank 1-7, the
//! mills the lines of three on each rank and file, the centre splitting
//! rank 4 and file d in two), not from the file's links; the engine's
//! perft from the start equals the reference's, and seeded random games
//! played through the engine agree with the reference at every decision
//! (placing, sliding, flying, the removal after a mill, the end).
//!
//! The rules as read here: white (seat 0) and black (seat 1), nine men in
//! hand each, white first. With men in hand a move places one on an empty
//! point; with none, a move slides a man to an empty point next to it on
//! a line, or, with three men left, to any empty point. A man landing in
//! a mill removes (as a second decision of the same player) a man of the
//! other colour in no mill, or any of them if all are in mills; with none
//! on the board there is nothing to remove. After a move the other player
//! loses with an empty hand and fewer than three men, or with no move;
//! after LIMIT plies the game is drawn.

#[path = "common/classic.rs"]
mod classic;

use cardboard::drivers::perft::perft as engine_perft;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use classic::{Reference, View};
use std::sync::OnceLock;

/// The 24 points: (file 0-6, rank 1-7) of the three nested squares and
/// the lines joining their middles.
fn points() -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for ring in 0..3 {
        let (lo, hi, mid) = (ring, 6 - ring, 3);
        for x in [lo, mid, hi] {
            for y in [lo, mid, hi] {
                if (x, y) != (mid, mid) {
                    out.push((x, y + 1));
                }
            }
        }
    }
    out.sort();
    out
}

fn name((x, y): (usize, usize)) -> String {
    format!("{}{}", (b'A' + x as u8) as char, y)
}

struct Morris {
    points: Vec<(usize, usize)>,
    /// The 16 mills, as point numbers.
    mills: Vec<[usize; 3]>,
    /// Each point's neighbours along the lines.
    near: Vec<Vec<usize>>,
    limit: u32,
}

impl Morris {
    fn new(limit: u32) -> Morris {
        let points = points();
        let at = |p: (usize, usize)| points.iter().position(|q| *q == p).unwrap();
        let mut mills = Vec::new();
        // The points of a rank (file), the centre's splitting it in two.
        for along_rank in [true, false] {
            for k in 0..7 {
                let mut line: Vec<(usize, usize)> = points
                    .iter()
                    .copied()
                    .filter(|&(x, y)| if along_rank { y == k + 1 } else { x == k })
                    .collect();
                line.sort();
                for part in line.chunks(3) {
                    mills.push([at(part[0]), at(part[1]), at(part[2])]);
                }
            }
        }
        let mut near = vec![Vec::new(); points.len()];
        for m in &mills {
            for w in m.windows(2) {
                near[w[0]].push(w[1]);
                near[w[1]].push(w[0]);
            }
        }
        Morris {
            points,
            mills,
            near,
            limit,
        }
    }

    fn in_mill(&self, cells: &[u8], p: usize) -> bool {
        let c = cells[p];
        c != 0
            && self
                .mills
                .iter()
                .any(|m| m.contains(&p) && m.iter().all(|&q| cells[q] == c))
    }

    fn has_move(&self, p: &Pos, seat: usize) -> bool {
        let mark = seat as u8 + 1;
        if p.hand[seat] > 0 {
            return p.cells.contains(&0);
        }
        (0..24).any(|from| {
            p.cells[from] == mark
                && (0..24).any(|to| {
                    p.cells[to] == 0 && (p.on[seat] == 3 || self.near[from].contains(&to))
                })
        })
    }

    /// The man of the mover has landed on `to`.
    fn landed(&self, mut p: Pos, to: usize) -> Pos {
        let me = p.mover.unwrap();
        let them = (me as u8 ^ 1) + 1;
        if self.in_mill(&p.cells, to) && p.cells.contains(&them) {
            p.remove = true;
            return p;
        }
        self.finish(p)
    }

    /// The end of a pass: the ply counted, the other player's loss, the
    /// draw at the limit, else the other player to move.
    fn finish(&self, mut p: Pos) -> Pos {
        let me = p.mover.unwrap();
        let them = 1 - me;
        p.plies += 1;
        p.remove = false;
        if (p.hand[them] == 0 && p.on[them] < 3) || !self.has_move(&p, them) {
            p.mover = None;
            p.winner = Some(me);
        } else if p.plies >= self.limit {
            p.mover = None;
        } else {
            p.mover = Some(them);
        }
        p
    }
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pos {
    cells: Vec<u8>,
    hand: [u8; 2],
    on: [u8; 2],
    mover: Option<usize>,
    remove: bool,
    plies: u32,
    winner: Option<usize>,
}

impl Reference for Morris {
    type Pos = Pos;

    fn read(&self, s: &State) -> Pos {
        let view = View::of(s);
        let cells = self
            .points
            .iter()
            .map(|&p| view.int(&format!("MORRIS[{}]", name(p)), "MARK") as u8)
            .collect();
        let seat = |k: &str| [view.int("p0", k) as u8, view.int("p1", k) as u8];
        let mover = s.current_player();
        let winners = mover.is_none().then(|| s.outcome().unwrap().winners);
        Pos {
            cells,
            hand: seat("HAND"),
            on: seat("ON"),
            mover,
            remove: view.int("game", "REMOVE") == 1,
            plies: view.int("game", "PLIES") as u32,
            winner: winners.and_then(|w| (w.len() == 1).then(|| w[0])),
        }
    }

    fn successors(&self, p: &Pos) -> Vec<Pos> {
        let Some(me) = p.mover else {
            return Vec::new();
        };
        let (mark, them) = (me as u8 + 1, 1 - me);
        let mut out = Vec::new();
        if p.remove {
            let theirs: Vec<usize> = (0..24).filter(|&x| p.cells[x] == them as u8 + 1).collect();
            let free: Vec<usize> = theirs
                .iter()
                .copied()
                .filter(|&x| !self.in_mill(&p.cells, x))
                .collect();
            for x in if free.is_empty() { theirs } else { free } {
                let mut q = p.clone();
                q.cells[x] = 0;
                q.on[them] -= 1;
                out.push(self.finish(q));
            }
            return out;
        }
        if p.hand[me] > 0 {
            for to in (0..24).filter(|&t| p.cells[t] == 0) {
                let mut q = p.clone();
                q.hand[me] -= 1;
                q.on[me] += 1;
                q.cells[to] = mark;
                out.push(self.landed(q, to));
            }
            return out;
        }
        for from in (0..24).filter(|&f| p.cells[f] == mark) {
            for to in 0..24 {
                if p.cells[to] == 0 && (p.on[me] == 3 || self.near[from].contains(&to)) {
                    let mut q = p.clone();
                    q.cells[from] = 0;
                    q.cells[to] = mark;
                    out.push(self.landed(q, to));
                }
            }
        }
        out
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
    RULES.get_or_init(|| classic::load(&classic::example("morris.rcy", "MORRIS_RULES")))
}

fn start(seed: u64, limit: u32) -> State {
    classic::start(rules(), seed, &[("LIMIT", limit.to_string())])
}

#[test]
fn the_board_has_24_points_16_mills_and_32_links() {
    let r = Morris::new(200);
    assert_eq!(r.points.len(), 24);
    assert_eq!(r.mills.len(), 16);
    assert_eq!(r.near.iter().map(Vec::len).sum::<usize>(), 2 * 32);
}

#[test]
fn engine_perft_matches_the_reference() {
    let r = Morris::new(200);
    let s = start(1, 200);
    let root = r.read(&s);
    assert_eq!(root.hand, [9, 9]);
    assert_eq!(engine_perft(&s, 3).unwrap(), classic::perft(&r, &root, 3));
}

#[test]
fn random_games_agree_with_the_reference_at_every_decision() {
    // MORRIS_GAMES=N for a longer run; short limits end some games drawn.
    let n = classic::games("MORRIS_GAMES", 12);
    let (mut wins, mut draws, mut decisions) = (0, 0, 0);
    for seed in 0..n {
        let limit = [200, 60][seed as usize % 2];
        let r = Morris::new(limit);
        let s = start(seed, limit);
        decisions += classic::agree(&r, s.clone(), seed);
        // The same game once more, to its end, to count how it ended.
        let mut g = s;
        let mut rng = cardboard::random::GameRng::new(seed);
        while g.current_player().is_some() {
            let moves = g.legal_moves();
            let i = cardboard::random::below(&mut rng, moves.len());
            g.apply(&moves[i]).unwrap();
        }
        match g.outcome().unwrap().winners.len() {
            1 => wins += 1,
            _ => draws += 1,
        }
    }
    eprintln!("{n} games, {decisions} decisions: {wins} won, {draws} drawn");
    assert!(
        wins > 0 && draws > 0,
        "the games went through wins and draws"
    );
}
