//! Lowering of actions and conditional actions: `(CONDITION ACTION)` or a
//! bare action; `do`, `any`, `all`, `chain`, `let`, `move`, `remember`,
//! `forget`, `repeat`, `shuffle`, `set`, `inc`, `dec`, `cycle`, `turn
//! pass`, `create teams|deck` and the older `put points`.

use super::classify::{storage_kind, StorageKind, ACTION_WORDS};
use super::context::Lowerer;
use super::messages;
#[cfg(test)]
use crate::ir::ValueExpr;
use crate::ir::{Action, Condact, NameRef, OwnerExpr, PlayerExpr, PointStorage};
use crate::syntax::SExpr;

/// The placeholder action after an error.
fn nothing() -> Action {
    Action::Do(Vec::new())
}

/// Whether `e` is `(CONDITION ACTION)`: two items, the first a list (a
/// condition form) or a variable (a boolean).
fn is_guarded(e: &SExpr) -> bool {
    matches!(e.as_list(), Some([SExpr::List(..) | SExpr::Var(..), _]))
}

impl Lowerer {
    /// A conditional action: `(CONDITION ACTION)` or a bare action.
    pub(super) fn condact(&mut self, e: &SExpr) -> Condact {
        if let Some([cond, action]) = e.as_list().filter(|_| is_guarded(e)) {
            let cond = Some(self.boolean(cond));
            let action = self.action(action);
            return Condact::new(cond, action, e.span());
        }
        Condact::new(None, self.action(e), e.span())
    }

    /// An action.
    pub(super) fn action(&mut self, e: &SExpr) -> Action {
        let Some(items) = e.as_list() else {
            self.error(
                e.span(),
                format!(
                    "expected an action such as `(move ...)` or `(do (...))`, found {}",
                    e.describe()
                ),
            );
            return nothing();
        };
        let head = match items.first() {
            Some(SExpr::Name(h, _)) => h.as_str(),
            Some(SExpr::List(..)) if items.len() == 1 => {
                self.error_note(
                    e.span(),
                    "expected an action, found a list inside brackets",
                    "is there one pair of brackets too many?",
                );
                return nothing();
            }
            Some(SExpr::List(..)) if items.len() == 2 => {
                // `(COND (COND2 ACTION))` or `(repeat N (COND ACTION))`.
                self.error_note(
                    e.span(),
                    "this conditional action `(CONDITION ACTION)` stands where a plain action is expected",
                    "the action of a guard or of a `repeat` has no condition of its own: join the conditions with `(and ...)`, or wrap it as `(do ((CONDITION ACTION)))`",
                );
                return nothing();
            }
            Some(SExpr::List(..)) => {
                self.error(
                    e.span(),
                    format!(
                        "a conditional action is written `(CONDITION ACTION)`, but this list has {} items",
                        messages::count(items.len())
                    ),
                );
                return nothing();
            }
            _ => {
                self.error(
                    e.span(),
                    format!(
                        "expected an action such as `(move ...)` or `(do (...))`, found {}",
                        e.describe()
                    ),
                );
                return nothing();
            }
        };
        match head {
            "move" | "remember" => {
                if !self.arity(e, items, 2, "two cards") {
                    return nothing();
                }
                let from = self.card(&items[1]);
                let to = self.card(&items[2]);
                if head == "move" {
                    Action::Move { from, to }
                } else {
                    Action::Remember { from, to }
                }
            }
            "forget" => {
                if !self.arity(e, items, 1, "one card") {
                    return nothing();
                }
                Action::Forget(self.card(&items[1]))
            }
            "shuffle" => {
                if !self.arity(e, items, 1, "one card location") {
                    return nothing();
                }
                Action::Shuffle(self.cards(&items[1]))
            }
            "set" => self.set(e, items),
            "inc" | "dec" => {
                if !self.arity(e, items, 2, "a storage and an integer") {
                    return nothing();
                }
                let target = match &items[1] {
                    SExpr::List(s, _) if storage_kind(s) == Some(StorageKind::Int) => {
                        Some(self.int_storage(s))
                    }
                    other => {
                        self.error(
                            other.span(),
                            format!(
                                "`{head}` takes an integer storage such as `(game sto SCORE)`, found {}",
                                other.describe()
                            ),
                        );
                        None
                    }
                };
                let amount = self.int(&items[2]);
                match (target, head) {
                    (Some(s), "inc") => Action::IncInt(s, amount),
                    (Some(s), _) => Action::DecInt(s, amount),
                    (None, _) => nothing(),
                }
            }
            "cycle" => self.cycle(e, items),
            "turn" => {
                if matches!(items, [_, SExpr::Name(p, _)] if p == "pass") {
                    Action::TurnPass
                } else {
                    self.error(e.span(), "`turn` is written `(turn pass)`");
                    nothing()
                }
            }
            "repeat" => self.repeat(e, items),
            "sow" => self.sow(e, items),
            "place" => self.place(e, items),
            "require" => {
                if !self.arity(e, items, 1, "one condition") {
                    return nothing();
                }
                Action::Require(self.boolean(&items[1]), items[1].span())
            }
            "announce" => self.announce(e, items),
            "create" => self.create(e, items),
            "put" => self.put_points(e, items),
            "do" => match items {
                [_, SExpr::List(list, _)] => {
                    Action::Do(list.iter().map(|c| self.condact(c)).collect())
                }
                _ => {
                    self.error(
                        e.span(),
                        "`do` takes one list of actions, as in `(do ((shuffle (game vloc DECK)) (turn pass)))`",
                    );
                    nothing()
                }
            },
            "any" | "all" => {
                let Some((over, var, body)) = self.open_binder(e, items) else {
                    return nothing();
                };
                let body = Box::new(self.condact(body));
                self.pop_var();
                if head == "any" {
                    Action::Any { over, var, body }
                } else {
                    Action::All { over, var, body }
                }
            }
            "chain" => self.chain(e, items),
            "afterwards" => {
                self.error_note(
                    e.span(),
                    "an `afterwards` can only be an option of a `choice`",
                    "it keeps the moves of the option after which its condition holds: `(choice ((afterwards CONDITION OPTION) ...))`",
                );
                nothing()
            }
            "let" => {
                if !self.arity(e, items, 3, "a value, a variable and an action") {
                    return nothing();
                }
                let (value, ty) = self.value(&items[1]);
                let names = self.value_names(&items[1], ty);
                let var = self.bind(&items[2], ty, "let");
                self.set_names(names);
                let body = Box::new(self.condact(&items[3]));
                self.pop_var();
                Action::Let { value, var, body }
            }
            "choice" => {
                self.error(
                    e.span(),
                    "a `choice` can only be an item of a stage or of the game",
                );
                nothing()
            }
            "stage" => {
                self.error(
                    e.span(),
                    "a `stage` can only be an item of another stage or of the game",
                );
                nothing()
            }
            "declare" | "setup" | "scoring" => {
                self.error(
                    e.span(),
                    format!("a `({head} ...)` can only be an item of the game itself"),
                );
                nothing()
            }
            "end" => {
                self.error(
                    e.span(),
                    "an `(end ...)` can only come right after `(stage player|team`",
                );
                nothing()
            }
            _ if self.is_definition(head) && self.is_action_form(e) => {
                // Written out where it stands (see `define.rs`).
                match self.inline(e, None, Lowerer::condact) {
                    Some(Condact {
                        cond: None, action, ..
                    }) => action,
                    Some(guarded) => Action::Do(vec![guarded]),
                    None => nothing(),
                }
            }
            _ if self.is_definition(head) => {
                self.error_note(
                    e.span(),
                    format!("`{head}` is a condition or a value, not an action"),
                    "a definition is an action when its body is one (`move`, `set`, `do` ...); this one's is not: guard an action with it, as in `((NAME ...) ACTION)`",
                );
                nothing()
            }
            _ => {
                let message = format!("unknown action `{head}`");
                match messages::suggest(head, ACTION_WORDS) {
                    Some(s) => {
                        self.error_note(items[0].span(), message, format!("did you mean `{s}`?"))
                    }
                    None => self.error(items[0].span(), message),
                }
                nothing()
            }
        }
    }

    /// `(set STORAGE VALUE)`: an integer, string or point map by the
    /// storage's kind.
    fn set(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        if !self.arity(e, items, 2, "a storage and a value") {
            return nothing();
        }
        let (target, value) = (&items[1], &items[2]);
        let kind = target.as_list().and_then(storage_kind);
        let Some(t) = target.as_list() else {
            self.bad_set_target(target);
            return nothing();
        };
        match kind {
            Some(StorageKind::Int) => {
                let s = self.int_storage(t);
                Action::SetInt(s, self.int(value))
            }
            Some(StorageKind::Str) => {
                let s = self.str_storage(t);
                Action::SetStr(s, self.string(value))
            }
            Some(StorageKind::Points) => {
                let s = self.point_storage(t);
                Action::SetPoints(s, self.awards(value))
            }
            _ => {
                self.bad_set_target(target);
                nothing()
            }
        }
    }

    fn bad_set_target(&mut self, target: &SExpr) {
        self.error(
            target.span(),
            format!(
                "`set` takes a storage such as `(game sto SCORE)`, `(game str LEAD)` or `(game points VALUES)`, found {}",
                target.describe()
            ),
        );
    }

    /// `(cycle next|current WHO)`.
    fn cycle(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        let [_, SExpr::Name(when, _), who] = items else {
            self.error(
                e.span(),
                "`cycle` is written `(cycle next WHO)` or `(cycle current WHO)`",
            );
            return nothing();
        };
        let who = match who {
            SExpr::Name(w, _) if w == "current" => PlayerExpr::Current,
            SExpr::Name(w, _) if w == "next" => PlayerExpr::Next,
            SExpr::Name(w, _) if w == "previous" => PlayerExpr::Previous,
            other => self.player(other),
        };
        match when.as_str() {
            "next" => Action::CycleNext(who),
            "current" => Action::CycleCurrent(who),
            _ => {
                self.error(
                    items[1].span(),
                    "`cycle` is written `(cycle next WHO)` or `(cycle current WHO)`",
                );
                nothing()
            }
        }
    }

    /// `(repeat N ACTION)`, `(repeat all (move A B))`, `(repeat all (forget A))`.
    fn repeat(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        if !self.arity(e, items, 2, "a number of times and an action") {
            return nothing();
        }
        if items[1].as_name() == Some("all") {
            let body = &items[2];
            let inner = body.as_list().unwrap_or(&[]);
            return match inner.first().and_then(SExpr::as_name) {
                Some("move") if self.arity(body, inner, 2, "two cards") => {
                    let from = self.card(&inner[1]);
                    let to = self.card(&inner[2]);
                    Action::RepeatAllMove { from, to }
                }
                Some("forget") if self.arity(body, inner, 1, "one card") => {
                    Action::RepeatAllForget(self.card(&inner[1]))
                }
                Some("move") | Some("forget") => nothing(),
                _ => {
                    self.error(
                        body.span(),
                        format!(
                            "`repeat all` works with `(move ...)` or `(forget ...)`, found {}",
                            body.describe()
                        ),
                    );
                    nothing()
                }
            };
        }
        let count = self.int(&items[1]);
        let body = Box::new(self.action(&items[2]));
        Action::Repeat { count, body }
    }

    /// `(chain COLLECTION 'V ACTION)` and `(chain stop COLLECTION 'V
    /// ACTION)`, in an option of a `choice` only.
    fn chain(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        let (stop, parts) = match items {
            [_, SExpr::Name(w, _), c, v, b] if w == "stop" => (true, [c, v, b]),
            [_, c, v, b] => (false, [c, v, b]),
            _ => {
                self.error(
                    e.span(),
                    "`chain` is written `(chain COLLECTION 'V ACTION)` or `(chain stop COLLECTION 'V ACTION)`",
                );
                return nothing();
            }
        };
        if !self.in_choice {
            self.error_note(
                e.span(),
                "a `chain` is a decision: it can only be in an option of a `choice`",
                "outside a choice, loop with `repeat`, `all` or a stage",
            );
            return nothing();
        }
        let [c, v, b] = parts;
        let (over, item) = self.collection(c);
        let var = self.bind(v, item, "chain");
        let body = Box::new(self.condact(b));
        self.pop_var();
        Action::Chain {
            over,
            var,
            body,
            stop,
        }
    }

    /// `(create teams ...)` and `(create deck ...)`.
    fn create(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        match items.get(1).and_then(SExpr::as_name) {
            Some("teams") => Action::CreateTeams(self.teams(e, items)),
            Some("deck") => self.create_deck(e, items),
            Some("players") => {
                self.error(e.span(), "players can only be created in the setup");
                nothing()
            }
            Some("board") => {
                self.error(
                    e.span(),
                    "a board is created once, by a `(create board ...)` of its own in the setup",
                );
                nothing()
            }
            _ => {
                self.error(
                    e.span(),
                    "`create` is written `(create deck LOCATION (deck ...))` or `(create teams (0, 2) (1, 3))`",
                );
                nothing()
            }
        }
    }

    /// `(create deck [NAME] LOCATION (deck ...))`.
    pub(super) fn create_deck(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        let (to, deck) = match items {
            [_, _, to, deck] | [_, _, SExpr::Name(..), to, deck] => (to, deck),
            _ => {
                self.error(
                    e.span(),
                    "`create deck` is written `(create deck LOCATION (deck ...))`",
                );
                return nothing();
            }
        };
        let to = self.cards(to);
        let deck = std::sync::Arc::new(self.deck(deck));
        self.decks.push((e.span().start, deck.clone()));
        Action::CreateDeck { to, deck }
    }

    /// `(put points 'NAME (AWARD...))`: the older way to set a game point
    /// map.
    fn put_points(&mut self, e: &SExpr, items: &[SExpr]) -> Action {
        match items {
            [_, SExpr::Name(p, _), SExpr::Var(name, span) | SExpr::Name(name, span), awards]
                if p == "points" =>
            {
                let id = self.point_name(name, *span);
                let storage = PointStorage {
                    owner: OwnerExpr::Game,
                    name: NameRef::Fixed(id),
                };
                Action::SetPoints(storage, self.awards(awards))
            }
            _ => {
                self.error(e.span(), "`put` is written `(put points 'NAME (AWARD...))`");
                nothing()
            }
        }
    }
}

/// A `let` value's kind, for tests.
#[cfg(test)]
pub(super) fn value_kind(v: &ValueExpr) -> &'static str {
    match v {
        ValueExpr::Int(_) => "int",
        ValueExpr::Bool(_) => "bool",
        ValueExpr::Str(_) => "str",
        ValueExpr::Card(_) => "card",
        ValueExpr::Cards(_) => "cards",
        ValueExpr::CardsCollection(_) => "collections",
        ValueExpr::Player(_) => "player",
        ValueExpr::Team(_) => "team",
        ValueExpr::Space(_) => "space",
        ValueExpr::Collection(_) => "collection",
    }
}
