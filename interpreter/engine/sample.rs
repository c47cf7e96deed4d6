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
//! A choice with any other option (a second `any`, an `any` after other
//! actions, inside `all` or `let`...) is not cut: the caller lists the moves
//! and draws an index, as it always did.
//!
//! Exploration evaluates an option's guards and collection on the table
//! as it stands, and runs each item from there. A plan is only made when
//! evaluating them changed nothing (no journal entry: no random draw) and
//! did nothing (no action counted), so running a slot alone starts from
//! exactly where exploration runs it.

use super::cards::Picker;
use super::exec::Machine;
use super::{Move, Path, State};
use crate::ir::{Action, Condact, VarId};
use crate::random::{below, GameRng};

/// What one option of a choice offers.
enum Slots<'p> {
    /// An option with no `any`: one slot, the option itself.
    One(&'p Condact),
    /// An `any` whose body does not branch: one slot per item.
    Each {
        picker: Picker,
        len: usize,
        var: VarId,
        body: &'p Condact,
        /// Actions counted before the `any` (as exploration counts them).
        actions: u32,
    },
    /// No move at all (a guard that fails, an empty collection, an error).
    Empty,
}

impl Slots<'_> {
    fn len(&self) -> usize {
        match self {
            Slots::One(_) => 1,
            Slots::Each { len, .. } => *len,
            Slots::Empty => 0,
        }
    }
}

/// The slots of a choice whose options can all be sampled.
pub(super) struct Plan<'p> {
    options: Vec<Slots<'p>>,
    total: usize,
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

impl<'p> Plan<'p> {
    /// The slots of `options`, or `None` when one of them cannot be cut
    /// into slots. The table is left as it was (the journal must be on).
    pub(super) fn of(m: &mut Machine, options: &'p [Condact]) -> Option<Plan<'p>> {
        let mut slots = Vec::with_capacity(options.len());
        for option in options {
            if !option.branches {
                slots.push(Slots::One(option));
                continue;
            }
            let (var, body) = lone_any(option)?;
            let mark = m.journal_len();
            m.actions = 0;
            let reached = reach(m, option);
            let untouched = m.journal_len() == mark && m.actions == 0;
            let actions = m.actions;
            let option_slots = match reached {
                // A failing run is not a move.
                Err(_) => Slots::Empty,
                Ok(_) if !untouched => {
                    m.undo_to(mark);
                    return None;
                }
                Ok(None) => Slots::Empty,
                Ok(Some(picker)) => {
                    let len = picker.len(m);
                    if len == 0 {
                        Slots::Empty
                    } else {
                        Slots::Each {
                            picker,
                            len,
                            var,
                            body,
                            actions,
                        }
                    }
                }
            };
            m.undo_to(mark);
            slots.push(option_slots);
        }
        let total = slots.iter().map(Slots::len).sum();
        Some(Plan {
            options: slots,
            total,
        })
    }

    /// The option and item of slot `s` (`s < self.total`).
    fn locate(&self, mut s: usize) -> (usize, usize) {
        for (o, slots) in self.options.iter().enumerate() {
            let n = slots.len();
            if s < n {
                return (o, s);
            }
            s -= n;
        }
        (self.options.len(), 0)
    }

    /// The move of slot `s` when it is legal (run alone, in check mode, and
    /// taken back).
    fn check(&self, m: &mut Machine, s: usize) -> Option<Move> {
        let (o, i) = self.locate(s);
        let mark = m.journal_len();
        let legal = match self.options.get(o)? {
            Slots::One(c) => {
                m.actions = 0;
                m.check_condact(c).is_ok() && m.actions > 0
            }
            Slots::Each {
                picker,
                var,
                body,
                actions,
                ..
            } => {
                let item = picker.get(i, m);
                m.set_var(*var as usize, item);
                m.actions = *actions;
                m.check_condact(body).is_ok() && m.actions > 0
            }
            Slots::Empty => false,
        };
        m.undo_to(mark);
        legal.then(|| Move {
            option: o as u16,
            path: match self.options[o] {
                Slots::Each { .. } => Path::from_slice(&[i as u32]),
                _ => Path::default(),
            },
        })
    }

    /// Draws slots uniformly without replacement until one is legal.
    fn draw(&self, m: &mut Machine, rng: &mut GameRng) -> Option<Move> {
        ORDER.with(|cell| {
            let mut order = cell.take();
            order.clear();
            order.extend(0..self.total as u32);
            let mut found = None;
            for t in 0..self.total {
                let r = t + below(rng, self.total - t);
                order.swap(t, r);
                found = self.check(m, order[t] as usize);
                if found.is_some() {
                    break;
                }
            }
            cell.set(order);
            found
        })
    }

    /// Whether some slot is legal (tried in order, no randomness).
    fn any_legal(&self, m: &mut Machine) -> bool {
        (0..self.total).any(|s| self.check(m, s).is_some())
    }
}

thread_local! {
    /// The slot order of the last draw on this thread (its room is reused).
    static ORDER: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

/// What sampling the current choice gave.
pub(super) enum Sampled<T> {
    /// The choice is cut into slots; this is what they gave.
    Cut(T),
    /// An option cannot be cut: list the moves instead.
    NotCut,
}

impl State {
    /// Runs `f` on the plan of the current choice, with a machine whose
    /// journal is on; the table is left as it was.
    fn with_plan<T>(&self, f: impl FnOnce(&mut Machine, &Plan) -> T) -> Sampled<T> {
        let Some(options) = self.choice() else {
            return Sampled::NotCut;
        };
        let mut table = self.table.borrow_mut();
        let mut m = Machine::new(&self.tabs, &mut table, &self.globals);
        m.start_journal();
        let out = match Plan::of(&mut m, options) {
            Some(plan) => Sampled::Cut(f(&mut m, &plan)),
            None => Sampled::NotCut,
        };
        m.undo_all();
        out
    }

    /// A legal move of the current choice drawn uniformly with `rng`
    /// without listing them all (`Cut(None)`: there is none), when every
    /// option can be cut into slots (see the module doc).
    pub(super) fn sample(&self, rng: &mut GameRng) -> Sampled<Option<Move>> {
        self.with_plan(|m, plan| plan.draw(m, rng))
    }

    /// Whether the current choice has a legal move, when every option can
    /// be cut into slots (no generator is used).
    pub(super) fn has_sampled_move(&self) -> Sampled<bool> {
        self.with_plan(|m, plan| plan.any_legal(m))
    }
}
