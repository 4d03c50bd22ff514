//! What one search looks for: a pattern and/or a material, as given,
//! with colours reversed, or both.

use crate::rules::{Position, Rules};

use super::class::PieceClass;
use super::forward::Passed;
use super::manoeuvre::Manoeuvre;
use super::material::Material;
use super::spec::Pattern;
use super::summary::Summary;

/// Which colours a search takes a position in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Colours {
    /// As given.
    #[default]
    AsGiven,
    /// With colours reversed (see the [module](super)).
    Reversed,
    /// Either way.
    Both,
}

/// A colours value that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a colours value (as-given, reversed or both)")]
pub struct ParseColoursError(pub String);

impl std::str::FromStr for Colours {
    type Err = ParseColoursError;

    fn from_str(s: &str) -> Result<Colours, ParseColoursError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "as-given" => Ok(Colours::AsGiven),
            "reversed" => Ok(Colours::Reversed),
            "both" => Ok(Colours::Both),
            _ => Err(ParseColoursError(s.to_string())),
        }
    }
}

impl Colours {
    /// The name as written: `as-given`, `reversed`, `both`.
    pub fn name(self) -> &'static str {
        match self {
            Colours::AsGiven => "as-given",
            Colours::Reversed => "reversed",
            Colours::Both => "both",
        }
    }

    /// Whether positions are taken as given.
    pub fn as_given(self) -> bool {
        self != Colours::Reversed
    }

    /// Whether positions are taken with colours reversed.
    pub fn reversed(self) -> bool {
        self != Colours::AsGiven
    }
}

/// A pattern and a material a position must both fit (either may be
/// absent), taken in the given [`Colours`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Criteria {
    /// The pattern, if any.
    pub pattern: Option<Pattern>,
    /// The material, if any.
    pub material: Option<Material>,
    /// The colours.
    pub colours: Colours,
    /// Moves the game must play, in this order (see [`Manoeuvre`]); when
    /// there are some, a game fits at the first position, from the one
    /// after the move that plays the last of them on, that fits the
    /// pattern and material (taken in the same colours as the moves).
    pub manoeuvres: Vec<Manoeuvre>,
    /// The pattern and material with colours reversed.
    reversed: (Option<Pattern>, Option<Material>),
    /// The manoeuvres with colours reversed.
    reversed_manoeuvres: Vec<Manoeuvre>,
    /// As given and reversed, the least white men, black men, white
    /// pieces and black pieces a fitting position has (see
    /// [`Criteria::hopeless`]).
    needs: [[u32; 4]; 2],
    /// As given and reversed, the men the pattern needs (see
    /// [`Passed`]).
    passed: [Option<Passed>; 2],
}

impl Criteria {
    /// Criteria of a pattern and a material in `colours`.
    pub fn new(pattern: Option<Pattern>, material: Option<Material>, colours: Colours) -> Criteria {
        let reversed = (
            pattern.as_ref().map(Pattern::reversed),
            material.as_ref().map(Material::reversed),
        );
        let needs = [
            needs(pattern.as_ref(), material.as_ref()),
            needs(reversed.0.as_ref(), reversed.1.as_ref()),
        ];
        let passed = [
            pattern.as_ref().map(Passed::of),
            reversed.0.as_ref().map(Passed::of),
        ];
        Criteria {
            pattern,
            material,
            colours,
            reversed,
            manoeuvres: Vec::new(),
            reversed_manoeuvres: Vec::new(),
            needs,
            passed,
        }
    }

    /// Whether no position after `position` (included) in a game under
    /// `rules` can fit the pattern and material: a side has fewer men, or
    /// fewer pieces, than a fitting position has, and neither ever grows
    /// in a game (men only leave the board, captured or crowned; pieces
    /// only captured); or, under rules where men never go backwards, the
    /// men the pattern needs have gone past its squares (see [`Passed`]).
    #[inline]
    pub fn hopeless(&self, position: &Position, rules: &Rules) -> bool {
        let counts = Material::counts(position);
        let have = [counts[0], counts[2], counts[4], counts[5]];
        let out = |way: usize| {
            have.iter().zip(&self.needs[way]).any(|(h, n)| h < n)
                || self.passed[way]
                    .as_ref()
                    .is_some_and(|p| p.test(position, rules))
        };
        (!self.colours.as_given() || out(0)) && (!self.colours.reversed() || out(1))
    }

    /// These criteria with `manoeuvres` to play.
    pub fn with_manoeuvres(mut self, manoeuvres: Vec<Manoeuvre>) -> Criteria {
        self.reversed_manoeuvres = manoeuvres.iter().map(Manoeuvre::reversed).collect();
        self.manoeuvres = manoeuvres;
        self
    }

    /// The manoeuvres as given and with colours reversed, each when the
    /// colours take it.
    pub fn sequences(&self) -> [Option<&[Manoeuvre]>; 2] {
        [
            self.colours.as_given().then_some(&self.manoeuvres[..]),
            self.colours
                .reversed()
                .then_some(&self.reversed_manoeuvres[..]),
        ]
    }

    /// The pattern and material as given (`reversed` false) or with
    /// colours reversed (true).
    pub(super) fn way(&self, reversed: bool) -> (Option<&Pattern>, Option<&Material>) {
        if reversed {
            (self.reversed.0.as_ref(), self.reversed.1.as_ref())
        } else {
            (self.pattern.as_ref(), self.material.as_ref())
        }
    }

    /// Whether `position` fits the pattern and material as given
    /// (`reversed` false) or with colours reversed (true), whatever the
    /// criteria's colours; true when there are neither.
    #[inline]
    pub fn holds(&self, reversed: bool, position: &Position) -> bool {
        if reversed {
            fits(&self.reversed.0, &self.reversed.1, position)
        } else {
            fits(&self.pattern, &self.material, position)
        }
    }

    /// Whether `position` fits, and how: `Some(false)` as given,
    /// `Some(true)` only with colours reversed, `None` not at all.
    #[inline]
    pub fn test(&self, position: &Position) -> Option<bool> {
        if self.colours.as_given() && fits(&self.pattern, &self.material, position) {
            return Some(false);
        }
        if self.colours.reversed() && fits(&self.reversed.0, &self.reversed.1, position) {
            return Some(true);
        }
        None
    }
}

impl Criteria {
    /// Whether some position summed up by `summary` may fit, in the
    /// criteria's colours (false: none does; see [`Summary`]).
    pub fn may_fit(&self, summary: &Summary) -> bool {
        let may = |pattern: &Option<Pattern>, material: &Option<Material>| {
            pattern.as_ref().is_none_or(|p| p.may_fit(summary))
                && material.as_ref().is_none_or(|m| m.may_fit(summary))
        };
        if !self.manoeuvres.is_empty() {
            let ways = [
                (&self.pattern, &self.material),
                (&self.reversed.0, &self.reversed.1),
            ];
            return self.sequences().iter().zip(ways).any(|(seq, (p, m))| {
                let Some(seq) = seq else {
                    return false;
                };
                may(p, m)
                    && seq.iter().all(|m| {
                        m.before.as_ref().is_none_or(|p| p.may_fit(summary))
                            && m.after.as_ref().is_none_or(|p| p.may_fit(summary))
                            && summary.played.is_none_or(|played| played.may_play(m))
                    })
            });
        }
        (self.colours.as_given() && may(&self.pattern, &self.material))
            || (self.colours.reversed() && may(&self.reversed.0, &self.reversed.1))
    }
}

/// The least white men, black men, white pieces and black pieces of a
/// position that fits `pattern` and `material`.
fn needs(pattern: Option<&Pattern>, material: Option<&Material>) -> [u32; 4] {
    let mut need = [0u32; 4];
    if let Some(m) = material {
        need = [m.bounds[0].0, m.bounds[2].0, m.bounds[4].0, m.bounds[5].0];
    }
    if let Some(p) = pattern {
        let at = |class: PieceClass| p.must[class.slot()];
        let white = at(PieceClass::WhiteMan) | at(PieceClass::WhiteKing) | at(PieceClass::White);
        let black = at(PieceClass::BlackMan) | at(PieceClass::BlackKing) | at(PieceClass::Black);
        let found = [
            at(PieceClass::WhiteMan).count_ones(),
            at(PieceClass::BlackMan).count_ones(),
            white.count_ones(),
            black.count_ones(),
        ];
        for (n, f) in need.iter_mut().zip(found) {
            *n = (*n).max(f);
        }
    }
    need
}

#[inline]
fn fits(pattern: &Option<Pattern>, material: &Option<Material>, position: &Position) -> bool {
    pattern.as_ref().is_none_or(|p| p.matches(position))
        && material.as_ref().is_none_or(|m| m.matches(position))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::pattern::reversed_position;
    use crate::rules::Preset;

    #[test]
    fn a_position_fits_reversed_when_its_reversal_fits_as_given() {
        let rules = Preset::Italian.rules();
        let pattern = Pattern::parse("B:WK5:B!28", &rules).unwrap();
        let material = Material::parse("wk=1,b=1-2").unwrap();
        let position = Position::from_setup(
            &parse_fen_on("W:W27:BK28,3", rules.geometry).unwrap(),
            &rules,
        )
        .unwrap();
        let reversal = reversed_position(&position, &rules);
        let given = Criteria::new(Some(pattern.clone()), Some(material), Colours::AsGiven);
        assert_eq!(given.test(&position), None);
        assert_eq!(given.test(&reversal), Some(false));
        let reversed = Criteria::new(Some(pattern.clone()), Some(material), Colours::Reversed);
        assert_eq!(reversed.test(&position), Some(true));
        assert_eq!(reversed.test(&reversal), None);
        let both = Criteria::new(Some(pattern), Some(material), Colours::Both);
        assert_eq!(both.test(&position), Some(true));
        assert_eq!(both.test(&reversal), Some(false));
    }

    impl Criteria {
        fn hopeless_here(&self, position: &Position) -> bool {
            self.hopeless(position, &Preset::Filipino.rules())
        }
    }

    #[test]
    fn a_game_is_hopeless_once_a_side_is_short_of_men_or_pieces() {
        let rules = Preset::English.rules();
        let at = |fen: &str| {
            Position::from_setup(&parse_fen_on(fen, rules.geometry).unwrap(), &rules).unwrap()
        };
        let pattern = Pattern::parse("W27,28:B*5", &rules).unwrap();
        let given = Criteria::new(Some(pattern.clone()), None, Colours::AsGiven);
        assert!(given.hopeless_here(&at("W:W27,K28:B5,6")));
        assert!(!given.hopeless_here(&at("W:W30,31:BK9")));
        assert!(given.hopeless_here(&at("W:W30,31:B")));
        let both = Criteria::new(Some(pattern), None, Colours::Both);
        assert!(!both.hopeless_here(&at("W:W27,K28:B5,6")));
        assert!(both.hopeless_here(&at("W:W27,K28:B5")));
        let material = Material::parse("w=3+").unwrap();
        let counted = Criteria::new(None, Some(material), Colours::AsGiven);
        assert!(counted.hopeless_here(&at("W:W27,K28:B5")));
        assert!(!counted.hopeless_here(&at("W:W27,K28,K1:B5")));
    }

    #[test]
    fn colours_read_by_name() {
        for c in [Colours::AsGiven, Colours::Reversed, Colours::Both] {
            assert_eq!(c.name().parse::<Colours>(), Ok(c));
        }
        assert!("inverted".parse::<Colours>().is_err());
    }
}
