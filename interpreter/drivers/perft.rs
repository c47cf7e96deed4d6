//! `cardboard perft`: counts the move sequences from the start of a game, to
//! check the legal-move generator (and to measure it). Chance is fixed by
//! the seed: each state carries its own generator, cloned with it.
//!
//! Depth 0 is the start state (one node); the nodes at depth `d + 1` are the
//! states reached by one legal move from a running node at depth `d`.
//! Finished states have no children. A state the engine stopped (a limit
//! passed, such as `--max-options`) is an error: its children are not
//! known, and a count that left them out would be wrong.
//!
//! The tree is walked depth first with a stack of its own (one frame per
//! level: a state and its moves), not by recursion, so a deep count needs
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
    let threads = threads_for(jobs, moves.len() as u64);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PerftError {
            path: Vec::new(),
            message: format!("cannot start {threads} threads: {e}"),
        })?;
    // A state is Send but need not be Sync: the root is shared behind a
    // lock, and each root move copies it when its turn comes (never a copy
    // of the root per root move made up front: a choice of many options
    // would hold them all at once).
    let shared = std::sync::Mutex::new(root.clone());
    let copy = || match shared.lock() {
        Ok(root) => root.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    };
    let subtrees: Vec<Result<Vec<u64>, PerftError>> = pool.install(|| {
        moves
            .into_par_iter()
            .map(|mv| {
                let mut child = copy();
                // The move's text is made only for an error, on a fresh
                // copy of the root (making the texts of every root move
                // costs as much as listing them again for each).
                child.apply(&mv).map_err(|e| PerftError {
                    path: vec![copy().move_to_text(&mv)],
                    message: e.to_string(),
                })?;
                let mut sub = vec![0u64; depth + 1];
                sub[1] = 1;
                walk(child, &mut sub).map_err(|mut e| {
                    e.path.insert(0, copy().move_to_text(&mv));
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

/// One level of the walk: a running state and the moves from it, those
/// before `next` already counted.
struct Frame<S: GameState> {
    state: S,
    moves: Vec<S::Move>,
    next: usize,
}

/// Counts the nodes below `start`, a node at depth 1 (already counted),
/// into `counts`, down to depth `counts.len() - 1`. An error's path starts
/// after `start`.
///
/// A child is made by copying its parent into the room of a state no
/// longer needed (`clone_from`: a game's copy reuses the allocations of
/// the one it replaces), then playing the move: every node is a state
/// of its own, played from its parent's copy, and nothing is allocated
/// per node once the spare states are there.
fn walk<S: GameState>(start: S, counts: &mut [u64]) -> Result<(), PerftError> {
    let max_depth = counts.len() - 1;
    let mut stack: Vec<Frame<S>> = Vec::new();
    // States whose nodes are counted, kept for their room.
    let mut spare: Vec<S> = Vec::new();
    match frame(start, 1, max_depth, &stack)? {
        Ok(frame) => stack.push(frame),
        Err(state) => spare.push(state),
    }
    while let Some(top) = stack.last_mut() {
        if top.next == top.moves.len() {
            if let Some(done) = stack.pop() {
                spare.push(done.state);
            }
            continue;
        }
        top.next += 1;
        let Some(top) = stack.last() else { break };
        let Some(mv) = top.moves.get(top.next - 1) else {
            break;
        };
        let mut child = match spare.pop() {
            Some(mut room) => {
                room.clone_from(&top.state);
                room
            }
            None => top.state.clone(),
        };
        if let Err(e) = child.apply(mv) {
            return Err(PerftError {
                path: path_of(&stack),
                message: e.to_string(),
            });
        }
        // The stack holds the levels 1..=len; the child is one below.
        let depth = stack.len() + 1;
        counts[depth] += 1;
        match frame(child, depth, max_depth, &stack)? {
            Ok(frame) => stack.push(frame),
            Err(state) => spare.push(state),
        }
    }
    Ok(())
}

/// The frame of `state`, a node at `depth`, when it has children to count;
/// else the state back (`Err`), for its room.
#[allow(clippy::type_complexity)]
fn frame<S: GameState>(
    state: S,
    depth: usize,
    max_depth: usize,
    stack: &[Frame<S>],
) -> Result<Result<Frame<S>, S>, PerftError> {
    if depth == max_depth {
        return Ok(Err(state));
    }
    match state.status() {
        Status::Running => {}
        Status::Stopped(why) => return Err(stopped(path_of(stack), why)),
        _ => return Ok(Err(state)),
    }
    let moves = moves_of(&state).map_err(|message| PerftError {
        path: path_of(stack),
        message,
    })?;
    Ok(Ok(Frame {
        state,
        moves,
        next: 0,
    }))
}

/// The error of a node the engine stopped.
fn stopped(path: Vec<String>, why: String) -> PerftError {
    PerftError {
        path,
        message: format!("the engine stopped the game: {why}"),
    }
}

/// The moves that led down the stack to its last move taken, as text (made
/// only for an error).
fn path_of<S: GameState>(stack: &[Frame<S>]) -> Vec<String> {
    stack
        .iter()
        .filter_map(|f| {
            let mv = f.moves.get(f.next.checked_sub(1)?)?;
            Some(f.state.move_to_text(mv))
        })
        .collect()
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
        out.push_str(&format!("depth {d}: nodes {n} (total {total})\n"));
    }
    out
}
