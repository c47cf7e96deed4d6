//! `cardboard perft`: counts the move sequences from the start of a game, to
//! check the legal-move generator (and to measure it). Chance is fixed by
//! the seed: each state carries its own generator, cloned with it and
//! restored when a move is taken back.
//!
//! Depth 0 is the start state (one node); the nodes at depth `d + 1` are the
//! states reached by one legal move from a running node at depth `d`.
//! Finished states have no children. A state the engine stopped (a limit
//! passed, such as `--max-options`) is an error: its children are not
//! known, and a count that left them out would be wrong.
//!
//! The tree is walked depth first in one state per thread, each move
//! played and taken back ([`GameState::apply_undoable`]), with a stack of
//! its own (one level per depth: the moves and how to take back the move
//! that led there), not by recursion, so a deep count needs
//! memory in proportion to its depth and nothing of the native stack; the
//! depth is at most [`MAX_DEPTH`]. The root's moves are shared out between
//! threads; the counts do not depend on how many.

use super::moves_of;
use super::simulate::threads_for;
use crate::game::{GameState, Status};
use std::fmt;
use std::time::Instant;

/// The deepest count: as many moves as a game plays by default before it is
/// stopped ([`DEFAULT_MAX_DECISIONS`](super::DEFAULT_MAX_DECISIONS)). A tree
/// with two moves at each node has more than 2^64 nodes well before that,
/// so only a game that goes on along a single line can be counted so deep.
pub const MAX_DEPTH: usize = super::DEFAULT_MAX_DECISIONS as usize;

/// A count that failed: a move refused, or a depth too deep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftError {
    /// The moves from the start, as text, the last one being the one refused
    /// (empty when the start itself is at fault).
    pub path: Vec<String>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "at the start: {}", self.message)
        } else {
            write!(
                f,
                "after moves [{}]: {}",
                self.path.join(", "),
                self.message
            )
        }
    }
}

impl std::error::Error for PerftError {}

/// A count and how it went.
#[derive(Clone, Debug, PartialEq)]
pub struct PerftRun {
    /// The nodes at each depth `0..=depth` (`counts[0] == 1`).
    pub counts: Vec<u64>,
    /// Threads used.
    pub threads: usize,
    /// Wall-clock time of the count.
    pub seconds: f64,
}

impl PerftRun {
    /// The nodes at depths `1..=depth`.
    pub fn nodes(&self) -> u64 {
        self.counts.iter().skip(1).sum()
    }
}

/// The number of nodes at each depth `0..=depth` below `root` (so
/// `counts[0] == 1`), on one thread per core.
pub fn perft<S: GameState>(root: &S, depth: usize) -> Result<Vec<u64>, PerftError> {
    perft_run(root, depth, 0).map(|run| run.counts)
}

/// Counts as [`perft`] does on [`threads_for`]`(jobs, root moves)` threads
/// (`jobs` 0: one per core), each taking root moves in turn; the counts do
/// not depend on the threads. A depth over [`MAX_DEPTH`] is refused.
pub fn perft_run<S: GameState>(
    root: &S,
    depth: usize,
    jobs: usize,
) -> Result<PerftRun, PerftError> {
    perft_counting(root, depth, jobs, false)
}

/// [`perft_run`]; with `bulk`, the nodes at the last depth are counted as
/// the number of moves of their parents, not played (`cardboard perft
/// --bulk`): the same counts when every move can be played, faster, but a
/// rules error met while playing a move of the last depth is not met.
/// Without it, the positions of the last depth are played and taken back
/// ([`GameState::apply_leaf`]), the moves that follow them not found.
pub fn perft_counting<S: GameState>(
    root: &S,
    depth: usize,
    jobs: usize,
    bulk: bool,
) -> Result<PerftRun, PerftError> {
    use rayon::prelude::*;
    if depth > MAX_DEPTH {
        return Err(PerftError {
            path: Vec::new(),
            message: format!("perft counts at most {MAX_DEPTH} moves deep, not {depth}"),
        });
    }
    let started = Instant::now();
    let mut counts = vec![0u64; depth + 1];
    counts[0] = 1;
    let finish = |counts, threads| PerftRun {
        counts,
        threads,
        seconds: started.elapsed().as_secs_f64(),
    };
    if depth == 0 {
        return Ok(finish(counts, 1));
    }
    match root.status() {
        Status::Running => {}
        Status::Stopped(why) => return Err(stopped(Vec::new(), why)),
        _ => return Ok(finish(counts, 1)),
    }
    let moves = moves_of(root).map_err(|message| PerftError {
        path: Vec::new(),
        message,
    })?;
    if bulk && depth == 1 {
        counts[1] = moves.len() as u64;
        return Ok(finish(counts, 1));
    }
    let threads = threads_for(jobs, moves.len() as u64);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PerftError {
            path: Vec::new(),
            message: format!("cannot start {threads} threads: {e}"),
        })?;
    // A state is Send but need not be Sync: the root is shared behind a
    // lock, and each thread copies it when it starts on root moves (never
    // a copy of the root per root move made up front: a choice of many
    // options would hold them all at once), then plays each root move in
    // its copy and takes it back.
    let shared = std::sync::Mutex::new(root.clone());
    let copy = || match shared.lock() {
        Ok(root) => root.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    };
    let subtrees: Vec<Result<Vec<u64>, PerftError>> = pool.install(|| {
        moves
            .into_par_iter()
            .map_init(copy, |state, mv| {
                // The move's text is made only for an error (making the
                // texts of every root move costs as much as listing them
                // again for each); a move refused changed nothing.
                let played = match depth {
                    1 => state.apply_leaf(&mv),
                    _ => state.apply_undoable(&mv),
                };
                let undo = played.map_err(|e| PerftError {
                    path: vec![state.move_to_text(&mv)],
                    message: e.to_string(),
                })?;
                let mut sub = vec![0u64; depth + 1];
                sub[1] = 1;
                let counted = walk(state, &mut sub, bulk);
                state.undo(undo);
                counted.map_err(|mut e| {
                    e.path.insert(0, state.move_to_text(&mv));
                    e
                })?;
                Ok(sub)
            })
            .collect()
    });
    for sub in subtrees {
        for (total, n) in counts.iter_mut().zip(sub?) {
            *total += n;
        }
    }
    Ok(finish(counts, pool.current_num_threads()))
}

/// One level of the walk: the moves from a running node, those before
/// `next` already counted, and how to take back the move that led to it
/// (`None` at the node the walk starts from).
struct Level<S: GameState> {
    moves: Vec<S::Move>,
    next: usize,
    undo: Option<S::Undo>,
}

/// Counts the nodes below `state`, a node at depth 1 (already counted),
/// into `counts`, down to depth `counts.len() - 1`, and leaves `state` as
/// it was (an error included). An error's path starts after `state`.
///
/// Every node is played in `state` and taken back
/// ([`GameState::apply_undoable`], [`GameState::undo`]): nothing is
/// copied per node, and the moves of a node are listed once, for its
/// level of the walk.
/// With `bulk`, the nodes of the last depth are counted as the moves of
/// their parents, not played.
fn walk<S: GameState>(state: &mut S, counts: &mut [u64], bulk: bool) -> Result<(), PerftError> {
    let max_depth = counts.len() - 1;
    let mut stack: Vec<Level<S>> = Vec::new();
    if let Some(moves) = children(state, 1, max_depth)? {
        if bulk && max_depth == 2 {
            counts[2] += moves.len() as u64;
            return Ok(());
        }
        stack.push(Level {
            moves,
            next: 0,
            undo: None,
        });
    }
    loop {
        // The stack holds the levels 1..=len; a child is one below.
        let depth = stack.len() + 1;
        let Some(top) = stack.last_mut() else {
            break;
        };
        let Some(mv) = top.moves.get(top.next) else {
            if let Some(undo) = stack.pop().and_then(|done| done.undo) {
                state.undo(undo);
            }
            continue;
        };
        top.next += 1;
        let played = match depth == max_depth {
            true => state.apply_leaf(mv),
            false => state.apply_undoable(mv),
        };
        let undo = match played {
            Ok(undo) => undo,
            Err(e) => {
                let path = path_of(state, &mut stack);
                return Err(PerftError {
                    path,
                    message: e.to_string(),
                });
            }
        };
        counts[depth] += 1;
        match children(state, depth, max_depth) {
            Ok(Some(moves)) if bulk && depth + 1 == max_depth => {
                counts[max_depth] += moves.len() as u64;
                state.undo(undo);
            }
            Ok(Some(moves)) => stack.push(Level {
                moves,
                next: 0,
                undo: Some(undo),
            }),
            Ok(None) => state.undo(undo),
            Err(mut e) => {
                state.undo(undo);
                e.path = path_of(state, &mut stack);
                return Err(e);
            }
        }
    }
    Ok(())
}

/// The moves from `state`, a node at `depth`, when it has children to
/// count (`None` when it has none, or is at the last depth). A state the
/// engine stopped is an error (its path is made by the caller).
fn children<S: GameState>(
    state: &S,
    depth: usize,
    max_depth: usize,
) -> Result<Option<Vec<S::Move>>, PerftError> {
    if depth == max_depth {
        return Ok(None);
    }
    match state.status() {
        Status::Running => {}
        Status::Stopped(why) => return Err(stopped(Vec::new(), why)),
        _ => return Ok(None),
    }
    moves_of(state).map(Some).map_err(|message| PerftError {
        path: Vec::new(),
        message,
    })
}

/// The error of a node the engine stopped.
fn stopped(path: Vec<String>, why: String) -> PerftError {
    PerftError {
        path,
        message: format!("the engine stopped the game: {why}"),
    }
}

/// The moves that led down the stack to its last move taken, as text (made
/// only for an error), `state` being at the node of the stack's top level:
/// each level's move is written at its node, and taken back on the way up,
/// so `state` ends where the walk started.
fn path_of<S: GameState>(state: &mut S, stack: &mut Vec<Level<S>>) -> Vec<String> {
    let mut path = Vec::new();
    while let Some(level) = stack.pop() {
        if let Some(mv) = level.next.checked_sub(1).and_then(|i| level.moves.get(i)) {
            path.push(state.move_to_text(mv));
        }
        if let Some(undo) = level.undo {
            state.undo(undo);
        }
    }
    path.reverse();
    path
}

/// The perft table: one line per depth, `depth d: nodes N (total T)` where
/// `T` sums the nodes at depths `1..=d`.
pub fn perft_table(counts: &[u64]) -> String {
    let mut out = String::new();
    let mut total = 0u64;
    for (d, &n) in counts.iter().enumerate() {
        if d > 0 {
            total += n;
        }
        out.push_str(&depth_line(d, n, total));
    }
    out
}

/// The line of depth `d` in [`perft_table`].
fn depth_line(d: usize, n: u64, total: u64) -> String {
    format!("depth {d}: nodes {n} (total {total})\n")
}

/// Counts as [`perft_run`] does, one depth after another (1, 2 ...
/// `depth`), giving `line` each depth's line of [`perft_table`] as soon as
/// that depth is counted (depth 0 first), so that a count too deep to end
/// shows the depths it reached; `line` answering false (the reader has
/// gone) stops the count. Each depth is counted anew, which costs the
/// shallower depths once more (a fraction of the deepest when the tree
/// branches); past a depth with no node, the deeper ones are 0 without a
/// count. The run returned has the counts of every depth and the time of
/// all.
pub fn perft_each<S: GameState>(
    root: &S,
    depth: usize,
    jobs: usize,
    bulk: bool,
    mut line: impl FnMut(&str) -> bool,
) -> Result<PerftRun, PerftError> {
    if depth > MAX_DEPTH {
        return perft_counting(root, depth, jobs, bulk);
    }
    let started = Instant::now();
    let mut run = PerftRun {
        counts: vec![1],
        threads: 1,
        seconds: 0.0,
    };
    let mut total = 0u64;
    let mut open = line(&depth_line(0, 1, 0));
    for d in 1..=depth {
        if !open {
            break;
        }
        let n = match run.counts[d - 1] {
            0 => 0,
            _ => {
                let deeper = perft_counting(root, d, jobs, bulk)?;
                run.threads = run.threads.max(deeper.threads);
                deeper.counts[d]
            }
        };
        run.counts.push(n);
        total += n;
        open = line(&depth_line(d, n, total));
    }
    run.seconds = started.elapsed().as_secs_f64();
    Ok(run)
}
