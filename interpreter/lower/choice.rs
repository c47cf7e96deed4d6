//! Lowering of a stage's items and of choices, with cardboard's
//! extensions to `choice`: a name, `(choice NAME (OPTION...))`, which
//! `(legal NAME)` and `(legal NAME PLAYER)` ask about in conditions, and a
//! fallback, `(choice (OPTION...) (else ACTION))`, run when no option is
//! legal, and `(afterwards CONDITION OPTION)`, an option whose moves are
//! kept when CONDITION holds on the table each leaves.

use super::context::Lowerer;
use super::messages;
use crate::ir::{Action, BoolExpr, Condact, NamedChoice, StageItem};
use crate::syntax::SExpr;

/// The parts of `(choice NAME? (OPTION...) (else ACTION)?)`.
struct ChoiceForm<'e> {
    name: Option<&'e str>,
    options: &'e [SExpr],
    fallback: Option<&'e SExpr>,
}

/// Reads the shape of a `choice` form; `None` if it has none of its
/// shapes.
fn choice_form(items: &[SExpr]) -> Option<ChoiceForm<'_>> {
    let rest = items.get(1..)?;
    let (name, rest) = match rest.split_first() {
        Some((SExpr::Name(n, _), rest)) => (Some(n.as_str()), rest),
        _ => (None, rest),
    };
    match rest {
        [SExpr::List(options, _)] => Some(ChoiceForm {
            name,
            options,
            fallback: None,
        }),
        [SExpr::List(options, _), fallback] if fallback.head() == Some("else") => {
            Some(ChoiceForm {
                name,
                options,
                fallback: Some(fallback),
            })
        }
        _ => None,
    }
}

/// Every `(choice NAME ...)` under `e`, in the order of the file.
fn named_choices<'e>(e: &'e SExpr, out: &mut Vec<(&'e str, &'e SExpr)>) {
    let Some(items) = e.as_list() else {
        return;
    };
    if e.head() == Some("choice") {
        if let Some(ChoiceForm { name: Some(n), .. }) = choice_form(items) {
            out.push((n, e));
        }
    }
    for i in items {
        named_choices(i, out);
    }
}

/// Whether `e` is `(let VALUE 'V BODY)` whose BODY is a `choice` (or
/// another such `let`).
fn holds_choice(e: &SExpr) -> bool {
    match e.as_list() {
        Some([_, _, _, body]) if e.head() == Some("let") => {
            body.head() == Some("choice") || holds_choice(body)
        }
        _ => false,
    }
}

impl Lowerer {
    /// `(let VALUE 'V (choice ...))` as a stage item: the choice's options
    /// and fallback see 'V; lowered as the choice with each option (and
    /// the fallback) inside `(let VALUE 'V ...)`, so VALUE is evaluated
    /// for each option where it is tried or played, on the same table.
    fn let_choice(&mut self, e: &SExpr, stage: Option<u32>, items: &mut Vec<StageItem>) {
        let Some([_, value, var, body]) = e.as_list() else {
            return;
        };
        let (value, ty) = self.value(value);
        let names = self.value_names(&e.as_list().unwrap_or(&[])[1], ty);
        let var = self.bind(var, ty, "let");
        self.set_names(names);
        let start = items.len();
        match body.head() {
            Some("choice") => self.choice(body, stage, items),
            _ => self.let_choice(body, stage, items),
        }
        self.pop_var();
        let wrap = |c: &mut Condact| {
            let span = c.span;
            let inner = std::mem::replace(c, Condact::new(None, Action::Do(Vec::new()), span));
            *c = Condact::new(
                None,
                Action::Let {
                    value: value.clone(),
                    var,
                    body: Box::new(inner),
                },
                span,
            );
        };
        for item in &mut items[start..] {
            match item {
                StageItem::Choice(options, _) => options.iter_mut().for_each(wrap),
                StageItem::Else(c) => wrap(c),
                _ => {}
            }
        }
    }

    /// Numbers the named choices of the game (before anything is lowered:
    /// `legal` may name a choice written after it).
    pub(super) fn collect_choice_names(&mut self, game: &SExpr) {
        let mut found = Vec::new();
        named_choices(game, &mut found);
        for (name, e) in found {
            if self.choices.len() >= usize::from(u16::MAX) {
                self.error(e.span(), "this game names too many choices");
                return;
            }
            if self.choices.iter().any(|c| c.name == name) {
                self.error(e.span(), format!("two choices are named `{name}`"));
                continue;
            }
            self.choices.push(NamedChoice {
                name: name.to_string(),
                stage: None,
                pos: u32::MAX,
            });
        }
    }

    /// The items of a stage (`stage`: its number, `None` at the top level),
    /// a choice's `(else ...)` an item of its own after it.
    pub(super) fn stage_items<'e>(
        &mut self,
        stage: Option<u32>,
        forms: impl Iterator<Item = &'e SExpr>,
    ) -> Vec<StageItem> {
        let mut items = Vec::new();
        for e in forms {
            match e.head() {
                Some("stage") => items.push(StageItem::Stage(self.stage(e))),
                Some("choice") => self.choice(e, stage, &mut items),
                Some("let") if holds_choice(e) => self.let_choice(e, stage, &mut items),
                // An `any` outside a `choice` is no decision: like CardStock,
                // it runs its body for every item (see docs/language.md).
                _ => items.push(StageItem::Run(Box::new(self.condact(e)))),
            }
        }
        items
    }

    /// `(choice NAME? (OPTION...) (else ACTION)?)`, pushed onto `items`.
    fn choice(&mut self, e: &SExpr, stage: Option<u32>, items: &mut Vec<StageItem>) {
        let Some(form) = e.as_list().and_then(choice_form) else {
            self.error(
                e.span(),
                "`choice` takes one list of options, as in `(choice ((move ...) (turn pass)))`, optionally a name before it and an `(else ACTION)` after it",
            );
            items.push(StageItem::Choice(Vec::new(), e.span()));
            return;
        };
        if form.options.is_empty() {
            self.error(e.span(), "a `choice` needs at least one option");
        }
        self.in_choice = true;
        let options = form.options.iter().map(|c| self.option(c)).collect();
        self.in_choice = false;
        if let Some(name) = form.name {
            let pos = items.len() as u32;
            if let Some(c) = self
                .choices
                .iter_mut()
                .find(|c| c.name == name && c.pos == u32::MAX)
            {
                c.stage = stage;
                c.pos = pos;
            }
        }
        items.push(StageItem::Choice(options, e.span()));
        if let Some(fallback) = form.fallback {
            let parts = fallback.as_list().unwrap_or(&[]);
            if self.arity(fallback, parts, 1, "one action") {
                items.push(StageItem::Else(Box::new(self.condact(&parts[1]))));
            }
        }
    }

    /// An option of a choice: `(afterwards CONDITION OPTION)` keeps the
    /// moves of OPTION after which CONDITION holds (evaluated on the table
    /// the move leaves); any other is a (guarded) action.
    fn option(&mut self, e: &SExpr) -> Condact {
        let items = e.as_list().unwrap_or(&[]);
        if items.first().and_then(SExpr::as_name) != Some("afterwards") {
            return self.condact(e);
        }
        let [_, cond, option] = items else {
            self.error(
                e.span(),
                "`afterwards` is written `(afterwards CONDITION OPTION)`: the moves of OPTION after which CONDITION holds",
            );
            return Condact::new(None, Action::Do(Vec::new()), e.span());
        };
        let cond = self.boolean(cond);
        let body = Box::new(self.option(option));
        Condact::new(None, Action::Afterwards { cond, body }, e.span())
    }

    /// `(legal NAME)` or `(legal NAME PLAYER)`.
    pub(super) fn legal(&mut self, e: &SExpr, items: &[SExpr]) -> BoolExpr {
        let placeholder = BoolExpr::And(Vec::new());
        let (name, player) = match items {
            [_, SExpr::Name(n, span)] => ((n, *span), None),
            [_, SExpr::Name(n, span), p] => ((n, *span), Some(p)),
            _ => {
                self.error(
                    e.span(),
                    "`legal` is written `(legal NAME)` or `(legal NAME PLAYER)`, NAME the name of a choice: `(choice NAME (OPTION...))`",
                );
                return placeholder;
            }
        };
        let player = player.map(|p| self.player(p));
        let Some(choice) = self.choices.iter().position(|c| c.name == *name.0) else {
            let names: Vec<&str> = self.choices.iter().map(|c| c.name.as_str()).collect();
            let message = format!("no choice is named `{}`", name.0);
            let note = match messages::suggest(name.0, &names) {
                Some(s) => format!("did you mean `{s}`?"),
                None => {
                    "a choice is named where it is written: `(choice NAME (OPTION...))`".to_string()
                }
            };
            self.error_note(name.1, message, note);
            return placeholder;
        };
        BoolExpr::Legal {
            choice: choice as u16,
            player,
        }
    }
}
