//! The words of the lowering pass's error messages, and the catalogue of
//! every kind of message with a RECYCLE snippet that triggers it.
//!
//! Messages speak of cards, locations, players and conditions, never of
//! grammar rules or Rust types. Each one points at the offending form.
//!
//! | message | triggered by |
//! | --- | --- |
//! | **the file** | |
//! | the file is empty: expected `(game ...)` | an empty file, or only comments |
//! | a rules file holds one `(game ...)` form; `(stage ...)` is outside it | `(game ...) (stage ...)` |
//! | a rules file holds one `(game ...)` form, found `(setup ...)` | a file with no `(game ...)` |
//! | the `(game ...)` ends at this `)`, so the forms after it are outside it | `(game (setup ...))) (stage ...))`: a `)` too many inside |
//! | this form is nested too deeply: more than 200 brackets are open here | 201 nested `(` |
//! | **the game** | |
//! | the game needs a `(setup ...)` | `(game (turn pass) (scoring max 0))` |
//! | the game needs a `(scoring max\|min ...)` at the end | `(game (setup ...) (turn pass))` |
//! | nothing can follow the `(scoring ...)`: it must come last in the game | `(game (setup ...) (scoring max 0) (turn pass))` |
//! | the game needs at least one stage or action between the setup and the scoring | `(game (setup ...) (scoring max 0))` |
//! | the game has a second `(setup ...)` / `(scoring ...)` | two `(setup ...)` forms |
//! | a `declare` must come before the `(setup ...)` | `(game (setup ...) (declare 4 'N) ...)` |
//! | this comes before the `(setup ...)`: the setup must come first, right after the declares | `(game (turn pass) (setup ...) ...)` |
//! | `declare` is written `(declare VALUE 'NAME)`, as in `(declare 4 'NUMP)` | `(declare 'NUMP 4)` |
//! | `'NUMP` is declared twice | `(declare 4 'NUMP) (declare 5 'NUMP)` |
//! | `scoring` is written `(scoring max INTEGER)` or `(scoring min INTEGER)` | `(scoring most 0)` |
//! | **the setup** | |
//! | the setup must begin with `(create players N)` | `(setup (create deck ...))` |
//! | `(create players N)` must come first in the setup | `(setup (create teams (0) (1)) (create players 2))` |
//! | the setup can only create players, teams, boards and decks, found `(shuffle ...)` | `(setup (create players 2) (shuffle (game vloc D)))` |
//! | the setup creates teams twice | two `(create teams ...)` |
//! | `create teams` needs the teams, as in `(create teams (0, 2) (1, 3))` | `(create teams)` |
//! | a team is a list of player numbers such as `(0, 2)`, found `ONE` | `(create teams (ONE, THREE))` |
//! | `create deck` is written `(create deck LOCATION (deck ...))` | `(create deck (deck ...))` |
//! | **decks and awards** | |
//! | expected a deck such as `(deck (RANK (ACE, TWO)) ...)`, found ... | `(create deck (game vloc D) (cards ...))` |
//! | a deck needs at least one attribute such as `(RANK (ACE, TWO))` | `(deck)` |
//! | the values of the deck attribute `RANK` go in their own brackets | `(deck (RANK A TWO))` |
//! | the attribute `RANK` has no values | `(deck (RANK))` |
//! | a deck attribute is written `(KEY (VALUE, ...))` ... | `(deck ((A, B)))` |
//! | the values of a deck attribute go in brackets, found the number `3` | `(deck (RANK 3))` |
//! | unexpected ... among the values of a deck attribute | `(deck (COLOR (RED (SUIT (HEARTS)) BLUE)))` |
//! | this group of deck values has no values | `(deck (COLOR ((SUIT (HEARTS)))))` |
//! | expected a list of awards, found ... | `(set (game points P) 3)` |
//! | this award has no points | `((RANK : ACE))` |
//! | an award needs at least one condition such as `(RANK : ACE)` before its points | `((14))` |
//! | a condition of an award is written `(RANK : ACE)` or `(RANK (ACE))` | `((RANK ACE TWO) 3)` |
//! | **stages** | |
//! | a stage must begin with `player` or `team` | `(stage (end ...) ...)`, `(stage round ...)` |
//! | a stage needs an `(end CONDITION)` | `(stage player (turn pass))` |
//! | a stage needs at least one action or stage after its `(end ...)` | `(stage player (end (== 1 1)))` |
//! | `choice` takes one list of options, as in `(choice ((move ...) (turn pass)))` | `(choice (turn pass))`... with two items |
//! | a `choice` needs at least one option | `(choice ())` |
//! | **actions** | |
//! | unknown action `mvoe` (with "did you mean `move`?") | `(mvoe 'C (top (game vloc PILE)))` |
//! | expected an action such as `(move ...)` or `(do (...))`, found ... | `(do (3))`, `(do (turn pass))` |
//! | expected an action, found a list inside brackets | `(do (((turn pass))))` |
//! | a conditional action is written `(CONDITION ACTION)`, but this list has three items | `((== 1 1) (turn pass) (turn pass))` |
//! | this conditional action `(CONDITION ACTION)` stands where a plain action is expected | `((== 1 1) ((== 2 2) (turn pass)))`, `(repeat 2 ((== 1 1) (turn pass)))` |
//! | a `choice` can only be an item of a stage or of the game | `(do ((choice ((turn pass)))))` |
//! | a `stage` can only be an item of another stage or of the game | `(do ((stage player ...)))` |
//! | a `(setup ...)` can only be an item of the game itself | `(do ((setup ...)))` |
//! | an `(end ...)` can only come right after `(stage player\|team` | `(stage player (turn pass) (end ...))` |
//! | `move` takes two cards, found one | `(move (top (game vloc A)))` |
//! | `do` takes one list of actions, as in ... | `(do (turn pass) (turn pass))` |
//! | `set` takes a storage such as `(game sto SCORE)`, `(game str LEAD)` or `(game points VALUES)`, found ... | `(set 'X 3)` |
//! | `inc` takes an integer storage such as `(game sto SCORE)`, found ... | `(inc (game str LEAD) 1)` |
//! | `cycle` is written `(cycle next WHO)` or `(cycle current WHO)` | `(cycle after current)` |
//! | `turn` is written `(turn pass)` | `(turn over)` |
//! | `repeat all` works with `(move ...)` or `(forget ...)`, found ... | `(repeat all (shuffle ...))` |
//! | `create` is written `(create deck ...)` or `(create teams ...)` | `(create hand ...)` |
//! | players can only be created in the setup | `(create players 3)` in a stage |
//! | `put` is written `(put points 'NAME (AWARD...))` | `(put 'PREC (...))` |
//! | **variables** | |
//! | unknown variable `'X` (with "did you mean" when close to a bound one) | `(move 'X (top (game vloc PILE)))` with no `'X` bound |
//! | `'P` is a player, but a card is expected here | `(all player 'P (move 'P (top ...)))` |
//! | `all` needs a variable name such as `'X` here, found `P` | `(all player P ...)` |
//! | `all` takes a collection, a variable and a body, found two | `(all player (turn pass))` |
//! | cannot tell what kind of value `(current ...)` is | `(let (current X) 'V ...)` |
//! | unknown form `(foo ...)`: expected a value such as ... | `(let (foo) 'V ...)` |
//! | **expressions** | |
//! | expected a card such as `(top (game vloc PILE))` or a card variable, found the number `3` | `(move 3 (top ...))` |
//! | expected a card location such as `(game vloc PILE)`, found `(size ...)` | `(shuffle (size ...))` |
//! | expected a collection of card collections such as `(partition SUIT (game vloc PILE))`, found ... | a fallback: the forms that lead here are recognised by their shape first |
//! | expected a collection such as `player`, `(game vloc PILE)` or `(range 1 .. 5)`, found ... | `(any HEARTS 'C ...)` |
//! | expected an integer such as `3`, `(size ...)` or `(game sto SCORE)`, found ... | `(inc (game sto X) HEARTS)` |
//! | unknown form `(foo ...)`: expected an integer ... | `(inc (game sto X) (foo 1))` |
//! | expected a string such as `HEARTS`, `(game str LEAD)` or `(cardatt SUIT 'C)`, found ... | `(set (game str X) 3)` |
//! | expected a condition such as `(== A B)`, `(and ...)` or `(any ...)`, found ... | `(end 3)` |
//! | expected a player such as `(current player)`, `(owner CARD)` or a player variable, found ... | `(cycle next (top ...))` |
//! | expected a team such as `(current team)` or `(team (current player))`, found ... | a fallback, like the one above; a team variable where a player is expected gives "`'T` is a team, but a player is expected here": `(any team 'T (cycle next 'T))` |
//! | expected an owner such as `game`, `(current player)` or a player variable, found ... | `(HEARTS vloc PILE)` |
//! | `'C` is a card, but a player, a team, a space or `game` is expected here | `(all (game vloc A) 'C (inc ('C sto X) 1))` |
//! | expected a point map such as `(game points VALUES)`, found ... | `(sum X using 3)` |
//! | (each "expected" message adds a note such as "`(size ...)` is an integer" when the kind of the form found is known) | |
//! | `max` is written `(max CARDS using POINTS)` (also `min`, `sort`, `sum`, `score`, `tuples`, `runs`, `run`) | `(max (game vloc A))` |
//! | `top` is written `(top CARDS)` for one card or `(top N CARDS)` for N cards | `(top 1 2 (game vloc A))` |
//! | `last` is written `(last moved)` | `(last)`, `(last card)` |
//! | `union` takes one or more card collections, found none | `(union)` |
//! | `partition` is written `(partition ATTRIBUTE CARDS...)` | `(partition SUIT)` |
//! | `other` is written `(other player)` or `(other team)` | `(other cards)` |
//! | `range` is written `(range 1 .. 5)` | `(range 1 5)` |
//! | `random` is written `(random N)` or `(random A .. B)` | `(random 1 2)` |
//! | to add up over a collection, the body of `all` must be an integer storage such as `('P sto SCORE)`, found ... | `(+ 1 (all player 'P ('P str X)))` |
//! | `==` cannot compare an integer with a string | `(== 3 HEARTS)` |
//! | `==` compares integers, strings, cards, players, teams or spaces, found a card collection | `(== (game vloc A) (game vloc B))` |
//! | `+` takes two integers, found three | `(+ 1 2 3)` |
//! | `and` takes at least two conditions, found one | `(and (== 1 1))` |
//! | `cardatt` takes an attribute and a card, found one | `(cardatt RANK)` |
//! | **boards and spaces** | |
//! | `create board` is written `(create board NAME (track N))` or `(create board NAME (grid ROWS COLS))` | `(create board B)` |
//! | this board has no name: `(create board NAME (grid ROWS COLS))` | `(create board (grid 3 3))` |
//! | a board is named by a word such as `TRACK` or `GRID`, found the variable `'B` | `(create board 'B (track 3))` |
//! | the board `GRID` is created twice | two `(create board GRID ...)` |
//! | a board is created once, by a `(create board ...)` of its own in the setup | `(create board B (track 3))` in a stage, or in a `repeat` |
//! | a board's shape is `(track N)`, `(grid ROWS COLS)`, `(hex ROWS COLS)`, `(hexagon SIDE)` or `(graph (points ...) (links ...))`, found `(ring ...)` | `(create board B (ring 3))` |
//! | `track` is written `(track N)`, with N the number of spaces; found two | `(track 3 4)` |
//! | a track does not wrap: `track` is written `(track N)` | `(track 10 (wrap))` |
//! | `grid` is written `(grid ROWS COLS)`, optionally followed by `(wrap columns)`, `(wrap rows)` or `(wrap columns rows)` (also `hex`) | `(grid 3)`, `(grid 3 3 (wrap rows) (wrap columns))`, `(hex 5)` |
//! | after a grid's rows and columns comes `(wrap columns)`, ..., found `columns` | `(grid 3 3 columns)` |
//! | `wrap` takes `rows`, `columns` or both, found `cols` (with "write `columns`") | `(wrap cols)`, `(wrap)` |
//! | `rows` is written twice in this `wrap` | `(wrap rows rows)` |
//! | a track needs at least one space (a grid: one row, one column) | `(track 0)`, `(grid 0 3)` |
//! | a `declare` cannot use a board: the boards are created in the setup, after the declares | `(declare (spaces GRID) 'ALL)` |
//! | unknown board `GRDI` (with "did you mean `GRID`?", or the game's boards) | `(space GRDI 1 2)` |
//! | expected the name of a board such as `GRID`, found the variable `'B` | `(space 'B 1)` |
//! | `GRID` is a grid: `(space GRID ROW COL)` (also a hex board) | `(space GRID 4)` |
//! | `TRACK` is a track: `(space TRACK INDEX)` | `(space TRACK 1 2)` |
//! | `space` is written `(space BOARD INDEX)` on a track or `(space BOARD ROW COL)` on a grid | `(space)` |
//! | expected a space such as `(space GRID 2 3)` or a space variable, found `(top ...)` | `(index (top (game vloc A)))` |
//! | `'S` is a space, but a player is expected here | `(all (spaces GRID) 'S (cycle next 'S))` |
//! | `neighbour` takes a space and a direction, found one | `(neighbour 'S)` |
//! | `north` is not a direction: a direction is `N`, `E`, ... (with "write `N`", or "directions are written in capitals") | `(neighbour 'S north)` |
//! | `TRACK` is a track: its directions are `NEXT` and `PREV`, not `N` (and the grid's, the hex board's) | `(neighbour (space TRACK 1) N)`, `(neighbour (space HEX 1 1) S)`: only when the board is written out (also in `line`, a `group`'s directions) |
//! | `rotate` takes a direction and a number of quarter turns, found one | `(rotate N)` |
//! | `north` is not a direction: ... (as for `neighbour`) | `(rotate north 1)` |
//! | `NEXT` is a track's direction: it cannot be turned by 1 quarter turn (note: a track's directions turn only by half turns) | `(rotate NEXT 1)`: only when both are written out |
//! | `GRID` is a grid: `after` needs a direction, as in `(after SPACE E 'V CONDITION)` (also a hex board) | `(after (space GRID 1 1) 'V ...)` |
//! | `after` is written `(after SPACE 'V CONDITION)`, or `(after SPACE DIRECTION 'V CONDITION)` to go in a direction (also `before`) | `(after 'S 'V)` |
//! | `where` takes one card, found none (also `index`, `row`, `col`, `onboard`: one space) | `(where)` |
//! | `spaces` takes the name of a board, found none | `(spaces)` |
//! | `group` is written `(group SPACE 'V CONDITION)`, or `(group SPACE DIRECTIONS 'V CONDITION)` ... | `(group 'S 'V)` |
//! | the directions of a `group` are a collection of strings such as `(N, E, S, W)`, found a collection of integers | `(group 'S (range 1 .. 3) 'V ...)` |
//! | `line` is written `(line SPACE DIRECTION 'V CONDITION)`: ... | `(line 'S 'V ...)` |
//! | `rows` takes a collection of spaces such as `(spaces GRID)` or `(group ...)`, found a card collection (also `cols`) | `(rows (game vloc A))` |
//! | `max` takes a collection of integers such as `(range 1 .. 5)`, found a card collection (also `min`, `first`; a note gives the card form) | `(set (game sto X) (max (game vloc A)))` |
//! | `==` cannot compare a space with an integer | `(== (space TRACK 0) 3)` |
//! | **definitions** (`define.rs`) | |
//! | `define` is written `(define (NAME 'PARAMETER ...) BODY)`, as in ... | `(define FULL)` |
//! | `size` is a word of the language: a definition needs a name of its own | `(define (size 'X) 1)` |
//! | `FULL` is defined twice | two `(define (FULL) ...)` |
//! | `'X` is a parameter of `C` twice | `(define (C 'X 'X) ...)` |
//! | a parameter of `C` is a variable such as `'S`, found `X` | `(define (C X) ...)` |
//! | `INT` takes one argument ('Q), found none | `(INT)` for `(define (INT 'Q) ...)` |
//! | `A` uses itself (`A` -> `B` -> `A`): a definition is written out in full where it is used, so it cannot be recursive | `(define (A 'X) (B 'X))` and `(define (B 'Y) (A 'Y))` |
//! | `(INT ...)` is an integer, but a condition is expected here | `((INT 3) (turn pass))` |
//! | `INT` is a condition or a value, not an action | `(choice ((INT 3)))` |
//! | `(set ...)` is an action, not a condition or a value | `(let (MARK 'S) 'X ...)`, MARK an action definition |
//! | an `afterwards` can only be an option of a `choice` | `(do ((afterwards (== 1 1) (turn pass))))` |
//! | `afterwards` is written `(afterwards CONDITION OPTION)` | `(afterwards (turn pass))` |
//! | expected a collection ..., found a list (note: a list written out holds words only) | `(any (1, -1) 'Q ...)` |
//! | `'X` is a parameter of a definition, which cannot be used here | a parameter where no argument can stand (none known) |
//! | the definitions used here are too large written out: more than 100000 uses, or more than 400 brackets deep, in all | 30 definitions each using the previous one twice |
//! | **choices** (`choice.rs`) | |
//! | `choice` takes one list of options, as in ..., optionally a name before it and an `(else ACTION)` after it | `(choice ((turn pass)) (otherwise (turn pass)))` |
//! | two choices are named `PLACE` | `(choice PLACE ...)` twice |
//! | `else` takes one action, found none | `(choice ((turn pass)) (else))` |
//! | no choice is named `PALCE` (with "did you mean `PLACE`?") | `(legal PALCE)` |
//! | `legal` is written `(legal NAME)` or `(legal NAME PLAYER)`, ... | `(legal)` |
//! | **limits** | |
//! | this game uses too many variables (location names, storage names, ...) | more than 65,535 of them |

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
/// What a space looks like.
pub const SPACE: &str = "a space such as `(space GRID 2 3)` or a space variable";
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
    short: "a player, a team, a space or `game`",
    long: OWNER,
};
/// A space position.
pub const E_SPACE: Expect = Expect {
    short: "a space",
    long: SPACE,
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
        ValueType::Space => "a space",
        ValueType::Spaces => "a collection of spaces",
    }
}

/// "a card collection", "a collection of spaces", ...: the name of a
/// collection whose items are of type `item`.
pub fn collection_name(item: ValueType) -> &'static str {
    match item {
        ValueType::Card => "a card collection",
        ValueType::Cards => "a collection of card collections",
        ValueType::Player => "a collection of players",
        ValueType::Team => "a collection of teams",
        ValueType::Str => "a collection of strings",
        ValueType::Int => "a collection of integers",
        ValueType::Space => "a collection of spaces",
        other => type_name(other),
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
