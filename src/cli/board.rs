//! Boards printed by the commands, and whether the terminal gets colour.

use std::io::{IsTerminal, Write};

use super::error::CliError;
use crate::notation::Notation;
use crate::render::{Board, text};
use crate::rules::{Geometry, Position};

/// Whether text for this stream may carry colour: a terminal, and no
/// `NO_COLOR` in the environment.
pub fn colour_for(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A plain board diagram, without marks or colour.
pub fn diagram(position: &Position, geometry: &'static Geometry, notation: Notation) -> String {
    text::render(&Board::new(*position, geometry, notation), false)
}

/// Prints the board of a query (`search`/`tree --board`): to `out` in
/// text mode, to stderr with `--json` so standard output stays JSON.
///
/// # Errors
/// A failed write.
pub fn print_query_board(board: &Board, json: bool, out: &mut impl Write) -> Result<(), CliError> {
    if json {
        let stderr = std::io::stderr();
        let colour = colour_for(&stderr);
        let mut err = stderr.lock();
        write!(err, "{}", text::render(board, colour))?;
        writeln!(err)?;
    } else {
        let colour = colour_for(&std::io::stdout());
        write!(out, "{}", text::render(board, colour))?;
        writeln!(out)?;
    }
    Ok(())
}
