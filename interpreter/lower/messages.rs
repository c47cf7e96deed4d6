//! The words of the lowering pass's error messages, and the catalogue of
//! every kind of message with a RECYCLE snippet that triggers it.
//!
//! Messages speak of cards, locations, players and conditions, never of
//! grammar rules or Rust types. Each one points at the offending form.
//!
//! | message | triggered by |
//! | --- | --- |
//! | the file is empty: expected `(game ...)` | an empty file or only comments |
//! | a rules file holds one `(game ...)` form | `(game ...) (game ...)` or `(setup ...)` alone |
//! | the game needs a `(setup ...)` | `(game (stage ...) (scoring max 0))` |
//! | the game needs a `(scoring max\|min ...)` at the end | `(game (setup ...) (stage ...))` |
//! | the `(scoring ...)` must come last in the game | `(game (setup ...) (scoring max 0) (do ...))` |
//! | the game needs at least one stage or action between the setup and the scoring | `(game (setup ...) (scoring max 0))` |
//! | a `declare` must come before the `(setup ...)` | `(game (setup ...) (declare 4 'N) ...)` |
//! | the game has a second `(setup ...)` | two `(setup ...)` forms |
//! | `'NUMP` is declared twice | `(declare 4 'NUMP) (declare 5 'NUMP)` |
//! | the setup must begin with `(create players N)` | `(setup (create deck ...))` |
//! | the setup can only create players, teams and decks, found `(shuffle ...)` | `(setup (create players 2) (shuffle ...))` |
//! | `scoring` is written `(scoring max INTEGER)` or `(scoring min INTEGER)` | `(scoring most ((current player) sto SCORE))` |
//! | a stage must begin with `player` or `team` | `(stage (end ...) ...)` |
//! | a stage needs an `(end CONDITION)` | `(stage player (do ...))` |
//! | a stage needs at least one action or stage after its `(end ...)` | `(stage player (end ...))` |
//! | a `choice` needs at least one option | `(choice ())` |
//! | a `choice` can only be an item of a stage or of the game | `(do ((choice (...))))` |
//! | a `stage` can only be an item of another stage or of the game | `(do ((stage player ...)))` |
//! | unknown action `mvoe` | `(mvoe 'C (top (game vloc PILE)))` |
//! | expected an action such as `(move ...)`, found ... | `(do (3))` |
//! | `move` takes two cards, found one | `(move (top (game vloc A)))` |
//! | `repeat all` works with `(move ...)` or `(forget ...)` | `(repeat all (shuffle ...))` |
//! | `set` takes a storage such as `(game sto SCORE)` ... | `(set 'X 3)` |
//! | `inc` takes an integer storage such as `(game sto SCORE)` ... | `(inc (game str LEAD) 1)` |
//! | `cycle` is written `(cycle next WHO)` or `(cycle current WHO)` | `(cycle after (current player))` |
//! | unknown variable `'X` | `(move 'X (top (game vloc PILE)))` with no `'X` bound |
//! | `'P` is a player, but a card is expected here | `(all player 'P (move 'P (top ...)))` |
//! | `all` needs a variable name such as `'X` here, found `P` | `(all player P ...)` |
//! | expected a card such as `(top (game vloc PILE))` or a card variable, found the number `3` | `(move 3 (top ...))` |
//! | expected a card location such as `(game vloc PILE)`, found `(size ...)` | `(shuffle (size ...))` |
//! | expected a collection ..., found ... | `(any HEARTS 'C ...)` |
//! | expected an integer such as `3`, `(size ...)` or `(game sto SCORE)`, found ... | `(inc (game sto X) HEARTS)` |
//! | unknown form `(foo ...)`: expected an integer ... | `(inc (game sto X) (foo 1))` |
//! | expected a string such as `HEARTS` ..., found ... | `(set (game str X) 3)` |
//! | expected a condition such as `(== A B)` ..., found ... | `(end 3)` |
//! | expected a player such as `(current player)` ..., found ... | `(cycle next (top ...))` |
//! | expected a team such as `(current team)` ..., found ... | `(== (current team) 3)` |
//! | expected an owner such as `game`, `(current player)` or a player variable, found ... | `(HEARTS vloc PILE)` |
//! | expected a point map such as `(game points VALUES)`, found ... | `(sum X using 3)` |
//! | `max` is written `(max CARDS using POINTS)` | `(max (game vloc A))` |
//! | `==` cannot compare an integer with a string | `(== 3 HEARTS)` |
//! | `==` compares integers, strings, cards, players or teams, found a card collection | `(== (game vloc A) (game vloc B))` |
//! | `+` takes two integers, found three | `(+ 1 2 3)` |
//! | `and` takes at least two conditions, found one | `(and (== 1 1))` |
//! | a deck attribute is written `(KEY (VALUE, ...))`, ... | `(deck (RANK ACE TWO))` |
//! | a deck needs at least one attribute such as `(RANK (ACE, TWO))` | `(deck)` |
//! | an award is written `((ATTRIBUTE : VALUE) ... POINTS)` ... | `((RANK : ACE))` |
//! | a condition of an award is written `(RANK : ACE)` or `(RANK (ACE))` | `((RANK ACE TWO) 3)` |
//! | a team is a list of player numbers such as `(0, 2)` | `(create teams (0 A))` |
//! | `range` is written `(range 1 .. 5)` | `(range 1 5)` |
//! | cannot tell what kind of value this is | `(let () 'X ...)` |
//! | this game uses too many variables | more than 65,535 binding sites |

use crate::ir::ValueType;

/// What an integer looks like, for "expected ..." messages.
pub const INT: &str = "an integer such as `3`, `(size ...)` or `(game sto SCORE)`";
/// What a string looks like.
pub const STR: &str = "a string such as `HEARTS`, `(game str LEAD)` or `(cardatt SUIT 'C)`";
/// What a condition looks like.
pub const BOOL: &str = "a condition such as `(== A B)`, `(and ...)` or `(any ...)`";
/// What a card looks like.
pub const CARD: &str = "a card such as `(top (game vloc PILE))` or a card variable";
/// What a card collection looks like.
pub const CARDS: &str = "a card location such as `(game vloc PILE)`";
/// What a collection of card collections looks like.
pub const COLLECTIONS: &str =
    "a collection of card collections such as `(partition SUIT (game vloc PILE))`";
/// What a generic collection looks like.
pub const COLLECTION: &str =
    "a collection such as `player`, `(game vloc PILE)` or `(range 1 .. 5)`";
/// What a player looks like.
pub const PLAYER: &str = "a player such as `(current player)`, `(owner CARD)` or a player variable";
/// What a team looks like.
pub const TEAM: &str = "a team such as `(current team)` or `(team (current player))`";
/// What an owner looks like.
pub const OWNER: &str = "an owner such as `game`, `(current player)` or a player variable";
/// What a point map looks like.
pub const POINTS: &str = "a point map such as `(game points VALUES)`";

/// What a position expects: a short name for "`'P` is a player, but a card
/// is expected here" and a long one with examples for "expected ...,
/// found ...".
#[derive(Clone, Copy, Debug)]
pub struct Expect {
    /// "a card".
    pub short: &'static str,
    /// "a card such as `(top (game vloc PILE))` or a card variable".
    pub long: &'static str,
}

/// An integer position.
pub const E_INT: Expect = Expect {
    short: "an integer",
    long: INT,
};
/// A string position.
pub const E_STR: Expect = Expect {
    short: "a string",
    long: STR,
};
/// A condition position.
pub const E_BOOL: Expect = Expect {
    short: "a condition",
    long: BOOL,
};
/// A card position.
pub const E_CARD: Expect = Expect {
    short: "a card",
    long: CARD,
};
/// A card collection position.
pub const E_CARDS: Expect = Expect {
    short: "a card collection",
    long: CARDS,
};
/// A collection-of-card-collections position.
pub const E_COLLECTIONS: Expect = Expect {
    short: "a collection of card collections",
    long: COLLECTIONS,
};
/// A generic collection position.
pub const E_COLLECTION: Expect = Expect {
    short: "a collection",
    long: COLLECTION,
};
/// A player position.
pub const E_PLAYER: Expect = Expect {
    short: "a player",
    long: PLAYER,
};
/// A team position.
pub const E_TEAM: Expect = Expect {
    short: "a team",
    long: TEAM,
};
/// An owner position.
pub const E_OWNER: Expect = Expect {
    short: "a player, a team or `game`",
    long: OWNER,
};
/// A point map position.
pub const E_POINTS: Expect = Expect {
    short: "a point map",
    long: POINTS,
};

/// The value of a `let` or `declare`.
pub const E_VALUE: Expect = Expect {
    short: "a value",
    long: "a value such as `3`, `HEARTS`, `(game vloc PILE)` or `(current player)`",
};

/// "a player", "an integer", ... for "`'P` is a player" messages.
pub fn type_name(ty: ValueType) -> &'static str {
    match ty {
        ValueType::Int => "an integer",
        ValueType::Bool => "a condition",
        ValueType::Str => "a string",
        ValueType::Card => "a card",
        ValueType::Cards => "a card collection",
        ValueType::CardsCollection => "a collection of card collections",
        ValueType::Player => "a player",
        ValueType::Team => "a team",
        ValueType::Players => "a collection of players",
        ValueType::Teams => "a collection of teams",
        ValueType::Strs => "a collection of strings",
        ValueType::Ints => "a collection of integers",
    }
}

/// "none", "one", "two", ... for arity messages.
pub fn count(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(n)
        .map(|w| w.to_string())
        .unwrap_or_else(|| n.to_string())
}

/// The closest of `candidates` to `word` (at most two edits, and fewer
/// than half of the word), for "did you mean" notes.
pub fn suggest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let len = word.chars().count();
    if len < 3 {
        return None;
    }
    let limit = (len / 2).clamp(1, 2);
    candidates
        .iter()
        .filter(|c| **c != word)
        .map(|c| (distance(word, c), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit distance counting a swap of two neighbours as one edit.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_words_only() {
        assert_eq!(suggest("mvoe", &["move", "shuffle"]), Some("move"));
        assert_eq!(suggest("shufle", &["move", "shuffle"]), Some("shuffle"));
        assert_eq!(suggest("banana", &["move", "shuffle"]), None);
        assert_eq!(suggest("P", &["Q", "CARD"]), None);
        assert_eq!(suggest("CRAD", &["Q", "CARD"]), Some("CARD"));
    }

    #[test]
    fn counts_in_words() {
        assert_eq!(count(0), "none");
        assert_eq!(count(3), "three");
        assert_eq!(count(12), "12");
    }
}
