//! The lowering context: the tables being built (interned strings, name ids,
//! attribute keys, variable slots), the stack of variables in scope, and the
//! errors found so far. Every `lower_*` function is a method of
//! [`Lowerer`]; on an error it records a [`Diagnostic`] and returns a
//! placeholder so the pass goes on and reports every mistake at once.

use super::boards::BoardEntry;
use super::classify::{head_word, is_keyword, is_string_list, storage_kind, EXPRESSION_WORDS};
use super::messages;
use crate::diagnostic::{Diagnostic, Span};
use crate::ir::{AttrId, LocKind, LocName, LocNameId, Stage, Sym, ValueType, VarId};
use crate::syntax::SExpr;
use std::collections::HashMap;

/// Interns values of type `T` to small ids of type `u16`.
#[derive(Debug)]
pub(super) struct Table<T> {
    pub items: Vec<T>,
    map: HashMap<T, u16>,
}

impl<T: Clone + Eq + std::hash::Hash> Table<T> {
    fn new() -> Table<T> {
        Table {
            items: Vec::new(),
            map: HashMap::new(),
        }
    }

    /// The id of `t`, adding it if new; `None` when the table is full.
    fn intern(&mut self, t: T) -> Option<u16> {
        if let Some(&id) = self.map.get(&t) {
            return Some(id);
        }
        let id = u16::try_from(self.items.len()).ok()?;
        self.items.push(t.clone());
        self.map.insert(t, id);
        Some(id)
    }

    fn get(&self, t: &T) -> Option<u16> {
        self.map.get(t).copied()
    }
}

/// A variable in scope.
#[derive(Debug, Clone)]
pub(super) struct Binding {
    pub name: String,
    pub slot: VarId,
    /// `None` when the bound value had an error already reported: uses of
    /// the variable are then accepted silently.
    pub ty: Option<ValueType>,
    /// The names a string variable can hold, or a collection of strings
    /// can contain, when the file fixes them (a declared list of names
    /// and the variables bound to its items): see [`Lowerer::names_of`].
    pub names: Option<Vec<Sym>>,
    /// For a parameter of a definition being written out: the argument,
    /// lowered where the parameter is used, in the caller's scope
    /// (`define.rs`); the slot is then unused.
    pub arg: Option<std::rc::Rc<super::define::Arg>>,
}

/// The state of one lowering pass.
pub(super) struct Lowerer {
    pub symbols: Vec<String>,
    sym_map: HashMap<String, Sym>,
    pub loc_names: Table<LocName>,
    pub int_names: Table<Sym>,
    pub str_names: Table<Sym>,
    pub point_names: Table<Sym>,
    pub attr_keys: Table<Sym>,
    /// The values each attribute key takes in the file's decks, by key id.
    attr_values: Vec<Vec<Sym>>,
    pub var_names: Vec<String>,
    /// The variables in scope, innermost last. In a cell so that
    /// [`Lowerer::kind_of`] (which takes `&self`) can look into a
    /// definition's body in the body's own scope.
    pub(super) scope: std::cell::RefCell<Vec<Binding>>,
    /// The definitions (`define`), their uses being written out, and the
    /// bounds on writing them out (`define.rs`).
    pub(super) defs: super::define::Definitions,
    pub stages: Vec<Stage>,
    /// The named choices (`choice.rs`), numbered before lowering.
    pub choices: Vec<crate::ir::NamedChoice>,
    /// The deck of every `create deck` form and where the form starts.
    pub decks: Vec<(u32, std::sync::Arc<crate::ir::Deck>)>,
    /// The boards created in the setup, by name (collected before anything
    /// else is lowered, so spaces can name any board).
    pub boards: Vec<BoardEntry>,
    /// The direction masks written out in `group`s (see
    /// [`crate::ir::Program::group_dirs`]), each once.
    pub group_dirs: Vec<u16>,
    /// Set while the `declare`s are lowered (they come before the boards).
    pub in_declare: bool,
    /// Set while the options of a `choice` are lowered (a `chain` is a
    /// decision: it belongs there only).
    pub in_choice: bool,
    pub errors: Vec<Diagnostic>,
    /// Set once a table overflowed, so the message is given once.
    overflow_reported: bool,
}

impl Lowerer {
    pub fn new() -> Lowerer {
        let mut lx = Lowerer {
            symbols: Vec::new(),
            sym_map: HashMap::new(),
            loc_names: Table::new(),
            int_names: Table::new(),
            str_names: Table::new(),
            point_names: Table::new(),
            attr_keys: Table::new(),
            attr_values: Vec::new(),
            var_names: Vec::new(),
            scope: std::cell::RefCell::new(Vec::new()),
            defs: super::define::Definitions::default(),
            stages: Vec::new(),
            choices: Vec::new(),
            decks: Vec::new(),
            boards: Vec::new(),
            group_dirs: Vec::new(),
            in_declare: false,
            in_choice: false,
            errors: Vec::new(),
            overflow_reported: false,
        };
        lx.intern("");
        lx
    }

    /// Records an error.
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(Diagnostic::new(span, message));
    }

    /// Records an error with a note.
    pub fn error_note(&mut self, span: Span, message: impl Into<String>, note: impl Into<String>) {
        self.errors
            .push(Diagnostic::new(span, message).with_note(note));
    }

    fn overflow(&mut self, span: Span, what: &str) {
        if !self.overflow_reported {
            self.overflow_reported = true;
            self.error(span, format!("this game uses too many {what}"));
        }
    }

    /// The symbol of a string, interning it.
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&id) = self.sym_map.get(s) {
            return id;
        }
        let id = Sym::try_from(self.symbols.len()).unwrap_or(Sym::MAX);
        self.symbols.push(s.to_string());
        self.sym_map.insert(s.to_string(), id);
        id
    }

    /// The id of location name `(kind, name)`.
    pub fn loc_name(&mut self, kind: LocKind, name: &str, span: Span) -> LocNameId {
        let name = self.intern(name);
        match self.loc_names.intern(LocName { kind, name }) {
            Some(id) => id,
            None => {
                self.overflow(span, "location names");
                0
            }
        }
    }

    /// The id of integer storage name `name` (`sto`).
    pub fn int_name(&mut self, name: &str, span: Span) -> u16 {
        let sym = self.intern(name);
        match self.int_names.intern(sym) {
            Some(id) => id,
            None => {
                self.overflow(span, "storage names");
                0
            }
        }
    }

    /// The id of string storage name `name` (`str`).
    pub fn str_name(&mut self, name: &str, span: Span) -> u16 {
        let sym = self.intern(name);
        match self.str_names.intern(sym) {
            Some(id) => id,
            None => {
                self.overflow(span, "storage names");
                0
            }
        }
    }

    /// The id of point map name `name`.
    pub fn point_name(&mut self, name: &str, span: Span) -> u16 {
        let sym = self.intern(name);
        match self.point_names.intern(sym) {
            Some(id) => id,
            None => {
                self.overflow(span, "point map names");
                0
            }
        }
    }

    /// Adds a deck attribute key (first pass over the decks).
    pub fn add_attr_key(&mut self, key: &str, span: Span) -> AttrId {
        let sym = self.intern(key);
        match self.attr_keys.intern(sym) {
            Some(id) => id,
            None => {
                self.overflow(span, "card attributes");
                0
            }
        }
    }

    /// Notes that a deck gives attribute `key` the value `value`.
    pub fn add_attr_value(&mut self, key: AttrId, value: &str) {
        let sym = self.intern(value);
        let key = key as usize;
        if self.attr_values.len() <= key {
            self.attr_values.resize(key + 1, Vec::new());
        }
        if !self.attr_values[key].contains(&sym) {
            self.attr_values[key].push(sym);
        }
    }

    /// The values the decks give attribute `key`.
    pub fn attr_values_of(&self, key: AttrId) -> Vec<Sym> {
        self.attr_values
            .get(key as usize)
            .cloned()
            .unwrap_or_default()
    }

    /// The id of a deck attribute key, if some deck defines it.
    pub fn attr_key(&self, key: &str) -> Option<AttrId> {
        let sym = self.sym_map.get(key)?;
        self.attr_keys.get(sym)
    }

    /// A fresh slot named `name` (not yet in scope).
    pub fn new_slot(&mut self, name: &str, span: Span) -> VarId {
        match VarId::try_from(self.var_names.len()) {
            Ok(slot) if slot < VarId::MAX => {
                self.var_names.push(name.to_string());
                slot
            }
            _ => {
                self.overflow(span, "variables");
                0
            }
        }
    }

    /// Puts a variable in scope (innermost first).
    pub fn push_var(&mut self, name: &str, slot: VarId, ty: Option<ValueType>) {
        self.scope.get_mut().push(Binding {
            name: name.to_string(),
            slot,
            ty,
            names: None,
            arg: None,
        });
    }

    /// Says which names the innermost variable can hold (or, for a
    /// collection of strings, contain); see [`Lowerer::names_of`].
    pub fn set_names(&mut self, names: Option<Vec<Sym>>) {
        if let Some(b) = self.scope.get_mut().last_mut() {
            b.names = names;
        }
    }

    /// The names the value `e` of a `let` or `declare`, of type `ty`, can
    /// be or contain, when it is a string or a collection of strings.
    pub fn value_names(&mut self, e: &SExpr, ty: Option<ValueType>) -> Option<Vec<Sym>> {
        match ty {
            Some(ValueType::Str | ValueType::Strs) => self.names_of(e),
            _ => None,
        }
    }

    /// The names a string, or a collection of strings, written `e` can
    /// be or contain, when the file fixes them: a literal name, a list
    /// `(A, B, C)`, a `filter` of such a list, or a variable bound to
    /// one of these (by `declare`, `let`, `any`, `all` or `filter`); and
    /// `(cardatt KEY CARD)` of a KEY the decks define: the values the
    /// decks give it. `None` for anything else computed while playing (a
    /// storage). A name of such a set used as a location or storage name
    /// makes that location or storage exist (see `cards::location`).
    pub fn names_of(&mut self, e: &SExpr) -> Option<Vec<Sym>> {
        // A definition's parameter or use: the names of what it stands for.
        if let Some(names) = self.inline(e, None, Lowerer::names_of) {
            return names;
        }
        match e {
            SExpr::List(items, _) if head_word(items) == Some("cardatt") => {
                match items.as_slice() {
                    [_, SExpr::Name(key, _), _] => {
                        let key = self.attr_key(key)?;
                        self.attr_values.get(key as usize).cloned()
                    }
                    _ => None,
                }
            }
            SExpr::Name(n, _) if !is_keyword(n) => Some(vec![self.intern(n)]),
            SExpr::Var(name, _) => self
                .scope
                .borrow()
                .iter()
                .rev()
                .find(|b| b.name == *name)
                .and_then(|b| b.names.clone()),
            SExpr::List(items, _) if is_string_list(items) => Some(
                items
                    .iter()
                    .filter_map(SExpr::as_name)
                    .map(|n| self.intern(n))
                    .collect(),
            ),
            SExpr::List(items, _) if head_word(items) == Some("filter") => match items.as_slice() {
                [_, source, _, _] => self.names_of(source),
                _ => None,
            },
            _ => None,
        }
    }

    /// Binds the variable written at `var` (which must be a `'NAME`) to a
    /// fresh slot of type `ty`, and puts it in scope. Call
    /// [`Lowerer::pop_var`] after lowering the body. When `var` is not a
    /// variable, reports it and still binds a placeholder.
    pub fn bind(&mut self, var: &SExpr, ty: Option<ValueType>, form: &str) -> VarId {
        let name = match var {
            SExpr::Var(name, _) => name.clone(),
            other => {
                self.error(
                    other.span(),
                    format!(
                        "`{form}` needs a variable name such as `'X` here, found {}",
                        other.describe()
                    ),
                );
                String::from("?")
            }
        };
        let slot = self.new_slot(&name, var.span());
        self.push_var(&name, slot, ty);
        slot
    }

    /// Takes the innermost variable out of scope.
    pub fn pop_var(&mut self) {
        self.scope.get_mut().pop();
    }

    /// The slot and type of a variable in scope (type `None`: unknown after
    /// an error).
    pub fn lookup(&self, name: &str) -> Option<(VarId, Option<ValueType>)> {
        self.scope
            .borrow()
            .iter()
            .rev()
            .find(|b| b.name == name)
            .map(|b| (b.slot, b.ty))
    }

    /// The slot and type of variable `'name` at `span`, reporting it when
    /// it is not in scope.
    pub fn var(&mut self, name: &str, span: Span) -> Option<(VarId, Option<ValueType>)> {
        if self.param(name).is_some() {
            // Every position that takes a variable writes out a
            // parameter's argument first (`Lowerer::inline`): one that
            // does not cannot take it.
            self.error(
                span,
                format!("`'{name}` is a parameter of a definition, which cannot be used here"),
            );
            return None;
        }
        match self.lookup(name) {
            Some(found) => Some(found),
            None => {
                let suggestion = {
                    let scope = self.scope.borrow();
                    let names: Vec<&str> = scope.iter().map(|b| b.name.as_str()).collect();
                    messages::suggest(name, &names).map(str::to_string)
                };
                let message = format!("unknown variable `'{name}`");
                match suggestion {
                    Some(s) => self.error_note(span, message, format!("did you mean `'{s}`?")),
                    None => self.error_note(
                        span,
                        message,
                        "a variable must be bound first by `declare`, `let`, `any`, `all` or `filter`",
                    ),
                }
                None
            }
        }
    }

    /// The slot of variable `'name` used where a `want` is expected;
    /// reports an unknown variable or a type mismatch. `None` after an
    /// error (reported now or earlier).
    pub fn use_var(
        &mut self,
        name: &str,
        span: Span,
        want: ValueType,
        expect: &messages::Expect,
    ) -> Option<VarId> {
        match self.var(name, span)? {
            (slot, Some(ty)) if ty == want => Some(slot),
            (_, Some(ty)) => {
                self.type_mismatch(name, ty, expect.short, span);
                None
            }
            (_, None) => None,
        }
    }

    /// Reports that variable `'name` has type `ty` where `expected` is
    /// needed: "`'P` is a player, but a card is expected here".
    pub fn type_mismatch(&mut self, name: &str, ty: ValueType, expected: &str, span: Span) {
        self.error(
            span,
            format!(
                "`'{name}` is {}, but {expected} is expected here",
                messages::type_name(ty)
            ),
        );
    }
}

impl Lowerer {
    /// Reports `e` found where `expect` is needed, in the most helpful
    /// words available: a type mismatch for a variable, "unknown form" for
    /// an unknown keyword, else "expected ..., found ...".
    pub fn wrong(&mut self, e: &SExpr, expect: &messages::Expect) {
        if let SExpr::Var(name, span) = e {
            if let Some((_, Some(ty))) = self.var(name, *span) {
                self.type_mismatch(name, ty, expect.short, *span);
            }
            return;
        }
        if let SExpr::List(items, span) = e {
            if let Some(SExpr::Name(h, _)) = items.first() {
                if !is_keyword(h) && !is_string_list(items) && storage_kind(items).is_none() {
                    let message = format!("unknown form `({h} ...)`: expected {}", expect.long);
                    let words: Vec<&str> = EXPRESSION_WORDS.to_vec();
                    match messages::suggest(h, &words) {
                        Some(s) => self.error_note(*span, message, format!("did you mean `{s}`?")),
                        None => self.error(*span, message),
                    }
                    return;
                }
            }
        }
        let message = format!("expected {}, found {}", expect.long, e.describe());
        if self.is_action_form(e) {
            let note = format!("{} is an action (or a definition whose body is one): it goes where an action goes, a `do`, an option of a `choice`, the action of a guard", e.describe());
            return self.error_note(e.span(), message, note);
        }
        // A list of numbers or computed values, `(1, -1)`, `('A, 'B)`: it
        // reads as a card `(N LOCATION)`, which is not what was meant.
        if let SExpr::List(items, span) = e {
            if items.len() > 1 && !matches!(items.first(), Some(SExpr::Name(..))) {
                let note = "a list written out holds words only, as `(N, E, S, W)` or `(HEARTS, SPADES)`; numbers are `(range A .. B)`, perhaps under a `filter`, and values computed while playing are picked from a collection with `filter`";
                return self.error_note(*span, message, note);
            }
        }
        match self.kind_of(e) {
            Some(ty) if messages::type_name(ty) != expect.short => {
                let note = format!("{} is {}", e.describe(), messages::type_name(ty));
                self.error_note(e.span(), message, note)
            }
            _ => self.error(e.span(), message),
        }
    }

    /// Checks that the form `items` (at `e`) has `n` arguments after its
    /// keyword: "`move` takes two cards, found one".
    pub fn arity(&mut self, e: &SExpr, items: &[SExpr], n: usize, what: &str) -> bool {
        let found = items.len().saturating_sub(1);
        if found == n {
            return true;
        }
        let head = head_word(items).unwrap_or("this form");
        self.error(
            e.span(),
            format!("`{head}` takes {what}, found {}", messages::count(found)),
        );
        false
    }

    /// Checks that the form has exactly `len` items with `using` at
    /// `using_at`: "`max` is written `(max CARDS using POINTS)`".
    pub fn shape(
        &mut self,
        e: &SExpr,
        items: &[SExpr],
        len: usize,
        using_at: usize,
        shape: &str,
    ) -> bool {
        let using_ok = items.get(using_at).and_then(SExpr::as_name) == Some("using");
        if items.len() == len && using_ok {
            return true;
        }
        let head = head_word(items).unwrap_or("this form");
        self.error(e.span(), format!("`{head}` is written `{shape}`"));
        false
    }
}
