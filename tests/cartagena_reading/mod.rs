//! What the Cartagena tests share: the rules, the rule sets and player
//! counts, the table read back from the engine's description, moves read from
//! their text, and a direct Rust reading of which moves the rules allow.
#![allow(dead_code)] // each test binary uses a part

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

/// Every rule set with every player count it allows.
pub const CONFIGS: [(u8, usize); 10] = [
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 2),
    (2, 3),
    (2, 4),
    (3, 2),
    (3, 3),
    (3, 4),
    (3, 5),
];

pub const SUITS: [&str; 4] = ["HEARTS", "DIAMONDS", "CLUBS", "SPADES"];
pub const SYMBOLS: [&str; 6] = ["BOTTLE", "KEYS", "SWORD", "SKULL", "HAT", "PISTOL"];
pub const RANKS: [&str; 9] = [
    "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
];
pub const COLOURS: [&str; 5] = ["GREEN", "PURPLE", "RED", "BLUE", "YELLOW"];

pub fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cartagena.rcy");
        Rules::load(&path).unwrap_or_else(|e| panic!("{e}"))
    })
}

pub fn options(variant: u8, nump: usize, seed: u64) -> GameOptions {
    GameOptions {
        seed,
        overrides: vec![
            ("VARIANT".to_string(), variant.to_string()),
            ("NUMP".to_string(), nump.to_string()),
        ],
    }
}

// ---------------------------------------------------------------------------
// The table, read back from `describe()`.

/// What the rules need to know of a table, read from the engine's full
/// description (every card face included).
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Per space: the suit of its card (None for the start and the end).
    pub tiles: Vec<Option<String>>,
    /// Per space: the colours of its tokens, top first.
    pub tokens: Vec<Vec<String>>,
    /// Per seat: the cards in hand (hidden and face-up parts).
    pub hands: Vec<Vec<String>>,
    /// Per seat: how many cards lie in its hidden (`iloc`) and face-up
    /// (`vloc`) hand.
    pub hand_kinds: Vec<(usize, usize)>,
    /// Per seat: its colour.
    pub colours: Vec<String>,
    /// Per seat: `sto HOME`.
    pub home: Vec<i64>,
    /// Game storages.
    pub ints: BTreeMap<String, i64>,
    pub strs: BTreeMap<String, String>,
    /// Every location's cards, by "OWNER KIND NAME".
    pub locs: BTreeMap<String, Vec<String>>,
}

impl Table {
    pub fn read(state: &State, nump: usize) -> Table {
        let text = state.describe();
        let mut t = Table {
            hands: vec![Vec::new(); nump],
            hand_kinds: vec![(0, 0); nump],
            colours: vec![String::new(); nump],
            home: vec![0; nump],
            ..Table::default()
        };
        let mut owner = String::new();
        for line in text.lines() {
            if !line.starts_with(' ') {
                owner = line.trim_end_matches(':').to_string();
                continue;
            }
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("sto ") {
                let (name, value) = rest.split_once(" = ").unwrap();
                let value: i64 = value.parse().unwrap();
                if owner == "game" {
                    t.ints.insert(name.to_string(), value);
                } else if name == "HOME" {
                    t.home[seat(&owner)] = value;
                }
            } else if let Some(rest) = line.strip_prefix("str ") {
                let (name, value) = rest.split_once(" = ").unwrap();
                if owner == "game" {
                    t.strs.insert(name.to_string(), value.to_string());
                } else if name == "COLOR" {
                    t.colours[seat(&owner)] = value.to_string();
                }
            } else {
                let (head, cards) = line.split_once(": ").unwrap();
                let name = head.split(" (").next().unwrap();
                let cards: Vec<String> = cards.split(' ').map(str::to_string).collect();
                t.locs.insert(format!("{owner} {name}"), cards);
            }
        }
        let spaces = t.ints["END"] as usize + 1;
        t.tiles = vec![None; spaces];
        t.tokens = vec![Vec::new(); spaces];
        for (key, cards) in &t.locs {
            if let Some(rest) = key.strip_prefix("TRACK[") {
                let (index, name) = rest.split_once("] ").unwrap();
                let i: usize = index.parse().unwrap();
                match name {
                    "vloc TILE" => {
                        assert_eq!(cards.len(), 1, "one card on TRACK[{i}]");
                        t.tiles[i] = Some(suit(&cards[0]).to_string());
                    }
                    "vloc TOKENS" => t.tokens[i] = cards.clone(),
                    other => panic!("unexpected location {other} on a space"),
                }
            } else if let Some(rest) = key.strip_prefix('p') {
                let (n, name) = rest.split_once(' ').unwrap();
                let p: usize = n.parse().unwrap();
                match name {
                    "iloc HAND" => t.hand_kinds[p].0 = cards.len(),
                    "vloc HAND" => t.hand_kinds[p].1 = cards.len(),
                    other => panic!("unexpected location {other} of a player"),
                }
                t.hands[p].extend(cards.iter().cloned());
            }
        }
        t
    }

    pub fn int(&self, name: &str) -> i64 {
        self.ints.get(name).copied().unwrap_or(0)
    }

    pub fn loc_len(&self, key: &str) -> usize {
        self.locs.get(key).map_or(0, Vec::len)
    }

    pub fn end(&self) -> usize {
        self.tiles.len() - 1
    }

    /// Tokens of `colour` at the end of the track.
    pub fn arrived(&self, colour: &str) -> usize {
        self.tokens[self.end()]
            .iter()
            .filter(|c| *c == colour)
            .count()
    }
}

pub fn seat(owner: &str) -> usize {
    owner.strip_prefix('p').unwrap().parse().unwrap()
}

/// The suit (or symbol) of a card: the first part of its name.
pub fn suit(card: &str) -> &str {
    card.split('-').next().unwrap()
}

// ---------------------------------------------------------------------------
// Moves, read from their text, and the moves the rules allow.

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Action {
    /// Play a card of `suit`, move a token from `from` to `to`.
    Forward {
        from: usize,
        to: usize,
        suit: String,
    },
    /// Move a token back from `from` to `to`, drawing `draws` cards.
    Back {
        from: usize,
        to: usize,
        draws: usize,
    },
    /// End the turn early.
    End,
    /// Pass (nothing else possible).
    Pass,
}

/// `TRACK[12] TOKENS` -> 12.
pub fn space_of(text: &str) -> usize {
    let rest = text
        .strip_prefix("TRACK[")
        .unwrap_or_else(|| panic!("not a space: {text}"));
    let (i, tail) = rest.split_once(']').unwrap();
    assert_eq!(tail, " TOKENS", "tokens lie in TOKENS: {text}");
    i.parse().unwrap()
}

/// `move GREEN TRACK[3] TOKENS -> TRACK[12] TOKENS` -> ("GREEN", 3, 12).
pub fn token_move(text: &str) -> (String, usize, usize) {
    let rest = text.strip_prefix("move ").unwrap();
    let (colour, rest) = rest.split_once(' ').unwrap();
    let (from, to) = rest.split_once(" -> ").unwrap();
    (colour.to_string(), space_of(from), space_of(to))
}

/// Reads a move's text; checks the card and token belong to `me`.
pub fn parse_move(text: &str, me: usize, t: &Table) -> Action {
    match text {
        "game TURN = END" => return Action::End,
        "game TURN = PASS" => return Action::Pass,
        _ => {}
    }
    let parts: Vec<&str> = text.split("; ").collect();
    match parts.as_slice() {
        [discard, token] if discard.ends_with(" HAND -> game DISCARD") => {
            let words: Vec<&str> = discard.split(' ').collect();
            let card = words[1];
            assert_eq!(
                words[2],
                format!("p{me}"),
                "{text}: the card comes from my hand"
            );
            assert!(
                t.hands[me].iter().any(|c| c == card),
                "{text}: {card} is in my hand"
            );
            let (colour, from, to) = token_move(token);
            assert_eq!(colour, t.colours[me], "{text}: my token");
            Action::Forward {
                from,
                to,
                suit: suit(card).to_string(),
            }
        }
        [token, draws] if draws.starts_with("game DRAWS = ") => {
            let (colour, from, to) = token_move(token);
            assert_eq!(colour, t.colours[me], "{text}: my token");
            Action::Back {
                from,
                to,
                draws: draws["game DRAWS = ".len()..].parse().unwrap(),
            }
        }
        _ => panic!("unexpected move text: {text}"),
    }
}

/// The moves the rules allow `me` on table `t`, read directly from the rule
/// texts (see the file's header for the readings).
pub fn expected_moves(t: &Table, variant: u8, me: usize) -> BTreeSet<Action> {
    let colour = &t.colours[me];
    let end = t.end();
    let suits: BTreeSet<&str> = t.hands[me].iter().map(|c| suit(c)).collect();
    let mut moves = BTreeSet::new();
    let mut can_back = false;
    for s in 0..end {
        if !t.tokens[s].iter().any(|c| c == colour) {
            continue;
        }
        for &u in &suits {
            let to = (s + 1..=end)
                .find(|&v| v == end || (t.tokens[v].is_empty() && t.tiles[v].as_deref() == Some(u)))
                .unwrap();
            moves.insert(Action::Forward {
                from: s,
                to,
                suit: u.to_string(),
            });
        }
        if s > 0 {
            // The closest card behind holding tokens (VARIANT 3: holding one
            // or two); it must hold one or two.
            let behind = (1..s).rev().find(|&v| {
                let n = t.tokens[v].len();
                n > 0 && (variant != 3 || n < 3)
            });
            if let Some(b) = behind {
                let n = t.tokens[b].len();
                if n <= 2 {
                    can_back = true;
                    moves.insert(Action::Back {
                        from: s,
                        to: b,
                        draws: n,
                    });
                }
            }
        }
    }
    let taken = t.int("TAKEN");
    if taken > 0 {
        moves.insert(Action::End);
    }
    if taken == 0 && suits.is_empty() && !can_back {
        moves.insert(Action::Pass);
    }
    moves
}

pub fn legal_texts(state: &State) -> Vec<String> {
    state
        .legal_moves()
        .iter()
        .map(|m| state.move_to_text(m))
        .collect()
}
