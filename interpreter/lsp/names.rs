//! The names a rules file gives: `(declare VALUE 'NAME)` and
//! `(define (NAME 'P...) BODY)`, for go to definition and hover.

use crate::diagnostic::Span;
use crate::syntax::SExpr;

/// A name given by the file: where its name is written, and the whole form.
pub struct Given {
    /// The name (without the quote of a declared one).
    pub name: String,
    /// True for a `declare`, false for a `define`.
    pub declared: bool,
    /// The name's span in the form.
    pub at: Span,
    /// The whole `declare` or `define` form.
    pub form: Span,
}

/// Every `declare` and `define` of `source` (none when it does not parse).
pub fn given(source: &str) -> Vec<Given> {
    let Ok(forms) = crate::fmt::read_forms(source) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in &forms {
        walk(f, &mut out);
    }
    out
}

fn walk(form: &SExpr, out: &mut Vec<Given>) {
    let SExpr::List(items, span) = form else {
        return;
    };
    match items.as_slice() {
        [SExpr::Name(head, _), _, SExpr::Var(name, at)] if head == "declare" => out.push(Given {
            name: name.clone(),
            declared: true,
            at: *at,
            form: *span,
        }),
        [SExpr::Name(head, _), SExpr::List(sig, _), ..] if head == "define" => {
            if let Some(SExpr::Name(name, at)) = sig.first() {
                out.push(Given {
                    name: name.clone(),
                    declared: false,
                    at: *at,
                    form: *span,
                });
            }
        }
        _ => items.iter().for_each(|i| walk(i, out)),
    }
}

/// The given name that the word `word` of the file refers to: `'NAME` a
/// declared one, `NAME` a definition.
pub fn lookup<'a>(given: &'a [Given], word: &str) -> Option<&'a Given> {
    match word.strip_prefix('\'') {
        Some(var) => given.iter().find(|g| g.declared && g.name == var),
        None => given.iter().find(|g| !g.declared && g.name == word),
    }
}

/// The word at `start..end` with its quote, if a quote precedes it.
pub fn word(source: &str, start: usize, end: usize) -> String {
    let quoted = source[..start].ends_with('\'');
    format!("{}{}", if quoted { "'" } else { "" }, &source[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declares_and_defines_are_found() {
        let s = "(game (declare 4 'N) (define (FULL) (== 'N 4)))";
        let g = given(s);
        assert_eq!(g.len(), 2);
        assert_eq!(&s[lookup(&g, "'N").unwrap().at.start as usize..][..2], "'N");
        assert!(lookup(&g, "FULL").is_some());
        assert!(lookup(&g, "N").is_none());
    }
}
