//! `pdndb serve`: the web explorer over the database, until interrupted.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use clap::Args;

use super::error::{CliError, Exit};
use crate::serve::{DEFAULT_PORT, ServeError, bind};

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address (127.0.0.1,
    /// ::1) makes the database readable from the network.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
}

/// Runs `serve`: prints the address on standard output, then serves
/// until Ctrl-C or SIGTERM.
///
/// # Errors
/// A database that cannot be read, an address that cannot be listened on.
pub fn cmd_serve(
    args: &ServeArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let bound =
        bind(db.to_path_buf(), SocketAddr::new(args.bind, args.port)).map_err(|e| match e {
            ServeError::Store(e) => CliError::Store(e),
            other => CliError::Failed(other.to_string()),
        })?;
    if !args.bind.is_loopback() {
        say!(
            "warning: listening on {}: anyone who can reach this machine can read {}",
            args.bind,
            db.display()
        );
    }
    writeln!(
        out,
        "pdndb serve: http://{}/ ({}; Ctrl-C to stop)",
        bound.address(),
        db.display()
    )?;
    out.flush()?;
    bound.run().map_err(|e| CliError::Failed(e.to_string()))?;
    Ok(Exit::Success)
}
