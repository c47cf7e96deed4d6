//! Limits on the work and memory of one game, each raised by a flag of the
//! command line (`--max-steps`, `--max-game-steps`, `--max-changes`,
//! `--max-cards`, `--max-options`, `--max-slots`).
//!
//! A rules file may ask for more than any machine has: two nested
//! `repeat 1000000` between two decisions, a deck of 10^12 cards, a choice
//! of 10^12 moves. Rather than running for ever or until the kernel kills
//! the process, the engine stops the game when it passes a limit: the
//! game's status becomes [`Status::Stopped`](crate::game::Status) with a
//! message that names the limit and the flag that raises it (a limit
//! passed while the setup runs is a rules error of the start instead). The
//! defaults are far above what every shipped game and every program of
//! the corpus needs.
//!
//! How a limit is passed: the machine that notices returns a rules error
//! ([`Fault`]) to unwind what it was running and records the message in
//! the table ([`Table::stopped`](super::state::Table)), where it stays;
//! the game then reports itself stopped (`State::status`).

use super::eval::{Fault, R};
use super::exec::Machine;

/// Bounds on the work and memory of one game. See the module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `--max-steps`: steps run between two decisions (or in the setup):
    /// each pass through a stage, each item of a stage and each item of a
    /// collection listed or looped over (`all`, `any`, `filter`, `repeat`
    /// ...) is one step, and so is each card a moved card is taken from
    /// under or put under (the cards shifted in its piles), and each card
    /// of a shuffled location.
    pub steps: u64,
    /// `--max-game-steps`: the steps of a whole game, its decisions
    /// together (as `steps` counts them: the rules run from each decision
    /// to the next, the move played included), so that a file whose every
    /// decision does a little under `steps` cannot run for hours.
    pub game_steps: u64,
    /// `--max-changes`: the changes kept to be taken back by one machine
    /// without a decision (while moves are tried, and the whole way to the
    /// next decision for a move played to be taken back, as perft and
    /// search play them). Each change counts one, and a copy it keeps one
    /// more per item (the old order of a shuffled location, the teams, the
    /// stack of cycles, the game's generator): about 50 bytes a count, so
    /// that their memory is bounded apart from the work.
    pub changes: u64,
    /// `--max-cards`: cards in play (every card `create deck` made).
    pub cards: u64,
    /// `--max-options`: the legal moves a choice may list.
    pub options: u64,
    /// `--max-slots`: the locations and storages of the table, checked
    /// before the boards and the table are built (every owner, the game,
    /// each player, each team and each space of the boards, has one of
    /// each name the rules use: spaces x names, about 24 bytes each).
    pub slots: u64,
}

/// The default `--max-steps`.
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;
/// The default `--max-game-steps`: some seconds of work, far above what
/// a shipped game or a program of the corpus runs in a game.
pub const DEFAULT_MAX_GAME_STEPS: u64 = 1_000_000_000;
/// The default `--max-changes` (some 50 MB of changes kept).
pub const DEFAULT_MAX_CHANGES: u64 = 1_000_000;
/// The default `--max-cards`.
pub const DEFAULT_MAX_CARDS: u64 = 1_000_000;
/// The default `--max-options`.
pub const DEFAULT_MAX_OPTIONS: u64 = 1_000_000;
/// The default `--max-slots` (a table of about 100 MB).
pub const DEFAULT_MAX_SLOTS: u64 = 1 << 22;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            steps: DEFAULT_MAX_STEPS,
            game_steps: DEFAULT_MAX_GAME_STEPS,
            changes: DEFAULT_MAX_CHANGES,
            cards: DEFAULT_MAX_CARDS,
            options: DEFAULT_MAX_OPTIONS,
            slots: DEFAULT_MAX_SLOTS,
        }
    }
}

thread_local! {
    /// Steps counted on this thread (see [`work_on_this_thread`]).
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The steps of work (as `--max-steps` counts them) of every game played
/// on this thread so far, all decisions and all machines together: a
/// measure of work that does not depend on the machine's speed or load.
/// The tests compare it at two sizes of a game to tell linear work from
/// quadratic work; it wraps around rather than overflow.
pub fn work_on_this_thread() -> u64 {
    WORK.with(|w| w.get())
}

/// Adds the steps counted on this thread from its making to its drop to
/// a game's count (`--max-game-steps`), whichever way the code between
/// returns.
pub(super) struct CountSteps<'a> {
    steps: &'a mut u64,
    from: u64,
}

impl<'a> CountSteps<'a> {
    pub(super) fn new(steps: &'a mut u64) -> CountSteps<'a> {
        CountSteps {
            steps,
            from: work_on_this_thread(),
        }
    }
}

impl Drop for CountSteps<'_> {
    fn drop(&mut self) {
        let ran = work_on_this_thread().wrapping_sub(self.from);
        *self.steps = self.steps.saturating_add(ran);
    }
}

impl Machine<'_> {
    /// Counts `n` steps of work (see [`Limits::steps`]); past the limit,
    /// the game stops.
    #[inline(always)]
    pub(super) fn charge(&mut self, n: usize) -> R<()> {
        WORK.with(|w| w.set(w.get().wrapping_add(n as u64)));
        self.steps = self.steps.saturating_add(n as u64);
        if self.steps > self.max_steps || self.changes_kept() > self.max_changes {
            return Err(self.too_many_steps());
        }
        Ok(())
    }

    /// The changes this machine keeps to be taken back, as `--max-changes`
    /// counts them: its journal's, and those it handed to the state's
    /// kept changes (a move played to be taken back).
    #[inline(always)]
    pub(super) fn changes_kept(&self) -> u64 {
        self.journal.len() as u64 + self.held
    }

    #[cold]
    #[inline(never)]
    fn too_many_steps(&mut self) -> Fault {
        if self.steps <= self.max_steps {
            let max = self.max_changes;
            return self.stop(format!(
                "more than {max} changes to take back without any decision (the limit of --max-changes)"
            ));
        }
        let max = self.max_steps;
        if max < self.tabs.limits.steps {
            // Bounded by what is left of the game's steps.
            let max = self.tabs.limits.game_steps;
            return self.stop(format!(
                "more than {max} steps in the whole game (the limit of --max-game-steps)"
            ));
        }
        self.stop(format!(
            "more than {max} steps without any decision (the limit of --max-steps)"
        ))
    }

    /// Makes room for the `more` cards a `create deck` makes (in the
    /// table's attributes, its record of where each card lies and the
    /// location `slot`), and, when the deck's rows are still to be made
    /// (`rows`), checks that their memory can be had: sized by the rules,
    /// these allocations are fallible, and one that fails (`--max-cards`
    /// raised past the machine's memory) stops the game with a clear
    /// error rather than aborting the process.
    pub(super) fn reserve_cards(&mut self, slot: u32, more: Option<u64>, rows: bool) -> R<()> {
        let width = self.tabs.prog.attr_keys.len();
        let count = more
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(usize::MAX);
        let sym = std::mem::size_of::<crate::ir::Sym>();
        // Each row is made as a list of its own, then the rows joined.
        let row_bytes = width
            .saturating_mul(2 * sym)
            .saturating_add(std::mem::size_of::<Vec<crate::ir::Sym>>());
        let made = if rows {
            let mut probe: Vec<u8> = Vec::new();
            probe
                .try_reserve_exact(count.saturating_mul(row_bytes))
                .is_ok()
        } else {
            true
        };
        let cards = super::journal::attrs_mut(&mut self.table.cards);
        let fits = made
            && cards.try_reserve(count.saturating_mul(width)).is_ok()
            && self.table.card_loc.try_reserve(count).is_ok()
            && self
                .table
                .locs
                .get_mut(slot as usize)
                .is_none_or(|l| l.try_reserve(count).is_ok());
        if fits {
            return Ok(());
        }
        let bytes = count.saturating_mul(row_bytes.saturating_add(width * sym + 2 * 4));
        Err(self.stop(format!(
            "`create deck` would make {count} cards, about {} MB, more memory than this \
             machine gives (lower --max-cards, {} now, to refuse such a deck sooner)",
            bytes / 1_000_000,
            self.tabs.limits.cards
        )))
    }

    /// The error of making `more` cards, past the limit of cards in play,
    /// if it is.
    pub(super) fn check_cards(&mut self, more: Option<u64>) -> R<()> {
        let max = self.tabs.limits.cards;
        let have = self.table.card_count() as u64;
        match more.and_then(|m| m.checked_add(have)) {
            Some(n) if n <= max => Ok(()),
            _ => {
                let more = more.map_or("too many".to_string(), |m| m.to_string());
                Err(self.stop(format!(
                    "`create deck` would make {more} cards beside the {have} in play: \
                     at most {max} are allowed (the limit of --max-cards)"
                )))
            }
        }
    }

    /// The error of a choice listing more than the limit of moves.
    #[cold]
    #[inline(never)]
    pub(super) fn too_many_options(&mut self) -> Fault {
        let max = self.tabs.limits.options;
        self.stop(format!(
            "more than {max} legal moves (the limit of --max-options)"
        ))
    }

    /// Records that the game stops for `why` (the first reason is kept)
    /// and returns it as an error, to unwind what is running.
    #[cold]
    #[inline(never)]
    pub(super) fn stop(&mut self, why: String) -> Fault {
        if self.table.stopped.is_none() {
            self.table.stopped = Some(why.as_str().into());
        }
        why.into()
    }
}
