//! `any`/`all` over the seats whose body compares the size of a location
//! of the seat with a value that does not depend on the seat, such as
//! `(all player 'P (== (size ('P iloc HAND)) 0))`: a card game's end of a
//! round or of a trick, asked at every turn. The sizes are read in one
//! loop over the seats (the other side read once), with no closure called
//! and no variable bound per seat; the variable is left holding the seat
//! the loop stopped at, as the loop of [`super::cond`] leaves it.

use super::leaf::IntLeaf;
use super::{Ctx, Run, CR};
use crate::engine::exec::Machine;
use crate::engine::state::Table;
use crate::engine::value::Value;
use crate::ir::*;

/// The closure of `(any/all SEATS 'P BODY)` (`some` for `any`, `others`
/// for `(other player)`) when `BODY` has the shape above, else `None`.
pub(super) fn sizes(
    var: VarId,
    body: &BoolExpr,
    some: bool,
    others: bool,
    cx: &Ctx,
) -> Option<Run<bool>> {
    let BoolExpr::Int(op, left, right) = body else {
        return None;
    };
    // The comparison written with the seat's size on the left.
    let (op, size, other) = match (seat_size(left, var, cx), seat_size(right, var, cx)) {
        (Some(s), None) => (*op, s, IntLeaf::of(right, cx)?),
        (None, Some(s)) => (flip(*op), s, IntLeaf::of(left, cx)?),
        _ => return None,
    };
    // Only a side that always reads as an integer, and not from the seat.
    if !matches!(
        other,
        IntLeaf::Lit(_)
            | IntLeaf::GameSto(_)
            | IntLeaf::GameLocSize(_)
            | IntLeaf::CurrentLocSize { .. }
    ) {
        return None;
    }
    let (loc, width) = size;
    let var = var as usize;
    Some(Box::new(move |m| {
        let seats = seats(m, others)?;
        let Some(k) = other.read(m) else {
            return Err("internal: a seat's size compared with no integer".into());
        };
        let mut last = None;
        for p in seats {
            let slot = (Table::player_owner(p) * width + loc) as usize;
            let len = m.table.locs.get(slot).map_or(0, Vec::len) as i64;
            last = Some(p);
            if op.holds(len, k) == some {
                m.set_var(var, Value::Player(p as u8));
                return Ok(some);
            }
        }
        if let Some(p) = last {
            m.set_var(var, Value::Player(p as u8));
        }
        Ok(!some)
    }))
}

/// The seats an `any` or `all` over the players (`others`: the other
/// players) goes through, in seat order, charged as the evaluator charges
/// them.
pub(super) fn seats(m: &mut Machine, others: bool) -> CR<impl Iterator<Item = usize>> {
    let seats = m.table.players;
    let current = m.table.current_player();
    m.charge(seats)?;
    let n = if others {
        seats.saturating_sub(1)
    } else {
        seats
    };
    Ok((0..n).map(move |i| if others && i >= current { i + 1 } else { i }))
}

/// `(size ('P xloc NAME))` with 'P the variable `var` and a fixed name:
/// the name's id and the number of locations an owner has.
fn seat_size(e: &IntExpr, var: VarId, cx: &Ctx) -> Option<(u32, u32)> {
    match IntLeaf::of(e, cx)? {
        IntLeaf::PlayerLocSize { var: v, loc, width } if v == var => Some((loc, width)),
        _ => None,
    }
}

/// The comparison with its sides swapped: `a OP b` is `b (flip OP) a`.
fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        CmpOp::Eq => CmpOp::Eq,
        CmpOp::Ne => CmpOp::Ne,
    }
}
