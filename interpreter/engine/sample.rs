//! A random move without listing every legal move: sample, then check.
//!
//! A choice's options are cut into *slots*, each at most one move:
//! - an option with no `any` inside is one slot (its move has an empty
//!   path);
//! - an option that is a single `any COLL 'V BODY`, perhaps under guards
//!   and as the only item of a `do`, whose BODY holds no `any`, is one slot
//!   per item of COLL (the move picks that item). The guards and COLL are
//!   evaluated once, as [exploration](super::explore) evaluates them; a
//!   guard that fails, an empty collection or an error gives no slot.
//!
//! When every option is cut so ([`Plan::of`]), [`State::sample`] draws
//! slots uniformly without replacement (a partial Fisher–Yates over a
//! reused index array) and checks each as exploration would check that one
//! run (the body run with the item bound, its last action only checked,
//! everything taken back from the journal); the first legal slot is the
//! move. Every legal move is one slot and is first among the legal slots
//! of a random order with the same probability, so the draw is uniform over
//! the legal moves, and a slot that is not a legal move is never returned.
//! For the same reason the legal slots are as many as the legal moves:
//! [`State::count_moves`] counts them so, listing nothing.
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
use super::exec::Machine;
use super::spaceset::Bits;
use super::{Move, Path, State};
use crate::game::Status;
use crate::ir::{Action, Condact, VarId};
use crate::random::{below, GameRng};
use std::cell::Cell;

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
    verdict: Cell<u8>,
    /// An option that is `(turn pass)` alone: always a move (its check
    /// only counts the pass), so it is never run to be checked.
    pass: bool,
}

/// The slots of a choice whose options can all be sampled, found when the
/// game reaches the choice and kept until a move is played (the table does
/// not change in between: moves are only tried and taken back).
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// One entry per option (its room is reused, see `Spare`).
    options: Vec<Slots>,
    total: usize,
}

impl Drop for Plan {
    /// Leaves the room of the options to the next plan on this thread.
    fn drop(&mut self) {
        let mut options = std::mem::take(&mut self.options);
        options.clear();
        // Nothing dropped inside the thread-local access (see `leave`).
        leave(SPARE.with(|s| s.options.replace(options)));
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
/// collection, in exploration's order: `None` when a guard fails.
fn reach(m: &mut Machine, mut c: &Condact) -> super::eval::R<Option<Picker>> {
    loop {
        if let Some(cond) = &c.cond {
            if !m.bool(cond)? {
                return Ok(None);
            }
        }
        match &c.action {
            Action::Do(items) if items.len() == 1 => c = &items[0],
            Action::Any { over, .. } => return m.picker(over).map(Some),
            _ => return Ok(None),
        }
    }
}

impl Plan {
    /// The slots of `options`, or `None` when one of them cannot be cut
    /// into slots. The table is left as it was (the journal must be on).
    fn of(
        m: &mut Machine,
        options: &[Condact],
        guards: Option<&[Option<OptionGuard>]>,
    ) -> Option<Plan> {
        // Cut by their shape first: nothing is evaluated for a choice that
        // cannot be sampled.
        if options.iter().any(|o| o.branches && lone_any(o).is_none()) {
            return None;
        }
        let mut plan = Plan {
            options: SPARE.with(|s| s.options.take()),
            total: 0,
        };
        for option in options {
            if !option.branches {
                plan.options.push(Slots {
                    len: 1,
                    picker: None,
                    sieve: None,
                    uniform: false,
                    verdict: Cell::new(0),
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
                // A failing run is not a move.
                Err(_) => None,
                Ok(_) if !untouched => {
                    m.undo_to(mark);
                    return None;
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
                verdict: Cell::new(0),
                pass: false,
            });
        }
        plan.total = plan.options.iter().map(|o| o.len).sum();
        Some(plan)
    }

    /// The option and item of slot `s` (`s < self.total`).
    #[inline]
    fn locate(&self, mut s: usize) -> (usize, usize) {
        for (o, slots) in self.options.iter().enumerate() {
            let n = slots.len;
            if s < n {
                return (o, s);
            }
            s -= n;
        }
        (self.options.len(), 0)
    }

    /// Whether slot `s` of the choice `options` is a legal move (run alone,
    /// its last action only checked, and taken back): its option, and the
    /// item it picks when the option is an `any`.
    #[inline(always)]
    fn check(
        &self,
        m: &mut Machine,
        options: &[Condact],
        s: usize,
    ) -> Option<(usize, Option<u32>)> {
        let (o, i) = self.locate(s);
        let slots = self.options.get(o)?;
        if slots.pass {
            return Some((o, None));
        }
        if slots.sieve.as_ref().is_some_and(|b| !b.contains(i as u32)) {
            return None;
        }
        // Known for every item of the sieve once checked for one.
        match slots.verdict.get() {
            1 => return Some((o, Some(i as u32))),
            2 => return None,
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
    ) -> Option<(usize, Option<u32>)> {
        let option = options.get(o)?;
        let slots = self.options.get(o)?;
        let mark = m.journal_len();
        m.actions = 0;
        let (legal, pick) = match &slots.picker {
            None => (m.check_condact(option).is_ok() && m.actions > 0, None),
            Some(picker) => {
                let (var, body) = lone_any(option)?;
                let item = picker.get(i, m);
                m.set_var(var as usize, item);
                // Past the sieve the guard holds (the sieve is exact).
                let r = match slots.sieve {
                    Some(_) => m.check_action(&body.action),
                    None => m.check_condact(body),
                };
                (r.is_ok() && m.actions > 0, Some(i as u32))
            }
        };
        m.undo_to(mark);
        if slots.uniform {
            slots.verdict.set(if legal { 1 } else { 2 });
        }
        legal.then_some((o, pick))
    }

    /// Draws slots uniformly without replacement until one is legal.
    fn draw(&self, m: &mut Machine, options: &[Condact], rng: &mut GameRng) -> Option<Move> {
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
            found = self.check(m, options, order[t] as usize);
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
        let (o, pick) = found?;
        Some(slot_move(o, pick))
    }

    /// How many slots are legal: the number of legal moves (every legal
    /// move is one slot).
    /// An option whose action is checked alike at every item of its sieve
    /// (`uniform`) has all of them legal or none: one is checked.
    fn count_legal(&self, m: &mut Machine, options: &[Condact]) -> usize {
        let mut count = 0;
        let mut first = 0;
        for slots in &self.options {
            let slot_range = first..first + slots.len;
            first += slots.len;
            count += match &slots.sieve {
                Some(sieve) if slots.uniform => match sieve.least() {
                    Some(i) if (i as usize) < slots.len => {
                        match self.check(m, options, slot_range.start + i as usize) {
                            Some(_) => sieve.count() as usize,
                            None => 0,
                        }
                    }
                    _ => 0,
                },
                _ => slot_range
                    .filter(|&s| self.check(m, options, s).is_some())
                    .count(),
            };
        }
        count
    }

    /// Whether some slot is legal (tried in order, no randomness).
    fn any_legal(&self, m: &mut Machine, options: &[Condact]) -> bool {
        (0..self.total).any(|s| self.check(m, options, s).is_some())
    }
}

/// What a choice with `options` offers, found with `m` (its journal on;
/// the table is left as it was): its plan when it can be sampled, else its
/// list of moves, and whether it has a legal move.
///
/// The plan and the list are written where the game keeps them (not
/// returned: a copy of a value just written stalls the processor).
pub(super) fn prepare(
    m: &mut Machine,
    options: &[Condact],
    guards: Option<&[Option<OptionGuard>]>,
    (plan, legal): (&mut Option<Plan>, &mut Option<Vec<Move>>),
) -> bool {
    *plan = Plan::of(m, options, guards);
    match plan {
        Some(plan) => {
            *legal = None;
            plan.any_legal(m, options)
        }
        None => {
            let moves = m.explore_moves(options);
            let any = !moves.is_empty();
            *legal = Some(moves);
            any
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
    pub(super) fn play(
        &self,
        m: &mut Machine,
        options: &[Condact],
        mv: &Move,
    ) -> Result<(), String> {
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
        r.map_err(String::from)
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
    /// has a legal move.
    pub(super) fn prepare_choice(&mut self) -> bool {
        *self.legal.get_mut() = None;
        *self.sampled.get_mut() = None;
        self.plan = None;
        let guards = self
            .frames
            .last()
            .and_then(|f| self.tabs.compiled.option_guards(f.stage, f.pos));
        let (mut plan, mut moves) = (None, None);
        let any = self
            .with_choice(|m, options| prepare(m, options, guards, (&mut plan, &mut moves)))
            .unwrap_or(false);
        self.plan = plan;
        *self.legal.get_mut() = moves;
        any
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
        self.with_choice(|m, options| plan.draw(m, options, rng))
    }
}
