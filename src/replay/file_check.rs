//! What reading a file's games on threads is given and hands out: the
//! file's name and the command line's choices ([`FileCheck`]; its reading
//! is in `super::pipeline` and `super::chunked`), the games in file order
//! ([`Handed`]) and how the reading ended ([`FileEnd`]).

use std::io;

use crate::pdn::{Content, Diagnostic, Position};

use super::detect::Overrides;

/// How to check the games of one file.
#[derive(Clone, Copy, Debug)]
pub struct FileCheck<'a> {
    /// The file's name, as the records give it.
    pub name: &'a str,
    /// The command line's choices.
    pub overrides: &'a Overrides,
    /// Threads that parse and check games; with 1, everything is done on
    /// the caller's thread.
    pub jobs: usize,
    /// Whether the records carry the games' tags (see
    /// [`record_tags`](super::record_tags)).
    pub with_tags: bool,
}

/// What [`FileCheck::run`] hands out, in file order.
#[derive(Debug)]
pub enum Handed<T> {
    /// A game checked, and what the caller made of it.
    Game {
        /// What the caller made of the game and its check.
        output: T,
        /// How far the input had been read once the game was.
        read: Position,
    },
    /// The input could not be read further. It comes where one thread
    /// meets it: after the games before it, but before the first games
    /// of the file while they are still held to choose its preset (those
    /// come after it). Nothing is read after it.
    ReadError {
        /// The error.
        error: io::Error,
        /// Where the reader stood.
        at: Position,
    },
}

/// How the reading of a file by [`FileCheck::run_file`] ended.
#[derive(Debug)]
pub struct FileEnd {
    /// Diagnostics about text after the file's last game.
    pub trailing: Vec<Diagnostic>,
    /// How far the file was read.
    pub read: Position,
    /// What the file held, as read (when asked for; `None` when it could
    /// not be read to its end).
    pub content: Option<Content>,
}
