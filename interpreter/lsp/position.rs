//! Byte offsets of a rules file turned into LSP positions (line, UTF-16
//! column) and back, and [`Diagnostic`]s turned into LSP diagnostics.

use crate::diagnostic::Diagnostic;
use lsp_types::{DiagnosticSeverity, Position, Range};

/// The LSP position of byte `offset` in `source` (clamped to the text, and
/// moved back to a character boundary).
pub fn position(source: &str, offset: usize) -> Position {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = source[line_start..offset]
        .chars()
        .map(char::len_utf16)
        .sum();
    Position::new(line as u32, character as u32)
}

/// The byte offset of LSP position `pos` in `source` (clamped to the end
/// of its line, or of the text).
pub fn offset(source: &str, pos: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..pos.line {
        match source[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return source.len(),
        }
    }
    let mut units = 0u32;
    for (i, c) in source[line_start..].char_indices() {
        if c == '\n' || units >= pos.character {
            return line_start + i;
        }
        units += c.len_utf16() as u32;
    }
    source.len()
}

/// The LSP range of bytes `start..end`.
pub fn range(source: &str, start: usize, end: usize) -> Range {
    Range::new(position(source, start), position(source, end))
}

/// One of the checker's diagnostics as an LSP diagnostic; the note, if
/// any, follows the message on its own line.
pub fn to_lsp(source: &str, d: &Diagnostic, severity: DiagnosticSeverity) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if let Some(note) = &d.note {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    lsp_types::Diagnostic {
        range: range(source, d.span.start as usize, d.span.end as usize),
        severity: Some(severity),
        source: Some("cardboard".to_string()),
        message,
        ..Default::default()
    }
}

/// Every error (or, when the file compiles, every warning) that
/// `cardboard check` would print for `source`.
pub fn check(source: &str) -> Vec<lsp_types::Diagnostic> {
    match crate::lower::compile(source) {
        Err(errors) => errors
            .iter()
            .map(|d| to_lsp(source, d, DiagnosticSeverity::ERROR))
            .collect(),
        Ok(_) => crate::lower::warnings(source)
            .iter()
            .map(|d| to_lsp(source, d, DiagnosticSeverity::WARNING))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        let s = "ab\n(é😀 x)\n";
        let p = position(s, s.find('x').unwrap());
        assert_eq!(p, Position::new(1, 5));
        assert_eq!(offset(s, p), s.find('x').unwrap());
        assert_eq!(offset(s, Position::new(9, 0)), s.len());
        assert_eq!(offset(s, Position::new(0, 99)), 2);
    }
}
