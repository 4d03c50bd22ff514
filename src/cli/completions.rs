//! `pdndb completions SHELL`: a completion script for a shell, made from
//! the command line's own definitions.

use std::io::Write;

use clap::Args;
use clap_complete::Shell;

use super::error::{CliError, Exit};

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Runs `completions`: the script for `command` (the command line's
/// definition, handed down by the dispatcher) on standard output.
///
/// # Errors
/// A failed write.
pub fn cmd_completions(
    args: &CompletionsArgs,
    command: clap::Command,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    out.write_all(&script(args.shell, command))?;
    Ok(Exit::Success)
}

/// The completion script for `shell` (made in memory: the generator
/// cannot report a failed write).
fn script(shell: Shell, mut command: clap::Command) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut command, "pdndb", &mut buf);
    buf
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::CommandFactory;

    #[test]
    fn every_shell_gets_a_script_naming_the_subcommands() {
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let text = String::from_utf8(script(shell, Cli::command())).unwrap();
            for name in ["import", "search", "completions"] {
                assert!(text.contains(name), "{shell}: {name}");
            }
        }
    }
}
