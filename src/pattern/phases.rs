//! Where in a game its men stood, phase by phase: kept beside a game's
//! [`Summary`] so that a search replays a game only as far as its last
//! phase that may fit, and passes over games where the squares a pattern
//! needs were each held at some time but never within one phase.
//!
//! # Never a match dropped
//!
//! Phase `k` of a game is positions `k·PHASE_POSITIONS` to
//! `k·PHASE_POSITIONS + PHASE_POSITIONS − 1` of the positions its
//! [`Summary`] was built from (position 0 is the start), and [`Phases`]
//! keeps, per phase, the squares where each side's men stood in them. If
//! position `P` (number `p`) fits a pattern, its men are among the men of
//! phase `p / PHASE_POSITIONS`, and its kings and counts are among the
//! whole game's; so the summary whose men are that phase's and whose
//! kings and counts are the whole game's is a summary of `P`, and
//! [`Criteria::may_fit`] is true of it (see [`Summary`]). So
//! [`Criteria::last_to_look_at`], the last position of the last phase of
//! which `may_fit` is true, is at or after `p`, and it is `None` only
//! when no position fits. The scan replays a game up to that position;
//! its brute-force tests compare its answers with every game replayed to
//! the end, under every variant.

use crate::rules::{Bitboard, Color, Position};

use super::class::PieceClass;
use super::criteria::Criteria;
use super::summary::Summary;

/// The positions one phase of a game sums up: position `k` is in phase
/// `k / PHASE_POSITIONS`.
pub const PHASE_POSITIONS: usize = 8;

/// The squares each side's men stood on, phase by phase (see the
/// [module](self)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Phases {
    /// Per phase, in order: the squares White's men stood on, then
    /// Black's.
    pub men: Vec<[Bitboard; 2]>,
    /// The positions added.
    positions: usize,
}

impl Phases {
    /// Adds the game's next position (the first added is position 0).
    pub fn add(&mut self, position: &Position) {
        if self.positions.is_multiple_of(PHASE_POSITIONS) {
            self.men.push([0; 2]);
        }
        let men = !position.kings();
        if let Some(phase) = self.men.last_mut() {
            phase[0] |= position.pieces(Color::White) & men;
            phase[1] |= position.pieces(Color::Black) & men;
        }
        self.positions += 1;
    }
}

impl Criteria {
    /// The number of the last position of a game that may fit, from the
    /// game's `summary` and the men of each of its `phases` (see
    /// [`Phases`]); `usize::MAX` when there are no phases (a summary
    /// stored by an older pdndb) or the criteria have manoeuvres, and
    /// `None` when no position fits (see the [module](self)).
    pub fn last_to_look_at(&self, summary: &Summary, phases: &[[Bitboard; 2]]) -> Option<usize> {
        if !self.may_fit(summary) {
            return None;
        }
        if phases.is_empty() || !self.manoeuvres.is_empty() {
            return Some(usize::MAX);
        }
        let last = phases.iter().rposition(|&men| {
            let phase = Summary { men, ..*summary };
            self.may_fit(&phase)
        })?;
        Some(last * PHASE_POSITIONS + PHASE_POSITIONS - 1)
    }
}

/// What the men of a phase must include for a position of it to fit, in
/// one of the ways the criteria take positions: the squares White's men
/// must have stood on, then Black's.
pub type MenNeeded = [Bitboard; 2];

/// How the phases of a game that may fit are tested (see
/// [`Criteria::phase_test`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseTest {
    /// A phase may fit when its men include those needed as given or
    /// those needed with colours reversed (`None`: no position fits that
    /// way).
    Men([Option<MenNeeded>; 2]),
    /// The phase's men are to be tested as squares, each phase's summary
    /// with [`Criteria::may_fit`] (groups of which one condition must
    /// hold, squares a piece of either side's men may fill).
    Squares,
}

impl PhaseTest {
    /// Whether a phase whose men are `men` may fit (`None`: to be tested
    /// as squares).
    pub fn passes(&self, men: [Bitboard; 2]) -> Option<bool> {
        match self {
            PhaseTest::Men(ways) => Some(
                ways.iter()
                    .flatten()
                    .any(|need| need[0] & !men[0] == 0 && need[1] & !men[1] == 0),
            ),
            PhaseTest::Squares => None,
        }
    }
}

impl Criteria {
    /// How to test the phases of a game whose `summary` may fit: a phase
    /// whose summary (see [`Criteria::last_to_look_at`]) may fit is one
    /// whose men include what one way that may fit the whole game needs.
    /// Of such a way, kings, counts and the squares of kings need no phase
    /// (they are the whole game's); its squares of white men are needed
    /// of White's men, those of white pieces where White's kings never
    /// stood too, and those of any piece where no king stood and only one
    /// side's men stood are needed of that side's men. A pattern with
    /// groups, or with a square of any piece where both sides' men stood
    /// and no king did, is tested as squares. Not for criteria with
    /// manoeuvres (their games are looked at to the end). No way at all
    /// (`Men([None, None])`) when no position of the game fits (see
    /// [`Criteria::may_fit`]).
    pub fn phase_test(&self, summary: &Summary) -> PhaseTest {
        let mut ways = [None; 2];
        let given = [self.colours.as_given(), self.colours.reversed()];
        for (way, slot) in ways.iter_mut().enumerate() {
            let (pattern, material) = self.way(way == 1);
            let fits = pattern.is_none_or(|p| p.may_fit(summary))
                && material.is_none_or(|m| m.may_fit(summary));
            if !given[way] || !fits {
                continue;
            }
            let Some(pattern) = pattern else {
                *slot = Some([0; 2]);
                continue;
            };
            if !pattern.any_of.is_empty() {
                return PhaseTest::Squares;
            }
            let at = |class: PieceClass| pattern.must[class.slot()];
            let [wk, bk] = summary.kings;
            let [wm, bm] = summary.men;
            let piece = at(PieceClass::Piece) & !(wk | bk);
            if piece & wm & bm != 0 {
                return PhaseTest::Squares;
            }
            *slot = Some([
                at(PieceClass::WhiteMan) | (at(PieceClass::White) & !wk) | (piece & !bm),
                at(PieceClass::BlackMan) | (at(PieceClass::Black) & !bk) | (piece & !wm),
            ]);
        }
        PhaseTest::Men(ways)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::pattern::{Colours, Cond, Material, Pattern, PieceClass};
    use crate::rules::{Preset, Rules, Square, squares};

    fn at(fen: &str, rules: &Rules) -> Position {
        Position::from_setup(&parse_fen_on(fen, rules.geometry).unwrap(), rules).unwrap()
    }

    #[test]
    fn a_game_is_looked_at_up_to_its_last_phase_that_may_fit() {
        let rules = Preset::Filipino.rules();
        // Eight positions with white men on 27 and 28, eight with a black
        // man on 19 and a white king, then one with all three.
        let mut positions = vec![at("W:W27,28:B3", &rules); PHASE_POSITIONS];
        positions.extend(vec![at("W:WK1:B19", &rules); PHASE_POSITIONS]);
        let mut summary = Summary::new();
        let mut phases = Phases::default();
        let mut look = |positions: &[Position], pattern: &str, colours| {
            for p in positions {
                summary.add(p);
                phases.add(p);
            }
            let pattern = Pattern::parse(pattern, &rules).unwrap();
            Criteria::new(Some(pattern), None, colours).last_to_look_at(&summary, &phases.men)
        };
        assert_eq!(look(&positions, "W27,28:B19", Colours::AsGiven), None);
        assert_eq!(look(&[], "W27", Colours::AsGiven), Some(7));
        assert_eq!(look(&[], "B19", Colours::AsGiven), Some(15));
        // Kings are the whole game's.
        assert_eq!(look(&[], "W*1,27", Colours::AsGiven), Some(7));
        // With colours reversed: a white man on 14 as black's on 19.
        assert_eq!(look(&[], "W14", Colours::Reversed), Some(15));
        assert_eq!(look(&[], "W14", Colours::AsGiven), None);
        let all = at("W:W27,28:B19", &rules);
        assert_eq!(look(&[all], "W27,28:B19", Colours::AsGiven), Some(23));
        assert_eq!(phases.men.len(), 3);
        // A material alone is not told apart by phases.
        let material = Criteria::new(None, Some(Material::parse("bm=1").unwrap()), Colours::Both);
        assert_eq!(material.last_to_look_at(&summary, &phases.men), Some(23));
        assert_eq!(material.last_to_look_at(&summary, &[]), Some(usize::MAX));
    }

    /// A condition that the piece on `s` of `seen` stands there, as its
    /// kind, its colour or any piece (`pick` chooses).
    fn piece_there(seen: &Position, s: Square, pick: usize) -> Cond {
        let piece = seen.piece_at(s).expect("an occupied square");
        let class = match (piece.color, piece.king, pick % 3) {
            (_, _, 0) => PieceClass::Piece,
            (Color::White, _, 1) => PieceClass::White,
            (Color::Black, _, 1) => PieceClass::Black,
            (Color::White, false, _) => PieceClass::WhiteMan,
            (Color::White, true, _) => PieceClass::WhiteKing,
            (Color::Black, false, _) => PieceClass::BlackMan,
            (Color::Black, true, _) => PieceClass::BlackKing,
        };
        Cond {
            class,
            squares: s.bit(),
            negated: false,
        }
    }

    #[test]
    fn no_fitting_position_lies_past_the_last_looked_at_on_any_board() {
        let mut seed = 2026u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n.max(1)
        };
        let (mut fitting_seen, mut cut, mut out) = (0, 0, 0);
        let (mut by_men_alone, mut by_squares) = (0, 0);
        for preset in Preset::ALL {
            let rules = preset.rules();
            for _ in 0..8 {
                let mut positions = vec![Position::initial(&rules)];
                for _ in 0..10 + next(150) {
                    let moves = positions[positions.len() - 1].legal_moves(&rules);
                    if moves.is_empty() {
                        break;
                    }
                    let after = positions[positions.len() - 1].play(&moves[next(moves.len())]);
                    positions.push(after);
                }
                let mut summary = Summary::new();
                let mut phases = Phases::default();
                for p in &positions {
                    summary.add(p);
                    phases.add(p);
                }
                for round in 0..24 {
                    // Pieces of two positions of the game, perhaps far
                    // apart, and perhaps a group of which one must hold.
                    let mut pattern = Pattern::empty(rules.geometry);
                    for _ in 0..2 {
                        let seen = positions[next(positions.len())];
                        let occupied: Vec<Square> = squares(seen.occupied()).collect();
                        let s = occupied[next(occupied.len())];
                        pattern.require(piece_there(&seen, s, next(6)));
                        if round % 4 == 0 {
                            let t = occupied[next(occupied.len())];
                            let u = occupied[next(occupied.len())];
                            let other = positions[next(positions.len())];
                            let group = [piece_there(&seen, t, next(6))]
                                .into_iter()
                                .chain(other.piece_at(u).map(|_| piece_there(&other, u, 5)));
                            pattern.any_of = vec![group.collect()];
                        }
                    }
                    let material = (round % 5 == 0).then(|| {
                        let counts = Material::counts(&positions[next(positions.len())]);
                        let mut m = Material::parse("w=0+").unwrap();
                        let k = next(6);
                        m.bounds[k] = (counts[k], counts[k]);
                        m
                    });
                    let colours = [Colours::AsGiven, Colours::Reversed, Colours::Both][round % 3];
                    let criteria = Criteria::new(Some(pattern), material, colours);
                    let fitting = positions.iter().rposition(|p| criteria.test(p).is_some());
                    let last = criteria.last_to_look_at(&summary, &phases.men);
                    match (fitting, last) {
                        (Some(f), Some(l)) => assert!(f <= l, "{preset:?} {criteria:?}"),
                        (Some(_), None) => panic!("{preset:?} {criteria:?} ruled out"),
                        _ => {}
                    }
                    // The phases tested by their men alone stop where
                    // their summaries do.
                    let test = criteria.phase_test(&summary);
                    let none = test == PhaseTest::Men([None, None]);
                    assert_eq!(none, !criteria.may_fit(&summary), "{criteria:?}");
                    if !none {
                        let by_men = phases
                            .men
                            .iter()
                            .rposition(|&men| test.passes(men) == Some(true));
                        match test {
                            PhaseTest::Squares => by_squares += 1,
                            PhaseTest::Men(_) => {
                                by_men_alone += 1;
                                let by_men =
                                    by_men.map(|k| k * PHASE_POSITIONS + PHASE_POSITIONS - 1);
                                assert_eq!(by_men, last, "{preset:?} {criteria:?}");
                            }
                        }
                    }
                    fitting_seen += usize::from(fitting.is_some());
                    cut += usize::from(last.is_some_and(|l| l + 1 < positions.len()));
                    out += usize::from(last.is_none() && criteria.may_fit(&summary));
                }
            }
        }
        // Fitting positions were met, and games stopped early or left
        // out by their phases alone.
        assert!(fitting_seen > 500, "{fitting_seen}");
        assert!(cut > 300 && out > 40, "{cut} {out}");
        assert!(
            by_men_alone > 500 && by_squares > 100,
            "{by_men_alone} {by_squares}"
        );
    }
}
