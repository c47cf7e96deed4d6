//! What `(create teams ...)` and `(create deck ...)` make: the teams of a
//! table, and every card of a deck as its attribute values.

use super::eval::R;
use super::state::Table;
use crate::ir::{Deck, DeckDim, Sym, EMPTY};

/// Sets the teams from `(create teams ...)` (players not named get a team
/// of their own).
pub fn set_teams(table: &mut Table, teams: &[Vec<u8>]) -> R<()> {
    let n = table.players;
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut of = vec![u8::MAX; n];
    for t in teams {
        let mut members = Vec::new();
        for &p in t {
            if p as usize >= n {
                return Err(format!("team member {p}: there are only {n} players").into());
            }
            of[p as usize] = out.len() as u8;
            members.push(p);
        }
        out.push(members);
    }
    for (p, team) in of.iter_mut().enumerate() {
        if *team == u8::MAX {
            *team = out.len() as u8;
            out.push(vec![p as u8]);
        }
    }
    if out.len() > n {
        return Err("more teams than players".into());
    }
    table.teams = out;
    table.team_of = of;
    Ok(())
}

/// The number of cards of a deck, without making them; `None` when it is
/// past 2^64.
pub fn deck_size(deck: &Deck) -> Option<u64> {
    deck.dims
        .iter()
        .try_fold(1u64, |n, dim| n.checked_mul(dim_size(dim)?))
}

/// The cards one partial card becomes in [`expand`].
fn dim_size(dim: &DeckDim) -> Option<u64> {
    dim.groups.iter().try_fold(0u64, |n, group| {
        let subs = group
            .sub
            .iter()
            .try_fold(1u64, |k, s| k.checked_mul(dim_size(s)?))?;
        n.checked_add((group.values.len() as u64).checked_mul(subs)?)
    })
}

/// Every card of a deck, as attribute vectors `width` wide.
pub fn deck_cards(deck: &Deck, width: usize) -> Vec<Vec<Sym>> {
    let mut out = vec![vec![EMPTY; width]];
    for dim in &deck.dims {
        out = expand(out, dim);
    }
    out
}

fn expand(partials: Vec<Vec<Sym>>, dim: &DeckDim) -> Vec<Vec<Sym>> {
    let mut out = Vec::new();
    for p in partials {
        for group in &dim.groups {
            for &value in &group.values {
                let mut c = p.clone();
                if let Some(slot) = c.get_mut(dim.key as usize) {
                    *slot = value;
                }
                let mut sub = vec![c];
                for s in &group.sub {
                    sub = expand(sub, s);
                }
                out.extend(sub);
            }
        }
    }
    out
}
