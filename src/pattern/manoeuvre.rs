//! Manoeuvres: a move of a given kind, written
//!
//! ```text
//! manoeuvre := [side] [piece] [from sep to] (key '=' value)*     (blank-separated)
//! side      := 'W' | 'B' | '?'          (default '?': either side)
//! piece     := 'M' (a man) | 'K' (a king) | '*' (either, the default)
//! from, to  := square | '*'             (any square)
//! sep       := '-' (a plain move) | 'x' (a capture) | '/' (either)
//! key       := taken | men | kings      (pieces captured: all, men, kings; N, N-M or N+)
//!            | over                     (squares, comma-separated, whose pieces it captures)
//!            | promotes                 (yes or no)
//!            | before | after           (a pattern the position before or after it fits)
//! ```
//!
//! e.g. `B K 46x2 taken=3 kings=1 over=23,28 promotes=no`.

use crate::rules::{Bitboard, Color, Move, Position, Rules, Square};

use super::error::PatternError;
use super::reverse::mirror;
use super::spec::{Pattern, square_named};

/// A kind of move a game must play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manoeuvre {
    /// Who plays it, `None` for either side.
    pub side: Option<Color>,
    /// Whether a king (`Some(true)`) or a man plays it; `None` either.
    pub king: Option<bool>,
    /// Where it starts, `None` anywhere.
    pub from: Option<Square>,
    /// Where it ends, `None` anywhere.
    pub to: Option<Square>,
    /// Whether it is a capture; `None` either.
    pub capture: Option<bool>,
    /// The least and most pieces, men and kings it captures.
    pub taken: [(u32, u32); 3],
    /// Squares whose pieces it must capture.
    pub over: Bitboard,
    /// Whether it crowns a man; `None` either.
    pub promotes: Option<bool>,
    /// A pattern the position before it fits.
    pub before: Option<Pattern>,
    /// A pattern the position after it fits.
    pub after: Option<Pattern>,
    geometry: &'static crate::rules::Geometry,
}

impl Manoeuvre {
    /// Reads a manoeuvre on the rules' board.
    ///
    /// # Errors
    /// A part that cannot be read, naming it.
    pub fn parse(text: &str, rules: &Rules) -> Result<Manoeuvre, PatternError> {
        let mut m = Manoeuvre {
            side: None,
            king: None,
            from: None,
            to: None,
            capture: None,
            taken: [(0, u32::MAX); 3],
            over: 0,
            promotes: None,
            before: None,
            after: None,
            geometry: rules.geometry,
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            return Err(PatternError::whole("the manoeuvre is empty"));
        }
        let mut rest = &words[..];
        if let Some(side) = rest.first().and_then(|w| side(w)) {
            m.side = side;
            rest = &rest[1..];
        }
        if let Some(king) = rest.first().and_then(|w| piece(w)) {
            m.king = king;
            rest = &rest[1..];
        }
        if let Some(word) = rest.first().filter(|w| !w.contains('=')) {
            m.read_move(word, rules)?;
            rest = &rest[1..];
        }
        for word in rest {
            m.read_key(word, rules)?;
        }
        if m.capture == Some(false) && (m.over != 0 || m.taken.iter().any(|t| t.0 > 0)) {
            return Err(PatternError::at("a plain move captures nothing", text));
        }
        Ok(m)
    }

    /// `from sep to`
    fn read_move(&mut self, word: &str, rules: &Rules) -> Result<(), PatternError> {
        let Some(at) = word.find(['-', 'x', 'X', '/']) else {
            return Err(PatternError::at(
                "expected FROM-TO, FROMxTO or FROM/TO (a square or *), or KEY=VALUE",
                word,
            ));
        };
        let (from, to) = (&word[..at], &word[at + 1..]);
        self.capture = match &word[at..at + 1] {
            "-" => Some(false),
            "/" => None,
            _ => Some(true),
        };
        let square = |s: &str| match s {
            "*" => Ok(None),
            s => square_named(s, rules, word).map(Some),
        };
        self.from = square(from)?;
        self.to = square(to)?;
        Ok(())
    }

    /// `key '=' value`
    fn read_key(&mut self, word: &str, rules: &Rules) -> Result<(), PatternError> {
        let Some((key, value)) = word.split_once('=') else {
            return Err(PatternError::at("expected KEY=VALUE", word));
        };
        match key.to_ascii_lowercase().as_str() {
            "taken" => self.taken[0] = count_range(value, word)?,
            "men" => self.taken[1] = count_range(value, word)?,
            "kings" => self.taken[2] = count_range(value, word)?,
            "over" => {
                for s in value.split(',') {
                    self.over |= square_named(s.trim(), rules, word)?.bit();
                }
            }
            "promotes" => {
                self.promotes = Some(match value.to_ascii_lowercase().as_str() {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(PatternError::at("promotes is yes or no", word)),
                })
            }
            "before" => self.before = Some(Pattern::parse(value, rules)?),
            "after" => self.after = Some(Pattern::parse(value, rules)?),
            other => {
                return Err(PatternError::at(
                    format!(
                        "unknown key {other} (taken, men, kings, over, promotes, before, after)"
                    ),
                    word,
                ));
            }
        }
        Ok(())
    }

    /// Whether `mv`, played from `before` to `after`, is this manoeuvre.
    pub fn matches(&self, before: &Position, mv: &Move, after: &Position) -> bool {
        let captured = mv.captured();
        let kings = (captured & before.kings()).count_ones();
        let all = captured.count_ones();
        let counts = [all, all - kings, kings];
        self.side.is_none_or(|s| s == before.side())
            && self.king.is_none_or(|k| k == mv.by_king())
            && self.from.is_none_or(|s| s == mv.from())
            && self.to.is_none_or(|s| s == mv.to())
            && self.capture.is_none_or(|c| c == mv.is_capture())
            && counts
                .iter()
                .zip(&self.taken)
                .all(|(n, (least, most))| least <= n && n <= most)
            && captured & self.over == self.over
            && self.promotes.is_none_or(|p| p == mv.promotes())
            && self.before.as_ref().is_none_or(|p| p.matches(before))
            && self.after.as_ref().is_none_or(|p| p.matches(after))
    }

    /// The manoeuvre with colours reversed.
    pub fn reversed(&self) -> Manoeuvre {
        let g = self.geometry;
        let square = |s: Option<Square>| {
            s.and_then(|s| Square::new(super::reverse::mirror_label(s.label(), g)))
        };
        Manoeuvre {
            side: self.side.map(Color::opponent),
            from: square(self.from),
            to: square(self.to),
            over: mirror(self.over, g),
            before: self.before.as_ref().map(Pattern::reversed),
            after: self.after.as_ref().map(Pattern::reversed),
            ..self.clone()
        }
    }
}

/// Where a sequence of manoeuvres is complete in a game: the moves
/// `(position before, move)` in order; the ply (1-based) of the move that
/// plays the last manoeuvre, each played after the one before (not
/// necessarily at once). The earliest move fitting each is taken, which
/// completes the sequence as early as any choice can.
pub fn completed_at<'m>(
    manoeuvres: &[Manoeuvre],
    moves: impl IntoIterator<Item = (&'m Position, &'m Move)>,
) -> Option<usize> {
    let mut next = 0;
    for (ply, (before, mv)) in moves.into_iter().enumerate() {
        let Some(m) = manoeuvres.get(next) else {
            break;
        };
        if m.matches(before, mv, &before.play(mv)) {
            next += 1;
            if next == manoeuvres.len() {
                return Some(ply + 1);
            }
        }
    }
    None
}

fn side(word: &str) -> Option<Option<Color>> {
    match word {
        "W" | "w" => Some(Some(Color::White)),
        "B" | "b" => Some(Some(Color::Black)),
        "?" => Some(None),
        _ => None,
    }
}

fn piece(word: &str) -> Option<Option<bool>> {
    match word {
        "M" | "m" => Some(Some(false)),
        "K" | "k" => Some(Some(true)),
        "*" => Some(None),
        _ => None,
    }
}

/// `N`, `N-M` or `N+`.
fn count_range(value: &str, part: &str) -> Result<(u32, u32), PatternError> {
    let m = super::material::Material::parse(&format!("w={value}"))
        .map_err(|e| PatternError::at(e.problem, part))?;
    Ok(m.bounds[4])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::rules::Preset;

    #[test]
    fn a_king_capture_is_told_by_its_squares_and_what_it_takes() {
        let rules = Preset::International.rules();
        let before = Position::from_setup(
            &parse_fen_on("B:WK37,8:BK46,1", rules.geometry).unwrap(),
            &rules,
        )
        .unwrap();
        let moves = before.legal_moves(&rules);
        let mv = moves.iter().find(|m| m.from().label() == 46).unwrap();
        assert!(mv.is_capture());
        let after = before.play(mv);
        let yes = |t: &str| {
            Manoeuvre::parse(t, &rules)
                .unwrap()
                .matches(&before, mv, &after)
        };
        let taken = mv.captured().count_ones();
        assert!(yes(&format!("B K 46x{} taken={taken}", mv.to())));
        assert!(yes("B K 46x* promotes=no before=B:BK46"));
        assert!(yes(&format!(
            "? * 46/* kings={}",
            (mv.captured() & before.kings()).count_ones()
        )));
        assert!(!yes("W"));
        assert!(!yes("B M"));
        assert!(!yes("B K 46-*"));
        assert!(!yes(&format!("taken={}+", taken + 1)));
        let reversed = Manoeuvre::parse("B K 46x* over=23", &rules)
            .unwrap()
            .reversed();
        assert_eq!(reversed.side, Some(Color::White));
        assert_eq!(reversed.from.map(Square::label), Some(5));
        assert_eq!(reversed.over, 1 << 27);
    }

    #[test]
    fn bad_manoeuvres_are_named() {
        let rules = Preset::English.rules();
        for (text, message) in [
            ("", "the manoeuvre is empty"),
            (
                "B K 46x2",
                "square 46 is not on the english board (1–32), in \"46x2\"",
            ),
            (
                "B 9-14 taken=1",
                "a plain move captures nothing, in \"B 9-14 taken=1\"",
            ),
            (
                "taken=3-1",
                "the range 3-1 is upside down, in \"taken=3-1\"",
            ),
            (
                "B 9",
                "expected FROM-TO, FROMxTO or FROM/TO (a square or *), or KEY=VALUE, in \"9\"",
            ),
            (
                "colour=red",
                "unknown key colour (taken, men, kings, over, promotes, before, after), in \"colour=red\"",
            ),
        ] {
            assert_eq!(
                Manoeuvre::parse(text, &rules).unwrap_err().to_string(),
                message,
                "{text}"
            );
        }
    }
}
