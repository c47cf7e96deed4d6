//! The mutations: small edits to a rules file or a position, each drawn from
//! the project's seeded generator, so a mutant is the same on every machine.
//!
//! Rules files are edited token by token (numbers, names, brackets) or form
//! by form (delete, duplicate, swap, copy over), and may get a `--set` for a
//! constant they declare; positions are edited token by token or line by
//! line. Every edit says what it did ([`Edit::describe`]), so a failing
//! mutant can be read without diffing it.

use crate::lex::{line_col, lists, tokens, Kind, Token};
use cardboard::random::{below, GameRng};
use std::ops::Range;

/// How wild the numbers may get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// Any value, up to `i64`'s limits and past them.
    All,
    /// Small values only (|n| at most [`SMALL`]): leaves out the huge sizes
    /// and the overflows, known failures while their fix is under way.
    Small,
}

/// The largest number [`Numbers::Small`] writes.
pub const SMALL: i128 = 10;

/// The values a number is replaced by (besides its neighbours, its
/// negation and its double, which depend on it).
const INTERESTING: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "10",
    "100",
    "255",
    "256",
    "999",
    "65536",
    "1000000",
    "2147483647",
    "2147483648",
    "4294967296",
    "1000000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "-9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
];

/// A replacement for the number `old`.
fn new_number(rng: &mut GameRng, old: &str, numbers: Numbers) -> String {
    let n: i128 = old.parse().unwrap_or(0);
    loop {
        let pick = below(rng, INTERESTING.len() + 4);
        let value = match pick {
            0 => (n + 1).to_string(),
            1 => (n - 1).to_string(),
            2 => (-n).to_string(),
            3 => (n * 2).to_string(),
            _ => INTERESTING[pick - 4].to_string(),
        };
        let small = value.parse::<i128>().is_ok_and(|v| v.abs() <= SMALL);
        if numbers == Numbers::All || small {
            return value;
        }
    }
}

/// One edit of a text: `span` replaced by `with`.
struct Splice {
    span: Range<usize>,
    with: String,
}

/// A mutation as done: what it was and where, for the report.
#[derive(Clone, Debug)]
pub struct Edit(pub String);

impl Edit {
    /// The edit in words: `number at 47:12: \`4\` -> \`-1\``.
    pub fn describe(&self) -> &str {
        &self.0
    }
}

/// A short quote of some text for a description: its first line, cut.
fn quote(s: &str) -> String {
    let first = s.lines().next().unwrap_or("");
    let mut q: String = first.chars().take(40).collect();
    if q.len() < s.len() {
        q.push_str(" ...");
    }
    format!("`{q}`")
}

fn apply(text: &str, mut splices: Vec<Splice>) -> String {
    splices.sort_by_key(|s| std::cmp::Reverse(s.span.start));
    let mut out = text.to_string();
    for s in splices {
        out.replace_range(s.span, &s.with);
    }
    out
}

fn pick<'a, T>(rng: &mut GameRng, items: &'a [T]) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[below(rng, items.len())])
}

fn of_kind(toks: &[Token], kind: Kind) -> Vec<Token> {
    toks.iter().filter(|t| t.kind == kind).cloned().collect()
}

/// Replaces one number by a value of [`INTERESTING`] or a neighbour.
fn mutate_number(
    rng: &mut GameRng,
    text: &str,
    toks: &[Token],
    numbers: Numbers,
) -> Option<(String, Edit)> {
    let t = pick(rng, &of_kind(toks, Kind::Number))?.clone();
    let old = &text[t.span.clone()];
    let new = new_number(rng, old, numbers);
    Some(replaced(text, &t, new, "number"))
}

/// `text` with token `t` replaced by `new`, and the edit, `what` naming
/// the kind of token.
fn replaced(text: &str, t: &Token, new: String, what: &str) -> (String, Edit) {
    let (l, c) = line_col(text, t.span.start);
    let old = &text[t.span.clone()];
    let edit = Edit(format!("{what} at {l}:{c}: `{old}` -> `{new}`"));
    let spliced = apply(
        text,
        vec![Splice {
            span: t.span.clone(),
            with: new,
        }],
    );
    (spliced, edit)
}

/// Replaces one name by another name of the same text.
fn mutate_name(rng: &mut GameRng, text: &str, toks: &[Token]) -> Option<(String, Edit)> {
    let words = of_kind(toks, Kind::Word);
    let t = pick(rng, &words)?.clone();
    // Mostly a name of the same shape (a keyword for a keyword, a variable
    // for a variable, a capitalised name for another), which `check` more
    // often accepts, so the mutant gets played.
    let shape = |w: &str| {
        (
            w.starts_with('\''),
            w.bytes().any(|b| b.is_ascii_lowercase()),
        )
    };
    let same: Vec<Token> = words
        .iter()
        .filter(|w| shape(&text[w.span.clone()]) == shape(&text[t.span.clone()]))
        .cloned()
        .collect();
    let other = if below(rng, 4) == 0 {
        pick(rng, &words)
    } else {
        pick(rng, &same)
    }?
    .clone();
    Some(replaced(text, &t, text[other.span].to_string(), "name"))
}

/// Drops a bracket, duplicates one, or adds one before some token.
fn mutate_bracket(rng: &mut GameRng, text: &str, toks: &[Token]) -> Option<(String, Edit)> {
    let brackets: Vec<Token> = toks
        .iter()
        .filter(|t| matches!(t.kind, Kind::Open | Kind::Close))
        .cloned()
        .collect();
    let (splice, what) = match below(rng, 3) {
        0 => {
            let t = pick(rng, &brackets)?.clone();
            (
                Splice {
                    span: t.span.clone(),
                    with: String::new(),
                },
                "dropped",
            )
        }
        1 => {
            let t = pick(rng, &brackets)?.clone();
            let b = text[t.span.clone()].to_string();
            (
                Splice {
                    span: t.span.end..t.span.end,
                    with: b,
                },
                "duplicated",
            )
        }
        _ => {
            let t = pick(rng, toks)?.clone();
            let b = if below(rng, 2) == 0 { "(" } else { ")" };
            (
                Splice {
                    span: t.span.start..t.span.start,
                    with: format!("{b} "),
                },
                "added",
            )
        }
    };
    let (l, c) = line_col(text, splice.span.start);
    let edit = Edit(format!("bracket {what} at {l}:{c}"));
    Some((apply(text, vec![splice]), edit))
}

/// The forms of a rules text: every bracketed list, and with `atoms` every
/// atom too.
fn forms(toks: &[Token], atoms: bool) -> Vec<Range<usize>> {
    let mut all = lists(toks);
    if atoms {
        all.extend(
            toks.iter()
                .filter(|t| matches!(t.kind, Kind::Number | Kind::Word | Kind::Other))
                .map(|t| t.span.clone()),
        );
    }
    all.sort_by_key(|r| (r.start, r.end));
    all
}

/// Deletes, duplicates, swaps or copies over whole forms (subtrees): mostly
/// lists (an action, a condition, a clause), which `check` more often
/// accepts than a missing or extra atom.
fn mutate_form(rng: &mut GameRng, text: &str, toks: &[Token]) -> Option<(String, Edit)> {
    let all = forms(toks, below(rng, 4) == 0);
    let a = pick(rng, &all)?.clone();
    let (l, c) = line_col(text, a.start);
    let quoted = quote(&text[a.clone()]);
    let (splices, what) = match below(rng, 4) {
        0 => (
            vec![Splice {
                span: a.clone(),
                with: String::new(),
            }],
            format!("form {quoted} at {l}:{c} deleted"),
        ),
        1 => {
            let copy = format!(" {}", &text[a.clone()]);
            (
                vec![Splice {
                    span: a.end..a.end,
                    with: copy,
                }],
                format!("form {quoted} at {l}:{c} duplicated"),
            )
        }
        kind => {
            let b = pick(rng, &all)?.clone();
            let (bl, bc) = line_col(text, b.start);
            let other = quote(&text[b.clone()]);
            if kind == 2 {
                // Swap two forms that do not overlap.
                if a.start < b.end && b.start < a.end {
                    return None;
                }
                let splices = vec![
                    Splice {
                        span: a.clone(),
                        with: text[b.clone()].to_string(),
                    },
                    Splice {
                        span: b.clone(),
                        with: text[a.clone()].to_string(),
                    },
                ];
                (
                    splices,
                    format!("forms {quoted} at {l}:{c} and {other} at {bl}:{bc} swapped"),
                )
            } else {
                let splices = vec![Splice {
                    span: a.clone(),
                    with: text[b].to_string(),
                }];
                (
                    splices,
                    format!("form {quoted} at {l}:{c} replaced by {other} from {bl}:{bc}"),
                )
            }
        }
    };
    Some((apply(text, splices), Edit(what)))
}

/// The constants a rules text declares: `(declare VALUE 'NAME)`.
pub fn declared(text: &str) -> Vec<String> {
    let toks = tokens(text, b';');
    toks.windows(4)
        .filter(|w| {
            w[0].kind == Kind::Open
                && &text[w[1].span.clone()] == "declare"
                && w[3].kind == Kind::Word
        })
        .map(|w| text[w[3].span.clone()].trim_start_matches('\'').to_string())
        .collect()
}

/// A mutant of a rules file: its text and the `--set` flags to play it with.
#[derive(Clone, Debug)]
pub struct RulesMutant {
    pub text: String,
    pub set: Vec<String>,
    pub edits: Vec<Edit>,
}

/// Mutates a rules text with one to four edits (mostly one, so that many
/// mutants still pass `check` and get played).
pub fn rules(rng: &mut GameRng, original: &str, numbers: Numbers) -> RulesMutant {
    let mut m = RulesMutant {
        text: original.to_string(),
        set: Vec::new(),
        edits: Vec::new(),
    };
    let count = if below(rng, 4) == 0 {
        2 + below(rng, 3)
    } else {
        1
    };
    let mut tries = 0;
    while m.edits.len() < count && tries < 20 {
        tries += 1;
        let toks = tokens(&m.text, b';');
        let done = match below(rng, 10) {
            0 | 1 => mutate_number(rng, &m.text, &toks, numbers),
            2 | 3 => mutate_name(rng, &m.text, &toks),
            4 => mutate_bracket(rng, &m.text, &toks),
            5..=8 => mutate_form(rng, &m.text, &toks),
            _ => {
                let names = declared(&m.text);
                pick(rng, &names).cloned().map(|name| {
                    let value = new_number(rng, "1", numbers);
                    m.set.push(format!("{name}={value}"));
                    (m.text.clone(), Edit(format!("--set {name}={value}")))
                })
            }
        };
        if let Some((text, edit)) = done {
            m.text = text;
            m.edits.push(edit);
        }
    }
    m
}

/// Deletes, duplicates, swaps or copies over whole lines of a position.
fn mutate_line(rng: &mut GameRng, text: &str) -> Option<(String, Edit)> {
    let mut lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return None;
    }
    let a = below(rng, lines.len());
    let b = below(rng, lines.len());
    let what = match below(rng, 4) {
        0 => {
            lines.remove(a);
            format!("line {} deleted", a + 1)
        }
        1 => {
            lines.insert(a, lines[a]);
            format!("line {} duplicated", a + 1)
        }
        2 => {
            lines.swap(a, b);
            format!("lines {} and {} swapped", a + 1, b + 1)
        }
        _ => {
            lines[a] = lines[b];
            format!("line {} replaced by line {}", a + 1, b + 1)
        }
    };
    let mut out = lines.join("\n");
    out.push('\n');
    Some((out, Edit(what)))
}

/// Deletes or duplicates one token of a position.
fn mutate_token(rng: &mut GameRng, text: &str, toks: &[Token]) -> Option<(String, Edit)> {
    let t = pick(rng, toks)?.clone();
    let (l, c) = line_col(text, t.span.start);
    let old = text[t.span.clone()].to_string();
    let (splice, what) = if below(rng, 2) == 0 {
        (
            Splice {
                span: t.span,
                with: String::new(),
            },
            "deleted",
        )
    } else {
        (
            Splice {
                span: t.span.end..t.span.end,
                with: format!(" {old}"),
            },
            "duplicated",
        )
    };
    Some((
        apply(text, vec![splice]),
        Edit(format!("token `{old}` at {l}:{c} {what}")),
    ))
}

/// Mutates a position with one to four edits.
pub fn position(rng: &mut GameRng, original: &str, numbers: Numbers) -> (String, Vec<Edit>) {
    let mut text = original.to_string();
    let mut edits = Vec::new();
    let count = if below(rng, 4) == 0 {
        2 + below(rng, 3)
    } else {
        1
    };
    let mut tries = 0;
    while edits.len() < count && tries < 20 {
        tries += 1;
        let toks = tokens(&text, b'#');
        let done = match below(rng, 10) {
            0..=2 => mutate_number(rng, &text, &toks, numbers),
            3 | 4 => mutate_name(rng, &text, &toks),
            5 => mutate_bracket(rng, &text, &toks),
            6 | 7 => mutate_line(rng, &text),
            _ => mutate_token(rng, &text, &toks),
        };
        if let Some((t, edit)) = done {
            text = t;
            edits.push(edit);
        }
    }
    (text, edits)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = "(game (declare 4 'NUMP) (setup (create players 'NUMP)) ; x\n (turn pass))";

    #[test]
    fn same_seed_same_mutant_and_most_mutants_differ() {
        let mut same = 0;
        for seed in 0..200 {
            let a = rules(&mut GameRng::new(seed), RULES, Numbers::All);
            let b = rules(&mut GameRng::new(seed), RULES, Numbers::All);
            assert_eq!((&a.text, &a.set), (&b.text, &b.set));
            assert!(!a.edits.is_empty(), "seed {seed}: no edit");
            // A name replaced by itself, a form by an equal one: rare.
            same += usize::from(a.text == RULES && a.set.is_empty());
        }
        assert!(same < 20, "{same} of 200 mutants are the original");
    }

    #[test]
    fn small_numbers_stay_small() {
        for seed in 0..200 {
            let m = rules(&mut GameRng::new(seed), "(a 4 5 6)", Numbers::Small);
            for t in tokens(&m.text, b';') {
                if t.kind == Kind::Number {
                    assert!(
                        m.text[t.span].parse::<i64>().unwrap().abs() < 1000,
                        "{}",
                        m.text
                    );
                }
            }
        }
    }

    #[test]
    fn each_kind_of_edit_happens() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..400 {
            for e in rules(&mut GameRng::new(seed), RULES, Numbers::All).edits {
                seen.insert(e.0.split(' ').next().unwrap().to_string());
            }
            let (_, edits) = position(
                &mut GameRng::new(seed),
                "cardboard position 1\ndecisions 6\np0 sto X = 3\n",
                Numbers::All,
            );
            for e in edits {
                seen.insert(e.0.split(' ').next().unwrap().to_string());
            }
        }
        let want = [
            "number", "name", "bracket", "form", "forms", "--set", "line", "lines", "token",
        ];
        for w in want {
            assert!(seen.contains(w), "no `{w}` edit in {seen:?}");
        }
    }

    #[test]
    fn declared_constants() {
        assert_eq!(declared(RULES), ["NUMP"]);
    }
}
