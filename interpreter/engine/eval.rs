//! Evaluation of expressions (integers, strings, conditions, players,
//! teams, cards, collections) against the table.

use super::exec::Machine;
use super::state::CardId;

use super::value::{Cards, Items, Value};
use crate::ir::*;
use crate::random::below;

pub use super::fault::Fault;
pub(super) use super::int::{add, fib, int_op, overflow, range_len, too_big};

/// A result of running the rules.
pub type R<T> = Result<T, Fault>;

/// The least or greatest of the values offered, for `(min C 'V INT)` and
/// `(max C 'V INT)`.
struct Extremum {
    max: bool,
    best: Option<i64>,
}

impl Extremum {
    fn new(max: bool) -> Extremum {
        Extremum { max, best: None }
    }

    fn offer(&mut self, x: i64) {
        self.best = Some(match self.best {
            Some(b) if (x > b) != self.max => b,
            _ => x,
        });
    }

    /// The value, or the error of an empty collection.
    fn value(&self) -> R<i64> {
        self.best.ok_or_else(|| {
            if self.max {
                "`max` over an empty collection".into()
            } else {
                "`min` over an empty collection".into()
            }
        })
    }
}

impl Machine<'_> {
    pub(super) fn var(&self, v: VarId) -> &Value {
        self.vars.get(v as usize).unwrap_or(&Value::Unset)
    }

    /// Binds variable slot `slot` to `v`; the old value is dropped only
    /// when it holds a collection (the common scalars need no call).
    #[inline(always)]
    pub(super) fn set_var(&mut self, slot: usize, v: Value) {
        let old = std::mem::replace(&mut self.vars[slot], v);
        match old {
            Value::Unset
            | Value::Int(_)
            | Value::Bool(_)
            | Value::Str(_)
            | Value::Card(_)
            | Value::Player(_)
            | Value::Team(_)
            | Value::Space(_) => std::mem::forget(old),
            _ => drop(old),
        }
    }

    /// `(min 'S 'V (row 'V))` and the like (row, column or index of spaces
    /// held in a variable), read in place; `None` for any other form.
    pub(super) fn extreme_place(
        &self,
        max: bool,
        over: &CollectionExpr,
        var: VarId,
        body: &IntExpr,
    ) -> R<Option<i64>> {
        let (
            CollectionExpr::Var(v, _),
            IntExpr::SpaceRow(s) | IntExpr::SpaceCol(s) | IntExpr::SpaceIndex(s),
        ) = (over, body)
        else {
            return Ok(None);
        };
        let (SpaceExpr::Var(w), Value::Spaces(spaces)) = (&**s, self.var(*v)) else {
            return Ok(None);
        };
        if *w != var {
            return Ok(None);
        }
        if let Some(&s0) = spaces.first() {
            let what = match body {
                IntExpr::SpaceRow(_) => 0,
                IntExpr::SpaceCol(_) => 1,
                _ => 2,
            };
            if let Some(best) = extreme_on_board(spaces, self.board_of(s0)?, what, max) {
                return Ok(Some(best));
            }
        }
        let mut best = Extremum::new(max);
        for &sp in spaces {
            let b = self.board_of(sp)?;
            let (r, c) = b.coords(sp);
            best.offer(match body {
                IntExpr::SpaceRow(_) => r,
                IntExpr::SpaceCol(_) => c,
                _ => sp - b.first,
            } as i64);
        }
        best.value().map(Some)
    }

    /// The number of rows (or columns) that `spaces` span. The lines of
    /// the first space's board are marked in a bit set; spaces of other
    /// boards (rare) are counted by (board, line) pairs.
    pub(super) fn spanned(&self, spaces: &[u32], rows: bool) -> R<i64> {
        let Some(&s0) = spaces.first() else {
            return Ok(0);
        };
        let b = self.board_of(s0)?;
        if let Some(n) = lines_on_board(spaces, b, rows) {
            return Ok(n);
        }
        let lines = if rows { b.rows } else { b.cols } as usize;
        let words = lines.div_ceil(64);
        let (mut small, mut big) = ([0u64; 4], Vec::new());
        let marks: &mut [u64] = if words <= small.len() {
            &mut small[..words]
        } else {
            big.resize(words, 0);
            &mut big
        };
        let mut count = 0;
        let mut others: Vec<(u32, u32)> = Vec::new();
        for &s in spaces {
            if s >= b.first && s - b.first < b.len() {
                let (r, c) = b.coords(s);
                let line = if rows { r } else { c } as usize;
                let (word, bit) = (line / 64, 1u64 << (line % 64));
                if marks[word] & bit == 0 {
                    marks[word] |= bit;
                    count += 1;
                }
            } else {
                let other = self.board_of(s)?;
                let (r, c) = other.coords(s);
                let key = (other.first, if rows { r } else { c });
                if !others.contains(&key) {
                    others.push(key);
                }
            }
        }
        Ok((count + others.len()) as i64)
    }

    /// The cards of a card or card-collection variable, borrowed.
    pub(super) fn var_cards(&self, v: VarId) -> R<&[CardId]> {
        match self.var(v) {
            Value::Cards(c) => Ok(c),
            Value::Card(c) => Ok(std::slice::from_ref(c)),
            Value::Unset => Ok(&[]),
            other => Err(self.not_a(v, "a card collection", other)),
        }
    }

    /// The error for variable `v` holding `other`, not `what` it should.
    #[cold]
    #[inline(never)]
    pub(super) fn not_a(&self, v: VarId, what: &str, other: &Value) -> Fault {
        format!("`'{}` is not {what} ({other:?})", self.var_name(v)).into()
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
    #[inline(always)]
    pub fn int(&mut self, e: &IntExpr) -> R<i64> {
        match e {
            IntExpr::Lit(i) => Ok(*i),
            IntExpr::Var(v) => match self.var(*v) {
                Value::Int(i) => Ok(*i),
                _ => self.int_any(e),
            },
            IntExpr::Storage(s) => {
                let i = self.int_slot(s)?;
                Ok(self.table.ints[i])
            }
            IntExpr::Size(c) => match &**c {
                CollectionExpr::Cards(CardsExpr::Location(l)) => {
                    let s = self.location(l)?;
                    Ok(self.table.locs.get(s as usize).map_or(0, Vec::len) as i64)
                }
                _ => Ok(self.size(c)? as i64),
            },
            _ => self.int_any(e),
        }
    }

    /// [`Machine::int`], every form.
    #[inline(never)]
    fn int_any(&mut self, e: &IntExpr) -> R<i64> {
        Ok(match e {
            IntExpr::Lit(i) => *i,
            IntExpr::Var(v) => match self.var(*v) {
                Value::Int(i) => *i,
                Value::Bool(b) => *b as i64,
                other => return Err(self.not_a(*v, "an integer", other)),
            },
            IntExpr::Storage(s) => {
                let i = self.int_slot(s)?;
                self.table.ints[i]
            }
            IntExpr::Size(c) => self.size(c)? as i64,
            IntExpr::Binary(op, a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                int_op(*op, a, b)?
            }
            IntExpr::Around { from, var, cond } => {
                let Some(s) = self.space(from)? else {
                    return Ok(0);
                };
                let near = self.board_of(s)?.around(s)?;
                let mut bits = 0;
                for (k, n) in near.into_iter().enumerate() {
                    let Some(n) = n else { continue };
                    self.set_var(*var as usize, Value::Space(n));
                    if self.bool(cond)? {
                        bits |= 1 << k;
                    }
                }
                bits
            }
            IntExpr::Tri(n) => {
                let n = self.int(n)?;
                // n (n + 1) / 2 in 128 bits: the product may overflow
                // where the result does not.
                let t = (i128::from(n) * (i128::from(n) + 1)) / 2;
                i64::try_from(t).map_err(|_| too_big(format_args!("`(tri {n})`")))?
            }
            IntExpr::Abs(n) => {
                let n = self.int(n)?;
                n.checked_abs()
                    .ok_or_else(|| too_big(format_args!("`(abs {n})`")))?
            }
            IntExpr::Sign(n) => self.int(n)?.signum(),
            IntExpr::Fib(n) => fib(self.int(n)?)?,
            IntExpr::If(x) => {
                let (c, a, b) = &**x;
                if self.bool(c)? {
                    self.int(a)?
                } else {
                    self.int(b)?
                }
            }
            IntExpr::Random(a, b) => {
                let (lo, hi) = match b {
                    Some(b) => (self.int(a)?, self.int(b)?),
                    None => (0, self.int(a)?),
                };
                if hi < lo {
                    return Err(format!("`random` from {lo} to {hi}: the range is empty").into());
                }
                // The number of values, hi - lo + 1, in 128 bits (the
                // whole of i64 is 2^64 values).
                let span = (i128::from(hi) - i128::from(lo) + 1) as u128;
                let span = usize::try_from(span).map_err(|_| {
                    format!("`random` from {lo} to {hi}: too many values to draw from")
                })?;
                lo + self.draw(span) as i64
            }
            IntExpr::Sum(c, p) => {
                let cards = self.cards(c)?;
                self.charge(cards.slice(self.table).len())?;
                let (table, map) = self.points(p)?;
                let mut total = 0;
                for id in cards.slice(table) {
                    let score = map.map_or(0, |m| m.score(table.attrs(*id)));
                    total = add(total, score, "`sum`")?;
                }
                total
            }
            IntExpr::Score(c, p) => {
                let card = self.card(c)?;
                let (table, map) = self.points(p)?;
                match (card, map) {
                    (Some(c), Some(m)) => m.score(table.attrs(c.id)),
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
            IntExpr::Extreme {
                max,
                over,
                var,
                body,
            } => {
                if let Some(best) = self.extreme_place(*max, over, *var, body)? {
                    return Ok(best);
                }
                let picker = self.picker(over)?;
                let mut best = Extremum::new(*max);
                for i in 0..picker.len(self) {
                    let item = picker.get(i, self);
                    self.set_var(*var as usize, item);
                    best.offer(self.int(body)?);
                }
                best.value()?
            }
            IntExpr::SumAll { over, var, storage } => {
                let items = self.items(over)?;
                let mut total = 0i64;
                for i in 0..items.len() {
                    self.set_var(*var as usize, items.get(i));
                    let slot = self.int_slot(storage)?;
                    total = add(total, self.table.ints[slot], "`all` summing storages")?;
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
    #[inline(always)]
    pub fn str(&mut self, e: &StrExpr) -> R<Sym> {
        match e {
            StrExpr::Lit(s) => Ok(*s),
            StrExpr::Var(v) => match self.var(*v) {
                Value::Str(s) => Ok(*s),
                _ => self.str_any(e),
            },
            StrExpr::CardAtt(AttrRef::Key(k), card) => Ok(match self.card(card)? {
                Some(c) => self
                    .table
                    .attrs(c.id)
                    .get(*k as usize)
                    .copied()
                    .unwrap_or(EMPTY),
                None => EMPTY,
            }),
            _ => self.str_any(e),
        }
    }

    /// [`Machine::str`], every form.
    #[inline(never)]
    fn str_any(&mut self, e: &StrExpr) -> R<Sym> {
        Ok(match e {
            StrExpr::Lit(s) => *s,
            StrExpr::Var(v) => match self.var(*v) {
                Value::Str(s) => *s,
                Value::Unset => EMPTY,
                other => return Err(self.not_a(*v, "a string", other)),
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
            StrExpr::If(x) => {
                let (c, a, b) = &**x;
                if self.bool(c)? {
                    self.str(a)?
                } else {
                    self.str(b)?
                }
            }
            StrExpr::Rotate(dir, quarters) => {
                let d = self.dir(dir)?;
                let k = self.int(quarters)?;
                let turned = d.rotate(k)?;
                self.tabs.dir_names[turned as usize].ok_or_else(|| {
                    format!("the direction `{}` is unknown to the rules", turned.name())
                })?
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
        match e {
            BoolExpr::And(xs) => {
                for x in xs {
                    if !self.compare(x)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            BoolExpr::Or(xs) => {
                for x in xs {
                    if self.compare(x)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => self.compare(e),
        }
    }

    /// [`Machine::bool`], with the comparisons of integers and strings
    /// done here (so that `and`/`or` of comparisons need no call per
    /// operand).
    #[inline(always)]
    fn compare(&mut self, e: &BoolExpr) -> R<bool> {
        match e {
            BoolExpr::Int(op, a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                Ok(op.holds(a, b))
            }
            BoolExpr::Str { eq, left, right } => Ok((self.str(left)? == self.str(right)?) == *eq),
            BoolExpr::And(_) | BoolExpr::Or(_) => self.bool(e),
            _ => self.bool_any(e),
        }
    }

    /// [`Machine::bool`], every form.
    #[inline(never)]
    fn bool_any(&mut self, e: &BoolExpr) -> R<bool> {
        Ok(match e {
            BoolExpr::Var(v) => match self.var(*v) {
                Value::Bool(b) => *b,
                Value::Int(i) => *i != 0,
                other => return Err(self.not_a(*v, "a boolean", other)),
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
                op.holds(a, b)
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
            BoolExpr::Let { value, var, body } => {
                let v = self.value(value)?;
                self.set_var(*var as usize, v);
                self.bool(body)?
            }
            BoolExpr::Legal { choice, player } => self.legal(*choice, player.as_ref())?,
            BoolExpr::InRow {
                count,
                space,
                var,
                cond,
            } => self.in_row(count, space, *var, cond)?,
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
        if let CollectionExpr::Cards(CardsExpr::Location(l)) = over {
            // The cards of a location, read where they lie.
            let slot = self.location(l)? as usize;
            let len = self.table.locs.get(slot).map_or(0, Vec::len);
            self.charge(len)?;
            for i in 0..len {
                let Some(&id) = self.table.locs.get(slot).and_then(|v| v.get(i)) else {
                    break;
                };
                self.set_var(var as usize, Value::Card(id));
                if self.bool(body)? == some {
                    return Ok(some);
                }
            }
            return Ok(!some);
        }
        if let CollectionExpr::Group {
            from,
            var: gv,
            cond,
            dirs,
        } = over
        {
            // A group is searched only as far as needed: the search stops
            // at the first space that decides the answer.
            let Some(start) = self.space(from)? else {
                return Ok(!some);
            };
            let spread = self.group_spread(dirs.as_ref(), start)?;
            // At most every space of the board is visited.
            self.charge(self.board_of(start)?.len() as usize)?;
            let test = self.space_cond(cond, *gv);
            if let (Some((t, tl)), true) = (&test, self.tabs.space_bits) {
                if let Some((b, bl)) = self.space_cond(body, var) {
                    let at = (start, spread);
                    if let Some(answer) = self.group_reaches((t, tl), (&b, &bl), at, some)? {
                        return Ok(answer);
                    }
                }
            }
            let decided = self.flood_until(start, spread, |m, s| {
                let kept = match &test {
                    Some((t, loaded)) => t.holds(m, loaded, s),
                    None => {
                        m.set_var(*gv as usize, Value::Space(s));
                        m.bool(cond)?
                    }
                };
                if !kept {
                    return Ok((false, false));
                }
                m.set_var(var as usize, Value::Space(s));
                Ok((true, m.bool(body)? == some))
            })?;
            return Ok(if decided { some } else { !some });
        }
        if let (
            CollectionExpr::Var(v, _),
            BoolExpr::Space {
                eq: true,
                left,
                right,
            },
        ) = (over, body)
        {
            // `(any SPACES 'X (== 'X SPACE))`: is the space among them?
            let other = match (left, right) {
                (SpaceExpr::Var(x), o) | (o, SpaceExpr::Var(x)) if *x == var => Some(o),
                _ => None,
            };
            if let (Some(other), true) = (other, matches!(self.var(*v), Value::Spaces(_))) {
                if !matches!(other, SpaceExpr::Var(x) if *x == var) {
                    let target = self.space(other)?;
                    let Value::Spaces(spaces) = self.var(*v) else {
                        return Ok(!some);
                    };
                    return Ok(if some {
                        spaces.iter().any(|&s| Some(s) == target)
                    } else {
                        spaces.iter().all(|&s| Some(s) == target)
                    });
                }
            }
        }
        let picker = self.picker(over)?;
        for i in 0..picker.len(self) {
            let item = picker.get(i, self);
            self.set_var(var as usize, item);
            if self.bool(body)? == some {
                return Ok(some);
            }
        }
        Ok(!some)
    }
}

/// The number of rows (or columns) of `b` that `spaces` span, when they
/// are all on `b` and it has at most 128 of them; `None` otherwise.
#[inline]
fn lines_on_board(spaces: &[u32], b: &super::board::BoardGeom, rows: bool) -> Option<i64> {
    let lines = if rows { b.rows } else { b.cols };
    let rc = b.coords_table();
    if lines > 128 || b.cols == 0 || rc.len() != b.len() as usize {
        return None;
    }
    let line = |s: u32| {
        let &(r, c) = rc.get(s.wrapping_sub(b.first) as usize)?;
        Some(if rows { r } else { c })
    };
    let count = if lines <= 64 {
        let mut marks = 0u64;
        for &s in spaces {
            marks |= 1 << line(s)?;
        }
        marks.count_ones()
    } else {
        let mut marks = 0u128;
        for &s in spaces {
            marks |= 1 << line(s)?;
        }
        marks.count_ones()
    };
    Some(i64::from(count))
}

/// The least (greatest) row, column (`what` 0, 1) or index (2) of
/// `spaces`, when they are all on `b` and there is one at least; `None`
/// otherwise.
#[inline]
fn extreme_on_board(
    spaces: &[u32],
    b: &super::board::BoardGeom,
    what: u8,
    max: bool,
) -> Option<i64> {
    let rc = b.coords_table();
    if rc.len() != b.len() as usize {
        return None;
    }
    let mut best: Option<u32> = None;
    for &s in spaces {
        let i = s.wrapping_sub(b.first);
        let &(r, c) = rc.get(i as usize)?;
        let x = match what {
            0 => r,
            1 => c,
            _ => i,
        };
        best = Some(match best {
            Some(b) if (x > b) != max => b,
            _ => x,
        });
    }
    best.map(i64::from)
}
