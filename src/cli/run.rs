//! Dispatch: the parsed command line to its subcommand, and the exit
//! status.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use super::command::{Cli, Command};
use super::error::{CliError, Exit};
use super::output::Outlasting;
use super::{
    alias, check, completions, export, games, generate, import, man, openings, perft, players,
    recheck, remove, report, search, serve, show, stats, tree,
};

/// Parses the arguments, runs the command and returns its exit status.
///
/// Nothing written can end the command with a panic. Messages to standard
/// error that cannot be written are dropped (`say!`). When the reader of
/// standard output goes away (a broken pipe, as under `| head`), the
/// command ends quietly with the status it would have had otherwise:
/// `check`, `report`, `import` and `recheck`, whose status depends on all
/// they read or that must finish their work, run on without writing
/// ([`Outlasting`]), so `report | head -1` still exits 1 when it
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
        Command::Import(args) => import::cmd_import(args, &cli.db, &mut Outlasting::new(&mut out)),
        Command::Check(args) => check::cmd_check(args, &mut Outlasting::new(&mut out)),
        Command::Search(args) => search::cmd_search(args, &cli.db, &mut out),
        Command::Tree(args) => tree::cmd_tree(args, &cli.db, &mut out),
        Command::Report(args) => report::cmd_report(args, &cli.db, &mut Outlasting::new(&mut out)),
        Command::Show(args) => show::cmd_show(args, &cli.db, &mut out),
        Command::Export(args) => export::cmd_export(args, &cli.db, &mut out),
        Command::Stats(args) => stats::cmd_stats(args, &cli.db, &mut out),
        Command::Perft(args) => perft::cmd_perft(args, &mut out),
        Command::Generate(args) => generate::cmd_generate(args, &cli.db, &mut out),
        Command::Recheck(args) => {
            recheck::cmd_recheck(args, &cli.db, &mut Outlasting::new(&mut out))
        }
        Command::Remove(args) => remove::cmd_remove(args, &cli.db, &mut Outlasting::new(&mut out)),
        Command::Completions(args) => completions::cmd_completions(args, Cli::command(), &mut out),
        Command::Man(args) => man::cmd_man(args, Cli::command(), &mut out),
        Command::Games(args) => games::cmd_games(args, &cli.db, &mut out),
        Command::Players(args) => players::cmd_players(args, &cli.db, &mut out),
        Command::Openings(args) => openings::cmd_openings(args, &cli.db, &mut out),
        Command::Alias(args) => alias::cmd_alias(args, &cli.db, &mut out),
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
