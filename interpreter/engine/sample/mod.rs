//! A random move without listing every legal move: sample, then check.
//!
//! A choice's options are cut into *slots*, each at most one move:
//! - an option with no `any` inside is one slot (its move has an empty
//!   path);
//! - an option that is a single `any COLL 'V BODY`, perhaps under guards
//!   and as the only item of a `do`, whose BODY holds no `any`, is one slot
//!   per item of COLL (the move picks that item). The guards and COLL are
//!   evaluated once, as [exploration](super::explore) evaluates them; a
//!   guard that fails or an empty collection gives no slot, an error is
//!   the game's error.
//!
//! When every option is cut so ([`Plan::of`]), every slot is checked when
//! the game reaches the choice (but for an option checked alike over its
//! sieve, whose check cannot fail: see [`Plan::check_all`]), as
//! exploration would check that one run
//! (the body run with the item bound, its last action only checked,
//! everything taken back from the journal), and whether it is legal is
//! kept: a rules error in any slot is the game's error there, as it is
//! when the moves are listed, so both ways stop the same games at the same
//! decision. [`State::sample`] then draws slots uniformly without
//! replacement (a partial Fisher–Yates over a reused index array); the
//! first legal slot is the move. Every legal move is one slot and is first
//! among the legal slots of a random order with the same probability, so
//! the draw is uniform over the legal moves, and a slot that is not a
//! legal move is never returned. For the same reason the legal slots are
//! as many as the legal moves: [`State::count_moves`] counts them so,
//! listing nothing.
//! A choice with any other option (a second `any`, an `any` after other
//! actions, inside `all` or `let`...) is not cut: the caller lists the moves
//! and draws an index, as it always did.
//!
//! Exploration evaluates an option's guards and collection on the table
//! as it stands, and runs each item from there. A plan is only made when
//! evaluating them changed nothing (no journal entry: no random draw) and
//! did nothing (no action counted), so running a slot alone starts from
//! exactly where exploration runs it. For the same reason a move drawn
//! from the plan is played from there too ([`Plan::play`]): its
//! body with the item bound, the guards and collection not evaluated again.
//!
//! Checking a slot is made cheap where the rules allow it, without
//! changing what is drawn: an option `(any (spaces BOARD) 'V (GUARD
//! ACTION))` whose GUARD the board index answers has a *sieve*, the items
//! where GUARD holds (found once per plan); a slot outside it is no move
//! (GUARD fails: nothing is done), one inside it has only ACTION checked
//! and played. When ACTION is checked alike for every space (see
//! `compile::OptionGuard::uniform`), its *verdict* for one item serves all
//! the items of the sieve, and [`State::count_moves`] counts that option's
//! legal slots as the sieve's size after checking one.
//!
//! An option that is `(turn pass)` alone is a move whatever the table
//! holds (its check only counts the pass): it is never run to be checked.
//!
//! An option that is an `any` over cards whose check cannot fail (see
//! `compile::check_cannot_fail`: a guard on the card's attributes and a
//! `move` of the card to a named location) is *lazy*: its slots are not
//! checked when the game reaches the choice. A draw checks the slots it
//! meets (as a sieve's verdict is found when first needed), a count checks
//! them all once per decision (in the order of the cards' numbers, which
//! reads their attributes in the order they are stored), and whether the
//! choice has a legal move checks them in order until one is. No rules
//! error can hide in such an option, and each slot's answer is the one
//! [`Plan::check_all`] would have kept, so the same games stop at the same
//! decisions and the same moves are drawn; a random game over a pile of
//! 10^6 cards no longer checks 10^6 slots at each decision.
//!
//! An option that is an `any` over cards whose every slot is a legal move
//! (see `compile::always_legal`: no guard in the body, a `move` of the
//! card to a named location of the game or of the current player,
//! perhaps after `set`s of strings to the card's attributes; none can
//! fail and the move always counts) has its slots marked legal without
//! running them: each check would find the slot legal, with no error.
//!
//! The condition of each option, and the condition of an `any`'s body
//! checked for each of its items, run compiled when the rules were
//! compiled (`compile::Aids`: the same answers and errors as the
//! evaluator, which `Rules::uncompiled` keeps using). A body whose check
//! is cut short (`compile::trim`: the items after an action that always
//! counts that cannot fail are left out of the check). A slot's check runs
//! the action of the body (cut or whole) compiled (`Compiled::tests`),
//! and an option without `any` its condition compiled; the move drawn
//! plays the body compiled (`Compiled::plays`).
//!
//! The buffers of a plan and of a draw are reused from decision to
//! decision on a thread (`Spare`).

use super::cards::Picker;
use super::compile::{Aids, Run, SpaceCond};
use super::eval::{Fault, R};
use super::exec::Machine;
use super::spaceset::Bits;
use super::{Move, Path, State};
use crate::game::Status;
use crate::ir::{Action, Condact, VarId};
use crate::random::GameRng;
use std::cell::Cell;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

mod check;
mod draw;
#[cfg(test)]
mod tests;

/// What one option of a choice offers: `len` slots.
#[derive(Clone, Debug)]
struct Slots {
    /// 1 for an option with no `any` (the option itself); one per item
    /// for an `any` whose body does not branch; 0 for no move at all (a
    /// guard that fails, an empty collection, an error).
    len: usize,
    /// The items of the `any`, if the option is one.
    picker: Option<Picker>,
    /// For an `any` over the spaces of a board whose guard the index of
    /// what lies on the spaces answers: the items where the guard holds.
    /// A slot outside it does nothing, so it is no move (its check is
    /// skipped; the draw is the same).
    sieve: Option<Bits>,
    /// Whether the action is checked alike at every item of the sieve
    /// (`compile::OptionGuard::uniform`), and then the answer once known:
    /// 0 not yet, 1 a move, 2 none.
    uniform: bool,
    verdict: Verdict,
    /// An option that is `(turn pass)` alone: always a move (its check
    /// only counts the pass), so it is never run to be checked.
    pass: bool,
    /// An `any` over cards whose check cannot fail (see
    /// `compile::check_cannot_fail`): its slots are checked one at a time
    /// as draws meet them, and all of them only when they are counted.
    lazy: bool,
    /// An `any` over cards whose every slot is a legal move
    /// (`compile::always_legal`): its slots are marked legal without a
    /// check.
    sure: bool,
    /// Where the option's words start in [`Plan::legal`] (when its slots
    /// are checked one by one, see [`Slots::unchecked`]; set by
    /// [`Plan::check_all`]).
    word: usize,
}

impl Slots {
    /// Whether the option's slots are not checked when the plan is made
    /// (so they have no words in [`Plan::legal`]).
    #[inline(always)]
    fn unchecked(&self) -> bool {
        self.pass || self.lazy || self.uniform && self.sieve.is_some()
    }
}

/// The legal slots of the `lazy` options, once counted (`usize::MAX`
/// before):
/// atomic for the same reason as [`Verdict`].
#[derive(Debug)]
struct Counted(AtomicUsize);

impl Default for Counted {
    fn default() -> Counted {
        Counted(AtomicUsize::new(usize::MAX))
    }
}

impl Counted {
    fn get(&self) -> Option<usize> {
        Some(self.0.load(Ordering::Relaxed)).filter(|&n| n != usize::MAX)
    }
    fn set(&self, n: usize) {
        self.0.store(n, Ordering::Relaxed)
    }
}

impl Clone for Counted {
    fn clone(&self) -> Counted {
        Counted(AtomicUsize::new(self.0.load(Ordering::Relaxed)))
    }
}

/// The verdict of an option checked alike over its sieve, once known (0
/// not yet, 1 a move, 2 none). Atomic because a plan is shared by the
/// copies of a state, which may be played on other threads; the verdict
/// is a function of the decision, so any copy may write it.
#[derive(Debug, Default)]
struct Verdict(AtomicU8);

impl Verdict {
    fn get(&self) -> u8 {
        self.0.load(Ordering::Relaxed)
    }
    fn set(&self, v: u8) {
        self.0.store(v, Ordering::Relaxed)
    }
}

impl Clone for Verdict {
    fn clone(&self) -> Verdict {
        Verdict(AtomicU8::new(self.get()))
    }
}

/// The slots of a choice whose options can all be sampled, found when the
/// game reaches the choice and kept until a move is played (the table does
/// not change in between: moves are only tried and taken back).
///
/// A plan is as large as the choice (its items, one bit per slot), so the
/// copies of a state share it ([`SharedPlan`]) rather than copy it: a
/// search that copies a state at a choice of 10^6 moves once per move
/// would otherwise copy 10^6 items each time.
#[derive(Debug)]
pub(super) struct Plan {
    /// One entry per option (its room is reused, see `Spare`).
    options: Vec<Slots>,
    total: usize,
    /// Which slots are legal, one bit each (all checked when the plan is
    /// made, see [`Plan::check_all`]).
    legal: Vec<u64>,
    /// How many are.
    legal_count: usize,
    /// Whether an option is `lazy` (and has slots).
    lazy: bool,
    /// How many slots of the `lazy` options are legal, once counted.
    lazy_legal: Counted,
}

/// The fewest cards an `any` over cards needs to be `lazy`: checking a
/// few when the game reaches the choice costs less than a machine for
/// each draw (the hands of a card game stay checked in full).
const LAZY_FROM: usize = 64;

/// A plan as a state keeps it: made once per decision, shared by copies.
pub(super) type SharedPlan = Arc<Plan>;

impl Drop for Plan {
    /// Leaves the room of the options to the next plan on this thread.
    fn drop(&mut self) {
        let mut options = std::mem::take(&mut self.options);
        options.clear();
        let legal = std::mem::take(&mut self.legal);
        // Nothing dropped inside the thread-local access (see `leave`).
        leave(SPARE.with(|s| s.options.replace(options)));
        leave(SPARE.with(|s| s.legal.replace(legal)));
    }
}

/// The variable and body of the `any` an option consists of (under guards
/// and one-item `do`s), when its body does not branch.
fn lone_any(mut c: &Condact) -> Option<(VarId, &Condact)> {
    loop {
        match &c.action {
            Action::Do(items) if items.len() == 1 => c = &items[0],
            Action::Any { var, body, .. } if !body.branches => return Some((*var, body)),
            _ => return None,
        }
    }
}

/// Evaluates the guards on the way to an option's lone `any` and its
/// collection, in exploration's order: `None` when a guard fails. An error
/// is located at the conditional action that raised it, as exploration
/// locates it. `compiled` is the option's own condition compiled, if it
/// is (it computes what the evaluator would, see `compile`).
fn reach(m: &mut Machine, mut c: &Condact, mut compiled: Option<&Run<bool>>) -> R<Option<Picker>> {
    loop {
        if let Some(cond) = &c.cond {
            let holds = match compiled.take() {
                Some(run) => run(m).map_err(Fault::from),
                None => m.bool(cond),
            };
            match holds {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(f) => return Err(m.locate(f, c.span)),
            }
        }
        match &c.action {
            Action::Do(items) if items.len() == 1 => c = &items[0],
            Action::Any { over, .. } => {
                return m.picker(over).map(Some).map_err(|f| m.locate(f, c.span))
            }
            _ => return Ok(None),
        }
    }
}

impl Plan {
    /// The slots of `options`, or `None` when one of them cannot be cut
    /// into slots; an `Err` (with the index of its option) when a guard or
    /// collection on the way to an `any` fails. The table is left as it
    /// was (the journal must be on). The slots are not checked yet.
    fn of(
        m: &mut Machine,
        options: &[Condact],
        aids: Aids,
    ) -> Result<Option<Plan>, (usize, Fault)> {
        let Aids {
            guards,
            safe,
            conds,
            ..
        } = aids;
        // Cut by their shape first: nothing is evaluated for a choice that
        // cannot be sampled.
        if options.iter().any(|o| o.branches && lone_any(o).is_none()) {
            return Ok(None);
        }
        let mut plan = Plan {
            options: SPARE.with(|s| s.options.take()),
            total: 0,
            lazy: false,
            lazy_legal: Counted::default(),
            legal: SPARE.with(|s| s.legal.take()),
            legal_count: 0,
        };
        for (o, option) in options.iter().enumerate() {
            if !option.branches {
                plan.options.push(Slots {
                    len: 1,
                    picker: None,
                    sieve: None,
                    uniform: false,
                    verdict: Verdict::default(),
                    pass: option.cond.is_none() && matches!(option.action, Action::TurnPass),
                    lazy: false,
                    sure: false,
                    word: 0,
                });
                continue;
            }
            let mark = m.journal_len();
            m.actions = 0;
            let cond = conds.and_then(|c| c.get(o)?.as_ref());
            let reached = reach(m, option, cond);
            // Nothing counted before the `any` either: each slot is checked
            // from no action done, as exploration runs it.
            let untouched = m.journal_len() == mark && m.actions == 0;
            let picker = match reached {
                // An error on the way to the `any` is the game's, located
                // at the option as exploration locates it.
                Err(f) => {
                    m.undo_to(mark);
                    return Err((o, f));
                }
                Ok(_) if !untouched => {
                    m.undo_to(mark);
                    return Ok(None);
                }
                Ok(picker) => picker,
            };
            let len = picker.as_ref().map_or(0, |p| p.len(m));
            let guard = guards.and_then(|g| g.get(plan.options.len())?.as_ref());
            let sieve = match (&picker, guard) {
                (Some(Picker::Spaces(first, n)), Some(guard)) => {
                    // An earlier option with the same guard over the same
                    // spaces has the same sieve.
                    let earlier = guard
                        .same_as
                        .and_then(|k| plan.options.get(k))
                        .and_then(|o| match (&o.picker, &o.sieve) {
                            (Some(Picker::Spaces(f, k)), Some(b)) if (*f, *k) == (*first, *n) => {
                                Some(*b)
                            }
                            _ => None,
                        });
                    earlier.or_else(|| sieve(m, &guard.cond, *first))
                }
                _ => None,
            };
            let uniform = sieve.is_some() && guard.is_some_and(|g| g.uniform);
            let lazy = matches!(picker, Some(Picker::Cards(_)))
                && len >= LAZY_FROM
                && sieve.is_none()
                && safe.and_then(|s| s.get(o)).is_some_and(|&s| s);
            let sure = matches!(picker, Some(Picker::Cards(_)))
                && sieve.is_none()
                && aids.sure.and_then(|s| s.get(o)).is_some_and(|&s| s);
            plan.lazy |= lazy;
            m.undo_to(mark);
            plan.options.push(Slots {
                len,
                picker,
                sieve,
                uniform,
                verdict: Verdict::default(),
                pass: false,
                lazy,
                sure,
                word: 0,
            });
        }
        plan.total = plan.options.iter().map(|o| o.len).sum();
        Ok(Some(plan))
    }
}

/// What a choice with `options` offers, found with `m` (its journal on;
/// the table is left as it was): its plan when it can be sampled, else its
/// list of moves, and whether it has a legal move; or the first rules
/// error met in an option, with the option's index.
///
/// The plan and the list are written where the game keeps them (not
/// returned: a copy of a value just written stalls the processor).
pub(super) fn prepare(
    m: &mut Machine,
    options: &[Condact],
    aids: Aids,
    (plan, legal): (&mut Option<SharedPlan>, &mut Option<Vec<Move>>),
) -> Result<bool, (usize, Fault)> {
    let old = plan.take();
    // A loaded position beyond the storages' bounds is checked whole.
    let aids = if m.table.beyond_bounds {
        aids.whole()
    } else {
        aids
    };
    match Plan::of(m, options, aids)? {
        Some(mut made) => {
            *legal = None;
            // The options left unchecked are only checked when no other
            // slot is legal.
            let checked = made.check_all(m, options, aids);
            let made = plan.insert(reuse(old, made));
            Ok(checked? > 0
                || made.uniform_verdicts(m, options, true)?
                || made.lazy_any(m, options))
        }
        None => {
            let moves = m.explore_moves(options, aids.conds)?;
            let any = !moves.is_empty();
            *legal = Some(moves);
            Ok(any)
        }
    }
}

/// `made` shared, in the room of the last decision's plan `old` when no
/// copy of the state shares that one: no allocation per decision. (The
/// plan it replaces leaves its buffers to the next one, see `Spare`.)
fn reuse(old: Option<SharedPlan>, made: Plan) -> SharedPlan {
    if let Some(mut old) = old {
        if let Some(room) = Arc::get_mut(&mut old) {
            *room = made;
            return old;
        }
    }
    Arc::new(made)
}

/// The spaces of the board starting at space `first` (a picker of a whole
/// board) where `guard` holds, from the index of what lies on the spaces;
/// `None` when it cannot answer.
fn sieve(m: &mut Machine, guard: &SpaceCond, first: u32) -> Option<Bits> {
    let loaded = guard.load(m)?;
    let (at, bits) = guard.mask_of(m, &loaded, first)?;
    (at == first).then_some(bits)
}

/// The move of a legal slot: its option, and the item it picks if any.
fn slot_move(option: usize, pick: Option<u32>) -> Move {
    Move {
        option: option as u16,
        path: match pick {
            Some(i) => Path::from_slice(&[i]),
            None => Path::default(),
        },
    }
}

/// Drops `old`, what a buffer put back on the thread replaced: nothing
/// (the buffer taken from there), or another's buffer, left there
/// meanwhile.
#[inline(always)]
fn leave<T>(old: Vec<T>) {
    if old.capacity() != 0 {
        drop(old);
    } else {
        std::mem::forget(old);
    }
}

/// Buffers reused from decision to decision on a thread.
struct Spare {
    /// The room of the last plan's options (empty).
    options: Cell<Vec<Slots>>,
    /// The room of the last plan's legal slots.
    legal: Cell<Vec<u64>>,
    /// Slot indices `0, 1, 2 ...` in order: a draw permutes a prefix and
    /// puts it back, so no draw writes the whole list.
    order: Cell<Vec<u32>>,
    /// The swaps of the last draw (to undo them).
    swaps: Cell<Vec<u32>>,
}

thread_local! {
    static SPARE: Spare = const {
        Spare {
            options: Cell::new(Vec::new()),
            legal: Cell::new(Vec::new()),
            order: Cell::new(Vec::new()),
            swaps: Cell::new(Vec::new()),
        }
    };
}

impl State {
    /// Runs `f` on the options of the current choice with a machine whose
    /// journal is on; the table is left as it was. `None` when the game is
    /// not at a choice.
    pub(super) fn with_choice<T>(
        &self,
        f: impl FnOnce(&mut Machine, &[Condact]) -> T,
    ) -> Option<T> {
        let options = self.choice()?;
        let mut table = self.table.borrow_mut();
        let mut scratch = self.scratch.borrow_mut();
        let mut m = Machine::new(&self.tabs, &mut table, &mut scratch, &self.globals);
        m.start_journal();
        let out = f(&mut m, options);
        m.undo_all();
        Some(out)
    }

    /// Gets the choice the game has reached ready to be played: its plan
    /// when it can be sampled, else its list of moves. Returns whether it
    /// has a legal move, or the rules error met in an option (its message
    /// naming the option, the choice and the decision).
    pub(super) fn prepare_choice(&mut self) -> Result<bool, String> {
        *self.legal.get_mut() = None;
        *self.sampled.get_mut() = None;
        let aids = (self.frames.last())
            .map_or_else(Aids::default, |f| self.tabs.compiled.aids(f.stage, f.pos));
        let (mut plan, mut moves) = (self.plan.take(), None);
        let found = self
            .with_choice(|m, options| prepare(m, options, aids, (&mut plan, &mut moves)))
            .unwrap_or(Ok(false));
        self.plan = plan;
        *self.legal.get_mut() = moves.map(std::sync::Arc::new);
        found.map_err(|(o, f)| {
            let player = self.table.get_mut().current_player();
            super::option_error(&self.tabs, &self.frames, (o, f), player, self.decisions)
        })
    }

    /// How many legal moves the game offers: as many as
    /// `GameState::legal_moves` lists, counted from the plan when the
    /// choice has one (each slot checked, no move listed).
    pub fn count_moves(&self) -> usize {
        use crate::game::GameState;
        match &self.plan {
            Some(plan) if self.status == Status::Running && self.legal.borrow().is_none() => self
                .with_choice(|m, options| plan.count_legal(m, options))
                .unwrap_or(0),
            _ => self.legal_moves().len(),
        }
    }

    /// A legal move of the current choice drawn uniformly with `rng`
    /// without listing them all, when it can be sampled (`Some(None)`: it
    /// has no legal move); `None` when it cannot.
    pub(super) fn sample(&self, rng: &mut GameRng) -> Option<Option<Move>> {
        let plan = self.plan.as_ref()?;
        if plan.verdicts_known() {
            return Some(plan.draw(rng, &mut |_, _| false));
        }
        self.with_choice(|m, options| {
            plan.draw(rng, &mut |o, i| plan.unchecked_legal(m, options, o, i))
        })
    }
}
