//! Lowering of the boards that are no rectangle: `(hexagon SIDE)`, and
//! `(graph (points ...) (links ...))` with its points named in `(space
//! GRAPH POINT)`. A graph's points are words, each optionally at a row and
//! a column (`(A1 6 0)`); a link joins two or more points one after the
//! other, optionally in a direction (`(A1 D1 G1 E)`: D1 east of A1, G1
//! east of D1, and back west).

use super::boards::DIRECTIONS;
use super::context::Lowerer;
use crate::ir::{GraphPoint, GraphShape, IntExpr, Shape, SpaceExpr};
use crate::syntax::SExpr;

/// How a graph is written.
const GRAPH_SHAPE: &str = "`graph` is written `(graph (points P...) (links (P Q...) ...))`: each point a word or `(WORD ROW COL)`, each link two or more points, optionally followed by the direction from each to the next; or `(graph ROWS COLS (links ...))`, its points the cells the links name (`A1` the bottom left)";

/// The most links a point may have.
use crate::ir::MAX_LINKS;

/// The most points a graph may have, and its largest row or column.
const MAX_POINTS: usize = 1 << 16;
const MAX_COORD: i64 = 1023;

/// The opposite of direction number `k` of [`DIRECTIONS`].
fn opposite(k: usize) -> usize {
    match k {
        0 => 2,
        2 => 0,
        1 => 3,
        3 => 1,
        4 => 7,
        7 => 4,
        5 => 6,
        6 => 5,
        8 => 9,
        _ => 8,
    }
}

/// The part `(WORD ...)` of a graph's shape.
fn part<'e>(shape: &'e SExpr, word: &str) -> &'e [SExpr] {
    shape
        .as_list()
        .unwrap_or(&[])
        .iter()
        .find(|p| p.head() == Some(word))
        .and_then(SExpr::as_list)
        .map_or(&[], |p| &p[1..])
}

/// The direction ending a link, if it ends with one.
fn link_dir(link: &[SExpr]) -> Option<usize> {
    let d = link.last()?.as_name()?;
    DIRECTIONS.iter().position(|x| *x == d)
}

/// `(graph ROWS COLS (links ...))`: the rows and columns of the grid its
/// points are named on.
fn grid_of(shape: &SExpr) -> Option<(i64, i64)> {
    match shape.as_list()? {
        [_, SExpr::Int(r, _), SExpr::Int(c, _), ..] => Some((*r, *c)),
        _ => None,
    }
}

/// A point of a graph on a grid of `rows` x `cols`, named by its column
/// letter and its row number from the bottom (`A7` on 7 rows: row 0,
/// column 0).
fn grid_point(name: &str, (rows, cols): (i64, i64)) -> Option<GraphPoint> {
    let mut chars = name.chars();
    let letter = chars.next()?;
    let col = i64::from(u32::from(letter).checked_sub(u32::from('A'))?);
    let rank: i64 = chars.as_str().parse().ok()?;
    ((0..cols).contains(&col) && (1..=rows).contains(&rank) && letter.is_ascii_uppercase())
        .then(|| (name.to_string(), Some(((rows - rank) as u32, col as u32))))
}

/// The points of a graph on a grid: those its links name, in reading
/// order (`None` for a name that is no cell of the grid).
fn grid_points(shape: &SExpr, grid: (i64, i64)) -> Vec<Option<GraphPoint>> {
    let mut out: Vec<Option<GraphPoint>> = Vec::new();
    for link in part(shape, "links") {
        let all = link.as_list().unwrap_or(&[]);
        let chain = &all[..all.len() - usize::from(link_dir(all).is_some())];
        for p in chain.iter().filter_map(SExpr::as_name) {
            let point = grid_point(p, grid);
            let known = |o: &Option<GraphPoint>| o.as_ref().map(|x| x.0.as_str()) == Some(p);
            if point.is_none() || !out.iter().any(known) {
                out.push(point);
            }
        }
    }
    out.sort_by_key(|p| p.as_ref().map(|(_, at)| at.map(|(r, c)| (r, c))));
    out
}

/// The names of a graph's points, in order (for `(space GRAPH POINT)`,
/// before the setup is lowered).
pub(super) fn point_names(shape: &SExpr) -> Vec<String> {
    if shape.head() != Some("graph") {
        return Vec::new();
    }
    if let Some(grid) = grid_of(shape) {
        return grid_points(shape, grid)
            .into_iter()
            .flatten()
            .map(|(n, _)| n)
            .collect();
    }
    part(shape, "points")
        .iter()
        .filter_map(|p| match p {
            SExpr::Name(n, _) => Some(n.clone()),
            SExpr::List(items, _) => items.first()?.as_name().map(str::to_string),
            _ => None,
        })
        .collect()
}

/// The directions of a graph's links, bit k for [`DIRECTIONS`]`[k]`.
pub(super) fn link_dirs(shape: &SExpr) -> u16 {
    let mut mask = 0;
    for link in part(shape, "links") {
        if let Some(k) = link.as_list().and_then(link_dir) {
            mask |= 1 << k | 1 << opposite(k);
        }
    }
    mask
}

impl Lowerer {
    /// `(hexagon SIDE)`.
    pub(super) fn hexagon_shape(&mut self, e: &SExpr, items: &[SExpr]) -> Option<Shape> {
        let [_, side] = items else {
            self.error(
                e.span(),
                "`hexagon` is written `(hexagon SIDE)`, with SIDE the number of hexagons along each of its six sides",
            );
            return None;
        };
        let side = self.board_size(side, "a hexagon needs a side of at least one hexagon");
        Some(Shape::Hexagon { side })
    }

    /// `(graph (points ...) (links ...))`.
    pub(super) fn graph_shape(&mut self, e: &SExpr, items: &[SExpr]) -> Option<Shape> {
        let grid = grid_of(e);
        let rest = &items[if grid.is_some() { 3 } else { 1 }..];
        let points_wanted = usize::from(grid.is_none());
        let parts_ok = rest
            .iter()
            .all(|p| matches!(p.head(), Some("points" | "links")))
            && rest.iter().filter(|p| p.head() == Some("points")).count() == points_wanted
            && rest.iter().filter(|p| p.head() == Some("links")).count() <= 1;
        if !parts_ok {
            self.error(e.span(), GRAPH_SHAPE);
            return None;
        }
        let points = match grid {
            Some((rows, cols)) => {
                if !(1..=MAX_COORD + 1).contains(&rows) || !(1..=26).contains(&cols) {
                    self.error(
                        e.span(),
                        format!(
                            "a graph on a grid has 1 to {} rows and 1 to 26 columns (named A to Z)",
                            MAX_COORD + 1
                        ),
                    );
                    return None;
                }
                let points = grid_points(e, (rows, cols));
                if points.iter().any(Option::is_none) || points.is_empty() {
                    self.error(
                        e.span(),
                        format!("on a graph of {rows} rows and {cols} columns, the links name their points by column letter and row number counted from the bottom (`A1` is the bottom left cell)"),
                    );
                    return None;
                }
                points.into_iter().flatten().collect()
            }
            None => self.graph_points(e, part(e, "points"))?,
        };
        let names: Vec<&str> = points.iter().map(|(n, _)| n.as_str()).collect();
        let mut links = Vec::new();
        let mut near = vec![Vec::new(); points.len()];
        let mut steps = vec![[u32::MAX; DIRECTIONS.len()]; points.len()];
        let mut ok = true;
        for link in part(e, "links") {
            let Some(all) = link.as_list() else {
                self.error(link.span(), GRAPH_SHAPE);
                ok = false;
                continue;
            };
            let dir = link_dir(all);
            let chain = &all[..all.len() - usize::from(dir.is_some())];
            if chain.len() < 2 {
                self.error(
                    link.span(),
                    "a link joins two points or more, one after the other: `(A B)`, or `(A B C E)` in a direction",
                );
                ok = false;
                continue;
            }
            let mut ids = Vec::new();
            for p in chain {
                match p.as_name().and_then(|n| names.iter().position(|x| *x == n)) {
                    Some(i) => ids.push(i),
                    None => {
                        let note = match p
                            .as_name()
                            .and_then(|n| super::messages::suggest(n, &names))
                        {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => "a link names points of the graph's `points`".to_string(),
                        };
                        self.error_note(
                            p.span(),
                            format!("{} is no point of this graph", p.describe()),
                            note,
                        );
                        ok = false;
                    }
                }
            }
            for w in ids.windows(2) {
                let (a, b) = (w[0], w[1]);
                if a == b {
                    self.error(
                        link.span(),
                        format!("the point `{}` is linked to itself", names[a]),
                    );
                    ok = false;
                    continue;
                }
                for (x, y) in [(a, b), (b, a)] {
                    if !near[x].contains(&y) {
                        near[x].push(y);
                    }
                }
                if let Some(k) = dir {
                    for (x, y, k) in [(a, b, k), (b, a, opposite(k))] {
                        let was = steps[x][k];
                        if was != u32::MAX && was != y as u32 {
                            self.error(
                                link.span(),
                                format!(
                                    "`{}` has two neighbours to the {}: `{}` and `{}`",
                                    names[x], DIRECTIONS[k], names[was as usize], names[y]
                                ),
                            );
                            ok = false;
                        }
                        steps[x][k] = y as u32;
                    }
                }
                links.push((a as u32, b as u32, dir.map(|k| k as u8)));
            }
        }
        if let Some(i) = near.iter().position(|n| n.len() > MAX_LINKS) {
            self.error(
                e.span(),
                format!(
                    "the point `{}` has {} links: a point of a graph has at most {MAX_LINKS}",
                    names[i],
                    near[i].len()
                ),
            );
            ok = false;
        }
        ok.then(|| Shape::Graph(std::sync::Arc::new(GraphShape { points, links })))
    }

    /// A graph's `(points ...)`: names, all with coordinates or none.
    fn graph_points(&mut self, e: &SExpr, items: &[SExpr]) -> Option<Vec<GraphPoint>> {
        if items.is_empty() || items.len() > MAX_POINTS {
            self.error(
                e.span(),
                format!(
                    "a graph has 1 to {MAX_POINTS} points, found {}",
                    items.len()
                ),
            );
            return None;
        }
        let mut out: Vec<GraphPoint> = Vec::new();
        let mut ok = true;
        for p in items {
            let (name, at) = match p {
                SExpr::Name(n, _) => (n, None),
                SExpr::List(l, _) => match l.as_slice() {
                    [SExpr::Name(n, _), SExpr::Int(r, _), SExpr::Int(c, _)]
                        if (0..=MAX_COORD).contains(r) && (0..=MAX_COORD).contains(c) =>
                    {
                        (n, Some((*r as u32, *c as u32)))
                    }
                    _ => {
                        self.error(
                            p.span(),
                            format!("a point is a word, or `(WORD ROW COL)` with ROW and COL numbers from 0 to {MAX_COORD}"),
                        );
                        ok = false;
                        continue;
                    }
                },
                _ => {
                    self.error(
                        p.span(),
                        format!("a point is a word, found {}", p.describe()),
                    );
                    ok = false;
                    continue;
                }
            };
            if DIRECTIONS.contains(&name.as_str())
                || super::boards::RELATIVE.contains(&name.as_str())
            {
                self.error(
                    p.span(),
                    format!("`{name}` is a direction: a point needs another name"),
                );
                ok = false;
            }
            if out.iter().any(|(n, _)| n == name) {
                self.error(p.span(), format!("the point `{name}` is given twice"));
                ok = false;
            }
            if at.is_some() && out.iter().any(|(_, a)| *a == at) {
                self.error(
                    p.span(),
                    format!("another point lies at the row and column of `{name}`"),
                );
                ok = false;
            }
            out.push((name.clone(), at));
        }
        if out.iter().any(|(_, a)| a.is_some()) && out.iter().any(|(_, a)| a.is_none()) {
            self.error(
                e.span(),
                "either every point of a graph has a row and a column, or none has",
            );
            ok = false;
        }
        ok.then_some(out)
    }

    /// `(space GRAPH POINT)`: a point by its name, or by its number.
    pub(super) fn graph_point(&mut self, board: u16, name: &str, point: &SExpr) -> SpaceExpr {
        let index = match point {
            SExpr::Name(p, span) => {
                let points = &self.boards[board as usize].points;
                match points.iter().position(|x| x == p) {
                    Some(i) => IntExpr::Lit(i as i64),
                    None => {
                        let names: Vec<&str> = points.iter().map(String::as_str).collect();
                        let note = match super::messages::suggest(p, &names) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => {
                                format!("the points of `{name}` are named in its `(points ...)`")
                            }
                        };
                        self.error_note(*span, format!("`{name}` has no point `{p}`"), note);
                        IntExpr::Lit(-1)
                    }
                }
            }
            other => self.int(other),
        };
        SpaceExpr::At {
            board,
            coords: vec![index],
        }
    }
}
