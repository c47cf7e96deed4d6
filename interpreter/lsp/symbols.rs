//! The names of a rules file and every place each is written, for go to
//! definition, find references and hover: declared names (`'NAME` of
//! `declare`), definitions (`define`), locations and storages (the NAME
//! of `(OWNER KIND NAME)`, one per kind and name: `(P iloc HAND)` and
//! `(P vloc HAND)` are two locations), boards (`create board`) and named
//! choices (`(choice NAME ...)`, used by `legal`).
//!
//! Where a name is defined:
//! - a declared name: its `declare`; a definition: its `define`; a board:
//!   its `create board`; a named choice: its `choice`;
//! - a location or storage, which RECYCLE makes the first time it is
//!   named: the first place the `setup` writes it (where the decks are
//!   made), else the first place the file writes it.
//!
//! Read with the forgiving [`super::reader`], so it answers on a file
//! being typed. Only names written out are seen: a location named through
//! a variable (`('P hloc 'L)`, section 6.1 of the language) is not.

use crate::diagnostic::Span;
use crate::syntax::SExpr;

/// What a name names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// `(declare VALUE 'NAME)`: the name without its quote.
    Declared(String),
    /// `(define (NAME ...) BODY)`.
    Defined(String),
    /// `(OWNER KIND NAME)`: the kind's word and the name.
    Place(String, String),
    /// `(create board NAME SHAPE)`.
    Board(String),
    /// `(choice NAME ...)`.
    Choice(String),
}

impl Key {
    /// The name as the file writes it (a declared name with its quote).
    pub fn name(&self) -> String {
        match self {
            Key::Declared(n) => format!("'{n}"),
            Key::Defined(n) | Key::Place(_, n) | Key::Board(n) | Key::Choice(n) => n.clone(),
        }
    }

    /// What it is, in a few words.
    pub fn describe(&self) -> String {
        match self {
            Key::Declared(_) => "declared name".to_string(),
            Key::Defined(_) => "definition".to_string(),
            Key::Place(kind, _) => match kind.as_str() {
                "vloc" => "location (vloc: seen by everyone)".to_string(),
                "iloc" => "location (iloc: seen by its owner only)".to_string(),
                "hloc" => "location (hloc: seen by nobody)".to_string(),
                "oloc" => "location (oloc: seen by everyone but its owner)".to_string(),
                "mem" => "memory (mem: copies of cards, seen by everyone)".to_string(),
                "sto" => "integer storage (sto)".to_string(),
                "str" => "string storage (str)".to_string(),
                _ => "point map (points)".to_string(),
            },
            Key::Board(_) => "board".to_string(),
            Key::Choice(_) => "named choice".to_string(),
        }
    }
}

/// The kinds of `(OWNER KIND NAME)`.
pub const KINDS: [&str; 8] = [
    "vloc", "iloc", "hloc", "oloc", "mem", "sto", "str", "points",
];

/// One place a name is written.
#[derive(Clone, Debug)]
pub struct Occurrence {
    /// What it names.
    pub key: Key,
    /// The name's span (a declared name's with its quote).
    pub at: Span,
    /// The form that gives it (the `declare`, `define`, `create board`
    /// or `choice`), for one that defines it.
    pub form: Option<Span>,
    /// Written inside the `setup`.
    pub in_setup: bool,
}

/// Every name of a file and where it is written, in source order.
pub struct Index {
    /// The occurrences, in source order.
    pub all: Vec<Occurrence>,
}

impl Index {
    /// The index of `source`.
    pub fn of(source: &str) -> Index {
        let forms = super::reader::read(source);
        let mut boards = Vec::new();
        for f in &forms {
            find_boards(f, &mut boards);
        }
        let mut all = Vec::new();
        for f in &forms {
            walk(f, false, &[], &boards, &mut all);
        }
        // A variable no `declare` gives, or a list of strings read as a
        // use, names nothing here.
        let given: std::collections::HashSet<Key> = all
            .iter()
            .filter(|o| o.form.is_some())
            .map(|o| o.key.clone())
            .collect();
        all.retain(|o| match &o.key {
            Key::Declared(_) | Key::Defined(_) => given.contains(&o.key),
            _ => true,
        });
        all.sort_by_key(|o| o.at.start);
        Index { all }
    }

    /// The occurrence under byte `offset` (its name's span holds it, the
    /// end included, so a cursor just after a name finds it).
    pub fn at(&self, offset: usize) -> Option<&Occurrence> {
        let offset = offset as u32;
        self.all
            .iter()
            .find(|o| o.at.start <= offset && offset <= o.at.end)
    }

    /// Where `key` is defined (see the module's documentation).
    pub fn definition(&self, key: &Key) -> Option<&Occurrence> {
        let mut same = self.all.iter().filter(|o| &o.key == key);
        match key {
            Key::Place(..) => {
                let first = self.all.iter().find(|o| &o.key == key && o.in_setup);
                first.or_else(|| same.next())
            }
            _ => same.find(|o| o.form.is_some()),
        }
    }

    /// Every place `key` is written.
    pub fn references<'a>(&'a self, key: &'a Key) -> impl Iterator<Item = &'a Occurrence> + 'a {
        self.all.iter().filter(move |o| &o.key == key)
    }

    /// The names of one sort, each once, in order of first appearance.
    pub fn keys(&self, keep: impl Fn(&Key) -> bool) -> Vec<&Key> {
        let mut out: Vec<&Key> = Vec::new();
        for o in &self.all {
            if keep(&o.key) && !out.contains(&&o.key) {
                out.push(&o.key);
            }
        }
        out
    }
}

fn find_boards(form: &SExpr, out: &mut Vec<String>) {
    if let SExpr::List(items, _) = form {
        if let [SExpr::Name(create, _), SExpr::Name(board, _), SExpr::Name(name, _), ..] =
            items.as_slice()
        {
            if create == "create" && board == "board" {
                out.push(name.clone());
            }
        }
        items.iter().for_each(|i| find_boards(i, out));
    }
}

fn push(out: &mut Vec<Occurrence>, key: Key, at: Span, form: Option<Span>, in_setup: bool) {
    out.push(Occurrence {
        key,
        at,
        form,
        in_setup,
    });
}

/// Walks `form`; `params` are the parameters of the `define` it is in.
fn walk(
    form: &SExpr,
    in_setup: bool,
    params: &[String],
    boards: &[String],
    out: &mut Vec<Occurrence>,
) {
    let items = match form {
        SExpr::List(items, _) => items,
        SExpr::Var(name, _) if params.contains(name) => return,
        SExpr::Var(name, at) => {
            return push(out, Key::Declared(name.clone()), *at, None, in_setup);
        }
        SExpr::Name(name, at) if boards.contains(name) => {
            return push(out, Key::Board(name.clone()), *at, None, in_setup);
        }
        _ => return,
    };
    let span = form.span();
    let head = form.head().unwrap_or("");
    let in_setup = in_setup || head == "setup";
    let mut rest: &[SExpr] = items;
    let mut own: Vec<String> = Vec::new();
    match items.as_slice() {
        [SExpr::Name(h, _), _, SExpr::Var(name, at)] if h == "declare" => {
            push(out, Key::Declared(name.clone()), *at, Some(span), in_setup);
            rest = &items[1..2];
        }
        [SExpr::Name(h, _), SExpr::List(sig, _), body @ ..] if h == "define" => {
            if let Some(SExpr::Name(name, at)) = sig.first() {
                push(out, Key::Defined(name.clone()), *at, Some(span), in_setup);
            }
            // The parameters are the definition's own, not declared names.
            own = sig
                .iter()
                .filter_map(|p| match p {
                    SExpr::Var(v, _) => Some(v.clone()),
                    _ => None,
                })
                .collect();
            rest = body;
        }
        [SExpr::Name(c, _), SExpr::Name(b, _), SExpr::Name(name, at), shape @ ..]
            if c == "create" && b == "board" =>
        {
            push(out, Key::Board(name.clone()), *at, Some(span), in_setup);
            rest = shape;
        }
        [SExpr::Name(c, _), SExpr::Name(name, at), more @ ..] if c == "choice" => {
            push(out, Key::Choice(name.clone()), *at, Some(span), in_setup);
            rest = more;
        }
        [SExpr::Name(l, _), SExpr::Name(name, at), more @ ..] if l == "legal" => {
            push(out, Key::Choice(name.clone()), *at, None, in_setup);
            rest = more;
        }
        [owner, SExpr::Name(kind, _), SExpr::Name(name, at)]
            if KINDS.contains(&kind.as_str()) && !matches!(owner, SExpr::Op(..)) =>
        {
            push(
                out,
                Key::Place(kind.clone(), name.clone()),
                *at,
                None,
                in_setup,
            );
            rest = &items[..1];
        }
        [SExpr::Name(name, at), args @ ..] if is_definition_name(name) => {
            push(out, Key::Defined(name.clone()), *at, None, in_setup);
            rest = args;
        }
        _ => {}
    }
    let params = if own.is_empty() { params } else { &own };
    for item in rest {
        walk(item, in_setup, params, boards, out);
    }
}

/// Whether a list's head may be a use of a definition: a word that is not
/// one of the language's lowercase keywords. Occurrences of a name no
/// `define` gives are kept but lead nowhere.
fn is_definition_name(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "(game (declare 4 'N) (define (FULL 'P) (== ('P sto MARKS) 'N))
 (setup (create players 2) (create board GRID (grid 3 3))
        (create deck (game iloc STOCK) (deck (RANK (A, B)))))
 (stage player (end (FULL (current player)))
  (choice PLAY ((any (spaces GRID) 'S (move (top (game iloc STOCK)) (top ('S vloc CELL))))))
  (choice ((legal PLAY) (inc ((current player) sto MARKS) 1)))))";

    fn text<'a>(o: &Occurrence) -> &'a str {
        &GAME[o.at.start as usize..o.at.end as usize]
    }

    #[test]
    fn names_and_their_definitions() {
        let index = Index::of(GAME);
        let stock = Key::Place("iloc".into(), "STOCK".into());
        let refs: Vec<_> = index.references(&stock).collect();
        assert_eq!(refs.len(), 2);
        let def = index.definition(&stock).unwrap();
        assert!(def.in_setup && text(def) == "STOCK" && def.at == refs[0].at);
        let marks = Key::Place("sto".into(), "MARKS".into());
        // Not in the setup: the first place written.
        assert_eq!(
            index.definition(&marks).unwrap().at,
            index.references(&marks).next().unwrap().at
        );
        assert_eq!(index.references(&Key::Board("GRID".into())).count(), 2);
        assert_eq!(index.references(&Key::Choice("PLAY".into())).count(), 2);
        assert_eq!(index.references(&Key::Defined("FULL".into())).count(), 2);
        // 'N: its declare and one use; 'P is a parameter, its own.
        assert_eq!(index.references(&Key::Declared("N".into())).count(), 2);
        let full = index.definition(&Key::Defined("FULL".into())).unwrap();
        assert!(GAME[full.form.unwrap().start as usize..].starts_with("(define (FULL"));
        let at = GAME.find("CELL").unwrap() + 2;
        assert_eq!(
            index.at(at).unwrap().key,
            Key::Place("vloc".into(), "CELL".into())
        );
    }
}
