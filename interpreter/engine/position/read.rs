//! Reading a position back: checking each line against the rules and
//! rebuilding the table, the stage frames, the cycles and the chance.

use super::*;

impl Rules {
    /// Starts a game from a position (see `docs/positions.md`): the game is
    /// started with the position's `set` lines, then its table, place in
    /// the rules, cycles, teams, counters and chance are replaced by the
    /// position's. The position must be at a decision (a `choice` with at
    /// least one legal move) or finished. Every card of the rules must lie
    /// in exactly one location; cards are matched by name.
    pub fn load_position(&self, text: &str) -> Result<State, PositionError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let Some(&(first_line, first)) = lines.first() else {
            return err(
                0,
                format!("the position is empty: it must begin with the line `{POSITION_HEADER}`"),
            );
        };
        if first != POSITION_HEADER {
            return if first.starts_with("cardboard position") {
                err(
                    first_line,
                    format!("`{first}`: this version of cardboard reads `{POSITION_HEADER}` only"),
                )
            } else {
                err(
                    first_line,
                    format!("a position begins with the line `{POSITION_HEADER}`, found `{first}`"),
                )
            };
        }
        let body = &lines[1..];
        let prog = &self.tabs.prog;

        // The settings first: they fix players, boards and cards.
        let mut overrides: Vec<(String, String)> = Vec::new();
        let mut set_lines: HashMap<String, usize> = HashMap::new();
        for &(no, l) in body {
            let (word, rest) = first_word(l);
            if word != "set" {
                continue;
            }
            let Some((name, value)) = rest.split_once('=') else {
                return err(no, format!("a `set` line is `set NAME=VALUE`, found `{l}`"));
            };
            let (name, value) = (name.trim(), value.trim());
            let name = name.strip_prefix('\'').unwrap_or(name);
            let Some(decl) = prog.declares.iter().find(|d| d.name == name) else {
                let names: Vec<String> = prog.declares.iter().map(|d| d.name.clone()).collect();
                return err(
                    no,
                    format!(
                        "the rules declare no `'{name}` (they declare: {})",
                        if names.is_empty() {
                            "nothing".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                );
            };
            if let Some(first) = set_lines.insert(name.to_string(), no) {
                return err(no, format!("`{name}` is set twice (first at line {first})"));
            }
            override_value(prog, name, &decl.value, value).map_err(|e| PositionError {
                line: no,
                message: rules_message(e).replace("`--set ", "`set "),
            })?;
            overrides.push((name.to_string(), value.to_string()));
        }
        let mut state = self
            .start(&GameOptions { seed: 0, overrides })
            .map_err(|e| PositionError {
                line: 0,
                message: format!(
                    "the game cannot start with the position's settings: {}",
                    in_rules(&self.tabs, rules_message(e))
                ),
            })?;
        let tabs = state.tabs.clone();
        // The cards: those of the `decks` line, or else those the game has
        // at its first decision.
        let mut decks_line = None;
        for &(no, l) in body {
            let (word, rest) = first_word(l);
            if word != "decks" {
                continue;
            }
            if let Some((first, _)) = decks_line {
                return err(no, format!("`decks` appears twice (first at line {first})"));
            }
            decks_line = Some((no, rest));
        }
        if let Some((no, list)) = decks_line {
            decks::lay_decks(&tabs, state.table.get_mut(), no, list)?;
        }
        let mut loader = Loader::new(&tabs, state.table.get_mut());
        for &(no, l) in body {
            loader.line(no, l)?;
        }
        let (frames_line, frames, decisions) = loader.finish()?;
        state.frames = frames;
        state.decisions = decisions;
        *state.legal.get_mut() = None;
        *state.sampled.get_mut() = None;
        state.plan = None;
        if state.frames.is_empty() {
            state.status = Status::Finished;
            let globals = state.globals.clone();
            let outcome = score(
                &tabs,
                state.table.get_mut(),
                state.scratch.get_mut(),
                &globals,
            )
            .map_err(|e| PositionError {
                line: frames_line,
                message: format!(
                    "the game is over here, but scoring it fails: {}",
                    in_rules(&tabs, e)
                ),
            })?;
            state.outcome = Some(outcome);
        } else {
            state.status = Status::Running;
            state.outcome = None;
            let found = state.prepare_choice().map_err(|e| PositionError {
                line: frames_line,
                message: format!(
                    "the moves of the decision here cannot be found: {}",
                    in_rules(&tabs, e)
                ),
            })?;
            if !found {
                return err(
                    0,
                    format!(
                        "the position is at a decision of p{}, who has no legal move there",
                        state.table.borrow().current_player()
                    ),
                );
            }
        }
        Ok(state)
    }
}

/// What the lines of a position set, gathered before they are checked
/// together.
pub(super) struct Loader<'a> {
    pub(super) tabs: &'a Tables,
    pub(super) table: &'a mut Table,
    pub(super) symbols: HashMap<&'a str, Sym>,
    /// Unused cards by name, highest id first (taken from the end).
    pub(super) free: HashMap<String, Vec<CardId>>,
    /// How many cards of each name the rules have.
    pub(super) counts: HashMap<String, usize>,
    /// Every card by name, lowest id first (for `mem` copies).
    pub(super) any: HashMap<String, CardId>,
    /// Lines that may appear once, by what they set.
    pub(super) seen: HashMap<String, usize>,
    /// `mem` locations, resolved after the real ones.
    pub(super) mems: Vec<(usize, usize, Vec<String>)>,
    pub(super) decisions: u64,
    pub(super) frames: Option<(usize, Vec<Frame>)>,
    pub(super) player_cycles: Option<(usize, Vec<Cycle>)>,
    pub(super) team_cycles: Option<(usize, Vec<Cycle>)>,
    pub(super) teams: Option<(usize, Vec<Vec<u8>>)>,
    pub(super) rng: Option<GameRng>,
    /// The `moved` line: its number, the slot, the index from the top and
    /// the location as written.
    pub(super) moved: Option<(usize, usize, usize, String)>,
}

impl<'a> Loader<'a> {
    pub(super) fn new(tabs: &'a Tables, table: &'a mut Table) -> Loader<'a> {
        let symbols = tabs
            .prog
            .symbols
            .iter()
            .enumerate()
            .rev()
            .map(|(i, s)| (s.as_str(), i as Sym))
            .collect();
        let mut free: HashMap<String, Vec<CardId>> = HashMap::new();
        let mut any = HashMap::new();
        for id in (0..table.card_count() as CardId).rev() {
            let name = card_name(tabs, table, id);
            any.insert(name.clone(), id);
            free.entry(name).or_default().push(id);
        }
        let counts = free.iter().map(|(k, v)| (k.clone(), v.len())).collect();
        for l in table.locs.iter_mut() {
            l.clear();
        }
        // The index of what lies on the spaces is built again when asked.
        crate::engine::spaceset::forget(table);
        table.card_loc.fill(UNPLACED);
        table.ints.fill(0);
        table.strs.fill(EMPTY);
        table.points.fill(None);
        table.last_moved = None;
        Loader {
            tabs,
            table,
            symbols,
            free,
            counts,
            any,
            seen: HashMap::new(),
            mems: Vec::new(),
            decisions: 0,
            frames: None,
            player_cycles: None,
            team_cycles: None,
            teams: None,
            rng: None,
            moved: None,
        }
    }

    /// Records that `what` is set at line `no`; an error if it was already.
    pub(super) fn once(&mut self, no: usize, what: String) -> Result<(), PositionError> {
        match self.seen.insert(what.clone(), no) {
            Some(first) => err(no, format!("{what} appears twice (first at line {first})")),
            None => Ok(()),
        }
    }

    pub(super) fn symbol(&self, no: usize, text: &str, what: &str) -> Result<Sym, PositionError> {
        if text == "\"\"" {
            return Ok(EMPTY);
        }
        match self.symbols.get(text) {
            Some(s) if *s != EMPTY => Ok(*s),
            _ => err(
                no,
                format!("`{text}` is not {what} of the rules (it appears nowhere in the file)"),
            ),
        }
    }

    pub(super) fn line(&mut self, no: usize, l: &str) -> Result<(), PositionError> {
        let (word, rest) = first_word(l);
        match word {
            "set" | "decks" => Ok(()),
            "cardboard" => err(no, "the header line appears again"),
            "decisions" => {
                self.once(no, "`decisions`".into())?;
                self.decisions = parse_num(no, rest, "a number of decisions")?;
                if self.decisions > MAX_DECISIONS {
                    return err(
                        no,
                        format!(
                            "{} decisions: a position counts at most {MAX_DECISIONS} (2^63 - 1)",
                            self.decisions
                        ),
                    );
                }
                Ok(())
            }
            "frames" => {
                self.once(no, "`frames`".into())?;
                let frames = self.frames(no, rest)?;
                self.frames = Some((no, frames));
                Ok(())
            }
            "cycles" => {
                let (kind, list) = first_word(rest);
                let cycles = Self::cycles(no, list)?;
                match kind {
                    "player" => {
                        self.once(no, "`cycles player`".into())?;
                        self.player_cycles = Some((no, cycles));
                    }
                    "team" => {
                        self.once(no, "`cycles team`".into())?;
                        self.team_cycles = Some((no, cycles));
                    }
                    _ => {
                        return err(
                            no,
                            format!("`cycles` is followed by `player` or `team`, found `{kind}`"),
                        )
                    }
                }
                Ok(())
            }
            "teams" => {
                self.once(no, "`teams`".into())?;
                let teams = self.teams(no, rest)?;
                self.teams = Some((no, teams));
                Ok(())
            }
            "chance" => {
                self.once(no, "`chance`".into())?;
                self.rng = Some(Self::chance(no, rest)?);
                Ok(())
            }
            "moved" => {
                self.once(no, "`moved`".into())?;
                self.moved(no, rest)
            }
            _ => self.owner_line(no, word, rest),
        }
    }

    /// `top:3 stage1:0 stage2:1`.
    pub(super) fn frames(&self, no: usize, text: &str) -> Result<Vec<Frame>, PositionError> {
        let stages = self.tabs.prog.stages.len();
        let mut frames = Vec::new();
        for tok in text.split_whitespace() {
            let Some((what, pos)) = tok.split_once(':') else {
                return err(
                    no,
                    format!("a frame is `top:N` or `stageK:N` (the stage and its next item), found `{tok}`"),
                );
            };
            let pos: u32 = parse_num(no, pos, "an item number")?;
            let stage = if what == "top" {
                None
            } else if let Some(k) = what.strip_prefix("stage") {
                let k: usize = parse_num(no, k, "a stage number")?;
                if k >= stages {
                    return err(
                        no,
                        format!(
                            "there is no stage{k}: the rules have {stages} stages, numbered from 0 in the order they appear in the file"
                        ),
                    );
                }
                Some(k as u32)
            } else {
                return err(
                    no,
                    format!("a frame is `top:N` or `stageK:N`, found `{tok}`"),
                );
            };
            frames.push(Frame { stage, pos });
        }
        Ok(frames)
    }

    /// `0 1>2`.
    pub(super) fn cycles(no: usize, text: &str) -> Result<Vec<Cycle>, PositionError> {
        let mut out = Vec::new();
        for tok in text.split_whitespace() {
            let (idx, queued) = match tok.split_once('>') {
                Some((i, q)) => (i, Some(parse_num(no, q, "a seat or team number")?)),
                None => (tok, None),
            };
            out.push(Cycle {
                idx: parse_num(no, idx, "a seat or team number")?,
                queued,
            });
        }
        if out.is_empty() {
            return err(
                no,
                "a `cycles` line lists at least one cycle (the game's own)",
            );
        }
        Ok(out)
    }

    /// `0,2 1,3`.
    pub(super) fn teams(&self, no: usize, text: &str) -> Result<Vec<Vec<u8>>, PositionError> {
        let players = self.table.players;
        let mut team_of = vec![None; players];
        let mut teams = Vec::new();
        for (t, tok) in text.split_whitespace().enumerate() {
            let mut members = Vec::new();
            for m in tok.split(',') {
                let p: usize = parse_num(no, m, "a seat number")?;
                if p >= players {
                    return err(
                        no,
                        format!(
                            "team{t} has seat {p}, but the seats are 0 to {}",
                            players - 1
                        ),
                    );
                }
                if let Some(other) = team_of[p] {
                    return err(no, format!("seat {p} is in team{other} and in team{t}"));
                }
                team_of[p] = Some(t);
                members.push(p as u8);
            }
            teams.push(members);
        }
        if let Some(p) = team_of.iter().position(Option::is_none) {
            return err(no, format!("seat {p} is in no team"));
        }
        Ok(teams)
    }

    /// `key=HEX stream=N word=N`, or `seed=N`.
    pub(super) fn chance(no: usize, text: &str) -> Result<GameRng, PositionError> {
        let mut fields: HashMap<&str, &str> = HashMap::new();
        for tok in text.split_whitespace() {
            let Some((k, v)) = tok.split_once('=') else {
                return err(
                    no,
                    format!("`chance` is followed by `key=HEX stream=N word=N` or `seed=N`, found `{tok}`"),
                );
            };
            if fields.insert(k, v).is_some() {
                return err(no, format!("`{k}=` appears twice"));
            }
        }
        let mut keys: Vec<&str> = fields.keys().copied().collect();
        keys.sort_unstable();
        match keys.as_slice() {
            ["seed"] => Ok(GameRng::new(parse_num(no, fields["seed"], "a seed")?)),
            ["key", "stream", "word"] => {
                let key = fields["key"];
                if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return err(no, "the chance key is 64 hexadecimal digits");
                }
                let mut state = [0u8; 49];
                for (i, b) in state[..32].iter_mut().enumerate() {
                    *b = u8::from_str_radix(&key[2 * i..2 * i + 2], 16).unwrap_or(0);
                }
                let stream: u64 = parse_num(no, fields["stream"], "a stream number")?;
                state[32..40].copy_from_slice(&stream.to_le_bytes());
                let word: u128 = parse_num(no, fields["word"], "a word position")?;
                if word >= 1 << 68 {
                    return err(no, "the word position must be below 2^68");
                }
                state[40..49].copy_from_slice(&word.to_le_bytes()[..9]);
                Ok(GameRng::from_state(&state))
            }
            _ => err(
                no,
                "`chance` is followed by `key=HEX stream=N word=N` (a saved generator) or `seed=N` (a fresh one)",
            ),
        }
    }
}
