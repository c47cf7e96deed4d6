//! Views of the table: card and location names, the table as one seat
//! sees it (hidden cards as counts only: the structured observation of
//! `crate::observation`) or whole (for transcripts), and which cards the
//! text of a move may name for a seat ([`Reader`]).

use super::state::{visible_to, CardId, OwnerId, PointMap, Slot, Table};
use super::Tables;
use crate::ir::{LocKind, EMPTY};
use crate::observation::{
    Award, BoardView, CardView, LocationView, Observation, OwnerView, SpaceView, StorageValue,
    StorageView,
};

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
    kind.word()
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

/// A location as a move's step names it: owner, name, kind, and the
/// owner's space on its board.
pub fn place(tabs: &Tables, table: &Table, slot: Slot) -> crate::step::Place {
    let (owner, id) = Table::slot_parts(slot, tabs.loc_count);
    use crate::step::PlaceKind;
    let (location, kind) = match tabs.prog.loc_names.get(id as usize) {
        Some(ln) => (
            tabs.prog.symbols[ln.name as usize].clone(),
            match ln.kind {
                LocKind::Visible => PlaceKind::Vloc,
                LocKind::Invisible => PlaceKind::Iloc,
                LocKind::Hidden => PlaceKind::Hloc,
                LocKind::Others => PlaceKind::Oloc,
                LocKind::Memory => PlaceKind::Mem,
            },
        ),
        None => ("?".to_string(), PlaceKind::Hloc),
    };
    crate::step::Place {
        owner: owner_name(table, owner),
        location,
        kind,
        space: space_at(table, owner),
    }
}

/// The board and coordinates of `owner` when it is a space (a track's
/// space is row 0, its index the column, as observations place it).
pub fn space_at(table: &Table, owner: OwnerId) -> Option<crate::step::SpaceAt> {
    let s = table.owner_space(owner)?;
    let b = table.boards.of(s)?;
    let (row, col) = if b.track {
        (0, s - b.first)
    } else {
        b.coords(s)
    };
    Some(crate::step::SpaceAt {
        board: b.name.to_string(),
        row,
        col,
    })
}

/// A storage as a move's step names it, from its flat index.
pub fn storage_at(
    tabs: &Tables,
    table: &Table,
    i: usize,
    (kind, count, names): (crate::step::StorageKind, usize, &[u32]),
) -> crate::step::StorageAt {
    let owner = (i / count.max(1)) as OwnerId;
    let name = names
        .get(i % count.max(1))
        .map(|s| tabs.prog.symbols[*s as usize].clone())
        .unwrap_or_else(|| "?".to_string());
    crate::step::StorageAt {
        owner: owner_name(table, owner),
        kind,
        name,
        space: space_at(table, owner),
    }
}

/// Whether seat `viewer` sees the faces of the cards in `slot`: its kind
/// (`vloc` and `mem` by all, `iloc` by its owner, a team's `iloc` by the
/// team's members, `hloc` by nobody, `oloc` by all but its owner, a
/// team's `oloc` by all but the team's members). Observations show these,
/// and only these, faces; search's resampling keeps them.
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
    match ln.kind {
        LocKind::Invisible => visible_to(ln.kind, owner, Some(viewer_owner)) || team_member(),
        LocKind::Others => visible_to(ln.kind, owner, Some(viewer_owner)) && !team_member(),
        kind => visible_to(kind, owner, Some(viewer_owner)),
    }
}

/// The table as `viewer` sees it (`None`: everything, for transcripts),
/// as text: [`Observation::table_text`] of [`table_view`].
pub fn render(tabs: &Tables, table: &Table, viewer: Option<usize>) -> String {
    let (owners, boards) = table_view(tabs, table, viewer);
    Observation {
        owners,
        boards,
        ..Observation::default()
    }
    .table_text()
}

/// The owners (game, players, teams) and the boards as `viewer` sees them
/// (`None`: every face): locations whose faces the viewer may not see
/// ([`shown_to`]) have their count only.
pub fn table_view(
    tabs: &Tables,
    table: &Table,
    viewer: Option<usize>,
) -> (Vec<OwnerView>, Vec<crate::observation::BoardView>) {
    let people = 1 + table.players + table.teams.len();
    let owners = (0..people as OwnerId)
        .map(|owner| owner_view(tabs, table, owner, viewer))
        .filter(|o| !o.locations.is_empty() || !o.storages.is_empty())
        .collect();
    let boards = table
        .boards
        .boards
        .iter()
        .map(|b| {
            let spaces = (b.first..b.first + b.len())
                .filter_map(|s| {
                    let contents = owner_view(tabs, table, table.space_owner(s), viewer);
                    if contents.locations.is_empty() && contents.storages.is_empty() {
                        return None;
                    }
                    let (row, col) = if b.track {
                        (0, s - b.first)
                    } else {
                        b.coords(s)
                    };
                    Some(SpaceView { row, col, contents })
                })
                .collect();
            let shape = if b.track {
                "track"
            } else if b.graph {
                "graph"
            } else if b.hex && b.layout.is_some() {
                "hexagon"
            } else if b.hex {
                "hex"
            } else {
                "grid"
            };
            let (points, links) = graph_view(b);
            BoardView {
                name: b.name.to_string(),
                shape: shape.to_string(),
                rows: b.rows,
                cols: b.cols,
                wrap_rows: b.wrap_rows,
                wrap_cols: b.wrap_cols,
                spaces,
                points,
                links,
            }
        })
        .collect();
    (owners, boards)
}

/// A graph board's points and links (each link once, from the point of
/// the smaller number), as observations give them; empty for any other
/// board.
fn graph_view(
    b: &super::board::BoardGeom,
) -> (
    Vec<crate::observation::PointView>,
    Vec<crate::observation::LinkView>,
) {
    let Some(l) = b.layout.as_ref().filter(|_| b.graph) else {
        return (Vec::new(), Vec::new());
    };
    let points = l
        .names
        .iter()
        .zip(&l.coords)
        .map(|(n, &(row, col))| crate::observation::PointView {
            name: n.to_string(),
            row,
            col,
        })
        .collect();
    let mut links = Vec::new();
    for (a, near) in l.links.iter().enumerate() {
        for &n in near
            .iter()
            .filter(|&&n| (n as usize) > a && (n as usize) < l.names.len())
        {
            let dir = super::board::Dir::ALL
                .iter()
                .find(|d| l.steps[a][**d as usize] == n)
                .map(|d| d.name().to_string());
            links.push(crate::observation::LinkView {
                from: a as u32,
                to: n,
                dir,
            });
        }
    }
    (points, links)
}

/// One owner's non-empty locations and non-empty storages.
fn owner_view(tabs: &Tables, table: &Table, owner: OwnerId, viewer: Option<usize>) -> OwnerView {
    let sym = |s: u32| tabs.prog.symbols[s as usize].clone();
    let mut locations = Vec::new();
    for (id, ln) in tabs.prog.loc_names.iter().enumerate() {
        let slot = owner * tabs.loc_count as u32 + id as u32;
        let Some(cards) = table.locs.get(slot as usize) else {
            continue;
        };
        if cards.is_empty() {
            continue;
        }
        let seen = viewer.is_none_or(|v| shown_to(tabs, table, slot, v));
        locations.push(LocationView {
            name: sym(ln.name),
            kind: kind_word(ln.kind).to_string(),
            count: cards.len(),
            cards: seen.then(|| {
                cards
                    .iter()
                    .rev()
                    .map(|c| card_view(tabs, table, *c))
                    .collect()
            }),
        });
    }
    let mut storages = Vec::new();
    for (id, s) in tabs.prog.int_names.iter().enumerate() {
        let v = table.ints[owner as usize * tabs.int_count + id];
        if v != 0 {
            storages.push(StorageView {
                kind: "sto".to_string(),
                name: sym(*s),
                value: StorageValue::Int(v),
            });
        }
    }
    for (id, s) in tabs.prog.str_names.iter().enumerate() {
        let v = table.strs[owner as usize * tabs.str_count + id];
        if v != EMPTY {
            storages.push(StorageView {
                kind: "str".to_string(),
                name: sym(*s),
                value: StorageValue::Text(sym(v)),
            });
        }
    }
    for (id, s) in tabs.prog.point_names.iter().enumerate() {
        if let Some(Some(map)) = table.points.get(owner as usize * tabs.point_count + id) {
            storages.push(StorageView {
                kind: "points".to_string(),
                name: sym(*s),
                value: StorageValue::Points(awards(tabs, map)),
            });
        }
    }
    OwnerView {
        owner: owner_name(table, owner),
        locations,
        storages,
    }
}

/// A card's face: its name and its attributes.
pub fn card_view(tabs: &Tables, table: &Table, id: CardId) -> CardView {
    let attrs = table
        .attrs(id)
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != EMPTY)
        .filter_map(|(k, v)| {
            let key = tabs.prog.attr_keys.get(k)?;
            Some((
                tabs.prog.symbols[*key as usize].clone(),
                tabs.prog.symbols[*v as usize].clone(),
            ))
        })
        .collect();
    CardView {
        name: card_name(tabs, table, id),
        attrs,
    }
}

/// A point map's awards.
fn awards(tabs: &Tables, map: &PointMap) -> Vec<Award> {
    let sym = |s: u32| tabs.prog.symbols[s as usize].clone();
    map.awards
        .iter()
        .map(|(conds, points)| Award {
            when: conds
                .iter()
                .map(|(key, value)| {
                    let key = key
                        .and_then(|k| tabs.prog.attr_keys.get(k as usize))
                        .map_or_else(|| "?".to_string(), |s| sym(*s));
                    (key, sym(*value))
                })
                .collect(),
            points: *points,
        })
        .collect()
}

/// Whom the text of a move is written for: the cards it moves are named
/// only where this seat sees them (else `a card`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reader {
    /// The seat reading.
    pub seat: usize,
    /// Whether the move is being played (the seat sees where a card
    /// lands, too) rather than offered (a card is named only if the seat
    /// sees it where it lies now: a move offered must not show the face
    /// of the card it would draw).
    pub played: bool,
}

impl Reader {
    /// Whether the text of a move of a card from `from` to `dest` may
    /// name the card for this reader.
    pub fn sees(&self, tabs: &Tables, table: &Table, from: Slot, dest: Slot) -> bool {
        shown_to(tabs, table, from, self.seat)
            || (self.played && shown_to(tabs, table, dest, self.seat))
    }
}

/// `text` (a rules error's account, which names the move that failed as
/// everyone's text writes it) with every word that is the name of a card
/// `viewer` may not see, and of no card it sees, written `a card`.
pub fn redact(tabs: &Tables, table: &Table, viewer: usize, text: &str) -> String {
    let mut hidden = std::collections::HashSet::new();
    let mut shown = std::collections::HashSet::new();
    for (slot, cards) in table.locs.iter().enumerate() {
        if cards.is_empty() {
            continue;
        }
        let into = match shown_to(tabs, table, slot as Slot, viewer) {
            true => &mut shown,
            false => &mut hidden,
        };
        into.extend(cards.iter().map(|c| card_name(tabs, table, *c)));
    }
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let in_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-' || c == '#';
    for c in text.chars().chain(std::iter::once(' ')) {
        if in_word(c) {
            word.push(c);
            continue;
        }
        if hidden.contains(&word) && !shown.contains(&word) {
            out.push_str("a card");
        } else {
            out.push_str(&word);
        }
        word.clear();
        out.push(c);
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use crate::engine::{GameOptions, Rules};

    /// A rules error's words that name a card: kept for a seat that sees
    /// it, `a card` for one that does not.
    #[test]
    fn redact_writes_hidden_cards_as_a_card() {
        let rules = Rules::from_source(
            "hands.rcy",
            "(game
 (setup (create players 2)
        (create deck (game hloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE)))))
 (do ((all player 'P (move (top (game hloc STOCK)) (top ('P iloc HAND))))
      (move (top (game hloc STOCK)) (top (game vloc UP)))))
 (stage player (end (== 1 1)) (choice ((turn pass))))
 (scoring max 0))",
        )
        .unwrap();
        let state = rules
            .start(&GameOptions {
                seed: 1,
                overrides: vec![],
            })
            .unwrap();
        let whole = state.whole_view();
        let name = |owner: &str, loc: &str| {
            let o = whole.owner(owner).unwrap();
            let l = o.locations.iter().find(|l| l.name == loc).unwrap();
            l.cards.as_ref().unwrap()[0].name.clone()
        };
        let (mine, theirs, up) = (name("p0", "HAND"), name("p1", "HAND"), name("game", "UP"));
        let text = format!("`move {theirs} p1 HAND -> p1 X`, {mine}, {up}-ish {theirs}X");
        let table = state.table.borrow();
        let for_p0 = super::redact(&state.tabs, &table, 0, &text);
        assert_eq!(
            for_p0,
            format!("`move a card p1 HAND -> p1 X`, {mine}, {up}-ish {theirs}X")
        );
        let for_p1 = super::redact(&state.tabs, &table, 1, &text);
        assert_eq!(
            for_p1,
            format!("`move {theirs} p1 HAND -> p1 X`, a card, {up}-ish {theirs}X")
        );
    }
}
