//! The terminal screen (`cardboard play`, `cardboard join`) of every
//! shipped game and every example, as snapshots (insta): at the start, in
//! the middle and at the end of a seeded game of random moves, drawn for
//! the seat to play ([`cardboard::play::screen::draw`], the whole screen
//! a person sees, moves and result included). Each screen is also
//! checked for what must hold of any: no line wider than the screen's
//! width but for one long word, and a move list that leaves room for the
//! board.

mod common;

use cardboard::game::GameState;
use cardboard::play::screen::{draw, WIDTH};

#[test]
fn every_game_and_example_at_its_start_middle_and_end() {
    let files = common::game_files()
        .into_iter()
        .chain(common::example_files());
    let mut drawn = 0;
    for file in files {
        for seen in common::seeded::positions(&file, 1) {
            let screen = draw(&seen.state.observe(seen.seat));
            for line in screen.lines() {
                let words = line.split_whitespace().count();
                assert!(
                    line.chars().count() <= WIDTH || words <= 2,
                    "{} {}: a line wider than {WIDTH}:\n{line}",
                    seen.game,
                    seen.when
                );
            }
            let moves = screen.split("Your moves:\n").nth(1).unwrap_or("");
            assert!(
                moves.lines().count() <= 17,
                "{} {}: {} lines of moves",
                seen.game,
                seen.when,
                moves.lines().count()
            );
            insta::assert_snapshot!(format!("{}_{}", seen.game, seen.when), screen);
            drawn += 1;
        }
    }
    assert!(drawn >= 3, "no game was drawn");
}
