//! A fixed action space: every legal move mapped to one index in
//! `0..num_actions`, from what the move does (its steps,
//! [`crate::step::Step`], as the seat to move reads them), never from its
//! place in the list of legal moves.
//!
//! # A move's key
//!
//! The first step that moves a card, or, if it comes first, the first
//! step that sets a storage of a board's space, decides:
//!
//! - a card moved from a space to a space: `FromTo(from, to)` (a card
//!   moved on from where it landed by a later step, a chain of jumps, is
//!   `FromTo(first from, last to)`; this wins over any other card moved,
//!   such as a piece taken off the board first);
//! - a card moved onto a space, or off a space: `Space(space)`;
//! - a card moved between two places off the boards: `Card(card,
//!   destination)` when the seat sees the card, else `Transfer(from,
//!   destination)` (a hidden card drawn);
//! - storages set on spaces (all of the move's such steps read together):
//!   a space emptied (set to 0 or empty) and another filled is a piece
//!   moved, `FromTo(emptied, filled)`; else the space filled (the first one
//!   empty before, else the first one) or emptied is `Space(space)`;
//! - a move with none of these (a pass, a bid stored off the boards):
//!   `Other`.
//!
//! Spaces are numbered over all boards ([`Layout::space`]), a destination
//! or source off the boards is an owner and a location name ([`slot`]).
//!
//! # The space
//!
//! The indices are blocks in this order, each present only when the
//! game has moves of its kind: `Space` (one per space), `FromTo` (from
//! times spaces plus to), `Card` (card times slots plus destination),
//! `Transfer` (source times slots plus destination), `Other` (one). Which
//! kinds a game has is found by [`ActionSpace::probe`]: random games from
//! fixed seeds, so a function of the rules file and its settings. A game
//! has no action space (the probe's refusal) when two legal moves of one
//! decision share a key (the message names them) or a move has no key;
//! the same is checked at every decision later ([`ActionSpace::legal`]),
//! and a move of a kind the probe did not meet is refused there too.
use super::Layout;
use crate::game::GameState;
use crate::observation::{BoardView, Observation, StorageValue};
use crate::random::{below, GameRng};
use crate::step::{Place, SetValue, SpaceAt, Step};

/// What decides a move's index (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Space(usize),
    FromTo(usize, usize),
    Card(usize, usize),
    Transfer(usize, usize),
    Other,
}

/// The kinds of key, in block order.
const KINDS: [&str; 5] = ["space", "from-to", "card", "transfer", "other"];

impl Key {
    fn kind(&self) -> usize {
        match self {
            Key::Space(_) => 0,
            Key::FromTo(..) => 1,
            Key::Card(..) => 2,
            Key::Transfer(..) => 3,
            Key::Other => 4,
        }
    }
}

/// A place off the boards as a number: its owner's times the location
/// names plus its location's (`None` for a space's location or a name
/// outside the layout).
pub fn slot(layout: &Layout, place: &Place) -> Option<usize> {
    if place.space.is_some() {
        return None;
    }
    use crate::step::PlaceKind;
    let kind = match place.kind {
        PlaceKind::Vloc => "vloc",
        PlaceKind::Iloc => "iloc",
        PlaceKind::Hloc => "hloc",
        PlaceKind::Oloc => "oloc",
        PlaceKind::Mem => "mem",
    };
    let o = layout.owner(&place.owner)?;
    let l = layout.location(kind, &place.location)?;
    Some(o * layout.locations.len() + l)
}

fn space_of(layout: &Layout, at: &Option<SpaceAt>) -> Option<usize> {
    let s = at.as_ref()?;
    layout.space(&s.board, s.row, s.col)
}

/// Whether the storage `name` of a space holds something now.
fn held(boards: &[BoardView], at: &SpaceAt, name: &str) -> bool {
    let board = boards.iter().find(|b| b.name == at.board);
    let space = board.and_then(|b| b.spaces.iter().find(|s| (s.row, s.col) == (at.row, at.col)));
    space.is_some_and(|s| {
        s.contents.storages.iter().any(|st| {
            st.name == name
                && !matches!(&st.value, StorageValue::Int(0))
                && !matches!(&st.value, StorageValue::Text(t) if t.is_empty())
        })
    })
}

/// The first card moved from a space to a space, followed on while the
/// next such step moves it on from where it landed (a chain of jumps):
/// `FromTo(first from, last to)`; `None` when no card crosses the boards.
fn piece_moved(layout: &Layout, steps: &[Step]) -> Option<Result<Key, String>> {
    let mut across = steps.iter().filter_map(|s| match s {
        Step::Move { from, to, .. } if from.space.is_some() && to.space.is_some() => {
            Some((from, to))
        }
        _ => None,
    });
    let (from, mut to) = across.next()?;
    for (f, t) in across {
        if f.space == to.space {
            to = t;
        }
    }
    Some(
        match (space_of(layout, &from.space), space_of(layout, &to.space)) {
            (Some(f), Some(t)) => Ok(Key::FromTo(f, t)),
            _ => Err("a space is outside the game's layout".to_string()),
        },
    )
}

/// The key of a move from its steps, with `boards` the boards as they
/// stand before it (module doc); `Err` says what has no room in `layout`.
pub fn key_of(layout: &Layout, steps: &[Step], boards: &[BoardView]) -> Result<Key, String> {
    let on_space = |s: &Step| matches!(s, Step::Set { storage, .. } if storage.space.is_some());
    let first_move = steps.iter().position(|s| matches!(s, Step::Move { .. }));
    let first_set = steps.iter().position(on_space);
    let use_move = match (first_move, first_set) {
        (Some(m), Some(s)) => m < s,
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (None, None) => return Ok(Key::Other),
    };
    let outside = |what: &str| Err(format!("{what} is outside the game's layout"));
    if use_move {
        if let Some(key) = piece_moved(layout, steps) {
            return key;
        }
        let Some(Step::Move { card, from, to }) = first_move.and_then(|i| steps.get(i)) else {
            return Ok(Key::Other);
        };
        let (f, t) = (space_of(layout, &from.space), space_of(layout, &to.space));
        return match (from.space.is_some(), to.space.is_some()) {
            (true, true) => match (f, t) {
                (Some(f), Some(t)) => Ok(Key::FromTo(f, t)),
                _ => outside("a space"),
            },
            (false, true) => t.map(Key::Space).map_or_else(|| outside("a space"), Ok),
            (true, false) => f.map(Key::Space).map_or_else(|| outside("a space"), Ok),
            (false, false) => {
                let Some(dest) = slot(layout, to) else {
                    return outside(&format!("the place {to}"));
                };
                match card {
                    Some(c) => match layout.card(&c.name) {
                        Some(c) => Ok(Key::Card(c, dest)),
                        None => outside(&format!("the card {}", c.name)),
                    },
                    None => match slot(layout, from) {
                        Some(src) => Ok(Key::Transfer(src, dest)),
                        None => outside(&format!("the place {from}")),
                    },
                }
            }
        };
    }
    let mut emptied = None;
    let mut filled = None;
    let mut placed = None;
    for s in steps {
        let Step::Set { storage, value } = s else {
            continue;
        };
        let Some(at) = &storage.space else {
            continue;
        };
        let Some(space) = layout.space(&at.board, at.row, at.col) else {
            return outside("a space");
        };
        let empty =
            matches!(value, SetValue::Int(0)) || matches!(value, SetValue::Text(t) if t.is_empty());
        if empty {
            if held(boards, at, &storage.name) {
                emptied.get_or_insert(space);
            }
        } else {
            filled.get_or_insert(space);
            if !held(boards, at, &storage.name) {
                placed.get_or_insert(space);
            }
        }
    }
    let filled = placed.or(filled).filter(|f| Some(*f) != emptied);
    Ok(match (emptied, filled) {
        (Some(e), Some(f)) => Key::FromTo(e, f),
        (None, Some(f)) => Key::Space(f),
        (Some(e), None) => Key::Space(e),
        (None, None) => Key::Other,
    })
}

/// A fixed action space (module doc).
#[derive(Clone, Debug)]
pub struct ActionSpace {
    /// For each kind (block order), its offset when the game has moves of
    /// that kind.
    offsets: [Option<usize>; 5],
    size: usize,
    slots: usize,
    spaces: usize,
    /// Why the game has none, when it has none.
    pub refusal: Option<String>,
}

/// Random games the probe plays, and decisions at most in each.
const PROBE_GAMES: u64 = 5;
const PROBE_DECISIONS: u64 = 1000;

impl ActionSpace {
    /// The action space of the game whose games `start(seed)` starts:
    /// [`PROBE_GAMES`] random games from seeds 0, 1.. find which kinds of
    /// key it has, and whether any decision has two moves of one key.
    pub fn probe<S: GameState>(
        layout: &Layout,
        mut start: impl FnMut(u64) -> Option<S>,
    ) -> ActionSpace {
        let mut kinds = [false; 5];
        let mut refusal = None;
        'games: for seed in 0..PROBE_GAMES {
            let Some(mut state) = start(seed) else {
                continue;
            };
            let mut rng = GameRng::new(seed);
            for _ in 0..PROBE_DECISIONS {
                let Some(seat) = state.current_player() else {
                    break;
                };
                let seen = state.observe_unlabelled(seat);
                match keys(layout, &seen) {
                    Ok(keys) => keys.iter().for_each(|k| kinds[k.kind()] = true),
                    Err(why) => {
                        refusal = Some(why);
                        break 'games;
                    }
                }
                let moves = state.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[below(&mut rng, moves.len())];
                if state.apply(mv).is_err() {
                    break;
                }
            }
        }
        ActionSpace::of_kinds(layout, kinds, refusal)
    }

    fn of_kinds(layout: &Layout, kinds: [bool; 5], refusal: Option<String>) -> ActionSpace {
        let slots = layout.owners() * layout.locations.len();
        let s = layout.spaces;
        let sizes = [s, s * s, layout.cards.len() * slots, slots * slots, 1];
        let mut offsets = [None; 5];
        let mut at = 0;
        for k in 0..5 {
            if kinds[k] {
                offsets[k] = Some(at);
                at += sizes[k];
            }
        }
        ActionSpace {
            offsets,
            size: at,
            slots,
            spaces: s,
            refusal,
        }
    }

    /// The number of actions.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The index of a key, `None` when the space has no block of its kind.
    pub fn index(&self, key: Key) -> Option<usize> {
        let at = self.offsets[key.kind()]?;
        Some(
            at + match key {
                Key::Space(s) => s,
                Key::FromTo(f, t) => f * self.spaces + t,
                Key::Card(c, d) => c * self.slots + d,
                Key::Transfer(f, t) => f * self.slots + t,
                Key::Other => 0,
            },
        )
    }

    /// The key of an index.
    pub fn key(&self, a: usize) -> Option<Key> {
        if a >= self.size {
            return None;
        }
        let k = (0..5)
            .rev()
            .find(|k| self.offsets[*k].is_some_and(|o| o <= a))?;
        let i = a - self.offsets[k]?;
        let (s, n) = (self.spaces.max(1), self.slots.max(1));
        Some(match k {
            0 => Key::Space(i),
            1 => Key::FromTo(i / s, i % s),
            2 => Key::Card(i / n, i % n),
            3 => Key::Transfer(i / n, i % n),
            _ => Key::Other,
        })
    }

    /// A stable text for action `a` (`D3`, `B7->B5`, `TEN-HEARTS -> game
    /// TRICK`), `None` past the space.
    pub fn name(&self, layout: &Layout, a: usize) -> Option<String> {
        key_name(layout, self.key(a)?)
    }

    /// The legal moves of `seen` (the observation of the seat to move) as
    /// `(action, move id)`, sorted by action; `Err` when two share an
    /// action, or one has no action in this space.
    pub fn legal(
        &self,
        layout: &Layout,
        seen: &Observation,
    ) -> Result<Vec<(usize, usize)>, String> {
        if let Some(why) = &self.refusal {
            return Err(why.clone());
        }
        let keys = keys(layout, seen)?;
        let mut out = Vec::with_capacity(keys.len());
        for (k, m) in keys.into_iter().zip(&seen.moves) {
            let Some(a) = self.index(k) else {
                return Err(format!(
                    "the move `{}` is a {} move, a kind the action space (found by random \
                     games from fixed seeds) has no room for",
                    m.text,
                    KINDS[k.kind()]
                ));
            };
            out.push((a, m.id));
        }
        out.sort_unstable();
        Ok(out)
    }
}

/// A key as [`ActionSpace::name`] writes its action.
pub fn key_name(layout: &Layout, key: Key) -> Option<String> {
    let slot_name = |d: usize| {
        let l = layout.locations.len().max(1);
        let (o, l) = (d / l, d % l);
        let owner = match o {
            0 => "game".to_string(),
            o if o <= layout.players => format!("p{}", o - 1),
            o => format!("team{}", o - 1 - layout.players),
        };
        let (kind, name) = layout.locations.get(l).cloned().unwrap_or_default();
        // The kind is written for memory, and for a name that several
        // kinds of location share.
        let shared = layout.locations.iter().filter(|(_, n)| *n == name).count() > 1;
        match kind.as_str() {
            "mem" => format!("{owner} mem {name}"),
            _ if shared => format!("{owner} {kind} {name}"),
            _ => format!("{owner} {name}"),
        }
    };
    Some(match key {
        Key::Space(s) => layout.space_name(s),
        Key::FromTo(f, t) => format!("{}->{}", layout.space_name(f), layout.space_name(t)),
        Key::Card(c, d) => format!("{} -> {}", layout.cards.get(c)?, slot_name(d)),
        Key::Transfer(f, t) => format!("a card {} -> {}", slot_name(f), slot_name(t)),
        Key::Other => "other".to_string(),
    })
}

/// The keys of `seen`'s moves, in order; `Err` names two moves that share
/// one, or a move with none.
pub fn keys(layout: &Layout, seen: &Observation) -> Result<Vec<Key>, String> {
    let mut keys = Vec::with_capacity(seen.moves.len());
    for m in &seen.moves {
        let key = key_of(layout, &m.steps, &seen.boards)
            .map_err(|why| format!("the move `{}` has no action: {why}", m.text))?;
        keys.push(key);
    }
    let mut sorted: Vec<(Key, usize)> = keys.iter().copied().zip(0..).collect();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
        let text = |i: usize| seen.moves[i].text.clone();
        return Err(format!(
            "two legal moves would share one action ({} {}): `{}` and `{}`",
            KINDS[w[0].0.kind()],
            key_name(layout, w[0].0).unwrap_or_default(),
            text(w[0].1),
            text(w[1].1)
        ));
    }
    Ok(keys)
}
