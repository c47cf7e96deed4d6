//! The table: cards, locations, storages, player and team cycles, and the
//! game's seeded chance. Flat vectors indexed by interned ids, so a clone is a
//! handful of `memcpy`s.

use super::board::{Boards, SpaceId};
use super::Tables;
use crate::ir::{LocKind, LocNameId, Sym};
use crate::random::GameRng;
use std::sync::Arc;

/// A card's index in [`Table::cards`].
pub type CardId = u32;
/// A location's index in [`Table::locs`]: `owner * loc_names + name`.
pub type Slot = u32;

/// Who owns a storage or location: 0 is the game, then players, then teams.
pub type OwnerId = u32;

/// One player or team cycle of a stage: who is current, who is queued next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Current member (seat or team index).
    pub idx: u8,
    /// Set by `cycle next`: who the next advance goes to.
    pub queued: Option<u8>,
}

impl Cycle {
    /// A cycle starting at `idx` with nothing queued.
    pub fn at(idx: u8) -> Cycle {
        Cycle { idx, queued: None }
    }

    /// Who plays after the current member.
    pub fn peek_next(&self, n: usize) -> u8 {
        self.queued
            .unwrap_or_else(|| ((self.idx as usize + 1) % n.max(1)) as u8)
    }

    /// The member before the current one (to the right, not "who went before").
    pub fn peek_previous(&self, n: usize) -> u8 {
        ((self.idx as usize + n.max(1) - 1) % n.max(1)) as u8
    }

    /// Moves to the next member (the queued one, if any).
    pub fn advance(&mut self, n: usize) {
        self.idx = self.peek_next(n);
        self.queued = None;
    }
}

/// One award's conditions: (attribute key, value) pairs; `None` is an
/// attribute no deck defines.
pub type AwardConds = Vec<(Option<u16>, Sym)>;

/// A point map: awards of (attribute, value) conditions and points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointMap {
    /// Each award: conditions on the card's attributes, and its points.
    pub awards: Vec<(AwardConds, i64)>,
}

impl PointMap {
    /// The sum of the points of every award whose conditions the card meets.
    pub fn score(&self, attrs: &[Sym]) -> i64 {
        let mut total = 0;
        for (conds, points) in &self.awards {
            let ok = conds.iter().all(|(key, value)| match key {
                Some(k) => attrs.get(*k as usize).copied() == Some(*value),
                None => *value == crate::ir::EMPTY,
            });
            if ok {
                total += points;
            }
        }
        total
    }
}

/// Everything that changes while playing.
#[derive(Debug)]
pub struct Table {
    /// Number of players.
    pub players: usize,
    /// Attribute values of every card, `attr_width` per card, flat; shared
    /// until a deck is created mid-game.
    pub cards: Arc<Vec<Sym>>,
    /// Attribute values per card (the number of attribute keys).
    pub attr_width: usize,
    /// The real location of each card (mem copies aside).
    pub card_loc: Vec<Slot>,
    /// Cards in each location, bottom first: the top card is the last.
    pub locs: Vec<Vec<CardId>>,
    /// Integer storages, `owner * int_names + name`.
    pub ints: Vec<i64>,
    /// String storages.
    pub strs: Vec<Sym>,
    /// Point maps.
    pub points: Vec<Option<Arc<PointMap>>>,
    /// Team members, per team.
    pub teams: Vec<Vec<u8>>,
    /// Each player's team.
    pub team_of: Vec<u8>,
    /// Player cycles, innermost last.
    pub player_cycles: Vec<Cycle>,
    /// Team cycles, innermost last.
    pub team_cycles: Vec<Cycle>,
    /// The game's chance: shuffles, random tie breaks, `random`.
    pub rng: GameRng,
    /// The boards and their sizes (fixed for the game).
    pub boards: Arc<Boards>,
    /// The card most recently moved by a `move` action, `(last moved)`;
    /// `None` before the first move.
    pub last_moved: Option<CardId>,
    /// What lies on the spaces, as bit sets, for the searches that asked
    /// (a cache, kept true by every change to a location: see the engine's
    /// `spaceset` module).
    pub space_index: super::spaceset::SpaceIndex,
    /// Why the engine stopped the game, once a limit was passed (see
    /// `engine/limits.rs`): kept, whatever is taken back.
    pub stopped: Option<Box<str>>,
    /// What each seat has seen, when kept (`GameState::keep_seen`, see
    /// `engine/resample.rs`); brought up to date after every move.
    pub seen: Option<Box<super::resample::Seen>>,
    /// What the rules announced since the last move began, when kept
    /// (`GameState::keep_announcements`, see `engine/announce.rs`).
    pub announced: Option<Box<Vec<super::announce::Announced>>>,
    /// Whether a loaded position put a value in an integer storage beyond
    /// what the rules ever write there (`compile::Compiled::within_bounds`):
    /// a sampler then checks its slots whole (`sample::prepare`).
    pub beyond_bounds: bool,
}

impl Clone for Table {
    fn clone(&self) -> Table {
        Table {
            players: self.players,
            cards: self.cards.clone(),
            attr_width: self.attr_width,
            card_loc: self.card_loc.clone(),
            locs: self.locs.clone(),
            ints: self.ints.clone(),
            strs: self.strs.clone(),
            points: self.points.clone(),
            teams: self.teams.clone(),
            team_of: self.team_of.clone(),
            player_cycles: self.player_cycles.clone(),
            team_cycles: self.team_cycles.clone(),
            rng: self.rng.clone(),
            boards: self.boards.clone(),
            last_moved: self.last_moved,
            space_index: self.space_index.clone(),
            stopped: self.stopped.clone(),
            seen: self.seen.clone(),
            announced: self.announced.clone(),
            beyond_bounds: self.beyond_bounds,
        }
    }

    /// A copy of `src` made in the room of `self`: each list, and each
    /// location's list of cards, reuses its allocation (a game started
    /// from a kept setup in place of the last game, see
    /// `Rules::start_into`).
    fn clone_from(&mut self, src: &Table) {
        self.players = src.players;
        share(&mut self.cards, &src.cards);
        self.attr_width = src.attr_width;
        self.card_loc.clone_from(&src.card_loc);
        // Most locations are empty (the spaces of a board): emptied with a
        // store, not a call to copy nothing.
        if self.locs.len() == src.locs.len() {
            for (to, from) in self.locs.iter_mut().zip(&src.locs) {
                to.clear();
                if !from.is_empty() {
                    to.extend_from_slice(from);
                }
            }
        } else {
            self.locs.clone_from(&src.locs);
        }
        self.ints.clone_from(&src.ints);
        self.strs.clone_from(&src.strs);
        if self.points.len() == src.points.len() {
            for (to, from) in self.points.iter_mut().zip(&src.points) {
                match (to, from) {
                    (Some(to), Some(from)) => share(to, from),
                    (to, from) => to.clone_from(from),
                }
            }
        } else {
            self.points.clone_from(&src.points);
        }
        self.teams.clone_from(&src.teams);
        self.team_of.clone_from(&src.team_of);
        self.player_cycles.clone_from(&src.player_cycles);
        self.team_cycles.clone_from(&src.team_cycles);
        self.rng.clone_from(&src.rng);
        share(&mut self.boards, &src.boards);
        self.last_moved = src.last_moved;
        self.space_index.clone_from(&src.space_index);
        self.stopped.clone_from(&src.stopped);
        self.seen.clone_from(&src.seen);
        self.announced.clone_from(&src.announced);
        self.beyond_bounds = src.beyond_bounds;
    }
}

/// `*to = src.clone()`, unless `to` already shares `src`'s value: then
/// nothing is written. `Arc`'s own `clone_from` always writes both
/// reference counts, and the values copied this way (the rules' tables,
/// the boards, the kept setup's cards and point maps) are shared by the
/// games of every thread: a write per copy made each thread's copies
/// wait for the others' (see ARCHITECTURE.md, Invariants).
#[inline]
pub(super) fn share<T>(to: &mut std::sync::Arc<T>, src: &std::sync::Arc<T>) {
    if !std::sync::Arc::ptr_eq(to, src) {
        *to = std::sync::Arc::clone(src);
    }
}

/// Owners are numbered: the game (0), the players, room for one team per
/// player, then every space of every board.
impl Table {
    /// Owners before the spaces: game, players, up to `players` teams.
    pub fn owner_count(players: usize) -> usize {
        1 + 2 * players
    }

    /// The owner id of space `s`.
    pub fn space_owner(&self, s: SpaceId) -> OwnerId {
        Self::owner_count(self.players) as OwnerId + s
    }

    /// The space an owner id stands for, if it is a space.
    pub fn owner_space(&self, owner: OwnerId) -> Option<SpaceId> {
        let base = Self::owner_count(self.players) as OwnerId;
        (owner >= base && owner - base < self.boards.space_count()).then(|| owner - base)
    }

    /// The owner id of seat `p`.
    pub fn player_owner(p: usize) -> OwnerId {
        1 + p as OwnerId
    }

    /// The owner id of team `t`.
    pub fn team_owner(&self, t: usize) -> OwnerId {
        (1 + self.players + t) as OwnerId
    }

    /// A new empty table.
    pub fn new(tables: &Tables, players: usize, boards: Arc<Boards>, rng: GameRng) -> Table {
        let owners = Self::owner_count(players) + boards.space_count() as usize;
        Table {
            players,
            cards: Arc::new(Vec::new()),
            attr_width: tables.prog.attr_keys.len(),
            card_loc: Vec::new(),
            locs: vec![Vec::new(); owners * tables.loc_count],
            ints: vec![0; owners * tables.int_count],
            strs: vec![crate::ir::EMPTY; owners * tables.str_count],
            points: vec![None; owners * tables.point_count],
            teams: (0..players).map(|p| vec![p as u8]).collect(),
            team_of: (0..players).map(|p| p as u8).collect(),
            player_cycles: vec![Cycle::at(0)],
            team_cycles: vec![Cycle::at(0)],
            rng,
            boards,
            last_moved: None,
            space_index: Default::default(),
            stopped: None,
            seen: None,
            announced: None,
            beyond_bounds: false,
        }
    }

    /// Number of cards.
    pub fn card_count(&self) -> usize {
        self.card_loc.len()
    }

    /// The attribute values of card `id`, one per attribute key.
    pub fn attrs(&self, id: CardId) -> &[Sym] {
        let w = self.attr_width;
        self.cards
            .get(id as usize * w..(id as usize + 1) * w)
            .unwrap_or(&[])
    }

    /// The current seat of the innermost player cycle.
    pub fn current_player(&self) -> usize {
        self.player_cycles
            .last()
            .map(|c| c.idx as usize)
            .unwrap_or(0)
    }

    /// The current team of the innermost team cycle.
    pub fn current_team(&self) -> usize {
        self.team_cycles.last().map(|c| c.idx as usize).unwrap_or(0)
    }

    /// The owner of a slot and its location name id.
    pub fn slot_parts(slot: Slot, loc_count: usize) -> (OwnerId, LocNameId) {
        let lc = loc_count.max(1) as u32;
        (slot / lc, (slot % lc) as LocNameId)
    }
}

/// How a location kind shows to a viewer.
pub fn visible_to(kind: LocKind, owner: OwnerId, viewer: Option<OwnerId>) -> bool {
    match kind {
        LocKind::Visible | LocKind::Memory => true,
        LocKind::Hidden => false,
        LocKind::Invisible => viewer.is_some() && viewer == Some(owner) && owner != 0,
        LocKind::Others => viewer != Some(owner),
    }
}
