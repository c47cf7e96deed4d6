//! Spatial queries: evaluating spaces of boards (`space`, `where`,
//! `neighbour`, `after`/`before`), the directions a `group` spreads in,
//! `line`, and groups found with bit sets, against the table's board
//! geometry.

use super::geom as board;
use super::regions::Group;
use super::spaceset::{Bits, SpaceSet};
use crate::engine::compile::{Loaded, SpaceCond};
use crate::engine::eval::R;
use crate::engine::exec::Machine;
use crate::engine::state::Table;
use crate::engine::value::Items;
use crate::engine::value::Value;
use crate::ir::{BoolExpr, GroupDirs, SpaceExpr, StrExpr, VarId};

impl Machine<'_> {
    // ---- spaces ---------------------------------------------------------

    /// Evaluates a space (`None`: no space, off the board).
    #[inline(always)]
    pub fn space(&mut self, e: &SpaceExpr) -> R<Option<u32>> {
        match e {
            SpaceExpr::Var(v) => match self.var(*v) {
                Value::Space(s) => Ok(Some(*s)),
                Value::Unset => Ok(None),
                _ => self.space_any(e),
            },
            _ => self.space_any(e),
        }
    }

    /// [`Machine::space`], every form.
    #[inline(never)]
    fn space_any(&mut self, e: &SpaceExpr) -> R<Option<u32>> {
        Ok(match e {
            SpaceExpr::At { board, coords } => {
                // At most two coordinates (the lowering checks the count).
                let mut buf = [0i64; 2];
                for (slot, c) in buf.iter_mut().zip(coords) {
                    *slot = self.int(c)?;
                }
                let xs = &buf[..coords.len().min(2)];
                let b = self
                    .table
                    .boards
                    .boards
                    .get(*board as usize)
                    .ok_or("no such board")?;
                match xs {
                    _ if coords.len() > 2 => {
                        return Err(
                            format!("wrong number of coordinates for board `{}`", b.name).into(),
                        )
                    }
                    [i] if b.track => b.at(0, *i),
                    // A graph's point by its number.
                    [i] if b.graph => (0..i64::from(b.len()))
                        .contains(i)
                        .then(|| b.first + *i as u32),
                    [r, c] if !b.track => b.at(*r, *c),
                    _ => {
                        return Err(
                            format!("wrong number of coordinates for board `{}`", b.name).into(),
                        )
                    }
                }
            }
            SpaceExpr::Var(v) => match self.var(*v) {
                Value::Space(s) => Some(*s),
                Value::Unset => None,
                other => return Err(self.not_a(*v, "a space", other)),
            },
            SpaceExpr::Of(card) => match self.card(card)? {
                None => None,
                Some(c) => {
                    let slot = self.table.card_loc[c.id as usize];
                    let (owner, _) = Table::slot_parts(slot, self.tabs.loc_count);
                    self.table.owner_space(owner)
                }
            },
            SpaceExpr::Neighbour(s, dir) => {
                let Some(s) = self.space(s)? else {
                    return Ok(None);
                };
                let d = self.dir(dir)?;
                self.board_of(s)?.step_fast(s, d)?
            }
            SpaceExpr::Find {
                from,
                forward,
                dir,
                var,
                cond,
            } => {
                let Some(start) = self.space(from)? else {
                    return Ok(None);
                };
                let mut s = start;
                // The board is looked up at each step, not held or copied
                // across the condition's evaluation (see `flood_with`).
                let (len, track, hex, graph) = {
                    let b = self.board_of(s)?;
                    (b.len(), b.track, b.hex, b.graph)
                };
                let d = match dir {
                    Some(d) => self.dir(d)?,
                    None if track => board::Dir::Next,
                    None => {
                        return Err(format!(
                            "`{}` is {}: `after`/`before` need a direction, as in `(after 'S E 'V ...)`",
                            self.board_of(s)?.name,
                            if graph {
                                "a graph board"
                            } else if hex {
                                "a hex board"
                            } else {
                                "a grid"
                            }
                        ).into())
                    }
                };
                let d = if *forward { d } else { d.opposite() };
                let mut found = None;
                for _ in 0..len {
                    match self.board_of(s)?.step(s, d)? {
                        // Off the edge, or once around a wrapped axis.
                        None => break,
                        Some(n) if n == start => break,
                        Some(n) => {
                            self.set_var(*var as usize, Value::Space(n));
                            if self.bool(cond)? {
                                found = Some(n);
                                break;
                            }
                            s = n;
                        }
                    }
                }
                found
            }
            SpaceExpr::If(x) => {
                let (c, a, b) = &**x;
                if self.bool(c)? {
                    self.space(a)?
                } else {
                    self.space(b)?
                }
            }
            SpaceExpr::Step {
                from,
                dir,
                count,
                skip,
            } => {
                let Some(mut s) = self.space(from)? else {
                    return Ok(None);
                };
                let d = self.dir(dir)?;
                let k = self.int(count)?;
                let skip = match skip {
                    Some(x) => self.space(x)?,
                    None => None,
                };
                if !(0..=1 << 20).contains(&k) {
                    return Err(format!("`step` walks 0 to 1048576 spaces, not {k}").into());
                }
                // Each step either counts or passes SKIP, which cannot
                // follow itself unless the walk is stuck on it.
                let (mut left, mut tries) = (k, 2 * k + 2);
                while left > 0 {
                    tries -= 1;
                    if tries < 0 {
                        return Err("`step` goes round its skipped space only".into());
                    }
                    match self.board_of(s)?.step_fast(s, d)? {
                        None => return Ok(None),
                        Some(n) => {
                            s = n;
                            if Some(n) != skip {
                                left -= 1;
                            }
                        }
                    }
                }
                Some(s)
            }
        })
    }

    /// A space that must exist.
    pub(in crate::engine) fn some_space(&mut self, e: &SpaceExpr) -> R<u32> {
        self.space(e)?.ok_or_else(no_space)
    }

    #[inline]
    pub(in crate::engine) fn board_of(&self, s: u32) -> R<&board::BoardGeom> {
        board_in(&self.table.boards, s)
    }

    /// The breadth-first search of [`board::BoardGeom::flood_until`] over
    /// the board of `start`, with `step` handed the machine: the board is
    /// looked up in the table at each space reached rather than borrowed
    /// (or copied, which writes reference counts every thread shares)
    /// across the steps.
    pub(in crate::engine) fn flood_until(
        &mut self,
        start: u32,
        spread: Option<board::DirMask>,
        step: impl FnMut(&mut Self, u32) -> R<(bool, bool)>,
    ) -> R<bool> {
        let bi = board_number(&self.table.boards, start)? as usize;
        let b = &self.table.boards.boards[bi];
        let at = (b.first, b.len() as usize, start);
        super::flood_with(self, at, step, |m, i| {
            m.table.boards.boards[bi].spread_near(i, spread)
        })
    }

    /// Evaluates a direction: an error for a string that is none.
    pub(in crate::engine) fn dir(&mut self, e: &StrExpr) -> R<board::Dir> {
        if let StrExpr::Rotate(inner, quarters) = e {
            // Turned here, not through the direction's name.
            let d = self.dir(inner)?;
            let k = self.int(quarters)?;
            return Ok(d.rotate(k)?);
        }
        let s = self.str(e)?;
        let d = self.tabs.dirs.get(s as usize).copied().flatten();
        if d.is_none() {
            let name = &self.tabs.prog.symbols[s as usize];
            if let Some(base) = board::Dir::relative(name) {
                let k = board::Dir::facing(self.table.current_player(), self.table.players);
                return Ok(base.rotate(k)?);
            }
        }
        d.ok_or_else(|| {
            format!(
                "`{}` is not a direction (N E S W NE NW SE SW on a grid, E W NE NW SE SW on a hex board, NEXT PREV on a track, FORWARD BACKWARD LEFT RIGHT FORWARD_LEFT FORWARD_RIGHT BACKWARD_LEFT BACKWARD_RIGHT from the current player's seat)",
                self.tabs.prog.symbols[s as usize]
            )
            .into()
        })
    }
}

/// The error for a space that must exist and does not.
#[cold]
pub(in crate::engine) fn no_space() -> crate::engine::eval::Fault {
    "no space there (off the board): it has no index, row, column, locations or storages".into()
}

/// The board of space `s` among `boards`, or the error of a space on no
/// board.
#[inline]
pub(in crate::engine) fn board_in(boards: &board::Boards, s: u32) -> R<&board::BoardGeom> {
    // Most games have one board.
    if let [b] = boards.boards.as_slice() {
        if s >= b.first && s - b.first < b.len() {
            return Ok(b);
        }
    }
    board_of_any(boards, s)
}

#[inline(never)]
fn board_of_any(boards: &board::Boards, s: u32) -> R<&board::BoardGeom> {
    boards
        .of(s)
        .ok_or_else(|| format!("space #{s} is on no board").into())
}

impl Machine<'_> {
    /// The group of `start` through the spaces where `test` holds (its
    /// leaves `loaded`), into `out` (emptied first), in board order: from
    /// the index of what lies on the spaces, as bit sets, when the test
    /// reads only what the index knows; else one space at a time.
    /// Returns the group as a bit set of its board too (with the board's
    /// first space) when it was found so.
    #[inline]
    pub(in crate::engine) fn group_into(
        &mut self,
        test: &SpaceCond,
        loaded: &Loaded,
        (start, spread): (u32, Option<board::DirMask>),
        out: &mut Vec<u32>,
    ) -> R<Option<Group>> {
        // The board's own directions (the common case) with the tables
        // chosen when this is compiled.
        match spread {
            None => self.group_over(test, loaded, (start, None), out),
            Some(_) => self.group_over_dirs(test, loaded, (start, spread), out),
        }
    }

    /// [`Machine::group_into`] over directions given.
    #[inline(never)]
    fn group_over_dirs(
        &mut self,
        test: &SpaceCond,
        loaded: &Loaded,
        at: (u32, Option<board::DirMask>),
        out: &mut Vec<u32>,
    ) -> R<Option<Group>> {
        self.group_over(test, loaded, at, out)
    }

    /// [`Machine::group_into`], spreading over the board's own directions
    /// (`spread` `None`) or those of a mask.
    #[inline(always)]
    fn group_over(
        &mut self,
        test: &SpaceCond,
        loaded: &Loaded,
        (start, spread): (u32, Option<board::DirMask>),
        out: &mut Vec<u32>,
    ) -> R<Option<Group>> {
        let bi = board_number(&self.table.boards, start)?;
        if self.tabs.space_bits {
            // A board of at most 128 spaces: the sets in registers.
            let at = (start, bi, spread);
            if let Some(group) = self.group_as::<u128>(test, loaded, at, out) {
                return Ok(Some(group));
            }
            if let Some(group) = self.group_as::<Bits>(test, loaded, at, out) {
                return Ok(Some(group));
            }
        }
        let board = &self.table.boards.boards[bi as usize];
        board.flood_where_into(start, spread, out, |s| test.holds(self, loaded, s));
        out.sort_unstable();
        Ok(None)
    }

    /// The directions a `group` spreads in from space `start`: `None` for
    /// its board's own, else a mask (see [`board::BoardGeom::spread_of`]);
    /// an error for a string that is no direction, or a direction the
    /// board lacks.
    #[inline(always)]
    pub(in crate::engine) fn group_spread(
        &mut self,
        dirs: Option<&GroupDirs>,
        start: u32,
    ) -> R<Option<board::DirMask>> {
        match dirs {
            None => Ok(None),
            Some(dirs) => self.group_spread_of(dirs, start),
        }
    }

    /// [`Machine::group_spread`] of directions given.
    #[inline(never)]
    fn group_spread_of(&mut self, dirs: &GroupDirs, start: u32) -> R<Option<board::DirMask>> {
        let mask = match dirs {
            GroupDirs::Lit(mask) => *mask,
            GroupDirs::Expr(c) => {
                let Items::Strs(names) = self.items(c)? else {
                    return Err("the directions of a `group` must be strings".into());
                };
                let mut mask = 0;
                for s in names {
                    let d = self.tabs.dirs.get(s as usize).copied().flatten();
                    let Some(d) = d else {
                        return Err(format!(
                            "`{}` is not a direction, in the directions of a `group`",
                            self.tabs.prog.symbols[s as usize]
                        )
                        .into());
                    };
                    mask |= 1 << d as usize;
                }
                mask
            }
        };
        Ok(self.board_of(start)?.spread_of(mask)?)
    }

    /// `(inrow N SPACE 'V COND)`: whether, along one axis of SPACE's
    /// board (each direction the board has, with its opposite), SPACE and
    /// the runs on both sides where COND holds number N or more.
    pub(in crate::engine) fn in_row(
        &mut self,
        count: &crate::ir::IntExpr,
        space: &SpaceExpr,
        var: VarId,
        cond: &BoolExpr,
    ) -> R<bool> {
        let n = self.int(count)?;
        let Some(start) = self.space(space)? else {
            return Ok(false);
        };
        if n <= 1 {
            return Ok(true);
        }
        let (mask, len) = {
            let b = self.board_of(start)?;
            (b.dir_mask(), i64::from(b.len()))
        };
        let mut seen: board::DirMask = 0;
        for d in board::Dir::ALL {
            let (bit, back) = (1 << d as usize, 1 << d.opposite() as usize);
            if mask & bit == 0 || seen & bit != 0 {
                continue;
            }
            seen |= bit | back;
            let mut total = 1i64;
            for way in [d, d.opposite()] {
                if mask & 1 << way as usize == 0 {
                    continue;
                }
                let mut s = start;
                while total < n && total < len {
                    match self.board_of(s)?.step_fast(s, way)? {
                        Some(next) if next != start => {
                            self.set_var(var as usize, Value::Space(next));
                            if !self.bool(cond)? {
                                break;
                            }
                            total += 1;
                            s = next;
                        }
                        _ => break,
                    }
                }
            }
            if total >= n {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `(line FROM DIR 'V COND)`: the spaces after FROM in direction DIR
    /// while COND holds, in order (at most once around a wrapped axis).
    pub(in crate::engine) fn line(
        &mut self,
        (from, dir): (&SpaceExpr, &StrExpr),
        var: VarId,
        cond: &BoolExpr,
    ) -> R<Vec<u32>> {
        let mut out = Vec::new();
        let Some(start) = self.space(from)? else {
            return Ok(out);
        };
        let d = self.dir(dir)?;
        // The board is looked up at each step (see `flood_with`).
        let len = self.board_of(start)?.len();
        let mut s = start;
        for _ in 0..len {
            match self.board_of(s)?.step_fast(s, d)? {
                Some(n) if n != start => {
                    self.set_var(var as usize, Value::Space(n));
                    if !self.bool(cond)? {
                        break;
                    }
                    out.push(n);
                    s = n;
                }
                // Off the edge, or once around a wrapped axis.
                _ => break,
            }
        }
        Ok(out)
    }

    /// [`Machine::group_into`] with sets of type `S`, from space `start` of
    /// board number `bi`: `None` when the index cannot answer (or the board
    /// is too large for `S`).
    #[inline(always)]
    fn group_as<S: SpaceSet>(
        &mut self,
        test: &SpaceCond,
        loaded: &Loaded,
        (start, bi, spread): (u32, u32, Option<board::DirMask>),
        out: &mut Vec<u32>,
    ) -> Option<Group> {
        let mask: S = test.mask(self.table, self.tabs.loc_count, loaded, bi)?;
        let board = &self.table.boards.boards[bi as usize];
        let reach = board.reach(spread)?;
        let (bits, _) = S::spread(reach, start - board.first, mask, S::none(board.len()));
        let lines = board.spaces_and_lines(bits, out);
        Some(Group {
            first: board.first,
            bits: bits.bits(board.len()),
            lines,
        })
    }

    /// `any` (`some`) or `all` over the group of `start` through the spaces
    /// where `keep` holds, of the condition `body`, answered with bit sets
    /// from the index of what lies on the spaces; `None` when the index
    /// cannot answer one of the two conditions (or the board is too large).
    #[inline]
    pub(in crate::engine) fn group_reaches(
        &mut self,
        keep: (&SpaceCond, &Loaded),
        body: (&SpaceCond, &Loaded),
        (start, spread): (u32, Option<board::DirMask>),
        some: bool,
    ) -> R<Option<bool>> {
        match spread {
            None => self.reaches_over(keep, body, (start, None), some),
            Some(_) => self.reaches_over_dirs(keep, body, (start, spread), some),
        }
    }

    /// [`Machine::group_reaches`] over directions given.
    #[inline(never)]
    fn reaches_over_dirs(
        &mut self,
        keep: (&SpaceCond, &Loaded),
        body: (&SpaceCond, &Loaded),
        at: (u32, Option<board::DirMask>),
        some: bool,
    ) -> R<Option<bool>> {
        self.reaches_over(keep, body, at, some)
    }

    /// [`Machine::group_reaches`], spreading over the board's own
    /// directions (`spread` `None`) or those of a mask.
    #[inline(always)]
    fn reaches_over(
        &mut self,
        keep: (&SpaceCond, &Loaded),
        body: (&SpaceCond, &Loaded),
        (start, spread): (u32, Option<board::DirMask>),
        some: bool,
    ) -> R<Option<bool>> {
        if !self.tabs.space_bits {
            return Ok(None);
        }
        let bi = board_number(&self.table.boards, start)?;
        let board = &self.table.boards.boards[bi as usize];
        let at = (start, bi, spread);
        Ok(if board.len() <= u128::MOST {
            // The sets in registers.
            self.reaches_as::<u128>(keep, body, at, some)
        } else {
            self.reaches_as::<Bits>(keep, body, at, some)
        })
    }

    /// [`Machine::group_reaches`] with sets of type `S`.
    #[inline(always)]
    fn reaches_as<S: SpaceSet>(
        &mut self,
        keep: (&SpaceCond, &Loaded),
        body: (&SpaceCond, &Loaded),
        (start, bi, spread): (u32, u32, Option<board::DirMask>),
        some: bool,
    ) -> Option<bool> {
        let lc = self.tabs.loc_count;
        let keep: S = keep.0.mask(self.table, lc, keep.1, bi)?;
        let hit: S = body.0.mask(self.table, lc, body.1, bi)?;
        let board = &self.table.boards.boards[bi as usize];
        let reach = board.reach(spread)?;
        // `any` looks for a space where the body holds, `all` for one
        // where it fails.
        let stop = if some {
            hit
        } else {
            S::of(board.all_bits()).minus(hit)
        };
        let (_, found) = S::spread(reach, start - board.first, keep, stop);
        Some(found == some)
    }
}

/// The number of the board of space `s` among `boards`, or the error of a
/// space on no board.
#[inline]
pub(in crate::engine) fn board_number(boards: &board::Boards, s: u32) -> R<u32> {
    // Most games have one board.
    if let [b] = boards.boards.as_slice() {
        if s >= b.first && s - b.first < b.len() {
            return Ok(0);
        }
    }
    let b = board_of_any(boards, s)?;
    Ok(boards
        .boards
        .iter()
        .position(|x| std::ptr::eq(x, b))
        .unwrap_or(0) as u32)
}
