//! The shorthands of docs/language.md section 12: `(if COND A B)` as an
//! integer, a string or a space; `(inrow N SPACE 'V COND)`; `(step SPACE
//! DIR K [SKIP])`; and two actions written out as the forms they stand
//! for: `sow` (a `let`, a `set` and an `all` over `step`s) and `place` (a
//! `move` from a supply of pieces that [`add_supplies`] makes in the
//! setup, one location per kind of piece).
//!
//! The actions are expanded on the syntax tree (the expansion's variables
//! begin with `#`, which no rules file can write, so they never meet a
//! variable of the file), so what they mean is exactly what the long
//! forms mean, in the evaluator and in compiled code alike.

use super::context::Lowerer;
use crate::diagnostic::Span;
use crate::ir::{Action, BoolExpr, IntExpr, SpaceExpr, StrExpr, ValueType};
use crate::syntax::SExpr;

fn no_space() -> SpaceExpr {
    SpaceExpr::At {
        board: 0,
        coords: Vec::new(),
    }
}

fn list(items: Vec<SExpr>, span: Span) -> SExpr {
    SExpr::List(items, span)
}

fn name(n: &str, span: Span) -> SExpr {
    SExpr::Name(n.to_string(), span)
}

fn var(n: &str, span: Span) -> SExpr {
    SExpr::Var(n.to_string(), span)
}

/// The name of the supply location of the pieces `(KEY VALUE)...`:
/// `SUPPLY_` and the values joined by `_` (`(COLOR X)`: `SUPPLY_X`).
fn supply_name(attrs: &[SExpr]) -> Option<String> {
    let mut out = String::from("SUPPLY");
    for a in attrs {
        match a.as_list() {
            Some([SExpr::Name(_, _), SExpr::Name(v, _)]) => {
                out.push('_');
                out.push_str(v);
            }
            _ => return None,
        }
    }
    (!attrs.is_empty()).then_some(out)
}

/// The `(place ATTR... DESTINATION)` forms of `e`, as the kinds of piece
/// they place (their attribute lists), each once.
fn placed_kinds<'e>(e: &'e SExpr, out: &mut Vec<&'e [SExpr]>) {
    let Some(items) = e.as_list() else { return };
    if e.head() == Some("place") && items.len() >= 3 {
        let attrs = &items[1..items.len() - 1];
        if let Some(n) = supply_name(attrs) {
            if !out.iter().any(|k| supply_name(k).as_deref() == Some(&n)) {
                out.push(attrs);
            }
        }
    }
    for i in items {
        placed_kinds(i, out);
    }
}

/// How many spaces the boards of a setup have, as a form (0 without one).
fn space_count(setup: &[SExpr], span: Span) -> SExpr {
    let mut terms = Vec::new();
    for c in setup {
        let Some([_, kind, _, shape, ..]) = c.as_list() else {
            continue;
        };
        if c.head() != Some("create") || kind.as_name() != Some("board") {
            continue;
        }
        let Some(s) = shape.as_list() else { continue };
        let term = match (shape.head(), s) {
            (Some("track"), [_, n, ..]) => n.clone(),
            (Some("grid" | "hex"), [_, r, c, ..]) => list(
                vec![SExpr::Op("*".into(), span), r.clone(), c.clone()],
                span,
            ),
            // 3 N (N - 1) + 1 hexagons.
            (Some("hexagon"), [_, n]) => {
                let less = list(
                    vec![SExpr::Op("-".into(), span), n.clone(), SExpr::Int(1, span)],
                    span,
                );
                let times = list(vec![SExpr::Op("*".into(), span), n.clone(), less], span);
                let three = list(
                    vec![SExpr::Op("*".into(), span), SExpr::Int(3, span), times],
                    span,
                );
                list(
                    vec![SExpr::Op("+".into(), span), three, SExpr::Int(1, span)],
                    span,
                )
            }
            (Some("graph"), _) => {
                let points = s.iter().find(|p| p.head() == Some("points"));
                let n = points.and_then(SExpr::as_list).map_or(0, |p| p.len() - 1);
                SExpr::Int(n as i64, span)
            }
            _ => continue,
        };
        terms.push(term);
    }
    terms
        .into_iter()
        .reduce(|a, b| list(vec![SExpr::Op("+".into(), span), a, b], span))
        .unwrap_or(SExpr::Int(0, span))
}

/// Adds to the setup of each `(game ...)` of `forms` one supply per kind
/// of piece its `place`s name: `(repeat SPACES (create deck (game vloc
/// SUPPLY_X) (deck (KEY (VALUE))...)))`, as many pieces of each kind as
/// the boards have spaces.
pub(super) fn add_supplies(forms: &mut [SExpr]) {
    for game in forms.iter_mut() {
        if game.head() != Some("game") {
            continue;
        }
        let mut kinds = Vec::new();
        placed_kinds(game, &mut kinds);
        if kinds.is_empty() {
            continue;
        }
        let kinds: Vec<Vec<SExpr>> = kinds.into_iter().map(<[SExpr]>::to_vec).collect();
        let SExpr::List(items, _) = game else {
            continue;
        };
        let Some(SExpr::List(setup, span)) = items.iter_mut().find(|i| i.head() == Some("setup"))
        else {
            continue;
        };
        let span = *span;
        let count = space_count(setup, span);
        for attrs in kinds {
            let Some(supply) = supply_name(&attrs) else {
                continue;
            };
            let dims = attrs.iter().filter_map(|a| match a.as_list() {
                Some([k, v]) => Some(list(vec![k.clone(), list(vec![v.clone()], span)], span)),
                _ => None,
            });
            let deck = list(
                std::iter::once(name("deck", span)).chain(dims).collect(),
                span,
            );
            let loc = list(
                vec![name("game", span), name("vloc", span), name(&supply, span)],
                span,
            );
            let create = list(
                vec![name("create", span), name("deck", span), loc, deck],
                span,
            );
            setup.push(list(
                vec![name("repeat", span), count.clone(), create],
                span,
            ));
        }
    }
}

/// `(place ATTR... DEST)`, everywhere in `forms`, written as the `(move
/// (top (game vloc SUPPLY_...)) DEST)` it stands for (for the lint, which
/// reads the syntax tree).
pub(super) fn places_as_moves(forms: &mut [SExpr]) {
    for f in forms.iter_mut() {
        if f.head() == Some("place") {
            if let SExpr::List(items, span) = f {
                let span = *span;
                if let (Some(supply), Some(dest)) = (
                    supply_name(&items[1..items.len().saturating_sub(1).max(1)]),
                    items.last().cloned(),
                ) {
                    let loc = list(
                        vec![name("game", span), name("vloc", span), name(&supply, span)],
                        span,
                    );
                    let top = list(vec![name("top", span), loc], span);
                    *f = list(vec![name("move", span), top, dest], span);
                    continue;
                }
            }
        }
        if let SExpr::List(items, _) = f {
            places_as_moves(items);
        }
    }
}

impl Lowerer {
    /// `(if COND A B)`, A and B lowered by `f`.
    pub(super) fn if_value<T>(
        &mut self,
        e: &SExpr,
        items: &[SExpr],
        f: fn(&mut Lowerer, &SExpr) -> T,
    ) -> Option<Box<(BoolExpr, T, T)>> {
        if !self.arity(e, items, 3, "a condition and two values") {
            return None;
        }
        let c = self.boolean(&items[1]);
        let a = f(self, &items[2]);
        let b = f(self, &items[3]);
        Some(Box::new((c, a, b)))
    }

    /// `(if COND A B)` as an integer.
    pub(super) fn if_int(&mut self, e: &SExpr, items: &[SExpr]) -> IntExpr {
        self.if_value(e, items, Lowerer::int)
            .map_or(IntExpr::Lit(0), IntExpr::If)
    }

    /// `(if COND A B)` as a string.
    pub(super) fn if_str(&mut self, e: &SExpr, items: &[SExpr]) -> StrExpr {
        self.if_value(e, items, Lowerer::string)
            .map_or(StrExpr::Lit(crate::ir::EMPTY), StrExpr::If)
    }

    /// `(if COND A B)` as a space.
    pub(super) fn if_space(&mut self, e: &SExpr, items: &[SExpr]) -> SpaceExpr {
        self.if_value(e, items, Lowerer::space)
            .map_or(no_space(), SpaceExpr::If)
    }

    /// `(inrow N SPACE 'V COND)`.
    pub(super) fn in_row(&mut self, e: &SExpr, items: &[SExpr]) -> BoolExpr {
        let [_, n, space, v @ SExpr::Var(..), cond] = items else {
            self.error(
                e.span(),
                "`inrow` is written `(inrow N SPACE 'V CONDITION)`: N or more in a row through SPACE, counting SPACE and the spaces on both sides where CONDITION holds".to_string(),
            );
            return BoolExpr::And(Vec::new());
        };
        let count = Box::new(self.int(n));
        let space = Box::new(self.space(space));
        let var = self.bind(v, Some(ValueType::Space), "inrow");
        let cond = Box::new(self.boolean(cond));
        self.pop_var();
        BoolExpr::InRow {
            count,
            space,
            var,
            cond,
        }
    }

    /// `(step SPACE DIR K)` / `(step SPACE DIR K SKIP)`.
    pub(super) fn step(&mut self, e: &SExpr, items: &[SExpr]) -> SpaceExpr {
        let (from, dir, count, skip) = match items {
            [_, from, dir, count] => (from, dir, count, None),
            [_, from, dir, count, skip] => (from, dir, count, Some(skip)),
            _ => {
                self.error(
                    e.span(),
                    "`step` is written `(step SPACE DIRECTION K)` or `(step SPACE DIRECTION K SKIP)`: the K-th space after SPACE, SKIP passed over".to_string(),
                );
                return no_space();
            }
        };
        self.check_direction(from, dir);
        SpaceExpr::Step {
            from: Box::new(self.space(from)),
            dir: Box::new(self.direction(dir)),
            count: Box::new(self.int(count)),
            skip: skip.map(|s| Box::new(self.space(s))),
        }
    }

    /// `(sow SPACE DIR NAME [SKIP] ['LAST ACTION])`: the integer `(SPACE sto
    /// NAME)` emptied, one added to the storage NAME of each of the next
    /// that many spaces in direction DIR (SKIP passed over), then ACTION
    /// with 'LAST bound to the last space sown.
    pub(super) fn sow(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        let sp = e.span();
        let (from, dir, store, rest) = match items {
            [_, from, dir, store @ SExpr::Name(..), rest @ ..] => (from, dir, store, rest),
            _ => return self.sow_shape(sp),
        };
        let (skip, then) = match rest {
            [] => (None, None),
            [skip] => (Some(skip), None),
            [last @ SExpr::Var(..), act] => (None, Some((last, act))),
            [skip, last @ SExpr::Var(..), act] => (Some(skip), Some((last, act))),
            _ => return self.sow_shape(sp),
        };
        let (f, n, k) = (var("#F", sp), var("#N", sp), var("#K", sp));
        let sto = |owner: SExpr| list(vec![owner, name("sto", sp), store.clone()], sp);
        let step = |count: SExpr| {
            let mut s = vec![name("step", sp), f.clone(), dir.clone(), count];
            s.extend(skip.cloned());
            list(s, sp)
        };
        let range = list(
            vec![
                name("range", sp),
                SExpr::Int(1, sp),
                SExpr::Op("..".into(), sp),
                n.clone(),
            ],
            sp,
        );
        let inc = list(
            vec![name("inc", sp), sto(step(k.clone())), SExpr::Int(1, sp)],
            sp,
        );
        let mut actions = vec![
            list(vec![name("set", sp), sto(f.clone()), SExpr::Int(0, sp)], sp),
            list(vec![name("all", sp), range, k, inc], sp),
        ];
        if let Some((last, act)) = then {
            actions.push(list(
                vec![name("let", sp), step(n.clone()), last.clone(), act.clone()],
                sp,
            ));
        }
        let body = list(vec![name("do", sp), list(actions, sp)], sp);
        let inner = list(vec![name("let", sp), sto(f.clone()), n, body], sp);
        let outer = list(vec![name("let", sp), from.clone(), f, inner], sp);
        self.action(&outer)
    }

    fn sow_shape(&mut self, span: Span) -> Action {
        self.error(
            span,
            "`sow` is written `(sow SPACE DIRECTION NAME)`, then optionally a space to pass over and `'LAST ACTION` (ACTION with 'LAST the last space sown)".to_string(),
        );
        Action::Do(Vec::new())
    }

    /// `(place (KEY VALUE)... DESTINATION)`: `(move (top (game vloc
    /// SUPPLY_VALUE...)) DESTINATION)`, the supply made by
    /// [`add_supplies`].
    pub(super) fn place(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        let sp = e.span();
        let (attrs, dest) = match items {
            [_, attrs @ .., dest] if !attrs.is_empty() => (attrs, dest),
            _ => (&[][..], e),
        };
        let Some(supply) = supply_name(attrs) else {
            self.error(
                sp,
                "`place` is written `(place (KEY VALUE)... DESTINATION)`, as `(place (COLOR BLACK) (top ('S vloc STONE)))`: a new piece with those attributes, put where `move` would put it".to_string(),
            );
            return Action::Do(Vec::new());
        };
        let loc = list(
            vec![name("game", sp), name("vloc", sp), name(&supply, sp)],
            sp,
        );
        let top = list(vec![name("top", sp), loc], sp);
        self.action(&list(vec![name("move", sp), top, dest.clone()], sp))
    }
}
