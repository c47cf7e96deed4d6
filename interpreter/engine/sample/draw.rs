//! Drawing a legal slot of a [`Plan`] uniformly (sample, then check) and
//! playing the move drawn from where the plan stands.

use super::{leave, lone_any, slot_move, Plan, SPARE};
use crate::engine::cards::Picker;
use crate::engine::compile::BodyRuns;
use crate::engine::eval::R;
use crate::engine::exec::Machine;
use crate::engine::Move;
use crate::ir::{Condact, VarId};
use crate::random::{below, GameRng};

impl Plan {
    /// Draws slots uniformly without replacement until one is legal (as
    /// [`Plan::check_all`] found them; `unchecked` tells whether a slot
    /// left unchecked is, see [`Plan::unchecked_legal`]).
    pub(super) fn draw(
        &self,
        rng: &mut GameRng,
        unchecked: &mut impl FnMut(usize, usize) -> bool,
    ) -> Option<Move> {
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
            found = self.is_legal(order[t] as usize, unchecked);
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
    pub(in crate::engine) fn fits(&self, options: &[Condact], mv: &Move) -> bool {
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
    /// `plays` are the bodies compiled where they are (`Compiled::plays`),
    /// which do what the evaluator does.
    #[inline(always)]
    pub(in crate::engine) fn play(
        &self,
        m: &mut Machine,
        (options, plays): (&[Condact], Option<&BodyRuns>),
        mv: &Move,
    ) -> R<()> {
        let r = match self.slot_run(options, mv) {
            Some(None) => match options.get(mv.option as usize) {
                Some(option) => m.condact(option),
                None => Err("internal: no such option".into()),
            },
            Some(Some((picker, i, var, body, sieved))) => {
                let item = picker.get(i, m);
                m.set_var(var as usize, item);
                let compiled = plays.and_then(|p| p.get(mv.option as usize)?.as_ref());
                match compiled {
                    // A slot of the sieve: its guard holds (see `check`).
                    _ if sieved => m.action(&body.action),
                    // Located as `Machine::condact` locates it.
                    Some(run) => run(m).map_err(|e| m.locate(e.into(), body.span)),
                    None => m.condact(body),
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
