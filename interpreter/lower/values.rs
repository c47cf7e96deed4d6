//! Lowering of integers, strings, players, teams, owners and the named
//! storages `(OWNER sto NAME)`, `(OWNER str NAME)` and
//! `(OWNER points NAME)`, and of the untyped values of `let` and
//! `declare`.

use super::classify::{storage_kind, StorageKind};
use super::context::Lowerer;
use super::messages::{self, E_INT, E_OWNER, E_PLAYER, E_POINTS, E_STR, E_TEAM};
use crate::diagnostic::Span;
use crate::ir::{
    AttrRef, IntExpr, IntOp, IntStorage, NameRef, OwnerExpr, PlayerExpr, PointStorage, SpaceExpr,
    StrExpr, StrStorage, TeamExpr, ValueExpr, ValueType, EMPTY,
};
use crate::syntax::SExpr;

impl Lowerer {
    /// An integer.
    pub(super) fn int(&mut self, e: &SExpr) -> IntExpr {
        if let Some(x) = self.inline(e, Some(ValueType::Int), Lowerer::int) {
            return x;
        }
        match e {
            SExpr::Int(i, _) => IntExpr::Lit(*i),
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::Int, &E_INT)
                .map(IntExpr::Var)
                .unwrap_or(IntExpr::Lit(0)),
            SExpr::List(items, _) => self.int_list(e, items),
            _ => {
                self.wrong(e, &E_INT);
                IntExpr::Lit(0)
            }
        }
    }

    fn int_list(&mut self, e: &SExpr, items: &[SExpr]) -> IntExpr {
        if storage_kind(items) == Some(StorageKind::Int) {
            return IntExpr::Storage(self.int_storage(items));
        }
        let head = match items.first() {
            Some(SExpr::Name(h, _)) | Some(SExpr::Op(h, _)) => h.as_str(),
            _ => "",
        };
        let op = match head {
            "+" => Some(IntOp::Add),
            "-" => Some(IntOp::Sub),
            "*" => Some(IntOp::Mul),
            "//" => Some(IntOp::Div),
            "%" | "mod" => Some(IntOp::Mod),
            "^" => Some(IntOp::Pow),
            "bitand" => Some(IntOp::BitAnd),
            "bitor" => Some(IntOp::BitOr),
            "bitxor" => Some(IntOp::BitXor),
            "shl" => Some(IntOp::Shl),
            "shr" => Some(IntOp::Shr),
            "rem" => Some(IntOp::Rem),
            // `(max A B)`: of two integers (`(max INTS)` has one operand,
            // `(max CARDS using POINTS)` and `(max C 'V INT)` three).
            "max" if items.len() == 3 && !self.has_collection(&items[1..]) => Some(IntOp::Max),
            "min" if items.len() == 3 && !self.has_collection(&items[1..]) => Some(IntOp::Min),
            _ => None,
        };
        if let Some(op) = op {
            if !self.arity(e, items, 2, "two integers") {
                return IntExpr::Lit(0);
            }
            let a = self.int(&items[1]);
            let b = self.int(&items[2]);
            return IntExpr::Binary(op, Box::new(a), Box::new(b));
        }
        match head {
            "size" => {
                if !self.arity(e, items, 1, "one collection") {
                    return IntExpr::Lit(0);
                }
                let (c, _) = self.collection(&items[1]);
                IntExpr::Size(Box::new(c))
            }
            "tri" | "fib" => {
                if !self.arity(e, items, 1, "one integer") {
                    return IntExpr::Lit(0);
                }
                let n = Box::new(self.int(&items[1]));
                if head == "tri" {
                    IntExpr::Tri(n)
                } else {
                    IntExpr::Fib(n)
                }
            }
            "abs" | "sign" => {
                if !self.arity(e, items, 1, "one integer") {
                    return IntExpr::Lit(0);
                }
                let n = Box::new(self.int(&items[1]));
                if head == "abs" {
                    IntExpr::Abs(n)
                } else {
                    IntExpr::Sign(n)
                }
            }
            "clamp" => {
                // `(clamp X LO HI)` is `(min (max X LO) HI)`.
                if !self.arity(
                    e,
                    items,
                    3,
                    "three integers (a value, the least and the greatest)",
                ) {
                    return IntExpr::Lit(0);
                }
                let x = self.int(&items[1]);
                let lo = self.int(&items[2]);
                let hi = self.int(&items[3]);
                let low = IntExpr::Binary(IntOp::Max, Box::new(x), Box::new(lo));
                IntExpr::Binary(IntOp::Min, Box::new(low), Box::new(hi))
            }
            "random" => self.random(e, items),
            "if" => self.if_int(e, items),
            "index" | "row" | "col" | "rows" | "cols" => self.space_int(e, items, head),
            "around" => self.around(e, items),
            "first" => self.int_of_ints(e, items, head),
            // RECYCLE's `(max CARDS using POINTS)` is a card; without
            // `using`, `max` is the largest of some integers.
            "max" | "min" if items.len() == 4 && matches!(items[2], SExpr::Var(..)) => {
                // `(max COLLECTION 'V INT)`: the largest value over the items.
                let Some((over, var, body)) = self.open_binder(e, items) else {
                    return IntExpr::Lit(0);
                };
                let body = self.int(body);
                self.pop_var();
                IntExpr::Extreme {
                    max: head == "max",
                    over: Box::new(over),
                    var,
                    body: Box::new(body),
                }
            }
            "max" | "min" if items.get(2).and_then(SExpr::as_name) != Some("using") => {
                self.int_of_ints(e, items, head)
            }
            "sum" => {
                if !self.shape(e, items, 4, 2, "(sum CARDS using POINTS)") {
                    return IntExpr::Lit(0);
                }
                let cards = self.cards(&items[1]);
                let points = self.points(&items[3]);
                IntExpr::Sum(Box::new(cards), points)
            }
            "score" => {
                if !self.shape(e, items, 4, 2, "(score CARD using POINTS)") {
                    return IntExpr::Lit(0);
                }
                let card = self.card(&items[1]);
                let points = self.points(&items[3]);
                IntExpr::Score(Box::new(card), points)
            }
            "all" => {
                let Some((over, var, body)) = self.open_binder(e, items) else {
                    return IntExpr::Lit(0);
                };
                let storage = match body {
                    SExpr::List(b, _) if storage_kind(b) == Some(StorageKind::Int) => {
                        Some(self.int_storage(b))
                    }
                    other => {
                        self.error(
                            other.span(),
                            format!(
                                "to add up over a collection, the body of `all` must be an integer storage such as `('P sto SCORE)`, found {}",
                                other.describe()
                            ),
                        );
                        None
                    }
                };
                self.pop_var();
                match storage {
                    Some(storage) => IntExpr::SumAll {
                        over: Box::new(over),
                        var,
                        storage,
                    },
                    None => IntExpr::Lit(0),
                }
            }
            _ => {
                self.wrong(e, &E_INT);
                IntExpr::Lit(0)
            }
        }
    }

    /// Whether one of `items` is a collection (so `(max X Y)` is no
    /// maximum of two integers).
    fn has_collection(&self, items: &[SExpr]) -> bool {
        items.iter().any(|i| {
            self.kind_of(i)
                .is_some_and(|k| super::classify::element_type(k).is_some())
        })
    }

    /// `(random N)` or `(random A .. B)`.
    fn random(&mut self, e: &SExpr, items: &[SExpr]) -> IntExpr {
        match items {
            [_, n] => IntExpr::Random(Box::new(self.int(n)), None),
            [_, a, SExpr::Op(dots, _), b] if dots == ".." => {
                let a = self.int(a);
                let b = self.int(b);
                IntExpr::Random(Box::new(a), Some(Box::new(b)))
            }
            _ => {
                self.error(
                    e.span(),
                    "`random` is written `(random N)` or `(random A .. B)`",
                );
                IntExpr::Lit(0)
            }
        }
    }

    /// A string.
    pub(super) fn string(&mut self, e: &SExpr) -> StrExpr {
        if let Some(x) = self.inline(e, Some(ValueType::Str), Lowerer::string) {
            return x;
        }
        match e {
            SExpr::Name(n, _) => StrExpr::Lit(self.intern(n)),
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::Str, &E_STR)
                .map(StrExpr::Var)
                .unwrap_or(StrExpr::Lit(EMPTY)),
            SExpr::List(items, _) => {
                if storage_kind(items) == Some(StorageKind::Str) {
                    return StrExpr::Storage(self.str_storage(items));
                }
                if items.first().and_then(SExpr::as_name) == Some("cardatt") {
                    if !self.arity(e, items, 2, "an attribute and a card") {
                        return StrExpr::Lit(EMPTY);
                    }
                    let attr = self.attr_ref(&items[1]);
                    let card = self.card(&items[2]);
                    return StrExpr::CardAtt(attr, Box::new(card));
                }
                if items.first().and_then(SExpr::as_name) == Some("rotate") {
                    return self.rotate(e, items);
                }
                if items.first().and_then(SExpr::as_name) == Some("if") {
                    return self.if_str(e, items);
                }
                self.wrong(e, &E_STR);
                StrExpr::Lit(EMPTY)
            }
            _ => {
                self.wrong(e, &E_STR);
                StrExpr::Lit(EMPTY)
            }
        }
    }

    /// The attribute key of `cardatt`.
    fn attr_ref(&mut self, e: &SExpr) -> AttrRef {
        match e {
            SExpr::Name(n, _) => match self.attr_key(n) {
                Some(id) => AttrRef::Key(id),
                None => {
                    self.intern(n);
                    AttrRef::Unknown
                }
            },
            other => AttrRef::Dynamic(Box::new(self.string(other))),
        }
    }

    /// A player.
    pub(super) fn player(&mut self, e: &SExpr) -> PlayerExpr {
        if let Some(x) = self.inline(e, Some(ValueType::Player), Lowerer::player) {
            return x;
        }
        match e {
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::Player, &E_PLAYER)
                .map(PlayerExpr::Var)
                .unwrap_or(PlayerExpr::Current),
            SExpr::List(items, _) => match items.as_slice() {
                [SExpr::Name(w, _), SExpr::Name(p, _)] if p == "player" => match w.as_str() {
                    "current" => PlayerExpr::Current,
                    "next" => PlayerExpr::Next,
                    "previous" => PlayerExpr::Previous,
                    _ => {
                        self.wrong(e, &E_PLAYER);
                        PlayerExpr::Current
                    }
                },
                [n, SExpr::Name(p, _)] if p == "player" => PlayerExpr::Index(Box::new(self.int(n))),
                [SExpr::Name(o, _), ..] if o == "if" => self
                    .if_value(e, items, Lowerer::player)
                    .map_or(PlayerExpr::Current, PlayerExpr::If),
                [SExpr::Name(o, _), ..] if o == "owner" => {
                    if !self.arity(e, items, 1, "one card") {
                        return PlayerExpr::Current;
                    }
                    PlayerExpr::OwnerOf(Box::new(self.card(&items[1])))
                }
                _ => {
                    self.wrong(e, &E_PLAYER);
                    PlayerExpr::Current
                }
            },
            _ => {
                self.wrong(e, &E_PLAYER);
                PlayerExpr::Current
            }
        }
    }

    /// A team.
    pub(super) fn team(&mut self, e: &SExpr) -> TeamExpr {
        if let Some(x) = self.inline(e, Some(ValueType::Team), Lowerer::team) {
            return x;
        }
        match e {
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::Team, &E_TEAM)
                .map(TeamExpr::Var)
                .unwrap_or(TeamExpr::Current),
            SExpr::List(items, _) => match items.as_slice() {
                [SExpr::Name(w, _), SExpr::Name(t, _)] if t == "team" => match w.as_str() {
                    "current" => TeamExpr::Current,
                    "next" => TeamExpr::Next,
                    "previous" => TeamExpr::Previous,
                    _ => {
                        self.wrong(e, &E_TEAM);
                        TeamExpr::Current
                    }
                },
                [n, SExpr::Name(t, _)] if t == "team" => TeamExpr::Index(Box::new(self.int(n))),
                [SExpr::Name(t, _), ..] if t == "team" => {
                    if !self.arity(e, items, 1, "one player") {
                        return TeamExpr::Current;
                    }
                    TeamExpr::OfPlayer(Box::new(self.player(&items[1])))
                }
                _ => {
                    self.wrong(e, &E_TEAM);
                    TeamExpr::Current
                }
            },
            _ => {
                self.wrong(e, &E_TEAM);
                TeamExpr::Current
            }
        }
    }

    /// The owner of a location or storage: `game`, a player, a team or a
    /// space.
    pub(super) fn owner(&mut self, e: &SExpr) -> OwnerExpr {
        if let Some(x) = self.inline(e, None, Lowerer::owner) {
            return x;
        }
        match e {
            SExpr::Name(n, _) if n == "game" => OwnerExpr::Game,
            SExpr::Var(name, span) => match self.var(name, *span) {
                Some((slot, Some(ValueType::Player))) => OwnerExpr::Player(PlayerExpr::Var(slot)),
                Some((slot, Some(ValueType::Team))) => OwnerExpr::Team(TeamExpr::Var(slot)),
                Some((slot, Some(ValueType::Space))) => OwnerExpr::Space(SpaceExpr::Var(slot)),
                Some((_, Some(ty))) => {
                    self.type_mismatch(name, ty, E_OWNER.short, *span);
                    OwnerExpr::Game
                }
                _ => OwnerExpr::Game,
            },
            SExpr::List(..) => match self.kind_of(e) {
                Some(ValueType::Player) => OwnerExpr::Player(self.player(e)),
                Some(ValueType::Team) => OwnerExpr::Team(self.team(e)),
                Some(ValueType::Space) => OwnerExpr::Space(self.space(e)),
                _ => {
                    self.wrong(e, &E_OWNER);
                    OwnerExpr::Game
                }
            },
            _ => {
                self.wrong(e, &E_OWNER);
                OwnerExpr::Game
            }
        }
    }

    /// The NAME of a storage: a literal name or a computed string. A
    /// computed name whose names the file fixes (a variable bound to a
    /// declared list of names) makes a storage of each of them.
    fn storage_name(
        &mut self,
        e: &SExpr,
        id: impl Fn(&mut Lowerer, &str, Span) -> u16,
    ) -> NameRef<u16> {
        match e {
            SExpr::Name(n, span) => NameRef::Fixed(id(self, n, *span)),
            other => {
                let name = NameRef::Dynamic(Box::new(self.string(other)));
                self.name_storages(other, id);
                name
            }
        }
    }

    /// Makes a storage (by `id`) of each name the file fixes for `e`.
    fn name_storages(&mut self, e: &SExpr, id: impl Fn(&mut Lowerer, &str, Span) -> u16) {
        for sym in self.names_of(e).unwrap_or_default() {
            let n = self.symbols[sym as usize].clone();
            id(self, &n, e.span());
        }
    }

    /// `(OWNER sto NAME)` (the caller checked the shape).
    pub(super) fn int_storage(&mut self, items: &[SExpr]) -> IntStorage {
        let owner = self.owner(&items[0]);
        let name = self.storage_name(&items[2], Lowerer::int_name);
        IntStorage { owner, name }
    }

    /// `(OWNER str NAME)` (the caller checked the shape).
    pub(super) fn str_storage(&mut self, items: &[SExpr]) -> StrStorage {
        let owner = self.owner(&items[0]);
        let name = self.storage_name(&items[2], Lowerer::str_name);
        StrStorage { owner, name }
    }

    /// `(OWNER points NAME)` (the caller checked the shape).
    pub(super) fn point_storage(&mut self, items: &[SExpr]) -> PointStorage {
        let owner = self.owner(&items[0]);
        let name = self.storage_name(&items[2], Lowerer::point_name);
        PointStorage { owner, name }
    }

    /// A point map after `using`: `(OWNER points NAME)`, or `'NAME` of
    /// the older dialect (a game point map; a string variable of that
    /// name in scope gives a computed name instead).
    pub(super) fn points(&mut self, e: &SExpr) -> PointStorage {
        if let Some(x) = self.inline(e, None, Lowerer::points) {
            return x;
        }
        let placeholder = PointStorage {
            owner: OwnerExpr::Game,
            name: NameRef::Fixed(0),
        };
        match e {
            SExpr::List(items, _) if storage_kind(items) == Some(StorageKind::Points) => {
                self.point_storage(items)
            }
            SExpr::Var(name, span) => match self.lookup(name) {
                None => PointStorage {
                    owner: OwnerExpr::Game,
                    name: NameRef::Fixed(self.point_name(name, *span)),
                },
                Some((slot, Some(ValueType::Str))) => {
                    self.name_storages(e, Lowerer::point_name);
                    PointStorage {
                        owner: OwnerExpr::Game,
                        name: NameRef::Dynamic(Box::new(StrExpr::Var(slot))),
                    }
                }
                Some((_, Some(ty))) => {
                    self.type_mismatch(name, ty, E_POINTS.short, *span);
                    placeholder
                }
                Some((_, None)) => placeholder,
            },
            _ => {
                self.wrong(e, &E_POINTS);
                placeholder
            }
        }
    }

    /// The value of a `let` or `declare`, of whatever kind its shape says.
    /// The type is `None` when it cannot be told.
    pub(super) fn value(&mut self, e: &SExpr) -> (ValueExpr, Option<ValueType>) {
        if let Some(x) = self.inline(e, None, Lowerer::value) {
            return x;
        }
        let kind = self.kind_of(e);
        let value = match kind {
            Some(ValueType::Int) => ValueExpr::Int(self.int(e)),
            Some(ValueType::Bool) => ValueExpr::Bool(self.boolean(e)),
            Some(ValueType::Str) => ValueExpr::Str(self.string(e)),
            Some(ValueType::Card) => ValueExpr::Card(self.card(e)),
            Some(ValueType::Cards) => ValueExpr::Cards(self.cards(e)),
            Some(ValueType::CardsCollection) => ValueExpr::CardsCollection(self.collections(e)),
            Some(ValueType::Player) => ValueExpr::Player(self.player(e)),
            Some(ValueType::Team) => ValueExpr::Team(self.team(e)),
            Some(ValueType::Space) => ValueExpr::Space(self.space(e)),
            Some(_) => ValueExpr::Collection(self.collection(e).0),
            None => {
                let unknown_var = matches!(e, SExpr::Var(n, _) if self.lookup(n).is_none());
                let unknown_form = matches!(e, SExpr::List(items, _)
                    if matches!(items.first(), Some(SExpr::Name(h, _)) if !super::classify::is_keyword(h)));
                if unknown_var || unknown_form {
                    self.wrong(e, &messages::E_VALUE);
                } else if self.is_action_form(e) {
                    self.error_note(
                        e.span(),
                        format!("{} is an action, not a condition or a value", e.describe()),
                        "an action (or a definition whose body is one) goes where an action goes: a `do`, an option of a `choice`, the action of a guard",
                    );
                } else if !matches!(e, SExpr::Var(..)) {
                    self.error(
                        e.span(),
                        format!("cannot tell what kind of value {} is", e.describe()),
                    );
                }
                ValueExpr::Int(IntExpr::Lit(0))
            }
        };
        (value, kind)
    }
}
