//! Lowering of the game's structure: the single `(game ...)` form, its
//! `declare`s, `(setup ...)` (boards: see `boards`), stages and top-level
//! items, and `(scoring max|min INT)`.

use super::context::Lowerer;
use crate::diagnostic::Span;
#[cfg(test)]
use crate::ir::Action;
use crate::ir::{BoolExpr, CycleKind, Declare, IntExpr, Program, Scoring, Setup, Stage};
use crate::syntax::SExpr;

/// The parts of a `(game ...)` form, sorted out before lowering.
#[derive(Default)]
struct Parts<'e> {
    declares: Vec<&'e SExpr>,
    defines: Vec<&'e SExpr>,
    setup: Option<&'e SExpr>,
    body: Vec<&'e SExpr>,
    scoring: Option<&'e SExpr>,
    display: Option<&'e SExpr>,
}

impl Lowerer {
    /// Lowers a whole file's forms; `None` if there is no `(game ...)`.
    pub(super) fn file(&mut self, forms: &[SExpr], source_len: usize) -> Option<Program> {
        let Some(first) = forms.first() else {
            self.error(
                Span::new(0, source_len.min(1)),
                "the file is empty: expected `(game ...)`",
            );
            return None;
        };
        let game_at = forms.iter().position(|f| f.head() == Some("game"));
        for (i, f) in forms.iter().enumerate() {
            if Some(i) != game_at {
                let message = if game_at.is_some() {
                    format!(
                        "a rules file holds one `(game ...)` form; {} is outside it",
                        f.describe()
                    )
                } else {
                    format!(
                        "a rules file holds one `(game ...)` form, found {}",
                        f.describe()
                    )
                };
                self.error(f.span(), message);
            }
        }
        let game = forms.get(game_at?).unwrap_or(first);
        Some(self.game(game))
    }

    fn game(&mut self, e: &SExpr) -> Program {
        self.collect_attr_keys(e);
        let items = e.as_list().unwrap_or(&[]);
        let head_span = items.first().map(SExpr::span).unwrap_or(e.span());
        let parts = self.sort_parts(items.get(1..).unwrap_or(&[]));
        if let Some(setup) = parts.setup {
            self.collect_boards(setup);
        }
        self.collect_definitions(&parts.defines);
        self.collect_choice_names(e);
        self.in_declare = true;
        let declares = self.declares(&parts.declares);
        self.in_declare = false;
        let setup = match parts.setup {
            Some(s) => self.setup(s),
            None => {
                self.error(head_span, "the game needs a `(setup ...)`");
                Setup {
                    players: IntExpr::Lit(0),
                    teams: None,
                    actions: Vec::new(),
                    spans: Vec::new(),
                    players_span: head_span,
                    teams_span: head_span,
                }
            }
        };
        if parts.body.is_empty() && parts.setup.is_some() {
            self.error(
                head_span,
                "the game needs at least one stage or action between the setup and the scoring",
            );
        }
        let body = self.stage_items(None, parts.body.iter().copied());
        let scoring = match parts.scoring {
            Some(s) => self.scoring(s),
            None => {
                self.error(
                    head_span,
                    "the game needs a `(scoring max|min ...)` at the end",
                );
                Scoring {
                    max: true,
                    score: IntExpr::Lit(0),
                    span: head_span,
                }
            }
        };
        self.check_unused_definitions();
        let display = parts.display.map(|d| self.display(d));
        Program {
            boards: self.take_boards(),
            symbols: std::mem::take(&mut self.symbols),
            declares,
            var_count: self.var_names.len(),
            var_names: std::mem::take(&mut self.var_names),
            loc_names: std::mem::take(&mut self.loc_names.items),
            int_names: std::mem::take(&mut self.int_names.items),
            str_names: std::mem::take(&mut self.str_names.items),
            point_names: std::mem::take(&mut self.point_names.items),
            attr_keys: std::mem::take(&mut self.attr_keys.items),
            setup,
            stages: std::mem::take(&mut self.stages),
            body,
            decks: self.take_decks(),
            scoring,
            choices: std::mem::take(&mut self.choices),
            group_dirs: std::mem::take(&mut self.group_dirs),
            display,
        }
    }

    /// The decks of the `create deck` forms, in the order of the file.
    fn take_decks(&mut self) -> Vec<std::sync::Arc<crate::ir::Deck>> {
        let mut decks = std::mem::take(&mut self.decks);
        decks.sort_by_key(|(start, _)| *start);
        decks.into_iter().map(|(_, deck)| deck).collect()
    }

    /// Sorts the game's items into declares, setup, body and scoring,
    /// reporting any out of order.
    fn sort_parts<'e>(&mut self, items: &'e [SExpr]) -> Parts<'e> {
        let mut parts = Parts::default();
        let setup_at = items.iter().position(|i| i.head() == Some("setup"));
        for (i, item) in items.iter().enumerate() {
            let anywhere = matches!(item.head(), Some("scoring" | "display"));
            if parts.scoring.is_some() && !anywhere {
                self.error(
                    item.span(),
                    "nothing can follow the `(scoring ...)`: it must come last in the game",
                );
            }
            match item.head() {
                // A definition may stand anywhere among the game's items.
                Some("define") => parts.defines.push(item),
                // So may the display section, after the scoring too.
                Some("display") => {
                    if parts.display.is_some() {
                        self.error(item.span(), "the game has a second `(display ...)`");
                    } else {
                        parts.display = Some(item);
                    }
                }
                Some("declare") => {
                    if setup_at.is_some_and(|s| s < i) {
                        self.error(
                            item.span(),
                            "a `declare` must come before the `(setup ...)`",
                        );
                    }
                    parts.declares.push(item);
                }
                Some("setup") => {
                    if parts.setup.is_some() {
                        self.error(item.span(), "the game has a second `(setup ...)`");
                    } else {
                        parts.setup = Some(item);
                    }
                }
                Some("scoring") => {
                    if parts.scoring.is_some() {
                        self.error(item.span(), "the game has a second `(scoring ...)`");
                    } else {
                        parts.scoring = Some(item);
                    }
                }
                _ => {
                    if setup_at.is_some_and(|s| i < s) {
                        self.error(
                            item.span(),
                            "this comes before the `(setup ...)`: the setup must come first, right after the declares",
                        );
                    }
                    parts.body.push(item);
                }
            }
        }
        parts
    }

    /// `(declare VALUE 'NAME)`s: slots 0..n in order, each visible to the
    /// later ones.
    fn declares(&mut self, forms: &[&SExpr]) -> Vec<Declare> {
        let mut shaped = Vec::new();
        for e in forms {
            match e.as_list() {
                Some([_, value, SExpr::Var(name, span)]) => {
                    if shaped.iter().any(|(n, ..): &(&String, _, _, _)| *n == name) {
                        self.error(*span, format!("`'{name}` is declared twice"));
                        continue;
                    }
                    shaped.push((name, *span, value, e.span()));
                }
                _ => self.error(
                    e.span(),
                    "`declare` is written `(declare VALUE 'NAME)`, as in `(declare 4 'NUMP)`",
                ),
            }
        }
        let slots: Vec<_> = shaped
            .iter()
            .map(|(name, span, ..)| self.new_slot(name, *span))
            .collect();
        let mut declares = Vec::new();
        for ((name, _, value, span), slot) in shaped.into_iter().zip(slots) {
            let names = self.value_names(value, self.kind_of(value));
            let (value, ty) = self.value(value);
            self.push_var(name, slot, ty);
            self.set_names(names);
            self.defs.globals += 1;
            declares.push(Declare {
                name: name.clone(),
                value,
                span,
            });
        }
        declares
    }

    /// `(setup (create players N) (create teams ...)? DECKS-AND-BOARDS...)`.
    fn setup(&mut self, e: &SExpr) -> Setup {
        let items = e.as_list().unwrap_or(&[]);
        let mut players = None;
        let mut teams = None;
        let mut actions = Vec::new();
        let mut spans = Vec::new();
        let mut players_span = e.span();
        let mut teams_span = e.span();
        for (i, item) in items.iter().enumerate().skip(1) {
            let parts = item.as_list().unwrap_or(&[]);
            let what = parts.get(1).and_then(SExpr::as_name);
            match (item.head(), what) {
                (Some("create"), Some("players")) => {
                    if i != 1 {
                        self.error(item.span(), "`(create players N)` must come first in the setup");
                    }
                    if self.arity(item, parts, 2, "`players` and a number") {
                        let n = self.int(&parts[2]);
                        players.get_or_insert(n);
                        players_span = item.span();
                    }
                }
                (Some("create"), Some("teams")) => {
                    let t = self.teams(item, parts);
                    if teams.is_some() {
                        self.error(item.span(), "the setup creates teams twice");
                    }
                    teams = Some(t);
                    teams_span = item.span();
                }
                (Some("create"), Some("deck")) => {
                    actions.push(self.create_deck(item, parts));
                    spans.push(item.span());
                }
                (Some("create"), Some("board")) => self.create_board(item, parts),
                (Some("repeat"), _) if parts.get(2).and_then(SExpr::head) == Some("create") => {
                    actions.push(self.action(item));
                    spans.push(item.span());
                }
                _ => self.error_note(
                    item.span(),
                    format!(
                        "the setup can only create players, teams, boards and decks, found {}",
                        item.describe()
                    ),
                    "actions such as shuffling and dealing go after the setup, for example in a `(do (...))`",
                ),
            }
        }
        let players = players.unwrap_or_else(|| {
            let span = items.first().map(SExpr::span).unwrap_or(e.span());
            self.error(span, "the setup must begin with `(create players N)`");
            IntExpr::Lit(0)
        });
        Setup {
            players,
            teams,
            actions,
            spans,
            players_span,
            teams_span,
        }
    }

    /// `(scoring max|min INT)`.
    fn scoring(&mut self, e: &SExpr) -> Scoring {
        match e.as_list() {
            Some([_, SExpr::Name(m, _), score]) if m == "max" || m == "min" => Scoring {
                max: m == "max",
                score: self.int(score),
                span: e.span(),
            },
            _ => {
                self.error(
                    e.span(),
                    "`scoring` is written `(scoring max INTEGER)` or `(scoring min INTEGER)`",
                );
                Scoring {
                    max: true,
                    score: IntExpr::Lit(0),
                    span: e.span(),
                }
            }
        }
    }

    /// `(stage player|team (end BOOL) ITEM...)`; returns its index.
    pub(super) fn stage(&mut self, e: &SExpr) -> usize {
        let items = e.as_list().unwrap_or(&[]);
        let head_span = items.first().map(SExpr::span).unwrap_or(e.span());
        let index = self.stages.len();
        let mut rest = items.get(1..).unwrap_or(&[]);
        let kind = match rest.first() {
            Some(SExpr::Name(k, _)) if k == "player" || k == "team" => {
                rest = &rest[1..];
                if k == "player" {
                    CycleKind::Player
                } else {
                    CycleKind::Team
                }
            }
            Some(SExpr::Name(other, span)) => {
                self.error(
                    *span,
                    format!("a stage must begin with `player` or `team`, found `{other}`"),
                );
                rest = &rest[1..];
                CycleKind::Player
            }
            _ => {
                self.error(head_span, "a stage must begin with `player` or `team`");
                CycleKind::Player
            }
        };
        self.stages.push(Stage {
            kind,
            end: BoolExpr::And(Vec::new()),
            items: Vec::new(),
            span: e.span(),
            end_span: e.span(),
        });
        let mut end_span = e.span();
        let end = match rest.first() {
            Some(first) if first.head() == Some("end") => {
                rest = &rest[1..];
                end_span = first.span();
                let parts = first.as_list().unwrap_or(&[]);
                if self.arity(first, parts, 1, "one condition") {
                    self.boolean(&parts[1])
                } else {
                    BoolExpr::And(Vec::new())
                }
            }
            _ => {
                self.error(head_span, "a stage needs an `(end CONDITION)`");
                BoolExpr::And(Vec::new())
            }
        };
        if rest.is_empty() {
            self.error(
                head_span,
                "a stage needs at least one action or stage after its `(end ...)`",
            );
        }
        let stage_items = self.stage_items(Some(index as u32), rest.iter());
        if let Some(stage) = self.stages.get_mut(index) {
            stage.end = end;
            stage.end_span = end_span;
            stage.items = stage_items;
        }
        index
    }
}

/// The setup's actions, for tests.
#[cfg(test)]
pub(super) fn setup_action_names(setup: &Setup) -> Vec<&'static str> {
    setup
        .actions
        .iter()
        .map(|a| match a {
            Action::CreateDeck { .. } => "deck",
            Action::Repeat { .. } => "repeat",
            _ => "other",
        })
        .collect()
}
