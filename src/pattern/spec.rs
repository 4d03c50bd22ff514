//! A pattern of squares: what must be there, what must not, groups of
//! which one must hold, and the side to move; compiled to masks.

use crate::rules::{Bitboard, Color, Geometry, Position, Rules, Square};

use super::class::PieceClass;
use super::error::PatternError;
use super::reverse::mirror;

/// One condition: every square of `squares` holds `class` (or, `negated`,
/// none of them does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cond {
    /// What the squares hold.
    pub class: PieceClass,
    /// The squares.
    pub squares: Bitboard,
    /// Whether the condition is that none of them holds `class`.
    pub negated: bool,
}

impl Cond {
    /// Whether the condition holds in `position` (`all`: the board's squares).
    #[inline]
    pub fn holds(&self, position: &Position, all: Bitboard) -> bool {
        let there = self.class.squares(position, all) & self.squares;
        if self.negated {
            there == 0
        } else {
            there == self.squares
        }
    }

    fn reversed(&self, geometry: &Geometry) -> Cond {
        Cond {
            class: self.class.reversed(),
            squares: mirror(self.squares, geometry),
            negated: self.negated,
        }
    }
}

/// A pattern on one board: read from its written form with
/// [`Pattern::parse`] or from JSON with [`Pattern::from_json`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The side to move, `None` for either.
    pub side: Option<Color>,
    /// Per [`PieceClass::slot`], the squares that must hold the class.
    pub must: [Bitboard; 8],
    /// Per [`PieceClass::slot`], the squares that must not hold it.
    pub must_not: [Bitboard; 8],
    /// Groups of conditions of which at least one must hold.
    pub any_of: Vec<Vec<Cond>>,
    /// The board.
    pub geometry: &'static Geometry,
}

impl Pattern {
    /// A pattern without conditions on `geometry`'s board.
    pub(crate) fn empty(geometry: &'static Geometry) -> Pattern {
        Pattern {
            side: None,
            must: [0; 8],
            must_not: [0; 8],
            any_of: Vec::new(),
            geometry,
        }
    }

    /// Adds a condition that must hold.
    pub(crate) fn require(&mut self, cond: Cond) {
        let slot = cond.class.slot();
        if cond.negated {
            self.must_not[slot] |= cond.squares;
        } else {
            self.must[slot] |= cond.squares;
        }
    }

    /// Whether the pattern has no condition at all (the side to move is
    /// not one).
    pub fn is_empty(&self) -> bool {
        self.must.iter().chain(&self.must_not).all(|&m| m == 0) && self.any_of.is_empty()
    }

    /// Whether `position` fits the pattern.
    #[inline]
    pub fn matches(&self, position: &Position) -> bool {
        if self.side.is_some_and(|side| side != position.side()) {
            return false;
        }
        let all = self.geometry.all();
        for class in PieceClass::ALL {
            let (must, must_not) = (self.must[class.slot()], self.must_not[class.slot()]);
            if must | must_not == 0 {
                continue;
            }
            let there = class.squares(position, all);
            if there & must != must || there & must_not != 0 {
                return false;
            }
        }
        self.any_of
            .iter()
            .all(|group| group.iter().any(|c| c.holds(position, all)))
    }

    /// The pattern with colours reversed: a position fits it exactly when
    /// the position with colours reversed fits this one.
    pub fn reversed(&self) -> Pattern {
        let g = self.geometry;
        let mut out = Pattern::empty(g);
        out.side = self.side.map(Color::opponent);
        for class in PieceClass::ALL {
            let to = class.reversed().slot();
            out.must[to] = mirror(self.must[class.slot()], g);
            out.must_not[to] = mirror(self.must_not[class.slot()], g);
        }
        out.any_of = self
            .any_of
            .iter()
            .map(|group| group.iter().map(|c| c.reversed(g)).collect())
            .collect();
        out
    }

    /// Every square the pattern speaks of.
    pub fn squares(&self) -> Bitboard {
        let groups = self.any_of.iter().flatten().fold(0, |m, c| m | c.squares);
        self.must
            .iter()
            .chain(&self.must_not)
            .fold(groups, |m, s| m | s)
    }
}

/// The square a pattern names by `name` (a number, or an algebraic name
/// on either lettering) on the rules' board.
///
/// # Errors
/// A name that is no square, or a square off the board, naming `part`.
pub(crate) fn square_named(name: &str, rules: &Rules, part: &str) -> Result<Square, PatternError> {
    let g = rules.geometry;
    let off = |label: &dyn std::fmt::Display| {
        PatternError::at(
            format!(
                "square {label} is not on the {} board (1–{})",
                rules.preset.name(),
                g.len()
            ),
            part,
        )
    };
    if name.bytes().all(|b| b.is_ascii_digit()) && !name.is_empty() {
        let label: u32 = name.parse().map_err(|_| off(&name))?;
        return Square::new(label)
            .filter(|s| g.contains(*s))
            .ok_or_else(|| off(&label));
    }
    match crate::notation::parse_algebraic(g, &name.to_ascii_lowercase()) {
        Some((square, _)) => Ok(square),
        None if name.is_empty() => Err(PatternError::at("a square is missing", part)),
        None => Err(PatternError::at(
            format!(
                "\"{name}\" is not a square of the {} board",
                rules.preset.name()
            ),
            part,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::rules::Preset;

    fn at(fen: &str, rules: &Rules) -> Position {
        Position::from_setup(&parse_fen_on(fen, rules.geometry).unwrap(), rules).unwrap()
    }

    #[test]
    fn masks_test_pieces_emptiness_groups_and_the_side() {
        let rules = Preset::English.rules();
        let mut p = Pattern::empty(rules.geometry);
        p.require(Cond {
            class: PieceClass::WhiteMan,
            squares: 1 << 26 | 1 << 27,
            negated: false,
        });
        p.require(Cond {
            class: PieceClass::Black,
            squares: 1 << 18,
            negated: true,
        });
        assert!(p.matches(&at("W:W27,28:B20", &rules)));
        assert!(p.matches(&at("B:W27,28,9:B20", &rules)));
        assert!(!p.matches(&at("W:W27,K28:B20", &rules)));
        assert!(!p.matches(&at("W:W27,28:BK19", &rules)));
        p.side = Some(Color::White);
        assert!(!p.matches(&at("B:W27,28:B20", &rules)));
        p.any_of.push(vec![
            Cond {
                class: PieceClass::Empty,
                squares: 1 << 4,
                negated: false,
            },
            Cond {
                class: PieceClass::BlackKing,
                squares: 1 << 5,
                negated: false,
            },
        ]);
        assert!(!p.matches(&at("W:W27,28:B5", &rules)));
        assert!(p.matches(&at("W:W27,28:B5,K6", &rules)));
        assert!(p.matches(&at("W:W27,28:B6", &rules)));
    }

    #[test]
    fn a_reversed_pattern_fits_the_reversed_position() {
        let rules = Preset::English.rules();
        let mut p = Pattern::empty(rules.geometry);
        p.side = Some(Color::White);
        p.require(Cond {
            class: PieceClass::WhiteKing,
            squares: 1 << 4,
            negated: false,
        });
        let position = at("W:WK5:B6", &rules);
        let reversed = crate::pattern::reversed_position(&position, &rules);
        assert!(p.matches(&position));
        assert!(!p.matches(&reversed));
        assert!(p.reversed().matches(&reversed));
        assert_eq!(p.reversed().reversed(), p);
    }

    #[test]
    fn squares_are_named_by_number_or_algebraically() {
        let rules = Preset::English.rules();
        assert_eq!(square_named("32", &rules, "W32").unwrap().label(), 32);
        assert_eq!(square_named("a1", &rules, "Wa1").unwrap().label(), 29);
        assert_eq!(
            square_named("33", &rules, "W33").unwrap_err().to_string(),
            "square 33 is not on the english board (1–32), in \"W33\""
        );
        assert!(square_named("z9", &rules, "Wz9").is_err());
        assert!(square_named("99999999999999", &rules, "W9").is_err());
    }
}
