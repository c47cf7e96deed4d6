//! Lowering of conditions: `and`, `or`, `not`, the integer comparisons,
//! `==`/`!=` on whatever kind its operands are, `any`/`all` over a
//! collection, and `let` around a condition.

use super::context::Lowerer;
use super::messages::{self, E_BOOL};
use crate::ir::{BoolExpr, CmpOp, ValueType};
use crate::syntax::SExpr;

/// The placeholder condition after an error.
fn placeholder() -> BoolExpr {
    BoolExpr::And(Vec::new())
}

impl Lowerer {
    /// A condition.
    pub(super) fn boolean(&mut self, e: &SExpr) -> BoolExpr {
        if let Some(x) = self.inline(e, Some(ValueType::Bool), Lowerer::boolean) {
            return x;
        }
        match e {
            SExpr::Var(name, span) => self
                .use_var(name, *span, ValueType::Bool, &E_BOOL)
                .map(BoolExpr::Var)
                .unwrap_or_else(placeholder),
            SExpr::List(items, _) => self.bool_list(e, items),
            _ => {
                self.wrong(e, &E_BOOL);
                placeholder()
            }
        }
    }

    fn bool_list(&mut self, e: &SExpr, items: &[SExpr]) -> BoolExpr {
        let head = match items.first() {
            Some(SExpr::Name(h, _)) | Some(SExpr::Op(h, _)) => h.as_str(),
            _ => "",
        };
        let cmp = match head {
            "<" => Some(CmpOp::Lt),
            "<=" => Some(CmpOp::Le),
            ">" => Some(CmpOp::Gt),
            ">=" => Some(CmpOp::Ge),
            _ => None,
        };
        if let Some(op) = cmp {
            if !self.arity(e, items, 2, "two integers") {
                return placeholder();
            }
            let a = self.int(&items[1]);
            let b = self.int(&items[2]);
            return BoolExpr::Int(op, a, b);
        }
        match head {
            "==" | "!=" => self.compare(e, items, head == "=="),
            "onboard" => self.onboard(e, items),
            "legal" => self.legal(e, items),
            "inrow" => self.in_row(e, items),
            "and" | "or" => {
                let args = items.get(1..).unwrap_or(&[]);
                if args.len() < 2 {
                    self.error(
                        e.span(),
                        format!(
                            "`{head}` takes at least two conditions, found {}",
                            messages::count(args.len())
                        ),
                    );
                    return placeholder();
                }
                let parts = args.iter().map(|a| self.boolean(a)).collect();
                if head == "and" {
                    BoolExpr::And(parts)
                } else {
                    BoolExpr::Or(parts)
                }
            }
            "not" => {
                if !self.arity(e, items, 1, "one condition") {
                    return placeholder();
                }
                BoolExpr::Not(Box::new(self.boolean(&items[1])))
            }
            "let" => {
                if !self.arity(e, items, 3, "a value, a variable and a condition") {
                    return placeholder();
                }
                let (value, ty) = self.value(&items[1]);
                let names = self.value_names(&items[1], ty);
                let var = self.bind(&items[2], ty, "let");
                self.set_names(names);
                let body = Box::new(self.boolean(&items[3]));
                self.pop_var();
                BoolExpr::Let {
                    value: Box::new(value),
                    var,
                    body,
                }
            }
            "any" | "all" => {
                let Some((over, var, body)) = self.open_binder(e, items) else {
                    return placeholder();
                };
                let body = Box::new(self.boolean(body));
                self.pop_var();
                let over = Box::new(over);
                if head == "any" {
                    BoolExpr::Any { over, var, body }
                } else {
                    BoolExpr::All { over, var, body }
                }
            }
            _ => {
                self.wrong(e, &E_BOOL);
                placeholder()
            }
        }
    }

    /// `(== A B)` / `(!= A B)`: spaces if either side is a space form or
    /// variable, else integers if either side is an integer form, else
    /// cards, players, teams, and strings otherwise.
    fn compare(&mut self, e: &SExpr, items: &[SExpr], eq: bool) -> BoolExpr {
        let op = if eq { "==" } else { "!=" };
        if !self.arity(e, items, 2, "two values") {
            return placeholder();
        }
        let (a, b) = (&items[1], &items[2]);
        let (ka, kb) = (self.kind_of(a), self.kind_of(b));
        let comparable = |k: ValueType| {
            matches!(
                k,
                ValueType::Int
                    | ValueType::Str
                    | ValueType::Card
                    | ValueType::Player
                    | ValueType::Team
                    | ValueType::Space
            )
        };
        if let (Some(x), Some(y)) = (ka, kb) {
            if x != y && comparable(x) && comparable(y) {
                self.error(
                    e.span(),
                    format!(
                        "`{op}` cannot compare {} with {}",
                        messages::type_name(x),
                        messages::type_name(y)
                    ),
                );
                return placeholder();
            }
        }
        for k in [ka, kb].into_iter().flatten() {
            if !comparable(k) {
                self.error(
                    e.span(),
                    format!(
                        "`{op}` compares integers, strings, cards, players, teams or spaces, found {}",
                        messages::type_name(k)
                    ),
                );
                return placeholder();
            }
        }
        let has = |t: ValueType| ka == Some(t) || kb == Some(t);
        if has(ValueType::Space) {
            let (left, right) = (self.space(a), self.space(b));
            BoolExpr::Space { eq, left, right }
        } else if has(ValueType::Int) {
            let (left, right) = (self.int(a), self.int(b));
            let cmp = if eq { CmpOp::Eq } else { CmpOp::Ne };
            BoolExpr::Int(cmp, left, right)
        } else if has(ValueType::Card) {
            let (left, right) = (self.card(a), self.card(b));
            BoolExpr::Card { eq, left, right }
        } else if has(ValueType::Player) {
            let (left, right) = (self.player(a), self.player(b));
            BoolExpr::Player { eq, left, right }
        } else if has(ValueType::Team) {
            let (left, right) = (self.team(a), self.team(b));
            BoolExpr::Team { eq, left, right }
        } else {
            let (left, right) = (self.string(a), self.string(b));
            BoolExpr::Str { eq, left, right }
        }
    }
}
