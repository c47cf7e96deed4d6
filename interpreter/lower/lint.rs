//! The warnings of `cardboard check`: forms that compile but most likely
//! hold a typo, found on the syntax tree of a file that compiles. In
//! RECYCLE a location exists once it is named and a `cardatt` of any key
//! is a string, so a misspelt name is no error, only a silent one:
//!
//! - a location only ever read, never filled: no `move` or `remember`
//!   puts a card there and no `create deck` makes its cards there, so it
//!   is always empty (an option that moves from it is never offered);
//! - a `(cardatt KEY ...)` of a KEY no deck defines, which is never a
//!   value of any card (a condition on it is never true).
//!
//! Each warning names the closest name that is filled or defined, when
//! one is close ("did you mean"). The scan is conservative: where a
//! destination is not written out (a variable, a parameter of a
//! `define`), a location that may be bound to it is not warned about.

use super::messages::suggest;
use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::SExpr;
use std::collections::{BTreeMap, BTreeSet};

/// The words of location kinds in `(OWNER KIND NAME)`.
const LOC_KINDS: [&str; 5] = ["vloc", "iloc", "hloc", "oloc", "mem"];

/// The forms whose first operand may be bound to a variable: a location
/// written there may be filled through the variable.
const BINDERS: [&str; 5] = ["let", "any", "all", "chain", "filter"];

/// The warnings of a file's forms (one that compiles), in source order.
pub fn warnings(forms: &[SExpr]) -> Vec<Diagnostic> {
    let mut scan = Scan::default();
    for f in forms {
        scan.defines(f);
    }
    for f in forms {
        scan.walk(f, Ctx::default());
    }
    let mut out = Vec::new();
    let filled: Vec<&str> = scan.filled.iter().map(String::as_str).collect();
    for (name, span) in &scan.read {
        if scan.filled.contains(name)
            || (scan.dynamic && (scan.loose.contains(name) || scan.bound.contains(name)))
        {
            continue;
        }
        let mut d = Diagnostic::new(
            *span,
            format!(
                "the location `{name}` is read but never filled: no `move`, `remember` or \
                 `create deck` puts a card there, so it is always empty"
            ),
        );
        if let Some(close) = suggest(name, &filled) {
            d = d.with_note(format!("did you mean `{close}`?"));
        }
        out.push(d);
    }
    let keys: Vec<&str> = scan.keys.iter().map(String::as_str).collect();
    for (key, span) in &scan.attrs {
        if scan.keys.contains(key) {
            continue;
        }
        let mut d = Diagnostic::new(
            *span,
            format!(
                "no deck defines the card attribute `{key}`: `(cardatt {key} ...)` is never \
                 the value of a card"
            ),
        );
        if let Some(close) = suggest(key, &keys) {
            d = d.with_note(format!("did you mean `{close}`?"));
        }
        out.push(d);
    }
    out.sort_by_key(|d| (d.span.start, d.span.end));
    out
}

/// Where a form stands.
#[derive(Clone, Copy, Default)]
struct Ctx {
    /// In the destination of a `move` or `remember`, or where `create
    /// deck` makes its cards.
    dest: bool,
    /// Where a variable may be bound to it (a binder's first operand, an
    /// argument of a `define`d form).
    bound: bool,
}

#[derive(Default)]
struct Scan {
    /// The names of the `define`d forms.
    defined: BTreeSet<String>,
    /// Each location named, and where it is first named.
    read: BTreeMap<String, Span>,
    /// The locations named in a destination.
    filled: BTreeSet<String>,
    /// Whether some destination is not a location written out (a
    /// variable): it may fill any location bound to it.
    dynamic: bool,
    /// The locations named where a variable may be bound to them.
    bound: BTreeSet<String>,
    /// The names met anywhere else than as a location's name (a list of
    /// names may name locations through a variable).
    loose: BTreeSet<String>,
    /// The attribute keys the decks define.
    keys: BTreeSet<String>,
    /// Each `cardatt` of a key written out, and where.
    attrs: Vec<(String, Span)>,
}

impl Scan {
    /// Collects the names of `(define (NAME ...) BODY)`.
    fn defines(&mut self, e: &SExpr) {
        let Some(items) = e.as_list() else {
            return;
        };
        if e.head() == Some("define") {
            if let Some(name) = items.get(1).and_then(SExpr::head) {
                self.defined.insert(name.to_string());
            }
        }
        for item in items {
            self.defines(item);
        }
    }

    fn walk(&mut self, e: &SExpr, ctx: Ctx) {
        let items = match e {
            SExpr::List(items, _) => items.as_slice(),
            SExpr::Name(n, _) => {
                self.loose.insert(n.clone());
                return;
            }
            _ => {
                if ctx.dest {
                    // A variable where a location is put: unknown.
                    self.dynamic = true;
                }
                return;
            }
        };
        if let [owner, SExpr::Name(kind, _), name] = items {
            if LOC_KINDS.contains(&kind.as_str()) {
                match name {
                    SExpr::Name(n, span) => {
                        self.read.entry(n.clone()).or_insert(*span);
                        if ctx.dest {
                            self.filled.insert(n.clone());
                        }
                        if ctx.bound {
                            self.bound.insert(n.clone());
                        }
                    }
                    other => {
                        if ctx.dest {
                            self.dynamic = true;
                        }
                        self.walk(other, Ctx::default());
                    }
                }
                self.walk(owner, Ctx::default());
                return;
            }
        }
        let head = e.head().unwrap_or("");
        match (head, items) {
            ("move" | "remember", [_, from, to, rest @ ..]) => {
                self.walk(from, ctx);
                self.walk(to, Ctx { dest: true, ..ctx });
                for r in rest {
                    self.walk(r, ctx);
                }
            }
            // `(create deck LOC DECK)`, or with a name first (`(create
            // deck NAME LOC DECK)`, as some programs of the corpus write).
            ("create", [_, SExpr::Name(what, _), rest @ ..]) if what == "deck" => {
                for r in rest {
                    self.walk(r, Ctx { dest: true, ..ctx });
                }
            }
            ("deck", [_, dims @ ..]) => {
                for dim in dims {
                    self.dim_keys(dim);
                }
            }
            ("cardatt", [_, SExpr::Name(key, span), card]) => {
                self.attrs.push((key.clone(), *span));
                self.walk(card, ctx);
            }
            _ if BINDERS.contains(&head) => {
                for (i, item) in items.iter().enumerate() {
                    let bound = ctx.bound || i == 1;
                    self.walk(item, Ctx { bound, ..ctx });
                }
            }
            _ if self.defined.contains(head) => {
                for item in items {
                    self.walk(item, Ctx { bound: true, ..ctx });
                }
            }
            _ => {
                for item in items {
                    self.walk(item, ctx);
                }
            }
        }
    }

    /// The keys of a deck's attribute `(KEY (VALUE, ...))`, nested ones
    /// included.
    fn dim_keys(&mut self, dim: &SExpr) {
        let Some([SExpr::Name(key, _), groups @ ..]) = dim.as_list() else {
            return;
        };
        self.keys.insert(key.clone());
        for group in groups {
            for item in group.as_list().unwrap_or(&[]) {
                match item {
                    SExpr::Name(n, _) => {
                        self.loose.insert(n.clone());
                    }
                    SExpr::List(..) => self.dim_keys(item),
                    _ => {}
                }
            }
        }
    }
}
