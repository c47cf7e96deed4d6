//! The check of an option's `any` body cut short where the rest cannot
//! change its answer.
//!
//! A sampler checks a slot (`engine/sample/`) as exploration checks a run:
//! the body is run with the item bound (its last action only checked) and
//! taken back, and the slot is a legal move when nothing failed and some
//! action counted. Once an action that always counts has run, only an error
//! of what follows can change that answer. So when a body's innermost `do`
//! (under its guard and `let`s) has, after an item that always counts, only
//! items that [cannot fail](safe_condact), the check may stop after that
//! item: [`check_body`] is the body with those items left out. Playing the
//! move still runs the whole body.
//!
//! A newcomer's tic-tac-toe writes the test for a line in the move,
//! `(do ((set ('S sto MARK) 'M) (inc (game sto MARKS) 1) ((any (N, E, NE,
//! SE) 'D (>= (+ 1 (+ (size (line 'S 'D ...)) ...)) 3)) (set ((current
//! player) sto WON) 1))))`: the `set` always counts, the `inc` may
//! overflow (it stays), and the conditional `set` after it cannot fail
//! (grid directions, lines from a space of the board, storages of fixed
//! names, sums of small numbers): each slot's check stops after the `inc`
//! instead of testing four lines, as the same game written with the test
//! in an automatic item after the choice checks it.
//!
//! Othello's move, `(do ((all DIRS 'D ((FLANKS ...) (all (line ...) 'X (set
//! ('X sto DISC) 'C)))) (set ('S sto DISC) 'C)))`, is checked as its last `set`
//! alone: that `set` always counts and cannot fail, and neither can the
//! flips before it (a `neighbour` or an `after` in a direction of the grid
//! read only past `(onboard 'N)`, the colour bounded by `bounds.rs` so
//! that `(- 3 'C)` cannot overflow): the guard alone decides the slot.
//!
//! What "cannot fail" covers is deliberately small (see the functions
//! below); anything else keeps the whole check. The work a skipped item
//! would have counted towards `--max-steps` is not counted, as a sieve
//! does not count its guard's.

use super::Ctx;
use crate::engine::board::Dir;
use crate::ir::{
    Action, BoolExpr, CollectionExpr, Condact, IntExpr, IntOp, IntStorage, NameRef, OwnerExpr,
    PlayerExpr, Program, Shape, SpaceExpr, StrExpr, StrStorage, Sym, ValueExpr, VarId,
};

/// A bound on the size of any collection the engine can hold (its items
/// are in memory) and on a space's number, row or column.
const SIZE_BOUND: u64 = 1 << 40;

/// Sums and products of bounded integers are trusted below this.
const SUM_BOUND: u64 = 1 << 62;

/// What a variable in scope is known to hold.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    /// A space of board number `.0` (never "no space").
    Space(u16),
    /// A space of board number `.0`, or no space (what `neighbour` and
    /// `after` find): a space once `(onboard 'V)` held.
    MaybeSpace(u16),
    /// An integer of magnitude at most `.0`.
    Int(u64),
    /// A string that is one of a grid's eight directions.
    GridDir,
    /// Something else, or not known.
    Other,
}

/// The variables in scope, innermost last, and the bounds on the values
/// of the integer storages (`bounds.rs`, by name).
pub(super) struct Env<'a> {
    prog: &'a Program,
    cx: &'a Ctx<'a>,
    bounds: &'a [u64],
    vars: Vec<(VarId, Kind)>,
}

impl<'a> Env<'a> {
    /// Nothing in scope.
    pub(super) fn new(prog: &'a Program, cx: &'a Ctx<'a>, bounds: &'a [u64]) -> Env<'a> {
        Env {
            prog,
            cx,
            bounds,
            vars: Vec::new(),
        }
    }

    /// Binds `v` to a value of kind `k` (until [`Env::pop`]).
    pub(super) fn push(&mut self, v: VarId, k: Kind) {
        self.vars.push((v, k));
    }

    pub(super) fn pop(&mut self) {
        self.vars.pop();
    }
}

impl Env<'_> {
    fn kind(&self, v: VarId) -> Kind {
        (self.vars.iter().rev().find(|(w, _)| *w == v)).map_or(Kind::Other, |&(_, k)| k)
    }

    /// `f` with `v` bound to a value of kind `k`.
    fn with<T>(&mut self, v: VarId, k: Kind, f: impl FnOnce(&mut Self) -> T) -> T {
        self.vars.push((v, k));
        let out = f(self);
        self.vars.pop();
        out
    }

    /// Whether board `b` is a grid (whose eight directions every space
    /// has, and which `rotate` keeps among them).
    fn grid(&self, b: u16) -> bool {
        matches!(
            self.prog.boards.get(b as usize).map(|b| &b.shape),
            Some(Shape::Grid { .. })
        )
    }

    /// Whether symbol `s` names one of a grid's eight directions.
    fn grid_dir(&self, s: Sym) -> bool {
        matches!(
            self.cx.dirs.get(s as usize),
            Some(Some(
                Dir::N | Dir::E | Dir::S | Dir::W | Dir::NE | Dir::NW | Dir::SE | Dir::SW
            ))
        )
    }
}

/// The body of `option`'s lone `any` (under one-item `do`s), its check
/// cut short (see the module doc): `None` when nothing can be left out.
pub(super) fn check_body(
    option: &Condact,
    prog: &Program,
    cx: &Ctx,
    bounds: &[u64],
) -> Option<Condact> {
    let mut c = option;
    let (over, var, body) = loop {
        match &c.action {
            Action::Do(items) if items.len() == 1 => c = &items[0],
            Action::Any { over, var, body } if !body.branches => break (over, *var, body),
            _ => return None,
        }
    };
    let item = match over {
        CollectionExpr::Spaces(b) => Kind::Space(*b),
        _ => Kind::Other,
    };
    let mut env = Env::new(prog, cx, bounds);
    env.push(var, item);
    let action = trim(&body.action, &mut env)?;
    Some(Condact::new(body.cond.clone(), action, body.span))
}

/// `action` with the items of its innermost `do` after the last one that
/// matters to its check left out.
fn trim(action: &Action, env: &mut Env) -> Option<Action> {
    match action {
        Action::Let { value, var, body } => {
            let kind = match value {
                // Bound only when the value was found: an integer.
                ValueExpr::Int(e) => Kind::Int(int_bound(e, env).unwrap_or(u64::MAX)),
                _ => Kind::Other,
            };
            let inner = env.with(*var, kind, |env| trim(&body.action, env))?;
            Some(Action::Let {
                value: value.clone(),
                var: *var,
                body: Box::new(Condact::new(body.cond.clone(), inner, body.span)),
            })
        }
        Action::Do(items) => {
            // The first item that always counts with only safe items after.
            let keep = (0..items.len()).find(|&i| {
                counts(&items[i]) && items[i + 1..].iter().all(|c| safe_condact(c, env))
            })?;
            // When it cannot fail and neither can the items before it, it
            // alone gives the answer: the check runs it only.
            if keep > 0
                && safe_condact(&items[keep], env)
                && items[..keep].iter().all(|c| safe_condact(c, env))
            {
                return Some(Action::Do(vec![items[keep].clone()]));
            }
            (keep + 1 < items.len()).then(|| Action::Do(items[..=keep].to_vec()))
        }
        _ => None,
    }
}

/// Whether `c` always counts as done when it runs without error: a `set`,
/// `inc` or `dec` of a storage, or a `turn pass`, without a guard (each
/// counts before it evaluates anything).
fn counts(c: &Condact) -> bool {
    c.cond.is_none()
        && matches!(
            c.action,
            Action::SetInt(..)
                | Action::IncInt(..)
                | Action::DecInt(..)
                | Action::SetStr(..)
                | Action::TurnPass
        )
}

/// Whether `c` runs without a rules error whatever the table holds: a
/// guard that [cannot fail](safe_bool) and an action that cannot (setting
/// a storage of a fixed name of the game, the current player or a space in
/// a variable to a value that cannot fail, a `turn pass`, a `do` of such).
fn safe_condact(c: &Condact, env: &mut Env) -> bool {
    c.cond.as_ref().is_none_or(|g| safe_bool(g, env))
        && match &c.action {
            Action::SetInt(s, v) => int_slot(s, env) && int_bound(v, env).is_some(),
            Action::SetStr(s, v) => str_slot(s, env) && safe_str(v, env),
            Action::TurnPass => true,
            Action::Do(items) => items.iter().all(|c| safe_condact(c, env)),
            Action::All { over, var, body } => match items(over, env) {
                Some(kind) => env.with(*var, kind, |env| safe_condact(body, env)),
                None => false,
            },
            Action::Let { value, var, body } => match value_kind(value, env) {
                Some(kind) => env.with(*var, kind, |env| safe_condact(body, env)),
                None => false,
            },
            _ => false,
        }
}

/// Whether an owner is found without error.
fn owner(o: &OwnerExpr, env: &Env) -> bool {
    match o {
        OwnerExpr::Game | OwnerExpr::Player(PlayerExpr::Current) => true,
        OwnerExpr::Space(SpaceExpr::Var(v)) => matches!(env.kind(*v), Kind::Space(_)),
        _ => false,
    }
}

fn int_slot(s: &IntStorage, env: &Env) -> bool {
    owner(&s.owner, env) && matches!(s.name, NameRef::Fixed(_))
}

fn str_slot(s: &StrStorage, env: &Env) -> bool {
    owner(&s.owner, env) && matches!(s.name, NameRef::Fixed(_))
}

/// Whether a string is found without error: a literal, a variable known
/// to hold one, a storage.
fn safe_str(s: &StrExpr, env: &Env) -> bool {
    match s {
        StrExpr::Lit(_) => true,
        StrExpr::Var(v) => matches!(env.kind(*v), Kind::GridDir),
        StrExpr::Storage(st) => str_slot(st, env),
        _ => false,
    }
}

/// Whether `s` is a direction of board `b`, a grid, found without error.
fn grid_dir(s: &StrExpr, b: u16, env: &mut Env) -> bool {
    env.grid(b)
        && match s {
            StrExpr::Lit(sym) => env.grid_dir(*sym),
            StrExpr::Var(v) => matches!(env.kind(*v), Kind::GridDir),
            StrExpr::Rotate(d, k) => grid_dir(d, b, env) && int_bound(k, env).is_some(),
            _ => false,
        }
}

/// A bound on the magnitude of an integer found without error, or `None`
/// when finding it may fail.
pub(super) fn int_bound(e: &IntExpr, env: &mut Env) -> Option<u64> {
    match e {
        IntExpr::Lit(v) => Some(v.unsigned_abs()),
        IntExpr::Var(v) => match env.kind(*v) {
            Kind::Int(b) => Some(b),
            _ => None,
        },
        IntExpr::Storage(s) => match s.name {
            NameRef::Fixed(n) if owner(&s.owner, env) => {
                Some(env.bounds.get(n as usize).copied().unwrap_or(u64::MAX))
            }
            _ => None,
        },
        IntExpr::Size(c) => items(c, env).map(|_| SIZE_BOUND),
        IntExpr::Binary(op @ (IntOp::Add | IntOp::Sub | IntOp::Mul), a, b) => {
            let (a, b) = (int_bound(a, env)?, int_bound(b, env)?);
            let bound = match op {
                IntOp::Mul => a.checked_mul(b)?,
                _ => a.checked_add(b)?,
            };
            (bound < SUM_BOUND).then_some(bound)
        }
        _ => None,
    }
}

/// The kind of the items of a collection found without error, or `None`
/// when finding it may fail: the spaces of a board, a `line` on a grid
/// (from a space in a variable, a direction of the grid, a condition that
/// cannot fail), strings written out.
pub(super) fn items(c: &CollectionExpr, env: &mut Env) -> Option<Kind> {
    match c {
        CollectionExpr::Spaces(b) => Some(Kind::Space(*b)),
        CollectionExpr::Line {
            from,
            dir,
            var,
            cond,
        } => {
            let SpaceExpr::Var(from) = **from else {
                return None;
            };
            let Kind::Space(b) = env.kind(from) else {
                return None;
            };
            let ok =
                grid_dir(dir, b, env) && env.with(*var, Kind::Space(b), |env| safe_bool(cond, env));
            ok.then_some(Kind::Space(b))
        }
        CollectionExpr::Strings(syms) => Some(if syms.iter().all(|&s| env.grid_dir(s)) {
            Kind::GridDir
        } else {
            Kind::Other
        }),
        _ => None,
    }
}

/// The kind of a `let`'s value found without error, or `None` when
/// finding it may fail: an integer [bounded](int_bound), a
/// [space](space_kind), a [string](safe_str).
fn value_kind(v: &ValueExpr, env: &mut Env) -> Option<Kind> {
    match v {
        ValueExpr::Int(e) => int_bound(e, env).map(Kind::Int),
        ValueExpr::Space(e) => space_kind(e, env),
        ValueExpr::Str(StrExpr::Var(v)) if matches!(env.kind(*v), Kind::GridDir) => {
            Some(Kind::GridDir)
        }
        ValueExpr::Str(e) => safe_str(e, env).then_some(Kind::Other),
        _ => None,
    }
}

/// The kind of a space found without error, or `None` when finding it may
/// fail: a variable holding a space (or none), the neighbour of such a
/// space in a direction of its grid, or the first space `after` it in
/// such a direction where a condition that cannot fail holds (each a
/// space of the same board, or none).
fn space_kind(s: &SpaceExpr, env: &mut Env) -> Option<Kind> {
    let board = |k: Kind| match k {
        Kind::Space(b) | Kind::MaybeSpace(b) => Some(b),
        _ => None,
    };
    match s {
        SpaceExpr::Var(v) => board(env.kind(*v)).map(|_| env.kind(*v)),
        SpaceExpr::Neighbour(from, dir) => {
            let b = board(space_kind(from, env)?)?;
            grid_dir(dir, b, env).then_some(Kind::MaybeSpace(b))
        }
        SpaceExpr::Find {
            from,
            dir: Some(dir),
            var,
            cond,
            ..
        } => {
            let b = board(space_kind(from, env)?)?;
            let ok =
                grid_dir(dir, b, env) && env.with(*var, Kind::Space(b), |env| safe_bool(cond, env));
            ok.then_some(Kind::MaybeSpace(b))
        }
        _ => None,
    }
}

/// Whether a condition is found without error (see [`int_bound`],
/// [`items`]).
fn safe_bool(b: &BoolExpr, env: &mut Env) -> bool {
    match b {
        BoolExpr::And(all) => {
            // Past `(onboard 'V)`, 'V holds a space.
            let depth = env.vars.len();
            let mut ok = true;
            for c in all {
                if !safe_bool(c, env) {
                    ok = false;
                    break;
                }
                if let BoolExpr::OnBoard(SpaceExpr::Var(v)) = c {
                    if let Kind::MaybeSpace(b) = env.kind(*v) {
                        env.push(*v, Kind::Space(b));
                    }
                }
            }
            env.vars.truncate(depth);
            ok
        }
        BoolExpr::Or(all) => all.iter().all(|c| safe_bool(c, env)),
        BoolExpr::OnBoard(s) => space_kind(s, env).is_some(),
        BoolExpr::Let { value, var, body } => match value_kind(value, env) {
            Some(kind) => env.with(*var, kind, |env| safe_bool(body, env)),
            None => false,
        },
        BoolExpr::Not(c) => safe_bool(c, env),
        BoolExpr::Int(_, a, b) => int_bound(a, env).is_some() && int_bound(b, env).is_some(),
        BoolExpr::Str { left, right, .. } => safe_str(left, env) && safe_str(right, env),
        BoolExpr::Any { over, var, body } | BoolExpr::All { over, var, body } => {
            match items(over, env) {
                Some(kind) => env.with(*var, kind, |env| safe_bool(body, env)),
                None => false,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Rules;
    use crate::ir::{Action, Condact};

    /// The cut bodies of every choice of `source`.
    fn cuts(source: &str) -> Vec<Condact> {
        let rules = Rules::from_source("t.rcy", source).expect("checks");
        let c = &rules.tabs.compiled;
        let all = c.checks.iter().flatten().flatten();
        all.flat_map(|options| options.iter().flatten().cloned())
            .collect()
    }

    /// The items left in the innermost `do` of a cut body.
    fn kept(c: &Condact) -> usize {
        match &c.action {
            Action::Let { body, .. } => kept(body),
            Action::Do(items) => items.len(),
            _ => 0,
        }
    }

    const TICTACTOE: &str = include_str!("../../../examples/tictactoe.rcy");
    const OTHELLO: &str = include_str!("../../../examples/othello.rcy");

    /// Othello's move: the flips cannot fail (DISC and COLOUR only ever
    /// hold 1 or 2, so `(- 3 'C)` cannot overflow; `neighbour` and
    /// `after` are read past `onboard`), so the check only runs the `set`
    /// of the disc put down, which always counts.
    #[test]
    fn othello_flips_are_left_out() {
        let cut = cuts(OTHELLO);
        assert_eq!(cut.len(), 1);
        assert_eq!(kept(&cut[0]), 1);
        let Action::Let { body, .. } = &cut[0].action else {
            panic!("a let: {:?}", cut[0].action);
        };
        let Action::Do(items) = &body.action else {
            panic!("a do");
        };
        assert!(matches!(items[0].action, Action::SetInt(..)));
    }

    /// What would make the flips fail keeps them: a colour that grows
    /// without bound (`inc`), a flip that reads the neighbour without
    /// `onboard` first.
    #[test]
    fn flips_that_may_fail_are_kept() {
        let set = "(set ((1 player) sto COLOUR) 2)";
        assert!(OTHELLO.contains(set));
        let inc = OTHELLO.replace(set, &format!("{set} (inc ((1 player) sto COLOUR) 0)"));
        assert!(cuts(&inc).is_empty());
        let guard = "(and (onboard 'N)";
        assert!(OTHELLO.contains(guard));
        let unguarded = OTHELLO.replace(guard, "(and (or (onboard 'N) (== 1 1))");
        assert!(cuts(&unguarded).is_empty());
    }

    /// The newcomer's tic-tac-toe: the test for a line after the `inc` is
    /// left out of the check (the `set` counts, the `inc` may overflow).
    #[test]
    fn a_line_test_after_a_set_is_left_out() {
        let cut = cuts(TICTACTOE);
        assert_eq!(cut.len(), 1);
        assert_eq!(kept(&cut[0]), 2);
    }

    /// What may fail stays: an `inc` at the end, a direction that is no
    /// direction of the board, a storage of a computed owner.
    #[test]
    fn what_may_fail_is_kept() {
        let last = "(set ((current player) sto WON) 1)";
        assert!(TICTACTOE.contains(last));
        let inc = TICTACTOE.replace(last, "(inc ((current player) sto WON) 1)");
        assert!(cuts(&inc).is_empty());
        let hex = TICTACTOE.replace("(grid 3 3)", "(hex 3 3)");
        assert!(cuts(&hex).is_empty());
        let owner = TICTACTOE.replace(last, "(set ((next player) sto WON) 1)");
        assert!(cuts(&owner).is_empty());
        // Without the `inc`, the `set` of the mark is the last kept.
        let no_inc = TICTACTOE.replace("(inc (game sto MARKS) 1)", "");
        let cut = cuts(&no_inc);
        assert_eq!(cut.len(), 1);
        assert_eq!(kept(&cut[0]), 1);
    }
}
