//! Finding the legal moves of a choice in one depth-first run per option.
//!
//! An option is run once; at every `any` it reaches, the collection is
//! evaluated once and each item is tried in turn: the rest of the option
//! (the *continuation*: what follows the `any` in its `do`, the later items
//! of an enclosing `all`, ...) runs for that item, then its changes are
//! taken back from the undo journal and the next item is tried. A run that
//! reaches the end having done something is a legal move; its path is the
//! item picked at each `any` on the way, in the order they were reached, so
//! replaying the option with that path (an [`Oracle`](super::exec::Oracle))
//! does the same. The moves come out in the order of their paths.
//!
//! Invariant: when an `explore_*` function returns, every variable holds
//! the value it had when the function was called (binders restore theirs),
//! so a continuation cannot disturb the next item of an earlier `any`.
//! A run that fails (a rules error: division by zero, no space used as an
//! owner, a `require` that does not hold ...) stops the exploration: the
//! error is the game's (docs/language.md, 4.3), located at the innermost
//! form that raised it. Only a failed guard, an `any` over nothing and a
//! run that does nothing drop a run without error.
//!
//! The last action of a run (`tail`: nothing but the leaf's check follows
//! it) is only checked, not done: its operands are evaluated as the real
//! action would evaluate them (the same errors, the same draws) and it
//! counts as done exactly when the real action would, but the table is not
//! changed, so there is nothing to journal and take back. The leaf only
//! asks whether something was done, so the moves found are the same.

use super::cards::Picker;
use super::compile::Run;
use super::eval::{Fault, R};
use super::exec::Machine;
use super::value::{Items, Value};
use crate::diagnostic::Span;
use crate::ir::{Action, CardExpr, CollectionExpr, Condact, Pos};

/// What the exploration collects.
#[derive(Default)]
pub struct Explorer {
    /// The items picked so far, one per `any` reached.
    pub path: Vec<u32>,
    /// The paths of the legal moves found.
    pub found: Vec<super::Path>,
    /// Where the paths of each option end in `found` (see
    /// [`Machine::explore_moves`]).
    ends: Vec<usize>,
    /// How many runs of [`Machine::explore_action`] are under way, one
    /// inside another (each `any`, `all` item, `repeat` pass or step of a
    /// `do` that branches, with its continuation, nests one more on the
    /// native stack); at most [`MAX_NESTING`].
    depth: u32,
}

/// The deepest nesting of branching steps in one option's exploration
/// (see [`Explorer::depth`]): deeper, the option is a rules error, not a
/// stack overflow. A thread's stack of 2 MB holds it in a debug build.
pub const MAX_NESTING: u32 = 1000;

/// The most named choices `(legal NAME)` tries one inside another (a
/// guard of one asking about another, ...); deeper is a rules error.
pub const MAX_LEGAL_NESTING: usize = 8;

impl Explorer {
    /// Runs `f` with an explorer whose buffers are reused from earlier
    /// decisions on this thread.
    pub fn with<T>(f: impl FnOnce(&mut Explorer) -> T) -> T {
        let mut ex = SPARE.with(|s| s.take()).unwrap_or_default();
        ex.path.clear();
        ex.found.clear();
        ex.ends.clear();
        ex.depth = 0;
        let out = f(&mut ex);
        SPARE.with(|s| s.set(Some(ex)));
        out
    }
}

thread_local! {
    /// The named choices whose options `(legal NAME)` is trying on this
    /// thread, outermost first (see [`Machine::legal`]; kept out of the
    /// machine, which every automatic item makes, for the few games that
    /// ask).
    static ASKING: std::cell::RefCell<Vec<u16>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The explorer of the last decision found on this thread.
    static SPARE: std::cell::Cell<Option<Explorer>> = const { std::cell::Cell::new(None) };
}

/// The error of a move nested past [`MAX_NESTING`].
#[cold]
fn too_deep() -> Fault {
    format!(
        "a move of more than {MAX_NESTING} steps one inside another \
         (a `chain` of so many steps, an `any` in a `repeat` or `all` of so \
         many passes, or as many nested forms that branch): it cannot be explored"
    )
    .into()
}

/// The rest of a run, called when an action is done.
type Cont<'k, 'a> = &'k mut dyn FnMut(&mut Machine<'a>, &mut Explorer) -> R<()>;

impl<'a> Machine<'a> {
    /// The legal moves of a choice with `options`, option by option, or
    /// the first rules error met and the index of its option. The table is
    /// left unchanged (the journal must be on).
    ///
    /// `conds` are the conditions of the options compiled, when they are
    /// (`compile::Aids`: each computes what the evaluator would).
    pub fn explore_moves(
        &mut self,
        options: &[Condact],
        conds: Option<&[Option<Run<bool>>]>,
    ) -> Result<Vec<super::Move>, (usize, Fault)> {
        Explorer::with(|ex| {
            for (o, option) in options.iter().enumerate() {
                let cond = conds.and_then(|c| c.get(o)?.as_ref());
                self.explore_with(option, cond, ex).map_err(|f| (o, f))?;
                ex.ends.push(ex.found.len());
            }
            // The list made once, at its size.
            let mut moves = Vec::with_capacity(ex.found.len());
            let mut paths = ex.found.drain(..);
            let mut start = 0;
            for (option, &end) in ex.ends.iter().enumerate() {
                moves.extend(paths.by_ref().take(end - start).map(|path| super::Move {
                    option: option as u16,
                    path,
                }));
                start = end;
            }
            Ok(moves)
        })
    }

    /// `(legal NAME PLAYER)`: whether named choice `c` has a legal option
    /// now, for `player` (the current player if `None`) as if they were to
    /// play it: its options explored as the game explores them when it
    /// reaches a choice (the same options are legal, the same rules errors
    /// stop the game), stopping at the first legal move. Nothing changes:
    /// the table, the generator, the cycles, the machine's count of
    /// actions, its oracle and its log are as they were. Asking it again
    /// while its own options are tried is a rules error, and so is asking
    /// more than [`MAX_LEGAL_NESTING`] choices one inside another.
    pub(super) fn legal(&mut self, c: u16, player: Option<&crate::ir::PlayerExpr>) -> R<bool> {
        let prog = &self.tabs.prog;
        let Some(named) = prog.choices.get(c as usize) else {
            return Err("`legal` of a choice that does not exist".into());
        };
        let items = match named.stage {
            None => &prog.body,
            Some(s) => match prog.stages.get(s as usize) {
                Some(stage) => &stage.items,
                None => return Err("`legal` of a choice that does not exist".into()),
            },
        };
        let Some(crate::ir::StageItem::Choice(options, span)) = items.get(named.pos as usize)
        else {
            return Err("`legal` of a choice that does not exist".into());
        };
        let (again, nested) = ASKING.with(|a| {
            let a = a.borrow();
            (a.contains(&c), a.len())
        });
        if again {
            let (line, col) = super::line_of(self.tabs, span.start);
            return Err(format!(
                "`(legal {})` is asked while the options of that same choice (line {line}, column {col}) are tried: whether it has a legal option depends on itself",
                named.name
            )
            .into());
        }
        if nested >= MAX_LEGAL_NESTING {
            return Err(format!(
                "`(legal {})` is asked inside the options of {MAX_LEGAL_NESTING} choices asked one inside another: too deep",
                named.name
            )
            .into());
        }
        let who = match player {
            Some(p) => Some(self.player(p)?),
            None => None,
        };
        // What the exploration changes, kept to be put back.
        let (actions, oracle, log) = (self.actions, self.oracle.take(), self.log.take());
        let (journaling, rng_saved) = (self.journaling, self.rng_saved);
        let rng = self.table.rng.clone();
        self.journaling = true;
        let mark = self.journal_len();
        if let Some(who) = who {
            self.record(|t| super::journal::Undo::Cycles(t.player_cycles.clone()));
            match self.table.player_cycles.last_mut() {
                Some(cycle) => cycle.idx = who,
                None => self.table.player_cycles.push(super::state::Cycle::at(who)),
            }
        }
        ASKING.with(|a| a.borrow_mut().push(c));
        let found = Explorer::with(|ex| {
            for option in options {
                self.explore(option, ex)?;
                if !ex.found.is_empty() {
                    return Ok(true);
                }
            }
            Ok(false)
        });
        ASKING.with(|a| a.borrow_mut().pop());
        self.undo_to(mark);
        self.table.rng = rng;
        (self.journaling, self.rng_saved) = (journaling, rng_saved);
        (self.actions, self.oracle, self.log) = (actions, oracle, log);
        found
    }

    /// Finds the paths of every run of `option` that does something,
    /// appending them to `ex.found`; a rules error in any run is an `Err`.
    /// The table is left unchanged (the journal must be on).
    pub fn explore(&mut self, option: &Condact, ex: &mut Explorer) -> R<()> {
        self.explore_with(option, None, ex)
    }

    /// [`Machine::explore`], the option's condition run `compiled` when
    /// it is.
    fn explore_with(
        &mut self,
        option: &Condact,
        compiled: Option<&Run<bool>>,
        ex: &mut Explorer,
    ) -> R<()> {
        ex.path.clear();
        self.actions = 0;
        let mark = self.journal_len();
        let mut leaf = |m: &mut Machine<'a>, ex: &mut Explorer| {
            if m.actions > 0 {
                if ex.found.len() as u64 >= m.tabs.limits.options {
                    return Err(m.too_many_options());
                }
                // A long move (a chain of many steps) keeps its picks on
                // the heap: they count as steps, so that `--max-steps`
                // bounds the memory of the moves listed as well as their
                // number does (a chain of 1,000 hops listed a million
                // times took gigabytes before the limit of steps).
                if ex.path.len() > super::Path::INLINE {
                    m.charge(ex.path.len())?;
                }
                ex.found.push(super::Path::from_slice(&ex.path));
            }
            Ok(())
        };
        let r = match (compiled, &option.cond) {
            // `explore_condact`, its condition compiled: every error
            // located at the option.
            (Some(run), Some(_)) => match run(self) {
                Err(t) => Err(Fault::from(t)),
                Ok(false) => leaf(self, ex),
                Ok(true) if option.branches => {
                    self.explore_action(&option.action, option.span, ex, &mut leaf, true)
                }
                Ok(true) => match self.check_action(&option.action) {
                    Ok(()) => leaf(self, ex),
                    Err(f) => Err(f),
                },
            }
            .map_err(|f| self.locate(f, option.span)),
            _ => self.explore_condact(option, ex, &mut leaf, true),
        };
        self.undo_to(mark);
        r
    }

    /// Runs `c`, then `k`; `tail`: `k` does nothing but the leaf's check.
    /// An error is located at `c` unless something inside `c` located it
    /// (what `k` runs locates its own errors).
    fn explore_condact(
        &mut self,
        c: &Condact,
        ex: &mut Explorer,
        k: Cont<'_, 'a>,
        tail: bool,
    ) -> R<()> {
        match self.explore_condact_here(c, ex, k, tail) {
            Ok(()) => Ok(()),
            Err(f) => Err(self.locate(f, c.span)),
        }
    }

    /// [`Machine::explore_condact`] before its error is located.
    #[inline(always)]
    fn explore_condact_here(
        &mut self,
        c: &Condact,
        ex: &mut Explorer,
        k: Cont<'_, 'a>,
        tail: bool,
    ) -> R<()> {
        if !c.branches {
            if tail {
                self.check_condact(c)?;
            } else {
                self.condact(c)?;
            }
            return k(self, ex);
        }
        if let Some(cond) = &c.cond {
            if !self.node_bool(cond)? {
                return k(self, ex);
            }
        }
        self.explore_action(&c.action, c.span, ex, k, tail)
    }

    /// Runs `a`, then `k`; `span`: the conditional action `a` belongs to
    /// (where an error of a `repeat`'s later pass is located).
    fn explore_action(
        &mut self,
        a: &Action,
        span: Span,
        ex: &mut Explorer,
        k: Cont<'_, 'a>,
        tail: bool,
    ) -> R<()> {
        if ex.depth >= MAX_NESTING {
            return Err(too_deep());
        }
        ex.depth += 1;
        let r = self.explore_action_here(a, span, ex, k, tail);
        ex.depth -= 1;
        r
    }

    /// [`Machine::explore_action`] inside its bound on nesting.
    #[inline(always)]
    fn explore_action_here(
        &mut self,
        a: &Action,
        span: Span,
        ex: &mut Explorer,
        k: Cont<'_, 'a>,
        tail: bool,
    ) -> R<()> {
        match a {
            Action::Do(items) => self.explore_seq(items, ex, k, tail),
            Action::Any { over, var, body } => {
                let picker = self.picker(over)?;
                let len = picker.len(self);
                if len == 0 {
                    return k(self, ex);
                }
                let slot = *var as usize;
                // Over the spaces of a board with a guard the index
                // answers: the items where it holds (at the others the
                // guard fails, which does nothing and cannot fail).
                let sieve = match (&picker, self.tabs.compiled.any_guard(a)) {
                    (Picker::Spaces(first, _), Some(g)) => g
                        .load(self)
                        .and_then(|l| g.mask_of(self, &l, *first))
                        .filter(|(at, _)| at == first)
                        .map(|(_, bits)| bits),
                    _ => None,
                };
                let saved = std::mem::replace(&mut self.vars[slot], Value::Unset);
                let mark = self.journal_len();
                let actions = self.actions;
                let mut r = Ok(());
                // Whether the body of some item did something (see
                // `silent` below).
                let mut did = false;
                for i in 0..len {
                    if sieve.as_ref().is_some_and(|b| !b.contains(i as u32)) {
                        continue;
                    }
                    let item = picker.get(i, self);
                    self.set_var(slot, item);
                    ex.path.push(i as u32);
                    r = self.explore_condact(
                        body,
                        ex,
                        &mut |m: &mut Machine<'a>, ex| {
                            if m.actions == actions {
                                return Ok(());
                            }
                            did = true;
                            k(m, ex)
                        },
                        tail,
                    );
                    ex.path.pop();
                    self.undo_to(mark);
                    self.actions = actions;
                    if r.is_err() {
                        break;
                    }
                }
                // No item's body did anything: the `any` is as one over
                // nothing, the rest of the run goes on once (item 0, whose
                // body is run again and does nothing, is its pick). With
                // nothing done before it and nothing after, that run is
                // no move: it is not tried.
                if r.is_ok() && !did && !(tail && actions == 0) {
                    let item = picker.get(0, self);
                    self.set_var(slot, item);
                    ex.path.push(0);
                    r = self.explore_condact(body, ex, k, tail);
                    ex.path.pop();
                    self.undo_to(mark);
                    self.actions = actions;
                }
                self.vars[slot] = saved;
                r
            }
            Action::Chain {
                over,
                var,
                body,
                stop,
            } => self.explore_chain((over, *var as usize, body, *stop), span, false, ex, k),
            // Every action of the move done (none only checked), then
            // the condition asked of the table it leaves.
            Action::Afterwards { cond, body } => self.explore_condact(
                body,
                ex,
                &mut |m: &mut Machine<'a>, ex| match m.actions > 0 && m.bool(cond)? {
                    true => k(m, ex),
                    false => Ok(()),
                },
                false,
            ),
            Action::All { over, var, body } => {
                let items = self.items(over)?;
                let saved = self.vars[*var as usize].clone();
                let r = self.explore_all(&items, 0, (*var as usize, body), ex, k, tail);
                self.set_var(*var as usize, saved);
                r
            }
            Action::Let { value, var, body } => {
                let v = self.value(value)?;
                let saved = std::mem::replace(&mut self.vars[*var as usize], v);
                let r = self.explore_condact(body, ex, k, tail);
                self.set_var(*var as usize, saved);
                r
            }
            Action::Repeat { count, body } => {
                let n = self.int(count)?;
                if n > 1_000_000 {
                    return Err(format!("`repeat {n}` is too many repetitions").into());
                }
                self.charge(n.max(0) as usize)?;
                self.explore_repeat(n.max(0), (body, span), ex, k, tail)
            }
            // No `any` inside: run it.
            other => {
                if tail {
                    self.check_action(other)?;
                } else {
                    self.action(other)?;
                }
                k(self, ex)
            }
        }
    }

    /// Runs `items` in order, then `k`.
    fn explore_seq(
        &mut self,
        items: &[Condact],
        ex: &mut Explorer,
        k: Cont<'_, 'a>,
        tail: bool,
    ) -> R<()> {
        // Leading items that cannot branch run at once.
        let first = items.iter().position(|c| c.branches).unwrap_or(items.len());
        for (i, c) in items[..first].iter().enumerate() {
            if tail && i + 1 == items.len() {
                self.check_condact(c)?;
            } else {
                self.condact(c)?;
            }
        }
        match items[first..].split_first() {
            None => k(self, ex),
            Some((c, rest)) => self.explore_condact(
                c,
                ex,
                &mut |m: &mut Machine<'a>, ex| m.explore_seq(rest, ex, k, tail),
                tail && rest.is_empty(),
            ),
        }
    }

    /// Runs `body` for items `i..` of an `all`, then `k`.
    fn explore_all(
        &mut self,
        items: &Items,
        i: usize,
        (var, body): (usize, &Condact),
        ex: &mut Explorer,
        k: Cont<'_, 'a>,
        tail: bool,
    ) -> R<()> {
        if i >= items.len() {
            return k(self, ex);
        }
        self.set_var(var, items.get(i));
        self.explore_condact(
            body,
            ex,
            &mut |m: &mut Machine<'a>, ex| {
                let r = m.explore_all(items, i + 1, (var, body), ex, k, tail);
                // The continuation changed the variable; the caller's next
                // item (of an `any` inside the body) needs it back.
                m.vars[var] = items.get(i);
                r
            },
            tail && i + 1 == items.len(),
        )
    }

    /// Runs the steps of a `chain` (its collection, variable, body and
    /// whether the player may stop), then `k`: the collection is evaluated
    /// on the table as the steps so far left it; when it is empty the
    /// chain ends (`k` runs), otherwise each item is a step: its body
    /// runs (never as the tail: the collection is evaluated again after
    /// it), then the next steps, then the changes are taken back. After
    /// the first step (`later`), with `stop`, ending the chain there is
    /// one more run, pick 0, before the steps (picks `i + 1`). Each step
    /// nests one more (see [`MAX_NESTING`]). An error of a later step's
    /// collection is located at `span`, the `chain`'s conditional action.
    fn explore_chain(
        &mut self,
        chain: (&CollectionExpr, usize, &Condact, bool),
        span: Span,
        later: bool,
        ex: &mut Explorer,
        k: Cont<'_, 'a>,
    ) -> R<()> {
        let (over, var, body, stop) = chain;
        let picker = self.picker(over)?;
        let len = picker.len(self);
        if len == 0 {
            return k(self, ex);
        }
        if ex.depth >= MAX_NESTING {
            return Err(too_deep());
        }
        ex.depth += 1;
        let saved = std::mem::replace(&mut self.vars[var], Value::Unset);
        let mark = self.journal_len();
        let actions = self.actions;
        let stops = usize::from(stop && later);
        let mut r = Ok(());
        if stops == 1 {
            ex.path.push(0);
            r = k(self, ex);
            ex.path.pop();
            self.undo_to(mark);
            self.actions = actions;
        }
        for i in 0..len {
            if r.is_err() {
                break;
            }
            r = self.charge(1);
            if r.is_err() {
                break;
            }
            let item = picker.get(i, self);
            self.set_var(var, item);
            ex.path.push((i + stops) as u32);
            r = self.explore_condact(
                body,
                ex,
                &mut |m: &mut Machine<'a>, ex| {
                    let r = m.explore_chain(chain, span, true, ex, k);
                    r.map_err(|f| m.locate(f, span))
                },
                false,
            );
            ex.path.pop();
            self.undo_to(mark);
            self.actions = actions;
        }
        self.vars[var] = saved;
        ex.depth -= 1;
        r
    }

    /// Runs `body` `n` more times, then `k`; an error is located at
    /// `span`, the `repeat`'s conditional action.
    fn explore_repeat(
        &mut self,
        n: i64,
        (body, span): (&Action, Span),
        ex: &mut Explorer,
        k: Cont<'_, 'a>,
        tail: bool,
    ) -> R<()> {
        if n == 0 {
            return k(self, ex);
        }
        let r = self.explore_action(
            body,
            span,
            ex,
            &mut |m: &mut Machine<'a>, ex| m.explore_repeat(n - 1, (body, span), ex, k, tail),
            tail && n == 1,
        );
        r.map_err(|f| self.locate(f, span))
    }

    /// Checks a conditional action that ends a run (see the module doc);
    /// an error is located as [`Machine::condact`] locates it.
    pub(super) fn check_condact(&mut self, c: &Condact) -> R<()> {
        match self.check_condact_here(c) {
            Ok(()) => Ok(()),
            Err(f) => Err(self.locate(f, c.span)),
        }
    }

    /// [`Machine::check_condact`] before its error is located.
    #[inline(always)]
    fn check_condact_here(&mut self, c: &Condact) -> R<()> {
        if let Some(cond) = &c.cond {
            if !self.node_bool(cond)? {
                return Ok(());
            }
        }
        self.check_action(&c.action)
    }

    /// Checks an action that ends a run: evaluates what the action would
    /// evaluate, in the same order, and counts it as done when it would do
    /// something, without changing the table. Actions not handled here run.
    ///
    /// With a log (a move's text, `State::texts`), a checked `move` logs
    /// what it would do, the `any` of an option picks its item and checks
    /// its body, and the other actions run: the log is the one playing
    /// the move writes, without moving a card (taking a card out of a pile
    /// and putting it back costs as much as the pile is high).
    pub(super) fn check_action(&mut self, a: &Action) -> R<()> {
        match a {
            Action::Do(items) => {
                let Some((last, rest)) = items.split_last() else {
                    return Ok(());
                };
                for c in rest {
                    self.condact(c)?;
                }
                self.check_condact(last)
            }
            Action::Let { value, var, body } => {
                let v = self.value(value)?;
                self.set_var(*var as usize, v);
                self.check_condact(body)
            }
            Action::Afterwards { body, .. } => self.check_condact(body),
            // A place counted from the top is worked out after the card
            // has left its location: run it.
            Action::Move {
                to: CardExpr::At(Pos::Index(_), _),
                ..
            } => self.action(a),
            Action::Move { from, to } => {
                let src = self.card(from)?;
                let dest = self.dest_slot(to)?;
                if let Some(src) = src {
                    // The card lies where the table records it (checked by
                    // `State::check_conservation` in the tests: a search of
                    // its location here made `any` over a pile quadratic).
                    self.actions += 1;
                    self.log(|m| m.move_text(src.id, m.table.card_loc[src.id as usize], dest));
                }
                Ok(())
            }
            Action::SetInt(..)
            | Action::IncInt(..)
            | Action::DecInt(..)
            | Action::SetStr(..)
            | Action::TurnPass
                if self.log.is_some() =>
            {
                self.action(a)
            }
            Action::Any { over, var, body } if self.log.is_some() && self.oracle.is_some() => {
                match self.pick(over, *var)? {
                    true => self.check_condact(body),
                    false => Ok(()),
                }
            }
            Action::SetInt(s, v) | Action::IncInt(s, v) | Action::DecInt(s, v) => {
                self.actions += 1;
                self.int(v)?;
                self.int_slot(s)?;
                Ok(())
            }
            Action::SetStr(s, v) => {
                self.actions += 1;
                self.str(v)?;
                self.str_slot(s)?;
                Ok(())
            }
            Action::TurnPass => {
                self.actions += 1;
                Ok(())
            }
            other => self.action(other),
        }
    }
}
