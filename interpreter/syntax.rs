//! The syntax layer: reads a rules file into a tree of S-expressions, each
//! node carrying its [`Span`]. It knows nothing of what the forms mean; the
//! [`crate::lower`] pass gives them meaning.

use crate::diagnostic::{Diagnostic, Span};
use pest::Parser;
use pest_derive::Parser;
use std::fmt;

#[derive(Parser)]
#[grammar = "grammar/recycle.pest"]
struct RecycleReader;

/// One node of the syntax tree.
#[derive(Clone, Debug, PartialEq)]
pub enum SExpr {
    /// `( ... )`
    List(Vec<SExpr>, Span),
    /// A word such as `move` or `HEARTS`.
    Name(String, Span),
    /// A variable such as `'P` (stored without the quote).
    Var(String, Span),
    /// A whole number.
    Int(i64, Span),
    /// An operator such as `==`, `..` or `:`.
    Op(String, Span),
    /// A text in double quotes, such as `"wins the trick"` (stored
    /// without the quotes): what a display section or `announce` shows.
    Text(String, Span),
}

impl SExpr {
    /// Where this node is in the source.
    pub fn span(&self) -> Span {
        match self {
            SExpr::List(_, s)
            | SExpr::Name(_, s)
            | SExpr::Var(_, s)
            | SExpr::Int(_, s)
            | SExpr::Op(_, s)
            | SExpr::Text(_, s) => *s,
        }
    }

    /// The word, if this is a name.
    pub fn as_name(&self) -> Option<&str> {
        match self {
            SExpr::Name(n, _) => Some(n),
            _ => None,
        }
    }

    /// The items, if this is a list.
    pub fn as_list(&self) -> Option<&[SExpr]> {
        match self {
            SExpr::List(items, _) => Some(items),
            _ => None,
        }
    }

    /// The first word of a list (`move` in `(move A B)`), if any.
    pub fn head(&self) -> Option<&str> {
        self.as_list()
            .and_then(|l| l.first())
            .and_then(SExpr::as_name)
    }

    /// A short description for messages: "the list `(top ...)`", "the number 3".
    pub fn describe(&self) -> String {
        match self {
            SExpr::List(items, _) => match items.first() {
                Some(SExpr::Name(n, _)) => format!("`({n} ...)`"),
                Some(_) => "a list".to_string(),
                None => "`()`".to_string(),
            },
            SExpr::Name(n, _) => format!("`{n}`"),
            SExpr::Var(v, _) => format!("the variable `'{v}`"),
            SExpr::Int(i, _) => format!("the number `{i}`"),
            SExpr::Op(o, _) => format!("`{o}`"),
            SExpr::Text(t, _) => format!("the text `\"{t}\"`"),
        }
    }
}

/// Compact S-expression text, without spans (used in snapshots and messages).
impl fmt::Display for SExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SExpr::List(items, _) => {
                write!(f, "(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{item}")?;
                }
                write!(f, ")")
            }
            SExpr::Name(n, _) => write!(f, "{n}"),
            SExpr::Var(v, _) => write!(f, "'{v}"),
            SExpr::Int(i, _) => write!(f, "{i}"),
            SExpr::Op(o, _) => write!(f, "{o}"),
            SExpr::Text(t, _) => write!(f, "\"{t}\""),
        }
    }
}

/// Reads `source` into its top-level forms, or reports every bracket or
/// character problem found.
pub fn read(source: &str) -> Result<Vec<SExpr>, Vec<Diagnostic>> {
    let mut pairs = match RecycleReader::parse(Rule::file, source) {
        Ok(p) => p,
        Err(e) => return Err(vec![reader_error(source, e)]),
    };
    let Some(file) = pairs.next() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for pair in file.into_inner() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        match build(pair) {
            Ok(e) => out.push(e),
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn span_of(pair: &pest::iterators::Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn build(pair: pest::iterators::Pair<Rule>) -> Result<SExpr, Diagnostic> {
    let span = span_of(&pair);
    match pair.as_rule() {
        Rule::list => {
            let mut items = Vec::new();
            for inner in pair.into_inner() {
                match inner.as_rule() {
                    Rule::open | Rule::close => {}
                    _ => items.push(build(inner)?),
                }
            }
            Ok(SExpr::List(items, span))
        }
        Rule::variable => Ok(SExpr::Var(pair.as_str()[1..].to_string(), span)),
        Rule::integer => pair
            .as_str()
            .parse::<i64>()
            .map(|i| SExpr::Int(i, span))
            .map_err(|_| Diagnostic::new(span, "this number is too large")),
        Rule::name => Ok(SExpr::Name(pair.as_str().to_string(), span)),
        Rule::operator => Ok(SExpr::Op(pair.as_str().to_string(), span)),
        Rule::text => {
            let quoted = pair.as_str();
            let inner = quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or("");
            Ok(SExpr::Text(inner.to_string(), span))
        }
        _ => Err(Diagnostic::new(span, "unexpected text")),
    }
}

/// Turns pest's error into one an author can read: no rule names.
fn reader_error(source: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let at = source[pos..].chars().next();
    let message = match (&e.variant, at) {
        (_, None) => {
            // Count what is still open to say so.
            let open = unclosed_brackets(source);
            if open > 0 {
                return Diagnostic::new(
                    Span::new(source.len(), source.len()),
                    format!(
                        "the file ends with {open} bracket{} still open: a `)` is missing",
                        if open == 1 { "" } else { "s" }
                    ),
                )
                .with_note("every `(` needs a matching `)`");
            }
            "unexpected end of file".to_string()
        }
        (_, Some(')')) => "this `)` closes nothing: there is one `)` too many".to_string(),
        (ErrorVariant::ParsingError { .. }, Some(c)) => {
            if c == '"' {
                "this text is not closed: a `\"` is missing before the end of the line".to_string()
            } else {
                format!("unexpected character `{c}`: expected `(`, `)`, a name, a number or a variable such as `'P`")
            }
        }
        (ErrorVariant::CustomError { message }, _) => message.clone(),
    };
    let len = at.map(char::len_utf8).unwrap_or(0);
    Diagnostic::new(Span::new(pos, pos + len), message)
}

fn unclosed_brackets(source: &str) -> usize {
    let mut depth: usize = 0;
    for (_, c) in crate::lower::brackets(source) {
        match c {
            '(' => depth += 1,
            _ => depth = depth.saturating_sub(1),
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(src: &str) -> String {
        read(src)
            .unwrap()
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn accepts_lists_atoms_and_comments() {
        assert_eq!(
            reads("(game (declare 4 'NUMP)) ;; hi"),
            "(game (declare 4 'NUMP))"
        );
        assert_eq!(reads("(RANK (A, B,C))"), "(RANK (A B C))");
        assert_eq!(reads("(range 1 .. 10)"), "(range 1 .. 10)");
        // A minus sign against digits is a negative number; with a space
        // it is the operator.
        assert_eq!(reads("(- 1 -2)"), "(- 1 -2)");
        assert!(matches!(&read("-2").unwrap()[0], SExpr::Int(-2, _)));
        assert!(matches!(&read("- 2").unwrap()[0], SExpr::Op(..)));
        assert!(read("-2x").is_err());
        assert_eq!(reads("((SUIT : HEARTS) 100)"), "((SUIT : HEARTS) 100)");
        assert_eq!(
            reads("(// 7 2) (>= 1 2) (!= A B)"),
            "(// 7 2) (>= 1 2) (!= A B)"
        );
        assert_eq!(reads(""), "");
        // Texts keep what is between their quotes, brackets and `;` too.
        assert_eq!(
            reads("(announce \"a (b); c\" 3)"),
            "(announce \"a (b); c\" 3)"
        );
        assert!(matches!(&read("\"x y\"").unwrap()[0], SExpr::Text(t, _) if t == "x y"));
        let e = read("(announce \"open)").unwrap_err();
        assert!(e[0].message.contains("not closed"), "{}", e[0].message);
    }

    #[test]
    fn rejects_unbalanced_and_stray_characters() {
        let e = read("(game (setup)").unwrap_err();
        assert!(e[0].message.contains("still open"), "{}", e[0].message);
        let e = read("(game))").unwrap_err();
        assert!(e[0].message.contains("closes nothing"), "{}", e[0].message);
        let e = read("(game #)").unwrap_err();
        assert!(
            e[0].message.contains("unexpected character `#`"),
            "{}",
            e[0].message
        );
        let e = read("(12abc)").unwrap_err();
        assert!(!e[0].message.contains("Rule"), "{}", e[0].message);
    }

    #[test]
    fn spans_point_at_the_source() {
        let src = "(move 'C X)";
        let forms = read(src).unwrap();
        let items = forms[0].as_list().unwrap();
        let s = items[1].span();
        assert_eq!(&src[s.start as usize..s.end as usize], "'C");
    }
}
