//! The `pdndb` command line: argument parsing, dispatch and exit codes.
//! One file per subcommand.

#[macro_use]
pub mod output;

mod board;
mod check;
mod completions;
mod export;
mod files;
mod games;
mod generate;
mod import;
mod man;
mod perft;
mod players;
mod progress;
mod query_args;
mod recheck;
mod remove;
mod report;
mod search;
mod serve;
mod show;
mod stats;
mod terminal_text;
mod tree;
mod values;
mod write_file;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A database for draughts games recorded in PDN, Filipino Dama first.
#[derive(Debug, Parser)]
#[command(name = "pdndb", version, about)]
pub struct Cli {
    /// The database file (default: $PDNDB_DB, else pdndb.sqlite here).
    #[arg(long, global = true, env = "PDNDB_DB", default_value = "pdndb.sqlite")]
    pub db: PathBuf,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
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
    /// Print the manual page, in roff.
    Man,
    /// The games whose tags match: players, event, site, date, result.
    Games(games::GamesArgs),
    /// Each player's games and results.
    Players(players::PlayersArgs),
    /// The web explorer: board, opening tree, games and problems, in a
    /// browser (and its JSON API), read-only.
    Serve(serve::ServeArgs),
}

/// `--variant auto`: each game's rules from its tags, else inferred from
/// its moves, whatever options were remembered with its file.
pub const AUTO: &str = "auto";

/// How to read games, for every command that reads PDN: these override
/// what each game's tags and moves suggest.
#[derive(Debug, Default, clap::Args)]
pub struct ReadingArgs {
    /// Read every game by this rules preset (default: the game's tags, else
    /// inferred from its moves; `auto`: so, even for a file imported
    /// before with a preset or other options, which it then forgets).
    #[arg(long, ignore_case = true, value_enum)]
    pub variant: Option<values::PresetOrAuto>,
    /// Rules switches: max-capture=on|off|value, king-first=off|on,
    /// promotion=continue-man|stop|continue-king, king-limit=on|off
    /// (comma-separated).
    #[arg(long)]
    pub rules: Option<String>,
    /// Read every game's moves in this notation.
    #[arg(long, ignore_case = true, value_enum)]
    pub notation: Option<crate::notation::Notation>,
    /// Read the files' text in this encoding (utf-8, windows-1252,
    /// windows-1251, iso-8859-2, koi8-r, utf-16le, utf-16be, …) instead of
    /// detecting it.
    #[arg(long, value_name = "NAME", value_parser = crate::pdn::encoding_for_label)]
    pub encoding: Option<&'static crate::pdn::Encoding>,
    /// Threads that read and replay games (default: one per core); the
    /// output is the same for every number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
}

impl ReadingArgs {
    /// The threads to read and replay games on: `--jobs`, else one per
    /// core.
    pub fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            usize::from,
        )
    }

    /// Whether `--variant auto` was given.
    pub fn auto(&self) -> bool {
        self.variant == Some(values::PresetOrAuto::Auto)
    }

    /// `--variant`, unless `auto`.
    fn preset(&self) -> Option<crate::rules::Preset> {
        match self.variant {
            Some(values::PresetOrAuto::Preset(p)) => Some(p),
            _ => None,
        }
    }

    /// The overrides these arguments ask for.
    ///
    /// # Errors
    /// An unknown preset, switch or notation.
    pub fn overrides(&self) -> Result<crate::replay::Overrides, CliError> {
        let usage = |e: &dyn std::fmt::Display| CliError::Usage(e.to_string());
        let rules = match self.preset() {
            Some(p) => Some(
                crate::rules::Rules::from_args(Some(p.name()), self.rules.as_deref())
                    .map_err(|e| usage(&e))?,
            ),
            None => None,
        };
        let switches = match (self.preset(), &self.rules) {
            (None, Some(s)) => {
                crate::rules::Rules::default()
                    .apply_switches(s)
                    .map_err(|e| usage(&e))?;
                Some(s.clone())
            }
            _ => None,
        };
        let notation = self.notation;
        Ok(crate::replay::Overrides {
            rules,
            switches,
            notation,
            skip_alternatives: false,
            positions: crate::replay::KeptPositions::All,
        })
    }
}

/// Exit statuses shared by every command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Success (`check`/`report`: every listed game is `ok`).
    Success = 0,
    /// `check`/`report`: some listed game is not `ok`.
    Problems = 1,
    /// Bad arguments or input that could not be read.
    Error = 2,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// An error that ends a command: a message for people.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad arguments.
    #[error("{0}")]
    Usage(String),
    /// Writing output failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// A file of the command's (`-o`, `--html`, `--svg`) could not be
    /// written: which, and that it is left as it was.
    #[error("{0}")]
    Output(String),
    /// The database cannot be opened, read or written.
    #[error("{0}")]
    Store(#[from] crate::store::StoreError),
    /// A command that was given what it needs failed while it ran (the
    /// web server's port cannot be listened on, or the server stopped):
    /// exit status 1, not 2, which says the command was asked wrongly.
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    /// The exit status the error ends the command with.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Failed(_) => ExitCode::from(1),
            _ => Exit::Error.into(),
        }
    }
}

/// A tag's value from a JSON tag object, cleaned for people
/// ([`crate::export::clean_tag_value`]), `?` when absent or empty (names compared
/// without case; a standard tag also read through its names in other
/// languages, see [`crate::pdn::standard_tag`]).
pub fn tag_text(tags: Option<&serde_json::Map<String, serde_json::Value>>, name: &str) -> String {
    let pairs = tags
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
    crate::pdn::standard_tag(pairs, name)
        .map(crate::export::clean_tag_value)
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

/// The name of the player of `color` as a listing shows it, `?` when
/// there is none: the `White` or `Black` tag, else PlayStrategy's `P1` or
/// `P2` as the game's `variant` says ([`crate::store::listing::player`]).
pub fn player_text(
    tags: &serde_json::Map<String, serde_json::Value>,
    color: crate::rules::Color,
    variant: &str,
) -> String {
    crate::store::listing::player(tags, color, variant)
        .map(crate::export::clean_tag_value)
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

/// The second line of a problem game in `check` and `report`: the rules
/// it was read by, where they came from when known, and the presets and
/// switch settings under which it would read `ok`, as `    read as
/// russian (tag); reads ok under filipino`.
pub fn rules_line(variant: &str, from: Option<&str>, reads_ok_under: &[String]) -> String {
    let mut line = format!("    read as {}", crate::escape::visible(variant));
    if let Some(from) = from {
        line.push_str(&format!(" ({})", crate::escape::visible(from)));
    }
    if !reads_ok_under.is_empty() {
        line.push_str("; reads ok under ");
        line.push_str(&crate::escape::visible(&reads_ok_under.join(", ")));
    }
    line
}

/// Writes one value as a line of JSON (the `--json` output of every
/// command), every control character in it escaped
/// ([`output::JsonForTerminal`]).
///
/// # Errors
/// A failed write.
pub fn write_json_line(
    out: &mut impl Write,
    value: &impl serde::Serialize,
) -> Result<(), CliError> {
    let mut json = serde_json::Serializer::with_formatter(&mut *out, output::JsonForTerminal);
    serde::Serialize::serialize(value, &mut json).map_err(io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

/// Parses the arguments, runs the command and returns its exit status.
///
/// Nothing written can end the command with a panic. Messages to standard
/// error that cannot be written are dropped (`say!`). When the reader of
/// standard output goes away (a broken pipe, as under `| head`), the
/// command ends quietly with the status it would have had otherwise:
/// `check`, `report`, `import` and `recheck`, whose status depends on all
/// they read or that must finish their work, run on without writing
/// ([`output::Outlasting`]), so `report | head -1` still exits 1 when it
/// lists a game that is not `ok`; the others (search, tree, show, export,
/// stats, perft, generate, completions, man), whose status is 0 whatever
/// they list, stop at once with 0.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                Exit::Error
            } else {
                Exit::Success
            }
            .into();
        }
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match &cli.command {
        Command::Import(args) => {
            import::cmd_import(args, &cli.db, &mut output::Outlasting::new(&mut out))
        }
        Command::Check(args) => check::cmd_check(args, &mut output::Outlasting::new(&mut out)),
        Command::Search(args) => search::cmd_search(args, &cli.db, &mut out),
        Command::Tree(args) => tree::cmd_tree(args, &cli.db, &mut out),
        Command::Report(args) => {
            report::cmd_report(args, &cli.db, &mut output::Outlasting::new(&mut out))
        }
        Command::Show(args) => show::cmd_show(args, &cli.db, &mut out),
        Command::Export(args) => export::cmd_export(args, &cli.db, &mut out),
        Command::Stats(args) => stats::cmd_stats(args, &cli.db, &mut out),
        Command::Perft(args) => perft::cmd_perft(args, &mut out),
        Command::Generate(args) => generate::cmd_generate(args, &cli.db, &mut out),
        Command::Recheck(args) => {
            recheck::cmd_recheck(args, &cli.db, &mut output::Outlasting::new(&mut out))
        }
        Command::Remove(args) => {
            remove::cmd_remove(args, &cli.db, &mut output::Outlasting::new(&mut out))
        }
        Command::Completions(args) => completions::cmd_completions(args, &mut out),
        Command::Man => man::cmd_man(&mut out),
        Command::Games(args) => games::cmd_games(args, &cli.db, &mut out),
        Command::Players(args) => players::cmd_players(args, &cli.db, &mut out),
        Command::Serve(args) => serve::cmd_serve(args, &cli.db, &mut out),
    };
    // Output finished but not yet taken by a reader that has gone leaves
    // the status as it is.
    let result = result.and_then(|exit| match out.flush() {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => Err(CliError::from(err)),
        _ => Ok(exit),
    });
    match result {
        Ok(exit) => exit.into(),
        Err(CliError::Io(err)) if err.kind() == io::ErrorKind::BrokenPipe => Exit::Success.into(),
        Err(err) => {
            say!("pdndb: {err}");
            err.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    #[test]
    fn the_rules_line_names_the_source_only_when_known() {
        let under = ["filipino".to_string(), "pool".to_string()];
        assert_eq!(
            rules_line("russian", Some("tag"), &under),
            "    read as russian (tag); reads ok under filipino, pool"
        );
        assert_eq!(rules_line("brazilian", None, &[]), "    read as brazilian");
        assert_eq!(
            rules_line("a\u{1b}b", Some("inferred"), &[]),
            "    read as a\\x1bb (inferred)"
        );
    }
}
