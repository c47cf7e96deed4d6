//! Lowering of the collections of spaces, cardboard's extensions to
//! RECYCLE: `(spaces BOARD)`, `(group SPACE [DIRS] 'V COND)` (the
//! directions it spreads in, written out or computed) and `(line SPACE
//! DIR 'V COND)`; and `(around SPACE 'V COND)`, the neighbours of a space
//! where a condition holds as the bits of an integer.

use super::boards::DIRECTIONS;
use super::classify::is_string_list;
use super::context::Lowerer;
use super::messages;
use crate::ir::{CollectionExpr, GroupDirs, IntExpr, ValueType};
use crate::syntax::SExpr;

/// How `group` is written.
const GROUP_SHAPE: &str = "`group` is written `(group SPACE 'V CONDITION)`, or `(group SPACE DIRECTIONS 'V CONDITION)` to spread in the directions listed, as in `(group 'S (N, E, S, W, NE, NW, SE, SW) 'V ...)`";

impl Lowerer {
    /// `(spaces BOARD)`, `(group SPACE [DIRS] 'V COND)` and `(line SPACE
    /// DIR 'V COND)`, as collections of spaces; `None` after an error.
    pub(super) fn space_collection(
        &mut self,
        e: &SExpr,
        items: &[SExpr],
    ) -> Option<CollectionExpr> {
        match e.head() {
            Some("spaces") => {
                if !self.arity(e, items, 1, "the name of a board") {
                    return None;
                }
                let (board, _) = self.board_ref(&items[1])?;
                Some(CollectionExpr::Spaces(board))
            }
            Some("line") => self.line(e, items),
            _ => self.group(e, items),
        }
    }

    /// `(group SPACE 'V COND)` or `(group SPACE DIRS 'V COND)`.
    fn group(&mut self, e: &SExpr, items: &[SExpr]) -> Option<CollectionExpr> {
        let (from, dirs, var, cond) = match items {
            [_, from, var, cond] => (from, None, var, cond),
            [_, from, dirs, var, cond] => (from, Some(dirs), var, cond),
            _ => {
                self.error(e.span(), GROUP_SHAPE);
                return None;
            }
        };
        let dirs = dirs.map(|d| self.group_dirs(from, d));
        let from = Box::new(self.space(from));
        let var = self.bind(var, Some(ValueType::Space), "group");
        let cond = Box::new(self.boolean(cond));
        self.pop_var();
        Some(CollectionExpr::Group {
            from,
            var,
            cond,
            dirs,
        })
    }

    /// The directions of a `group`: a written list `(N, E, S, W)` is
    /// checked word by word (and against a written board) and kept as a
    /// mask; anything else must be a collection of strings.
    fn group_dirs(&mut self, from: &SExpr, e: &SExpr) -> GroupDirs {
        let written = match e {
            SExpr::List(items, _) if is_string_list(items) => Some(&items[..]),
            SExpr::Name(..) => Some(std::slice::from_ref(e)),
            _ => None,
        };
        if let Some(words) = written {
            let mut mask = 0u16;
            for w in words {
                self.direction(w);
                self.check_direction(from, w);
                if let Some(k) = w
                    .as_name()
                    .and_then(|n| DIRECTIONS.iter().position(|d| *d == n))
                {
                    mask |= 1 << k;
                }
            }
            if !self.group_dirs.contains(&mask) {
                self.group_dirs.push(mask);
            }
            return GroupDirs::Lit(mask);
        }
        let (dirs, item) = self.collection(e);
        if let Some(ty) = item.filter(|t| *t != ValueType::Str) {
            self.error(
                e.span(),
                format!(
                    "the directions of a `group` are a collection of strings such as `(N, E, S, W)`, found {}",
                    messages::collection_name(ty)
                ),
            );
        }
        GroupDirs::Expr(Box::new(dirs))
    }

    /// `(line SPACE DIR 'V COND)`: the spaces after SPACE in direction DIR
    /// while COND holds.
    fn line(&mut self, e: &SExpr, items: &[SExpr]) -> Option<CollectionExpr> {
        let [_, from, dir, var, cond] = items else {
            self.error(
                e.span(),
                "`line` is written `(line SPACE DIRECTION 'V CONDITION)`: the spaces after SPACE in DIRECTION for which CONDITION holds, up to the first for which it does not",
            );
            return None;
        };
        self.check_direction(from, dir);
        let from = Box::new(self.space(from));
        let dir = Box::new(self.direction(dir));
        let var = self.bind(var, Some(ValueType::Space), "line");
        let cond = Box::new(self.boolean(cond));
        self.pop_var();
        Some(CollectionExpr::Line {
            from,
            dir,
            var,
            cond,
        })
    }

    /// `(around SPACE 'V COND)`: which neighbours of a space satisfy a
    /// condition, as the bits of an integer.
    pub(super) fn around(&mut self, e: &SExpr, items: &[SExpr]) -> IntExpr {
        if !self.arity(e, items, 3, "a space, a variable and a condition") {
            return IntExpr::Lit(0);
        }
        let from = Box::new(self.space(&items[1]));
        let var = self.bind(&items[2], Some(ValueType::Space), "around");
        let cond = Box::new(self.boolean(&items[3]));
        self.pop_var();
        IntExpr::Around { from, var, cond }
    }
}
