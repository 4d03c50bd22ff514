//! The `pdndb` command line: argument parsing, dispatch and exit codes.
//! One file per subcommand; the definitions shared by them each in a
//! module of their own, imported from there.

#[macro_use]
pub mod output;

mod alias;
mod board;
mod check;
mod command;
mod completions;
mod error;
mod export;
mod files;
mod game_text;
mod games;
mod generate;
mod import;
mod man;
mod movetext;
mod openings;
mod perft;
mod players;
mod progress;
mod query_args;
mod reading;
mod recheck;
mod remove;
mod report;
mod run;
mod search;
mod serve;
mod show;
mod stats;
mod terminal_text;
mod tree;
mod values;
mod write_file;

pub use command::Cli;
pub use error::{CliError, Exit};
pub use game_text::{player_text, rules_line, tag_text};
pub use output::write_json_line;
pub use reading::ReadingArgs;
pub use run::run;
pub use values::AUTO;
