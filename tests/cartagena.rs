//! Cartagena (`games/cartagena.rcy`) in its three rule sets (VARIANT 1:
//! playing cards, basic; 2: playing cards, advanced; 3: pirates) and every
//! player count each allows.
//!
//! - The blog's worked example (Green's turn, holding a diamond and a club)
//!   is built as a position and must offer exactly the nine moves the blog
//!   lists, as readable text.
//! - The setup of each rule set: the track, the deck, the hands and who sees
//!   them, the tokens.
//! - At every decision of seeded random games, the legal moves are compared
//!   with a direct Rust reading of the rules computed from the table, and
//!   what a move does (cards drawn, tokens moved, whose turn it is next, the
//!   final scores) is checked against that reading.
//! - 500 random games per rule set and player count end without an error
//!   and without reaching the decision limit.

use cardboard::drivers::simulate::{simulate, SimulateConfig};
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

/// Every rule set with every player count it allows.
const CONFIGS: [(u8, usize); 10] = [
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

const SUITS: [&str; 4] = ["HEARTS", "DIAMONDS", "CLUBS", "SPADES"];
const SYMBOLS: [&str; 6] = ["BOTTLE", "KEYS", "SWORD", "SKULL", "HAT", "PISTOL"];
const RANKS: [&str; 9] = [
    "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
];
const COLOURS: [&str; 5] = ["GREEN", "PURPLE", "RED", "BLUE", "YELLOW"];

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cartagena.rcy");
        Rules::load(&path).unwrap_or_else(|e| panic!("{e}"))
    })
}

fn options(variant: u8, nump: usize, seed: u64) -> GameOptions {
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
struct Table {
    /// Per space: the suit of its card (None for the start and the end).
    tiles: Vec<Option<String>>,
    /// Per space: the colours of its tokens, top first.
    tokens: Vec<Vec<String>>,
    /// Per seat: the cards in hand (hidden and face-up parts).
    hands: Vec<Vec<String>>,
    /// Per seat: how many cards lie in its hidden (`iloc`) and face-up
    /// (`vloc`) hand.
    hand_kinds: Vec<(usize, usize)>,
    /// Per seat: its colour.
    colours: Vec<String>,
    /// Per seat: `sto HOME`.
    home: Vec<i64>,
    /// Game storages.
    ints: BTreeMap<String, i64>,
    strs: BTreeMap<String, String>,
    /// Every location's cards, by "OWNER KIND NAME".
    locs: BTreeMap<String, Vec<String>>,
}

impl Table {
    fn read(state: &State, nump: usize) -> Table {
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

    fn int(&self, name: &str) -> i64 {
        self.ints.get(name).copied().unwrap_or(0)
    }

    fn loc_len(&self, key: &str) -> usize {
        self.locs.get(key).map_or(0, Vec::len)
    }

    fn end(&self) -> usize {
        self.tiles.len() - 1
    }

    /// Tokens of `colour` at the end of the track.
    fn arrived(&self, colour: &str) -> usize {
        self.tokens[self.end()]
            .iter()
            .filter(|c| *c == colour)
            .count()
    }
}

fn seat(owner: &str) -> usize {
    owner.strip_prefix('p').unwrap().parse().unwrap()
}

/// The suit (or symbol) of a card: the first part of its name.
fn suit(card: &str) -> &str {
    card.split('-').next().unwrap()
}

// ---------------------------------------------------------------------------
// Moves, read from their text, and the moves the rules allow.

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Action {
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
fn space_of(text: &str) -> usize {
    let rest = text
        .strip_prefix("TRACK[")
        .unwrap_or_else(|| panic!("not a space: {text}"));
    let (i, tail) = rest.split_once(']').unwrap();
    assert_eq!(tail, " TOKENS", "tokens lie in TOKENS: {text}");
    i.parse().unwrap()
}

/// `move GREEN TRACK[3] TOKENS -> TRACK[12] TOKENS` -> ("GREEN", 3, 12).
fn token_move(text: &str) -> (String, usize, usize) {
    let rest = text.strip_prefix("move ").unwrap();
    let (colour, rest) = rest.split_once(' ').unwrap();
    let (from, to) = rest.split_once(" -> ").unwrap();
    (colour.to_string(), space_of(from), space_of(to))
}

/// Reads a move's text; checks the card and token belong to `me`.
fn parse_move(text: &str, me: usize, t: &Table) -> Action {
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
fn expected_moves(t: &Table, variant: u8, me: usize) -> BTreeSet<Action> {
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

fn legal_texts(state: &State) -> Vec<String> {
    state
        .legal_moves()
        .iter()
        .map(|m| state.move_to_text(m))
        .collect()
}

// ---------------------------------------------------------------------------
// The worked example.

/// The blog's example, on a track that agrees with everything it says.
/// Green (seat 0) has a token on the start and on 3, 9 and 11; 9 holds three
/// tokens; 5 holds one; 1, 2, 6, 7, 8 and 10 are empty; the first empty
/// diamond is 12 and the only empty club is 2. Green holds the seven of
/// diamonds and the four of clubs.
fn worked_example() -> String {
    // Suits of spaces 1..16, and who stands where.
    let tiles = [
        "HEARTS-JACK",    // 1
        "CLUBS-JACK",     // 2
        "DIAMONDS-JACK",  // 3  green
        "CLUBS-QUEEN",    // 4  red
        "CLUBS-KING",     // 5  red
        "SPADES-JACK",    // 6
        "HEARTS-QUEEN",   // 7
        "SPADES-QUEEN",   // 8
        "DIAMONDS-QUEEN", // 9  green purple purple
        "HEARTS-KING",    // 10
        "CLUBS-ACE",      // 11 green
        "DIAMONDS-KING",  // 12
        "DIAMONDS-ACE",   // 13
        "SPADES-KING",    // 14 purple
        "HEARTS-ACE",     // 15
        "SPADES-ACE",     // 16 red
    ];
    let tokens: [(usize, &str); 8] = [
        (0, "GREEN PURPLE RED"),
        (3, "GREEN"),
        (4, "RED"),
        (5, "RED"),
        (9, "GREEN PURPLE PURPLE"),
        (11, "GREEN"),
        (14, "PURPLE"),
        (16, "RED"),
    ];
    let hands = [
        ("p0", "DIAMONDS-SEVEN CLUBS-FOUR"),
        ("p1", "HEARTS-TWO SPADES-THREE CLUBS-FIVE"),
        ("p2", "HEARTS-NINE SPADES-NINE DIAMONDS-TWO"),
    ];
    let discard = "HEARTS-THREE CLUBS-SIX DIAMONDS-EIGHT SPADES-TEN";
    let placed: BTreeSet<&str> = hands
        .iter()
        .flat_map(|(_, h)| h.split(' '))
        .chain(discard.split(' '))
        .collect();
    let draw: Vec<String> = SUITS
        .iter()
        .flat_map(|s| RANKS.iter().map(move |r| format!("{s}-{r}")))
        .filter(|c| !placed.contains(c.as_str()))
        .collect();
    let mut pos = String::from(
        "cardboard position 1\n\
         set VARIANT=1\n\
         set NUMP=3\n\
         frames top:1 stage0:1 stage1:0\n\
         cycles player 0 0 0\n\
         game sto END = 17\n\
         game sto NTOKENS = 4\n\
         game sto HANDSIZE = 3\n\
         game sto MAXACTIONS = 1\n\
         game str TURN = PLAYING\n\
         p0 str COLOR = GREEN\n\
         p1 str COLOR = PURPLE\n\
         p2 str COLOR = RED\n\
         game hloc BOX: BLUE*4 YELLOW*4\n",
    );
    pos += &format!("game hloc DRAW: {}\n", draw.join(" "));
    pos += &format!("game vloc DISCARD: {discard}\n");
    for (p, h) in hands {
        pos += &format!("{p} iloc HAND: {h}\n");
    }
    for (i, tile) in tiles.iter().enumerate() {
        pos += &format!("TRACK[{}] vloc TILE: {tile}\n", i + 1);
    }
    for (i, t) in tokens {
        pos += &format!("TRACK[{i}] vloc TOKENS: {t}\n");
    }
    pos
}

#[test]
fn worked_example_offers_the_nine_moves_of_the_blog() {
    let state = rules()
        .load_position(&worked_example())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(state.current_player(), Some(0), "Green (seat 0) is to play");
    let mut got = legal_texts(&state);
    got.sort();
    let d = "move DIAMONDS-SEVEN p0 HAND -> game DISCARD; move GREEN";
    let c = "move CLUBS-FOUR p0 HAND -> game DISCARD; move GREEN";
    let mut want = vec![
        // 1-4: play the diamond; the first empty diamond is 12.
        format!("{d} TRACK[0] TOKENS -> TRACK[12] TOKENS"),
        format!("{d} TRACK[3] TOKENS -> TRACK[12] TOKENS"),
        format!("{d} TRACK[9] TOKENS -> TRACK[12] TOKENS"),
        format!("{d} TRACK[11] TOKENS -> TRACK[12] TOKENS"),
        // 5: the club takes the start's token to 2.
        format!("{c} TRACK[0] TOKENS -> TRACK[2] TOKENS"),
        // 6-8: no empty club after 3: off the end (space 17).
        format!("{c} TRACK[3] TOKENS -> TRACK[17] TOKENS"),
        format!("{c} TRACK[9] TOKENS -> TRACK[17] TOKENS"),
        format!("{c} TRACK[11] TOKENS -> TRACK[17] TOKENS"),
        // 9: back from 9 to 5 (one token there): draw one card. Not 11 to 9
        // (three tokens), nor past 9; nothing is occupied behind 3.
        "move GREEN TRACK[9] TOKENS -> TRACK[5] TOKENS; game DRAWS = 1".to_string(),
    ];
    want.sort();
    assert_eq!(got, want);

    // The back move draws one card and passes the turn to Purple.
    let back = state
        .move_from_text("move GREEN TRACK[9] TOKENS -> TRACK[5] TOKENS; game DRAWS = 1")
        .unwrap();
    let mut after = state.clone();
    after.apply(&back).unwrap();
    let t = Table::read(&after, 3);
    assert_eq!(t.hands[0].len(), 3, "Green drew one card");
    assert_eq!(t.tokens[5], ["GREEN", "RED"]);
    assert_eq!(t.tokens[9], ["PURPLE", "PURPLE"]);
    assert_eq!(after.current_player(), Some(1), "Purple's turn");

    // The club from 11 takes a token off the end: Green has one there.
    let off = state
        .move_from_text(&format!("{c} TRACK[11] TOKENS -> TRACK[17] TOKENS"))
        .unwrap();
    let mut after = state.clone();
    after.apply(&off).unwrap();
    let t = Table::read(&after, 3);
    assert_eq!(t.home[0], 1);
    assert_eq!(t.hands[0], ["DIAMONDS-SEVEN"]);
    assert_eq!(t.locs["game vloc DISCARD"][0], "CLUBS-FOUR");
    assert_eq!(after.current_player(), Some(1));
}

/// In the same position the pirate rules (VARIANT 3) let a back move pass a
/// cell with three pirates: from 11, past 9, to 5.
#[test]
fn pirates_pass_cells_with_three_on_the_way_back() {
    // The pirates' deck and track; only back moves matter here, so Green
    // holds no card (every card is in the draw pile).
    let mut pos = String::from(
        "cardboard position 1\n\
         set VARIANT=3\n\
         set NUMP=3\n\
         frames top:1 stage0:1 stage1:0\n\
         cycles player 0 0 0\n\
         game sto END = 37\n\
         game sto NTOKENS = 6\n\
         game sto HANDSIZE = 6\n\
         game sto MAXACTIONS = 2\n\
         game str TURN = PLAYING\n\
         p0 str COLOR = GREEN\n\
         p1 str COLOR = PURPLE\n\
         p2 str COLOR = RED\n\
         game hloc BOX: BLUE*6 YELLOW*6\n\
         game hloc DRAW: BOTTLE*30 KEYS*30 SWORD*30 SKULL*30 HAT*30 PISTOL*30\n\
         TRACK[0] vloc TOKENS: GREEN*3 PURPLE*3 RED*4\n\
         TRACK[3] vloc TOKENS: GREEN\n\
         TRACK[5] vloc TOKENS: RED\n\
         TRACK[9] vloc TOKENS: GREEN PURPLE PURPLE\n\
         TRACK[11] vloc TOKENS: GREEN\n\
         TRACK[14] vloc TOKENS: PURPLE\n\
         TRACK[16] vloc TOKENS: RED\n",
    );
    // Six segments, each with the six symbols once.
    for i in 1..=36 {
        pos += &format!("TRACK[{i}] vloc TILE: {}\n", SYMBOLS[(i - 1) % 6]);
    }
    let state = rules()
        .load_position(&pos)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut got = legal_texts(&state);
    got.sort();
    assert_eq!(
        got,
        [
            "move GREEN TRACK[11] TOKENS -> TRACK[5] TOKENS; game DRAWS = 1",
            "move GREEN TRACK[9] TOKENS -> TRACK[5] TOKENS; game DRAWS = 1",
        ]
    );
}

// ---------------------------------------------------------------------------
// Setup.

#[test]
fn setup_builds_each_rule_set() {
    for (variant, nump) in CONFIGS {
        let state = rules()
            .start(&options(variant, nump, 11))
            .unwrap_or_else(|e| panic!("V{variant} N{nump}: {e}"));
        let t = Table::read(&state, nump);
        let what = format!("VARIANT={variant} NUMP={nump}");
        let (laid, tokens, hand, deck, actions) = match variant {
            1 => (16, 4, 3, 36, 1),
            2 => (36, 6, 3, 54, 3),
            _ => (36, 6, 6, 180, 2),
        };
        assert_eq!(t.end(), laid + 1, "{what}: start, {laid} cards, end");
        assert_eq!(t.int("MAXACTIONS"), actions, "{what}");
        assert!(
            t.tiles[0].is_none() && t.tiles[laid + 1].is_none(),
            "{what}"
        );
        // The track's cards.
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for tile in &t.tiles[1..=laid] {
            *count.entry(tile.as_deref().unwrap()).or_default() += 1;
        }
        let kinds: Vec<&str> = if variant == 1 {
            SUITS.to_vec()
        } else {
            SYMBOLS.to_vec()
        };
        for k in &kinds {
            assert_eq!(
                count.get(k),
                Some(&(laid / kinds.len())),
                "{what}: {k} on the track"
            );
        }
        if variant == 3 {
            for seg in 0..6 {
                let symbols: BTreeSet<&str> = (1..=6)
                    .map(|j| t.tiles[seg * 6 + j].as_deref().unwrap())
                    .collect();
                assert_eq!(symbols.len(), 6, "{what}: segment {seg} has every symbol");
            }
        }
        if variant == 1 {
            let ranks: BTreeSet<&str> = t
                .locs
                .iter()
                .filter(|(k, _)| k.ends_with("vloc TILE"))
                .map(|(_, c)| c[0].split('-').nth(1).unwrap())
                .collect();
            assert_eq!(
                ranks,
                ["ACE", "JACK", "KING", "QUEEN"].into_iter().collect()
            );
        }
        // Tokens on the start, one colour per seat in seat order.
        assert_eq!(t.colours, COLOURS[..nump].to_vec(), "{what}");
        for c in &t.colours {
            let n = t.tokens[0].iter().filter(|x| *x == c).count();
            assert_eq!(n, tokens, "{what}: {c} tokens on the start");
        }
        assert_eq!(t.tokens[0].len(), tokens * nump, "{what}");
        assert!(t.tokens[1..].iter().all(Vec::is_empty), "{what}");
        // Hands, hidden or face up, and the draw pile.
        for p in 0..nump {
            let kinds = if variant == 3 { (0, hand) } else { (hand, 0) };
            assert_eq!(t.hand_kinds[p], kinds, "{what}: p{p}'s hand");
        }
        assert_eq!(t.loc_len("game hloc DRAW"), deck - hand * nump, "{what}");
        assert_eq!(t.loc_len("game vloc DISCARD"), 0, "{what}");
        // What the next player sees of the first player's hand.
        let seen = state.observation(1);
        let line = seen
            .lines()
            .skip_while(|l| *l != "p0:")
            .find(|l| l.contains("loc HAND"))
            .unwrap_or_else(|| panic!("{what}: no hand of p0 in\n{seen}"));
        assert_eq!(
            line.ends_with("hidden"),
            variant != 3,
            "{what}: p1 sees p0's hand only in the pirate game: {line}"
        );
        assert_eq!(state.current_player(), Some(0), "{what}: seat 0 starts");
    }
}

#[test]
fn out_of_range_options_are_refused() {
    for (variant, nump) in [(0, 4), (4, 4), (1, 5), (2, 5), (1, 1), (3, 6)] {
        let r = rules().start(&options(variant, nump, 1));
        assert!(
            r.is_err(),
            "VARIANT={variant} NUMP={nump} should be refused"
        );
    }
    assert!(rules().start(&options(3, 5, 1)).is_ok());
}

// ---------------------------------------------------------------------------
// Random games against the reading of the rules.

/// Plays seeded random games and checks every decision against
/// [`expected_moves`] and every move's effect.
fn check_games(variant: u8, nump: usize, games: u64) {
    let r = rules();
    // Actions per turn: one in the basic game, up to three in the advanced
    // one, one or two in the pirate game.
    let max_actions = [1, 3, 2][variant as usize - 1];
    for g in 0..games {
        let seed = 1000 * variant as u64 + 100 * nump as u64 + g;
        let what = format!("VARIANT={variant} NUMP={nump} seed {seed}");
        let mut state = r.start(&options(variant, nump, seed)).unwrap();
        let mut rng = GameRng::new(seed);
        let mut decisions = 0;
        while state.status() == Status::Running {
            decisions += 1;
            assert!(decisions <= 5_000, "{what}: the game does not end");
            let me = state.current_player().unwrap();
            let t = Table::read(&state, nump);
            let moves = state.legal_moves();
            let texts: Vec<String> = moves.iter().map(|m| state.move_to_text(m)).collect();
            let got: Vec<Action> = texts.iter().map(|x| parse_move(x, me, &t)).collect();
            let set: BTreeSet<Action> = got.iter().cloned().collect();
            assert_eq!(
                set.len(),
                got.len(),
                "{what}, decision {decisions}: duplicates {texts:?}"
            );
            assert_eq!(
                set,
                expected_moves(&t, variant, me),
                "{what}, decision {decisions}, p{me}\n{}",
                state.describe()
            );

            let pick = below(&mut rng, moves.len());
            let action = got[pick].clone();
            state.apply(&moves[pick]).unwrap();
            state.check_conservation().unwrap();
            let u = Table::read(&state, nump);

            // What the move did.
            let colour = &t.colours[me];
            let mine = |tb: &Table, s: usize| tb.tokens[s].iter().filter(|c| *c == colour).count();
            match &action {
                Action::Forward { from, to, .. } => {
                    assert_eq!(
                        u.hands[me].len(),
                        t.hands[me].len() - 1,
                        "{what}: one card played"
                    );
                    assert_eq!(mine(&u, *from) + 1, mine(&t, *from), "{what}");
                    assert_eq!(mine(&u, *to), mine(&t, *to) + 1, "{what}");
                }
                Action::Back { from, to, draws } => {
                    let available = t.loc_len("game hloc DRAW") + t.loc_len("game vloc DISCARD");
                    assert_eq!(
                        u.hands[me].len(),
                        t.hands[me].len() + (*draws).min(available),
                        "{what}: cards drawn"
                    );
                    assert_eq!(mine(&u, *from) + 1, mine(&t, *from), "{what}");
                    assert_eq!(u.tokens[*to].len(), t.tokens[*to].len() + 1, "{what}");
                }
                Action::End | Action::Pass => {
                    assert_eq!(u.tokens, t.tokens, "{what}: nothing moves");
                    assert_eq!(u.hands, t.hands, "{what}: nothing moves");
                }
            }
            assert_eq!(
                u.home[me] as usize,
                u.arrived(colour),
                "{what}: HOME counts"
            );
            // Face-up hands only in the pirate game.
            for p in 0..nump {
                if variant == 3 {
                    assert_eq!(u.hand_kinds[p].0, 0, "{what}");
                } else {
                    assert_eq!(u.hand_kinds[p].1, 0, "{what}");
                }
            }

            // Whose turn it is.
            if state.status() == Status::Running {
                let tokens = u.int("NTOKENS") as usize;
                let turn_over = matches!(action, Action::End | Action::Pass)
                    || t.int("TAKEN") + 1 >= max_actions
                    || u.arrived(colour) == tokens;
                let next = if turn_over { (me + 1) % nump } else { me };
                assert_eq!(state.current_player(), Some(next), "{what}: turn order");
            }
        }
        assert_eq!(state.status(), Status::Finished, "{what}");
        let t = Table::read(&state, nump);
        let outcome = state.outcome().unwrap();
        let arrived: Vec<i64> = t.colours.iter().map(|c| t.arrived(c) as i64).collect();
        assert_eq!(
            outcome.scores, arrived,
            "{what}: scores are tokens at the end"
        );
        let best = *arrived.iter().max().unwrap();
        let winners: Vec<usize> = (0..nump).filter(|&p| arrived[p] == best).collect();
        assert_eq!(outcome.winners, winners, "{what}");
        let tokens = t.int("NTOKENS");
        if best == tokens {
            assert_eq!(winners.len(), 1, "{what}: one player got all tokens home");
        } else {
            // Blocked (everyone passed in a row) or stalled.
            assert!(
                t.int("PASSES") >= nump as i64 || t.int("QUIET") >= 100 * nump as i64,
                "{what}: the game ended without a winner for no reason\n{}",
                state.describe()
            );
        }
    }
}

#[test]
fn random_games_follow_the_rules_basic() {
    for nump in 2..=4 {
        check_games(1, nump, 12);
    }
}

#[test]
fn random_games_follow_the_rules_advanced() {
    for nump in 2..=4 {
        check_games(2, nump, 6);
    }
}

#[test]
fn random_games_follow_the_rules_pirates() {
    for nump in 2..=5 {
        check_games(3, nump, 5);
    }
}

/// A stalled game ends after STALL rounds without a token reaching the end:
/// with STALL=1 the first round in which nobody arrives ends the game.
#[test]
fn stall_limit_ends_the_game() {
    let mut opts = options(1, 3, 5);
    opts.overrides.push(("STALL".to_string(), "1".to_string()));
    let mut state = rules().start(&opts).unwrap();
    let mut rng = GameRng::new(5);
    let mut decisions = 0;
    while state.status() == Status::Running {
        let moves = state.legal_moves();
        state.apply(&moves[below(&mut rng, moves.len())]).unwrap();
        decisions += 1;
        assert!(decisions <= 1_000, "the game does not end");
    }
    let t = Table::read(&state, 3);
    assert_eq!(
        t.tokens[t.end()].len(),
        0,
        "nobody arrived in the first round"
    );
    assert_eq!(decisions, 3, "one round of three one-action turns");
    assert_eq!(state.outcome().unwrap().winners, vec![0, 1, 2]);
}

// ---------------------------------------------------------------------------
// Many random games.

/// 500 random games of every rule set and player count: no error, no game
/// reaching the decision limit (the blocked and stalled readings end every
/// game). `cargo test --test cartagena -- --nocapture` prints the figures.
fn simulate_variant(variant: u8) {
    for (v, nump) in CONFIGS {
        if v != variant {
            continue;
        }
        let config = SimulateConfig {
            games: 500,
            seed: 7,
            overrides: options(variant, nump, 0).overrides,
            max_decisions: 10_000,
            jobs: 0,
        };
        let report = simulate(rules(), &config, &|_| {}).unwrap();
        eprintln!(
            "VARIANT={variant} NUMP={nump}: {} games, {} completed, {} at the decision limit, \
             {} errors; wins {:?}, ties {:?}; decisions mean {:.1} max {}; {:.1} moves per decision",
            report.games,
            report.completed,
            report.stopped_at_limit,
            report.errors,
            report.wins,
            report.ties,
            report.mean_decisions,
            report.max_decisions,
            report.mean_branching
        );
        assert_eq!(
            report.errors, 0,
            "VARIANT={variant} NUMP={nump}: {:?}",
            report.first_errors
        );
        assert_eq!(
            report.stopped_at_limit, 0,
            "VARIANT={variant} NUMP={nump}: {:?}",
            report.first_stops
        );
        assert_eq!(report.completed, 500);
        // Every seat wins some games alone.
        assert!(
            report.wins.iter().all(|&w| w > 0),
            "VARIANT={variant} NUMP={nump}: {:?}",
            report.wins
        );
    }
}

#[test]
fn five_hundred_random_games_basic() {
    simulate_variant(1);
}

#[test]
fn five_hundred_random_games_advanced() {
    simulate_variant(2);
}

#[test]
fn five_hundred_random_games_pirates() {
    simulate_variant(3);
}
