//! Compiling actions: guards, `do`, `let`, `all`, `any` run for every
//! item, and setting storages. Each gives a closure doing what
//! [`Machine::action`] does for the action, through the same journaled
//! primitives; any other action is handed, whole, to the evaluator.

use super::arith;
use super::cond::bool;
use super::expr::{self, int, storage};
use super::space::SpaceCond;
use super::{Ctx, Run, Thin, CR};
use crate::diagnostic::Span;
use crate::engine::exec::Machine;
use crate::engine::value::Value;
use crate::ir::*;

/// A conditional action: the action runs when its guard holds. Its error
/// is located by whoever runs it, at its place, as [`Machine::condact`]
/// locates it: the action that holds it (see [`child`]), or the stage
/// that runs it as an item (`State::run_on`); no closure is added to
/// locate it.
pub(in crate::engine) fn condact(c: &Condact, cx: &Ctx) -> Run<()> {
    let action = action(&c.action, cx);
    match &c.cond {
        None => action,
        Some(cond) => {
            let cond = bool(cond, cx);
            Box::new(move |m| if cond(m)? { action(m) } else { Ok(()) })
        }
    }
}

/// A conditional action inside another, and where it is.
type Child = (Run<()>, Span);

/// [`condact`] with its place, for the action that runs it with [`run`].
fn child(c: &Condact, cx: &Ctx) -> Child {
    (condact(c, cx), c.span)
}

/// Runs a conditional action inside another: its error located at it.
#[inline(always)]
fn run(c: &Child, m: &mut Machine) -> super::CR<()> {
    located((c.0)(m), m, c.1)
}

/// `r` with its error located at `span` (see `eval::Fault`).
#[inline(always)]
fn located<T>(r: super::CR<T>, m: &Machine, span: Span) -> super::CR<T> {
    match r {
        Ok(x) => Ok(x),
        Err(e) => Err(m.locate(e.into(), span).into()),
    }
}

/// Whether a choice's option turned out not to fit its picks (the
/// evaluator stops a `do` or an `all` there).
#[inline(always)]
fn invalid(m: &Machine) -> bool {
    m.oracle.as_ref().is_some_and(|o| o.invalid)
}

fn walk(a: &Action) -> Run<()> {
    let a = a.clone();
    Box::new(move |m| Ok(m.action(&a)?))
}

/// An action.
pub(super) fn action(a: &Action, cx: &Ctx) -> Run<()> {
    if let Some(run) = let_group(a, cx) {
        return run;
    }
    match a {
        Action::Do(items) => {
            let items: Vec<_> = items.iter().map(|c| child(c, cx)).collect();
            Box::new(move |m| {
                for c in &items {
                    run(c, m)?;
                    if invalid(m) {
                        break;
                    }
                }
                Ok(())
            })
        }
        Action::All {
            over: over @ CollectionExpr::Var(v, _),
            var,
            body,
        } => match body
            .cond
            .as_ref()
            .and_then(|c| Some((c, SpaceCond::of(c, *var, cx)?)))
        {
            // `(all SPACES 'X (GUARD ACTION))`: the guard tested without
            // binding each space; the spaces read where they lie.
            Some((cond, guard)) => {
                let (v, var, action) = (*v, *var as usize, self::action(&body.action, cx));
                // The body's guard and action run apart: an error is
                // located at the body, as its conditional action would be.
                let at = body.span;
                let cond = bool(cond, cx);
                let generic = each(over, var, child(body, cx), true, cx);
                Box::new(move |m| {
                    let (n, mut loaded) = match (m.var(v), guard.load(m)) {
                        (Value::Spaces(spaces), Some(loaded)) => (spaces.len(), Some(loaded)),
                        _ => return generic(m),
                    };
                    m.charge(n)?;
                    // A group a `let` found as a bit set (see `Regions`)
                    // and a guard that starts with its row, column or
                    // index: only the spaces of the group that pass those
                    // are tested, in order (the others fail the guard).
                    if let (Some(g), Some(l)) = (m.regions.get(v as usize).copied(), &loaded) {
                        if let Some(lead) = guard.place_sieve(m, l, g.first) {
                            let mut cand = g.bits.and(&lead);
                            let mut from = 0;
                            while let Some(k) = cand.least_from(from) {
                                from = k + 1;
                                let s = g.first + k;
                                let step = (&guard, &cond, &action, var);
                                match located(guarded(m, step, &mut loaded, s), m, at)? {
                                    None => break,
                                    Some(false) => {}
                                    // The action ran: what the guard reads may
                                    // have changed, so its sieve too.
                                    Some(true) => {
                                        cand = match &loaded {
                                            Some(l) => match guard.place_sieve(m, l, g.first) {
                                                Some(lead) => g.bits.and(&lead),
                                                None => g.bits,
                                            },
                                            None => g.bits,
                                        }
                                    }
                                }
                            }
                            return Ok(());
                        }
                    }
                    for i in 0..n {
                        let Value::Spaces(spaces) = m.var(v) else {
                            break;
                        };
                        let Some(&s) = spaces.get(i) else {
                            break;
                        };
                        let step = (&guard, &cond, &action, var);
                        if located(guarded(m, step, &mut loaded, s), m, at)?.is_none() {
                            break;
                        }
                    }
                    Ok(())
                })
            }
            None => each(over, *var as usize, child(body, cx), true, cx),
        },
        Action::All { over, var, body } => each(over, *var as usize, child(body, cx), true, cx),
        Action::Any { over, var, body } => {
            // Outside a choice `any` runs for every item; inside one (an
            // oracle picks the item) it is the evaluator's.
            let every = each(over, *var as usize, child(body, cx), false, cx);
            let whole = a.clone();
            Box::new(move |m| {
                if m.oracle.is_some() {
                    Ok(m.action(&whole)?)
                } else {
                    every(m)
                }
            })
        }
        // Integers, conditions and spaces are bound without going through
        // a `Value` result.
        Action::Let { value, var, body } => {
            let (var, body) = (*var as usize, child(body, cx));
            match value {
                ValueExpr::Int(e) => bind(int(e, cx), var, body, Value::Int),
                ValueExpr::Bool(e) => bind(bool(e, cx), var, body, Value::Bool),
                ValueExpr::Space(e) => bind(expr::space(e, cx), var, body, |s| {
                    s.map_or_else(|| Value::Unset, Value::Space)
                }),
                ValueExpr::Cards(CardsExpr::Filter(src, fvar, cond)) => {
                    // The evaluator's filter, its cards pushed into the
                    // list the variable held last time (no allocation once
                    // it is large enough).
                    let (src, fvar, cond) = ((**src).clone(), *fvar, (**cond).clone());
                    Box::new(move |m| {
                        let mut out = match std::mem::take(&mut m.vars[var]) {
                            Value::Cards(mut v) => {
                                v.clear();
                                v
                            }
                            _ => Vec::new(),
                        };
                        m.filter_cards(&src, fvar, &cond, |id| out.push(id))?;
                        m.set_var(var, Value::Cards(out));
                        run(&body, m)
                    })
                }
                v => bind(expr::value(v, cx), var, body, |v| v),
            }
        }
        Action::SetInt(s, v) | Action::IncInt(s, v) | Action::DecInt(s, v) => match a {
            Action::IncInt(..) => store_int::<INC>(s, v, cx),
            Action::DecInt(..) => store_int::<DEC>(s, v, cx),
            _ => store_int::<SET>(s, v, cx),
        }
        .unwrap_or_else(|| walk(a)),
        Action::Move {
            from,
            to: CardExpr::At(pos @ (Pos::Top | Pos::Bottom), dst),
        } if matches!(&**dst, CardsExpr::Location(_))
            && matches!(
                from,
                CardExpr::Var(_) | CardExpr::LastMoved | CardExpr::At(Pos::Top, _)
            ) =>
        {
            // `(move CARD (top LOC))`, CARD a card variable, `(last moved)`
            // or `(top LOC2)`: the card found first, then the location's
            // slot, as the evaluator finds them; the move itself is the
            // machine's.
            let CardsExpr::Location(dst) = &**dst else {
                return walk(a);
            };
            let (src, dst, pos) = (expr::card(from, cx), expr::location(dst, cx), pos.clone());
            Box::new(move |m| {
                let card = src(m)?;
                let dest = dst(m)?;
                match card {
                    Some(card) => Ok(m.move_card(card.id, dest, &pos)?),
                    None => Ok(()),
                }
            })
        }
        Action::Repeat { count, body } => {
            // `(repeat N ACTION)`: the count checked and charged as the
            // evaluator does, then the body N times (no location added:
            // the evaluator runs the body as a bare action).
            let (count, body) = (int(count, cx), action(body, cx));
            Box::new(move |m| {
                let n = count(m)?;
                if n > 1_000_000 {
                    return Err(format!("`repeat {n}` is too many repetitions").into());
                }
                m.charge(n.max(0) as usize)?;
                for _ in 0..n.max(0) {
                    body(m)?;
                }
                Ok(())
            })
        }
        Action::CycleNext(p) | Action::CycleCurrent(p) => {
            let (who, next) = (expr::player(p, cx), matches!(a, Action::CycleNext(_)));
            Box::new(move |m| {
                m.actions += 1;
                let who = who(m)?;
                m.cycle_to(who, next);
                Ok(())
            })
        }
        Action::SetPoints(p, awards) => {
            super::points::set_points(p, awards, cx.attr_keys).unwrap_or_else(|| walk(a))
        }
        Action::Announce(parts) => {
            // Nothing unless the table keeps announcements (see
            // `Machine::announce`), so no closure per part.
            let parts = parts.clone();
            Box::new(move |m| {
                m.announce(&parts);
                Ok(())
            })
        }
        Action::SetStr(s, v) => {
            let Some(slot) = storage(&s.owner, &s.name, cx.str_count, cx) else {
                return walk(a);
            };
            let v = expr::str(v, cx);
            Box::new(move |m| {
                m.actions += 1;
                let v = v(m)?;
                let i = slot(m)?;
                m.store_str(i, v);
                Ok(())
            })
        }
        _ => walk(a),
    }
}

/// What `set`, `inc` and `dec` of an integer storage do with the value.
const SET: u8 = 0;
const INC: u8 = 1;
const DEC: u8 = 2;

/// `(set S V)`, `(inc S V)` or `(dec S V)` (`STEP`) of the integer
/// storage `s`: the value, then the storage's slot, as the evaluator reads
/// them; a storage of the game is a slot known now. `None` for a storage
/// whose name is not fixed.
fn store_int<const STEP: u8>(s: &IntStorage, v: &IntExpr, cx: &Ctx) -> Option<Run<()>> {
    store_int_as::<STEP, true>(s, v, cx)
}

/// [`store_int`] without the write when `WRITE` is false: it counts,
/// reads the value and the slot and finds the new value (an overflow is
/// the same error), and leaves the table as it was. What a check runs for
/// a `set` that nothing after it reads (`check.rs`).
pub(super) fn store_int_dry(a: &Action, cx: &Ctx) -> Option<Run<()>> {
    match a {
        Action::SetInt(s, v) => store_int_as::<SET, false>(s, v, cx),
        Action::IncInt(s, v) => store_int_as::<INC, false>(s, v, cx),
        Action::DecInt(s, v) => store_int_as::<DEC, false>(s, v, cx),
        _ => None,
    }
}

/// [`store_int`], writing the new value when `WRITE`.
fn store_int_as<const STEP: u8, const WRITE: bool>(
    s: &IntStorage,
    v: &IntExpr,
    cx: &Ctx,
) -> Option<Run<()>> {
    /// The new value (overflow a rules error, as the evaluator's).
    #[inline(always)]
    fn step<const STEP: u8>(old: i64, v: i64) -> CR<i64> {
        let new = match STEP {
            INC => old.checked_add(v),
            DEC => old.checked_sub(v),
            _ => Some(v),
        };
        match new {
            Some(new) => Ok(new),
            None => Err(overflow::<STEP>(old, v)),
        }
    }
    #[cold]
    #[inline(never)]
    fn overflow<const STEP: u8>(old: i64, v: i64) -> Thin {
        let op = if STEP == INC { IntOp::Add } else { IntOp::Sub };
        crate::engine::eval::overflow(op, old, v).into()
    }
    let v = arith::Opnd::of(v, cx);
    if let (OwnerExpr::Game, NameRef::Fixed(id)) = (&s.owner, &s.name) {
        let i = *id as usize;
        return Some(Box::new(move |m| {
            m.actions += 1;
            let v = v.get(m)?;
            let new = step::<STEP>(m.table.ints[i], v)?;
            if WRITE {
                m.store_int(i, new);
            }
            Ok(())
        }));
    }
    let slot = storage(&s.owner, &s.name, cx.int_count, cx)?;
    Some(Box::new(move |m| {
        m.actions += 1;
        let v = v.get(m)?;
        let i = slot(m)?;
        let new = step::<STEP>(m.table.ints[i], v)?;
        if WRITE {
            m.store_int(i, new);
        }
        Ok(())
    }))
}

/// One space `s` of `(all SPACES 'X (GUARD ACTION))` (the guard, its
/// condition for the evaluator, the action, the slot of 'X): the guard
/// tested from its `loaded` leaves (by the evaluator when they could not
/// be read), and on a hit the space bound and the action run, then the
/// leaves read anew (the action may have changed what the guard reads: a
/// storage of the game, a card moved). Whether the action ran; `None`
/// when the loop stops there (a choice's option stopped fitting its
/// picks).
#[inline(always)]
fn guarded(
    m: &mut Machine,
    (guard, cond, action, var): (&SpaceCond, &Run<bool>, &Run<()>, usize),
    loaded: &mut Option<crate::engine::compile::Loaded>,
    s: u32,
) -> super::CR<Option<bool>> {
    let hit = match loaded {
        Some(l) => guard.holds(m, l, s),
        None => {
            m.set_var(var, Value::Space(s));
            cond(m)?
        }
    };
    if !hit {
        return Ok(Some(false));
    }
    m.set_var(var, Value::Space(s));
    action(m)?;
    if invalid(m) {
        return Ok(None);
    }
    *loaded = guard.load(m);
    Ok(Some(true))
}

/// `let`: the value, made a [`Value`] by `wrap`, bound to slot `var`, then
/// the body.
fn bind<T: 'static>(
    value: Run<T>,
    var: usize,
    body: Child,
    wrap: impl Fn(T) -> Value + Send + Sync + 'static,
) -> Run<()> {
    Box::new(move |m| {
        let v = value(m)?;
        m.set_var(var, wrap(v));
        run(&body, m)
    })
}

/// `(let (group FROM 'V COND) 'G BODY)` with a condition of
/// [`SpaceCond`]'s shape: the group found testing it without binding each
/// space.
fn let_group(a: &Action, cx: &Ctx) -> Option<Run<()>> {
    let Action::Let {
        value:
            value @ ValueExpr::Collection(CollectionExpr::Group {
                from,
                var: gv,
                cond,
                dirs,
            }),
        var,
        body,
    } = a
    else {
        return None;
    };
    let test = SpaceCond::of(cond, *gv, cx)?;
    let (from, whole, dirs) = (expr::space(from, cx), value.clone(), dirs.clone());
    let (var, body) = (*var as usize, child(body, cx));
    Some(Box::new(move |m| {
        // The group's bit set is recorded for the variable when it was
        // found as one (see `Regions`), else forgotten.
        let (group, region) = match (from(m)?, test.load(m)) {
            (None, _) => (Value::Spaces(Vec::new()), None),
            (Some(start), Some(loaded)) => {
                // The vector the variable held last time serves again.
                let mut out = match std::mem::take(&mut m.vars[var]) {
                    Value::Spaces(v) => v,
                    _ => Vec::new(),
                };
                let region = match m.group_spread(dirs.as_ref(), start) {
                    Ok(spread) => m.group_into(&test, &loaded, (start, spread), &mut out),
                    Err(e) => Err(e),
                };
                let region = match region {
                    Ok(region) => region,
                    Err(e) => {
                        m.regions.set(var, None);
                        return Err(e.into());
                    }
                };
                (Value::Spaces(out), region)
            }
            (Some(_), None) => {
                m.regions.set(var, None);
                (m.value(&whole)?, None)
            }
        };
        m.regions.set(var, region);
        m.set_var(var, group);
        run(&body, m)
    }))
}

/// The body once per item of `over`, with `var` bound to the item; with
/// `stop`, the loop ends where a choice's option stops fitting its picks
/// (as `all` does, not `any`).
fn each(over: &CollectionExpr, var: usize, body: Child, stop: bool, cx: &Ctx) -> Run<()> {
    match over {
        CollectionExpr::Strings(syms) => {
            let syms = syms.clone();
            Box::new(move |m| {
                for &s in &syms {
                    m.set_var(var, Value::Str(s));
                    run(&body, m)?;
                    if stop && invalid(m) {
                        break;
                    }
                }
                Ok(())
            })
        }
        CollectionExpr::Range(a, b) => {
            // The integers from A to B, as the evaluator lists them when
            // the loop starts (the same error for too large a range).
            let (a, b) = (int(a, cx), int(b, cx));
            Box::new(move |m| {
                let (a, b) = (a(m)?, b(m)?);
                let n = crate::engine::eval::range_len(a, b)?;
                m.charge(n)?;
                for k in a..=b {
                    m.set_var(var, Value::Int(k));
                    run(&body, m)?;
                    if stop && invalid(m) {
                        break;
                    }
                }
                Ok(())
            })
        }
        CollectionExpr::AllPlayers | CollectionExpr::OtherPlayers => {
            // The seats, as the evaluator lists them when the loop starts
            // (seat order; `other` leaves out the current player).
            let other = matches!(over, CollectionExpr::OtherPlayers);
            Box::new(move |m| {
                let (n, cur) = (m.table.players, m.table.current_player());
                for p in 0..n {
                    if other && p == cur {
                        continue;
                    }
                    m.set_var(var, Value::Player(p as u8));
                    run(&body, m)?;
                    if stop && invalid(m) {
                        break;
                    }
                }
                Ok(())
            })
        }
        CollectionExpr::Var(v, _) => {
            // Spaces held in a variable are read where they lie (the body
            // cannot bind that variable: every binding has its own slot).
            let (v, over) = (*v, over.clone());
            Box::new(move |m| {
                let n = match m.var(v) {
                    Value::Spaces(spaces) => spaces.len(),
                    _ => return each_item(m, &over, var, &body, stop),
                };
                m.charge(n)?;
                for i in 0..n {
                    let Value::Spaces(spaces) = m.var(v) else {
                        break;
                    };
                    let Some(&s) = spaces.get(i) else {
                        break;
                    };
                    m.set_var(var, Value::Space(s));
                    run(&body, m)?;
                    if stop && invalid(m) {
                        break;
                    }
                }
                Ok(())
            })
        }
        CollectionExpr::Line {
            from,
            dir,
            var: lv,
            cond,
        } => {
            // The spaces of the line found first (the body may change what
            // its condition reads), charged, then the body run for each.
            let line = super::walk::Line::new(from, dir, *lv, cond, cx);
            Box::new(move |m| {
                let mut spaces = super::walk::Spaces::default();
                line.walk(m, |s| spaces.push(s))?;
                m.charge(spaces.len())?;
                for i in 0..spaces.len() {
                    m.set_var(var, Value::Space(spaces.get(i)));
                    run(&body, m)?;
                    if stop && invalid(m) {
                        break;
                    }
                }
                Ok(())
            })
        }
        _ => {
            let over = over.clone();
            Box::new(move |m| each_item(m, &over, var, &body, stop))
        }
    }
}

/// [`each`] over the items of any collection, listed first.
fn each_item(
    m: &mut Machine,
    over: &CollectionExpr,
    var: usize,
    body: &Child,
    stop: bool,
) -> super::CR<()> {
    let items = m.items(over)?;
    for i in 0..items.len() {
        m.set_var(var, items.get(i));
        run(body, m)?;
        if stop && invalid(m) {
            break;
        }
    }
    Ok(())
}
