//! Lowering of cards, card collections (locations and the forms computed
//! from them) and collections of card collections (`partition`, `tuples`,
//! `runs`, `subsets`, `(all ... CARDS)`).

use super::classify::{storage_kind, StorageKind};
use super::context::Lowerer;
use super::messages::{E_CARD, E_CARDS, E_COLLECTIONS};
use crate::ir::{
    CardExpr, CardsExpr, CollectionsExpr, LocKind, LocationExpr, NameRef, Pos, ValueType,
};
use crate::syntax::SExpr;

fn no_cards() -> CardsExpr {
    CardsExpr::Union(Vec::new())
}

fn no_card() -> CardExpr {
    CardExpr::At(Pos::Top, Box::new(no_cards()))
}

fn no_collections() -> CollectionsExpr {
    CollectionsExpr::Subsets(Box::new(no_cards()))
}

/// `top` or `bottom` as a position.
fn end_pos(word: &str) -> Option<Pos> {
    match word {
        "top" => Some(Pos::Top),
        "bottom" => Some(Pos::Bottom),
        _ => None,
    }
}

/// Whether `items` is `(N X)` with N a number, variable or form (not a
/// keyword) and X not `player`/`team`: a position in a collection.
fn is_index_form(items: &[SExpr]) -> bool {
    matches!(items, [n, x]
        if !matches!(n, SExpr::Name(..) | SExpr::Op(..))
            && !matches!(x.as_name(), Some("player") | Some("team")))
}

impl Lowerer {
    /// A card.
    pub(super) fn card(&mut self, e: &SExpr) -> CardExpr {
        if let Some(x) = self.inline(e, Some(ValueType::Card), Lowerer::card) {
            return x;
        }
        match e {
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::Card, &E_CARD)
                .map(CardExpr::Var)
                .unwrap_or_else(no_card),
            SExpr::List(items, _) => self.card_list(e, items),
            _ => {
                self.wrong(e, &E_CARD);
                no_card()
            }
        }
    }

    fn card_list(&mut self, e: &SExpr, items: &[SExpr]) -> CardExpr {
        let head = items.first().and_then(SExpr::as_name).unwrap_or("");
        if let (Some(pos), 2) = (end_pos(head), items.len()) {
            return CardExpr::At(pos, Box::new(self.cards(&items[1])));
        }
        if is_index_form(items) {
            let n = self.int(&items[0]);
            return CardExpr::At(Pos::Index(Box::new(n)), Box::new(self.cards(&items[1])));
        }
        match head {
            "max" | "min" if items.len() <= 3 && self.kind_of(e) == Some(ValueType::Int) => {
                // `(max INTS)`, `(max A B)`: an integer, not a card.
                self.wrong(e, &E_CARD);
                no_card()
            }
            "max" | "min" => {
                let shape = if head == "max" {
                    "(max CARDS using POINTS)"
                } else {
                    "(min CARDS using POINTS)"
                };
                if !self.shape(e, items, 4, 2, shape) {
                    return no_card();
                }
                let cards = Box::new(self.cards(&items[1]));
                let points = self.points(&items[3]);
                if head == "max" {
                    CardExpr::Max(cards, points)
                } else {
                    CardExpr::Min(cards, points)
                }
            }
            "actual" => {
                if !self.arity(e, items, 1, "one card") {
                    return no_card();
                }
                CardExpr::Actual(Box::new(self.card(&items[1])))
            }
            "last" => {
                if items.len() != 2 || items[1].as_name() != Some("moved") {
                    self.error(e.span(), "`last` is written `(last moved)`");
                    return no_card();
                }
                CardExpr::LastMoved
            }
            _ => {
                self.wrong(e, &E_CARD);
                no_card()
            }
        }
    }

    /// A card collection.
    pub(super) fn cards(&mut self, e: &SExpr) -> CardsExpr {
        if let Some(x) = self.inline(e, Some(ValueType::Cards), Lowerer::cards) {
            return x;
        }
        match e {
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::Cards, &E_CARDS)
                .map(CardsExpr::Var)
                .unwrap_or_else(no_cards),
            SExpr::List(items, _) => self.cards_list(e, items),
            _ => {
                self.wrong(e, &E_CARDS);
                no_cards()
            }
        }
    }

    fn cards_list(&mut self, e: &SExpr, items: &[SExpr]) -> CardsExpr {
        if let Some(StorageKind::Location(kind)) = storage_kind(items) {
            return CardsExpr::Location(self.location(items, kind));
        }
        let head = items.first().and_then(SExpr::as_name).unwrap_or("");
        if let Some(pos) = end_pos(head) {
            match items {
                [_, source] => return self.pick(e, pos, source),
                [_, count, source] => {
                    let count = Box::new(self.int(count));
                    let source = Box::new(self.cards(source));
                    return CardsExpr::Sequence {
                        top: head == "top",
                        count,
                        source,
                    };
                }
                _ => {
                    self.error(
                        e.span(),
                        format!("`{head}` is written `({head} CARDS)` for one card or `({head} N CARDS)` for N cards"),
                    );
                    return no_cards();
                }
            }
        }
        if is_index_form(items) {
            let n = self.int(&items[0]);
            return self.pick(e, Pos::Index(Box::new(n)), &items[1]);
        }
        match head {
            "union" | "intersect" | "disjunction" => self.set_op(e, head, items),
            "sort" => {
                if !self.shape(e, items, 4, 2, "(sort CARDS using POINTS)") {
                    return no_cards();
                }
                let cards = Box::new(self.cards(&items[1]));
                CardsExpr::Sort(cards, self.points(&items[3]))
            }
            "filter" => {
                let Some(parts) = self.binder_parts(e, items) else {
                    return no_cards();
                };
                let source = self.cards(parts.0);
                let var = self.bind(parts.1, Some(ValueType::Card), "filter");
                let body = self.boolean(parts.2);
                self.pop_var();
                CardsExpr::Filter(Box::new(source), var, Box::new(body))
            }
            "run" => {
                let shape = "(run top|bottom N CARDS using POINTS)";
                if !self.shape(e, items, 6, 4, shape) {
                    return no_cards();
                }
                let top = match items[1].as_name() {
                    Some("top") => true,
                    Some("bottom") => false,
                    _ => {
                        self.error(items[1].span(), format!("`run` is written `{shape}`"));
                        true
                    }
                };
                let min = Box::new(self.int(&items[2]));
                let source = Box::new(self.cards(&items[3]));
                let points = self.points(&items[5]);
                CardsExpr::RunFrom {
                    top,
                    min,
                    source,
                    points,
                }
            }
            _ => {
                self.wrong(e, &E_CARDS);
                no_cards()
            }
        }
    }

    /// `(top X)` in card-collection position: X must be a collection of
    /// collections (else `(top X)` is a card).
    fn pick(&mut self, e: &SExpr, pos: Pos, source: &SExpr) -> CardsExpr {
        match self.kind_of(source) {
            Some(ValueType::CardsCollection) => {
                CardsExpr::Pick(pos, Box::new(self.collections(source)))
            }
            _ => {
                self.wrong(e, &E_CARDS);
                no_cards()
            }
        }
    }

    /// `(union CARDS...)` or `(union (all ...))`, and `intersect`,
    /// `disjunction`.
    fn set_op(&mut self, e: &SExpr, head: &str, items: &[SExpr]) -> CardsExpr {
        let args = items.get(1..).unwrap_or(&[]);
        if args.is_empty() {
            self.error(
                e.span(),
                format!("`{head}` takes one or more card collections, found none"),
            );
            return no_cards();
        }
        if let [only] = args {
            if self.kind_of(only) == Some(ValueType::CardsCollection) {
                let all = Box::new(self.collections(only));
                return match head {
                    "union" => CardsExpr::UnionAll(all),
                    "intersect" => CardsExpr::IntersectAll(all),
                    _ => CardsExpr::DisjunctionAll(all),
                };
            }
        }
        let parts = args.iter().map(|a| self.cards(a)).collect();
        match head {
            "union" => CardsExpr::Union(parts),
            "intersect" => CardsExpr::Intersect(parts),
            _ => CardsExpr::Disjunction(parts),
        }
    }

    /// `(OWNER KIND NAME)` (the caller checked the shape). A computed NAME
    /// whose names the file fixes (a variable bound to a declared list of
    /// names) makes a location of each of them, so that the name finds its
    /// location while playing.
    pub(super) fn location(&mut self, items: &[SExpr], kind: LocKind) -> LocationExpr {
        let owner = self.owner(&items[0]);
        let name = match &items[2] {
            SExpr::Name(n, span) => NameRef::Fixed(self.loc_name(kind, n, *span)),
            other => {
                let name = NameRef::Dynamic(Box::new(self.string(other)));
                for sym in self.names_of(other).unwrap_or_default() {
                    let n = self.symbols[sym as usize].clone();
                    self.loc_name(kind, &n, other.span());
                }
                name
            }
        };
        LocationExpr { owner, kind, name }
    }

    /// A collection of card collections.
    pub(super) fn collections(&mut self, e: &SExpr) -> CollectionsExpr {
        if let Some(x) = self.inline(e, Some(ValueType::CardsCollection), Lowerer::collections) {
            return x;
        }
        match e {
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::CardsCollection, &E_COLLECTIONS)
                .map(CollectionsExpr::Var)
                .unwrap_or_else(no_collections),
            SExpr::List(items, _) => self.collections_list(e, items),
            _ => {
                self.wrong(e, &E_COLLECTIONS);
                no_collections()
            }
        }
    }

    fn collections_list(&mut self, e: &SExpr, items: &[SExpr]) -> CollectionsExpr {
        let head = items.first().and_then(SExpr::as_name).unwrap_or("");
        match head {
            "tuples" => {
                if !self.shape(e, items, 5, 3, "(tuples N CARDS using POINTS)") {
                    return no_collections();
                }
                let size = Box::new(self.int(&items[1]));
                let source = Box::new(self.cards(&items[2]));
                let points = self.points(&items[4]);
                CollectionsExpr::Tuples {
                    size,
                    source,
                    points,
                }
            }
            "partition" => {
                if items.len() < 3 {
                    self.error(
                        e.span(),
                        "`partition` is written `(partition ATTRIBUTE CARDS...)`",
                    );
                    return no_collections();
                }
                let attr = Box::new(self.string(&items[1]));
                if let [only] = &items[2..] {
                    if self.kind_of(only) == Some(ValueType::CardsCollection) {
                        let source = Box::new(self.collections(only));
                        return CollectionsExpr::PartitionAll { attr, source };
                    }
                }
                let sources = items[2..].iter().map(|s| self.cards(s)).collect();
                CollectionsExpr::Partition { attr, sources }
            }
            "subsets" => {
                if !self.arity(e, items, 1, "one card collection") {
                    return no_collections();
                }
                CollectionsExpr::Subsets(Box::new(self.cards(&items[1])))
            }
            "runs" => {
                let shape = "(runs largest|all N CARDS using POINTS)";
                if !self.shape(e, items, 6, 4, shape) {
                    return no_collections();
                }
                let largest = match items[1].as_name() {
                    Some("largest") => true,
                    Some("all") => false,
                    _ => {
                        self.error(items[1].span(), format!("`runs` is written `{shape}`"));
                        true
                    }
                };
                let min = Box::new(self.int(&items[2]));
                let source = Box::new(self.cards(&items[3]));
                let points = self.points(&items[5]);
                CollectionsExpr::Runs {
                    largest,
                    min,
                    source,
                    points,
                }
            }
            "all" => {
                let Some((over, var, body)) = self.open_binder(e, items) else {
                    return no_collections();
                };
                let body = Box::new(self.cards(body));
                self.pop_var();
                CollectionsExpr::All {
                    over: Box::new(over),
                    var,
                    body,
                }
            }
            _ => {
                self.wrong(e, &E_COLLECTIONS);
                no_collections()
            }
        }
    }
}
