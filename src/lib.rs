//! pdndb: a database for draughts games recorded in PDN, Filipino Dama first.
//!
//! Data flows up through the layers:
//!
//! * [`rules`] — board geometry, positions, variants, legal moves, Zobrist
//!   keys, perft;
//! * [`notation`] — the four ways of naming squares (numeric, algebraic on the
//!   Vismin and Luzon boards, Dama numbers), move tokens and FEN;
//! * [`pdn`] — the streaming, tolerant PDN reader and the PDN writer;
//! * [`cli`] — the `pdndb` command line.
#![forbid(unsafe_code)]

pub mod cli;
pub mod notation;
pub mod pdn;
pub mod rules;
