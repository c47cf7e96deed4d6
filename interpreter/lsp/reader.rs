//! A forgiving reader for the editor: the same atoms as the grammar
//! (`grammar/recycle.pest`: words, `'VARIABLES`, integers, operators, `;`
//! comments, commas as space), but it never fails. A list left open runs
//! to the end of the text, a `)` with no list open is skipped, and a
//! character the grammar does not know is skipped, so that references,
//! outlines and completion still answer while a file is being typed.
//! On a file that parses it gives the tree `syntax::read` gives.

use crate::diagnostic::Span;
use crate::syntax::SExpr;

/// The operators of the grammar, longest first.
const OPERATORS: [&str; 14] = [
    "==", "!=", ">=", "<=", "//", "..", "<", ">", "+", "-", "*", "%", "^", ":",
];

/// Deepest nesting kept; deeper lists are read flat (their atoms are kept
/// in the list that holds them), so that no input recurses without bound.
const MAX_DEPTH: usize = 400;

/// The forms of `source`, whatever its brackets.
pub fn read(source: &str) -> Vec<SExpr> {
    // Open lists: their items and their first byte.
    let mut stack: Vec<(Vec<SExpr>, usize)> = Vec::new();
    let mut top: Vec<SExpr> = Vec::new();
    // Lists opened past `MAX_DEPTH`, not kept.
    let mut skipped = 0usize;
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let atom = match c {
            b' ' | b'\t' | b'\r' | b'\n' | b',' => {
                i += 1;
                continue;
            }
            b';' => {
                i = source[i..].find('\n').map_or(source.len(), |n| i + n);
                continue;
            }
            b'(' => {
                if stack.len() < MAX_DEPTH {
                    stack.push((Vec::new(), i));
                } else {
                    skipped += 1;
                }
                i += 1;
                continue;
            }
            b')' if skipped > 0 => {
                skipped -= 1;
                i += 1;
                continue;
            }
            b')' => {
                if let Some((items, start)) = stack.pop() {
                    let list = SExpr::List(items, span(start, i + 1));
                    stack.last_mut().map_or(&mut top, |s| &mut s.0).push(list);
                }
                i += 1;
                continue;
            }
            b'\'' => {
                let end = word_end(bytes, i + 1);
                if end == i + 1 {
                    i += 1;
                    continue;
                }
                let atom = SExpr::Var(source[i + 1..end].to_string(), span(i, end));
                i = end;
                atom
            }
            _ if is_word_start(c) => {
                let end = word_end(bytes, i);
                let atom = SExpr::Name(source[i..end].to_string(), span(i, end));
                i = end;
                atom
            }
            _ => match integer(source, i).or_else(|| operator(source, i)) {
                Some((atom, end)) => {
                    i = end;
                    atom
                }
                None => {
                    // A byte the grammar does not know: skip its character.
                    i += source[i..].chars().next().map_or(1, char::len_utf8);
                    continue;
                }
            },
        };
        stack.last_mut().map_or(&mut top, |s| &mut s.0).push(atom);
    }
    while let Some((items, start)) = stack.pop() {
        let list = SExpr::List(items, span(start, source.len()));
        stack.last_mut().map_or(&mut top, |s| &mut s.0).push(list);
    }
    top
}

fn span(start: usize, end: usize) -> Span {
    Span::new(start, end)
}

fn is_word_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn word_end(bytes: &[u8], from: usize) -> usize {
    if from >= bytes.len() || !is_word_start(bytes[from]) {
        return from;
    }
    let mut end = from;
    while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
        end += 1;
    }
    end
}

fn integer(source: &str, at: usize) -> Option<(SExpr, usize)> {
    let bytes = source.as_bytes();
    let digits = at + usize::from(bytes[at] == b'-');
    let mut end = digits;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    if end == digits
        || (end < bytes.len() && (bytes[end].is_ascii_alphabetic() || bytes[end] == b'_'))
    {
        return None;
    }
    let value = source[at..end].parse().unwrap_or(i64::MAX);
    Some((SExpr::Int(value, span(at, end)), end))
}

fn operator(source: &str, at: usize) -> Option<(SExpr, usize)> {
    let op = OPERATORS.iter().find(|op| source[at..].starts_with(*op))?;
    let end = at + op.len();
    Some((SExpr::Op(op.to_string(), span(at, end)), end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_the_grammar_on_a_good_file() {
        let s = "; c\n(game (declare 3 'N) (== (x sto A) -1), (B, C))";
        let ours = read(s);
        let theirs = crate::syntax::read(s).unwrap();
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    }

    #[test]
    fn never_fails() {
        let s = "(game (setup (create players 2)) ) ) (stage é # (choice";
        let forms = read(s);
        assert_eq!(forms.len(), 2);
        assert_eq!(forms[1].span().end as usize, s.len());
        assert_eq!(forms[1].head(), Some("stage"));
        assert!(read(&"(".repeat(10_000)).len() == 1);
    }
}
