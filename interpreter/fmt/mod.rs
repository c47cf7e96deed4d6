//! `cardboard fmt`: the canonical layout of a rules file (see [`layout`]
//! for its rules). The formatter reads the file with [`crate::syntax`]
//! (so a file that does not parse gets the same errors as `check`), then
//! with its own reader, which keeps the comments, commas and blank lines
//! the syntax tree drops ([`reader`]), and writes the layout. Before it
//! answers it reads its own output back and compares the syntax trees
//! (spans aside): a formatted file always means what the original meant.
//!
//! ```
//! let text = cardboard::fmt::format_source("(game (declare 4 'NUMP) ; players\n)", 80).unwrap();
//! assert_eq!(text, "(game\n  (declare 4 'NUMP) ; players\n)\n");
//! ```

pub mod files;
mod layout;
mod reader;

use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::{self, SExpr};

/// The width `cardboard fmt` breaks lines at, by default.
pub const DEFAULT_WIDTH: usize = 100;

/// Formats a rules file's text to lines of at most `width` characters
/// (where the atoms allow: comments and long atoms may exceed it). A text
/// that does not parse gives the reader's first error.
pub fn format_source(source: &str, width: usize) -> Result<String, Diagnostic> {
    let prepared = crate::lower::prepare(source);
    let source = prepared.as_ref();
    let tree = read_forms(source)?;
    let Some(elems) = reader::read(source) else {
        return Err(Diagnostic::new(
            Span::new(0, 0),
            "the formatter cannot read this file (a bug in the formatter: please report it)",
        ));
    };
    let text = layout::write_file(&elems, width.max(1));
    let same = syntax::read(&text).is_ok_and(|again| same_forms(&tree, &again));
    // The comments' `;` (a `;` inside a text is the text's).
    let comments = |s: &str| {
        s.lines()
            .map(|l| {
                l.split('"')
                    .step_by(2)
                    .map(|p| p.matches(';').count())
                    .sum::<usize>()
            })
            .sum::<usize>()
    };
    if !same || comments(&text) != comments(source) {
        return Err(Diagnostic::new(
            Span::new(0, 0),
            "the formatter would change this file's meaning (a bug in the formatter: please report it)",
        ));
    }
    Ok(text)
}

/// The forms of a rules file as `check` reads them: too deep a file is
/// refused (the readers recurse), and what CardStock's reader ignores is
/// blanked (a byte-order mark, extra `)` after the first form), so the
/// formatter drops it. The error is the reader's first.
pub fn read_forms(source: &str) -> Result<Vec<SExpr>, Diagnostic> {
    let prepared = crate::lower::prepare(source);
    if let Some(error) = crate::lower::too_deep(&prepared) {
        return Err(error);
    }
    syntax::read(&prepared).map_err(first_error)
}

fn first_error(mut errors: Vec<Diagnostic>) -> Diagnostic {
    if errors.is_empty() {
        Diagnostic::new(Span::new(0, 0), "the file cannot be read")
    } else {
        errors.swap_remove(0)
    }
}

/// Whether two sequences of forms are the same, their spans aside.
pub fn same_forms(a: &[SExpr], b: &[SExpr]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_form(x, y))
}

fn same_form(a: &SExpr, b: &SExpr) -> bool {
    match (a, b) {
        (SExpr::List(x, _), SExpr::List(y, _)) => same_forms(x, y),
        (SExpr::Name(x, _), SExpr::Name(y, _))
        | (SExpr::Var(x, _), SExpr::Var(y, _))
        | (SExpr::Op(x, _), SExpr::Op(y, _))
        | (SExpr::Text(x, _), SExpr::Text(y, _)) => x == y,
        (SExpr::Int(x, _), SExpr::Int(y, _)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests;
