//! `pdndb man`: the manual page, in roff, made from the command line's own
//! definitions.

use std::io::Write;

use clap::CommandFactory;

use super::command::Cli;
use super::error::{CliError, Exit};

/// Runs `man`: the page on standard output.
///
/// # Errors
/// A failed write.
pub fn cmd_man(out: &mut impl Write) -> Result<Exit, CliError> {
    out.write_all(&page()?)?;
    Ok(Exit::Success)
}

/// The manual page of `pdndb`, its subcommands listed.
fn page() -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut buf)?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_roff_and_lists_the_commands() {
        let text = String::from_utf8(page().unwrap()).unwrap();
        assert!(
            text.starts_with(".ie") || text.contains(".TH pdndb"),
            "{text}"
        );
        for name in ["import", "search", "report", "man"] {
            assert!(text.contains(name), "{name}");
        }
    }
}
