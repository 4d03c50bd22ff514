//! Data formats of the database, no SQL: bit strings, position postings, stored text, id sets, move ids.

pub(crate) mod bits;
pub mod compact;
pub(crate) mod id_set;
pub mod moves;
pub mod postings;
pub mod summary;
pub(crate) mod text;
pub(crate) mod text_model;
