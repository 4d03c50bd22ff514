//! FEN: reading set-ups in numeric or algebraic form, writing canonical
//! numeric FEN.
//!
//! Read: `W:W18,K27:B11,15` with `W`/`B`/`R` (Red = Black) or `?` for the side
//! to move, kings marked `K`, ranges (`W31-50`), algebraic squares on either
//! board (8×8 or 10×10, `a1` to `j10`), spaces anywhere, a trailing `.`,
//! empty piece lists; and the fields lidraughts adds (its
//! `format/Forsyth.scala`): `H3` (half-move clock) and `F12` (move number),
//! read and ignored, and for Frisian and Frysk! the king runs `+B+W`,
//! Black's then White's, each a count (0 to 3) of plain moves in a row
//! with one king followed by that king's square (`+307+0`: Black has moved
//! the king on 7 three times). Written:
//! `W:W21,22,K30:B1,K5` — side, then White's and Black's squares ascending.

use crate::message::FenMessage;
use crate::quote::shortened;
use std::fmt::Write as _;

use super::algebraic::{Orientation, locate};
use super::token::SquareToken;
use crate::rules::{Color, Geometry, KingRun, Piece, Position, Setup, squares};

/// Why a FEN cannot be read; each variant carries the offending text
/// (quoted shortened when long).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but spaces.
    #[error("{}", self.said())]
    Empty,
    /// The first field is not `W`, `B`, `R` or `?`.
    #[error("{}", self.said())]
    BadSide(String),
    /// A piece list that does not start with a colour letter.
    #[error("{}", self.said())]
    BadField(String),
    /// A piece that is not a square.
    #[error("{}", self.said())]
    BadSquare(String),
    /// A range whose ends are not ascending numbers.
    #[error("{}", self.said())]
    BadRange(String),
    /// Algebraic squares from both boards.
    #[error("{}", self.said())]
    MixedOrientation(String),
    /// No side to move and no piece list.
    #[error("{}", self.said())]
    NoPieces(String),
    /// A king-runs field that is not `+` count and square, twice.
    #[error("{}", self.said())]
    BadKingRuns(String),
}

impl FenError {
    /// The error as a code and its parts.
    pub fn said(&self) -> FenMessage {
        let text = |t: &String| shortened(t).into_owned();
        match self {
            FenError::Empty => FenMessage::EmptyFen,
            FenError::BadSide(t) => FenMessage::NotASide { text: text(t) },
            FenError::BadField(t) => FenMessage::NotAPieceList { text: text(t) },
            FenError::BadSquare(t) => FenMessage::NotASquare { text: text(t) },
            FenError::BadRange(t) => FenMessage::NotARange { text: text(t) },
            FenError::MixedOrientation(t) => FenMessage::OtherBoard { text: text(t) },
            FenError::NoPieces(t) => FenMessage::NoPieceLists { text: text(t) },
            FenError::BadKingRuns(t) => FenMessage::NotKingRuns { text: text(t) },
        }
    }
}

/// Most squares a range may cover (a 10×10 board has 50).
const MAX_RANGE: u32 = 64;

/// A FEN as written: the side to move and each piece with its square as
/// written, not yet placed on a board. Numbers mean the same on every
/// board; algebraic squares depend on the board's size, so that
/// [`Fen::setup`] places them once the board is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fen {
    /// The side to move; `None` when the FEN said `?`.
    pub side: Option<Color>,
    /// Each piece with its square as written, in the order read.
    pub pieces: Vec<(SquareToken, Piece)>,
    /// White's and Black's king runs, where a lidraughts field gives them.
    pub king_runs: [KingRun; 2],
}

impl Fen {
    /// Reads a FEN without placing it on a board.
    ///
    /// # Errors
    /// The first part that cannot be read, quoted in the error.
    pub fn parse(text: &str) -> Result<Fen, FenError> {
        let text = without_tag(text);
        let cleaned: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let cleaned = cleaned.trim_end_matches('.');
        if cleaned.is_empty() {
            return Err(FenError::Empty);
        }
        let mut fields = cleaned.split(':');
        let side_field = fields.next().unwrap_or_default();
        let side = match side_field {
            "W" | "w" => Some(Color::White),
            "B" | "b" | "R" | "r" => Some(Color::Black),
            "?" => None,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        let mut fen = Fen {
            side,
            pieces: Vec::new(),
            king_runs: [KingRun::default(); 2],
        };
        let mut lists = 0;
        for field in fields {
            if field.is_empty() {
                // `W::` — a list with neither colour letter nor pieces.
                lists += 1;
                continue;
            }
            if is_counter(field) {
                continue;
            }
            if let Some(runs) = field.strip_prefix('+') {
                fen.king_runs =
                    king_runs(runs).ok_or_else(|| FenError::BadKingRuns(field.into()))?;
                continue;
            }
            let mut chars = field.chars();
            let color = match chars.next() {
                Some('W' | 'w') => Color::White,
                Some('B' | 'b' | 'R' | 'r') => Color::Black,
                _ => return Err(FenError::BadField(field.to_string())),
            };
            lists += 1;
            let list = chars.as_str();
            for item in list.split(',').filter(|s| !s.is_empty()) {
                fen.read_piece(item, color)?;
            }
        }
        if lists == 0 {
            return Err(FenError::NoPieces(text.trim().to_string()));
        }
        Ok(fen)
    }

    /// Reads one item of a piece list: `[K]square` or `[K]n-m`.
    fn read_piece(&mut self, item: &str, color: Color) -> Result<(), FenError> {
        let (king, square) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let piece = Piece { color, king };
        if let Some((low, high)) = square.split_once('-') {
            let bad = || FenError::BadRange(item.to_string());
            let low: u16 = low.parse().map_err(|_| bad())?;
            let high: u16 = high.parse().map_err(|_| bad())?;
            if low == 0 || high < low || u32::from(high - low) >= MAX_RANGE {
                return Err(bad());
            }
            self.pieces
                .extend((low..=high).map(|s| (SquareToken::Number(s), piece)));
            return Ok(());
        }
        if square.bytes().all(|b| b.is_ascii_digit()) && !square.is_empty() && square.len() <= 3 {
            let label = square
                .parse()
                .map_err(|_| FenError::BadSquare(item.to_string()))?;
            self.pieces.push((SquareToken::Number(label), piece));
            return Ok(());
        }
        let bytes = square.as_bytes();
        let algebraic = match bytes.split_first() {
            Some((&letter, digits))
                if letter.is_ascii_alphabetic()
                    && (1..=2).contains(&digits.len())
                    && digits.iter().all(u8::is_ascii_digit) =>
            {
                let rank = digits.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
                (rank > 0).then(|| SquareToken::Algebraic {
                    file: letter.to_ascii_lowercase() - b'a',
                    rank,
                })
            }
            _ => None,
        };
        let token = algebraic.ok_or_else(|| FenError::BadSquare(item.to_string()))?;
        self.pieces.push((token, piece));
        Ok(())
    }

    /// The largest number written, and the farthest file (0-based) and
    /// rank of the algebraic squares: what tells the board's size.
    pub fn extent(&self) -> (u32, u8, u8) {
        self.pieces
            .iter()
            .fold((0, 0, 0), |(n, f, r), (square, _)| match *square {
                SquareToken::Number(label) => (n.max(u32::from(label)), f, r),
                SquareToken::Algebraic { file, rank } => (n, f.max(file), r.max(rank)),
            })
    }

    /// The set-up on a board: numbers are kept as written (validate with
    /// [`Position::from_setup`]); algebraic squares are placed on
    /// `geometry`, each telling its own orientation.
    ///
    /// # Errors
    /// An algebraic square that is not a playing square of the board, or
    /// squares from both orientations.
    pub fn setup(&self, geometry: &Geometry) -> Result<Setup, FenError> {
        let mut setup = Setup {
            side: self.side,
            pieces: Vec::with_capacity(self.pieces.len()),
            king_runs: self.king_runs,
        };
        let mut orientation: Option<Orientation> = None;
        for &(square, piece) in &self.pieces {
            let label = match square {
                SquareToken::Number(label) => u32::from(label),
                SquareToken::Algebraic { file, rank } => {
                    let (found, side) = locate(geometry, i32::from(file), i32::from(rank))
                        .ok_or_else(|| FenError::BadSquare(square.to_string()))?;
                    match orientation {
                        Some(o) if o != side => {
                            return Err(FenError::MixedOrientation(square.to_string()));
                        }
                        _ => orientation = Some(side),
                    }
                    found.label()
                }
            };
            setup.pieces.push((label, piece));
        }
        Ok(setup)
    }
}

/// Whether a field is lidraughts' half-move clock (`H3`) or move number
/// (`F12`).
fn is_counter(field: &str) -> bool {
    field
        .strip_prefix(['H', 'F'])
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

// king-runs = "+" run "+" run ; Black's, then White's
// run       = count [square] ; count 0..3, square a number
fn king_runs(text: &str) -> Option<[KingRun; 2]> {
    let (black, white) = text.split_once('+')?;
    let run = |part: &str| -> Option<KingRun> {
        let (count, square) = part.split_at_checked(1)?;
        let moves: u8 = count.parse().ok().filter(|&n| n <= 3)?;
        let square = if square.is_empty() {
            0
        } else if square.len() <= 2 && square.bytes().all(|b| b.is_ascii_digit()) {
            square.parse().ok()?
        } else {
            return None;
        };
        Some(KingRun { moves, square })
    };
    Some([run(white)?, run(black)?])
}

/// Reads a FEN into an unvalidated [`Setup`] on the 8×8 board; numbers are
/// kept as written (validate with [`Position::from_setup`]). See [`Fen`]
/// for other boards.
///
/// # Errors
/// The first part that cannot be read, quoted in the error.
pub fn parse_fen(text: &str) -> Result<Setup, FenError> {
    parse_fen_on(text, Geometry::standard())
}

/// The value of a FEN tag pasted whole (`[FEN "W:W21-32:B1-12"]`, any
/// case), else the text itself.
fn without_tag(text: &str) -> &str {
    let Some(inner) = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
    else {
        return text;
    };
    let inner = inner.trim_start();
    match inner.get(..3) {
        Some(name) if name.eq_ignore_ascii_case("FEN") => inner[3..]
            .trim()
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(text),
        _ => text,
    }
}

/// Reads a FEN into an unvalidated [`Setup`] on `geometry`.
///
/// # Errors
/// The first part that cannot be read, quoted in the error.
pub fn parse_fen_on(text: &str, geometry: &Geometry) -> Result<Setup, FenError> {
    Fen::parse(text)?.setup(geometry)
}

/// The canonical numeric FEN of a position: `W:W21,22,K30:B1,K5`.
pub fn write_fen(position: &Position) -> String {
    let mut fen = String::new();
    fen.push(position.side().fen_char());
    for color in [Color::White, Color::Black] {
        fen.push(':');
        fen.push(color.fen_char());
        for (i, s) in squares(position.pieces(color)).enumerate() {
            if i > 0 {
                fen.push(',');
            }
            if position.kings() & s.bit() != 0 {
                fen.push('K');
            }
            let _ = write!(fen, "{}", s.label());
        }
    }
    fen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_tag_pasted_whole_reads_as_its_value() {
        let plain = Fen::parse("B:W21-32:B1-12").unwrap();
        for pasted in [r#"[FEN "B:W21-32:B1-12"]"#, r#" [fen  "B:W21-32:B1-12"] "#] {
            assert_eq!(Fen::parse(pasted).unwrap(), plain, "{pasted}");
        }
        assert!(Fen::parse(r#"[Event "B:W21-32:B1-12"]"#).is_err());
    }
    use crate::rules::Rules;

    fn read(fen: &str) -> Position {
        let setup = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        Position::from_setup(&setup, &Rules::default()).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn numeric_fen_round_trips() {
        for fen in [
            "W:W18,K27:B11,15",
            "B:WK6,30:B3,K18,21,K31",
            "W:W:B1",
            "B:W21,22,K30:B",
        ] {
            assert_eq!(write_fen(&read(fen)), fen);
        }
    }

    #[test]
    fn tolerated_forms() {
        // Red for Black, lists in either order, spaces, trailing dot.
        assert_eq!(write_fen(&read("W:R11,15:W18,K27")), "W:W18,K27:B11,15");
        assert_eq!(
            write_fen(&read(" B:W 18, K27 :B11, 15. ")),
            "B:W18,K27:B11,15"
        );
        assert_eq!(
            write_fen(&read("W:W21-24:B1-3,K5")),
            "W:W21,22,23,24:B1,2,3,K5"
        );
        let setup = parse_fen("?:W18:B14").unwrap();
        assert_eq!(setup.side, None);
    }

    #[test]
    fn algebraic_fen_in_either_orientation() {
        let vismin =
            read("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6");
        assert_eq!(vismin, Position::initial(&Rules::default()));
        assert_eq!(
            write_fen(&read("W:WKa1:Bb2,b4,c5,e5,g5,c7,e7")),
            "W:WK29:B6,7,14,15,16,17,25"
        );
        // The same position on the Luzon board.
        assert_eq!(
            write_fen(&read("W:WKh1:Bg2,g4,f5,d5,b5,f7,d7")),
            "W:WK29:B6,7,14,15,16,17,25"
        );
        assert_eq!(
            parse_fen("W:Wa1,h1:B"),
            Err(FenError::MixedOrientation("h1".into()))
        );
    }

    #[test]
    fn errors_name_the_bad_part() {
        assert_eq!(parse_fen(""), Err(FenError::Empty));
        assert_eq!(parse_fen("X:W1:B2"), Err(FenError::BadSide("X".into())));
        assert_eq!(parse_fen("W:Q1:B2"), Err(FenError::BadField("Q1".into())));
        assert_eq!(
            parse_fen("W:W1,zz:B2"),
            Err(FenError::BadSquare("zz".into()))
        );
        assert_eq!(
            parse_fen("W:W9-3:B2"),
            Err(FenError::BadRange("9-3".into()))
        );
        assert_eq!(parse_fen("W"), Err(FenError::NoPieces("W".into())));
        // Squares off the board are the validator's to report.
        let setup = parse_fen("W:W31-50:B1-20").unwrap();
        let err = Position::from_setup(&setup, &Rules::default()).unwrap_err();
        assert!(
            err.to_string().contains("square 33 is not on the board"),
            "{err}"
        );
        assert_eq!(parse_fen("W:Wi1:B2"), Err(FenError::BadSquare("i1".into())));
    }

    #[test]
    fn lidraughts_fields_are_read() {
        // Counters (Forsyth.scala: `H` half-move clock, `F` move number).
        let fen = Fen::parse("W:W31-50:B1-20:H0:F1").unwrap();
        assert_eq!(fen.pieces.len(), 40);
        assert_eq!(fen.king_runs, [KingRun::default(); 2]);
        // King runs, Black's first: Black 3 on 7, White 1 on 46.
        let fen = Fen::parse("B:WK46,50:BK7,12:H5:F30:+307+146").unwrap();
        let run = |moves, square| KingRun { moves, square };
        assert_eq!(fen.king_runs, [run(1, 46), run(3, 7)]);
        assert_eq!(Fen::parse("W:W46:B5:+0+0").unwrap().king_runs[0], run(0, 0));
        for bad in ["W:W46:B5:+4+0", "W:W46:B5:+0", "W:W46:B5:+1x+0"] {
            assert!(
                matches!(Fen::parse(bad), Err(FenError::BadKingRuns(_))),
                "{bad}"
            );
        }
        // An `H` or `F` that is no counter is no field.
        assert!(Fen::parse("W:W46:B5:Hx").is_err());
    }

    #[test]
    fn ten_by_ten_set_ups_in_numbers_and_letters() {
        let rules = crate::rules::Preset::International.rules();
        let fen = Fen::parse("W:W31-50:B1-20").unwrap();
        assert_eq!(fen.extent(), (50, 0, 0));
        let setup = fen.setup(rules.geometry).unwrap();
        assert_eq!(
            Position::from_setup(&setup, &rules).unwrap(),
            Position::initial(&rules)
        );
        // a1 is square 46 and j10 square 5 on the International board.
        let fen = Fen::parse("W:Wa1,Kc1:Bj10").unwrap();
        assert_eq!(fen.extent(), (0, 9, 10));
        let position = Position::from_setup(&fen.setup(rules.geometry).unwrap(), &rules).unwrap();
        assert_eq!(write_fen(&position), "W:W46,K47:B5");
        // The same text is no 8×8 set-up.
        assert!(fen.setup(Geometry::standard()).is_err());
    }
}
