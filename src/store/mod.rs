//! The SQLite database: schema, import, queries.
//!
//! [`Store`] owns the connection. Opening refuses a file that is not
//! pdndb's before writing anything; for writing it sets the per-connection
//! pragmas (WAL, so readers can query during an import), marks the database
//! as pdndb's and applies missing schema steps; queries write nothing (but
//! bring a database of an older pdndb up to date first, under the writers'
//! lock). A database newer than the binary is refused.
//!
//! # Layers
//!
//! Each folder imports only from the folders below it; `write` and `read`
//! never import each other; nothing imports from this file, which only
//! declares the folders and re-exports what the rest of the crate uses
//! (`scripts/import_graph.rs` checks all of it):
//!
//! ```text
//! schema/   opening a database (connect.rs, open.rs) and its schema steps
//!           (migrate.rs); legacy/ holds the formats of older steps, read
//!           only by the steps that convert them
//!    |
//! write/    import, the index build, rows, counts, identities, popular
//!           positions, recheck, removal, aliases, result checks of older
//!           games, the check of what they maintain
//! read/     queries: positions, trees, games, players (and similar
//!           names), listings, the explorer, game views, problem games
//!    |
//! stored/   what both sides share: errors, the Store handle, the write
//!           lock, the position index's table, a stored game's columns and
//!           records, the keys of popular positions, player aliases
//!    |
//! codec/    data formats, no SQL: bit strings, position postings, stored
//!           text, id sets, move lists
//! ```
//!
//! A new query goes in `read/`; a helper both sides need goes down into
//! `stored/` (or `codec/` when it touches no database), never into a
//! writer or a query file. `schema/` sits on top because bringing an old
//! database up to date rebuilds what the writers build.

mod codec;
mod read;
mod schema;
mod stored;
mod write;

pub use read::explore;
pub use read::export;
pub use read::games;
pub use read::listing;
pub use read::openings;
pub use read::players;
pub use read::problems;
pub use read::query;
pub use read::scan;
pub use read::similar;
pub use read::view;
pub use stored::aliases;
pub use stored::lock;
pub use stored::param;
pub use stored::record;
pub use write::alias;
pub use write::import;
pub use write::invariants;
pub use write::recheck;
pub use write::remove;

pub use stored::error::{Foreign, MigrateError, StoreError, StoredPart};
pub use stored::handle::{Mode, Store};
pub use stored::id::GameId;
pub use stored::lock::{LockError, WriteLock};

pub use schema::migrate::{latest as latest_step, steps as schema_steps};
pub use schema::open::APPLICATION_ID;
