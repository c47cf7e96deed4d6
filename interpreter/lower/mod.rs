//! Lowering: the syntax tree of a rules file -> the compiled [`Program`].
//!
//! [`compile`] reads the text ([`crate::syntax::read`]), then gives the
//! single `(game ...)` form its meaning: names are interned, variables get
//! slots and types, and every form is lowered by the position it is in
//! (a card, a card collection, an integer, a condition, an action ...).
//! Errors are collected, not thrown: after a mistake the pass records a
//! [`Diagnostic`], puts a placeholder in the program and goes on, so one
//! run reports every mistake. It never panics on any input.
//!
//! The files:
//! - `context` — the tables, the variables in scope, error helpers;
//! - `classify` — what kind of value a form is, from its shape;
//! - `game` — `game`, `declare`, `setup`, stages, `scoring`;
//! - `choice` — a stage's items, choices (named, with a fallback) and
//!   `legal`;
//! - `actions` — conditional actions and actions;
//! - `conditions` — conditions;
//! - `values` — integers, strings, players, teams, owners, storages;
//! - `cards` — cards, card collections, collections of card collections;
//! - `collections` — generic collections and `any`/`all`/`filter` binding;
//! - `decks` — decks, point awards, teams;
//! - `define` — named conditions and values, written out where used;
//! - `display` — the display section, how the game looks to people;
//! - `boards` — boards, spaces, space collections and queries (cardboard's
//!   extensions);
//! - `messages` — the catalogue of error messages.
//!
//! Readings chosen where the language leaves a choice:
//! - `(BOOL ACTION)`: a list of two items whose first is a list or a
//!   variable is a conditional action; anything else is an action.
//! - `(== A B)`: spaces if either side is a space form or variable, else
//!   integers if either side is an integer form, else cards, players,
//!   teams, and strings otherwise (a bare name is a string).
//! - `(max X)` / `(min X)` without `using` is the largest (smallest)
//!   integer of a collection of integers; with `using` it is a card.
//! - `(top X)`: a card, unless X is a collection of card collections, when
//!   it is one of those collections; `(top N X)` is the top N cards.
//! - A list of bare names whose first is not a keyword is a list of
//!   strings: `(ACE, TWO)`, `(HEARTS)`.
//! - `using 'NAME` names the game point map NAME, unless `'NAME` is a
//!   string variable in scope (then its value names the game point map).
//! - `(union X)` with X a collection of card collections (`(all ...)`,
//!   `(partition ...)`, a variable) is the union of them all.
//! - A list whose first word names a definition (`define`) is a use of
//!   it, before any other reading (a list of strings included).
//! - A stage-level item containing `any` is a decision (a one-option
//!   `choice`).
//! - As in CardStock's reader, extra `)` after the last top-level form
//!   (and nothing else but spaces and comments) are ignored, and so is a
//!   byte-order mark at the start of the file.

mod actions;
mod boards;
mod cards;
mod choice;
mod classify;
mod collections;
mod conditions;
mod context;
mod decks;
mod define;
pub mod display;
mod game;
mod graph;
mod lint;
mod messages;
mod shorthands;
mod space_sets;
mod values;

#[cfg(test)]
mod tests;

use crate::diagnostic::Diagnostic;
use crate::ir::Program;
use crate::syntax;

/// Reads, checks and compiles a rules file, reporting every error found.
/// The warnings of `cardboard check` on a rules file (see `lint.rs`):
/// forms that compile but most likely hold a typo. Meant for a file that
/// compiles; one that cannot be read has none.
pub fn warnings(source: &str) -> Vec<Diagnostic> {
    let prepared = prepare(source);
    if too_deep(&prepared).is_some() {
        return Vec::new();
    }
    match syntax::read(&prepared) {
        Ok(mut forms) => {
            // The lint reads `place` as the `move` it stands for.
            shorthands::add_supplies(&mut forms);
            shorthands::places_as_moves(&mut forms);
            lint::warnings(&forms)
        }
        Err(_) => Vec::new(),
    }
}

pub fn compile(source: &str) -> Result<Program, Vec<Diagnostic>> {
    let prepared = prepare(source);
    if let Some(deep) = too_deep(&prepared) {
        return Err(vec![deep]);
    }
    let mut forms = syntax::read(&prepared).map_err(|mut errors| {
        errors.extend(early_close(&prepared));
        if errors.iter().any(|e| e.message.contains("still open")) {
            errors.extend(unclosed_guess(&prepared));
        }
        errors.sort_by_key(|d| (d.span.start, d.span.end));
        errors
    })?;
    shorthands::add_supplies(&mut forms);
    let mut lx = context::Lowerer::new();
    let program = lx.file(&forms, source.len());
    match program {
        Some(p) if lx.errors.is_empty() => Ok(p),
        _ => {
            let mut errors = lx.errors;
            errors.sort_by_key(|d| (d.span.start, d.span.end));
            errors.dedup();
            Err(errors)
        }
    }
}

/// The deepest nesting of brackets accepted (real games stay under 30);
/// deeper input is refused before reading, so no input can exhaust the
/// stack.
pub(crate) const MAX_DEPTH: usize = 200;

/// The brackets of `text` outside `;` comments and `"texts"`, with their
/// byte offsets.
pub(crate) fn brackets(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut in_comment = false;
    let mut in_text = false;
    text.char_indices().filter(move |&(_, c)| {
        match c {
            '\n' => {
                in_comment = false;
                in_text = false;
            }
            '"' if !in_comment => {
                in_text = !in_text;
                return false;
            }
            ';' if !in_text => in_comment = true,
            _ => {}
        }
        !in_comment && !in_text && (c == '(' || c == ')')
    })
}

/// The first `(` nested deeper than [`MAX_DEPTH`], as an error.
pub(crate) fn too_deep(text: &str) -> Option<Diagnostic> {
    let mut depth = 0usize;
    for (i, c) in brackets(text) {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(Diagnostic::new(
                        crate::diagnostic::Span::new(i, i + 1),
                        format!("this form is nested too deeply: more than {MAX_DEPTH} brackets are open here"),
                    ));
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Blanks what CardStock's reader ignores, keeping every byte offset (so
/// spans still point into `source`): a byte-order mark at the start, and
/// extra `)` after the first top-level form when nothing else but spaces
/// and comments follows it.
pub(crate) fn prepare(source: &str) -> std::borrow::Cow<'_, str> {
    let mut text = std::borrow::Cow::Borrowed(source);
    if let Some(rest) = source.strip_prefix('\u{feff}') {
        text = std::borrow::Cow::Owned(format!("   {rest}"));
    }
    let Some(end) = first_form_end(&text) else {
        return text;
    };
    let tail = &text[end..];
    let mut only_closers = true;
    let mut has_closer = false;
    let mut in_comment = false;
    for c in tail.chars() {
        match c {
            '\n' => in_comment = false,
            _ if in_comment => {}
            ';' => in_comment = true,
            ')' => has_closer = true,
            c if c.is_whitespace() || c == ',' => {}
            _ => only_closers = false,
        }
    }
    if !(only_closers && has_closer) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..end]);
    let mut in_comment = false;
    for c in tail.chars() {
        match c {
            '\n' => {
                in_comment = false;
                out.push(c);
            }
            ')' if !in_comment => out.push(' '),
            ';' => {
                in_comment = true;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The byte offset just after the first top-level form's closing `)`.
fn first_form_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in brackets(text) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// When the first form closes before the end of the file, and the rest
/// both holds more forms and has a `)` too many, the stray `)` is most
/// likely earlier, where the first form closed: says so.
fn early_close(text: &str) -> Option<Diagnostic> {
    let end = first_form_end(text)?;
    let mut depth = 0usize;
    let mut opens = false;
    let mut negative = false;
    for (_, c) in brackets(text.get(end..)?) {
        match c {
            '(' => {
                opens = true;
                depth += 1;
            }
            ')' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => negative = true,
            },
            _ => {}
        }
    }
    let is_game = syntax::read(text.get(..end)?)
        .ok()
        .is_some_and(|forms| forms.iter().any(|f| f.head() == Some("game")));
    let what = if is_game {
        "the `(game ...)`"
    } else {
        "the first form of the file"
    };
    (opens && negative).then(|| {
        Diagnostic::new(
            crate::diagnostic::Span::new(end - 1, end),
            format!("{what} ends at this `)`, so the forms after it are outside it"),
        )
        .with_note("is there one `)` too many before this point?")
    })
}

/// When a `)` is missing, guesses which `(` lacks it from the layout: a
/// bracket that starts its line and is still open when a later line starts
/// with `(` at the same or a smaller indentation.
fn unclosed_guess(text: &str) -> Option<Diagnostic> {
    // (offset, indentation if the bracket starts its line)
    let mut open: Vec<(usize, Option<usize>)> = Vec::new();
    let mut in_comment = false;
    let mut line_start = true;
    let mut column = 0usize;
    for (i, c) in text.char_indices() {
        let first_on_line = line_start && !c.is_whitespace() && c != ',';
        if first_on_line {
            line_start = false;
        }
        match c {
            '\n' => {
                in_comment = false;
                line_start = true;
                column = 0;
                continue;
            }
            _ if in_comment => {}
            ';' => in_comment = true,
            '(' => {
                if first_on_line {
                    let suspect = open
                        .iter()
                        .find(|(_, indent)| indent.is_some_and(|n| n >= column));
                    if let Some((at, _)) = suspect {
                        return Some(
                            Diagnostic::new(
                                crate::diagnostic::Span::new(*at, at + 1),
                                "this `(` may be the one never closed",
                            )
                            .with_note(
                                "a later line starts a new form at the same indentation while it is still open",
                            ),
                        );
                    }
                }
                open.push((i, first_on_line.then_some(column)));
            }
            ')' => {
                open.pop();
            }
            _ => {}
        }
        column += 1;
    }
    None
}
