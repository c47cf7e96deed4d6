//! Cardbot Derby's hidden information: while the players program their
//! robots one after another, each sees their own five cards and program and
//! nobody else's; the piles are seen by nobody; a command is seen by all
//! once revealed. Checked on the observations the engine gives players (what
//! an AI or a remote player receives) at every decision of seeded games.

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;
use std::path::Path;

fn rules() -> Rules {
    Rules::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cardbot-derby.rcy"))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn start(nump: usize, seed: u64) -> State {
    let overrides = vec![("NUMP".to_string(), nump.to_string())];
    rules()
        .start(&GameOptions { seed, overrides })
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The cards of the location `heading` / `line` in a `describe`-style text:
/// `heading` is an owner line such as `p1:`, `line` starts like
/// `iloc HAND`. None when the owner shows no such location.
fn cards(text: &str, heading: &str, line: &str) -> Option<String> {
    let mut inside = false;
    for l in text.lines() {
        if !l.starts_with(' ') {
            inside = l == heading;
        } else if inside && l.trim_start().starts_with(line) {
            return Some(l.split_once("): ").map_or("", |x| x.1).to_string());
        }
    }
    None
}

/// Every shown card of a location is `hidden`.
fn all_hidden(cards: &str) -> bool {
    cards.split(' ').all(|c| c == "hidden")
}

#[test]
fn a_programmer_sees_their_own_five_cards_and_nobody_elses() {
    let mut state = start(4, 5);
    // Play robot 0's programming (seat 0, four picks) and be at seat 1's.
    for _ in 0..4 {
        assert_eq!(state.current_player(), Some(0));
        let mv = state.legal_moves()[0].clone();
        state.apply(&mv).unwrap();
    }
    assert_eq!(state.current_player(), Some(1), "seat 1 programs next");
    let whole = state.describe();
    let hand1 = cards(&whole, "p1:", "iloc HAND (5)").expect("p1 holds five cards");
    let prog0 = cards(&whole, "p0:", "iloc PROG (5)").expect("p0's program is made");
    assert!(!all_hidden(&hand1) && !all_hidden(&prog0));

    // Seat 1 sees its five cards, not seat 0's program.
    let seen1 = state.observation(1);
    assert_eq!(
        cards(&seen1, "p1:", "iloc HAND (5)").as_deref(),
        Some(hand1.as_str())
    );
    let p0_prog = cards(&seen1, "p0:", "iloc PROG (5)").expect("its size is public");
    assert!(all_hidden(&p0_prog), "p1 sees p0's program: {p0_prog}");
    // Seat 0 sees its program, not seat 1's cards; seats 2 and 3 neither.
    let seen0 = state.observation(0);
    assert_eq!(
        cards(&seen0, "p0:", "iloc PROG (5)").as_deref(),
        Some(prog0.as_str())
    );
    for seat in [0, 2, 3] {
        let seen = state.observation(seat);
        let h = cards(&seen, "p1:", "iloc HAND (5)").unwrap();
        assert!(all_hidden(&h), "p{seat} sees p1's hand: {h}");
        if seat != 0 {
            let p = cards(&seen, "p0:", "iloc PROG (5)").unwrap();
            assert!(all_hidden(&p), "p{seat} sees p0's program: {p}");
        }
    }
    // No card of a hand or program shows in another player's observation.
    for card in hand1.split(' ') {
        for seat in [0, 2, 3] {
            assert!(
                !state.observation(seat).contains(card),
                "p{seat} can see {card}"
            );
        }
    }
}

#[test]
fn piles_stay_hidden_and_revealed_commands_are_public_all_game() {
    for (nump, seed) in [(4, 1), (3, 2), (2, 3)] {
        let mut state = start(nump, seed);
        let mut decisions = 0;
        while state.current_player().is_some() {
            for seat in 0..nump {
                let seen = state.observation(seat);
                for l in seen.lines().filter(|l| l.contains("hloc PILE")) {
                    let c = l.split_once("): ").map_or("", |x| x.1);
                    assert!(all_hidden(c), "p{seat} sees a pile: {l}");
                }
                for l in seen.lines().filter(|l| l.contains("vloc SHOWN")) {
                    assert!(!l.contains("hidden"), "a revealed command is hidden: {l}");
                }
                // Other players' hands and programs: hidden to this seat.
                for other in (0..nump).filter(|&o| o != seat) {
                    let heading = format!("p{other}:");
                    for loc in ["iloc HAND", "iloc PROG"] {
                        if let Some(c) = cards(&seen, &heading, loc) {
                            assert!(all_hidden(&c), "p{seat} sees p{other} {loc}: {c}");
                        }
                    }
                }
            }
            let moves = state.legal_moves();
            let mv = moves[decisions % moves.len()].clone();
            state.apply(&mv).unwrap();
            decisions += 1;
            if decisions > 300 {
                break;
            }
        }
        assert!(decisions > 40, "NUMP={nump}: only {decisions} decisions");
    }
}

/// The order in which robots act depends on commands not yet revealed (the
/// tie-breaks look at the next ones). The rules work that part out in
/// storages (`LATER`, `BESTNEXT`), which everyone sees, so they must be
/// wiped before any decision: no player's observation at any decision may
/// show them. (`PUBLIC`, from revealed commands only, may show.)
#[test]
fn priorities_worked_out_from_hidden_commands_never_show() {
    let mut pings = 0;
    for (nump, seed) in [(4, 11), (2, 12), (3, 13), (5, 14)] {
        let mut state = start(nump, seed);
        let mut decisions = 0;
        while state.current_player().is_some() && decisions < 3_000 {
            for seat in 0..nump {
                let seen = state.observation(seat);
                for l in seen.lines() {
                    assert!(
                        !l.contains("sto LATER") && !l.contains("sto BESTNEXT"),
                        "NUMP={nump} seed {seed}, decision {decisions}: p{seat} sees `{}`",
                        l.trim()
                    );
                }
            }
            let moves = state.legal_moves();
            pings += state.move_to_text(&moves[0]).starts_with("game PSIDE") as usize;
            let mv = moves[decisions % moves.len()].clone();
            state.apply(&mv).unwrap();
            decisions += 1;
        }
    }
    assert!(pings > 5, "only {pings} ping decisions seen");
}
