//! Lowering of collections in the generic position (what `any`, `all`,
//! `filter` and `size` go over): players, teams, strings, integer ranges,
//! cards, collections of card collections and spaces; and the binding forms
//! `(any|all|filter COLLECTION 'V BODY)` whose variable takes the type of
//! the collection's items.

use super::classify::{element_type, head_word, is_string_list};
use super::context::Lowerer;
use super::messages::E_COLLECTION;
use crate::ir::{CardsExpr, CollectionExpr, CollectionsExpr, ValueType, VarId};
use crate::syntax::SExpr;

fn placeholder() -> (CollectionExpr, Option<ValueType>) {
    (CollectionExpr::Strings(Vec::new()), None)
}

impl Lowerer {
    /// A collection and the type of its items (`None` after an error).
    pub(super) fn collection(&mut self, e: &SExpr) -> (CollectionExpr, Option<ValueType>) {
        if let Some(x) = self.inline(e, None, Lowerer::collection) {
            return x;
        }
        use ValueType as T;
        match e {
            SExpr::Name(n, _) if n == "player" => (CollectionExpr::AllPlayers, Some(T::Player)),
            SExpr::Name(n, _) if n == "team" => (CollectionExpr::AllTeams, Some(T::Team)),
            SExpr::Var(name, span) => match self.var(name, *span) {
                None | Some((_, None)) => placeholder(),
                Some((slot, Some(ty))) => {
                    let item = element_type(ty);
                    let c = match ty {
                        T::Cards => CollectionExpr::Cards(CardsExpr::Var(slot)),
                        T::CardsCollection => {
                            CollectionExpr::Collections(CollectionsExpr::Var(slot))
                        }
                        T::Team => CollectionExpr::TeamPlayers(crate::ir::TeamExpr::Var(slot)),
                        T::Players | T::Teams | T::Strs | T::Ints | T::Spaces => {
                            CollectionExpr::Var(slot, ty)
                        }
                        _ => {
                            self.type_mismatch(name, ty, E_COLLECTION.short, *span);
                            return placeholder();
                        }
                    };
                    (c, item)
                }
            },
            SExpr::List(items, _) => self.collection_list(e, items),
            _ => {
                self.wrong(e, &E_COLLECTION);
                placeholder()
            }
        }
    }

    fn collection_list(
        &mut self,
        e: &SExpr,
        items: &[SExpr],
    ) -> (CollectionExpr, Option<ValueType>) {
        use ValueType as T;
        let head = head_word(items).unwrap_or("");
        match head {
            "other" => {
                return match items.get(1).and_then(SExpr::as_name) {
                    Some("player") if items.len() == 2 => {
                        (CollectionExpr::OtherPlayers, Some(T::Player))
                    }
                    Some("team") if items.len() == 2 => (CollectionExpr::OtherTeams, Some(T::Team)),
                    _ => {
                        self.error(
                            e.span(),
                            "`other` is written `(other player)` or `(other team)`",
                        );
                        placeholder()
                    }
                };
            }
            "range" => {
                return match items {
                    [_, a, SExpr::Op(dots, _), b] if dots == ".." => {
                        let a = Box::new(self.int(a));
                        let b = Box::new(self.int(b));
                        (CollectionExpr::Range(a, b), Some(T::Int))
                    }
                    _ => {
                        self.error(e.span(), "`range` is written `(range 1 .. 5)`");
                        placeholder()
                    }
                };
            }
            "spaces" | "group" | "line" => {
                return match self.space_collection(e, items) {
                    Some(c) => (c, Some(T::Space)),
                    None => placeholder(),
                };
            }
            "filter" => {
                let Some((source, var, body)) = self.binder_parts(e, items) else {
                    return placeholder();
                };
                let (source_expr, item) = self.collection(source);
                let names = self.string_names(source, item);
                let source = source_expr;
                let var = self.bind(var, item, "filter");
                self.set_names(names);
                let body = Box::new(self.boolean(body));
                self.pop_var();
                let c = match source {
                    CollectionExpr::Cards(cards) => {
                        CollectionExpr::Cards(CardsExpr::Filter(Box::new(cards), var, body))
                    }
                    other => CollectionExpr::Filter(Box::new(other), var, body),
                };
                return (c, item);
            }
            _ => {}
        }
        if is_string_list(items) {
            let syms = items
                .iter()
                .filter_map(SExpr::as_name)
                .map(|n| self.intern(n))
                .collect();
            return (CollectionExpr::Strings(syms), Some(T::Str));
        }
        match self.kind_of(e) {
            Some(T::Team) => (CollectionExpr::TeamPlayers(self.team(e)), Some(T::Player)),
            Some(T::Cards) => (CollectionExpr::Cards(self.cards(e)), Some(T::Card)),
            Some(T::CardsCollection) => (
                CollectionExpr::Collections(self.collections(e)),
                Some(T::Cards),
            ),
            _ => {
                self.wrong(e, &E_COLLECTION);
                placeholder()
            }
        }
    }

    /// Checks `(any|all|filter COLLECTION 'V BODY)` and returns its three
    /// parts.
    pub(super) fn binder_parts<'e>(
        &mut self,
        e: &SExpr,
        items: &'e [SExpr],
    ) -> Option<(&'e SExpr, &'e SExpr, &'e SExpr)> {
        let what = if head_word(items) == Some("filter") {
            "a collection, a variable and a condition"
        } else {
            "a collection, a variable and a body"
        };
        if !self.arity(e, items, 3, what) {
            return None;
        }
        match items {
            [_, c, v, b] => Some((c, v, b)),
            _ => None,
        }
    }

    /// Lowers the collection of `(any|all COLLECTION 'V BODY)` and binds
    /// `'V` to its items. The caller lowers the body, then calls
    /// [`Lowerer::pop_var`].
    pub(super) fn open_binder<'e>(
        &mut self,
        e: &SExpr,
        items: &'e [SExpr],
    ) -> Option<(CollectionExpr, VarId, &'e SExpr)> {
        let (c, v, body) = self.binder_parts(e, items)?;
        let form = head_word(items).unwrap_or("all");
        let (over, item) = self.collection(c);
        let names = self.string_names(c, item);
        let var = self.bind(v, item, form);
        self.set_names(names);
        Some((over, var, body))
    }

    /// The names a variable bound to the items of collection `c` (of
    /// items `item`) can hold, when they are strings the file fixes.
    fn string_names(&mut self, c: &SExpr, item: Option<ValueType>) -> Option<Vec<crate::ir::Sym>> {
        match item {
            Some(ValueType::Str) => self.names_of(c),
            _ => None,
        }
    }
}
