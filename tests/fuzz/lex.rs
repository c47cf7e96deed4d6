//! A forgiving lexer for the fuzzer: cuts a rules file or a position into
//! tokens with their byte ranges, so that a mutation can replace one token,
//! one bracketed form or one line and leave the rest of the text as it was.
//!
//! It never fails: an unbalanced bracket or a stray character is just a
//! token, since the fuzzer lexes its own mutants again before mutating them
//! further. Comments (`;` in rules files, `#` in positions) are skipped, so
//! a game's long header is never mutated.

use std::ops::Range;

/// What a token is, as far as mutating it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `(`
    Open,
    /// `)`
    Close,
    /// A whole number, with its minus sign when written against it: `52`, `-1`.
    Number,
    /// A name, a keyword or a variable (`HEARTS`, `move`, `'P`), or any
    /// run of letters and digits that is not a number (`d70d3259e4`).
    Word,
    /// Any other character: an operator symbol, `=`, `[`, `:`.
    Other,
}

/// One token: its kind and where it lies in the text.
#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    pub span: Range<usize>,
}

/// The tokens of `text`. `comment` starts a comment that runs to the end of
/// its line (`;` for rules files, `#` for positions).
pub fn tokens(text: &str, comment: u8) -> Vec<Token> {
    let bytes = text.as_bytes();
    let word_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let kind = if b == comment {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if b.is_ascii_whitespace() || b == b',' {
            i += 1;
            continue;
        } else if b == b'(' {
            i += 1;
            Kind::Open
        } else if b == b')' {
            i += 1;
            Kind::Close
        } else if word_byte(b)
            || (b == b'\'' && bytes.get(i + 1).is_some_and(|&c| word_byte(c)))
            || (b == b'-'
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
                && (i == 0 || !word_byte(bytes[i - 1])))
        {
            i += 1;
            while i < bytes.len() && word_byte(bytes[i]) {
                i += 1;
            }
            let body = text[start..i].trim_start_matches('-');
            if body.bytes().all(|c| c.is_ascii_digit()) && !body.is_empty() {
                Kind::Number
            } else if b == b'-' {
                // A minus sign before a run such as `7d`: the sign alone.
                i = start + 1;
                Kind::Other
            } else {
                Kind::Word
            }
        } else {
            // One character, however many bytes it takes.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Other
        };
        out.push(Token {
            kind,
            span: start..i,
        });
    }
    out
}

/// The bracketed forms of a token list: for each `(` that is closed, the
/// byte range from it to its `)`. Unmatched brackets are left out.
pub fn lists(text_tokens: &[Token]) -> Vec<Range<usize>> {
    let mut open = Vec::new();
    let mut out = Vec::new();
    for t in text_tokens {
        match t.kind {
            Kind::Open => open.push(t.span.start),
            Kind::Close => {
                if let Some(start) = open.pop() {
                    out.push(start..t.span.end);
                }
            }
            _ => {}
        }
    }
    out
}

/// Line and column (from 1) of a byte offset, to describe a mutation.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str, comment: u8) -> Vec<(Kind, &str)> {
        tokens(text, comment)
            .into_iter()
            .map(|t| (t.kind, &text[t.span]))
            .collect()
    }

    #[test]
    fn rules_tokens() {
        use Kind::*;
        assert_eq!(
            kinds("(declare -4 'NUMP) ; four\n(- 1 x2)", b';'),
            [
                (Open, "("),
                (Word, "declare"),
                (Number, "-4"),
                (Word, "'NUMP"),
                (Close, ")"),
                (Open, "("),
                (Other, "-"),
                (Number, "1"),
                (Word, "x2"),
                (Close, ")"),
            ]
        );
    }

    #[test]
    fn position_tokens() {
        use Kind::*;
        assert_eq!(
            kinds("# p2\nGRID[0,7] vloc STONE (1): BLACK*77 -7d", b'#'),
            [
                (Word, "GRID"),
                (Other, "["),
                (Number, "0"),
                (Number, "7"),
                (Other, "]"),
                (Word, "vloc"),
                (Word, "STONE"),
                (Open, "("),
                (Number, "1"),
                (Close, ")"),
                (Other, ":"),
                (Word, "BLACK"),
                (Other, "*"),
                (Number, "77"),
                (Other, "-"),
                (Word, "7d"),
            ]
        );
        let t = tokens("(a (b) c", b';');
        let found = lists(&t);
        assert_eq!((found.len(), &found[0]), (1, &(3..6)));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }
}
