//! The structured observation (`GameState::observe`, docs/protocol.md):
//! nothing a seat is shown reveals a card that seat may not see. For every
//! shipped game and example, for every seat at every decision of seeded
//! random games, the seat's observation (as data, as JSON, as text, its
//! legal moves as it reads them, and every move the others play as it is
//! told of it) is compared with the true table, whose visibility this
//! test works out on its own from the language's table of location kinds
//! (docs/language.md, section 6).

mod common;

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;
use cardboard::observation::{LocationView, Observation, OwnerView};
use cardboard::random::GameRng;
use std::collections::HashSet;

/// Whether seat `seat` may see the faces of a location of kind `kind`
/// owned by `owner` (`game`, `p0`, `team1`, a space), as docs/language.md
/// says: `vloc` and `mem` everyone, `iloc` its owner (a team's: its
/// members; the game's and a space's: nobody), `hloc` nobody, `oloc`
/// everyone but its owner (a team's: everyone but its members).
fn may_see(seat: usize, teams: &[Vec<usize>], owner: &str, kind: &str) -> bool {
    let me = format!("p{seat}");
    let member = || {
        owner
            .strip_prefix("team")
            .and_then(|t| t.parse::<usize>().ok())
            .and_then(|t| teams.get(t))
            .is_some_and(|m| m.contains(&seat))
    };
    match kind {
        "vloc" | "mem" => true,
        "hloc" => false,
        "iloc" => owner == me || member(),
        "oloc" => owner != me && !member(),
        other => panic!("unknown location kind {other}"),
    }
}

/// Every owner of a view with its locations: the game, players, teams,
/// then the spaces.
fn owners(v: &Observation) -> Vec<&OwnerView> {
    let spaces = v.boards.iter().flat_map(|b| &b.spaces);
    v.owners.iter().chain(spaces.map(|s| &s.contents)).collect()
}

/// The card names a seat may see and those it may not, from the truth.
fn names(whole: &Observation, seat: usize) -> (HashSet<String>, HashSet<String>) {
    let (mut seen, mut hidden) = (HashSet::new(), HashSet::new());
    for o in owners(whole) {
        for l in &o.locations {
            let into = match may_see(seat, &whole.teams, &o.owner, &l.kind) {
                true => &mut seen,
                false => &mut hidden,
            };
            into.extend(l.cards.iter().flatten().map(|c| c.name.clone()));
        }
    }
    (seen, hidden)
}

/// The words of a text, as card names are made (letters, digits, `_`,
/// `-`, `#`): the JSON's strings, the text's words.
fn words(text: &str) -> HashSet<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '#'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Checks that `what`, shown to `seat`, names no card in `secret`.
fn names_none(secret: &HashSet<String>, text: &str, what: &str, place: &str) {
    let words = words(text);
    let leaked: Vec<&String> = secret
        .iter()
        .filter(|n| words.contains(n.as_str()))
        .collect();
    assert!(
        leaked.is_empty(),
        "{place}: {what} names {leaked:?}:\n{text}"
    );
}

/// Checks one seat's observation of `state` against the truth.
fn check_seat(state: &State, whole: &Observation, seat: usize, place: &str) {
    let seen = state.observe(seat);
    let place = &format!("{place}, seat {seat}");
    // Same owners, locations, counts and storages; faces exactly where
    // the seat may see them.
    let (mine, all) = (owners(&seen), owners(whole));
    assert_eq!(mine.len(), all.len(), "{place}: owners");
    for (o, t) in mine.iter().zip(&all) {
        assert_eq!(o.owner, t.owner, "{place}");
        assert_eq!(o.storages, t.storages, "{place}: storages of {}", o.owner);
        assert_eq!(o.locations.len(), t.locations.len(), "{place}: {}", o.owner);
        for (l, tl) in o.locations.iter().zip(&t.locations) {
            let LocationView {
                name, kind, count, ..
            } = tl;
            assert_eq!((&l.name, &l.kind, l.count), (name, kind, *count), "{place}");
            let expected = may_see(seat, &whole.teams, &o.owner, kind).then_some(&tl.cards);
            match expected {
                Some(cards) => assert_eq!(&l.cards, cards, "{place}: {} {name}", o.owner),
                None => assert_eq!(l.cards, None, "{place}: {} {name} shown", o.owner),
            }
        }
    }
    // No word of the JSON, the text or the legal moves names a card only
    // hidden ones bear.
    let (visible, hidden) = names(whole, seat);
    let secret: HashSet<String> = hidden.difference(&visible).cloned().collect();
    let json = serde_json::to_string(&seen).expect("serializes");
    // The display section is the rules file's own words (every attribute
    // value it gives a look), the same for every seat at every moment: it
    // says nothing of where a card lies, so it is left out of the check.
    let mut shown = seen.clone();
    assert_eq!(shown.display, state.display(), "{place}: display");
    shown.display = None;
    let shown_json = serde_json::to_string(&shown).expect("serializes");
    names_none(&secret, &shown_json, "the JSON", place);
    names_none(&secret, &state.observation(seat), "the text", place);
    assert_eq!(state.observation(seat), seen.to_text(), "{place}: text");
    let back: Observation = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back, seen, "{place}: JSON round trip");
    // The moves, with their ids, when this seat must decide.
    let to_play = state.current_player() == Some(seat);
    let ids: Vec<usize> = seen.moves.iter().map(|m| m.id).collect();
    let expected: Vec<usize> = match to_play {
        true => (0..state.legal_moves().len()).collect(),
        false => Vec::new(),
    };
    assert_eq!(ids, expected, "{place}: move ids");
    assert_eq!(seen.decision, state.decisions(), "{place}");
    assert_eq!(
        (seen.seat, seen.players),
        (seat, state.num_players()),
        "{place}"
    );
}

/// Plays `games` seeded random games of `rules` (at most `limit`
/// decisions each), checking every seat at every decision, and every move
/// played as each other seat is told of it. Returns the decisions checked.
fn check_games(
    rules: &Rules,
    set: &[(&str, &str)],
    seeds: std::ops::Range<u64>,
    limit: u64,
) -> u64 {
    let overrides: Vec<(String, String)> = set
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut decisions = 0;
    for seed in seeds {
        let options = GameOptions {
            seed,
            overrides: overrides.clone(),
        };
        let mut state = rules.start(&options).expect("starts");
        let mut rng = GameRng::new(seed);
        while let Some(mover) = state.current_player() {
            if state.decisions() >= limit {
                break;
            }
            let place = format!("{set:?} seed {seed} decision {}", state.decisions());
            let whole = state.whole_view();
            for seat in 0..state.num_players() {
                check_seat(&state, &whole, seat, &place);
            }
            let mv = state.random_move(&mut rng).expect("a legal move");
            let told: Vec<String> = (0..state.num_players())
                .map(|seat| state.move_to_text_seen_by(&mv, seat))
                .collect();
            let before: Vec<_> = (0..state.num_players()).map(|s| names(&whole, s)).collect();
            state.apply(&mv).expect("plays");
            let after = state.whole_view();
            for (seat, text) in told.iter().enumerate().filter(|(s, _)| *s != mover) {
                // A card is named if the seat saw it before or sees it now.
                let (seen_after, hidden_after) = names(&after, seat);
                let (seen_before, hidden_before) = &before[seat];
                let secret: HashSet<String> = hidden_before
                    .union(&hidden_after)
                    .filter(|n| !seen_before.contains(*n) && !seen_after.contains(*n))
                    .cloned()
                    .collect();
                let what = format!("p{mover}'s move as told");
                names_none(&secret, text, &what, &format!("{place}, seat {seat}"));
            }
            decisions += 1;
        }
    }
    decisions
}

/// Every shipped game and example, three seeded games each.
#[test]
fn no_seat_sees_a_card_it_may_not() {
    let files = common::game_files()
        .into_iter()
        .chain(common::example_files());
    for path in files {
        let rules = Rules::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let n = check_games(&rules, &[], 1..4, 150);
        assert!(n > 0, "{}: no decision checked", path.display());
    }
}

/// The games with hidden hands and programs, with other numbers of
/// players (Cardbot Derby's house robot with three, two robots each with
/// two).
#[test]
fn hidden_hands_and_programs_stay_hidden() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let agram = Rules::load(&dir.join("agram.rcy")).unwrap();
    let derby = Rules::load(&dir.join("cardbot-derby.rcy")).unwrap();
    for nump in ["2", "3", "5"] {
        assert!(check_games(&agram, &[("NUMP", nump)], 4..7, 1_000) > 0);
        assert!(check_games(&derby, &[("NUMP", nump)], 4..6, 120) > 0);
    }
}

/// Teams: a team's `iloc` is seen by its members only, an `oloc` by all
/// but its owner (a team's by all but its members); and a move that draws a hidden card does not show its
/// face to the player choosing it, nor to the others when it is played.
#[test]
fn teams_and_draws() {
    let rules = Rules::from_source(
        "teams.rcy",
        "(game
 (setup (create players 4)
        (create teams (0, 2) (1, 3))
        (create deck (game hloc STOCK) (deck (RANK (A, B, C, D, E, F, G, H, I, J, K, L)))))
 (do ((shuffle (game hloc STOCK))
      (all team 'T (move (top (game hloc STOCK)) (top ('T iloc SECRET))))
      (all team 'T (move (top (game hloc STOCK)) (top ('T oloc BACK))))
      (all player 'P (move (top (game hloc STOCK)) (top ('P oloc FOREHEAD))))))
 (stage player (end (< (size (game hloc STOCK)) 2))
   (choice ((any (game hloc STOCK) 'C (move 'C (top ((current player) iloc HAND)))))))
 (scoring max (size ((current player) iloc HAND))))",
    )
    .unwrap();
    assert!(check_games(&rules, &[], 1..4, 100) > 0);
    let state = rules
        .start(&GameOptions {
            seed: 2,
            overrides: vec![],
        })
        .unwrap();
    let p0 = state.observe(0);
    let team = |t: &str, l: &str| {
        let owner = p0.owner(t).unwrap();
        let loc = owner.locations.iter().find(|x| x.name == l).unwrap();
        loc.cards.is_some()
    };
    assert_eq!(
        (team("team0", "SECRET"), team("team1", "SECRET")),
        (true, false)
    );
    assert_eq!(
        (team("team0", "BACK"), team("team1", "BACK")),
        (false, true)
    );
    let forehead = |p: &str| p0.owner(p).unwrap().locations[0].cards.is_some();
    assert_eq!((forehead("p0"), forehead("p1")), (false, true));
    // p0 chooses among cards it cannot see: no face in the texts, which
    // stay distinct; the full texts (transcripts) name them.
    let texts: Vec<&str> = p0.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts[0], "move a card game STOCK -> p0 HAND (#1)");
    assert_eq!(texts.iter().collect::<HashSet<_>>().len(), texts.len());
    let mv = state.legal_moves()[0].clone();
    assert!(!state.move_to_text(&mv).contains("a card"));
    // Played: p0 sees the card land in its hand, p1 does not.
    assert!(!state.move_to_text_seen_by(&mv, 0).contains("a card"));
    assert_eq!(
        state.move_to_text_seen_by(&mv, 1),
        "move a card game STOCK -> p0 HAND"
    );
}

/// A game stopped by a rules error: every seat is told the error (which
/// names the failed move as it was offered; a word of it that is a card
/// the seat may not see would be written `a card`), and no seat's view of
/// the failed game reveals a card it may not see.
#[test]
fn a_failed_game_is_told_without_hidden_cards() {
    let rules = Rules::from_source(
        "fails.rcy",
        "(game
 (setup (create players 2)
        (create deck (game hloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)))))
 (do ((all player 'P (repeat 2 (move (top (game hloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (== (size (game hloc STOCK)) 5))
   (choice ((any ((current player) iloc HAND) 'C
      (do ((move 'C (top ((current player) hloc SECRET)))
           (inc (game sto X) 9223372036854775807)))))))
 (scoring max 0))",
    )
    .unwrap();
    let mut state = rules
        .start(&GameOptions {
            seed: 1,
            overrides: vec![],
        })
        .unwrap();
    let first = state.legal_moves()[0].clone();
    state.apply(&first).unwrap();
    let second = state.legal_moves()[0].clone();
    assert!(state.apply(&second).is_err());
    let whole = state.whole_view();
    for seat in 0..2 {
        match state.observe(seat).status {
            cardboard::observation::GameStatus::Failed(why) => {
                assert!(why.contains("integer overflow"), "{why}")
            }
            other => panic!("{other:?}"),
        }
        check_seat(&state, &whole, seat, "failed");
    }
}
