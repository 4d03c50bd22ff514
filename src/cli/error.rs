//! How a command ends: its exit status, or the error that stops it.

use std::io;
use std::process::ExitCode;

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
