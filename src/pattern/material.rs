//! Material: how many men and kings each side has, as counts or ranges,
//! written `wk=1,bm=2-3` (keys `wm`, `wk`, `bm`, `bk`, `w` for all white
//! pieces, `b` for all black ones; values `N`, `N-M` or `N+`).

use crate::rules::{Color, Position};

use super::error::PatternError;

/// The keys of a material, in the order of [`Material::bounds`].
const KEYS: [&str; 6] = ["wm", "wk", "bm", "bk", "w", "b"];

/// Counts of pieces a position must have: per key of `wm, wk, bm, bk, w,
/// b`, the least and the most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Material {
    /// `(least, most)` per key, in the order `wm, wk, bm, bk, w, b`.
    pub bounds: [(u32, u32); 6],
}

impl Material {
    /// Reads a material such as `wk=1,bm=2-3` or `w=3+`.
    ///
    /// # Errors
    /// An unknown key, a count that is not a number, a range upside down,
    /// or nothing given, naming the part.
    pub fn parse(text: &str) -> Result<Material, PatternError> {
        let mut bounds = [(0, u32::MAX); 6];
        if text.trim().is_empty() {
            return Err(PatternError::whole("the material has no count"));
        }
        for part in text.split(',').map(str::trim) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(PatternError::at("expected KEY=COUNT, e.g. wk=1", part));
            };
            let key = key.trim().to_ascii_lowercase();
            let Some(slot) = KEYS.iter().position(|k| *k == key) else {
                return Err(PatternError::at(
                    format!("unknown key {key} (wm, wk, bm, bk, w or b)"),
                    part,
                ));
            };
            bounds[slot] = range(value.trim(), part)?;
        }
        Ok(Material { bounds })
    }

    /// The counts of `position`, in the order of [`Material::bounds`].
    #[inline]
    pub fn counts(position: &Position) -> [u32; 6] {
        let kings = position.kings();
        let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
        [
            (white & !kings).count_ones(),
            (white & kings).count_ones(),
            (black & !kings).count_ones(),
            (black & kings).count_ones(),
            white.count_ones(),
            black.count_ones(),
        ]
    }

    /// Whether `position` has this material.
    #[inline]
    pub fn matches(&self, position: &Position) -> bool {
        Material::counts(position)
            .iter()
            .zip(&self.bounds)
            .all(|(n, (least, most))| least <= n && n <= most)
    }

    /// The material with colours swapped.
    pub fn reversed(&self) -> Material {
        let b = self.bounds;
        Material {
            bounds: [b[2], b[3], b[0], b[1], b[5], b[4]],
        }
    }
}

/// `N`, `N-M` or `N+`.
fn range(value: &str, part: &str) -> Result<(u32, u32), PatternError> {
    let number = |n: &str| {
        n.trim()
            .parse::<u32>()
            .map_err(|_| PatternError::at(format!("\"{}\" is not a count", n.trim()), part))
    };
    if let Some(least) = value.strip_suffix('+') {
        return Ok((number(least)?, u32::MAX));
    }
    if let Some((low, high)) = value.split_once('-') {
        let (low, high) = (number(low)?, number(high)?);
        if low > high {
            return Err(PatternError::at(
                format!("the range {low}-{high} is upside down"),
                part,
            ));
        }
        return Ok((low, high));
    }
    let n = number(value)?;
    Ok((n, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::rules::Preset;

    fn fits(material: &str, fen: &str) -> bool {
        let rules = Preset::English.rules();
        let position =
            Position::from_setup(&parse_fen_on(fen, rules.geometry).unwrap(), &rules).unwrap();
        Material::parse(material).unwrap().matches(&position)
    }

    #[test]
    fn counts_and_ranges_are_read_and_tested() {
        assert!(fits("wk=1,bm=2-3", "W:WK5:B1,2"));
        assert!(fits("wk=1,bm=2-3", "W:WK5:B1,2,3,K4"));
        assert!(!fits("wk=1,bm=2-3", "W:WK5,K6:B1,2"));
        assert!(fits("w=1,b=3", "W:WK5:B1,2,K3"));
        assert!(fits("B=2+", "W:WK5:B1,2,K3"));
        assert!(!fits("bk=1+", "W:WK5:B1,2"));
        let m = Material::parse("wk=1,bm=2-3").unwrap();
        assert!(m.reversed().matches(&{
            let rules = Preset::English.rules();
            Position::from_setup(
                &parse_fen_on("W:W30,31:BK5", rules.geometry).unwrap(),
                &rules,
            )
            .unwrap()
        }));
        assert_eq!(m.reversed().reversed(), m);
    }

    #[test]
    fn bad_materials_are_named() {
        for (text, message) in [
            ("", "the material has no count"),
            (
                "wq=1",
                "unknown key wq (wm, wk, bm, bk, w or b), in \"wq=1\"",
            ),
            ("wk=3-1", "the range 3-1 is upside down, in \"wk=3-1\""),
            ("wk=x", "\"x\" is not a count, in \"wk=x\""),
            ("wk", "expected KEY=COUNT, e.g. wk=1, in \"wk\""),
        ] {
            assert_eq!(Material::parse(text).unwrap_err().to_string(), message);
        }
    }
}
