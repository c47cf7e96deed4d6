//! Completion: what may be written at the cursor, from the place the
//! cursor stands in the forms around it (read by the forgiving
//! [`super::reader`], so a file being typed, brackets open, is read too).
//!
//! What it knows of the place (and nothing more: it does not type-check):
//! - after a quote: the declared names and the variables written earlier
//!   in the forms around the cursor (a binder's variable, a definition's
//!   parameters);
//! - the first word of a list: the language's forms (the keywords named by
//!   docs/language.md's headings, and [`super::hover::keywords`]' few
//!   others) and the file's definitions; first the
//!   items of the place in `game`, `setup` (`create`) and `stage` (`end`,
//!   `choice` ...); as the argument of a form that takes a
//!   location (`top`, `size`, `shuffle`, `any` ...), the owners and kinds
//!   of the locations the file writes (`game iloc STOCK`);
//! - the second word of `create` (players, teams, deck, board), `stage`
//!   (player, team), `scoring` (max, min), `legal` (the named choices),
//!   `space`/`spaces` (the boards), and of `(OWNER ...)` (the kinds
//!   `vloc` ... `points`);
//! - the name of `(OWNER KIND NAME)`: the names the file gives that kind
//!   first, then those of the other kinds;
//! - the first argument of a form that takes a location: the locations the
//!   file writes, whole (`(game iloc STOCK)`);
//! - anywhere else: the keywords, declared names and definitions.

use super::symbols::{Index, Key, KINDS};
use crate::syntax::SExpr;
use lsp_types::{CompletionItem, CompletionItemKind};

/// Forms whose first argument may be a location.
const LOCATION_TAKERS: [&str; 14] = [
    "top",
    "bottom",
    "size",
    "shuffle",
    "filter",
    "union",
    "intersect",
    "disjunction",
    "sort",
    "max",
    "min",
    "any",
    "all",
    "actual",
];

/// Heads of the lists that stand for an owner: `(current player)` ...
const OWNER_FORMS: [&str; 7] = [
    "current", "next", "previous", "space", "where", "owner", "game",
];

/// The most location forms offered.
const MAX_FORMS: usize = 200;

/// The completion items at byte `offset` of `source`.
pub fn complete(source: &str, offset: usize) -> Vec<CompletionItem> {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let forms = super::reader::read(source);
    let index = Index::of(source);
    let path = enclosing(&forms, source.len(), offset);
    let mut out = Out::default();
    let typing_var = source[..offset].ends_with('\'')
        || path.last().is_some_and(|(items, _)| {
            items.iter().any(
            |i| matches!(i, SExpr::Var(_, s) if s.start < offset as u32 && offset as u32 <= s.end),
        )
        });
    if typing_var {
        variables(&index, &path, offset, &mut out);
        return out.items;
    }
    let Some(&(items, at)) = path.last() else {
        general(&index, &mut out);
        return out.items;
    };
    let head = items.first().and_then(SExpr::as_name).unwrap_or("");
    let parent = path.len().checked_sub(2).map(|p| path[p]);
    let parent_head = parent
        .and_then(|(p, _)| p.first())
        .and_then(SExpr::as_name)
        .unwrap_or("");
    match at {
        0 => {
            let in_location_arg =
                parent.is_some_and(|(_, i)| i >= 1) && LOCATION_TAKERS.contains(&parent_head);
            if in_location_arg {
                for text in location_forms(&forms, source) {
                    let inner = text[1..text.len() - 1].to_string();
                    out.push(inner, CompletionItemKind::REFERENCE, "location", "0");
                }
            }
            let first: &[&str] = match parent_head {
                "game" => &[
                    "declare", "define", "setup", "do", "choice", "let", "stage", "scoring",
                ],
                "setup" => &["create"],
                "stage" => &["end", "choice", "do", "let", "stage"],
                _ => &[],
            };
            out.words(first);
            for k in super::hover::keywords() {
                out.push(k, CompletionItemKind::KEYWORD, "", "1");
            }
            for key in index.keys(|k| matches!(k, Key::Defined(_))) {
                out.push(key.name(), CompletionItemKind::FUNCTION, "definition", "1");
            }
        }
        1 => match head {
            "create" => out.words(&["players", "teams", "deck", "board"]),
            "stage" => out.words(&["player", "team"]),
            "scoring" => out.words(&["max", "min"]),
            "legal" => out.keys(&index, |k| matches!(k, Key::Choice(_))),
            "space" | "spaces" => out.keys(&index, |k| matches!(k, Key::Board(_))),
            _ if is_owner(&items[0]) => out.words(&KINDS),
            _ if LOCATION_TAKERS.contains(&head) => {
                for text in location_forms(&forms, source) {
                    out.push(text, CompletionItemKind::REFERENCE, "location", "0");
                }
                general(&index, &mut out);
            }
            _ => general(&index, &mut out),
        },
        2 if items
            .get(1)
            .and_then(SExpr::as_name)
            .is_some_and(|k| KINDS.contains(&k)) =>
        {
            let kind = items[1].as_name().unwrap_or("");
            let is_loc = |k: &str| !matches!(k, "sto" | "str" | "points");
            for key in index.keys(|k| matches!(k, Key::Place(..))) {
                if let Key::Place(other, name) = key {
                    let rank = if other == kind {
                        "0"
                    } else if is_loc(other) == is_loc(kind) {
                        "1"
                    } else {
                        continue;
                    };
                    out.push(name.clone(), CompletionItemKind::FIELD, other, rank);
                }
            }
        }
        _ => general(&index, &mut out),
    }
    let mut items = out.items;
    items.sort_by(|a, b| a.sort_text.cmp(&b.sort_text));
    items
}

/// The items offered, each label once (the first, best ranked, kept).
#[derive(Default)]
struct Out {
    items: Vec<CompletionItem>,
}

impl Out {
    fn push(&mut self, label: String, kind: CompletionItemKind, detail: &str, rank: &str) {
        if self.items.iter().any(|i| i.label == label) {
            return;
        }
        // The rank, then the order offered (first written first).
        let sort_text = format!("{rank}{:05}", self.items.len());
        self.items.push(CompletionItem {
            sort_text: Some(sort_text),
            label,
            kind: Some(kind),
            detail: (!detail.is_empty()).then(|| detail.to_string()),
            ..Default::default()
        });
    }

    fn words(&mut self, words: &[&str]) {
        for w in words {
            self.push(w.to_string(), CompletionItemKind::KEYWORD, "", "0");
        }
    }

    fn keys(&mut self, index: &Index, keep: impl Fn(&Key) -> bool) {
        for key in index.keys(keep) {
            self.push(key.name(), CompletionItemKind::VALUE, &key.describe(), "0");
        }
    }
}

/// Keywords, declared names and definitions.
fn general(index: &Index, out: &mut Out) {
    for k in super::hover::keywords() {
        out.push(k, CompletionItemKind::KEYWORD, "", "1");
    }
    for key in index.keys(|k| matches!(k, Key::Declared(_) | Key::Defined(_))) {
        let (name, kind) = match key {
            Key::Declared(n) => (n.clone(), CompletionItemKind::CONSTANT),
            _ => (key.name(), CompletionItemKind::FUNCTION),
        };
        out.push(name, kind, &key.describe(), "1");
    }
}

/// Declared names, and the variables written earlier in the lists around
/// the cursor (labels without their quote, which the editor keeps).
fn variables(index: &Index, path: &[(&[SExpr], usize)], offset: usize, out: &mut Out) {
    for (items, _) in path.iter().rev() {
        for item in items.iter() {
            let vars: Vec<&SExpr> = match item {
                // A definition's parameters: `(define (NAME 'P ...) ...)`.
                SExpr::List(sig, _) if items.first().and_then(SExpr::as_name) == Some("define") => {
                    sig.iter().collect()
                }
                other => vec![other],
            };
            for v in vars {
                if let SExpr::Var(name, s) = v {
                    if (s.end as usize) < offset {
                        out.push(name.clone(), CompletionItemKind::VARIABLE, "variable", "0");
                    }
                }
            }
        }
    }
    for key in index.keys(|k| matches!(k, Key::Declared(_))) {
        if let Key::Declared(name) = key {
            out.push(name.clone(), CompletionItemKind::CONSTANT, "declared", "1");
        }
    }
}

/// Whether `item`, first of a list, is an owner: `game`, a variable,
/// `(current player)`, `(0 player)`, `(space B ...)` ...
fn is_owner(item: &SExpr) -> bool {
    match item {
        SExpr::Name(n, _) => n == "game",
        SExpr::Var(..) => true,
        SExpr::List(items, _) => match items.first() {
            Some(SExpr::Name(n, _)) => OWNER_FORMS.contains(&n.as_str()),
            Some(SExpr::Int(..)) => true,
            _ => false,
        },
        _ => false,
    }
}

/// The location forms the file writes (`(game iloc STOCK)`), each once,
/// their spaces made single.
fn location_forms(forms: &[SExpr], source: &str) -> Vec<String> {
    fn walk(form: &SExpr, source: &str, out: &mut Vec<String>) {
        let SExpr::List(items, span) = form else {
            return;
        };
        if let [owner, SExpr::Name(kind, _), SExpr::Name(..)] = items.as_slice() {
            if KINDS[..5].contains(&kind.as_str()) && is_owner(owner) {
                let text = &source[span.start as usize..(span.end as usize).min(source.len())];
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if text.ends_with(')') && !out.contains(&text) && out.len() < MAX_FORMS {
                    out.push(text);
                }
                return;
            }
        }
        items.iter().for_each(|i| walk(i, source, out));
    }
    let mut out = Vec::new();
    forms.iter().for_each(|f| walk(f, source, &mut out));
    out
}

/// The lists around byte `offset`, outermost first, each with the index
/// of the item the cursor is in or before.
fn enclosing(forms: &[SExpr], len: usize, offset: usize) -> Vec<(&[SExpr], usize)> {
    let mut path = Vec::new();
    let mut level = forms;
    let at = offset as u32;
    loop {
        let inside = level.iter().find_map(|f| match f {
            SExpr::List(items, s) => {
                // Inside the brackets: after `(` and before `)` (a list
                // left open runs to the end of the text).
                let open = s.end as usize == len && at <= s.end;
                (s.start < at && (at < s.end || open)).then_some(items.as_slice())
            }
            _ => None,
        });
        let Some(items) = inside else {
            return path;
        };
        let index = items
            .iter()
            .take_while(|i| {
                let s = i.span();
                match i {
                    SExpr::List(..) => s.end <= at,
                    _ => s.end < at,
                }
            })
            .count();
        path.push((items, index));
        level = items;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(source: &str, cursor: &str) -> Vec<String> {
        let offset = source.find(cursor).unwrap() + cursor.len();
        complete(source, offset)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    const GAME: &str = "(game (declare 2 'N) (setup (create players 'N) (create board B (track 3))
  (create deck (game iloc STOCK) (deck (R (A, C)))))
 (do ((move (top (game iloc STOCK)) (top ((current player) vloc HAND)))
      (set (game sto COUNT) 1))))";

    #[test]
    fn knows_the_place() {
        let l = labels(GAME, "(top ((current player) vloc ");
        assert_eq!(l[..2], ["HAND".to_string(), "STOCK".to_string()]);
        let l = labels(GAME, "(set (game ");
        assert!(l.contains(&"vloc".to_string()) && l.contains(&"sto".to_string()));
        let l = labels(GAME, "(set (game sto ");
        assert_eq!(l, ["COUNT"]);
        let typing = GAME.replace("(set (game sto COUNT) 1)", "(shuffle (");
        let l = labels(&typing, "(shuffle (");
        assert_eq!(l[0], "game iloc STOCK");
        let l = labels(&typing, "(shuffle ");
        assert_eq!(l[0], "(game iloc STOCK)");
        let l = labels(GAME, "(create players '");
        assert_eq!(l, ["N"]);
        let l = labels(GAME, "(create ");
        assert!(l.contains(&"board".to_string()), "{l:?}");
        let spaces = GAME.replace("(set (game sto COUNT) 1)", "(all (spaces ");
        assert_eq!(labels(&spaces, "(spaces "), ["B"]);
        let l = labels(GAME, "(game (");
        assert_eq!(l[..3], ["declare", "define", "setup"]);
        let l = labels(GAME, "(do ((");
        assert!(l.contains(&"move".to_string()), "{l:?}");
    }

    /// Every prefix of a file (as typing makes it), and every place in
    /// it: completion, the outline, hover and the names answer, without
    /// a panic.
    #[test]
    fn answers_on_every_prefix() {
        let text =
            format!("{GAME}\n; é 😀 (\n(choice ((") + include_str!("../../examples/tictactoe.rcy");
        let cuts: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for &cut in cuts.iter().step_by(23) {
            let prefix = &text[..cut];
            super::super::outline::outline(prefix);
            let index = Index::of(prefix);
            for at in (0..=cut).step_by(37) {
                complete(prefix, at);
                super::super::hover::hover(prefix, at);
                if let Some(o) = index.at(at) {
                    assert!(
                        index.definition(&o.key).is_some() || index.references(&o.key).count() > 0
                    );
                }
            }
        }
    }
}
