//! An index of what lies on the spaces of a board, so that a condition on
//! one space is answered for a whole board at once as a set of spaces
//! ([`super::bits`]), and the flood of such sets, so that a `group` is
//! found a few word operations per space.
//!
//! The index is a cache kept in the [`Table`]: for a (board, location
//! name, attribute key) that a search asked about, which spaces have a card
//! in that location, and which have a top card with each value of the
//! attribute. It is built the first time a search asks, then kept up to
//! date by [`touch`], which every change to a location calls (the
//! machine's moves, shuffles, new decks, and their undoing). Anything else
//! that rewrites locations (reading a position) empties it.
//!
//! Bit `i` of a set stands for the board's space `first + i`. Boards of
//! more than [`MAX_BITS`] spaces are searched one space at a time instead.

pub use super::bits::{Bits, SpaceSet, MAX_BITS};
use super::geom::BoardGeom;
use crate::engine::state::{Slot, Table};
use crate::ir::{Sym, EMPTY};

/// What the index knows of one location name on one board.
#[derive(Debug)]
struct Entry {
    board: u32,
    loc: u32,
    /// The attribute key of the top cards indexed (`None`: occupancy only).
    key: Option<usize>,
    /// The board's number of spaces.
    len: u32,
    /// The spaces where the location holds a card.
    occupied: Bits,
    /// For each value of the key, the spaces whose top card has it (a top
    /// card without the key counts as the empty string).
    values: Vec<(Sym, Bits)>,
    /// Where each value is in `values`, by value: its number plus one (0:
    /// no top card has had it), so that finding a value takes no search.
    value_at: Vec<u32>,
}

impl Clone for Entry {
    fn clone(&self) -> Entry {
        Entry {
            board: self.board,
            loc: self.loc,
            key: self.key,
            len: self.len,
            occupied: self.occupied,
            values: self.values.clone(),
            value_at: self.value_at.clone(),
        }
    }

    /// A copy in the room of `self` (a state copied into another's room
    /// copies its index so, allocating nothing).
    fn clone_from(&mut self, src: &Entry) {
        self.board = src.board;
        self.loc = src.loc;
        self.key = src.key;
        self.len = src.len;
        self.occupied = src.occupied;
        self.values.clone_from(&src.values);
        self.value_at.clone_from(&src.value_at);
    }
}

impl Entry {
    /// Records what space `i` (of the board starting at `first`) holds now.
    fn update(&mut self, lies: &Lies, loc_count: usize, first: u32, i: u32) {
        let slot = (lies.owner_base + first + i) as usize * loc_count + self.loc as usize;
        self.record(i, lies.top_attrs(slot));
    }

    /// Records that space `i` has a top card with attributes `top`, or
    /// none.
    #[inline]
    fn record(&mut self, i: u32, top: Option<&[Sym]>) {
        match top {
            Some(_) => self.occupied.insert(i),
            None => self.occupied.remove(i),
        }
        let Some(key) = self.key else { return };
        for (_, bits) in &mut self.values {
            bits.remove(i);
        }
        if let Some(attrs) = top {
            let v = attrs.get(key).copied().unwrap_or(EMPTY);
            match self.value(v) {
                Some(k) => self.values[k].1.insert(i),
                None => {
                    self.values.push((v, Bits::one(self.len, i)));
                    if self.value_at.len() <= v as usize {
                        self.value_at.resize(v as usize + 1, 0);
                    }
                    self.value_at[v as usize] = self.values.len() as u32;
                }
            }
        }
    }

    /// The number of value `v` in `values`, if some top card has had it.
    #[inline(always)]
    fn value(&self, v: Sym) -> Option<usize> {
        match self.value_at.get(v as usize) {
            Some(&k) if k > 0 => Some(k as usize - 1),
            _ => None,
        }
    }
}

/// The index: see the module's documentation.
#[derive(Debug, Default)]
pub struct SpaceIndex {
    entries: Vec<Entry>,
    /// Where each entry is, by [`slot_key`] of its (board, loc, key): its
    /// number plus one (0: not built).
    find: Vec<u32>,
}

impl Clone for SpaceIndex {
    fn clone(&self) -> SpaceIndex {
        SpaceIndex {
            entries: self.entries.clone(),
            find: self.find.clone(),
        }
    }

    /// A copy in the room of `self`, each entry's lists reused.
    fn clone_from(&mut self, src: &SpaceIndex) {
        self.entries.clone_from(&src.entries);
        self.find.clone_from(&src.find);
    }
}

/// The place of (board `bi`, location `loc`, key `key`) in
/// [`SpaceIndex::find`], locations counted `loc_count` a board and keys
/// `attr_width` (plus occupancy) a location; `None` for a key no card has
/// (such entries are searched for).
#[inline(always)]
fn slot_key(
    bi: u32,
    loc: u32,
    key: Option<usize>,
    loc_count: usize,
    attr_width: usize,
) -> Option<usize> {
    let k = match key {
        None => 0,
        Some(k) if k < attr_width => k + 1,
        Some(_) => return None,
    };
    Some((bi as usize * loc_count + loc as usize) * (attr_width + 1) + k)
}

/// What lies on the table, read by the index: the table's fields the
/// index reads, borrowed apart from the index itself (and from the boards).
pub struct Lies<'t> {
    pub locs: &'t [Vec<u32>],
    /// The cards' attributes, `attr_width` per card.
    pub cards: &'t [Sym],
    pub attr_width: usize,
    /// The owner id of the first space.
    pub owner_base: u32,
}

impl<'t> Lies<'t> {
    /// The table's fields but the index and the boards: those, and the
    /// index, borrowed apart.
    pub fn of(t: &'t mut Table) -> (&'t mut SpaceIndex, &'t super::geom::Boards, Lies<'t>) {
        let owner_base = Table::owner_count(t.players) as u32;
        let Table {
            space_index,
            boards,
            locs,
            cards,
            attr_width,
            ..
        } = t;
        let lies = Lies {
            locs,
            cards,
            attr_width: *attr_width,
            owner_base,
        };
        (space_index, boards, lies)
    }

    /// The attributes of the top card of location `slot`, if it has one.
    #[inline]
    fn top_attrs(&self, slot: usize) -> Option<&'t [Sym]> {
        let c = *self.locs.get(slot)?.last()? as usize;
        let w = self.attr_width;
        Some(self.cards.get(c * w..(c + 1) * w).unwrap_or(&[]))
    }
}

/// The entry for (board, loc, key) of `index`, built now if it is not
/// there.
#[inline(always)]
fn entry<'i>(
    index: &'i mut SpaceIndex,
    lies: &Lies,
    loc_count: usize,
    (board, bi): (&BoardGeom, u32),
    loc: u32,
    key: Option<usize>,
) -> &'i Entry {
    let found = match slot_key(bi, loc, key, loc_count, lies.attr_width) {
        Some(k) => index
            .find
            .get(k)
            .filter(|&&n| n > 0)
            .map(|&n| n as usize - 1),
        None => index
            .entries
            .iter()
            .position(|e| e.board == bi && e.loc == loc && e.key == key),
    };
    let at = match found {
        Some(at) => at,
        None => build(index, lies, loc_count, (board, bi), loc, key),
    };
    &index.entries[at]
}

/// Builds the entry for (board, loc, key) of `index` (the first time it is
/// asked for): its number.
#[cold]
#[inline(never)]
fn build(
    index: &mut SpaceIndex,
    lies: &Lies,
    loc_count: usize,
    (board, bi): (&BoardGeom, u32),
    loc: u32,
    key: Option<usize>,
) -> usize {
    let mut e = Entry {
        board: bi,
        loc,
        key,
        len: board.len(),
        occupied: Bits::empty(board.len()),
        values: Vec::new(),
        value_at: Vec::new(),
    };
    for i in 0..board.len() {
        e.update(lies, loc_count, board.first, i);
    }
    index.entries.push(e);
    if let Some(k) = slot_key(bi, loc, key, loc_count, lies.attr_width) {
        if index.find.len() <= k {
            index.find.resize(k + 1, 0);
        }
        index.find[k] = index.entries.len() as u32;
    }
    index.entries.len() - 1
}

/// The spaces of board `board` (number `bi`) whose location `loc` holds a
/// card.
pub fn occupied<'i>(
    index: &'i mut SpaceIndex,
    lies: &Lies,
    loc_count: usize,
    at: (&BoardGeom, u32),
    loc: u32,
) -> &'i Bits {
    &entry(index, lies, loc_count, at, loc, None).occupied
}

/// The spaces of board `board` (number `bi`) where the attribute `key` of
/// the top card of location `loc` is `value` (no card: the empty string).
#[inline]
pub fn top_is<S: SpaceSet>(
    index: &mut SpaceIndex,
    lies: &Lies,
    loc_count: usize,
    (board, bi): (&BoardGeom, u32),
    (loc, key): (u32, usize),
    value: Sym,
) -> S {
    let e = entry(index, lies, loc_count, (board, bi), loc, Some(key));
    let out = match e.value(value) {
        Some(k) => S::of(&e.values[k].1),
        None => S::none(board.len()),
    };
    if value == EMPTY {
        out.or(S::of(board.all_bits()).minus(S::of(&e.occupied)))
    } else {
        out
    }
}

/// Keeps the index true after location `slot` changed.
#[inline]
pub fn touch(t: &mut Table, loc_count: usize, slot: Slot) {
    if t.space_index.entries.is_empty() {
        return;
    }
    touch_indexed(t, loc_count, slot);
}

#[inline(never)]
fn touch_indexed(t: &mut Table, loc_count: usize, slot: Slot) {
    // The locations of the game, the players and the teams come before
    // those of the spaces: none is indexed.
    if (slot as usize) < Table::owner_count(t.players) * loc_count {
        return;
    }
    let (owner, loc) = Table::slot_parts(slot, loc_count);
    let Some(s) = t.owner_space(owner) else {
        return;
    };
    let (index, boards, lies) = Lies::of(t);
    let Some(bi) = boards
        .boards
        .iter()
        .position(|b| s >= b.first && s < b.first + b.len())
    else {
        return;
    };
    let i = s - boards.boards[bi].first;
    let top = lies.top_attrs(slot as usize);
    for e in index
        .entries
        .iter_mut()
        .filter(|e| e.board == bi as u32 && e.loc == u32::from(loc))
    {
        e.record(i, top);
    }
}

/// Forgets the index (after locations were rewritten wholesale).
pub fn forget(t: &mut Table) {
    t.space_index.entries.clear();
    t.space_index.find.clear();
}

/// How the spaces of a board reach their neighbours, for searches with
/// bit sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A board of at most 128 spaces that does not wrap, rows of `cols`
    /// spaces one after the other (a track is one row): the neighbours of
    /// a set are the set shifted by one and by a row.
    Shifts {
        len: u32,
        cols: u32,
        /// Every space but those of the first column.
        not_first: u128,
        /// Every space but those of the last column.
        not_last: u128,
    },
    /// A board of at most 128 spaces that does not wrap, spreading in
    /// other directions (a hex board, a `group` given its directions):
    /// the neighbours of a set are the set shifted by each direction's
    /// step (`shift` places, up the bits if positive), keeping the spaces
    /// `keep` (leaving out those a step reaches across an edge).
    Steps {
        len: u32,
        /// Each direction's (shift, keep).
        steps: Box<[(i32, u128)]>,
    },
    /// Any other board: each space's neighbours.
    Table(Vec<Bits>),
}

impl Reach {
    /// The reach of a board of `len` spaces in rows of `cols` (`wraps`:
    /// an axis wraps), whose space `i` has the neighbours `adj[i]`.
    pub fn new(len: u32, cols: u32, wraps: bool, adj: Vec<Bits>) -> Reach {
        if wraps || len > 128 || cols == 0 {
            return Reach::Table(adj);
        }
        let all = if len == 128 {
            u128::MAX
        } else {
            (1u128 << len) - 1
        };
        let (mut first, mut last) = (0u128, 0u128);
        for i in (0..len).step_by(cols as usize) {
            first |= 1 << i;
            last |= 1 << (i + cols - 1).min(len - 1);
        }
        Reach::Shifts {
            len,
            cols,
            not_first: all & !first,
            not_last: all & !last,
        }
    }
}

impl Reach {
    /// The reach of a board of `len` spaces in rows of `cols` (`wraps`:
    /// an axis wraps) spreading in the directions whose changes of row and
    /// column are `deltas` (each by at most one row and one column), whose
    /// space `i` has the neighbours `adj[i]`.
    pub fn steps(len: u32, cols: u32, wraps: bool, deltas: &[(i64, i64)], adj: Vec<Bits>) -> Reach {
        let fits = deltas
            .iter()
            .all(|&(dr, dc)| dr.abs() <= 1 && dc.abs() <= 1);
        if wraps || len > 128 || cols == 0 || !fits {
            return Reach::Table(adj);
        }
        let Reach::Shifts {
            not_first,
            not_last,
            ..
        } = Reach::new(len, cols, false, Vec::new())
        else {
            return Reach::Table(adj);
        };
        let steps = deltas
            .iter()
            .map(|&(dr, dc)| {
                // A step east must land past the first column, one west
                // before the last; a row off the board shifts out of the
                // set or past its spaces.
                let keep = match dc {
                    1 => not_first,
                    -1 => not_last,
                    _ => u128::MAX,
                };
                ((dr * i64::from(cols) + dc) as i32, keep)
            })
            .collect();
        Reach::Steps { len, steps }
    }
}

/// The group of space `start` through the spaces of `mask` (empty if
/// `start` is not in it), spreading until it holds a space of `stop`:
/// the group (as far as it got) and whether it stopped so.
pub fn spread(reach: &Reach, start: u32, mask: &Bits, stop: Option<&Bits>) -> (Bits, bool) {
    match reach {
        Reach::Shifts {
            len,
            cols,
            not_first,
            not_last,
        } => {
            let (mask, stop) = (mask.low128(), stop.map_or(0, Bits::low128));
            let (group, hit) = spread_shifts(start, mask, stop, (*cols, *not_first, *not_last));
            (Bits::from_low128(*len, group), hit)
        }
        Reach::Steps { len, steps } => {
            let (mask, stop) = (mask.low128(), stop.map_or(0, Bits::low128));
            let (group, hit) = spread_steps(start, mask, stop, steps);
            (Bits::from_low128(*len, group), hit)
        }
        Reach::Table(adj) => spread_table(adj, start, mask, stop),
    }
}

/// [`spread`] of sets held as their first 128 bits, for a board of at
/// most 128 spaces.
#[inline]
pub fn spread128(reach: &Reach, start: u32, mask: u128, stop: u128) -> (u128, bool) {
    // A grid's or a track's own neighbours first: the common case.
    if let Reach::Shifts {
        cols,
        not_first,
        not_last,
        ..
    } = reach
    {
        return spread_shifts(start, mask, stop, (*cols, *not_first, *not_last));
    }
    match reach {
        Reach::Shifts { .. } => (0, false),
        Reach::Steps { steps, .. } => spread_steps(start, mask, stop, steps),
        Reach::Table(adj) => {
            let len = adj.len() as u32;
            let (mask, stop) = (Bits::from_low128(len, mask), Bits::from_low128(len, stop));
            let (group, hit) = spread_table(adj, start, &mask, Some(&stop));
            (group.low128(), hit)
        }
    }
}

/// [`spread`] on a board whose neighbours are shifts.
#[inline]
fn spread_shifts(start: u32, mask: u128, stop: u128, geom: (u32, u128, u128)) -> (u128, bool) {
    let (cols, not_first, not_last) = geom;
    let mut group = 1u128.checked_shl(start).unwrap_or(0);
    if mask & group == 0 {
        return (0, false);
    }
    if stop & group != 0 {
        return (group, true);
    }
    let down = |g: u128| g.checked_shl(cols).unwrap_or(0);
    let up = |g: u128| g.checked_shr(cols).unwrap_or(0);
    loop {
        let near = (group << 1 & not_first) | (group >> 1 & not_last) | down(group) | up(group);
        let new = near & mask & !group;
        if new == 0 {
            return (group, false);
        }
        group |= new;
        if new & stop != 0 {
            return (group, true);
        }
    }
}

/// [`spread`] on a board whose neighbours are the shifts `steps`.
#[inline]
fn spread_steps(start: u32, mask: u128, stop: u128, steps: &[(i32, u128)]) -> (u128, bool) {
    let mut group = 1u128.checked_shl(start).unwrap_or(0);
    if mask & group == 0 {
        return (0, false);
    }
    if stop & group != 0 {
        return (group, true);
    }
    loop {
        let mut near = 0;
        for &(shift, keep) in steps {
            let moved = if shift >= 0 {
                group.checked_shl(shift.unsigned_abs()).unwrap_or(0)
            } else {
                group.checked_shr(shift.unsigned_abs()).unwrap_or(0)
            };
            near |= moved & keep;
        }
        let new = near & mask & !group;
        if new == 0 {
            return (group, false);
        }
        group |= new;
        if new & stop != 0 {
            return (group, true);
        }
    }
}

/// [`spread`] on a board given by each space's neighbours.
fn spread_table(adj: &[Bits], start: u32, mask: &Bits, stop: Option<&Bits>) -> (Bits, bool) {
    let len = adj.len() as u32;
    if !mask.contains(start) {
        return (Bits::empty(len), false);
    }
    let (mut group, mut frontier) = (Bits::one(len, start), Bits::one(len, start));
    if stop.is_some_and(|s| s.contains(start)) {
        return (group, true);
    }
    loop {
        let mut near = Bits::empty(len);
        frontier.each(|i| {
            if let Some(a) = adj.get(i as usize) {
                near.or_in(a);
            }
        });
        let new = near.and(mask).minus(&group);
        if new.is_empty() {
            return (group, false);
        }
        group.or_in(&new);
        if stop.is_some_and(|s| !new.and(s).is_empty()) {
            return (group, true);
        }
        frontier = new;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set of the spaces `members` of a board of `len` spaces.
    fn set(len: u32, members: &[u32]) -> Bits {
        let mut b = Bits::empty(len);
        members.iter().for_each(|&i| b.insert(i));
        b
    }

    #[test]
    fn a_group_spreads_through_the_mask_only() {
        // A track of 6 spaces: 0-1-2-3-4-5; the mask leaves out 3.
        let adj: Vec<Bits> = (0..6u32)
            .map(|i| {
                let mut a = Bits::empty(6);
                if i > 0 {
                    a.insert(i - 1);
                }
                if i < 5 {
                    a.insert(i + 1);
                }
                a
            })
            .collect();
        let mask = Bits::first(6).minus(&Bits::one(6, 3));
        let two = set(6, &[4, 5]);
        // The same track by shifts and by its table of neighbours.
        for reach in [
            Reach::new(6, 6, false, adj.clone()),
            Reach::Table(adj.clone()),
        ] {
            assert_eq!(spread(&reach, 1, &mask, None), (Bits::first(3), false));
            assert_eq!(spread(&reach, 5, &mask, None), (two, false));
            assert_eq!(spread(&reach, 3, &mask, None), (Bits::empty(6), false));
            let (_, hit) = spread(&reach, 0, &mask, Some(&Bits::one(6, 2)));
            assert!(hit);
            let (_, hit) = spread(&reach, 0, &mask, Some(&Bits::one(6, 4)));
            assert!(!hit);
        }
    }

    #[test]
    fn shifts_do_not_cross_the_edges_of_a_grid() {
        // A 3 x 3 grid: the left column alone stays the left column.
        let reach = Reach::new(9, 3, false, Vec::new());
        let left = set(9, &[0, 3, 6]);
        assert_eq!(spread(&reach, 3, &left, None), (left, false));
        // Spaces 2 and 3 are not neighbours (the end of a row, the start
        // of the next).
        let pair = set(9, &[2, 3]);
        assert_eq!(spread(&reach, 2, &pair, None), (Bits::one(9, 2), false));
    }
}
