//! Lowering of decks `(deck (RANK (A, TWO)) (COLOR (RED (SUIT (...))) ...))`,
//! point awards `((SUIT : HEARTS) (RANK : ACE) 14)` (and the older
//! `((SUIT (HEARTS)) 14)`), team lists `(create teams (0, 2) (1, 3))`, and
//! the first pass that collects every deck's attribute keys and values.

use super::context::Lowerer;
use crate::ir::{Award, Deck, DeckDim, DeckGroup, StrExpr, EMPTY};
use crate::syntax::SExpr;

const DIM_SHAPE: &str =
    "a deck attribute is written `(KEY (VALUE, ...))`, as in `(RANK (ACE, TWO, THREE))`";
const AWARD_SHAPE: &str =
    "an award is written `((ATTRIBUTE : VALUE) ... POINTS)`, as in `((RANK : ACE) 14)`";
const COND_SHAPE: &str = "a condition of an award is written `(RANK : ACE)` or `(RANK (ACE))`";

impl Lowerer {
    /// First pass: every attribute key of every `(deck ...)` in the file,
    /// in order of appearance, so `cardatt` can tell known keys anywhere,
    /// and the values each key takes (the names a `cardatt` can give, see
    /// [`Lowerer::names_of`]).
    pub(super) fn collect_attr_keys(&mut self, e: &SExpr) {
        let Some(items) = e.as_list() else {
            return;
        };
        if e.head() == Some("deck") {
            for dim in items.iter().skip(1) {
                self.collect_dim_keys(dim);
            }
            return;
        }
        for item in items {
            self.collect_attr_keys(item);
        }
    }

    fn collect_dim_keys(&mut self, dim: &SExpr) {
        let Some([SExpr::Name(key, span), groups @ ..]) = dim.as_list() else {
            return;
        };
        let key = self.add_attr_key(key, *span);
        for group in groups {
            for item in group.as_list().unwrap_or(&[]) {
                match item {
                    SExpr::Name(value, _) => self.add_attr_value(key, value),
                    SExpr::List(..) => self.collect_dim_keys(item),
                    _ => {}
                }
            }
        }
    }

    /// `(deck DIM...)`.
    pub(super) fn deck(&mut self, e: &SExpr) -> Deck {
        let Some(items) = e.as_list().filter(|_| e.head() == Some("deck")) else {
            self.error(
                e.span(),
                format!(
                    "expected a deck such as `(deck (RANK (ACE, TWO)) (SUIT (HEARTS, SPADES)))`, found {}",
                    e.describe()
                ),
            );
            return Deck {
                dims: Vec::new(),
                rows: Default::default(),
            };
        };
        if items.len() < 2 {
            self.error(
                e.span(),
                "a deck needs at least one attribute such as `(RANK (ACE, TWO))`",
            );
        }
        let dims = items
            .iter()
            .skip(1)
            .filter_map(|d| self.deck_dim(d))
            .collect();
        Deck {
            dims,
            rows: Default::default(),
        }
    }

    /// `(KEY GROUP...)`.
    fn deck_dim(&mut self, e: &SExpr) -> Option<DeckDim> {
        let Some([SExpr::Name(key, span), groups @ ..]) = e.as_list() else {
            self.error(e.span(), DIM_SHAPE);
            return None;
        };
        if groups.is_empty() {
            self.error_note(
                e.span(),
                format!("the attribute `{key}` has no values"),
                DIM_SHAPE,
            );
            return None;
        }
        let bare: Vec<&str> = groups.iter().filter_map(SExpr::as_name).collect();
        if !bare.is_empty() {
            self.error_note(
                e.span(),
                format!("the values of the deck attribute `{key}` go in their own brackets"),
                format!("write `({key} ({}))`", bare.join(", ")),
            );
            return None;
        }
        let key = self.add_attr_key(key, *span);
        let mut out = Vec::new();
        for g in groups {
            if let Some(group) = self.deck_group(g) {
                out.push(group);
            }
        }
        Some(DeckDim { key, groups: out })
    }

    /// `(VALUE, ... SUBDIM...)`: leading names are values, trailing lists
    /// are sub-dimensions.
    fn deck_group(&mut self, e: &SExpr) -> Option<DeckGroup> {
        let Some(items) = e.as_list() else {
            self.error_note(
                e.span(),
                format!(
                    "the values of a deck attribute go in brackets, found {}",
                    e.describe()
                ),
                DIM_SHAPE,
            );
            return None;
        };
        let mut values = Vec::new();
        let mut sub = Vec::new();
        for item in items {
            match item {
                SExpr::Name(v, _) if sub.is_empty() => values.push(self.intern(v)),
                SExpr::List(..) => {
                    if let Some(d) = self.deck_dim(item) {
                        sub.push(d);
                    }
                }
                other => {
                    self.error_note(
                        other.span(),
                        format!(
                            "unexpected {} among the values of a deck attribute",
                            other.describe()
                        ),
                        "values are names such as `ACE`; they come before any sub-attribute",
                    );
                }
            }
        }
        if values.is_empty() {
            self.error(e.span(), "this group of deck values has no values");
            return None;
        }
        Some(DeckGroup { values, sub })
    }

    /// `(AWARD...)` of a point map.
    pub(super) fn awards(&mut self, e: &SExpr) -> Vec<Award> {
        let Some(items) = e.as_list() else {
            self.error_note(
                e.span(),
                format!("expected a list of awards, found {}", e.describe()),
                AWARD_SHAPE,
            );
            return Vec::new();
        };
        items.iter().filter_map(|a| self.award(a)).collect()
    }

    /// `((ATTR : VALUE)... POINTS)`.
    fn award(&mut self, e: &SExpr) -> Option<Award> {
        let Some([conds @ .., points]) = e.as_list() else {
            self.error(e.span(), AWARD_SHAPE);
            return None;
        };
        if is_condition(points) {
            self.error_note(e.span(), "this award has no points", AWARD_SHAPE);
            return None;
        }
        if conds.is_empty() {
            self.error_note(
                e.span(),
                "an award needs at least one condition such as `(RANK : ACE)` before its points",
                AWARD_SHAPE,
            );
            return None;
        }
        let conds = conds.iter().map(|c| self.award_cond(c)).collect();
        let points = self.int(points);
        Some(Award { conds, points })
    }

    /// `(ATTR : VALUE)`, `(ATTR (VALUE))`, `(ATTR (STRING-FORM))` or
    /// `(ATTR VALUE)`.
    fn award_cond(&mut self, e: &SExpr) -> (StrExpr, StrExpr) {
        let placeholder = (StrExpr::Lit(EMPTY), StrExpr::Lit(EMPTY));
        let Some(items) = e.as_list() else {
            self.error(e.span(), COND_SHAPE);
            return placeholder;
        };
        let (attr, value) = match items {
            [a, SExpr::Op(colon, _), v] if colon == ":" => (a, v),
            [a, v] => (a, v),
            _ => {
                self.error(e.span(), COND_SHAPE);
                return placeholder;
            }
        };
        let attr = self.string(attr);
        let value = match value.as_list() {
            Some([SExpr::Name(v, _)]) => StrExpr::Lit(self.intern(v)),
            _ => self.string(value),
        };
        (attr, value)
    }

    /// The team lists of `(create teams (0, 2) (1, 3))`.
    pub(super) fn teams(&mut self, e: &SExpr, items: &[SExpr]) -> Vec<Vec<u8>> {
        let lists = items.get(2..).unwrap_or(&[]);
        if lists.is_empty() {
            self.error(
                e.span(),
                "`create teams` needs the teams, as in `(create teams (0, 2) (1, 3))`",
            );
        }
        let mut teams = Vec::new();
        for team in lists {
            let Some(members) = team.as_list().filter(|m| !m.is_empty()) else {
                self.error(
                    team.span(),
                    format!(
                        "a team is a list of player numbers such as `(0, 2)`, found {}",
                        team.describe()
                    ),
                );
                continue;
            };
            let mut seats = Vec::new();
            for m in members {
                match m {
                    SExpr::Int(i, _) if (0..=255).contains(i) => seats.push(*i as u8),
                    other => self.error(
                        other.span(),
                        format!(
                            "a team is a list of player numbers such as `(0, 2)`, found {}",
                            other.describe()
                        ),
                    ),
                }
            }
            teams.push(seats);
        }
        teams
    }
}

/// Whether a list looks like an award condition `(A : B)` or `(A (B))`
/// rather than points.
fn is_condition(e: &SExpr) -> bool {
    match e.as_list() {
        Some([SExpr::Name(..), SExpr::Op(c, _), _]) => c == ":",
        Some([SExpr::Name(a, _), SExpr::List(..)]) => !super::classify::is_keyword(a),
        _ => false,
    }
}
