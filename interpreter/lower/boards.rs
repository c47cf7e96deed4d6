//! Lowering of boards and spaces, cardboard's extensions to RECYCLE:
//! `(create board NAME (track N))`, `(create board NAME (grid R C
//! (wrap ...)))` and `(create board NAME (hex R C (wrap ...)))` in the
//! setup (and the first pass that collects the boards' names and shapes,
//! so a space can name any board); spaces `(space BOARD ...)`, `(where
//! CARD)`, `(neighbour SPACE DIR)`, `(after|before SPACE [DIR] 'V COND)`;
//! directions and the direction `(rotate DIR K)`; the integers `index`,
//! `row`, `col`, `rows`, `cols`. The collections of spaces and `around`
//! are in `space_sets.rs`.

use super::context::Lowerer;
use super::messages::{self, E_SPACE};
use crate::diagnostic::Span;
use crate::ir::{Board, BoolExpr, IntExpr, Shape, SpaceExpr, StrExpr, ValueType, EMPTY};
use crate::syntax::SExpr;

/// How `create board` is written.
const CREATE_BOARD: &str = "`create board` is written `(create board NAME (track N))`, `(create board NAME (grid ROWS COLS))` or `(create board NAME (hex ROWS COLS))`";
/// How `space` is written.
const SPACE_SHAPE: &str =
    "`space` is written `(space BOARD INDEX)` on a track or `(space BOARD ROW COL)` on a grid or a hex board";
/// How `wrap` is written.
const WRAP_SHAPE: &str = "`(wrap columns)`, `(wrap rows)` or `(wrap columns rows)`";

/// The directions a space has: on a grid, on a track (a hex board's six
/// are among a grid's).
pub(super) const DIRECTIONS: &[&str] = &crate::ir::DIRECTIONS;

/// The directions relative to the seat of the current player (docs/language.md
/// section 11.15), in the order of the engine's `Dir::relative`.
pub(super) const RELATIVE: &[&str] = &[
    "FORWARD",
    "BACKWARD",
    "LEFT",
    "RIGHT",
    "FORWARD_LEFT",
    "FORWARD_RIGHT",
    "BACKWARD_LEFT",
    "BACKWARD_RIGHT",
];

/// The directions of a hex board.
const HEX_DIRECTIONS: &[&str] = &["E", "W", "NE", "NW", "SE", "SW"];

/// A board's kind, as the lowering knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Track,
    Grid,
    Hex,
    /// A hexagon of hexagons: a hex board's directions.
    Hexagon,
    /// A graph board, with the directions of its links (bit k for
    /// [`DIRECTIONS`]`[k]`).
    Graph(u16),
}

impl Kind {
    /// How the kind is named in messages: "a grid".
    fn noun(self) -> &'static str {
        match self {
            Kind::Track => "a track",
            Kind::Grid => "a grid",
            Kind::Hex => "a hex board",
            Kind::Hexagon => "a hexagon board",
            Kind::Graph(_) => "a graph board",
        }
    }

    /// Its directions, as a message lists them.
    fn directions(self) -> String {
        match self {
            Kind::Track => "`NEXT` and `PREV`".into(),
            Kind::Grid => "`N`, `E`, `S`, `W`, `NE`, `NW`, `SE` and `SW`".into(),
            Kind::Hex | Kind::Hexagon => "`E`, `W`, `NE`, `NW`, `SE` and `SW`".into(),
            Kind::Graph(0) => "none (its links have no directions)".into(),
            Kind::Graph(mask) => DIRECTIONS
                .iter()
                .enumerate()
                .filter(|(k, _)| mask & 1 << k != 0)
                .map(|(_, d)| format!("`{d}`"))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// Whether it has direction `d` (one of [`DIRECTIONS`]).
    pub(super) fn has(self, d: &str) -> bool {
        match self {
            Kind::Track => matches!(d, "NEXT" | "PREV"),
            Kind::Grid => !matches!(d, "NEXT" | "PREV"),
            Kind::Hex | Kind::Hexagon => HEX_DIRECTIONS.contains(&d),
            Kind::Graph(mask) => DIRECTIONS
                .iter()
                .position(|x| *x == d)
                .is_some_and(|k| mask & 1 << k != 0),
        }
    }
}
/// A board created in the setup, as the lowering knows it.
#[derive(Clone, Debug)]
pub(super) struct BoardEntry {
    /// Its name.
    pub name: String,
    /// The `(create board ...)` form that created it.
    pub form: Span,
    /// Its kind, `None` when the shape is wrong (reported in the setup).
    pub kind: Option<Kind>,
    /// The lowered shape, once the setup is lowered.
    pub shape: Option<Shape>,
    /// A graph board's point names, in order (empty for other boards).
    pub points: Vec<String>,
}

/// The placeholder space after an error.
fn no_space() -> SpaceExpr {
    SpaceExpr::At {
        board: 0,
        coords: Vec::new(),
    }
}

impl Lowerer {
    /// First pass: the name and shape of every `(create board NAME SHAPE)`
    /// of the setup, in order (a second board of the same name is reported
    /// when the setup is lowered).
    pub(super) fn collect_boards(&mut self, setup: &SExpr) {
        for item in setup.as_list().unwrap_or(&[]).iter().skip(1) {
            let Some([_, SExpr::Name(what, _), SExpr::Name(name, _), shape]) = item.as_list()
            else {
                continue;
            };
            if item.head() != Some("create") || what != "board" {
                continue;
            }
            if self.boards.iter().any(|b| &b.name == name) {
                continue;
            }
            let kind = match shape.head() {
                Some("grid") => Some(Kind::Grid),
                Some("hex") => Some(Kind::Hex),
                Some("track") => Some(Kind::Track),
                Some("hexagon") => Some(Kind::Hexagon),
                Some("graph") => Some(Kind::Graph(super::graph::link_dirs(shape))),
                _ => None,
            };
            self.boards.push(BoardEntry {
                name: name.clone(),
                form: item.span(),
                kind,
                shape: None,
                points: super::graph::point_names(shape),
            });
        }
    }

    /// The boards of the program, in order of creation.
    pub(super) fn take_boards(&mut self) -> Vec<Board> {
        let entries = std::mem::take(&mut self.boards);
        entries
            .into_iter()
            .map(|b| Board {
                name: self.intern(&b.name),
                shape: b.shape.unwrap_or(Shape::Track {
                    len: IntExpr::Lit(1),
                }),
                span: b.form,
            })
            .collect()
    }

    /// `(create board NAME SHAPE)` in the setup.
    pub(super) fn create_board(&mut self, e: &SExpr, items: &[SExpr]) {
        let [_, _, name, shape] = items else {
            if let [_, _, shape] = items {
                if matches!(
                    shape.head(),
                    Some("track" | "grid" | "hex" | "hexagon" | "graph")
                ) {
                    self.error(
                        e.span(),
                        "this board has no name: `(create board NAME (grid ROWS COLS))`",
                    );
                    return;
                }
            }
            self.error(e.span(), CREATE_BOARD);
            return;
        };
        let lowered = self.board_shape(shape);
        let SExpr::Name(name, name_span) = name else {
            self.error(
                name.span(),
                format!(
                    "a board is named by a word such as `TRACK` or `GRID`, found {}",
                    name.describe()
                ),
            );
            return;
        };
        match self.boards.iter().position(|b| &b.name == name) {
            Some(i) if self.boards[i].form == e.span() => self.boards[i].shape = lowered,
            Some(_) => self.error_note(
                *name_span,
                format!("the board `{name}` is created twice"),
                "each board needs a name of its own",
            ),
            None => {}
        }
    }

    /// `(track N)`, `(grid ROWS COLS (wrap ...)?)` or `(hex ROWS COLS
    /// (wrap ...)?)`.
    fn board_shape(&mut self, e: &SExpr) -> Option<Shape> {
        let items = e.as_list().unwrap_or(&[]);
        match e.head() {
            Some("track") => match items {
                [_, len] => Some(Shape::Track {
                    len: self.board_size(len, "a track needs at least one space"),
                }),
                _ => {
                    if items.iter().any(|i| i.head() == Some("wrap")) {
                        self.error_note(
                            e.span(),
                            "a track does not wrap: `track` is written `(track N)`",
                            "for a loop, use a grid of one row: `(grid 1 N (wrap columns))`",
                        );
                    } else {
                        self.error(
                            e.span(),
                            format!(
                                "`track` is written `(track N)`, with N the number of spaces; found {}",
                                messages::count(items.len().saturating_sub(1))
                            ),
                        );
                    }
                    None
                }
            },
            Some(head @ ("grid" | "hex")) => match items {
                [_, rows, cols, wraps @ ..] if wraps.len() <= 1 => {
                    let noun = if head == "grid" {
                        "a grid"
                    } else {
                        "a hex board"
                    };
                    let rows = self.board_size(rows, &format!("{noun} needs at least one row"));
                    let cols = self.board_size(cols, &format!("{noun} needs at least one column"));
                    let (wrap_rows, wrap_cols) = match wraps.first() {
                        Some(w) => self.wrap(w),
                        None => (false, false),
                    };
                    Some(if head == "grid" {
                        Shape::Grid {
                            rows,
                            cols,
                            wrap_rows,
                            wrap_cols,
                        }
                    } else {
                        Shape::Hex {
                            rows,
                            cols,
                            wrap_rows,
                            wrap_cols,
                        }
                    })
                }
                _ => {
                    self.error(
                        e.span(),
                        format!("`{head}` is written `({head} ROWS COLS)`, optionally followed by {WRAP_SHAPE}"),
                    );
                    None
                }
            },
            Some("hexagon") => self.hexagon_shape(e, items),
            Some("graph") => self.graph_shape(e, items),
            _ => {
                self.error(
                    e.span(),
                    format!(
                        "a board's shape is `(track N)`, `(grid ROWS COLS)`, `(hex ROWS COLS)`, `(hexagon SIDE)` or `(graph (points ...) (links ...))`, found {}",
                        e.describe()
                    ),
                );
                None
            }
        }
    }

    /// A board's size: an integer (a literal must not be 0).
    pub(super) fn board_size(&mut self, e: &SExpr, zero: &str) -> IntExpr {
        if let SExpr::Int(0, span) = e {
            self.error(*span, zero);
        }
        self.int(e)
    }

    /// `(wrap columns rows)`: (wrap rows, wrap columns).
    fn wrap(&mut self, e: &SExpr) -> (bool, bool) {
        let (mut rows, mut cols) = (false, false);
        let Some(words) = e.as_list().filter(|_| e.head() == Some("wrap")) else {
            self.error(
                e.span(),
                format!(
                    "after a grid's rows and columns comes {WRAP_SHAPE}, found {}",
                    e.describe()
                ),
            );
            return (rows, cols);
        };
        if words.len() == 1 {
            self.error(
                e.span(),
                "`wrap` takes `rows`, `columns` or both, found none",
            );
        }
        for w in &words[1..] {
            let flag = match w.as_name() {
                Some("rows") => &mut rows,
                Some("columns") => &mut cols,
                _ => {
                    let message = format!(
                        "`wrap` takes `rows`, `columns` or both, found {}",
                        w.describe()
                    );
                    match w.as_name() {
                        Some("cols" | "col" | "column") => {
                            self.error_note(w.span(), message, "write `columns`")
                        }
                        Some("row") => self.error_note(w.span(), message, "write `rows`"),
                        _ => self.error(w.span(), message),
                    }
                    continue;
                }
            };
            if *flag {
                self.error(
                    w.span(),
                    format!("{} is written twice in this `wrap`", w.describe()),
                );
            }
            *flag = true;
        }
        (rows, cols)
    }

    /// The board named by `e`: its index and its kind (`None` when its
    /// shape is wrong). Reports an unknown board.
    pub(super) fn board_ref(&mut self, e: &SExpr) -> Option<(u16, Option<Kind>)> {
        if self.in_declare {
            self.error(
                e.span(),
                "a `declare` cannot use a board: the boards are created in the setup, after the declares",
            );
            return None;
        }
        let SExpr::Name(name, span) = e else {
            self.error(
                e.span(),
                format!(
                    "expected the name of a board such as `GRID`, found {}",
                    e.describe()
                ),
            );
            return None;
        };
        if let Some(i) = self.boards.iter().position(|b| &b.name == name) {
            let index = u16::try_from(i).ok()?;
            return Some((index, self.boards[i].kind));
        }
        let names: Vec<&str> = self.boards.iter().map(|b| b.name.as_str()).collect();
        let note = match messages::suggest(name, &names) {
            Some(s) => format!("did you mean `{s}`?"),
            None if names.is_empty() => format!(
                "this game creates no board: create it in the setup, as in `(create board {name} (grid 9 9))`"
            ),
            None if names.len() == 1 => format!("this game's board is `{}`", names[0]),
            None => format!("this game's boards are `{}`", names.join("`, `")),
        };
        self.error_note(*span, format!("unknown board `{name}`"), note);
        None
    }

    /// A space.
    pub(super) fn space(&mut self, e: &SExpr) -> SpaceExpr {
        if let Some(x) = self.inline(e, Some(ValueType::Space), Lowerer::space) {
            return x;
        }
        match e {
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::Space, &E_SPACE)
                .map(SpaceExpr::Var)
                .unwrap_or_else(no_space),
            SExpr::List(items, _) => self.space_list(e, items),
            _ => {
                self.wrong(e, &E_SPACE);
                no_space()
            }
        }
    }

    fn space_list(&mut self, e: &SExpr, items: &[SExpr]) -> SpaceExpr {
        match e.head().unwrap_or("") {
            "space" => self.space_at(e, items),
            "where" => {
                if !self.arity(e, items, 1, "one card") {
                    return no_space();
                }
                SpaceExpr::Of(Box::new(self.card(&items[1])))
            }
            "neighbour" => {
                if !self.arity(e, items, 2, "a space and a direction") {
                    return no_space();
                }
                let from = self.space(&items[1]);
                let dir = self.direction(&items[2]);
                self.check_direction(&items[1], &items[2]);
                SpaceExpr::Neighbour(Box::new(from), Box::new(dir))
            }
            "after" => self.find(e, items, true),
            "before" => self.find(e, items, false),
            "if" => self.if_space(e, items),
            "step" => self.step(e, items),
            _ => {
                self.wrong(e, &E_SPACE);
                no_space()
            }
        }
    }

    /// `(space BOARD INDEX)` / `(space BOARD ROW COL)`.
    fn space_at(&mut self, e: &SExpr, items: &[SExpr]) -> SpaceExpr {
        let Some(board) = items.get(1) else {
            self.error(e.span(), SPACE_SHAPE);
            return no_space();
        };
        let coords = &items[2..];
        let Some((index, kind)) = self.board_ref(board) else {
            for c in coords {
                self.int(c);
            }
            return no_space();
        };
        let name = board.as_name().unwrap_or("BOARD");
        if let (Some(Kind::Graph(_)), [point]) = (kind, coords) {
            return self.graph_point(index, name, point);
        }
        match kind {
            Some(k @ (Kind::Grid | Kind::Hex | Kind::Hexagon)) if coords.len() != 2 => {
                let noun = k.noun();
                self.error_note(
                    e.span(),
                    format!("`{name}` is {noun}: `(space {name} ROW COL)`"),
                    format!(
                        "a space of {noun} is given by its row and its column (from 0), found {}",
                        coord_count(coords.len())
                    ),
                );
                return no_space();
            }
            Some(Kind::Graph(_)) if coords.len() != 2 => {
                self.error(
                    e.span(),
                    format!("`{name}` is a graph board: `(space {name} POINT)`, or `(space {name} ROW COL)` by its coordinates"),
                );
                return no_space();
            }
            Some(Kind::Track) if coords.len() != 1 => {
                self.error_note(
                    e.span(),
                    format!("`{name}` is a track: `(space {name} INDEX)`"),
                    format!(
                        "a space of a track is given by its number (from 0), found {}",
                        coord_count(coords.len())
                    ),
                );
                return no_space();
            }
            None if coords.is_empty() || coords.len() > 2 => {
                self.error(e.span(), SPACE_SHAPE);
                return no_space();
            }
            _ => {}
        }
        let coords = coords.iter().map(|c| self.int(c)).collect();
        SpaceExpr::At {
            board: index,
            coords,
        }
    }

    /// A direction: a string, checked when it is written out.
    pub(super) fn direction(&mut self, e: &SExpr) -> StrExpr {
        let SExpr::Name(n, span) = e else {
            return self.string(e);
        };
        if DIRECTIONS.contains(&n.as_str()) || RELATIVE.contains(&n.as_str()) {
            if RELATIVE.contains(&n.as_str()) {
                // Every direction a relative one may stand for has a symbol.
                for d in DIRECTIONS {
                    self.intern(d);
                }
            }
            return StrExpr::Lit(self.intern(n));
        }
        let message = format!(
            "`{n}` is not a direction: a direction is `N`, `E`, `S`, `W`, `NE`, `NW`, `SE` or `SW` on a grid, `E`, `W`, `NE`, `NW`, `SE` or `SW` on a hex board, `NEXT` or `PREV` on a track"
        );
        let upper = n.to_uppercase();
        let short = match upper.replace(['-', '_'], "").as_str() {
            "NORTH" => Some("N"),
            "EAST" => Some("E"),
            "SOUTH" => Some("S"),
            "WEST" => Some("W"),
            "NORTHEAST" => Some("NE"),
            "NORTHWEST" => Some("NW"),
            "SOUTHEAST" => Some("SE"),
            "SOUTHWEST" => Some("SW"),
            "PREVIOUS" | "BACK" | "BACKWARDS" => Some("PREV"),
            "FORWARDS" | "AHEAD" => Some("FORWARD"),
            _ => None,
        };
        if DIRECTIONS.contains(&upper.as_str()) {
            self.error_note(
                *span,
                message,
                format!("directions are written in capitals: `{upper}`"),
            );
        } else if let Some(short) = short {
            self.error_note(*span, message, format!("write `{short}`"));
        } else {
            self.error(*span, message);
        }
        StrExpr::Lit(EMPTY)
    }

    /// `(rotate DIR K)`: DIR turned K quarter turns clockwise. A written
    /// direction is checked like `neighbour`'s, and a written track
    /// direction with a written odd K is refused. Every direction name is
    /// interned, so the engine has a symbol for any result.
    pub(super) fn rotate(&mut self, e: &SExpr, items: &[SExpr]) -> StrExpr {
        if !self.arity(e, items, 2, "a direction and a number of quarter turns") {
            return StrExpr::Lit(EMPTY);
        }
        for d in DIRECTIONS {
            self.intern(d);
        }
        let dir = self.direction(&items[1]);
        let quarters = self.int(&items[2]);
        if let (SExpr::Name(d, _), SExpr::Int(k, span)) = (&items[1], &items[2]) {
            if matches!(d.as_str(), "NEXT" | "PREV") && k % 2 != 0 {
                self.error_note(
                    *span,
                    format!(
                        "`{d}` is a track's direction: it cannot be turned by {k} quarter turn{}",
                        if *k == 1 { "" } else { "s" }
                    ),
                    "a track's directions turn only by half turns: `(rotate NEXT 2)` is `PREV`"
                        .to_string(),
                );
            }
        }
        StrExpr::Rotate(Box::new(dir), Box::new(quarters))
    }

    /// The board of a space written `(space BOARD ...)`: its name and
    /// kind (`None` for any other space, or a board whose shape is wrong).
    fn written_board(&self, space: &SExpr) -> Option<(String, Kind)> {
        let items = space.as_list().filter(|_| space.head() == Some("space"))?;
        let name = items.get(1)?.as_name()?;
        let board = self.boards.iter().find(|b| b.name == name)?;
        Some((board.name.clone(), board.kind?))
    }

    /// When both the board (a written `(space BOARD ...)`) and the
    /// direction (a written word) are known, checks that they fit.
    pub(super) fn check_direction(&mut self, space: &SExpr, dir: &SExpr) {
        let (Some((name, kind)), SExpr::Name(d, span)) = (self.written_board(space), dir) else {
            return;
        };
        if !DIRECTIONS.contains(&d.as_str()) || kind.has(d) {
            return;
        }
        self.error(
            *span,
            format!(
                "`{name}` is {}: its directions are {}, not `{d}`",
                kind.noun(),
                kind.directions()
            ),
        );
    }

    /// `(after SPACE [DIR] 'V COND)` / `(before ...)`.
    fn find(&mut self, e: &SExpr, items: &[SExpr], forward: bool) -> SpaceExpr {
        let head = if forward { "after" } else { "before" };
        let (from, dir, var, cond) = match items {
            [_, from, var @ SExpr::Var(..), cond] => (from, None, var, cond),
            [_, from, dir, var @ SExpr::Var(..), cond] => (from, Some(dir), var, cond),
            _ => {
                self.error(
                    e.span(),
                    format!(
                        "`{head}` is written `({head} SPACE 'V CONDITION)`, or `({head} SPACE DIRECTION 'V CONDITION)` to go in a direction"
                    ),
                );
                return no_space();
            }
        };
        let written = self.written_board(from);
        let from_expr = from;
        let from = Box::new(self.space(from));
        match (dir, written) {
            (Some(d), _) => self.check_direction(from_expr, d),
            (None, Some((name, kind))) if kind != Kind::Track => self.error(
                e.span(),
                format!(
                    "`{name}` is {}: `{head}` needs a direction, as in `({head} SPACE E 'V CONDITION)`",
                    kind.noun()
                ),
            ),
            (None, _) => {}
        }
        let dir = dir.map(|d| Box::new(self.direction(d)));
        let var = self.bind(var, Some(ValueType::Space), head);
        let cond = Box::new(self.boolean(cond));
        self.pop_var();
        SpaceExpr::Find {
            from,
            forward,
            dir,
            var,
            cond,
        }
    }

    /// `(onboard SPACE)`.
    pub(super) fn onboard(&mut self, e: &SExpr, items: &[SExpr]) -> BoolExpr {
        if !self.arity(e, items, 1, "one space") {
            return BoolExpr::And(Vec::new());
        }
        BoolExpr::OnBoard(self.space(&items[1]))
    }

    /// `(index SPACE)`, `(row SPACE)`, `(col SPACE)`, `(rows SPACES)`,
    /// `(cols SPACES)`.
    pub(super) fn space_int(&mut self, e: &SExpr, items: &[SExpr], head: &str) -> IntExpr {
        if matches!(head, "rows" | "cols") {
            if !self.arity(e, items, 1, "one collection of spaces") {
                return IntExpr::Lit(0);
            }
            let (over, item) = self.collection(&items[1]);
            if let Some(ty) = item.filter(|t| *t != ValueType::Space) {
                self.error(
                    items[1].span(),
                    format!(
                        "`{head}` takes a collection of spaces such as `(spaces GRID)` or `(group ...)`, found {}",
                        messages::collection_name(ty)
                    ),
                );
                return IntExpr::Lit(0);
            }
            let over = Box::new(over);
            return if head == "rows" {
                IntExpr::RowsSpanned(over)
            } else {
                IntExpr::ColsSpanned(over)
            };
        }
        if !self.arity(e, items, 1, "one space") {
            return IntExpr::Lit(0);
        }
        let space = Box::new(self.space(&items[1]));
        match head {
            "index" => IntExpr::SpaceIndex(space),
            "row" => IntExpr::SpaceRow(space),
            _ => IntExpr::SpaceCol(space),
        }
    }

    /// `(min INTS)`, `(max INTS)`, `(first INTS)`: an integer out of a
    /// collection of integers.
    pub(super) fn int_of_ints(&mut self, e: &SExpr, items: &[SExpr], head: &str) -> IntExpr {
        if head != "first" && items.len() != 2 {
            self.error(
                e.span(),
                format!(
                    "`{head}` is written `({head} INTS)`, `({head} A B)` or `({head} COLLECTION 'V INT)` (the {} value of INT over the items)",
                    if head == "min" { "least" } else { "greatest" }
                ),
            );
            return IntExpr::Lit(0);
        }
        if !self.arity(e, items, 1, "one collection of integers") {
            return IntExpr::Lit(0);
        }
        let (over, item) = self.collection(&items[1]);
        if let Some(ty) = item.filter(|t| *t != ValueType::Int) {
            let message = format!(
                "`{head}` takes a collection of integers such as `(range 1 .. 5)`, found {}",
                messages::collection_name(ty)
            );
            match (ty, head) {
                (ValueType::Card, "first") => {
                    self.error_note(items[1].span(), message, "the first card is `(top CARDS)`")
                }
                (ValueType::Card, _) => self.error_note(
                    items[1].span(),
                    message,
                    format!("a card is chosen by its score: `({head} CARDS using POINTS)`"),
                ),
                _ => self.error(items[1].span(), message),
            }
            return IntExpr::Lit(0);
        }
        let over = Box::new(over);
        match head {
            "min" => IntExpr::MinOf(over),
            "max" => IntExpr::MaxOf(over),
            _ => IntExpr::FirstOf(over),
        }
    }
}

/// "one number", "three numbers".
fn coord_count(n: usize) -> String {
    match n {
        1 => String::from("one number"),
        n => format!("{} numbers", messages::count(n)),
    }
}
