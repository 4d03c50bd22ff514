//! Board geometry: squares, colours, pieces and neighbours (diagonal, and
//! orthogonal for Frisian captures), computed from the board's width and
//! height.
//!
//! Squares carry their **numeric label** (1-based, counted row by row from the
//! top as White sees the board, dark squares only). Internally a square is the
//! bit `label - 1` of a [`Bitboard`]. Boards of up to 64 playing squares are
//! supported (8×8 has 32, International 10×10 has 50).

use std::fmt;
use std::sync::{Mutex, OnceLock};

/// A set of squares: bit `label - 1` stands for the square with that label.
pub type Bitboard = u64;

/// The most playing squares a board may have (the width of a [`Bitboard`]).
pub const MAX_SQUARES: usize = 64;

/// One side of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Starts on the high labels (21..32 on 8×8) and moves up the board.
    White,
    /// Starts on the low labels (1..12 on 8×8) and moves down the board.
    Black,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `"white"` or `"black"`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The FEN letter, `W` or `B`.
    pub fn fen_char(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

/// A piece: its colour and whether it is a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// A king (dama) rather than a man.
    pub king: bool,
}

/// A playing square, by its numeric label (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with numeric label `label`, if `1 <= label <= 64`.
    /// Whether it lies on a given board is [`Geometry::contains`]'s question.
    pub fn new(label: u32) -> Option<Square> {
        (1..=MAX_SQUARES as u32)
            .contains(&label)
            .then_some(Square(label as u8))
    }

    /// The square of bit `index` (0-based).
    ///
    /// # Panics
    /// When `index >= 64`; callers pass indices taken from a [`Bitboard`].
    pub fn from_index(index: usize) -> Square {
        assert!(index < MAX_SQUARES, "square index out of range");
        Square(index as u8 + 1)
    }

    /// The numeric label, 1-based.
    pub fn label(self) -> u32 {
        self.0 as u32
    }

    /// The bit index, 0-based.
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The one-square [`Bitboard`].
    pub fn bit(self) -> Bitboard {
        1u64 << self.index()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The squares of a bitboard, lowest label first.
pub fn squares(mut board: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if board == 0 {
            None
        } else {
            let index = board.trailing_zeros() as usize;
            board &= board - 1;
            Some(Square::from_index(index))
        }
    })
}

/// A direction as White sees the board: "up" is towards label 1. The four
/// diagonals are where pieces move; the four orthogonal directions are
/// where Frisian pieces also capture: on the playing squares the next
/// square along a file is two rows away, along a row two columns away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards the top left.
    UpLeft = 0,
    /// Towards the top right.
    UpRight = 1,
    /// Towards the bottom left.
    DownLeft = 2,
    /// Towards the bottom right.
    DownRight = 3,
    /// Up the file (two rows up).
    Up = 4,
    /// Down the file (two rows down).
    Down = 5,
    /// Left along the row (two columns left).
    Left = 6,
    /// Right along the row (two columns right).
    Right = 7,
}

impl Direction {
    /// All four diagonal directions.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// The four orthogonal directions (Frisian captures).
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// All eight directions: the diagonals first.
    pub const EVERY: [Direction; 8] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The row and column steps of one move this way.
    fn delta(self) -> (i32, i32) {
        match self {
            Direction::UpLeft => (-1, -1),
            Direction::UpRight => (-1, 1),
            Direction::DownLeft => (1, -1),
            Direction::DownRight => (1, 1),
            Direction::Up => (-2, 0),
            Direction::Down => (2, 0),
            Direction::Left => (0, -2),
            Direction::Right => (0, 2),
        }
    }

    /// The two directions a man of `color` moves in.
    pub fn forward(color: Color) -> [Direction; 2] {
        match color {
            Color::White => [Direction::UpLeft, Direction::UpRight],
            Color::Black => [Direction::DownLeft, Direction::DownRight],
        }
    }

    /// Whether this way is forward for `color`: one of
    /// [`Direction::forward`], or straight up the file for White and down
    /// it for Black (sideways is neither forward nor backward).
    #[inline]
    pub fn is_forward(self, color: Color) -> bool {
        match self {
            Direction::UpLeft | Direction::UpRight | Direction::Up => color == Color::White,
            Direction::DownLeft | Direction::DownRight | Direction::Down => color == Color::Black,
            Direction::Left | Direction::Right => false,
        }
    }
}

const NONE: u8 = u8::MAX;

/// Which bottom corner of the board, as White sees it, is a playing square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Corner {
    /// The bottom-left corner (`a1`): English, Russian, Brazilian, Filipino
    /// (Vismin board), Czech, pool and International draughts.
    Left,
    /// The bottom-right corner: the Italian and Spanish boards.
    Right,
}

/// Where square 1 is and which way the numbers run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Numbering {
    /// Row by row from the top (Black's side), left to right as White sees
    /// the board: English, International, Italian and most others.
    FromTop,
    /// Row by row from the bottom (White's side), right to left: the Spanish
    /// numbering, the same squares as [`Numbering::FromTop`] counted from
    /// the other end (square `s` here is square `count + 1 - s` there).
    FromBottom,
}

/// The shape of a board: its size, which squares exist and which square lies
/// next to which along each direction. With [`Corner::Left`] (the usual
/// board) the playing squares are those whose row and column (both counted
/// from 0 at the top left) add up to an odd number, so square 1 is the second
/// square of the top row, as on the English 8×8 and the 10×10 boards; with
/// [`Corner::Right`] they are the others, so square 1 is the top-left corner.
/// The [`Numbering`] says where the count starts.
#[derive(Debug)]
pub struct Geometry {
    width: u8,
    height: u8,
    corner: Corner,
    numbering: Numbering,
    count: u8,
    neighbors: [[u8; 8]; MAX_SQUARES],
    rows: [u8; MAX_SQUARES],
    cols: [u8; MAX_SQUARES],
    /// Per direction, the steps of the squares of even and of odd rows, for
    /// working on whole bitboards at once.
    steps: [[Step; 2]; 8],
    /// The top and the bottom row.
    edges: [Bitboard; 2],
}

/// One step along a direction, for the squares of one row parity: the
/// squares (`from`) that have a neighbour that way, and how far along the
/// square numbering it stands, as the right rotation that takes a
/// neighbour's bit back to its source's. A rotation rather than a shift
/// either way: one instruction, no branch on the sign, and exact on the
/// squares of `from`, whose neighbours are all on the board.
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    from: Bitboard,
    /// The delta, modulo 64.
    rotate: u8,
}

/// Why a board size cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a {width}x{height} board is not supported: width and height must be even, at least 4, with at most 64 playing squares"
)]
pub struct GeometryError {
    /// The width asked for.
    pub width: u32,
    /// The height asked for.
    pub height: u32,
}

impl PartialEq for Geometry {
    fn eq(&self, other: &Geometry) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.corner == other.corner
            && self.numbering == other.numbering
    }
}

impl Eq for Geometry {}

impl Geometry {
    /// The geometry of a `width` × `height` board whose bottom-left corner is
    /// a playing square, built once and shared.
    ///
    /// # Errors
    /// When the size is odd, smaller than 4 or has more than 64 playing squares.
    pub fn get(width: u32, height: u32) -> Result<&'static Geometry, GeometryError> {
        Geometry::get_with(width, height, Corner::Left, Numbering::FromTop)
    }

    /// The geometry of a `width` × `height` board with playing squares in the
    /// given corner, numbered as given, built once and shared.
    ///
    /// # Errors
    /// When the size is odd, smaller than 4 or has more than 64 playing squares.
    pub fn get_with(
        width: u32,
        height: u32,
        corner: Corner,
        numbering: Numbering,
    ) -> Result<&'static Geometry, GeometryError> {
        static CACHE: OnceLock<Mutex<Vec<&'static Geometry>>> = OnceLock::new();
        let valid = width.is_multiple_of(2)
            && height.is_multiple_of(2)
            && width >= 4
            && height >= 4
            && (width * height / 2) as usize <= MAX_SQUARES;
        if !valid {
            return Err(GeometryError { width, height });
        }
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut cache = cache.lock().unwrap_or_else(|poison| poison.into_inner());
        if let Some(found) = cache.iter().find(|g| {
            g.width as u32 == width
                && g.height as u32 == height
                && g.corner == corner
                && g.numbering == numbering
        }) {
            return Ok(found);
        }
        let built: &'static Geometry = Box::leak(Box::new(Geometry::build(
            width as u8,
            height as u8,
            corner,
            numbering,
        )));
        cache.push(built);
        Ok(built)
    }

    /// The 8×8 board of Dama, checkers, pool and Russian draughts.
    pub fn standard() -> &'static Geometry {
        static STANDARD: OnceLock<&'static Geometry> = OnceLock::new();
        STANDARD.get_or_init(|| Geometry::get(8, 8).expect("8x8 is a valid board"))
    }

    /// The 10×10 board of International draughts.
    pub fn international() -> &'static Geometry {
        static BOARD: OnceLock<&'static Geometry> = OnceLock::new();
        BOARD.get_or_init(|| Geometry::get(10, 10).expect("10x10 is a valid board"))
    }

    /// The Italian board: 8×8 with its bottom-right corner a playing
    /// square, numbered from the top-left corner.
    pub fn italian() -> &'static Geometry {
        static BOARD: OnceLock<&'static Geometry> = OnceLock::new();
        BOARD.get_or_init(|| {
            Geometry::get_with(8, 8, Corner::Right, Numbering::FromTop)
                .expect("8x8 is a valid board")
        })
    }

    /// The Spanish board: the Italian board numbered from White's
    /// bottom-right corner.
    pub fn spanish() -> &'static Geometry {
        static BOARD: OnceLock<&'static Geometry> = OnceLock::new();
        BOARD.get_or_init(|| {
            Geometry::get_with(8, 8, Corner::Right, Numbering::FromBottom)
                .expect("8x8 is a valid board")
        })
    }

    fn build(width: u8, height: u8, corner: Corner, numbering: Numbering) -> Geometry {
        let per_row = width / 2;
        let count = per_row * height;
        let mut geometry = Geometry {
            width,
            height,
            corner,
            numbering,
            count,
            neighbors: [[NONE; 8]; MAX_SQUARES],
            rows: [0; MAX_SQUARES],
            cols: [0; MAX_SQUARES],
            steps: [[Step::default(); 2]; 8],
            edges: [0; 2],
        };
        for index in 0..count {
            // The place of the square counted from the top left.
            let from_top = match numbering {
                Numbering::FromTop => index,
                Numbering::FromBottom => count - 1 - index,
            };
            let row = from_top / per_row;
            let col = 2 * (from_top % per_row) + geometry.first_col(row);
            geometry.rows[index as usize] = row;
            geometry.cols[index as usize] = col;
        }
        geometry.edges = [
            geometry.rows_where(|row| row == 0),
            geometry.rows_where(|row| row == height - 1),
        ];
        for index in 0..count as usize {
            let (row, col) = (geometry.rows[index] as i32, geometry.cols[index] as i32);
            for (d, (dr, dc)) in Direction::EVERY
                .map(Direction::delta)
                .into_iter()
                .enumerate()
            {
                geometry.neighbors[index][d] = geometry
                    .at(row + dr, col + dc)
                    .map_or(NONE, |sq| sq.index() as u8);
                if let Some(next) = geometry.at(row + dr, col + dc) {
                    // Within one row parity every step has the same delta.
                    let step = &mut geometry.steps[d][(row % 2) as usize];
                    step.from |= 1u64 << index;
                    let delta = next.index() as i32 - index as i32;
                    step.rotate = delta.rem_euclid(64) as u8;
                }
            }
        }
        geometry
    }

    /// The squares whose neighbour along `direction` is in `targets`.
    #[inline]
    pub(crate) fn step_sources(&self, direction: Direction, targets: Bitboard) -> Bitboard {
        let [even, odd] = self.steps[direction as usize];
        let back = |step: Step| targets.rotate_right(u32::from(step.rotate)) & step.from;
        back(even) | back(odd)
    }

    /// The neighbours along `direction` of the squares of `sources`.
    #[inline]
    pub(crate) fn step_targets(&self, direction: Direction, sources: Bitboard) -> Bitboard {
        let [even, odd] = self.steps[direction as usize];
        let ahead = |step: Step| (sources & step.from).rotate_left(u32::from(step.rotate));
        ahead(even) | ahead(odd)
    }

    /// Board width in squares.
    pub fn width(&self) -> u32 {
        self.width as u32
    }

    /// Board height in squares.
    pub fn height(&self) -> u32 {
        self.height as u32
    }

    /// Which bottom corner is a playing square.
    pub fn corner(&self) -> Corner {
        self.corner
    }

    /// Where square 1 is.
    pub fn numbering(&self) -> Numbering {
        self.numbering
    }

    /// The column (0 or 1) of the first playing square of a row.
    fn first_col(&self, row: u8) -> u8 {
        // The bottom row starts with a playing square exactly when the
        // bottom-left corner is one; rows alternate from there.
        let bottom_starts = self.corner == Corner::Left;
        let starts = bottom_starts == (self.height - 1 - row).is_multiple_of(2);
        if starts { 0 } else { 1 }
    }

    /// Number of playing squares.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Always false: every board has playing squares.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Every playing square.
    pub fn all(&self) -> Bitboard {
        if self.count as usize == MAX_SQUARES {
            u64::MAX
        } else {
            (1u64 << self.count) - 1
        }
    }

    /// Whether the square lies on this board.
    pub fn contains(&self, square: Square) -> bool {
        square.index() < self.count as usize
    }

    /// The square at `row`, `col` (0-based from the top left as White sees
    /// the board), if it is a playing square.
    pub fn at(&self, row: i32, col: i32) -> Option<Square> {
        if row < 0 || col < 0 || row >= self.height as i32 || col >= self.width as i32 {
            return None;
        }
        if col % 2 != self.first_col(row as u8) as i32 {
            return None;
        }
        let per_row = (self.width / 2) as i32;
        let from_top = row * per_row + col / 2;
        let index = match self.numbering {
            Numbering::FromTop => from_top,
            Numbering::FromBottom => self.count as i32 - 1 - from_top,
        };
        Square::new((index + 1) as u32)
    }

    /// Row of a square, 0 at the top.
    pub fn row(&self, square: Square) -> u32 {
        self.rows[square.index()] as u32
    }

    /// Column of a square, 0 at the left.
    pub fn col(&self, square: Square) -> u32 {
        self.cols[square.index()] as u32
    }

    /// The next square along `direction`, if there is one.
    #[inline]
    pub fn neighbor(&self, square: Square, direction: Direction) -> Option<Square> {
        self.step(square.index(), direction).map(Square::from_index)
    }

    /// Index-level neighbour lookup for the move generator.
    #[inline]
    pub(crate) fn step(&self, index: usize, direction: Direction) -> Option<usize> {
        let next = self.neighbors[index][direction as usize];
        (next != NONE).then_some(next as usize)
    }

    /// The row where men of `color` are crowned: the top row for White,
    /// the bottom row for Black.
    #[inline]
    pub fn crowning_row(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.edges[0],
            Color::Black => self.edges[1],
        }
    }

    /// The squares each side starts on: the top `rows` rows for Black and the
    /// bottom `rows` rows for White.
    pub fn start_rows(&self, rows: u32) -> (Bitboard, Bitboard) {
        let rows = rows.min(self.height as u32) as u8;
        let white = self.rows_where(|row| row >= self.height - rows);
        let black = self.rows_where(|row| row < rows);
        (white, black)
    }

    /// The squares of the rows that pass `keep`.
    fn rows_where(&self, keep: impl Fn(u8) -> bool) -> Bitboard {
        (0..self.count as usize)
            .filter(|&i| keep(self.rows[i]))
            .fold(0, |set, i| set | 1u64 << i)
    }
}

/// `"white"` or `"black"`, as in JSON everywhere.
impl serde::Serialize for Color {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(label: u32) -> Square {
        Square::new(label).unwrap()
    }

    #[test]
    fn standard_board_has_32_squares_and_right_corners() {
        let g = Geometry::standard();
        assert_eq!(g.len(), 32);
        assert_eq!(g.at(0, 1), Some(sq(1)));
        assert_eq!(g.at(1, 0), Some(sq(5)));
        assert_eq!(g.at(7, 0), Some(sq(29)));
        assert_eq!(g.at(7, 6), Some(sq(32)));
        assert_eq!(g.at(0, 0), None);
    }

    #[test]
    fn neighbours_follow_the_diagonals() {
        let g = Geometry::standard();
        // 23 moves up to 18 or 19; 18 jumps over 14/15.
        assert_eq!(g.neighbor(sq(23), Direction::UpLeft), Some(sq(18)));
        assert_eq!(g.neighbor(sq(23), Direction::UpRight), Some(sq(19)));
        assert_eq!(g.neighbor(sq(18), Direction::UpLeft), Some(sq(14)));
        assert_eq!(g.neighbor(sq(18), Direction::UpRight), Some(sq(15)));
        assert_eq!(g.neighbor(sq(29), Direction::DownLeft), None);
        assert_eq!(g.neighbor(sq(5), Direction::UpLeft), None);
        assert_eq!(g.neighbor(sq(5), Direction::UpRight), Some(sq(1)));
        assert_eq!(g.neighbor(sq(4), Direction::DownLeft), Some(sq(8)));
        assert_eq!(g.neighbor(sq(4), Direction::DownRight), None);
    }

    #[test]
    fn neighbour_relation_is_symmetric_on_every_board() {
        for (w, h) in [(8, 8), (10, 10), (6, 6), (12, 10)] {
            let g = Geometry::get(w, h).unwrap();
            for s in squares(g.all()) {
                for (d, back) in [
                    (Direction::UpLeft, Direction::DownRight),
                    (Direction::UpRight, Direction::DownLeft),
                ] {
                    if let Some(n) = g.neighbor(s, d) {
                        assert_eq!(g.neighbor(n, back), Some(s));
                    }
                }
            }
        }
    }

    #[test]
    fn ten_by_ten_has_fifty_squares() {
        let g = Geometry::get(10, 10).unwrap();
        assert_eq!(g.len(), 50);
        assert_eq!(g.at(9, 0), Some(sq(46)));
        let (white, black) = g.start_rows(4);
        assert_eq!(black.count_ones(), 20);
        assert_eq!(white.count_ones(), 20);
        assert_eq!(white.trailing_zeros(), 30);
    }

    #[test]
    fn crowning_rows_and_start_rows() {
        let g = Geometry::standard();
        assert_eq!(g.crowning_row(Color::White), 0b1111);
        assert_eq!(g.crowning_row(Color::Black), 0b1111 << 28);
        let (white, black) = g.start_rows(3);
        assert_eq!(black, 0xFFF);
        assert_eq!(white, 0xFFF << 20);
    }

    /// The bitboard of the square indices given.
    fn board_of(indices: impl Iterator<Item = usize>) -> Bitboard {
        indices.fold(0, |b, s| b | 1 << s)
    }

    #[test]
    fn whole_board_steps_agree_with_neighbours() {
        let boards = [(4, 4), (6, 6), (8, 8), (10, 10), (12, 10), (4, 8), (16, 8)]
            .into_iter()
            .map(|(w, h)| Geometry::get(w, h).unwrap())
            .chain([Geometry::italian(), Geometry::spanish()]);
        for g in boards {
            let (width, height) = (g.width(), g.height());
            for direction in Direction::EVERY {
                let step = |s: usize| g.step(s, direction);
                for square in 0..g.len() {
                    let sources = board_of((0..g.len()).filter(|&s| step(s) == Some(square)));
                    assert_eq!(
                        g.step_sources(direction, 1 << square),
                        sources,
                        "{width}x{height} {direction:?} {square}"
                    );
                    assert_eq!(
                        g.step_targets(direction, 1 << square),
                        board_of(step(square).into_iter()),
                        "{width}x{height} {direction:?} {square}"
                    );
                }
                let all = 0..g.len();
                assert_eq!(
                    g.step_sources(direction, g.all()),
                    board_of(all.clone().filter(|&s| step(s).is_some()))
                );
                assert_eq!(
                    g.step_targets(direction, g.all()),
                    board_of(all.filter_map(step))
                );
            }
        }
    }

    #[test]
    fn italian_and_spanish_boards_are_mirrored_and_numbered_their_ways() {
        // Italian: square 1 is the top-left corner, 32 the bottom-right.
        let g = Geometry::italian();
        assert_eq!(g.at(0, 0), Some(sq(1)));
        assert_eq!(g.at(0, 1), None);
        assert_eq!(g.at(7, 7), Some(sq(32)));
        assert_eq!(g.at(7, 1), Some(sq(29)));
        // 12-15 and 21-17 are moves there (the first moves of Italian files).
        assert_eq!(g.neighbor(sq(12), Direction::DownLeft), Some(sq(15)));
        assert_eq!(g.neighbor(sq(21), Direction::UpLeft), Some(sq(17)));
        // Spanish: the same squares counted from White's bottom-right.
        let s = Geometry::spanish();
        for label in 1..=32 {
            let (row, col) = (g.row(sq(label)), g.col(sq(label)));
            assert_eq!(s.at(row as i32, col as i32), Some(sq(33 - label)));
        }
        assert_eq!(s.at(7, 7), Some(sq(1)));
        assert_eq!(s.at(0, 0), Some(sq(32)));
        let (white, black) = s.start_rows(3);
        assert_eq!((white, black), (0xFFF, 0xFFF << 20));
        assert_eq!(s.crowning_row(Color::White), 0b1111 << 28);
        // 10-14 then 23-19: a Spanish opening.
        assert_eq!(s.neighbor(sq(10), Direction::UpLeft), Some(sq(14)));
        assert_eq!(s.neighbor(sq(23), Direction::DownRight), Some(sq(19)));
    }

    #[test]
    fn orthogonal_neighbours_are_two_rows_or_two_columns_away() {
        // As lidraughts' Pos100: from 23, up 13, down 33, left 22, right 24.
        let g = Geometry::international();
        assert_eq!(g.neighbor(sq(23), Direction::Up), Some(sq(13)));
        assert_eq!(g.neighbor(sq(23), Direction::Down), Some(sq(33)));
        assert_eq!(g.neighbor(sq(23), Direction::Left), Some(sq(22)));
        assert_eq!(g.neighbor(sq(23), Direction::Right), Some(sq(24)));
        assert_eq!(g.neighbor(sq(6), Direction::Up), None);
        assert_eq!(g.neighbor(sq(26), Direction::Left), None);
        assert_eq!(g.neighbor(sq(45), Direction::Right), None);
        for s in squares(g.all()) {
            for (d, back) in [
                (Direction::Up, Direction::Down),
                (Direction::Left, Direction::Right),
            ] {
                if let Some(n) = g.neighbor(s, d) {
                    assert_eq!(g.neighbor(n, back), Some(s));
                }
            }
        }
    }

    #[test]
    fn odd_or_oversized_boards_are_refused() {
        assert!(Geometry::get(7, 8).is_err());
        assert!(Geometry::get(12, 12).is_err());
    }
}
