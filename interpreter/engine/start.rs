//! How a game starts: wrapping a compiled program as [`Rules`], loading a
//! rules file, and [`Rules::start`]: the `--set` overrides of `declare`d
//! constants, the board sizes, the setup and the first decision.

use super::*;

impl Rules {
    /// Wraps a compiled program.
    pub fn new(program: Program) -> Rules {
        let program = Arc::new(program);
        Rules {
            tabs: Arc::new(Tables::new(program.clone())),
            program,
        }
    }

    /// Compiles rules from source text (kept to give line numbers in
    /// runtime messages).
    pub fn from_source(file_name: &str, source: &str) -> Result<Rules, crate::loading::CheckError> {
        let program = Arc::new(crate::loading::compile_file(file_name, source)?);
        let mut tabs = Tables::new(program.clone());
        tabs.line_starts = std::iter::once(0)
            .chain(source.match_indices('\n').map(|(i, _)| i as u32 + 1))
            .collect();
        tabs.source = source.into();
        tabs.file = file_name.into();
        Ok(Rules {
            program,
            tabs: Arc::new(tabs),
        })
    }

    /// The same rules run by the tree evaluator alone, nothing compiled to
    /// closures: games play exactly as with `self` (the engine's
    /// invariant; `tests/compiled.rs` holds it), only slower.
    pub fn uncompiled(&self) -> Rules {
        let mut tabs = Tables::with(self.program.clone(), false);
        tabs.limits = self.tabs.limits;
        tabs.line_starts = self.tabs.line_starts.clone();
        tabs.source = self.tabs.source.clone();
        Rules {
            program: self.program.clone(),
            tabs: Arc::new(tabs),
        }
    }

    /// The same rules with other limits on the work and memory of a game
    /// (`--max-steps`, `--max-cards`, `--max-options`, `--max-slots`).
    pub fn with_limits(self, limits: Limits) -> Rules {
        let Rules { program, mut tabs } = self;
        match Arc::get_mut(&mut tabs) {
            Some(t) => t.limits = limits,
            None => {
                let mut t = Tables::with(program.clone(), tabs.space_bits);
                t.line_starts = tabs.line_starts.clone();
                t.source = tabs.source.clone();
                t.limits = limits;
                tabs = Arc::new(t);
            }
        }
        Rules { program, tabs }
    }

    /// The limits on the work and memory of a game.
    pub fn limits(&self) -> Limits {
        self.tabs.limits
    }

    /// Reads and compiles a rules file.
    pub fn load(path: &std::path::Path) -> Result<Rules, crate::loading::LoadError> {
        let source =
            crate::loading::read_text(path, crate::loading::MAX_RULES_BYTES, "a rules file")
                .map_err(|e| {
                    crate::loading::LoadError::Io(format!("cannot read {}: {e}", path.display()))
                })?;
        Ok(Rules::from_source(&path.display().to_string(), &source)?)
    }

    /// Starts a game: evaluates declares (with overrides), runs setup and
    /// plays on to the first decision.
    pub fn start(&self, options: &GameOptions) -> Result<State, PlayError> {
        self.start_with(options, &mut false)
    }

    /// [`Rules::start`]; on an error, `drew` tells whether anything was
    /// drawn from the game's chance before it (when not, every seed fails
    /// the same way).
    fn start_with(&self, options: &GameOptions, drew: &mut bool) -> Result<State, PlayError> {
        self.check_overrides(&options.overrides)?;
        let tabs = &self.tabs;
        let rng = crate::random::GameRng::new(options.seed);
        let (table, globals) = match tabs.setup_done(&options.overrides) {
            // The same setup, which draws nothing, ran for an earlier game.
            Some((mut table, globals)) => {
                table.rng = rng;
                (table, globals)
            }
            None => self.setup_with(options, rng, drew)?,
        };
        let mut state = State {
            tabs: self.tabs.clone(),
            table: RefCell::new(table),
            scratch: RefCell::new(Scratch::new()),
            globals: Arc::new(globals),
            frames: Vec::new(),
            status: Status::Running,
            decisions: 0,
            steps: 0,
            outcome: None,
            legal: RefCell::new(None),
            sampled: RefCell::new(None),
            plan: None,
            kept: Default::default(),
            setup: None,
        };
        if let Err(e) = state.begin() {
            *drew = state.table.get_mut().rng != crate::random::GameRng::new(options.seed);
            return Err(e);
        }
        Ok(state)
    }

    /// Starts a game as [`Rules::start`] does, in `slot`: when it holds a
    /// game of these rules and the setup for these overrides was kept
    /// (it draws nothing from the game's chance), the new game is copied
    /// into the old one's room (its lists reused, no allocation), else it
    /// is started anew. The game is the same either way.
    pub fn start_into(
        &self,
        options: &GameOptions,
        slot: &mut Option<State>,
    ) -> Result<(), PlayError> {
        self.check_overrides(&options.overrides)?;
        let old = slot
            .as_mut()
            .filter(|old| Arc::ptr_eq(&old.tabs, &self.tabs));
        if let Some(state) = old {
            // The setup the last game started from, when it is the one
            // for these overrides; else the rules' list is asked (once).
            let cached = match state.setup.take() {
                Some((o, kept)) if o == options.overrides => Some((o, kept)),
                _ => self
                    .tabs
                    .setup_kept(&options.overrides)
                    .map(|kept| (options.overrides.clone(), kept)),
            };
            if let Some((o, kept)) = cached {
                let table = state.table.get_mut();
                table.clone_from(&kept.0);
                table.rng = crate::random::GameRng::new(options.seed);
                match Arc::get_mut(&mut state.globals) {
                    Some(globals) => globals.clone_from(&kept.1),
                    None => state.globals = Arc::new(kept.1.clone()),
                }
                state.setup = Some((o, kept));
                return state.begin();
            }
        }
        *slot = None;
        *slot = Some(self.start(options)?);
        Ok(())
    }

    /// Refuses `--set` overrides that no game can start with, whatever its
    /// seed: a constant the file does not declare, a value of the wrong
    /// kind (a simulation checks them once, before its games).
    pub fn check_settings(&self, overrides: &[(String, String)]) -> Result<(), PlayError> {
        let prog = &self.tabs.prog;
        self.check_overrides(overrides)?;
        for (name, text) in overrides {
            if let Some(d) = prog.declares.iter().find(|d| &d.name == name) {
                override_value(prog, name, &d.value, text)?;
            }
        }
        // A start that fails before it draws anything from the game's
        // chance (a `require` on a declared constant, a board size) fails
        // alike for every seed: one error, before any game.
        let options = GameOptions {
            seed: 0,
            overrides: overrides.to_vec(),
        };
        let mut drew = false;
        match self.start_with(&options, &mut drew) {
            Err(e) if !drew => Err(e),
            _ => Ok(()),
        }
    }

    /// Refuses an override of a constant the file does not declare.
    fn check_overrides(&self, overrides: &[(String, String)]) -> Result<(), PlayError> {
        let prog = &self.tabs.prog;
        for (name, _) in overrides {
            if !prog.declares.iter().any(|d| &d.name == name) {
                let names: Vec<String> = prog
                    .declares
                    .iter()
                    .map(|d| format!("'{}", d.name))
                    .collect();
                return Err(PlayError::Rules(format!(
                    "`--set {name}`: the file declares no `'{name}` (it declares: {})",
                    if names.is_empty() {
                        "nothing".to_string()
                    } else {
                        names.join(", ")
                    }
                )));
            }
        }
        Ok(())
    }

    /// Evaluates the declares (with the overrides), the player count and
    /// the boards, and runs the setup; when none of it drew from the
    /// game's chance, the result is kept for the next game with the same
    /// overrides ([`Tables::setup_done`]). On an error, `drew` tells whether anything was
    /// drawn from the game's chance before it (when not, every seed fails
    /// the same way).
    fn setup_with(
        &self,
        options: &GameOptions,
        rng: crate::random::GameRng,
        drew: &mut bool,
    ) -> Result<(Table, Vec<Value>), PlayError> {
        let tabs = &self.tabs;
        let prog = &tabs.prog;
        // Declares and the player count, on an empty table.
        let mut scratch = Table::new(tabs, 0, Default::default(), rng.clone());
        let mut room = Scratch::new();
        let mut globals = Vec::with_capacity(prog.declares.len());
        {
            let mut m = Machine::new(tabs, &mut scratch, &mut room, &[]);
            for (i, d) in prog.declares.iter().enumerate() {
                let v = match options.overrides.iter().rev().find(|(n, _)| *n == d.name) {
                    Some((_, text)) => override_value(prog, &d.name, &d.value, text)?,
                    None => m.value(&d.value).map_err(|f| {
                        *drew = m.table.rng != rng;
                        PlayError::Rules(m.locate(f, d.span).into())
                    })?,
                };
                m.vars[i] = v.clone();
                globals.push(v);
            }
        }
        let players = {
            let mut m = Machine::new(tabs, &mut scratch, &mut room, &globals);
            m.int(&prog.setup.players)
                .map_err(|f| {
                    *drew = m.table.rng != rng;
                    m.locate(f, prog.setup.players_span)
                })
                .map_err(|e| PlayError::Rules(e.into()))?
        };
        *drew = scratch.rng != rng;
        if !(1..=MAX_PLAYERS).contains(&players) {
            let f = format!(
                "`create players` makes {players} players: between 1 and {MAX_PLAYERS} are allowed"
            );
            let m = Machine::new(tabs, &mut scratch, &mut room, &globals);
            return Err(PlayError::Rules(
                m.locate(f.into(), prog.setup.players_span).into(),
            ));
        }
        let boards = {
            let mut m = Machine::new(tabs, &mut scratch, &mut room, &globals);
            board_sizes(&mut m, prog, players as usize).map_err(|e| {
                *drew = m.table.rng != rng;
                PlayError::Rules(e)
            })?
        };
        *drew = scratch.rng != rng;
        let mut table = Table::new(tabs, players as usize, boards, rng.clone());
        if let Some(teams) = &prog.setup.teams {
            create::set_teams(&mut table, teams).map_err(|f| {
                let m = Machine::new(tabs, &mut scratch, &mut room, &globals);
                PlayError::Rules(m.locate(f, prog.setup.teams_span).into())
            })?;
        }
        {
            let mut m = Machine::new(tabs, &mut table, &mut room, &globals);
            for (i, a) in prog.setup.actions.iter().enumerate() {
                let span = prog.setup.spans.get(i).copied().unwrap_or_default();
                m.action(a).map_err(|f| {
                    *drew = m.table.rng != rng || scratch.rng != rng;
                    PlayError::Rules(match &m.table.stopped {
                        // A limit passed: no rules error to locate.
                        Some(why) => format!("the setup: {why}"),
                        None => m.locate(f, span).into(),
                    })
                })?;
            }
        }
        if scratch.rng == rng && table.rng == rng {
            tabs.keep_setup(&options.overrides, &table, &globals);
        }
        Ok((table, globals))
    }
}

/// Most spaces a game may have over all its boards.
pub const MAX_SPACES: i64 = 1 << 20;

/// Evaluates the boards' sizes and builds the boards, or takes them from
/// an earlier game with the same sizes. The boards and the table they
/// make (every space an owner of each location and storage) must fit
/// [`MAX_SPACES`] and the limit of `--max-slots` ([`Limits::slots`]), both
/// checked before anything is built.
fn board_sizes(
    m: &mut Machine,
    prog: &Program,
    players: usize,
) -> Result<Arc<board::Boards>, String> {
    let mut shapes = Vec::with_capacity(prog.boards.len());
    let mut first: i64 = 0;
    for b in &prog.boards {
        use crate::ir::Shape;
        let (rows, cols, kind, wrap_rows, wrap_cols) = match &b.shape {
            Shape::Track { len } => (1, size(m, len, b)?, board::Kind::Track, false, false),
            Shape::Grid {
                rows,
                cols,
                wrap_rows,
                wrap_cols,
            }
            | Shape::Hex {
                rows,
                cols,
                wrap_rows,
                wrap_cols,
            } => (
                size(m, rows, b)?,
                size(m, cols, b)?,
                if matches!(b.shape, Shape::Hex { .. }) {
                    board::Kind::Hex
                } else {
                    board::Kind::Grid
                },
                *wrap_rows,
                *wrap_cols,
            ),
            // The side, in the place of the rows.
            Shape::Hexagon { side } => (size(m, side, b)?, 1, board::Kind::Hexagon, false, false),
            Shape::Graph(g) => (1, g.points.len() as i64, board::Kind::Graph, false, false),
        };
        let track = kind == board::Kind::Track;
        // In 128 bits: rows x cols and the sum over the boards may
        // overflow 64 bits where the sizes do not.
        let spaces = match kind {
            board::Kind::Hexagon => 3 * i128::from(rows) * (i128::from(rows) - 1) + 1,
            _ => i128::from(rows) * i128::from(cols),
        };
        if rows < 1 || cols < 1 || i128::from(first) + spaces > i128::from(MAX_SPACES) {
            let name = &prog.symbols[b.name as usize];
            let size = if track {
                format!("{cols} spaces")
            } else if kind == board::Kind::Hexagon {
                format!("a side of {rows}")
            } else {
                format!("{rows} x {cols} spaces")
            };
            let f = format!(
                "board `{name}` would have {size}: sizes must be at least 1 and at most {MAX_SPACES} spaces in all"
            );
            return Err(m.locate(f.into(), b.span).into());
        }
        shapes.push([rows, cols, kind as i64, wrap_rows as i64, wrap_cols as i64]);
        first += spaces as i64;
    }
    let tabs = m.tabs;
    let names = tabs.loc_count + tabs.int_count + tabs.str_count + tabs.point_count;
    let owners = Table::owner_count(players) as i128 + i128::from(first);
    let slots = owners * names as i128;
    let max = tabs.limits.slots;
    if slots > i128::from(max) {
        return Err(format!(
            "the boards' {first} spaces would make a table of {slots} locations and storages \
             ({owners} owners x {names} names): at most {max} are allowed (the limit of --max-slots)"
        ));
    }
    let built = &m.tabs.boards_built;
    if let Ok(built) = built.lock() {
        if let Some((_, boards)) = built.iter().find(|(s, _)| *s == shapes) {
            return Ok(boards.clone());
        }
    }
    let mut boards = board::Boards::default();
    let mut first = 0;
    for (b, &[rows, cols, kind, wrap_rows, wrap_cols]) in prog.boards.iter().zip(&shapes) {
        let name: Arc<str> = prog.symbols[b.name as usize].clone().into();
        let kind = match kind {
            0 => board::Kind::Track,
            1 => board::Kind::Grid,
            2 => board::Kind::Hex,
            3 => board::Kind::Hexagon,
            _ => board::Kind::Graph,
        };
        let geom = match &b.shape {
            crate::ir::Shape::Hexagon { .. } => {
                let layout = board::layout::Layout::hexagon(rows as u32);
                board::BoardGeom::with_layout(first, layout, name, &prog.group_dirs)
            }
            crate::ir::Shape::Graph(g) => {
                let layout = board::layout::Layout::graph(
                    &g.points
                        .iter()
                        .map(|(n, at)| (Arc::from(n.as_str()), *at))
                        .collect::<Vec<_>>(),
                    &g.links
                        .iter()
                        .map(|&(a, b, d)| {
                            (
                                a,
                                b,
                                d.map(|k| board::Dir::ALL[k as usize % board::Dir::COUNT]),
                            )
                        })
                        .collect::<Vec<_>>(),
                );
                board::BoardGeom::with_layout(first, layout, name, &prog.group_dirs)
            }
            _ => board::BoardGeom::new(
                first,
                (rows as u32, cols as u32, kind),
                (wrap_rows != 0, wrap_cols != 0),
                name,
                &prog.group_dirs,
            ),
        };
        first += geom.len();
        boards.boards.push(geom);
    }
    let boards = Arc::new(boards);
    if let Ok(mut built) = built.lock() {
        // A few sizes are kept (a simulation uses one).
        if built.len() >= 8 {
            built.remove(0);
        }
        built.push((shapes, boards.clone()));
    }
    Ok(boards)
}

/// A size of board `b`, an error located at the board's form.
fn size(m: &mut Machine, e: &crate::ir::IntExpr, b: &crate::ir::Board) -> Result<i64, String> {
    m.int(e).map_err(|f| m.locate(f, b.span).into())
}

/// Reads a `--set` value for a declare of the given kind.
pub(super) fn override_value(
    prog: &Program,
    name: &str,
    decl: &ValueExpr,
    text: &str,
) -> Result<Value, PlayError> {
    let bad = |what: &str| PlayError::Rules(format!("`--set {name}={text}`: `'{name}` is {what}"));
    match decl {
        ValueExpr::Int(_) => text
            .trim()
            .parse::<i64>()
            .map(Value::Int)
            .map_err(|_| bad("an integer")),
        ValueExpr::Bool(_) => match text.trim() {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            _ => Err(bad("a boolean (true or false)")),
        },
        ValueExpr::Str(_) => prog
            .symbols
            .iter()
            .position(|s| s == text.trim())
            .map(|i| Value::Str(i as Sym))
            .ok_or_else(|| bad("a string, and that value appears nowhere in the file")),
        _ => Err(bad(
            "a collection, which cannot be set from the command line",
        )),
    }
}
