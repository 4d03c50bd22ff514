//! The command line's definition: the global options and one subcommand,
//! each with the arguments its own module defines.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use super::{
    alias, check, completions, export, games, generate, import, man, openings, perft, players,
    recheck, remove, report, search, serve, show, stats, tree,
};

/// A database for draughts games recorded in PDN, Filipino Dama first.
#[derive(Debug, Parser)]
#[command(name = "pdndb", version, about)]
pub struct Cli {
    /// The database file (default: $PDNDB_DB, else pdndb.sqlite here).
    #[arg(long, global = true, env = "PDNDB_DB", default_value = "pdndb.sqlite")]
    pub db: PathBuf,

    #[command(subcommand)]
    pub(super) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Read PDN files and folders into the database.
    ///
    /// A file imported again with new content or options has its games
    /// replaced. A file that is not PDN (empty, binary, or text with
    /// neither a tag pair nor a move) is skipped with a message; that is
    /// not an error (exit status 0).
    Import(import::ImportArgs),
    /// Take files (with their games) or single games out of the database.
    Remove(remove::RemoveArgs),
    /// Every game in the database that reaches a position.
    Search(search::SearchArgs),
    /// The moves played from a position, with their results.
    Tree(tree::TreeArgs),
    /// The problem games in the database (or twins: same moves, different games).
    Report(report::ReportArgs),
    /// A game's tags, moves and a board.
    Show(show::ShowArgs),
    /// The games as clean PDN 3.0 (all games unless filtered).
    Export(export::ExportArgs),
    /// What the database holds.
    Stats(stats::StatsArgs),
    /// Read and replay games without a database; report each that is not ok.
    ///
    /// A file that is not PDN (empty, binary, or text with neither a tag
    /// pair nor a move) is skipped with a message; that is not an error
    /// (it leaves the exit status as the games read make it).
    Check(check::CheckArgs),
    /// Count the leaves of the legal move tree to a given depth.
    Perft(perft::PerftArgs),
    /// Write random legal games as PDN (deterministic for a seed).
    Generate(generate::GenerateArgs),
    /// Read the stored games again with the current rules and inference.
    Recheck(recheck::RecheckArgs),
    /// Print a shell completion script (bash, zsh, fish, …).
    Completions(completions::CompletionsArgs),
    /// Print a manual page, in roff (or write every page into a folder).
    Man(man::ManArgs),
    /// The games whose tags match: players, event, site, date, result.
    Games(games::GamesArgs),
    /// Each player's games and results.
    Players(players::PlayersArgs),
    /// Each named opening's games, share and results.
    ///
    /// With --table, the names the built-in tables give, without a
    /// database.
    Openings(openings::OpeningsArgs),
    /// Give a player's names one canonical name (`players`, `games
    /// --player` and `export --canonical-names` use it).
    Alias(alias::AliasArgs),
    /// The web explorer: board, opening tree, games and problems, in a
    /// browser (and its JSON API), read-only.
    Serve(serve::ServeArgs),
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }
}
