//! Running actions. A [`Machine`] runs actions on the table, optionally
//! keeping an undo journal (to explore a choice's options and take them
//! back) and following an oracle that says which item each `any` picks.

use super::create::{deck_cards, set_teams};
use super::eval::{Fault, R};
pub use super::journal::Undo;
pub use super::oracle::{Oracle, Picks};
use super::regions::Regions;
use super::spaceset::touch;
use super::state::{CardId, PointMap, Table};
use super::value::{Cards, Value};
use super::view;
use super::Tables;
use crate::diagnostic::Span;
use crate::ir::*;
use crate::step::{Step, TurnWhen};
use std::cell::Cell;
use std::sync::Arc;

mod moving;

/// The most descriptions a log keeps (a move's text names its first
/// changes and then how many more: a move of millions of changes is not
/// written out, nor kept in memory, in full).
pub const MAX_LOGGED: usize = 1000;

/// Runs actions against a table, in the buffers of a [`Scratch`] (kept
/// with the table: making a machine allocates nothing and moves no
/// buffer).
pub struct Machine<'a> {
    pub tabs: &'a Tables,
    pub table: &'a mut Table,
    pub vars: &'a mut Vec<Value>,
    /// Undo journal: the changes made while `journaling`, to take back.
    pub(super) journal: &'a mut Vec<Undo>,
    /// Whether changes are journaled (see [`Machine::start_journal`]).
    pub(super) journaling: bool,
    pub(super) rng_saved: bool,
    /// The changes this machine handed to the state's kept changes (see
    /// [`Machine::keep_journal`]), as `--max-changes` counts them.
    pub(super) kept_changes: u64,
    /// `kept_changes` and what the journal's entries copied (one per item
    /// copied, see [`Undo::extra`]): with the journal's length, the
    /// changes `--max-changes` bounds.
    pub(super) held: u64,
    /// The most changes kept (`Limits::changes`).
    pub(super) max_changes: u64,
    /// Present while running a choice's option.
    pub oracle: Option<Oracle>,
    /// Primitive actions that did something so far (a `move` with no card
    /// to move does not count: an option made only of such is not offered).
    pub actions: u32,
    /// The steps of the primitive actions, when wanted (a move's text
    /// and steps, [`crate::step`]).
    pub log: Option<Vec<Step>>,
    /// Whether the log's cards carry their attributes (a move's steps
    /// for a client) or their names only (a move's text).
    pub log_faces: bool,
    /// The descriptions left out of a full log (see [`MAX_LOGGED`]).
    pub log_more: u64,
    /// The seat the descriptions are written for, if not for everyone
    /// (a moved card it may not see is written `a card`).
    pub reader: Option<view::Reader>,
    /// Steps of work done by this machine (see `Limits::steps`).
    pub steps: u64,
    /// The most steps allowed (`Limits::steps`).
    pub max_steps: u64,
    /// The bit sets of the groups that compiled `let`s bound, by variable
    /// slot (see [`Regions`]).
    pub regions: &'a mut Regions,
}

impl<'a> Machine<'a> {
    /// A machine over `table` with the declared values in `globals`, in
    /// the buffers of `scratch`.
    #[inline]
    pub fn new(
        tabs: &'a Tables,
        table: &'a mut Table,
        scratch: &'a mut Scratch,
        globals: &[Value],
    ) -> Machine<'a> {
        // The frame and the journal's room are the last machine's. Slots
        // other than the declares need no reset: the lowering only lets a
        // variable be read inside the form that binds it, and every binding
        // form assigns its slot first.
        let Scratch {
            vars,
            journal,
            regions,
        } = scratch;
        regions.renew();
        // Empty unless the last machine stopped with changes journaled.
        journal.clear();
        let width = tabs.prog.var_count.max(globals.len());
        if vars.len() < width {
            vars.resize(width, Value::Unset);
        }
        // The declares are usually there already, from the last machine.
        for (slot, g) in vars.iter_mut().zip(globals) {
            if !same_scalar(slot, g) {
                slot.clone_from(g);
            }
        }
        Machine {
            tabs,
            table,
            vars,
            journal,
            journaling: false,
            rng_saved: false,
            kept_changes: 0,
            held: 0,
            max_changes: tabs.limits.changes,
            oracle: None,
            actions: 0,
            log: None,
            log_faces: false,
            log_more: 0,
            reader: None,
            steps: 0,
            max_steps: tabs.limits.steps,
            regions,
        }
    }

    /// In a choice's option, binds `var` to the item of `over` the oracle
    /// picks at this `any`; false when the path does not fit (the oracle
    /// is marked invalid) or the collection is empty, and the body is not
    /// to run.
    #[inline(always)]
    pub(super) fn pick(&mut self, over: &CollectionExpr, var: VarId) -> R<bool> {
        // Only the picked item is needed: no copy of the collection.
        let k = self.oracle.as_ref().map_or(0, |o| o.pos);
        let kept = self.oracle.as_mut().and_then(|o| o.kept.as_mut()?.take(k));
        let picker = match kept {
            Some(p) => p,
            None => self.picker(over)?,
        };
        let len = picker.len(self);
        if len == 0 {
            return Ok(false);
        }
        let Some(pick) = self.next_pick(len) else {
            return Ok(false);
        };
        let item = picker.get(pick, self);
        self.set_var(var as usize, item);
        if let Some(kept) = self.oracle.as_mut().and_then(|o| o.kept.as_mut()) {
            kept.keep(k, picker);
        }
        Ok(true)
    }

    /// The oracle's next pick among `len` (at least 1): `None` without an
    /// oracle, or when the path does not fit (the oracle is marked
    /// invalid).
    #[inline(always)]
    fn next_pick(&mut self, len: usize) -> Option<usize> {
        let oracle = self.oracle.as_mut()?;
        let k = oracle.pos;
        if k >= oracle.path.len() {
            if oracle.probing {
                oracle.path.push(0);
            } else {
                oracle.invalid = true;
                return None;
            }
        }
        let pick = oracle.path[k] as usize;
        oracle.pos += 1;
        oracle.sizes.push(len as u32);
        if pick >= len {
            oracle.invalid = true;
            return None;
        }
        Some(pick)
    }

    /// `(chain [stop] COLLECTION 'V BODY)` in a choice's option: one step
    /// per pick of the oracle, while the collection (evaluated again
    /// before each step) is not empty; with `stop`, a pick 0 after the
    /// first step ends the chain and `i + 1` picks item `i` (see
    /// [`Action::Chain`]).
    #[inline(never)]
    fn chain(&mut self, over: &CollectionExpr, var: VarId, body: &Condact, stop: bool) -> R<()> {
        if self.oracle.is_none() {
            return Err("a `chain` is a decision: it can only run in an option of a choice".into());
        }
        let mut first = true;
        loop {
            let picker = self.picker(over)?;
            let len = picker.len(self);
            if len == 0 {
                return Ok(());
            }
            let stops = usize::from(stop && !first);
            let Some(pick) = self.next_pick(len + stops) else {
                return Ok(());
            };
            if stops == 1 && pick == 0 {
                return Ok(());
            }
            self.charge(1)?;
            let item = picker.get(pick - stops, self);
            self.set_var(var as usize, item);
            self.condact(body)?;
            if self.oracle.as_ref().is_some_and(|o| o.invalid) {
                return Ok(());
            }
            first = false;
        }
    }

    /// Runs a conditional action; an error raised in it names its place
    /// (see [`Fault`]).
    pub fn condact(&mut self, c: &Condact) -> R<()> {
        match self.condact_here(c) {
            Ok(()) => Ok(()),
            Err(f) => Err(self.locate(f, c.span)),
        }
    }

    /// [`Machine::condact`] before its error is located.
    #[inline(always)]
    fn condact_here(&mut self, c: &Condact) -> R<()> {
        if let Some(cond) = &c.cond {
            if !self.node_bool(cond)? {
                return Ok(());
            }
        }
        self.action(&c.action)
    }

    /// Condition `cond` run compiled when it is a node inside a choice's
    /// options (`compile::Compiled::node`: the same answer, error and
    /// draws as the evaluator), else evaluated.
    #[inline(always)]
    pub(super) fn node_bool(&mut self, cond: &crate::ir::BoolExpr) -> R<bool> {
        match self.tabs.compiled.node(cond) {
            Some(run) => run(self).map_err(Fault::from),
            None => self.bool(cond),
        }
    }

    /// `f` with the line and column of `span` in front of its message,
    /// unless it names its place already (an error is located by the
    /// innermost form that saw it; see [`Fault`]).
    #[cold]
    #[inline(never)]
    pub(super) fn locate(&self, f: Fault, span: Span) -> Fault {
        if f.is_located() {
            return f;
        }
        match super::place(self.tabs, span) {
            Some(place) => f.at_place(&place),
            None => f,
        }
    }

    #[inline(always)]
    pub(super) fn log(&mut self, f: impl FnOnce(&Machine) -> Step) {
        if let Some(len) = self.log.as_ref().map(Vec::len) {
            if len >= MAX_LOGGED {
                self.log_more += 1;
                return;
            }
            let s = f(self);
            if let Some(l) = self.log.as_mut() {
                l.push(s);
            }
        }
    }

    /// `cycle next` (`next`) or `cycle current` to seat `who`, once its
    /// action is counted: only the innermost cycle changes (nothing when
    /// there is none), journaled as it was, not as a copy of the stack.
    pub(in crate::engine) fn cycle_to(&mut self, who: u8, next: bool) {
        if let Some(&c) = self.table.player_cycles.last() {
            let was = super::journal::CycleChange::Was(c);
            self.record(|_| Undo::Cycle(crate::ir::CycleKind::Player, was));
        }
        if let Some(c) = self.table.player_cycles.last_mut() {
            if next {
                c.queued = Some(who);
            } else {
                c.idx = who;
            }
        }
        let when = if next { TurnWhen::Next } else { TurnWhen::Now };
        self.log(|_| Step::Turn {
            player: who as usize,
            when,
        });
    }

    /// Runs an action.
    pub fn action(&mut self, a: &Action) -> R<()> {
        match a {
            Action::Do(items) => {
                for c in items {
                    self.condact(c)?;
                    if self.oracle.as_ref().is_some_and(|o| o.invalid) {
                        break;
                    }
                }
            }
            Action::Any { over, var, body } => {
                if self.oracle.is_none() {
                    // Outside a choice, `any` runs for every item (as
                    // CardStock does): it is not a decision.
                    let items = self.items(over)?;
                    for i in 0..items.len() {
                        self.set_var(*var as usize, items.get(i));
                        self.condact(body)?;
                    }
                    return Ok(());
                }
                if self.pick(over, *var)? {
                    self.condact(body)?;
                }
            }
            Action::Chain {
                over,
                var,
                body,
                stop,
            } => self.chain(over, *var, body, *stop)?,
            // Played, the option itself (its moves were kept by the
            // condition when they were found).
            Action::Afterwards { body, .. } => self.condact(body)?,
            Action::All { over, var, body } => {
                let items = self.items(over)?;
                for i in 0..items.len() {
                    self.set_var(*var as usize, items.get(i));
                    self.condact(body)?;
                    if self.oracle.as_ref().is_some_and(|o| o.invalid) {
                        break;
                    }
                }
            }
            Action::Let { value, var, body } => {
                let v = self.value(value)?;
                self.set_var(*var as usize, v);
                self.condact(body)?;
            }
            Action::Move { from, to } => {
                let src = self.card(from)?;
                let (dest, pos) = self.dest(to)?;
                if let Some(src) = src {
                    self.move_card(src.id, dest, &pos)?;
                }
            }
            Action::Remember { from, to } => {
                let src = self.card(from)?;
                let (dest, pos) = self.dest(to)?;
                if let Some(src) = src {
                    let len = self.table.locs[dest as usize].len();
                    let idx = self.insert_index(&pos, len)?;
                    self.table.locs[dest as usize].insert(idx, src.id);
                    touch(self.table, self.tabs.loc_count, dest);
                    self.record(|_| Undo::Inserted { slot: dest, idx });
                    self.actions += 1;
                    self.log(|m| {
                        let from = m
                            .table
                            .card_loc
                            .get(src.id as usize)
                            .copied()
                            .unwrap_or(dest);
                        Step::Remember {
                            card: m.card_for_reader(src.id, from, dest),
                            to: m.place(dest),
                        }
                    });
                }
            }
            Action::Forget(c) => {
                if let Some(r) = self.card(c)? {
                    self.forget(r.id, r.slot)?;
                }
            }
            Action::RepeatAllMove { from, to } => {
                self.repeat_all(from, Some(to))?;
            }
            Action::RepeatAllForget(from) => {
                self.repeat_all(from, None)?;
            }
            Action::Repeat { count, body } => {
                let n = self.int(count)?;
                if n > 1_000_000 {
                    return Err(format!("`repeat {n}` is too many repetitions").into());
                }
                self.charge(n.max(0) as usize)?;
                for _ in 0..n.max(0) {
                    self.action(body)?;
                }
            }
            Action::Shuffle(c) => {
                self.actions += 1;
                let Cards::Slot(slot) = self.cards(c)? else {
                    return Err("`shuffle` needs a location such as `(game vloc DECK)`".into());
                };
                // Work and a copy in the journal: one per card.
                self.charge(self.table.locs[slot as usize].len())?;
                self.save_rng();
                self.record(|t| Undo::Loc(slot, t.locs[slot as usize].clone()));
                let t = &mut *self.table;
                crate::random::shuffle(&mut t.rng, &mut t.locs[slot as usize]);
                if let Some(seen) = t.seen.as_mut() {
                    seen.shuffled(slot);
                }
                touch(t, self.tabs.loc_count, slot);
                self.log(|m| Step::Shuffle { at: m.place(slot) });
            }
            Action::SetInt(s, v) | Action::IncInt(s, v) | Action::DecInt(s, v) => {
                self.actions += 1;
                let v = self.int(v)?;
                let i = self.int_slot(s)?;
                let old = self.table.ints[i];
                self.store_int(
                    i,
                    match a {
                        Action::IncInt(..) => old
                            .checked_add(v)
                            .ok_or_else(|| super::eval::overflow(IntOp::Add, old, v))?,
                        Action::DecInt(..) => old
                            .checked_sub(v)
                            .ok_or_else(|| super::eval::overflow(IntOp::Sub, old, v))?,
                        _ => v,
                    },
                );
            }
            Action::SetStr(s, v) => {
                self.actions += 1;
                let v = self.str(v)?;
                let i = self.str_slot(s)?;
                self.store_str(i, v);
            }
            Action::SetPoints(p, awards) => {
                self.actions += 1;
                let mut map = PointMap::default();
                for aw in awards {
                    let mut conds = Vec::with_capacity(aw.conds.len());
                    for (k, v) in &aw.conds {
                        let k = self.str(k)?;
                        let v = self.str(v)?;
                        conds.push((self.tabs.attr_lookup.get(&k).copied(), v));
                    }
                    map.awards.push((conds, self.int(&aw.points)?));
                }
                // A card's score adds the points of the awards it meets:
                // any subset of them must stay in range.
                let (mut up, mut down) = (0i64, 0i64);
                for &(_, points) in &map.awards {
                    let (side, what) = if points > 0 {
                        (&mut up, "the positive points of a point map")
                    } else {
                        (&mut down, "the negative points of a point map")
                    };
                    *side = super::eval::add(*side, points, what)?;
                }
                let i = self.point_slot(p)?;
                let old = self.table.points[i].take();
                self.record(|_| Undo::Points(i, old));
                self.table.points[i] = Some(Arc::new(map));
            }
            Action::CycleNext(p) | Action::CycleCurrent(p) => {
                self.actions += 1;
                let who = self.player(p)?;
                self.cycle_to(who, matches!(a, Action::CycleNext(_)));
            }
            Action::Require(cond, span) => {
                if !self.bool(cond)? {
                    let text = self
                        .tabs
                        .source
                        .get(span.start as usize..span.end as usize)
                        .unwrap_or("the condition");
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    let f = format!("the rules require {text}, which does not hold here");
                    return Err(self.locate(f.into(), *span));
                }
            }
            Action::TurnPass => {
                self.actions += 1;
                self.log(|_| Step::Pass);
            }
            Action::Announce(parts) => self.announce(parts),
            Action::CreateTeams(teams) => {
                self.actions += 1;
                self.record(|t| Undo::Teams(t.teams.clone(), t.team_of.clone()));
                set_teams(self.table, teams)?;
            }
            Action::CreateDeck { to, deck } => {
                self.actions += 1;
                let Cards::Slot(slot) = self.cards(to)? else {
                    return Err("`create deck` needs a location such as `(game vloc DECK)`".into());
                };
                // Taken back by cutting the lists to their lengths (the
                // cards' attributes are only ever appended to): keeping the
                // old list instead made the next `make_mut` copy every
                // card of the game at each journaled `create deck`.
                let attrs_len = self.table.cards.len();
                let loc_len = self.table.locs[slot as usize].len();
                let card_count = self.table.card_loc.len();
                self.record(|_| Undo::Created {
                    attrs_len,
                    card_count,
                    slot,
                    loc_len,
                });
                self.check_cards(super::create::deck_size(deck))?;
                let width = self.tabs.prog.attr_keys.len();
                self.reserve_cards(
                    slot,
                    super::create::deck_size(deck),
                    deck.rows.get().is_none(),
                )?;
                let (count, rows) = deck.rows.get_or_init(|| {
                    let cards = deck_cards(deck, width);
                    (cards.len(), cards.concat())
                });
                let cards = super::journal::attrs_mut(&mut self.table.cards);
                cards.extend_from_slice(rows);
                let slot_cards = &mut self.table.locs[slot as usize];
                for _ in 0..*count {
                    let id = self.table.card_loc.len() as CardId;
                    self.table.card_loc.push(slot);
                    slot_cards.push(id);
                }
                touch(self.table, self.tabs.loc_count, slot);
            }
        }
        Ok(())
    }

    /// Evaluates a `let`/`declare` value.
    pub fn value(&mut self, v: &ValueExpr) -> R<Value> {
        Ok(match v {
            ValueExpr::Int(e) => Value::Int(self.int(e)?),
            ValueExpr::Bool(e) => Value::Bool(self.bool(e)?),
            ValueExpr::Str(e) => Value::Str(self.str(e)?),
            ValueExpr::Card(e) => self
                .card(e)?
                .map_or_else(|| Value::Unset, |c| Value::Card(c.id)),
            ValueExpr::Cards(e) => Value::Cards(self.cards(e)?.into_vec(self.table)),
            ValueExpr::CardsCollection(e) => Value::Colls(self.collections(e)?),
            ValueExpr::Player(e) => Value::Player(self.player(e)?),
            ValueExpr::Team(e) => Value::Team(self.team(e)?),
            ValueExpr::Space(e) => self.space(e)?.map_or_else(|| Value::Unset, Value::Space),
            ValueExpr::Collection(e) => self.items(e)?.into_value(),
        })
    }
}

/// The buffers of the machines over one table: the variables' frame,
/// the undo journal and the groups kept as bit sets. A game keeps one
/// with its table, so that a machine borrows them (nothing allocated,
/// nothing handed over per machine). A new scratch takes the buffers a
/// dropped one left on its thread, and a dropped one leaves them there
/// (a game copied for a search, played and dropped, reuses the last
/// copy's room).
#[derive(Debug, Default)]
pub struct Scratch {
    vars: Vec<Value>,
    journal: Vec<Undo>,
    regions: Regions,
}

thread_local! {
    static SPARE: Cell<Scratch> = const {
        Cell::new(Scratch {
            vars: Vec::new(),
            journal: Vec::new(),
            regions: Regions::new(),
        })
    };
}

impl Scratch {
    /// The buffers left on this thread (none if none were).
    pub fn new() -> Scratch {
        SPARE.with(|s| s.take())
    }

    /// The journal's buffer: the changes the last machine journaled and
    /// left there (empty when it took them back).
    pub(super) fn journal_mut(&mut self) -> &mut Vec<Undo> {
        &mut self.journal
    }

    /// Whether the buffers own memory.
    fn has_room(&self) -> bool {
        self.vars.capacity() != 0 || self.journal.capacity() != 0 || self.regions.has_room()
    }
}

impl Clone for Scratch {
    /// Buffers of its own (what the copy's machines write is theirs).
    fn clone(&self) -> Scratch {
        Scratch::new()
    }
}

impl Drop for Scratch {
    /// Leaves the buffers for the next scratch on this thread, unless
    /// another's are there already (then they are dropped as usual).
    fn drop(&mut self) {
        if !self.has_room() {
            return;
        }
        self.journal.clear();
        // Only an empty scratch is dropped inside the access (its drop
        // does nothing).
        let _ = SPARE.try_with(|s| {
            let there = s.take();
            if there.has_room() {
                s.set(there);
            } else {
                s.set(Scratch {
                    vars: std::mem::take(&mut self.vars),
                    journal: std::mem::take(&mut self.journal),
                    regions: std::mem::take(&mut self.regions),
                });
            }
        });
    }
}

/// Whether `slot` already holds `g`, a scalar (a collection is copied).
#[inline(always)]
fn same_scalar(slot: &Value, g: &Value) -> bool {
    // Declares are most often integers: looked at first.
    if let (Value::Int(a), Value::Int(b)) = (slot, g) {
        return a == b;
    }
    match (slot, g) {
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        _ => false,
    }
}
