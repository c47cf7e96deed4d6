//! How a game reports a rules error: the messages that name the decision,
//! the move or option, and the place in the rules file (the place itself
//! is put in front of the error by the innermost form that raised it, see
//! `eval::Fault`), and the failed state the game is left in.

use super::{eval, items_of, place, Frame, Move, State, Tables};
use crate::game::{GameState, PlayError, Status};
use crate::ir::StageItem;

/// Why running the rules on to the next decision stopped.
pub(super) enum Stop {
    /// The move played failed (and was taken back): the move and the error.
    Move(Move, eval::Fault),
    /// The rules failed on the way to the next decision: the whole message.
    Rules(String),
}

/// The message of a rules error met between two decisions, after
/// `decisions` of them.
#[cold]
pub(super) fn between(decisions: u64, f: eval::Fault) -> String {
    match decisions {
        0 => format!("before the first decision: {f}"),
        n => format!("after decision {n}: {f}"),
    }
}

/// The message of a rules error met in option `o` of the choice the game
/// is at (`frames`), for `player`, after `decisions` decisions.
#[cold]
pub(super) fn option_error(
    tabs: &Tables,
    frames: &[Frame],
    (o, f): (usize, eval::Fault),
    player: usize,
    decisions: u64,
) -> String {
    let choice = frames
        .last()
        .and_then(
            |fr| match items_of(&tabs.prog, fr.stage).get(fr.pos as usize)? {
                StageItem::Choice(_, span) => place(tabs, *span),
                _ => None,
            },
        )
        .map_or_else(String::new, |p| format!(" at {p}"));
    format!(
        "decision {}: option {} of the choice{choice} (player {player} to play): {f}",
        decisions + 1,
        o + 1
    )
}

impl State {
    /// The game stopped by a rules error: [`Status::Failed`] with the
    /// message, which is returned as a [`PlayError::Rules`]. The error of
    /// a move names it (it was taken back, so its text is found as it was
    /// offered).
    #[cold]
    pub(super) fn fail(&mut self, stop: Stop) -> PlayError {
        let message = match stop {
            Stop::Rules(message) => message,
            Stop::Move(mv, f) => {
                let text = self.move_to_text(&mv);
                let player = self.table.get_mut().current_player();
                let choice = self.choice_place().unwrap_or_default();
                format!(
                    "decision {}: player {player} played `{text}` (option {} of the choice{choice}), which failed: {f}",
                    self.decisions + 1,
                    mv.option + 1
                )
            }
        };
        self.status = Status::Failed(message.clone());
        *self.legal.get_mut() = None;
        *self.sampled.get_mut() = None;
        self.plan = None;
        PlayError::Rules(message)
    }

    /// ` at line L, column C`: the place of the current choice.
    fn choice_place(&self) -> Option<String> {
        let f = self.frames.last()?;
        match items_of(&self.tabs.prog, f.stage).get(f.pos as usize)? {
            StageItem::Choice(_, span) => Some(format!(" at {}", place(&self.tabs, *span)?)),
            _ => None,
        }
    }
}
