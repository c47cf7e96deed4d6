//! The expressions of the compiled form: owners, spaces, players, teams,
//! locations and storages, cards and collections, integers, strings and
//! conditions. Re-exported by [`crate::ir`].

use super::{AttrId, LocNameId, Sym, ValueExpr, ValueType, VarId};

/// Who owns a storage or location.
#[derive(Clone, Debug)]
pub enum OwnerExpr {
    /// `game`.
    Game,
    /// A player: `(current player)`, `'P`, ...
    Player(PlayerExpr),
    /// A team: `(current team)`, `(team 'P)`, ...
    Team(TeamExpr),
    /// A space of a board: `(space TRACK 3)`, `'S`, ...
    Space(SpaceExpr),
}

/// A space of a board, or "no space" (off the board, not found).
#[derive(Clone, Debug)]
pub enum SpaceExpr {
    /// `(space BOARD I)` on a track, `(space BOARD ROW COL)` on a grid.
    /// Outside the board (and not wrapped) it is no space.
    At { board: u16, coords: Vec<IntExpr> },
    /// A space variable.
    Var(VarId),
    /// `(where CARD)`: the space whose location holds the card (no space if
    /// the card is not on a board).
    Of(Box<CardExpr>),
    /// `(neighbour SPACE DIR)`: the next space in direction DIR (a string:
    /// `N E S W NE NW SE SW` on grids, `NEXT PREV` on tracks); no space off
    /// the edge, the other side across a wrapped edge.
    Neighbour(Box<SpaceExpr>, Box<StrExpr>),
    /// `(after SPACE 'V COND)` / `(before SPACE 'V COND)` on a track, or
    /// `(after SPACE DIR 'V COND)` on a grid: the first space strictly
    /// after (before) SPACE, walking forward (backward) or in direction DIR,
    /// for which COND holds with 'V bound to it; no space if none does.
    Find {
        from: Box<SpaceExpr>,
        forward: bool,
        dir: Option<Box<StrExpr>>,
        var: VarId,
        cond: Box<BoolExpr>,
    },
    /// `(if COND A B)`: A when COND holds, else B (cardboard extension).
    If(Box<(BoolExpr, SpaceExpr, SpaceExpr)>),
    /// `(step SPACE DIR K)` / `(step SPACE DIR K SKIP)`: the K-th space
    /// after SPACE walking in direction DIR, passing over the space SKIP
    /// (not counted); no space if the walk leaves the board (cardboard
    /// extension, the space `sow` reaches).
    Step {
        from: Box<SpaceExpr>,
        dir: Box<StrExpr>,
        count: Box<IntExpr>,
        skip: Option<Box<SpaceExpr>>,
    },
}

/// A player.
#[derive(Clone, Debug)]
pub enum PlayerExpr {
    /// `(current player)`.
    Current,
    /// `(if COND A B)`: A when COND holds, else B (cardboard extension).
    If(Box<(BoolExpr, PlayerExpr, PlayerExpr)>),
    /// `(next player)`: who plays next in the innermost player cycle.
    Next,
    /// `(previous player)`.
    Previous,
    /// `(N player)`: by seat number from 0.
    Index(Box<IntExpr>),
    /// `(owner CARD)`: the player whose location holds the card.
    OwnerOf(Box<CardExpr>),
    /// A player variable.
    Var(VarId),
}

/// A team.
#[derive(Clone, Debug)]
pub enum TeamExpr {
    /// `(current team)`.
    Current,
    /// `(next team)`.
    Next,
    /// `(previous team)`.
    Previous,
    /// `(N team)`.
    Index(Box<IntExpr>),
    /// `(team PLAYER)`: the player's team.
    OfPlayer(Box<PlayerExpr>),
    /// A team variable.
    Var(VarId),
}

/// Which kind of card location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocKind {
    /// `vloc`: visible to everyone.
    Visible,
    /// `iloc`: visible to its owner only (to nobody if the game owns it).
    Invisible,
    /// `hloc`: visible to nobody.
    Hidden,
    /// `oloc`: visible to everyone but its owner.
    Others,
    /// `mem`: copies (references) of cards, visible to everyone.
    Memory,
}

impl LocKind {
    /// The kind as rules files, observations and positions write it.
    pub fn word(self) -> &'static str {
        match self {
            LocKind::Visible => "vloc",
            LocKind::Invisible => "iloc",
            LocKind::Hidden => "hloc",
            LocKind::Others => "oloc",
            LocKind::Memory => "mem",
        }
    }
}

/// A location's kind and name, interned: `(vloc, TRICK)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocName {
    pub kind: LocKind,
    pub name: Sym,
}

/// A storage or location name: fixed at compile time (the usual case) or
/// computed (`(game vloc (game str WHERE))`).
#[derive(Clone, Debug)]
pub enum NameRef<Id> {
    /// A known name id.
    Fixed(Id),
    /// A string computed while playing; looked up by symbol.
    Dynamic(Box<StrExpr>),
}

/// `(OWNER vloc|iloc|hloc|oloc|mem NAME)`.
#[derive(Clone, Debug)]
pub struct LocationExpr {
    pub owner: OwnerExpr,
    /// The kind, for dynamic names (fixed names carry it in their id).
    pub kind: LocKind,
    pub name: NameRef<LocNameId>,
}

/// `(OWNER sto NAME)`.
#[derive(Clone, Debug)]
pub struct IntStorage {
    pub owner: OwnerExpr,
    pub name: NameRef<u16>,
}

/// `(OWNER str NAME)`.
#[derive(Clone, Debug)]
pub struct StrStorage {
    pub owner: OwnerExpr,
    pub name: NameRef<u16>,
}

/// `(OWNER points NAME)`, or `'NAME` of the older `put points` dialect
/// (a game point map).
#[derive(Clone, Debug)]
pub struct PointStorage {
    pub owner: OwnerExpr,
    pub name: NameRef<u16>,
}

/// A position in a card collection.
#[derive(Clone, Debug)]
pub enum Pos {
    /// `top`.
    Top,
    /// `bottom`.
    Bottom,
    /// `N`: counted from the top, 0 is the top card.
    Index(Box<IntExpr>),
}

/// A card (or a place in a location, as the target of `move`).
#[derive(Clone, Debug)]
pub enum CardExpr {
    /// A card variable (`'C` bound by `any`/`all`/`filter`/`let`).
    Var(VarId),
    /// `(top CARDS)`, `(bottom CARDS)`, `(N CARDS)`.
    At(Pos, Box<CardsExpr>),
    /// `(max CARDS using POINTS)`: ties broken at random.
    Max(Box<CardsExpr>, PointStorage),
    /// `(min CARDS using POINTS)`: ties broken at random.
    Min(Box<CardsExpr>, PointStorage),
    /// `(actual CARD)`: the card itself where it really lies, for a card
    /// seen through a `mem` location.
    Actual(Box<CardExpr>),
    /// `(last moved)`: the card most recently moved by a `move` action in
    /// this game, where it lies now; no card before the first move
    /// (cardboard extension).
    LastMoved,
}

/// A card collection.
#[derive(Clone, Debug)]
pub enum CardsExpr {
    /// A location.
    Location(LocationExpr),
    /// A card-collection variable.
    Var(VarId),
    /// `(filter CARDS 'V BOOL)`.
    Filter(Box<CardsExpr>, VarId, Box<BoolExpr>),
    /// `(union CARDS...)`.
    Union(Vec<CardsExpr>),
    /// `(union (all COLLECTION 'V CARDS))`.
    UnionAll(Box<CollectionsExpr>),
    /// `(intersect CARDS...)`.
    Intersect(Vec<CardsExpr>),
    /// `(intersect (all ...))`.
    IntersectAll(Box<CollectionsExpr>),
    /// `(disjunction CARDS...)`: cards in exactly one of them.
    Disjunction(Vec<CardsExpr>),
    /// `(disjunction (all ...))`.
    DisjunctionAll(Box<CollectionsExpr>),
    /// `(sort CARDS using POINTS)`: ascending score, bottom to top... see
    /// the language reference for the order.
    Sort(Box<CardsExpr>, PointStorage),
    /// `(top COLLECTIONS)`, `(bottom COLLECTIONS)`, `(N COLLECTIONS)`: one
    /// collection out of a collection of collections.
    Pick(Pos, Box<CollectionsExpr>),
    /// `(top N CARDS)` / `(bottom N CARDS)`: the first N cards.
    Sequence {
        top: bool,
        count: Box<IntExpr>,
        source: Box<CardsExpr>,
    },
    /// `(run top|bottom N CARDS using POINTS)`: the longest run of at least
    /// N consecutive scores that includes the top (bottom) card.
    RunFrom {
        top: bool,
        min: Box<IntExpr>,
        source: Box<CardsExpr>,
        points: PointStorage,
    },
}

/// A collection of card collections.
#[derive(Clone, Debug)]
pub enum CollectionsExpr {
    /// A variable holding one.
    Var(VarId),
    /// `(tuples N CARDS using POINTS)`: groups of N cards of equal score.
    Tuples {
        size: Box<IntExpr>,
        source: Box<CardsExpr>,
        points: PointStorage,
    },
    /// `(partition ATTR CARDS...)`: cards grouped by the attribute's value.
    Partition {
        attr: Box<StrExpr>,
        sources: Vec<CardsExpr>,
    },
    /// `(partition ATTR (all ...))`.
    PartitionAll {
        attr: Box<StrExpr>,
        source: Box<CollectionsExpr>,
    },
    /// `(subsets CARDS)`: every subset.
    Subsets(Box<CardsExpr>),
    /// `(runs largest|all N CARDS using POINTS)`.
    Runs {
        largest: bool,
        min: Box<IntExpr>,
        source: Box<CardsExpr>,
        points: PointStorage,
    },
    /// `(all COLLECTION 'V CARDS)`: one card collection per item.
    All {
        over: Box<CollectionExpr>,
        var: VarId,
        body: Box<CardsExpr>,
    },
}

/// Any collection: what `any`, `all`, `filter` and `size` iterate over.
#[derive(Clone, Debug)]
pub enum CollectionExpr {
    /// Cards (items are cards).
    Cards(CardsExpr),
    /// Card collections (items are card collections).
    Collections(CollectionsExpr),
    /// `player`: every player, from seat 0.
    AllPlayers,
    /// `(other player)`: every player but the current one, in seat order
    /// starting after the current player.
    OtherPlayers,
    /// `team`: every team.
    AllTeams,
    /// `(other team)`.
    OtherTeams,
    /// `(current team)` and other teams used as a collection: its players.
    TeamPlayers(TeamExpr),
    /// `(A, B, C)`: strings.
    Strings(Vec<Sym>),
    /// `(range A .. B)`: integers from A to B inclusive.
    Range(Box<IntExpr>, Box<IntExpr>),
    /// A variable holding a collection of players, teams, strings or ints.
    Var(VarId, ValueType),
    /// `(filter COLLECTION 'V BOOL)` over a non-card collection.
    Filter(Box<CollectionExpr>, VarId, Box<BoolExpr>),
    /// `(spaces BOARD)`: every space of a board, in index order.
    Spaces(u16),
    /// `(group SPACE 'V COND)`: the spaces connected to SPACE (orthogonal
    /// neighbours on a grid, NEXT/PREV on a track, the six on a hex board;
    /// across wrapped edges) through spaces where COND holds; SPACE itself
    /// included if COND holds for it (else empty). In index order.
    /// `(group SPACE DIRS 'V COND)` spreads in the directions DIRS instead.
    Group {
        from: Box<SpaceExpr>,
        var: VarId,
        cond: Box<BoolExpr>,
        dirs: Option<super::GroupDirs>,
    },
    /// `(line SPACE DIR 'V COND)`: the spaces after SPACE in direction DIR
    /// for which COND holds, one after the other, up to the first for which
    /// it does not (or the edge; once around a wrapped axis at most).
    Line {
        from: Box<SpaceExpr>,
        dir: Box<StrExpr>,
        var: VarId,
        cond: Box<BoolExpr>,
    },
}

/// A whole number.
#[derive(Clone, Debug)]
pub enum IntExpr {
    Lit(i64),
    Var(VarId),
    /// `(OWNER sto NAME)`.
    Storage(IntStorage),
    /// `(size COLLECTION)`.
    Size(Box<CollectionExpr>),
    /// `(+ A B)` and the other binary operators.
    Binary(IntOp, Box<IntExpr>, Box<IntExpr>),
    /// `(tri N)`: N-th triangular number.
    Tri(Box<IntExpr>),
    /// `(fib N)`: N-th Fibonacci number.
    Fib(Box<IntExpr>),
    /// `(if COND A B)`: A when COND holds, else B (cardboard extension).
    If(Box<(BoolExpr, IntExpr, IntExpr)>),
    /// `(abs N)`: the absolute value (`(abs MIN)` is an overflow error).
    Abs(Box<IntExpr>),
    /// `(sign N)`: -1, 0 or 1.
    Sign(Box<IntExpr>),
    /// `(random N)`: 0..=N; `(random A .. B)`: A..=B.
    Random(Box<IntExpr>, Option<Box<IntExpr>>),
    /// `(sum CARDS using POINTS)`.
    Sum(Box<CardsExpr>, PointStorage),
    /// `(score CARD using POINTS)`.
    Score(Box<CardExpr>, PointStorage),
    /// `(all COLLECTION 'V (OWNER sto NAME))`: the sum.
    SumAll {
        over: Box<CollectionExpr>,
        var: VarId,
        storage: IntStorage,
    },
    /// `(index SPACE)`: a space's number on its board (row * cols + col on
    /// a grid).
    SpaceIndex(Box<SpaceExpr>),
    /// `(row SPACE)`.
    SpaceRow(Box<SpaceExpr>),
    /// `(col SPACE)`.
    SpaceCol(Box<SpaceExpr>),
    /// `(rows SPACES)`: how many distinct rows the spaces lie in.
    RowsSpanned(Box<CollectionExpr>),
    /// `(cols SPACES)`: how many distinct columns.
    ColsSpanned(Box<CollectionExpr>),
    /// `(around SPACE 'V COND)`: bit k set when the space has a neighbour
    /// in the k-th direction of its board (on a grid N NE E SE S SW W NW,
    /// clockwise from north; on a track NEXT PREV) and COND holds with 'V
    /// bound to it; 0 for no space.
    Around {
        from: Box<SpaceExpr>,
        var: VarId,
        cond: Box<BoolExpr>,
    },
    /// `(min INTS)`: the smallest of a collection of integers (a rules
    /// error if it is empty).
    MinOf(Box<CollectionExpr>),
    /// `(max INTS)`.
    MaxOf(Box<CollectionExpr>),
    /// `(first INTS)`: the first integer of the collection.
    FirstOf(Box<CollectionExpr>),
    /// `(min COLLECTION 'V INT)` / `(max COLLECTION 'V INT)`: the smallest
    /// (largest) value of INT with 'V bound to each item (a rules error on
    /// an empty collection).
    Extreme {
        max: bool,
        over: Box<CollectionExpr>,
        var: VarId,
        body: Box<IntExpr>,
    },
}

/// Integer operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    /// `//`: integer division (division by zero is a runtime error).
    Div,
    /// `%` (also `mod`).
    Mod,
    /// `^`.
    Pow,
    /// `bitand`: the bits set in both (two's complement).
    BitAnd,
    /// `bitor`: the bits set in either.
    BitOr,
    /// `bitxor`: the bits set in exactly one.
    BitXor,
    /// `shl`: shifted left by 0 to 63 bits (a rules error otherwise).
    Shl,
    /// `shr`: shifted right by 0 to 63 bits, the sign kept.
    Shr,
    /// `rem`: the remainder of `//` (truncating division), with the sign
    /// of the dividend.
    Rem,
    /// `(min A B)`: the smaller of two integers.
    Min,
    /// `(max A B)`: the larger of two integers.
    Max,
}

/// A string.
#[derive(Clone, Debug)]
pub enum StrExpr {
    Lit(Sym),
    Var(VarId),
    /// `(OWNER str NAME)`.
    Storage(StrStorage),
    /// `(cardatt ATTR CARD)`: "" if the card or attribute is missing.
    CardAtt(AttrRef, Box<CardExpr>),
    /// `(rotate DIR K)`: the direction DIR turned K quarter turns
    /// clockwise (cardboard extension). Lowering interns every direction
    /// name, so the result always has a symbol.
    Rotate(Box<StrExpr>, Box<IntExpr>),
    /// `(if COND A B)`: A when COND holds, else B (cardboard extension).
    If(Box<(BoolExpr, StrExpr, StrExpr)>),
}

/// An attribute key in `cardatt`/`partition`.
#[derive(Clone, Debug)]
pub enum AttrRef {
    /// A key known from the decks.
    Key(AttrId),
    /// A key no deck defines: always "".
    Unknown,
    /// A computed key.
    Dynamic(Box<StrExpr>),
}

/// A condition.
#[derive(Clone, Debug)]
pub enum BoolExpr {
    /// A `declare`d/`let` boolean.
    Var(VarId),
    And(Vec<BoolExpr>),
    Or(Vec<BoolExpr>),
    Not(Box<BoolExpr>),
    /// `(< A B)` and friends on integers.
    Int(CmpOp, IntExpr, IntExpr),
    /// `(== A B)` / `(!= A B)` on strings (`eq` is true for `==`).
    Str {
        eq: bool,
        left: StrExpr,
        right: StrExpr,
    },
    /// On cards (same card).
    Card {
        eq: bool,
        left: CardExpr,
        right: CardExpr,
    },
    /// On players.
    Player {
        eq: bool,
        left: PlayerExpr,
        right: PlayerExpr,
    },
    /// On teams.
    Team {
        eq: bool,
        left: TeamExpr,
        right: TeamExpr,
    },
    /// On spaces (two "no space"s are equal).
    Space {
        eq: bool,
        left: SpaceExpr,
        right: SpaceExpr,
    },
    /// `(onboard SPACE)`: the space exists (is not off the board).
    OnBoard(SpaceExpr),
    /// `(any COLLECTION 'V BOOL)`: true if it holds for some item.
    Any {
        over: Box<CollectionExpr>,
        var: VarId,
        body: Box<BoolExpr>,
    },
    /// `(all COLLECTION 'V BOOL)`: true if it holds for every item.
    All {
        over: Box<CollectionExpr>,
        var: VarId,
        body: Box<BoolExpr>,
    },
    /// `(let VALUE 'V BOOL)`: VALUE evaluated once, then BOOL with 'V
    /// bound to it.
    Let {
        value: Box<ValueExpr>,
        var: VarId,
        body: Box<BoolExpr>,
    },
    /// `(legal NAME)` / `(legal NAME PLAYER)`: whether the named choice
    /// ([`super::Program::choices`]) has a legal option now, for the
    /// current player or for PLAYER as if they were to play it.
    Legal {
        choice: u16,
        player: Option<PlayerExpr>,
    },
    /// `(inrow N SPACE 'V COND)`: along some axis of SPACE's board (a
    /// direction and its opposite), SPACE and the spaces next to it on
    /// both sides for which COND holds, one after the other, are N or more
    /// (SPACE itself is counted, not tested); false for no space
    /// (cardboard extension).
    InRow {
        count: Box<IntExpr>,
        space: Box<SpaceExpr>,
        var: VarId,
        cond: Box<BoolExpr>,
    },
}

/// Integer comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    /// Compares two integers.
    #[inline(always)]
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }
}
