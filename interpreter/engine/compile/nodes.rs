//! The conditions inside a choice's options, compiled and found by the
//! node they were compiled from.
//!
//! Exploring a choice's options ([`super::super::explore`]) and replaying a
//! listed move (`State::play_with`) walk the option's tree with the
//! evaluator: they must, for its continuations and its oracle. But the
//! conditions they meet on the way (the guard of each conditional action,
//! the condition of a `filter` an `any` or `chain` runs over) are plain
//! conditions, evaluated once per item of every collection at every
//! decision: draughts' capture chains ask `(filter DIRS 'D (JUMP ...))`
//! at every step of every chain. Each such condition is compiled here
//! ([`super::cond::bool`], the same answers, errors and draws as the
//! evaluator) and kept under the address of its node in the program
//! (which is shared, `Arc`, and never changes while the rules live), so
//! the walk asks for it by the node it holds
//! ([`Machine::node_bool`](crate::engine::exec::Machine::node_bool)).
//! A node not found (a copy made by [`super::trim`], the uncompiled rules
//! of `Rules::uncompiled`) is evaluated as before: the evaluator stays the
//! reference `tests/compiled.rs` compares with.
//!
//! The same way, an `any` over the spaces of a board whose body's guard is
//! a [`SpaceCond`] keeps that guard under the address of its action:
//! exploration asks the index of what lies on the spaces where the guard
//! holds, and tries only those items (at any other the guard fails, which
//! cannot be an error: nothing is done, as the sampler's sieve reads it).

use super::{cond, Ctx, Run, SpaceCond};
use crate::ir::{Action, BoolExpr, CollectionExpr, Condact, Program, StageItem};

/// The compiled conditions of the choices' options, by the address of
/// their node, sorted.
#[derive(Default)]
pub(super) struct Nodes {
    runs: Vec<(usize, Run<bool>)>,
    /// The guards over spaces of `any`s over a board, by the address of
    /// the `any`, sorted.
    guards: Vec<(usize, SpaceCond)>,
    /// The lowest and highest address kept (a quick miss).
    lo: usize,
    hi: usize,
}

impl Nodes {
    /// The conditions inside the options of every choice of `prog`.
    pub(super) fn of(prog: &Program, cx: &Ctx) -> Nodes {
        let (mut runs, mut guards) = (Vec::new(), Vec::new());
        let stages = std::iter::once(&prog.body).chain(prog.stages.iter().map(|s| &s.items));
        for items in stages {
            for item in items {
                if let StageItem::Choice(options, _) = item {
                    for o in options {
                        condact(o, cx, (&mut runs, &mut guards));
                    }
                }
            }
        }
        runs.sort_unstable_by_key(|(a, _)| *a);
        runs.dedup_by_key(|(a, _)| *a);
        let lo = runs.first().map_or(usize::MAX, |(a, _)| *a);
        let hi = runs.last().map_or(0, |(a, _)| *a);
        guards.sort_unstable_by_key(|(a, _)| *a);
        guards.dedup_by_key(|(a, _)| *a);
        Nodes {
            runs,
            guards,
            lo,
            hi,
        }
    }

    /// The guard over spaces of `any` action `a`, when it is one kept here.
    #[inline(always)]
    pub(super) fn guard(&self, a: &Action) -> Option<&SpaceCond> {
        if self.guards.is_empty() {
            return None;
        }
        let a = a as *const Action as usize;
        let i = self.guards.binary_search_by_key(&a, |(k, _)| *k).ok()?;
        self.guards.get(i).map(|(_, g)| g)
    }

    /// The compiled form of condition `e`, when it is a node kept here.
    #[inline(always)]
    pub(super) fn get(&self, e: &BoolExpr) -> Option<&Run<bool>> {
        let a = e as *const BoolExpr as usize;
        if a < self.lo || a > self.hi {
            return None;
        }
        let i = self.runs.binary_search_by_key(&a, |(k, _)| *k).ok()?;
        self.runs.get(i).map(|(_, run)| run)
    }
}

/// Keeps `e` compiled under its address.
fn keep(e: &BoolExpr, cx: &Ctx, runs: &mut Vec<(usize, Run<bool>)>) {
    runs.push((e as *const BoolExpr as usize, cond::bool(e, cx)));
}

/// Where the compiled conditions and guards are collected.
type Out<'o> = (
    &'o mut Vec<(usize, Run<bool>)>,
    &'o mut Vec<(usize, SpaceCond)>,
);

/// The conditions of `c` and of everything inside its action.
fn condact(c: &Condact, cx: &Ctx, out: Out) {
    if let Some(e) = &c.cond {
        keep(e, cx, out.0);
    }
    action(&c.action, cx, out);
}

/// The conditions inside `a` (the nodes themselves, never a copy: a copy's
/// address would be freed and could be another node's later).
fn action(a: &Action, cx: &Ctx, out: Out) {
    match a {
        Action::Do(items) => {
            for i in items {
                condact(i, cx, (&mut *out.0, &mut *out.1));
            }
        }
        Action::Any { over, body, var }
        | Action::All { over, body, var }
        | Action::Chain {
            over, body, var, ..
        } => {
            if let (Action::Any { .. }, CollectionExpr::Spaces(_), Some(g)) = (a, over, &body.cond)
            {
                if let Some(guard) = SpaceCond::of(g, *var, cx) {
                    out.1.push((a as *const Action as usize, guard));
                }
            }
            filters(over, cx, out.0);
            condact(body, cx, out);
        }
        Action::Let { body, .. } | Action::Afterwards { body, .. } => condact(body, cx, out),
        Action::Repeat { body, .. } => action(body, cx, out),
        _ => {}
    }
}

/// The conditions of the `filter`s collection `over` is made of.
fn filters(over: &CollectionExpr, cx: &Ctx, runs: &mut Vec<(usize, Run<bool>)>) {
    if let CollectionExpr::Filter(src, _, e) = over {
        keep(e, cx, runs);
        filters(src, cx, runs);
    }
}
