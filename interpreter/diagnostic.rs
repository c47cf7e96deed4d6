//! Diagnostics: a message tied to a place in a rules file, and the one place
//! where they are rendered (file, line, column, a caret under the source).

/// A byte range in a source file. Small and `Copy`; every syntax node has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The 1-based line and column of the start of this span in `source`.
    pub fn line_col(&self, source: &str) -> (usize, usize) {
        let upto = &source[..(self.start as usize).min(source.len())];
        let line = upto.matches('\n').count() + 1;
        let col = upto
            .rsplit('\n')
            .next()
            .map(|l| l.chars().count())
            .unwrap_or(0)
            + 1;
        (line, col)
    }
}

/// One problem found in a rules file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Where.
    pub span: Span,
    /// What is wrong, in a game author's words.
    pub message: String,
    /// Optional extra advice.
    pub note: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span,
            message: message.into(),
            note: None,
        }
    }

    /// Adds advice shown under the source.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }
}

/// Renders diagnostics as plain text (no colour) with `codespan-reporting`:
///
/// ```text
/// error: `move` takes two cards, found one
///   ┌─ games/x.rcy:3:5
///   │
/// 3 │     (move (top (game vloc A)))
///   │     ^^^^^^^^^^^^^^^^^^^^^^^^^^
/// ```
///
/// A line too long to show ([`MAX_SHOWN_LINE`] bytes) or holding control
/// characters (a NUL byte) is not shown: its place and a short escaped
/// excerpt from the error on are, and so are the quotations of messages
/// ([`clip_quotes`]).
pub fn render(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    render_as(file_name, source, diagnostics, false)
}

/// Renders warnings as [`render`] renders errors (`warning:` in front).
pub fn render_warnings(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    render_as(file_name, source, diagnostics, true)
}

fn render_as(file_name: &str, source: &str, diagnostics: &[Diagnostic], warn: bool) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, Config};
    let file = SimpleFile::new(file_name, source);
    let config = Config::default();
    let mut out: Vec<u8> = Vec::new();
    let word = if warn { "warning" } else { "error" };
    for d in diagnostics {
        let mut start = (d.span.start as usize).min(source.len());
        while !source.is_char_boundary(start) {
            start -= 1;
        }
        let end = (d.span.end as usize).clamp(start, source.len());
        let message = clip_quotes(&d.message);
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let line = &source[line_start..line_end];
        if line.len() > MAX_SHOWN_LINE || line.chars().any(|c| c.is_control() && c != '\t') {
            let (l, c) = d.span.line_col(source);
            out.extend(
                format!(
                    "{word}: {message}\n --> {file_name}:{l}:{c}: `{}`\n",
                    excerpt(&source[start..line_end])
                )
                .bytes(),
            );
            continue;
        }
        let report = if warn {
            Report::warning()
        } else {
            Report::error()
        };
        let mut report = report
            .with_message(message)
            .with_labels(vec![Label::primary((), start..end)]);
        if let Some(note) = &d.note {
            report = report.with_notes(vec![note.clone()]);
        }
        if term::emit(&mut out, &config, &file, &report).is_err() {
            let (line, col) = d.span.line_col(source);
            out.extend(
                format!(
                    "{word}: {}\n --> {file_name}:{line}:{col}\n",
                    clip_quotes(&d.message)
                )
                .bytes(),
            );
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The longest line of a rules file shown under an error.
pub const MAX_SHOWN_LINE: usize = 200;

/// The most characters of its input a message quotes.
pub const MAX_QUOTED: usize = 40;

/// The most characters of a message outside its quotations.
const MAX_UNQUOTED: usize = 1000;

/// `text` as a message may quote it: control characters (a NUL byte)
/// escaped, and cut after [`MAX_QUOTED`] characters, with `...`.
pub fn excerpt(text: &str) -> String {
    cut(text, MAX_QUOTED)
}

/// `text` with its control characters escaped, cut after `max` characters.
fn cut(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        if c.is_control() && c != '\n' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A message that may quote its input (in backquotes): every quotation
/// made an [`excerpt`], and the rest escaped and cut at 1000 characters,
/// so that a line of 10 MB or a NUL byte read is never echoed whole.
pub fn clip_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(2 * MAX_UNQUOTED));
    for (k, part) in message.split('`').enumerate() {
        if k > 0 {
            out.push('`');
        }
        if k % 2 == 1 {
            out.push_str(&excerpt(part));
        } else {
            out.push_str(&cut(part, MAX_UNQUOTED));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotations_are_short_and_escaped() {
        let long = "x".repeat(10_000);
        let m = clip_quotes(&format!("found `{long}` at `a\0b`"));
        assert_eq!(
            m,
            format!("found `{}...` at `a\\u{{0}}b`", "x".repeat(MAX_QUOTED))
        );
        let d = Diagnostic::new(Span::new(3, 4), "bad");
        let src = format!("(a {long})");
        let r = render("f.rcy", &src, &[d]);
        assert!(r.len() < 200, "{r}");
        assert!(r.contains("f.rcy:1:4"), "{r}");
    }
}
