//! Guessing what kind of value a form is, from its shape and the types of
//! the variables in scope, without lowering it. Used where RECYCLE leaves
//! the kind to the operands: `==`/`!=`, the value of `let` and `declare`,
//! `(top X)` (a card, or one collection of a collection of collections), a
//! collection in `any`/`all`/`size`, and the body of `all`.

use super::context::Lowerer;
use crate::ir::{LocKind, ValueType};
use crate::syntax::SExpr;

/// Every word that begins a form (so a list of such words is not a list
/// of strings, and an unknown head can be reported as unknown).
pub(super) const EXPRESSION_WORDS: &[&str] = &[
    "size",
    "mod",
    "bitand",
    "bitor",
    "bitxor",
    "shl",
    "shr",
    "tri",
    "fib",
    "abs",
    "sign",
    "rem",
    "clamp",
    "random",
    "sum",
    "score",
    "cardatt",
    "max",
    "min",
    "actual",
    "last",
    "top",
    "bottom",
    "current",
    "next",
    "previous",
    "owner",
    "team",
    "other",
    "range",
    "union",
    "intersect",
    "disjunction",
    "sort",
    "run",
    "filter",
    "tuples",
    "partition",
    "subsets",
    "runs",
    "all",
    "any",
    "and",
    "or",
    "not",
    "game",
    "player",
    // boards and spaces (cardboard's extensions)
    "space",
    "spaces",
    "where",
    "neighbour",
    "after",
    "before",
    "group",
    "line",
    "around",
    "onboard",
    "legal",
    "index",
    "row",
    "col",
    "rows",
    "cols",
    "first",
    "rotate",
    // shorthands (docs/language.md section 12)
    "if",
    "inrow",
    "step",
];

/// Every word that begins an action.
pub(super) const ACTION_WORDS: &[&str] = &[
    "move", "remember", "forget", "shuffle", "set", "inc", "dec", "cycle", "turn", "repeat",
    "create", "put", "do", "any", "all", "let", "require", "chain", "announce", "sow", "place",
];

/// Words of the game's structure.
pub(super) const STRUCTURE_WORDS: &[&str] = &[
    "define", "else", "choice", "stage", "end", "setup", "scoring", "declare", "deck", "game",
    "board", "track", "grid", "hex", "wrap", "display", "hexagon", "graph",
];

/// The kind of a `(OWNER WORD NAME)` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StorageKind {
    /// `sto`.
    Int,
    /// `str`.
    Str,
    /// `points`.
    Points,
    /// `vloc`, `iloc`, `hloc`, `oloc`, `mem`.
    Location(LocKind),
}

/// The first word of a list, whether a name (`move`) or an operator (`==`).
pub(super) fn head_word(items: &[SExpr]) -> Option<&str> {
    match items.first() {
        Some(SExpr::Name(n, _)) | Some(SExpr::Op(n, _)) => Some(n),
        _ => None,
    }
}

/// The location kind of a word.
pub(super) fn loc_kind(word: &str) -> Option<LocKind> {
    match word {
        "vloc" => Some(LocKind::Visible),
        "iloc" => Some(LocKind::Invisible),
        "hloc" => Some(LocKind::Hidden),
        "oloc" => Some(LocKind::Others),
        "mem" => Some(LocKind::Memory),
        _ => None,
    }
}

/// `(OWNER sto|str|points|vloc|... NAME)`: which kind, if the list has
/// that shape.
pub(super) fn storage_kind(items: &[SExpr]) -> Option<StorageKind> {
    if items.len() != 3 || matches!(items.first(), Some(SExpr::Op(..))) {
        return None;
    }
    let word = items.get(1)?.as_name()?;
    match word {
        "sto" => Some(StorageKind::Int),
        "str" => Some(StorageKind::Str),
        "points" => Some(StorageKind::Points),
        _ => loc_kind(word).map(StorageKind::Location),
    }
}

/// Whether a word is one that begins a form or an action.
pub(super) fn is_keyword(word: &str) -> bool {
    EXPRESSION_WORDS.contains(&word)
        || ACTION_WORDS.contains(&word)
        || STRUCTURE_WORDS.contains(&word)
}

/// `(ACE, TWO, THREE)` or `(HEARTS)`: a list of bare names none of which
/// is a keyword (so `(currnet player)` is a misspelt form, not strings).
pub(super) fn is_string_list(items: &[SExpr]) -> bool {
    !items.is_empty()
        && items
            .iter()
            .all(|i| matches!(i, SExpr::Name(n, _) if !is_keyword(n)))
}

/// The element type of a collection type (`None` for non-collections).
/// A team used as a collection holds players.
pub(super) fn element_type(ty: ValueType) -> Option<ValueType> {
    match ty {
        ValueType::Cards => Some(ValueType::Card),
        ValueType::CardsCollection => Some(ValueType::Cards),
        ValueType::Players | ValueType::Team => Some(ValueType::Player),
        ValueType::Teams => Some(ValueType::Team),
        ValueType::Strs => Some(ValueType::Str),
        ValueType::Ints => Some(ValueType::Int),
        ValueType::Spaces => Some(ValueType::Space),
        _ => None,
    }
}

impl Lowerer {
    /// What kind of value `e` is, judged by its shape; `None` when it
    /// cannot be told (an unknown form, an unbound variable, an operator).
    pub(super) fn kind_of(&self, e: &SExpr) -> Option<ValueType> {
        match e {
            SExpr::Int(..) => Some(ValueType::Int),
            SExpr::Var(name, _) => self.lookup(name).and_then(|(_, ty)| ty),
            SExpr::Name(n, _) => match n.as_str() {
                "player" => Some(ValueType::Players),
                "team" => Some(ValueType::Teams),
                _ => Some(ValueType::Str),
            },
            SExpr::Op(..) | SExpr::Text(..) => None,
            SExpr::List(items, _) => self.kind_of_list(items),
        }
    }

    fn kind_of_list(&self, items: &[SExpr]) -> Option<ValueType> {
        if let Some(kind) = self.call_kind(items) {
            return kind;
        }
        if let Some(kind) = storage_kind(items) {
            return match kind {
                StorageKind::Int => Some(ValueType::Int),
                StorageKind::Str => Some(ValueType::Str),
                StorageKind::Points => None,
                StorageKind::Location(_) => Some(ValueType::Cards),
            };
        }
        let second = items.get(1).and_then(SExpr::as_name);
        let Some(head) = head_word(items) else {
            // `(N player)`, `(N team)`, `(N CARDS)` with N a number, a
            // variable or a form.
            if items.len() == 2 {
                return match second {
                    Some("player") => Some(ValueType::Player),
                    Some("team") => Some(ValueType::Team),
                    _ => self.kind_of_pick(items.get(1)),
                };
            }
            return None;
        };
        use ValueType as T;
        match head {
            "size" | "+" | "-" | "*" | "//" | "%" | "mod" | "^" | "tri" | "fib" | "random"
            | "sum" | "score" | "index" | "row" | "col" | "rows" | "cols" | "first" | "around"
            | "bitand" | "bitor" | "bitxor" | "shl" | "shr" | "abs" | "sign" | "rem" | "clamp" => {
                Some(T::Int)
            }
            "cardatt" | "rotate" => Some(T::Str),
            // `(max CARDS using POINTS)` is a card; `(max INTS)` an integer.
            "max" | "min" if items.len() == 2 => match items.get(1).and_then(|c| self.kind_of(c)) {
                Some(T::Cards | T::CardsCollection) => Some(T::Card),
                _ => Some(T::Int),
            },
            "max" | "min" if items.len() == 4 && matches!(items[2], SExpr::Var(..)) => Some(T::Int),
            "max" | "min"
                if items.len() == 3
                    && !items[1..]
                        .iter()
                        .any(|i| self.kind_of(i).is_some_and(|k| element_type(k).is_some())) =>
            {
                Some(T::Int)
            }
            "max" | "min" | "actual" | "last" => Some(T::Card),
            "space" | "where" | "neighbour" | "after" | "before" => Some(T::Space),
            "spaces" | "group" | "line" => Some(T::Spaces),
            "onboard" | "legal" | "inrow" => Some(T::Bool),
            "step" => Some(T::Space),
            "if" => items
                .get(2)
                .and_then(|a| self.kind_of(a))
                .or_else(|| items.get(3).and_then(|b| self.kind_of(b))),
            "top" | "bottom" => {
                if items.len() == 3 {
                    Some(T::Cards)
                } else {
                    self.kind_of_pick(items.get(1))
                }
            }
            "current" | "next" | "previous" => match second {
                Some("player") => Some(T::Player),
                Some("team") => Some(T::Team),
                _ => None,
            },
            "owner" => Some(T::Player),
            "team" => Some(T::Team),
            "other" => match second {
                Some("player") => Some(T::Players),
                Some("team") => Some(T::Teams),
                _ => None,
            },
            "range" => Some(T::Ints),
            "union" | "intersect" | "disjunction" | "sort" | "run" => Some(T::Cards),
            "filter" => match items.get(1).and_then(|c| self.kind_of(c)) {
                Some(T::Team) => Some(T::Players),
                other => other,
            },
            "tuples" | "partition" | "subsets" | "runs" => Some(T::CardsCollection),
            "all" => match items.get(3).and_then(|b| self.kind_of(b)) {
                Some(T::Cards) => Some(T::CardsCollection),
                Some(T::Int) => Some(T::Int),
                Some(T::Bool) => Some(T::Bool),
                _ => None,
            },
            // `(let VALUE 'V BOOL)` is a condition (as an action it is
            // lowered as one, never classified).
            "let" => match items.get(3).and_then(|b| self.kind_of(b)) {
                Some(T::Bool) => Some(T::Bool),
                _ => None,
            },
            "any" | "and" | "or" | "not" | "<" | ">" | "<=" | ">=" | "==" | "!=" => Some(T::Bool),
            _ if is_string_list(items) => Some(T::Strs),
            _ => None,
        }
    }

    /// `(top X)` / `(N X)`: one collection if X is a collection of
    /// collections, else a card.
    fn kind_of_pick(&self, source: Option<&SExpr>) -> Option<ValueType> {
        match source.and_then(|s| self.kind_of(s)) {
            Some(ValueType::CardsCollection) => Some(ValueType::Cards),
            _ => Some(ValueType::Card),
        }
    }
}
