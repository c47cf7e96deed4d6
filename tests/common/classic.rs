//! Helpers for the classic board games of `examples/` (`tests/othello.rs`,
//! `tests/draughts.rs`, `tests/hex.rs`), each compared with an independent
//! reading of its rules in Rust: the table read back from `describe`, and
//! a game played through the engine in step with the reference, every
//! decision's moves compared as the positions they lead to.
#![allow(dead_code)] // each test binary uses a part

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// `examples/NAME`, or the file named by the environment variable `var`
/// when it is set (to see that the tests catch a broken copy of the rules).
pub fn example(name: &str, var: &str) -> PathBuf {
    match std::env::var_os(var) {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name),
    }
}

pub fn load(path: &Path) -> Rules {
    Rules::load(path).unwrap_or_else(|e| panic!("{} does not load:\n{e}", path.display()))
}

pub fn start(rules: &Rules, seed: u64, set: &[(&str, String)]) -> State {
    let overrides = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.clone()))
        .collect();
    rules
        .start(&GameOptions { seed, overrides })
        .unwrap_or_else(|e| panic!("the game does not start: {e}"))
}

/// How many games a comparison plays: `default`, or the number in the
/// environment variable `var` (for longer runs by hand).
pub fn games(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The table as `describe` writes it: each owner (`game`, `p0`,
/// `BOARD[1,2]`) with its lines.
pub struct View(BTreeMap<String, Vec<String>>);

impl View {
    pub fn of(s: &State) -> View {
        let mut blocks: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut current = String::new();
        for line in s.describe().lines() {
            if let Some(l) = line.strip_prefix("  ") {
                blocks
                    .entry(current.clone())
                    .or_default()
                    .push(l.to_string());
            } else if let Some(name) = line.strip_suffix(':') {
                current = name.to_string();
            }
        }
        View(blocks)
    }

    /// The text after `KEY = ` in the block of `owner`.
    pub fn value(&self, owner: &str, key: &str) -> Option<String> {
        let prefix = format!("{key} = ");
        self.0
            .get(owner)?
            .iter()
            .find_map(|l| l.strip_prefix(&prefix).map(str::to_string))
    }

    /// An integer storage (0 when unset, as the engine starts them).
    pub fn int(&self, owner: &str, name: &str) -> i64 {
        self.value(owner, &format!("sto {name}"))
            .map(|v| v.parse().unwrap())
            .unwrap_or(0)
    }

    /// The cards of a location, as `vloc NAME (n): A B C` lists them
    /// (empty when the owner has none there).
    pub fn cards(&self, owner: &str, loc: &str) -> Vec<String> {
        let prefix = format!("{loc} (");
        self.0
            .get(owner)
            .and_then(|lines| {
                lines.iter().find_map(|l| {
                    let rest = l.strip_prefix(&prefix)?;
                    let (_, cards) = rest.split_once("):")?;
                    Some(cards.split_whitespace().map(str::to_string).collect())
                })
            })
            .unwrap_or_default()
    }
}

/// An independent reading of a game's rules.
pub trait Reference {
    /// A position: everything the rules need to go on, the player to move
    /// included.
    type Pos: Clone + Ord + Debug;
    /// The engine's position, read from its table and current player.
    fn read(&self, s: &State) -> Self::Pos;
    /// The positions the player to move can reach with one move, one per
    /// move (empty when the game is over).
    fn successors(&self, p: &Self::Pos) -> Vec<Self::Pos>;
    /// The seats sharing first place once the game is over; `None` while
    /// it goes on.
    fn winners(&self, p: &Self::Pos) -> Option<Vec<usize>>;
}

/// Plays one game through the engine with moves drawn by `seed`, and at
/// every decision checks that the positions its moves lead to are exactly
/// the reference's (as multisets), and that the game ends when and as the
/// reference says. Returns the number of decisions.
pub fn agree<R: Reference>(r: &R, mut s: State, seed: u64) -> u64 {
    let mut rng = GameRng::new(seed);
    let mut pos = r.read(&s);
    let mut decisions = 0;
    loop {
        match s.status() {
            Status::Running => {}
            Status::Finished => break,
            other => panic!("game {seed}: {other:?}"),
        }
        assert_eq!(
            r.winners(&pos),
            None,
            "game {seed}, decision {decisions}: the reference's game is over at {pos:?}"
        );
        let moves = s.legal_moves();
        let mut engine: Vec<R::Pos> = moves
            .iter()
            .map(|m| {
                let mut next = s.clone();
                next.apply(m).unwrap();
                r.read(&next)
            })
            .collect();
        let mut reference = r.successors(&pos);
        engine.sort();
        reference.sort();
        if engine != reference {
            let only = |a: &[R::Pos], b: &[R::Pos]| -> Vec<R::Pos> {
                a.iter().filter(|p| !b.contains(p)).cloned().collect()
            };
            panic!(
                "game {seed}, decision {decisions}: moves differ from {pos:?}\n\
                 {} moves by the engine, {} by the reference\n\
                 only by the engine: {:?}\nonly by the reference: {:?}",
                engine.len(),
                reference.len(),
                only(&engine, &reference),
                only(&reference, &engine)
            );
        }
        let i = below(&mut rng, moves.len());
        s.apply(&moves[i]).unwrap();
        pos = r.read(&s);
        decisions += 1;
    }
    let outcome = s.outcome().unwrap();
    assert_eq!(
        Some(outcome.winners),
        r.winners(&pos),
        "game {seed}: the winners differ at {pos:?}"
    );
    decisions
}

/// Counts the move sequences of the reference to `depth` (`counts[d]` the
/// positions at exactly depth d), as `perft` does: a finished game has no
/// continuation.
pub fn perft<R: Reference>(r: &R, root: &R::Pos, depth: usize) -> Vec<u64> {
    fn walk<R: Reference>(r: &R, p: &R::Pos, d: usize, depth: usize, counts: &mut [u64]) {
        counts[d] += 1;
        if d == depth || r.winners(p).is_some() {
            return;
        }
        for next in r.successors(p) {
            walk(r, &next, d + 1, depth, counts);
        }
    }
    let mut counts = vec![0; depth + 1];
    walk(r, root, 0, depth, &mut counts);
    counts
}
