//! Runtime values held by variables and produced by collections.

use super::state::{CardId, Slot, Table};
use crate::ir::Sym;

/// A variable's value. Collections are owned copies (variables are bound for
/// the span of one action, so copies stay small).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// Not bound (or "no card").
    #[default]
    Unset,
    Int(i64),
    Bool(bool),
    Str(Sym),
    Card(CardId),
    /// A card collection, bottom first.
    Cards(Vec<CardId>),
    /// A collection of card collections.
    Colls(Vec<Vec<CardId>>),
    Player(u8),
    Team(u8),
    Players(Vec<u8>),
    Teams(Vec<u8>),
    Strs(Vec<Sym>),
    Ints(Vec<i64>),
    /// A space of a board.
    Space(u32),
    /// Spaces.
    Spaces(Vec<u32>),
}

impl Value {
    /// The number of items of a collection value (unset: none); `None` for
    /// a value that is not a collection.
    pub fn items_len(&self) -> Option<usize> {
        Some(match self {
            Value::Unset => 0,
            Value::Cards(v) => v.len(),
            Value::Colls(v) => v.len(),
            Value::Players(v) | Value::Teams(v) => v.len(),
            Value::Strs(v) => v.len(),
            Value::Ints(v) => v.len(),
            Value::Spaces(v) => v.len(),
            _ => return None,
        })
    }

    /// Item `i` of a collection value (as [`Items::get`]).
    pub fn item(&self, i: usize) -> Value {
        match self {
            Value::Cards(v) => v.get(i).map(|c| Value::Card(*c)),
            Value::Colls(v) => v.get(i).map(|c| Value::Cards(c.clone())),
            Value::Players(v) => v.get(i).map(|c| Value::Player(*c)),
            Value::Teams(v) => v.get(i).map(|c| Value::Team(*c)),
            Value::Strs(v) => v.get(i).map(|c| Value::Str(*c)),
            Value::Ints(v) => v.get(i).map(|c| Value::Int(*c)),
            Value::Spaces(v) => v.get(i).map(|c| Value::Space(*c)),
            _ => None,
        }
        .unwrap_or_default()
    }
}

/// A card collection: a location (borrowed by slot) or a computed list.
#[derive(Clone, Debug)]
pub enum Cards {
    /// The cards of a location.
    Slot(Slot),
    /// A computed list, bottom first.
    List(Vec<CardId>),
}

impl Cards {
    /// The cards, bottom first.
    pub fn slice<'t>(&'t self, table: &'t Table) -> &'t [CardId] {
        match self {
            Cards::Slot(s) => table
                .locs
                .get(*s as usize)
                .map(Vec::as_slice)
                .unwrap_or(&[]),
            Cards::List(v) => v,
        }
    }

    /// An owned list.
    pub fn into_vec(self, table: &Table) -> Vec<CardId> {
        match self {
            Cards::Slot(s) => table.locs.get(s as usize).cloned().unwrap_or_default(),
            Cards::List(v) => v,
        }
    }
}

/// A reference to one card: which card, and where it was found (a `mem`
/// location for a remembered copy, else its real location).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardRef {
    pub id: CardId,
    pub slot: Slot,
}

/// The items of a collection being iterated by `any`/`all`/`filter`.
#[derive(Clone, Debug)]
pub enum Items {
    Cards(Vec<CardId>),
    Colls(Vec<Vec<CardId>>),
    Players(Vec<u8>),
    Teams(Vec<u8>),
    Strs(Vec<Sym>),
    Ints(Vec<i64>),
    Spaces(Vec<u32>),
}

impl Items {
    /// Number of items.
    pub fn len(&self) -> usize {
        match self {
            Items::Cards(v) => v.len(),
            Items::Colls(v) => v.len(),
            Items::Players(v) => v.len(),
            Items::Teams(v) => v.len(),
            Items::Strs(v) => v.len(),
            Items::Ints(v) => v.len(),
            Items::Spaces(v) => v.len(),
        }
    }

    /// Item `i` as a value.
    pub fn get(&self, i: usize) -> Value {
        match self {
            Items::Cards(v) => v.get(i).map(|c| Value::Card(*c)),
            Items::Colls(v) => v.get(i).map(|c| Value::Cards(c.clone())),
            Items::Players(v) => v.get(i).map(|c| Value::Player(*c)),
            Items::Teams(v) => v.get(i).map(|c| Value::Team(*c)),
            Items::Strs(v) => v.get(i).map(|c| Value::Str(*c)),
            Items::Ints(v) => v.get(i).map(|c| Value::Int(*c)),
            Items::Spaces(v) => v.get(i).map(|c| Value::Space(*c)),
        }
        .unwrap_or_default()
    }

    /// The collection as a variable value.
    pub fn into_value(self) -> Value {
        match self {
            Items::Cards(v) => Value::Cards(v),
            Items::Colls(v) => Value::Colls(v),
            Items::Players(v) => Value::Players(v),
            Items::Teams(v) => Value::Teams(v),
            Items::Strs(v) => Value::Strs(v),
            Items::Ints(v) => Value::Ints(v),
            Items::Spaces(v) => Value::Spaces(v),
        }
    }

    /// Keeps the items for which `keep(i)` holds, in order.
    pub fn retain_indices(self, keep: &[bool]) -> Items {
        fn pick<T>(v: Vec<T>, keep: &[bool]) -> Vec<T> {
            v.into_iter()
                .zip(keep.iter())
                .filter(|(_, k)| **k)
                .map(|(x, _)| x)
                .collect()
        }
        match self {
            Items::Cards(v) => Items::Cards(pick(v, keep)),
            Items::Colls(v) => Items::Colls(pick(v, keep)),
            Items::Players(v) => Items::Players(pick(v, keep)),
            Items::Teams(v) => Items::Teams(pick(v, keep)),
            Items::Strs(v) => Items::Strs(pick(v, keep)),
            Items::Ints(v) => Items::Ints(pick(v, keep)),
            Items::Spaces(v) => Items::Spaces(pick(v, keep)),
        }
    }
}
