//! What the moves of the other seats tell a seat about the cards it cannot
//! see, for [`GameState::resample`](crate::game::GameState::resample): a
//! determinization is kept only if every move another seat made would have
//! been legal in it (a player who did not follow suit holds no card of
//! that suit), tried up to [`TRIES`] times.
//!
//! While what the seats have seen is kept ([`resample::Seen`]), every
//! decision of the game is kept too, as the table was before the move
//! ([`Past`]). A determinization deals the cards a seat does not know
//! anew: card `x` lying in a hidden place gives its position to card
//! `σ(x)`. The same relabelling applied to a past table gives the past
//! of the determinization; the move another seat made then must be among
//! the legal moves of that past table, as the seat saw it played (the text
//! of [`GameState::move_to_text_seen_by`]). A past decision is checked
//! only when it tells the seat something: when one of [`PROBES`] random
//! relabellings makes its move illegal (worked out once per seat, from a
//! generator seeded by the decision and the seat, so that the search's
//! draws are the same as without inference whenever nothing is learnt).

use super::resample::Seen;
use super::state::{CardId, Slot, Table};
use super::{spaceset, Frame, Move, State, Status};
use crate::game::GameState;
use crate::ir::LocKind;
use crate::random::{mix64, shuffle, GameRng};
use std::sync::{Arc, OnceLock};

/// Determinizations drawn at most for one resampling before the last one
/// is kept, consistent or not.
pub const TRIES: usize = 40;

/// Random relabellings that decide whether a past decision tells a seat
/// anything.
const PROBES: usize = 48;

/// One decision of the game: the table before the move, and the move.
pub struct Past {
    /// The decision before it.
    prev: Option<Arc<Past>>,
    /// The seat that decided.
    actor: usize,
    table: Table,
    frames: Vec<Frame>,
    decisions: u64,
    mv: Move,
    /// Per seat, once worked out: the text of the move as the seat saw it
    /// played, when a relabelling can make it illegal; `None` when the
    /// decision tells the seat nothing.
    told: Vec<OnceLock<Option<String>>>,
}

impl std::fmt::Debug for Past {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Past")
            .field("actor", &self.actor)
            .field("decisions", &self.decisions)
            .field("mv", &self.mv)
            .finish_non_exhaustive()
    }
}

/// The last decision of a game (each one links to the one before).
pub type History = Option<Arc<Past>>;

/// A resampling's cards: the cards of the hidden places as they truly
/// lie (`orig`, in the table's order) and the same cards in the order of
/// their ids (`sorted`).
pub struct Dealt<'a> {
    pub orig: &'a [CardId],
    pub sorted: &'a [CardId],
}

impl State {
    /// Keeps the decision about to be played with `mv` in the history of
    /// what the seats have seen (nothing when that is not kept).
    pub(super) fn note_decision(&mut self, mv: &Move) {
        let frames = self.frames.clone();
        let decisions = self.decisions;
        let t = self.table.get_mut();
        let Some(mut seen) = t.seen.take() else {
            return;
        };
        let table = t.clone();
        let past = Past {
            prev: seen.history.take(),
            actor: t.current_player(),
            table,
            frames,
            decisions,
            mv: mv.clone(),
            told: (0..t.players).map(|_| OnceLock::new()).collect(),
        };
        seen.history = Some(Arc::new(past));
        t.seen = Some(seen);
    }
}

/// A scratch state for the checks of one resampling.
pub struct Probe {
    state: Option<State>,
    sigma: Vec<CardId>,
}

impl Probe {
    pub fn new() -> Probe {
        Probe {
            state: None,
            sigma: Vec::new(),
        }
    }

    /// Whether every decision of another seat in `history` that tells
    /// `observer` something would have been legal with the hidden cards
    /// `dealt.orig` relabelled as `assigned` (card `orig[k]` becomes
    /// `assigned[k]`).
    pub fn consistent(
        &mut self,
        base: &State,
        history: &History,
        observer: usize,
        dealt: &Dealt<'_>,
        assigned: &[CardId],
    ) -> bool {
        let mut at = history.as_ref();
        while let Some(past) = at {
            if past.actor != observer {
                let told = past
                    .told
                    .get(observer)
                    .map(|cell| cell.get_or_init(|| self.told(base, past, observer, dealt)));
                if let Some(Some(text)) = told {
                    set_sigma(&mut self.sigma, base, dealt.orig, assigned);
                    if !self.legal_then(base, past, observer, text) {
                        return false;
                    }
                }
            }
            at = past.prev.as_ref();
        }
        true
    }

    /// The text of `past`'s move as `observer` saw it played, if one of
    /// [`PROBES`] random relabellings of the cards it does not know makes
    /// the move illegal.
    fn told(
        &mut self,
        base: &State,
        past: &Past,
        observer: usize,
        dealt: &Dealt<'_>,
    ) -> Option<String> {
        self.sigma.clear();
        let text = {
            let s = self.at(base, past)?;
            s.move_to_text_seen_by(&past.mv, observer)
        };
        let seed = mix64(past.decisions ^ mix64(observer as u64 + 1));
        let mut rng = GameRng::new(seed);
        let mut assigned = dealt.sorted.to_vec();
        for _ in 0..PROBES {
            assigned.copy_from_slice(dealt.sorted);
            shuffle(&mut rng, &mut assigned);
            set_sigma(&mut self.sigma, base, dealt.orig, &assigned);
            if !self.legal_then(base, past, observer, &text) {
                return Some(text);
            }
        }
        None
    }

    /// Whether a move that `observer` would see played as `text` is legal
    /// in `past`'s table relabelled by `self.sigma`.
    fn legal_then(&mut self, base: &State, past: &Past, observer: usize, text: &str) -> bool {
        let Some(s) = self.at(base, past) else {
            return false;
        };
        s.legal_moves()
            .iter()
            .any(|m| s.move_to_text_seen_by(m, observer) == text)
    }

    /// The scratch state at `past`'s decision, its cards relabelled by
    /// `self.sigma` (card `c` becomes `sigma[c]`; none when empty), or
    /// `None` when the game does not reach a decision there.
    fn at(&mut self, base: &State, past: &Past) -> Option<&State> {
        let s = self.state.get_or_insert_with(|| {
            let mut s = base.clone();
            s.table.get_mut().seen = None;
            s
        });
        let lc = s.tabs.loc_count;
        let tabs = Arc::clone(&s.tabs);
        let t = s.table.get_mut();
        t.clone_from(&past.table);
        if !self.sigma.is_empty() {
            let mut moved: Vec<(Slot, usize, CardId)> = Vec::new();
            for (slot, held) in t.locs.iter().enumerate() {
                let slot = slot as Slot;
                let (_, id) = Table::slot_parts(slot, lc);
                if tabs.prog.loc_names[id as usize].kind == LocKind::Memory {
                    continue;
                }
                for (i, &c) in held.iter().enumerate() {
                    let to = self.sigma.get(c as usize).copied().unwrap_or(c);
                    if to != c && t.card_loc.get(c as usize) == Some(&slot) {
                        moved.push((slot, i, to));
                    }
                }
            }
            let mut last = None;
            for (slot, i, to) in moved {
                t.locs[slot as usize][i] = to;
                t.card_loc[to as usize] = slot;
                if last != Some(slot) {
                    spaceset::touch(t, lc, slot);
                    last = Some(slot);
                }
            }
        }
        s.frames.clone_from(&past.frames);
        s.status = Status::Running;
        s.decisions = past.decisions;
        s.outcome = None;
        *s.legal.get_mut() = None;
        *s.sampled.get_mut() = None;
        s.plan = None;
        if s.advance().is_err() || !s.running() {
            return None;
        }
        Some(s)
    }
}

/// `sigma[c]`: the card that takes card `c`'s position (`orig[k]` gives
/// its position to `assigned[k]`; every other card keeps its own).
fn set_sigma(sigma: &mut Vec<CardId>, base: &State, orig: &[CardId], assigned: &[CardId]) {
    let cards = base.table.borrow().card_loc.len();
    sigma.clear();
    sigma.extend((0..cards).map(|c| c as CardId));
    for (&from, &to) in orig.iter().zip(assigned) {
        if let Some(s) = sigma.get_mut(from as usize) {
            *s = to;
        }
    }
}

/// The history kept in `seen`.
pub fn history_of(seen: Option<&Seen>) -> History {
    seen.and_then(|s| s.history.clone())
}

#[cfg(test)]
mod tests {
    use crate::engine::{GameOptions, Rules, State};
    use crate::game::GameState;
    use crate::random::{below, GameRng};

    /// The suits of the cards in each of four players' hands, from
    /// `describe` (an empty hand is not shown).
    fn hands(state: &State) -> Vec<Vec<String>> {
        let mut out = vec![Vec::new(); 4];
        let mut owner = None;
        for line in state.describe().lines() {
            if !line.starts_with(' ') {
                owner = line
                    .strip_prefix('p')
                    .and_then(|p| p.trim_end_matches(':').parse::<usize>().ok());
            } else if let (Some(p), Some(cards)) = (owner, line.trim().strip_prefix("iloc HAND ("))
            {
                let cards = cards.split_once("): ").map_or("", |(_, c)| c);
                out[p] = cards
                    .split(' ')
                    .filter_map(|c| c.split_once('-').map(|(s, _)| s.to_string()))
                    .collect();
            }
        }
        out
    }

    #[test]
    fn determinizations_deal_no_suit_to_a_player_who_showed_a_void() {
        // Agram, four players, random moves: a player who did not follow
        // the led suit holds none of it. At player 0's decisions, its
        // determinizations keep that (but when every try failed), while
        // the same table with nothing learnt deals such cards often.
        let agram = Rules::load(std::path::Path::new("games/agram.rcy")).unwrap();
        let (mut checked, mut broken, mut broken_unlearnt) = (0, 0, 0);
        for seed in 0..8 {
            let options = GameOptions {
                seed,
                overrides: Vec::new(),
            };
            let mut state = agram.start(&options).unwrap();
            state.keep_seen();
            let mut rng = GameRng::new(seed + 100);
            let mut led = String::new();
            let mut void: Vec<Vec<String>> = vec![Vec::new(); 4];
            let breaks = |drawn: &State, void: &[Vec<String>]| {
                let dealt = hands(drawn);
                void.iter()
                    .enumerate()
                    .any(|(q, suits)| suits.iter().any(|s| dealt[q].contains(s)))
            };
            while let Some(p) = state.current_player() {
                if p == 0 && void.iter().any(|v| !v.is_empty()) {
                    // The same table with nothing learnt: what the seats
                    // see kept from now on, no decision before.
                    let mut unlearnt = state.clone();
                    unlearnt.keep_seen();
                    for _ in 0..20 {
                        checked += 1;
                        let drawn = state.resample(0, &mut rng).unwrap();
                        assert_eq!(drawn.observation(0), state.observation(0));
                        broken += usize::from(breaks(&drawn, &void));
                        let drawn = unlearnt.resample(0, &mut rng).unwrap();
                        broken_unlearnt += usize::from(breaks(&drawn, &void));
                    }
                }
                let moves = state.legal_moves();
                let mv = moves[below(&mut rng, moves.len())].clone();
                let text = state.move_to_text(&mv);
                let card = text
                    .split("move ")
                    .nth(1)
                    .and_then(|m| m.split_once(' '))
                    .map_or("", |(c, _)| c);
                let suit = card.split_once('-').map_or("", |(s, _)| s).to_string();
                if text.contains("LEADSUIT") {
                    led = suit;
                } else if suit != led && !void[p].contains(&led) {
                    void[p].push(led.clone());
                }
                state.apply(&mv).unwrap();
            }
        }
        assert!(checked >= 200, "{checked}");
        assert!(
            broken_unlearnt * 2 > checked,
            "{broken_unlearnt} of {checked}"
        );
        assert!(broken * 50 < checked, "{broken} of {checked}");
    }
}
