//! The display section and `announce` (docs/language.md, "Display" and
//! "announce") are for people only: every shipped game and example gives
//! the same `simulate` report (timings aside) and the same perft counts
//! with them as with both cut out of the file; keeping announcements
//! changes no game. The observation carries the display, the moves their
//! labels and targets (docs/protocol.md, "Labels and targets"), and a
//! hidden card is never named in a label or an announcement.

use cardboard::drivers::perft::perft;
use cardboard::drivers::simulate::{simulate, SimulateConfig};
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;
use cardboard::random::{below, GameRng};
use std::path::PathBuf;

const FILES: [&str; 11] = [
    "games/agram.rcy",
    "games/cardbot-derby.rcy",
    "games/cartagena.rcy",
    "games/carteso.rcy",
    "examples/connect4-pieces.rcy",
    "examples/connect4.rcy",
    "examples/draughts.rcy",
    "examples/hex.rcy",
    "examples/othello.rcy",
    "examples/tictactoe-pieces.rcy",
    "examples/tictactoe.rcy",
];

fn source(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The byte just after the form opening at `start` (texts and comments
/// skipped).
fn form_end(src: &str, start: usize) -> usize {
    let (mut depth, mut text, mut comment) = (0usize, false, false);
    for (i, c) in src[start..].char_indices() {
        match c {
            '\n' => comment = false,
            _ if comment => {}
            '"' => text = !text,
            _ if text => {}
            ';' => comment = true,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return start + i + 1;
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced form at {start}")
}

/// The file with its `(display ...)` and every `(announce ...)` cut out.
fn bare(src: &str) -> String {
    let mut out = src.to_string();
    for head in ["(display", "(announce"] {
        while let Some(at) = out.find(head) {
            let end = form_end(&out, at);
            out.replace_range(at..end, "");
        }
    }
    assert!(!out.contains("(display") && !out.contains("(announce"));
    out
}

fn both(file: &str) -> (Rules, Rules) {
    let src = source(file);
    assert!(src.contains("(display"), "{file} has no display section");
    let with = Rules::from_source(file, &src).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    let without = Rules::from_source(file, &bare(&src)).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    (with, without)
}

fn report(rules: &Rules) -> serde_json::Value {
    let config = SimulateConfig {
        games: 24,
        seed: 7,
        overrides: Vec::new(),
        max_decisions: 3_000,
        jobs: 0,
    };
    let report = simulate(rules, &config, &|_| {}).expect("simulates");
    let mut json = serde_json::to_value(&report).expect("serializes");
    let object = json.as_object_mut().expect("an object");
    object.retain(|key, _| !key.contains("second"));
    json
}

#[test]
fn a_display_section_and_announcements_change_no_report_and_no_perft_count() {
    for file in FILES {
        let (with, without) = both(file);
        assert_eq!(report(&with), report(&without), "{file}: simulate");
        let start = |r: &Rules| {
            r.start(&GameOptions {
                seed: 3,
                overrides: vec![],
            })
            .expect("starts")
        };
        let depth = if file.contains("derby") { 2 } else { 3 };
        let counts = perft(&start(&with), depth).expect("perft");
        assert_eq!(
            counts,
            perft(&start(&without), depth).expect("perft"),
            "{file}: perft"
        );
        assert!(counts.iter().all(|&n| n > 0), "{file}: {counts:?}");
    }
}

/// A random game, as texts, with or without announcements kept; the
/// announcements seen by `seat` after each move.
fn play(rules: &Rules, seed: u64, keep: bool, seat: usize) -> (Vec<String>, Vec<Vec<String>>) {
    let mut game: State = rules
        .start(&GameOptions {
            seed,
            overrides: vec![],
        })
        .expect("starts");
    if keep {
        game.keep_announcements();
    }
    let mut rng = GameRng::new(seed);
    let (mut texts, mut said) = (Vec::new(), Vec::new());
    while game.current_player().is_some() && texts.len() < 400 {
        let moves = game.legal_moves();
        let mv = moves[below(&mut rng, moves.len())].clone();
        texts.push(game.move_to_text(&mv));
        game.apply(&mv).expect("legal");
        said.push(game.announcements_for(seat));
    }
    texts.push(format!("{:?}", game.outcome()));
    (texts, said)
}

#[test]
fn keeping_announcements_changes_no_game_and_tells_the_trick_winners() {
    for file in [
        "games/agram.rcy",
        "games/cartagena.rcy",
        "games/cardbot-derby.rcy",
    ] {
        let (rules, _) = both(file);
        let (kept, said) = play(&rules, 11, true, 1);
        let (plain, silent) = play(&rules, 11, false, 1);
        assert_eq!(kept, plain, "{file}");
        assert!(silent.iter().all(Vec::is_empty), "{file}");
        if file.contains("agram") {
            // Four players, six tricks: one announcement each, after the
            // move that completes the trick.
            let lines: Vec<&String> = said.iter().flatten().collect();
            assert_eq!(lines.len(), 6, "{lines:?}");
            for line in lines {
                assert!(
                    line.starts_with('p') && line.contains(" wins the trick with "),
                    "{line}"
                );
                assert!(
                    line.ends_with(" and leads next") && !line.contains("a card"),
                    "{line}"
                );
            }
        }
    }
}

#[test]
fn othello_labels_its_moves_by_the_square_a_disc_is_placed_on() {
    let (rules, _) = both("examples/othello.rcy");
    let game = rules
        .start(&GameOptions {
            seed: 1,
            overrides: vec![],
        })
        .expect("starts");
    let seen = game.observe(0);
    let display = seen.display.as_ref().expect("the display section");
    assert_eq!(display.players, ["Black", "White"]);
    assert_eq!(
        display.storages["DISC"]["2"].color.as_deref(),
        Some("white")
    );
    let occupied: Vec<(u32, u32)> = seen.boards[0]
        .spaces
        .iter()
        .map(|s| (s.row, s.col))
        .collect();
    assert_eq!(occupied.len(), 4);
    let mut labels: Vec<&str> = seen.moves.iter().map(|m| m.label.as_str()).collect();
    labels.sort();
    assert_eq!(
        labels,
        [
            "black disc at C4",
            "black disc at D3",
            "black disc at E6",
            "black disc at F5"
        ]
    );
    for m in &seen.moves {
        let at = m
            .target
            .as_ref()
            .and_then(|t| t.space.as_ref())
            .expect("a space");
        assert!(!occupied.contains(&(at.row, at.col)), "{m:?}");
        // The label's square is the target's.
        let square = format!("{}{}", (b'A' + at.col as u8) as char, at.row + 1);
        assert!(m.label.ends_with(&square), "{m:?}");
    }
}

#[test]
fn carteso_phrases_its_opening_choices_for_people() {
    let (rules, _) = both("games/carteso.rcy");
    let mut game = rules
        .start(&GameOptions {
            seed: 1,
            overrides: vec![],
        })
        .expect("starts");
    let seen = game.observe(0);
    let labels: Vec<&str> = seen.moves.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(labels.first(), Some(&"komi 0.5 points"));
    assert_eq!(labels.last(), Some(&"komi 10.5 points"));
    assert_eq!(seen.moves[0].text, "game TWICEKOMI = 1");
    game.apply(&game.legal_moves()[0]).expect("legal");
    let seen = game.observe(1);
    let labels: Vec<&str> = seen.moves.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(labels, ["play vertical", "play horizontal"]);
    game.apply(&game.legal_moves()[0]).expect("legal");
    let seen = game.observe(game.current_player().expect("running"));
    assert_eq!(seen.moves[0].label, "pass");
    assert!(
        seen.moves.iter().any(|m| m.label == "black disc -> A1"),
        "{:?}",
        seen.moves[1]
    );
}

#[test]
fn a_card_label_names_only_cards_the_seat_sees() {
    let (rules, _) = both("games/agram.rcy");
    let mut game = rules
        .start(&GameOptions {
            seed: 2,
            overrides: vec![],
        })
        .expect("starts");
    for _ in 0..8 {
        let seat = game.current_player().expect("running");
        let seen = game.observe(seat);
        let hand = seen.owner(&format!("p{seat}")).expect("its hand");
        let faces: Vec<&str> = (hand.locations.iter())
            .flat_map(|l| l.cards.iter().flatten())
            .map(|c| c.name.as_str())
            .collect();
        for m in &seen.moves {
            let card = m.card.as_ref().expect("a card played");
            assert!(faces.contains(&card.name.as_str()), "{m:?}");
            assert!(m.label.ends_with(" -> Trick"), "{m:?}");
            assert_eq!(m.target.as_ref().map(|t| t.location.as_str()), Some("HAND"));
        }
        // Another seat reading the move played sees the card (it lands
        // face up): the label comes from the steps written for that seat.
        let mv = game.legal_moves()[0].clone();
        let other = (seat + 1) % 4;
        let label = game.move_label_seen_by(&mv, other);
        // (The mover's own places carry no owner, whoever reads.)
        assert!(label.ends_with(" -> Trick"), "{label}");
        assert!(!label.starts_with("a card"), "{label}");
        game.apply(&mv).expect("legal");
    }
    // The deck's cards are dealt face down: a draw of a hidden card is
    // `a card` in any label (checked on steps by tests/move_steps.rs; here
    // through the label of a bare move).
    let hidden = cardboard::step::Step::Move {
        card: None,
        from: cardboard::step::Place {
            owner: "game".into(),
            location: "STOCK".into(),
            kind: cardboard::step::PlaceKind::Hloc,
            space: None,
        },
        to: cardboard::step::Place {
            owner: "p1".into(),
            location: "HAND".into(),
            kind: cardboard::step::PlaceKind::Iloc,
            space: None,
        },
    };
    let display = game.display();
    let cx = cardboard::label::Context {
        display: display.as_ref(),
        ..cardboard::label::Context::new(0)
    };
    let shown = cardboard::label::present(&[hidden], "", &cx);
    assert_eq!(
        (shown.label.as_str(), shown.card),
        ("a card -> p1 Hand", None)
    );
}
