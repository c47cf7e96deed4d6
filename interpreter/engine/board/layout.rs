//! Boards whose spaces do not fill a rectangle: a hexagon of hexagons
//! (side N, in the axial coordinates of a hex board: the rhombus of side
//! 2N - 1 without its two corners) and a graph (named points, each at a
//! row and column of its own, and the links between them, each with a
//! direction or none). A [`Layout`] lists the spaces of such a board in
//! order with their coordinates; [`super::BoardGeom::with_layout`] builds
//! the board from it.

use super::geom::{DirMask, Kind, SpaceId, NONE};
use super::Dir;
use std::sync::Arc;

/// A point's row and column.
pub type Coords = (u32, u32);

/// A direction a graph board does not have at all.
pub(super) const WRONG: SpaceId = SpaceId::MAX - 1;

/// The most links a point of a graph board may have.
pub use crate::ir::MAX_LINKS;

/// The spaces of a board that is not a rectangle, numbered from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// [`Kind::Hexagon`] or [`Kind::Graph`].
    pub kind: Kind,
    /// The rows and columns of the rectangle the spaces lie in.
    pub rows: u32,
    pub cols: u32,
    /// Each space's row and column.
    pub coords: Vec<(u32, u32)>,
    /// Each cell of the rectangle (row by row): the space there, or
    /// `NONE`.
    pub cells: Vec<SpaceId>,
    /// A graph's point names (empty for a hexagon).
    pub names: Vec<Arc<str>>,
    /// A graph's links of each point (numbers on the board, `NONE` past
    /// them; empty for a hexagon).
    pub links: Vec<[SpaceId; MAX_LINKS]>,
    /// A graph's neighbour of each point in each direction (a number on
    /// the board, `NONE` where the point has none, `WRONG` for a
    /// direction no link has; empty for a hexagon).
    pub steps: Vec<[SpaceId; Dir::COUNT]>,
    /// A graph's directions, as a mask (0 for a hexagon).
    pub dirs: DirMask,
}

impl Layout {
    /// The hexagon of side `side` (at least 1): rows 0 to 2 side - 2, and
    /// in row r the columns c with side - 1 <= r + c <= 3 side - 3.
    pub fn hexagon(side: u32) -> Layout {
        let n = 2 * side - 1;
        let mut coords = Vec::new();
        let mut cells = vec![NONE; (n * n) as usize];
        for r in 0..n {
            for c in 0..n {
                if r + c + 1 >= side && r + c + 2 < 3 * side {
                    cells[(r * n + c) as usize] = coords.len() as SpaceId;
                    coords.push((r, c));
                }
            }
        }
        Layout {
            kind: Kind::Hexagon,
            rows: n,
            cols: n,
            coords,
            cells,
            names: Vec::new(),
            links: Vec::new(),
            steps: Vec::new(),
            dirs: 0,
        }
    }

    /// A graph of the points `points` (names and coordinates, distinct;
    /// `None`: row 0 and the point's number as its column) and the links
    /// `links` (two points by number, and the direction from the first to
    /// the second, whose opposite leads back). A link given twice counts
    /// once; links past [`MAX_LINKS`] of a point are left out (the
    /// lowering refuses them, and a direction given two ways).
    pub fn graph(
        points: &[(Arc<str>, Option<Coords>)],
        links: &[(u32, u32, Option<Dir>)],
    ) -> Layout {
        let len = points.len();
        let coords: Vec<(u32, u32)> = points
            .iter()
            .enumerate()
            .map(|(i, (_, rc))| rc.unwrap_or((0, i as u32)))
            .collect();
        let rows = coords.iter().map(|c| c.0 + 1).max().unwrap_or(1);
        let cols = coords.iter().map(|c| c.1 + 1).max().unwrap_or(1);
        let mut cells = vec![NONE; rows as usize * cols as usize];
        for (i, &(r, c)) in coords.iter().enumerate() {
            cells[(r * cols + c) as usize] = i as SpaceId;
        }
        let mut near = vec![[NONE; MAX_LINKS]; len];
        let mut steps = vec![[NONE; Dir::COUNT]; len];
        let mut dirs: DirMask = 0;
        let mut join = |a: usize, b: usize| {
            if let Some(slot) = near[a]
                .iter_mut()
                .find(|n| **n == NONE || **n == b as SpaceId)
            {
                *slot = b as SpaceId;
            }
        };
        for &(a, b, d) in links {
            let (a, b) = (a as usize, b as usize);
            if a >= len || b >= len || a == b {
                continue;
            }
            join(a, b);
            join(b, a);
            if let Some(d) = d {
                steps[a][d as usize] = b as SpaceId;
                steps[b][d.opposite() as usize] = a as SpaceId;
                dirs |= 1 << d as usize | 1 << d.opposite() as usize;
            }
        }
        for row in &mut steps {
            for (k, n) in row.iter_mut().enumerate() {
                if dirs & 1 << k == 0 {
                    *n = WRONG;
                }
            }
        }
        Layout {
            kind: Kind::Graph,
            rows,
            cols,
            coords,
            cells,
            names: points.iter().map(|(n, _)| n.clone()).collect(),
            links: near,
            steps,
            dirs,
        }
    }

    /// The space at (row, col) of the rectangle, if there is one.
    pub fn at(&self, row: i64, col: i64) -> Option<SpaceId> {
        let (rows, cols) = (i64::from(self.rows), i64::from(self.cols));
        if !(0..rows).contains(&row) || !(0..cols).contains(&col) {
            return None;
        }
        let s = self.cells[(row * cols + col) as usize];
        (s != NONE).then_some(s)
    }

    /// The space of a graph's point named `name`.
    pub fn point(&self, name: &str) -> Option<SpaceId> {
        self.names
            .iter()
            .position(|n| **n == *name)
            .map(|i| i as SpaceId)
    }
}
