//! Evaluation of expressions (integers, strings, conditions, players,
//! teams, cards, collections) against the table.

use super::exec::Machine;
use super::state::{CardId, OwnerId, Slot, Table};

use super::value::{CardRef, Cards, Items, Value};
use crate::ir::*;
use crate::random::below;

/// A runtime error of the rules: its message, boxed so that results stay
/// two words wide on the hot paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault(Box<str>);

impl From<String> for Fault {
    fn from(s: String) -> Fault {
        Fault(s.into_boxed_str())
    }
}

impl From<&str> for Fault {
    fn from(s: &str) -> Fault {
        Fault(s.into())
    }
}

impl From<Fault> for String {
    fn from(f: Fault) -> String {
        f.0.into()
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A result of running the rules.
pub type R<T> = Result<T, Fault>;

impl Machine<'_> {
    pub(super) fn var(&self, v: VarId) -> &Value {
        self.vars.get(v as usize).unwrap_or(&Value::Unset)
    }

    /// The number of rows (or columns) that `spaces` span.
    fn spanned(&self, spaces: &[u32], rows: bool) -> R<i64> {
        let mut seen: Vec<(u32, u32)> = Vec::with_capacity(spaces.len());
        for &s in spaces {
            let b = self.board_of(s)?;
            let (r, c) = b.coords(s);
            let key = (b.first, if rows { r } else { c });
            if !seen.contains(&key) {
                seen.push(key);
            }
        }
        Ok(seen.len() as i64)
    }

    /// The cards of a card or card-collection variable, borrowed.
    pub(super) fn var_cards(&self, v: VarId) -> R<&[CardId]> {
        match self.var(v) {
            Value::Cards(c) => Ok(c),
            Value::Card(c) => Ok(std::slice::from_ref(c)),
            Value::Unset => Ok(&[]),
            other => Err(format!(
                "`'{}` is not a card collection ({other:?})",
                self.var_name(v)
            )
            .into()),
        }
    }

    pub(super) fn var_name(&self, v: VarId) -> String {
        self.tabs
            .prog
            .var_names
            .get(v as usize)
            .cloned()
            .unwrap_or_default()
    }

    /// Draws a number below `n` from the game's chance.
    pub fn draw(&mut self, n: usize) -> usize {
        self.save_rng();
        below(&mut self.table.rng, n)
    }

    // ---- integers -------------------------------------------------------

    /// Evaluates an integer.
    pub fn int(&mut self, e: &IntExpr) -> R<i64> {
        Ok(match e {
            IntExpr::Lit(i) => *i,
            IntExpr::Var(v) => match self.var(*v) {
                Value::Int(i) => *i,
                Value::Bool(b) => *b as i64,
                other => {
                    return Err(
                        format!("`'{}` is not an integer ({other:?})", self.var_name(*v)).into(),
                    )
                }
            },
            IntExpr::Storage(s) => {
                let i = self.int_slot(s)?;
                self.table.ints[i]
            }
            IntExpr::Size(c) => self.size(c)? as i64,
            IntExpr::Binary(op, a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                match op {
                    IntOp::Add => a.wrapping_add(b),
                    IntOp::Sub => a.wrapping_sub(b),
                    IntOp::Mul => a.wrapping_mul(b),
                    IntOp::Div => a.checked_div(b).ok_or("division by zero in `//`")?,
                    IntOp::Mod => a.checked_rem_euclid(b).ok_or("division by zero in `%`")?,
                    IntOp::Pow => {
                        if b < 0 {
                            0
                        } else {
                            a.wrapping_pow(b.min(u32::MAX as i64) as u32)
                        }
                    }
                }
            }
            IntExpr::Tri(n) => {
                let n = self.int(n)?;
                n.wrapping_mul(n + 1) / 2
            }
            IntExpr::Fib(n) => {
                let n = self.int(n)?.clamp(0, 90);
                let (mut a, mut b) = (0i64, 1i64);
                for _ in 0..n {
                    (a, b) = (b, a + b);
                }
                a
            }
            IntExpr::Random(a, b) => {
                let (lo, hi) = match b {
                    Some(b) => (self.int(a)?, self.int(b)?),
                    None => (0, self.int(a)?),
                };
                if hi < lo {
                    return Err(format!("`random` from {lo} to {hi}: the range is empty").into());
                }
                let span = (hi - lo + 1) as usize;
                lo + self.draw(span) as i64
            }
            IntExpr::Sum(c, p) => {
                let cards = self.cards(c)?;
                let map = self.points(p)?;
                let mut total = 0;
                for id in cards.slice(self.table) {
                    total += map.as_ref().map_or(0, |m| m.score(self.table.attrs(*id)));
                }
                total
            }
            IntExpr::Score(c, p) => {
                let card = self.card(c)?;
                let map = self.points(p)?;
                match (card, map) {
                    (Some(c), Some(m)) => m.score(self.table.attrs(c.id)),
                    _ => 0,
                }
            }
            IntExpr::SpaceIndex(s) => {
                let s = self.some_space(s)?;
                let b = self.board_of(s)?;
                (s - b.first) as i64
            }
            IntExpr::SpaceRow(s) => {
                let s = self.some_space(s)?;
                self.board_of(s)?.coords(s).0 as i64
            }
            IntExpr::SpaceCol(s) => {
                let s = self.some_space(s)?;
                self.board_of(s)?.coords(s).1 as i64
            }
            IntExpr::RowsSpanned(c) | IntExpr::ColsSpanned(c) => {
                let rows = matches!(e, IntExpr::RowsSpanned(_));
                if let CollectionExpr::Var(v, _) = &**c {
                    if let Value::Spaces(spaces) = self.var(*v) {
                        return self.spanned(spaces, rows);
                    }
                }
                let Items::Spaces(spaces) = self.items(c)? else {
                    return Err("`rows` and `cols` count the rows or columns of spaces".into());
                };
                self.spanned(&spaces, rows)?
            }
            IntExpr::MinOf(c) | IntExpr::MaxOf(c) | IntExpr::FirstOf(c) => {
                let Items::Ints(ints) = self.items(c)? else {
                    return Err("`min`, `max` and `first` without `using` take integers".into());
                };
                let got = match e {
                    IntExpr::MinOf(_) => ints.iter().min(),
                    IntExpr::MaxOf(_) => ints.iter().max(),
                    _ => ints.first(),
                };
                *got.ok_or("`min`, `max` or `first` of an empty collection of integers")?
            }
            IntExpr::SumAll { over, var, storage } => {
                let items = self.items(over)?;
                let mut total = 0i64;
                for i in 0..items.len() {
                    self.vars[*var as usize] = items.get(i);
                    let slot = self.int_slot(storage)?;
                    total = total.wrapping_add(self.table.ints[slot]);
                }
                total
            }
        })
    }

    /// The number of items of a collection.
    fn size(&mut self, c: &CollectionExpr) -> R<usize> {
        match c {
            CollectionExpr::Cards(CardsExpr::Filter(src, var, cond)) => {
                let mut n = 0;
                self.filter_cards(src, *var, cond, |_| n += 1)?;
                Ok(n)
            }
            CollectionExpr::Cards(CardsExpr::Var(v)) => Ok(self.var_cards(*v)?.len()),
            CollectionExpr::Var(v, _) => match self.var(*v).items_len() {
                Some(n) => Ok(n),
                None => Ok(self.items(c)?.len()),
            },
            CollectionExpr::Cards(cards) => Ok(match self.cards(cards)? {
                Cards::Slot(s) => self.table.locs[s as usize].len(),
                Cards::List(v) => v.len(),
            }),
            _ => Ok(self.items(c)?.len()),
        }
    }

    // ---- strings ----------------------------------------------------------

    /// Evaluates a string to its symbol.
    pub fn str(&mut self, e: &StrExpr) -> R<Sym> {
        Ok(match e {
            StrExpr::Lit(s) => *s,
            StrExpr::Var(v) => match self.var(*v) {
                Value::Str(s) => *s,
                Value::Unset => EMPTY,
                other => {
                    return Err(
                        format!("`'{}` is not a string ({other:?})", self.var_name(*v)).into(),
                    )
                }
            },
            StrExpr::Storage(s) => {
                let i = self.str_slot(s)?;
                self.table.strs[i]
            }
            StrExpr::CardAtt(attr, card) => {
                let key = self.attr(attr)?;
                match (key, self.card(card)?) {
                    (Some(k), Some(c)) => self
                        .table
                        .attrs(c.id)
                        .get(k as usize)
                        .copied()
                        .unwrap_or(EMPTY),
                    _ => EMPTY,
                }
            }
        })
    }

    /// Resolves an attribute key.
    pub fn attr(&mut self, a: &AttrRef) -> R<Option<AttrId>> {
        Ok(match a {
            AttrRef::Key(k) => Some(*k),
            AttrRef::Unknown => None,
            AttrRef::Dynamic(e) => {
                let s = self.str(e)?;
                self.tabs.attr_lookup.get(&s).copied()
            }
        })
    }

    // ---- conditions -------------------------------------------------------

    /// Evaluates a condition.
    pub fn bool(&mut self, e: &BoolExpr) -> R<bool> {
        Ok(match e {
            BoolExpr::Var(v) => match self.var(*v) {
                Value::Bool(b) => *b,
                Value::Int(i) => *i != 0,
                other => {
                    return Err(
                        format!("`'{}` is not a boolean ({other:?})", self.var_name(*v)).into(),
                    )
                }
            },
            BoolExpr::And(xs) => {
                for x in xs {
                    if !self.bool(x)? {
                        return Ok(false);
                    }
                }
                true
            }
            BoolExpr::Or(xs) => {
                for x in xs {
                    if self.bool(x)? {
                        return Ok(true);
                    }
                }
                false
            }
            BoolExpr::Not(x) => !self.bool(x)?,
            BoolExpr::Int(op, a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                match op {
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                    CmpOp::Eq => a == b,
                    CmpOp::Ne => a != b,
                }
            }
            BoolExpr::Str { eq, left, right } => (self.str(left)? == self.str(right)?) == *eq,
            BoolExpr::Card { eq, left, right } => {
                let l = self.card(left)?.map(|c| c.id);
                let r = self.card(right)?.map(|c| c.id);
                (l == r) == *eq
            }
            BoolExpr::Player { eq, left, right } => {
                (self.player(left)? == self.player(right)?) == *eq
            }
            BoolExpr::Team { eq, left, right } => (self.team(left)? == self.team(right)?) == *eq,
            BoolExpr::Space { eq, left, right } => (self.space(left)? == self.space(right)?) == *eq,
            BoolExpr::OnBoard(s) => self.space(s)?.is_some(),
            BoolExpr::Any { over, var, body } => self.quantify(over, *var, body, true)?,
            BoolExpr::All { over, var, body } => self.quantify(over, *var, body, false)?,
        })
    }

    /// `any` (`some` true) or `all` over a collection in a condition,
    /// without copying the common collections (conditions do not change
    /// the table).
    fn quantify(
        &mut self,
        over: &CollectionExpr,
        var: VarId,
        body: &BoolExpr,
        some: bool,
    ) -> R<bool> {
        let picker = self.picker(over)?;
        for i in 0..picker.len(self) {
            let item = picker.get(i, self);
            self.vars[var as usize] = item;
            if self.bool(body)? == some {
                return Ok(some);
            }
        }
        Ok(!some)
    }

    /// A collection ready to be iterated by index: a location or the seats
    /// are not copied.
    pub fn picker(&mut self, over: &CollectionExpr) -> R<Picker> {
        Ok(match over {
            CollectionExpr::AllPlayers => Picker::Seats(self.table.players),
            CollectionExpr::Cards(CardsExpr::Var(v)) => {
                self.var_cards(*v)?;
                Picker::Var(*v)
            }
            CollectionExpr::Var(v, _) if self.var(*v).items_len().is_some() => Picker::Var(*v),
            CollectionExpr::Cards(c) => Picker::Cards(self.cards(c)?),
            CollectionExpr::OtherPlayers => Picker::OtherSeats {
                seats: self.table.players,
                current: self.table.current_player(),
            },
            CollectionExpr::Spaces(b) => {
                let b = self
                    .table
                    .boards
                    .boards
                    .get(*b as usize)
                    .ok_or("no such board")?;
                Picker::Spaces(b.first, b.len())
            }
            other => Picker::Items(self.items(other)?),
        })
    }

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
                other => {
                    return Err(
                        format!("`'{}` is not a player ({other:?})", self.var_name(*v)).into(),
                    )
                }
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
                other => {
                    return Err(
                        format!("`'{}` is not a team ({other:?})", self.var_name(*v)).into(),
                    )
                }
            },
        })
    }

    /// Evaluates an owner.
    pub fn owner(&mut self, e: &OwnerExpr) -> R<OwnerId> {
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

    fn name_id(
        &mut self,
        name: &NameRef<u16>,
        lookup: &std::collections::HashMap<Sym, u16>,
        what: &str,
    ) -> R<u16> {
        match name {
            NameRef::Fixed(id) => Ok(*id),
            NameRef::Dynamic(e) => {
                let s = self.str(e)?;
                lookup.get(&s).copied().ok_or_else(|| {
                    format!(
                        "no {what} named `{}` in this file",
                        self.tabs.prog.symbols[s as usize]
                    )
                    .into()
                })
            }
        }
    }

    /// Index of an integer storage in `table.ints`.
    pub fn int_slot(&mut self, s: &IntStorage) -> R<usize> {
        let owner = self.owner(&s.owner)? as usize;
        let tabs = self.tabs;
        let id = self.name_id(&s.name, &tabs.int_lookup, "integer storage")? as usize;
        Ok(owner * tabs.int_count + id)
    }

    /// Index of a string storage in `table.strs`.
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

    /// The point map (if set).
    pub fn points(
        &mut self,
        s: &PointStorage,
    ) -> R<Option<std::sync::Arc<super::state::PointMap>>> {
        let i = self.point_slot(s)?;
        Ok(self.table.points[i].clone())
    }

    /// The slot of a location.
    pub fn location(&mut self, l: &LocationExpr) -> R<Slot> {
        let owner = self.owner(&l.owner)?;
        let id = match &l.name {
            NameRef::Fixed(id) => *id,
            NameRef::Dynamic(e) => {
                let s = self.str(e)?;
                *self.tabs.loc_lookup.get(&(l.kind, s)).ok_or_else(|| {
                    format!(
                        "no location named `{}` in this file",
                        self.tabs.prog.symbols[s as usize]
                    )
                })?
            }
        };
        Ok(owner * self.tabs.loc_count as u32 + id as u32)
    }

    // ---- cards --------------------------------------------------------------

    /// Evaluates a card; `None` is "no card" (e.g. the top of an empty pile).
    pub fn card(&mut self, e: &CardExpr) -> R<Option<CardRef>> {
        Ok(match e {
            CardExpr::Var(v) => match self.var(*v) {
                Value::Card(id) => Some(CardRef {
                    id: *id,
                    slot: self.table.card_loc[*id as usize],
                }),
                Value::Unset => None,
                other => {
                    return Err(
                        format!("`'{}` is not a card ({other:?})", self.var_name(*v)).into(),
                    )
                }
            },
            CardExpr::At(pos, cards) => {
                if let CardsExpr::Var(v) = &**cards {
                    // A variable's cards are read in place, not copied.
                    let len = self.var_cards(*v)?.len();
                    let index = self.pos_index(pos, len)?;
                    let id = index.and_then(|i| self.var_cards(*v).ok()?.get(i).copied());
                    return Ok(id.map(|id| CardRef {
                        id,
                        slot: self.table.card_loc[id as usize],
                    }));
                }
                let cards = self.cards(cards)?;
                let index = self.pos_index(pos, cards.slice(self.table).len())?;
                let slice = cards.slice(self.table);
                match index.and_then(|i| slice.get(i)) {
                    None => None,
                    Some(&id) => Some(CardRef {
                        id,
                        slot: match cards {
                            Cards::Slot(s) => s,
                            Cards::List(_) => self.table.card_loc[id as usize],
                        },
                    }),
                }
            }
            CardExpr::Max(cards, p) | CardExpr::Min(cards, p) => {
                let want_max = matches!(e, CardExpr::Max(..));
                let list = self.cards(cards)?.into_vec(self.table);
                let map = self.points(p)?;
                let scores: Vec<i64> = list
                    .iter()
                    .map(|id| map.as_ref().map_or(0, |m| m.score(self.table.attrs(*id))))
                    .collect();
                let best = if want_max {
                    scores.iter().max()
                } else {
                    scores.iter().min()
                };
                let Some(&best) = best else { return Ok(None) };
                let tied: Vec<CardId> = list
                    .iter()
                    .zip(&scores)
                    .filter(|(_, s)| **s == best)
                    .map(|(c, _)| *c)
                    .collect();
                let pick = if tied.len() == 1 {
                    0
                } else {
                    self.draw(tied.len())
                };
                let id = tied[pick];
                Some(CardRef {
                    id,
                    slot: self.table.card_loc[id as usize],
                })
            }
            CardExpr::Actual(c) => self.card(c)?.map(|c| CardRef {
                id: c.id,
                slot: self.table.card_loc[c.id as usize],
            }),
        })
    }

    /// The vector index (bottom first) of a position in a collection of `len`.
    pub fn pos_index(&mut self, pos: &Pos, len: usize) -> R<Option<usize>> {
        Ok(match pos {
            Pos::Top => len.checked_sub(1),
            Pos::Bottom => (len > 0).then_some(0),
            Pos::Index(i) => {
                let i = self.int(i)?;
                if i < 0 || i as usize >= len {
                    None
                } else {
                    Some(len - 1 - i as usize)
                }
            }
        })
    }

    /// Evaluates a card collection.
    pub fn cards(&mut self, e: &CardsExpr) -> R<Cards> {
        Ok(match e {
            CardsExpr::Location(l) => Cards::Slot(self.location(l)?),
            CardsExpr::Var(v) => match self.var(*v) {
                Value::Cards(c) => Cards::List(c.clone()),
                Value::Card(c) => Cards::List(vec![*c]),
                Value::Unset => Cards::List(Vec::new()),
                other => {
                    return Err(format!(
                        "`'{}` is not a card collection ({other:?})",
                        self.var_name(*v)
                    )
                    .into())
                }
            },
            CardsExpr::Filter(src, var, cond) => {
                let mut out = Vec::new();
                self.filter_cards(src, *var, cond, |id| out.push(id))?;
                Cards::List(out)
            }
            CardsExpr::Union(xs) => {
                let mut out = Vec::new();
                for x in xs {
                    let c = self.cards(x)?;
                    for id in c.slice(self.table) {
                        if !out.contains(id) {
                            out.push(*id);
                        }
                    }
                }
                Cards::List(out)
            }
            CardsExpr::UnionAll(cc) => {
                let mut out = Vec::new();
                for coll in self.collections(cc)? {
                    for id in coll {
                        if !out.contains(&id) {
                            out.push(id);
                        }
                    }
                }
                Cards::List(out)
            }
            CardsExpr::Intersect(xs) => {
                let mut lists = Vec::new();
                for x in xs {
                    lists.push(self.cards(x)?.into_vec(self.table));
                }
                Cards::List(super::collections::intersect(lists))
            }
            CardsExpr::IntersectAll(cc) => {
                Cards::List(super::collections::intersect(self.collections(cc)?))
            }
            CardsExpr::Disjunction(xs) => {
                let mut lists = Vec::new();
                for x in xs {
                    lists.push(self.cards(x)?.into_vec(self.table));
                }
                Cards::List(super::collections::disjunction(lists))
            }
            CardsExpr::DisjunctionAll(cc) => {
                Cards::List(super::collections::disjunction(self.collections(cc)?))
            }
            CardsExpr::Sort(src, p) => {
                let mut list = self.cards(src)?.into_vec(self.table);
                let map = self.points(p)?;
                let table = &*self.table;
                list.sort_by_key(|id| map.as_ref().map_or(0, |m| m.score(table.attrs(*id))));
                Cards::List(list)
            }
            CardsExpr::Pick(pos, cc) => {
                // In a collection of collections the first one is the top.
                let colls = self.collections(cc)?;
                let len = colls.len();
                let i = self.pos_index(pos, len)?.map(|i| len - 1 - i);
                Cards::List(i.and_then(|i| colls.into_iter().nth(i)).unwrap_or_default())
            }
            CardsExpr::Sequence { top, count, source } => {
                let n = self.int(count)?.max(0) as usize;
                let list = self.cards(source)?.into_vec(self.table);
                let n = n.min(list.len());
                Cards::List(if *top {
                    list[list.len() - n..].to_vec()
                } else {
                    list[..n].to_vec()
                })
            }
            CardsExpr::RunFrom {
                top,
                min,
                source,
                points,
            } => {
                let min = self.int(min)?.max(1) as usize;
                let list = self.cards(source)?.into_vec(self.table);
                let scores = self.scores(&list, points)?;
                Cards::List(super::collections::run_from(&list, &scores, *top, min))
            }
        })
    }

    /// Calls `keep` with each card of `src` that meets `cond`, in order,
    /// without copying a location (conditions do not change the table).
    fn filter_cards(
        &mut self,
        src: &CardsExpr,
        var: VarId,
        cond: &BoolExpr,
        mut keep: impl FnMut(CardId),
    ) -> R<()> {
        match self.cards(src)? {
            Cards::Slot(slot) => {
                let mut i = 0;
                while let Some(&id) = self.table.locs[slot as usize].get(i) {
                    self.vars[var as usize] = Value::Card(id);
                    if self.bool(cond)? {
                        keep(id);
                    }
                    i += 1;
                }
            }
            Cards::List(list) => {
                for id in list {
                    self.vars[var as usize] = Value::Card(id);
                    if self.bool(cond)? {
                        keep(id);
                    }
                }
            }
        }
        Ok(())
    }

    /// Scores of `list` under a point map (0 when the map is not set).
    pub fn scores(&mut self, list: &[CardId], p: &PointStorage) -> R<Vec<i64>> {
        let map = self.points(p)?;
        Ok(list
            .iter()
            .map(|id| map.as_ref().map_or(0, |m| m.score(self.table.attrs(*id))))
            .collect())
    }

    /// Evaluates a collection of card collections.
    pub fn collections(&mut self, e: &CollectionsExpr) -> R<Vec<Vec<CardId>>> {
        use super::collections as c;
        Ok(match e {
            CollectionsExpr::Var(v) => match self.var(*v) {
                Value::Colls(c) => c.clone(),
                other => {
                    return Err(format!(
                        "`'{}` is not a collection of card collections ({other:?})",
                        self.var_name(*v)
                    )
                    .into())
                }
            },
            CollectionsExpr::Tuples {
                size,
                source,
                points,
            } => {
                let n = self.int(size)?.max(0) as usize;
                let list = self.cards(source)?.into_vec(self.table);
                let scores = self.scores(&list, points)?;
                c::tuples(&list, &scores, n)?
            }
            CollectionsExpr::Partition { attr, sources } => {
                let mut list = Vec::new();
                for s in sources {
                    for id in self.cards(s)?.slice(self.table) {
                        if !list.contains(id) {
                            list.push(*id);
                        }
                    }
                }
                self.partition(attr, list)?
            }
            CollectionsExpr::PartitionAll { attr, source } => {
                let mut list = Vec::new();
                for coll in self.collections(source)? {
                    for id in coll {
                        if !list.contains(&id) {
                            list.push(id);
                        }
                    }
                }
                self.partition(attr, list)?
            }
            CollectionsExpr::Subsets(src) => {
                let list = self.cards(src)?.into_vec(self.table);
                c::subsets(&list)?
            }
            CollectionsExpr::Runs {
                largest,
                min,
                source,
                points,
            } => {
                let min = self.int(min)?.max(1) as usize;
                let list = self.cards(source)?.into_vec(self.table);
                let scores = self.scores(&list, points)?;
                c::runs(&list, &scores, min, *largest)?
            }
            CollectionsExpr::All { over, var, body } => {
                let items = self.items(over)?;
                let mut out = Vec::with_capacity(items.len());
                for i in 0..items.len() {
                    self.vars[*var as usize] = items.get(i);
                    out.push(self.cards(body)?.into_vec(self.table));
                }
                out
            }
        })
    }

    fn partition(&mut self, attr: &StrExpr, list: Vec<CardId>) -> R<Vec<Vec<CardId>>> {
        let key = self.str(attr)?;
        let key = self.tabs.attr_lookup.get(&key).copied();
        let mut groups: Vec<(Sym, Vec<CardId>)> = Vec::new();
        for id in list {
            let v = key
                .and_then(|k| self.table.attrs(id).get(k as usize).copied())
                .unwrap_or(EMPTY);
            match groups.iter_mut().find(|(g, _)| *g == v) {
                Some((_, cards)) => cards.push(id),
                None => groups.push((v, vec![id])),
            }
        }
        Ok(groups.into_iter().map(|(_, c)| c).collect())
    }

    /// Evaluates any collection to its items (for `any`, `all`, `filter`, `size`).
    pub fn items(&mut self, e: &CollectionExpr) -> R<Items> {
        let n = self.table.players;
        Ok(match e {
            CollectionExpr::Cards(c) => Items::Cards(self.cards(c)?.into_vec(self.table)),
            CollectionExpr::Collections(c) => Items::Colls(self.collections(c)?),
            CollectionExpr::AllPlayers => Items::Players((0..n as u8).collect()),
            CollectionExpr::OtherPlayers => {
                // Seat order, leaving out the current player (as CardStock).
                let cur = self.table.current_player();
                Items::Players((0..n).filter(|&p| p != cur).map(|p| p as u8).collect())
            }
            CollectionExpr::AllTeams => Items::Teams((0..self.table.teams.len() as u8).collect()),
            CollectionExpr::OtherTeams => {
                let t = self.table.teams.len();
                let cur = self.table.current_team();
                Items::Teams((1..t).map(|k| ((cur + k) % t) as u8).collect())
            }
            CollectionExpr::TeamPlayers(t) => {
                let t = self.team(t)? as usize;
                Items::Players(self.table.teams.get(t).cloned().unwrap_or_default())
            }
            CollectionExpr::Spaces(b) => {
                let b = self
                    .table
                    .boards
                    .boards
                    .get(*b as usize)
                    .ok_or("no such board")?;
                Items::Spaces((b.first..b.first + b.len()).collect())
            }
            CollectionExpr::Group { from, var, cond } => match self.space(from)? {
                None => Items::Spaces(Vec::new()),
                Some(start) => {
                    let board = self.board_of(start)?.clone();
                    Items::Spaces(board.flood(start, |s| {
                        self.vars[*var as usize] = Value::Space(s);
                        self.bool(cond).map_err(String::from)
                    })?)
                }
            },
            CollectionExpr::Strings(s) => Items::Strs(s.clone()),
            CollectionExpr::Range(a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                if b - a > 1_000_000 {
                    return Err(format!("`range` from {a} to {b} is too large").into());
                }
                Items::Ints((a..=b).collect())
            }
            CollectionExpr::Var(v, _) => match self.var(*v).clone() {
                Value::Cards(c) => Items::Cards(c),
                Value::Colls(c) => Items::Colls(c),
                Value::Players(c) => Items::Players(c),
                Value::Teams(c) => Items::Teams(c),
                Value::Strs(c) => Items::Strs(c),
                Value::Ints(c) => Items::Ints(c),
                Value::Spaces(c) => Items::Spaces(c),
                Value::Unset => Items::Cards(Vec::new()),
                other => {
                    return Err(
                        format!("`'{}` is not a collection ({other:?})", self.var_name(*v)).into(),
                    )
                }
            },
            CollectionExpr::Filter(src, var, cond) => {
                let items = self.items(src)?;
                let mut keep = Vec::with_capacity(items.len());
                for i in 0..items.len() {
                    self.vars[*var as usize] = items.get(i);
                    keep.push(self.bool(cond)?);
                }
                items.retain_indices(&keep)
            }
        })
    }
}

/// A collection iterated by index (see [`Machine::picker`]). A location is
/// read where it lies, so the table must not change while one is in use.
pub enum Picker {
    /// Seats `0..n`.
    Seats(usize),
    /// Seats `0..seats` but `current`, in seat order.
    OtherSeats { seats: usize, current: usize },
    /// Spaces `first..first + len`.
    Spaces(u32, u32),
    /// The items of a collection variable, read in place: a variable is
    /// not bound again while a form inside its scope runs.
    Var(VarId),
    /// Cards.
    Cards(Cards),
    /// Anything else, evaluated.
    Items(Items),
}

impl Picker {
    /// Number of items.
    pub fn len(&self, m: &Machine) -> usize {
        match self {
            Picker::Seats(n) => *n,
            Picker::OtherSeats { seats, .. } => seats.saturating_sub(1),
            Picker::Spaces(_, n) => *n as usize,
            Picker::Var(v) => match m.var(*v) {
                Value::Card(_) => 1,
                value => value.items_len().unwrap_or(0),
            },
            Picker::Cards(c) => c.slice(m.table).len(),
            Picker::Items(i) => i.len(),
        }
    }

    /// Item `i` as a value.
    pub fn get(&self, i: usize, m: &Machine) -> Value {
        match self {
            Picker::Seats(_) => Value::Player(i as u8),
            Picker::OtherSeats { current, .. } => {
                Value::Player(if i < *current { i } else { i + 1 } as u8)
            }
            Picker::Spaces(first, _) => Value::Space(first + i as u32),
            Picker::Var(v) => match m.var(*v) {
                Value::Card(c) if i == 0 => Value::Card(*c),
                value => value.item(i),
            },
            Picker::Cards(c) => c
                .slice(m.table)
                .get(i)
                .map_or(Value::Unset, |id| Value::Card(*id)),
            Picker::Items(items) => items.get(i),
        }
    }
}
