//! Plays one game of Agram with random players through the library and
//! prints each decision and the result.
//!
//! `cargo run --example play_agram -- 7` (the argument is the seed).

use cardboard::engine::{GameOptions, Rules};
use cardboard::game::GameState;
use cardboard::player::{Player, RandomPlayer};

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/agram.rcy");
    let rules = match Rules::load(&path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut game = match rules.start(&GameOptions {
        seed,
        overrides: vec![],
    }) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut player = RandomPlayer::new(seed);
    while let Some(seat) = game.current_player() {
        let moves = game.legal_moves();
        let pick = player.choose(&game, &moves);
        println!("p{seat}: {}", game.move_to_text(&moves[pick]));
        if let Err(e) = game.apply(&moves[pick]) {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
    match game.outcome() {
        Some(o) => println!("scores {:?}, winners {:?}", o.scores, o.winners),
        None => println!("stopped: {:?}", game.status()),
    }
}
