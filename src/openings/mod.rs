//! Named openings: the tables of `data/openings/` (one per variant that
//! has a standard naming), built into the binary and read once, and the
//! classification of a game by them.
//!
//! Each table row is a name, the moves that reach its position (as the
//! variant's literature writes them) and the public reference it comes
//! from. A game's opening is the named position it reaches last within its
//! first [`PLIES`] plies; positions are compared by their Zobrist keys, so
//! a game that reaches a named position by another order of moves gets its
//! name too. English games also get their three-move ballot: the deck's
//! ballot whose position they reach after three plies.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::pdn::Reader;
use crate::replay::{Overrides, Reading, Status, check_game};
use crate::rules::{Position, Preset};

mod tables;

/// How many plies from the start a game is looked at for its opening.
pub const PLIES: u32 = 30;

/// The ply a three-move ballot is played through.
pub const BALLOT_PLIES: u32 = 3;

/// One named opening of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its name, as its source writes it.
    pub name: &'static str,
    /// The moves that reach its position, as its source writes them.
    pub moves: &'static str,
    /// Where the name comes from: a book, a federation's or a wiki page.
    pub source: &'static str,
    /// The Zobrist key of each position of the line, the start's first.
    pub line: Vec<u64>,
}

impl Opening {
    /// The plies of its line.
    pub fn plies(&self) -> u32 {
        self.line.len().saturating_sub(1) as u32
    }

    /// The Zobrist key of its position.
    pub fn key(&self) -> u64 {
        self.line.last().copied().unwrap_or_default()
    }
}

/// The openings of one variant, and (English) the ballots of its deck.
#[derive(Debug)]
pub struct Book {
    /// The variant.
    pub preset: Preset,
    /// Its named openings, in the table's order.
    pub openings: Vec<Opening>,
    /// The deck's three-move ballots (English; empty elsewhere).
    pub ballots: Vec<Opening>,
    /// Rows that do not read as a legal line: `(row, why)`. Empty for the
    /// tables built in (the tests check it).
    pub faults: Vec<(String, String)>,
    by_key: HashMap<u64, usize>,
    ballot_by_key: HashMap<u64, usize>,
}

/// What a game's first moves are named.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Named {
    /// The opening it reaches last within [`PLIES`] plies.
    pub opening: Option<&'static str>,
    /// The ply at which it reaches that opening's position.
    pub ply: Option<u32>,
    /// The three-move ballot (English), its moves as the deck writes them.
    pub ballot: Option<&'static str>,
}

impl Book {
    /// The opening whose position has this Zobrist key.
    pub fn named(&self, key: u64) -> Option<&Opening> {
        self.by_key.get(&key).map(|&i| &self.openings[i])
    }

    /// The ballot whose position has this key.
    pub fn ballot(&self, key: u64) -> Option<&Opening> {
        self.ballot_by_key.get(&key).map(|&i| &self.ballots[i])
    }

    /// The opening named `name` exactly.
    pub fn opening(&self, name: &str) -> Option<&Opening> {
        self.openings.iter().find(|o| o.name == name)
    }

    /// Names a game by its positions from the standard start, each given
    /// as `(key, ply)` (in any order; a position met twice, at its first
    /// ply).
    pub fn name_game(&self, positions: impl IntoIterator<Item = (u64, u32)>) -> Named {
        let mut named = Named::default();
        for (key, ply) in positions {
            if ply > PLIES {
                continue;
            }
            if ply == BALLOT_PLIES {
                named.ballot = self.ballot(key).map(|b| b.moves);
            }
            if let Some(opening) = self.named(key)
                && named.ply.is_none_or(|p| p < ply)
            {
                named.opening = Some(opening.name);
                named.ply = Some(ply);
            }
        }
        named
    }

    /// Reads a table: a header, then `name TAB moves TAB source` rows
    /// (ballots: `moves TAB source`).
    fn read(preset: Preset, openings: &'static str, ballots: &'static str) -> Book {
        let mut book = Book {
            preset,
            openings: Vec::new(),
            ballots: Vec::new(),
            faults: Vec::new(),
            by_key: HashMap::new(),
            ballot_by_key: HashMap::new(),
        };
        for row in rows(openings) {
            match (row.first(), row.get(1), row.get(2)) {
                (Some(name), Some(moves), Some(source)) => {
                    book.add(name, moves, source, false);
                }
                _ => book
                    .faults
                    .push((row.join("\t"), "not three columns".into())),
            }
        }
        for row in rows(ballots) {
            match (row.first(), row.get(1)) {
                (Some(moves), Some(source)) => book.add(moves, moves, source, true),
                _ => book.faults.push((row.join("\t"), "not two columns".into())),
            }
        }
        book
    }

    /// Adds one row, or notes why it cannot be added.
    fn add(&mut self, name: &'static str, moves: &'static str, source: &'static str, ballot: bool) {
        let line = match line_keys(self.preset.rules(), moves) {
            Ok(line) => line,
            Err(why) => {
                self.faults.push((format!("{name}\t{moves}"), why));
                return;
            }
        };
        let opening = Opening {
            name,
            moves,
            source,
            line,
        };
        let (list, index) = match ballot {
            true => (&mut self.ballots, &mut self.ballot_by_key),
            false => (&mut self.openings, &mut self.by_key),
        };
        if let Some(&other) = index.get(&opening.key()) {
            let why = format!("the position of {:?} again", list[other].name);
            self.faults.push((format!("{name}\t{moves}"), why));
            return;
        }
        index.insert(opening.key(), list.len());
        list.push(opening);
    }
}

/// The rows of a table after its header, split at tabs; blank lines and
/// lines starting with `#` left out.
fn rows(table: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    table
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::trim).collect())
}

/// The Zobrist keys of the positions `moves` goes through from the start
/// under `rules`, the start's first.
///
/// # Errors
/// Moves that do not read as exactly one legal line: the reader's message.
pub fn line_keys(rules: crate::rules::Rules, moves: &str) -> Result<Vec<u64>, String> {
    let game = match Reader::new(moves.as_bytes()).next_game() {
        Ok(Some(game)) => game,
        _ => return Err("no moves".into()),
    };
    let overrides = Overrides {
        rules: Some(rules),
        skip_alternatives: true,
        ..Overrides::default()
    };
    let checked = check_game(&game, "", &overrides);
    let outcome = &checked.record.outcome;
    if outcome.status != Status::Ok {
        let why = outcome.message.clone();
        return Err(why.unwrap_or_else(|| outcome.status.name().to_string()));
    }
    let Reading::Replayed { start, replay, .. } = checked.reading else {
        return Err("not replayed".into());
    };
    if start != Position::initial(&rules) {
        return Err("not from the start".into());
    }
    let mut keys = vec![start.zobrist()];
    let mut position = start;
    for step in &replay.reading {
        position = position.play(&step.chosen);
        keys.push(position.zobrist());
    }
    Ok(keys)
}

/// The book of `preset`, read once; `None` for a variant without a
/// standard naming of its openings.
pub fn book(preset: Preset) -> Option<&'static Book> {
    static BOOKS: OnceLock<Vec<Book>> = OnceLock::new();
    let books = BOOKS.get_or_init(|| {
        tables::TABLES
            .iter()
            .map(|(preset, openings, ballots)| Book::read(*preset, openings, ballots))
            .collect()
    });
    books.iter().find(|b| b.preset == preset)
}

/// The variants that have tables, in the order of the rules table.
pub fn named_presets() -> Vec<Preset> {
    let mut presets: Vec<Preset> = tables::TABLES.iter().map(|t| t.0).collect();
    presets.sort();
    presets
}

/// Names a game of `preset` by its certain positions `(key, ply)` from the
/// standard start; nothing for a variant without a table.
pub fn name_game(preset: Preset, positions: impl IntoIterator<Item = (u64, u32)>) -> Named {
    book(preset).map_or_else(Named::default, |b| b.name_game(positions))
}

#[cfg(test)]
mod tests;
