//! Cartagena (`games/cartagena.rcy`) in its three rule sets (VARIANT 1:
//! playing cards, basic; 2: playing cards, advanced; 3: pirates) and every
//! player count each allows.
//!
//! - The setup of each rule set: the track, the deck, the hands and who sees
//!   them, the tokens.
//!
//! The blog's worked example (Green's turn, holding a diamond and a club:
//! exactly the nine moves the blog lists), the pirates' back move and the
//! settings refused are cases of `games/cartagena.tests`, run by
//! `cardboard test` (docs/authoring.md, `tests/cardboard_test.rs`).
//!
//! The random games checked against the reading of the rules are in
//! `cartagena_games.rs`; the shared reading in `cartagena_reading/`.
use cardboard::game::GameState;
use std::collections::{BTreeMap, BTreeSet};

mod cartagena_reading;

use cartagena_reading::*;

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
