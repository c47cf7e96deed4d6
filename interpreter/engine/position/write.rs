//! Writing a position: the state of a game as the text of `docs/positions.md`.

use super::*;

/// A point map in RECYCLE's award syntax, without the outer parentheses:
/// `((RANK : ACE) 14) ((SUIT : HEARTS) (RANK : QUEEN) 5)`. A condition on an
/// attribute no deck defines is written with the key `?`.
fn awards_text(tabs: &Tables, map: &PointMap) -> String {
    let awards: Vec<String> = map
        .awards
        .iter()
        .map(|(conds, points)| {
            let mut s = String::from("(");
            for (key, value) in conds {
                let key = match key {
                    Some(k) => tabs
                        .prog
                        .attr_keys
                        .get(*k as usize)
                        .map_or("?", |s| sym_text(tabs, *s)),
                    None => "?",
                };
                let _ = write!(s, "({key} : {}) ", sym_text(tabs, *value));
            }
            let _ = write!(s, "{points})");
            s
        })
        .collect();
    awards.join(" ")
}

/// The text of a cycle stack: `0 1>2` (current, and `>` the queued one).
fn cycles_text(cycles: &[Cycle]) -> String {
    let parts: Vec<String> = cycles
        .iter()
        .map(|c| match c.queued {
            Some(q) => format!("{}>{q}", c.idx),
            None => c.idx.to_string(),
        })
        .collect();
    parts.join(" ")
}

/// Card names with runs of three or more equal names written `NAME*N`.
fn runs(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    let mut i = 0;
    while i < names.len() {
        let n = names[i..].iter().take_while(|m| **m == names[i]).count();
        if n >= 3 && !names[i].contains('*') {
            out.push(format!("{}*{n}", names[i]));
        } else {
            out.extend(names[i..i + n].iter().cloned());
        }
        i += n;
    }
    out
}

/// Where the card of `(last moved)` lies: its owner, its location
/// (`vloc STONE`) and its index from the top, as a `moved` line writes them.
fn moved_place(tabs: &Tables, table: &Table) -> Option<(String, String, usize)> {
    let card = table.last_moved?;
    let slot = *table.card_loc.get(card as usize)?;
    let cards = table.locs.get(slot as usize)?;
    let index = cards.len() - 1 - cards.iter().rposition(|c| *c == card)?;
    let (owner, id) = Table::slot_parts(slot, tabs.loc_count);
    let ln = tabs.prog.loc_names.get(id as usize)?;
    let name = tabs.prog.symbols.get(ln.name as usize)?;
    Some((
        owner_name(table, owner),
        format!("{} {name}", kind_word(ln.kind)),
        index,
    ))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl State {
    /// The declared constants that can be set from the command line, with
    /// their values in this game (`NUMP=4`): what a position's `set` lines
    /// hold.
    pub fn settings(&self) -> Vec<(String, String)> {
        let prog = &self.tabs.prog;
        prog.declares
            .iter()
            .zip(self.globals.iter())
            .filter_map(|(d, v)| {
                let text = match (&d.value, v) {
                    (ValueExpr::Int(_), Value::Int(i)) => i.to_string(),
                    (ValueExpr::Bool(_), Value::Bool(b)) => b.to_string(),
                    (ValueExpr::Str(_), Value::Str(s)) if *s != EMPTY => {
                        prog.symbols.get(*s as usize)?.clone()
                    }
                    _ => return None,
                };
                Some((d.name.clone(), text))
            })
            .collect()
    }

    /// The state as a position (see the module doc and
    /// `docs/positions.md`). A running game is saved at its decision; a
    /// finished one as finished. A game stopped by the engine is written
    /// too, but cannot be loaded (it is not at a decision).
    pub fn to_position(&self) -> String {
        let tabs = &self.tabs;
        let prog = &tabs.prog;
        let table = self.table.borrow();
        let mut out = String::new();
        let o = &mut out;
        let _ = writeln!(o, "{POSITION_HEADER}");
        match &self.status {
            Status::Running => {
                let _ = writeln!(
                    o,
                    "# p{} to decide, after {} decisions",
                    table.current_player(),
                    self.decisions
                );
            }
            Status::Finished => {
                let _ = writeln!(o, "# the game is over");
            }
            Status::Stopped(why) => {
                let _ = writeln!(
                    o,
                    "# stopped by the engine ({why}): not a position that can be loaded"
                );
            }
            Status::Failed(why) => {
                let _ = writeln!(
                    o,
                    "# stopped by a rules error ({why}): not a position that can be loaded"
                );
            }
        }
        for (name, value) in self.settings() {
            let _ = writeln!(o, "set {name}={value}");
        }
        let _ = writeln!(o, "decisions {}", self.decisions);
        let frames: Vec<String> = self
            .frames
            .iter()
            .map(|f| match f.stage {
                None => format!("top:{}", f.pos),
                Some(s) => format!("stage{s}:{}", f.pos),
            })
            .collect();
        let _ = writeln!(o, "frames {}", frames.join(" "));
        if !tabs.line_starts.is_empty() {
            let lines: Vec<String> = self
                .frames
                .iter()
                .filter_map(|f| f.stage)
                .filter_map(|s| {
                    let stage = prog.stages.get(s as usize)?;
                    let (line, _) = crate::engine::line_of(tabs, stage.span.start);
                    Some(format!("stage{s} is the stage at line {line}"))
                })
                .collect();
            if !lines.is_empty() {
                let _ = writeln!(o, "# {}", lines.join(", "));
            }
        }
        let _ = writeln!(o, "cycles player {}", cycles_text(&table.player_cycles));
        let _ = writeln!(o, "cycles team {}", cycles_text(&table.team_cycles));
        let teams: Vec<String> = table
            .teams
            .iter()
            .map(|m| {
                let m: Vec<String> = m.iter().map(u8::to_string).collect();
                m.join(",")
            })
            .collect();
        let _ = writeln!(o, "teams {}", teams.join(" "));
        match decks::decks_of(tabs, &table) {
            Some(list) => {
                let list: Vec<String> = list.iter().map(usize::to_string).collect();
                let _ = writeln!(o, "decks {}", list.join(" "));
            }
            None => {
                let _ = writeln!(o, "# no list of the rules' decks makes these cards");
            }
        }
        let st = table.rng.state();
        let mut stream = [0u8; 8];
        stream.copy_from_slice(&st[32..40]);
        let mut word = [0u8; 16];
        word[..9].copy_from_slice(&st[40..49]);
        let _ = writeln!(
            o,
            "chance key={} stream={} word={}",
            hex(&st[..32]),
            u64::from_le_bytes(stream),
            u128::from_le_bytes(word)
        );
        if let Some((who, loc, index)) = moved_place(tabs, &table) {
            let _ = writeln!(o, "moved {who} {loc} {index}");
        }
        let owners = Table::owner_count(table.players) as OwnerId + table.boards.space_count();
        for owner in 0..owners {
            let who = owner_name(&table, owner);
            for (id, ln) in prog.loc_names.iter().enumerate() {
                let slot = owner as usize * tabs.loc_count + id;
                let cards = &table.locs[slot];
                if cards.is_empty() {
                    continue;
                }
                let names: Vec<String> = cards
                    .iter()
                    .rev()
                    .map(|c| card_name(tabs, &table, *c))
                    .collect();
                let names = runs(names);
                let _ = writeln!(
                    o,
                    "{who} {} {} ({}): {}",
                    kind_word(ln.kind),
                    prog.symbols[ln.name as usize],
                    cards.len(),
                    names.join(" ")
                );
            }
            for (id, s) in prog.int_names.iter().enumerate() {
                let v = table.ints[owner as usize * tabs.int_count + id];
                if v != 0 {
                    let _ = writeln!(o, "{who} sto {} = {v}", prog.symbols[*s as usize]);
                }
            }
            for (id, s) in prog.str_names.iter().enumerate() {
                let v = table.strs[owner as usize * tabs.str_count + id];
                if v != EMPTY {
                    let _ = writeln!(
                        o,
                        "{who} str {} = {}",
                        prog.symbols[*s as usize],
                        sym_text(tabs, v)
                    );
                }
            }
            for (id, s) in prog.point_names.iter().enumerate() {
                if let Some(map) = &table.points[owner as usize * tabs.point_count + id] {
                    let _ = writeln!(
                        o,
                        "{who} points {} = {}",
                        prog.symbols[*s as usize],
                        awards_text(tabs, map)
                    );
                }
            }
        }
        // `writeln!` leaves a trailing space on empty lists; keep lines tidy.
        out.lines()
            .map(str::trim_end)
            .fold(String::new(), |mut acc, l| {
                acc.push_str(l);
                acc.push('\n');
                acc
            })
    }
}
