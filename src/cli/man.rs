//! `pdndb man`: the manual pages, in roff, made from the command line's own
//! definitions: `pdndb.1` and one page per command (`pdndb-import.1`, …),
//! each with its options and examples.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use clap_mangen::roff::{Roff, bold, roman};

use super::error::{CliError, Exit};

/// Arguments of `pdndb man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (default: the main page).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
    /// Write every page (`pdndb.1` and `pdndb-COMMAND.1` for each command)
    /// into this folder instead, creating it if needed.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

/// Runs `man`: a page on standard output, or every page into a folder.
///
/// # Errors
/// A command that is none of pdndb's (a usage error), or a failed write.
pub fn cmd_man(
    args: &ManArgs,
    definition: clap::Command,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let cli = pages_cli(definition);
    if let Some(dir) = &args.dir {
        let written = write_pages(&cli, dir).map_err(|e| {
            CliError::Output(format!("{}: cannot write the pages: {e}", dir.display()))
        })?;
        writeln!(out, "{written} pages written to {}", dir.display())?;
        return Ok(Exit::Success);
    }
    let page = match &args.command {
        None => page(&cli, None)?,
        Some(name) => match command(&cli, name) {
            Some(_) => page(&cli, Some(name))?,
            None => {
                return Err(CliError::Usage(format!(
                    "man: {name:?} is not a command of pdndb (pdndb --help lists them)"
                )));
            }
        },
    };
    out.write_all(&page)?;
    Ok(Exit::Success)
}

/// The command line as the pages show it: its subcommands named
/// `pdndb-NAME`, without `help`.
fn pages_cli(definition: clap::Command) -> clap::Command {
    let mut cli = definition.disable_help_subcommand(true);
    cli.build();
    cli
}

/// Subcommand `name`, as the pages show it.
fn command(cli: &clap::Command, name: &str) -> Option<clap::Command> {
    cli.get_subcommands()
        .find(|c| c.get_name() == name && !c.is_hide_set())
        .cloned()
}

/// The page of command `name` (`None`: the main page), with its examples.
fn page(cli: &clap::Command, name: Option<&str>) -> std::io::Result<Vec<u8>> {
    let command = match name {
        None => cli.clone(),
        Some(name) => command(cli, name).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::NotFound, format!("no command {name}"))
        })?,
    };
    let mut buf = Vec::new();
    clap_mangen::Man::new(command)
        .source(concat!("pdndb ", env!("CARGO_PKG_VERSION")))
        .render(&mut buf)?;
    buf.extend_from_slice(examples(name.unwrap_or("")).as_bytes());
    Ok(ascii(&String::from_utf8_lossy(&buf)).into_bytes())
}

/// Roff in ASCII, so that `man` renders it without a warning in any
/// locale: an ellipsis as three dots, dashes and quotes as groff names
/// them, any other character outside ASCII as its Unicode escape.
fn ascii(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    for c in roff.chars() {
        match c {
            c if c.is_ascii() => out.push(c),
            '…' => out.push_str("..."),
            '–' => out.push_str("\\(en"),
            '—' => out.push_str("\\(em"),
            '‘' => out.push_str("\\(oq"),
            '’' => out.push_str("\\(cq"),
            '“' | '”' => out.push_str("\\(dq"),
            c => out.push_str(&format!("\\[u{:04X}]", u32::from(c))),
        }
    }
    out
}

/// Writes every page into `dir`; returns how many.
fn write_pages(cli: &clap::Command, dir: &std::path::Path) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("pdndb.1"), page(cli, None)?)?;
    let mut written = 1;
    for sub in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
        let name = sub.get_name();
        std::fs::write(dir.join(format!("pdndb-{name}.1")), page(cli, Some(name))?)?;
        written += 1;
    }
    Ok(written)
}

/// The EXAMPLES section of command `name`'s page (`""`: the main page's),
/// in roff; empty when it has none.
fn examples(name: &str) -> String {
    let Some((_, examples)) = EXAMPLES.iter().find(|(n, _)| *n == name) else {
        return String::new();
    };
    let mut roff = Roff::new();
    roff.control("SH", ["EXAMPLES"]);
    for (what, line) in *examples {
        roff.control("TP", []);
        roff.text([bold(*line)]);
        roff.text([roman(*what)]);
    }
    roff.to_roff()
}

/// Examples for each command's page (`""`: the main page), each what it
/// does and the command, run from the source folder (`sample-pdn/` holds
/// the sample files).
const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "",
        &[
            (
                "Import the sample files into pdndb.sqlite here.",
                "pdndb import sample-pdn",
            ),
            ("List the problem games.", "pdndb report"),
            (
                "The moves played from the start position of English draughts.",
                "pdndb tree --variant english",
            ),
        ],
    ),
    (
        "import",
        &[
            (
                "Import every *.pdn file under a folder.",
                "pdndb import sample-pdn",
            ),
            (
                "Import a file into another database, with a summary as JSON.",
                "pdndb --db messy.sqlite import --json sample-pdn/messy-records.pdn",
            ),
            (
                "Read a file again, changed or not, under English rules.",
                "pdndb import --force --variant english sample-pdn/quirks-framing.pdn",
            ),
        ],
    ),
    (
        "remove",
        &[
            (
                "What removing a file would take out, without removing it.",
                "pdndb remove --dry-run sample-pdn/seed-dama.pdn",
            ),
            ("Take game 2 out of the database.", "pdndb remove --game 2"),
        ],
    ),
    (
        "search",
        &[
            (
                "The games that reach the position after these moves.",
                "pdndb search --variant english --moves \"11-15 23-19\"",
            ),
            (
                "The games that reach a position given as a FEN.",
                "pdndb search --variant english --fen B:W19,21,22,24-32:B1-10,12,15",
            ),
        ],
    ),
    (
        "tree",
        &[
            (
                "The moves played from the start of English draughts, with their results.",
                "pdndb tree --variant english",
            ),
            (
                "The moves played after 11-15, as JSON.",
                "pdndb tree --json --variant english --moves 11-15",
            ),
        ],
    ),
    (
        "report",
        &[
            ("The problem games, where and why.", "pdndb report"),
            (
                "The illegal games, as JSON.",
                "pdndb report --json --status illegal",
            ),
            (
                "A page with boards for every problem game.",
                "pdndb report --html report.html",
            ),
        ],
    ),
    (
        "show",
        &[
            (
                "Game 1's tags, moves and last certain position.",
                "pdndb show 1",
            ),
            (
                "Game 3 at position 4, squares named in Vismin algebraic.",
                "pdndb show 3 --ply 4 --notation vismin",
            ),
        ],
    ),
    (
        "export",
        &[
            (
                "Every game as clean PDN into a file.",
                "pdndb export -o clean.pdn",
            ),
            (
                "The English games in numeric notation.",
                "pdndb export --variant english --notation numeric",
            ),
        ],
    ),
    (
        "stats",
        &[
            ("What the database holds.", "pdndb stats"),
            (
                "Check what pdndb keeps (exit 1 when something is broken).",
                "pdndb stats --check",
            ),
        ],
    ),
    (
        "check",
        &[
            (
                "Read and replay a file without a database.",
                "pdndb check sample-pdn/seed-dama.pdn",
            ),
            (
                "The same, one JSON record per game.",
                "pdndb check --json sample-pdn/seed-dama.pdn",
            ),
        ],
    ),
    (
        "perft",
        &[
            (
                "The leaves of Filipino Dama's move tree at depth 5.",
                "pdndb perft 5",
            ),
            (
                "English draughts at depth 4, per first move.",
                "pdndb perft 4 --variant english --divide",
            ),
        ],
    ),
    (
        "generate",
        &[
            (
                "Ten random legal games of Filipino Dama.",
                "pdndb generate --games 10 --seed 1",
            ),
            (
                "Five English games in numeric notation.",
                "pdndb generate --games 5 --seed 2 --variant english --notation numeric",
            ),
        ],
    ),
    (
        "recheck",
        &[
            (
                "Read every stored game again with the current rules.",
                "pdndb recheck",
            ),
            (
                "Read the games of one file again.",
                "pdndb recheck sample-pdn/quirks-framing.pdn",
            ),
        ],
    ),
    (
        "completions",
        &[
            ("The completion script for bash.", "pdndb completions bash"),
            ("The completion script for zsh.", "pdndb completions zsh"),
        ],
    ),
    (
        "man",
        &[
            ("The main page.", "pdndb man"),
            ("The page of one command.", "pdndb man import"),
            ("Every page into a folder.", "pdndb man --dir man1"),
        ],
    ),
    (
        "games",
        &[
            (
                "The games of a player (any case, accents ignored), by date.",
                "pdndb games --player reyes --sort date",
            ),
            (
                "The games of 2024 won by White, as JSON.",
                "pdndb games --json --date 2024 --result white",
            ),
        ],
    ),
    (
        "players",
        &[
            ("Each player's games and results.", "pdndb players"),
            (
                "The players of two games or more, as JSON.",
                "pdndb players --json --min-games 2",
            ),
        ],
    ),
    (
        "openings",
        &[
            (
                "Each named opening's games, share and results.",
                "pdndb openings",
            ),
            (
                "The names the built-in table of English draughts gives.",
                "pdndb openings --table --variant english",
            ),
        ],
    ),
    (
        "alias",
        &[
            (
                "Make \"A\", as some records write the name, another name of \"Reyes, A.\".",
                "pdndb alias \"Reyes, A.\" \"A\"",
            ),
            ("List the names given.", "pdndb alias --list"),
        ],
    ),
    (
        "serve",
        &[
            ("The web explorer on http://127.0.0.1:8740/.", "pdndb serve"),
            ("The same on another port.", "pdndb serve --port 8800"),
        ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::CommandFactory;

    fn cli() -> clap::Command {
        pages_cli(Cli::command())
    }

    #[test]
    fn the_main_page_is_roff_and_lists_the_commands() {
        let text = String::from_utf8(page(&cli(), None).unwrap()).unwrap();
        assert!(text.contains(".TH pdndb"), "{text}");
        for name in ["import", "search", "report", "man"] {
            assert!(text.contains(&format!("pdndb\\-{name}(1)")), "{name}");
        }
        assert!(text.contains(".SH EXAMPLES"));
    }

    #[test]
    fn every_command_has_a_page_with_examples_and_nothing_else_has_examples() {
        let names: Vec<String> = cli()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        assert!(!names.iter().any(|n| n == "help"));
        for name in &names {
            let text = String::from_utf8(page(&cli(), Some(name)).unwrap()).unwrap();
            assert!(
                text.contains(&format!(".TH pdndb-{name} 1 ")),
                "{name}: {text}"
            );
            assert!(text.contains(".SH EXAMPLES"), "{name}");
        }
        for (name, examples) in EXAMPLES {
            assert!(name.is_empty() || names.iter().any(|n| n == name), "{name}");
            assert!(
                examples.iter().all(|(_, line)| line.starts_with("pdndb ")),
                "{name}"
            );
        }
        assert!(page(&cli(), Some("nothing")).is_err());
    }

    #[test]
    fn pages_are_ascii() {
        assert_eq!(ascii("a … b – c é"), "a ... b \\(en c \\[u00E9]");
        for name in [None, Some("import"), Some("search")] {
            assert!(page(&cli(), name).unwrap().is_ascii(), "{name:?}");
        }
    }
}
