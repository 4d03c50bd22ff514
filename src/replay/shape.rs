//! How written moves are read besides the names of their squares: captures
//! written one jump per move joined into one move, and squares named on the
//! board turned 180°.
//!
//! PlayStrategy (playstrategy.org) exports English draughts so: the board
//! seen from Black's side (Black, who moves first, on ranks 1–3: `g3-f4`
//! is 9-14) and each jump of a capture played jump by jump written as a
//! move of its own, paired into move numbers whoever played them
//! (`4. a3xc5 c5xe7`). Both are read here:
//!
//! * **Joining** is said of the squares as written: a capture token that
//!   starts where the capture token before it ended goes on with that
//!   capture ([`MoveToken::continues`]). It never loses a reading: after a
//!   move ends on a square, the mover's piece stands there, so the other
//!   side's move cannot start there; the two tokens can only be one move.
//!   Not in the Dama notation, where a number names two squares and the
//!   next move may start on the other one. A joined capture is one ply.
//! * **Turning** is a candidate detection tries when the squares as named
//!   do not read cleanly ([`super::Reading`]'s `turned`).

use std::borrow::Cow;

use crate::notation::{MoveToken, Notation};
use crate::pdn::{AfterMove, Game, Line, Ply, PlyText, PlyToken};
use crate::rules::Geometry;

/// How the moves of a record are read besides their notation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AsRead<'g> {
    /// Captures written one jump per move are joined (every notation but
    /// the Dama numbers: [`joins_jumps`]).
    pub join: bool,
    /// Squares are named on this board turned 180°.
    pub turned: Option<&'g Geometry>,
}

/// Whether captures written one jump per move are joined in `notation`:
/// in every notation but the Dama numbers, each of which names two squares.
pub fn joins_jumps(notation: Option<Notation>) -> bool {
    notation.is_some_and(|n| n != Notation::Dama)
}

impl<'g> AsRead<'g> {
    /// How the moves of a record read in `notation`, on `geometry` turned
    /// or not, are read.
    pub fn new(notation: Option<Notation>, turned: bool, geometry: &'g Geometry) -> AsRead<'g> {
        AsRead {
            join: joins_jumps(notation),
            turned: turned.then_some(geometry),
        }
    }

    /// How the moves of a record read in `notation` on the board as named
    /// are read: captures written one jump per move joined. What the texts
    /// of the plies need (a turned board changes none).
    pub fn joining(notation: Option<Notation>) -> AsRead<'static> {
        AsRead {
            join: joins_jumps(notation),
            turned: None,
        }
    }

    /// Whether moves are read as written.
    pub fn is_plain(&self) -> bool {
        self.turned.is_none() && !self.join
    }

    /// The tokens of a line as read: turned, and each capture written one
    /// jump per token joined into one (`None` stands for a ply that is not
    /// a move, and breaks a capture); `None` when they are read as written.
    pub fn tokens(&self, tokens: &[Option<&MoveToken>]) -> Option<Vec<Option<MoveToken>>> {
        if self.turned.is_none() && !(self.join && has_split_capture(tokens.iter().copied())) {
            return None;
        }
        let mut out: Vec<Option<MoveToken>> = Vec::with_capacity(tokens.len());
        for token in tokens {
            let token = token.map(|t| self.turn(t));
            match (out.last_mut(), token) {
                (Some(Some(last)), Some(token)) if self.join && token.continues(last) => {
                    *last = last.joined(&token);
                }
                (_, token) => out.push(token),
            }
        }
        Some(out)
    }

    /// A line of `game` as read (see [`AsRead::tokens`]), with its
    /// variations: a joined ply has the text of its tokens, one space
    /// apart, the place of the first and what is written after each;
    /// `None` when the line and its variations are read as written.
    pub fn line(&self, game: &Game, line: &Line) -> Option<Line> {
        let split = game.hints.split_captures && line_has_split_capture(line);
        if self.is_plain() || (self.turned.is_none() && !split) {
            return None;
        }
        Some(self.rewrite(game, line))
    }

    /// The plies of the main line of `game` as read.
    pub fn main_line<'a>(&self, game: &'a Game) -> Cow<'a, [Ply]> {
        match self.line(game, &game.line) {
            Some(line) => Cow::Owned(line.plies),
            None => Cow::Borrowed(game.plies()),
        }
    }

    fn turn(&self, token: &MoveToken) -> MoveToken {
        match self.turned {
            Some(geometry) => token.turned(geometry),
            None => token.clone(),
        }
    }

    fn rewrite(&self, game: &Game, line: &Line) -> Line {
        let mut plies: Vec<Ply> = Vec::with_capacity(line.plies.len());
        for ply in &line.plies {
            let mut ply = ply.clone();
            if let PlyToken::Move(token) = &mut ply.token {
                *token = self.turn(token);
            }
            if let Some(after) = ply.after.as_deref_mut() {
                for variation in &mut after.variations {
                    *variation = self.rewrite(game, variation);
                }
            }
            let continues = match (plies.last().and_then(Ply::move_token), ply.move_token()) {
                (Some(last), Some(token)) => self.join && token.continues(last),
                _ => false,
            };
            match plies.last_mut() {
                Some(last) if continues => join_plies(game, last, ply),
                _ => plies.push(ply),
            }
        }
        Line {
            plies,
            ..line.clone()
        }
    }
}

/// Whether some token of a line goes on with the capture before it.
fn has_split_capture<'t>(tokens: impl Iterator<Item = Option<&'t MoveToken>>) -> bool {
    let mut last: Option<&MoveToken> = None;
    for token in tokens {
        if let (Some(previous), Some(token)) = (last, token)
            && token.continues(previous)
        {
            return true;
        }
        last = token;
    }
    false
}

/// [`has_split_capture`] for a line or any of its variations.
fn line_has_split_capture(line: &Line) -> bool {
    has_split_capture(line.plies.iter().map(Ply::move_token))
        || line
            .plies
            .iter()
            .any(|p| p.variations().iter().any(line_has_split_capture))
}

/// Makes `last` the capture it begins and `next` goes on with.
fn join_plies(game: &Game, last: &mut Ply, next: Ply) {
    let text = format!("{} {}", game.ply_text(last), game.ply_text(&next));
    last.text = PlyText::Own(text.into());
    if let (PlyToken::Move(token), Some(more)) = (&mut last.token, next.move_token()) {
        *token = token.joined(more);
    }
    if let Some(after) = next.after {
        let AfterMove {
            nags,
            comments,
            setups,
            variations,
        } = *after;
        let joined = last.after_mut();
        joined.nags.extend(nags);
        joined.comments.extend(comments);
        joined.setups.extend(setups);
        joined.variations.extend(variations);
    }
}

/// The captures of a line written one jump per token: how many, and the
/// 0-based index of the first one's first token (for the warning about
/// them).
pub fn split_captures(tokens: &[Option<&MoveToken>]) -> (usize, Option<usize>) {
    let mut count = 0;
    let mut first = None;
    let mut in_capture = false;
    for (k, pair) in tokens.windows(2).enumerate() {
        let goes_on = matches!(pair, [Some(a), Some(b)] if b.continues(a));
        if goes_on && !in_capture {
            count += 1;
            first.get_or_insert(k);
        }
        in_capture = goes_on;
    }
    (count, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<MoveToken> {
        text.split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect()
    }

    fn game(movetext: &str) -> Game {
        crate::pdn::Reader::new(movetext.as_bytes())
            .next_game()
            .unwrap()
            .unwrap()
    }

    #[test]
    fn jumps_written_one_per_move_are_read_as_one_capture() {
        let written = tokens("g3-f4 d6-c5 a3xc5 c5xe7 e7xg5 f8xd6 22x15 15x8");
        let refs: Vec<Option<&MoveToken>> = written.iter().map(Some).collect();
        let read = AsRead::new(Some(Notation::Vismin), false, Geometry::standard());
        let joined = read.tokens(&refs).unwrap();
        let names: Vec<String> = joined.iter().flatten().map(|t| t.to_string()).collect();
        assert_eq!(names, ["g3-f4", "d6-c5", "a3xc5xe7xg5", "f8xd6", "22x15x8"]);
        assert_eq!(split_captures(&refs), (2, Some(2)));
        // A move that is not one breaks the capture.
        let broken = [refs[2], None, refs[3]];
        assert_eq!(read.tokens(&broken), None);
        assert_eq!(split_captures(&broken), (0, None));
        // The Dama numbers name two squares each: nothing is joined.
        let dama = AsRead::new(Some(Notation::Dama), false, Geometry::standard());
        assert_eq!(dama.tokens(&refs), None);
        // Nothing to join, nothing turned: read as written.
        assert_eq!(read.tokens(&refs[..2]), None);
    }

    #[test]
    fn a_turned_line_names_its_squares_from_the_other_side() {
        let written = tokens("g3-f4 d6-c5");
        let refs: Vec<Option<&MoveToken>> = written.iter().map(Some).collect();
        let read = AsRead::new(Some(Notation::Vismin), true, Geometry::standard());
        let turned: Vec<String> = read
            .tokens(&refs)
            .unwrap()
            .iter()
            .flatten()
            .map(|t| t.to_string())
            .collect();
        assert_eq!(turned, ["b6-c5", "e3-f4"]);
    }

    /// What detection makes of a record of these moves: rules, notation,
    /// turned, plies read of all.
    fn detected(
        variant: Option<&str>,
        moves: &str,
    ) -> (String, Option<Notation>, bool, usize, usize) {
        let written = tokens(moves);
        let text = super::super::RecordText {
            variant,
            moves: written.iter().map(Some).collect(),
            ..Default::default()
        };
        match super::super::read_record(&text, &super::super::Overrides::default()) {
            super::super::Reading::Replayed {
                rules,
                notation,
                turned,
                replay,
                ..
            } => (rules.name(), notation, turned, replay.reached, replay.plies),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn records_read_only_on_the_turned_board_are_read_so() {
        // PlayStrategy's English: 9-14 23-19 6-9 26-23.
        let opening = "g3-f4 d6-c5 f2-g3 e7-d6";
        assert_eq!(
            detected(Some("American/English"), opening),
            ("english".into(), Some(Notation::Vismin), true, 4, 4)
        );
        // Without the tag, the same moves read as named: White's first
        // moves in Filipino Dama, which inference tries first.
        assert_eq!(
            detected(None, opening),
            ("filipino".into(), Some(Notation::Vismin), false, 4, 4)
        );
    }

    #[test]
    fn a_capture_written_one_jump_per_move_is_one_ply() {
        // 9-14 23-19 6-9 26-23 2-6 19-16 12x19x26 30x23: Black's double
        // capture written as two jumps.
        let record = "g3-f4 d6-c5 f2-g3 e7-d6 e1-f2 c5-b4 a3xc5 c5xe7 f8xd6";
        let (rules, notation, turned, reached, plies) = detected(None, record);
        assert_eq!(
            (rules.as_str(), notation, turned),
            ("english", Some(Notation::Vismin), true)
        );
        assert_eq!((reached, plies), (8, 8));
    }

    #[test]
    fn joined_plies_keep_the_texts_places_and_comments_of_their_tokens() {
        let g = game("1. a3xc5 {one} 1... c5xe7 {two} (1... c5xa7) 2. f8xd6 *");
        let read = AsRead::new(Some(Notation::Vismin), false, Geometry::standard());
        let plies = read.main_line(&g);
        assert_eq!(plies.len(), 2);
        assert_eq!(g.ply_text(&plies[0]), "a3xc5 c5xe7");
        assert_eq!(plies[0].move_token().unwrap().to_string(), "a3xc5xe7");
        assert_eq!(g.position_of(&plies[0]), g.position_of(&g.plies()[0]));
        let comments: Vec<&str> = plies[0].comments().iter().map(|c| c.text.trim()).collect();
        assert_eq!(comments, ["one", "two"]);
        assert_eq!(plies[0].variations().len(), 1);
        assert_eq!(g.ply_text(&plies[1]), "f8xd6");
        // Read as written: the plies themselves.
        let plain = AsRead::new(Some(Notation::Dama), false, Geometry::standard());
        assert!(matches!(plain.main_line(&g), Cow::Borrowed(_)));
    }
}
