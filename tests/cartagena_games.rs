//! Cartagena (`games/cartagena.rcy`): seeded random games of every rule set
//! and player count, each decision's legal moves compared with a direct Rust
//! reading of the rules (`cartagena_reading/`) and each move's effect checked;
//! the STALL limit; 500 random games per rule set and player count end
//! without an error and without reaching the decision limit.
use cardboard::drivers::simulate::{simulate, SimulateConfig};

use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};
use std::collections::BTreeSet;

mod cartagena_reading;

use cartagena_reading::*;

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
            report.mean_branching_counted
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
