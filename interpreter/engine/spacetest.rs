//! Conditions on one space, worked out once before a search of a board.
//!
//! A `group`'s condition is evaluated for every space the search reaches,
//! so it is the innermost loop of every board game that looks at connected
//! regions. Most such conditions have one of a few shapes: an attribute of
//! the top card of one of the space's locations, the size of one of its
//! locations, one of its integer storages, its row, column or index, or the
//! space itself, compared
//! with something that does not depend on the space (a literal, another
//! variable, a storage of the game); and `and`, `or`, `not` of those. Such
//! a condition is compiled once before the search into a [`SpaceTest`]
//! over precomputed slots, whose value for a space is exactly the value
//! [`Machine::bool`] would give; the parts that do not depend on the space
//! are evaluated once, before the search. Any other shape is not compiled
//! and the search evaluates the condition as usual.
//!
//! Invariant: a condition is compiled only when every part of it is one
//! of the shapes above, so evaluating a test never fails, never draws from
//! the game's chance and never changes the table, like the condition it
//! stands for (conditions only read the table).

use super::eval::R;
use super::exec::Machine;
use super::state::Table;
use crate::ir::*;

/// A compiled condition on the space bound to one variable.
#[derive(Debug)]
pub enum SpaceTest {
    /// The attribute `key` of the top card of location `loc` is (or is not)
    /// `value` ("" when the location is empty).
    TopAttr {
        loc: usize,
        key: usize,
        value: Sym,
        eq: bool,
    },
    /// The number of cards of location `loc` compared with `value`.
    Size {
        loc: usize,
        op: CmpOp,
        value: i64,
    },
    /// The integer storage `sto` compared with `value`.
    Sto {
        sto: usize,
        op: CmpOp,
        value: i64,
    },
    /// The space's row, column or index on its board compared with `value`.
    Place {
        what: Place,
        op: CmpOp,
        value: i64,
    },
    /// The space is (or is not) `space`.
    Is {
        space: Option<u32>,
        eq: bool,
    },
    And(Vec<SpaceTest>),
    Or(Vec<SpaceTest>),
    Not(Box<SpaceTest>),
}

impl SpaceTest {
    /// The test's value for space `s`.
    pub fn holds(&self, table: &Table, loc_count: usize, int_count: usize, s: u32) -> bool {
        let owner = table.space_owner(s) as usize;
        match self {
            SpaceTest::TopAttr {
                loc,
                key,
                value,
                eq,
            } => {
                let top = table.locs[owner * loc_count + loc].last();
                let attr = top.map_or(EMPTY, |&c| {
                    table.attrs(c).get(*key).copied().unwrap_or(EMPTY)
                });
                (attr == *value) == *eq
            }
            SpaceTest::Size { loc, op, value } => {
                op.holds(table.locs[owner * loc_count + loc].len() as i64, *value)
            }
            SpaceTest::Sto { sto, op, value } => {
                op.holds(table.ints[owner * int_count + sto], *value)
            }
            SpaceTest::Place { what, op, value } => {
                let Some(b) = table.boards.of(s) else {
                    return false;
                };
                let (r, c) = b.coords(s);
                let v = match what {
                    Place::Row => r,
                    Place::Col => c,
                    Place::Index => s - b.first,
                };
                op.holds(v as i64, *value)
            }
            SpaceTest::Is { space, eq } => (Some(s) == *space) == *eq,
            SpaceTest::And(xs) => xs.iter().all(|x| x.holds(table, loc_count, int_count, s)),
            SpaceTest::Or(xs) => xs.iter().any(|x| x.holds(table, loc_count, int_count, s)),
            SpaceTest::Not(x) => !x.holds(table, loc_count, int_count, s),
        }
    }
}

/// The same comparison with its operands swapped: `a < b` is `b > a`.
fn swapped(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// The location id of `(VAR vloc NAME)` (any kind) with a fixed name.
fn var_location(l: &LocationExpr, var: VarId) -> Option<usize> {
    match (&l.owner, &l.name) {
        (OwnerExpr::Space(SpaceExpr::Var(v)), NameRef::Fixed(id)) if *v == var => {
            Some(*id as usize)
        }
        _ => None,
    }
}

impl Machine<'_> {
    /// Compiles `cond`, a condition on the space in variable `var`, or
    /// `None` when it has another shape. The parts that do not depend on
    /// the space are evaluated now.
    pub(super) fn space_test(&mut self, cond: &BoolExpr, var: VarId) -> R<Option<SpaceTest>> {
        Ok(Some(match cond {
            BoolExpr::And(xs) | BoolExpr::Or(xs) => {
                let mut tests = Vec::with_capacity(xs.len());
                for x in xs {
                    match self.space_test(x, var)? {
                        Some(t) => tests.push(t),
                        None => return Ok(None),
                    }
                }
                if matches!(cond, BoolExpr::And(_)) {
                    SpaceTest::And(tests)
                } else {
                    SpaceTest::Or(tests)
                }
            }
            BoolExpr::Not(x) => match self.space_test(x, var)? {
                Some(t) => SpaceTest::Not(Box::new(t)),
                None => return Ok(None),
            },
            BoolExpr::Str { eq, left, right } => {
                let (attr, other) = match (self.top_attr(left, var), self.top_attr(right, var)) {
                    (Some(a), None) => (a, right),
                    (None, Some(a)) => (a, left),
                    _ => return Ok(None),
                };
                let Some(value) = self.fixed_str(other, var)? else {
                    return Ok(None);
                };
                SpaceTest::TopAttr {
                    loc: attr.0,
                    key: attr.1,
                    value,
                    eq: *eq,
                }
            }
            BoolExpr::Int(op, a, b) => {
                let (probe, other, op) = match (self.space_int(a, var), self.space_int(b, var)) {
                    (Some(p), None) => (p, b, *op),
                    (None, Some(p)) => (p, a, swapped(*op)),
                    _ => return Ok(None),
                };
                let Some(value) = self.fixed_int(other, var)? else {
                    return Ok(None);
                };
                match probe {
                    SpaceInt::Size(loc) => SpaceTest::Size { loc, op, value },
                    SpaceInt::Sto(sto) => SpaceTest::Sto { sto, op, value },
                    SpaceInt::Place(what) => SpaceTest::Place { what, op, value },
                }
            }
            BoolExpr::Space { eq, left, right } => {
                let other = match (left, right) {
                    (SpaceExpr::Var(v), o) | (o, SpaceExpr::Var(v)) if *v == var => o,
                    _ => return Ok(None),
                };
                match other {
                    SpaceExpr::Var(w) if *w != var => SpaceTest::Is {
                        space: self.space(other)?,
                        eq: *eq,
                    },
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        }))
    }

    /// `(cardatt KEY (top (VAR vloc NAME)))`: the location and key.
    fn top_attr(&self, e: &StrExpr, var: VarId) -> Option<(usize, usize)> {
        let StrExpr::CardAtt(AttrRef::Key(k), card) = e else {
            return None;
        };
        let CardExpr::At(Pos::Top, cards) = &**card else {
            return None;
        };
        let CardsExpr::Location(l) = &**cards else {
            return None;
        };
        Some((var_location(l, var)?, *k as usize))
    }

    /// `(size (VAR vloc NAME))`, `(VAR sto NAME)`, `(row VAR)`, `(col
    /// VAR)` or `(index VAR)`.
    fn space_int(&self, e: &IntExpr, var: VarId) -> Option<SpaceInt> {
        match e {
            IntExpr::SpaceRow(s) | IntExpr::SpaceCol(s) | IntExpr::SpaceIndex(s) if matches!(&**s, SpaceExpr::Var(v) if *v == var) => {
                Some(SpaceInt::Place(match e {
                    IntExpr::SpaceRow(_) => Place::Row,
                    IntExpr::SpaceCol(_) => Place::Col,
                    _ => Place::Index,
                }))
            }
            IntExpr::Size(c) => match &**c {
                CollectionExpr::Cards(CardsExpr::Location(l)) => {
                    Some(SpaceInt::Size(var_location(l, var)?))
                }
                _ => None,
            },
            IntExpr::Storage(IntStorage {
                owner: OwnerExpr::Space(SpaceExpr::Var(v)),
                name: NameRef::Fixed(id),
            }) if *v == var => Some(SpaceInt::Sto(*id as usize)),
            _ => None,
        }
    }

    /// The value of a string that does not depend on `var`: a literal,
    /// another variable, a string storage of the game.
    fn fixed_str(&mut self, e: &StrExpr, var: VarId) -> R<Option<Sym>> {
        Ok(match e {
            StrExpr::Lit(_) | StrExpr::Var(_) => {
                if matches!(e, StrExpr::Var(v) if *v == var) {
                    return Ok(None);
                }
                Some(self.str(e)?)
            }
            StrExpr::Storage(StrStorage {
                owner: OwnerExpr::Game,
                name: NameRef::Fixed(_),
            }) => Some(self.str(e)?),
            _ => None,
        })
    }

    /// The value of an integer that does not depend on `var`: a literal,
    /// another variable, an integer storage of the game.
    fn fixed_int(&mut self, e: &IntExpr, var: VarId) -> R<Option<i64>> {
        Ok(match e {
            IntExpr::Lit(_) | IntExpr::Var(_) => {
                if matches!(e, IntExpr::Var(v) if *v == var) {
                    return Ok(None);
                }
                Some(self.int(e)?)
            }
            IntExpr::Storage(IntStorage {
                owner: OwnerExpr::Game,
                name: NameRef::Fixed(_),
            }) => Some(self.int(e)?),
            _ => None,
        })
    }
}

/// A space-dependent integer of a compiled comparison.
enum SpaceInt {
    Size(usize),
    Sto(usize),
    Place(Place),
}

/// Where a space lies on its board.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    Row,
    Col,
    Index,
}
