//! `pdndb search`: every game that reaches a position.

use std::io::Write;

use clap::Args;

use super::board::print_query_board;
use super::error::{CliError, Exit};
use super::games::GameFilterArgs;
use super::output::write_json_line;
use super::query_args::{PositionArgs, open_store, warn_unindexed};
use crate::escape::visible;
use crate::pattern::{Colours, ParseColoursError};
use crate::render::Board;
use crate::store::listing::Roster;
use crate::store::param::Wording;
use crate::store::query::SearchHit;
use crate::store::scan::criteria;

/// Arguments of `search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub games: GameFilterArgs,
    /// Games with a position that fits this pattern (instead of one exact
    /// position), e.g. "W:W27,28:B19": see the manual for its form.
    #[arg(long, conflicts_with_all = ["fen", "moves"])]
    pub pattern: Option<String>,
    /// The pattern in its JSON form (as the web API takes it).
    #[arg(long, conflicts_with_all = ["fen", "moves", "pattern"])]
    pub pattern_json: Option<String>,
    /// Games with a position of this material, e.g. "wk=1,bm=2-3" (keys
    /// wm, wk, bm, bk, w, b; values N, N-M, N+); with --pattern, both hold.
    #[arg(long, conflicts_with_all = ["fen", "moves"])]
    pub material: Option<String>,
    /// Games that play a move of this kind, e.g. "B K 46x2 taken=3"; given
    /// several times, games that play them in that order (not necessarily
    /// one right after the other); with --pattern or --material, the hit is
    /// the first position from the last of them on that fits those too.
    /// See the manual for its form.
    #[arg(long, conflicts_with_all = ["fen", "moves"])]
    pub manoeuvre: Vec<String>,
    /// Take the position (or pattern, or material) as given, with colours
    /// reversed (the board turned half a circle, colours and the side to
    /// move swapped) or both ways.
    #[arg(long, default_value = "as-given", value_parser = ["as-given", "reversed", "both"])]
    pub colours: String,
    /// With --pattern or --material: list every position of a game that
    /// fits, not only the first.
    #[arg(long)]
    pub all_plies: bool,
    /// At most this many games, by id (0 = all).
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// One JSON object per game.
    #[arg(long)]
    pub json: bool,
    /// Print the board of the queried position above the results (numeric square numbers;
    /// the last move of --moves marked). With --json the board goes to
    /// standard error, so standard output stays JSON lines.
    #[arg(long)]
    pub board: bool,
}

/// Runs `search`.
///
/// # Errors
/// A missing database, or a position that cannot be read.
pub fn cmd_search(
    args: &SearchArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let store = open_store(db)?;
    let query = args.position.resolve(&store)?;
    warn_unindexed(&store)?;
    let filter = args.games.filter(None)?;
    let colours: Colours = args
        .colours
        .parse()
        .map_err(|e: ParseColoursError| CliError::Usage(format!("--colours: {e}")))?;
    if args.pattern.is_some()
        || args.pattern_json.is_some()
        || args.material.is_some()
        || !args.manoeuvre.is_empty()
    {
        let manoeuvres: Vec<&str> = args.manoeuvre.iter().map(String::as_str).collect();
        let found = criteria(
            args.pattern.as_deref(),
            args.pattern_json.as_deref(),
            args.material.as_deref(),
            &manoeuvres,
            colours,
            &query.rules,
        )
        .map_err(|e| CliError::Usage(e.worded(Wording::Options)))?;
        if let Some(note) = query.variant.note() {
            say!("search: {note}");
        }
        let shown = store.each_pattern_hit(
            &found,
            &query.filter,
            &filter,
            args.all_plies,
            args.limit,
            |hit| write_hit(out, &hit, args.json),
        )?;
        if !args.json {
            say!("{shown}");
        }
        return Ok(Exit::Success);
    }
    if args.all_plies {
        return Err(CliError::Usage(
            "--all-plies: only with --pattern or --material (an exact position is reached once a game)"
                .to_string(),
        ));
    }
    if args.board {
        let mut board = Board::new(
            query.position,
            query.rules.geometry,
            crate::notation::Notation::Numeric,
        );
        board.last_move = query.last_move;
        print_query_board(&board, args.json, out)?;
    }
    if let Some(note) = query.variant.note() {
        say!("search: {note}");
    }
    // Each game is written as it is found.
    let shown = store.each_search_hit_in(&query, colours, &filter, args.limit, |hit| {
        write_hit(out, &hit, args.json)
    })?;
    if !args.json {
        say!("{shown}");
    }
    Ok(Exit::Success)
}

/// Writes one game found: a JSON line, or a line for people.
fn write_hit(out: &mut impl Write, hit: &SearchHit, json: bool) -> Result<(), CliError> {
    if json {
        write_json_line(out, hit)?;
        return Ok(());
    }
    let reversed = if hit.reversed {
        " (colours reversed)"
    } else {
        ""
    };
    let plies = match &hit.matching_plies {
        Some(plies) if plies.len() > 1 => {
            let list: Vec<String> = plies.iter().map(i64::to_string).collect();
            format!(" (plies {})", list.join(", "))
        }
        _ => String::new(),
    };
    writeln!(
        out,
        "{} ({}) [id {}]: at ply {}{plies}{reversed}, {}, {}",
        hit.place(),
        Roster::of(&hit.tags, &hit.variant),
        hit.game,
        hit.ply,
        hit.outcome,
        visible(&hit.variant)
    )?;
    Ok(())
}
