//! `(set POINTMAP ((ATTR : VALUE) POINTS) ...)` with every attribute,
//! value and number written out: the point map is made once per rules
//! file, with each attribute's key looked up, and a run copies it into
//! the table (a card game sets its rank order at the start of every game;
//! the evaluator looks every key up and makes the map anew). The copy is
//! the table's own (no reference count shared between the games of
//! different threads). A map whose points overflow is left to the
//! evaluator, which reports it.

use super::Run;
use crate::engine::journal::Undo;
use crate::engine::state::PointMap;
use crate::ir::*;
use std::sync::Arc;

/// The closure of `(set P AWARDS)` when every part of `awards` is a
/// literal and its points stay in range; `attr_keys` the program's
/// attribute keys (a key's index is its place there).
pub(super) fn set_points(p: &PointStorage, awards: &[Award], attr_keys: &[Sym]) -> Option<Run<()>> {
    let mut map = PointMap::default();
    for aw in awards {
        let mut conds = Vec::with_capacity(aw.conds.len());
        for (k, v) in &aw.conds {
            let (StrExpr::Lit(k), StrExpr::Lit(v)) = (k, v) else {
                return None;
            };
            // The evaluator's lookup table keeps the last index of a key.
            let key = attr_keys.iter().rposition(|a| a == k).map(|i| i as u16);
            conds.push((key, *v));
        }
        let IntExpr::Lit(points) = aw.points else {
            return None;
        };
        map.awards.push((conds, points));
    }
    // The evaluator's range check: the positive points and the negative
    // points each add up without overflow.
    let (mut up, mut down) = (0i64, 0i64);
    for &(_, points) in &map.awards {
        let side = if points > 0 { &mut up } else { &mut down };
        *side = side.checked_add(points)?;
    }
    let p = p.clone();
    Some(Box::new(move |m| {
        m.actions += 1;
        let i = m.point_slot(&p)?;
        let old = m.table.points[i].take();
        m.record(|_| Undo::Points(i, old));
        m.table.points[i] = Some(Arc::new(map.clone()));
        Ok(())
    }))
}
