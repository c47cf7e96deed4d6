//! Cardbot Derby (`games/cardbot-derby.rcy`): the house robot's pings,
//! decided by the game's chance, over several seeds.
//!
//! The scenarios that pin the basic rules and every reading of them stated
//! in the file's header (moves and turns, the edges, shoves, pings, the
//! priority of commands, the belt, targets and the win) are cases of
//! `games/cardbot-derby.tests`, run by `cardboard test` (docs/authoring.md,
//! `tests/cardboard_test.rs`); the advanced options' are in
//! `games/cardbot-derby-options.tests`. The position built by hand here is
//! built the same way there (a seeded start, edited).

#[path = "common/derby.rs"]
mod derby;

use derby::*;

#[test]
fn the_house_robots_pings_are_decided_by_chance() {
    // NUMP=3: the house robot 3 moves W into robot 0 with robot 1 beyond:
    // robot 0 pings N or S with nobody asked. Over a few shuffles of the
    // game's chance, both sides happen.
    let bots = [
        still(5, 3),
        still(5, 2),
        still(0, 0),
        bot(5, 4, "W", &["ACE", "TWO", "THREE", "FIVE", "SIX"]),
    ];
    let mut seen = Vec::new();
    for seed in 0..16 {
        let chance = format!("chance seed={seed}");
        let state = round(&[("NUMP", "3")], &bots, &[&chance]);
        at_next_round(&state);
        let p = places(&state);
        assert_eq!([&p[1], &p[2], &p[3]], ["(5,2) N", "(0,0) N", "(5,3) W"]);
        assert!(["(4,3) N", "(6,3) N"].contains(&p[0].as_str()), "{p:?}");
        seen.push(p[0].clone());
    }
    assert!(seen.contains(&"(4,3) N".to_string()), "{seen:?}");
    assert!(seen.contains(&"(6,3) N".to_string()), "{seen:?}");
}
