//! Leaves: the operands that are read straight from the machine, with no
//! evaluation below them (a literal, a variable, a storage of the game or
//! of the space in a variable, the size of a location of a space, of a
//! player in a variable, of the current player or of the game, a space's
//! row or column, an attribute of the top card of a space's location or of
//! the card moved last). A comparison of two leaves is one closure that
//! reads both, so the conditions that searches of a board test at every
//! space cost a few reads each.
//!
//! Reading a leaf never fails and never changes anything; it gives `None`
//! when the value is not of the expected kind (an unset variable, a
//! variable of another type, a space on no board), and the caller then
//! hands the whole node to the evaluator, which gives its usual value or
//! error.

use super::Ctx;
use crate::engine::exec::Machine;
use crate::engine::state::Table;
use crate::engine::value::Value;
use crate::ir::*;

/// An integer leaf.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum IntLeaf {
    Lit(i64),
    /// A variable holding an integer.
    Var(VarId),
    /// `(game sto NAME)`: its index.
    GameSto(usize),
    /// `('S sto NAME)`, the space in variable `var`.
    SpaceSto {
        var: VarId,
        id: usize,
        count: usize,
    },
    /// `(size ('S vloc NAME))`.
    LocSize {
        var: VarId,
        loc: u32,
        width: u32,
    },
    /// `(size ('P vloc NAME))` (any kind), the player in variable `var`.
    PlayerLocSize {
        var: VarId,
        loc: u32,
        width: u32,
    },
    /// `(size ((current player) vloc NAME))` (any kind).
    CurrentLocSize {
        loc: u32,
        width: u32,
    },
    /// `(size (game vloc NAME))` (any kind): the location's slot.
    GameLocSize(u32),
    /// `(row 'S)`.
    Row(VarId),
    /// `(col 'S)`.
    Col(VarId),
}

/// The space in variable `v`, if it holds one.
#[inline(always)]
fn space_in(m: &Machine, v: VarId) -> Option<u32> {
    match m.var(v) {
        Value::Space(s) => Some(*s),
        _ => None,
    }
}

/// `('S vloc NAME)` (any kind) with a fixed name and a space variable as
/// owner: the variable and the name's id.
fn space_location(l: &LocationExpr) -> Option<(VarId, u32)> {
    match (&l.owner, &l.name) {
        (OwnerExpr::Space(SpaceExpr::Var(v)), NameRef::Fixed(id)) => Some((*v, *id as u32)),
        _ => None,
    }
}

impl IntLeaf {
    /// The leaf `e` is, if it is one.
    pub fn of(e: &IntExpr, cx: &Ctx) -> Option<IntLeaf> {
        Some(match e {
            IntExpr::Lit(i) => IntLeaf::Lit(*i),
            IntExpr::Var(v) => IntLeaf::Var(*v),
            IntExpr::Storage(IntStorage {
                owner,
                name: NameRef::Fixed(id),
            }) => match owner {
                OwnerExpr::Game => IntLeaf::GameSto(*id as usize),
                OwnerExpr::Space(SpaceExpr::Var(v)) => IntLeaf::SpaceSto {
                    var: *v,
                    id: *id as usize,
                    count: cx.int_count,
                },
                _ => return None,
            },
            IntExpr::Size(c) => match &**c {
                CollectionExpr::Cards(CardsExpr::Location(l)) => size_leaf(l, cx)?,
                _ => return None,
            },
            IntExpr::SpaceRow(s) => match &**s {
                SpaceExpr::Var(v) => IntLeaf::Row(*v),
                _ => return None,
            },
            IntExpr::SpaceCol(s) => match &**s {
                SpaceExpr::Var(v) => IntLeaf::Col(*v),
                _ => return None,
            },
            _ => return None,
        })
    }

    /// The leaf's value, or `None` for the evaluator to decide.
    #[inline(always)]
    pub fn read(self, m: &Machine) -> Option<i64> {
        match self {
            IntLeaf::Lit(i) => Some(i),
            IntLeaf::Var(v) => read_var(m, v),
            IntLeaf::GameSto(i) => Some(m.table.ints[i]),
            IntLeaf::SpaceSto { var, id, count } => read_space_sto(m, var, id, count),
            IntLeaf::LocSize { var, loc, width } => read_loc_size(m, var, loc, width),
            IntLeaf::PlayerLocSize { var, loc, width } => read_player_loc_size(m, var, loc, width),
            IntLeaf::CurrentLocSize { loc, width } => read_current_loc_size(m, loc, width),
            IntLeaf::GameLocSize(slot) => Some(read_slot_size(m, slot)),
            IntLeaf::Row(v) => read_coord(m, v, true),
            IntLeaf::Col(v) => read_coord(m, v, false),
        }
    }
}

/// The leaf of `(size L)` for a location L with a fixed name whose owner
/// is the space or the player in a variable, the current player or the
/// game: the size of a hand, a trick or a pile in a card game is read in
/// one step rather than through the closures of the owner and location.
fn size_leaf(l: &LocationExpr, cx: &Ctx) -> Option<IntLeaf> {
    let width = cx.loc_count as u32;
    if let Some((var, loc)) = space_location(l) {
        return Some(IntLeaf::LocSize { var, loc, width });
    }
    let NameRef::Fixed(id) = &l.name else {
        return None;
    };
    let loc = u32::from(*id);
    Some(match &l.owner {
        OwnerExpr::Game => IntLeaf::GameLocSize(loc),
        OwnerExpr::Player(PlayerExpr::Var(var)) => IntLeaf::PlayerLocSize {
            var: *var,
            loc,
            width,
        },
        OwnerExpr::Player(PlayerExpr::Current) => IntLeaf::CurrentLocSize { loc, width },
        _ => return None,
    })
}

/// [`IntLeaf::Var`].
#[inline(always)]
fn read_var(m: &Machine, v: VarId) -> Option<i64> {
    match m.var(v) {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

/// [`IntLeaf::SpaceSto`].
#[inline(always)]
fn read_space_sto(m: &Machine, var: VarId, id: usize, count: usize) -> Option<i64> {
    let owner = m.table.space_owner(space_in(m, var)?) as usize;
    Some(m.table.ints[owner * count + id])
}

/// [`IntLeaf::LocSize`].
#[inline(always)]
fn read_loc_size(m: &Machine, var: VarId, loc: u32, width: u32) -> Option<i64> {
    let slot = m.table.space_owner(space_in(m, var)?) * width + loc;
    Some(m.table.locs.get(slot as usize).map_or(0, Vec::len) as i64)
}

/// The number of cards in location `slot`.
#[inline(always)]
fn read_slot_size(m: &Machine, slot: u32) -> i64 {
    m.table.locs.get(slot as usize).map_or(0, Vec::len) as i64
}

/// [`IntLeaf::PlayerLocSize`]: the owner as the evaluator finds it
/// (`Table::player_owner` of the seat in the variable).
#[inline(always)]
fn read_player_loc_size(m: &Machine, var: VarId, loc: u32, width: u32) -> Option<i64> {
    let Value::Player(p) = m.var(var) else {
        return None;
    };
    let owner = Table::player_owner(usize::from(*p));
    Some(read_slot_size(m, owner * width + loc))
}

/// [`IntLeaf::CurrentLocSize`].
#[inline(always)]
fn read_current_loc_size(m: &Machine, loc: u32, width: u32) -> Option<i64> {
    let owner = Table::player_owner(m.table.current_player());
    Some(read_slot_size(m, owner * width + loc))
}

/// [`IntLeaf::Row`] (`row`) or [`IntLeaf::Col`].
#[inline(always)]
fn read_coord(m: &Machine, v: VarId, row: bool) -> Option<i64> {
    let s = space_in(m, v)?;
    let (r, c) = m.board_of(s).ok()?.coords(s);
    Some(i64::from(if row { r } else { c }))
}

/// A string leaf.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum StrLeaf {
    Lit(Sym),
    /// A variable holding a string.
    Var(VarId),
    /// `(game str NAME)`: its index.
    GameStr(usize),
    /// `((current player) str NAME)`: its index among a player's strings,
    /// and how many strings an owner has.
    CurrentStr(usize, usize),
    /// `(cardatt KEY (top ('S vloc NAME)))`: "" for an empty location.
    TopAttr {
        var: VarId,
        loc: u32,
        width: u32,
        key: usize,
    },
    /// `(cardatt KEY (last moved))`: "" before the first move.
    LastAttr(usize),
}

impl StrLeaf {
    /// The leaf `e` is, if it is one.
    pub fn of(e: &StrExpr, cx: &Ctx) -> Option<StrLeaf> {
        Some(match e {
            StrExpr::Lit(s) => StrLeaf::Lit(*s),
            StrExpr::Var(v) => StrLeaf::Var(*v),
            StrExpr::Storage(StrStorage {
                owner: OwnerExpr::Game,
                name: NameRef::Fixed(id),
            }) => StrLeaf::GameStr(*id as usize),
            StrExpr::Storage(StrStorage {
                owner: OwnerExpr::Player(PlayerExpr::Current),
                name: NameRef::Fixed(id),
            }) => StrLeaf::CurrentStr(*id as usize, cx.str_count),
            StrExpr::CardAtt(AttrRef::Key(k), card) => match &**card {
                CardExpr::LastMoved => StrLeaf::LastAttr(*k as usize),
                CardExpr::At(Pos::Top, cards) => match &**cards {
                    CardsExpr::Location(l) => {
                        let (var, loc) = space_location(l)?;
                        StrLeaf::TopAttr {
                            var,
                            loc,
                            width: cx.loc_count as u32,
                            key: *k as usize,
                        }
                    }
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        })
    }

    /// The leaf's value, or `None` for the evaluator to decide.
    #[inline(always)]
    pub fn read(self, m: &Machine) -> Option<Sym> {
        let t = &*m.table;
        Some(match self {
            StrLeaf::Lit(s) => s,
            StrLeaf::Var(v) => match m.var(v) {
                Value::Str(s) => *s,
                _ => return None,
            },
            StrLeaf::GameStr(i) => t.strs[i],
            StrLeaf::CurrentStr(i, width) => {
                let owner = Table::player_owner(t.current_player()) as usize;
                *t.strs.get(owner * width + i)?
            }
            StrLeaf::TopAttr {
                var,
                loc,
                width,
                key,
            } => {
                let slot = t.space_owner(space_in(m, var)?) * width + loc;
                match t.locs.get(slot as usize).and_then(|l| l.last()) {
                    Some(&c) => t.attrs(c).get(key).copied().unwrap_or(EMPTY),
                    None => EMPTY,
                }
            }
            StrLeaf::LastAttr(key) => match t.last_moved {
                Some(c) if t.card_loc.get(c as usize).is_some() => {
                    t.attrs(c).get(key).copied().unwrap_or(EMPTY)
                }
                _ => EMPTY,
            },
        })
    }
}

// ---- leaves of one kind -------------------------------------------------
//
// A closure that reads an [`IntLeaf`] tests the leaf's kind at every read.
// The closures run most (an operator with a literal, a comparison, a
// leaf alone) are made instead for the kind of their leaf, known when the
// rules are compiled: [`IntLeaf::dispatch`] hands a [`WithLeaf`] the leaf
// as a value of a type of its own ([`ReadInt`]), so the closure it makes
// reads just that kind.

/// An integer leaf of one kind: reads as [`IntLeaf::read`] reads it.
pub(super) trait ReadInt: Copy + Send + Sync + 'static {
    fn read(self, m: &Machine) -> Option<i64>;
}

/// What is made of an integer leaf once its kind is known.
pub(super) trait WithLeaf {
    type Out;
    fn with<L: ReadInt>(self, leaf: L) -> Self::Out;
}

/// [`IntLeaf::Lit`].
#[derive(Clone, Copy)]
pub(super) struct LitLeaf(pub i64);

impl ReadInt for LitLeaf {
    #[inline(always)]
    fn read(self, _: &Machine) -> Option<i64> {
        Some(self.0)
    }
}

/// Any leaf, read through [`IntLeaf::read`] (its kind chosen at the read).
#[derive(Clone, Copy)]
pub(super) struct AnyLeaf(pub IntLeaf);

impl ReadInt for AnyLeaf {
    #[inline(always)]
    fn read(self, m: &Machine) -> Option<i64> {
        self.0.read(m)
    }
}

/// The kinds of [`IntLeaf`] but the literal, as constants.
const VAR: u8 = 0;
const GAME_STO: u8 = 1;
const SPACE_STO: u8 = 2;
const LOC_SIZE: u8 = 3;
const ROW: u8 = 4;
const COL: u8 = 5;
const PLAYER_LOC_SIZE: u8 = 6;
const CURRENT_LOC_SIZE: u8 = 7;
const GAME_LOC_SIZE: u8 = 8;

/// A leaf dispatched to its kind `K`: the read tests only that the leaf
/// is of that kind (it always is), a branch that is always taken, instead
/// of choosing among the kinds.
#[derive(Clone, Copy)]
pub(super) struct Kind<const K: u8>(IntLeaf);

impl<const K: u8> ReadInt for Kind<K> {
    #[inline(always)]
    fn read(self, m: &Machine) -> Option<i64> {
        match (K, self.0) {
            (VAR, IntLeaf::Var(v)) => read_var(m, v),
            (GAME_STO, IntLeaf::GameSto(i)) => Some(m.table.ints[i]),
            (SPACE_STO, IntLeaf::SpaceSto { var, id, count }) => read_space_sto(m, var, id, count),
            (LOC_SIZE, IntLeaf::LocSize { var, loc, width }) => read_loc_size(m, var, loc, width),
            (PLAYER_LOC_SIZE, IntLeaf::PlayerLocSize { var, loc, width }) => {
                read_player_loc_size(m, var, loc, width)
            }
            (CURRENT_LOC_SIZE, IntLeaf::CurrentLocSize { loc, width }) => {
                read_current_loc_size(m, loc, width)
            }
            (GAME_LOC_SIZE, IntLeaf::GameLocSize(slot)) => Some(read_slot_size(m, slot)),
            (ROW, IntLeaf::Row(v)) => read_coord(m, v, true),
            (COL, IntLeaf::Col(v)) => read_coord(m, v, false),
            // Not reached: a leaf is dispatched to its own kind.
            (_, leaf) => read_any(m, leaf),
        }
    }
}

/// [`IntLeaf::read`], out of line.
#[cold]
#[inline(never)]
fn read_any(m: &Machine, leaf: IntLeaf) -> Option<i64> {
    leaf.read(m)
}

impl IntLeaf {
    /// `w` made for this leaf's kind.
    pub fn dispatch<W: WithLeaf>(self, w: W) -> W::Out {
        match self {
            IntLeaf::Lit(i) => w.with(LitLeaf(i)),
            IntLeaf::Var(_) => w.with(Kind::<VAR>(self)),
            IntLeaf::GameSto(_) => w.with(Kind::<GAME_STO>(self)),
            IntLeaf::SpaceSto { .. } => w.with(Kind::<SPACE_STO>(self)),
            IntLeaf::LocSize { .. } => w.with(Kind::<LOC_SIZE>(self)),
            IntLeaf::PlayerLocSize { .. } => w.with(Kind::<PLAYER_LOC_SIZE>(self)),
            IntLeaf::CurrentLocSize { .. } => w.with(Kind::<CURRENT_LOC_SIZE>(self)),
            IntLeaf::GameLocSize(_) => w.with(Kind::<GAME_LOC_SIZE>(self)),
            IntLeaf::Row(_) => w.with(Kind::<ROW>(self)),
            IntLeaf::Col(_) => w.with(Kind::<COL>(self)),
        }
    }
}
