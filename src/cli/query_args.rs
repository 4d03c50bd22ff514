//! Arguments shared by the query commands: the database, the position
//! asked about and the variant filter.

use std::path::Path;

use clap::Args;

use super::error::CliError;
use crate::store::param::Wording;
use crate::store::query::{PositionQuery, QueryError};
use crate::store::{Mode, Store};

/// Opens the database for queries.
///
/// # Errors
/// A missing, unreadable or too new database.
pub fn open_store(db: &Path) -> Result<Store, CliError> {
    Ok(Store::open(db, Mode::Read)?)
}

/// Says when a position query cannot find every game: some are stored
/// but not yet in the index.
///
/// # Errors
/// A database failure.
pub fn warn_unindexed(store: &Store) -> Result<(), CliError> {
    let missing = store.unindexed()?;
    if missing > 0 {
        if crate::store::lock::is_held(store.path()) {
            say!(
                "warning: {missing} games are not indexed yet: an import is writing them; ask again when it is done"
            );
        } else {
            say!("warning: {missing} games are not indexed yet: run pdndb import again");
        }
    }
    Ok(())
}

/// Opens the database for a command that writes, once no other writer
/// holds it: waits up to `wait`, saying so once if it has to.
///
/// # Errors
/// A database that cannot be opened or written, or another writer for the
/// whole wait.
pub fn open_writer(db: &Path, wait: std::time::Duration) -> Result<Store, CliError> {
    Ok(Store::open_writer(db, wait, &mut |pid| {
        let holder = pid.map(|pid| format!(" (pid {pid})")).unwrap_or_default();
        say!(
            "{}: another import is writing to it{holder}; waiting up to {} s for it to finish",
            db.display(),
            wait.as_secs()
        );
    })?)
}

/// The position a query is about.
#[derive(Debug, Default, Args)]
pub struct PositionArgs {
    /// The position as a FEN (numeric, or algebraic on either board).
    #[arg(long)]
    pub fen: Option<String>,
    /// The position after these moves from the start (any notation),
    /// separated by spaces or commas, move numbers optional: "1. 23-18
    /// 10-15" or "23-18,10-15".
    #[arg(long, conflicts_with = "fen")]
    pub moves: Option<String>,
    /// Only games of this variant (any case): a preset name (any
    /// switches) or a full variant string; one no stored game has is an
    /// error. For --moves and the start position it also chooses the rules
    /// (default: the preset with most games).
    #[arg(long)]
    pub variant: Option<String>,
}

impl PositionArgs {
    /// The position asked about (without `--fen` or `--moves`, the start
    /// position of the variant), its board, the games to look at and the
    /// move that led there when it was given by `--moves`.
    ///
    /// # Errors
    /// A variant, FEN or move list that cannot be read, naming the bad part.
    pub fn resolve(&self, store: &Store) -> Result<PositionQuery, CliError> {
        store
            .position_query(
                self.fen.as_deref(),
                self.moves.as_deref(),
                self.variant.as_deref(),
            )
            .map_err(|e| match e {
                QueryError::Store(e) => CliError::Store(e),
                other => CliError::Usage(other.worded(Wording::Options)),
            })
    }
}
