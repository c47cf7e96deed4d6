//! `(announce PART...)`: what the rules tell the table. Nothing is
//! evaluated unless the game keeps announcements
//! ([`GameState::keep_announcements`](crate::game::GameState::keep_announcements),
//! off by default, so playouts pay one test per `announce`); when kept,
//! each announcement's parts are worked out where it runs (on the game's
//! generator put back after, a part that fails left as `?`, so keeping
//! them changes nothing in the game) and held in the table
//! ([`Table::announced`], emptied when a move begins, journaled so that
//! exploration takes them back). A card is kept with the seats that saw
//! it where it lay when announced; a seat reads it named if it saw it
//! then or sees it now, else `a card`.

use super::exec::{Machine, Undo};
use super::state::{CardId, Table};
use super::view;
use super::Tables;
use crate::ir::AnnouncePart;
use crate::observation::{CardView, DisplayView};

/// One announcement: its parts in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Announced(Vec<Said>);

/// A part of an announcement, as worked out.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Said {
    Text(String),
    Player(usize),
    Team(usize),
    /// A card, its face, and the seats (bits, the first 64) that saw it.
    Card(CardId, Box<CardView>, u64),
}

impl Machine<'_> {
    /// Runs `(announce PARTS)`: nothing unless announcements are kept and
    /// the machine plays for real (not writing a move's text).
    pub(super) fn announce(&mut self, parts: &[AnnouncePart]) {
        if self.table.announced.is_none() || self.log.is_some() {
            return;
        }
        let rng = self.table.rng.clone();
        let said: Vec<Said> = parts.iter().map(|p| self.said(p)).collect();
        self.table.rng = rng;
        let Some(list) = self.table.announced.as_mut() else {
            return;
        };
        let len = list.len();
        list.push(Announced(said));
        self.record(|_| Undo::Announced(len));
    }

    fn said(&mut self, p: &AnnouncePart) -> Said {
        let unknown = || Said::Text("?".into());
        match p {
            AnnouncePart::Text(t) => Said::Text(t.clone()),
            AnnouncePart::Int(e) => self
                .int(e)
                .map_or_else(|_| unknown(), |v| Said::Text(v.to_string())),
            AnnouncePart::Str(e) => match self.str(e) {
                Ok(s) => Said::Text(self.tabs.prog.name(s).to_string()),
                Err(_) => unknown(),
            },
            AnnouncePart::Player(e) => self
                .player(e)
                .map_or_else(|_| unknown(), |p| Said::Player(p as usize)),
            AnnouncePart::Team(e) => self
                .team(e)
                .map_or_else(|_| unknown(), |t| Said::Team(t as usize)),
            AnnouncePart::Card(e) => match self.card(e) {
                Ok(Some(c)) => {
                    let mut seen = 0u64;
                    for s in 0..self.table.players.min(64) {
                        if view::shown_to(self.tabs, self.table, c.slot, s) {
                            seen |= 1 << s;
                        }
                    }
                    let face = view::card_view(self.tabs, self.table, c.id);
                    Said::Card(c.id, Box::new(face), seen)
                }
                _ => unknown(),
            },
        }
    }
}

/// Takes back the announcements made after the first `len`.
pub(super) fn take_back(t: &mut Table, len: usize) {
    if let Some(list) = t.announced.as_mut() {
        list.truncate(len);
    }
}

/// The announcements kept in `table`, each a line as `seat` reads it.
pub(super) fn lines_for(tabs: &Tables, table: &Table, seat: usize) -> Vec<String> {
    let Some(list) = &table.announced else {
        return Vec::new();
    };
    let display: Option<&DisplayView> = tabs.prog.display.as_ref().map(|d| &d.view);
    list.iter()
        .map(|Announced(parts)| {
            let words: Vec<String> = parts
                .iter()
                .map(|p| match p {
                    Said::Text(t) => t.clone(),
                    Said::Player(p) => crate::label::player_name(*p, display),
                    Said::Team(t) => format!("team{t}"),
                    Said::Card(id, card, seen) => {
                        let saw = seat < 64 && seen & (1 << seat) != 0;
                        let sees = (table.card_loc.get(*id as usize))
                            .is_some_and(|&slot| view::shown_to(tabs, table, slot, seat));
                        match saw || sees {
                            true => crate::label::card_name(card, display),
                            false => "a card".to_string(),
                        }
                    }
                })
                .collect();
            words.join(" ")
        })
        .collect()
}
