//! A `choice` inside `let` (docs/language.md, section 4.6): `(let VALUE 'V
//! (choice ...))` as a stage item plays as the same choice with each
//! option (and its `else`) inside `(let VALUE 'V ...)`: the same moves,
//! perft counts and transcripts, compiled and evaluated.

mod common;

use cardboard::drivers::perft::perft;
use cardboard::drivers::run::transcript;
use cardboard::engine::Rules;
use common::options;

fn game(stage_item: &str) -> Rules {
    let src = format!(
        "(game
  (setup (create players 2) (create board B (grid 3 3)))
  (stage player
    (end (> (game sto OVER) 0))
    {stage_item})
  (scoring max ((current player) sto SCORE)))"
    );
    Rules::from_source("test.rcy", &src).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn a_choice_inside_let_plays_as_the_let_in_each_option() {
    let free = "(size (filter (spaces B) 'S (== ('S sto X) 0)))";
    let place = "(any (filter (spaces B) 'S (== ('S sto X) 0)) 'S
                      ((> 'FREE 3) (do ((set ('S sto X) 1) (inc ((current player) sto SCORE) 'FREE)))))";
    let stop = "((and (<= 'FREE 5) (> 'FREE 3))
                (do ((inc ((current player) sto SCORE) 100) (set (game sto OVER) 1))))";
    let outside = game(&format!(
        "(let {free} 'FREE (choice ({place} {stop}) (else (set (game sto OVER) 'FREE))))"
    ));
    let inside = game(&format!(
        "(choice ((let {free} 'FREE {place}) (let {free} 'FREE {stop}))
                 (else (let {free} 'FREE (set (game sto OVER) 'FREE))))"
    ));
    let start = |r: &Rules| r.start(&options(1, &[])).unwrap();
    let counts = perft(&start(&outside), 6).unwrap();
    assert_eq!(counts, perft(&start(&inside), 6).unwrap());
    assert_eq!(&counts[..3], &[1, 9, 72]);
    let mut ends = std::collections::BTreeSet::new();
    for seed in 1..=8 {
        let t = transcript(&outside, &options(seed, &[]), 100);
        assert_eq!(
            t,
            transcript(&outside.uncompiled(), &options(seed, &[]), 100)
        );
        assert_eq!(t, transcript(&inside, &options(seed, &[]), 100));
        assert!(t.contains("== finished after"), "{t}");
        ends.insert(t.contains("game:\n  sto OVER = 3"));
    }
    // Some games end by the option, some by the fallback.
    assert_eq!(ends.len(), 2);
}
