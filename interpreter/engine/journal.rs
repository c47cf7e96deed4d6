//! The undo journal of a [`Machine`]: while it is on, every change to the
//! table is recorded ([`Undo`]) so that exploring a choice's options, or
//! checking a move, can take the changes back. The storage writes that the
//! rules make most often (`set`, `inc`, `dec`) are here too: off the
//! journal and the log, they are one write.

use super::exec::Machine;
use super::spaceset::touch;
use super::state::{CardId, Cycle, PointMap, Slot, Table};
use crate::ir::{CycleKind, Sym};
use crate::random::GameRng;
use std::sync::Arc;

/// How to take back one change.
#[derive(Clone, Debug)]
pub enum Undo {
    /// A card moved between (or within) locations; `last` is the card
    /// `(last moved)` was before.
    Moved {
        card: CardId,
        from: Slot,
        from_idx: usize,
        to: Slot,
        to_idx: usize,
        last: Option<CardId>,
    },
    /// A card reference was inserted (remember).
    Inserted {
        slot: Slot,
        idx: usize,
    },
    /// A card reference was removed (forget).
    Removed {
        slot: Slot,
        idx: usize,
        card: CardId,
    },
    /// A location's previous order (shuffle).
    Loc(Slot, Vec<CardId>),
    Int(usize, i64),
    Str(usize, Sym),
    Points(usize, Option<Arc<PointMap>>),
    Cycles(Vec<Cycle>),
    Teams(Vec<Vec<u8>>, Vec<u8>),
    Rng(Box<GameRng>),
    /// The innermost cycle of a kind changed as the stages are played
    /// (a stage entered, left or passed again).
    Cycle(CycleKind, CycleChange),
    /// Cards created by a deck (dropped again).
    Created {
        /// The length of the cards' attributes before.
        attrs_len: usize,
        card_count: usize,
        slot: Slot,
        loc_len: usize,
    },
    /// Announcements made (`engine/announce.rs`): how many there were
    /// before.
    Announced(usize),
}

impl Undo {
    /// What the change copied or keeps alive, counted one per item (a card
    /// of a shuffled location's old order, a player of the teams, a cycle
    /// of the stack, an award of a point map and each of its conditions;
    /// the game's generator as 8), for `--max-changes`.
    #[inline(always)]
    pub(super) fn extra(&self) -> u64 {
        match self {
            Undo::Loc(_, cards) => cards.len() as u64,
            Undo::Cycles(cycles) => cycles.len() as u64,
            Undo::Teams(teams, of) => (teams.iter().map(Vec::len).sum::<usize>() + of.len()) as u64,
            Undo::Rng(_) => 8,
            // The old map, kept alive by the journal: its awards and their
            // conditions.
            Undo::Points(_, Some(map)) => map
                .awards
                .iter()
                .map(|(conds, _)| 1 + conds.len() as u64)
                .sum(),
            _ => 0,
        }
    }
}

/// How the stack of cycles of a kind changed.
#[derive(Clone, Copy, Debug)]
pub enum CycleChange {
    /// A cycle was pushed (a stage entered).
    Pushed,
    /// This cycle was popped (a stage left).
    Popped(Cycle),
    /// The innermost cycle was this before (a stage passed again).
    Was(Cycle),
}

/// Removes the card at `idx` of a location (most often its top: no copy).
#[inline(always)]
pub(super) fn take_out(cards: &mut Vec<CardId>, idx: usize) {
    if idx + 1 == cards.len() {
        cards.pop();
    } else {
        cards.remove(idx);
    }
}

impl Machine<'_> {
    /// Turns the journal on: from now on every change is recorded, to be
    /// taken back with [`Machine::undo_to`].
    pub fn start_journal(&mut self) {
        self.journal.clear();
        self.held = self.kept_changes;
        self.journaling = true;
    }

    /// Turns the journal off and forgets it: the changes made so far stay,
    /// and the machine goes on as a new one would.
    pub fn stop_journal(&mut self) {
        self.journal.clear();
        self.held = self.kept_changes;
        self.journaling = false;
        self.rng_saved = false;
    }

    /// Saves the generator before its first draw, when journaling.
    pub fn save_rng(&mut self) {
        if !self.rng_saved && self.journaling {
            let saved = Undo::Rng(Box::new(self.table.rng.clone()));
            self.held += saved.extra();
            self.journal.push(saved);
            self.rng_saved = true;
        }
    }

    /// Journals how to take back a change, when journaling: `u` makes the
    /// entry, from the table before the change (so nothing is copied for
    /// a journal that is off).
    #[inline]
    pub(super) fn record(&mut self, u: impl FnOnce(&Table) -> Undo) {
        if self.journaling {
            let entry = u(self.table);
            self.held += entry.extra();
            self.journal.push(entry);
        }
    }

    /// Takes back every journaled change.
    pub fn undo_all(&mut self) {
        self.undo_to(0);
    }

    /// The journal's length: a mark to take changes back to.
    #[inline]
    pub fn journal_len(&self) -> usize {
        self.journal.len()
    }

    /// Takes back the journaled changes made since `mark`.
    #[inline]
    pub fn undo_to(&mut self, mark: usize) {
        if self.journal.len() > mark {
            self.undo_entries(mark);
        }
    }

    fn undo_entries(&mut self, mark: usize) {
        let lc = self.tabs.loc_count;
        let t = &mut *self.table;
        for u in self.journal.drain(mark..).rev() {
            self.held = self.held.saturating_sub(u.extra());
            if take_back(t, lc, u) {
                self.rng_saved = false;
            }
        }
    }

    /// Hands the changes journaled so far to `kept` (the changes of moves
    /// played to be taken back, see `State::apply_undoable`), the journal
    /// going on empty: the next draw from the game's chance is saved again,
    /// so that taking back to a later mark restores it.
    pub(super) fn keep_journal(&mut self, kept: &mut Vec<Undo>) {
        self.kept_changes = self.held + self.journal.len() as u64;
        self.held = self.kept_changes;
        kept.append(self.journal);
        self.rng_saved = false;
    }
}

/// Takes back change `u` on `t` (the changes journaled after it taken
/// back already); `lc` is the number of location names. Returns whether
/// it restored the game's generator.
#[inline(always)]
pub(super) fn take_back(t: &mut Table, lc: usize, u: Undo) -> bool {
    match u {
        Undo::Moved {
            card,
            from,
            from_idx,
            to,
            to_idx,
            last,
        } => {
            take_out(&mut t.locs[to as usize], to_idx);
            t.locs[from as usize].insert(from_idx, card);
            t.card_loc[card as usize] = from;
            t.last_moved = last;
            touch(t, lc, to);
            touch(t, lc, from);
        }
        Undo::Inserted { slot, idx } => {
            t.locs[slot as usize].remove(idx);
            touch(t, lc, slot);
        }
        Undo::Removed { slot, idx, card } => {
            t.locs[slot as usize].insert(idx, card);
            touch(t, lc, slot);
        }
        Undo::Loc(slot, v) => {
            t.locs[slot as usize] = v;
            touch(t, lc, slot);
        }
        Undo::Int(i, v) => t.ints[i] = v,
        Undo::Str(i, v) => t.strs[i] = v,
        Undo::Points(i, v) => t.points[i] = v,
        Undo::Cycles(v) => t.player_cycles = v,
        Undo::Teams(teams, of) => {
            t.teams = teams;
            t.team_of = of;
        }
        Undo::Rng(r) => {
            t.rng = *r;
            return true;
        }
        Undo::Announced(len) => super::announce::take_back(t, len),
        Undo::Created {
            attrs_len,
            card_count,
            slot,
            loc_len,
        } => {
            t.card_loc.truncate(card_count);
            attrs_mut(&mut t.cards).truncate(attrs_len);
            t.locs[slot as usize].truncate(loc_len);
            touch(t, lc, slot);
        }
        Undo::Cycle(kind, change) => {
            let cycles = match kind {
                CycleKind::Player => &mut t.player_cycles,
                CycleKind::Team => &mut t.team_cycles,
            };
            match change {
                CycleChange::Pushed => {
                    cycles.pop();
                }
                CycleChange::Popped(c) => cycles.push(c),
                CycleChange::Was(c) => {
                    if let Some(last) = cycles.last_mut() {
                        *last = c;
                    }
                }
            }
        }
    }
    false
}

impl Machine<'_> {
    /// Sets integer storage `i` to `new`, journaled and logged (what
    /// `set`, `inc` and `dec` do once their operands are known).
    #[inline(always)]
    pub(super) fn store_int(&mut self, i: usize, new: i64) {
        // Most stores are neither journaled nor logged (the rules running
        // between decisions): one write.
        if self.journaling || self.log.is_some() {
            return self.store_int_noted(i, new);
        }
        self.table.ints[i] = new;
    }

    /// [`Machine::store_int`] journaled and logged.
    #[inline(never)]
    fn store_int_noted(&mut self, i: usize, new: i64) {
        let old = self.table.ints[i];
        self.record(|_| Undo::Int(i, old));
        self.table.ints[i] = new;
        self.log(|m| crate::step::Step::Set {
            storage: m.int_at(i),
            value: crate::step::SetValue::Int(new),
        });
    }

    /// Sets string storage `i` to `v`, journaled and logged.
    #[inline(always)]
    pub(super) fn store_str(&mut self, i: usize, v: Sym) {
        if self.journaling || self.log.is_some() {
            return self.store_str_noted(i, v);
        }
        self.table.strs[i] = v;
    }

    /// [`Machine::store_str`] journaled and logged.
    #[inline(never)]
    fn store_str_noted(&mut self, i: usize, v: Sym) {
        let old = self.table.strs[i];
        self.record(|_| Undo::Str(i, old));
        self.table.strs[i] = v;
        self.log(|m| crate::step::Step::Set {
            storage: m.str_at(i),
            value: crate::step::SetValue::Text(m.tabs.prog.symbols[v as usize].clone()),
        });
    }
}

/// The cards' attributes of a table, to be changed (only ever appended
/// to, or cut back to an old length when a `create deck` is taken back):
/// copied first when shared with a copy of the state or with the setup
/// kept for later games. The tests count the attributes copied.
pub(super) fn attrs_mut(cards: &mut Arc<Vec<Sym>>) -> &mut Vec<Sym> {
    #[cfg(test)]
    if Arc::strong_count(cards) > 1 {
        ATTRS_COPIED.with(|c| c.set(c.get() + cards.len()));
    }
    Arc::make_mut(cards)
}

#[cfg(test)]
thread_local! {
    /// The cards' attributes copied by [`attrs_mut`] on this thread.
    pub(super) static ATTRS_COPIED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}
