//! Replay over every interpretation at once.
//!
//! Each ply's written move may fit several legal moves (a Dama number names
//! two squares; a short capture may fit several routes). Replay keeps, ply by
//! ply, every distinct position some reading reaches (equal positions merge),
//! with the edges that lead there, so that afterwards it can tell how many
//! readings cover the record, where they part, and which positions every
//! reading passes through (the *certain* positions).

use std::collections::HashMap;

use crate::rules::{Bitboard, Move, Position, Rules, fitting_moves};

/// Most distinct positions kept at one ply.
pub const MAX_POSITIONS_PER_PLY: usize = 4096;

/// Most positions and edges kept over a whole game, so that memory stays
/// bounded however long an ambiguous stretch lasts.
pub const MAX_TRACKED: usize = 2_000_000;

/// Interpretation counts saturate here.
pub const MAX_INTERPRETATIONS: u64 = 1_000_000_000;

/// Why replay stopped before the end of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// More than [`MAX_POSITIONS_PER_PLY`] distinct positions at the next ply.
    PositionsPerPly,
    /// More than [`MAX_TRACKED`] positions and edges in all.
    Tracked,
}

/// A position every reading passes through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertainPosition {
    /// Position number: plies played before it (0 = the start).
    pub ply: usize,
    /// The position.
    pub position: Position,
    /// The move played from it, when every reading plays the same one.
    pub next: Option<Move>,
}

/// A ply whose written move fitted several moves of which one survived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The ply (1-based).
    pub ply: usize,
    /// Every move the written move fitted there, sorted by canonical path.
    pub candidates: Vec<Move>,
}

/// One ply of the first reading, with the other moves readings take there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadingPly {
    /// The move of the first reading.
    pub chosen: Move,
    /// Other moves that complete readings from the same position.
    pub alternatives: Vec<Move>,
}

/// What replaying a record found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Written moves in the record.
    pub plies: usize,
    /// The longest prefix of written moves some reading covers (L).
    pub reached: usize,
    /// Readings covering `reached` moves; `None` when a limit stopped replay.
    pub interpretations: Option<u64>,
    /// The limit that stopped replay, if any.
    pub limit: Option<Limit>,
    /// Every certain position, by ply.
    pub certain: Vec<CertainPosition>,
    /// The first ply where readings take different moves, with those moves.
    pub divergence: Option<(usize, Vec<Move>)>,
    /// Plies where several moves fitted but only one survived.
    pub resolved: Vec<Resolved>,
    /// The first reading: at each ply the move whose canonical numeric path
    /// sorts first among those that complete a reading.
    pub reading: Vec<ReadingPly>,
}

impl Replay {
    /// The certain position after `ply` plies, if it is certain.
    pub fn certain_at(&self, ply: usize) -> Option<&CertainPosition> {
        self.certain
            .binary_search_by_key(&ply, |c| c.ply)
            .ok()
            .map(|i| &self.certain[i])
    }
}

struct Edge {
    parent: u32,
    child: u32,
    mv: Move,
}

/// Replays `written` from `start`: one entry per ply, each the sets of
/// squares its written squares may name, or `None` for a move that fits
/// nothing (an unknown move, or squares the notation cannot name).
pub fn replay(rules: &Rules, start: Position, written: &[Option<Vec<Bitboard>>]) -> Replay {
    let mut layers: Vec<Vec<Position>> = vec![vec![start]];
    let mut paths: Vec<Vec<u64>> = vec![vec![1]];
    let mut edges: Vec<Vec<Edge>> = vec![Vec::new()];
    let mut tracked = 1usize;
    let mut limit = None;
    for squares in written {
        let Some(squares) = squares else { break };
        let parents = layers.last().expect("the start layer");
        let parent_paths = paths.last().expect("the start layer");
        let mut index: HashMap<Position, u32> = HashMap::new();
        let mut children = Vec::new();
        let mut child_paths: Vec<u64> = Vec::new();
        let mut layer_edges = Vec::new();
        let mut fast = false;
        if let [parent] = parents[..] {
            // The common case, one position and one fitting move: no merging needed.
            let fits = fitting_moves(rules, &parent, squares);
            if let [mv] = fits[..] {
                children.push(parent.play(&mv));
                child_paths.push(parent_paths[0]);
                layer_edges.push(Edge {
                    parent: 0,
                    child: 0,
                    mv,
                });
                fast = true;
            }
        }
        let slow = if fast { &parents[..0] } else { &parents[..] };
        for (p, parent) in slow.iter().enumerate() {
            for mv in fitting_moves(rules, parent, squares) {
                let child = parent.play(&mv);
                let c = *index.entry(child).or_insert_with(|| {
                    children.push(child);
                    child_paths.push(0);
                    (children.len() - 1) as u32
                });
                let sum = child_paths[c as usize] + parent_paths[p];
                child_paths[c as usize] = sum.min(MAX_INTERPRETATIONS);
                layer_edges.push(Edge {
                    parent: p as u32,
                    child: c,
                    mv,
                });
            }
        }
        if children.is_empty() {
            break;
        }
        if children.len() > MAX_POSITIONS_PER_PLY {
            limit = Some(Limit::PositionsPerPly);
            break;
        }
        tracked += children.len() + layer_edges.len();
        if tracked > MAX_TRACKED {
            limit = Some(Limit::Tracked);
            break;
        }
        layers.push(children);
        paths.push(child_paths);
        edges.push(layer_edges);
    }
    let reached = layers.len() - 1;
    let alive = alive_nodes(&layers, &edges);
    let interpretations = match limit {
        Some(_) => None,
        None => Some(
            paths[reached]
                .iter()
                .fold(0u64, |acc, &n| (acc + n).min(MAX_INTERPRETATIONS)),
        ),
    };
    let mut certain = Vec::new();
    let mut divergence = None;
    let mut resolved = Vec::new();
    for ply in 0..=reached {
        let live: Vec<usize> = (0..layers[ply].len()).filter(|&i| alive[ply][i]).collect();
        if ply > 0 {
            let live_moves = distinct(
                edges[ply]
                    .iter()
                    .filter(|e| alive[ply][e.child as usize] && alive[ply - 1][e.parent as usize]),
            );
            let fitted = distinct(
                edges[ply]
                    .iter()
                    .filter(|e| alive[ply - 1][e.parent as usize]),
            );
            if live_moves.len() > 1 && divergence.is_none() {
                divergence = Some((ply, live_moves));
            } else if live_moves.len() == 1 && fitted.len() > 1 {
                resolved.push(Resolved {
                    ply,
                    candidates: fitted,
                });
            }
        }
        if let [only] = live[..] {
            let next = (ply < reached)
                .then(|| {
                    let moves =
                        distinct(edges[ply + 1].iter().filter(|e| {
                            e.parent as usize == only && alive[ply + 1][e.child as usize]
                        }));
                    (moves.len() == 1).then(|| moves[0])
                })
                .flatten();
            certain.push(CertainPosition {
                ply,
                position: layers[ply][only],
                next,
            });
        }
    }
    let reading = first_reading(&edges, &alive, reached);
    Replay {
        plies: written.len(),
        reached,
        interpretations,
        limit,
        certain,
        divergence,
        resolved,
        reading,
    }
}

/// Marks the nodes from which the last layer can be reached.
fn alive_nodes(layers: &[Vec<Position>], edges: &[Vec<Edge>]) -> Vec<Vec<bool>> {
    let mut alive: Vec<Vec<bool>> = layers.iter().map(|l| vec![false; l.len()]).collect();
    let last = layers.len() - 1;
    alive[last].iter_mut().for_each(|a| *a = true);
    for ply in (1..=last).rev() {
        for e in &edges[ply] {
            if alive[ply][e.child as usize] {
                alive[ply - 1][e.parent as usize] = true;
            }
        }
    }
    alive
}

/// The distinct moves of some edges, sorted by canonical numeric path as a
/// string.
fn distinct<'a>(edges: impl Iterator<Item = &'a Edge>) -> Vec<Move> {
    let mut moves: Vec<Move> = Vec::new();
    for e in edges {
        if !moves.contains(&e.mv) {
            moves.push(e.mv);
        }
    }
    if moves.len() > 1 {
        moves.sort_by_cached_key(Move::full_numeric);
    }
    moves
}

/// Follows, from the start, the live move whose canonical path sorts first.
fn first_reading(edges: &[Vec<Edge>], alive: &[Vec<bool>], reached: usize) -> Vec<ReadingPly> {
    let mut node = 0u32;
    let mut reading = Vec::with_capacity(reached);
    for ply in 1..=reached {
        let out: Vec<&Edge> = edges[ply]
            .iter()
            .filter(|e| e.parent == node && alive[ply][e.child as usize])
            .collect();
        let moves = distinct(out.iter().copied());
        let Some(&chosen) = moves.first() else { break };
        node = out.iter().find(|e| e.mv == chosen).map_or(0, |e| e.child);
        reading.push(ReadingPly {
            chosen,
            alternatives: moves[1..].to_vec(),
        });
    }
    reading
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{MoveToken, Notation, parse_fen};

    fn sets(tokens: &str, notation: Notation) -> Vec<Option<Vec<Bitboard>>> {
        let g = crate::rules::Geometry::standard();
        tokens
            .split_whitespace()
            .map(|t| {
                t.parse::<MoveToken>()
                    .ok()
                    .and_then(|m| m.square_sets(notation, g).ok())
            })
            .collect()
    }

    #[test]
    fn a_plain_record_has_one_reading_and_every_position_certain() {
        let rules = Rules::default();
        let start = Position::initial(&rules);
        let r = replay(
            &rules,
            start,
            &sets(
                "23-18 10-15 21-17 6-10 25-21 9-14 18x9 5x14",
                Notation::Numeric,
            ),
        );
        assert_eq!((r.plies, r.reached, r.interpretations), (8, 8, Some(1)));
        assert_eq!(r.certain.len(), 9);
        assert!(r.certain[..8].iter().all(|c| c.next.is_some()));
        assert_eq!(r.certain[8].next, None);
        assert_eq!(r.divergence, None);
        assert_eq!(r.resolved, vec![]);
        assert_eq!(r.reading.len(), 8);
    }

    #[test]
    fn an_illegal_move_stops_the_readings() {
        let rules = Rules::default();
        let start = Position::initial(&rules);
        let r = replay(
            &rules,
            start,
            &sets("23-18 10-15 18-13 7-10", Notation::Numeric),
        );
        assert_eq!((r.plies, r.reached, r.interpretations), (4, 2, Some(1)));
        assert_eq!(r.certain.len(), 3);
        // An unknown move fits nothing.
        let mut written = sets("23-18", Notation::Numeric);
        written.push(None);
        let r = replay(&rules, start, &written);
        assert_eq!(r.reached, 1);
    }

    fn position(fen: &str) -> Position {
        Position::from_setup(&parse_fen(fen).unwrap(), &Rules::default()).unwrap()
    }

    #[test]
    fn a_dama_number_can_leave_two_readings() {
        // Dama 9-15 names 4 or 29, then 15 or 18: the king on 29 can go to either.
        let rules = Rules::default();
        let r = replay(
            &rules,
            position("W:WK29:B1"),
            &sets("9-15 12-7", Notation::Dama),
        );
        assert_eq!((r.reached, r.interpretations), (2, Some(2)));
        let (ply, candidates) = r.divergence.clone().unwrap();
        assert_eq!(ply, 1);
        let names: Vec<String> = candidates.iter().map(|m| m.full_numeric()).collect();
        assert_eq!(names, ["29-15", "29-18"]);
        // Only the start is certain; the first reading takes 29-15.
        assert_eq!(r.certain.len(), 1);
        assert_eq!(r.certain[0].next, None);
        assert_eq!(r.reading[0].chosen.full_numeric(), "29-15");
        assert_eq!(r.reading[0].alternatives.len(), 1);
    }

    #[test]
    fn a_later_move_can_settle_an_earlier_doubt() {
        // 29-15 would force Black to take 10x19; the record goes on 10-14,
        // so only 29-18 survives: a resolved ambiguity, one reading.
        let rules = Rules::default();
        let mut written = sets("9-15", Notation::Dama);
        written.extend(sets("10-14", Notation::Numeric));
        let r = replay(&rules, position("W:WK29:B10"), &written);
        assert_eq!((r.reached, r.interpretations), (2, Some(1)));
        assert_eq!(r.divergence, None);
        assert_eq!(r.resolved.len(), 1);
        assert_eq!(r.resolved[0].ply, 1);
        assert_eq!(r.resolved[0].candidates.len(), 2);
        assert_eq!(r.certain.len(), 3);
        assert_eq!(r.certain[0].next.unwrap().full_numeric(), "29-18");
    }
}
