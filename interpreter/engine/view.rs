//! Text views of the table: card and location names, the whole table (for
//! transcripts) and one player's observation (hidden cards as counts only).

use super::state::{visible_to, CardId, OwnerId, Slot, Table};
use super::Tables;
use crate::ir::{LocKind, EMPTY};
use std::fmt::Write as _;

/// A card as its attribute values joined by `-`, e.g. `TEN-RED-HEARTS`.
pub fn card_name(tabs: &Tables, table: &Table, id: CardId) -> String {
    let attrs = table.attrs(id);
    let parts: Vec<&str> = attrs
        .iter()
        .filter(|s| **s != EMPTY)
        .map(|s| tabs.prog.symbols[*s as usize].as_str())
        .collect();
    if parts.is_empty() {
        format!("#{id}")
    } else {
        parts.join("-")
    }
}

/// An owner's name: `game`, `p0`.., `team0`...
pub fn owner_name(table: &Table, owner: OwnerId) -> String {
    let players = table.players;
    if let Some(space) = table.owner_space(owner) {
        table.boards.name(space)
    } else if owner == 0 {
        "game".to_string()
    } else if (owner as usize) <= players {
        format!("p{}", owner - 1)
    } else {
        format!("team{}", owner as usize - 1 - players)
    }
}

/// A location kind as `describe` and positions write it.
pub(super) fn kind_word(kind: LocKind) -> &'static str {
    match kind {
        LocKind::Visible => "vloc",
        LocKind::Invisible => "iloc",
        LocKind::Hidden => "hloc",
        LocKind::Others => "oloc",
        LocKind::Memory => "mem",
    }
}

/// A location's name, e.g. `p1 HAND` (`game mem LEAD` for memory).
pub fn slot_name(tabs: &Tables, table: &Table, slot: Slot) -> String {
    let (owner, id) = Table::slot_parts(slot, tabs.loc_count);
    let ln = tabs.prog.loc_names[id as usize];
    let name = &tabs.prog.symbols[ln.name as usize];
    match ln.kind {
        LocKind::Memory => format!("{} mem {name}", owner_name(table, owner)),
        _ => format!("{} {name}", owner_name(table, owner)),
    }
}

/// A storage's name from its flat index, e.g. `p0 SCORE`.
pub fn storage_name(tabs: &Tables, table: &Table, i: usize, count: usize, names: &[u32]) -> String {
    let owner = (i / count.max(1)) as OwnerId;
    let name = names
        .get(i % count.max(1))
        .map(|s| tabs.prog.symbols[*s as usize].as_str())
        .unwrap_or("?");
    format!("{} {name}", owner_name(table, owner))
}

/// Whether seat `viewer` sees the faces of the cards in `slot`: its kind
/// (`vloc` and `mem` by all, `iloc` by its owner, a team's `iloc` by the
/// team's members, `hloc` by nobody). Observations show these, and only
/// these, faces; search's resampling keeps them.
pub fn shown_to(tabs: &Tables, table: &Table, slot: Slot, viewer: usize) -> bool {
    let (owner, id) = Table::slot_parts(slot, tabs.loc_count);
    let Some(ln) = tabs.prog.loc_names.get(id as usize) else {
        return false;
    };
    let viewer_owner = Table::player_owner(viewer);
    let team_member = || {
        let t = owner as usize;
        t > table.players
            && table
                .teams
                .get(t - 1 - table.players)
                .is_some_and(|m| m.contains(&(viewer as u8)))
    };
    visible_to(ln.kind, owner, Some(viewer_owner))
        || (ln.kind == LocKind::Invisible && team_member())
}

/// The table as `viewer` sees it (`None`: everything, for transcripts).
pub fn render(tabs: &Tables, table: &Table, viewer: Option<usize>) -> String {
    let mut out = String::new();
    let people = 1 + table.players + table.teams.len();
    let spaces = table.space_owner(0)..table.space_owner(table.boards.space_count());
    for owner in (0..people as OwnerId).chain(spaces) {
        let mut lines = Vec::new();
        for (id, ln) in tabs.prog.loc_names.iter().enumerate() {
            let slot = owner * tabs.loc_count as u32 + id as u32;
            let cards = &table.locs[slot as usize];
            if cards.is_empty() {
                continue;
            }
            let seen = viewer.is_none_or(|v| shown_to(tabs, table, slot, v));
            let name = format!(
                "{} {}",
                kind_word(ln.kind),
                tabs.prog.symbols[ln.name as usize]
            );
            if seen {
                let names: Vec<String> = cards
                    .iter()
                    .rev()
                    .map(|c| card_name(tabs, table, *c))
                    .collect();
                lines.push(format!("  {name} ({}): {}", cards.len(), names.join(" ")));
            } else {
                lines.push(format!("  {name} ({}): hidden", cards.len()));
            }
        }
        for (id, s) in tabs.prog.int_names.iter().enumerate() {
            let v = table.ints[owner as usize * tabs.int_count + id];
            if v != 0 {
                lines.push(format!("  sto {} = {v}", tabs.prog.symbols[*s as usize]));
            }
        }
        for (id, s) in tabs.prog.str_names.iter().enumerate() {
            let v = table.strs[owner as usize * tabs.str_count + id];
            if v != EMPTY {
                lines.push(format!(
                    "  str {} = {}",
                    tabs.prog.symbols[*s as usize], tabs.prog.symbols[v as usize]
                ));
            }
        }
        if !lines.is_empty() {
            let _ = writeln!(out, "{}:", owner_name(table, owner));
            for l in lines {
                let _ = writeln!(out, "{l}");
            }
        }
    }
    out
}
