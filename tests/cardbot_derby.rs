//! Cardbot Derby (`games/cardbot-derby.rcy`): scenario tests that pin the
//! basic rules and every reading of them stated in the file's header.
//!
//! Each scenario is a position built by hand from a seeded four-player game
//! (robots placed, facings and programs chosen), whose round is played and
//! resolved; the robots' places and facings (`ROW`, `COL`, `FACING` and
//! the piece on the grid, which must agree), targets and scores are then
//! read back from the position text. Pinned here: moves and turns, the
//! wrap of the columns and the edges of the rows, shoves, pings (who
//! decides, what is offered, where each choice puts the robots), a shove
//! with no room, the priority of commands and its tie-breaks, the belt,
//! reaching a target fleetingly, and winning (with four and two players).
//! The advanced options and the refused settings are in
//! `tests/cardbot_derby_options.rs`.
//!
//! The surface without options: targets J (3,3), Q (6,3), K (0,3); the belt
//! (1,4) (1,3) (1,2) (1,1) running west onto (1,0). Robots that must keep
//! out of the way play [`STILL`] (2+3+4+5+6 = 20 quarter turns: the same
//! place and facing after the round) in a corner.

#[path = "common/derby.rs"]
mod derby;

use cardboard::engine::State;
use cardboard::game::{GameState, Status};
use derby::*;

/// Plays a round of four robots and returns their places afterwards.
fn after_round(bots: &[Bot]) -> Vec<String> {
    let state = round(&[], bots, &[]);
    at_next_round(&state);
    places(&state)
}

// ---------------------------------------------------------------------------
// 1. Moves and turns.

#[test]
fn each_move_card_moves_one_space_forward() {
    // A K Q J 10: five spaces east along row 5 from column 0.
    let places = after_round(&[
        bot(5, 0, "E", &["ACE", "KING", "QUEEN", "JACK", "TEN"]),
        still(0, 0),
        still(0, 6),
        still(6, 6),
    ]);
    assert_eq!(places, ["(5,5) E", "(0,0) N", "(0,6) N", "(6,6) N"]);
}

#[test]
fn turn_cards_turn_that_many_quarter_turns_clockwise() {
    // From (5,5) facing N: 3 -> W (left), A -> (5,4), 5 -> N (W + 1),
    // K -> (4,4), 2 -> S (half turn).
    let places = after_round(&[
        bot(5, 5, "N", &["THREE", "ACE", "FIVE", "KING", "TWO"]),
        still(0, 0),
        still(0, 6),
        still(6, 6),
    ]);
    assert_eq!(places[0], "(4,4) S");
    // From (5,5) facing N: 7 -> W (N + 3), A -> (5,4), 8 -> W (two whole
    // turns), K -> (5,3), 9 -> N (W + 1).
    let places = after_round(&[
        bot(5, 5, "N", &["SEVEN", "ACE", "EIGHT", "KING", "NINE"]),
        still(0, 0),
        still(0, 6),
        still(6, 6),
    ]);
    assert_eq!(places[0], "(5,3) N");
    // From (3,5) facing N: 6 -> S (N + 2), A -> (4,5), 4 -> S (a whole
    // turn), K -> (5,5), 10 -> (6,5).
    let places = after_round(&[
        bot(3, 5, "N", &["SIX", "ACE", "FOUR", "KING", "TEN"]),
        still(0, 0),
        still(0, 6),
        still(6, 6),
    ]);
    assert_eq!(places[0], "(6,5) S");
}

// ---------------------------------------------------------------------------
// 2, 3. The edges: columns wrap, rows do not.

#[test]
fn columns_wrap_across_the_left_and_right_edges() {
    // Robot 0 goes east off column 6 onto column 0; robot 1 west off
    // column 0 onto column 6. Their last three cards are a whole turn.
    let places = after_round(&[
        bot(5, 5, "E", &["ACE", "KING", "THREE", "FOUR", "FIVE"]),
        bot(4, 1, "W", &["ACE", "KING", "THREE", "FOUR", "FIVE"]),
        still(0, 0),
        still(6, 6),
    ]);
    assert_eq!(places[0], "(5,0) E");
    assert_eq!(places[1], "(4,6) W");
}

#[test]
fn a_move_off_the_top_or_bottom_edge_leaves_the_robot_where_it_is() {
    // Robot 0 at the top facing N: A is blocked; 2 turns it S; K moves it
    // to (1,5); 3 + 5 is a whole turn. Robot 1 at the bottom facing S:
    // A, K blocked; 2 + 3 + 5 turn it 10 quarter turns, to N.
    let places = after_round(&[
        bot(0, 5, "N", &["ACE", "TWO", "KING", "THREE", "FIVE"]),
        bot(6, 6, "S", &["ACE", "KING", "TWO", "THREE", "FIVE"]),
        still(6, 0),
        still(4, 0),
    ]);
    assert_eq!(places[0], "(1,5) S");
    assert_eq!(places[1], "(6,6) N");
    assert_eq!(places[2], "(6,0) N");
}

// ---------------------------------------------------------------------------
// 4, 5, 6. Collisions.

#[test]
fn a_move_into_an_occupied_space_shoves_the_occupant_one_space_on() {
    // Robot 0 moves W from (5,4) into robot 1 on (5,3): robot 1 goes on to
    // (5,2), robot 0 takes (5,3). Robot 1 keeps its facing.
    let places = after_round(&[
        bot(5, 4, "W", &["ACE", "TWO", "THREE", "FIVE", "SIX"]),
        still(5, 3),
        still(0, 0),
        still(0, 6),
    ]);
    assert_eq!(places, ["(5,3) W", "(5,2) N", "(0,0) N", "(0,6) N"]);
}

/// The two ping moves, as the rules write them.
const PING_N: &str = "game PSIDE = N; game PING = 2";
const PING_S: &str = "game PSIDE = S; game PING = 2";

#[test]
fn a_shove_with_no_room_beyond_pings_sideways_as_the_enacting_player_chooses() {
    // Robot 0 (p0's) moves W from (5,4) into robot 1 on (5,3); robot 2 on
    // (5,2) leaves no room beyond, so robot 1 pings N to (4,3) or S to
    // (6,3). The enacting player is the next seat after the owner: p1.
    let bots = [
        bot(5, 4, "W", &["ACE", "TWO", "THREE", "FIVE", "SIX"]),
        still(5, 3),
        still(5, 2),
        still(0, 0),
    ];
    let state = round(&[], &bots, &[]);
    assert_eq!(state.current_player(), Some(1));
    assert_eq!(moves(&state), [PING_N, PING_S]);
    // Nobody has moved yet.
    assert_eq!(places(&state)[..3], ["(5,4) W", "(5,3) N", "(5,2) N"]);
    for (choice, pinged) in [(PING_N, "(4,3) N"), (PING_S, "(6,3) N")] {
        let mut s = state.clone();
        play(&mut s, choice);
        at_next_round(&s);
        // Robot 0 takes robot 1's space; its last four turns are 16.
        assert_eq!(places(&s), ["(5,3) W", pinged, "(5,2) N", "(0,0) N"]);
        // (6,3) is the Queen target, not robot 1's next one.
        assert_eq!(get(&s, "ROBOTS[1] str WANT"), "JACK");
    }
    // The same with robot 3 (p3's) moving: its enacting player is p0.
    let bots = [
        still(5, 3),
        still(5, 2),
        still(0, 0),
        bot(5, 4, "W", &["ACE", "TWO", "THREE", "FIVE", "SIX"]),
    ];
    let mut state = round(&[], &bots, &[]);
    assert_eq!(state.current_player(), Some(0));
    assert_eq!(moves(&state), [PING_N, PING_S]);
    play(&mut state, PING_S);
    assert_eq!(places(&state), ["(6,3) N", "(5,2) N", "(0,0) N", "(5,3) W"]);
}

#[test]
fn a_ping_with_one_free_side_offers_that_side_only() {
    // As above, but robot 3 stands on (4,3): only S is free.
    let bots = [
        bot(5, 4, "W", &["ACE", "TWO", "THREE", "FIVE", "SIX"]),
        still(5, 3),
        still(5, 2),
        still(4, 3),
    ];
    let mut state = round(&[], &bots, &[]);
    assert_eq!(state.current_player(), Some(1));
    assert_eq!(moves(&state), [PING_S]);
    play(&mut state, PING_S);
    at_next_round(&state);
    assert_eq!(places(&state), ["(5,3) W", "(6,3) N", "(5,2) N", "(4,3) N"]);
}

#[test]
fn a_shove_with_no_room_at_all_moves_nobody() {
    // Robot 0 moves W from (6,6) into robot 1 on (6,5): beyond is robot 2,
    // north is robot 3, south is off the board. Nobody moves, nobody is
    // asked.
    let places = after_round(&[
        bot(6, 6, "W", &["ACE", "TWO", "THREE", "FIVE", "SIX"]),
        still(6, 5),
        still(6, 4),
        still(5, 5),
    ]);
    assert_eq!(places, ["(6,6) W", "(6,5) N", "(6,4) N", "(5,5) N"]);
}

// ---------------------------------------------------------------------------
// 7. Priority: robots 0 and 1 move into (5,3) from both sides in the same
// step. Whoever acts second shoves the first one back out.

/// Robot 0 on (5,2), robot 1 on (5,4), with these programs and facings;
/// the places of both after the round.
fn duel(
    f0: &'static str,
    p0: &[&'static str],
    f1: &'static str,
    p1: &[&'static str],
) -> Vec<String> {
    let places = after_round(&[
        bot(5, 2, f0, p0),
        bot(5, 4, f1, p1),
        still(0, 0),
        still(0, 6),
    ]);
    places[..2].to_vec()
}

#[test]
fn the_higher_command_acts_first() {
    // A before K: robot 0 enters (5,3) first and is shoved back by robot 1.
    let rest = ["TWO", "THREE", "FIVE", "SIX"];
    let a = [&["ACE"][..], &rest].concat();
    let k = [&["KING"][..], &rest].concat();
    assert_eq!(duel("E", &a, "W", &k), ["(5,2) E", "(5,3) W"]);
    // The other way round: robot 1's ace first.
    assert_eq!(duel("E", &k, "W", &a), ["(5,3) E", "(5,4) W"]);
}

#[test]
fn equal_commands_are_ordered_by_the_next_ones_when_there_is_no_previous() {
    // Both Q in the first step; robot 0's next command 9 beats robot 1's 8,
    // so robot 0 acts first (and is shoved back). Facings: robot 0
    // E + 9 + 3 + 4 + 5 = S; robot 1 W + 8 + 2 + 4 + 6 = W.
    let nine = ["QUEEN", "NINE", "THREE", "FOUR", "FIVE"];
    let eight = ["QUEEN", "EIGHT", "TWO", "FOUR", "SIX"];
    assert_eq!(duel("E", &nine, "W", &eight), ["(5,2) S", "(5,3) W"]);
    // Swapped: robot 1 (next 9) first. Robot 0 E + 20 = E; robot 1
    // W + 21 = N.
    assert_eq!(duel("E", &eight, "W", &nine), ["(5,3) E", "(5,4) N"]);
}

#[test]
fn equal_commands_are_ordered_by_the_previous_ones_before_the_next_ones() {
    // Step 1: robot 0 turns 2 (W -> E), robot 1 turns 3 (N -> W). Step 2:
    // both Q. Robot 1's previous 3 beats robot 0's 2, though robot 0's next
    // (9) beats robot 1's (8): robot 1 acts first and is shoved back east.
    // Facings: robot 0 E + 9 + 3 + 5 = S; robot 1 W + 8 + 2 + 6 = W.
    let places = duel(
        "W",
        &["TWO", "QUEEN", "NINE", "THREE", "FIVE"],
        "N",
        &["THREE", "QUEEN", "EIGHT", "TWO", "SIX"],
    );
    assert_eq!(places, ["(5,3) S", "(5,4) W"]);
}

#[test]
fn the_previous_commands_are_compared_latest_first() {
    // Steps 1, 2: robot 0 turns 2 then 9 (S -> E), robot 1 turns 3 then 8
    // (N -> W). Step 3: both Q. Robot 0's latest 9 beats robot 1's 8,
    // though robot 1's earlier 3 beats 2 and its next 6 beats 3: robot 0
    // acts first and is shoved back west. Both end with 8 more turns.
    let places = duel(
        "S",
        &["TWO", "NINE", "QUEEN", "THREE", "FIVE"],
        "N",
        &["THREE", "EIGHT", "QUEEN", "SIX", "TWO"],
    );
    assert_eq!(places, ["(5,2) E", "(5,3) W"]);
}

#[test]
fn equal_programs_act_in_robot_order() {
    // The same values throughout: robot 0 first, shoved back by robot 1.
    let p = ["QUEEN", "TWO", "THREE", "FIVE", "SIX"];
    assert_eq!(duel("E", &p, "W", &p), ["(5,2) E", "(5,3) W"]);
}

// ---------------------------------------------------------------------------
// 8. The belt: (1,4) (1,3) (1,2) (1,1), running west onto (1,0). Robots on
// it play STILL: only the belt moves them.

#[test]
fn the_belt_carries_a_robot_along_and_off_its_end_shoving() {
    // Robot 0 from the ace: (1,3), (1,2), (1,1), then off the end onto
    // (1,0), shoving robot 1 west across the edge to (1,6).
    let places = after_round(&[still(1, 4), still(1, 0), still(6, 0), still(6, 6)]);
    assert_eq!(places, ["(1,0) N", "(1,6) N", "(6,0) N", "(6,6) N"]);
}

#[test]
fn the_belt_carries_robots_further_along_first() {
    // Robot 1 (on the 2) goes before robot 0 (on the ace): no shove on the
    // belt. Step 3 robot 1 leaves the belt onto (1,0); step 4 robot 0
    // leaves it too and shoves robot 1 on to (1,6).
    let places = after_round(&[still(1, 4), still(1, 3), still(6, 0), still(6, 6)]);
    assert_eq!(places, ["(1,0) N", "(1,6) N", "(6,0) N", "(6,6) N"]);
    // Robot 0 ahead on the 3: it is off onto (1,0) at step 2; robot 1,
    // from the ace, follows it off at step 4 and shoves it to (1,6).
    let places = after_round(&[still(1, 2), still(1, 4), still(6, 0), still(6, 6)]);
    assert_eq!(places, ["(1,6) N", "(1,0) N", "(6,0) N", "(6,6) N"]);
}

#[test]
fn the_belt_end_into_a_robot_with_no_room_beyond_pings() {
    // Robot 0 on the belt's last space is carried onto (1,0), where robot 1
    // stands with robot 2 beyond it on (1,6): robot 1 pings, and robot 0's
    // enacting player, p1, chooses.
    let bots = [still(1, 1), still(1, 0), still(1, 6), still(6, 6)];
    let state = round(&[], &bots, &[]);
    assert_eq!(state.current_player(), Some(1));
    assert_eq!(moves(&state), [PING_N, PING_S]);
    for (choice, pinged) in [(PING_N, "(0,0) N"), (PING_S, "(2,0) N")] {
        let mut s = state.clone();
        play(&mut s, choice);
        at_next_round(&s);
        assert_eq!(places(&s), ["(1,0) N", pinged, "(1,6) N", "(6,6) N"]);
    }
}

// ---------------------------------------------------------------------------
// 9, 10. Targets and the win.

/// The command cards robot `i` still has (pile and, for robot 0 at the
/// next round's programming, p0's hand).
fn commands(state: &State, i: usize) -> Vec<String> {
    let mut all = cards(state, &format!("ROBOTS[{i}] hloc PILE"));
    if i == 0 {
        all.extend(cards(state, "p0 iloc HAND"));
    }
    all.sort();
    all
}

#[test]
fn a_target_reached_for_a_moment_is_won_at_the_reset() {
    // Robot 0 steps W onto the Jack (3,3), turns back and steps off: at the
    // reset its HEARTS-JACK command lies under the Jack, it wants the
    // Queen, p0 scores 1. Robot 1 steps onto the Queen (6,3) and off
    // again: not its next target, nothing happens.
    let bots = [
        bot(3, 4, "W", &["ACE", "TWO", "KING", "THREE", "FIVE"]),
        bot(6, 4, "W", &["ACE", "TWO", "KING", "THREE", "FIVE"]),
        still(0, 0),
        still(0, 6),
    ];
    let state = round(&[], &bots, &[]);
    at_next_round(&state);
    assert_eq!(places(&state)[..2], ["(3,4) E", "(6,4) E"]);
    assert_eq!(cards(&state, "GRID[3,3] vloc WON"), ["HEARTS-JACK"]);
    assert_eq!(get(&state, "ROBOTS[0] str WANT"), "QUEEN");
    assert_eq!(get(&state, "ROBOTS[0] sto NEXT"), "1");
    assert_eq!(get(&state, "p0 sto SCORE"), "1");
    let left = commands(&state, 0);
    assert_eq!(left.len(), 12);
    assert!(!left.contains(&"HEARTS-JACK".to_string()));
    assert!(cards(&state, "GRID[6,3] vloc WON").is_empty());
    assert_eq!(get(&state, "ROBOTS[1] str WANT"), "JACK");
    assert_eq!(commands(&state, 1).len(), 13);
    assert_eq!(get(&state, "p1 sto SCORE"), "");
}

#[test]
fn only_the_next_target_counts_and_one_per_round() {
    // Robot 0 runs S from (2,3) over the Jack (3,3) onto the Queen (6,3)
    // (the 10 is blocked by the bottom edge): the Jack is won, the Queen
    // is not (it was not yet its next target when it got there).
    let state = round(
        &[],
        &[
            bot(2, 3, "S", &["ACE", "KING", "QUEEN", "JACK", "TEN"]),
            still(0, 0),
            still(0, 6),
            still(6, 6),
        ],
        &[],
    );
    at_next_round(&state);
    assert_eq!(place(&state, 0), "(6,3) S");
    assert_eq!(cards(&state, "GRID[3,3] vloc WON"), ["HEARTS-JACK"]);
    assert!(cards(&state, "GRID[6,3] vloc WON").is_empty());
    assert_eq!(get(&state, "ROBOTS[0] str WANT"), "QUEEN");
    assert_eq!(commands(&state, 0).len(), 12);
}

#[test]
fn reaching_the_last_target_wins_at_the_end_of_the_round() {
    // Robot 0 (J, Q won) steps E onto the King (0,3) in step 1 and off
    // again in step 3. Meanwhile robot 1's K in step 1 runs into robot 2
    // with robot 3 beyond: a ping, asked of p2 -- the game is not over
    // yet. It ends with the round: p0 wins with 3, p1 (Jack won) has 1.
    let mut r0 = bot(0, 2, "E", &["ACE", "TWO", "KING", "THREE", "FIVE"]);
    r0.won = vec!["JACK", "QUEEN"];
    let mut r1 = bot(5, 4, "W", &["KING", "TWO", "THREE", "FIVE", "SIX"]);
    r1.won = vec!["JACK"];
    let bots = [r0, r1, still(5, 3), still(5, 2)];
    let mut state = round(&[], &bots, &[]);
    assert_eq!(state.status(), Status::Running);
    assert_eq!(state.current_player(), Some(2));
    play(&mut state, PING_N);
    assert_eq!(state.status(), Status::Finished);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.winners, [0]);
    assert_eq!(outcome.scores, [3, 1, 0, 0]);
    assert_eq!(places(&state), ["(0,2) W", "(5,3) W", "(4,3) N", "(5,2) N"]);
    assert_eq!(cards(&state, "GRID[0,3] vloc WON"), ["HEARTS-KING"]);
    assert_eq!(get(&state, "ROBOTS[0] str WANT"), "DONE");
}

#[test]
fn with_two_players_a_players_second_robot_wins_for_them() {
    // NUMP=2: robots 0 and 2 are p0's, 1 and 3 p1's. Robot 2 (J, Q won)
    // reaches the King: p0 wins, though its robot 0 has reached nothing.
    let mut r2 = bot(0, 2, "E", &["ACE", "TWO", "KING", "THREE", "FIVE"]);
    r2.won = vec!["JACK", "QUEEN"];
    let mut r3 = still(6, 6);
    r3.won = vec!["JACK"];
    let state = round(&[("NUMP", "2")], &[still(0, 0), still(0, 6), r2, r3], &[]);
    assert_eq!(state.status(), Status::Finished);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.winners, [0]);
    assert_eq!(outcome.scores, [3, 1]);
    assert_eq!(place(&state, 2), "(0,2) W");
}

#[test]
fn players_reaching_the_last_target_in_the_same_round_share_the_win() {
    // NUMP=2. Robot 2 (p0's) is on the King at step 1 and leaves it at
    // step 3; robot 3 (p1's) turns 3 + 4 + 5 (a whole turn) and steps
    // onto it at step 4. Both have won J and Q before.
    let mut r2 = bot(0, 2, "E", &["ACE", "TWO", "KING", "THREE", "FIVE"]);
    r2.won = vec!["JACK", "QUEEN"];
    let mut r3 = bot(0, 4, "W", &["THREE", "FOUR", "FIVE", "ACE", "SIX"]);
    r3.won = vec!["JACK", "QUEEN"];
    let state = round(&[("NUMP", "2")], &[still(6, 0), still(6, 6), r2, r3], &[]);
    assert_eq!(state.status(), Status::Finished);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.winners, [0, 1]);
    assert_eq!(outcome.scores, [3, 3]);
    assert_eq!(places(&state)[2..], ["(0,2) W", "(0,3) E"]);
    let mut won = cards(&state, "GRID[0,3] vloc WON");
    won.sort();
    assert_eq!(won, ["DIAMONDS-KING", "SPADES-KING"]);
}

// ---------------------------------------------------------------------------
// The house robot (three players).

#[test]
fn the_house_robot_never_wins() {
    // NUMP=3: robot 3 is the house's; its program is the top five cards of
    // its pile, as they come. With J and Q won it steps onto the King: it
    // gives up its K, wants nothing more, and the game goes on with no
    // score for anyone (its seat number, 3 mod 3, is p0's).
    let mut r3 = bot(0, 2, "E", &["ACE", "TWO", "KING", "THREE", "FIVE"]);
    r3.won = vec!["JACK", "QUEEN"];
    let bots = [still(6, 0), still(6, 6), still(0, 0), r3];
    let state = round(&[("NUMP", "3")], &bots, &[]);
    at_next_round(&state);
    assert_eq!(place(&state, 3), "(0,2) W");
    assert_eq!(cards(&state, "GRID[0,3] vloc WON"), ["SPADES-KING"]);
    assert_eq!(get(&state, "ROBOTS[3] str WANT"), "DONE");
    assert_eq!(get(&state, "p0 sto SCORE"), "");
}

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
