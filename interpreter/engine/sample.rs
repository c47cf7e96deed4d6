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
//! The buffers of a plan and of a draw are reused from decision to
//! decision on a thread (`Spare`).

use super::cards::Picker;
use super::compile::{OptionGuard, SpaceCond};
use super::eval::{Fault, R};
use super::exec::Machine;
use super::spaceset::Bits;
use super::{Move, Path, State};
use crate::game::Status;
use crate::ir::{Action, Condact, VarId};
use crate::random::{below, GameRng};
use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

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
}

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
/// locates it.
fn reach(m: &mut Machine, mut c: &Condact) -> R<Option<Picker>> {
    loop {
        if let Some(cond) = &c.cond {
            match m.bool(cond) {
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
        guards: Option<&[Option<OptionGuard>]>,
    ) -> Result<Option<Plan>, (usize, Fault)> {
        // Cut by their shape first: nothing is evaluated for a choice that
        // cannot be sampled.
        if options.iter().any(|o| o.branches && lone_any(o).is_none()) {
            return Ok(None);
        }
        let mut plan = Plan {
            options: SPARE.with(|s| s.options.take()),
            total: 0,
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
                });
                continue;
            }
            let mark = m.journal_len();
            m.actions = 0;
            let reached = reach(m, option);
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
            m.undo_to(mark);
            plan.options.push(Slots {
                len,
                picker,
                sieve,
                uniform,
                verdict: Verdict::default(),
                pass: false,
            });
        }
        plan.total = plan.options.iter().map(|o| o.len).sum();
        Ok(Some(plan))
    }

    /// Checks every slot, in the order exploration runs them (option by
    /// option, item by item), and keeps which are legal; the first rules
    /// error met is an `Err` with the index of its option. Returns how
    /// many slots were found legal. Slots outside a sieve are not legal and
    /// need no check. An option checked alike over its sieve (`uniform`) is
    /// left to be checked when a draw or a count first needs it (its legal
    /// slots are then its sieve, see [`Plan::is_legal`]): its check cannot
    /// fail (a `move` from a named pile of the game or the current player
    /// to a named location of a space of the board: the card, the place
    /// and the space all exist, see `compile::same_for_every_space`), so
    /// leaving it unchecked hides no error.
    fn check_all(&mut self, m: &mut Machine, options: &[Condact]) -> Result<usize, (usize, Fault)> {
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        let mut count = 0;
        let mut r = Ok(());
        'options: for (o, slots) in self.options.iter().enumerate() {
            let len = slots.len as u32;
            if slots.pass {
                count += slots.len;
                continue;
            }
            if slots.uniform && slots.sieve.is_some() {
                continue;
            }
            // One bit per item, from the word where this option's start.
            let word = legal.len();
            legal.resize(word + slots.len.div_ceil(64), 0);
            let mut one = |m: &mut Machine, i: u32| match self.check_slot(m, options, o, i as usize)
            {
                Ok(found) => {
                    if found.is_some() {
                        legal[word + i as usize / 64] |= 1 << (i % 64);
                        count += 1;
                    }
                    Ok(())
                }
                Err(f) => Err(f),
            };
            let checked = match &slots.sieve {
                Some(sieve) => {
                    let mut from = 0;
                    let mut out = Ok(());
                    while let Some(i) = sieve.least_from(from).filter(|&i| i < len) {
                        from = i + 1;
                        out = one(m, i);
                        if out.is_err() {
                            break;
                        }
                    }
                    out
                }
                None => (0..len).try_for_each(|i| one(m, i)),
            };
            if let Err(f) = checked {
                r = Err((o, f));
                break 'options;
            }
        }
        self.legal = legal;
        self.legal_count = count;
        r.map(|()| count)
    }

    /// Whether slot `s` is legal, as [`Plan::check_all`] found it (an
    /// option checked alike over its sieve whose verdict is not known yet
    /// is asked of `uniform`): its option and item when it is.
    #[inline(always)]
    fn is_legal(
        &self,
        s: usize,
        uniform: &mut impl FnMut(usize) -> bool,
    ) -> Option<(usize, usize)> {
        let mut s = s;
        let mut word = 0;
        for (o, slots) in self.options.iter().enumerate() {
            let n = slots.len;
            if s >= n {
                s -= n;
                // Only options whose slots were checked one by one have
                // words of their own (see `check_all`).
                if !(slots.pass || slots.uniform && slots.sieve.is_some()) {
                    word += n.div_ceil(64);
                }
                continue;
            }
            let legal = if slots.pass {
                true
            } else {
                match &slots.sieve {
                    Some(sieve) if slots.uniform => {
                        sieve.contains(s as u32)
                            && match slots.verdict.get() {
                                0 => uniform(o),
                                v => v == 1,
                            }
                    }
                    _ => self
                        .legal
                        .get(word + s / 64)
                        .is_some_and(|w| w & (1 << (s % 64)) != 0),
                }
            };
            return legal.then_some((o, s));
        }
        None
    }

    /// Whether item `i` of option `o` of the choice `options` is a legal
    /// move (run alone, its last action only checked, and taken back): its
    /// option, and the item it picks when the option is an `any`; a rules
    /// error is an `Err`.
    #[inline(always)]
    fn check_slot(
        &self,
        m: &mut Machine,
        options: &[Condact],
        o: usize,
        i: usize,
    ) -> R<Option<(usize, Option<u32>)>> {
        let Some(slots) = self.options.get(o) else {
            return Ok(None);
        };
        if slots.pass {
            return Ok(Some((o, None)));
        }
        if slots.sieve.as_ref().is_some_and(|b| !b.contains(i as u32)) {
            return Ok(None);
        }
        // Known for every item of the sieve once checked for one.
        match slots.verdict.get() {
            1 => return Ok(Some((o, Some(i as u32)))),
            2 => return Ok(None),
            _ => {}
        }
        self.check_run(m, options, o, i)
    }

    /// [`Plan::check`] of item `i` of option `o` by running it (out of
    /// line: the slots passed over above cost no call).
    #[inline(never)]
    fn check_run(
        &self,
        m: &mut Machine,
        options: &[Condact],
        o: usize,
        i: usize,
    ) -> R<Option<(usize, Option<u32>)>> {
        let (Some(option), Some(slots)) = (options.get(o), self.options.get(o)) else {
            return Ok(None);
        };
        let mark = m.journal_len();
        m.actions = 0;
        let (r, pick) = match &slots.picker {
            None => (m.check_condact(option), None),
            Some(picker) => {
                let Some((var, body)) = lone_any(option) else {
                    return Ok(None);
                };
                let item = picker.get(i, m);
                m.set_var(var as usize, item);
                // Past the sieve the guard holds (the sieve is exact); an
                // error of the action is located at the body, as the
                // whole body's check would locate it.
                let r = match slots.sieve {
                    Some(_) => m
                        .check_action(&body.action)
                        .map_err(|f| m.locate(f, body.span)),
                    None => m.check_condact(body),
                };
                // And at the option when the body did not locate it.
                (r.map_err(|f| m.locate(f, option.span)), Some(i as u32))
            }
        };
        m.undo_to(mark);
        r?;
        let legal = m.actions > 0;
        if slots.uniform {
            slots.verdict.set(if legal { 1 } else { 2 });
        }
        Ok(legal.then_some((o, pick)))
    }

    /// Whether option `o`, checked alike over its sieve (`uniform`), is
    /// legal at the items of its sieve: its verdict, found by checking its
    /// first item the first time it is asked. Its check cannot fail (see
    /// [`Plan::check_all`]: an error there would be a bug of
    /// `compile::same_for_every_space`); the option would count as no move.
    fn uniform_legal(&self, m: &mut Machine, options: &[Condact], o: usize) -> bool {
        let Some(slots) = self.options.get(o) else {
            return false;
        };
        match slots.verdict.get() {
            1 => return true,
            2 => return false,
            _ => {}
        }
        let first = slots.sieve.as_ref().and_then(|b| b.least());
        match first.filter(|&i| (i as usize) < slots.len) {
            Some(i) => matches!(self.check_slot(m, options, o, i as usize), Ok(Some(_))),
            None => false,
        }
    }

    /// The verdicts of the options checked alike over their sieves that
    /// [`Plan::check_all`] left, in order, until a legal one is found when
    /// `until_legal`: whether one is legal, or the rules error of its check.
    fn uniform_verdicts(
        &self,
        m: &mut Machine,
        options: &[Condact],
        until_legal: bool,
    ) -> Result<bool, (usize, Fault)> {
        let mut any = false;
        for (o, slots) in self.options.iter().enumerate() {
            if !(slots.uniform && slots.sieve.is_some()) || slots.verdict.get() != 0 {
                any |= slots.verdict.get() == 1;
                continue;
            }
            let first = slots.sieve.as_ref().and_then(|b| b.least());
            if let Some(i) = first.filter(|&i| (i as usize) < slots.len) {
                any |= self
                    .check_slot(m, options, o, i as usize)
                    .map_err(|f| (o, f))?
                    .is_some();
            }
            if any && until_legal {
                break;
            }
        }
        Ok(any)
    }

    /// Whether every option checked alike over its sieve has its verdict:
    /// a draw then needs no machine.
    fn verdicts_known(&self) -> bool {
        self.options
            .iter()
            .all(|o| !(o.uniform && o.sieve.is_some()) || o.verdict.get() != 0)
    }

    /// Draws slots uniformly without replacement until one is legal (as
    /// [`Plan::check_all`] found them; `uniform` gives the verdict of an
    /// option checked alike over its sieve that has none yet).
    fn draw(&self, rng: &mut GameRng, uniform: &mut impl FnMut(usize) -> bool) -> Option<Move> {
        let (mut order, mut swaps) = SPARE.with(|s| (s.order.take(), s.swaps.take()));
        // `order` is 0, 1, 2 ... (see `Spare`): only its end may be missing.
        if order.len() < self.total {
            order.extend(order.len() as u32..self.total as u32);
        }
        swaps.clear();
        let mut found = None;
        for t in 0..self.total {
            let r = t + below(rng, self.total - t);
            order.swap(t, r);
            swaps.push(r as u32);
            found = self.is_legal(order[t] as usize, uniform);
            if found.is_some() {
                break;
            }
        }
        // Back to 0, 1, 2 ... for the next draw: only the slots swapped.
        for (t, &r) in swaps.iter().enumerate().rev() {
            order.swap(t, r as usize);
        }
        let (order, swaps) = SPARE.with(|s| (s.order.replace(order), s.swaps.replace(swaps)));
        leave(order);
        leave(swaps);
        let (o, i) = found?;
        let pick = self.options.get(o)?.picker.is_some().then_some(i as u32);
        Some(slot_move(o, pick))
    }

    /// How many slots are legal: the number of legal moves (every legal
    /// move is one slot). An option checked alike over its sieve has all of
    /// them legal or none: one is checked.
    fn count_legal(&self, m: &mut Machine, options: &[Condact]) -> usize {
        let uniform: usize = (0..self.options.len())
            .filter_map(|o| {
                let slots = &self.options[o];
                let sieve = slots.sieve.as_ref().filter(|_| slots.uniform)?;
                self.uniform_legal(m, options, o)
                    .then(|| (sieve.count() as usize).min(slots.len))
            })
            .sum();
        self.legal_count + uniform
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
    guards: Option<&[Option<OptionGuard>]>,
    (plan, legal): (&mut Option<SharedPlan>, &mut Option<Vec<Move>>),
) -> Result<bool, (usize, Fault)> {
    *plan = None;
    match Plan::of(m, options, guards)? {
        Some(mut made) => {
            *legal = None;
            // The options left unchecked are only checked when no other
            // slot is legal.
            let checked = made.check_all(m, options);
            let made = plan.insert(Arc::new(made));
            Ok(checked? > 0 || made.uniform_verdicts(m, options, true)?)
        }
        None => {
            let moves = m.explore_moves(options)?;
            let any = !moves.is_empty();
            *legal = Some(moves);
            Ok(any)
        }
    }
}

/// What playing a slot of a plan runs: the whole option, or the body of
/// its lone `any` with the item bound (the picker, the item, the variable,
/// the body, whether the slot passed a sieve).
type SlotRun<'p> = Option<(&'p Picker, usize, VarId, &'p Condact, bool)>;

impl Plan {
    /// What playing `mv` runs, when it is a slot of this plan of the choice
    /// `options`.
    fn slot_run<'p>(&'p self, options: &'p [Condact], mv: &Move) -> Option<SlotRun<'p>> {
        let o = mv.option as usize;
        let option = options.get(o)?;
        let slots = self.options.get(o)?;
        match (&slots.picker, mv.path.as_slice()) {
            (None, []) if slots.len == 1 => Some(None),
            (Some(picker), &[i]) if (i as usize) < slots.len => {
                let (var, body) = lone_any(option)?;
                let sieved = slots.sieve.as_ref().is_some_and(|b| b.contains(i));
                Some(Some((picker, i as usize, var, body, sieved)))
            }
            _ => None,
        }
    }

    /// Whether `mv` is a slot of this plan of the choice `options`.
    pub(super) fn fits(&self, options: &[Condact], mv: &Move) -> bool {
        self.slot_run(options, mv).is_some()
    }

    /// Plays `mv`, a move drawn from this plan of the choice `options`,
    /// with `m` (its journal on), as `State::play` keeps a move, but from
    /// where the plan stands: an option without `any` runs whole; for an
    /// `any`, its guards and collection were evaluated when the plan was
    /// made, held, changed nothing and did nothing, and the table has not
    /// changed since, so only its body runs, with the item bound (the same
    /// changes, draws and errors as the whole run). A move that fails is
    /// taken back; `mv` must be a slot of the plan ([`Plan::fits`]).
    #[inline(always)]
    pub(super) fn play(&self, m: &mut Machine, options: &[Condact], mv: &Move) -> R<()> {
        let r = match self.slot_run(options, mv) {
            Some(None) => match options.get(mv.option as usize) {
                Some(option) => m.condact(option),
                None => Err("internal: no such option".into()),
            },
            Some(Some((picker, i, var, body, sieved))) => {
                let item = picker.get(i, m);
                m.set_var(var as usize, item);
                // A slot of the sieve: its guard holds (see `check`).
                if sieved {
                    m.action(&body.action)
                } else {
                    m.condact(body)
                }
            }
            None => Err("internal: the move is no slot of the plan".into()),
        };
        if r.is_err() {
            m.undo_all();
        }
        r
    }
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
        self.plan = None;
        let guards = self
            .frames
            .last()
            .and_then(|f| self.tabs.compiled.option_guards(f.stage, f.pos));
        let (mut plan, mut moves) = (None, None);
        let found = self
            .with_choice(|m, options| prepare(m, options, guards, (&mut plan, &mut moves)))
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
            return Some(plan.draw(rng, &mut |_| false));
        }
        self.with_choice(|m, options| plan.draw(rng, &mut |o| plan.uniform_legal(m, options, o)))
    }
}
