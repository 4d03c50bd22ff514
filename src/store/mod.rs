//! The SQLite database: schema, import, queries.
//!
//! [`Store`] owns the connection. Opening refuses a file that is not
//! pdndb's before writing anything; for writing it sets the per-connection
//! pragmas (WAL, so readers can query during an import), marks the database
//! as pdndb's and applies missing schema steps; queries write nothing (but
//! bring a database of an older pdndb up to date first). A database newer
//! than the binary is refused.

mod codec;
mod read;
mod schema;
mod stored;
mod write;

pub use codec::moves;
pub use read::explore;
pub use read::games;
pub use read::listing;
pub use read::players;
pub use read::problems;
pub use read::query;
pub use read::view;
pub use schema::legacy::postings10;
pub use schema::legacy::postings12;
pub use stored::lock;
pub use stored::postings;
pub use stored::record;
pub use write::import;
pub use write::index;
pub use write::invariants;
pub use write::popular;
pub use write::recheck;
pub use write::remove;

pub use stored::error::{Foreign, MigrateError, StoreError};
pub use stored::handle::{Mode, Store};
pub use stored::lock::{LockError, WriteLock};

pub use schema::migrate::{latest as latest_step, steps as schema_steps};
pub use schema::open::APPLICATION_ID;
