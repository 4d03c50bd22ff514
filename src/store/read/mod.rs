//! Queries: positions, trees, games, players, similar names, listings, filtered trees, the explorer, game views, problem games.

pub mod explore;
pub mod export;
pub mod games;
pub mod listing;
pub mod openings;
pub mod players;
pub(in crate::store) mod prefilter;
pub mod problems;
pub mod query;
pub mod scan;
pub mod similar;
pub mod tree;
pub mod tree_start;
pub mod view;
