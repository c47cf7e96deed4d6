//! Cartagena (`games/cartagena.rcy`) in its three rule sets (VARIANT 1:
//! playing cards, basic; 2: playing cards, advanced; 3: pirates) and every
//! player count each allows.
//!
//! - The blog's worked example (Green's turn, holding a diamond and a club)
//!   is built as a position and must offer exactly the nine moves the blog
//!   lists, as readable text.
//! - The setup of each rule set: the track, the deck, the hands and who sees
//!   them, the tokens.
//!
//! The random games checked against the reading of the rules are in
//! `cartagena_games.rs`; the shared reading in `cartagena_reading/`.
use cardboard::game::GameState;
use std::collections::{BTreeMap, BTreeSet};

mod cartagena_reading;

use cartagena_reading::*;

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
