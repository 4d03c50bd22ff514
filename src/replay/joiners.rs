//! Move tokens whose joiner says the other kind of move: a quiet move
//! written `22x18`, a capture written `18-11`. Such a token is read by its
//! squares like any other; a file's count of them is noticed once (per
//! move it would drown every other message).

use super::detect::Reading;
use crate::notation::Notation;
use crate::pdn::Ply;

/// How many moves of a game's reading are written with the other kind's
/// joiner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Joiners {
    /// Quiet moves written with a capture joiner (`x`, `×` or `:`).
    pub quiet_as_captures: u32,
    /// Captures written with `-` (not counted in the Dama notation, which
    /// writes them so).
    pub captures_as_quiet: u32,
    /// The first such ply (1-based).
    pub first: Option<usize>,
}

impl Joiners {
    /// The moves of a reading whose joiner says the other kind of move, as
    /// far as the reading goes; `plies` are the main line as read (see
    /// [`CheckedGame::plies`](super::CheckedGame::plies)).
    pub fn of(plies: &[Ply], reading: &Reading) -> Joiners {
        let Reading::Replayed {
            replay, notation, ..
        } = reading
        else {
            return Joiners::default();
        };
        let dama = *notation == Some(Notation::Dama);
        let mut joiners = Joiners::default();
        let plies = plies.iter().zip(&replay.reading).enumerate();
        for (k, (ply, step)) in plies {
            let Some(token) = ply.move_token() else {
                continue;
            };
            let capture = step.chosen.is_capture();
            if token.capture && !capture {
                joiners.quiet_as_captures += 1;
            } else if !token.capture && capture && !dama {
                joiners.captures_as_quiet += 1;
            } else {
                continue;
            }
            joiners.first.get_or_insert(k + 1);
        }
        joiners
    }

    /// Whether any move is written so.
    pub fn any(&self) -> bool {
        self.first.is_some()
    }
}

/// A file's games whose moves are written with the other kind's joiner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JoinerTally {
    /// Games with a quiet move written as a capture.
    pub quiet_as_captures: usize,
    /// Games with a capture written as a quiet move.
    pub captures_as_quiet: usize,
    /// The first such game (its index in the file) and ply.
    pub first: Option<(u64, usize)>,
}

impl JoinerTally {
    /// Counts game number `index` of the file.
    pub fn add(&mut self, index: u64, joiners: &Joiners) {
        self.quiet_as_captures += usize::from(joiners.quiet_as_captures > 0);
        self.captures_as_quiet += usize::from(joiners.captures_as_quiet > 0);
        if let (None, Some(ply)) = (self.first, joiners.first) {
            self.first = Some((index, ply));
        }
    }

    /// The one line that tells of them, for file `name`; `None` when no
    /// game has any.
    pub fn notice(&self, name: &str) -> Option<String> {
        let (game, ply) = self.first?;
        let mut kinds = Vec::new();
        if self.quiet_as_captures > 0 {
            kinds.push(format!(
                "{} with quiet moves written with `x`",
                games(self.quiet_as_captures)
            ));
        }
        if self.captures_as_quiet > 0 {
            kinds.push(format!(
                "{} with captures written with `-`",
                games(self.captures_as_quiet)
            ));
        }
        Some(format!(
            "{name}: notice: {} (the first: game {game}, ply {ply}); read by their squares",
            kinds.join(" and ")
        ))
    }
}

/// `1 game`, `2 games`.
fn games(n: usize) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{n} games")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Overrides, check_game};

    fn joiners(text: &str) -> Joiners {
        let game = crate::pdn::Reader::new(text.as_bytes())
            .next_game()
            .unwrap()
            .unwrap();
        let checked = check_game(&game, "", &Overrides::default());
        Joiners::of(checked.plies(&game), &checked.reading)
    }

    #[test]
    fn joiners_saying_the_other_kind_of_move_are_counted() {
        assert_eq!(
            joiners("1. 22-18 11-15 2. 18x11 8x15 *"),
            Joiners::default()
        );
        let counted = joiners("1. 22x18 11-15 2. 18-11 8x15 3. 24x20 *");
        assert_eq!(
            counted,
            Joiners {
                quiet_as_captures: 2,
                captures_as_quiet: 1,
                first: Some(1),
            }
        );
        // The Dama notation writes captures with `-`.
        let dama = "[Notation \"Dama\"]\n1. 2-15 2-15 2. 4-16 7-2 3. 5-4 3-14 4. 15-3 8-14 *";
        assert_eq!(joiners(dama), Joiners::default());
        let numeric = "1. 22-18 11-15 2. 18-11 8x15 *";
        assert_eq!(joiners(numeric).captures_as_quiet, 1);
    }

    #[test]
    fn a_file_is_told_of_them_in_one_line() {
        let mut tally = JoinerTally::default();
        assert_eq!(tally.notice("f.pdn"), None);
        tally.add(1, &Joiners::default());
        tally.add(3, &joiners("1. 22x18 11-15 *"));
        tally.add(4, &joiners("1. 22x18 11-15 2. 18-11 *"));
        assert_eq!(
            tally.notice("f.pdn").unwrap(),
            "f.pdn: notice: 2 games with quiet moves written with `x` and 1 game with captures \
             written with `-` (the first: game 3, ply 1); read by their squares"
        );
    }
}
