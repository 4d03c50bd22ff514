//! Move tokens: a move as written, parsed without a position.
//!
//! A token is two or more squares joined by `-`, `x`, `×` or `:` (spaces
//! around a joiner are allowed, as in `1- 7`). Algebraic squares may also be
//! written back to back (`a3b4`). Numbers may be zero-padded (`01`). What the
//! squares mean depends on the notation, which a token alone may not settle:
//! [`MoveToken::views`] says which notations it can belong to, and
//! [`MoveToken::square_sets`] turns it into sets of squares for one of them.

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;

use super::algebraic::{Orientation, locate};
use super::dama::dama_squares;
use super::system::Notation;
use crate::rules::{Bitboard, Geometry, Move, Square};

/// Longest text that can be a move token, in bytes.
pub const MAX_TOKEN_LEN: usize = 256;

/// One square as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareToken {
    /// A number of at most three digits (numeric or Dama notation; above
    /// 32 on larger boards).
    Number(u16),
    /// A letter and a rank: `file` 0 for `a`, `rank` 1-based.
    Algebraic {
        /// 0-based file letter.
        file: u8,
        /// 1-based rank (at most two digits).
        rank: u8,
    },
}

/// Which notations a written square or move can belong to, on the 8×8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Views {
    /// A number 1..32.
    pub numeric: bool,
    /// An algebraic square that is a playing square on the Vismin board.
    pub vismin: bool,
    /// An algebraic square that is a playing square on the Luzon board.
    pub luzon: bool,
    /// A number 1..16.
    pub dama: bool,
}

impl Views {
    /// Whether `notation` is among them.
    pub fn has(&self, notation: Notation) -> bool {
        match notation {
            Notation::Numeric => self.numeric,
            Notation::Vismin => self.vismin,
            Notation::Luzon => self.luzon,
            Notation::Dama => self.dama,
        }
    }

    fn and(self, other: Views) -> Views {
        Views {
            numeric: self.numeric && other.numeric,
            vismin: self.vismin && other.vismin,
            luzon: self.luzon && other.luzon,
            dama: self.dama && other.dama,
        }
    }
}

impl SquareToken {
    /// The notations this square can be written in (8×8 board).
    pub fn views(&self) -> Views {
        match *self {
            SquareToken::Number(n) => Views {
                numeric: (1..=32).contains(&n),
                dama: (1..=16).contains(&n),
                ..Views::default()
            },
            SquareToken::Algebraic { file, rank } => {
                match locate(Geometry::standard(), file as i32, rank as i32) {
                    Some((_, Orientation::Vismin)) => Views {
                        vismin: true,
                        ..Views::default()
                    },
                    Some((_, Orientation::Luzon)) => Views {
                        luzon: true,
                        ..Views::default()
                    },
                    None => Views::default(),
                }
            }
        }
    }

    /// The squares this token names in `notation` on `geometry` (one square,
    /// or two for a Dama number); `None` when it names none there.
    pub fn squares(&self, notation: Notation, geometry: &Geometry) -> Option<Bitboard> {
        let on_board = |s: Square| geometry.contains(s).then(|| s.bit());
        match (*self, notation) {
            (SquareToken::Number(n), Notation::Numeric) => {
                Square::new(u32::from(n)).and_then(on_board)
            }
            (SquareToken::Number(n), Notation::Dama)
                if Notation::Dama.names_squares_of(geometry) =>
            {
                dama_squares(u32::from(n)).map(|[a, b]| a.bit() | b.bit())
            }
            (SquareToken::Algebraic { file, rank }, Notation::Vismin | Notation::Luzon) => {
                let row = geometry.height() as i32 - rank as i32;
                let col = match notation {
                    Notation::Vismin => file as i32,
                    _ => geometry.width() as i32 - 1 - file as i32,
                };
                geometry.at(row, col).map(|s| s.bit())
            }
            _ => None,
        }
    }
}

impl fmt::Display for SquareToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SquareToken::Number(n) => write!(f, "{n}"),
            SquareToken::Algebraic { file, rank } => write!(f, "{}{rank}", (b'a' + file) as char),
        }
    }
}

/// The written squares of a move: held inline up to
/// [`INLINE_SQUARES`], on the heap beyond.
pub type Squares = SmallVec<[SquareToken; INLINE_SQUARES]>;

/// Squares of a move token held without allocating: enough for plain moves
/// and most captures.
pub const INLINE_SQUARES: usize = 4;

/// A move as written: its squares in order and whether it was marked as a
/// capture (`x`, `×` or `:`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveToken {
    /// The written squares, start first.
    pub squares: Squares,
    /// Whether a capture joiner was used.
    pub capture: bool,
}

/// Why a text is not a move token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Nothing to read.
    #[error("empty move")]
    Empty,
    /// Longer than [`MAX_TOKEN_LEN`].
    #[error("a move of {0} bytes is too long to be a move (at most 256)")]
    TooLong(usize),
    /// Something that is not a square where a square must stand.
    #[error("`{text}` at byte {offset} is not a square")]
    BadSquare {
        /// Byte offset in the token.
        offset: usize,
        /// The offending text.
        text: String,
    },
    /// A joiner with no square after it.
    #[error("a square is missing after byte {offset}")]
    MissingSquare {
        /// Byte offset of the joiner.
        offset: usize,
    },
    /// A single square.
    #[error("`{0}` is one square, not a move")]
    OneSquare(String),
    /// Numbers and letters mixed in one move.
    #[error("`{0}` mixes numbers and algebraic squares")]
    Mixed(String),
    /// Text left after the move.
    #[error("unexpected `{text}` at byte {offset} after the move")]
    Trailing {
        /// Byte offset in the token.
        offset: usize,
        /// The rest of the text.
        text: String,
    },
    /// A square the chosen notation cannot name.
    #[error("`{square}` is not a square in {notation} notation")]
    NotInNotation {
        /// The square as written.
        square: String,
        /// The notation asked for.
        notation: Notation,
    },
}

/// Reads one square at the start of `text`: the square and the bytes used.
fn square_at(text: &[u8]) -> Option<(SquareToken, usize)> {
    let digits = |from: usize, max: usize| {
        let n = text[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        (n >= 1 && n <= max).then_some(n)
    };
    // At most three digits: the value fits.
    let value = |from: usize, n: usize| {
        text[from..from + n]
            .iter()
            .fold(0u16, |v, d| v * 10 + u16::from(d - b'0'))
    };
    match text.first()? {
        b'0'..=b'9' => {
            let n = digits(0, 3)?;
            Some((SquareToken::Number(value(0, n)), n))
        }
        letter if letter.is_ascii_alphabetic() => {
            let file = letter.to_ascii_lowercase() - b'a';
            // `x` joins squares; it is a file letter only on boards wider than 23.
            if letter.eq_ignore_ascii_case(&b'x') {
                return None;
            }
            let n = digits(1, 2)?;
            Some((
                SquareToken::Algebraic {
                    file,
                    rank: value(1, n) as u8,
                },
                n + 1,
            ))
        }
        _ => None,
    }
}

/// Reads a joiner (with spaces around it) at the start of `text`: whether it
/// marks a capture and the bytes used.
fn joiner_at(text: &[u8]) -> Option<(bool, usize)> {
    let spaces = |from: usize| {
        text[from..]
            .iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .count()
    };
    let lead = spaces(0);
    let rest = &text[lead..];
    let (capture, n) = match rest {
        [b'-', ..] => (false, 1),
        [b'x' | b'X' | b':', ..] => (true, 1),
        [0xC3, 0x97, ..] => (true, 2), // U+00D7 MULTIPLICATION SIGN
        _ => return None,
    };
    let used = lead + n;
    Some((capture, used + spaces(used)))
}

impl MoveToken {
    /// Reads a move at the start of `text`; returns it and the bytes used.
    /// Reading stops before the first byte that cannot continue the move.
    ///
    /// # Errors
    /// When the text does not start with a move of two or more squares.
    pub fn parse_prefix(text: &str) -> Result<(MoveToken, usize), TokenError> {
        let bytes = text.as_bytes();
        if bytes.is_empty() {
            return Err(TokenError::Empty);
        }
        let limit = bytes.len().min(MAX_TOKEN_LEN + 1);
        let bytes = &bytes[..limit];
        let bad = |offset: usize| TokenError::BadSquare {
            offset,
            text: String::from_utf8_lossy(&bytes[offset..])
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string(),
        };
        let (first, mut pos) = square_at(bytes).ok_or_else(|| bad(0))?;
        let mut squares = Squares::new();
        squares.push(first);
        let mut capture = false;
        loop {
            if let Some((is_capture, used)) = joiner_at(&bytes[pos..]) {
                let Some((square, n)) = square_at(&bytes[pos + used..]) else {
                    // A joiner with spaces before it and nothing after is not part of the move.
                    if bytes[pos] == b' ' || bytes[pos] == b'\t' {
                        break;
                    }
                    return Err(
                        if pos + used >= bytes.len() || bytes[pos + used].is_ascii_whitespace() {
                            TokenError::MissingSquare { offset: pos }
                        } else {
                            bad(pos + used)
                        },
                    );
                };
                capture |= is_capture;
                squares.push(square);
                pos += used + n;
            } else if matches!(squares.last(), Some(SquareToken::Algebraic { .. })) {
                match square_at(&bytes[pos..]) {
                    Some((square @ SquareToken::Algebraic { .. }, n)) => {
                        squares.push(square);
                        pos += n;
                    }
                    _ => break,
                }
            } else {
                break;
            }
        }
        if pos > MAX_TOKEN_LEN {
            return Err(TokenError::TooLong(text.len()));
        }
        let written = || String::from_utf8_lossy(&bytes[..pos]).into_owned();
        if squares.len() < 2 {
            return Err(TokenError::OneSquare(written()));
        }
        let numbers = squares
            .iter()
            .filter(|s| matches!(s, SquareToken::Number(_)))
            .count();
        if numbers != 0 && numbers != squares.len() {
            return Err(TokenError::Mixed(written()));
        }
        Ok((MoveToken { squares, capture }, pos))
    }

    /// Reads four digits standing alone as two squares of two digits each,
    /// written without a joiner as PDN 3.0 allows for numeric moves: `3228`
    /// is 32-28. Only where that is the one sensible reading: exactly four
    /// digits, both numbers in 1..=50, then the end of the text, a blank or
    /// a delimiter (`{}()[];!?$`), and no joiner after blanks. Returns the
    /// move and the bytes used (4).
    pub fn parse_joinerless(text: &str) -> Option<(MoveToken, usize)> {
        let bytes = text.as_bytes();
        let digits = bytes.get(..4)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let ends = bytes.get(4).is_none_or(|b| {
            (b.is_ascii_whitespace() || b"{}()[];!?$".contains(b))
                && joiner_at(&bytes[4..]).is_none()
        });
        if !ends {
            return None;
        }
        let number = |k: usize| u16::from(digits[k] - b'0') * 10 + u16::from(digits[k + 1] - b'0');
        let (from, to) = (number(0), number(2));
        if !(1..=50).contains(&from) || !(1..=50).contains(&to) {
            return None;
        }
        let squares = Squares::from_slice(&[SquareToken::Number(from), SquareToken::Number(to)]);
        Some((
            MoveToken {
                squares,
                capture: false,
            },
            4,
        ))
    }

    /// The notations every square of the move can belong to (8×8 board).
    pub fn views(&self) -> Views {
        self.squares.iter().fold(
            Views {
                numeric: true,
                vismin: true,
                luzon: true,
                dama: true,
            },
            |acc, s| acc.and(s.views()),
        )
    }

    /// Whether the move is written with letters.
    pub fn is_algebraic(&self) -> bool {
        matches!(self.squares.first(), Some(SquareToken::Algebraic { .. }))
    }

    /// The largest number written, and the farthest file (0-based) and rank
    /// of the algebraic squares: what tells the board's size (a number
    /// above 32, a file past `h` or a rank past 8 point to a larger board).
    pub fn extent(&self) -> (u32, u8, u8) {
        self.squares
            .iter()
            .fold((0, 0, 0), |(n, f, r), square| match *square {
                SquareToken::Number(label) => (n.max(u32::from(label)), f, r),
                SquareToken::Algebraic { file, rank } => (n, f.max(file), r.max(rank)),
            })
    }

    /// The largest number written, if the move is numeric (a number above 32
    /// points to a larger board).
    pub fn max_number(&self) -> Option<u32> {
        self.squares
            .iter()
            .filter_map(|s| match s {
                SquareToken::Number(n) => Some(u32::from(*n)),
                _ => None,
            })
            .max()
    }

    /// Whether this move, written just after `previous`, goes on with the
    /// capture `previous` began: both are written as captures and this one
    /// starts on the square where `previous` ended. Files that write each
    /// jump of a capture as a move of its own (PlayStrategy's export) write
    /// a double capture so: `a3xc5 c5xe7`. Said of the squares as written,
    /// whatever the notation.
    pub fn continues(&self, previous: &MoveToken) -> bool {
        self.capture && previous.capture && self.squares.first() == previous.squares.last()
    }

    /// The capture `self` begins and `next` goes on with (see
    /// [`MoveToken::continues`]) as one move: `a3xc5` and `c5xe7` make
    /// `a3xc5xe7`.
    pub fn joined(&self, next: &MoveToken) -> MoveToken {
        let mut squares = self.squares.clone();
        squares.extend(next.squares.iter().skip(1).copied());
        MoveToken {
            squares,
            capture: self.capture || next.capture,
        }
    }

    /// The move with its algebraic squares named on the board turned 180°
    /// (on a board of `width` files and `height` ranks, file `f` and rank
    /// `r` become file `width − 1 − f` and rank `height + 1 − r`): the
    /// squares of a record written from the other side of the board, as
    /// PlayStrategy writes English draughts, with the first side's men on
    /// ranks 1–3. Numbers, and squares beyond the board, are kept.
    pub fn turned(&self, geometry: &Geometry) -> MoveToken {
        let (width, height) = (geometry.width(), geometry.height());
        let turn = |square: &SquareToken| match *square {
            SquareToken::Algebraic { file, rank }
                if u32::from(file) < width && (1..=height).contains(&u32::from(rank)) =>
            {
                SquareToken::Algebraic {
                    file: (width - 1 - u32::from(file)) as u8,
                    rank: (height + 1 - u32::from(rank)) as u8,
                }
            }
            other => other,
        };
        MoveToken {
            squares: self.squares.iter().map(turn).collect(),
            capture: self.capture,
        }
    }

    /// Appends, for each written square, the squares it names in
    /// `notation`; false (with `out` partly filled) when one names none.
    #[inline]
    pub fn square_sets_into(
        &self,
        notation: Notation,
        geometry: &Geometry,
        out: &mut Vec<Bitboard>,
    ) -> bool {
        if notation == Notation::Numeric {
            // The commonest notation by a shorter way: a number names the
            // square of its label when that lies on the board.
            let count = geometry.len();
            for s in &self.squares {
                match *s {
                    SquareToken::Number(n) if (1..=count).contains(&usize::from(n)) => {
                        out.push(1 << (n - 1));
                    }
                    _ => return false,
                }
            }
            return true;
        }
        for s in &self.squares {
            match s.squares(notation, geometry) {
                Some(set) => out.push(set),
                None => return false,
            }
        }
        true
    }

    /// For each written square, the squares it names in `notation`.
    ///
    /// # Errors
    /// The first square the notation cannot name on this board.
    pub fn square_sets(
        &self,
        notation: Notation,
        geometry: &Geometry,
    ) -> Result<Vec<Bitboard>, TokenError> {
        self.squares
            .iter()
            .map(|s| {
                s.squares(notation, geometry)
                    .ok_or_else(|| TokenError::NotInNotation {
                        square: s.to_string(),
                        notation,
                    })
            })
            .collect()
    }
}

impl FromStr for MoveToken {
    type Err = TokenError;

    /// Reads a whole text as one move (surrounding spaces ignored).
    fn from_str(s: &str) -> Result<MoveToken, TokenError> {
        let trimmed = s.trim();
        if trimmed.len() > MAX_TOKEN_LEN {
            return Err(TokenError::TooLong(trimmed.len()));
        }
        // `3228` reads as the PDN reader reads it: two squares.
        let (token, used) = MoveToken::parse_prefix(trimmed).or_else(|error| {
            MoveToken::parse_joinerless(trimmed)
                .filter(|&(_, used)| used == trimmed.len())
                .ok_or(error)
        })?;
        if used < trimmed.len() {
            return Err(TokenError::Trailing {
                offset: used,
                text: trimmed[used..].to_string(),
            });
        }
        Ok(token)
    }
}

impl fmt::Display for MoveToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let joiner = if self.capture { "x" } else { "-" };
        for (i, s) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(joiner)?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Writes a move in `notation`: start and end only, or with the full
/// canonical route when `full` is set. Captures are joined by `x`.
pub fn write_move(mv: &Move, notation: Notation, geometry: &Geometry, full: bool) -> String {
    let joiner = if mv.is_capture() { "x" } else { "-" };
    let mut text = notation.square_name(geometry, mv.from());
    if full {
        for square in mv.path() {
            text.push_str(joiner);
            text.push_str(&notation.square_name(geometry, square));
        }
    } else {
        text.push_str(joiner);
        text.push_str(&notation.square_name(geometry, mv.to()));
    }
    text
}

/// Writes a move as PDN does: start and end only, unless another legal move
/// of the position shares them; then the full canonical route.
pub fn write_move_among(
    mv: &Move,
    legal: &[Move],
    notation: Notation,
    geometry: &Geometry,
) -> String {
    let shared = legal
        .iter()
        .any(|other| other != mv && other.from() == mv.from() && other.to() == mv.to());
    write_move(mv, notation, geometry, shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(s: &str) -> MoveToken {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn joiners_and_spacing() {
        for s in [
            "23-18", "23x18", "23X18", "23×18", "23:18", "23 - 18", "23- 18", "023-018",
        ] {
            let t = token(s);
            assert_eq!(
                t.squares[..],
                [SquareToken::Number(23), SquareToken::Number(18)],
                "{s}"
            );
        }
        assert!(token("23x14").capture);
        assert!(!token("23-18").capture);
        assert_eq!(
            token("1- 7").squares[..],
            [SquareToken::Number(1), SquareToken::Number(7)]
        );
    }

    #[test]
    fn four_digits_alone_read_as_two_squares() {
        assert_eq!(
            token("3228").squares[..],
            [SquareToken::Number(32), SquareToken::Number(28)]
        );
        assert_eq!(
            token("0101").squares[..],
            [SquareToken::Number(1), SquareToken::Number(1)]
        );
        assert!("3299".parse::<MoveToken>().is_err());
        assert!("32281".parse::<MoveToken>().is_err());
    }

    #[test]
    fn algebraic_moves_with_and_without_joiner() {
        let t = token("a3b4");
        assert_eq!(t.squares.len(), 2);
        assert!(t.is_algebraic());
        let t = token("c1xe3xc5xa3");
        assert_eq!(t.squares.len(), 4);
        assert!(t.capture);
        assert_eq!(t.to_string(), "c1xe3xc5xa3");
    }

    #[test]
    fn prefix_stops_before_the_next_move() {
        let (t, used) = MoveToken::parse_prefix("23-18 10-15").unwrap();
        assert_eq!(used, 5);
        assert_eq!(t.to_string(), "23-18");
        let (_, used) = MoveToken::parse_prefix("9x18!? 1-0").unwrap();
        assert_eq!(used, 4);
    }

    #[test]
    fn views_tell_the_possible_notations() {
        let v = token("2-15").views();
        assert!(v.numeric && v.dama && !v.vismin && !v.luzon);
        let v = token("23-18").views();
        assert!(v.numeric && !v.dama);
        let v = token("e3-d4").views();
        assert!(v.vismin && !v.luzon);
        let v = token("d3-e4").views();
        assert!(v.luzon && !v.vismin);
        assert_eq!(token("32-28").max_number(), Some(32));
        assert_eq!(token("46-41").views(), Views::default());
    }

    #[test]
    fn square_sets_per_notation() {
        let g = Geometry::standard();
        let t = token("2-15");
        let dama = t.square_sets(Notation::Dama, g).unwrap();
        assert_eq!(dama, vec![(1 << 22) | (1 << 9), (1 << 17) | (1 << 14)]);
        let numeric = t.square_sets(Notation::Numeric, g).unwrap();
        assert_eq!(numeric, vec![1 << 1, 1 << 14]);
        let err = t.square_sets(Notation::Vismin, g).unwrap_err();
        assert_eq!(err.to_string(), "`2` is not a square in vismin notation");
        let luzon = token("d3-e4").square_sets(Notation::Luzon, g).unwrap();
        assert_eq!(luzon, vec![1 << 22, 1 << 17]);
    }

    #[test]
    fn four_digits_without_a_joiner() {
        let read = |s: &str| MoveToken::parse_joinerless(s).map(|(t, n)| (t.to_string(), n));
        assert_eq!(read("3228"), Some(("32-28".into(), 4)));
        assert_eq!(read("3228 24-19"), Some(("32-28".into(), 4)));
        assert_eq!(read("0914!"), Some(("9-14".into(), 4)));
        assert_eq!(read("5045}"), Some(("50-45".into(), 4)));
        for no in [
            "322",
            "32281",
            "3228.",
            "3228-24",
            "3228 - 24",
            "3228x",
            "3228a",
            "5128",
            "3251",
            "0028",
            "3200",
            "32-28",
            "a3b4",
        ] {
            assert_eq!(read(no), None, "{no}");
        }
        // The general reader is unchanged: a joiner is needed there.
        assert!(MoveToken::parse_prefix("3228").is_err());
    }

    #[test]
    fn bad_tokens_name_the_bad_part() {
        assert_eq!("".parse::<MoveToken>(), Err(TokenError::Empty));
        assert_eq!(
            "23".parse::<MoveToken>(),
            Err(TokenError::OneSquare("23".into()))
        );
        assert_eq!(
            "23-".parse::<MoveToken>(),
            Err(TokenError::MissingSquare { offset: 2 })
        );
        assert_eq!(
            "23-q".parse::<MoveToken>(),
            Err(TokenError::BadSquare {
                offset: 3,
                text: "q".into()
            })
        );
        assert_eq!(
            "a3-18".parse::<MoveToken>(),
            Err(TokenError::Mixed("a3-18".into()))
        );
        assert_eq!(
            "23-18z".parse::<MoveToken>(),
            Err(TokenError::Trailing {
                offset: 5,
                text: "z".into()
            })
        );
        let long = "1-".repeat(200) + "1";
        assert!(matches!(
            long.parse::<MoveToken>(),
            Err(TokenError::TooLong(_))
        ));
        assert!(matches!(
            "9999-1".parse::<MoveToken>(),
            Err(TokenError::BadSquare { .. })
        ));
    }

    #[test]
    fn a_jump_written_after_the_jump_before_it_continues_that_capture() {
        assert!(token("c5xe7").continues(&token("a3xc5")));
        assert!(token("15x8").continues(&token("22x15")));
        // Not written as captures, or not from where the capture ended.
        assert!(!token("c5-d6").continues(&token("a3xc5")));
        assert!(!token("c5xe7").continues(&token("a3-c5")));
        assert!(!token("e5xc7").continues(&token("a3xc5")));
        let joined = token("a3xc5")
            .joined(&token("c5xe7"))
            .joined(&token("e7xg5"));
        assert_eq!(joined, token("a3xc5xe7xg5"));
    }

    #[test]
    fn a_turned_move_names_the_squares_from_the_other_side() {
        let g = Geometry::standard();
        // PlayStrategy's first English move g3-f4 is 9-14: Vismin b6-c5.
        assert_eq!(token("g3-f4").turned(g), token("b6-c5"));
        assert_eq!(token("a1xc3").turned(g), token("h8xf6"));
        // Colours are kept: a Vismin square stays one.
        for file in 0..8u8 {
            for rank in 1..=8u8 {
                let t = MoveToken {
                    squares: Squares::from_slice(&[SquareToken::Algebraic { file, rank }; 2]),
                    capture: false,
                };
                assert_eq!(t.turned(g).views(), t.views(), "{t}");
                assert_eq!(t.turned(g).turned(g), t);
            }
        }
        // Numbers and squares off the board stay as written.
        assert_eq!(token("9-14").turned(g), token("9-14"));
        assert_eq!(token("j9-a1").turned(g), token("j9-h8"));
        let g10 = Geometry::international();
        assert_eq!(token("a1-j10").turned(g10), token("j10-a1"));
    }

    #[test]
    fn numeric_square_sets_name_the_squares_of_their_labels() {
        // The short way for numbers gives what each square names.
        for geometry in [Geometry::standard(), Geometry::international()] {
            for a in 0..=70u16 {
                for b in [1u16, 32, 33, 50, 51] {
                    let token = MoveToken {
                        squares: Squares::from_slice(&[
                            SquareToken::Number(a),
                            SquareToken::Number(b),
                        ]),
                        capture: false,
                    };
                    let mut out = Vec::new();
                    let fits = token.square_sets_into(Notation::Numeric, geometry, &mut out);
                    let each: Option<Vec<Bitboard>> = token
                        .squares
                        .iter()
                        .map(|s| s.squares(Notation::Numeric, geometry))
                        .collect();
                    assert_eq!(fits, each.is_some(), "{a}-{b} on {}", geometry.len());
                    if let Some(each) = each {
                        assert_eq!(out, each, "{a}-{b} on {}", geometry.len());
                    }
                }
            }
        }
    }
}
