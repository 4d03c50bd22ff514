//! pdndb: a database for draughts games recorded in PDN, Filipino Dama first.
//!
//! # Start here
//!
//! The types a program needs are re-exported at the crate root:
//!
//! * the rules: [`Rules`] (a variant: a [`Preset`] and its switches),
//!   [`Position`] and its unchecked [`Setup`], [`Move`], [`Color`],
//!   [`Square`], [`Piece`], [`Geometry`], [`perft`] and [`divide`];
//! * notation: [`Notation`], [`parse_fen`], [`parse_fen_on`], [`write_fen`],
//!   [`write_move`], [`MoveToken`];
//! * PDN: the [`Reader`] of [`Game`]s and the writer ([`write_game`],
//!   [`write_games`]);
//! * reading a game's moves: [`replay()`], [`check_game`], [`FileChecker`],
//!   [`CheckRecord`] and its [`Status`], [`record_tags`], [`Overrides`];
//! * clean PDN out: [`export_text`], [`ExportOptions`]; board pictures:
//!   [`Board`] and the [`render`] module;
//! * the database: [`Store`] opened in a [`Mode`], failing with
//!   [`StoreError`]; an [`Importer`] fills it; the typed queries take a
//!   [`PositionQuery`], [`VariantFilter`], [`GameFilter`] (read from
//!   [`GameFilterText`]) or [`ProblemFilter`] and answer [`SearchHit`]s,
//!   [`TreeMove`]s, [`GameRow`]s, [`PlayerRow`]s, a [`GameView`],
//!   [`Stats`]; one writer at a time holds the [`WriteLock`]; a database
//!   file is known by its [`APPLICATION_ID`] and its schema step,
//!   [`latest_step`] for this version.
//!
//! ```
//! use pdndb::{Notation, Position, Rules, parse_fen, perft, write_fen, write_move};
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
//!
//! A database built from PDN text, then asked which games reach a
//! position:
//!
//! ```
//! use pdndb::{GameFilter, Importer, Input, Mode, Overrides, Store};
//!
//! let dir = tempfile::tempdir()?;
//! let pdn = dir.path().join("games.pdn");
//! std::fs::write(
//!     &pdn,
//!     "[White \"Ana\"]\n[Black \"Ben\"]\n[Result \"1-0\"]\n\n1. 23-18 10-15 2. 21-17 1-0\n",
//! )?;
//! let db = dir.path().join("games.sqlite");
//! let mut store = Store::open(&db, Mode::Write)?;
//! let inputs = vec![Input::open(&pdn, None)?.expect("PDN")];
//! let (summary, failed) = Importer::new(&mut store, Overrides::default())
//!     .run(&inputs, &mut |_| {})?;
//! assert_eq!((summary.games, failed), (1, 0));
//! drop(store);
//!
//! let store = Store::open(&db, Mode::Read)?;
//! let query = store.position_query(None, Some("1. 23-18 10-15"), None)?;
//! let found = store.search(&query.position, &query.filter, &GameFilter::default(), 0)?;
//! assert_eq!(found.hits.len(), 1);
//! assert_eq!(found.hits[0].ply, 2);
//! assert_eq!(found.hits[0].tags["White"], "Ana");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Layers
//!
//! Data flows up through the layers:
//!
//! * [`rules`] — board geometry, positions, variants, legal moves, Zobrist
//!   keys, perft;
//! * [`notation`] — the four ways of naming squares (numeric, algebraic on the
//!   Vismin and Luzon boards, Dama numbers), move tokens and FEN;
//! * [`pdn`] — the streaming, tolerant PDN reader and the PDN writer;
//! * [`replay`](mod@replay) — move tokens read over every interpretation, the check
//!   records and variant detection;
//! * [`export`] — clean PDN from games as read and replayed;
//! * [`render`] — board pictures: Unicode text, SVG and the HTML report;
//! * [`store`] — the SQLite database: import, the position index and the
//!   typed queries both front ends call;
//!
//! and above them the two front ends of the `pdndb` binary, the command
//! line and the web explorer with its JSON API, which are not part of the
//! library's interface. Beside them, [`memory`] lets the binary say how
//! freed memory goes back to the system between the phases of an import.
#![forbid(unsafe_code)]
// Output goes through `cli::output`, which a closed pipe cannot make panic.
#![deny(clippy::print_stdout, clippy::print_stderr)]

#[doc(hidden)]
pub mod cli;
pub(crate) mod escape;
pub mod export;
pub(crate) mod fs_error;
#[doc(hidden)]
pub mod generate;
pub mod memory;
pub mod message;
pub mod notation;
pub mod openings;
pub mod pattern;
pub mod pdn;
pub(crate) mod quote;
pub mod render;
pub mod replay;
pub mod rules;
#[doc(hidden)]
pub mod serve;
pub mod store;

pub use export::{ExportOptions, export_text};
pub use notation::{
    Fen, FenError, MoveToken, Notation, ParseNotationError, parse_fen, parse_fen_on, write_fen,
    write_move, write_move_among,
};
pub use pdn::{Game, Input, Reader, write_game, write_games};
pub use render::Board;
pub use replay::{
    CheckRecord, CheckedGame, FileChecker, Overrides, RecordBody, RecordSource, Status,
    VariantFrom, check_game, record_tags, replay,
};
pub use rules::{
    Color, Geometry, Move, Piece, Position, PositionError, Preset, Rules, RulesError, Setup,
    Square, divide, perft,
};
pub use store::games::{GameFilter, GameFilterText, GameList, GameRow, GameSort};
pub use store::import::{ImportSummary, Importer, Progress};
pub use store::param::Param;
pub use store::players::PlayerRow;
pub use store::problems::ProblemFilter;
pub use store::query::{
    PositionQuery, QueryError, SearchHit, SearchResult, Stats, TreeMove, VariantFilter,
};
pub use store::recheck::RecheckSummary;
pub use store::remove::RemoveSummary;
pub use store::view::{GameView, ViewError};
pub use store::{
    APPLICATION_ID, GameId, LockError, Mode, Store, StoreError, StoredPart, WriteLock, latest_step,
};
