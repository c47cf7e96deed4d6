//! Which slots of a [`Plan`] are legal: checked one by one when the game
//! reaches the choice ([`Plan::check_all`]), or when a draw or a count
//! first needs them (an option checked alike over its sieve, a `lazy`
//! option), and how many are.

use super::{lone_any, Plan};
use crate::engine::cards::Picker;
use crate::engine::compile::{Aids, Run};
use crate::engine::eval::{Fault, R};
use crate::engine::exec::Machine;
use crate::engine::value::Value;
use crate::ir::Condact;

/// What a check may use of the compiled rules for an option's `any` body:
/// its condition compiled, and the body cut short (`compile::Aids`).
#[derive(Clone, Copy, Default)]
pub(super) struct Body<'a> {
    cond: Option<&'a Run<bool>>,
    cut: Option<&'a Condact>,
    /// The check of the (cut) body's action, compiled.
    test: Option<&'a Run<()>>,
    /// The option's own condition, compiled (an option without `any` is
    /// checked whole: its condition, then its action).
    own: Option<&'a Run<bool>>,
}

impl Plan {
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
    /// leaving it unchecked hides no error. Nor can the check of a `lazy`
    /// option fail (`compile::check_cannot_fail`): its slots are left to
    /// the draws and the count.
    ///
    /// `aids` give the conditions of the options' `any` bodies compiled,
    /// when they are, and the bodies cut short for their checks (see
    /// `compile::Aids`).
    pub(super) fn check_all(
        &mut self,
        m: &mut Machine,
        options: &[Condact],
        aids: Aids,
    ) -> Result<usize, (usize, Fault)> {
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        let mut count = 0;
        let mut r = Ok(());
        'options: for o in 0..self.options.len() {
            let slots = &self.options[o];
            let len = slots.len as u32;
            if slots.pass {
                count += slots.len;
                continue;
            }
            if slots.unchecked() {
                continue;
            }
            // One bit per item, from the word where this option's start.
            let word = legal.len();
            legal.resize(word + slots.len.div_ceil(64), 0);
            self.options[o].word = word;
            let slots = &self.options[o];
            let bits = &mut legal[word..];
            if slots.sure {
                // Every slot legal (`compile::always_legal`): its check
                // would find each so, and no error can hide there.
                for i in 0..slots.len {
                    bits[i / 64] |= 1 << (i % 64);
                }
                count += slots.len;
                continue;
            }
            let body = Body {
                cond: aids.bodies.and_then(|b| b.get(o)?.as_ref()),
                cut: aids.checks.and_then(|b| b.get(o)?.as_ref()),
                test: aids.tests.and_then(|b| b.get(o)?.as_ref()),
                own: aids.conds.and_then(|b| b.get(o)?.as_ref()),
            };
            let checked = match &slots.sieve {
                Some(sieve) => {
                    let mut from = 0;
                    let mut out = Ok(());
                    while let Some(i) = sieve.least_from(from).filter(|&i| i < len) {
                        from = i + 1;
                        out = self.check_into(m, (options, body), o, i, bits, &mut count);
                        if out.is_err() {
                            break;
                        }
                    }
                    out
                }
                None => {
                    let at = (options, body);
                    (0..len).try_for_each(|i| self.check_into(m, at, o, i, bits, &mut count))
                }
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

    /// Checks item `i` of option `o` for [`Plan::check_all`]: its bit set
    /// in `bits` (the option's words) and `count` counted when legal.
    #[inline(always)]
    fn check_into(
        &self,
        m: &mut Machine,
        (options, body): (&[Condact], Body),
        o: usize,
        i: u32,
        bits: &mut [u64],
        count: &mut usize,
    ) -> R<()> {
        if self
            .check_slot_with(m, options, o, i as usize, body)?
            .is_some()
        {
            if let Some(w) = bits.get_mut(i as usize / 64) {
                *w |= 1 << (i % 64);
            }
            *count += 1;
        }
        Ok(())
    }

    /// Whether slot `s` is legal, as [`Plan::check_all`] found it (an
    /// option checked alike over its sieve whose verdict is not known yet,
    /// and a slot of a `lazy` option, are asked of `unchecked` with the
    /// option and the item): its option and item when it is.
    #[inline(always)]
    pub(super) fn is_legal(
        &self,
        s: usize,
        unchecked: &mut impl FnMut(usize, usize) -> bool,
    ) -> Option<(usize, usize)> {
        let mut s = s;
        for (o, slots) in self.options.iter().enumerate() {
            let n = slots.len;
            if s >= n {
                s -= n;
                continue;
            }
            let legal = if slots.pass {
                true
            } else {
                match &slots.sieve {
                    Some(sieve) if slots.uniform => {
                        sieve.contains(s as u32)
                            && match slots.verdict.get() {
                                0 => unchecked(o, s),
                                v => v == 1,
                            }
                    }
                    _ if slots.lazy => unchecked(o, s),
                    _ => self
                        .legal
                        .get(slots.word + s / 64)
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
    pub(super) fn check_slot(
        &self,
        m: &mut Machine,
        options: &[Condact],
        o: usize,
        i: usize,
    ) -> R<Option<(usize, Option<u32>)>> {
        self.check_slot_with(m, options, o, i, Body::default())
    }

    /// [`Plan::check_slot`], with the condition of the option's body
    /// compiled when it is (it computes what the evaluator would), and the
    /// body cut short when it can be.
    #[inline(always)]
    fn check_slot_with(
        &self,
        m: &mut Machine,
        options: &[Condact],
        o: usize,
        i: usize,
        body: Body,
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
        self.check_run(m, options, (o, i), body)
    }

    /// [`Plan::check`] of item `i` of option `o` by running it (out of
    /// line: the slots passed over above cost no call).
    #[inline(never)]
    pub(super) fn check_run(
        &self,
        m: &mut Machine,
        options: &[Condact],
        (o, i): (usize, usize),
        Body {
            cond: compiled,
            cut,
            test,
            own,
        }: Body,
    ) -> R<Option<(usize, Option<u32>)>> {
        let (Some(option), Some(slots)) = (options.get(o), self.options.get(o)) else {
            return Ok(None);
        };
        count_check();
        let mark = m.journal_len();
        m.actions = 0;
        let (r, pick) = match &slots.picker {
            None => match (own, &option.cond) {
                // `check_condact`, its condition compiled.
                (Some(run), Some(_)) => {
                    let r = match run(m) {
                        Ok(true) => m.check_action(&option.action),
                        Ok(false) => Ok(()),
                        Err(t) => Err(Fault::from(t)),
                    };
                    (r.map_err(|f| m.locate(f, option.span)), None)
                }
                _ => (m.check_condact(option), None),
            },
            Some(picker) => {
                let Some((var, whole)) = lone_any(option) else {
                    return Ok(None);
                };
                // The same guard, the same errors, the same answer.
                let body = cut.unwrap_or(whole);
                let item = picker.get(i, m);
                m.set_var(var as usize, item);
                // Past the sieve the guard holds (the sieve is exact); an
                // error of the action is located at the body, as the
                // whole body's check would locate it.
                // The body's action checked, compiled where it is.
                let checked = |m: &mut Machine| match test {
                    Some(run) => run(m).map_err(Fault::from),
                    None => m.check_action(&body.action),
                };
                let r = match slots.sieve {
                    Some(_) => checked(m).map_err(|f| m.locate(f, body.span)),
                    None => match (compiled, &body.cond) {
                        // `check_condact`, its condition compiled.
                        (Some(run), Some(_)) => match run(m) {
                            Ok(true) => checked(m),
                            Ok(false) => Ok(()),
                            Err(t) => Err(Fault::from(t)),
                        }
                        .map_err(|f| m.locate(f, body.span)),
                        _ => m.check_condact(body),
                    },
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
    pub(super) fn uniform_legal(&self, m: &mut Machine, options: &[Condact], o: usize) -> bool {
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
    pub(super) fn uniform_verdicts(
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

    /// Whether slot `i` of option `o`, checked when a draw or a count
    /// needs it, is legal: the verdict of an option checked alike over its
    /// sieve ([`Plan::uniform_legal`]), or the slot of a `lazy` option
    /// checked (whose check cannot fail: an error there would be a bug of
    /// `compile::check_cannot_fail`; the slot would count as no move).
    pub(super) fn unchecked_legal(
        &self,
        m: &mut Machine,
        options: &[Condact],
        o: usize,
        i: usize,
    ) -> bool {
        match self.options.get(o) {
            Some(slots) if slots.lazy => {
                let r = self.check_run(m, options, (o, i), Body::default());
                matches!(r, Ok(Some(_)))
            }
            _ => self.uniform_legal(m, options, o),
        }
    }

    /// How many slots of the `lazy` options are legal: counted the first
    /// time (every slot checked), then kept.
    fn lazy_count(&self, m: &mut Machine, options: &[Condact]) -> usize {
        if let Some(n) = self.lazy_legal.get() {
            return n;
        }
        let mut n = 0;
        for (o, slots) in self.options.iter().enumerate() {
            let (true, Some(Picker::Cards(cards)), Some((var, body))) =
                (slots.lazy, &slots.picker, options.get(o).and_then(lone_any))
            else {
                continue;
            };
            // Checked in the order of the cards' numbers, not of the pile:
            // what a check reads of a card (its attributes, where it lies)
            // is then read in the order it is stored (a shuffled pile of
            // 10^6 cards read in its own order misses the cache at every
            // card). The order does not change the count, and no check
            // fails.
            let mut ids = cards.slice(m.table).to_vec();
            ids.sort_unstable();
            n += ids
                .into_iter()
                .filter(|&id| {
                    count_check();
                    let mark = m.journal_len();
                    m.actions = 0;
                    m.set_var(var as usize, Value::Card(id));
                    let r = m.check_condact(body);
                    m.undo_to(mark);
                    r.is_ok() && m.actions > 0
                })
                .count();
        }
        self.lazy_legal.set(n);
        n
    }

    /// Whether a `lazy` option has a legal slot: their slots checked in
    /// order until one is (or their count, when known).
    pub(super) fn lazy_any(&self, m: &mut Machine, options: &[Condact]) -> bool {
        if !self.lazy {
            return false;
        }
        if let Some(n) = self.lazy_legal.get() {
            return n > 0;
        }
        self.options.iter().enumerate().any(|(o, slots)| {
            slots.lazy && (0..slots.len).any(|i| self.unchecked_legal(m, options, o, i))
        })
    }

    /// Whether every option checked alike over its sieve has its verdict
    /// and no option is `lazy`: a draw then needs no machine.
    pub(super) fn verdicts_known(&self) -> bool {
        !self.lazy
            && self
                .options
                .iter()
                .all(|o| !(o.uniform && o.sieve.is_some()) || o.verdict.get() != 0)
    }

    /// How many slots are legal: the number of legal moves (every legal
    /// move is one slot). An option checked alike over its sieve has all of
    /// them legal or none: one is checked. A `lazy` option's slots are all
    /// checked (the first time).
    pub(super) fn count_legal(&self, m: &mut Machine, options: &[Condact]) -> usize {
        let uniform: usize = (0..self.options.len())
            .filter_map(|o| {
                let slots = &self.options[o];
                let sieve = slots.sieve.as_ref().filter(|_| slots.uniform)?;
                self.uniform_legal(m, options, o)
                    .then(|| (sieve.count() as usize).min(slots.len))
            })
            .sum();
        let lazy = if self.lazy {
            self.lazy_count(m, options)
        } else {
            0
        };
        self.legal_count + uniform + lazy
    }
}

/// Counts a slot run to be checked (in the tests: [`CHECKS`]).
#[inline(always)]
fn count_check() {
    #[cfg(test)]
    CHECKS.with(|c| c.set(c.get() + 1));
}

#[cfg(test)]
thread_local! {
    /// The slots run to be checked on this thread.
    pub(super) static CHECKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
