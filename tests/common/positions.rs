//! Helpers shared by the position tests: loading rules, starting a game,
//! and a hand-written Agram position.
#![allow(dead_code)] // each test binary uses a part

use cardboard::engine::{GameOptions, Rules, State};
use std::path::Path;

pub fn load(path: &Path) -> Rules {
    Rules::load(path).unwrap_or_else(|e| panic!("{} does not load:\n{e}", path.display()))
}

pub fn agram() -> Rules {
    load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/agram.rcy"))
}

pub fn start(rules: &Rules, seed: u64, set: &[(&str, &str)]) -> State {
    let overrides = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    rules
        .start(&GameOptions { seed, overrides })
        .unwrap_or_else(|e| panic!("the game does not start: {e}"))
}

/// Agram, second trick of four players: p0 led the nine of hearts, p1
/// followed with the four; p2 holds two hearts, so must play one of them.
/// Written by hand, with the cards every player holds.
pub const AGRAM_PUZZLE: &str = "\
cardboard position 1
# p2 must follow hearts: the three or the ace
set NUMP=4
set HANDSIZE=6
decisions 6
frames top:1 stage0:0 stage1:0
cycles player 0 0 2
chance seed=5
game hloc STOCK (11): SPADES-FOUR SPADES-FIVE CLUBS-FOUR CLUBS-FIVE DIAMONDS-THREE \
DIAMONDS-FOUR HEARTS-FIVE HEARTS-SIX CLUBS-SIX CLUBS-SEVEN SPADES-TEN
game vloc PLAYED (4): DIAMONDS-SIX DIAMONDS-SEVEN DIAMONDS-EIGHT DIAMONDS-NINE
game sto HANDSIZE = 6
game str LEADSUIT = HEARTS
game points RANKING = ((RANK : ACE) 14) ((RANK : TEN) 10) ((RANK : NINE) 9) \
((RANK : EIGHT) 8) ((RANK : SEVEN) 7) ((RANK : SIX) 6) ((RANK : FIVE) 5) \
((RANK : FOUR) 4) ((RANK : THREE) 3)
p0 iloc HAND: HEARTS-TEN CLUBS-THREE SPADES-THREE SPADES-SIX
p0 vloc TRICK: HEARTS-NINE
p1 iloc HAND (4): CLUBS-ACE CLUBS-EIGHT SPADES-SEVEN SPADES-EIGHT
p1 vloc TRICK: HEARTS-FOUR
p2 iloc HAND: HEARTS-THREE CLUBS-TEN HEARTS-ACE SPADES-NINE DIAMONDS-FIVE
p3 iloc HAND: DIAMONDS-TEN DIAMONDS-ACE CLUBS-NINE HEARTS-SEVEN HEARTS-EIGHT
";

/// The puzzle's text.
pub fn puzzle() -> String {
    AGRAM_PUZZLE.to_string()
}
