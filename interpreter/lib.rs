//! cardboard: an interpreter for RECYCLE-style game descriptions.
//!
//! Text -> [`syntax`] (pest) -> [`lower`] (names, types, arities; all errors
//! collected) -> [`ir::Program`] -> [`engine`] (a [`game::GameState`]).
pub mod diagnostic;
pub mod drivers;
pub mod engine;
pub mod game;
pub mod ir;
pub mod loading;
pub mod lower;
pub mod player;
pub mod random;
pub mod syntax;
