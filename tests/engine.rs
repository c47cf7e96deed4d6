//! Semantics of the engine on small rules written for each test: stage
//! cycles and `end`, `cycle next`, choices and `any`, the loop limit,
//! `--set`, teams, and perft counts derived by hand.

use cardboard::drivers::perft::perft;
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, PlayError, Status};

fn rules(src: &str) -> Rules {
    Rules::from_source("test.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn start(src: &str, set: &[(&str, &str)]) -> Result<State, PlayError> {
    let overrides = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    rules(src).start(&GameOptions { seed: 3, overrides })
}

/// Plays the first legal move until the game ends; returns the seats that
/// decided, in order.
fn play_first(state: &mut State) -> Vec<usize> {
    let mut seats = Vec::new();
    while let Some(p) = state.current_player() {
        seats.push(p);
        let mv = state.legal_moves()[0].clone();
        state.apply(&mv).unwrap();
    }
    seats
}

/// Three players each take one card per pass until the stock is empty; the
/// first pass is seat 0's, and each later pass advances the cycle.
const ROUND_ROBIN: &str = r#"
(game
 (declare 3 'NUMP)
 (setup (create players 'NUMP)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D, E, F, G)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice ((move (top (game vloc STOCK)) (top ((current player) vloc HAND))))))
 (scoring max (size ((current player) vloc HAND))))
"#;

#[test]
fn a_player_stage_cycles_the_seats_until_its_end_holds() {
    let mut s = start(ROUND_ROBIN, &[]).unwrap();
    assert_eq!(play_first(&mut s), vec![0, 1, 2, 0, 1, 2, 0]);
    let out = s.outcome().unwrap();
    assert_eq!(out.scores, vec![3, 2, 2]);
    assert_eq!(out.winners, vec![0]);
}

#[test]
fn set_overrides_a_declared_constant() {
    let mut s = start(ROUND_ROBIN, &[("NUMP", "2")]).unwrap();
    assert_eq!(play_first(&mut s), vec![0, 1, 0, 1, 0, 1, 0]);
    assert!(
        matches!(start(ROUND_ROBIN, &[("NOPE", "2")]), Err(PlayError::Rules(m)) if m.contains("declares no `'NOPE`"))
    );
    assert!(
        matches!(start(ROUND_ROBIN, &[("NUMP", "many")]), Err(PlayError::Rules(m)) if m.contains("integer"))
    );
}

#[test]
fn cycle_next_chooses_who_plays_after_the_turn() {
    // Whoever plays queues seat 2 next; seat 2 then plays every turn.
    let src = r#"
(game
 (setup (create players 3)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice ((do ((move (top (game vloc STOCK)) (top ((current player) vloc HAND)))
                 (cycle next (2 player)))))))
 (scoring max (size ((current player) vloc HAND))))
"#;
    let mut s = start(src, &[]).unwrap();
    assert_eq!(play_first(&mut s), vec![0, 2, 2, 2]);
}

#[test]
fn any_in_a_choice_offers_one_option_per_item_and_elsewhere_runs_for_all() {
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C)))))
 (do ((any player 'P (move (top (game vloc STOCK)) (top ('P vloc HAND))))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice ((any (game vloc STOCK) 'C (move 'C (top ((current player) vloc HAND)))))))
 (scoring max (size ((current player) vloc HAND))))
"#;
    let s = start(src, &[]).unwrap();
    // The `any` outside the choice dealt a card to both players: one left.
    assert_eq!(s.legal_moves().len(), 1);
    assert!(
        s.describe().contains("p0:\n  vloc HAND (1)"),
        "{}",
        s.describe()
    );
    assert!(
        s.describe().contains("p1:\n  vloc HAND (1)"),
        "{}",
        s.describe()
    );
}

#[test]
fn options_whose_guard_fails_are_not_offered_and_pass_is() {
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice (((> (size ((current player) vloc HAND)) 5) (move (top (game vloc STOCK)) (top (game vloc X))))
            (any (game vloc STOCK) 'C (move 'C (top ((current player) vloc HAND))))
            (turn pass))))
 (scoring max (size ((current player) vloc HAND))))
"#;
    let s = start(src, &[]).unwrap();
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    assert_eq!(
        texts,
        [
            "move A game STOCK -> p0 HAND",
            "move B game STOCK -> p0 HAND",
            "pass"
        ]
    );
}

/// An option whose position is a rules error (division by zero) is not
/// left out: the error is the game's, naming the decision, the option and
/// the place, the game is failed, and the exploration that met it loses no
/// card (what it tried is put back).
#[test]
fn an_error_in_an_option_stops_the_game_and_loses_no_card() {
    let src = r#"
(game
 (setup (create players 1)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice ((move (top (game vloc STOCK)) ((// 0 (- 1 (size (game vloc PILE)))) (game vloc PILE)))
            (move (bottom (game vloc STOCK)) (top (game vloc PILE))))))
 (scoring max (size (game vloc PILE))))
"#;
    let mut s = start(src, &[]).unwrap();
    let moves = s.legal_moves();
    assert_eq!(moves.len(), 2, "no error yet: both options are offered");
    match s.apply(&moves[0]) {
        Err(PlayError::Rules(m)) => assert_eq!(
            m,
            "decision 2: option 1 of the choice at line 6, column 4 (player 0 to play): \
             line 6, column 13: division by zero in `//`"
        ),
        other => panic!("{other:?}"),
    }
    assert!(matches!(s.status(), Status::Failed(m) if m.contains("division by zero")));
    assert!(s.legal_moves().is_empty());
    assert_eq!(s.current_player(), None);
    assert_eq!(s.apply(&moves[1]), Err(PlayError::GameOver));
    assert_eq!(s.check_conservation(), Ok(3));
}

#[test]
fn a_stage_looping_without_decisions_is_stopped_with_its_line() {
    let src = "(game\n (setup (create players 2))\n (stage player (end (== 1 2))\n   (do ((inc (game sto N) 1))))\n (scoring max 0))\n";
    let s = start(src, &[]).unwrap();
    match s.status() {
        Status::Stopped(m) => assert!(m.contains("line 3"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(s.current_player(), None);
}

#[test]
fn a_choice_with_no_option_is_a_rules_error() {
    let src = r#"
(game
 (setup (create players 2))
 (stage player (end (== 1 2))
   (choice ((any (game vloc EMPTY) 'C (move 'C (top (game vloc X)))))))
 (scoring max 0))
"#;
    match start(src, &[]) {
        Err(PlayError::Rules(m)) => assert!(m.contains("no legal option"), "{m}"),
        other => panic!("{:?}", other.map(|s| s.describe())),
    }
}

#[test]
fn team_stages_cycle_teams_and_keep_the_current_player() {
    let src = r#"
(game
 (setup (create players 4) (create teams (0, 2) (1, 3)))
 (stage team (end (>= (game sto ROUND) 4))
   (do ((inc ((current team) sto TURNS) 1)
        (inc (game sto ROUND) 1))))
 (scoring max ((team (current player)) sto TURNS)))
"#;
    let s = start(src, &[]).unwrap();
    assert_eq!(s.status(), Status::Finished);
    assert_eq!(s.outcome().unwrap().scores, vec![2, 2, 2, 2]);
}

#[test]
fn perft_counts_match_a_hand_count() {
    // Two players alternately take any card from a face-up row of three:
    // 3 first moves, then 2, then 1: depth 1: 3, depth 2: 6, depth 3: 6.
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc ROW) (deck (RANK (A, B, C)))))
 (stage player (end (== (size (game vloc ROW)) 0))
   (choice ((any (game vloc ROW) 'C (move 'C (top ((current player) vloc HAND)))))))
 (scoring max (size ((current player) vloc HAND))))
"#;
    let s = start(src, &[]).unwrap();
    assert_eq!(perft(&s, 4).unwrap(), vec![1, 3, 6, 6, 0]);
}

#[test]
fn observation_hides_other_players_hands() {
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game hloc STOCK) (deck (RANK (A, B, C, D)))))
 (do ((all player 'P (move (top (game hloc STOCK)) (top ('P iloc HAND))))))
 (stage player (end (== (size (game hloc STOCK)) 0))
   (choice ((move (top (game hloc STOCK)) (top ((current player) vloc PILE))))))
 (scoring max 0))
"#;
    let s = start(src, &[]).unwrap();
    let whole = s.describe();
    let p0 = s.observation(0);
    assert!(whole.contains("p1:\n  iloc HAND (1): "), "{whole}");
    assert!(p0.contains("p1:\n  iloc HAND (1): hidden"), "{p0}");
    assert!(!p0.contains("p0:\n  iloc HAND (1): hidden"), "{p0}");
    assert!(p0.contains("game:\n  hloc STOCK (2): hidden"), "{p0}");
}

#[test]
fn an_any_inside_an_all_branches_once_per_item_of_each_pass() {
    // Each player puts one of their cards out: one move per combination,
    // in order, the first player's pick varying slowest, each text naming
    // the right owner.
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D)))))
 (do ((all player 'P (repeat 2 (move (top (game vloc STOCK)) (top ('P vloc HAND)))))))
 (stage player (end (all player 'P (> (size ('P vloc OUT)) 0)))
   (choice ((do ((all player 'P
                      (any ('P vloc HAND) 'C
                           (move 'C (top ('P vloc OUT)))))
                 (let (size ((current player) vloc OUT)) 'N
                      (set (game sto SEEN) 'N)))))))
 (scoring max (size ((current player) vloc HAND))))
"#;
    let s = start(src, &[]).unwrap();
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    assert_eq!(
        texts,
        [
            "move D p0 HAND -> p0 OUT; move B p1 HAND -> p1 OUT; game SEEN = 1",
            "move D p0 HAND -> p0 OUT; move A p1 HAND -> p1 OUT; game SEEN = 1",
            "move C p0 HAND -> p0 OUT; move B p1 HAND -> p1 OUT; game SEEN = 1",
            "move C p0 HAND -> p0 OUT; move A p1 HAND -> p1 OUT; game SEEN = 1",
        ]
    );
    // Playing a move does what its text says.
    let mut s2 = s.clone();
    let mv = s2.legal_moves()[1].clone();
    s2.apply(&mv).unwrap();
    let table = s2.describe();
    assert!(table.contains("vloc OUT (1): D"), "{table}");
    assert!(table.contains("vloc OUT (1): A"), "{table}");
}

#[test]
fn picks_after_a_later_pass_of_an_all_still_see_their_own_pass() {
    // p0 holds two cards, p1 three. For each pass of the `all`, the inner
    // `any` must list the hand of that pass's player, also for the second
    // K of p0's pass, which is tried after p1's pass ran: 2 x 2 x 2 x 3
    // moves, every one of them playable.
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D, E)))))
 (do ((repeat 2 (move (top (game vloc STOCK)) (top ((current player) vloc HAND))))
      (repeat 3 (move (top (game vloc STOCK)) (top ((next player) vloc HAND))))))
 (stage player (end (all player 'P (> (size ('P vloc OUT)) 0)))
   (choice ((all player 'P
                 (any (range 1 .. 2) 'K
                      (any ('P vloc HAND) 'C
                           (move 'C (top ('P vloc OUT)))))))))
 (scoring max (size ((current player) vloc HAND))))
"#;
    let s = start(src, &[]).unwrap();
    let moves = s.legal_moves();
    assert_eq!(moves.len(), 24);
    for mv in &moves {
        let text = s.move_to_text(mv);
        assert!(text.starts_with("move "), "{text}");
        let mut t = s.clone();
        t.apply(mv).unwrap();
        let table = t.describe();
        assert_eq!(table.matches("vloc OUT (1)").count(), 2, "{text}\n{table}");
    }
}

/// `require` stops the game with a rules error that quotes the condition and
/// its line when the condition fails, and does nothing when it holds.
#[test]
fn require_refuses_options_that_do_not_hold() {
    let src = r#"
(game
 (declare 2 'NUMP)
 (setup (create players 'NUMP))
 (do ((require (and (>= 'NUMP 2) (<= 'NUMP 4)))))
 (stage player (end (== 1 1))
   (choice ((turn pass))))
 (scoring max 0))
"#;
    assert!(start(src, &[("NUMP", "4")]).is_ok());
    match start(src, &[("NUMP", "5")]) {
        Err(PlayError::Rules(m)) => assert!(
            m.contains("line 5, column 16")
                && m.contains("require (and (>= 'NUMP 2) (<= 'NUMP 4))"),
            "{m}"
        ),
        other => panic!("{:?}", other.map(|s| s.describe())),
    }
}

/// The priority pattern of the language reference (section 11.12): actors
/// act highest key first, ties in board order; then a player who is not
/// the current one is asked through `cycle current` and a nested stage.
#[test]
fn actors_act_by_computed_priority_and_another_player_decides() {
    let src = r#"
(game
 (setup (create players 2) (create board ACTORS (track 4)))
 (do ((set ((space ACTORS 0) sto KEY) 5)
      (set ((space ACTORS 1) sto KEY) 9)
      (set ((space ACTORS 2) sto KEY) 5)
      (set ((space ACTORS 3) sto KEY) 7)))
 (stage player (end (== (game sto ACTED) (size (spaces ACTORS))))
  (do ((set (game sto WHO) 0)
       (set (game sto BEST) 0)
       (all (spaces ACTORS) 'A
            ((and (== ('A sto DONE) 0) (> ('A sto KEY) (game sto BEST)))
             (do ((set (game sto BEST) ('A sto KEY))
                  (set (game sto WHO) (+ (index 'A) 1))))))
       (let (space ACTORS (- (game sto WHO) 1)) 'A
            (do ((set ('A sto DONE) 1)
                 (inc (game sto ACTED) 1)
                 (set ('A sto ORDER) (game sto ACTED))))))))
 (do ((set (game sto ASK) 1)
      (cycle current (1 player))))
 (stage player (end (== (game sto ASK) 0))
  (choice ((any (E, W) 'D (do ((set (game str SIDE) 'D) (set (game sto ASK) 0)))))))
 (scoring max 0))
"#;
    let s = start(src, &[]).unwrap();
    let table = s.describe();
    for (actor, order) in [(0, 3), (1, 1), (2, 4), (3, 2)] {
        assert!(
            table.contains(&format!("ACTORS[{actor}]:\n  sto KEY = ")),
            "{table}"
        );
        let block = table.split(&format!("ACTORS[{actor}]:\n")).nth(1).unwrap();
        let block = block.split("ACTORS[").next().unwrap();
        assert!(
            block.contains(&format!("sto ORDER = {order}\n")),
            "actor {actor} should act {order}: {block}"
        );
    }
    assert_eq!(s.current_player(), Some(1), "seat 1 is asked");
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    assert_eq!(
        texts,
        ["game SIDE = E; game ASK = 0", "game SIDE = W; game ASK = 0"]
    );
}
