//! Reading a position's table lines: owners, locations and their cards,
//! storages and point maps, and the checks made once every line is read.

use super::read::Loader;
use super::*;

impl Loader<'_> {
    /// The owner a name stands for: `game`, `p0`, `team1`, `TRACK[3]`,
    /// `GRID[2,5]`.
    pub(super) fn owner(&self, no: usize, tok: &str) -> Result<OwnerId, PositionError> {
        let players = self.table.players;
        let boards = &self.table.boards;
        let seat = |prefix: &str| {
            tok.strip_prefix(prefix)
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|n| n.parse::<usize>().ok())
        };
        if tok == "game" {
            return Ok(0);
        }
        if let Some((name, index)) = tok.strip_suffix(']').and_then(|t| t.split_once('[')) {
            let Some(b) = boards.boards.iter().find(|b| *b.name == *name) else {
                let names: Vec<&str> = boards.boards.iter().map(|b| &*b.name).collect();
                return err(
                    no,
                    format!(
                        "the rules have no board `{name}` (boards: {})",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                );
            };
            let space = if let Some(l) = b.layout.as_ref().filter(|_| b.graph) {
                match l.point(index) {
                    Some(i) => b.first + i,
                    None => {
                        return err(
                            no,
                            format!("`{tok}`: the graph {name} has no point `{index}`"),
                        )
                    }
                }
            } else if b.track {
                let i: u32 = parse_num(no, index, "a space index")?;
                if i >= b.cols {
                    return err(
                        no,
                        format!("`{tok}`: the track {name} has spaces 0 to {}", b.cols - 1),
                    );
                }
                b.first + i
            } else {
                let Some((r, c)) = index.split_once(',') else {
                    return err(
                        no,
                        format!(
                            "`{tok}`: a space of {} is written {name}[ROW,COL]",
                            if b.hex { "a hex board" } else { "a grid" }
                        ),
                    );
                };
                let r: u32 = parse_num(no, r.trim(), "a row")?;
                let c: u32 = parse_num(no, c.trim(), "a column")?;
                if r >= b.rows || c >= b.cols {
                    return err(
                        no,
                        format!(
                            "`{tok}`: the {} {name} has rows 0 to {} and columns 0 to {}",
                            if b.hex { "hex board" } else { "grid" },
                            b.rows - 1,
                            b.cols - 1
                        ),
                    );
                }
                match b.at(i64::from(r), i64::from(c)) {
                    Some(s) => s,
                    None => {
                        return err(
                            no,
                            format!(
                                "`{tok}`: the hexagon {name} has no space at row {r}, column {c}"
                            ),
                        )
                    }
                }
            };
            return Ok(self.table.space_owner(space));
        }
        if let Some(p) = seat("p") {
            if p < players {
                return Ok(Table::player_owner(p));
            }
        }
        if let Some(t) = seat("team") {
            if t < players {
                return Ok(self.table.team_owner(t));
            }
        }
        err(
            no,
            format!(
                "`{tok}` is neither a line kind nor an owner: owners are `game`, `p0` to `p{last}`, `team0` to `team{last}`{spaces}",
                last = players - 1,
                spaces = if boards.boards.is_empty() {
                    String::new()
                } else {
                    " and the spaces of the boards, such as `NAME[0]` or `NAME[0,0]`".to_string()
                }
            ),
        )
    }

    /// A location or storage line: `p0 iloc HAND (2): A B`, `game sto N = 3`,
    /// `game str S = X`, `game points P = ((K : V) 1)`.
    pub(super) fn owner_line(
        &mut self,
        no: usize,
        who: &str,
        rest: &str,
    ) -> Result<(), PositionError> {
        let owner = self.owner(no, who)?;
        let (kind_tok, rest) = first_word(rest);
        if let Some(kind) = kind_of_word(kind_tok) {
            return self.location(no, owner, who, kind, rest);
        }
        let (what, names, count) = match kind_tok {
            "sto" => ("integer storage", &self.tabs.int_lookup, self.tabs.int_count),
            "str" => ("string storage", &self.tabs.str_lookup, self.tabs.str_count),
            "points" => ("point map", &self.tabs.point_lookup, self.tabs.point_count),
            "" => return err(no, format!("`{who}` alone: expected a location or a storage after the owner")),
            other => {
                return err(
                    no,
                    format!("`{other}` is not a kind of location or storage: expected vloc, iloc, hloc, oloc, mem, sto, str or points"),
                )
            }
        };
        let Some((name, value)) = rest.split_once('=') else {
            return err(
                no,
                format!("a storage line is `OWNER {kind_tok} NAME = VALUE`"),
            );
        };
        let (name, value) = (name.trim(), value.trim());
        let id = self.symbols.get(name).and_then(|s| names.get(s)).copied();
        let Some(id) = id else {
            return err(no, format!("the rules have no {what} `{name}`"));
        };
        let i = owner as usize * count + id as usize;
        self.once(no, format!("`{who} {kind_tok} {name}`"))?;
        match kind_tok {
            "sto" => {
                let v = parse_num(no, value, "an integer")?;
                self.table.ints[i] = v;
                // Beyond what the rules write there: no check leans on it.
                if !self.tabs.compiled.within_bounds(id as usize, v) {
                    self.table.beyond_bounds = true;
                }
            }
            "str" => {
                if value.is_empty() {
                    return err(no, "missing the string after `=`");
                }
                self.table.strs[i] = self.symbol(no, value, "a value")?;
            }
            _ => self.table.points[i] = Some(Arc::new(self.awards(no, value)?)),
        }
        Ok(())
    }

    pub(super) fn location(
        &mut self,
        no: usize,
        owner: OwnerId,
        who: &str,
        kind: LocKind,
        rest: &str,
    ) -> Result<(), PositionError> {
        let word = kind_word(kind);
        let Some((head, cards)) = rest.split_once(':') else {
            return err(
                no,
                format!("a location line is `OWNER {word} NAME (COUNT): CARDS`, with a colon before the cards"),
            );
        };
        let mut head = head.split_whitespace();
        let Some(name) = head.next() else {
            return err(no, "missing the location's name");
        };
        let count = match head.next() {
            None => None,
            Some(c) => match c.strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
                Some(n) => Some(parse_num::<usize>(no, n, "a number of cards")?),
                None => {
                    return err(
                        no,
                        format!("expected `(COUNT)` or `:` after {name}, found `{c}`"),
                    )
                }
            },
        };
        if let Some(extra) = head.next() {
            return err(no, format!("unexpected `{extra}` before the colon"));
        }
        let slot = self.slot(no, owner, kind, name)?;
        self.once(no, format!("`{who} {word} {name}`"))?;
        let names = self.expand(no, cards)?;
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        if let Some(count) = count {
            if count != names.len() {
                return err(
                    no,
                    format!(
                        "`{who} {word} {name}` says ({count}) but lists {} cards",
                        names.len()
                    ),
                );
            }
        }
        if kind == LocKind::Memory {
            self.mems
                .push((no, slot, names.iter().map(|s| s.to_string()).collect()));
            return Ok(());
        }
        let mut ids = Vec::with_capacity(names.len());
        for n in names {
            let Some(id) = self.free.get_mut(n).and_then(Vec::pop) else {
                return match self.counts.get(n) {
                    Some(1) => err(no, format!("card {n} appears twice")),
                    Some(k) => err(
                        no,
                        format!("card {n} appears more often than the {k} cards of that name the rules have"),
                    ),
                    None => err(no, format!("no card of the rules is called `{n}`")),
                };
            };
            self.table.card_loc[id as usize] = slot as u32;
            ids.push(id);
        }
        ids.reverse();
        self.table.locs[slot] = ids;
        Ok(())
    }

    /// The slot of location `KIND NAME` of `owner`; an error if the rules
    /// have no such location.
    fn slot(
        &self,
        no: usize,
        owner: OwnerId,
        kind: LocKind,
        name: &str,
    ) -> Result<usize, PositionError> {
        let sym = self.symbols.get(name).copied().unwrap_or(EMPTY);
        let Some(&id) = self.tabs.loc_lookup.get(&(kind, sym)) else {
            let other = self
                .tabs
                .prog
                .loc_names
                .iter()
                .find(|l| l.name == sym && sym != EMPTY)
                .map(|l| format!(" (it has `{} {name}`)", kind_word(l.kind)))
                .unwrap_or_default();
            return err(
                no,
                format!(
                    "the rules have no location `{} {name}`{other}",
                    kind_word(kind)
                ),
            );
        };
        Ok(owner as usize * self.tabs.loc_count + id as usize)
    }

    /// `moved OWNER KIND NAME INDEX`: the card of `(last moved)`, by the
    /// location it lies in and its index from the top (checked against the
    /// location's cards in [`Loader::finish`]).
    pub(super) fn moved(&mut self, no: usize, text: &str) -> Result<(), PositionError> {
        const SHAPE: &str = "a `moved` line is `moved OWNER KIND NAME INDEX` (the location the last moved card lies in and its index from the top, 0 for the top card)";
        let toks: Vec<&str> = text.split_whitespace().collect();
        let &[who, kind_tok, name, index] = toks.as_slice() else {
            return err(no, format!("{SHAPE}, found `moved {text}`"));
        };
        let owner = self.owner(no, who)?;
        let Some(kind) = kind_of_word(kind_tok) else {
            return err(
                no,
                format!(
                    "{SHAPE}: `{kind_tok}` is not a kind of location (vloc, iloc, hloc or oloc)"
                ),
            );
        };
        if kind == LocKind::Memory {
            return err(
                no,
                "the last moved card lies in a real location, not in a `mem` location (which only holds copies)",
            );
        }
        let slot = self.slot(no, owner, kind, name)?;
        let index: usize = parse_num(no, index, "an index from the top")?;
        self.moved = Some((no, slot, index, format!("{who} {kind_tok} {name}")));
        Ok(())
    }

    /// The card names of a location line, `NAME*N` standing for N cards
    /// of that name (unless a card is called `NAME*N`).
    pub(super) fn expand(&self, no: usize, cards: &str) -> Result<Vec<String>, PositionError> {
        let mut out = Vec::new();
        for tok in cards.split_whitespace() {
            let repeat = tok.rsplit_once('*').filter(|(n, k)| {
                !n.is_empty()
                    && !k.is_empty()
                    && k.bytes().all(|b| b.is_ascii_digit())
                    && !self.any.contains_key(tok)
            });
            match repeat {
                Some((name, k)) => {
                    let k: usize = parse_num(no, k, "a number of cards")?;
                    if k > self.table.card_count().saturating_sub(out.len()) {
                        return err(
                            no,
                            format!(
                                "`{tok}`: more cards than the {} the rules have",
                                self.table.card_count()
                            ),
                        );
                    }
                    out.extend(std::iter::repeat_n(name.to_string(), k));
                }
                None => out.push(tok.to_string()),
            }
        }
        Ok(out)
    }

    /// `((RANK : ACE) 14) ((SUIT : HEARTS) (RANK : QUEEN) 5)`.
    pub(super) fn awards(&self, no: usize, text: &str) -> Result<PointMap, PositionError> {
        // Tokens: parentheses, colons, words.
        let spaced = text
            .replace('(', " ( ")
            .replace(')', " ) ")
            .replace(':', " : ");
        let toks: Vec<&str> = spaced.split_whitespace().collect();
        let mut i = 0;
        let mut map = PointMap::default();
        let expect = |i: usize, want: &str| -> Result<(), PositionError> {
            match toks.get(i) {
                Some(t) if *t == want => Ok(()),
                Some(t) => err(
                    no,
                    format!("in the point map: expected `{want}`, found `{t}`"),
                ),
                None => err(
                    no,
                    format!("in the point map: expected `{want}`, found the end of the line"),
                ),
            }
        };
        while i < toks.len() {
            expect(i, "(")?;
            i += 1;
            let mut conds: AwardConds = Vec::new();
            while toks.get(i) == Some(&"(") {
                let key = toks.get(i + 1).copied().unwrap_or("");
                expect(i + 2, ":")?;
                let value = toks.get(i + 3).copied().unwrap_or("");
                expect(i + 4, ")")?;
                let key = if key == "?" {
                    None
                } else {
                    let s = self.symbol(no, key, "an attribute")?;
                    match self.tabs.attr_lookup.get(&s) {
                        Some(k) => Some(*k),
                        None => {
                            return err(
                                no,
                                format!("`{key}` is not a card attribute of the rules (write `?` for an attribute no deck has)"),
                            )
                        }
                    }
                };
                conds.push((key, self.symbol(no, value, "a value")?));
                i += 5;
            }
            let points = toks.get(i).copied().unwrap_or("");
            let points: i64 = parse_num(no, points, "a number of points")?;
            expect(i + 1, ")")?;
            i += 2;
            map.awards.push((conds, points));
        }
        Ok(map)
    }

    /// Checks the lines together and installs them in the table; returns
    /// the frames (and their line) and the decision count for the state.
    pub(super) fn finish(mut self) -> Result<(usize, Vec<Frame>, u64), PositionError> {
        let tabs = self.tabs;
        let prog = &tabs.prog;
        let missing: Vec<CardId> = (0..self.table.card_count() as CardId)
            .filter(|&c| self.table.card_loc[c as usize] == UNPLACED)
            .collect();
        if !missing.is_empty() {
            let mut names: Vec<String> = missing
                .iter()
                .take(12)
                .map(|&c| card_name(tabs, self.table, c))
                .collect();
            if missing.len() > names.len() {
                names.push("...".to_string());
            }
            return err(
                0,
                format!(
                    "{} {} of the rules {} missing from the position: {}",
                    missing.len(),
                    if missing.len() == 1 { "card" } else { "cards" },
                    if missing.len() == 1 { "is" } else { "are" },
                    names.join(" ")
                ),
            );
        }
        for (no, slot, names) in std::mem::take(&mut self.mems) {
            let mut ids = Vec::with_capacity(names.len());
            for n in &names {
                match self.any.get(n) {
                    Some(&id) => ids.push(id),
                    None => return err(no, format!("no card of the rules is called `{n}`")),
                }
            }
            ids.reverse();
            self.table.locs[slot] = ids;
        }
        if let Some((no, slot, index, place)) = self.moved.take() {
            let cards = &self.table.locs[slot];
            let Some(i) = index
                .checked_add(1)
                .and_then(|k| cards.len().checked_sub(k))
            else {
                return err(
                    no,
                    match cards.len() {
                        0 => format!("`moved`: `{place}` holds no card"),
                        n => format!(
                            "`moved`: `{place}` holds {n} card{}, so its index from the top is 0 to {}, not {index}",
                            if n == 1 { "" } else { "s" },
                            n - 1
                        ),
                    },
                );
            };
            self.table.last_moved = Some(cards[i]);
        }
        if let Some((_, teams)) = self.teams.take() {
            let mut of = vec![0u8; self.table.players];
            for (t, members) in teams.iter().enumerate() {
                for &p in members {
                    of[p as usize] = t as u8;
                }
            }
            self.table.teams = teams;
            self.table.team_of = of;
        }
        let Some((frames_line, frames)) = self.frames.take() else {
            return err(
                0,
                "missing the `frames` line (where the game is in its rules; see docs/positions.md)",
            );
        };
        // The frames: the top level, then each stage nested in the item
        // its parent is at; the innermost at a choice.
        let items = |stage: Option<u32>| -> &[StageItem] {
            match stage {
                None => &prog.body,
                Some(s) => &prog.stages[s as usize].items,
            }
        };
        let frame_name = |f: &Frame| match f.stage {
            None => "top".to_string(),
            Some(s) => format!("stage{s}"),
        };
        for (i, f) in frames.iter().enumerate() {
            if (i == 0) != f.stage.is_none() {
                return err(
                    frames_line,
                    "the first frame is `top:N` (the top level) and only the first",
                );
            }
            let list = items(f.stage);
            let Some(item) = list.get(f.pos as usize) else {
                return err(
                    frames_line,
                    format!(
                        "{} has items 0 to {}, not {}",
                        frame_name(f),
                        list.len() as i64 - 1,
                        f.pos
                    ),
                );
            };
            match (item, frames.get(i + 1)) {
                (StageItem::Stage(s), Some(next)) if next.stage == Some(*s as u32) => {}
                (StageItem::Stage(s), Some(next)) => {
                    return err(
                        frames_line,
                        format!(
                            "item {} of {} is stage{s}, not {}",
                            f.pos,
                            frame_name(f),
                            frame_name(next)
                        ),
                    )
                }
                (_, Some(next)) => {
                    return err(
                        frames_line,
                        format!(
                            "item {} of {} is not a stage, so {} cannot be inside it",
                            f.pos,
                            frame_name(f),
                            frame_name(next)
                        ),
                    )
                }
                (StageItem::Choice(..), None) => {}
                (_, None) => {
                    return err(
                        frames_line,
                        format!(
                            "the position is not at a decision: item {} of {} is not a choice",
                            f.pos,
                            frame_name(f)
                        ),
                    )
                }
            }
        }
        // One cycle for the game and one per stage of each kind.
        let stage_count = |kind: CycleKind| {
            frames
                .iter()
                .filter_map(|f| f.stage)
                .filter(|&s| prog.stages[s as usize].kind == kind)
                .count()
        };
        for (kind, given, word, limit) in [
            (
                CycleKind::Player,
                self.player_cycles.take(),
                "player",
                self.table.players,
            ),
            (
                CycleKind::Team,
                self.team_cycles.take(),
                "team",
                self.table.teams.len(),
            ),
        ] {
            let need = 1 + stage_count(kind);
            let (no, cycles) = given.unwrap_or((0, vec![Cycle::at(0); need]));
            if cycles.len() != need {
                return err(
                    no,
                    format!(
                        "`cycles {word}` lists {} cycles, but the frames need {need} (one for the game and one per {word} stage being played)",
                        cycles.len()
                    ),
                );
            }
            for c in &cycles {
                if let Some(bad) = std::iter::once(c.idx)
                    .chain(c.queued)
                    .find(|&m| m as usize >= limit)
                {
                    return err(
                        no,
                        format!(
                            "{word} {bad} in `cycles {word}`, but the {word}s are 0 to {}",
                            limit as i64 - 1
                        ),
                    );
                }
            }
            match kind {
                CycleKind::Player => self.table.player_cycles = cycles,
                CycleKind::Team => self.table.team_cycles = cycles,
            }
        }
        self.table.rng = self.rng.take().unwrap_or_else(|| GameRng::new(0));
        Ok((frames_line, frames, self.decisions))
    }
}
