//! Replay over every interpretation at once.
//!
//! Each ply's written move may fit several legal moves (a Dama number names
//! two squares; a short capture may fit several routes). Replay keeps, ply by
//! ply, every distinct position some reading reaches (equal positions merge),
//! with the edges that lead there, so that afterwards it can tell how many
//! readings cover the record, where they part, and which positions every
//! reading passes through (the *certain* positions). A record every move of
//! which fits one legal move, the commonest, is read without the graph.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::rules::{Bitboard, Move, Position, Rules, fitting_moves_into};

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
    /// Every certain position, by ply; of a record read one way only, the
    /// last one alone when the replay was asked to keep no other
    /// ([`KeptPositions::Last`]).
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

/// The written moves of a line, as sets of squares: per ply, one set per
/// written square (one square in most notations, two for a Dama number), or
/// nothing for a move that can fit no legal move. Stored flat, so that
/// building it costs two allocations whatever the length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    squares: Vec<Bitboard>,
    plies: Vec<Option<(u32, u32)>>,
}

impl Written {
    /// An empty list.
    pub fn new() -> Written {
        Written::default()
    }

    /// An empty list with room for `plies` plies of `squares` square sets
    /// in all.
    pub fn with_capacity(plies: usize, squares: usize) -> Written {
        Written {
            squares: Vec::with_capacity(squares),
            plies: Vec::with_capacity(plies),
        }
    }

    /// Adds a ply: its square sets, or `None` for a move that fits nothing.
    pub fn push(&mut self, squares: Option<&[Bitboard]>) {
        self.plies.push(squares.map(|s| {
            let from = self.squares.len() as u32;
            self.squares.extend_from_slice(s);
            (from, self.squares.len() as u32)
        }));
    }

    /// Adds a ply whose square sets are being built: `build` appends them to
    /// the vector it is given and says whether they are usable.
    #[inline]
    pub fn push_with(&mut self, build: impl FnOnce(&mut Vec<Bitboard>) -> bool) {
        let from = self.squares.len();
        let ok = build(&mut self.squares);
        if ok {
            self.plies
                .push(Some((from as u32, self.squares.len() as u32)));
        } else {
            self.squares.truncate(from);
            self.plies.push(None);
        }
    }

    /// Number of plies.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// Whether there is no ply.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// The square sets of ply `i` (0-based).
    pub fn get(&self, i: usize) -> Option<&[Bitboard]> {
        self.plies
            .get(i)
            .copied()
            .flatten()
            .map(|(a, b)| &self.squares[a as usize..b as usize])
    }
}

impl<'a> FromIterator<Option<&'a [Bitboard]>> for Written {
    fn from_iter<I: IntoIterator<Item = Option<&'a [Bitboard]>>>(iter: I) -> Written {
        let mut written = Written::new();
        for ply in iter {
            written.push(ply);
        }
        written
    }
}

#[derive(Clone, Copy)]
struct Edge {
    parent: u32,
    child: u32,
    mv: Move,
}

/// The graph of readings: every node is a distinct position at one ply.
/// Nodes and edges are stored flat, layer after layer.
#[derive(Default)]
struct Graph {
    positions: Vec<Position>,
    paths: Vec<u64>,
    /// `layers[k]..layers[k + 1]` are the nodes of ply `k`.
    layers: Vec<u32>,
    edges: Vec<Edge>,
    /// `edge_layers[k]..edge_layers[k + 1]` are the edges into ply `k`
    /// (empty for ply 0).
    edge_layers: Vec<u32>,
}

impl Graph {
    fn nodes(&self, ply: usize) -> std::ops::Range<usize> {
        self.layers[ply] as usize..self.layers[ply + 1] as usize
    }

    fn edges_into(&self, ply: usize) -> &[Edge] {
        &self.edges[self.edge_layers[ply] as usize..self.edge_layers[ply + 1] as usize]
    }

    /// Empties the graph (keeping its memory, with room for `n` plies) and
    /// starts it at `start`, then one node per move of `line`.
    fn start_with_line(&mut self, start: Position, line: &[Move], n: usize) {
        self.positions.clear();
        self.paths.clear();
        self.layers.clear();
        self.edges.clear();
        self.edge_layers.clear();
        self.positions.reserve(n + 1);
        self.paths.reserve(n + 1);
        self.layers.reserve(n + 2);
        self.edges.reserve(n);
        self.edge_layers.reserve(n + 2);
        self.positions.push(start);
        self.paths.push(1);
        self.layers.extend([0, 1]);
        self.edge_layers.extend([0, 0]);
        for (ply, mv) in line.iter().enumerate() {
            let child = self.positions[ply].play(mv);
            self.positions.push(child);
            self.paths.push(1);
            self.edges.push(Edge {
                parent: ply as u32,
                child: ply as u32 + 1,
                mv: *mv,
            });
            self.layers.push(self.positions.len() as u32);
            self.edge_layers.push(self.edges.len() as u32);
        }
    }

    /// The node of `child` in the layer being built (its nodes from
    /// `first_child` on), added with no paths yet if it is new; `index`
    /// finds the layer's nodes by position once it has more than one.
    #[inline]
    fn child_node(
        &mut self,
        index: &mut HashMap<Position, u32>,
        first_child: usize,
        child: Position,
    ) -> usize {
        if self.positions.len() == first_child {
            // The first child needs no lookup; index it only when more may come.
            self.positions.push(child);
            self.paths.push(0);
            return first_child;
        }
        if index.is_empty() {
            index.insert(self.positions[first_child], first_child as u32);
        }
        *index.entry(child).or_insert_with(|| {
            self.positions.push(child);
            self.paths.push(0);
            (self.positions.len() - 1) as u32
        }) as usize
    }
}

/// Graphs of at most this many positions and edges are kept from one
/// replay to the next on a thread; a larger one is let go.
const KEPT_GRAPH: usize = 1 << 16;

thread_local! {
    /// The buffers of this thread's last replay, reused so that replaying a
    /// game allocates only what its result holds.
    static GRAPH: RefCell<Graph> = RefCell::new(Graph::default());
}

/// Which certain positions a replay keeps ([`Replay::certain`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeptPositions {
    /// Every one.
    #[default]
    All,
    /// Of a record read one way only, the last one (where the reading
    /// stops, the position before a fault): all a caller that only reports
    /// on the record reads. A record read more ways keeps them all.
    Last,
}

/// Replays `written` from `start`.
pub fn replay(rules: &Rules, start: Position, written: &Written) -> Replay {
    replay_keeping(rules, start, written, KeptPositions::All)
}

/// [`replay`], keeping `kept` of the certain positions.
pub fn replay_keeping(
    rules: &Rules,
    start: Position,
    written: &Written,
    kept: KeptPositions,
) -> Replay {
    let line = match one_line(rules, start, written, kept) {
        Ok(replay) => return replay,
        Err(line) => line,
    };
    GRAPH.with_borrow_mut(|graph| {
        let limit = build_graph_in(rules, start, &line, written, graph);
        let replay = analyse(graph, written.len(), limit);
        if graph.positions.capacity() + graph.edges.capacity() > KEPT_GRAPH {
            *graph = Graph::default();
        }
        replay
    })
}

/// The commonest replay, without the graph: every written move fits one
/// legal move until the record ends or a move fits none. Where a move fits
/// several, the moves read up to there, for the graph to go on from.
fn one_line(
    rules: &Rules,
    start: Position,
    written: &Written,
    kept: KeptPositions,
) -> Result<Replay, Vec<Move>> {
    let plies = written.len();
    let all = kept == KeptPositions::All;
    let mut certain = Vec::with_capacity(if all { plies + 1 } else { 1 });
    let mut reading: Vec<ReadingPly> = Vec::with_capacity(plies);
    let mut fitting = Vec::with_capacity(4);
    let mut position = start;
    let mut limit = None;
    for ply in 0..plies {
        let Some(squares) = written.get(ply) else {
            break;
        };
        fitting_moves_into(rules, &position, squares, &mut fitting);
        let mv = match fitting[..] {
            [] => break,
            [mv] => mv,
            _ => return Err(reading.iter().map(|r| r.chosen).collect()),
        };
        // The graph's count: `ply + 2` positions and `ply + 1` edges.
        if 2 * ply + 3 > MAX_TRACKED {
            limit = Some(Limit::Tracked);
            break;
        }
        if all {
            certain.push(CertainPosition {
                ply,
                position,
                next: Some(mv),
            });
        }
        reading.push(ReadingPly {
            chosen: mv,
            alternatives: Vec::new(),
        });
        position = position.play(&mv);
    }
    let reached = reading.len();
    certain.push(CertainPosition {
        ply: reached,
        position,
        next: None,
    });
    Ok(one_reading(plies, limit, certain, reading))
}

/// The replay of a record with one reading: every position certain, no
/// doubt anywhere.
fn one_reading(
    plies: usize,
    limit: Option<Limit>,
    certain: Vec<CertainPosition>,
    reading: Vec<ReadingPly>,
) -> Replay {
    Replay {
        plies,
        reached: reading.len(),
        interpretations: limit.is_none().then_some(1),
        limit,
        certain,
        divergence: None,
        resolved: Vec::new(),
        reading,
    }
}

/// Up to `max` of the readings of `written` from `start` that cover as
/// many moves as any does: each the moves it plays, in the order of their
/// canonical numeric paths (the first is [`Replay::reading`]'s).
pub fn readings(rules: &Rules, start: Position, written: &Written, max: usize) -> Vec<Vec<Move>> {
    let (graph, _) = build_graph(rules, start, written);
    let reached = graph.layers.len() - 2;
    let alive = alive_nodes(&graph, reached);
    // Depth first, live moves in order: every branch taken completes a
    // reading, so finding `max` of them costs `max` walks at most.
    let mut found = Vec::new();
    let mut path: Vec<Move> = Vec::with_capacity(reached);
    // Per ply on the path: the live edges out of its node, still to try.
    let mut pending: Vec<Vec<Edge>> = Vec::with_capacity(reached + 1);
    let live_from = |node: u32, ply: usize| -> Vec<Edge> {
        if ply >= reached {
            return Vec::new();
        }
        let mut out: Vec<Edge> = graph
            .edges_into(ply + 1)
            .iter()
            .filter(|e| e.parent == node && alive[e.child as usize])
            .copied()
            .collect();
        out.sort_by_cached_key(|e| std::cmp::Reverse(e.mv.full_numeric()));
        out
    };
    pending.push(live_from(0, 0));
    while found.len() < max {
        let ply = path.len();
        if ply == reached {
            found.push(path.clone());
        }
        let Some(top) = pending.last_mut() else { break };
        match top.pop() {
            Some(edge) => {
                path.push(edge.mv);
                pending.push(live_from(edge.child, ply + 1));
            }
            None => {
                pending.pop();
                if path.pop().is_none() {
                    break;
                }
            }
        }
    }
    found
}

/// The graph of every reading of `written` from `start`, up to where the
/// readings stop or a limit is met (and which).
fn build_graph(rules: &Rules, start: Position, written: &Written) -> (Graph, Option<Limit>) {
    let mut graph = Graph::default();
    let limit = build_graph_in(rules, start, &[], written, &mut graph);
    (graph, limit)
}

/// [`build_graph`] into `graph`, whatever it held before, its first plies
/// `line`: moves known to be the only ones that fit.
fn build_graph_in(
    rules: &Rules,
    start: Position,
    line: &[Move],
    written: &Written,
    graph: &mut Graph,
) -> Option<Limit> {
    graph.start_with_line(start, line, written.len());
    let mut fitting = Vec::with_capacity(4);
    let mut index: HashMap<Position, u32> = HashMap::new();
    let mut limit = None;
    for ply in line.len()..written.len() {
        let Some(squares) = written.get(ply) else {
            break;
        };
        let parents = graph.nodes(ply);
        let first_child = graph.positions.len();
        let first_edge = graph.edges.len();
        index.clear();
        for p in parents {
            let parent = graph.positions[p];
            fitting_moves_into(rules, &parent, squares, &mut fitting);
            for &mv in &fitting {
                let c = graph.child_node(&mut index, first_child, parent.play(&mv));
                graph.paths[c] = (graph.paths[c] + graph.paths[p]).min(MAX_INTERPRETATIONS);
                graph.edges.push(Edge {
                    parent: p as u32,
                    child: c as u32,
                    mv,
                });
            }
        }
        let children = graph.positions.len() - first_child;
        let exceeded = if children > MAX_POSITIONS_PER_PLY {
            Some(Limit::PositionsPerPly)
        } else if graph.positions.len() + graph.edges.len() > MAX_TRACKED {
            Some(Limit::Tracked)
        } else {
            None
        };
        if children == 0 || exceeded.is_some() {
            graph.positions.truncate(first_child);
            graph.paths.truncate(first_child);
            graph.edges.truncate(first_edge);
            limit = exceeded;
            break;
        }
        graph.layers.push(graph.positions.len() as u32);
        graph.edge_layers.push(graph.edges.len() as u32);
    }
    limit
}

/// Works out readings, certain positions, divergence and resolved
/// ambiguities from the graph.
fn analyse(graph: &Graph, plies: usize, limit: Option<Limit>) -> Replay {
    let reached = graph.layers.len() - 2;
    if graph.positions.len() == reached + 1 && graph.edges.len() == reached {
        return single_reading(graph, plies, limit);
    }
    let alive = alive_nodes(graph, reached);
    let interpretations = match limit {
        Some(_) => None,
        None => Some(
            graph.paths[graph.nodes(reached)]
                .iter()
                .fold(0u64, |acc, &n| (acc + n).min(MAX_INTERPRETATIONS)),
        ),
    };
    let mut certain = Vec::with_capacity(reached + 1);
    let mut divergence = None;
    let mut resolved = Vec::new();
    for ply in 0..=reached {
        let mut live = graph.nodes(ply).filter(|&i| alive[i]);
        let only = live.next().filter(|_| live.next().is_none());
        if ply > 0 {
            let edges = graph.edges_into(ply);
            let (live_moves, fitted) = if let [edge] = edges {
                // One edge: its nodes are alive (the layer is not empty).
                (vec![edge.mv], 1)
            } else {
                let from_live: Vec<&Edge> =
                    edges.iter().filter(|e| alive[e.parent as usize]).collect();
                let live_moves = distinct(
                    from_live
                        .iter()
                        .copied()
                        .filter(|e| alive[e.child as usize]),
                );
                let fitted = distinct(from_live.iter().copied());
                if live_moves.len() == 1 && fitted.len() > 1 {
                    resolved.push(Resolved {
                        ply,
                        candidates: fitted.clone(),
                    });
                }
                let n = fitted.len();
                (live_moves, n)
            };
            let _ = fitted;
            if live_moves.len() > 1 && divergence.is_none() {
                divergence = Some((ply, live_moves));
            }
        }
        if let Some(node) = only {
            let next = if ply < reached {
                let out = graph
                    .edges_into(ply + 1)
                    .iter()
                    .filter(|e| e.parent as usize == node && alive[e.child as usize]);
                let moves = distinct(out);
                (moves.len() == 1).then(|| moves[0])
            } else {
                None
            };
            certain.push(CertainPosition {
                ply,
                position: graph.positions[node],
                next,
            });
        }
    }
    let reading = first_reading(graph, &alive, reached);
    Replay {
        plies,
        reached,
        interpretations,
        limit,
        certain,
        divergence,
        resolved,
        reading,
    }
}

/// A graph of one position per ply and one move between them (a limit cut
/// back the layer where moves parted): every position is certain and there
/// is one reading.
fn single_reading(graph: &Graph, plies: usize, limit: Option<Limit>) -> Replay {
    let certain = graph
        .positions
        .iter()
        .enumerate()
        .map(|(ply, &position)| CertainPosition {
            ply,
            position,
            next: graph.edges.get(ply).map(|e| e.mv),
        })
        .collect();
    let reading = graph
        .edges
        .iter()
        .map(|e| ReadingPly {
            chosen: e.mv,
            alternatives: Vec::new(),
        })
        .collect();
    one_reading(plies, limit, certain, reading)
}

/// Marks the nodes from which the last layer can be reached.
fn alive_nodes(graph: &Graph, reached: usize) -> Vec<bool> {
    let mut alive = vec![false; graph.positions.len()];
    for a in &mut alive[graph.nodes(reached)] {
        *a = true;
    }
    for e in graph.edges.iter().rev() {
        if alive[e.child as usize] {
            alive[e.parent as usize] = true;
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
fn first_reading(graph: &Graph, alive: &[bool], reached: usize) -> Vec<ReadingPly> {
    let mut node = 0u32;
    let mut reading = Vec::with_capacity(reached);
    for ply in 1..=reached {
        let edges = graph.edges_into(ply);
        if let [edge] = edges {
            node = edge.child;
            reading.push(ReadingPly {
                chosen: edge.mv,
                alternatives: Vec::new(),
            });
            continue;
        }
        let out: Vec<&Edge> = edges
            .iter()
            .filter(|e| e.parent == node && alive[e.child as usize])
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

    fn replay(rules: &Rules, start: Position, sets: &[Option<Vec<Bitboard>>]) -> Replay {
        super::replay(rules, start, &sets.iter().map(|s| s.as_deref()).collect())
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
    fn a_replay_keeping_the_last_position_differs_only_in_the_others() {
        let rules = Rules::default();
        let initial = Position::initial(&rules);
        let records = [
            (
                initial,
                "23-18 10-15 21-17 6-10 25-21 9-14 18x9 5x14",
                Notation::Numeric,
            ),
            (initial, "23-18 10-15 18-13 7-10", Notation::Numeric),
            (position("W:WK29:B1"), "9-15 12-7", Notation::Dama),
        ];
        for (start, record, notation) in records {
            let sets = sets(record, notation);
            let written: Written = sets.iter().map(|s| s.as_deref()).collect();
            let all = super::replay(&rules, start, &written);
            let last = replay_keeping(&rules, start, &written, KeptPositions::Last);
            let kept = if all.interpretations == Some(1) {
                &all.certain[all.certain.len() - 1..]
            } else {
                // Read two ways: all kept.
                &all.certain[..]
            };
            assert_eq!(last.certain, kept, "{record}");
            // The position a report shows, before the ply that stops the reading.
            assert_eq!(last.certain_at(all.reached), all.certain_at(all.reached));
            let mut others_dropped = all.clone();
            others_dropped.certain = last.certain.clone();
            assert_eq!(last, others_dropped, "{record}");
        }
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
        let written = sets("9-15 12-7", Notation::Dama);
        let written: Written = written.iter().map(|s| s.as_deref()).collect();
        let all = super::readings(&rules, position("W:WK29:B1"), &written, 16);
        let names: Vec<Vec<String>> = all
            .iter()
            .map(|r| r.iter().map(Move::full_numeric).collect())
            .collect();
        assert_eq!(names.len(), 2);
        assert_eq!(names[0][0], "29-15");
        assert_eq!(names[1][0], "29-18");
        assert!(names.iter().all(|r| r.len() == 2));
        assert_eq!(
            super::readings(&rules, position("W:WK29:B1"), &written, 1).len(),
            1
        );
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

    #[test]
    fn the_graph_goes_on_from_the_moves_that_fit_alone() {
        // Two moves that fit alone, then the doubt of the test above: the
        // replay equals the graph built from the start.
        let rules = Rules::default();
        let start = position("W:WK29,K32:B10,12");
        let mut written = sets("32-27 12-16", Notation::Numeric);
        written.extend(sets("9-15", Notation::Dama));
        written.extend(sets("10-14", Notation::Numeric));
        let r = replay(&rules, start, &written);
        assert_eq!((r.reached, r.interpretations), (4, Some(1)));
        assert_eq!(r.resolved.len(), 1);
        assert_eq!(r.resolved[0].ply, 3);
        let written: Written = written.iter().map(|s| s.as_deref()).collect();
        let (graph, limit) = build_graph(&rules, start, &written);
        assert_eq!(r, analyse(&graph, written.len(), limit));
        assert!(one_line(&rules, start, &written, KeptPositions::All).is_err());
        // A record every move of which fits one move takes the short way,
        // with the graph's answer.
        let written: Written = sets("32-27 12-16 27-32", Notation::Numeric)
            .iter()
            .map(|s| s.as_deref())
            .collect();
        let r = one_line(&rules, start, &written, KeptPositions::All).unwrap();
        let (graph, limit) = build_graph(&rules, start, &written);
        assert_eq!(r, analyse(&graph, written.len(), limit));
    }
}
