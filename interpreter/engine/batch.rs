//! `repeat all (move A B)` of many cards in one pass over the piles.
//!
//! Moving a card out of the middle of a pile of n cards shifts the cards
//! above it (and finding it looks at them), so moving k cards of a pile
//! one by one, each from under the others (the cards of one colour of a
//! mixed pool of 262,144 tokens, `(repeat all (move (top (filter POOL ...))
//! ...))`), costs about k x n: minutes where a pass over the pile is
//! milliseconds. [`Machine::move_all`] makes the same moves, with the same
//! journal entries and log lines, in one pass over the source pile, when
//! the moves cannot see the difference: the cards all come from one pile,
//! in the order they lie in it (top first or bottom first), and go to the
//! top or bottom of another location named without reading any pile (so
//! the place each card goes is the same whether the source pile has
//! shrunk yet or not). Otherwise the cards are moved one by one.

use super::eval::R;
use super::exec::Machine;
use super::spaceset::touch;
use super::state::CardId;
use crate::ir::*;

/// The fewest cards moved in one pass (fewer are moved one by one).
pub(super) const BATCH: usize = 16;

impl Machine<'_> {
    /// Moves the cards of `order`, first to last, to `to`, as that many
    /// `move`s would: the same changes, journal entries, log lines and
    /// `(last moved)`, in time linear in the piles. Returns false, having
    /// done nothing, when it cannot (see the module doc): the caller then
    /// moves them one by one.
    pub(super) fn move_all(&mut self, order: &[CardId], to: &CardExpr) -> R<bool> {
        let CardExpr::At(pos @ (Pos::Top | Pos::Bottom), cards) = to else {
            return Ok(false);
        };
        let CardsExpr::Location(l) = &**cards else {
            return Ok(false);
        };
        let Some(&first) = order.first() else {
            return Ok(false);
        };
        if !stable_location(l) {
            return Ok(false);
        }
        let src = self.table.card_loc[first as usize];
        let dest = self.location(l)?;
        if dest == src {
            return Ok(false);
        }
        let Some((at, down)) = places(&self.table.locs[src as usize], order) else {
            return Ok(false);
        };
        let n = self.table.locs[src as usize].len();
        let dest_len = self.table.locs[dest as usize].len();
        self.charge(n + dest_len + order.len())?;
        // The journal and the log as the moves one by one write them.
        let mut last = self.table.last_moved;
        for (j, (&card, &i)) in order.iter().zip(&at).enumerate() {
            // Top first: nothing under a card has moved yet; bottom first:
            // the j cards under it have.
            let from_idx = if down { i } else { i - j };
            let to_idx = match pos {
                Pos::Bottom => 0,
                _ => dest_len + j,
            };
            self.record(|_| super::journal::Undo::Moved {
                card,
                from: src,
                from_idx,
                to: dest,
                to_idx,
                last,
            });
            self.log(|m| m.move_text(card, src, dest));
            last = Some(card);
        }
        // The piles, in one pass each.
        let mut gone = at;
        gone.sort_unstable();
        let (mut k, mut i) = (0, 0);
        self.table.locs[src as usize].retain(|_| {
            let out = gone.get(k) == Some(&i);
            k += usize::from(out);
            i += 1;
            !out
        });
        let to_pile = &mut self.table.locs[dest as usize];
        match pos {
            Pos::Bottom => drop(to_pile.splice(0..0, order.iter().rev().copied())),
            _ => to_pile.extend_from_slice(order),
        }
        for &card in order {
            self.table.card_loc[card as usize] = dest;
        }
        self.table.last_moved = last;
        self.actions += order.len() as u32;
        touch(self.table, self.tabs.loc_count, src);
        touch(self.table, self.tabs.loc_count, dest);
        Ok(true)
    }
}

/// Where each card of `order` lies in `pile`, and whether they come top
/// first (true) or bottom first; `None` when they are not all in the pile
/// in one of those orders (each once).
fn places(pile: &[CardId], order: &[CardId]) -> Option<(Vec<usize>, bool)> {
    let find = |indices: &mut dyn Iterator<Item = usize>| {
        let mut at = Vec::with_capacity(order.len());
        for i in indices {
            if at.len() == order.len() {
                break;
            }
            if pile[i] == order[at.len()] {
                at.push(i);
            }
        }
        (at.len() == order.len()).then_some(at)
    };
    if let Some(at) = find(&mut (0..pile.len()).rev()) {
        return Some((at, true));
    }
    find(&mut (0..pile.len())).map(|at| (at, false))
}

/// Whether `cards` is a location named without reading any pile (see
/// [`stable_location`]).
pub(super) fn stable_cards(cards: &CardsExpr) -> bool {
    matches!(cards, CardsExpr::Location(l) if stable_location(l))
}

/// Whether a location is named without reading any pile or storage (a
/// fixed name; the game, a player or a team named by a variable, by seat
/// number or relative to the current one; a space by a variable or fixed
/// coordinates), so that it is the same location before and after cards
/// move.
fn stable_location(l: &LocationExpr) -> bool {
    let plain = |i: &IntExpr| matches!(i, IntExpr::Lit(_) | IntExpr::Var(_));
    let player = |p: &PlayerExpr| match p {
        PlayerExpr::Current | PlayerExpr::Next | PlayerExpr::Previous | PlayerExpr::Var(_) => true,
        PlayerExpr::Index(i) => plain(i),
        PlayerExpr::OwnerOf(_) | PlayerExpr::If(_) => false,
    };
    matches!(l.name, NameRef::Fixed(_))
        && match &l.owner {
            OwnerExpr::Game => true,
            OwnerExpr::Player(p) => player(p),
            OwnerExpr::Team(t) => match t {
                TeamExpr::Current | TeamExpr::Next | TeamExpr::Previous | TeamExpr::Var(_) => true,
                TeamExpr::Index(i) => plain(i),
                TeamExpr::OfPlayer(p) => player(p),
            },
            OwnerExpr::Space(s) => match s {
                SpaceExpr::Var(_) => true,
                SpaceExpr::At { coords, .. } => coords.iter().all(plain),
                _ => false,
            },
        }
}
