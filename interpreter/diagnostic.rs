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
pub fn render(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, Config};
    let file = SimpleFile::new(file_name, source);
    let config = Config::default();
    let mut out: Vec<u8> = Vec::new();
    for d in diagnostics {
        let start = (d.span.start as usize).min(source.len());
        let end = (d.span.end as usize).clamp(start, source.len());
        let mut report = Report::error()
            .with_message(d.message.clone())
            .with_labels(vec![Label::primary((), start..end)]);
        if let Some(note) = &d.note {
            report = report.with_notes(vec![note.clone()]);
        }
        if term::emit(&mut out, &config, &file, &report).is_err() {
            let (line, col) = d.span.line_col(source);
            out.extend(format!("error: {}\n --> {file_name}:{line}:{col}\n", d.message).bytes());
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
