//! The compiled form of a rules file: what [`crate::lower`] produces and the
//! engine runs. Names are interned to small integers ([`Sym`], and per-kind
//! name ids for locations and storages); variables are slots in a frame
//! ([`VarId`]). Nothing here holds a string that the engine compares while
//! playing, and nothing refers back to pest.
//!
//! Each type's doc gives the RECYCLE form it comes from.

use crate::diagnostic::Span;

/// An interned string (a RECYCLE "String" such as `HEARTS`, or a name such
/// as `HAND`). Index into [`Program::symbols`]. Symbol 0 is the empty
/// string `""` (what `cardatt` gives for a missing attribute).
pub type Sym = u32;

/// The empty string symbol.
pub const EMPTY: Sym = 0;

/// A variable slot in the frame. Slots `0..declares.len()` hold the
/// `declare`d constants; the rest are `let`, `any`, `all` and `filter`
/// variables, each binding site with its own slot.
pub type VarId = u16;

/// What kind of value a variable holds (decided where it is bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    /// An integer.
    Int,
    /// A boolean (only from `declare`/`let`).
    Bool,
    /// A string.
    Str,
    /// A card.
    Card,
    /// A card collection.
    Cards,
    /// A collection of card collections.
    CardsCollection,
    /// A player.
    Player,
    /// A team.
    Team,
    /// A collection of players.
    Players,
    /// A collection of teams.
    Teams,
    /// A collection of strings, e.g. `(ACE, TWO, THREE)`.
    Strs,
    /// A collection of integers, e.g. `(range 1 .. 5)`.
    Ints,
    /// A space of a board (or no space: off the board).
    Space,
    /// A collection of spaces.
    Spaces,
}

/// The whole compiled game.
#[derive(Clone, Debug)]
pub struct Program {
    /// Interned strings; `symbols[0] == ""`.
    pub symbols: Vec<String>,
    /// `declare`d constants, in order; slot i is variable `i`.
    pub declares: Vec<Declare>,
    /// Number of variable slots in a frame (declares included).
    pub var_count: usize,
    /// Variable names by slot, for messages.
    pub var_names: Vec<String>,
    /// Location names: index is a [`LocNameId`].
    pub loc_names: Vec<LocName>,
    /// Integer storage names (`sto`): index is the name id.
    pub int_names: Vec<Sym>,
    /// String storage names (`str`): index is the name id.
    pub str_names: Vec<Sym>,
    /// Point map names (`points`): index is the name id.
    pub point_names: Vec<Sym>,
    /// Card attribute keys seen in decks (`RANK`, `SUIT`): index is an
    /// [`AttrId`]; a card stores one value per key.
    pub attr_keys: Vec<Sym>,
    /// Boards, from `(create board NAME SHAPE)` in setup; a
    /// [`SpaceExpr`] refers to them by index.
    pub boards: Vec<Board>,
    /// `(setup ...)`.
    pub setup: Setup,
    /// Every stage of the game; [`StageItem::Stage`] refers to them by index.
    pub stages: Vec<Stage>,
    /// The top-level items after `setup`, run in order once.
    pub body: Vec<StageItem>,
    /// `(scoring max|min INT)`.
    pub scoring: Scoring,
}

/// A card attribute key index into [`Program::attr_keys`].
pub type AttrId = u16;
/// Index into [`Program::loc_names`].
pub type LocNameId = u16;

/// `(declare 4 'NUMP)`, `(declare (ACE, TWO) 'RANKS)`.
#[derive(Clone, Debug)]
pub struct Declare {
    /// The variable's name without the quote.
    pub name: String,
    /// Its value expression (evaluated once, before setup, unless
    /// overridden from the command line).
    pub value: ValueExpr,
    /// Where the declare is.
    pub span: Span,
}

/// A value of any type, for `declare` and `let`.
#[derive(Clone, Debug)]
pub enum ValueExpr {
    Int(IntExpr),
    Bool(BoolExpr),
    Str(StrExpr),
    Card(CardExpr),
    Cards(CardsExpr),
    CardsCollection(CollectionsExpr),
    Player(PlayerExpr),
    Team(TeamExpr),
    Space(SpaceExpr),
    /// Any other collection (players, teams, strings, integers).
    Collection(CollectionExpr),
}

/// `(setup (create players N) (create teams ...)? (create deck ...)*)`.
#[derive(Clone, Debug)]
pub struct Setup {
    /// `(create players N)`.
    pub players: IntExpr,
    /// `(create teams (0 2) (1 3))`; `None` gives one team per player.
    pub teams: Option<Vec<Vec<u8>>>,
    /// Deck creations, in order (a `(repeat N (create deck ...))` is unrolled
    /// into `N` copies at lowering or kept as [`Action::Repeat`]).
    pub actions: Vec<Action>,
}

/// `(create board TRACK (track 16))`, `(create board GRID (grid 9 9))`,
/// `(create board GRID (grid 7 7 (wrap columns)))`: a named family of
/// spaces with a topology. Every space is an owner, like a player: it has
/// its own locations (`('S vloc PIECES)`) and storages (`('S sto N)`).
#[derive(Clone, Debug)]
pub struct Board {
    /// The board's name.
    pub name: Sym,
    /// Its shape; the sizes are evaluated when a game starts, so a
    /// `declare`d constant (and `--set`) can choose them.
    pub shape: Shape,
    /// Where it is created.
    pub span: Span,
}

/// A board's topology.
#[derive(Clone, Debug)]
pub enum Shape {
    /// Spaces 0..N in a line; `NEXT` and `PREV` are the directions.
    Track { len: IntExpr },
    /// R x C spaces, row 0 at the top; directions `N E S W NE NW SE SW`.
    /// `(wrap columns)`: east of the last column is the first column (left
    /// and right edges joined); `(wrap rows)`: south of the last row is the
    /// first row.
    Grid {
        rows: IntExpr,
        cols: IntExpr,
        wrap_rows: bool,
        wrap_cols: bool,
    },
}

/// `(scoring max INT)` / `(scoring min INT)`: INT is evaluated once per
/// player with that player as `(current player)`.
#[derive(Clone, Debug)]
pub struct Scoring {
    /// `max`: highest score wins; `min`: lowest wins.
    pub max: bool,
    /// The score of the current player.
    pub score: IntExpr,
}

/// `(stage player|team (end BOOL) ITEM...)`.
#[derive(Clone, Debug)]
pub struct Stage {
    /// `player` or `team`.
    pub kind: CycleKind,
    /// `(end BOOL)`: checked before every pass through the items.
    pub end: BoolExpr,
    /// The stage's items, in order.
    pub items: Vec<StageItem>,
    /// Where the stage is (for "stage at line L looped" messages).
    pub span: Span,
}

/// Whether a stage cycles players or teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleKind {
    Player,
    Team,
}

/// One item of a stage (or of the top level).
#[derive(Clone, Debug)]
pub enum StageItem {
    /// A nested stage, by index into [`Program::stages`].
    Stage(usize),
    /// `(choice (CONDACT...))`: a decision of the current player among the
    /// options of all condacts.
    Choice(Vec<Condact>, Span),
    /// Anything else: `(do ...)`, `(all ...)`, `(any ...)`, `(let ...)`, a
    /// single action; run at once with no decision (an `any` here runs for
    /// every item, as in CardStock).
    Run(Box<Condact>),
}

/// A conditional action: `(BOOL ACTION)` or a bare `ACTION`.
#[derive(Clone, Debug)]
pub struct Condact {
    /// The guard, if any.
    pub cond: Option<BoolExpr>,
    /// The action.
    pub action: Action,
    /// Whether the action holds an `any` (a choice branches there); set by
    /// [`Condact::new`].
    pub branches: bool,
}

impl Condact {
    /// A conditional action, noting whether it holds an `any`.
    pub fn new(cond: Option<BoolExpr>, action: Action) -> Condact {
        let branches = action.branches();
        Condact {
            cond,
            action,
            branches,
        }
    }
}

impl Action {
    /// Whether an `any` is reached anywhere inside.
    pub fn branches(&self) -> bool {
        match self {
            Action::Any { .. } => true,
            Action::Do(items) => items.iter().any(|c| c.branches),
            Action::All { body, .. } | Action::Let { body, .. } => body.branches,
            Action::Repeat { body, .. } => body.branches(),
            _ => false,
        }
    }
}

/// An action.
#[derive(Clone, Debug)]
pub enum Action {
    /// `(do (CONDACT...))`: each in order.
    Do(Vec<Condact>),
    /// `(any COLLECTION 'V CONDACT)`: inside a `choice`, the player picks
    /// one item (one option per item); elsewhere it runs for every item.
    Any {
        over: CollectionExpr,
        var: VarId,
        body: Box<Condact>,
    },
    /// `(all COLLECTION 'V CONDACT)`: the body once per item, in order.
    All {
        over: CollectionExpr,
        var: VarId,
        body: Box<Condact>,
    },
    /// `(let TYPED 'V CONDACT)`.
    Let {
        value: ValueExpr,
        var: VarId,
        body: Box<Condact>,
    },
    /// `(move CARD CARD)`: the first card goes to where the second one
    /// points (`(top LOC)`, `(bottom LOC)`, `(N LOC)`).
    Move { from: CardExpr, to: CardExpr },
    /// `(remember CARD CARD)`: copies a reference to the card into a `mem`
    /// location; the card stays where it is.
    Remember { from: CardExpr, to: CardExpr },
    /// `(forget CARD)`: removes a card reference from a `mem` location.
    Forget(CardExpr),
    /// `(repeat all (move CARD CARD))`: moves while the source has cards
    /// (as many times as the source's size when the action starts).
    RepeatAllMove { from: CardExpr, to: CardExpr },
    /// `(repeat all (forget CARD))`.
    RepeatAllForget(CardExpr),
    /// `(repeat N ACTION)`.
    Repeat { count: IntExpr, body: Box<Action> },
    /// `(shuffle LOC)`.
    Shuffle(CardsExpr),
    /// `(set (OWNER sto NAME) INT)`.
    SetInt(IntStorage, IntExpr),
    /// `(inc (OWNER sto NAME) INT)`.
    IncInt(IntStorage, IntExpr),
    /// `(dec (OWNER sto NAME) INT)`.
    DecInt(IntStorage, IntExpr),
    /// `(set (OWNER str NAME) STR)`.
    SetStr(StrStorage, StrExpr),
    /// `(set (OWNER points NAME) (AWARD...))` and the older
    /// `(put points 'NAME (AWARD...))` (a game point map).
    SetPoints(PointStorage, Vec<Award>),
    /// `(cycle next WHO)`: WHO plays after the current turn ends.
    CycleNext(PlayerExpr),
    /// `(cycle current WHO)`: WHO becomes the current player now.
    CycleCurrent(PlayerExpr),
    /// `(turn pass)`: does nothing (a legal "pass" option).
    TurnPass,
    /// `(require CONDITION)`: the game stops with a rules error naming the
    /// condition (at `span`) when it does not hold; otherwise nothing.
    Require(BoolExpr, Span),
    /// `(create teams ...)` inside the game.
    CreateTeams(Vec<Vec<u8>>),
    /// `(create deck LOC (deck ...))`, optionally with a deck name.
    CreateDeck { to: CardsExpr, deck: Deck },
}

/// `(deck (RANK (A, TWO)) (COLOR (RED (SUIT (HEARTS, DIAMONDS))) ...))`: the
/// cards are every combination of one value per dimension.
#[derive(Clone, Debug)]
pub struct Deck {
    /// The dimensions.
    pub dims: Vec<DeckDim>,
    /// The number of cards and every card's attribute values, one row of
    /// the program's attribute width per card, worked out on first use (a
    /// deck is made every game).
    pub rows: std::sync::OnceLock<(usize, Vec<Sym>)>,
}

/// One dimension: `(KEY (VALUE, ...))` or `(KEY (VALUE SUBDIM...) ...)`.
#[derive(Clone, Debug)]
pub struct DeckDim {
    /// The attribute key.
    pub key: AttrId,
    /// Groups of values; each value of a group carries the group's
    /// sub-dimensions.
    pub groups: Vec<DeckGroup>,
}

/// Values sharing sub-dimensions: `(RED (SUIT (HEARTS, DIAMONDS)))` is the
/// group `[RED]` with sub-dimension SUIT.
#[derive(Clone, Debug)]
pub struct DeckGroup {
    /// The values.
    pub values: Vec<Sym>,
    /// Sub-dimensions applying to each value.
    pub sub: Vec<DeckDim>,
}

/// `((SUIT : HEARTS) (RANK : ACE) 14)` or the older `((SUIT (HEARTS)) 14)`:
/// a card scores `points` if every condition holds; a point map's score of
/// a card is the sum over its awards.
#[derive(Clone, Debug)]
pub struct Award {
    /// (attribute, value) conditions.
    pub conds: Vec<(StrExpr, StrExpr)>,
    /// Points.
    pub points: IntExpr,
}

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
}

/// A player.
#[derive(Clone, Debug)]
pub enum PlayerExpr {
    /// `(current player)`.
    Current,
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
    /// neighbours on a grid, NEXT/PREV on a track; across wrapped edges)
    /// through spaces where COND holds; SPACE itself included if COND holds
    /// for it (else empty). In order of discovery (breadth first).
    Group {
        from: Box<SpaceExpr>,
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
    /// `(min INTS)`: the smallest of a collection of integers (a rules
    /// error if it is empty).
    MinOf(Box<CollectionExpr>),
    /// `(max INTS)`.
    MaxOf(Box<CollectionExpr>),
    /// `(first INTS)`: the first integer of the collection.
    FirstOf(Box<CollectionExpr>),
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

impl Program {
    /// The symbol of the string `s`, if the program interned it (linear
    /// search: for messages and tools, not for play).
    pub fn symbol(&self, s: &str) -> Option<Sym> {
        self.symbols
            .iter()
            .position(|x| x == s)
            .and_then(|i| Sym::try_from(i).ok())
    }

    /// The string of symbol `s` (`""` for an unknown symbol).
    pub fn name(&self, s: Sym) -> &str {
        self.symbols
            .get(s as usize)
            .map(String::as_str)
            .unwrap_or("")
    }
}
