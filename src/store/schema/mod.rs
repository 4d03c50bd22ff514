//! Opening a database and bringing its schema up to date.

pub(crate) mod connect;
pub(crate) mod legacy;
pub(crate) mod migrate;
pub(crate) mod open;
