//! Everything that writes: import, the index, rows, counts, identities, the places of games read again, popular positions, recheck, removal, aliases, the result checks of games stored before them, and the check of what they maintain.

pub mod alias;
pub(crate) mod checkpoint;
pub(crate) mod counts;
pub(crate) mod identity;
pub mod import;
pub mod index;
pub mod invariants;
pub(crate) mod kept;
pub(crate) mod key_filter;
pub(crate) mod move_ids;
pub(crate) mod openings;
pub(crate) mod places;
pub mod popular;
pub(crate) mod prepared;
pub(crate) mod query_indexes;
pub mod recheck;
pub mod remove;
pub(crate) mod result_checks;
pub(crate) mod rows;
pub(crate) mod run_merge;
pub(crate) mod run_rows;
