//! The one integration test binary: the library's public API and the real
//! `pdndb` binary, over data files in `tests/data/` and `sample-pdn/`.

mod check;
mod cli;
mod engine;
mod export;
mod parsers;
mod perft;
mod pictures;
mod reader;
mod robust;
mod seed_game;
mod store;
mod zobrist;

use std::path::PathBuf;

/// A path under the crate root.
pub fn crate_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative)
}
