//! Floods one space at a time: the breadth-first searches of a board
//! that test each space reached (a `group` whose condition the index of
//! what lies on the spaces cannot answer, or a board too large for bit
//! sets). A search spreads over the board's own neighbours (`spread`
//! `None`: a table worked out once) or over the directions of a mask.

use super::geom::{BoardGeom, DirMask, SpaceId, NONE};

impl BoardGeom {
    /// Breadth-first search from `start` (a space of this board) through
    /// spaces for which `keep` holds (the start included only if it holds),
    /// in the order they are reached, spreading over the board's own
    /// neighbours or the directions of `spread` (see
    /// [`BoardGeom::spread_of`]).
    pub fn flood(
        &self,
        start: SpaceId,
        spread: Option<DirMask>,
        mut keep: impl FnMut(SpaceId) -> Result<bool, String>,
    ) -> Result<Vec<SpaceId>, String> {
        // Room for a small board's every space: no growing on the way.
        let mut out = Vec::with_capacity((self.len() as usize).min(1024));
        self.flood_until(start, spread, |s| {
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
        spread: Option<DirMask>,
        out: &mut Vec<SpaceId>,
        keep: impl FnMut(SpaceId) -> bool,
    ) {
        match spread {
            None if self.graph => self.flood_where_by(start, out, keep, |i| self.links[i]),
            None if self.hex => self.flood_where_by(start, out, keep, |i| self.six[i]),
            None => self.flood_where_by(start, out, keep, |i| self.orth[i]),
            Some(m) => self.flood_where_by(start, out, keep, |i| self.masked(i, m)),
        }
    }

    /// [`BoardGeom::flood_where_into`] with the neighbours of the space
    /// numbered `i` on the board given by `near(i)` (`NONE` past them).
    #[inline(always)]
    fn flood_where_by<const K: usize>(
        &self,
        start: SpaceId,
        out: &mut Vec<SpaceId>,
        mut keep: impl FnMut(SpaceId) -> bool,
        near: impl Fn(usize) -> [SpaceId; K],
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
            for n in near((s - self.first) as usize) {
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
        spread: Option<DirMask>,
        mut step: impl FnMut(SpaceId) -> Result<(bool, bool), E>,
    ) -> Result<bool, E> {
        let at = (self.first, self.len() as usize, start);
        let step = |_: &mut (), s| step(s);
        let none = [NONE; 6];
        match spread {
            None if self.graph => flood_with(&mut (), at, step, |_, i| {
                self.links.get(i).copied().unwrap_or([NONE; 8])
            }),
            None if self.hex => flood_with(&mut (), at, step, |_, i| {
                self.six.get(i).copied().unwrap_or(none)
            }),
            None => flood_with(&mut (), at, step, |_, i| {
                self.orth.get(i).copied().unwrap_or([NONE; 4])
            }),
            Some(m) => flood_with(&mut (), at, step, |_, i| self.masked(i, m)),
        }
    }

    /// The spaces next to the space numbered `i` on this board over which
    /// a flood spreads (its own neighbours, `spread` `None`, or the
    /// directions of a mask), `NONE` past them.
    #[inline]
    pub fn spread_near(&self, i: usize, spread: Option<DirMask>) -> [SpaceId; 8] {
        let mut out = [NONE; 8];
        match spread {
            None if self.graph => {
                if let Some(links) = self.links.get(i) {
                    out = *links;
                }
            }
            None if self.hex => {
                if let Some(six) = self.six.get(i) {
                    out[..6].copy_from_slice(six);
                }
            }
            None => {
                if let Some(four) = self.orth.get(i) {
                    out[..4].copy_from_slice(four);
                }
            }
            Some(m) => out = self.masked(i, m),
        }
        out
    }
}

/// A breadth-first search from `start` over the board whose spaces are
/// numbered from `first`, `len` of them: `step(cx, s)` is called once for
/// each space reached (as [`BoardGeom::flood_until`] says) and
/// `near(cx, i)` gives the neighbours of the space numbered `i` (`NONE`
/// past them). Both are handed the context `cx` rather than capturing
/// it, so that a search may evaluate with the engine's machine as it
/// goes and look its board up in the machine's table at each space,
/// without holding a borrow of the board (or a copy of it: copying a
/// board writes the reference counts that every thread's games share).
#[inline(always)]
pub(in crate::engine) fn flood_with<C, E, const K: usize>(
    cx: &mut C,
    (first, len, start): (SpaceId, usize, SpaceId),
    mut step: impl FnMut(&mut C, SpaceId) -> Result<(bool, bool), E>,
    near: impl Fn(&C, usize) -> [SpaceId; K],
) -> Result<bool, E> {
    match step(cx, start)? {
        (false, _) => return Ok(false),
        (true, true) => return Ok(true),
        (true, false) => {}
    }
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
    seen[(start - first) as usize] = true;
    queue[0] = start;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let s = queue[head];
        head += 1;
        for n in near(cx, (s - first) as usize) {
            if n == NONE {
                continue;
            }
            let i = (n - first) as usize;
            if !seen[i] {
                seen[i] = true;
                match step(cx, n)? {
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
