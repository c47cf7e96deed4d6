//! The compiled form of a rules file: what [`crate::lower`] produces and the
//! engine runs. Names are interned to small integers ([`Sym`], and per-kind
//! name ids for locations and storages); variables are slots in a frame
//! ([`VarId`]). Nothing here holds a string that the engine compares while
//! playing, and nothing refers back to pest.
//!
//! Each type's doc gives the RECYCLE form it comes from.

use crate::diagnostic::Span;

mod expr;
pub use expr::*;

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
    /// The deck of every `(create deck ...)` form, in the order the forms
    /// appear in the rules file (a position names them by this number).
    pub decks: Vec<std::sync::Arc<Deck>>,
    /// `(scoring max|min INT)`.
    pub scoring: Scoring,
    /// The named choices, by the number [`BoolExpr::Legal`] gives them.
    pub choices: Vec<NamedChoice>,
    /// Every set of directions written out in a `group` (as
    /// [`GroupDirs::Lit`] masks), so that each board works out how its
    /// spaces spread over them once, when it is built.
    pub group_dirs: Vec<u16>,
    /// `(display ...)`, when the file has one: how the game looks to
    /// people. Nothing that plays the game reads it.
    pub display: Option<Display>,
}

/// `(display ...)`: what renderers are told
/// ([`crate::observation::DisplayView`]: names of the players and places,
/// how storage values and card attributes look, a card's face) and the
/// phrases that label the moves of named choices. Play, simulation,
/// perft and transcripts never read it.
#[derive(Clone, Debug, Default)]
pub struct Display {
    /// What the observation carries as [`crate::observation::Observation::display`].
    pub view: crate::observation::DisplayView,
    /// `(phrase CHOICE "TEXT")`: a named choice's name and its phrase,
    /// with `{card}`, `{from}`, `{to}`, `{at}`, `{value}` and `{player}`
    /// filled in from a move's steps (`crate::label`).
    pub phrases: Vec<(String, String)>,
}

/// Every direction's name, in the order of the bits of a direction mask
/// ([`GroupDirs::Lit`]) and of the engine's `Dir`: a grid's eight, a
/// track's two. A hex board's six are `E W NE NW SE SW`.
pub const DIRECTIONS: [&str; 10] = ["N", "E", "S", "W", "NE", "NW", "SE", "SW", "NEXT", "PREV"];

/// The directions a `group` spreads in, when written: `(group SPACE
/// (N, E, S, W, NE, NW, SE, SW) 'V COND)`.
#[derive(Clone, Debug)]
pub enum GroupDirs {
    /// Written out: bit k for [`DIRECTIONS`]`[k]`.
    Lit(u16),
    /// Computed (a variable holding a list of directions): its strings are
    /// checked while playing.
    Expr(Box<CollectionExpr>),
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
    /// Where each of `actions` is, and where `(create players N)` is (a
    /// rules error while the setup runs names them).
    pub spans: Vec<Span>,
    pub players_span: Span,
    /// Where `(create teams ...)` is (a team member past the players is
    /// a rules error there).
    pub teams_span: Span,
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
    /// R x C hexagons in a rhombus, in axial coordinates: row 0 at the
    /// top, each row half a hexagon to the right of the one above. The
    /// neighbours of (r, c) are (r, c±1), (r±1, c), (r-1, c+1) and
    /// (r+1, c-1); the directions `E W NE NW SE SW`. Wraps like a grid.
    Hex {
        rows: IntExpr,
        cols: IntExpr,
        wrap_rows: bool,
        wrap_cols: bool,
    },
    /// `(hexagon SIDE)`: a hexagon of hexagons, SIDE on each of its six
    /// sides, in a hex board's axial coordinates (rows and columns 0 to
    /// 2 SIDE - 2, the two corners of the rhombus left out).
    Hexagon { side: IntExpr },
    /// `(graph (points ...) (links ...))`: named points and their links.
    Graph(std::sync::Arc<GraphShape>),
}

/// The most links a point of a graph board may have.
pub const MAX_LINKS: usize = 8;

/// A graph board's point: its name and, if given, its row and column.
pub type GraphPoint = (String, Option<(u32, u32)>);

/// A graph board's points and links, as the rules write them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphShape {
    /// Each point's name and, if given, its row and column.
    pub points: Vec<GraphPoint>,
    /// Each link: two points by number and the direction from the first
    /// to the second (its number in [`DIRECTIONS`]), if it has one.
    pub links: Vec<(u32, u32, Option<u8>)>,
}

/// `(scoring max INT)` / `(scoring min INT)`: INT is evaluated once per
/// player with that player as `(current player)`.
#[derive(Clone, Debug)]
pub struct Scoring {
    /// `max`: highest score wins; `min`: lowest wins.
    pub max: bool,
    /// The score of the current player.
    pub score: IntExpr,
    /// Where the `scoring` form is (a rules error while scoring names it).
    pub span: Span,
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
    /// Where its `(end ...)` is (a rules error in the condition names it).
    pub end_span: Span,
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
    /// `(else ACTION)` of the choice just before it: run, with no
    /// decision, when that choice has no legal option; skipped otherwise
    /// (cardboard extension).
    Else(Box<Condact>),
}

/// A named choice, `(choice NAME (OPTION...))`: where it is, for
/// `(legal NAME)`.
#[derive(Clone, Debug)]
pub struct NamedChoice {
    /// Its name.
    pub name: String,
    /// The stage it is an item of (`None`: the top level).
    pub stage: Option<u32>,
    /// Its place among the stage's items.
    pub pos: u32,
}

/// A conditional action: `(BOOL ACTION)` or a bare `ACTION`.
#[derive(Clone, Debug)]
pub struct Condact {
    /// The guard, if any.
    pub cond: Option<BoolExpr>,
    /// The action.
    pub action: Action,
    /// Whether the action holds an `any` or a `chain` (a choice branches
    /// there); set by
    /// [`Condact::new`].
    pub branches: bool,
    /// Where it is in the rules file: a rules error raised while it runs
    /// (and not by an action inside it) names this place.
    pub span: Span,
}

impl Condact {
    /// A conditional action, noting whether it holds an `any`.
    pub fn new(cond: Option<BoolExpr>, action: Action, span: Span) -> Condact {
        let branches = action.branches();
        Condact {
            cond,
            action,
            branches,
            span,
        }
    }
}

impl Action {
    /// Whether an `any` or a `chain` is reached anywhere inside.
    pub fn branches(&self) -> bool {
        match self {
            Action::Any { .. } | Action::Chain { .. } | Action::Afterwards { .. } => true,
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
    /// `(chain COLLECTION 'V CONDACT)` and `(chain stop COLLECTION 'V
    /// CONDACT)` (cardboard extension), only inside an option of a
    /// `choice`: steps picked one after another, one decision in all.
    /// Each step evaluates COLLECTION on the table as the steps before it
    /// left it; when it is empty the chain ends, otherwise the player
    /// picks an item and the body runs with 'V bound to it. With `stop`
    /// the player may also end the chain after any step (not before the
    /// first). A move's path holds one pick per step (with `stop`, after
    /// the first step: 0 to stop, `i + 1` for item `i`).
    Chain {
        over: CollectionExpr,
        var: VarId,
        body: Box<Condact>,
        stop: bool,
    },
    /// `(afterwards CONDITION OPTION)` (cardboard extension), only as an
    /// option of a `choice`: the moves of OPTION after which CONDITION
    /// holds, evaluated on the table the move leaves (the current player
    /// still the mover). Played, it is OPTION.
    Afterwards { cond: BoolExpr, body: Box<Condact> },
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
    /// `(announce PART...)`: tells the table something (a line of text
    /// made of its parts); changes nothing, and is not even evaluated
    /// unless the game keeps announcements
    /// ([`crate::game::GameState::keep_announcements`]).
    Announce(Vec<AnnouncePart>),
    /// `(create teams ...)` inside the game.
    CreateTeams(Vec<Vec<u8>>),
    /// `(create deck LOC (deck ...))`, optionally with a deck name. The
    /// deck is shared with [`Program::decks`].
    CreateDeck {
        to: CardsExpr,
        deck: std::sync::Arc<Deck>,
    },
}

/// One part of an `announce`: a text in quotes or a value.
#[derive(Clone, Debug)]
pub enum AnnouncePart {
    /// `"wins the trick"`.
    Text(String),
    Int(IntExpr),
    Str(StrExpr),
    Player(PlayerExpr),
    Team(TeamExpr),
    Card(CardExpr),
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
