//! Compiling expressions: integers, strings, spaces, cards, owners and
//! locations (conditions are in `cond.rs`). Each function gives a closure computing what
//! [`Machine`](crate::engine::exec::Machine)'s evaluator computes for the node; a shape without a
//! closure of its own, or a value of an unexpected kind at run time, is
//! handed to the evaluator.

use super::arith;
use super::cond::bool;
use super::leaf::{IntLeaf, ReadInt, StrLeaf, WithLeaf};
use super::space::{Loaded, SpaceCond};
use super::{Ctx, Run};
use crate::engine::board::Dir;
use crate::engine::exec::Machine;
use crate::engine::regions::Group;
use crate::engine::spaceset::{Bits, SpaceSet};
use crate::engine::spatial::no_space;
use crate::engine::spatial::{board_in, board_number};
use crate::engine::state::{Slot, Table};
use crate::engine::value::{CardRef, Value};
use crate::ir::*;

// ---- the evaluator, for every other shape --------------------------------

fn walk_int(e: &IntExpr) -> Run<i64> {
    let e = e.clone();
    Box::new(move |m| Ok(m.int(&e)?))
}

fn walk_str(e: &StrExpr) -> Run<Sym> {
    let e = e.clone();
    Box::new(move |m| Ok(m.str(&e)?))
}

pub(super) fn walk_bool(e: &BoolExpr) -> Run<bool> {
    let e = e.clone();
    Box::new(move |m| Ok(m.bool(&e)?))
}

fn walk_space(e: &SpaceExpr) -> Run<Option<u32>> {
    let e = e.clone();
    Box::new(move |m| Ok(m.space(&e)?))
}

fn walk_card(e: &CardExpr) -> Run<Option<CardRef>> {
    let e = e.clone();
    Box::new(move |m| Ok(m.card(&e)?))
}

// ---- owners and locations ---------------------------------------------

/// An owner: the game, the current player, or the space or player in a
/// variable.
fn owner(o: &OwnerExpr, cx: &Ctx) -> Run<u32> {
    if let Some(vd) = owner_neighbour(o, cx) {
        let o = o.clone();
        return Box::new(move |m| neighbour_owner(m, vd, &o));
    }
    match o {
        OwnerExpr::Game => Box::new(|_| Ok(0)),
        OwnerExpr::Player(PlayerExpr::Current) => {
            Box::new(|m| Ok(Table::player_owner(m.table.current_player())))
        }
        OwnerExpr::Player(PlayerExpr::Var(v)) => {
            let (v, o) = (*v, o.clone());
            Box::new(move |m| match m.var(v) {
                Value::Player(p) => Ok(Table::player_owner(*p as usize)),
                _ => Ok(m.owner(&o)?),
            })
        }
        OwnerExpr::Space(SpaceExpr::Var(v)) => {
            let (v, o) = (*v, o.clone());
            Box::new(move |m| match m.var(v) {
                Value::Space(s) => Ok(m.table.space_owner(*s)),
                _ => Ok(m.owner(&o)?),
            })
        }
        OwnerExpr::Space(e) => {
            // Another space (`(neighbour 'S S)`): found compiled, as the
            // evaluator finds it; no space is its error.
            let s = space(e, cx);
            Box::new(move |m| match s(m)? {
                Some(s) => Ok(m.table.space_owner(s)),
                None => Err(no_space().into()),
            })
        }
        _ => {
            let o = o.clone();
            Box::new(move |m| Ok(m.owner(&o)?))
        }
    }
}

/// An owner `(neighbour 'V DIR)` with DIR written out: the variable and
/// the direction.
fn owner_neighbour(o: &OwnerExpr, cx: &Ctx) -> Option<(VarId, Dir)> {
    let OwnerExpr::Space(SpaceExpr::Neighbour(from, d)) = o else {
        return None;
    };
    match **from {
        SpaceExpr::Var(v) => Some((v, literal_dir(d, cx)?)),
        _ => None,
    }
}

/// The owner `o`, the neighbour of the space in variable `v` in direction
/// `d` (`owner_neighbour`), found in one step as the evaluator finds it: no
/// space (off the board, or the variable unset) is its error, a variable
/// of another type is the evaluator's.
#[inline(always)]
fn neighbour_owner(m: &mut Machine, (v, d): (VarId, Dir), o: &OwnerExpr) -> super::CR<u32> {
    match m.var(v) {
        Value::Space(s) => match m.board_of(*s)?.step_fast(*s, d)? {
            Some(n) => Ok(m.table.space_owner(n)),
            None => Err(no_space().into()),
        },
        Value::Unset => Err(no_space().into()),
        _ => Ok(m.owner(o)?),
    }
}

/// A location's slot.
pub(super) fn location(l: &LocationExpr, cx: &Ctx) -> Run<Slot> {
    let NameRef::Fixed(id) = l.name else {
        let l = l.clone();
        return Box::new(move |m| Ok(m.location(&l)?));
    };
    let (id, width) = (id as u32, cx.loc_count as u32);
    match &l.owner {
        OwnerExpr::Game => Box::new(move |_| Ok(id)),
        OwnerExpr::Space(SpaceExpr::Var(v)) => {
            let (v, l) = (*v, l.clone());
            Box::new(move |m| match m.var(v) {
                Value::Space(s) => Ok(m.table.space_owner(*s) * width + id),
                _ => Ok(m.location(&l)?),
            })
        }
        OwnerExpr::Space(s) => {
            // A space worked out (a neighbour, the space of a card): no
            // space is the evaluator's error, the space evaluated once.
            let s = space(s, cx);
            Box::new(move |m| match s(m)? {
                Some(s) => Ok(m.table.space_owner(s) * width + id),
                None => Err(crate::engine::board::spatial::no_space().into()),
            })
        }
        o => {
            let o = owner(o, cx);
            Box::new(move |m| Ok(o(m)? * width + id))
        }
    }
}

/// The index of a storage named `name` of `owner` among `count` per owner.
pub(super) fn storage(
    o: &OwnerExpr,
    name: &NameRef<u16>,
    count: usize,
    cx: &Ctx,
) -> Option<Run<usize>> {
    let NameRef::Fixed(id) = name else {
        return None;
    };
    let id = *id as usize;
    Some(match o {
        OwnerExpr::Game => Box::new(move |_| Ok(id)),
        // `((neighbour 'S S) sto NAME)`: one closure.
        o if owner_neighbour(o, cx).is_some() => {
            let (vd, o) = (owner_neighbour(o, cx)?, o.clone());
            Box::new(move |m| Ok(neighbour_owner(m, vd, &o)? as usize * count + id))
        }
        o => {
            let o = owner(o, cx);
            Box::new(move |m| Ok(o(m)? as usize * count + id))
        }
    })
}

// ---- integers -----------------------------------------------------------

/// An integer.
pub(super) fn int(e: &IntExpr, cx: &Ctx) -> Run<i64> {
    if let Some(leaf) = IntLeaf::of(e, cx) {
        if let IntLeaf::Lit(i) = leaf {
            return Box::new(move |_| Ok(i));
        }
        /// The closure of a leaf of one kind.
        struct Alone(IntExpr);
        impl WithLeaf for Alone {
            type Out = Run<i64>;
            fn with<L: ReadInt>(self, leaf: L) -> Run<i64> {
                let e = self.0;
                Box::new(move |m| match leaf.read(m) {
                    Some(i) => Ok(i),
                    None => arith::evaluate(m, &e),
                })
            }
        }
        return leaf.dispatch(Alone(e.clone()));
    }
    // Literals, variables and the storages of the game or of a space in a
    // variable are leaves (above).
    match e {
        IntExpr::Storage(s) => match storage(&s.owner, &s.name, cx.int_count, cx) {
            Some(slot) => Box::new(move |m| {
                let i = slot(m)?;
                Ok(m.table.ints[i])
            }),
            None => walk_int(e),
        },
        IntExpr::Size(c) => match &**c {
            CollectionExpr::Cards(CardsExpr::Location(l)) => {
                let l = location(l, cx);
                Box::new(move |m| {
                    let s = l(m)?;
                    Ok(m.table.locs.get(s as usize).map_or(0, Vec::len) as i64)
                })
            }
            CollectionExpr::Line {
                from,
                dir,
                var,
                cond,
            } => super::walk::line_size(super::walk::Line::new(from, dir, *var, cond, cx)),
            _ => walk_int(e),
        },
        IntExpr::Binary(op, a, b) => arith::binary_op(*op, a, b, e, cx),
        IntExpr::Abs(x) => {
            let x = int(x, cx);
            Box::new(move |m| {
                let n = x(m)?;
                n.checked_abs().ok_or_else(|| abs_overflow(n))
            })
        }
        IntExpr::Sign(x) => {
            let x = int(x, cx);
            Box::new(move |m| Ok(x(m)?.signum()))
        }
        IntExpr::Around { from, var, cond } => around(from, *var, cond, cx),
        IntExpr::RowsSpanned(c) | IntExpr::ColsSpanned(c)
            if matches!(**c, CollectionExpr::Var(..)) =>
        {
            // The spaces held in a variable, counted where they lie.
            let CollectionExpr::Var(v, _) = **c else {
                return walk_int(e);
            };
            let (rows, e) = (matches!(e, IntExpr::RowsSpanned(_)), e.clone());
            Box::new(move |m| {
                // A group a `let` found as a bit set: its lines are known.
                if let Some(Group {
                    lines: Some((r, c)),
                    ..
                }) = m.regions.get(v as usize)
                {
                    return Ok(i64::from(if rows { r } else { c }.count_ones()));
                }
                match m.var(v) {
                    Value::Spaces(spaces) => Ok(m.spanned(spaces, rows)?),
                    _ => Ok(m.int(&e)?),
                }
            })
        }
        IntExpr::Extreme {
            max,
            over,
            var,
            body,
        } => {
            // `(min 'SPACES 'V (row 'V))` and the like, read in place.
            let place = match &**body {
                IntExpr::SpaceRow(s) | IntExpr::SpaceCol(s) | IntExpr::SpaceIndex(s) => Some(&**s),
                _ => None,
            };
            let group = match (&**over, place) {
                (CollectionExpr::Var(v, _), Some(SpaceExpr::Var(w))) if w == var => Some((
                    *v as usize,
                    match &**body {
                        IntExpr::SpaceRow(_) => 0u8,
                        IntExpr::SpaceCol(_) => 1,
                        _ => 2,
                    },
                )),
                _ => None,
            };
            let (max, over, var, body) = ((*max), (**over).clone(), *var, (**body).clone());
            let e = e.clone();
            Box::new(move |m| {
                // A group a `let` found as a bit set: its extremes are
                // its first and last line or space.
                if let Some((v, what)) = group {
                    if let Some(best) = m.regions.get(v).and_then(|g| group_extreme(g, what, max)) {
                        return Ok(best);
                    }
                }
                match m.extreme_place(max, &over, var, &body)? {
                    Some(best) => Ok(best),
                    None => Ok(m.int(&e)?),
                }
            })
        }
        IntExpr::SpaceRow(s) | IntExpr::SpaceCol(s) | IntExpr::SpaceIndex(s) => {
            let sp = space(s, cx);
            let what = match e {
                IntExpr::SpaceRow(_) => 0,
                IntExpr::SpaceCol(_) => 1,
                _ => 2,
            };
            Box::new(move |m| {
                let Some(s) = sp(m)? else {
                    return Err(no_space().into());
                };
                let b = m.board_of(s)?;
                Ok(match what {
                    0 => b.coords(s).0,
                    1 => b.coords(s).1,
                    _ => s - b.first,
                } as i64)
            })
        }
        _ => walk_int(e),
    }
}

/// The error of `(abs MIN)`, as the evaluator words it.
#[cold]
#[inline(never)]
fn abs_overflow(n: i64) -> super::Thin {
    crate::engine::eval::too_big(format_args!("`(abs {n})`")).into()
}

/// `(around SPACE 'V COND)`: the condition tested at each neighbour
/// without binding it when it has [`SpaceCond`]'s shape.
fn around(from: &SpaceExpr, var: VarId, cond: &BoolExpr, cx: &Ctx) -> Run<i64> {
    let fast = SpaceCond::of(cond, var, cx);
    let (from, var, cond) = (space(from, cx), var as usize, bool(cond, cx));
    Box::new(move |m| {
        let Some(s) = from(m)? else {
            return Ok(0);
        };
        let loaded = fast.as_ref().and_then(|f| Some((f, f.load(m)?)));
        // A condition the index answers: its spaces of the board at once,
        // then a bit per neighbour.
        if let Some((f, l)) = &loaded {
            let bi = board_number(&m.table.boards, s)?;
            let bits = if m.table.boards.boards[bi as usize].len() <= u128::MOST {
                around_indexed::<u128>(f, l, m, (s, bi))
            } else {
                around_indexed::<Bits>(f, l, m, (s, bi))
            };
            if let Some(bits) = bits {
                return Ok(bits);
            }
        }
        let board = board_in(&m.table.boards, s)?;
        let near = match board.around_fast(s) {
            Some(near) => near,
            None => board.around(s)?,
        };
        let mut bits = 0;
        for (k, n) in near.into_iter().enumerate() {
            let Some(n) = n else { continue };
            let hit = match &loaded {
                Some((f, l)) => f.holds(m, l, n),
                None => {
                    m.set_var(var, Value::Space(n));
                    cond(m)?
                }
            };
            if hit {
                bits |= 1 << k;
            }
        }
        Ok(bits)
    })
}

/// [`around`] of condition `f` (its leaves `loaded`) from the index, with
/// sets of type `S`, for space `s` of board number `bi`; `None` when the
/// index cannot answer (or is off).
#[inline(always)]
fn around_indexed<S: SpaceSet>(
    f: &SpaceCond,
    loaded: &Loaded,
    m: &mut Machine,
    (s, bi): (u32, u32),
) -> Option<i64> {
    if !m.tabs.space_bits {
        return None;
    }
    let mask: S = f.mask(m.table, m.tabs.loc_count, loaded, bi)?;
    m.table.boards.boards[bi as usize].around_in(s, mask)
}

// ---- strings ------------------------------------------------------------

/// A string.
pub(super) fn str(e: &StrExpr, cx: &Ctx) -> Run<Sym> {
    if let Some(leaf) = StrLeaf::of(e, cx) {
        let e = e.clone();
        return Box::new(move |m| match leaf.read(m) {
            Some(s) => Ok(s),
            None => Ok(m.str(&e)?),
        });
    }
    // Literals, variables and the strings of the game are leaves (above).
    match e {
        StrExpr::Storage(s) => match storage(&s.owner, &s.name, cx.str_count, cx) {
            Some(slot) => Box::new(move |m| {
                let i = slot(m)?;
                Ok(m.table.strs[i])
            }),
            None => walk_str(e),
        },
        StrExpr::CardAtt(AttrRef::Key(k), c) => {
            let (k, c) = (*k as usize, card(c, cx));
            Box::new(move |m| {
                Ok(match c(m)? {
                    Some(c) => m.table.attrs(c.id).get(k).copied().unwrap_or(EMPTY),
                    None => EMPTY,
                })
            })
        }
        _ => walk_str(e),
    }
}

// ---- cards --------------------------------------------------------------

/// A card: the top card of a location, `(last moved)`, a card variable.
pub(super) fn card(e: &CardExpr, cx: &Ctx) -> Run<Option<CardRef>> {
    match e {
        CardExpr::At(Pos::Top, cards) => match &**cards {
            CardsExpr::Location(l) => {
                let l = location(l, cx);
                Box::new(move |m| {
                    let slot = l(m)?;
                    let top = m.table.locs.get(slot as usize).and_then(|l| l.last());
                    Ok(top.map(|&id| CardRef { id, slot }))
                })
            }
            _ => walk_card(e),
        },
        CardExpr::LastMoved => Box::new(|m| {
            Ok(m.table.last_moved.and_then(|id| {
                Some(CardRef {
                    id,
                    slot: *m.table.card_loc.get(id as usize)?,
                })
            }))
        }),
        CardExpr::Var(v) => {
            let (v, e) = (*v, e.clone());
            Box::new(move |m| match m.var(v) {
                Value::Card(id) => Ok(Some(CardRef {
                    id: *id,
                    slot: m.table.card_loc[*id as usize],
                })),
                _ => Ok(m.card(&e)?),
            })
        }
        _ => walk_card(e),
    }
}

// ---- players ------------------------------------------------------------

/// A player: the seat in a variable, or the owner of a card (the card
/// compiled, the seat found as the evaluator finds it); any other form is
/// the evaluator's.
pub(super) fn player(e: &PlayerExpr, cx: &Ctx) -> Run<u8> {
    match e {
        PlayerExpr::Var(v) => {
            let (v, e) = (*v, e.clone());
            Box::new(move |m| match m.var(v) {
                Value::Player(p) => Ok(*p),
                _ => Ok(m.player(&e)?),
            })
        }
        PlayerExpr::OwnerOf(c) => {
            let (c, width) = (card(c, cx), cx.loc_count);
            Box::new(move |m| {
                let Some(card) = c(m)? else {
                    return Err("`owner` of no card (the collection is empty)".into());
                };
                let slot = m.table.card_loc[card.id as usize];
                let (owner, _) = Table::slot_parts(slot, width);
                if owner >= 1 && (owner as usize) <= m.table.players {
                    Ok((owner - 1) as u8)
                } else {
                    Err("`owner` of a card that no player holds".into())
                }
            })
        }
        _ => {
            let e = e.clone();
            Box::new(move |m| Ok(m.player(&e)?))
        }
    }
}

// ---- spaces -------------------------------------------------------------

/// A space (`None`: no space).
pub(super) fn space(e: &SpaceExpr, cx: &Ctx) -> Run<Option<u32>> {
    match e {
        SpaceExpr::Var(v) => {
            let (v, e) = (*v, e.clone());
            Box::new(move |m| match m.var(v) {
                Value::Space(s) => Ok(Some(*s)),
                Value::Unset => Ok(None),
                _ => Ok(m.space(&e)?),
            })
        }
        SpaceExpr::Of(c) => {
            let c = card(c, cx);
            Box::new(move |m| {
                Ok(match c(m)? {
                    None => None,
                    Some(c) => {
                        let slot = m.table.card_loc[c.id as usize];
                        let (owner, _) = Table::slot_parts(slot, m.tabs.loc_count);
                        m.table.owner_space(owner)
                    }
                })
            })
        }
        SpaceExpr::Neighbour(from, d)
            if matches!(**from, SpaceExpr::Var(_)) && literal_dir(d, cx).is_some() =>
        {
            // The neighbour of a space variable in a direction written out.
            let (SpaceExpr::Var(v), Some(d)) = (&**from, literal_dir(d, cx)) else {
                return walk_space(e);
            };
            let (v, e) = (*v, e.clone());
            Box::new(move |m| match m.var(v) {
                Value::Space(s) => Ok(m.board_of(*s)?.step_fast(*s, d)?),
                Value::Unset => Ok(None),
                _ => Ok(m.space(&e)?),
            })
        }
        SpaceExpr::Neighbour(from, d)
            if matches!(**from, SpaceExpr::Var(_)) && matches!(**d, StrExpr::Var(_)) =>
        {
            // The neighbour of a space variable in a direction held in a
            // variable (a loop over directions): both read in place.
            let (SpaceExpr::Var(v), StrExpr::Var(dv)) = (&**from, &**d) else {
                return walk_space(e);
            };
            let (v, dv, e) = (*v, *dv, e.clone());
            Box::new(move |m| {
                let d = match m.var(dv) {
                    Value::Str(s) => m.tabs.dirs.get(*s as usize).copied().flatten(),
                    _ => None,
                };
                match (m.var(v), d) {
                    (Value::Space(s), Some(d)) => Ok(m.board_of(*s)?.step_fast(*s, d)?),
                    _ => Ok(m.space(&e)?),
                }
            })
        }
        SpaceExpr::Find {
            from,
            forward,
            dir: Some(d),
            var,
            cond,
        } => super::walk::find((from, d), *forward, *var, cond, cx),
        SpaceExpr::Neighbour(s, d) => {
            let (s, d) = (space(s, cx), dir(d, cx));
            Box::new(move |m| {
                let Some(s) = s(m)? else {
                    return Ok(None);
                };
                let d = d(m)?;
                Ok(m.board_of(s)?.step_fast(s, d)?)
            })
        }
        _ => walk_space(e),
    }
}

/// The direction a literal names, if it is one.
fn literal_dir(e: &StrExpr, cx: &Ctx) -> Option<Dir> {
    match e {
        StrExpr::Lit(s) => cx.dirs.get(*s as usize).copied().flatten(),
        _ => None,
    }
}

/// A direction: a literal one is known now.
pub(super) fn dir(e: &StrExpr, cx: &Ctx) -> Run<Dir> {
    if let Some(d) = literal_dir(e, cx) {
        return Box::new(move |_| Ok(d));
    }
    match e {
        StrExpr::Rotate(inner, quarters) => {
            let (inner, quarters) = (dir(inner, cx), int(quarters, cx));
            Box::new(move |m| {
                let d = inner(m)?;
                let k = quarters(m)?;
                Ok(d.rotate(k)?)
            })
        }
        StrExpr::Var(v) => {
            // A direction held in a variable, looked up by its string.
            let (v, e) = (*v, e.clone());
            Box::new(move |m| {
                let d = match m.var(v) {
                    Value::Str(s) => m.tabs.dirs.get(*s as usize).copied().flatten(),
                    _ => None,
                };
                match d {
                    Some(d) => Ok(d),
                    None => Ok(m.dir(&e)?),
                }
            })
        }
        _ => {
            let e = e.clone();
            Box::new(move |m| Ok(m.dir(&e)?))
        }
    }
}

/// The least (greatest, `max`) row (`what` 0), column (1) or index (2) of
/// the spaces of group `g`; `None` when it has none or its lines are not
/// known.
fn group_extreme(g: &Group, what: u8, max: bool) -> Option<i64> {
    let pick = |w: u64| -> Option<i64> {
        (w != 0).then(|| {
            i64::from(if max {
                63 - w.leading_zeros()
            } else {
                w.trailing_zeros()
            })
        })
    };
    match what {
        0 => pick(g.lines?.0),
        1 => pick(g.lines?.1),
        _ => {
            let i = if max {
                g.bits.greatest()?
            } else {
                g.bits.least()?
            };
            Some(i64::from(i))
        }
    }
}

/// The value a `let` binds, as [`Machine::value`] gives it.
pub(super) fn value(v: &ValueExpr, cx: &Ctx) -> Run<Value> {
    match v {
        ValueExpr::Int(e) => {
            let e = int(e, cx);
            Box::new(move |m| Ok(Value::Int(e(m)?)))
        }
        ValueExpr::Bool(e) => {
            let e = bool(e, cx);
            Box::new(move |m| Ok(Value::Bool(e(m)?)))
        }
        ValueExpr::Space(e) => {
            let e = space(e, cx);
            Box::new(move |m| Ok(e(m)?.map_or_else(|| Value::Unset, Value::Space)))
        }
        ValueExpr::Str(e) => {
            let e = str(e, cx);
            Box::new(move |m| Ok(Value::Str(e(m)?)))
        }
        ValueExpr::Card(e) => {
            let e = card(e, cx);
            Box::new(move |m| Ok(e(m)?.map_or_else(|| Value::Unset, |c| Value::Card(c.id))))
        }
        _ => {
            let v = v.clone();
            Box::new(move |m| Ok(m.value(&v)?))
        }
    }
}
