//! Tools for the authors of rules files, beside the rules themselves:
//! `cardboard test`, snapshot tests written in a small line format next
//! to a rules file ([`test`], docs/authoring.md).
//!
//! They play games only through [`crate::game::GameState`] and the
//! existing drivers (`run`'s transcript, `perft`'s counts), so a test sees
//! a game exactly as the other subcommands do.

pub mod test;
