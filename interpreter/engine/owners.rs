//! Evaluation of who and where: players, teams, the owners of storages
//! and locations, and the slots of storages and locations in the table;
//! the tables that find a storage or location by a name computed while
//! playing ([`SymIndex`], [`LocIndex`]).

use super::eval::R;
use super::exec::Machine;
use super::state::{OwnerId, Slot, Table};
use super::value::Value;
use crate::ir::*;

impl Machine<'_> {
    // ---- players, teams, owners ------------------------------------------

    /// Evaluates a player to a seat.
    pub fn player(&mut self, e: &PlayerExpr) -> R<u8> {
        let n = self.table.players;
        let cycle = self
            .table
            .player_cycles
            .last()
            .copied()
            .unwrap_or(super::state::Cycle::at(0));
        Ok(match e {
            PlayerExpr::If(x) => {
                let (c, a, b) = &**x;
                let pick = if self.bool(c)? { a } else { b };
                return self.player(pick);
            }
            PlayerExpr::Current => cycle.idx,
            PlayerExpr::Next => cycle.peek_next(n),
            PlayerExpr::Previous => cycle.peek_previous(n),
            PlayerExpr::Index(i) => {
                let i = self.int(i)?;
                if i < 0 || i as usize >= n {
                    return Err(
                        format!("there is no player {i} (players are 0 to {})", n - 1).into(),
                    );
                }
                i as u8
            }
            PlayerExpr::OwnerOf(c) => {
                let Some(card) = self.card(c)? else {
                    return Err("`owner` of no card (the collection is empty)".into());
                };
                let slot = self.table.card_loc[card.id as usize];
                let (owner, _) = Table::slot_parts(slot, self.tabs.loc_count);
                if owner >= 1 && (owner as usize) <= n {
                    (owner - 1) as u8
                } else {
                    return Err("`owner` of a card that no player holds".into());
                }
            }
            PlayerExpr::Var(v) => match self.var(*v) {
                Value::Player(p) => *p,
                other => return Err(self.not_a(*v, "a player", other)),
            },
        })
    }

    /// Evaluates a team to its index.
    pub fn team(&mut self, e: &TeamExpr) -> R<u8> {
        let n = self.table.teams.len();
        let cycle = self
            .table
            .team_cycles
            .last()
            .copied()
            .unwrap_or(super::state::Cycle::at(0));
        Ok(match e {
            TeamExpr::Current => cycle.idx,
            TeamExpr::Next => cycle.peek_next(n),
            TeamExpr::Previous => cycle.peek_previous(n),
            TeamExpr::Index(i) => {
                let i = self.int(i)?;
                if i < 0 || i as usize >= n {
                    return Err(format!("there is no team {i}").into());
                }
                i as u8
            }
            TeamExpr::OfPlayer(p) => {
                let p = self.player(p)?;
                self.table.team_of.get(p as usize).copied().unwrap_or(0)
            }
            TeamExpr::Var(v) => match self.var(*v) {
                Value::Team(t) => *t,
                other => return Err(self.not_a(*v, "a team", other)),
            },
        })
    }

    /// Evaluates an owner.
    #[inline(always)]
    pub fn owner(&mut self, e: &OwnerExpr) -> R<OwnerId> {
        match e {
            OwnerExpr::Game => Ok(0),
            OwnerExpr::Space(SpaceExpr::Var(v)) => match self.var(*v) {
                Value::Space(s) => Ok(self.table.space_owner(*s)),
                _ => self.owner_any(e),
            },
            // The owners of a card game's hands and tricks, read at once
            // (as `player` reads them).
            OwnerExpr::Player(PlayerExpr::Current) => {
                Ok(Table::player_owner(self.table.current_player()))
            }
            OwnerExpr::Player(PlayerExpr::Var(v)) => match self.var(*v) {
                Value::Player(p) => Ok(Table::player_owner(usize::from(*p))),
                _ => self.owner_any(e),
            },
            _ => self.owner_any(e),
        }
    }

    /// [`Machine::owner`], every form.
    #[inline(never)]
    fn owner_any(&mut self, e: &OwnerExpr) -> R<OwnerId> {
        Ok(match e {
            OwnerExpr::Game => 0,
            OwnerExpr::Space(s) => {
                let s = self.some_space(s)?;
                self.table.space_owner(s)
            }
            OwnerExpr::Player(p) => Table::player_owner(self.player(p)? as usize),
            OwnerExpr::Team(t) => {
                let t = self.team(t)? as usize;
                self.table.team_owner(t)
            }
        })
    }

    // ---- storages and locations ------------------------------------------

    #[inline(always)]
    fn name_id(&mut self, name: &NameRef<u16>, lookup: &SymIndex, what: &str) -> R<u16> {
        match name {
            NameRef::Fixed(id) => Ok(*id),
            NameRef::Dynamic(e) => self.dynamic_name_id(e, lookup, what),
        }
    }

    #[inline(never)]
    fn dynamic_name_id(&mut self, e: &StrExpr, lookup: &SymIndex, what: &str) -> R<u16> {
        let s = self.name_str(e)?;
        match lookup.get(&s) {
            Some(id) => Ok(*id),
            None => Err(self.unknown_name(what, s)),
        }
    }

    /// The string of a computed name: a variable bound to a name of a
    /// list read at once, anything else evaluated (out of line, so that
    /// the usual case saves few registers).
    #[inline(always)]
    fn name_str(&mut self, e: &StrExpr) -> R<Sym> {
        if let StrExpr::Var(v) = e {
            if let Value::Str(s) = self.var(*v) {
                return Ok(*s);
            }
        }
        self.computed_str(e)
    }

    #[inline(never)]
    fn computed_str(&mut self, e: &StrExpr) -> R<Sym> {
        self.str(e)
    }

    /// "no location named `X` in this file".
    #[cold]
    #[inline(never)]
    fn unknown_name(&self, what: &str, s: Sym) -> super::fault::Fault {
        let name = self
            .tabs
            .prog
            .symbols
            .get(s as usize)
            .map_or("", |n| n.as_str());
        format!("no {what} named `{name}` in this file").into()
    }

    /// Index of an integer storage in `table.ints`.
    #[inline]
    pub fn int_slot(&mut self, s: &IntStorage) -> R<usize> {
        let owner = self.owner(&s.owner)? as usize;
        let tabs = self.tabs;
        let id = self.name_id(&s.name, &tabs.int_lookup, "integer storage")? as usize;
        Ok(owner * tabs.int_count + id)
    }

    /// Index of a string storage in `table.strs`.
    #[inline]
    pub fn str_slot(&mut self, s: &StrStorage) -> R<usize> {
        let owner = self.owner(&s.owner)? as usize;
        let tabs = self.tabs;
        let id = self.name_id(&s.name, &tabs.str_lookup, "string storage")? as usize;
        Ok(owner * tabs.str_count + id)
    }

    /// Index of a point map in `table.points`.
    pub fn point_slot(&mut self, s: &PointStorage) -> R<usize> {
        let owner = self.owner(&s.owner)? as usize;
        let tabs = self.tabs;
        let id = self.name_id(&s.name, &tabs.point_lookup, "point map")? as usize;
        Ok(owner * tabs.point_count + id)
    }

    /// The point map (if set), borrowed with the table its scores read:
    /// no reference count is touched, since the map may be shared by
    /// every thread's copy of the kept start (bench/scaling/atomics.py).
    pub fn points(&mut self, s: &PointStorage) -> R<(&Table, Option<&super::state::PointMap>)> {
        let i = self.point_slot(s)?;
        let table = &*self.table;
        Ok((table, table.points[i].as_deref()))
    }

    /// The slot of a location.
    #[inline(always)]
    pub fn location(&mut self, l: &LocationExpr) -> R<Slot> {
        let owner = self.owner(&l.owner)?;
        match &l.name {
            NameRef::Fixed(id) => Ok(owner * self.tabs.loc_count as u32 + *id as u32),
            NameRef::Dynamic(e) => self.dynamic_location(owner, l.kind, e),
        }
    }

    #[inline(never)]
    fn dynamic_location(&mut self, owner: OwnerId, kind: LocKind, e: &StrExpr) -> R<Slot> {
        let s = self.name_str(e)?;
        match self.tabs.loc_lookup.get(&(kind, s)) {
            Some(id) => Ok(owner * self.tabs.loc_count as u32 + *id as u32),
            None => Err(self.unknown_name("location", s)),
        }
    }
}

/// The id of each storage name by its symbol: a name computed while
/// playing (a variable bound to an item of a declared list of names) finds
/// its storage with one index, no hashing.
#[derive(Debug, Default)]
pub struct SymIndex {
    /// By symbol; [`NONE`] where the symbol names no storage.
    ids: Vec<u16>,
}

/// No id.
const NONE: u16 = u16::MAX;

impl SymIndex {
    /// The index of `names` (id i is `names[i]`) among `symbols` symbols.
    pub fn new(symbols: usize, names: &[Sym]) -> SymIndex {
        let mut ids = vec![NONE; symbols];
        for (i, s) in names.iter().enumerate() {
            if let Some(slot) = ids.get_mut(*s as usize) {
                *slot = i as u16;
            }
        }
        SymIndex { ids }
    }

    /// The id of the storage named `sym`.
    #[inline]
    pub fn get(&self, sym: &Sym) -> Option<&u16> {
        self.ids.get(*sym as usize).filter(|id| **id != NONE)
    }
}

/// The id of each location name by its kind and symbol, as [`SymIndex`].
#[derive(Debug, Default)]
pub struct LocIndex {
    /// By `symbol * KINDS + kind`; [`NONE`] where there is no location.
    ids: Vec<u16>,
}

/// The kinds of location (`vloc iloc hloc oloc mem`).
const KINDS: usize = 5;

impl LocIndex {
    /// The index of `names` (id i is `names[i]`) among `symbols` symbols.
    pub fn new(symbols: usize, names: &[LocName]) -> LocIndex {
        let mut ids = vec![NONE; symbols * KINDS];
        for (i, l) in names.iter().enumerate() {
            if let Some(slot) = ids.get_mut(l.name as usize * KINDS + l.kind as usize) {
                *slot = i as u16;
            }
        }
        LocIndex { ids }
    }

    /// The id of location `(kind, sym)`.
    #[inline]
    pub fn get(&self, (kind, sym): &(LocKind, Sym)) -> Option<&u16> {
        self.ids
            .get(*sym as usize * KINDS + *kind as usize)
            .filter(|id| **id != NONE)
    }
}
