//! pdndb: a database for draughts games recorded in PDN, Filipino Dama first.
//!
//! Data flows up through the layers:
//!
//! * [`rules`] — board geometry, positions, variants, legal moves, Zobrist
//!   keys, perft;
//! * [`notation`] — the four ways of naming squares (numeric, algebraic on the
//!   Vismin and Luzon boards, Dama numbers), move tokens and FEN;
//! * [`pdn`] — the streaming, tolerant PDN reader and the PDN writer;
//! * [`export`] — clean PDN from games as read and replayed;
//! * [`render`] — board pictures: Unicode text, SVG and the HTML report;
//! * [`store`] — the SQLite database: import, the position index and the
//!   typed queries both front ends call;
//! * [`cli`] — the `pdndb` command line; [`serve`] — the web explorer and
//!   its JSON API;
//!
//! and, for every layer, [`escape`]: text from files made safe to show on
//! a terminal.
//!
//! ```
//! use pdndb::notation::{parse_fen, write_fen, write_move, Notation};
//! use pdndb::rules::{perft, Position, Rules};
//!
//! let rules = Rules::default(); // Filipino Dama
//! let start = Position::initial(&rules);
//! assert_eq!(perft(&rules, &start, 3), 302);
//!
//! let setup = parse_fen("W:WKc1:Bd2,b4,d4,e5,f6,g7")?;
//! let position = Position::from_setup(&setup, &rules)?;
//! let first = position.legal_moves(&rules)[0];
//! assert_eq!(write_fen(&position.play(&first)).chars().next(), Some('B'));
//! assert!(write_move(&first, Notation::Vismin, rules.geometry, true).starts_with("c1x"));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
// Output goes through `cli::output`, which a closed pipe cannot make panic.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod cli;
pub mod escape;
pub mod export;
pub mod fs_error;
pub mod generate;
pub mod notation;
pub mod pdn;
pub mod quote;
pub mod render;
pub mod replay;
pub mod rules;
pub mod serve;
pub mod store;
