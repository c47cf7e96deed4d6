//! What each seat has seen, and states resampled from it
//! ([`GameState::resample`](crate::game::GameState::resample)): every card
//! a seat cannot see now and has not seen is dealt anew among the places of
//! such cards, everything it sees kept (docs/search.md says what "seen"
//! covers).
//!
//! A seat sees the table at every decision (anyone's), as its observation
//! shows it ([`view::shown_to`]); what happens between two decisions is
//! not seen. [`Seen`] is kept only when asked
//! ([`GameState::keep_seen`](crate::game::GameState::keep_seen)) and is
//! brought up to date after every move.

use super::state::{CardId, Slot, Table};
use super::{spaceset, view, State, Tables};
use crate::ir::LocKind;
use crate::random::{shuffle, GameRng};

/// Which cards each seat knows the place of, and the table as it was at
/// the last decision.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Per seat, per card: the seat knows where the card lies.
    known: Vec<Vec<bool>>,
    /// Each card's location at the last decision.
    last_loc: Vec<Slot>,
    /// Each location's cards at the last decision.
    last_locs: Vec<Vec<CardId>>,
}

impl Seen {
    /// What each seat knows at a decision when nothing was kept before:
    /// the cards it sees now.
    pub fn new(tabs: &Tables, table: &Table) -> Seen {
        let mut seen = Seen {
            known: vec![Vec::new(); table.players],
            last_loc: table.card_loc.clone(),
            last_locs: table.locs.clone(),
        };
        seen.update(tabs, table);
        seen
    }

    /// Brings what each seat knows up to the decision `table` is at:
    /// - a card it sees now, or saw at the last decision, is known (a card
    ///   seen going into hiding is known to be where it went);
    /// - a card that moved between two places the seat does not see is no
    ///   longer known, and neither is any card of the place it left (the
    ///   seat cannot tell which card went);
    /// - the cards of a place the seat does not see whose order changed
    ///   (a shuffle) are no longer known.
    pub fn update(&mut self, tabs: &Tables, table: &Table) {
        let cards = table.card_loc.len();
        for (p, known) in self.known.iter_mut().enumerate() {
            known.resize(cards, false);
            let shown = |slot: Slot| view::shown_to(tabs, table, slot, p);
            let mut disturbed: Vec<Slot> = Vec::new();
            for (c, &now) in table.card_loc.iter().enumerate() {
                let before = self.last_loc.get(c).copied().unwrap_or(now);
                if shown(now) || (before != now && shown(before)) {
                    known[c] = true;
                } else if before != now {
                    known[c] = false;
                    disturbed.push(before);
                }
            }
            for (slot, cards_now) in table.locs.iter().enumerate() {
                let slot = slot as Slot;
                let before: &[CardId] = self.last_locs.get(slot as usize).map_or(&[], |v| v);
                if cards_now.is_empty() || shown(slot) {
                    continue;
                }
                let stayed_now = cards_now.iter().filter(|c| before.contains(c));
                let stayed_before = before.iter().filter(|c| cards_now.contains(c));
                if !stayed_now.eq(stayed_before) {
                    disturbed.push(slot);
                }
            }
            for slot in disturbed {
                for &c in &table.locs[slot as usize] {
                    if table.card_loc[c as usize] == slot {
                        known[c as usize] = false;
                    }
                }
            }
        }
        self.last_loc.clone_from(&table.card_loc);
        if self.last_locs.len() == table.locs.len() {
            for (to, from) in self.last_locs.iter_mut().zip(&table.locs) {
                to.clone_from(from);
            }
        } else {
            self.last_locs.clone_from(&table.locs);
        }
    }

    /// Whether `seat` knows where card `c` lies.
    pub fn knows(&self, seat: usize, c: CardId) -> bool {
        self.known
            .get(seat)
            .and_then(|k| k.get(c as usize))
            .copied()
            .unwrap_or(false)
    }
}

impl State {
    /// Starts keeping what each seat has seen, from what it sees now.
    pub(super) fn start_seen(&mut self) {
        let table = self.table.get_mut();
        table.seen = Some(Box::new(Seen::new(&self.tabs, table)));
    }

    /// Brings what each seat has seen up to the decision reached (nothing
    /// when it is not kept).
    pub(super) fn note_seen(&mut self) {
        let table = self.table.get_mut();
        if let Some(mut seen) = table.seen.take() {
            seen.update(&self.tabs, table);
            table.seen = Some(seen);
        }
    }

    /// A state `observer` cannot tell from this one (see the module doc),
    /// drawn from `rng`; nothing seen is kept in it.
    pub(super) fn resampled(&self, observer: usize, rng: &mut GameRng) -> State {
        let mut s = self.clone();
        let running = s.running();
        {
            let tabs: &Tables = &s.tabs;
            let t = s.table.get_mut();
            let seen = t.seen.take();
            let knows = |c: CardId| seen.as_ref().is_some_and(|k| k.knows(observer, c));
            // The places of the cards to deal, in the table's order, and
            // the cards in the order of their ids: both depend only on what
            // the observer sees and knows, not on where the cards truly lie.
            let mut places: Vec<(Slot, usize)> = Vec::new();
            let mut cards: Vec<CardId> = Vec::new();
            for (slot, held) in t.locs.iter().enumerate() {
                let slot = slot as Slot;
                if held.is_empty() || kind_of(tabs, slot) == LocKind::Memory {
                    continue;
                }
                if view::shown_to(tabs, t, slot, observer) {
                    continue;
                }
                for (i, &c) in held.iter().enumerate() {
                    if t.card_loc[c as usize] == slot && !knows(c) {
                        places.push((slot, i));
                        cards.push(c);
                    }
                }
            }
            cards.sort_unstable();
            shuffle(rng, &mut cards);
            let mut last = None;
            for (&(slot, i), &c) in places.iter().zip(&cards) {
                t.locs[slot as usize][i] = c;
                t.card_loc[c as usize] = slot;
                if last != Some(slot) {
                    spaceset::touch(t, tabs.loc_count, slot);
                    last = Some(slot);
                }
            }
            t.rng = GameRng::new(rand::Rng::next_u64(rng));
        }
        if running {
            // The moves of the decision are found anew on the new table.
            *s.legal.get_mut() = None;
            *s.sampled.get_mut() = None;
            s.plan = None;
            if let Err(e) = s.advance() {
                s.fail(e);
            }
        }
        s
    }
}

/// The kind of location `slot` is.
fn kind_of(tabs: &Tables, slot: Slot) -> LocKind {
    let (_, id) = Table::slot_parts(slot, tabs.loc_count);
    tabs.prog.loc_names[id as usize].kind
}
