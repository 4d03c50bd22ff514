//! What both sides of the store share: the write lock, stored records.

pub mod lock;
pub mod record;
