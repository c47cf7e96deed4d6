//! Board geometry: the spaces of every board of a game, numbered globally,
//! and the steps between them (neighbours, wrapping, connected groups).
//! Sizes are fixed when a game starts. A board is a track, a grid of
//! squares or a hex board (a rhombus of hexagons in axial coordinates:
//! the neighbours of (r, c) are (r, c±1), (r±1, c), (r-1, c+1) and
//! (r+1, c-1)); a group spreads over the board's own neighbours or over
//! a set of directions given as a mask (bit `d as usize` for each).

pub use super::dir::Dir;
use super::layout::{Layout, MAX_LINKS};
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
    /// A hex board (directions E W NE NW SE SW) rather than a grid (a
    /// rhombus, or a hexagon when `layout` is given).
    pub hex: bool,
    /// A graph board: named points and their links (`layout` given).
    pub graph: bool,
    /// The spaces of a board that is no rectangle (a hexagon, a graph):
    /// their coordinates, and a graph's points and links.
    pub layout: Option<std::sync::Arc<Layout>>,
    /// How many spaces (rows x cols for a rectangle).
    count: u32,
    pub wrap_rows: bool,
    pub wrap_cols: bool,
    /// The board's name, for views (shared: geometries are copied often).
    pub name: std::sync::Arc<str>,
    /// A graph's links of each space, `NONE` past them (global numbers;
    /// empty on any other board).
    pub(super) links: std::sync::Arc<Vec<[SpaceId; MAX_LINKS]>>,
    /// Each space's orthogonal neighbours in [`BoardGeom::neighbours`]
    /// order, `NONE` where there is none (worked out once: floods ask for
    /// them at every step); empty on a hex board or a graph.
    pub(super) orth: std::sync::Arc<Vec<[SpaceId; 4]>>,
    /// On a hex board, each space's six neighbours in
    /// [`BoardGeom::neighbours`] order, `NONE` where there is none; empty
    /// on any other board.
    pub(super) six: std::sync::Arc<Vec<[SpaceId; 6]>>,
    /// Each space's neighbour in every direction, by `Dir as usize`:
    /// `NONE` off the edge, `WRONG` for a direction this board does not
    /// have (worked out once: `neighbour` asks for them often).
    steps: std::sync::Arc<Vec<[SpaceId; Dir::COUNT]>>,
    /// How spaces reach their neighbours in a search with bit sets (`None`
    /// for a board too large for bit sets).
    reach: Option<std::sync::Arc<Reach>>,
    /// How spaces reach their neighbours over each set of directions the
    /// rules' `group`s write out (the mask, then the reach), for the
    /// masks this board has every direction of and that are not its own.
    reaches: std::sync::Arc<Vec<(u16, Reach)>>,
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
use super::layout::WRONG;

/// No neighbour in that direction.
pub(super) const NONE: SpaceId = SpaceId::MAX;

/// A board's kind (its number is how a list of built sizes records it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Track = 0,
    Grid = 1,
    Hex = 2,
    /// A hexagon of hexagons (a [`Layout`]).
    Hexagon = 3,
    /// Named points and their links (a [`Layout`]).
    Graph = 4,
}

/// The spreading of a `group` over a graph's own links (no set of
/// directions is it: a link may have none).
const LINKS: DirMask = 1 << 15;

/// A set of directions, bit `d as usize` for each direction `d`.
pub type DirMask = u16;

/// The mask of some directions.
pub const fn mask_of(dirs: &[Dir]) -> DirMask {
    let mut m = 0;
    let mut k = 0;
    while k < dirs.len() {
        m |= 1 << dirs[k] as usize;
        k += 1;
    }
    m
}

/// The neighbours a hex board's flood visits, in reading order.
const HEX_NEAR: [Dir; 6] = [Dir::NW, Dir::NE, Dir::W, Dir::E, Dir::SW, Dir::SE];

impl BoardGeom {
    /// A board of `rows` x `cols` spaces numbered from `first` (a track is
    /// one row), with its searches over each of the sets of directions
    /// `spreads` worked out.
    pub fn new(
        first: SpaceId,
        (rows, cols, kind): (u32, u32, Kind),
        (wrap_rows, wrap_cols): (bool, bool),
        name: std::sync::Arc<str>,
        spreads: &[DirMask],
    ) -> BoardGeom {
        let b = BoardGeom {
            first,
            rows,
            cols,
            track: kind == Kind::Track,
            hex: kind == Kind::Hex,
            graph: false,
            layout: None,
            count: rows * cols,
            wrap_rows,
            wrap_cols,
            name,
            links: Default::default(),
            orth: Default::default(),
            six: Default::default(),
            reaches: Default::default(),
            steps: Default::default(),
            reach: None,
            lines: Default::default(),
            rc: Default::default(),
            all: Bits::first(rows.saturating_mul(cols).min(MAX_BITS)),
            near: Default::default(),
        };
        b.finish(spreads)
    }

    /// A board that is no rectangle, its spaces those of `layout`, numbered
    /// from `first`.
    pub fn with_layout(
        first: SpaceId,
        layout: Layout,
        name: std::sync::Arc<str>,
        spreads: &[DirMask],
    ) -> BoardGeom {
        let count = layout.coords.len() as u32;
        let b = BoardGeom {
            first,
            rows: layout.rows,
            cols: layout.cols,
            track: false,
            hex: layout.kind == Kind::Hexagon,
            graph: layout.kind == Kind::Graph,
            count,
            wrap_rows: false,
            wrap_cols: false,
            name,
            links: Default::default(),
            orth: Default::default(),
            six: Default::default(),
            reaches: Default::default(),
            steps: Default::default(),
            reach: None,
            lines: Default::default(),
            rc: std::sync::Arc::new(layout.coords.clone()),
            all: Bits::first(count.min(MAX_BITS)),
            near: Default::default(),
            layout: Some(std::sync::Arc::new(layout)),
        };
        b.finish(spreads)
    }

    /// Works out the tables of a board whose shape is set.
    fn finish(mut self, spreads: &[DirMask]) -> BoardGeom {
        let b = &mut self;
        let first = b.first;
        let cols = b.cols;
        let global = |n: SpaceId| {
            if n == NONE || n == WRONG {
                n
            } else {
                first + n
            }
        };
        if let Some(l) = b.layout.clone().filter(|_| b.graph) {
            b.links = std::sync::Arc::new(l.links.iter().map(|r| r.map(global)).collect());
            b.steps = std::sync::Arc::new(l.steps.iter().map(|r| r.map(global)).collect());
        }
        let near = |s: SpaceId, dirs: &[Dir], out: &mut [SpaceId]| {
            for (slot, d) in out.iter_mut().zip(dirs) {
                *slot = b.step(s, *d).ok().flatten().unwrap_or(NONE);
            }
        };
        if b.hex {
            let six = (first..first + b.len())
                .map(|s| {
                    let mut out = [NONE; 6];
                    near(s, &HEX_NEAR, &mut out);
                    out
                })
                .collect();
            b.six = std::sync::Arc::new(six);
        } else if !b.graph {
            let orth = (first..first + b.len())
                .map(|s| {
                    let mut out = [NONE; 4];
                    near(s, b.neighbour_dirs(), &mut out);
                    out
                })
                .collect();
            b.orth = std::sync::Arc::new(orth);
        }
        let steps = (first..first + b.len())
            .filter(|_| !b.graph)
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
        if !b.graph {
            b.steps = std::sync::Arc::new(steps);
        }
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
        if b.len() <= 1 << 16 && b.layout.is_none() {
            b.rc = std::sync::Arc::new((0..b.len()).map(|i| (i / cols, i % cols)).collect());
        }
        if b.len() <= MAX_BITS {
            let wraps = b.wrap_rows || b.wrap_cols;
            b.reach = Some(std::sync::Arc::new(if b.hex {
                b.reach_over(b.own_dirs())
            } else if b.graph {
                Reach::Table(b.links.iter().map(|row| b.bits_of(row)).collect())
            } else {
                let adj = b.orth.iter().map(|row| b.bits_of(row)).collect();
                Reach::new(b.len(), b.cols, wraps, adj)
            }));
            let reaches = spreads
                .iter()
                .filter(|&&m| m & !b.dir_mask() == 0 && m != b.own_dirs())
                .map(|&m| (m, b.reach_over(m)))
                .collect();
            b.reaches = std::sync::Arc::new(reaches);
            let mut lines = vec![Bits::empty(b.len()); (b.rows + b.cols + 2) as usize];
            for i in 0..b.len() {
                let (r, c) = b.coords(first + i);
                for k in r + 1..=b.rows {
                    lines[k as usize].insert(i);
                }
                for k in c + 1..=b.cols {
                    lines[(b.rows + 1 + k) as usize].insert(i);
                }
            }
            b.lines = std::sync::Arc::new(lines);
        }
        self
    }

    /// The spaces `row` of this board (`NONE` left out) as a bit set.
    fn bits_of(&self, row: &[SpaceId]) -> Bits {
        let mut bits = Bits::empty(self.len());
        for &n in row.iter().filter(|&&n| n != NONE) {
            bits.insert(n - self.first);
        }
        bits
    }

    /// How the spaces reach their neighbours in the directions `mask` (all
    /// of them the board's), for a board of at most [`MAX_BITS`] spaces.
    fn reach_over(&self, mask: DirMask) -> Reach {
        let dirs: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|d| mask & 1 << *d as usize != 0)
            .collect();
        let deltas: Vec<(i64, i64)> = dirs.iter().filter_map(|d| self.delta(*d)).collect();
        let adj = (0..self.len())
            .map(|i| self.bits_of(&self.masked(i as usize, mask)))
            .collect();
        if self.layout.is_some() {
            return Reach::Table(adj);
        }
        let wraps = self.wrap_rows || self.wrap_cols;
        Reach::steps(self.len(), self.cols, wraps, &deltas, adj)
    }

    /// The change of row and column a step in direction `d` makes on this
    /// board (`None`: a direction it does not have).
    fn delta(&self, d: Dir) -> Option<(i64, i64)> {
        match (self.track, self.hex) {
            (true, _) => match d {
                Dir::Next => Some((0, 1)),
                Dir::Prev => Some((0, -1)),
                _ => None,
            },
            (false, true) => d.hex_delta(),
            (false, false) => d.delta(),
        }
    }

    /// Every direction the board has, as a mask.
    pub fn dir_mask(&self) -> DirMask {
        const TRACK: DirMask = mask_of(&[Dir::Next, Dir::Prev]);
        const GRID: DirMask = mask_of(&[
            Dir::N,
            Dir::E,
            Dir::S,
            Dir::W,
            Dir::NE,
            Dir::NW,
            Dir::SE,
            Dir::SW,
        ]);
        const HEX: DirMask = mask_of(&HEX_NEAR);
        if self.graph {
            return self.layout.as_ref().map_or(0, |l| l.dirs);
        }
        match (self.track, self.hex) {
            (true, _) => TRACK,
            (false, true) => HEX,
            (false, false) => GRID,
        }
    }

    /// The directions a `group` spreads in by default, as a mask: N E S W
    /// on a grid, NEXT PREV on a track, all six on a hex board.
    pub fn own_dirs(&self) -> DirMask {
        if self.graph {
            LINKS
        } else if self.hex || self.track {
            self.dir_mask()
        } else {
            mask_of(&[Dir::N, Dir::E, Dir::S, Dir::W])
        }
    }

    /// How a search spreads over the directions `mask`: `None` for the
    /// board's own (its tables), `Some(mask)` for others; an error when
    /// the board lacks one of them.
    pub fn spread_of(&self, mask: DirMask) -> Result<Option<DirMask>, String> {
        let lacks = mask & !self.dir_mask();
        if lacks != 0 {
            let d = Dir::ALL[lacks.trailing_zeros() as usize % Dir::COUNT];
            return Err(self
                .step(self.first, d)
                .err()
                .unwrap_or_else(|| format!("`{}` has no direction {}", self.name, d.name())));
        }
        Ok((mask != self.own_dirs()).then_some(mask))
    }

    /// The neighbours of the space numbered `i` on this board in the
    /// directions `mask` (all of them the board's), `NONE` past them.
    #[inline]
    pub(super) fn masked(&self, i: usize, mask: DirMask) -> [SpaceId; 8] {
        let mut out = [NONE; 8];
        let Some(row) = self.steps.get(i) else {
            return out;
        };
        let mut k = 0;
        for (d, &n) in row.iter().enumerate() {
            if mask & 1 << d != 0 && k < out.len() {
                out[k] = if n == WRONG { NONE } else { n };
                k += 1;
            }
        }
        out
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

    /// How spaces reach their neighbours in a search with bit sets, over
    /// the board's own directions (`spread` `None`) or those of a mask;
    /// `None` for a board of more than [`MAX_BITS`] spaces, or a mask the
    /// rules do not write out.
    #[inline]
    pub fn reach(&self, spread: Option<DirMask>) -> Option<&Reach> {
        match spread {
            None => self.reach.as_deref(),
            Some(m) => self.reaches.iter().find(|(k, _)| *k == m).map(|(_, r)| r),
        }
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
    /// north, on a hex board clockwise from north-east, on a track NEXT
    /// then PREV.
    pub fn around_dirs(&self) -> &'static [Dir] {
        if self.track {
            &[Dir::Next, Dir::Prev]
        } else if self.hex {
            &[Dir::NE, Dir::E, Dir::SE, Dir::SW, Dir::W, Dir::NW]
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
    #[inline]
    pub fn len(&self) -> u32 {
        self.count
    }

    /// The global space at (row, col), wrapping wrapped axes; `None` outside.
    pub fn at(&self, row: i64, col: i64) -> Option<SpaceId> {
        if let Some(l) = &self.layout {
            return l.at(row, col).map(|s| self.first + s);
        }
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
    #[inline(always)]
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
        if self.len() <= 128 && members.len() > 8 && self.layout.is_none() {
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
        if self.graph {
            let row = self.steps.get(s.wrapping_sub(self.first) as usize);
            return match row.map(|r| r[d as usize]) {
                Some(NONE) => Ok(None),
                Some(WRONG) | None => Err(self.graph_lacks(d)),
                Some(n) => Ok(Some(n)),
            };
        }
        let (r, c) = self.coords(s);
        let (r, c) = (r as i64, c as i64);
        match self.delta(d) {
            Some((dr, dc)) => Ok(self.at(r + dr, c + dc)),
            None if self.track => Err(format!(
                "`{}` is a track: its directions are NEXT and PREV, not {}",
                self.name,
                d.name()
            )),
            None if self.hex => Err(format!(
                "`{}` is a hex board: its directions are E W NE NW SE SW, not {}",
                self.name,
                d.name()
            )),
            None => Err(format!(
                "`{}` is a grid: its directions are N E S W NE NW SE SW, not {}",
                self.name,
                d.name()
            )),
        }
    }

    /// The neighbours a `group` spreads to from `s`: on a grid the
    /// orthogonal ones in the order N, W, E, S; on a track PREV, NEXT; on
    /// a hex board NW, NE, W, E, SW, SE.
    pub fn neighbours(&self, s: SpaceId) -> impl Iterator<Item = SpaceId> + '_ {
        let i = s.wrapping_sub(self.first) as usize;
        let mut row = [NONE; MAX_LINKS];
        if self.graph {
            row = self.links.get(i).copied().unwrap_or(row);
        } else if let Some(six) = self.six.get(i).filter(|_| self.hex) {
            row[..6].copy_from_slice(six);
        } else if let Some(four) = self.orth.get(i) {
            row[..4].copy_from_slice(four);
        }
        row.into_iter().filter(|&n| n != NONE)
    }

    /// The error of a direction a graph board lacks.
    #[cold]
    fn graph_lacks(&self, d: Dir) -> String {
        let has: Vec<&str> = Dir::ALL
            .iter()
            .filter(|x| self.dir_mask() & 1 << **x as usize != 0)
            .map(|x| x.name())
            .collect();
        if has.is_empty() {
            format!(
                "`{}` is a graph board whose links have no directions, not {}",
                self.name,
                d.name()
            )
        } else {
            format!(
                "`{}` is a graph board: its directions are {}, not {}",
                self.name,
                has.join(" "),
                d.name()
            )
        }
    }

    /// The name of a graph's point (`None` on other boards).
    pub fn point_name(&self, s: SpaceId) -> Option<&str> {
        let l = self.layout.as_ref().filter(|_| self.graph)?;
        l.names
            .get(s.wrapping_sub(self.first) as usize)
            .map(|n| &**n)
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
            Some(b) if b.graph => format!("{}[{}]", b.name, b.point_name(s).unwrap_or("?")),
            Some(b) => {
                let (r, c) = b.coords(s);
                format!("{}[{r},{c}]", b.name)
            }
            None => format!("space#{s}"),
        }
    }
}
