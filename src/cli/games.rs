//! `pdndb games`: games listed by their tags; and the filter by tags that
//! `search` shares.

use std::io::Write;

use clap::Args;

use super::error::{CliError, Exit};
use super::game_text::tag_text;
use super::output::write_json_line;
use super::query_args::open_store;
use crate::escape::visible;
use crate::replay::Status;
use crate::store::games::{
    DateRange, DateRangeError, FilterProblem, GameFilter, GameFilterText, GameSort, ResultFilter,
};
use crate::store::listing::{Place, Roster};
use crate::store::param::Wording;

/// Games chosen by their tags and status (shared by `games` and
/// `search`).
#[derive(Debug, Default, Args)]
pub struct GameFilterArgs {
    #[command(flatten)]
    pub tags: TagFilterArgs,
    /// Games of this status.
    #[arg(long, value_name = "S", ignore_case = true, value_enum)]
    pub status: Option<Status>,
}

/// Games chosen by their tags (shared by `games`, `search` and `export`).
/// Names, events and sites match as substrings, without case or accents;
/// `%` and `_` are plain characters.
#[derive(Debug, Default, Args)]
pub struct TagFilterArgs {
    /// Games where White or Black contains this.
    #[arg(long, value_name = "NAME", value_parser = some_text)]
    pub player: Option<String>,
    /// Games where White contains this.
    #[arg(long, value_name = "NAME", value_parser = some_text)]
    pub white: Option<String>,
    /// Games where Black contains this.
    #[arg(long, value_name = "NAME", value_parser = some_text)]
    pub black: Option<String>,
    /// Games whose event contains this.
    #[arg(long, value_name = "TEXT", value_parser = some_text)]
    pub event: Option<String>,
    /// Games whose site contains this.
    #[arg(long, value_name = "TEXT", value_parser = some_text)]
    pub site: Option<String>,
    /// Games played in FROM..TO (either end may be left out), or on one
    /// date; each YYYY, YYYY.MM or YYYY.MM.DD. Games without a readable
    /// date never match.
    #[arg(long, value_name = "FROM..TO", allow_hyphen_values = true, value_parser = date_range)]
    pub date: Option<DateRange>,
    /// Games with this result as written (1-0, 0-1, 1/2-1/2, 0-0, *), or
    /// won by white or black, or drawn (draw), read per variant.
    #[arg(long, value_name = "R", allow_hyphen_values = true)]
    pub result: Option<ResultFilter>,
    /// Games whose opening's name contains this (see `pdndb openings`).
    #[arg(long, value_name = "NAME")]
    pub opening: Option<String>,
}

impl GameFilterArgs {
    /// The filter these arguments ask for (`variant` as given apart).
    ///
    /// # Errors
    /// A variant that is none, naming the option.
    pub fn filter(&self, variant: Option<&str>) -> Result<GameFilter, CliError> {
        Ok(GameFilter {
            status: self.status,
            ..self.tags.filter(variant)?
        })
    }
}

impl TagFilterArgs {
    /// The filter these arguments ask for (`variant` as given apart).
    ///
    /// # Errors
    /// A variant that is none, naming the option.
    pub fn filter(&self, variant: Option<&str>) -> Result<GameFilter, CliError> {
        // The variant and the opening are checked against the tables.
        let checked = GameFilterText {
            variant,
            opening: self.opening.as_deref(),
            ..GameFilterText::default()
        }
        .parse()
        .map_err(|e| CliError::Usage(e.worded(Wording::Options)))?;
        Ok(GameFilter {
            player: self.player.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            event: self.event.clone(),
            site: self.site.clone(),
            date: self.date.clone(),
            result: self.result,
            status: None,
            variant: checked.variant,
            opening: checked.opening,
            colour: None,
        })
    }
}

/// A date range; the message leaves the range out, as clap names it.
fn date_range(text: &str) -> Result<DateRange, String> {
    text.parse()
        .map_err(|e: DateRangeError| e.reason().to_string())
}

/// A text to look for: not empty.
fn some_text(text: &str) -> Result<String, FilterProblem> {
    if text.trim().is_empty() {
        Err(FilterProblem::Empty)
    } else {
        Ok(text.to_string())
    }
}

/// Arguments of `games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    #[command(flatten)]
    pub filter: GameFilterArgs,
    /// Only games of this variant: a preset name (any switches) or a full
    /// variant string.
    #[arg(long)]
    pub variant: Option<String>,
    /// The order of the list (each then by id).
    #[arg(long, value_enum, default_value_t = GameSort::Id)]
    pub sort: GameSort,
    /// At most this many games (0 = all).
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// Skip this many games first.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// One JSON object per game.
    #[arg(long)]
    pub json: bool,
}

/// Runs `games`. The count ("N of M games") goes to standard error.
///
/// # Errors
/// A missing database, or a filter that cannot be read.
pub fn cmd_games(
    args: &GamesArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let filter = args.filter.filter(args.variant.as_deref())?;
    let store = open_store(db)?;
    let sort = args.sort;
    // Each game is written as it is read.
    let shown = store.each_listed_game(&filter, sort, args.limit, args.offset, |game| {
        if args.json {
            return write_json_line(out, &game);
        }
        let tag = |n: &str| tag_text(Some(&game.tags), n);
        let place = Place {
            file: &game.file,
            line: game.line,
            index: game.index,
        };
        let opening = match &game.opening {
            Some(name) => format!("  {}", visible(name)),
            None => String::new(),
        };
        writeln!(
            out,
            "{:>6}  {:<10}  {}  {} ({})  {}  {place}{opening}",
            game.game,
            tag("Date"),
            Roster::of(&game.tags, &game.variant).players(),
            visible(game.result.as_deref().unwrap_or("*")),
            game.outcome,
            tag("Event"),
        )?;
        Ok::<_, CliError>(())
    })?;
    say!("{shown}");
    Ok(Exit::Success)
}
