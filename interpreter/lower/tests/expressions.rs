//! Unit tests of expressions: cards, card collections, collections,
//! integers, strings, conditions, players and teams.

use super::{action, errors, fails_with, game, ok};
use crate::ir::{
    Action, BoolExpr, CardExpr, CardsExpr, CmpOp, CollectionExpr, CollectionsExpr, IntExpr, IntOp,
    NameRef, OwnerExpr, PlayerExpr, Pos, StageItem, StrExpr, TeamExpr,
};

/// The condition of `((COND) (turn pass))`.
fn cond(c: &str) -> BoolExpr {
    let p = ok(&game(&format!("({c} (turn pass))")));
    match p.body.into_iter().next() {
        Some(StageItem::Run(c)) => c.cond.expect("a guard"),
        other => panic!("{other:?}"),
    }
}

/// The integer of `(set (game sto X) INT)`.
fn int(i: &str) -> IntExpr {
    match action(&format!("(set (game sto X) {i})")) {
        Action::SetInt(_, v) => v,
        other => panic!("{other:?}"),
    }
}

/// The card moved by `(move CARD (top (game vloc PILE)))`.
fn card(c: &str) -> CardExpr {
    match action(&format!("(move {c} (top (game vloc PILE)))")) {
        Action::Move { from, .. } => from,
        other => panic!("{other:?}"),
    }
}

/// The cards shuffled by `(shuffle CARDS)`.
fn cards(c: &str) -> CardsExpr {
    match action(&format!("(shuffle {c})")) {
        Action::Shuffle(cs) => cs,
        other => panic!("{other:?}"),
    }
}

#[test]
fn cards_by_position_max_min_and_actual() {
    assert!(matches!(
        card("(top (game vloc DECK))"),
        CardExpr::At(Pos::Top, _)
    ));
    assert!(matches!(
        card("(2 (game vloc DECK))"),
        CardExpr::At(Pos::Index(_), _)
    ));
    assert!(matches!(
        card("((size (game vloc A)) (game vloc DECK))"),
        CardExpr::At(Pos::Index(_), _)
    ));
    assert!(matches!(
        card("(max (game vloc DECK) using (game points P))"),
        CardExpr::Max(..)
    ));
    assert!(matches!(
        card("(min (game vloc DECK) using 'P)"),
        CardExpr::Min(..)
    ));
    assert!(matches!(
        card("(actual (top (game mem M)))"),
        CardExpr::Actual(_)
    ));
    assert!(matches!(
        card("(actual (top (top (tuples 2 (game vloc DECK) using (game points P)))))"),
        CardExpr::Actual(_)
    ));
    fails_with(
        &game("(move (max (game vloc DECK)) (top (game vloc P)))"),
        "`max` is written `(max CARDS using POINTS)`",
    );
    fails_with(
        &game("(move (top 2 (game vloc DECK)) (top (game vloc P)))"),
        "expected a card such as",
    );
}

#[test]
fn last_moved_card() {
    assert!(matches!(card("(last moved)"), CardExpr::LastMoved));
    // Wherever a card goes: compared, asked for its attributes, its owner,
    // bound by `let`.
    let BoolExpr::Card { eq: true, left, .. } = cond("(== (last moved) (top (game vloc DECK)))")
    else {
        panic!("a comparison of cards")
    };
    assert!(matches!(left, CardExpr::LastMoved));
    let BoolExpr::Str { left, .. } = cond("(== (cardatt RANK (last moved)) A)") else {
        panic!("a comparison of strings")
    };
    assert!(matches!(left, StrExpr::CardAtt(_, c) if matches!(*c, CardExpr::LastMoved)));
    let BoolExpr::Player { left, .. } = cond("(== (owner (last moved)) (current player))") else {
        panic!("a comparison of players")
    };
    assert!(matches!(left, PlayerExpr::OwnerOf(c) if matches!(*c, CardExpr::LastMoved)));
    ok(&game(
        "(let (last moved) 'C (move 'C (top (game vloc PILE))))",
    ));
    for bad in ["(last)", "(last card)", "(last moved 1)", "(last MOVED)"] {
        let errs = errors(&game(&format!("(move {bad} (top (game vloc PILE)))")));
        assert_eq!(
            errs,
            vec!["`last` is written `(last moved)`".to_string()],
            "{bad}"
        );
    }
}

#[test]
fn card_collections() {
    let CardsExpr::Location(l) = cards("((current player) iloc HAND)") else {
        panic!()
    };
    assert!(matches!(l.owner, OwnerExpr::Player(PlayerExpr::Current)));
    assert!(matches!(l.name, NameRef::Fixed(1)), "DECK is 0, HAND is 1");
    let CardsExpr::Location(l) = cards("(game vloc (game str WHERE))") else {
        panic!()
    };
    assert!(matches!(l.name, NameRef::Dynamic(_)));
    let CardsExpr::Location(l) = cards("((team (current player)) vloc WON)") else {
        panic!()
    };
    assert!(matches!(l.owner, OwnerExpr::Team(TeamExpr::OfPlayer(_))));
    assert!(
        matches!(cards("(union (game vloc A) (game vloc B))"), CardsExpr::Union(ref v) if v.len() == 2)
    );
    assert!(matches!(
        cards("(union (all player 'P ('P vloc T)))"),
        CardsExpr::UnionAll(_)
    ));
    assert!(matches!(
        cards("(intersect (game vloc A) (game vloc B))"),
        CardsExpr::Intersect(_)
    ));
    assert!(matches!(
        cards("(disjunction (all player 'P ('P vloc T)))"),
        CardsExpr::DisjunctionAll(_)
    ));
    assert!(matches!(
        cards("(sort (game vloc A) using (game points P))"),
        CardsExpr::Sort(..)
    ));
    assert!(matches!(
        cards("(filter (game vloc A) 'C (== (cardatt RANK 'C) A))"),
        CardsExpr::Filter(..)
    ));
    assert!(matches!(
        cards("(top 3 (game vloc A))"),
        CardsExpr::Sequence { top: true, .. }
    ));
    assert!(matches!(
        cards("(bottom 3 (game vloc A))"),
        CardsExpr::Sequence { top: false, .. }
    ));
    assert!(matches!(
        cards("(top (partition SUIT (game vloc A)))"),
        CardsExpr::Pick(Pos::Top, _)
    ));
    assert!(matches!(
        cards("(run top 3 (game mem S) using (game points P))"),
        CardsExpr::RunFrom { top: true, .. }
    ));
    fails_with(
        &game("(shuffle (top (game vloc A)))"),
        "expected a card location such as `(game vloc PILE)`, found `(top ...)`",
    );
    fails_with(
        &game("(shuffle (HEARTS vloc A))"),
        "expected an owner such as `game`",
    );
}

#[test]
fn the_same_name_in_two_kinds_of_location_is_two_locations() {
    let p = ok(&game("(move (top (game vloc X)) (top (game iloc X)))"));
    let xs: Vec<_> = p
        .loc_names
        .iter()
        .filter(|l| p.name(l.name) == "X")
        .collect();
    assert_eq!(xs.len(), 2);
}

#[test]
fn collections_of_card_collections() {
    let size_of = |c: &str| match int(&format!("(size {c})")) {
        IntExpr::Size(c) => *c,
        other => panic!("{other:?}"),
    };
    assert!(matches!(
        size_of("(tuples 2 (game vloc A) using (game points P))"),
        CollectionExpr::Collections(CollectionsExpr::Tuples { .. })
    ));
    assert!(matches!(
        size_of("(partition RANK (game vloc A) (game vloc B))"),
        CollectionExpr::Collections(CollectionsExpr::Partition { .. })
    ));
    assert!(matches!(
        size_of("(partition RANK (all player 'P ('P vloc A)))"),
        CollectionExpr::Collections(CollectionsExpr::PartitionAll { .. })
    ));
    assert!(matches!(
        size_of("(subsets (game vloc A))"),
        CollectionExpr::Collections(CollectionsExpr::Subsets(_))
    ));
    assert!(matches!(
        size_of("(runs largest 3 (game vloc A) using (game points P))"),
        CollectionExpr::Collections(CollectionsExpr::Runs { largest: true, .. })
    ));
    assert!(matches!(
        size_of("(all player 'P ('P vloc A))"),
        CollectionExpr::Collections(CollectionsExpr::All { .. })
    ));
    assert!(matches!(size_of("player"), CollectionExpr::AllPlayers));
    assert!(matches!(
        size_of("(other team)"),
        CollectionExpr::OtherTeams
    ));
    assert!(matches!(
        size_of("(current team)"),
        CollectionExpr::TeamPlayers(TeamExpr::Current)
    ));
    assert!(matches!(size_of("(HEARTS)"), CollectionExpr::Strings(ref v) if v.len() == 1));
    assert!(matches!(
        size_of("(range 1 .. 5)"),
        CollectionExpr::Range(..)
    ));
    assert!(matches!(
        size_of("(filter player 'P (> ('P sto X) 0))"),
        CollectionExpr::Filter(..)
    ));
    assert!(matches!(
        size_of("(filter (game vloc A) 'C (> (score 'C using 'V) 0))"),
        CollectionExpr::Cards(CardsExpr::Filter(..))
    ));
    fails_with(
        &game("(set (game sto X) (size HEARTS))"),
        "expected a collection such as `player`",
    );
    fails_with(
        &game("(set (game sto X) (size (range 1 5)))"),
        "`range` is written `(range 1 .. 5)`",
    );
    fails_with(
        &game("(set (game sto X) (size (tuples 2 (game vloc A))))"),
        "`tuples` is written",
    );
}

#[test]
fn integers() {
    assert!(matches!(int("3"), IntExpr::Lit(3)));
    assert!(matches!(int("-3"), IntExpr::Lit(-3)));
    assert!(matches!(int("(- 0 3)"), IntExpr::Binary(IntOp::Sub, ..)));
    assert!(matches!(int("(+ 1 2)"), IntExpr::Binary(IntOp::Add, ..)));
    assert!(matches!(int("(mod 7 2)"), IntExpr::Binary(IntOp::Mod, ..)));
    assert!(matches!(int("(// 7 2)"), IntExpr::Binary(IntOp::Div, ..)));
    assert!(matches!(int("(^ 7 2)"), IntExpr::Binary(IntOp::Pow, ..)));
    assert!(matches!(int("(tri 4)"), IntExpr::Tri(_)));
    assert!(matches!(int("(fib 4)"), IntExpr::Fib(_)));
    assert!(matches!(int("(random 4)"), IntExpr::Random(_, None)));
    assert!(matches!(
        int("(random 1 .. 4)"),
        IntExpr::Random(_, Some(_))
    ));
    assert!(matches!(
        int("(sum (game vloc A) using (game points P))"),
        IntExpr::Sum(..)
    ));
    assert!(matches!(
        int("(score (top (game vloc A)) using (game points P))"),
        IntExpr::Score(..)
    ));
    assert!(matches!(
        int("((current player) sto X)"),
        IntExpr::Storage(_)
    ));
    assert!(matches!(
        int("(all player 'P ('P sto X))"),
        IntExpr::SumAll { .. }
    ));
    fails_with(
        &game("(set (game sto X) (+ 1 2 3))"),
        "`+` takes two integers, found three",
    );
    fails_with(&game("(set (game sto X) (foo 1))"), "unknown form `(foo ...)`: expected an integer such as `3`, `(size ...)` or `(game sto SCORE)`");
    fails_with(
        &game("(set (game sto X) HEARTS)"),
        "expected an integer such as `3`, `(size ...)` or `(game sto SCORE)`, found `HEARTS`",
    );
    fails_with(
        &game("(set (game sto X) (all player 'P ('P str X)))"),
        "the body of `all` must be an integer storage",
    );
}

#[test]
fn strings() {
    let s = |x: &str| match action(&format!("(set (game str X) {x})")) {
        Action::SetStr(_, v) => v,
        other => panic!("{other:?}"),
    };
    assert!(matches!(s("HEARTS"), StrExpr::Lit(_)));
    assert!(matches!(s("(game str Y)"), StrExpr::Storage(_)));
    assert!(matches!(
        s("(cardatt RANK (top (game vloc DECK)))"),
        StrExpr::CardAtt(..)
    ));
    ok(&game("(all (A, TWO) 'S (set (game str X) 'S))"));
    fails_with(
        &game("(set (game str X) (cardatt RANK))"),
        "`cardatt` takes an attribute and a card, found one",
    );
}

#[test]
fn conditions() {
    assert!(
        matches!(cond("(and (== 1 1) (!= 1 2) (< 1 2))"), BoolExpr::And(ref v) if v.len() == 3)
    );
    assert!(matches!(cond("(or (> 1 1) (>= 1 2))"), BoolExpr::Or(_)));
    assert!(matches!(cond("(not (<= 1 1))"), BoolExpr::Not(_)));
    assert!(matches!(
        cond("(== (size (game vloc A)) 0)"),
        BoolExpr::Int(CmpOp::Eq, ..)
    ));
    assert!(matches!(
        cond("(!= (game sto S) 0)"),
        BoolExpr::Int(CmpOp::Ne, ..)
    ));
    assert!(matches!(
        cond("(== (game str LEAD) NONE)"),
        BoolExpr::Str { eq: true, .. }
    ));
    assert!(matches!(
        cond("(== (cardatt SUIT (top (game vloc A))) (game str LEAD))"),
        BoolExpr::Str { .. }
    ));
    assert!(matches!(
        cond("(== (top (game vloc A)) (top (game vloc B)))"),
        BoolExpr::Card { .. }
    ));
    assert!(matches!(
        cond("(== (current player) (owner (top (game vloc B))))"),
        BoolExpr::Player { .. }
    ));
    assert!(matches!(
        cond("(!= (team (current player)) (current team))"),
        BoolExpr::Team { eq: false, .. }
    ));
    assert!(matches!(
        cond("(any player 'P (== 'P (current player)))"),
        BoolExpr::Any { .. }
    ));
    assert!(matches!(
        cond("(all (game vloc A) 'C (== (cardatt RANK 'C) A))"),
        BoolExpr::All { .. }
    ));
    fails_with(
        &game("((== 3 HEARTS) (turn pass))"),
        "`==` cannot compare an integer with a string",
    );
    fails_with(
        &game("((== (current player) NONE) (turn pass))"),
        "`==` cannot compare a player with a string",
    );
    fails_with(
        &game("((== (game vloc A) (game vloc B)) (turn pass))"),
        "`==` compares integers, strings, cards, players, teams or spaces, found a card collection",
    );
    fails_with(
        &game("((and (== 1 1)) (turn pass))"),
        "`and` takes at least two conditions, found one",
    );
    fails_with(
        &game("((not) (turn pass))"),
        "`not` takes one condition, found none",
    );
    fails_with(&game("((3) (turn pass))"), "expected a condition");
    fails_with(
        &game("(stage player (end (size (game vloc A))) (turn pass))"),
        "expected a condition such as `(== A B)`",
    );
}

#[test]
fn players_and_teams() {
    let who = |w: &str| match action(&format!("(cycle next {w})")) {
        Action::CycleNext(p) => p,
        other => panic!("{other:?}"),
    };
    assert!(matches!(who("(next player)"), PlayerExpr::Next));
    assert!(matches!(who("(previous player)"), PlayerExpr::Previous));
    assert!(matches!(who("((+ 1 1) player)"), PlayerExpr::Index(_)));
    ok(&game("(any player 'P (cycle next 'P))"));
    fails_with(
        &game("(any team 'T (cycle next 'T))"),
        "`'T` is a team, but a player is expected here",
    );
    fails_with(
        &game("((== (current team) 3) (turn pass))"),
        "cannot compare a team with an integer",
    );
    ok(&game("(inc ((2 team) sto X) 1)"));
    ok(&game("(all player 'Q (inc ((team 'Q) sto X) 1))"));
    fails_with(&game("(inc ((team 'Q) sto X) 1)"), "unknown variable `'Q`");
}

#[test]
fn variables_are_typed_and_scoped() {
    fails_with(
        &game("(move 'X (top (game vloc A)))"),
        "unknown variable `'X`",
    );
    fails_with(
        &game("(all player 'P (move 'P (top (game vloc A))))"),
        "`'P` is a player, but a card is expected here",
    );
    fails_with(
        &game("(do ((all player 'P (turn pass)) (inc ('P sto X) 1)))"),
        "unknown variable `'P`",
    );
    fails_with(
        &game("(all (game vloc A) 'C (inc ('C sto X) 1))"),
        "`'C` is a card, but a player, a team, a space or `game` is expected here",
    );
    // An error in a collection does not cascade into its body.
    let errs = errors(&game("(all HEARTS 'C (move 'C (top (game vloc A))))"));
    assert_eq!(errs.len(), 1, "{errs:?}");
    // Old dialect: `using 'NAME` with no such variable is a game point map.
    let p = ok(&game("(set (game sto X) (sum (game vloc A) using 'PREC))"));
    assert_eq!(p.name(p.point_names[0]), "PREC");
    fails_with(
        &game("(all player 'P (set (game sto X) (sum (game vloc A) using 'P)))"),
        "`'P` is a player, but a point map is expected here",
    );
}

#[test]
fn misspelt_forms_are_unknown_forms_with_a_suggestion() {
    let src = game("(inc ((currnet player) sto X) 1)");
    let errs = super::super::compile(&src).unwrap_err();
    assert!(
        errs[0].message.starts_with("unknown form `(currnet ...)`"),
        "{errs:?}"
    );
    assert_eq!(errs[0].note.as_deref(), Some("did you mean `current`?"));
}
