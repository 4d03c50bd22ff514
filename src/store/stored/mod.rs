//! What both sides of the store share: the errors, the handle of an open
//! database, the write lock, the position index's table, a stored game's
//! columns and records, the keys of popular positions, player aliases,
//! the events, sites and names found by a part of them.

pub mod aliases;
pub(crate) mod error;
pub(crate) mod folds;
pub(crate) mod game;
pub(crate) mod handle;
pub mod id;
pub mod lock;
pub mod param;
pub(crate) mod popular;
pub mod postings;
pub mod record;
mod sql_values;

pub(crate) use error::StoreError;
pub(crate) use handle::{Store, TEMP_STORE, sql_count};
