//! Moving cards: where a `move` or `remember` puts its card, moving a
//! card with the journal, the log and the index of what lies on the
//! spaces kept true, `repeat all` moves in one pass when no move can see
//! the difference (`engine/batch.rs`), and the names the log writes.

use super::Machine;
use crate::engine::batch::{stable_cards, BATCH};
use crate::engine::eval::R;
use crate::engine::journal::{take_out, Undo};
use crate::engine::spaceset::touch;
use crate::engine::state::{CardId, Slot};
use crate::engine::value::Cards;
use crate::engine::view;
use crate::ir::*;
use crate::observation::CardView;
use crate::step::{Place, Step, StorageAt, StorageKind};

impl Machine<'_> {
    /// Where a `move`/`remember` puts its card.
    pub(super) fn dest(&mut self, to: &CardExpr) -> R<(Slot, Pos)> {
        let slot = self.dest_slot(to)?;
        Ok(match to {
            CardExpr::At(pos, _) => (slot, pos.clone()),
            _ => (slot, Pos::Top),
        })
    }

    /// The location a `move`/`remember` puts its card in (see `dest`).
    pub(in crate::engine) fn dest_slot(&mut self, to: &CardExpr) -> R<Slot> {
        match to {
            CardExpr::At(_, cards) => match self.cards(cards)? {
                Cards::Slot(s) => Ok(s),
                Cards::List(_) => Err(
                    "a card is moved to a place in a location, such as `(top (game vloc PILE))`"
                        .into(),
                ),
            },
            CardExpr::Var(_)
            | CardExpr::Actual(_)
            | CardExpr::Max(..)
            | CardExpr::Min(..)
            | CardExpr::LastMoved => match self.card(to)? {
                Some(c) => Ok(c.slot),
                None => Err("the place to move to is no card".into()),
            },
        }
    }

    #[inline]
    pub(super) fn insert_index(&mut self, pos: &Pos, len: usize) -> R<usize> {
        Ok(match pos {
            Pos::Top => len,
            Pos::Bottom => 0,
            Pos::Index(i) => len - (self.int(i)?.max(0) as usize).min(len),
        })
    }

    /// Moves a card from its real location to `dest` at `pos`.
    pub fn move_card(&mut self, card: CardId, dest: Slot, pos: &Pos) -> R<()> {
        let from = self.table.card_loc[card as usize];
        let from_vec = &self.table.locs[from as usize];
        let Some(from_idx) = from_vec.iter().rposition(|c| *c == card) else {
            return Err("internal: a card is not where the table says".into());
        };
        // Work: the cards above it in its pile (found and shifted).
        self.charge(from_vec.len() - 1 - from_idx)?;
        take_out(&mut self.table.locs[from as usize], from_idx);
        let len = self.table.locs[dest as usize].len();
        let to_idx = match self.insert_index(pos, len) {
            Ok(i) => i,
            Err(e) => {
                // The position failed (a rules error): the card goes back
                // where it was, so nothing is lost.
                self.table.locs[from as usize].insert(from_idx, card);
                return Err(e);
            }
        };
        self.table.locs[dest as usize].insert(to_idx, card);
        touch(self.table, self.tabs.loc_count, from);
        touch(self.table, self.tabs.loc_count, dest);
        self.table.card_loc[card as usize] = dest;
        let last = self.table.last_moved.replace(card);
        self.actions += 1;
        self.record(|_| Undo::Moved {
            card,
            from,
            from_idx,
            to: dest,
            to_idx,
            last,
        });
        self.log(|m| m.move_text(card, from, dest));
        // Work: the cards above its place in the destination (shifted).
        self.charge(len - to_idx)
    }

    /// How the log writes a move of `card` from `from` to `dest`.
    pub(in crate::engine) fn move_text(&self, card: CardId, from: Slot, dest: Slot) -> Step {
        Step::Move {
            card: self.card_for_reader(card, from, dest),
            from: self.place(from),
            to: self.place(dest),
        }
    }

    pub(super) fn forget(&mut self, card: CardId, slot: Slot) -> R<()> {
        let v = &mut self.table.locs[slot as usize];
        if let Some(idx) = v.iter().rposition(|c| *c == card) {
            let above = v.len() - 1 - idx;
            v.remove(idx);
            touch(self.table, self.tabs.loc_count, slot);
            self.record(|_| Undo::Removed { slot, idx, card });
            self.actions += 1;
            self.log(|m| Step::Forget {
                card: m.card_for_reader(card, slot, slot),
                from: m.place(slot),
            });
            // Work: the cards above it (found and shifted).
            self.charge(above)?;
        }
        Ok(())
    }

    /// `repeat all (move A B)` / `repeat all (forget A)`: once per card of
    /// A's collection, as it is when the action starts.
    pub(super) fn repeat_all(&mut self, from: &CardExpr, to: Option<&CardExpr>) -> R<()> {
        let CardExpr::At(pos, cards) = from else {
            return Err("`repeat all` needs a card such as `(top LOC)`".into());
        };
        let source = self.cards(cards)?;
        match source {
            Cards::Slot(slot) => {
                let n = self.table.locs[slot as usize].len();
                self.charge(n)?;
                if let (Some(to), Pos::Top | Pos::Bottom) = (to, pos) {
                    // The source is named anew for each card: in one pass
                    // only when its name reads no pile.
                    if n >= BATCH && stable_cards(cards) {
                        let pile = &self.table.locs[slot as usize];
                        let order: Vec<CardId> = match pos {
                            Pos::Bottom => pile.clone(),
                            _ => pile.iter().rev().copied().collect(),
                        };
                        if self.move_all(&order, to)? {
                            return Ok(());
                        }
                    }
                }
                for _ in 0..n {
                    let Some(c) = self.card(from)? else { break };
                    match to {
                        Some(to) => {
                            let (dest, p) = self.dest(to)?;
                            self.move_card(c.id, dest, &p)?;
                        }
                        None => self.forget(c.id, c.slot)?,
                    }
                }
            }
            Cards::List(list) => {
                // A computed collection does not shrink as cards leave: take
                // each of its cards once, from the named end.
                let order: Vec<CardId> = match pos {
                    Pos::Bottom => list.clone(),
                    _ => list.iter().rev().copied().collect(),
                };
                if let Some(to) = to {
                    if order.len() >= BATCH && self.move_all(&order, to)? {
                        return Ok(());
                    }
                }
                for id in order {
                    match to {
                        Some(to) => {
                            let (dest, p) = self.dest(to)?;
                            self.move_card(id, dest, &p)?;
                        }
                        None => {
                            let slot = self.table.card_loc[id as usize];
                            self.forget(id, slot)?
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A card taken from `from` to `dest`, as the log's reader may read
    /// it: its name (with its attributes when the log wants faces), or
    /// `None` (`a card`) when the reader may not see it.
    pub(super) fn card_for_reader(&self, card: CardId, from: Slot, dest: Slot) -> Option<CardView> {
        match self.reader {
            Some(r) if !r.sees(self.tabs, self.table, from, dest) => None,
            _ if self.log_faces => Some(view::card_view(self.tabs, self.table, card)),
            _ => Some(CardView {
                name: view::card_name(self.tabs, self.table, card),
                attrs: Default::default(),
            }),
        }
    }
    /// A location as the log names it.
    pub(super) fn place(&self, slot: Slot) -> Place {
        view::place(self.tabs, self.table, slot)
    }
    /// Integer storage `i` as the log names it.
    pub(in crate::engine) fn int_at(&self, i: usize) -> StorageAt {
        let names = &self.tabs.prog.int_names;
        view::storage_at(
            self.tabs,
            self.table,
            i,
            (StorageKind::Sto, self.tabs.int_count, names),
        )
    }
    /// String storage `i` as the log names it.
    pub(in crate::engine) fn str_at(&self, i: usize) -> StorageAt {
        let names = &self.tabs.prog.str_names;
        view::storage_at(
            self.tabs,
            self.table,
            i,
            (StorageKind::Str, self.tabs.str_count, names),
        )
    }
}
