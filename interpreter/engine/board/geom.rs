//! Board geometry: the spaces of every board of a game, numbered globally,
//! and the steps between them (neighbours, wrapping, connected groups).
//! Sizes are fixed when a game starts.

pub use super::dir::Dir;
use super::spaceset::{Bits, Reach, SpaceSet, MAX_BITS};

/// A space's global number (over all boards of the game).
pub type SpaceId = u32;

/// One board's shape with its sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardGeom {
    /// Global number of its first space.
    pub first: SpaceId,
    /// Rows (1 for a track).
    pub rows: u32,
    /// Columns (the length of a track).
    pub cols: u32,
    /// A track (directions NEXT/PREV) rather than a grid.
    pub track: bool,
    pub wrap_rows: bool,
    pub wrap_cols: bool,
    /// The board's name, for views (shared: geometries are copied often).
    pub name: std::sync::Arc<str>,
    /// Each space's orthogonal neighbours in [`BoardGeom::neighbours`]
    /// order, `NONE` where there is none (worked out once: floods ask for
    /// them at every step).
    orth: std::sync::Arc<Vec<[SpaceId; 4]>>,
    /// Each space's neighbour in every direction, by `Dir as usize`:
    /// `NONE` off the edge, `WRONG` for a direction this board does not
    /// have (worked out once: `neighbour` asks for them often).
    steps: std::sync::Arc<Vec<[SpaceId; Dir::COUNT]>>,
    /// How spaces reach their orthogonal neighbours in a search with bit
    /// sets (`None` for a board too large for bit sets).
    reach: Option<std::sync::Arc<Reach>>,
    /// The spaces of the rows before row k (k = 0 ..= rows), then of the
    /// columns before column k (k = 0 ..= cols), as bit sets (empty for a
    /// board too large for bit sets): the lines of a range are the
    /// difference of two.
    lines: std::sync::Arc<Vec<Bits>>,
    /// Each space's row and column (empty for a board of more than
    /// 65,536 spaces, whose coordinates are divided out).
    rc: std::sync::Arc<Vec<(u32, u32)>>,
    /// Every space, as a bit set.
    all: Bits,
    /// For a board searched with bit sets: each space's neighbours in the
    /// directions of `around`, as numbers on the board, and a bit for
    /// each that exists (bit `k`: the `k`th direction); empty for a larger
    /// board, or one whose `around` meets a direction it lacks.
    near: std::sync::Arc<Vec<([u16; 8], u8)>>,
}

/// A direction the board does not have (a track's `N`, a grid's `NEXT`).
const WRONG: SpaceId = SpaceId::MAX - 1;

/// No neighbour in that direction.
const NONE: SpaceId = SpaceId::MAX;

impl BoardGeom {
    /// A board of `rows` x `cols` spaces numbered from `first` (a track is
    /// one row).
    pub fn new(
        first: SpaceId,
        rows: u32,
        cols: u32,
        track: bool,
        (wrap_rows, wrap_cols): (bool, bool),
        name: std::sync::Arc<str>,
    ) -> BoardGeom {
        let mut b = BoardGeom {
            first,
            rows,
            cols,
            track,
            wrap_rows,
            wrap_cols,
            name,
            orth: Default::default(),
            steps: Default::default(),
            reach: None,
            lines: Default::default(),
            rc: Default::default(),
            all: Bits::first(rows.saturating_mul(cols).min(MAX_BITS)),
            near: Default::default(),
        };
        let orth = (first..first + b.len())
            .map(|s| {
                let mut out = [NONE; 4];
                for (slot, d) in out.iter_mut().zip(b.neighbour_dirs()) {
                    *slot = b.step(s, *d).ok().flatten().unwrap_or(NONE);
                }
                out
            })
            .collect();
        b.orth = std::sync::Arc::new(orth);
        let steps = (first..first + b.len())
            .map(|s| {
                let mut out = [WRONG; Dir::COUNT];
                for d in Dir::ALL {
                    out[d as usize] = match b.step(s, d) {
                        Ok(n) => n.unwrap_or(NONE),
                        Err(_) => WRONG,
                    };
                }
                out
            })
            .collect();
        b.steps = std::sync::Arc::new(steps);
        if b.len() <= MAX_BITS {
            let near: Option<Vec<_>> = (first..first + b.len())
                .map(|s| {
                    let row = b.steps[(s - first) as usize];
                    let (mut idx, mut present) = ([0u16; 8], 0u8);
                    for (k, d) in b.around_dirs().iter().enumerate() {
                        match row[*d as usize] {
                            NONE => {}
                            WRONG => return None,
                            n => {
                                idx[k] = (n - first) as u16;
                                present |= 1 << k;
                            }
                        }
                    }
                    Some((idx, present))
                })
                .collect();
            b.near = std::sync::Arc::new(near.unwrap_or_default());
        }
        if b.len() <= 1 << 16 {
            b.rc = std::sync::Arc::new((0..b.len()).map(|i| (i / cols, i % cols)).collect());
        }
        if b.len() <= MAX_BITS {
            let adj = b
                .orth
                .iter()
                .map(|row| {
                    let mut bits = Bits::empty(b.len());
                    for &n in row.iter().filter(|&&n| n != NONE) {
                        bits.insert(n - first);
                    }
                    bits
                })
                .collect();
            let wraps = b.wrap_rows || b.wrap_cols;
            b.reach = Some(std::sync::Arc::new(Reach::new(b.len(), b.cols, wraps, adj)));
            let mut lines = vec![Bits::empty(b.len()); (b.rows + b.cols + 2) as usize];
            for i in 0..b.len() {
                let (r, c) = (i / b.cols, i % b.cols);
                for k in r + 1..=b.rows {
                    lines[k as usize].insert(i);
                }
                for k in c + 1..=b.cols {
                    lines[(b.rows + 1 + k) as usize].insert(i);
                }
            }
            b.lines = std::sync::Arc::new(lines);
        }
        b
    }

    /// The spaces of rows (`rows` true) or columns numbered in `range`,
    /// as a set (empty for a board too large for bit sets).
    #[inline]
    pub fn lines_as<S: SpaceSet>(&self, rows: bool, range: std::ops::Range<u32>) -> S {
        let (base, count) = if rows {
            (0, self.rows)
        } else {
            (self.rows + 1, self.cols)
        };
        let before = |k: u32| self.lines.get((base + k.min(count)) as usize);
        match (before(range.start), before(range.end)) {
            (Some(lo), Some(hi)) if range.start < range.end => S::of(hi).minus(S::of(lo)),
            _ => S::none(self.len()),
        }
    }

    /// Every space of the board, as a bit set (for a board of at most
    /// [`MAX_BITS`] spaces).
    #[inline]
    pub fn all_bits(&self) -> &Bits {
        &self.all
    }

    /// How spaces reach their neighbours in a search with bit sets; `None`
    /// for a board of more than [`MAX_BITS`] spaces.
    pub fn reach(&self) -> Option<&Reach> {
        self.reach.as_deref()
    }

    /// [`BoardGeom::step`] from the table worked out at the start.
    #[inline]
    pub fn step_fast(&self, s: SpaceId, d: Dir) -> Result<Option<SpaceId>, String> {
        match self
            .steps
            .get((s - self.first) as usize)
            .map(|row| row[d as usize])
        {
            Some(NONE) => Ok(None),
            Some(WRONG) | None => self.step(s, d),
            Some(n) => Ok(Some(n)),
        }
    }

    /// The directions of `around`, bit 0 first: on a grid clockwise from
    /// north, on a track NEXT then PREV.
    pub fn around_dirs(&self) -> &'static [Dir] {
        if self.track {
            &[Dir::Next, Dir::Prev]
        } else {
            &[
                Dir::N,
                Dir::NE,
                Dir::E,
                Dir::SE,
                Dir::S,
                Dir::SW,
                Dir::W,
                Dir::NW,
            ]
        }
    }

    /// The neighbours of `s` in the directions of `around`, in order
    /// (`None` off the board; the slots past a track's two are `None`).
    pub fn around(&self, s: SpaceId) -> Result<[Option<SpaceId>; 8], String> {
        let mut near = [None; 8];
        for (slot, d) in near.iter_mut().zip(self.around_dirs()) {
            *slot = self.step_fast(s, *d)?;
        }
        Ok(near)
    }

    /// [`BoardGeom::around`] read from the table of steps at once: the
    /// neighbours in the directions of `around`, `None` off the board (and
    /// past a track's two); `None` for a space of another board.
    #[inline]
    pub fn around_fast(&self, s: SpaceId) -> Option<[Option<SpaceId>; 8]> {
        let row = self.steps.get(s.wrapping_sub(self.first) as usize)?;
        let mut near = [None; 8];
        for (slot, d) in near.iter_mut().zip(self.around_dirs()) {
            match row[*d as usize] {
                NONE => {}
                WRONG => return None,
                n => *slot = Some(n),
            }
        }
        Some(near)
    }

    /// The bits of `around` for the neighbours of `s` in `mask` (a set of
    /// this board): bit `k` for the `k`th direction of `around`; `None`
    /// for a space of another board (or a direction the board lacks, or a
    /// board too large for bit sets).
    #[inline(always)]
    pub fn around_in<S: SpaceSet>(&self, s: SpaceId, mask: S) -> Option<i64> {
        let (idx, present) = self.near.get(s.wrapping_sub(self.first) as usize)?;
        let mut bits = 0u32;
        if S::MOST <= 128 {
            // The set's two words read once (every number is below 128).
            let low = mask.low128();
            let words = [low as u64, (low >> 64) as u64];
            for (k, &i) in idx.iter().enumerate() {
                bits |= ((words[usize::from(i >> 6) & 1] >> (i & 63)) as u32 & 1) << k;
            }
        } else {
            for (k, &i) in idx.iter().enumerate() {
                bits |= u32::from(mask.contains(u32::from(i))) << k;
            }
        }
        Some(i64::from(bits & u32::from(*present)))
    }

    fn neighbour_dirs(&self) -> &'static [Dir] {
        if self.track {
            &[Dir::Prev, Dir::Next]
        } else {
            &[Dir::N, Dir::W, Dir::E, Dir::S]
        }
    }

    /// Number of spaces.
    pub fn len(&self) -> u32 {
        self.rows * self.cols
    }

    /// The global space at (row, col), wrapping wrapped axes; `None` outside.
    pub fn at(&self, row: i64, col: i64) -> Option<SpaceId> {
        let (rows, cols) = (self.rows as i64, self.cols as i64);
        let row = if self.wrap_rows {
            row.rem_euclid(rows)
        } else {
            row
        };
        let col = if self.wrap_cols {
            col.rem_euclid(cols)
        } else {
            col
        };
        ((0..rows).contains(&row) && (0..cols).contains(&col))
            .then(|| self.first + (row * cols + col) as SpaceId)
    }

    /// The row and column of each space, by its number on the board
    /// (empty for a board too large to keep them).
    #[inline]
    pub fn coords_table(&self) -> &[(u32, u32)] {
        &self.rc
    }

    /// The spaces of `bits` (of this board), in order, into `out`
    /// (emptied first), and the rows and the columns they lie in, as bits
    /// (bit `r`: row `r`): `None` on a board of more than 64 rows or
    /// columns.
    pub fn spaces_and_lines<S: SpaceSet>(
        &self,
        bits: S,
        out: &mut Vec<SpaceId>,
    ) -> Option<(u64, u64)> {
        out.clear();
        let first = self.first;
        bits.each(|i| out.push(first + i));
        self.lines_of(bits.low128(), out)
    }

    /// The rows and the columns of the spaces `members` of this board
    /// (`low`: their set's first 128 bits).
    #[inline(always)]
    fn lines_of(&self, low: u128, members: &[SpaceId]) -> Option<(u64, u64)> {
        if self.rows > 64 || self.cols > 64 || self.rc.len() != self.len() as usize {
            return None;
        }
        let (mut rows, mut cols) = (0u64, 0u64);
        if self.len() <= 128 && members.len() > 8 {
            // A large set: space `i` is at row `i / cols`, column
            // `i % cols`, so the rows are the words of `cols` bits that are
            // not zero, and the columns the bits of those words put
            // together (a few word operations a row, not two a member).
            let unit = (1u128 << self.cols) - 1;
            let (mut rest, mut r) = (low, 0);
            while rest != 0 {
                let row = rest & unit;
                if row != 0 {
                    rows |= 1 << r;
                    cols |= row as u64;
                }
                rest >>= self.cols;
                r += 1;
            }
        } else {
            let rc = &self.rc[..];
            for &s in members {
                if let Some(&(r, c)) = rc.get(s.wrapping_sub(self.first) as usize) {
                    rows |= 1 << r;
                    cols |= 1 << c;
                }
            }
        }
        Some((rows, cols))
    }

    /// Row and column of a space of this board.
    #[inline]
    pub fn coords(&self, s: SpaceId) -> (u32, u32) {
        let local = s - self.first;
        match self.rc.get(local as usize) {
            Some(&rc) => rc,
            None => (local / self.cols, local % self.cols),
        }
    }

    /// The neighbour of `s` in direction `d`, or why there is none.
    pub fn step(&self, s: SpaceId, d: Dir) -> Result<Option<SpaceId>, String> {
        let (r, c) = self.coords(s);
        let (r, c) = (r as i64, c as i64);
        if self.track {
            return match d {
                Dir::Next => Ok(self.at(0, c + 1)),
                Dir::Prev => Ok(self.at(0, c - 1)),
                _ => Err(format!(
                    "`{}` is a track: its directions are NEXT and PREV",
                    self.name
                )),
            };
        }
        match d.delta() {
            Some((dr, dc)) => Ok(self.at(r + dr, c + dc)),
            None => Err(format!(
                "`{}` is a grid: its directions are N E S W NE NW SE SW",
                self.name
            )),
        }
    }

    /// The orthogonal neighbours of `s` (NEXT/PREV on a track), in the
    /// order N, W, E, S (PREV, NEXT).
    pub fn neighbours(&self, s: SpaceId) -> impl Iterator<Item = SpaceId> + '_ {
        let row = self
            .orth
            .get((s - self.first) as usize)
            .copied()
            .unwrap_or([NONE; 4]);
        row.into_iter().filter(|&n| n != NONE)
    }

    /// Breadth-first search from `start` (a space of this board) through
    /// spaces for which `keep` holds (the start included only if it holds),
    /// in the order they are reached.
    pub fn flood(
        &self,
        start: SpaceId,
        mut keep: impl FnMut(SpaceId) -> Result<bool, String>,
    ) -> Result<Vec<SpaceId>, String> {
        // Room for a small board's every space: no growing on the way.
        let mut out = Vec::with_capacity((self.len() as usize).min(1024));
        self.flood_until(start, |s| {
            let kept = keep(s)?;
            if kept {
                out.push(s);
            }
            Ok::<_, String>((kept, false))
        })?;
        Ok(out)
    }

    /// [`BoardGeom::flood`] for a condition that cannot fail (a compiled
    /// one), into `out` (emptied first: a vector kept from an earlier
    /// search serves again without allocating). A loop of its own, the
    /// result doubling as the queue: going through
    /// [`BoardGeom::flood_until`] costs a fifth more per space.
    pub fn flood_where_into(
        &self,
        start: SpaceId,
        out: &mut Vec<SpaceId>,
        mut keep: impl FnMut(SpaceId) -> bool,
    ) {
        out.clear();
        let len = self.len() as usize;
        if !keep(start) {
            return;
        }
        let (mut seen_small, mut seen_big) = ([false; 256], Vec::new());
        let seen: &mut [bool] = if len <= seen_small.len() {
            &mut seen_small[..len]
        } else {
            seen_big.resize(len, false);
            &mut seen_big
        };
        seen[(start - self.first) as usize] = true;
        out.push(start);
        let mut head = 0;
        while let Some(&s) = out.get(head) {
            head += 1;
            for &n in &self.orth[(s - self.first) as usize] {
                if n == NONE {
                    continue;
                }
                let i = (n - self.first) as usize;
                if !seen[i] {
                    seen[i] = true;
                    if keep(n) {
                        out.push(n);
                    }
                }
            }
        }
    }

    /// The breadth-first search of [`BoardGeom::flood`], one space at a
    /// time: `step` is called once for each space reached (the start
    /// first), says whether it is kept (the search goes on through it) and
    /// whether to stop the whole search now. The kept spaces are passed
    /// in the order `flood` lists them. Returns whether `step` stopped it.
    pub fn flood_until<E>(
        &self,
        start: SpaceId,
        mut step: impl FnMut(SpaceId) -> Result<(bool, bool), E>,
    ) -> Result<bool, E> {
        match step(start)? {
            (false, _) => return Ok(false),
            (true, true) => return Ok(true),
            (true, false) => {}
        }
        let len = self.len() as usize;
        // Each space enters the queue once, so a board-long array serves
        // as the queue; on the stack for boards of up to 256 spaces.
        let (mut seen_small, mut seen_big) = ([false; 256], Vec::new());
        let (mut queue_small, mut queue_big) = ([0 as SpaceId; 256], Vec::new());
        let (seen, queue): (&mut [bool], &mut [SpaceId]) = if len <= seen_small.len() {
            (&mut seen_small[..len], &mut queue_small[..len])
        } else {
            seen_big.resize(len, false);
            queue_big.resize(len, 0);
            (&mut seen_big, &mut queue_big)
        };
        seen[(start - self.first) as usize] = true;
        queue[0] = start;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let s = queue[head];
            head += 1;
            let Some(row) = self.orth.get((s - self.first) as usize) else {
                continue;
            };
            for &n in row {
                if n == NONE {
                    continue;
                }
                let i = (n - self.first) as usize;
                if !seen[i] {
                    seen[i] = true;
                    match step(n)? {
                        (true, true) => return Ok(true),
                        (true, false) => {
                            queue[tail] = n;
                            tail += 1;
                        }
                        (false, _) => {}
                    }
                }
            }
        }
        Ok(false)
    }
}

/// All boards of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Boards {
    pub boards: Vec<BoardGeom>,
}

impl Boards {
    /// Total number of spaces.
    pub fn space_count(&self) -> u32 {
        self.boards.iter().map(BoardGeom::len).sum()
    }

    /// The board a space belongs to.
    pub fn of(&self, s: SpaceId) -> Option<&BoardGeom> {
        self.boards
            .iter()
            .find(|b| s >= b.first && s < b.first + b.len())
    }

    /// A space's name for views: `TRACK[3]`, `GRID[2,5]`.
    pub fn name(&self, s: SpaceId) -> String {
        match self.of(s) {
            Some(b) if b.track => format!("{}[{}]", b.name, s - b.first),
            Some(b) => {
                let (r, c) = b.coords(s);
                format!("{}[{r},{c}]", b.name)
            }
            None => format!("space#{s}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: u32, cols: u32, wrap_cols: bool) -> BoardGeom {
        BoardGeom::new(10, rows, cols, false, (false, wrap_cols), "G".into())
    }

    /// The spaces, rows and columns of sets of every size (small ones are
    /// read a member at a time, large ones a row at a time) on boards of
    /// several shapes, against the coordinates of each member.
    #[test]
    fn spaces_and_lines_list_a_set_and_its_lines() {
        for (rows, cols) in [(9, 9), (5, 13), (11, 3), (1, 40), (16, 8), (20, 20)] {
            let g = grid(rows, cols, false);
            let mut state = 0x9e37_79b9_7f4a_7c15u64;
            for density in [1, 3, 8, 30, 64] {
                let mut bits = Bits::empty(g.len());
                for i in 0..g.len() {
                    // A fixed pseudo-random set of about density/64 of the spaces.
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    if state % 64 < density {
                        bits.insert(i);
                    }
                }
                let mut out = Vec::new();
                let lines = g.spaces_and_lines(bits, &mut out);
                let members: Vec<u32> = (0..g.len()).filter(|&i| bits.contains(i)).collect();
                let expected: Vec<SpaceId> = members.iter().map(|&i| g.first + i).collect();
                assert_eq!(out, expected, "{rows} x {cols}, density {density}");
                let (mut r, mut c) = (0u64, 0u64);
                for &i in &members {
                    r |= 1 << (i / cols);
                    c |= 1 << (i % cols);
                }
                assert_eq!(lines, Some((r, c)), "{rows} x {cols}, density {density}");
            }
        }
    }

    #[test]
    fn steps_stop_at_edges_and_wrap_where_asked() {
        let g = grid(3, 4, false);
        let corner = g.at(0, 3).unwrap();
        assert_eq!(g.step(corner, Dir::E), Ok(None));
        assert_eq!(g.step(corner, Dir::N), Ok(None));
        assert_eq!(g.step(corner, Dir::S), Ok(g.at(1, 3)));
        let w = grid(3, 4, true);
        assert_eq!(w.step(corner, Dir::E), Ok(w.at(0, 0)));
        assert_eq!(w.step(corner, Dir::N), Ok(None));
        assert!(g.step(corner, Dir::Next).is_err());
        assert_eq!(g.coords(g.at(2, 1).unwrap()), (2, 1));
    }

    #[test]
    fn rotate_turns_quarter_turns_clockwise_modulo_four() {
        assert_eq!(Dir::N.rotate(1), Ok(Dir::E));
        assert_eq!(Dir::W.rotate(1), Ok(Dir::N));
        assert_eq!(Dir::N.rotate(2), Ok(Dir::S));
        assert_eq!(Dir::E.rotate(-1), Ok(Dir::N));
        assert_eq!(Dir::N.rotate(-5), Ok(Dir::W));
        assert_eq!(Dir::S.rotate(4), Ok(Dir::S));
        assert_eq!(Dir::S.rotate(0), Ok(Dir::S));
        assert_eq!(Dir::NE.rotate(1), Ok(Dir::SE));
        assert_eq!(Dir::NW.rotate(1), Ok(Dir::NE));
        assert_eq!(Dir::SW.rotate(-1), Ok(Dir::SE));
        assert_eq!(Dir::NE.rotate(2), Ok(Dir::SW));
        assert_eq!(Dir::E.rotate(i64::MIN), Ok(Dir::E));
        for d in &Dir::ALL[..8] {
            let d = *d;
            assert_eq!(d.rotate(2), Ok(d.opposite()));
            assert_eq!(Dir::parse(d.name()), Some(d));
        }
        assert_eq!(Dir::Next.rotate(2), Ok(Dir::Prev));
        assert_eq!(Dir::Prev.rotate(-2), Ok(Dir::Next));
        assert_eq!(Dir::Next.rotate(4), Ok(Dir::Next));
        assert_eq!(Dir::Prev.rotate(0), Ok(Dir::Prev));
        let err = Dir::Next.rotate(1).unwrap_err();
        assert!(
            err.contains("cannot turn `NEXT` by 1 quarter turn:"),
            "{err}"
        );
        assert!(Dir::Prev
            .rotate(-3)
            .unwrap_err()
            .contains("by -3 quarter turns"));
    }

    #[test]
    fn flood_follows_the_condition() {
        let g = grid(3, 3, false);
        let boards = Boards {
            boards: vec![g.clone()],
        };
        // Keep the middle column only.
        let col1 = |s: SpaceId| Ok(g.coords(s).1 == 1);
        let got = g.flood(g.at(0, 1).unwrap(), col1).unwrap();
        assert_eq!(
            got,
            vec![
                g.at(0, 1).unwrap(),
                g.at(1, 1).unwrap(),
                g.at(2, 1).unwrap()
            ]
        );
        assert!(g.flood(g.at(0, 0).unwrap(), col1).unwrap().is_empty());
        assert_eq!(boards.name(g.at(2, 1).unwrap()), "G[2,1]");
    }
}
