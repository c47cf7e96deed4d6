//! Compiling the walks along a direction of a board: `(after SPACE DIR 'V
//! COND)` / `(before ...)`, the first space past SPACE where COND holds,
//! and `(line SPACE DIR 'V COND)`, the spaces past SPACE while COND holds,
//! as a count (`size`) and as the items of an `all`/`any` action. Each
//! closure steps as the evaluator steps (`Machine::space`'s `Find`,
//! `Machine::line`), the board looked up at every step, the condition
//! compiled (read straight from the table when it has [`SpaceCond`]'s
//! shape), and charges what the evaluator's `items` charges.

use super::cond::bool;
use super::expr::{dir, space};
use super::space::SpaceCond;
use super::{Ctx, Run, CR};
use crate::engine::board::Dir;
use crate::engine::exec::Machine;
use crate::engine::value::Value;
use crate::ir::{BoolExpr, SpaceExpr, StrExpr, VarId};

/// A walk's condition on the space it reaches: read straight from the
/// table where it can be, else bound to its variable and run.
struct Test {
    fast: Option<SpaceCond>,
    var: usize,
    slow: Run<bool>,
}

impl Test {
    fn new(cond: &BoolExpr, var: VarId, cx: &Ctx) -> Test {
        Test {
            fast: SpaceCond::of(cond, var, cx),
            var: var as usize,
            slow: bool(cond, cx),
        }
    }

    /// Whether the condition holds at `s`.
    #[inline(always)]
    fn holds(&self, m: &mut Machine, s: u32) -> CR<bool> {
        if let Some(f) = &self.fast {
            if let Some(loaded) = f.load(m) {
                return Ok(f.holds(m, &loaded, s));
            }
        }
        m.set_var(self.var, Value::Space(s));
        (self.slow)(m)
    }
}

/// `(after FROM DIR 'V COND)` (`forward`) or `(before ...)` with its
/// direction written: as the evaluator's `Find`, once around a wrapped
/// axis at most.
pub(super) fn find(
    (from, d): (&SpaceExpr, &StrExpr),
    forward: bool,
    var: VarId,
    cond: &BoolExpr,
    cx: &Ctx,
) -> Run<Option<u32>> {
    let (from, d, test) = (space(from, cx), dir(d, cx), Test::new(cond, var, cx));
    Box::new(move |m| {
        let Some(start) = from(m)? else {
            return Ok(None);
        };
        let len = m.board_of(start)?.len();
        let d = d(m)?;
        let d = if forward { d } else { d.opposite() };
        let mut s = start;
        for _ in 0..len {
            match m.board_of(s)?.step(s, d)? {
                None => break,
                Some(n) if n == start => break,
                Some(n) => {
                    if test.holds(m, n)? {
                        return Ok(Some(n));
                    }
                    s = n;
                }
            }
        }
        Ok(None)
    })
}

/// The spaces of `(line FROM DIR 'V COND)`, as `Machine::line` finds
/// them: given to `each`, one by one, as they are found (the caller
/// keeps what it needs).
pub(super) struct Line {
    from: Run<Option<u32>>,
    dir: Run<Dir>,
    test: Test,
}

impl Line {
    pub(super) fn new(
        from: &SpaceExpr,
        d: &StrExpr,
        var: VarId,
        cond: &BoolExpr,
        cx: &Ctx,
    ) -> Line {
        Line {
            from: space(from, cx),
            dir: dir(d, cx),
            test: Test::new(cond, var, cx),
        }
    }

    /// Walks the line, calling `each` with every space of it.
    #[inline(always)]
    pub(super) fn walk(&self, m: &mut Machine, mut each: impl FnMut(u32)) -> CR<()> {
        let Some(start) = (self.from)(m)? else {
            return Ok(());
        };
        let d = (self.dir)(m)?;
        if let Some(f) = &self.test.fast {
            if let Some(loaded) = f.load(m) {
                return fast_walk(m, (start, d), f, &loaded, each);
            }
        }
        let len = m.board_of(start)?.len();
        let mut s = start;
        for _ in 0..len {
            match m.board_of(s)?.step_fast(s, d)? {
                Some(n) if n != start => {
                    if !self.test.holds(m, n)? {
                        break;
                    }
                    each(n);
                    s = n;
                }
                _ => break,
            }
        }
        Ok(())
    }
}

/// [`Line::walk`] when its condition is read straight from the table:
/// its leaves read once (a condition changes nothing, and its leaves do
/// not read the walk's variable, so they are the same at every step), the
/// board looked up once (a step stays on its board), the variable left
/// unbound (the compiled test does not read it). The same spaces as the
/// evaluator's walk, in the same order.
#[inline(always)]
fn fast_walk(
    m: &Machine,
    (start, d): (u32, crate::engine::board::Dir),
    f: &SpaceCond,
    loaded: &super::Loaded,
    mut each: impl FnMut(u32),
) -> CR<()> {
    let b = m.board_of(start)?;
    let mut s = start;
    for _ in 0..b.len() {
        match b.step_fast(s, d)? {
            Some(n) if n != start => {
                if !f.holds(m, loaded, n) {
                    break;
                }
                each(n);
                s = n;
            }
            _ => break,
        }
    }
    Ok(())
}

/// `(size (line ...))`: the spaces counted, and charged as the
/// evaluator's `items` charges them.
pub(super) fn line_size(line: Line) -> Run<i64> {
    Box::new(move |m| {
        let mut n = 0usize;
        line.walk(m, |_| n += 1)?;
        m.charge(n)?;
        Ok(n as i64)
    })
}

/// Spaces kept in place up to a few, then on the heap: a line's spaces
/// found before its body runs, without an allocation for a short line.
#[derive(Default)]
pub(super) struct Spaces {
    near: [u32; 16],
    len: usize,
    far: Vec<u32>,
}

impl Spaces {
    #[inline(always)]
    pub(super) fn push(&mut self, s: u32) {
        match self.near.get_mut(self.len) {
            Some(slot) => *slot = s,
            None => self.far.push(s),
        }
        self.len += 1;
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Space `i` (`i < len`).
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> u32 {
        match self.near.get(i) {
            Some(&s) => s,
            None => self.far.get(i - self.near.len()).copied().unwrap_or(0),
        }
    }
}
