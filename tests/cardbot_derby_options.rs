//! Cardbot Derby (`games/cardbot-derby.rcy`): the advanced options, each in
//! a scenario built by hand (as in `tests/cardbot_derby.rs`), and the
//! settings the rules refuse.
//!
//! - BELT2=1 (row 5, (5,1)..(5,4) east onto (5,5)), 2 (column 2, (5,2)..(2,2)
//!   north onto the first belt's (1,2)), 3 (all of row 5 east, round and
//!   round): a robot on the second belt is carried its way, one space per
//!   step, and off its end.
//! - TELEPORT=1: a robot stopping on the Jack at (2,1) ends the step on
//!   (4,5) (and back while it stays); two robots on both Jacks swap.
//! - STICKY=1: a turn on a sticky King (3,1), (3,5) does nothing, a move
//!   works.
//! - SLIPPERY=1: a robot on an ice Queen (2,3), (4,3) slides on the way it
//!   faces, and a target it slides onto counts.
//! - NUMP outside 2..8, BELT2 outside 0..3, TELEPORT, STICKY, SLIPPERY
//!   outside 0..1 are refused at the start with a rules error quoting the
//!   `require` that fails.
//!
//! Robots that must keep out of the way play `STILL` (20 quarter turns) in
//! a corner.

#[path = "common/derby.rs"]
mod derby;

use cardboard::game::PlayError;
use derby::*;

/// Plays a round with these settings and returns the robots' places.
fn after_round(set: &[(&str, &str)], bots: &[Bot]) -> Vec<String> {
    let state = round(set, bots, &[]);
    at_next_round(&state);
    places(&state)
}

// ---------------------------------------------------------------------------
// The second belt. Its passengers play STILL: only the belts move them.

#[test]
fn belt2_1_carries_east_along_row_5_and_off_onto_5_5() {
    // From the 3 at (5,3): (5,4) at step 1, off the end onto (5,5) at
    // step 2, then still. The first belt still runs: robot 1 on its ace
    // (1,4) is carried (1,3), (1,2), (1,1), then off onto (1,0).
    let places = after_round(
        &[("BELT2", "1")],
        &[still(5, 3), still(1, 4), still(0, 0), still(6, 6)],
    );
    assert_eq!(places, ["(5,5) N", "(1,0) N", "(0,0) N", "(6,6) N"]);
}

#[test]
fn belt2_2_carries_north_up_column_2_onto_the_first_belt() {
    // From the ace at (5,2): (4,2), (3,2), (2,2), then off its end onto
    // (1,2), the first belt's 3, which carries it to (1,1) at step 5. One
    // space per step: it is not carried on by the first belt at step 4.
    let places = after_round(
        &[("BELT2", "2")],
        &[still(5, 2), still(0, 0), still(0, 6), still(6, 6)],
    );
    assert_eq!(places, ["(1,1) N", "(0,0) N", "(0,6) N", "(6,6) N"]);
}

#[test]
fn belt2_3_carries_round_from_the_last_space_onto_the_ace() {
    // From the 6 at (5,5): (5,6), round onto the ace (5,0), (5,1), (5,2),
    // (5,3).
    let places = after_round(
        &[("BELT2", "3")],
        &[still(5, 5), still(0, 0), still(0, 6), still(6, 6)],
    );
    assert_eq!(places, ["(5,3) N", "(0,0) N", "(0,6) N", "(6,6) N"]);
}

// ---------------------------------------------------------------------------
// Teleport Jacks (2,1) and (4,5).

#[test]
fn teleport_a_robot_stopping_on_a_jack_ends_the_step_on_the_other() {
    // Robot 0 steps W onto (2,1) at step 1 and ends it on (4,5); its K at
    // step 2 takes it W from there to (4,4). 3 + 4 + 5: a whole turn.
    let places = after_round(
        &[("TELEPORT", "1")],
        &[
            bot(2, 2, "W", &["ACE", "KING", "THREE", "FOUR", "FIVE"]),
            still(0, 0),
            still(0, 6),
            still(6, 6),
        ],
    );
    assert_eq!(places[0], "(4,4) W");
}

#[test]
fn teleport_a_robot_staying_on_a_jack_goes_back_and_forth() {
    // Robot 0 turns at step 1 (E -> W), steps onto (2,1) at step 2 and is
    // sent to (4,5); turning on at steps 3, 4, 5 (a whole turn) it goes
    // back to (2,1), to (4,5), to (2,1) (sent once only, it would end on
    // (4,5)).
    let places = after_round(
        &[("TELEPORT", "1")],
        &[
            bot(2, 2, "E", &["TWO", "ACE", "THREE", "FOUR", "FIVE"]),
            still(0, 0),
            still(0, 6),
            still(6, 6),
        ],
    );
    assert_eq!(places[0], "(2,1) W");
}

#[test]
fn teleport_two_robots_on_both_jacks_swap() {
    // Robots 0 and 1 step W onto (2,1) and (4,5) at step 1 and swap; their
    // K at step 2 takes each W off the other's Jack.
    let program = ["ACE", "KING", "THREE", "FOUR", "FIVE"];
    let places = after_round(
        &[("TELEPORT", "1")],
        &[
            bot(2, 2, "W", &program),
            bot(4, 6, "W", &program),
            still(0, 0),
            still(6, 6),
        ],
    );
    assert_eq!(places[..2], ["(4,4) W", "(2,0) W"]);
}

// ---------------------------------------------------------------------------
// Sticky Kings (3,1) and (3,5).

#[test]
fn sticky_a_turn_on_a_sticky_king_does_nothing_and_a_move_works() {
    // Robot 0 on (3,5) facing N: its 2 does nothing, its A takes it to
    // (2,5); off the King it turns again: 3 -> W, K -> (2,4), 5 -> N.
    let program = ["TWO", "ACE", "THREE", "KING", "FIVE"];
    let bots = [
        bot(3, 5, "N", &program),
        still(0, 0),
        still(0, 6),
        still(6, 6),
    ];
    assert_eq!(after_round(&[("STICKY", "1")], &bots)[0], "(2,4) N");
    // Without the option the 2 turns it S: A -> (4,5), 3 -> E, K -> (4,6),
    // 5 -> S.
    assert_eq!(after_round(&[], &bots)[0], "(4,6) S");
}

// ---------------------------------------------------------------------------
// Ice Queens (2,3) and (4,3).

#[test]
fn slippery_a_robot_on_ice_slides_on_the_way_it_faces() {
    // Robot 0 steps W onto the ice at (2,3) and slides on to (2,2). Robot 1
    // steps N onto the ice at (4,3) and slides onto the Jack (3,3), its
    // next target: it stops there (no ice) and has reached it.
    let program = ["ACE", "TWO", "THREE", "FIVE", "SIX"];
    let bots = [
        bot(2, 4, "W", &program),
        bot(5, 3, "N", &program),
        still(0, 0),
        still(6, 6),
    ];
    let state = round(&[("SLIPPERY", "1")], &bots, &[]);
    at_next_round(&state);
    assert_eq!(places(&state)[..2], ["(2,2) W", "(3,3) N"]);
    assert_eq!(cards(&state, "GRID[3,3] vloc WON"), ["CLUBS-JACK"]);
    assert_eq!(get(&state, "ROBOTS[1] str WANT"), "QUEEN");
    // Without the option both stay where they stepped.
    assert_eq!(after_round(&[], &bots)[..2], ["(2,3) W", "(4,3) N"]);
}

// ---------------------------------------------------------------------------
// Settings out of range.

#[test]
fn settings_out_of_range_are_refused_by_require() {
    for (name, value) in [
        ("NUMP", "1"),
        ("NUMP", "9"),
        ("BELT2", "4"),
        ("TELEPORT", "2"),
        ("STICKY", "2"),
        ("SLIPPERY", "2"),
    ] {
        match start(&[(name, value)]) {
            Err(PlayError::Rules(message)) => {
                assert!(message.contains("require"), "{name}={value}: {message}");
                assert!(message.contains(name), "{name}={value}: {message}");
            }
            Err(e) => panic!("{name}={value}: not a rules error: {e}"),
            Ok(_) => panic!("{name}={value} is accepted"),
        }
    }
    // The ends of the ranges are accepted.
    for (name, value) in [
        ("NUMP", "2"),
        ("NUMP", "8"),
        ("BELT2", "3"),
        ("TELEPORT", "1"),
        ("STICKY", "1"),
        ("SLIPPERY", "1"),
    ] {
        assert!(start(&[(name, value)]).is_ok(), "{name}={value} refused");
    }
}

#[test]
fn slippery_a_slide_moves_by_the_rules_of_a_move() {
    // Robot 0 turns 2 + 3 + 5 + 6 (back to W) and steps W onto the ice at
    // (4,3) at step 5. Its slide into robot 1 on (4,2) shoves it to (4,1).
    let program = ["TWO", "THREE", "FIVE", "SIX", "ACE"];
    let places = after_round(
        &[("SLIPPERY", "1")],
        &[
            bot(4, 4, "W", &program),
            still(4, 2),
            still(0, 0),
            still(6, 6),
        ],
    );
    assert_eq!(places[..2], ["(4,2) W", "(4,1) N"]);
    // Five robots: robot 2 beyond on (4,1), robots 3 and 4 on both sides
    // (3,2) and (5,2): no room, the slide fails, robot 0 stays on the ice.
    let places = after_round(
        &[("SLIPPERY", "1"), ("NUMP", "5")],
        &[
            bot(4, 4, "W", &program),
            still(4, 2),
            still(4, 1),
            still(3, 2),
            still(5, 2),
        ],
    );
    assert_eq!(
        places,
        ["(4,3) W", "(4,2) N", "(4,1) N", "(3,2) N", "(5,2) N"]
    );
}
