//! `cardboard perft`: counts the move sequences from the start of a game, to
//! check the legal-move generator (and to measure it). Chance is fixed by
//! the seed: each state carries its own generator, cloned with it.
//!
//! Depth 0 is the start state (one node); the nodes at depth `d + 1` are the
//! states reached by one legal move from a running node at depth `d`.
//! Finished and stopped states have no children.

use super::moves_of;
use crate::game::{GameState, Status};
use std::fmt;

/// A move failed while counting: the sequence of moves that led there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftError {
    /// The moves from the start, as text, the last one being the one refused.
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

/// The number of nodes at each depth `0..=depth` below `root` (so
/// `counts[0] == 1`). Root moves are explored in parallel; the result does not
/// depend on the number of threads.
pub fn perft<S: GameState>(root: &S, depth: usize) -> Result<Vec<u64>, PerftError> {
    use rayon::prelude::*;
    let mut counts = vec![0u64; depth + 1];
    counts[0] = 1;
    if depth == 0 || root.status() != Status::Running {
        return Ok(counts);
    }
    let moves = moves_of(root).map_err(|message| PerftError {
        path: Vec::new(),
        message,
    })?;
    let subtrees: Vec<Result<Vec<u64>, PerftError>> = moves
        .into_iter()
        .map(|mv| (root.clone(), mv))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(mut child, mv)| {
            let mut path = vec![child.move_to_text(&mv)];
            let mut sub = vec![0u64; depth + 1];
            child.apply(&mv).map_err(|e| PerftError {
                path: path.clone(),
                message: e.to_string(),
            })?;
            sub[1] = 1;
            walk(&child, 1, depth, &mut sub, &mut path)?;
            Ok(sub)
        })
        .collect();
    for sub in subtrees {
        for (total, n) in counts.iter_mut().zip(sub?) {
            *total += n;
        }
    }
    Ok(counts)
}

fn walk<S: GameState>(
    state: &S,
    depth: usize,
    max_depth: usize,
    counts: &mut [u64],
    path: &mut Vec<String>,
) -> Result<(), PerftError> {
    if depth == max_depth || state.status() != Status::Running {
        return Ok(());
    }
    let moves = moves_of(state).map_err(|message| PerftError {
        path: path.clone(),
        message,
    })?;
    for mv in &moves {
        let mut child = state.clone();
        path.push(state.move_to_text(mv));
        child.apply(mv).map_err(|e| PerftError {
            path: path.clone(),
            message: e.to_string(),
        })?;
        counts[depth + 1] += 1;
        walk(&child, depth + 1, max_depth, counts, path)?;
        path.pop();
    }
    Ok(())
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
