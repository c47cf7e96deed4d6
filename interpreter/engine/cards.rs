//! Evaluation of cards and collections: a card, a card collection (a
//! location in place or a computed list), collections of collections, and
//! the items `any`/`all`/`filter` iterate over.

use super::collections::Distinct;
use super::eval::R;
use super::exec::Machine;
use super::state::CardId;
use super::value::{CardRef, Cards, Items, Value};
use crate::ir::*;

impl Machine<'_> {
    /// A collection ready to be iterated by index: a location or the seats
    /// are not copied. Its items are counted as steps of work.
    pub fn picker(&mut self, over: &CollectionExpr) -> R<Picker> {
        let (picker, n) = match over {
            CollectionExpr::AllPlayers => {
                let n = self.table.players;
                (Picker::Seats(n), n)
            }
            CollectionExpr::Cards(CardsExpr::Var(v)) => {
                (Picker::Var(*v), self.var_cards(*v)?.len())
            }
            CollectionExpr::Var(v, _) if self.var(*v).items_len().is_some() => {
                (Picker::Var(*v), self.var(*v).items_len().unwrap_or(0))
            }
            CollectionExpr::Cards(c) => {
                let cards = self.cards(c)?;
                let n = cards.slice(self.table).len();
                (Picker::Cards(cards), n)
            }
            CollectionExpr::OtherPlayers => {
                let seats = self.table.players;
                let current = self.table.current_player();
                (Picker::OtherSeats { seats, current }, seats)
            }
            CollectionExpr::Spaces(b) => {
                let b = self
                    .table
                    .boards
                    .boards
                    .get(*b as usize)
                    .ok_or("no such board")?;
                (Picker::Spaces(b.first, b.len()), b.len() as usize)
            }
            // Counted by `items`.
            other => return Ok(Picker::Items(self.items(other)?)),
        };
        self.charge(n)?;
        Ok(picker)
    }

    // ---- cards --------------------------------------------------------------

    /// Evaluates a card; `None` is "no card" (e.g. the top of an empty pile).
    #[inline(always)]
    pub fn card(&mut self, e: &CardExpr) -> R<Option<CardRef>> {
        match e {
            CardExpr::At(Pos::Top, cards) => match &**cards {
                CardsExpr::Location(l) => {
                    let slot = self.location(l)?;
                    let top = self.table.locs.get(slot as usize).and_then(|l| l.last());
                    Ok(top.map(|&id| CardRef { id, slot }))
                }
                _ => self.card_any(e),
            },
            _ => self.card_any(e),
        }
    }

    /// [`Machine::card`], every form.
    #[inline(never)]
    fn card_any(&mut self, e: &CardExpr) -> R<Option<CardRef>> {
        Ok(match e {
            CardExpr::Var(v) => match self.var(*v) {
                Value::Card(id) => Some(CardRef {
                    id: *id,
                    slot: self.table.card_loc[*id as usize],
                }),
                Value::Unset => None,
                other => return Err(self.not_a(*v, "a card", other)),
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
                return self.extreme_card(cards, p, matches!(e, CardExpr::Max(..)));
            }
            CardExpr::Actual(c) => self.card(c)?.map(|c| CardRef {
                id: c.id,
                slot: self.table.card_loc[c.id as usize],
            }),
            CardExpr::LastMoved => self.table.last_moved.and_then(|id| {
                Some(CardRef {
                    id,
                    slot: *self.table.card_loc.get(id as usize)?,
                })
            }),
        })
    }

    /// `max` (`want_max`) or `min` of `cards` using a point map: the card
    /// with the best score (0 for every card when the map is not set), ties
    /// broken by a draw among the tied cards in their order (no draw when
    /// one card is best), `None` for no card. The cards are read where
    /// they lie (a location or a variable), nothing is copied.
    fn extreme_card(
        &mut self,
        cards: &CardsExpr,
        p: &PointStorage,
        want_max: bool,
    ) -> R<Option<CardRef>> {
        let held = match cards {
            CardsExpr::Var(v) => {
                self.var_cards(*v)?;
                None
            }
            c => Some(self.cards(c)?),
        };
        let map = self.point_slot(p)?;
        let (best, ties) = {
            let (list, map) = self.scored(cards, &held, map);
            // The best score, how many cards have it, and the first of
            // them (the one taken, with no draw, when it is alone).
            let mut best = None;
            let mut ties = 0usize;
            for &id in list {
                let s = card_score(self.table, map, id);
                match best {
                    Some((b, _)) if s == b => ties += 1,
                    Some((b, _)) if (s < b) == want_max => {}
                    _ => (best, ties) = (Some((s, id)), 1),
                }
            }
            (best, ties)
        };
        let Some((best, first)) = best else {
            return Ok(None);
        };
        if ties == 1 {
            return Ok(Some(CardRef {
                id: first,
                slot: self.table.card_loc[first as usize],
            }));
        }
        let pick = self.draw(ties);
        let (list, map) = self.scored(cards, &held, map);
        let id = list
            .iter()
            .copied()
            .filter(|&id| card_score(self.table, map, id) == best)
            .nth(pick)
            .ok_or("internal: a best card is missing")?;
        Ok(Some(CardRef {
            id,
            slot: self.table.card_loc[id as usize],
        }))
    }

    /// The cards of [`Machine::extreme_card`] (`held`, or those of the
    /// variable `cards` reads) and the point map at `map`.
    fn scored<'a>(
        &'a self,
        cards: &CardsExpr,
        held: &'a Option<Cards>,
        map: usize,
    ) -> (&'a [CardId], Option<&'a super::state::PointMap>) {
        let list = match (held, cards) {
            (Some(c), _) => c.slice(self.table),
            (None, CardsExpr::Var(v)) => self.var_cards(*v).unwrap_or(&[]),
            (None, _) => &[],
        };
        (list, self.table.points[map].as_deref())
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
    #[inline(always)]
    pub fn cards(&mut self, e: &CardsExpr) -> R<Cards> {
        match e {
            CardsExpr::Location(l) => Ok(Cards::Slot(self.location(l)?)),
            _ => self.cards_any(e),
        }
    }

    /// [`Machine::cards`], every form.
    #[inline(never)]
    fn cards_any(&mut self, e: &CardsExpr) -> R<Cards> {
        Ok(match e {
            CardsExpr::Location(l) => Cards::Slot(self.location(l)?),
            CardsExpr::Var(v) => match self.var(*v) {
                Value::Cards(c) => Cards::List(c.clone()),
                Value::Card(c) => Cards::List(vec![*c]),
                Value::Unset => Cards::List(Vec::new()),
                other => return Err(self.not_a(*v, "a card collection", other)),
            },
            CardsExpr::Filter(src, var, cond) => {
                let mut out = Vec::new();
                self.filter_cards(src, *var, cond, |id| out.push(id))?;
                Cards::List(out)
            }
            CardsExpr::Union(xs) => {
                let mut out = Distinct::default();
                for x in xs {
                    let c = self.cards(x)?;
                    c.slice(self.table).iter().for_each(|&id| out.push(id));
                }
                Cards::List(out.out)
            }
            CardsExpr::UnionAll(cc) if matches!(**cc, CollectionsExpr::All { .. }) => {
                let CollectionsExpr::All { over, var, body } = &**cc else {
                    return Err("internal: not an `all`".into());
                };
                // Each collection's cards pushed as it is found, none
                // copied: the same cards in the same order as the
                // collections listed first (finding one changes nothing).
                let seats = matches!(
                    **over,
                    CollectionExpr::AllPlayers | CollectionExpr::OtherPlayers
                );
                let items = if seats {
                    self.picker(over)?
                } else {
                    Picker::Items(self.items(over)?)
                };
                let mut out = Distinct::default();
                for i in 0..items.len(self) {
                    let item = items.get(i, self);
                    self.set_var(*var as usize, item);
                    let c = self.cards(body)?;
                    c.slice(self.table).iter().for_each(|&id| out.push(id));
                }
                Cards::List(out.out)
            }
            CardsExpr::UnionAll(cc) => {
                let mut out = Distinct::default();
                for coll in self.collections(cc)? {
                    coll.into_iter().for_each(|id| out.push(id));
                }
                Cards::List(out.out)
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
                let (table, map) = self.points(p)?;
                list.sort_by_key(|id| map.map_or(0, |m| m.score(table.attrs(*id))));
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
    pub(super) fn filter_cards(
        &mut self,
        src: &CardsExpr,
        var: VarId,
        cond: &BoolExpr,
        mut keep: impl FnMut(CardId),
    ) -> R<()> {
        let cards = self.cards(src)?;
        self.charge(cards.slice(self.table).len())?;
        if let Some((key, target, eq)) = self.attr_test(var, cond) {
            // An attribute compared with a string the cards do not change:
            // each card's attribute read, no condition walked. The variable
            // is left holding the last card, as the loop below leaves it.
            let mut last = None;
            for &id in cards.slice(self.table) {
                let attr = self.table.attrs(id).get(key as usize).copied();
                if (attr.unwrap_or(EMPTY) == target) == eq {
                    keep(id);
                }
                last = Some(id);
            }
            if let Some(id) = last {
                self.set_var(var as usize, Value::Card(id));
            }
            return Ok(());
        }
        match cards {
            Cards::Slot(slot) => {
                let mut i = 0;
                while let Some(&id) = self.table.locs[slot as usize].get(i) {
                    self.set_var(var as usize, Value::Card(id));
                    if self.bool(cond)? {
                        keep(id);
                    }
                    i += 1;
                }
            }
            Cards::List(list) => {
                for id in list {
                    self.set_var(var as usize, Value::Card(id));
                    if self.bool(cond)? {
                        keep(id);
                    }
                }
            }
        }
        Ok(())
    }

    /// When `cond`, on the card in `var`, is `(== (cardatt KEY 'V) S)` (or
    /// `!=`, either way round) with S a literal or a string storage of the
    /// game with a fixed name: the key, S's value and whether the test is
    /// `==`. Such a test reads nothing the card changes and cannot fail, so
    /// S is read once for every card of a filter.
    fn attr_test(&self, var: VarId, cond: &BoolExpr) -> Option<(AttrId, Sym, bool)> {
        let BoolExpr::Str { eq, left, right } = cond else {
            return None;
        };
        let key = |s: &StrExpr| match s {
            StrExpr::CardAtt(AttrRef::Key(k), c) if matches!(**c, CardExpr::Var(v) if v == var) => {
                Some(*k)
            }
            _ => None,
        };
        let fixed = |s: &StrExpr| match s {
            StrExpr::Lit(s) => Some(*s),
            StrExpr::Storage(StrStorage {
                owner: OwnerExpr::Game,
                name: NameRef::Fixed(id),
            }) => self.table.strs.get(*id as usize).copied(),
            _ => None,
        };
        let (k, target) = match (key(left), key(right)) {
            (Some(k), None) => (k, fixed(right)?),
            (None, Some(k)) => (k, fixed(left)?),
            _ => return None,
        };
        Some((k, target, *eq))
    }

    /// Scores of `list` under a point map (0 when the map is not set).
    pub fn scores(&mut self, list: &[CardId], p: &PointStorage) -> R<Vec<i64>> {
        let (table, map) = self.points(p)?;
        Ok(list
            .iter()
            .map(|id| map.map_or(0, |m| m.score(table.attrs(*id))))
            .collect())
    }

    /// Evaluates a collection of card collections.
    pub fn collections(&mut self, e: &CollectionsExpr) -> R<Vec<Vec<CardId>>> {
        use super::collections as c;
        Ok(match e {
            CollectionsExpr::Var(v) => match self.var(*v) {
                Value::Colls(c) => c.clone(),
                other => return Err(self.not_a(*v, "a collection of card collections", other)),
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
                let mut list = Distinct::default();
                for s in sources {
                    let c = self.cards(s)?;
                    c.slice(self.table).iter().for_each(|&id| list.push(id));
                }
                self.partition(attr, list.out)?
            }
            CollectionsExpr::PartitionAll { attr, source } => {
                let mut list = Distinct::default();
                for coll in self.collections(source)? {
                    coll.into_iter().for_each(|id| list.push(id));
                }
                self.partition(attr, list.out)?
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
                    self.set_var(*var as usize, items.get(i));
                    out.push(self.cards(body)?.into_vec(self.table));
                }
                out
            }
        })
    }

    pub(super) fn partition(&mut self, attr: &StrExpr, list: Vec<CardId>) -> R<Vec<Vec<CardId>>> {
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
        let items = self.items_of(e)?;
        self.charge(items.len())?;
        Ok(items)
    }

    /// [`Machine::items`], its work not counted.
    fn items_of(&mut self, e: &CollectionExpr) -> R<Items> {
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
            CollectionExpr::Group {
                from,
                var,
                cond,
                dirs,
            } => match self.space(from)? {
                None => Items::Spaces(Vec::new()),
                Some(start) => {
                    let spread = self.group_spread(dirs.as_ref(), start)?;
                    let mut out = Vec::new();
                    match self.space_cond(cond, *var) {
                        Some((test, loaded)) => {
                            self.group_into(&test, &loaded, (start, spread), &mut out)?;
                        }
                        None => {
                            self.flood_until(start, spread, |m, s| {
                                m.set_var(*var as usize, Value::Space(s));
                                let kept = m.bool(cond)?;
                                if kept {
                                    out.push(s);
                                }
                                Ok((kept, false))
                            })?;
                            out.sort_unstable();
                        }
                    }
                    Items::Spaces(out)
                }
            },
            CollectionExpr::Line {
                from,
                dir,
                var,
                cond,
            } => Items::Spaces(self.line((from, dir), *var, cond)?),
            CollectionExpr::Strings(s) => Items::Strs(s.clone()),
            CollectionExpr::Range(a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                super::eval::range_len(a, b)?;
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
                other => return Err(self.not_a(*v, "a collection", &other)),
            },
            CollectionExpr::Filter(src, var, cond)
                if matches!(**src, CollectionExpr::Strings(_)) =>
            {
                // A list written out (directions ...): charged as `items`
                // charges it, filtered in place.
                let CollectionExpr::Strings(list) = &**src else {
                    return Err("internal: a filter of strings".into());
                };
                self.charge(list.len())?;
                let mut kept = Vec::with_capacity(list.len());
                for &s in list {
                    self.set_var(*var as usize, Value::Str(s));
                    if self.node_bool(cond)? {
                        kept.push(s);
                    }
                }
                Items::Strs(kept)
            }
            CollectionExpr::Filter(src, var, cond) => {
                let items = self.items(src)?;
                let mut keep = Vec::with_capacity(items.len());
                for i in 0..items.len() {
                    self.set_var(*var as usize, items.get(i));
                    keep.push(self.node_bool(cond)?);
                }
                items.retain_indices(&keep)
            }
        })
    }
}

/// The score of card `id` under a point map (0 when it is not set).
#[inline]
fn card_score(
    table: &super::state::Table,
    map: Option<&super::state::PointMap>,
    id: CardId,
) -> i64 {
    map.map_or(0, |m| m.score(table.attrs(id)))
}

/// A collection iterated by index (see [`Machine::picker`]). A location is
/// read where it lies, so the table must not change while one is in use.
#[derive(Clone, Debug)]
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
    #[inline(always)]
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
    #[inline(always)]
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
                .map_or_else(|| Value::Unset, |id| Value::Card(*id)),
            Picker::Items(items) => items.get(i),
        }
    }
}
