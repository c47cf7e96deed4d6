//! Compiling conditions: `and`, `or`, `not`, the comparisons (two leaves
//! read in one closure), spaces compared or on the board, and `any`/`all`
//! over a `group`, the spaces held in a variable or of a board, the
//! players, a list of strings or the cards of a location (`any` over a
//! board's spaces with an `and` whose first part the index answers tries
//! only the spaces where that part holds), and `let`. As everywhere in
//! [`super`], a shape without a closure of its own is handed to the
//! evaluator.

use super::arith::{compare, compare_runs, EQ, GE, GT, LE, LT, NE};
use super::expr::{int, location, space, str, value, walk_bool};
use super::leaf::{IntLeaf, StrLeaf};
use super::space::SpaceCond;
use super::{Ctx, Run};
use crate::engine::value::Value;
use crate::ir::*;

/// A condition.
pub(super) fn bool(e: &BoolExpr, cx: &Ctx) -> Run<bool> {
    if let Some(fused) = leaf_comparison(e, cx) {
        return fused;
    }
    match e {
        BoolExpr::And(xs) => {
            let xs: Vec<_> = xs.iter().map(|x| bool(x, cx)).collect();
            Box::new(move |m| {
                for x in &xs {
                    if !x(m)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            })
        }
        BoolExpr::Or(xs) => {
            let xs: Vec<_> = xs.iter().map(|x| bool(x, cx)).collect();
            Box::new(move |m| {
                for x in &xs {
                    if x(m)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            })
        }
        BoolExpr::Var(v) => {
            let (v, e) = (*v, e.clone());
            Box::new(move |m| match m.var(v) {
                Value::Bool(b) => Ok(*b),
                _ => Ok(m.bool(&e)?),
            })
        }
        BoolExpr::Not(x) => {
            let x = bool(x, cx);
            Box::new(move |m| Ok(!x(m)?))
        }
        BoolExpr::Int(op, a, b) => {
            let b = match b {
                IntExpr::Lit(k) => Err(*k),
                b => Ok(int(b, cx)),
            };
            let a = int(a, cx);
            match op {
                CmpOp::Lt => compare_runs::<LT>(a, b),
                CmpOp::Le => compare_runs::<LE>(a, b),
                CmpOp::Gt => compare_runs::<GT>(a, b),
                CmpOp::Ge => compare_runs::<GE>(a, b),
                CmpOp::Eq => compare_runs::<EQ>(a, b),
                CmpOp::Ne => compare_runs::<NE>(a, b),
            }
        }
        BoolExpr::Str { eq, left, right } => {
            let (eq, l, r) = (*eq, str(left, cx), str(right, cx));
            Box::new(move |m| {
                let l = l(m)?;
                Ok((l == r(m)?) == eq)
            })
        }
        BoolExpr::Space { eq, left, right } => {
            let (eq, l, r) = (*eq, space(left, cx), space(right, cx));
            Box::new(move |m| {
                let l = l(m)?;
                Ok((l == r(m)?) == eq)
            })
        }
        BoolExpr::OnBoard(SpaceExpr::Var(v)) => {
            let (v, e) = (*v, e.clone());
            Box::new(move |m| match m.var(v) {
                Value::Space(_) => Ok(true),
                Value::Unset => Ok(false),
                _ => Ok(m.bool(&e)?),
            })
        }
        BoolExpr::OnBoard(s) => {
            let s = space(s, cx);
            Box::new(move |m| Ok(s(m)?.is_some()))
        }
        BoolExpr::Any { over, var, body } => quantify(e, over, *var, body, true, cx),
        BoolExpr::All { over, var, body } => quantify(e, over, *var, body, false, cx),
        BoolExpr::Let {
            value: v,
            var,
            body,
        } if matches!(**v, ValueExpr::Space(_)) => {
            // A space (`neighbour`, `after`), bound with no closure of its
            // own around it: what `value` gives, a space or unset.
            let ValueExpr::Space(s) = &**v else {
                return walk_bool(e);
            };
            let (s, var, body) = (space(s, cx), *var as usize, bool(body, cx));
            Box::new(move |m| {
                let v = s(m)?.map_or(Value::Unset, Value::Space);
                m.set_var(var, v);
                body(m)
            })
        }
        BoolExpr::Let {
            value: v,
            var,
            body,
        } => {
            let (v, var, body) = (value(v, cx), *var as usize, bool(body, cx));
            Box::new(move |m| {
                let v = v(m)?;
                m.set_var(var, v);
                body(m)
            })
        }
        _ => walk_bool(e),
    }
}

/// A comparison of two leaves, in one closure that reads both.
fn leaf_comparison(e: &BoolExpr, cx: &Ctx) -> Option<Run<bool>> {
    let whole = e.clone();
    Some(match e {
        BoolExpr::Int(op, a, b) => {
            let (a, b) = (IntLeaf::of(a, cx)?, IntLeaf::of(b, cx)?);
            match op {
                CmpOp::Lt => compare::<LT>(a, b, whole),
                CmpOp::Le => compare::<LE>(a, b, whole),
                CmpOp::Gt => compare::<GT>(a, b, whole),
                CmpOp::Ge => compare::<GE>(a, b, whole),
                CmpOp::Eq => compare::<EQ>(a, b, whole),
                CmpOp::Ne => compare::<NE>(a, b, whole),
            }
        }
        BoolExpr::Str { eq, left, right } => {
            let (eq, l, r) = (*eq, StrLeaf::of(left, cx)?, StrLeaf::of(right, cx)?);
            Box::new(move |m| match (l.read(m), r.read(m)) {
                (Some(l), Some(r)) => Ok((l == r) == eq),
                _ => Ok(m.bool(&whole)?),
            })
        }
        _ => return None,
    })
}

/// `any` (`some`) or `all` in a condition: over a `group`, searched only
/// as far as needed, or over the spaces held in a variable; any other
/// collection (and the membership test `(any SPACES 'X (== 'X S))`, which
/// the evaluator answers without a loop) goes to the evaluator.
fn quantify(
    whole: &BoolExpr,
    over: &CollectionExpr,
    var: VarId,
    body: &BoolExpr,
    some: bool,
    cx: &Ctx,
) -> Run<bool> {
    match over {
        CollectionExpr::Group {
            from,
            var: gv,
            cond: gcond,
            dirs,
        } => {
            let (fast_cond, fast_body) =
                (SpaceCond::of(gcond, *gv, cx), SpaceCond::of(body, var, cx));
            let (from, gv, cond, body) = (space(from, cx), *gv, bool(gcond, cx), bool(body, cx));
            let dirs = dirs.clone();
            Box::new(move |m| {
                let Some(start) = from(m)? else {
                    return Ok(!some);
                };
                let spread = m.group_spread(dirs.as_ref(), start)?;
                let c = fast_cond.as_ref().and_then(|c| Some((c, c.load(m)?)));
                let b = fast_body.as_ref().and_then(|b| Some((b, b.load(m)?)));
                if let (Some((c, cl)), Some((b, bl))) = (&c, &b) {
                    let at = (start, spread);
                    if let Some(answer) = m.group_reaches((c, cl), (b, bl), at, some)? {
                        return Ok(answer);
                    }
                }
                let decided = m.flood_until(start, spread, |m, s| {
                    let kept = match &c {
                        Some((c, loaded)) => c.holds(m, loaded, s),
                        None => {
                            m.set_var(gv as usize, Value::Space(s));
                            cond(m)?
                        }
                    };
                    if !kept {
                        return Ok((false, false));
                    }
                    let hit = match &b {
                        Some((b, loaded)) => b.holds(m, loaded, s),
                        None => {
                            m.set_var(var as usize, Value::Space(s));
                            body(m)?
                        }
                    };
                    Ok((true, hit == some))
                })?;
                Ok(if decided { some } else { !some })
            })
        }
        CollectionExpr::Var(v, _) if is_membership(var, body) => {
            // `(any SPACES 'X (== 'X 'Y))`: the evaluator's scan, when the
            // collection holds spaces and 'Y a space or none.
            let other = match body {
                BoolExpr::Space { left, right, .. } => match (left, right) {
                    (SpaceExpr::Var(x), SpaceExpr::Var(y))
                    | (SpaceExpr::Var(y), SpaceExpr::Var(x))
                        if *x == var && *y != var =>
                    {
                        Some(*y)
                    }
                    _ => None,
                },
                _ => None,
            };
            let Some(y) = other else {
                return walk_bool(whole);
            };
            let (v, whole) = (*v, whole.clone());
            Box::new(move |m| {
                let target = match m.var(y) {
                    Value::Space(t) => Some(*t),
                    Value::Unset => None,
                    _ => return Ok(m.bool(&whole)?),
                };
                // A group a `let` found as a bit set: one bit.
                if some {
                    if let Some(g) = m.regions.get(v as usize) {
                        return Ok(target.is_some_and(|t| g.bits.contains(t.wrapping_sub(g.first))));
                    }
                }
                let Value::Spaces(spaces) = m.var(v) else {
                    return Ok(m.bool(&whole)?);
                };
                Ok(if some {
                    spaces.iter().any(|&s| Some(s) == target)
                } else {
                    spaces.iter().all(|&s| Some(s) == target)
                })
            })
        }
        CollectionExpr::Var(v, _) if !is_membership(var, body) => {
            let fast = SpaceCond::of(body, var, cx);
            let (v, body, whole) = (*v, bool(body, cx), whole.clone());
            Box::new(move |m| {
                let Value::Spaces(spaces) = m.var(v) else {
                    return Ok(m.bool(&whole)?);
                };
                let n = spaces.len();
                m.charge(n)?;
                let Value::Spaces(spaces) = m.var(v) else {
                    return Ok(!some);
                };
                if let Some((f, loaded)) = fast.as_ref().and_then(|f| Some((f, f.load(m)?))) {
                    let hit = |s: &u32| f.holds(m, &loaded, *s) == some;
                    return Ok(if spaces.iter().any(hit) { some } else { !some });
                }
                let n = spaces.len();
                for i in 0..n {
                    let Value::Spaces(spaces) = m.var(v) else {
                        break;
                    };
                    let Some(&s) = spaces.get(i) else {
                        break;
                    };
                    m.set_var(var as usize, Value::Space(s));
                    if body(m)? == some {
                        return Ok(some);
                    }
                }
                Ok(!some)
            })
        }
        CollectionExpr::AllPlayers | CollectionExpr::OtherPlayers => {
            // The evaluator's picker: every seat charged, the current one
            // skipped by `(other player)`.
            let others = matches!(over, CollectionExpr::OtherPlayers);
            if let Some(fast) = super::seats::sizes(var, body, some, others, cx) {
                return fast;
            }
            let body = bool(body, cx);
            Box::new(move |m| {
                for p in super::seats::seats(m, others)? {
                    m.set_var(var as usize, Value::Player(p as u8));
                    if body(m)? == some {
                        return Ok(some);
                    }
                }
                Ok(!some)
            })
        }
        CollectionExpr::Strings(list) => {
            // The evaluator copies the list to its items and charges them.
            let (list, body) = (list.clone(), bool(body, cx));
            Box::new(move |m| {
                m.charge(list.len())?;
                for &s in &list {
                    m.set_var(var as usize, Value::Str(s));
                    if body(m)? == some {
                        return Ok(some);
                    }
                }
                Ok(!some)
            })
        }
        CollectionExpr::Spaces(b) => {
            // Every space of a board, charged, as the evaluator's picker.
            // `(any (spaces BOARD) 'V (and GUARD REST ...))` with a GUARD the
            // index of what lies on the spaces answers (a space condition
            // cannot fail, draws nothing): only the spaces where it holds
            // are tested, with the rest of the `and`, in the same order.
            let sieved = match body {
                BoolExpr::And(xs) if some && xs.len() >= 2 => SpaceCond::of(&xs[0], var, cx)
                    .map(|guard| (guard, bool(&BoolExpr::And(xs[1..].to_vec()), cx))),
                _ => None,
            };
            let (b, body) = (*b as usize, bool(body, cx));
            Box::new(move |m| {
                let board = m.table.boards.boards.get(b).ok_or("no such board")?;
                let (first, len) = (board.first, board.len());
                m.charge(len as usize)?;
                if let Some((guard, rest)) = &sieved {
                    let mask = guard.load(m).and_then(|l| guard.mask_of(m, &l, first));
                    if let Some((at, bits)) = mask.filter(|(at, _)| *at == first) {
                        let mut k = 0;
                        while let Some(i) = bits.least_from(k) {
                            m.set_var(var as usize, Value::Space(at + i));
                            if rest(m)? {
                                return Ok(true);
                            }
                            k = i + 1;
                        }
                        return Ok(false);
                    }
                }
                for s in first..first + len {
                    m.set_var(var as usize, Value::Space(s));
                    if body(m)? == some {
                        return Ok(some);
                    }
                }
                Ok(!some)
            })
        }
        CollectionExpr::Cards(CardsExpr::Location(l)) => {
            // The cards of a location, read where they lie, as the
            // evaluator reads them.
            let (l, body) = (location(l, cx), bool(body, cx));
            Box::new(move |m| {
                let slot = l(m)? as usize;
                let len = m.table.locs.get(slot).map_or(0, Vec::len);
                m.charge(len)?;
                for i in 0..len {
                    let Some(&id) = m.table.locs.get(slot).and_then(|v| v.get(i)) else {
                        break;
                    };
                    m.set_var(var as usize, Value::Card(id));
                    if body(m)? == some {
                        return Ok(some);
                    }
                }
                Ok(!some)
            })
        }
        _ => walk_bool(whole),
    }
}

/// `(== 'X S)` or `(== S 'X)` on spaces, with `'X` the item variable.
fn is_membership(var: VarId, body: &BoolExpr) -> bool {
    matches!(body, BoolExpr::Space { eq: true, left, right }
        if matches!(left, SpaceExpr::Var(x) if *x == var)
            || matches!(right, SpaceExpr::Var(x) if *x == var))
}
