//! The rules compiled to closures, once per rules file.
//!
//! The evaluator of [`super::eval`] walks the tree of an expression every
//! time it is evaluated: at each node it matches the node's kind, follows
//! its boxes and works out again what never changes (which storage a
//! `(game sto NAME)` is, which direction `E` is). The automatic items of
//! the stages and their `end` conditions run at every turn of every game,
//! so they are compiled here, when the rules are loaded, into nested
//! closures ([`Run`]) in which that work is done once: a storage of the
//! game is an index, a literal direction a [`Dir`], an `and` a loop over
//! compiled conditions.
//!
//! Only common shapes get a closure of their own (literals, variables,
//! storages, locations and the top card, sizes, arithmetic, comparisons,
//! `and`/`or`/`not`, the bit operators, spaces and their neighbours,
//! `around` (its condition tested as a [`SpaceCond`] when it has that
//! shape), `any`/`all` over a
//! `group` or over spaces held in a variable, `do`, `let`, `all`, and
//! setting storages). Every other node is handed, whole, to the tree
//! evaluator, and so is any node whose value is not of the expected kind
//! at run time (an unset variable, a variable of the wrong type): the
//! evaluator then gives its usual value or its usual error.
//!
//! Invariant: a compiled closure computes exactly what the evaluator
//! computes for the same node, in the same order of evaluation, with the
//! same errors, the same draws from the game's chance and the same changes
//! to the table, the journal and the log. Transcripts therefore do not
//! depend on whether a node was compiled; the transcript snapshots and
//! `tests/compiled.rs` hold the two to it.
//!
//! Choices are not compiled: exploring their options runs the tree
//! evaluator, with its oracle, but for the condition of each option,
//! evaluated at every decision, which is compiled ([`Aids`]); sampling
//! them ([`super::sample`]) also evaluates, for each item of an option's
//! `any`, the condition of its body, compiled too. The rest of a check
//! runs the evaluator, cut short where what follows an action that
//! always counts cannot fail ([`trim`]). The conditions exploration and
//! the replay of a listed move meet inside an option (guards, `filter`s)
//! are compiled and found by their node ([`nodes`]), and so is the guard
//! over spaces of an `any` over a board, which lets exploration skip the
//! spaces where it fails.

mod action;
mod arith;
mod bounds;
mod check;
mod cond;
mod expr;
mod leaf;
mod nodes;
mod points;
mod seats;
pub(super) mod space;
mod trim;
mod walk;

use super::board::Dir;
use super::eval::Fault;
use super::exec::Machine;
use crate::ir::{
    Action, AttrRef, BoolExpr, CardExpr, CardsExpr, CollectionExpr, Condact, NameRef, OwnerExpr,
    PlayerExpr, Pos, Program, SpaceExpr, StageItem, StrExpr, VarId,
};
pub(super) use space::{Loaded, SpaceCond};

/// `f` of the options of each choice of the game's body (first) and of
/// each stage, by stage and item (`None` for an item that is no choice).
fn per_choice<T>(prog: &Program, f: impl Fn(&[Condact]) -> Option<T>) -> Vec<Vec<Option<T>>> {
    let of = |items: &[StageItem]| {
        items
            .iter()
            .map(|item| match item {
                StageItem::Choice(options, _) => f(options),
                StageItem::Stage(_) | StageItem::Run(_) | StageItem::Else(_) => None,
            })
            .collect::<Vec<_>>()
    };
    let mut all = vec![of(&prog.body)];
    all.extend(prog.stages.iter().map(|s| of(&s.items)));
    all
}

/// A compiled piece of the rules: run against a machine, it gives a `T`.
pub(super) type Run<T> = Box<dyn for<'m, 't> Fn(&'m mut Machine<'t>) -> CR<T> + Send + Sync>;

/// A rules error out of compiled code: the evaluator's [`Fault`] behind
/// one thin pointer, so that the result of a compiled closure is at most
/// two words and comes back in registers (the evaluator's `R<i64>` or
/// `R<bool>`, with a message of two words, goes through memory; the
/// evaluator keeps it, which suits its own code better: with a one-word
/// fault the evaluator's code runs 8% more instructions on Cartagena).
#[derive(Debug)]
pub(in crate::engine) struct Thin(Box<Fault>);

/// The result of compiled code.
pub(in crate::engine) type CR<T> = Result<T, Thin>;

impl From<Fault> for Thin {
    #[cold]
    fn from(f: Fault) -> Thin {
        Thin(Box::new(f))
    }
}

impl From<&str> for Thin {
    #[cold]
    fn from(s: &str) -> Thin {
        Thin(Box::new(s.into()))
    }
}

impl From<String> for Thin {
    #[cold]
    fn from(s: String) -> Thin {
        Thin(Box::new(s.into()))
    }
}

impl From<Thin> for Fault {
    fn from(t: Thin) -> Fault {
        *t.0
    }
}

impl From<Thin> for String {
    fn from(t: Thin) -> String {
        (*t.0).into()
    }
}

/// What the compilers need to know of the program's tables.
pub(super) struct Ctx<'a> {
    pub loc_count: usize,
    pub int_count: usize,
    pub str_count: usize,
    /// The direction each symbol names, by symbol.
    pub dirs: &'a [Option<Dir>],
    /// The program's attribute keys (a key's index is its place).
    pub attr_keys: &'a [crate::ir::Sym],
}

/// The guard of an option that is one `any` over the spaces of a board,
/// `(any (spaces BOARD) 'V (GUARD ...))`, as a [`SpaceCond`]: a sampler
/// may answer it for every item at once (see `engine/sample/`).
pub(super) type OptionGuards = Box<[Option<OptionGuard>]>;

/// See [`OptionGuards`].
#[derive(Debug)]
pub(super) struct OptionGuard {
    pub cond: SpaceCond,
    /// An earlier option of the choice with the same guard (another
    /// variable, the same test): over the same spaces its answer serves.
    pub same_as: Option<usize>,
    /// Whether the option's action does the same for every space where
    /// its guard holds (see [`same_for_every_space`]): checked for one,
    /// it is checked for all.
    pub uniform: bool,
}

/// The bodies of a choice's options' `any`s cut short for their checks
/// (see [`trim`]), by option.
type CutBodies = Box<[Option<Condact>]>;

/// The bodies of a choice's options' `any`s compiled, by option.
pub(super) type BodyRuns = [Option<Run<()>>];
type OptionRuns = Box<BodyRuns>;

/// The conditions of a choice's options, compiled, by option.
pub(super) type OptionConds = Box<[Option<Run<bool>>]>;

/// What the compiled rules know of a choice's options: their guards over
/// spaces ([`OptionGuard`]), which are `any`s over cards whose check
/// [cannot fail](check_cannot_fail), and their conditions compiled.
#[derive(Clone, Copy, Default)]
pub(super) struct Aids<'a> {
    pub guards: Option<&'a [Option<OptionGuard>]>,
    pub safe: Option<&'a [bool]>,
    /// Which options are `any`s over cards whose every slot is a legal
    /// move ([`always_legal`]).
    pub sure: Option<&'a [bool]>,
    pub conds: Option<&'a [Option<Run<bool>>]>,
    /// The conditions of the bodies of the options' `any`s, compiled.
    pub bodies: Option<&'a [Option<Run<bool>>]>,
    /// The bodies of the options' `any`s as a check of one of their
    /// slots may run them, cut short (see [`trim`]).
    pub checks: Option<&'a [Option<Condact>]>,
    /// The check of the action of each option's `any` body (cut short
    /// where `checks` has it), compiled (`check::check`).
    pub tests: Option<&'a BodyRuns>,
}

impl Aids<'_> {
    /// Without the cut checks and their compiled tests (each slot's check
    /// runs its whole body): for a table whose storages hold values beyond
    /// the rules' bounds, which the cuts may lean on (`bounds.rs`).
    pub(super) fn whole(self) -> Self {
        Aids {
            checks: None,
            tests: None,
            ..self
        }
    }
}

/// The compiled automatic items and `end` conditions of every stage.
pub struct Compiled {
    /// The automatic items of the top level (index 0) and of each stage
    /// (index 1 + the stage's number), by position; `None` for a choice or
    /// a nested stage.
    items: Vec<Vec<Option<Run<()>>>>,
    /// The guards of the options of each choice, by the same indices;
    /// `None` for an item that is no choice.
    guards: Vec<Vec<Option<OptionGuards>>>,
    /// For the options of each choice, by the same indices, whether each
    /// is an `any` over cards whose check [cannot fail](check_cannot_fail).
    safe: Vec<Vec<Option<Box<[bool]>>>>,
    /// By the same indices, whether each option is an `any` over cards
    /// whose every slot is a legal move ([`always_legal`]).
    sure: Vec<Vec<Option<Box<[bool]>>>>,
    /// The condition of each option of each choice, compiled (`None` for
    /// an option without one), by the same indices: a sampler evaluates
    /// it at every decision (see `engine/sample/`).
    conds: Vec<Vec<Option<OptionConds>>>,
    /// The condition of the body of each option's `any` (under one-item
    /// `do`s), compiled, by the same indices: a sampler evaluates it for
    /// every item (see `engine/sample/`).
    bodies: Vec<Vec<Option<OptionConds>>>,
    /// The body of each option's `any`, cut short for its checks (see
    /// [`trim`]), by the same indices; `None` for an option whose check
    /// runs the whole body.
    checks: Vec<Vec<Option<CutBodies>>>,
    /// The body of each option's `any`, compiled, by the same indices:
    /// playing a move drawn by a sampler runs it.
    plays: Vec<Vec<Option<OptionRuns>>>,
    /// The check of the action of each option's `any` body (cut short as
    /// in `checks`), compiled, by the same indices: a sampler's check of
    /// a slot runs it.
    tests: Vec<Vec<Option<OptionRuns>>>,
    /// Each stage's `end` condition.
    ends: Vec<Run<bool>>,
    /// The bound on the magnitude of each integer storage name's values
    /// in a game played from the start (`bounds.rs`; `u64::MAX`:
    /// unbounded), which the cut checks may lean on.
    bounds: Vec<u64>,
    /// The conditions inside the choices' options, by their node (see
    /// [`nodes`]): exploration and replay run them compiled.
    nodes: nodes::Nodes,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Compiled {{ {} stages, {} items }}",
            self.ends.len(),
            self.items.iter().map(Vec::len).sum::<usize>()
        )
    }
}

impl Compiled {
    /// Compiles the program's automatic items and `end` conditions.
    pub(super) fn new(prog: &Program, cx: &Ctx) -> Compiled {
        let bounds = bounds::storage_bounds(prog, cx);
        let list = |items: &[StageItem]| {
            items
                .iter()
                .map(|item| match item {
                    StageItem::Run(c) => Some(action::condact(c, cx)),
                    // A choice's fallback is rare: the evaluator runs it.
                    StageItem::Stage(_) | StageItem::Choice(..) | StageItem::Else(_) => None,
                })
                .collect::<Vec<_>>()
        };
        let mut items = vec![list(&prog.body)];
        items.extend(prog.stages.iter().map(|s| list(&s.items)));
        let guards = per_choice(prog, |options| {
            let found: Vec<_> = options.iter().map(|o| option_guard(o, cx)).collect();
            let same: Vec<Option<usize>> = found
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let (c, _) = g.as_ref()?;
                    found[..i]
                        .iter()
                        .position(|d| d.as_ref().map(|d| &d.0) == Some(c))
                })
                .collect();
            let guards: Vec<Option<OptionGuard>> = found
                .into_iter()
                .zip(same)
                .map(|(g, same_as)| {
                    let (cond, uniform) = g?;
                    Some(OptionGuard {
                        cond,
                        same_as,
                        uniform,
                    })
                })
                .collect();
            Some(guards.into_boxed_slice())
        });
        let safe = per_choice(prog, |options| {
            let safe: Box<[bool]> = options.iter().map(check_cannot_fail).collect();
            // None for a choice without such an option.
            safe.contains(&true).then_some(safe)
        });
        let sure = per_choice(prog, |options| {
            let sure: Box<[bool]> = options.iter().map(always_legal).collect();
            sure.contains(&true).then_some(sure)
        });
        let conds = per_choice(prog, |options| {
            Some(
                options
                    .iter()
                    .map(|o| o.cond.as_ref().map(|c| cond::bool(c, cx)))
                    .collect::<OptionConds>(),
            )
        });
        let bodies = per_choice(prog, |options| {
            Some(
                options
                    .iter()
                    .map(|o| any_body(o)?.cond.as_ref().map(|c| cond::bool(c, cx)))
                    .collect::<OptionConds>(),
            )
        });
        let checks = per_choice(prog, |options| {
            let cut: CutBodies = options
                .iter()
                .map(|o| trim::check_body(o, prog, cx, &bounds))
                .collect();
            // None for a choice without such an option.
            cut.iter().any(Option::is_some).then_some(cut)
        });
        let plays = per_choice(prog, |options| {
            Some(
                options
                    .iter()
                    .map(|o| {
                        // Compiled, as the check that found it legal.
                        Some(action::condact(any_body(o)?, cx))
                    })
                    .collect::<OptionRuns>(),
            )
            .filter(|runs| runs.iter().any(Option::is_some))
        });
        let tests = per_choice(prog, |options| {
            Some(
                options
                    .iter()
                    .map(|o| {
                        let cut = trim::check_body(o, prog, cx, &bounds);
                        let body = match &cut {
                            Some(c) => c,
                            None => any_body(o)?,
                        };
                        Some(check::check(&body.action, cx))
                    })
                    .collect::<OptionRuns>(),
            )
            .filter(|runs| runs.iter().any(Option::is_some))
        });
        let ends = prog.stages.iter().map(|s| cond::bool(&s.end, cx)).collect();
        Compiled {
            nodes: nodes::Nodes::of(prog, cx),
            items,
            guards,
            safe,
            sure,
            conds,
            bodies,
            checks,
            plays,
            tests,
            ends,
            bounds,
        }
    }

    /// Nothing compiled: every item and `end` condition is left to the
    /// evaluator (see [`crate::engine::Rules::uncompiled`]).
    pub(super) fn none() -> Compiled {
        Compiled {
            items: Vec::new(),
            guards: Vec::new(),
            safe: Vec::new(),
            sure: Vec::new(),
            conds: Vec::new(),
            bodies: Vec::new(),
            checks: Vec::new(),
            plays: Vec::new(),
            tests: Vec::new(),
            ends: Vec::new(),
            bounds: Vec::new(),
            nodes: nodes::Nodes::default(),
        }
    }

    /// The compiled automatic item at `pos` of `stage` (`None`: the top
    /// level).
    pub(super) fn item(&self, stage: Option<u32>, pos: u32) -> Option<&Run<()>> {
        let list = self.items.get(stage.map_or(0, |s| s as usize + 1))?;
        list.get(pos as usize)?.as_ref()
    }

    /// What the compiled rules know of the options of the choice at `pos`
    /// of `stage` (`None`: the top level), for a sampler; nothing when it
    /// is no choice.
    pub(super) fn aids(&self, stage: Option<u32>, pos: u32) -> Aids<'_> {
        let (s, p) = (stage.map_or(0, |s| s as usize + 1), pos as usize);
        Aids {
            guards: self.guards.get(s).and_then(|l| l.get(p)?.as_deref()),
            safe: self.safe.get(s).and_then(|l| l.get(p)?.as_deref()),
            sure: self.sure.get(s).and_then(|l| l.get(p)?.as_deref()),
            conds: self.conds.get(s).and_then(|l| l.get(p)?.as_deref()),
            bodies: self.bodies.get(s).and_then(|l| l.get(p)?.as_deref()),
            checks: self.checks.get(s).and_then(|l| l.get(p)?.as_deref()),
            tests: self.tests.get(s).and_then(|l| l.get(p)?.as_deref()),
        }
    }

    /// The compiled bodies of the options of the choice at `pos` of
    /// `stage` that a sampler's move plays (see `Compiled::plays`'s field).
    #[inline(always)]
    pub(super) fn plays(&self, stage: Option<u32>, pos: u32) -> Option<&BodyRuns> {
        let (s, p) = (stage.map_or(0, |s| s as usize + 1), pos as usize);
        self.plays.get(s)?.get(p)?.as_deref()
    }

    /// Whether integer storage name `name` may hold `v` in a game played
    /// from the start (see `bounds.rs`): a position holding a value
    /// beyond it is checked without the cut checks.
    pub(super) fn within_bounds(&self, name: usize, v: i64) -> bool {
        self.bounds.get(name).is_none_or(|&b| v.unsigned_abs() <= b)
    }

    /// Condition `e` compiled, when it is a node inside a choice's
    /// options (see [`nodes`]); `None` for any other, or a copy.
    #[inline(always)]
    pub(super) fn node(&self, e: &BoolExpr) -> Option<&Run<bool>> {
        self.nodes.get(e)
    }

    /// The guard over spaces of `any` action `a` inside a choice's
    /// options, when it has one (see [`nodes`]).
    #[inline(always)]
    pub(super) fn any_guard(&self, a: &Action) -> Option<&SpaceCond> {
        self.nodes.guard(a)
    }

    /// The compiled `end` condition of `stage`.
    pub(super) fn end(&self, stage: u32) -> Option<&Run<bool>> {
        self.ends.get(stage as usize)
    }
}

/// The body of the `any` `option` is (under one-item `do`s).
fn any_body(option: &Condact) -> Option<&Condact> {
    let mut c = option;
    loop {
        match &c.action {
            Action::Do(items) if items.len() == 1 => c = &items[0],
            Action::Any { body, .. } => return Some(body),
            _ => return None,
        }
    }
}

/// The guard of `option` when it is `(any (spaces BOARD) 'V (GUARD ACTION))`
/// (under one-item `do`s, without guards of its own) with GUARD of
/// [`SpaceCond`]'s shape, and whether ACTION is [the same for every
/// space](same_for_every_space).
fn option_guard(option: &Condact, cx: &Ctx) -> Option<(SpaceCond, bool)> {
    let mut c = option;
    loop {
        if c.cond.is_some() {
            return None;
        }
        match &c.action {
            Action::Do(items) if items.len() == 1 => c = &items[0],
            Action::Any {
                over: CollectionExpr::Spaces(_),
                var,
                body,
            } => {
                let cond = SpaceCond::of(body.cond.as_ref()?, *var, cx)?;
                return Some((cond, same_for_every_space(&body.action, *var)));
            }
            _ => return None,
        }
    }
}

/// Whether `action`, run with a space of a board in `var`, is checked
/// alike for every space: a `move` of the top or bottom card of a named
/// location of the game or of the current player to the top or bottom of a
/// named location of the space in `var`. Its check evaluates the card to
/// move (the same for every space), the destination (a location every
/// space has) and whether there is a card: the same answer, or the same
/// error, for every space.
fn same_for_every_space(action: &Action, var: VarId) -> bool {
    let Action::Move {
        from: CardExpr::At(Pos::Top | Pos::Bottom, src),
        to: CardExpr::At(Pos::Top | Pos::Bottom, dst),
    } = action
    else {
        return false;
    };
    let (CardsExpr::Location(src), CardsExpr::Location(dst)) = (&**src, &**dst) else {
        return false;
    };
    let fixed_source = matches!(
        src.owner,
        OwnerExpr::Game | OwnerExpr::Player(PlayerExpr::Current)
    ) && matches!(src.name, NameRef::Fixed(_));
    let to_the_space = matches!(dst.owner, OwnerExpr::Space(SpaceExpr::Var(v)) if v == var)
        && matches!(dst.name, NameRef::Fixed(_));
    fixed_source && to_the_space
}

/// Whether `option`, when it is one `any` with the card of a collection of
/// cards in its variable (under guards and one-item `do`s, the collection
/// checked at run time, see `engine/sample/`), is checked for every card
/// without a rules error: its body is `(GUARD ACTION)` or `ACTION` where
/// GUARD compares strings that are literals or attributes of the card
/// (`cardatt` with a known key: `""` when the card lacks it), joined by
/// `and`, `or` and `not`, and ACTION is a `move` of the card to the top or
/// bottom of a named location of the game or of the current player (the
/// card, the place and the location all exist). A sampler may then leave
/// such an option's cards unchecked until a draw or a count needs them:
/// no error can hide there.
pub(super) fn check_cannot_fail(option: &Condact) -> bool {
    let mut c = option;
    loop {
        match &c.action {
            Action::Do(items) if items.len() == 1 => c = &items[0],
            Action::Any { var, body, .. } => {
                let guard_safe = body.cond.as_ref().is_none_or(|g| safe_cond(g, *var));
                return guard_safe && safe_move(&body.action, *var);
            }
            _ => return false,
        }
    }
}

/// Whether every slot of `option`, when it is one `any` with the card of
/// a collection of cards in its variable (as [`check_cannot_fail`] reads
/// it), is a legal move: its body has no guard and is a [`safe_move`] of
/// the card, alone or the last item of a `do` whose other items, without
/// guards, `set` strings of the game or of the current player with fixed
/// names to literals or attributes of the card. None of them can fail,
/// and the move always counts (the card lies somewhere), so the check of
/// each slot would find it legal: a sampler marks them so without
/// running them.
pub(super) fn always_legal(option: &Condact) -> bool {
    let mut c = option;
    loop {
        match &c.action {
            Action::Do(items) if items.len() == 1 => c = &items[0],
            Action::Any { var, body, .. } => {
                if body.cond.is_some() {
                    return false;
                }
                return match &body.action {
                    Action::Do(items) => match items.split_last() {
                        Some((last, before)) => {
                            last.cond.is_none()
                                && safe_move(&last.action, *var)
                                && before
                                    .iter()
                                    .all(|i| i.cond.is_none() && safe_set(&i.action, *var))
                        }
                        None => false,
                    },
                    action => safe_move(action, *var),
                };
            }
            _ => return false,
        }
    }
}

/// See [`always_legal`]: `(set (OWNER str NAME) S)` with the game or the
/// current player as OWNER, a fixed NAME and S a literal or an attribute
/// of the card in `var`.
fn safe_set(action: &Action, var: VarId) -> bool {
    match action {
        Action::SetStr(crate::ir::StrStorage { owner, name }, value) => {
            matches!(
                owner,
                OwnerExpr::Game | OwnerExpr::Player(PlayerExpr::Current)
            ) && matches!(name, NameRef::Fixed(_))
                && safe_str(value, var)
        }
        _ => false,
    }
}

/// See [`check_cannot_fail`]: a condition on the card in `var`.
fn safe_cond(cond: &BoolExpr, var: VarId) -> bool {
    match cond {
        BoolExpr::And(all) | BoolExpr::Or(all) => all.iter().all(|c| safe_cond(c, var)),
        BoolExpr::Not(c) => safe_cond(c, var),
        BoolExpr::Str { left, right, .. } => safe_str(left, var) && safe_str(right, var),
        _ => false,
    }
}

/// See [`check_cannot_fail`]: a literal, or an attribute of the card in
/// `var`.
fn safe_str(s: &StrExpr, var: VarId) -> bool {
    match s {
        StrExpr::Lit(_) => true,
        StrExpr::CardAtt(AttrRef::Key(_) | AttrRef::Unknown, card) => {
            matches!(**card, CardExpr::Var(v) if v == var)
        }
        _ => false,
    }
}

/// See [`check_cannot_fail`]: a `move` of the card in `var` to the top or
/// bottom of a named location of the game or the current player.
fn safe_move(action: &Action, var: VarId) -> bool {
    let Action::Move {
        from: CardExpr::Var(v),
        to: CardExpr::At(Pos::Top | Pos::Bottom, dst),
    } = action
    else {
        return false;
    };
    let CardsExpr::Location(dst) = &**dst else {
        return false;
    };
    *v == var
        && matches!(
            dst.owner,
            OwnerExpr::Game | OwnerExpr::Player(PlayerExpr::Current)
        )
        && matches!(dst.name, NameRef::Fixed(_))
}
