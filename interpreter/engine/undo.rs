//! Taking a move back: the engine's [`GameState::apply_undoable`] and
//! [`GameState::undo`], for search and perft, which walk a tree of moves
//! in one state rather than copying a state per node.
//!
//! While a move is played to be taken back, the machine that plays it and
//! runs the rules on journals every change to the table (the journal of
//! `journal.rs`, which exploration uses too), the cycles pushed, popped and
//! passed as stages are entered, left and played again included, and the
//! game's generator before its first draw. Those changes are handed to
//! [`Kept::changes`] before the next choice's moves are found (exploration
//! journals and takes back on its own) and when the machine stops; the
//! state's frames before the move go to [`Kept::frames`]. The rest of what
//! the move changes (decision count, status, outcome, the listed moves, the
//! drawn move, the plan of the choice (shared), a limit's stop) is small
//! and goes in the [`MoveUndo`] itself, with a copy of what each seat has
//! seen when the state keeps it (`GameState::keep_seen`, for search). Taking back runs the changes since the move's
//! mark backwards and puts the rest back, so nothing is copied but what
//! the move changed.

use super::journal::{take_back, Undo};
use super::*;

/// How to take back one move played with [`GameState::apply_undoable`].
#[derive(Debug)]
pub struct MoveUndo {
    /// The length of [`Kept::changes`] before the move.
    changes: usize,
    /// The length of [`Kept::frames`] before the move (the frames of the
    /// state before it follow).
    frames: usize,
    status: Status,
    decisions: u64,
    steps: u64,
    outcome: Option<Outcome>,
    legal: Option<Arc<Vec<Move>>>,
    sampled: Option<Move>,
    plan: Option<sample::SharedPlan>,
    stopped: Option<Box<str>>,
    /// What each seat had seen, when kept (`GameState::keep_seen`).
    seen: Option<Box<resample::Seen>>,
}

/// What a state keeps of the moves played to be taken back. Never copied
/// with the state (a copy has no move to take back).
#[derive(Debug, Default)]
pub(super) struct Kept {
    /// The table's changes of the moves, oldest first.
    pub changes: Vec<Undo>,
    /// The frames of the state before each move, one after another.
    frames: Vec<Frame>,
}

impl Kept {
    /// Forgets every move (the state was copied over).
    pub fn clear(&mut self) {
        self.changes.clear();
        self.frames.clear();
    }

    /// Takes the changes the last machine left journaled in `scratch`.
    pub fn keep_changes(&mut self, scratch: &mut Scratch) {
        self.changes.append(scratch.journal_mut());
    }
}

impl State {
    /// Plays `mv`, a legal move, so that [`State::take_back`] can take it
    /// back; a rules error is taken back at once and returned.
    pub(super) fn play_undoable(&mut self, mv: &Move) -> Result<MoveUndo, PlayError> {
        let undo = MoveUndo {
            changes: self.kept.changes.len(),
            frames: self.kept.frames.len(),
            status: self.status.clone(),
            decisions: self.decisions,
            steps: self.steps,
            outcome: self.outcome.clone(),
            legal: self.legal.get_mut().clone(),
            sampled: self.sampled.get_mut().clone(),
            plan: self.plan.clone(),
            stopped: self.table.get_mut().stopped.clone(),
            seen: self.table.get_mut().seen.clone(),
        };
        self.kept.frames.extend_from_slice(&self.frames);
        // A machine left nothing journaled (each starts with an empty
        // journal): what is there now is this move's.
        self.scratch.get_mut().journal_mut().clear();
        let played = self.play_legal::<true>(mv);
        self.kept.keep_changes(self.scratch.get_mut());
        match played {
            Ok(()) => Ok(undo),
            Err(e) => {
                self.take_back(undo);
                Err(e)
            }
        }
    }

    /// Takes back the move `undo` was made for: its changes to the table,
    /// last first, then the frames and the rest as they were. An `undo`
    /// that is not of the latest move kept (a misuse) takes back what it
    /// can and panics nowhere.
    pub(super) fn take_back(&mut self, undo: MoveUndo) {
        let lc = self.tabs.loc_count;
        let kept = &mut self.kept;
        let from = undo.changes.min(kept.changes.len());
        let table = self.table.get_mut();
        for u in kept.changes.drain(from..).rev() {
            take_back(table, lc, u);
        }
        let at = undo.frames.min(kept.frames.len());
        self.frames.clear();
        self.frames.extend(kept.frames.drain(at..));
        self.status = undo.status;
        self.decisions = undo.decisions;
        self.steps = undo.steps;
        self.outcome = undo.outcome;
        *self.legal.get_mut() = undo.legal;
        *self.sampled.get_mut() = undo.sampled;
        self.plan = undo.plan;
        let table = self.table.get_mut();
        table.stopped = undo.stopped;
        table.seen = undo.seen;
    }
}
