//! The `decks` line of a position: which `create deck` forms made the
//! game's cards, so that a game that creates cards during play (after the
//! first decision) can be saved and loaded like any other.
//!
//! A table's cards are the rows of the decks created so far, one deck after
//! the other, in the order they were created. Saving finds a list of the
//! rules' decks whose rows, laid end to end, are the table's cards (two
//! forms that make the same cards are interchangeable: either gives the
//! same table); loading lays the listed decks' rows end to end and places
//! the cards by name as usual.

use super::*;
use crate::engine::create::{deck_cards, deck_size};
use crate::ir::Deck;

/// The rows of `deck` (its number of cards and their attribute values,
/// `width` per card), made once per rules file as playing does.
fn rows(deck: &Deck, width: usize) -> &(usize, Vec<Sym>) {
    deck.rows.get_or_init(|| {
        let cards = deck_cards(deck, width);
        (cards.len(), cards.concat())
    })
}

/// The numbers (in [`Program::decks`](crate::ir::Program)) of decks whose
/// rows, end to end, are the cards of `table`; `None` when there is no
/// such list (cards not made by `create deck`).
pub(super) fn decks_of(tabs: &Tables, table: &Table) -> Option<Vec<usize>> {
    let width = table.attr_width;
    let cards = table.card_count();
    let decks: Vec<(usize, &[Sym])> = tabs
        .prog
        .decks
        .iter()
        .map(|d| match deck_size(d) {
            // A deck larger than the table has no part in it: its cards
            // are not made (a product of attributes may have 10^12).
            Some(n) if n <= cards as u64 => {
                let (n, r) = rows(d, width);
                (*n, r.as_slice())
            }
            _ => (0, &[][..]),
        })
        .collect();
    // came[i]: the deck that ends a list covering the first i cards.
    let mut came: Vec<Option<usize>> = vec![None; cards + 1];
    let mut reached = vec![false; cards + 1];
    reached[0] = true;
    for at in 0..cards {
        if !reached[at] {
            continue;
        }
        for (d, &(n, r)) in decks.iter().enumerate() {
            let end = at + n;
            if n == 0 || end > cards || reached[end] {
                continue;
            }
            if table.cards.get(at * width..end * width) == Some(r) {
                reached[end] = true;
                came[end] = Some(d);
            }
        }
    }
    if !reached[cards] {
        return None;
    }
    let mut list = Vec::new();
    let mut at = cards;
    while at > 0 {
        let d = came[at]?;
        list.push(d);
        at -= decks[d].0;
    }
    list.reverse();
    Some(list)
}

/// Reads a `decks` line (`0 1 1`) and makes the table's cards the rows of
/// those decks, end to end, none of them placed yet; more cards than a game
/// may have in play (`--max-cards`) are refused before any is made.
pub(super) fn lay_decks(
    tabs: &Tables,
    table: &mut Table,
    no: usize,
    text: &str,
) -> Result<(), PositionError> {
    let decks = &tabs.prog.decks;
    let width = table.attr_width;
    let mut list = Vec::new();
    let mut total = 0u64;
    for tok in text.split_whitespace() {
        let d: usize = parse_num(no, tok, "a deck number")?;
        let Some(deck) = decks.get(d) else {
            return err(
                no,
                format!(
                    "there is no deck {d}: the rules have {} `create deck` forms, numbered from 0 in the order they appear in the file",
                    decks.len()
                ),
            );
        };
        let max = tabs.limits.cards;
        total = match deck_size(deck).and_then(|n| n.checked_add(total)) {
            Some(n) if n <= max => n,
            _ => {
                return err(
                    no,
                    format!("the decks make more than {max} cards (the limit of --max-cards)"),
                )
            }
        };
        list.push(deck);
    }
    let mut cards = Vec::with_capacity(total as usize * width);
    for deck in list {
        cards.extend_from_slice(&rows(deck, width).1);
    }
    table.cards = Arc::new(cards);
    table.card_loc = vec![UNPLACED; total as usize];
    Ok(())
}
