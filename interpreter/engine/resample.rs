//! What each seat has seen, and states resampled from it
//! ([`GameState::resample`](crate::game::GameState::resample)): every card
//! a seat cannot see now and has not seen is dealt anew among the places of
//! such cards, everything it sees kept (docs/search.md says what "seen"
//! covers).
//!
//! A seat sees the table at every decision (anyone's), as its observation
//! shows it ([`view::shown_to`]): the cards of the places it sees and the
//! number of cards of the others; it also sees every shuffle. What happens
//! between two decisions is not seen, and what a seat knows is a function
//! of what it observed only ([`Seen::update`]). [`Seen`] is kept only when asked
//! ([`GameState::keep_seen`](crate::game::GameState::keep_seen)) and is
//! brought up to date after every move.

use super::state::{CardId, Slot, Table};
use super::{spaceset, view, State, Tables};
use crate::ir::LocKind;
use crate::random::{shuffle, GameRng};

/// Which location each seat knows each card to lie in, and the table as
/// it was at the last decision.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Per seat, per card: the location the seat knows the card lies in.
    known: Vec<Vec<Option<Slot>>>,
    /// Each card's location at the last decision.
    last_loc: Vec<Slot>,
    /// Each location's number of cards at the last decision.
    last_len: Vec<usize>,
    /// The locations shuffled since the last decision.
    shuffled: Vec<Slot>,
}

impl Seen {
    /// What each seat knows at a decision when nothing was kept before:
    /// the cards it sees now.
    pub fn new(tabs: &Tables, table: &Table) -> Seen {
        let mut seen = Seen {
            known: vec![Vec::new(); table.players],
            last_loc: table.card_loc.clone(),
            last_len: table.locs.iter().map(Vec::len).collect(),
            shuffled: Vec::new(),
        };
        seen.update(tabs, table);
        seen
    }

    /// Notes that location `slot` was shuffled (a shuffle is seen by all).
    pub fn shuffled(&mut self, slot: Slot) {
        if !self.shuffled.contains(&slot) {
            self.shuffled.push(slot);
        }
    }

    /// Brings what each seat knows up to the decision `table` is at, from
    /// what the seat observes only: the cards of the places it sees, the
    /// number of cards of the others, and the shuffles.
    /// - a card in a place it sees is known there;
    /// - a place it does not see whose number of cards changed, or that was
    ///   shuffled, is *disturbed*: every card known to lie in it is
    ///   forgotten (the seat cannot tell which cards went or came);
    /// - cards that left the places it sees for places it does not see
    ///   are known only when exactly one place it does not see gained
    ///   cards, by as many as left: they lie there. Otherwise they are
    ///   forgotten.
    pub fn update(&mut self, tabs: &Tables, table: &Table) {
        let cards = table.card_loc.len();
        for (p, known) in self.known.iter_mut().enumerate() {
            known.resize(cards, None);
            let shown = |slot: Slot| view::shown_to(tabs, table, slot, p);
            let last_len = |slot: usize| self.last_len.get(slot).copied().unwrap_or(0);
            let mut disturbed = vec![false; table.locs.len()];
            let mut gained: Vec<(Slot, usize)> = Vec::new();
            for (slot, held) in table.locs.iter().enumerate() {
                if shown(slot as Slot) {
                    continue;
                }
                let before = last_len(slot);
                disturbed[slot] = held.len() != before || self.shuffled.contains(&(slot as Slot));
                if held.len() > before {
                    gained.push((slot as Slot, held.len() - before));
                }
            }
            // Forget what lay in a disturbed place, before learning anew.
            for k in known.iter_mut() {
                if k.is_some_and(|slot| disturbed.get(slot as usize) == Some(&true)) {
                    *k = None;
                }
            }
            let mut hidden_away: Vec<usize> = Vec::new();
            for (c, &now) in table.card_loc.iter().enumerate() {
                let before = self.last_loc.get(c).copied();
                if shown(now) {
                    known[c] = Some(now);
                } else if before.is_some_and(shown) {
                    // The seat saw it at the last decision and not now.
                    hidden_away.push(c);
                }
            }
            let went_to = match gained.as_slice() {
                [(slot, n)] if *n == hidden_away.len() => Some(*slot),
                _ => None,
            };
            for c in hidden_away {
                known[c] = went_to;
            }
        }
        self.last_loc.clone_from(&table.card_loc);
        self.last_len.clear();
        self.last_len.extend(table.locs.iter().map(Vec::len));
        self.shuffled.clear();
    }

    /// The location `seat` knows card `c` to lie in, if any.
    pub fn known_at(&self, seat: usize, c: CardId) -> Option<Slot> {
        self.known.get(seat)?.get(c as usize).copied().flatten()
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
            // A card stays where it lies only when the observer knows it
            // lies there (what it knows can be wrong only after moves it
            // could not observe at all: such a card is dealt anew).
            let knows = |c: CardId, slot: Slot| {
                seen.as_ref()
                    .is_some_and(|k| k.known_at(observer, c) == Some(slot))
            };
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
                    if t.card_loc[c as usize] == slot && !knows(c, slot) {
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
