//! What both sides of the store share: the write lock, stored records.

pub(crate) mod error;
pub(crate) mod handle;
pub mod lock;
pub mod record;

pub(crate) use error::StoreError;
pub(crate) use handle::{Store, TEMP_STORE, sql_count};
