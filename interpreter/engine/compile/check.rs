//! The check of an option's `any` body compiled: what
//! `Machine::check_action` does for the body's action (without a move's
//! log), so that a sampler's check of a slot (`engine/sample/check.rs`)
//! runs closures rather than the evaluator. A `do` runs its items but the
//! last, which is checked; a `let` binds and checks its body; a `set`,
//! `inc` or `dec` counts and evaluates its value and storage without
//! writing; a `turn pass` counts; any other action runs, compiled
//! (`action::condact` does what `Machine::action` does) or, for a `move`,
//! handed to the evaluator's check.

use super::action;
use super::cond::bool;
use super::expr::{int, storage, str, value};
use super::{Ctx, Run, CR};
use crate::diagnostic::Span;
use crate::engine::exec::Machine;
use crate::ir::{
    Action, Condact, IntExpr, IntStorage, NameRef, OwnerExpr, PlayerExpr, SpaceExpr, StrExpr,
    StrStorage,
};

/// `check_action(a)` compiled: with a log (a move's text) the evaluator
/// checks it, as it logs what it checks.
pub(super) fn check(a: &Action, cx: &Ctx) -> Run<()> {
    let run = action_check(a, cx);
    let whole = a.clone();
    Box::new(move |m| {
        if m.log.is_some() {
            return Ok(m.check_action(&whole)?);
        }
        run(m)
    })
}

/// `check_condact(c)`: its guard, then its action checked, an error
/// located at `c`.
fn condact_check(c: &Condact, cx: &Ctx) -> (Run<()>, Span) {
    let a = action_check(&c.action, cx);
    let run: Run<()> = match &c.cond {
        None => a,
        Some(g) => {
            let g = bool(g, cx);
            Box::new(move |m| if g(m)? { a(m) } else { Ok(()) })
        }
    };
    (run, c.span)
}

/// Runs `c` with its error located at its place.
#[inline(always)]
fn located(c: &(Run<()>, Span), m: &mut Machine) -> CR<()> {
    match (c.0)(m) {
        Ok(()) => Ok(()),
        Err(e) => Err(m.locate(e.into(), c.1).into()),
    }
}

fn action_check(a: &Action, cx: &Ctx) -> Run<()> {
    match a {
        Action::Do(items) => {
            let Some((last, rest)) = items.split_last() else {
                return Box::new(|_| Ok(()));
            };
            // The items before the last run as `Machine::condact` runs
            // them (located at themselves); a store that nothing after it
            // reads is only checked (see [`unread`]).
            let rest: Vec<_> = rest
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    let dry = unread(c, &items[k + 1..])
                        .then(|| action::store_int_dry(&c.action, cx))
                        .flatten();
                    (dry.unwrap_or_else(|| action::condact(c, cx)), c.span)
                })
                .collect();
            let last = condact_check(last, cx);
            Box::new(move |m| {
                for c in &rest {
                    located(c, m)?;
                }
                located(&last, m)
            })
        }
        Action::Let {
            value: v,
            var,
            body,
        } => {
            let (v, var, body) = (value(v, cx), *var as usize, condact_check(body, cx));
            Box::new(move |m| {
                let v = v(m)?;
                m.set_var(var, v);
                located(&body, m)
            })
        }
        Action::Afterwards { body, .. } => {
            let body = condact_check(body, cx);
            Box::new(move |m| located(&body, m))
        }
        Action::Move { .. } => {
            let a = a.clone();
            Box::new(move |m| Ok(m.check_action(&a)?))
        }
        Action::SetInt(s, v) | Action::IncInt(s, v) | Action::DecInt(s, v) => {
            let slot = storage(&s.owner, &s.name, cx.int_count, cx);
            store_check(int(v, cx), slot, s.clone(), |m, s| m.int_slot(s))
        }
        Action::SetStr(s, v) => {
            let slot = storage(&s.owner, &s.name, cx.str_count, cx);
            store_check(str(v, cx), slot, s.clone(), |m, s| m.str_slot(s))
        }
        Action::TurnPass => Box::new(|m| {
            m.actions += 1;
            Ok(())
        }),
        other => action::action(other, cx),
    }
}

/// Whether `c`, an item of a checked `do` before its last, is a `set`,
/// `inc` or `dec` of an integer storage of a fixed name, without a guard,
/// that none of the `later` items can read: each of them is a `set`,
/// `inc` or `dec` without a guard of a storage of a fixed name (another
/// name, for an integer storage) of the game, the current player or a
/// space in a variable, to a literal, a variable or such a storage, or a
/// `turn pass`. Nothing runs in the check after the `do`'s items (the
/// slot's changes are then taken back), so the store's write cannot change
/// the check's answer or its error: it is checked (counted, its value, its
/// slot and its new value found, an overflow the same error) and not done.
/// The change it would have journaled is not counted towards the limit on
/// kept changes, as a left-out item's work is not counted (`trim.rs`).
fn unread(c: &Condact, later: &[Condact]) -> bool {
    let (None, Action::SetInt(s, _) | Action::IncInt(s, _) | Action::DecInt(s, _)) =
        (&c.cond, &c.action)
    else {
        return false;
    };
    let NameRef::Fixed(id) = s.name else {
        return false;
    };
    let owner = |o: &OwnerExpr| {
        matches!(
            o,
            OwnerExpr::Game
                | OwnerExpr::Player(PlayerExpr::Current)
                | OwnerExpr::Space(SpaceExpr::Var(_))
        )
    };
    let int_slot =
        |s: &IntStorage| owner(&s.owner) && matches!(s.name, NameRef::Fixed(n) if n != id);
    let str_slot = |s: &StrStorage| owner(&s.owner) && matches!(s.name, NameRef::Fixed(_));
    later.iter().all(|l| {
        l.cond.is_none()
            && match &l.action {
                Action::SetInt(t, v) | Action::IncInt(t, v) | Action::DecInt(t, v) => {
                    int_slot(t)
                        && match v {
                            IntExpr::Lit(_) | IntExpr::Var(_) => true,
                            IntExpr::Storage(r) => int_slot(r),
                            _ => false,
                        }
                }
                Action::SetStr(t, v) => {
                    str_slot(t)
                        && match v {
                            StrExpr::Lit(_) | StrExpr::Var(_) => true,
                            StrExpr::Storage(r) => str_slot(r),
                            _ => false,
                        }
                }
                Action::TurnPass => true,
                _ => false,
            }
    })
}

/// The check of a store that is not done: it counts, evaluates its value
/// and finds its slot (compiled where the name is fixed, else by `find`),
/// so that it fails where the store would, and writes nothing.
fn store_check<T: 'static, S: Send + Sync + 'static>(
    v: Run<T>,
    slot: Option<Run<usize>>,
    s: S,
    find: impl for<'m, 't> Fn(&'m mut Machine<'t>, &S) -> crate::engine::eval::R<usize>
        + Send
        + Sync
        + 'static,
) -> Run<()> {
    match slot {
        Some(slot) => Box::new(move |m| {
            m.actions += 1;
            v(m)?;
            slot(m)?;
            Ok(())
        }),
        None => Box::new(move |m| {
            m.actions += 1;
            v(m)?;
            find(m, &s)?;
            Ok(())
        }),
    }
}
