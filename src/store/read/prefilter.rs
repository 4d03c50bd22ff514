//! How far a search replays a game, from its stored summary and phases
//! (see [`Criteria::last_to_look_at`]), read in place: a summary of the
//! compact shape ([`Compact`]) has its phases tested as bit masks, never
//! expanded to squares, unless the criteria need squares
//! ([`PhaseTest::Squares`]); one of an older shape is decoded.

use crate::pattern::{Criteria, PHASE_POSITIONS, PhaseTest};
use crate::rules::Bitboard;
use crate::store::codec::compact::Compact;
use crate::store::codec::summary;

/// The last position of a game that may fit `criteria`, from its stored
/// `summary` and phases (read into `phases` when they are to be decoded;
/// see [`Criteria::last_to_look_at`]): `None` when none does,
/// `usize::MAX` when the game has no summary that reads.
pub(in crate::store) fn last_to_look_at(
    summary: Option<&[u8]>,
    criteria: &Criteria,
    phases: &mut Vec<[Bitboard; 2]>,
) -> Option<usize> {
    let Some(bytes) = summary else {
        return Some(usize::MAX);
    };
    // What the moves did is read only when a manoeuvre may rule it out.
    let moves = !criteria.manoeuvres.is_empty();
    let Some(compact) = Compact::read(bytes) else {
        let decoded = if moves {
            summary::decode(bytes)
        } else {
            summary::decode_positions(bytes)
        };
        let Some(decoded) = decoded else {
            return Some(usize::MAX);
        };
        summary::decode_phases(bytes, phases);
        return criteria.last_to_look_at(&decoded, phases);
    };
    let decoded = compact.summary(moves);
    if moves {
        return criteria.may_fit(&decoded).then_some(usize::MAX);
    }
    // The ways the whole game may fit, each with what its phases need
    // (none: no position fits; see `Criteria::may_fit`).
    let last = match criteria.phase_test(&decoded) {
        PhaseTest::Men([None, None]) => return None,
        _ if compact.phases() == 0 => return Some(usize::MAX),
        PhaseTest::Men(ways) => {
            let mut masks = ways
                .into_iter()
                .flatten()
                .filter_map(|need| compact.mask(need));
            match (masks.next(), masks.next()) {
                (Some(a), Some(b)) => compact.last_with(&[a, b]),
                (Some(a), None) => compact.last_with(&[a]),
                _ => None,
            }
        }
        PhaseTest::Squares => {
            compact.phase_men(phases);
            return criteria.last_to_look_at(&decoded, phases);
        }
    }?;
    Some(last * PHASE_POSITIONS + PHASE_POSITIONS - 1)
}
