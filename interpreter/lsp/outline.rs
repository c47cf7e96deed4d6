//! Document symbols, the outline of a rules file: its `declare`s and
//! `define`s, the `setup` (its boards and decks), the stages with the
//! stages and choices inside them (a named choice by its name), and the
//! `scoring`. The `game` form itself is not a symbol: its items are the
//! outline's top level. Read with the forgiving [`super::reader`].

use super::position::range;
use crate::syntax::SExpr;
use lsp_types::{DocumentSymbol, SymbolKind};

/// The longest detail shown (a stage's `end`), in characters.
const MAX_DETAIL: usize = 60;

/// The outline of `source`.
pub fn outline(source: &str) -> Vec<DocumentSymbol> {
    let forms = super::reader::read(source);
    let mut out = Vec::new();
    for f in &forms {
        if f.head() == Some("game") {
            let items = f.as_list().unwrap_or_default();
            items.iter().for_each(|i| walk(i, source, &mut out));
        } else {
            walk(f, source, &mut out);
        }
    }
    out
}

/// The text of `form`, on one line, clipped.
fn text(source: &str, form: &SExpr) -> String {
    let s = form.span();
    let end = (s.end as usize).min(source.len());
    let one_line = source[s.start as usize..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match one_line.char_indices().nth(MAX_DETAIL) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

/// Adds the symbols of `form` to `out`: one for the form itself when it
/// is a symbol (with those inside it as children), else those inside it.
fn walk(form: &SExpr, source: &str, out: &mut Vec<DocumentSymbol>) {
    let SExpr::List(items, span) = form else {
        return;
    };
    let word = |i: usize| items.get(i).and_then(SExpr::as_name);
    let head = word(0).unwrap_or("");
    let (name, detail, kind, selection) = match head {
        "declare" => match items.get(2) {
            Some(v @ SExpr::Var(n, _)) => (
                format!("'{n}"),
                items.get(1).map(|x| text(source, x)),
                SymbolKind::CONSTANT,
                v.span(),
            ),
            _ => return,
        },
        "define" => match items.get(1) {
            Some(sig @ SExpr::List(s, _)) => match s.first() {
                Some(n @ SExpr::Name(name, _)) => (
                    name.clone(),
                    Some(text(source, sig)),
                    SymbolKind::FUNCTION,
                    n.span(),
                ),
                _ => return,
            },
            _ => return,
        },
        "setup" => ("setup".into(), None, SymbolKind::MODULE, items[0].span()),
        "create" if matches!(word(1), Some("board" | "deck")) => {
            let (kind, named) = if word(1) == Some("board") {
                (SymbolKind::STRUCT, items.get(2))
            } else {
                (SymbolKind::ARRAY, items.get(2))
            };
            let Some(named) = named else { return };
            (
                format!("{} {}", word(1).unwrap_or(""), text(source, named)),
                None,
                kind,
                named.span(),
            )
        }
        "stage" => (
            format!("stage {}", word(1).unwrap_or("")),
            items
                .iter()
                .find(|i| i.head() == Some("end"))
                .map(|e| text(source, e)),
            SymbolKind::CLASS,
            items[0].span(),
        ),
        "choice" => match items.get(1) {
            Some(n @ SExpr::Name(name, _)) => (
                name.clone(),
                Some("choice".into()),
                SymbolKind::ENUM,
                n.span(),
            ),
            _ => (
                "choice".into(),
                Some(format!("line {}", span.line_col(source).0)),
                SymbolKind::ENUM,
                items[0].span(),
            ),
        },
        "scoring" => (
            {
                let t = text(source, form);
                let t = t.strip_prefix('(').unwrap_or(&t);
                t.strip_suffix(')').unwrap_or(t).to_string()
            },
            None,
            SymbolKind::EVENT,
            items[0].span(),
        ),
        _ => {
            items.iter().for_each(|i| walk(i, source, out));
            return;
        }
    };
    let mut children = Vec::new();
    if !matches!(head, "declare" | "define" | "scoring" | "create") {
        items.iter().for_each(|i| walk(i, source, &mut children));
    }
    #[allow(deprecated)]
    out.push(DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range: range(source, span.start as usize, span.end as usize),
        selection_range: range(source, selection.start as usize, selection.end as usize),
        children: (!children.is_empty()).then_some(children),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outline_of_a_game() {
        let s = "(game (declare 4 'N) (define (F 'P) (== 'P 1))
 (setup (create players 2) (create board B (track 3)))
 (stage player (end (F 1)) (choice PLAY ((turn pass))) (stage team (choice ((turn pass)))))
 (scoring max ((current player) sto S)))";
        let o = outline(s);
        let names: Vec<&str> = o.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "'N",
                "F",
                "setup",
                "stage player",
                "scoring max ((current player) sto S)"
            ]
        );
        assert_eq!(o[2].children.as_ref().unwrap()[0].name, "board B");
        let stage = o[3].children.as_ref().unwrap();
        assert_eq!(stage[0].name, "PLAY");
        assert_eq!(stage[1].name, "stage team");
        assert_eq!(stage[1].children.as_ref().unwrap()[0].name, "choice");
        assert_eq!(o[3].detail.as_deref(), Some("(end (F 1))"));
        assert_eq!(o[0].selection_range.start.character, 17);
    }
}
