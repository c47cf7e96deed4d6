//! Fixed-size numeric views of a game for learning code: an observation
//! tensor (a flat `f32` vector of one length per rules file and settings)
//! and a fixed action space ([`action`]) where the game has one. The
//! Python package (`State.observation_tensor`, `VectorGame`,
//! docs/python.md) is built on it.
//!
//! # The universe
//!
//! A [`Layout`] fixes what the tensor has room for, from the rules file
//! and its settings only, never from hidden information:
//!
//! - the seats and teams, the boards (shape, rows, columns, a graph's
//!   points) and the card identities (each distinct card name, sorted), all
//!   read from the whole table of the game at its start (the start with
//!   seed 0, every face shown: the cards a game deals are the same set for
//!   every seed, only their places differ, so nothing hidden shapes it);
//! - the location names and kinds, the `sto` and `str` storage names,
//!   read from the compiled program.
//!
//! A card that only appears later in a game (one created after the start)
//! has no one-hot room: it is still counted in its location's count.
//!
//! # The encoding ([`Layout::encode`])
//!
//! Built from one seat's [`Observation`] (what [`crate::game::GameState::observe`]
//! gives that seat), so it never holds a card hidden from the seat. In
//! order (the sections of [`Layout::sections`]):
//!
//! 1. `seat`: one-hot of the seat observing (players floats).
//! 2. `turn`: one-hot of the seat to move (all 0 once the game is over).
//! 3. `over`: 1 when the game is over, else 0.
//! 4. `locations`: for every owner (the game, each player, each team) and
//!    every location name: the number of cards there (always known), then
//!    for every card identity the number of its copies there whose faces
//!    the seat sees (0 for a location whose faces it does not see).
//! 5. `storages`: for every owner, every `sto` storage's value, then every
//!    `str` storage's value as its symbol's number in the program plus 1
//!    (0 when empty). Point maps are left out.
//! 6. one section per board, `board NAME`: planes of one float per space
//!    (row by row, a graph's spaces in its points' order): for every
//!    location the count then the card identities' planes as in 4, then one
//!    plane per `sto` storage (its value), then one per `str` storage (as
//!    in 5). A board section of `p` planes and `n` spaces reshapes to
//!    `(p, rows, cols)` (`(p, n)` for a graph).
pub mod action;
#[cfg(test)]
mod tests;

use crate::ir::Program;
use crate::observation::{BoardView, Observation, OwnerView, StorageValue};
use std::collections::HashMap;

/// One board's spaces: where each lies in the tensor.
#[derive(Clone, Debug)]
pub struct BoardLayout {
    /// The board's name.
    pub name: String,
    /// `track`, `grid`, `hex`, `hexagon` or `graph`.
    pub shape: String,
    /// Rows and columns (a graph: 1 row of its points).
    pub rows: u32,
    pub cols: u32,
    /// Each space's (row, col), by number.
    pub spaces: Vec<(u32, u32)>,
    /// A graph's point names, by number (empty for other shapes).
    pub point_names: Vec<String>,
    index: HashMap<(u32, u32), usize>,
    /// The number of this board's first space among all boards' spaces.
    pub first_space: usize,
    /// Where its section starts in the tensor.
    offset: usize,
}

impl BoardLayout {
    fn of(view: &BoardView, first_space: usize) -> BoardLayout {
        let (spaces, point_names, rows, cols): (Vec<(u32, u32)>, Vec<String>, u32, u32) =
            if view.shape == "graph" {
                let spaces = view.points.iter().map(|p| (p.row, p.col)).collect();
                let names = view.points.iter().map(|p| p.name.clone()).collect();
                (spaces, names, 1, view.points.len() as u32)
            } else {
                let spaces = (0..view.rows)
                    .flat_map(|r| (0..view.cols).map(move |c| (r, c)))
                    .collect();
                (spaces, Vec::new(), view.rows, view.cols)
            };
        let index = spaces.iter().enumerate().map(|(i, rc)| (*rc, i)).collect();
        BoardLayout {
            name: view.name.clone(),
            shape: view.shape.clone(),
            rows,
            cols,
            spaces,
            point_names,
            index,
            first_space,
            offset: 0,
        }
    }

    /// The number of the space at (row, col) on this board.
    pub fn space(&self, row: u32, col: u32) -> Option<usize> {
        self.index.get(&(row, col)).copied()
    }

    /// A space as labels write it: a graph's point by its name, a
    /// track's space by its number, any other by its coordinate (`D3`).
    pub fn space_name(&self, i: usize) -> String {
        if let Some(name) = self.point_names.get(i) {
            return name.clone();
        }
        let (row, col) = self.spaces.get(i).copied().unwrap_or_default();
        if self.shape == "track" {
            col.to_string()
        } else {
            crate::label::coordinate(row, col)
        }
    }
}

/// A named part of the tensor: `(name, offset, shape)`.
pub type Section = (String, usize, Vec<usize>);

/// What the tensor has room for, and where (module doc).
#[derive(Clone, Debug)]
pub struct Layout {
    /// Seats.
    pub players: usize,
    /// Teams.
    pub teams: usize,
    /// Location names, each `(kind word, name)`, in the program's order.
    pub locations: Vec<(String, String)>,
    loc_index: HashMap<(String, String), usize>,
    /// Card identities (card names), sorted.
    pub cards: Vec<String>,
    card_index: HashMap<String, usize>,
    /// `sto` storage names.
    pub ints: Vec<String>,
    int_index: HashMap<String, usize>,
    /// `str` storage names.
    pub strs: Vec<String>,
    str_index: HashMap<String, usize>,
    symbols: HashMap<String, usize>,
    /// The boards.
    pub boards: Vec<BoardLayout>,
    /// All boards' spaces.
    pub spaces: usize,
    sections: Vec<Section>,
    size: usize,
}

fn index_of(names: &[String]) -> HashMap<String, usize> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect()
}

/// Every card name on the table (every face shown), sorted, each once.
fn card_names(whole: &Observation) -> Vec<String> {
    let spaces = whole.boards.iter().flat_map(|b| &b.spaces);
    let owners = whole.owners.iter().chain(spaces.map(|s| &s.contents));
    let mut names: Vec<String> = owners
        .flat_map(|o| &o.locations)
        .flat_map(|l| l.cards.iter().flatten())
        .map(|c| c.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

impl Layout {
    /// The layout of a game from its program and `whole`, the whole table
    /// (every face shown) of its start with seed 0.
    pub fn new(program: &Program, whole: &Observation) -> Layout {
        let sym = |s: u32| program.symbols[s as usize].clone();
        let locations: Vec<(String, String)> = program
            .loc_names
            .iter()
            .map(|l| (l.kind.word().to_string(), sym(l.name)))
            .collect();
        let loc_index = locations
            .iter()
            .enumerate()
            .map(|(i, l)| (l.clone(), i))
            .collect();
        let cards = card_names(whole);
        let ints: Vec<String> = program.int_names.iter().map(|s| sym(*s)).collect();
        let strs: Vec<String> = program.str_names.iter().map(|s| sym(*s)).collect();
        let mut boards = Vec::new();
        let mut spaces = 0;
        for b in &whole.boards {
            let board = BoardLayout::of(b, spaces);
            spaces += board.spaces.len();
            boards.push(board);
        }
        let mut layout = Layout {
            players: whole.players,
            teams: whole.teams.len(),
            loc_index,
            card_index: index_of(&cards),
            int_index: index_of(&ints),
            str_index: index_of(&strs),
            symbols: index_of(&program.symbols),
            locations,
            cards,
            ints,
            strs,
            boards,
            spaces,
            sections: Vec::new(),
            size: 0,
        };
        layout.place_sections();
        layout
    }

    /// Owners that are not spaces: the game, the players, the teams.
    pub fn owners(&self) -> usize {
        1 + self.players + self.teams
    }

    /// Floats per location: the count, then one per card identity.
    fn per_location(&self) -> usize {
        1 + self.cards.len()
    }

    /// Planes of one board.
    fn board_planes(&self) -> usize {
        self.locations.len() * self.per_location() + self.ints.len() + self.strs.len()
    }

    fn place_sections(&mut self) {
        let p = self.players;
        let (o, l, c) = (self.owners(), self.locations.len(), self.per_location());
        let mut sections: Vec<Section> = Vec::new();
        let mut at = 0;
        let mut add = |name: String, shape: Vec<usize>| {
            sections.push((name, at, shape.clone()));
            at += shape.iter().product::<usize>();
            at - shape.iter().product::<usize>()
        };
        add("seat".into(), vec![p]);
        add("turn".into(), vec![p]);
        add("over".into(), vec![1]);
        add("locations".into(), vec![o, l, c]);
        add(
            "storages".into(),
            vec![o, self.ints.len() + self.strs.len()],
        );
        let planes = self.board_planes();
        for b in &mut self.boards {
            let shape = if b.shape == "graph" {
                vec![planes, b.spaces.len()]
            } else {
                vec![planes, b.rows as usize, b.cols as usize]
            };
            b.offset = add(format!("board {}", b.name), shape);
        }
        self.size = at;
        self.sections = sections;
    }

    /// The tensor's length.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Its parts in order: name, offset, shape.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The number of a non-space owner (`game` 0, `pN` 1 + N, `teamK`
    /// 1 + players + K).
    pub fn owner(&self, name: &str) -> Option<usize> {
        if name == "game" {
            return Some(0);
        }
        if let Some(n) = name.strip_prefix("team") {
            let k: usize = n.parse().ok()?;
            return (k < self.teams).then_some(1 + self.players + k);
        }
        let seat: usize = name.strip_prefix('p')?.parse().ok()?;
        (seat < self.players).then_some(1 + seat)
    }

    /// The number of a location name of a kind.
    pub fn location(&self, kind: &str, name: &str) -> Option<usize> {
        self.loc_index
            .get(&(kind.to_string(), name.to_string()))
            .copied()
    }

    /// The number of a card identity.
    pub fn card(&self, name: &str) -> Option<usize> {
        self.card_index.get(name).copied()
    }

    /// The board named `name` and its number.
    pub fn board(&self, name: &str) -> Option<&BoardLayout> {
        self.boards.iter().find(|b| b.name == name)
    }

    /// The number of a space among all boards' spaces.
    pub fn space(&self, board: &str, row: u32, col: u32) -> Option<usize> {
        let b = self.board(board)?;
        Some(b.first_space + b.space(row, col)?)
    }

    /// A space (by its number among all boards' spaces) as labels write
    /// it, its board's name first when the game has several.
    pub fn space_name(&self, space: usize) -> String {
        let Some(b) = self.boards.iter().rev().find(|b| b.first_space <= space) else {
            return format!("space {space}");
        };
        let name = b.space_name(space - b.first_space);
        if self.boards.len() > 1 {
            format!("{} {name}", b.name)
        } else {
            name
        }
    }

    /// Writes `seen`'s tensor into `out` (of [`Self::size`] floats).
    pub fn encode(&self, seen: &Observation, out: &mut [f32]) {
        out.fill(0.0);
        if out.len() < self.size {
            return;
        }
        let p = self.players;
        if seen.seat < p {
            out[seen.seat] = 1.0;
        }
        let running = matches!(seen.status, crate::observation::GameStatus::Running);
        if running && seen.turn < p {
            out[p + seen.turn] = 1.0;
        }
        if !running {
            out[2 * p] = 1.0;
        }
        let (locs_at, stores_at) = (self.sections[3].1, self.sections[4].1);
        let per_owner = self.locations.len() * self.per_location();
        let stores = self.ints.len() + self.strs.len();
        for owner in &seen.owners {
            let Some(o) = self.owner(&owner.owner) else {
                continue;
            };
            self.owner_into(owner, &mut out[locs_at + o * per_owner..], 1);
            self.storages_into(owner, &mut out[stores_at + o * stores..], 1);
        }
        for board in &seen.boards {
            let Some(b) = self.board(&board.name) else {
                continue;
            };
            let n = b.spaces.len();
            for space in &board.spaces {
                let Some(s) = b.space(space.row, space.col) else {
                    continue;
                };
                let at = b.offset + s;
                self.owner_into(&space.contents, &mut out[at..], n);
                let stores_at = at + per_owner * n;
                self.storages_into(&space.contents, &mut out[stores_at..], n);
            }
        }
    }

    /// An owner's locations into `out`, one float every `stride`.
    fn owner_into(&self, owner: &OwnerView, out: &mut [f32], stride: usize) {
        let per = self.per_location();
        for loc in &owner.locations {
            let Some(l) = self.location(&loc.kind, &loc.name) else {
                continue;
            };
            let at = l * per;
            out[at * stride] = loc.count as f32;
            for card in loc.cards.iter().flatten() {
                if let Some(c) = self.card(&card.name) {
                    out[(at + 1 + c) * stride] += 1.0;
                }
            }
        }
    }

    /// An owner's storages into `out`, one float every `stride`.
    fn storages_into(&self, owner: &OwnerView, out: &mut [f32], stride: usize) {
        for s in &owner.storages {
            let (i, v) = match (&s.value, s.kind.as_str()) {
                (StorageValue::Int(v), "sto") => (self.int_index.get(&s.name).copied(), *v as f32),
                (StorageValue::Text(t), "str") => (
                    self.str_index.get(&s.name).map(|i| i + self.ints.len()),
                    self.symbols.get(t).map_or(0.0, |n| *n as f32 + 1.0),
                ),
                _ => continue,
            };
            if let Some(i) = i {
                out[i * stride] = v;
            }
        }
    }
}
