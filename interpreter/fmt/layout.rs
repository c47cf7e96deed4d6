//! The canonical layout: a list that fits in the width (and holds no
//! comment) stays on one line; a longer one breaks, Lisp style, with one
//! item per line:
//!
//! ```text
//! (create deck (game hloc STOCK)
//!         (deck (SUIT (HEARTS, DIAMONDS, CLUBS, SPADES))
//!               (RANK (ACE))))
//! ```
//!
//! The head and the atoms after it stay on the first line, then the first
//! list argument; the other items are aligned under the first argument.
//! The blocks of a game (`game`, `setup`, `stage`, `choice`) and a list
//! whose alignment column is far to the right indent their items by two
//! instead. A list whose head is not a name puts its first item right
//! after the bracket and the others under it; a list of atoms alone fills
//! its lines. Comments stay where they are: on a line of their own, at
//! the indentation of the items around them, or at the end of the item's
//! line. At most one blank line is kept between items, where the author
//! left one.

use super::reader::{Elem, Node};

/// Lists whose items are indented by two under their head (the blocks of
/// a game), not aligned under their first argument.
const BLOCKS: [&str; 4] = ["game", "setup", "stage", "choice"];

/// Indentation of a block's items.
const INDENT: usize = 2;

/// Writes the file's elements.
pub fn write_file(elems: &[Elem], width: usize) -> String {
    let mut p = Printer {
        out: String::new(),
        width,
    };
    for (i, e) in elems.iter().enumerate() {
        if i > 0 {
            p.out.push('\n');
            if blank_before(e) {
                p.out.push('\n');
            }
        }
        p.elem(e, 0, 0);
    }
    if !p.out.is_empty() {
        p.out.push('\n');
    }
    p.out
}

fn blank_before(e: &Elem) -> bool {
    match e {
        Elem::Item { blank_before, .. } | Elem::Comment { blank_before, .. } => *blank_before,
    }
}

/// The width of a node on one line, `None` if it holds a comment.
fn flat_width(node: &Node) -> Option<usize> {
    match node {
        Node::Atom(a) => Some(a.chars().count()),
        Node::List(elems) => {
            let mut w = 2 + elems.len().saturating_sub(1);
            for e in elems {
                match e {
                    Elem::Item {
                        node,
                        comma,
                        comment: None,
                        ..
                    } => w += flat_width(node)? + usize::from(*comma),
                    _ => return None,
                }
            }
            Some(w)
        }
    }
}

struct Printer {
    out: String,
    width: usize,
}

impl Printer {
    /// The column the next character goes to.
    fn column(&self) -> usize {
        let line = self.out.rsplit('\n').next().unwrap_or("");
        line.chars().count()
    }

    fn newline(&mut self, indent: usize) {
        self.out.push('\n');
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    /// Writes an element at the current column (`indent` is where its
    /// lines continue); `suffix` characters must still fit after it.
    fn elem(&mut self, e: &Elem, indent: usize, suffix: usize) {
        match e {
            Elem::Comment { text, .. } => self.out.push_str(text),
            Elem::Item {
                node,
                comma,
                comment,
                ..
            } => {
                let suffix = if comment.is_some() {
                    usize::from(*comma)
                } else {
                    suffix + usize::from(*comma)
                };
                self.node(node, indent, suffix);
                if *comma {
                    self.out.push(',');
                }
                if let Some(c) = comment {
                    self.out.push(' ');
                    self.out.push_str(c);
                }
            }
        }
    }

    fn node(&mut self, node: &Node, indent: usize, suffix: usize) {
        let col = self.column();
        if let Some(w) = flat_width(node) {
            if col + w + suffix <= self.width || matches!(node, Node::Atom(_)) {
                self.flat(node);
                return;
            }
        }
        let Node::List(elems) = node else { return };
        self.broken(elems, col.max(indent), suffix);
    }

    fn flat(&mut self, node: &Node) {
        match node {
            Node::Atom(a) => self.out.push_str(a),
            Node::List(elems) => {
                self.out.push('(');
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        self.out.push(' ');
                    }
                    if let Elem::Item { node, comma, .. } = e {
                        self.flat(node);
                        if *comma {
                            self.out.push(',');
                        }
                    }
                }
                self.out.push(')');
            }
        }
    }

    /// A list over several lines, its `(` at column `col`.
    fn broken(&mut self, elems: &[Elem], col: usize, suffix: usize) {
        self.out.push('(');
        if elems.iter().all(|e| {
            matches!(
                e,
                Elem::Item {
                    node: Node::Atom(_),
                    comment: None,
                    ..
                }
            )
        }) {
            self.fill(elems, col + 1, suffix);
            return;
        }
        let last = elems.len().saturating_sub(1);
        // Where the items after the first line go, and how many elements
        // the first line took.
        let (indent, mut next) = match elems.first() {
            None => (col + 1, 0),
            Some(Elem::Comment { .. }) => {
                self.newline(col + 1);
                (col + 1, 0)
            }
            Some(
                first @ Elem::Item {
                    node: Node::Atom(head),
                    ..
                },
            ) => self.first_line(elems, first, head, col, suffix),
            Some(first) => {
                let before = self.out.len();
                self.elem(first, col + 1, if last == 0 { suffix + 1 } else { 0 });
                let one_line = !self.out[before..].contains('\n');
                (
                    col + 1,
                    1 + if one_line {
                        self.atoms_after(elems, 1, suffix)
                    } else {
                        0
                    },
                )
            }
        };
        let mut first_on_line = next == 0;
        while next < elems.len() {
            let e = &elems[next];
            if !first_on_line {
                if blank_before(e) {
                    self.out.push('\n');
                }
                self.newline(indent);
            }
            first_on_line = false;
            let tail = if next == last { suffix + 1 } else { 0 };
            self.elem(e, indent, tail);
            next += 1;
        }
        if ends_in_comment(elems) {
            self.newline(col);
        }
        self.out.push(')');
    }

    /// A list of atoms alone (`(RANK (ACE, TWO, ...))`): as many on a line
    /// as fit, the lines after the first aligned under the first atom.
    fn fill(&mut self, elems: &[Elem], indent: usize, suffix: usize) {
        let last = elems.len().saturating_sub(1);
        for (i, e) in elems.iter().enumerate() {
            let Elem::Item { node, comma, .. } = e else {
                continue;
            };
            let tail = if i == last { suffix + 1 } else { 0 };
            let w = flat_width(node).unwrap_or(0) + usize::from(*comma) + tail;
            if i > 0 {
                if self.column() + 1 + w > self.width {
                    self.newline(indent);
                } else {
                    self.out.push(' ');
                }
            }
            self.elem(e, indent, tail);
        }
        self.out.push(')');
    }

    /// Writes on the current line the atoms from `elems[from]` on that fit
    /// there (`((neighbour 'T 'D) vloc ROBOT)`); returns how many.
    fn atoms_after(&mut self, elems: &[Elem], from: usize, suffix: usize) -> usize {
        let last = elems.len() - 1;
        if elems.get(from - 1).is_some_and(has_comment) {
            return 0;
        }
        let mut n = 0;
        while let Some(
            e @ Elem::Item {
                node: Node::Atom(a),
                comma,
                ..
            },
        ) = elems.get(from + n)
        {
            let tail = if from + n == last { suffix + 1 } else { 0 };
            if self.column() + 1 + a.chars().count() + usize::from(*comma) + tail > self.width {
                break;
            }
            self.out.push(' ');
            self.elem(e, 0, tail);
            n += 1;
            if has_comment(e) {
                break;
            }
        }
        n
    }

    /// Writes the head, the atoms after it and, for an aligned list, its
    /// first list argument; returns the items' column and how many
    /// elements were written.
    fn first_line(
        &mut self,
        elems: &[Elem],
        first: &Elem,
        head: &str,
        col: usize,
        suffix: usize,
    ) -> (usize, usize) {
        let last = elems.len() - 1;
        self.elem(first, col + 1, if last == 0 { suffix + 1 } else { 0 });
        let aligned = col + 2 + head.chars().count();
        // A block's items go under it; so do a deep list's (from the
        // middle of the line on), whose first list argument may stay on
        // the first line if it fits there.
        let block = BLOCKS.contains(&head);
        let deep = aligned > col + self.width / 3 || col >= self.width / 2;
        let indent = if block || deep { col + INDENT } else { aligned };
        let mut next = 1;
        if has_comment(first) {
            return (indent, next);
        }
        // The atoms after the head and, in an aligned list, one list.
        let mut lists = 0;
        while let Some(e @ Elem::Item { node, comma, .. }) = elems.get(next) {
            let is_list = matches!(node, Node::List(_));
            if is_list && (block || lists > 0) {
                break;
            }
            let tail = if next == last { suffix + 1 } else { 0 };
            let fits = flat_width(node)
                .is_some_and(|w| self.column() + 1 + w + usize::from(*comma) + tail <= self.width);
            // A list that does not fit may still start here, broken.
            let hang = is_list && lists == 0 && !deep;
            if !(fits || hang) {
                break;
            }
            self.out.push(' ');
            let here = self.column();
            self.elem(e, here, tail);
            next += 1;
            lists += usize::from(is_list);
            if !fits || has_comment(e) {
                break;
            }
        }
        (indent, next)
    }
}

fn has_comment(e: &Elem) -> bool {
    matches!(
        e,
        Elem::Comment { .. }
            | Elem::Item {
                comment: Some(_),
                ..
            }
    )
}

fn ends_in_comment(elems: &[Elem]) -> bool {
    elems.last().is_some_and(has_comment)
}
