//! cardboard: an interpreter for RECYCLE-style game descriptions.
//!
//! Load a rules file, start a game, play it out:
//!
//! ```
//! use cardboard::engine::{GameOptions, Rules};
//! use cardboard::game::GameState;
//!
//! let rules = Rules::from_source("take.rcy", r#"
//!   (game
//!    (setup (create players 2)
//!           (create deck (game vloc ROW) (deck (RANK (A, B, C)))))
//!    (stage player (end (== (size (game vloc ROW)) 0))
//!      (choice ((any (game vloc ROW) 'C (move 'C (top ((current player) vloc HAND)))))))
//!    (scoring max (size ((current player) vloc HAND))))"#).expect("valid rules");
//! let mut game = rules.start(&GameOptions { seed: 1, overrides: vec![] }).expect("starts");
//! while game.current_player().is_some() {
//!     let moves = game.legal_moves();
//!     println!("{}", game.move_to_text(&moves[0]));
//!     game.apply(&moves[0]).expect("a legal move");
//! }
//! assert_eq!(game.outcome().unwrap().scores, vec![2, 1]);
//! ```
//!
//! The pipeline: text -> [`syntax`] (pest) -> [`lower`] (names, types,
//! arities; all errors collected) -> [`ir::Program`] -> [`engine`] (a
//! [`game::GameState`]) -> [`player`]s and [`drivers`].
pub mod authoring;
pub mod command;
pub mod diagnostic;
pub mod drivers;
pub mod engine;
pub mod fmt;
pub mod game;
pub mod ir;
pub mod label;
pub mod loading;
pub mod lower;
pub mod lsp;
pub mod observation;
pub mod play;
pub mod player;
pub mod random;
pub mod search;
pub mod step;
pub mod syntax;
pub mod tensor;
