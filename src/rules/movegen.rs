//! Legal move generation, moves and playing them.
//!
//! Captures are searched depth-first over every route: captured pieces stay
//! on the board (blocking) until the move ends and none may be jumped twice;
//! a flying king may land on any empty square beyond its victim but must pick
//! one from which it can keep capturing when there is one. Routes that take
//! the same pieces from the same square to the same square are one [`Move`];
//! it keeps the route whose written form sorts first (see [`Move::path`]).

use std::fmt;
use std::hash::{Hash, Hasher};

use super::board::{Bitboard, Color, Direction, Geometry, Square, squares};
use super::position::{KingRuns, Position};
use super::switch::{KingFirst, MaxCapture, Promotion};
use super::variant::Rules;
use super::zobrist;

/// Most landing squares a move can have (one per captured piece).
pub const MAX_PATH: usize = 32;

/// A legal move: identified by its start, end and set of captured squares.
///
/// For a capture it also carries its canonical written route: one landing
/// square per captured piece — the square just beyond the piece while the
/// capturing piece goes on in the same direction, the square where it turns
/// otherwise — and, among routes of the same move, the one whose labels sort
/// first.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    from: u8,
    to: u8,
    len: u8,
    king: bool,
    promotes: bool,
    /// Which jumps take a king, in order: bit `15 - i` for jump `i` (so a
    /// larger value meets a king earlier); the largest over the move's
    /// routes.
    kings_met: u16,
    captured: Bitboard,
    path: [u8; MAX_PATH],
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.from, self.to, self.captured).hash(state);
    }
}

impl Move {
    /// The canonical order of moves: by start square, then by the landing
    /// squares of the written route (distinct legal moves of a position
    /// never compare equal: the route decides the pieces taken).
    pub fn canonical_cmp(&self, other: &Move) -> std::cmp::Ordering {
        self.from.cmp(&other.from).then_with(|| {
            self.path[..usize::from(self.len)].cmp(&other.path[..usize::from(other.len)])
        })
    }

    /// The square the piece leaves.
    pub fn from(&self) -> Square {
        Square::from_index(self.from as usize)
    }

    /// The square the piece ends on.
    pub fn to(&self) -> Square {
        Square::from_index(self.to as usize)
    }

    /// The squares of the captured pieces (empty for a plain move).
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether the moving piece is a king.
    pub fn by_king(&self) -> bool {
        self.king
    }

    /// Whether a man is crowned by this move.
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// The canonical route's landing squares, ending with [`Move::to`]
    /// (just the end square for a plain move).
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        self.path[..self.len as usize]
            .iter()
            .map(|&i| Square::from_index(i as usize))
    }

    /// Numeric notation with start and end only: `23-18`, `18x11`.
    pub fn short_numeric(&self) -> String {
        let sep = if self.is_capture() { 'x' } else { '-' };
        format!("{}{sep}{}", self.from(), self.to())
    }

    /// Numeric notation with the full canonical route: `23-18`, `1x10x19`.
    pub fn full_numeric(&self) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        let mut s = self.from().to_string();
        for square in self.path() {
            s.push_str(sep);
            s.push_str(&square.to_string());
        }
        s
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.full_numeric())
    }
}

/// One jump of a capture route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The direction of the jump.
    pub direction: Direction,
    /// The captured piece's square.
    pub captured: Square,
    /// Where the capturing piece stopped after it.
    pub landing: Square,
}

/// One route of a capture, with the actual landing squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// The capturing piece's start square.
    pub from: Square,
    /// The jumps in order.
    pub jumps: Vec<Jump>,
}

impl Route {
    /// The captured squares.
    pub fn captured(&self) -> Bitboard {
        self.jumps.iter().fold(0, |acc, j| acc | j.captured.bit())
    }

    /// The end square.
    pub fn to(&self) -> Square {
        self.jumps.last().map_or(self.from, |j| j.landing)
    }
}

/// Depth-first search over capture routes of one piece.
struct CaptureSearch<'a, F: FnMut(&[RawJump], bool)> {
    geometry: &'a Geometry,
    rules: &'a Rules,
    color: Color,
    them: Bitboard,
    /// The opponent's kings.
    their_kings: Bitboard,
    occupied: Bitboard,
    jumps: [RawJump; MAX_PATH],
    depth: usize,
    sink: F,
}

#[derive(Clone, Copy, Debug, Default)]
struct RawJump {
    direction: u8,
    captured: u8,
    landing: u8,
}

/// The directions of captures, by their index in a [`RawJump`]: the
/// diagonals, then (under Frisian rules) rows and files.
const DIRECTIONS: [Direction; 8] = Direction::EVERY;

/// The capture directions of the rules.
#[inline]
fn capture_directions(rules: &Rules) -> &'static [Direction] {
    if rules.orthogonal_captures {
        &DIRECTIONS
    } else {
        &DIRECTIONS[..4]
    }
}

impl<F: FnMut(&[RawJump], bool)> CaptureSearch<'_, F> {
    /// Searches on from `at`; returns whether any capture was possible there.
    fn search(&mut self, at: usize, king: bool, captured: Bitboard) -> bool {
        if self.depth >= MAX_PATH {
            return false;
        }
        let mut found = false;
        for &direction in capture_directions(self.rules) {
            if king && self.rules.flying_kings {
                found |= self.flying_jump(at, direction, captured);
            } else {
                found |= self.short_jump(at, king, direction, captured);
            }
        }
        found
    }

    fn short_jump(
        &mut self,
        at: usize,
        king: bool,
        direction: Direction,
        captured: Bitboard,
    ) -> bool {
        let g = self.geometry;
        if !king && !self.rules.men_capture_backward && !direction.is_forward(self.color) {
            return false;
        }
        let Some(victim) = g.step(at, direction) else {
            return false;
        };
        let victim_bit = 1u64 << victim;
        if self.them & victim_bit == 0 || captured & victim_bit != 0 {
            return false;
        }
        if !king && !self.rules.men_capture_kings && self.their_kings & victim_bit != 0 {
            return false;
        }
        let Some(landing) = g.step(victim, direction) else {
            return false;
        };
        if self.occupied & (1u64 << landing) != 0 {
            return false;
        }
        let captured = captured | victim_bit;
        self.push(direction, victim, landing);
        let crowned_here = !king && g.crowning_row(self.color) & (1u64 << landing) != 0;
        if crowned_here {
            match self.rules.promotion {
                Promotion::Stop => self.record(true),
                Promotion::ContinueKing => {
                    if !self.search(landing, true, captured) {
                        self.record(true);
                    }
                }
                Promotion::ContinueMan => {
                    if !self.search(landing, false, captured) {
                        self.record(true);
                    }
                }
            }
        } else if !self.search(landing, king, captured) {
            self.record(king);
        }
        self.depth -= 1;
        true
    }

    fn flying_jump(&mut self, at: usize, direction: Direction, captured: Bitboard) -> bool {
        let g = self.geometry;
        let mut next = g.step(at, direction);
        while let Some(s) = next {
            if self.occupied & (1u64 << s) != 0 {
                break;
            }
            next = g.step(s, direction);
        }
        let Some(victim) = next else {
            return false;
        };
        let victim_bit = 1u64 << victim;
        if self.them & victim_bit == 0 || captured & victim_bit != 0 {
            return false;
        }
        let mut landings = [0u8; 16];
        let mut count = 0;
        let mut next = g.step(victim, direction);
        while let Some(s) = next {
            if self.occupied & (1u64 << s) != 0 || count == landings.len() {
                break;
            }
            landings[count] = s as u8;
            count += 1;
            next = g.step(s, direction);
        }
        if count == 0 {
            return false;
        }
        let captured = captured | victim_bit;
        let mut continued = false;
        for &landing in &landings[..count] {
            self.push(direction, victim, landing as usize);
            continued |= self.search(landing as usize, true, captured);
            self.depth -= 1;
        }
        if !continued {
            for &landing in &landings[..count] {
                self.push(direction, victim, landing as usize);
                self.record(true);
                self.depth -= 1;
            }
        }
        true
    }

    #[inline]
    fn push(&mut self, direction: Direction, victim: usize, landing: usize) {
        self.jumps[self.depth] = RawJump {
            direction: direction as u8,
            captured: victim as u8,
            landing: landing as u8,
        };
        self.depth += 1;
    }

    #[inline]
    fn record(&mut self, ends_king: bool) {
        (self.sink)(&self.jumps[..self.depth], ends_king);
    }
}

impl Position {
    /// Every legal move for the side to move, into `moves` (cleared first).
    pub fn legal_moves_into(&self, rules: &Rules, moves: &mut Vec<Move>) {
        moves.clear();
        self.captures_into(rules, moves);
        if moves.is_empty() {
            self.quiet_moves_into(rules, moves);
        }
    }

    /// The rank of `mv` among the legal moves in canonical order
    /// ([`Move::canonical_cmp`]), or `None` when it is not legal here;
    /// `scratch` holds moves meanwhile.
    ///
    /// Where no piece can capture (most positions, also most where a
    /// flying king might) the moves are counted rather than listed: only
    /// the moves from `mv`'s start and those of kings below it are made,
    /// the men's plain moves from squares below it counted a direction at
    /// a time.
    pub fn canonical_rank(
        &self,
        rules: &Rules,
        mv: &Move,
        scratch: &mut Vec<Move>,
    ) -> Option<usize> {
        let starts = self.capture_starts(rules);
        if starts != 0 {
            self.captures_of_into(rules, starts, scratch);
            if !scratch.is_empty() {
                if !scratch.contains(mv) {
                    return None;
                }
                return Some(
                    scratch
                        .iter()
                        .filter(|m| m.canonical_cmp(mv).is_lt())
                        .count(),
                );
            }
        }
        if mv.is_capture() {
            return None;
        }
        // Every legal move is a plain one, of one landing square.
        let start = usize::from(mv.from);
        let g = rules.geometry;
        let empty = g.all() & !self.occupied();
        let from_start_before = if self.pieces(self.side) & !self.kings & (1 << start) != 0 {
            // A man: its steps forward to empty squares.
            let steps = Direction::forward(self.side)
                .into_iter()
                .filter_map(|direction| g.step(start, direction))
                .filter(|&s| empty & (1u64 << s) != 0);
            let mut found = false;
            let mut before = 0;
            for s in steps {
                found |= s == usize::from(mv.to);
                before += usize::from(s < usize::from(mv.to));
            }
            if !found {
                return None;
            }
            before
        } else {
            scratch.clear();
            self.quiet_moves_between(rules, 1 << start, u64::MAX, scratch);
            if !scratch.contains(mv) {
                return None;
            }
            scratch.iter().filter(|m| m.to < mv.to).count()
        };
        let below = self.pieces(self.side) & ((1u64 << start) - 1);
        let men = below & !self.kings;
        let men_moves: u32 = Direction::forward(self.side)
            .into_iter()
            .map(|direction| (men & g.step_sources(direction, empty)).count_ones())
            .sum();
        scratch.clear();
        self.quiet_moves_between(rules, below & self.kings, u64::MAX, scratch);
        Some(men_moves as usize + scratch.len() + from_start_before)
    }

    /// The legal moves that start on one of the squares of `from`, into
    /// `moves` (cleared first). Captures are searched for every piece, since
    /// whether one exists (and how much it takes) decides what is legal.
    pub fn legal_moves_from_into(&self, rules: &Rules, from: Bitboard, moves: &mut Vec<Move>) {
        moves.clear();
        self.captures_into(rules, moves);
        if moves.is_empty() {
            self.quiet_moves_from(rules, from, moves);
        } else {
            moves.retain(|m| from & (1u64 << m.from) != 0);
        }
    }

    /// The legal moves that start on one of the squares of `from` and end
    /// on one of the squares of `to`, into `moves` (cleared first), in the
    /// order of [`Position::legal_moves_from_into`].
    pub fn legal_moves_between_into(
        &self,
        rules: &Rules,
        from: Bitboard,
        to: Bitboard,
        moves: &mut Vec<Move>,
    ) {
        moves.clear();
        let starts = self.capture_starts(rules);
        if starts == 0 {
            self.quiet_moves_between(rules, from, to, moves);
            return;
        }
        // The pieces on `from` first: when none of them can capture, only
        // whether another piece can matters, which is cheaper to learn than
        // its routes.
        self.capture_routes_into(rules, starts & from, moves);
        if moves.is_empty() {
            if !self.can_capture(rules, starts & !from) {
                self.quiet_moves_between(rules, from, to, moves);
            }
            return;
        }
        if rules.captures_chosen_freely() {
            moves.retain(|m| to & (1u64 << m.to) != 0);
            return;
        }
        // The other pieces' captures decide which of these are legal.
        self.capture_routes_into(rules, starts & !from, moves);
        self.keep_chosen_captures(rules, moves);
        moves.retain(|m| from & (1u64 << m.from) != 0 && to & (1u64 << m.to) != 0);
    }

    /// Every legal move for the side to move.
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(rules, &mut moves);
        moves
    }

    /// Every legal capture, into `moves` (cleared first).
    fn captures_into(&self, rules: &Rules, moves: &mut Vec<Move>) {
        self.captures_of_into(rules, self.capture_starts(rules), moves);
    }

    /// Every legal capture, into `moves` (cleared first), `starts` the
    /// position's [`Position::capture_starts`].
    pub(super) fn captures_of_into(&self, rules: &Rules, starts: Bitboard, moves: &mut Vec<Move>) {
        moves.clear();
        self.capture_routes_into(rules, starts, moves);
        self.keep_chosen_captures(rules, moves);
    }

    /// The pieces of the side to move that may have a capture, found for
    /// all pieces at once (most positions have none, and a piece that has
    /// none is spared the route search): exactly those that can make a
    /// first jump, with the side's flying kings (whatever their
    /// surroundings) and, where men may not take kings, men next to one.
    pub(super) fn capture_starts(&self, rules: &Rules) -> Bitboard {
        let us = self.pieces(self.side);
        let them = self.pieces(self.side.opponent());
        let g = rules.geometry;
        let empty = g.all() & !self.occupied();
        let kings = us & self.kings;
        let flying = if rules.flying_kings { kings } else { 0 };
        let walkers = us & !flying;
        // The pieces that jump a piece of theirs along `direction`.
        let jumpers = |direction: Direction, movers: Bitboard| {
            let victims = them & g.step_sources(direction, empty);
            movers & g.step_sources(direction, victims)
        };
        // Backwards: the kings, and men where the rules let them.
        let back = if rules.men_capture_backward {
            walkers
        } else {
            walkers & kings
        };
        let (up, down) = match self.side {
            Color::White => (walkers, back),
            Color::Black => (back, walkers),
        };
        let mut starts = flying;
        if up != 0 {
            starts |= jumpers(Direction::UpLeft, up) | jumpers(Direction::UpRight, up);
        }
        if down != 0 {
            starts |= jumpers(Direction::DownLeft, down) | jumpers(Direction::DownRight, down);
        }
        if rules.orthogonal_captures {
            // Up and down the files as along the diagonals; sideways
            // counts as backwards.
            starts |= jumpers(Direction::Up, up)
                | jumpers(Direction::Down, down)
                | jumpers(Direction::Left, back)
                | jumpers(Direction::Right, back);
        }
        starts
    }

    /// Whether a piece on `starts` (a part of [`Position::capture_starts`])
    /// can capture.
    fn can_capture(&self, rules: &Rules, starts: Bitboard) -> bool {
        let kings = self.pieces(self.side) & self.kings;
        // A piece that steps and may take any piece can when it has a
        // first jump; only flying kings and men that may not take kings
        // need their routes looked at.
        let unsure = if rules.flying_kings { kings } else { 0 }
            | if rules.men_capture_kings { 0 } else { !kings };
        if starts & !unsure != 0 {
            return true;
        }
        let mut found = false;
        self.capture_routes_with(rules, starts, |_, _, _| found = true);
        found
    }

    /// The capture routes of the pieces on `starts`, as moves added to
    /// `moves` (each once), square by square, before the rules that choose
    /// among captures.
    fn capture_routes_into(&self, rules: &Rules, starts: Bitboard, moves: &mut Vec<Move>) {
        let g = rules.geometry;
        let their_kings = self.pieces(self.side.opponent()) & self.kings;
        self.capture_routes_with(rules, starts, |from, king, (jumps, ends_king)| {
            let mv = route_to_move(g, from, king, jumps, ends_king, their_kings);
            add_unique(moves, mv);
        });
    }

    /// Runs the route search of each piece on `starts`, handing every
    /// complete route to `sink` with its start square and whether the
    /// piece is a king.
    fn capture_routes_with(
        &self,
        rules: &Rules,
        starts: Bitboard,
        mut sink: impl FnMut(usize, bool, (&[RawJump], bool)),
    ) {
        let them = self.pieces(self.side.opponent());
        let their_kings = them & self.kings;
        for from in squares(starts) {
            let from_index = from.index();
            let king = self.kings & from.bit() != 0;
            let mut search = CaptureSearch {
                geometry: rules.geometry,
                rules,
                color: self.side,
                them,
                their_kings,
                occupied: self.occupied() & !from.bit(),
                jumps: [RawJump::default(); MAX_PATH],
                depth: 0,
                sink: |jumps: &[RawJump], ends_king: bool| {
                    sink(from_index, king, (jumps, ends_king))
                },
            };
            search.search(from_index, king, 0);
        }
    }

    /// Keeps the captures that the majority, king-first, most-kings and
    /// king-met-first rules leave legal.
    fn keep_chosen_captures(&self, rules: &Rules, moves: &mut Vec<Move>) {
        if moves.is_empty() {
            return;
        }
        match rules.max_capture {
            MaxCapture::Off => {}
            MaxCapture::On => {
                let most = moves
                    .iter()
                    .map(|m| m.captured.count_ones())
                    .max()
                    .unwrap_or(0);
                moves.retain(|m| m.captured.count_ones() == most);
            }
            MaxCapture::Value => {
                let value = |m: &Move| {
                    let kings = (m.captured & self.kings).count_ones();
                    199 * kings + 100 * (m.captured.count_ones() - kings)
                };
                let most = moves.iter().map(value).max().unwrap_or(0);
                moves.retain(|m| value(m) == most);
            }
        }
        if rules.king_first == KingFirst::On && moves.iter().any(|m| m.king) {
            moves.retain(|m| m.king);
        }
        if rules.most_kings {
            let kings_taken = |m: &Move| (m.captured & self.kings).count_ones();
            let most = moves.iter().map(kings_taken).max().unwrap_or(0);
            moves.retain(|m| kings_taken(m) == most);
        }
        if rules.king_met_first {
            let earliest = moves.iter().map(|m| m.kings_met).max().unwrap_or(0);
            moves.retain(|m| m.kings_met == earliest);
        }
    }

    fn quiet_moves_into(&self, rules: &Rules, moves: &mut Vec<Move>) {
        self.quiet_moves_from(rules, u64::MAX, moves);
    }

    fn quiet_moves_from(&self, rules: &Rules, origins: Bitboard, moves: &mut Vec<Move>) {
        self.quiet_moves_between(rules, origins, u64::MAX, moves);
    }

    /// The plain moves from a square of `origins` to one of `targets`.
    pub(super) fn quiet_moves_between(
        &self,
        rules: &Rules,
        origins: Bitboard,
        targets: Bitboard,
        moves: &mut Vec<Move>,
    ) {
        let g = rules.geometry;
        let empty = g.all() & !self.occupied();
        // A king slides over empty squares that are not targets; a man's
        // one step lands only on a target.
        let landing = empty & targets;
        let crown = g.crowning_row(self.side);
        // A king that made the last three plain moves may not make another.
        let barred = if self.runs.tracked() {
            self.runs.barred(self.side)
        } else {
            0
        };
        for from in squares(self.pieces(self.side) & origins & !barred) {
            let f = from.index();
            if self.kings & from.bit() != 0 {
                for direction in Direction::ALL {
                    let mut next = g.step(f, direction);
                    while let Some(s) = next {
                        if empty & (1u64 << s) == 0 {
                            break;
                        }
                        if landing & (1u64 << s) != 0 {
                            moves.push(Move::simple(f, s, true, false));
                        }
                        if !rules.flying_kings {
                            break;
                        }
                        next = g.step(s, direction);
                    }
                }
            } else {
                // Both steps at once: which of them the move takes is no
                // branch to mispredict when one lands (nearly always).
                let [one, other] = Direction::forward(self.side);
                let first = g.step_targets(one, from.bit()) & landing;
                let steps = first | g.step_targets(other, from.bit()) & landing;
                if steps & steps.wrapping_sub(1) == 0 {
                    if steps != 0 {
                        let s = steps.trailing_zeros() as usize;
                        moves.push(Move::simple(f, s, false, crown & steps != 0));
                    }
                } else {
                    // Both land: in the order of the directions.
                    for s in [first, steps & !first].map(|b| b.trailing_zeros() as usize) {
                        moves.push(Move::simple(f, s, false, crown & (1u64 << s) != 0));
                    }
                }
            }
        }
    }

    /// Whether some capture route of `mv`'s piece that makes `mv` (the
    /// same pieces taken, the same end) satisfies `fits`, handed the
    /// route's landing squares before its end, as bits. The routes are
    /// searched without building them.
    pub(super) fn any_route_of(
        &self,
        rules: &Rules,
        mv: &Move,
        mut fits: impl FnMut(&[Bitboard]) -> bool,
    ) -> bool {
        let mut found = false;
        let mut landings = [0; MAX_PATH];
        self.capture_routes_with(rules, 1 << mv.from, |_, _, (jumps, _)| {
            if found || jumps.last().is_none_or(|j| j.landing != mv.to) {
                return;
            }
            let mut captured = 0;
            for (landing, jump) in landings.iter_mut().zip(jumps) {
                captured |= 1u64 << jump.captured;
                *landing = 1u64 << jump.landing;
            }
            found = captured == mv.captured && fits(&landings[..jumps.len() - 1]);
        });
        found
    }

    /// Every capture route of the piece on `from` with its actual landing
    /// squares, whether or not the capture rules allow the move it makes
    /// (check against [`Position::legal_moves`]).
    pub fn capture_routes(&self, rules: &Rules, from: Square) -> Vec<Route> {
        let mut routes = Vec::new();
        let Some(piece) = self.piece_at(from).filter(|p| p.color == self.side) else {
            return routes;
        };
        let them = self.pieces(self.side.opponent());
        let mut search = CaptureSearch {
            geometry: rules.geometry,
            rules,
            color: self.side,
            them,
            their_kings: them & self.kings,
            occupied: self.occupied() & !from.bit(),
            jumps: [RawJump::default(); MAX_PATH],
            depth: 0,
            sink: |jumps: &[RawJump], _| {
                routes.push(Route {
                    from,
                    jumps: jumps
                        .iter()
                        .map(|j| Jump {
                            direction: DIRECTIONS[j.direction as usize],
                            captured: Square::from_index(j.captured as usize),
                            landing: Square::from_index(j.landing as usize),
                        })
                        .collect(),
                });
            },
        };
        search.search(from.index(), piece.king, 0);
        routes
    }

    /// The position after `mv`, which must be legal here.
    ///
    /// Always inlined: called, it hands the position back through memory
    /// field by field, and the caller's copy of it stalls on those stores.
    #[inline(always)]
    pub fn play(&self, mv: &Move) -> Position {
        let us = self.side;
        let them = us.opponent();
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let mut key = self.key ^ zobrist::SIDE_KEY;
        key ^= zobrist::piece_key_index(us, mv.king, mv.from as usize);
        let ends_king = mv.king || mv.promotes;
        key ^= zobrist::piece_key_index(us, ends_king, mv.to as usize);
        for s in squares(mv.captured) {
            key ^= zobrist::piece_key_index(them, self.kings & s.bit() != 0, s.index());
        }
        let mut ours = self.pieces(us) & !from | to;
        let theirs = self.pieces(them) & !mv.captured;
        let mut kings = self.kings & !from & !mv.captured;
        if ends_king {
            kings |= to;
        }
        if from == to {
            ours |= to;
        }
        let (white, black) = match us {
            Color::White => (ours, theirs),
            Color::Black => (theirs, ours),
        };
        let runs = if self.runs.tracked() {
            let men = [white & !kings, black & !kings];
            let squares = (usize::from(mv.from), usize::from(mv.to));
            self.runs.after(us, squares, mv.king, mv.captured, men)
        } else {
            KingRuns::default()
        };
        Position {
            white,
            black,
            kings,
            side: them,
            runs,
            key,
        }
    }
}

impl Move {
    pub(super) fn simple(from: usize, to: usize, king: bool, promotes: bool) -> Move {
        let mut path = [0u8; MAX_PATH];
        path[0] = to as u8;
        Move {
            from: from as u8,
            to: to as u8,
            len: 1,
            king,
            promotes,
            kings_met: 0,
            captured: 0,
            path,
        }
    }
}

/// Builds the move of one route, with the route written canonically.
fn route_to_move(
    g: &Geometry,
    from: usize,
    king: bool,
    jumps: &[RawJump],
    ends_king: bool,
    their_kings: Bitboard,
) -> Move {
    let mut path = [0u8; MAX_PATH];
    let mut captured = 0u64;
    let mut kings_met = 0u16;
    for (i, jump) in jumps.iter().enumerate() {
        captured |= 1u64 << jump.captured;
        if i < 16 && their_kings & (1u64 << jump.captured) != 0 {
            kings_met |= 1 << (15 - i);
        }
        let straight_on = jumps
            .get(i + 1)
            .is_some_and(|next| next.direction == jump.direction);
        path[i] = if straight_on {
            g.step(jump.captured as usize, DIRECTIONS[jump.direction as usize])
                .map_or(jump.landing, |s| s as u8)
        } else {
            jump.landing
        };
    }
    let to = jumps.last().map_or(from as u8, |j| j.landing);
    Move {
        from: from as u8,
        to,
        len: jumps.len() as u8,
        king,
        promotes: !king && ends_king,
        kings_met,
        captured,
        path,
    }
}

/// Adds a move unless an equal one is there; of two routes of one move the
/// one whose path sorts first is kept, with the kings met earliest by any.
fn add_unique(moves: &mut Vec<Move>, mv: Move) {
    if let Some(existing) = moves.iter_mut().find(|m| **m == mv) {
        let kings_met = existing.kings_met.max(mv.kings_met);
        if mv.path[..mv.len as usize] < existing.path[..existing.len as usize] {
            *existing = mv;
        }
        existing.kings_met = kings_met;
    } else {
        moves.push(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Piece, Preset, Setup};

    fn position(
        side: Color,
        white: &[(u32, bool)],
        black: &[(u32, bool)],
        rules: &Rules,
    ) -> Position {
        let mut pieces = Vec::new();
        for &(s, king) in white {
            pieces.push((
                s,
                Piece {
                    color: Color::White,
                    king,
                },
            ));
        }
        for &(s, king) in black {
            pieces.push((
                s,
                Piece {
                    color: Color::Black,
                    king,
                },
            ));
        }
        Position::from_setup(
            &Setup {
                side: Some(side),
                pieces,
                ..Setup::default()
            },
            rules,
        )
        .unwrap()
    }

    fn names(moves: &[Move]) -> Vec<String> {
        let mut v: Vec<String> = moves.iter().map(|m| m.full_numeric()).collect();
        v.sort();
        v
    }

    #[test]
    fn seven_opening_moves() {
        let rules = Rules::default();
        let moves = Position::initial(&rules).legal_moves(&rules);
        assert_eq!(
            names(&moves),
            [
                "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"
            ]
        );
    }

    #[test]
    fn men_capture_backwards_except_in_english() {
        // White man on 18, black man on 22 behind it, 25 empty.
        let f = Rules::default();
        let p = position(Color::White, &[(18, false)], &[(22, false), (1, false)], &f);
        assert_eq!(names(&p.legal_moves(&f)), ["18x25"]);
        let e = Preset::English.rules();
        let p = position(Color::White, &[(18, false)], &[(22, false), (1, false)], &e);
        assert!(!p.legal_moves(&e).iter().any(|m| m.is_capture()));
    }

    #[test]
    fn majority_capture_is_enforced_only_when_on() {
        // White 27 takes 23 and 14 (27x18x9); white 26 takes only 22 (26x17).
        let f = Rules::default();
        let p = position(
            Color::White,
            &[(27, false), (26, false)],
            &[(23, false), (14, false), (22, false), (1, false)],
            &f,
        );
        let moves = p.legal_moves(&f);
        assert!(
            moves.iter().all(|m| m.captured().count_ones() == 2),
            "{:?}",
            names(&moves)
        );
        let pool = Preset::Pool.rules();
        let p = p.with_side(Color::White);
        let free = p.legal_moves(&pool);
        assert!(free.iter().any(|m| m.captured().count_ones() == 1));
    }

    #[test]
    fn flying_king_must_land_where_it_can_go_on() {
        // The long diagonal runs 29, 25, 22, 18, 15, 11, 8, 4. The king takes 25, may stop on
        // 22, 18 or 15 (all go on over 11), then lands on 8 or 4: two moves, both written with
        // the square just beyond 25 since the king never turns.
        let f = Rules::default();
        let p = position(
            Color::White,
            &[(29, true)],
            &[(25, false), (11, false), (20, false)],
            &f,
        );
        let moves = p.legal_moves(&f);
        assert_eq!(names(&moves), ["29x22x4", "29x22x8"]);
    }

    #[test]
    fn moves_from_and_to_some_squares_are_the_legal_moves_there() {
        for preset in Preset::ALL {
            let rules = preset.rules();
            for mut seed in [3u64, 11, 29] {
                let mut p = Position::initial(&rules);
                for _ in 0..150 {
                    let all = p.legal_moves(&rules);
                    if all.is_empty() {
                        break;
                    }
                    // A few masks, and each piece of the side to move alone
                    // (a written move names one square, with a piece or not).
                    let pieces = squares(p.pieces(p.side)).map(|s| s.bit());
                    let masks = [0u64, 0xF0F0_F0F0, 1 << 22, u64::MAX]
                        .into_iter()
                        .chain(pieces);
                    for mask in masks {
                        let mut some = Vec::new();
                        p.legal_moves_from_into(&rules, mask, &mut some);
                        let expected: Vec<Move> = all
                            .iter()
                            .copied()
                            .filter(|m| mask & m.from().bit() != 0)
                            .collect();
                        assert_eq!(some, expected);
                        let ends = all.iter().map(|m| m.to().bit());
                        for to in [0u64, 0x0F0F_0F0F, 1 << 17, u64::MAX]
                            .into_iter()
                            .chain(ends)
                        {
                            let mut between = Vec::new();
                            p.legal_moves_between_into(&rules, mask, to, &mut between);
                            let expected: Vec<Move> = expected
                                .iter()
                                .copied()
                                .filter(|m| to & m.to().bit() != 0)
                                .collect();
                            assert_eq!(between, expected, "{preset:?} {mask:#x} {to:#x}");
                        }
                    }
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    p = p.play(&all[(seed >> 33) as usize % all.len()]);
                }
            }
        }
    }

    #[test]
    fn a_moves_canonical_rank_is_its_place_among_the_legal_moves_sorted() {
        let mut scratch = Vec::new();
        for preset in Preset::ALL {
            let rules = preset.rules();
            for mut seed in [5u64, 17, 41, 97] {
                let mut p = Position::initial(&rules);
                let mut before: Vec<Move> = Vec::new();
                for _ in 0..200 {
                    let mut sorted = p.legal_moves(&rules);
                    if sorted.is_empty() {
                        break;
                    }
                    sorted.sort_by(Move::canonical_cmp);
                    for (rank, mv) in sorted.iter().enumerate() {
                        assert_eq!(p.canonical_rank(&rules, mv, &mut scratch), Some(rank));
                    }
                    // Plain moves from the same squares to any other square.
                    for mv in sorted.iter().filter(|m| !m.is_capture()) {
                        for to in squares(rules.geometry.all()) {
                            let other =
                                Move::simple(usize::from(mv.from), to.index(), mv.king, false);
                            let expected = sorted.iter().position(|m| *m == other);
                            assert_eq!(p.canonical_rank(&rules, &other, &mut scratch), expected);
                        }
                    }
                    // The last position's moves, mostly not legal here.
                    for mv in &before {
                        let expected = sorted.iter().position(|m| m == mv);
                        assert_eq!(p.canonical_rank(&rules, mv, &mut scratch), expected);
                    }
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let chosen = sorted[(seed >> 33) as usize % sorted.len()];
                    before = sorted;
                    p = p.play(&chosen);
                }
            }
        }
    }

    #[test]
    fn incremental_key_matches_recomputation_along_a_game() {
        let rules = Rules::default();
        let mut p = Position::initial(&rules);
        let mut seed = 7u64;
        for _ in 0..200 {
            let moves = p.legal_moves(&rules);
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            p = p.play(&mv);
            assert_eq!(p.zobrist(), p.compute_key());
        }
    }
    #[test]
    fn capture_starts_are_the_pieces_that_can_capture() {
        // Random positions with men and kings of both sides under every
        // preset: every piece with a capture route is a start, the
        // captures are those found from every piece, and each piece's
        // moves found apart are its legal moves.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        for preset in crate::rules::Preset::ALL {
            let rules = preset.rules();
            let g = rules.geometry;
            let mut kings_tried = 0;
            for _ in 0..3000 {
                let (mut white, mut black, mut kings) = (0, 0, 0);
                for square in squares(g.all()) {
                    let bit = square.bit();
                    match next() % 8 {
                        0 if g.crowning_row(Color::White) & bit == 0 => white |= bit,
                        1 if g.crowning_row(Color::Black) & bit == 0 => black |= bit,
                        2 => {
                            white |= bit;
                            kings |= bit;
                        }
                        3 => {
                            black |= bit;
                            kings |= bit;
                        }
                        _ => {}
                    }
                }
                let side = if next() % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let p = Position::from_parts(white, black, kings, side);
                let starts = p.capture_starts(&rules);
                for square in squares(p.pieces(side)) {
                    let can = !p.capture_routes(&rules, square).is_empty();
                    let king = kings & square.bit() != 0;
                    if can {
                        assert!(
                            starts & square.bit() != 0,
                            "{preset} {}",
                            crate::notation::write_fen(&p)
                        );
                        kings_tried += usize::from(king);
                    }
                }
                let mut some = Vec::new();
                p.captures_into(&rules, &mut some);
                let mut all = Vec::new();
                p.captures_of_into(&rules, p.pieces(side), &mut all);
                assert_eq!(
                    names(&some),
                    names(&all),
                    "{preset} {}",
                    crate::notation::write_fen(&p)
                );
                // The moves of each piece are its legal moves.
                let legal = p.legal_moves(&rules);
                let mut between = Vec::new();
                for square in squares(p.pieces(side)) {
                    p.legal_moves_between_into(&rules, square.bit(), g.all(), &mut between);
                    let of_it: Vec<Move> = legal
                        .iter()
                        .filter(|m| m.from() == square)
                        .copied()
                        .collect();
                    assert_eq!(
                        names(&between),
                        names(&of_it),
                        "{preset} {}",
                        crate::notation::write_fen(&p)
                    );
                }
            }
            assert!(kings_tried > 300, "{preset}: {kings_tried} capturing kings");
        }
    }
}

/// Frisian rules position by position (KNDB official rules, 2011; the
/// article numbers are theirs). `tests/data/rules.tsv` has more.
#[cfg(test)]
mod frisian_tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::rules::Preset;

    fn at(fen: &str, rules: &Rules) -> Position {
        let setup = parse_fen_on(fen, rules.geometry).unwrap();
        Position::from_setup(&setup, rules).unwrap()
    }

    fn moves(p: &Position, rules: &Rules) -> Vec<String> {
        let mut v: Vec<String> = p
            .legal_moves(rules)
            .iter()
            .map(Move::short_numeric)
            .collect();
        v.sort();
        v
    }

    /// Plays the legal move written `text` (start and end).
    fn play(p: &Position, rules: &Rules, text: &str) -> Position {
        let mv = p
            .legal_moves(rules)
            .into_iter()
            .find(|m| m.short_numeric() == text)
            .unwrap_or_else(|| panic!("{text} is not legal: {:?}", moves(p, rules)));
        p.play(&mv)
    }

    #[test]
    fn men_capture_along_rows_and_files_every_way() {
        // Art. 7: left along the row, up and down the file.
        let f = Preset::Frisian.rules();
        assert_eq!(moves(&at("W:W28:B27", &f), &f), ["28x26"]);
        assert_eq!(moves(&at("W:W28:B18", &f), &f), ["28x8"]);
        assert_eq!(moves(&at("W:W28:B38", &f), &f), ["28x48"]);
        // International men see none of these.
        let i = Preset::International.rules();
        assert!(!at("W:W28:B27,18", &i).legal_moves(&i)[0].is_capture());
    }

    #[test]
    fn kings_fly_along_files_and_capture_diagonal_and_orthogonal_in_one_move() {
        // Art. 9: the king on 46 takes 26 up the file, landing on 16 or 6.
        let f = Preset::Frisian.rules();
        assert_eq!(moves(&at("W:WK46:B26", &f), &f), ["46x16", "46x6"]);
        // Art. 7: 32 takes 27 diagonally to 21, then 11 up the file to 1,
        // crowned where the move ends; written with its landing squares.
        let p = at("W:W32:B27,11", &f);
        let all = p.legal_moves(&f);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].full_numeric(), "32x21x1");
        assert!(all[0].promotes());
    }

    #[test]
    fn the_capture_of_highest_value_is_compulsory() {
        // Art. 11: a king is worth more than one man, less than two.
        let f = Preset::Frisian.rules();
        // A king (28x30) against a man (28x26): the king.
        assert_eq!(moves(&at("W:W28:B27,K29", &f), &f), ["28x30"]);
        // Two men (28x17x6) against a king (28x30): the two men.
        assert_eq!(moves(&at("W:W28:B22,11,K29", &f), &f), ["28x6"]);
        // Three men (28x17x6x8) against a king and a man (28x30x10).
        assert_eq!(moves(&at("W:W28:B22,11,7,K29,20", &f), &f), ["28x8"]);
        // Counting pieces instead, a king is a man.
        let mut on = f;
        on.set("max-capture", "on").unwrap();
        assert_eq!(on.name(), "frisian+max-capture=on");
        assert_eq!(moves(&at("W:W28:B27,K29", &on), &on), ["28x26", "28x30"]);
    }

    #[test]
    fn on_equal_value_the_king_captures() {
        // Art. 12: the man's 28x30 and the king's 46x37/46x32 each take one man.
        let f = Preset::Frisian.rules();
        let fen = "W:W28,K46:B29,41";
        assert_eq!(moves(&at(fen, &f), &f), ["46x32", "46x37"]);
        let mut off = f;
        off.set("king-first", "off").unwrap();
        assert_eq!(off.name(), "frisian+king-first=off");
        assert_eq!(moves(&at(fen, &off), &off), ["28x30", "46x32", "46x37"]);
    }

    #[test]
    fn a_man_passing_the_last_row_stays_a_man() {
        // Art. 8: on 1 after taking 7 the man cannot fly down the file to 31.
        let f = Preset::Frisian.rules();
        assert_eq!(moves(&at("W:W12:B7,31", &f), &f), ["12x1"]);
    }

    #[test]
    fn a_king_makes_at_most_three_plain_moves_in_a_row_while_its_side_has_men() {
        // Art. 17.
        let f = Preset::Frisian.rules();
        let mut p = at("W:WK46,50:BK1", &f);
        for (white, black) in [("46-37", "1-6"), ("37-46", "6-1"), ("46-37", "1-6")] {
            p = play(&p, &f, white);
            p = play(&p, &f, black);
        }
        assert_eq!(p.king_run(Color::White).moves, 3);
        // The king on 37 may not move; the man may.
        assert_eq!(moves(&p, &f), ["50-44", "50-45"]);
        // Equal pieces, other runs: other positions (replay keeps them
        // apart), with the same key.
        let fresh = at(&crate::notation::write_fen(&p), &f);
        assert_ne!(p, fresh);
        assert_eq!(p.zobrist(), fresh.zobrist());
        // A man's move lifts the ban.
        p = play(&p, &f, "50-45");
        p = play(&p, &f, "6-1");
        assert!(moves(&p, &f).contains(&"37-46".to_string()));
        // Black has no men: its king is free after any number of moves.
        assert_eq!(p.king_run(Color::Black).moves, 0);
        // Without the limit, the king moves on.
        let mut off = f;
        off.set("king-limit", "off").unwrap();
        assert_eq!(off.name(), "frisian+king-limit=off");
        let mut q = at("W:WK46,50:BK1", &off);
        for (white, black) in [("46-37", "1-6"), ("37-46", "6-1"), ("46-37", "1-6")] {
            q = play(&q, &off, white);
            q = play(&q, &off, black);
        }
        assert!(moves(&q, &off).contains(&"37-46".to_string()));
    }

    #[test]
    fn another_king_or_a_capture_lifts_the_ban() {
        let f = Preset::Frisian.rules();
        // Another king: 5-10 starts a new run of one.
        let mut p = at("W:WK46,K5,50:BK1", &f);
        for (white, black) in [("46-37", "1-6"), ("37-46", "6-1"), ("46-37", "1-6")] {
            p = play(&p, &f, white);
            p = play(&p, &f, black);
        }
        assert!(!moves(&p, &f).iter().any(|m| m.starts_with("37-")));
        p = play(&p, &f, "5-10");
        assert_eq!(p.king_run(Color::White).moves, 1);
        p = play(&p, &f, "6-1");
        assert!(moves(&p, &f).contains(&"37-46".to_string()));
        // A capture: the barred king may capture (art. 17), and then move.
        let mut p = at("W:WK46,50:BK1,22", &f);
        for (white, black) in [("46-37", "1-6"), ("37-46", "6-1"), ("46-37", "22-27")] {
            p = play(&p, &f, white);
            p = play(&p, &f, black);
        }
        assert_eq!(moves(&p, &f), ["37x17", "37x7"]);
        p = play(&p, &f, "37x7");
        assert_eq!(p.king_run(Color::White).moves, 0);
    }

    #[test]
    fn a_side_with_only_kings_is_free() {
        let f = Preset::Frisian.rules();
        let mut p = at("W:WK46:BK1,8", &f);
        for (white, black) in [("46-37", "1-6"), ("37-46", "6-1"), ("46-37", "1-6")] {
            p = play(&p, &f, white);
            p = play(&p, &f, black);
        }
        assert!(moves(&p, &f).contains(&"37-46".to_string()));
        // Black, with a man, is barred in turn.
        p = play(&p, &f, "37-46");
        assert_eq!(moves(&p, &f), ["8-12", "8-13"]);
    }

    #[test]
    fn king_runs_come_from_lidraughts_fens() {
        // `+B+W`: White's king on 37 has made three plain moves in a row.
        let f = Preset::Frisian.rules();
        let p = at("W:WK37,50:BK1:H4:F9:+0+337", &f);
        assert_eq!(moves(&p, &f), ["50-44", "50-45"]);
        // Under International rules the runs mean nothing.
        let i = Preset::International.rules();
        let q = at("W:WK37,50:BK1:H4:F9:+0+337", &i);
        assert!(moves(&q, &i).contains(&"37-46".to_string()));
        assert_eq!(q, at("W:WK37,50:BK1", &i));
    }

    #[test]
    fn frysk_starts_from_the_back_rows() {
        let rules = Preset::Frysk.rules();
        let p = Position::initial(&rules);
        assert_eq!(
            crate::notation::write_fen(&p),
            "W:W46,47,48,49,50:B1,2,3,4,5"
        );
    }
}
