//! The written form of a pattern:
//!
//! ```text
//! pattern := [side ':'] section (':' section)*
//! side    := 'W' | 'B' | '?'
//! section := letter item (',' item)*  |  group
//! letter  := 'W' | 'B' | 'X' | 'E'
//! item    := ['!'] ['K' | '*'] squares
//! squares := square | square '-' square
//! group   := '(' cond ('|' cond)* ')'
//! cond    := letter item
//! ```
//!
//! Letters are read without case; blanks around the parts are ignored.

use crate::rules::{Bitboard, Color, Rules};

use super::class::PieceClass;
use super::error::PatternError;
use super::spec::{Cond, Pattern, square_named};

impl Pattern {
    /// Reads a pattern in its written form on the rules' board, e.g.
    /// `W:W27,28:B19` (White to move, white men on 27 and 28, a black man
    /// on 19).
    ///
    /// # Errors
    /// A part that cannot be read (naming it), or a pattern with no
    /// condition.
    pub fn parse(text: &str, rules: &Rules) -> Result<Pattern, PatternError> {
        let mut pattern = Pattern::empty(rules.geometry);
        if text.trim().is_empty() {
            return Err(PatternError::whole("the pattern has no condition"));
        }
        let mut sections: Vec<&str> = text.split(':').map(str::trim).collect();
        // side ':'
        if sections.len() > 1 {
            let side = match sections[0].to_ascii_uppercase().as_str() {
                "W" => Some(Some(Color::White)),
                "B" => Some(Some(Color::Black)),
                "?" => Some(None),
                _ => None,
            };
            if let Some(side) = side {
                pattern.side = side;
                sections.remove(0);
            }
        }
        for section in sections {
            if section.starts_with('(') {
                pattern.any_of.push(group(section, rules)?);
            } else {
                for cond in plain_section(section, rules)? {
                    pattern.require(cond);
                }
            }
        }
        if pattern.is_empty() {
            return Err(PatternError::at("the pattern has no condition", text));
        }
        Ok(pattern)
    }
}

/// `letter item (',' item)*`
fn plain_section(section: &str, rules: &Rules) -> Result<Vec<Cond>, PatternError> {
    let Some(first) = section.chars().next() else {
        return Err(PatternError::whole(
            "an empty section (two ':' in a row, or one at an end)",
        ));
    };
    let letter = first.to_ascii_uppercase();
    let items = &section[first.len_utf8()..];
    items
        .split(',')
        .map(|item| {
            cond(
                letter,
                item.trim(),
                rules,
                &format!("{letter}{}", item.trim()),
            )
        })
        .collect()
}

/// `'(' cond ('|' cond)* ')'`
fn group(section: &str, rules: &Rules) -> Result<Vec<Cond>, PatternError> {
    let Some(inner) = section.strip_prefix('(').and_then(|s| s.strip_suffix(')')) else {
        return Err(PatternError::at("a group must end with ')'", section));
    };
    inner
        .split('|')
        .map(|c| {
            let c = c.trim();
            let Some(first) = c.chars().next() else {
                return Err(PatternError::at("an empty condition in a group", section));
            };
            let letter = first.to_ascii_uppercase();
            cond(letter, c[first.len_utf8()..].trim(), rules, c)
        })
        .collect()
}

/// `['!'] ['K' | '*'] squares` under `letter`; `part` names it in errors.
fn cond(letter: char, item: &str, rules: &Rules, part: &str) -> Result<Cond, PatternError> {
    let (negated, item) = match item.strip_prefix('!') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, item),
    };
    let (kind, squares_text) = match item.chars().next() {
        Some(c @ ('K' | 'k' | '*')) => (Some(c.to_ascii_uppercase()), &item[1..]),
        _ => (None, item),
    };
    let class = match (letter, kind) {
        ('W', None) => PieceClass::WhiteMan,
        ('W', Some('K')) => PieceClass::WhiteKing,
        ('W', Some(_)) => PieceClass::White,
        ('B', None) => PieceClass::BlackMan,
        ('B', Some('K')) => PieceClass::BlackKing,
        ('B', Some(_)) => PieceClass::Black,
        ('X', None) => PieceClass::Piece,
        ('E', None) => PieceClass::Empty,
        ('X' | 'E', Some(k)) => {
            return Err(PatternError::at(
                format!("{letter} takes no '{k}' (only W and B do)"),
                part,
            ));
        }
        _ => {
            return Err(PatternError::at(
                format!("'{letter}' is no kind of piece (W, B, X or E)"),
                part,
            ));
        }
    };
    Ok(Cond {
        class,
        squares: squares(squares_text.trim(), rules, part)?,
        negated,
    })
}

/// `square | square '-' square`
fn squares(text: &str, rules: &Rules, part: &str) -> Result<Bitboard, PatternError> {
    let Some((low, high)) = text.split_once('-') else {
        return Ok(square_named(text, rules, part)?.bit());
    };
    let (low, high) = (
        square_named(low.trim(), rules, part)?,
        square_named(high.trim(), rules, part)?,
    );
    if low > high {
        return Err(PatternError::at(
            format!("the range {}-{} is upside down", low.label(), high.label()),
            part,
        ));
    }
    let (l, h) = (low.index(), high.index());
    // Bits l..=h; h < 64.
    Ok((u64::MAX >> (63 - h)) & (u64::MAX << l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::rules::{Position, Preset};

    fn parse(text: &str) -> Result<Pattern, String> {
        Pattern::parse(text, &Preset::English.rules()).map_err(|e| e.to_string())
    }

    fn fits(pattern: &str, fen: &str) -> bool {
        let rules = Preset::English.rules();
        let position =
            Position::from_setup(&parse_fen_on(fen, rules.geometry).unwrap(), &rules).unwrap();
        parse(pattern).unwrap().matches(&position)
    }

    #[test]
    fn the_documented_examples_read() {
        let p = parse("W:W27,28:B19").unwrap();
        assert_eq!(p.side, Some(Color::White));
        assert_eq!(p.must[PieceClass::WhiteMan.slot()], 1 << 26 | 1 << 27);
        assert_eq!(p.must[PieceClass::BlackMan.slot()], 1 << 18);
        let p = parse("WK5,*10:E14,15:B!19:(W22|W23)").unwrap();
        assert_eq!(p.side, None);
        assert_eq!(p.must[PieceClass::WhiteKing.slot()], 1 << 4);
        assert_eq!(p.must[PieceClass::White.slot()], 1 << 9);
        assert_eq!(p.must[PieceClass::Empty.slot()], 1 << 13 | 1 << 14);
        assert_eq!(p.must_not[PieceClass::BlackMan.slot()], 1 << 18);
        assert_eq!(p.any_of.len(), 1);
        assert_eq!(p.any_of[0].len(), 2);
        assert_eq!(
            parse("x1-4").unwrap().must[PieceClass::Piece.slot()],
            0b1111
        );
        assert_eq!(parse("?:wa1").unwrap().must[0], 1 << 28);
    }

    #[test]
    fn positions_fit_as_the_grammar_says() {
        assert!(fits("W:W27,28:B19", "W:W27,28,30:B19,1"));
        assert!(!fits("W:W27,28:B19", "B:W27,28:B19"));
        assert!(!fits("W:W27,28:B19", "W:W27,K28:B19"));
        assert!(fits("W*28", "W:W27,K28:B19"));
        assert!(fits("WK5,*10:E14,15:B!19:(W22|W23)", "W:WK5,10,23:BK19"));
        assert!(!fits("WK5,*10:E14,15:B!19:(W22|W23)", "W:WK5,10,23:B19"));
        assert!(!fits("WK5,*10:E14,15:B!19:(W22|W23)", "W:WK5,10,24:BK19"));
        assert!(!fits("E14-15", "W:W14:B1"));
    }

    #[test]
    fn bad_parts_are_named() {
        for (text, message) in [
            (
                "W33",
                "square 33 is not on the english board (1–32), in \"W33\"",
            ),
            ("Q5", "'Q' is no kind of piece (W, B, X or E), in \"Q5\""),
            ("EK5", "E takes no 'K' (only W and B do), in \"EK5\""),
            ("(W22|EK5)", "E takes no 'K' (only W and B do), in \"EK5\""),
            ("W10-4", "the range 10-4 is upside down, in \"W10-4\""),
            (
                "W:",
                "an empty section (two ':' in a row, or one at an end)",
            ),
            ("W", "a square is missing, in \"W\""),
            ("(W22|W23", "a group must end with ')', in \"(W22|W23\""),
            ("W27,", "a square is missing, in \"W\""),
        ] {
            assert_eq!(parse(text).unwrap_err(), message, "{text}");
        }
        assert_eq!(
            Pattern::parse("W:W47", &Preset::International.rules())
                .unwrap()
                .must[0],
            1 << 46
        );
    }
}
