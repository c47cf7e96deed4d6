//! The formatter's own reader: the rules file as a tree of lists and
//! atoms that keeps what the syntax tree drops, the comments (own-line or
//! at the end of a line), the commas after items, and the blank lines
//! between items. It reads only text that [`crate::syntax::read`] has
//! accepted, and lexes atoms the way the grammar does.

/// A list or an atom, as written.
#[derive(Debug)]
pub enum Node {
    /// An atom's text (`move`, `'P`, `-1`, `..`, `"a text"`).
    Atom(String),
    /// `( ... )`: its items and comments in order.
    List(Vec<Elem>),
}

/// One element of a list (or of the file).
#[derive(Debug)]
pub enum Elem {
    /// A form.
    Item {
        /// The form.
        node: Node,
        /// A comma was written after it.
        comma: bool,
        /// A comment at the end of its line, after it.
        comment: Option<String>,
        /// A blank line comes before it.
        blank_before: bool,
    },
    /// A comment on a line of its own.
    Comment {
        /// The comment, from its `;`, trailing white space removed.
        text: String,
        /// A blank line comes before it.
        blank_before: bool,
    },
}

/// Reads `source` (already accepted by the syntax reader) into the
/// file's elements; `None` if the text holds what the grammar does not
/// (it then cannot have been accepted).
pub fn read(source: &str) -> Option<Vec<Elem>> {
    let mut r = Reader {
        src: source.as_bytes(),
        text: source,
        pos: 0,
    };
    let mut stack: Vec<Vec<Elem>> = vec![Vec::new()];
    // Newlines seen since the last token, and whether anything but white
    // space came before them on the current list's level.
    let mut newlines = 0usize;
    let mut line_has_item = false;
    loop {
        let (n, token) = r.next()?;
        newlines += n;
        if n > 0 {
            line_has_item = false;
        }
        let blank = newlines >= 2;
        let Some(token) = token else { break };
        let level = stack.last_mut()?;
        match token {
            Token::Open => {
                stack.push(Vec::new());
                // Remember the blank line before the list in a marker:
                // the list is pushed onto its parent when it closes.
                stack.last_mut()?.push(Elem::Comment {
                    text: String::new(),
                    blank_before: blank,
                });
                line_has_item = false;
            }
            Token::Close => {
                let mut items = stack.pop()?;
                if stack.is_empty() {
                    return None;
                }
                let Elem::Comment { blank_before, .. } = items.remove(0) else {
                    return None;
                };
                stack.last_mut()?.push(Elem::Item {
                    node: Node::List(items),
                    comma: false,
                    comment: None,
                    blank_before,
                });
                line_has_item = true;
            }
            Token::Atom(text) => {
                level.push(Elem::Item {
                    node: Node::Atom(text.to_string()),
                    comma: false,
                    comment: None,
                    blank_before: blank,
                });
                line_has_item = true;
            }
            Token::Comma => {
                if let Some(Elem::Item { comma, .. }) = real_last(level) {
                    *comma = true;
                }
                newlines = 0;
                continue;
            }
            Token::Comment(text) => {
                let text = text.trim_end().to_string();
                match real_last(level) {
                    Some(Elem::Item { comment, .. }) if line_has_item && comment.is_none() => {
                        *comment = Some(text);
                    }
                    _ => level.push(Elem::Comment {
                        text,
                        blank_before: blank,
                    }),
                }
            }
        }
        newlines = 0;
    }
    if stack.len() == 1 {
        stack.pop()
    } else {
        None
    }
}

/// The last element of a level, not the marker a list starts with.
fn real_last(level: &mut [Elem]) -> Option<&mut Elem> {
    match level.last_mut()? {
        Elem::Comment { text, .. } if text.is_empty() => None,
        e => Some(e),
    }
}

enum Token<'a> {
    Open,
    Close,
    Comma,
    Atom(&'a str),
    Comment(&'a str),
}

struct Reader<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
}

const OPERATORS: [&str; 14] = [
    "==", "!=", ">=", "<=", "//", "..", "<", ">", "+", "-", "*", "%", "^", ":",
];

fn word_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'a> Reader<'a> {
    /// The newlines skipped, and the next token (`None` at the end of the
    /// text); `None` for text the grammar does not accept.
    fn next(&mut self) -> Option<(usize, Option<Token<'a>>)> {
        let mut newlines = 0;
        while let Some(&b) = self.src.get(self.pos) {
            match b {
                b'\n' => newlines += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            self.pos += 1;
        }
        let start = self.pos;
        let Some(&b) = self.src.get(start) else {
            return Some((newlines, None));
        };
        let token = match b {
            b'(' => {
                self.pos += 1;
                Token::Open
            }
            b')' => {
                self.pos += 1;
                Token::Close
            }
            b',' => {
                self.pos += 1;
                Token::Comma
            }
            b';' => {
                let end = self.src[start..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(self.src.len(), |i| start + i);
                self.pos = end;
                Token::Comment(self.text.get(start..end)?)
            }
            _ => Token::Atom(self.atom()?),
        };
        Some((newlines, Some(token)))
    }

    /// An atom, in the grammar's order: variable, integer, operator, name.
    fn atom(&mut self) -> Option<&'a str> {
        let start = self.pos;
        let rest = &self.src[start..];
        let word_len = |from: usize| -> usize {
            match rest.get(from) {
                Some(&c) if c.is_ascii_alphabetic() || c == b'_' => {
                    1 + rest[from + 1..]
                        .iter()
                        .take_while(|&&c| word_char(c))
                        .count()
                }
                _ => 0,
            }
        };
        let len = if rest.first() == Some(&b'"') {
            // A text: to the next `"` on the line.
            2 + rest[1..]
                .iter()
                .take_while(|&&c| c != b'"' && c != b'\n')
                .count()
        } else if rest.first() == Some(&b'\'') && word_len(1) > 0 {
            1 + word_len(1)
        } else {
            let sign = usize::from(rest.first() == Some(&b'-'));
            let digits = rest[sign..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if digits > 0 && !rest.get(sign + digits).is_some_and(|&c| word_char(c)) {
                sign + digits
            } else if let Some(op) = OPERATORS.iter().find(|op| rest.starts_with(op.as_bytes())) {
                op.len()
            } else {
                word_len(0)
            }
        };
        if len == 0 || len > rest.len() {
            return None;
        }
        self.pos += len;
        self.text.get(start..self.pos)
    }
}
