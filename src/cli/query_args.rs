//! Arguments shared by the query commands: the database, the position
//! asked about and the variant filter.

use std::path::Path;

use clap::Args;

use super::CliError;
use crate::pdn::Reader;
use crate::replay::{Overrides, Reading, Status, check_game};
use crate::rules::{Move, Position, Rules};
use crate::store::query::{VariantFilter, position_from_fen};
use crate::store::{Mode, Store};

/// Opens the database for queries.
///
/// # Errors
/// A missing, unreadable or too new database.
pub fn open_store(db: &Path) -> Result<Store, CliError> {
    Ok(Store::open(db, Mode::Read)?)
}

/// The position a query is about.
#[derive(Debug, Default, Args)]
pub struct PositionArgs {
    /// The position as a FEN (numeric, or algebraic on either board).
    #[arg(long)]
    pub fen: Option<String>,
    /// The position after these moves from the start (any notation), e.g.
    /// "1. 23-18 10-15".
    #[arg(long, conflicts_with = "fen")]
    pub moves: Option<String>,
    /// Only games of this variant: a preset name (any switches) or a full
    /// variant string. For --moves and the start position it also chooses
    /// the rules (default: the preset with most games).
    #[arg(long)]
    pub variant: Option<String>,
}

impl PositionArgs {
    /// The position, the filter, and the move that led to the position
    /// when it was given by `--moves`. Without `--fen` or `--moves`, the
    /// start position of the variant.
    ///
    /// # Errors
    /// A FEN or move list that cannot be read, naming the bad part.
    pub fn resolve_with_last_move(
        &self,
        store: &Store,
    ) -> Result<(Position, VariantFilter, Option<Move>), CliError> {
        let usage = |m: String| CliError::Usage(m);
        if let Some(fen) = &self.fen {
            if let Some(v) = &self.variant {
                Rules::parse(v).map_err(|e| usage(e.to_string()))?;
            }
            return Ok((
                position_from_fen(fen).map_err(usage)?,
                VariantFilter(self.variant.clone()),
                None,
            ));
        }
        let rules = match &self.variant {
            Some(v) => Rules::parse(v).map_err(|e| usage(format!("--variant: {e}")))?,
            None => store
                .main_preset()
                .map_err(|e| usage(e.to_string()))?
                .rules(),
        };
        let filter = VariantFilter(Some(
            self.variant
                .clone()
                .unwrap_or_else(|| rules.preset.name().to_string()),
        ));
        let Some(moves) = &self.moves else {
            return Ok((Position::initial(&rules), filter, None));
        };
        let (position, last) = position_after(moves, rules).map_err(usage)?;
        Ok((position, filter, last))
    }
}

/// The position after a list of moves played from the start by `rules`,
/// with the last of those moves.
///
/// # Errors
/// Moves that cannot be read, or do not make exactly one legal sequence.
pub fn position_after(moves: &str, rules: Rules) -> Result<(Position, Option<Move>), String> {
    let mut reader = Reader::new(moves.as_bytes());
    let game = match reader.next_game() {
        Ok(Some(game)) => game,
        _ => return Err("--moves: no moves given".to_string()),
    };
    let overrides = Overrides {
        rules: Some(rules),
        skip_alternatives: true,
        ..Overrides::default()
    };
    let checked = check_game(&game, "--moves", &overrides);
    if checked.record.status != Status::Ok {
        let why = checked
            .record
            .message
            .unwrap_or_else(|| checked.record.status.name().to_string());
        return Err(format!("--moves: {why}"));
    }
    let Reading::Replayed { start, replay, .. } = checked.reading else {
        return Err("--moves: cannot be read".to_string());
    };
    let last = replay.reading.last().map(|step| step.chosen);
    let position = replay
        .reading
        .iter()
        .fold(start, |p, step| p.play(&step.chosen));
    Ok((position, last))
}
