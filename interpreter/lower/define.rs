//! Named, parameterised conditions, values and actions (a cardboard
//! extension): `(define (NAME 'A 'B) BODY)` among the game's items, used
//! as `(NAME X Y)` wherever a condition or a value of BODY's kind is
//! expected, or an action when BODY is one.
//!
//! A use is written out where it stands: BODY is lowered in place of
//! `(NAME X Y)`, in a scope of its own (the declared constants and its
//! parameters, nothing of the caller's), and each use of a parameter in
//! BODY lowers the argument in place of the parameter, in the caller's
//! scope. So the compiled program holds no call: a definition plays as
//! fast as its body written out by hand, compiled closures included, and
//! a variable of the body never captures one of the caller's. An argument
//! is evaluated where the body uses it (as often as it does). Since a use
//! is written out in full, a definition cannot use itself, directly or
//! through others: that is an error, and so is writing out more than
//! [`MAX_WRITTEN`] uses or nesting them deeper than [`MAX_INLINE_DEPTH`]
//! brackets in all (no input exhausts memory or the stack).

use super::classify::is_keyword;
use super::context::{Binding, Lowerer};
use super::messages;
use crate::diagnostic::Span;
use crate::ir::ValueType;
use crate::syntax::SExpr;
use std::collections::HashMap;
use std::rc::Rc;

/// At most this many uses of definitions and of their parameters are
/// written out in a file (a definition using another twice, in a chain,
/// doubles at each link).
pub(crate) const MAX_WRITTEN: usize = 100_000;

/// The deepest nesting of brackets of the forms being written out, one
/// use inside another, added up (a body nested 10 deep used inside
/// another counts 10 more).
pub(crate) const MAX_INLINE_DEPTH: usize = 400;

/// One `(define (NAME 'A ...) BODY)`.
#[derive(Debug)]
struct Definition {
    name: String,
    params: Vec<String>,
    body: Rc<SExpr>,
    /// How deeply BODY nests.
    depth: usize,
    /// Whether some use wrote it out (a definition never used is checked
    /// on its own).
    used: bool,
}

/// The argument of a parameter: lowered where the body uses the
/// parameter, in the scope (and with the definitions being written out)
/// of the use.
#[derive(Debug)]
pub(super) struct Arg {
    expr: SExpr,
    scope: Vec<Binding>,
    calls: Vec<usize>,
}

/// The definitions of a file and the uses being written out.
#[derive(Debug, Default)]
pub(super) struct Definitions {
    list: Vec<Definition>,
    by_name: HashMap<String, usize>,
    /// The definitions whose bodies are being written out, outermost
    /// first (a use of one of them again is recursion).
    calls: std::cell::RefCell<Vec<usize>>,
    /// How many bindings at the bottom of the scope are the declared
    /// constants (what a body sees besides its parameters).
    pub globals: usize,
    /// The brackets of the forms being written out, added up.
    depth: std::cell::Cell<usize>,
    /// Uses written out so far.
    written: usize,
    /// Set once a bound was passed (the error is given once).
    over: bool,
}

/// How deeply a form nests (an atom is 0, `(a b)` 1).
fn depth(e: &SExpr) -> usize {
    match e {
        SExpr::List(items, _) => 1 + items.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

impl Lowerer {
    /// Records the `(define ...)` forms of the game, before anything is
    /// lowered (a definition may be used before it is written, and by
    /// another definition).
    pub(super) fn collect_definitions(&mut self, forms: &[&SExpr]) {
        for e in forms {
            let shape = "`define` is written `(define (NAME 'PARAMETER ...) BODY)`, as in `(define (EMPTY 'S) (== (size ('S vloc PIECES)) 0))`";
            let Some([_, SExpr::List(head, _), body]) = e.as_list() else {
                self.error(e.span(), shape);
                continue;
            };
            let Some((SExpr::Name(name, name_span), params)) = head.split_first() else {
                self.error(e.span(), shape);
                continue;
            };
            if is_keyword(name) {
                self.error(
                    *name_span,
                    format!(
                        "`{name}` is a word of the language: a definition needs a name of its own"
                    ),
                );
                continue;
            }
            if self.defs.by_name.contains_key(name) {
                self.error(*name_span, format!("`{name}` is defined twice"));
                continue;
            }
            let mut names: Vec<String> = Vec::new();
            for p in params {
                match p {
                    SExpr::Var(n, span) if names.contains(n) => {
                        self.error(*span, format!("`'{n}` is a parameter of `{name}` twice"))
                    }
                    SExpr::Var(n, _) => names.push(n.clone()),
                    other => self.error(
                        other.span(),
                        format!(
                            "a parameter of `{name}` is a variable such as `'S`, found {}",
                            other.describe()
                        ),
                    ),
                }
            }
            self.defs.by_name.insert(name.clone(), self.defs.list.len());
            self.defs.list.push(Definition {
                name: name.clone(),
                params: names,
                body: Rc::new(body.clone()),
                depth: depth(body),
                used: false,
            });
        }
    }

    /// Whether `e` is an action: a form only actions begin with (`move`,
    /// `set`, `do` ...), a guarded action, or an `any`, `all` or `let`
    /// around one, or a use of a definition whose body is one (a
    /// definition that is an action, written out where an action is).
    pub(super) fn is_action_form(&self, e: &SExpr) -> bool {
        self.action_form(e, 0)
    }

    fn action_form(&self, e: &SExpr, depth: usize) -> bool {
        if depth > self.defs.list.len() + MAX_INLINE_DEPTH {
            return false;
        }
        let Some(items) = e.as_list() else {
            return false;
        };
        match items {
            [SExpr::List(..) | SExpr::Var(..), action] => self.action_form(action, depth + 1),
            [SExpr::Name(h, _), .., body] if matches!(h.as_str(), "any" | "all" | "let") => {
                self.action_form(body, depth + 1)
            }
            [SExpr::Name(h, _), ..] => match self.defs.by_name.get(h.as_str()) {
                Some(&d) => self.action_form(&self.defs.list[d].body, depth + 1),
                None => matches!(
                    h.as_str(),
                    "move"
                        | "remember"
                        | "forget"
                        | "shuffle"
                        | "set"
                        | "inc"
                        | "dec"
                        | "cycle"
                        | "turn"
                        | "repeat"
                        | "create"
                        | "do"
                        | "require"
                        | "chain"
                ),
            },
            _ => false,
        }
    }

    /// Whether `word` names a definition.
    pub(super) fn is_definition(&self, word: &str) -> bool {
        self.defs.by_name.contains_key(word)
    }

    /// The argument of parameter `'name`, when the innermost variable of
    /// that name is a parameter of a definition being written out.
    pub(super) fn param(&self, name: &str) -> Option<Rc<Arg>> {
        let scope = self.scope.borrow();
        let b = scope.iter().rev().find(|b| b.name == name)?;
        b.arg.clone()
    }

    /// When `e` is a use of a definition or of a parameter, lowers what it
    /// stands for with `lower` (the lowering of the position, `want` the
    /// kind of value it takes if only one) and returns it; `None` for any
    /// other form.
    pub(super) fn inline<T>(
        &mut self,
        e: &SExpr,
        want: Option<ValueType>,
        lower: fn(&mut Lowerer, &SExpr) -> T,
    ) -> Option<T> {
        match e {
            SExpr::Var(name, _) => {
                let arg = self.param(name)?;
                Some(self.substitute(&arg, lower))
            }
            SExpr::List(items, _) => {
                let Some(SExpr::Name(head, _)) = items.first() else {
                    return None;
                };
                let d = *self.defs.by_name.get(head)?;
                Some(self.call(d, e, &items[1..], want, lower))
            }
            _ => None,
        }
    }

    /// `lower` of a placeholder, its errors dropped: what a position gives
    /// after an error already reported.
    fn quietly<T>(&mut self, span: Span, lower: fn(&mut Lowerer, &SExpr) -> T) -> T {
        let n = self.errors.len();
        let out = lower(self, &SExpr::Int(0, span));
        self.errors.truncate(n);
        out
    }

    /// Counts a form of `depth` brackets being written out; false (and an
    /// error, given once) past the bounds.
    fn enter(&mut self, depth: usize, span: Span) -> bool {
        self.defs.written += 1;
        let total = self.defs.depth.get() + depth;
        if self.defs.written > MAX_WRITTEN || total > MAX_INLINE_DEPTH {
            if !self.defs.over {
                self.defs.over = true;
                self.error(
                    span,
                    format!(
                        "the definitions used here are too large written out: more than {MAX_WRITTEN} uses, or more than {MAX_INLINE_DEPTH} brackets deep, in all"
                    ),
                );
            }
            return false;
        }
        self.defs.depth.set(total);
        true
    }

    /// A parameter's argument lowered in its own scope.
    fn substitute<T>(&mut self, arg: &Arg, lower: fn(&mut Lowerer, &SExpr) -> T) -> T {
        let d = depth(&arg.expr);
        if !self.enter(d, arg.expr.span()) {
            return self.quietly(arg.expr.span(), lower);
        }
        let scope = self.scope.replace(arg.scope.clone());
        let calls = self.defs.calls.replace(arg.calls.clone());
        let out = lower(self, &arg.expr);
        self.scope.replace(scope);
        self.defs.calls.replace(calls);
        self.defs.depth.set(self.defs.depth.get() - d);
        out
    }

    /// `(NAME ARG...)`: the body of definition `d` lowered in its own
    /// scope, each parameter standing for its argument.
    fn call<T>(
        &mut self,
        d: usize,
        e: &SExpr,
        args: &[SExpr],
        want: Option<ValueType>,
        lower: fn(&mut Lowerer, &SExpr) -> T,
    ) -> T {
        let (name, params, body, body_depth) = {
            let def = &self.defs.list[d];
            (
                def.name.clone(),
                def.params.clone(),
                Rc::clone(&def.body),
                def.depth,
            )
        };
        if args.len() != params.len() {
            let wanted: Vec<String> = params.iter().map(|p| format!("'{p}")).collect();
            self.error(
                e.span(),
                format!(
                    "`{name}` takes {} {}{}, found {}",
                    messages::count(params.len()),
                    if params.len() == 1 {
                        "argument"
                    } else {
                        "arguments"
                    },
                    if wanted.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", wanted.join(" "))
                    },
                    messages::count(args.len())
                ),
            );
            return self.quietly(e.span(), lower);
        }
        let again = self.defs.calls.borrow().iter().position(|&c| c == d);
        if let Some(from) = again {
            let chain: Vec<String> = self.defs.calls.borrow()[from..]
                .iter()
                .chain(std::iter::once(&d))
                .map(|&c| format!("`{}`", self.defs.list[c].name))
                .collect();
            let message = format!(
                "`{name}` uses itself ({}): a definition is written out in full where it is used, so it cannot be recursive",
                chain.join(" -> ")
            );
            self.error(e.span(), message);
            return self.quietly(e.span(), lower);
        }
        if let (Some(want), Some(kind)) = (want, self.kind_of(e)) {
            if want != kind {
                self.error(
                    e.span(),
                    format!(
                        "`({name} ...)` is {}, but {} is expected here",
                        messages::type_name(kind),
                        messages::type_name(want)
                    ),
                );
                return self.quietly(e.span(), lower);
            }
        }
        if !self.enter(body_depth, e.span()) {
            return self.quietly(e.span(), lower);
        }
        let caller = self.scope.borrow().clone();
        let caller_calls = self.defs.calls.borrow().clone();
        let mut scope: Vec<Binding> = caller[..self.defs.globals.min(caller.len())].to_vec();
        for (p, a) in params.iter().zip(args) {
            scope.push(Binding {
                name: p.clone(),
                slot: 0,
                ty: self.kind_of(a),
                names: None,
                arg: Some(Rc::new(Arg {
                    expr: a.clone(),
                    scope: caller.clone(),
                    calls: caller_calls.clone(),
                })),
            });
        }
        self.scope.replace(scope);
        self.defs.calls.borrow_mut().push(d);
        let out = lower(self, &body);
        self.defs.calls.borrow_mut().pop();
        self.scope.replace(caller);
        self.defs.depth.set(self.defs.depth.get() - body_depth);
        self.defs.list[d].used = true;
        out
    }

    /// The kind of value `(NAME ARG...)` gives, if `items` is a use of a
    /// definition (`Some(None)` when it cannot be told).
    pub(super) fn call_kind(&self, items: &[SExpr]) -> Option<Option<ValueType>> {
        let Some(SExpr::Name(head, _)) = items.first() else {
            return None;
        };
        let d = *self.defs.by_name.get(head)?;
        let def = &self.defs.list[d];
        let args = &items[1..];
        let total = self.defs.depth.get() + def.depth;
        if args.len() != def.params.len()
            || self.defs.calls.borrow().contains(&d)
            || total > MAX_INLINE_DEPTH
        {
            return Some(None);
        }
        let globals = self.defs.globals.min(self.scope.borrow().len());
        let mut scope: Vec<Binding> = self.scope.borrow()[..globals].to_vec();
        for (p, a) in def.params.iter().zip(args) {
            scope.push(Binding {
                name: p.clone(),
                slot: 0,
                ty: self.kind_of(a),
                names: None,
                arg: None,
            });
        }
        let caller = self.scope.replace(scope);
        self.defs.calls.borrow_mut().push(d);
        self.defs.depth.set(total);
        let kind = self.kind_of(&def.body);
        self.defs.depth.set(total - def.depth);
        self.defs.calls.borrow_mut().pop();
        self.scope.replace(caller);
        Some(kind)
    }

    /// Checks the body of every definition no use wrote out, its
    /// parameters of any kind, so that its mistakes are reported too.
    pub(super) fn check_unused_definitions(&mut self) {
        for d in 0..self.defs.list.len() {
            if self.defs.list[d].used {
                continue;
            }
            let (params, body) = {
                let def = &self.defs.list[d];
                (def.params.clone(), Rc::clone(&def.body))
            };
            let caller = self.scope.borrow().clone();
            let mut scope: Vec<Binding> = caller[..self.defs.globals.min(caller.len())].to_vec();
            for p in params {
                // A type unknown: every use of the parameter is accepted.
                scope.push(Binding {
                    name: p,
                    slot: 0,
                    ty: None,
                    names: None,
                    arg: None,
                });
            }
            self.scope.replace(scope);
            self.defs.calls.borrow_mut().push(d);
            if self.is_action_form(&body) {
                let _ = self.condact(&body);
            } else {
                let _ = self.value(&body);
            }
            self.defs.calls.borrow_mut().pop();
            self.scope.replace(caller);
        }
    }
}
