//! One game as read: tags, the main line with its variations, comments and
//! annotations, the result, and the hints the text alone gives.

use compact_str::CompactString;

use crate::notation::{MoveToken, Notation, Orientation, SquareToken, TokenError};
use crate::rules::{Color, Corner, Rules, Square};

use super::decode::MovetextMap;
use super::error::{Diagnostic, Position};
use super::text_encoding::TextEncoding;

/// One game of a PDN file, as written.
///
/// Nothing here is checked against the rules: the moves are tokens, read
/// without a position. Replay decides what they mean.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// 1-based index of the game in its input.
    pub index: u64,
    /// Where the game starts: its first tag, or its first move (or comment)
    /// when it has no tags.
    pub start: Position,
    /// The tags in the order written, duplicates kept.
    pub tags: Vec<Tag>,
    /// The main line: comments before the first move, then the plies.
    pub line: Line,
    /// The result terminator as written; `None` when the game has none (a
    /// warning says so).
    pub result: Option<GameResult>,
    /// The movetext as written (decoded), from its first character up to and
    /// including the result, so that an export can keep what follows a fault.
    pub movetext: String,
    /// Where [`Game::movetext`] starts.
    pub movetext_start: Position,
    /// What [`Game::position_of`] needs besides the movetext.
    pub(crate) movetext_map: MovetextMap,
    /// How the game's text was decoded: the input's encoding, but UTF-8
    /// for a game whose bytes are ASCII, or valid UTF-8 in an input whose
    /// encoding was detected as a legacy one (inputs joined from several
    /// sources mix them).
    pub encoding: TextEncoding,
    /// What the text alone tells about variant, notation and set-up.
    pub hints: Hints,
    /// Warnings and errors met while reading this game, in text order
    /// (junk skipped just before the game comes first).
    pub diagnostics: Vec<Diagnostic>,
}

impl Game {
    /// The value of the first tag named `name`, compared without case.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| t.value.as_str())
    }

    /// The value of the standard tag `name` (`White`, `Black`, `Event`,
    /// `Site`, `Date`, `Round`, `Result`): the first tag of that name,
    /// compared without case; when the game has none, the first tag named
    /// by one of its names in other languages (`Bianco` for `White`, …:
    /// see [`TAG_ALIASES`](super::TAG_ALIASES)). The tags themselves stay
    /// as written. For any other name, the same as [`Game::tag`].
    pub fn standard_tag(&self, name: &str) -> Option<&str> {
        super::tags::standard_tag(
            self.tags
                .iter()
                .map(|t| (t.name.as_str(), t.value.as_str())),
            name,
        )
    }

    /// The name of the player of `color`, the game's first side being
    /// `first`: its `White` or `Black` tag, else PlayStrategy's `P1` (the
    /// first side) or `P2` (see [`player_tag`](super::player_tag)).
    pub fn player(&self, color: Color, first: Color) -> Option<&str> {
        super::tags::player_tag(
            self.tags
                .iter()
                .map(|t| (t.name.as_str(), t.value.as_str())),
            color,
            first,
        )
    }

    /// Every tag named `name`, compared without case, in order.
    pub fn tags_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Tag> + 'a {
        self.tags
            .iter()
            .filter(move |t| t.name.eq_ignore_ascii_case(name))
    }

    /// The plies of the main line.
    pub fn plies(&self) -> &[Ply] {
        &self.line.plies
    }

    /// The text of `ply`, a ply of this game (of its main line or a
    /// variation), as written.
    pub fn ply_text<'a>(&'a self, ply: &'a Ply) -> &'a str {
        ply.text(&self.movetext)
    }

    /// Where `ply`, a ply of this game (of its main line or a variation),
    /// stands in the input. Worked out from the movetext, in time linear in
    /// its length.
    pub fn position_of(&self, ply: &Ply) -> Position {
        self.movetext_map.locate(
            &self.movetext,
            self.movetext_start,
            self.encoding,
            ply.offset as usize,
        )
    }

    /// Whether any diagnostic of this game is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// About how many bytes the game holds in memory: its text, tags,
    /// plies (with their variations and comments) and diagnostics. A ply
    /// takes far more room than its token, so this, not the text's
    /// length, is what bounds the memory of games held.
    pub fn memory_size(&self) -> usize {
        std::mem::size_of::<Game>()
            + self.movetext.capacity()
            + self.tags.capacity() * std::mem::size_of::<Tag>()
            + self.line.memory_size()
            + self
                .diagnostics
                .iter()
                .map(|d| std::mem::size_of::<Diagnostic>() + d.message.len())
                .sum::<usize>()
    }
}

/// A tag pair `[Name "value"]`. Name and value are held inline when
/// short, as most are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name as written (case kept).
    pub name: CompactString,
    /// The value with `\"` and `\\` unescaped.
    pub value: CompactString,
    /// Where the tag's `[` stands.
    pub position: Position,
}

/// A line of play: the main line or a variation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    /// Where the line starts: the `(` of a variation; the first item of the
    /// main line.
    pub position: Position,
    /// Comments before the first move.
    pub comments: Vec<Comment>,
    /// Set-up commands `/FEN "…"/` before the first move.
    pub setups: Vec<SetupCommand>,
    /// The moves in order.
    pub plies: Vec<Ply>,
}

impl Line {
    /// About how many bytes the line holds in memory (see
    /// [`Game::memory_size`]).
    pub fn memory_size(&self) -> usize {
        let comments = |list: &[Comment]| -> usize {
            list.iter()
                .map(|c| std::mem::size_of::<Comment>() + c.text.len())
                .sum()
        };
        let plies: usize = self
            .plies
            .iter()
            .filter_map(|p| p.after.as_deref())
            .map(|a| {
                std::mem::size_of::<AfterMove>()
                    + a.nags.capacity() * std::mem::size_of::<Nag>()
                    + comments(&a.comments)
                    + a.variations.iter().map(Line::memory_size).sum::<usize>()
            })
            .sum();
        self.plies.capacity() * std::mem::size_of::<Ply>() + comments(&self.comments) + plies
    }
}

/// One move of a line, with what is written after it.
///
/// What follows a move (annotations, comments, set-up commands,
/// variations) is held apart, behind one pointer that stays empty for
/// most moves: a game holds many moves and few of them carry any.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// The move number written just before it, if any.
    pub number: Option<MoveNumber>,
    /// The token as written (spaces inside kept, as in `1- 7`):
    /// [`Ply::text`] (or [`Game::ply_text`]) gives it.
    pub text: PlyText,
    /// What the token is.
    pub token: PlyToken,
    /// Where the token starts: its byte offset in the game's movetext
    /// ([`Game::movetext`]); [`Game::position_of`] gives its place in the
    /// input.
    pub offset: u32,
    /// What is written after the move, up to the next move; `None` when
    /// nothing is (never an empty [`AfterMove`]).
    pub after: Option<Box<AfterMove>>,
}

// A game holds many plies, each written once as it is read: keep them
// small (what few plies carry is held behind a pointer).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Ply>() <= 72);

/// What is written after a move, up to the next move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AfterMove {
    /// Numeric glyphs and move-strength marks after the move.
    pub nags: Vec<Nag>,
    /// Comments after the move (up to the next move).
    pub comments: Vec<Comment>,
    /// Set-up commands after the move.
    pub setups: Vec<SetupCommand>,
    /// Variations after the move: each is an alternative to this ply and
    /// replays from the position before it.
    pub variations: Vec<Line>,
}

impl AfterMove {
    /// Whether nothing is written after the move.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty()
            && self.comments.is_empty()
            && self.setups.is_empty()
            && self.variations.is_empty()
    }
}

impl Ply {
    /// A ply made rather than read (an export's), with its own text; its
    /// offset is 0.
    pub fn made(text: &str, token: PlyToken) -> Ply {
        Ply {
            number: None,
            text: PlyText::Own(text.into()),
            token,
            offset: 0,
            after: None,
        }
    }

    /// The token as written, `movetext` being the movetext of the game the
    /// ply was read from ([`Game::movetext`]); empty when the ply is not
    /// in it.
    pub fn text<'a>(&'a self, movetext: &'a str) -> &'a str {
        match &self.text {
            PlyText::Written { len } => {
                let start = self.offset as usize;
                movetext.get(start..start + *len as usize).unwrap_or("")
            }
            PlyText::Own(text) => text,
        }
    }

    /// The move token, when the text is one.
    pub fn move_token(&self) -> Option<&MoveToken> {
        match &self.token {
            PlyToken::Move(token) => Some(token),
            _ => None,
        }
    }

    /// Numeric glyphs and move-strength marks after the move.
    pub fn nags(&self) -> &[Nag] {
        self.after.as_deref().map_or(&[], |a| &a.nags)
    }

    /// Comments after the move (up to the next move).
    pub fn comments(&self) -> &[Comment] {
        self.after.as_deref().map_or(&[], |a| &a.comments)
    }

    /// Set-up commands after the move.
    pub fn setups(&self) -> &[SetupCommand] {
        self.after.as_deref().map_or(&[], |a| &a.setups)
    }

    /// Variations after the move: each is an alternative to this ply and
    /// replays from the position before it.
    pub fn variations(&self) -> &[Line] {
        self.after.as_deref().map_or(&[], |a| &a.variations)
    }

    /// What is written after the move, made when there was nothing yet, to
    /// add to.
    pub fn after_mut(&mut self) -> &mut AfterMove {
        self.after.get_or_insert_with(Box::default)
    }

    /// Sets what is written after the move (`None` when that is nothing).
    pub fn set_after(&mut self, after: AfterMove) {
        self.after = (!after.is_empty()).then(|| Box::new(after));
    }
}

/// Where a ply's text is: a ply read from a game's text keeps only the
/// length of its token, which stands in the game's movetext at its offset
/// (reading a move then copies none of its bytes); a ply made for an output
/// holds its own text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlyText {
    /// This many bytes of the movetext, from the ply's offset.
    Written {
        /// The token's length in bytes.
        len: u32,
    },
    /// Text of its own.
    Own(Box<str>),
}

/// What a ply's text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlyToken {
    /// A move: squares joined by `-`, `x`, `×` or `:`.
    Move(MoveToken),
    /// An unknown move, written `- -` (or `--`).
    Unknown,
    /// Text standing where a move should, that is not one (why, held
    /// apart: few plies are).
    Invalid(Box<TokenError>),
}

/// A move number as written: `12.` or `12...` (also `12. ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The number (zero-padded numbers such as `01.` read as 1).
    pub number: u32,
    /// Whether dots mark the move as the second side's (`12...`).
    pub ellipsis: bool,
}

/// An annotation of a move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Nag {
    /// A numeric annotation glyph `$n`.
    Glyph(u32),
    /// A move-strength mark as written: `!`, `?!`, `!!`, or one in
    /// parentheses such as `(!?)`.
    Mark(String),
}

impl Nag {
    /// The annotation as people read it: a glyph `$n` by the table PDN
    /// takes from PGN (`$1` `!`, `$2` `?`, `$3` `!!`, `$4` `??`, `$5` `!?`,
    /// `$6` `?!`, `$7` `□` forced, `$10` `=`, `$13` `∞`, `$14`–`$19` the
    /// advantage signs, `$22`/`$23` `⨀` zugzwang, `$146` `N` novelty);
    /// another glyph as `$n`; a mark as written.
    pub fn shown(&self) -> String {
        let glyph = match self {
            Nag::Mark(mark) => return mark.clone(),
            Nag::Glyph(n) => *n,
        };
        let sign = match glyph {
            1 => "!",
            2 => "?",
            3 => "!!",
            4 => "??",
            5 => "!?",
            6 => "?!",
            7 | 8 => "□",
            10..=12 => "=",
            13 => "∞",
            14 => "⩲",
            15 => "⩱",
            16 => "±",
            17 => "∓",
            18 => "+−",
            19 => "−+",
            22 | 23 => "⨀",
            146 => "N",
            _ => return format!("${glyph}"),
        };
        sign.to_string()
    }

    /// Whether [`Nag::shown`] is a move-strength mark (`!`, `?`, `!?`, …),
    /// written against its move rather than after a space.
    pub fn is_strength(&self) -> bool {
        match self {
            Nag::Mark(_) => true,
            Nag::Glyph(n) => (1..=6).contains(n),
        }
    }
}

/// A comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The text without its delimiters (CRLF read as LF).
    pub text: String,
    /// How it was written.
    pub kind: CommentKind,
    /// Where it starts (its `{` or `;`, or the first character of bare text).
    pub position: Position,
}

/// How a comment was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// Between braces `{…}`.
    Brace,
    /// After `;` to the end of the line.
    Line,
    /// Text outside braces that is not a move (glued to a move, or words
    /// standing between moves), kept with a warning.
    Bare,
}

/// A set-up command `/FEN "…"/` in the movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupCommand {
    /// The text between the slashes, as written.
    pub text: String,
    /// The FEN inside, when the command is `FEN "…"`.
    pub fen: Option<String>,
    /// Where its first `/` stands.
    pub position: Position,
}

/// A result terminator as written: `1-0`, `0-1`, `2-0`, `0-2`, `1-1`, `0-0`,
/// `1/2-1/2`, `½-½`, `*`, or `-` alone where the result stands (unknown, as
/// `*`). What it means depends on the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The text, as written.
    pub text: String,
    /// Where it stands.
    pub position: Position,
}

/// What the text of a game tells without replaying it. Choosing the variant
/// and notation is replay's job; these are its evidence.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// The `GameType` tag, parsed when well formed.
    pub game_type: Option<GameTypeHint>,
    /// The `Variant` tag.
    pub variant: Option<String>,
    /// The `Notation` tag (pdndb writes `Dama` for the Dama notation).
    pub notation: Option<String>,
    /// The set-up: the `FEN` tag, else the first `/FEN "…"/` command
    /// before the first move of the main line (one after a move does not
    /// start the game).
    pub fen: Option<FenHint>,
    /// Whether the main line's moves use numbers, letters or both.
    pub squares: SquareStyle,
    /// The board orientation the main line's algebraic squares belong to;
    /// `None` without algebraic squares or when they mix both boards.
    pub orientation: Option<Orientation>,
    /// Whether the algebraic squares mix both orientations (a warning says so).
    pub mixed_orientation: bool,
    /// The largest square number in the main line; above 32 points to a
    /// larger board (International 10×10 has 50).
    pub max_square: Option<u32>,
    /// Whether, in some line, a capture starts on the square where the
    /// capture just before it ended: captures written one jump per move.
    pub split_captures: bool,
    /// Whether the main line has a `/FEN "…"/` set-up command after a move
    /// (which does not start the game).
    pub later_setup: bool,
}

/// Where a FEN came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenHint {
    /// The FEN text as written.
    pub fen: String,
    /// Whether it is a tag or a set-up command.
    pub source: FenSource,
}

/// Where a FEN was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenSource {
    /// A `[FEN "…"]` tag.
    Tag,
    /// A `/FEN "…"/` command in the movetext.
    Command,
}

/// Which kind of squares the moves use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SquareStyle {
    /// No move was read.
    #[default]
    None,
    /// Numbers only (numeric or Dama notation).
    Numbers,
    /// Letters and digits only (algebraic).
    Letters,
    /// Both, in different moves.
    Mixed,
}

/// A `GameType` tag: parsed, or kept as written when malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameTypeHint {
    /// Well formed (the type number may still be one pdndb does not know).
    Parsed(GameType),
    /// Not of the form `type[,first,width,height,notation+corner[,invert]]`;
    /// the value as written.
    Malformed(String),
}

/// A well-formed `GameType` value: `type[,first,width,height,notation+corner[,invert]]`,
/// e.g. `21,B,8,8,N1,0` or `20`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameType {
    /// The value as written.
    pub raw: String,
    /// The type number (20 International, 21 English, 25 Russian, 26
    /// Brazilian, …).
    pub number: u32,
    /// The board part, when written.
    pub board: Option<BoardSpec>,
}

/// The board part of a `GameType`: `first,width,height,notation+corner[,invert]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSpec {
    /// The side that moves first.
    pub first: Color,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The notation letter: `A` algebraic, `N` numeric, `S` short (SAN).
    pub notation: char,
    /// The corner digit after the notation letter (0..3).
    pub corner: u8,
    /// The invert flag (`1` mirrors the algebraic board), when written.
    pub invert: Option<bool>,
}

impl GameType {
    /// Parses a `GameType` value; spaces around the commas are allowed.
    /// `None` when it is not of the documented form.
    pub fn parse(raw: &str) -> Option<GameType> {
        // At most six fields, held in place (a value is read for every
        // game that has one); the comma as a set of one, which is searched
        // for a character at a time, faster than a search on values this
        // short.
        let mut fields = [""; 6];
        let mut count = 0;
        for field in raw.split([',']) {
            *fields.get_mut(count)? = field.trim();
            count += 1;
        }
        let number = fields[0].parse().ok()?;
        let rest = &fields[1..count];
        let board = match rest {
            [] => None,
            [first, width, height, code] | [first, width, height, code, _] => {
                let first = match *first {
                    "W" | "w" => Color::White,
                    "B" | "b" => Color::Black,
                    _ => return None,
                };
                let mut chars = code.chars();
                let notation = chars.next()?.to_ascii_uppercase();
                if !notation.is_ascii_alphabetic() {
                    return None;
                }
                let corner = chars.as_str().parse().ok()?;
                let invert = match rest.get(4) {
                    None => None,
                    Some(&"0") => Some(false),
                    Some(&"1") => Some(true),
                    Some(_) => return None,
                };
                Some(BoardSpec {
                    first,
                    width: width.parse().ok()?,
                    height: height.parse().ok()?,
                    notation,
                    corner,
                    invert,
                })
            }
            _ => return None,
        };
        Some(GameType {
            raw: raw.to_string(),
            number,
            board,
        })
    }
}

impl GameType {
    /// The `GameType` value pdndb writes for rules and a notation, as PDN
    /// 3.0 defines its fields: `T,F,W,H,` then `N` and the corner where
    /// square 1 lies as the first side sees the board (`0` bottom left, `1`
    /// bottom right, `2` top left, `3` top right), or `A0` for algebraic
    /// squares lettered from `a1`; then the invert flag, `1` when the
    /// bottom-left corner (the square called `a1`) is not a playing square.
    /// T is the preset's type number, F its first side, W and H the board's
    /// size. So `26,W,8,8,N2,0` for numeric Filipino Dama, `21,B,8,8,N1,0`
    /// for English, `22,W,8,8,N2,1` Italian, `24,W,8,8,N1,1` Spanish,
    /// `A0,1` for the Luzon board. The Dama notation has no code of its own
    /// (numeric is written): its records also carry `[Notation "Dama"]`.
    pub fn value_for(rules: &Rules, notation: Notation) -> String {
        let g = rules.geometry;
        let first = rules.first.fen_char();
        let left_playing = g.corner() == Corner::Left;
        let code = match notation {
            Notation::Vismin => format!("A0,{}", u8::from(!left_playing)),
            Notation::Luzon => format!("A0,{}", u8::from(left_playing)),
            Notation::Numeric | Notation::Dama => {
                let one = Square::new(1).filter(|s| g.contains(*s));
                let (top, left) = one.map_or((true, true), |s| {
                    (g.row(s) < g.height() / 2, g.col(s) < g.width() / 2)
                });
                // As the first side sees the board: Black sees it turned round.
                let (top, left) = match rules.first {
                    Color::White => (top, left),
                    Color::Black => (!top, !left),
                };
                let corner = match (top, left) {
                    (false, true) => 0,
                    (false, false) => 1,
                    (true, true) => 2,
                    (true, false) => 3,
                };
                format!("N{corner},{}", u8::from(!left_playing))
            }
        };
        format!(
            "{},{first},{},{},{code}",
            rules.preset.game_type(),
            g.width(),
            g.height()
        )
    }
}

impl GameTypeHint {
    /// Reads a `GameType` value.
    pub fn from_value(raw: &str) -> GameTypeHint {
        match GameType::parse(raw) {
            Some(game_type) => GameTypeHint::Parsed(game_type),
            None => GameTypeHint::Malformed(raw.to_string()),
        }
    }
}

/// What the squares of a game's main line say, gathered move by move as
/// the grammar reads them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SquareSummary {
    numbers: bool,
    letters: bool,
    /// Where the first move with a square only the Vismin board has stands.
    vismin: Option<Position>,
    /// Where the first move with a square only the Luzon board has stands.
    luzon: Option<Position>,
    max_square: Option<u32>,
}

impl SquareSummary {
    /// Takes in the next move of the main line; `position` tells where it
    /// stands, asked for only for the first move with a square of one board.
    #[inline(always)]
    pub(crate) fn add(&mut self, token: &MoveToken, mut position: impl FnMut() -> Position) {
        for square in &token.squares {
            match square {
                SquareToken::Number(n) => self.add_numbers(*n),
                SquareToken::Algebraic { .. } => {
                    self.letters = true;
                    let views = square.views();
                    if views.vismin {
                        self.vismin.get_or_insert_with(&mut position);
                    } else if views.luzon {
                        self.luzon.get_or_insert_with(&mut position);
                    }
                }
            }
        }
    }

    /// [`SquareSummary::add`] for a move whose squares are all numbers,
    /// the highest `max_square`.
    #[inline(always)]
    pub(crate) fn add_numbers(&mut self, max_square: u16) {
        self.numbers = true;
        let n = u32::from(max_square);
        self.max_square = Some(self.max_square.map_or(n, |m| m.max(n)));
    }
}

/// Works out the hints of a game from its tags and the squares of its main
/// line. Returns them with the warnings they raise (mixed orientation,
/// malformed GameType).
pub(crate) fn hints(
    tags: &[Tag],
    summary: &SquareSummary,
    commands: Option<&SetupCommand>,
) -> (Hints, Vec<(Position, String)>) {
    let mut warnings = Vec::new();
    let tag = |name: &str| tags.iter().find(|t| t.name.eq_ignore_ascii_case(name));
    let game_type = tag("GameType").map(|t| {
        let hint = GameTypeHint::from_value(t.value.trim());
        if let GameTypeHint::Malformed(raw) = &hint {
            warnings.push((
                t.position,
                format!(
                    "GameType `{raw}` is not of the form type[,first,width,height,notation[,invert]]; kept as written"
                ),
            ));
        }
        hint
    });
    let fen = match tag("FEN") {
        Some(t) => Some(FenHint {
            fen: t.value.to_string(),
            source: FenSource::Tag,
        }),
        None => commands.and_then(|c| {
            c.fen.as_ref().map(|fen| FenHint {
                fen: fen.clone(),
                source: FenSource::Command,
            })
        }),
    };
    let SquareSummary {
        numbers,
        letters,
        vismin,
        luzon,
        max_square,
    } = *summary;
    let squares = match (numbers, letters) {
        (false, false) => SquareStyle::None,
        (true, false) => SquareStyle::Numbers,
        (false, true) => SquareStyle::Letters,
        (true, true) => SquareStyle::Mixed,
    };
    let mixed_orientation = vismin.is_some() && luzon.is_some();
    let orientation = match (vismin, luzon) {
        (Some(_), None) => Some(Orientation::Vismin),
        (None, Some(_)) => Some(Orientation::Luzon),
        _ => None,
    };
    if let (Some(v), Some(l)) = (vismin, luzon) {
        let later = v.max(l);
        warnings.push((
            later,
            "algebraic squares of both boards (Vismin and Luzon) in one game: the orientation is left open"
                .to_string(),
        ));
    }
    let hints = Hints {
        game_type,
        variant: tag("Variant").map(|t| t.value.to_string()),
        notation: tag("Notation").map(|t| t.value.to_string()),
        fen,
        squares,
        orientation,
        mixed_orientation,
        max_square,
        split_captures: false,
        later_setup: false,
    };
    (hints, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nags_are_shown_as_their_signs() {
        let shown = |n| Nag::Glyph(n).shown();
        assert_eq!(
            [1, 2, 3, 4, 5, 6, 7, 13, 16, 19].map(shown),
            ["!", "?", "!!", "??", "!?", "?!", "□", "∞", "±", "−+"]
        );
        assert_eq!(shown(9), "$9");
        assert_eq!(shown(255), "$255");
        assert_eq!(Nag::Mark("(!?)".into()).shown(), "(!?)");
        assert!(Nag::Glyph(1).is_strength() && Nag::Mark("?".into()).is_strength());
        assert!(!Nag::Glyph(16).is_strength());
    }

    #[test]
    fn game_types_written_follow_the_table() {
        use crate::rules::Preset;
        let value = |preset: Preset, notation| GameType::value_for(&preset.rules(), notation);
        assert_eq!(value(Preset::Filipino, Notation::Numeric), "26,W,8,8,N2,0");
        assert_eq!(value(Preset::Filipino, Notation::Vismin), "26,W,8,8,A0,0");
        assert_eq!(value(Preset::Filipino, Notation::Luzon), "26,W,8,8,A0,1");
        assert_eq!(value(Preset::Filipino, Notation::Dama), "26,W,8,8,N2,0");
        assert_eq!(value(Preset::Pool, Notation::Numeric), "23,B,8,8,N1,0");
        assert_eq!(value(Preset::Russian, Notation::Vismin), "25,W,8,8,A0,0");
        assert_eq!(value(Preset::English, Notation::Numeric), "21,B,8,8,N1,0");
        assert_eq!(
            value(Preset::International, Notation::Numeric),
            "20,W,10,10,N2,0"
        );
        // The PDN 3.0 table's own values for these games.
        assert_eq!(value(Preset::Czech, Notation::Vismin), "29,W,8,8,A0,0");
        assert_eq!(value(Preset::Italian, Notation::Numeric), "22,W,8,8,N2,1");
        assert_eq!(value(Preset::Spanish, Notation::Numeric), "24,W,8,8,N1,1");
        // What is written reads back as the same preset.
        for preset in Preset::ALL {
            let written = GameType::parse(&value(preset, Notation::Numeric)).unwrap();
            let variant = (preset == Preset::Filipino).then_some("Filipino Dama");
            assert_eq!(Preset::of_game_type(written.number, variant), Some(preset));
        }
    }

    #[test]
    fn game_types_in_their_forms() {
        let t = GameType::parse("21,B,8,8,N1,0").unwrap();
        assert_eq!(t.number, 21);
        let b = t.board.unwrap();
        assert_eq!(
            (b.first, b.width, b.height, b.notation, b.corner, b.invert),
            (Color::Black, 8, 8, 'N', 1, Some(false))
        );
        let t = GameType::parse("26,W,8,8,A0,1").unwrap();
        let b = t.board.unwrap();
        assert_eq!(
            (b.first, b.notation, b.corner, b.invert),
            (Color::White, 'A', 0, Some(true))
        );
        let t = GameType::parse("20").unwrap();
        assert_eq!((t.number, t.board), (20, None));
        let t = GameType::parse("25, W, 8, 8, A0").unwrap();
        assert_eq!(t.board.unwrap().invert, None);
        assert_eq!(t.raw, "25, W, 8, 8, A0");
        for bad in [
            "",
            "draughts",
            "21,B",
            "21,X,8,8,N1,0",
            "21,B,8,8,N1,2",
            "21,B,8,8,1,0",
            "21,B,8,8,N1,0,9",
        ] {
            assert_eq!(GameType::parse(bad), None, "{bad}");
            assert_eq!(
                GameTypeHint::from_value(bad),
                GameTypeHint::Malformed(bad.to_string())
            );
        }
        // An unknown type number is still well formed.
        assert!(matches!(
            GameTypeHint::from_value("99"),
            GameTypeHint::Parsed(GameType { number: 99, .. })
        ));
    }
}
