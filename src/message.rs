//! Messages for people, each a stable code and its parts beside the
//! English text made from them, so that a front end can word them in
//! another language: [`RecordMessage`] (what a check record says of a
//! game), [`RequestMessage`] (why a request or a value given cannot be
//! used or answered), and the details some of them carry as parts of
//! their own: [`FenMessage`] (why a FEN cannot be used, with
//! [`SetupMessage`] for each kind of problem of its set-up) and
//! [`SwitchMessage`] (why a rules switch cannot be read), [`NoBoardMessage`]
//! (why a stored game has no board to show) and [`DatabaseCause`] (why the
//! database did not answer). All are written
//! to JSON as `{"code": "…", "parts": {…}}`, the code in snake case, the
//! parts named as the fields below; the English text is their `Display`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::quote::thousands;

/// What a check record says of a game that is not `ok`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum RecordMessage {
    /// `ply 5 (3.) 12-16 is illegal`: no reading goes on at this move.
    IllegalMove {
        /// The ply and its move number, as `5 (3.)` or `6 (3. …)`.
        ply: String,
        /// The move as written.
        token: String,
        /// What the tags say that the moves contradict, if anything.
        #[serde(flatten)]
        tag: Option<AgainstTag>,
    },
    /// `ply 5 (3.) 12/16 is not a move`.
    NotAMove {
        /// As [`RecordMessage::IllegalMove`].
        ply: String,
        /// The text where a move was expected.
        token: String,
        /// As [`RecordMessage::IllegalMove`].
        #[serde(flatten)]
        tag: Option<AgainstTag>,
    },
    /// `ply 5 (3.) - - is an unknown move`.
    UnknownMove {
        /// As [`RecordMessage::IllegalMove`].
        ply: String,
        /// The move as written.
        token: String,
        /// As [`RecordMessage::IllegalMove`].
        #[serde(flatten)]
        tag: Option<AgainstTag>,
    },
    /// `ply 5 (3.) 33-29 names a square that numeric notation does not
    /// have`.
    NoSuchSquare {
        /// As [`RecordMessage::IllegalMove`].
        ply: String,
        /// The move as written.
        token: String,
        /// The notation's name.
        notation: String,
        /// As [`RecordMessage::IllegalMove`].
        #[serde(flatten)]
        tag: Option<AgainstTag>,
    },
    /// Several moves lead to complete readings at one ply.
    Ambiguous {
        /// As [`RecordMessage::IllegalMove`].
        ply: String,
        /// The move as written.
        token: String,
        /// How many moves fit it.
        moves: usize,
        /// Those moves, canonical numeric full paths, `, ` between them.
        candidates: String,
        /// Readings in all.
        readings: u64,
    },
    /// Readings multiplied past the replay's limit of distinct positions
    /// at one ply.
    TooManyPositions {
        /// The limit.
        most: usize,
        /// The ply where it was passed.
        ply: usize,
        /// The last ply replayed.
        reached: usize,
    },
    /// Readings multiplied past the replay's limit of positions and moves
    /// kept in all.
    TooManyTracked {
        /// The limit.
        most: usize,
        /// The ply where it was passed.
        ply: usize,
        /// The last ply replayed.
        reached: usize,
    },
    /// The game's FEN cannot be used.
    UnusableFen {
        /// Why (English).
        why: String,
        /// Why, as a code and its parts (absent in the records of an
        /// earlier pdndb).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fen: Option<FenMessage>,
    },
    /// The game's text cannot be read.
    TextUnreadable {
        /// What the reader says (English).
        why: String,
    },
    /// A game over the length limit.
    TooManyPlies {
        /// Its plies.
        plies: usize,
        /// The limit.
        most: usize,
    },
    /// No rules have every square the record names.
    NoRulesFit,
    /// `unsupported`: the GameType tag names a game pdndb does not play.
    GameNotPlayed {
        /// The tag's value as written.
        game_type: String,
        /// The game's name (English: `chess`, `Thai draughts`).
        game: String,
    },
    /// `unsupported`: the GameType tag names no game pdndb knows.
    UnknownGameType {
        /// The tag's value as written.
        game_type: String,
    },
    /// `unsupported`: a square beyond the 8×8 and 10×10 boards.
    SquareBeyondBoards {
        /// The farthest square named, as written (`57`, `l12`).
        square: String,
    },
}

/// The part of a message saying that the rules a game's tags name are on
/// another board than those under which its moves read `ok`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgainstTag {
    /// The preset the tag names.
    pub tag: String,
    /// The board the moves are on, as `8×8`.
    pub board: String,
    /// The rules they read `ok` under, `, ` between them.
    pub read_ok_as: String,
}

impl fmt::Display for AgainstTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "; the tag says {}, but the moves are on {} and read ok as {}",
            self.tag, self.board, self.read_ok_as
        )
    }
}

impl fmt::Display for RecordMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stops = |f: &mut fmt::Formatter<'_>, ply: &str, token: &str, why, tag: &Option<_>| {
            write!(f, "ply {ply} {token} {why}")?;
            match tag {
                Some(tag) => write!(f, "{tag}"),
                None => Ok(()),
            }
        };
        match self {
            RecordMessage::IllegalMove { ply, token, tag } => {
                stops(f, ply, token, "is illegal".to_string(), tag)
            }
            RecordMessage::NotAMove { ply, token, tag } => {
                stops(f, ply, token, "is not a move".to_string(), tag)
            }
            RecordMessage::UnknownMove { ply, token, tag } => {
                stops(f, ply, token, "is an unknown move".to_string(), tag)
            }
            RecordMessage::NoSuchSquare {
                ply,
                token,
                notation,
                tag,
            } => {
                let why = format!("names a square that {notation} notation does not have");
                stops(f, ply, token, why, tag)
            }
            RecordMessage::Ambiguous {
                ply,
                token,
                moves,
                candidates,
                readings,
            } => write!(
                f,
                "ply {ply} {token} fits {moves} moves that each lead to a complete reading \
                 ({candidates}); {readings} readings in all"
            ),
            RecordMessage::TooManyPositions { most, ply, reached } => {
                let what = format!("more than {most} positions");
                past_the_limit(f, &what, *ply, *reached)
            }
            RecordMessage::TooManyTracked { most, ply, reached } => {
                let what = format!("more than {most} positions and moves in all");
                past_the_limit(f, &what, *ply, *reached)
            }
            RecordMessage::UnusableFen { why, .. } => write!(f, "FEN: {why}"),
            RecordMessage::TextUnreadable { why } => write!(f, "the text cannot be read: {why}"),
            RecordMessage::TooManyPlies { plies, most } => {
                write!(f, "{plies} plies: over the limit of {most} plies per game")
            }
            RecordMessage::NoRulesFit => f.write_str("no rules fit the record's squares"),
            RecordMessage::GameNotPlayed { game_type, game } => {
                write!(
                    f,
                    "GameType \"{game_type}\" is {game}, a game pdndb does not play"
                )
            }
            RecordMessage::UnknownGameType { game_type } => {
                write!(f, "GameType \"{game_type}\" names no game pdndb knows")
            }
            RecordMessage::SquareBeyondBoards { square } => write!(
                f,
                "square {square} lies beyond every board pdndb plays (8x8 and 10x10)"
            ),
        }
    }
}

/// `readings multiply past the replay limit (WHAT at ply PLY): replay
/// stopped after ply REACHED`.
fn past_the_limit(
    f: &mut fmt::Formatter<'_>,
    what: &str,
    ply: usize,
    reached: usize,
) -> fmt::Result {
    write!(
        f,
        "readings multiply past the replay limit ({what} at ply {ply}): \
         replay stopped after ply {reached}"
    )
}

/// Why a FEN cannot be used: it cannot be read, or its set-up is not a
/// position of the rules. `text` is the part of the FEN at fault, cut as
/// [`crate::quote::shortened`] cuts it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum FenMessage {
    /// Nothing but spaces.
    EmptyFen,
    /// The first field is not `W`, `B`, `R` or `?`.
    NotASide {
        /// The field.
        text: String,
    },
    /// A piece list that does not start with a colour letter.
    NotAPieceList {
        /// The list.
        text: String,
    },
    /// A piece that is not a square.
    NotASquare {
        /// The piece as written.
        text: String,
    },
    /// A range whose ends are not ascending numbers.
    NotARange {
        /// The range as written.
        text: String,
    },
    /// Algebraic squares from both boards.
    OtherBoard {
        /// The first square on the other board.
        text: String,
    },
    /// No side to move and no piece list.
    NoPieceLists {
        /// The FEN.
        text: String,
    },
    /// A king-runs field that is not `+` count and square, twice.
    NotKingRuns {
        /// The field.
        text: String,
    },
    /// A set-up that is not a position of the rules: each kind of problem
    /// once, in the order found.
    InvalidPosition {
        /// The problems.
        problems: Vec<SetupMessage>,
    },
}

impl fmt::Display for FenMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenMessage as M;
        match self {
            M::EmptyFen => f.write_str("empty FEN"),
            M::NotASide { text } => {
                write!(f, "`{text}` is not a side to move (expected W, B or ?)")
            }
            M::NotAPieceList { text } => {
                write!(f, "`{text}` is not a piece list (expected W… or B…)")
            }
            M::NotASquare { text } => write!(f, "`{text}` is not a square"),
            M::NotARange { text } => write!(f, "`{text}` is not a range of squares"),
            M::OtherBoard { text } => write!(
                f,
                "`{text}` is on the other board than the FEN's earlier squares"
            ),
            M::NoPieceLists { text } => write!(f, "`{text}` has no piece lists"),
            M::NotKingRuns { text } => write!(
                f,
                "`{text}` is not a field of king moves (expected +N[square]+N[square])"
            ),
            M::InvalidPosition { problems } => {
                f.write_str("invalid position: ")?;
                for (i, problem) in problems.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{problem}")?;
                }
                Ok(())
            }
        }
    }
}

/// One kind of problem of a set-up: its first problem, and how many more
/// of that kind there are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum SetupMessage {
    /// A label that is not a playing square of the board.
    SquareOffBoard {
        /// The square.
        square: u32,
        /// The others like it.
        #[serde(flatten)]
        more: Option<MoreLikeIt>,
    },
    /// Two pieces on one square.
    TwoPieces {
        /// The square.
        square: u32,
        /// The others like it.
        #[serde(flatten)]
        more: Option<MoreLikeIt>,
    },
    /// A man on the row where it would have been crowned.
    ManOnCrowningRow {
        /// The square.
        square: u32,
        /// Its colour, `white` or `black`.
        colour: String,
        /// The others like it.
        #[serde(flatten)]
        more: Option<MoreLikeIt>,
    },
    /// More pieces of one side than the side starts with.
    TooManyPieces {
        /// The side, `white` or `black`.
        colour: String,
        /// Its pieces.
        pieces: usize,
        /// The most it starts with.
        most: usize,
        /// The others like it.
        #[serde(flatten)]
        more: Option<MoreLikeIt>,
    },
}

/// The further problems of one kind: how many, and their first squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoreLikeIt {
    /// How many more.
    pub more: usize,
    /// The first of their squares, each once.
    pub squares: Vec<u32>,
    /// Whether they have squares beyond those named.
    pub more_squares: bool,
}

impl fmt::Display for SetupMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let more = match self {
            SetupMessage::SquareOffBoard { square, more } => {
                write!(f, "square {square} is not on the board")?;
                more
            }
            SetupMessage::TwoPieces { square, more } => {
                write!(f, "two pieces on square {square}")?;
                more
            }
            SetupMessage::ManOnCrowningRow {
                square,
                colour,
                more,
            } => {
                write!(f, "a {colour} man on square {square}, its own crowning row")?;
                more
            }
            SetupMessage::TooManyPieces {
                colour,
                pieces,
                most,
                more,
            } => {
                write!(f, "{pieces} {colour} pieces (at most {most})")?;
                more
            }
        };
        match more {
            Some(more) => write!(f, "{more}"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for MoreLikeIt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, " (and {} more like it", thousands(self.more))?;
        if !self.squares.is_empty() {
            let plural = if self.squares.len() > 1 { "s" } else { "" };
            let named: Vec<String> = self.squares.iter().map(u32::to_string).collect();
            let etc = if self.more_squares { ", …" } else { "" };
            write!(f, ": square{plural} {}{etc}", named.join(", "))?;
        }
        f.write_str(")")
    }
}

/// Why a rules switch (`key=value`) cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum SwitchMessage {
    /// Not one of the switch names.
    UnknownSwitch {
        /// The name given.
        name: String,
        /// The switches.
        expected: Vec<String>,
    },
    /// A value the switch does not take.
    NotAValueOf {
        /// The switch.
        key: String,
        /// The value given.
        value: String,
        /// The values it takes.
        expected: Vec<String>,
    },
    /// A switch without `=`.
    NotKeyValue {
        /// The text given.
        text: String,
    },
}

impl fmt::Display for SwitchMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwitchMessage::UnknownSwitch { name, expected } => write!(
                f,
                "unknown rules switch `{name}` (expected {})",
                one_of(expected)
            ),
            SwitchMessage::NotAValueOf {
                key,
                value,
                expected,
            } => write!(
                f,
                "`{value}` is not a value of `{key}` (expected {})",
                one_of(expected)
            ),
            SwitchMessage::NotKeyValue { text } => {
                write!(f, "`{text}` is not of the form key=value")
            }
        }
    }
}

/// `a, b or c`.
fn one_of(names: &[String]) -> String {
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Why a request, or a value given in it, cannot be used (a 400 of the
/// web API), or why the server does not answer it (404, 403, 414, 503).
/// `param` is the name of the value as the front end calls it (a
/// parameter of the web API); `value` a value as given, quoted and cut at
/// 40 characters; `why` the library's own explanation (English).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum RequestMessage {
    /// A parameter the route does not take.
    UnknownParameter {
        /// The name given, quoted.
        name: String,
        /// The names the route takes, `, ` between them.
        takes: String,
    },
    /// A parameter given twice.
    GivenTwice {
        /// Its name.
        param: String,
    },
    /// A value longer than is read.
    TooLong {
        /// Its name.
        param: String,
        /// Its length in bytes.
        bytes: usize,
        /// The most read.
        most: usize,
    },
    /// A query string that is not UTF-8.
    NotUtf8,
    /// Not a whole number in the range.
    NotInRange {
        /// Its name.
        param: String,
        /// The value given.
        value: String,
        /// The least allowed.
        low: String,
        /// The most allowed.
        high: String,
    },
    /// Not `1` or `0`.
    NotAFlag {
        /// Its name.
        param: String,
        /// The value given.
        value: String,
    },
    /// A sort that is none.
    BadSort {
        /// Its name.
        param: String,
        /// The value given.
        value: String,
    },
    /// A game id that is none.
    NotAGameId {
        /// The value given.
        value: String,
    },
    /// Both a FEN and moves.
    FenAndMoves,
    /// A position and search criteria.
    PositionAndCriteria,
    /// A FEN that cannot be read or set up.
    BadFen {
        /// Its name.
        param: String,
        /// Why.
        why: String,
        /// Why, as a code and its parts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fen: Option<FenMessage>,
    },
    /// Moves that cannot be read or played.
    BadMoves {
        /// Its name.
        param: String,
        /// Why.
        why: String,
    },
    /// A move that is not legal where a line plays it.
    MoveNotLegalHere {
        /// Its name.
        param: String,
        /// The ply (1-based).
        ply: usize,
        /// The move given, quoted.
        token: String,
        /// The legal moves there, `, ` between them.
        legal: String,
    },
    /// A move of a line played where the game is over.
    NoMoveLeft {
        /// Its name.
        param: String,
        /// The ply (1-based).
        ply: usize,
        /// The move given, quoted.
        token: String,
    },
    /// Moves illegal under the variant used but legal under others.
    LegalElsewhere {
        /// Its name.
        param: String,
        /// Why they do not read (English).
        why: String,
        /// Why they do not read, as the record of the moves read as a game
        /// says it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<RecordMessage>,
        /// The variant used.
        variant: String,
        /// The presets under which they read, `, ` between them.
        legal_under: String,
        /// The name of the variant's parameter.
        variant_param: String,
        /// The first of those presets.
        first: String,
    },
    /// A variant that is no preset.
    UnknownVariant {
        /// Its name.
        param: String,
        /// The name given.
        value: String,
        /// The presets, `, ` between them.
        expected: String,
        /// Why (English).
        why: String,
    },
    /// Rules switches that cannot be read.
    BadRules {
        /// Its name.
        param: String,
        /// Why.
        why: String,
        /// Why, as a code and its parts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        switch: Option<SwitchMessage>,
    },
    /// A variant no stored game has.
    VariantAbsent {
        /// Its name.
        param: String,
        /// The variant asked for.
        asked: String,
        /// What the database holds (English).
        holdings: String,
        /// What the database holds: each variant with its games, most
        /// first (empty when it holds none).
        #[serde(default)]
        held: Vec<Held>,
    },
    /// A date range that cannot be read (its `why` begins with the value
    /// given).
    BadDateRange {
        /// Its name.
        param: String,
        /// The range as given.
        value: String,
        /// Why.
        why: String,
    },
    /// A pattern, material or manoeuvre that cannot be read.
    BadPattern {
        /// Its name.
        param: String,
        /// Why.
        why: String,
    },
    /// A game without a board to show.
    NoBoard {
        /// Why (English).
        why: String,
        /// The game's id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<i64>,
        /// Why, as a code and its parts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<NoBoardMessage>,
    },
    /// Any other value that cannot be used.
    BadValue {
        /// Its name.
        param: String,
        /// Why.
        why: String,
    },
    /// 404: a route the server does not have.
    NoSuchRoute {
        /// The path asked for.
        path: String,
    },
    /// 404: a game id no game has.
    NoSuchGame {
        /// The id.
        id: i64,
    },
    /// 404: a game whose source text is not kept.
    NoSource {
        /// The game's id.
        id: i64,
    },
    /// 403: a request for another host than localhost.
    LocalhostOnly,
    /// 414: a request longer than is read.
    RequestTooLong {
        /// Its length in bytes.
        bytes: usize,
        /// The most read.
        most: usize,
    },
    /// 503 with `Retry-After`: too many requests are answered or wait.
    Busy {
        /// Requests answered at once.
        running: usize,
        /// Requests that wait their turn.
        waiting: usize,
        /// Seconds after which to ask again.
        seconds: u32,
    },
    /// 503: the server is stopping.
    Stopping,
    /// 503: the query stopped before it answered.
    QueryStopped {
        /// Why (English).
        why: String,
        /// Why, as far as it is known, as a code and its parts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cause: Option<DatabaseCause>,
        /// What SQLite said, as it said it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    /// 503: the database cannot answer now.
    DatabaseUnavailable {
        /// What the database says (English).
        why: String,
        /// Why, as far as it is known, as a code and its parts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cause: Option<DatabaseCause>,
        /// What SQLite said, as it said it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
}

/// Why a stored game has no board to show: it was never replayed, or its
/// start cannot be rebuilt. `status` is the game's status (`unreadable`,
/// `unsupported`, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum NoBoardMessage {
    /// `the game is unreadable`: never replayed, its record saying nothing
    /// more.
    NotReplayed {
        /// The game's status.
        status: String,
    },
    /// `the game is unreadable: FEN: …`: never replayed, and why, as its
    /// record says.
    NotReplayedBecause {
        /// The game's status.
        status: String,
        /// The record's message (English).
        why: String,
        /// The record's message as a code and its parts (absent in the
        /// records of an earlier pdndb).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<Box<RecordMessage>>,
    },
    /// `the game is illegal: its start cannot be rebuilt under VARIANT`:
    /// its rules, its set-up or its stored moves do not read back.
    StartNotRebuilt {
        /// The game's status.
        status: String,
        /// The game's variant.
        variant: String,
    },
}

impl fmt::Display for NoBoardMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoBoardMessage::NotReplayed { status } => write!(f, "the game is {status}"),
            NoBoardMessage::NotReplayedBecause { status, why, .. } => {
                write!(f, "the game is {status}: {why}")
            }
            NoBoardMessage::StartNotRebuilt { status, variant } => write!(
                f,
                "the game is {status}: its start cannot be rebuilt under {variant}"
            ),
        }
    }
}

/// Why the database did not answer, as far as it is known; what SQLite
/// said, which has no fixed wording, goes beside it as a `detail` of its
/// own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum DatabaseCause {
    /// The query was interrupted (a time limit).
    QueryInterrupted,
    /// The query's work was cancelled (the server stopping).
    QueryCancelled,
    /// The query's work failed within the server.
    QueryFailed,
    /// Another connection holds the database locked.
    DatabaseBusy,
    /// No database file where it was.
    DatabaseMissing,
    /// The file cannot be opened or read.
    DatabaseUnreadable,
    /// The file is not an SQLite database.
    NotADatabase,
    /// The database is corrupt.
    DatabaseCorrupt,
    /// The disk is full.
    DiskFull,
    /// The database cannot be written.
    DatabaseReadOnly,
    /// An SQLite database of another application.
    ForeignDatabase,
    /// Written by a newer pdndb.
    DatabaseTooNew {
        /// The database's schema step.
        found: u32,
        /// The last step this pdndb knows.
        known: u32,
    },
    /// Written by an older pdndb, and read-only here.
    DatabaseOutdated {
        /// The database's schema step.
        found: u32,
        /// The last step this pdndb knows.
        known: u32,
    },
    /// Anything else (the `detail`, if any, says what).
    DatabaseFailed,
}

impl fmt::Display for DatabaseCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DatabaseCause as C;
        match self {
            C::QueryInterrupted => f.write_str("the query ran past its time limit"),
            C::QueryCancelled => f.write_str("the server cancelled the query"),
            C::QueryFailed => f.write_str("the query failed within the server"),
            C::DatabaseBusy => f.write_str("the database is locked by another connection"),
            C::DatabaseMissing => f.write_str("the database file is missing"),
            C::DatabaseUnreadable => f.write_str("the database file cannot be opened or read"),
            C::NotADatabase => f.write_str("the file is not an SQLite database"),
            C::DatabaseCorrupt => f.write_str("the database is corrupt"),
            C::DiskFull => f.write_str("the disk is full"),
            C::DatabaseReadOnly => f.write_str("the database cannot be written"),
            C::ForeignDatabase => f.write_str("the database is another application's"),
            C::DatabaseTooNew { found, known } => write!(
                f,
                "the database is at schema step {found}, newer than this pdndb knows (step {known})"
            ),
            C::DatabaseOutdated { found, known } => write!(
                f,
                "the database is at schema step {found}, older than this pdndb reads \
                 (step {known}), and read-only here"
            ),
            C::DatabaseFailed => f.write_str("the database failed"),
        }
    }
}

/// One variant a database holds games of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    /// The variant.
    pub variant: String,
    /// Its games.
    pub games: i64,
}

impl RequestMessage {
    /// The English of a request the server does not answer (not a 400).
    fn fmt_refusal(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RequestMessage as M;
        match self {
            M::NoSuchRoute { path } => write!(f, "no such route: {path}"),
            M::NoSuchGame { id } => write!(f, "no game {id} in the database"),
            M::NoSource { id } => write!(f, "game {id} has no source"),
            M::LocalhostOnly => f.write_str("this server answers requests for localhost only"),
            M::RequestTooLong { bytes, most } => {
                write!(
                    f,
                    "the request is {bytes} bytes long; at most {most} are read"
                )
            }
            M::Busy {
                running,
                waiting,
                seconds,
            } => write!(
                f,
                "the server is busy: {running} requests are being answered and {waiting} \
                 wait; try again in {seconds} s"
            ),
            M::Stopping => f.write_str("the server is stopping"),
            M::QueryStopped { why, .. } => write!(f, "the query stopped: {why}"),
            M::DatabaseUnavailable { why, .. } => f.write_str(why),
            // The 400s, worded by `Display` itself.
            _ => Ok(()),
        }
    }
}

impl fmt::Display for RequestMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RequestMessage as M;
        match self {
            M::UnknownParameter { name, takes } => {
                write!(f, "unknown parameter {name}; this route takes: {takes}")
            }
            M::GivenTwice { param } => write!(f, "{param}: given twice"),
            M::TooLong { param, bytes, most } => {
                write!(f, "{param}: {bytes} bytes; at most {most} are read")
            }
            M::NotUtf8 => f.write_str("the query string cannot be read: it is not UTF-8"),
            M::NotInRange {
                param,
                value,
                low,
                high,
            } => write!(
                f,
                "{param}: {value} is not a whole number from {low} to {high}"
            ),
            M::NotAFlag { param, value } => write!(f, "{param}: {value} is not 1 or 0"),
            M::BadSort { param, value } => {
                write!(f, "{param}: {value} is not id, date, event or player")
            }
            M::NoBoard { why, .. } => f.write_str(why),
            M::NotAGameId { value } => write!(f, "{value} is not a game id (a number from 1)"),
            M::FenAndMoves => f.write_str("give fen or moves, not both"),
            M::PositionAndCriteria => {
                f.write_str("give fen or moves, or pattern, material and manoeuvre, not both")
            }
            M::MoveNotLegalHere {
                param,
                ply,
                token,
                legal,
            } => write!(
                f,
                "{param}: ply {ply}: {token} is not a legal move here (legal: {legal})"
            ),
            M::NoMoveLeft { param, ply, token } => write!(
                f,
                "{param}: ply {ply}: {token} is not a legal move here \
                 (legal: none, the game is over)"
            ),
            M::LegalElsewhere {
                param,
                why,
                variant,
                legal_under,
                variant_param,
                first,
                ..
            } => write!(
                f,
                "{param}: {why} under {variant}; legal under {legal_under}: \
                 add {variant_param} {first}"
            ),
            M::VariantAbsent {
                param,
                asked,
                holdings,
                ..
            } => write!(
                f,
                "{param} {asked}: no game in the database is {asked}; {holdings}"
            ),
            M::BadDateRange { param, why, .. } => write!(f, "{param} {why}"),
            M::BadFen { param, why, .. }
            | M::BadMoves { param, why }
            | M::UnknownVariant { param, why, .. }
            | M::BadRules { param, why, .. }
            | M::BadPattern { param, why }
            | M::BadValue { param, why } => write!(f, "{param}: {why}"),
            refused => refused.fmt_refusal(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_its_code_and_parts_beside_its_english() {
        let said = RecordMessage::IllegalMove {
            ply: "5 (3.)".into(),
            token: "12-16".into(),
            tag: Some(AgainstTag {
                tag: "international".into(),
                board: "8×8".into(),
                read_ok_as: "russian".into(),
            }),
        };
        assert_eq!(
            said.to_string(),
            "ply 5 (3.) 12-16 is illegal; the tag says international, but the moves are on \
             8×8 and read ok as russian"
        );
        let json = serde_json::to_value(&said).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"code": "illegal_move", "parts": {"ply": "5 (3.)",
                "token": "12-16", "tag": "international", "board": "8×8",
                "read_ok_as": "russian"}})
        );
        assert_eq!(serde_json::from_value::<RecordMessage>(json).unwrap(), said);
        let plain = RecordMessage::NotAMove {
            ply: "1 (1.)".into(),
            token: "x".into(),
            tag: None,
        };
        let json = serde_json::to_value(&plain).unwrap();
        assert_eq!(
            json["parts"],
            serde_json::json!({"ply": "1 (1.)", "token": "x"})
        );
        assert_eq!(
            serde_json::from_value::<RecordMessage>(json).unwrap(),
            plain
        );
        let limit = RecordMessage::TooManyPositions {
            most: 4096,
            ply: 30,
            reached: 29,
        };
        assert_eq!(
            serde_json::to_value(&limit).unwrap()["code"],
            "too_many_positions"
        );
        assert_eq!(
            limit.to_string(),
            "readings multiply past the replay limit (more than 4096 positions at ply 30): \
             replay stopped after ply 29"
        );
    }

    #[test]
    fn requests_are_worded_as_before_and_coded() {
        let m = RequestMessage::BadDateRange {
            param: "date".into(),
            value: "2019.13".into(),
            why: "\"2019.13\": not a date".into(),
        };
        assert_eq!(m.to_string(), "date \"2019.13\": not a date");
        assert_eq!(serde_json::to_value(&m).unwrap()["code"], "bad_date_range");
        let m = RequestMessage::NoMoveLeft {
            param: "moves".into(),
            ply: 2,
            token: "\"1-5\"".into(),
        };
        assert_eq!(
            m.to_string(),
            "moves: ply 2: \"1-5\" is not a legal move here (legal: none, the game is over)"
        );
        let m = RequestMessage::FenAndMoves;
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            serde_json::json!({"code": "fen_and_moves"})
        );
    }

    #[test]
    fn details_are_messages_of_their_own_within_their_parts() {
        let fen = FenMessage::InvalidPosition {
            problems: vec![
                SetupMessage::TwoPieces {
                    square: 21,
                    more: Some(MoreLikeIt {
                        more: 8999,
                        squares: vec![22, 23],
                        more_squares: true,
                    }),
                },
                SetupMessage::TooManyPieces {
                    colour: "white".into(),
                    pieces: 40,
                    most: 12,
                    more: None,
                },
            ],
        };
        assert_eq!(
            fen.to_string(),
            "invalid position: two pieces on square 21 (and 8,999 more like it: squares \
             22, 23, …); 40 white pieces (at most 12)"
        );
        let said = RecordMessage::UnusableFen {
            why: fen.to_string(),
            fen: Some(fen.clone()),
        };
        let json = serde_json::to_value(&said).unwrap();
        assert_eq!(
            json["parts"]["fen"]["parts"]["problems"][0],
            serde_json::json!({"code": "two_pieces", "parts": {"square": 21, "more": 8999,
                "squares": [22, 23], "more_squares": true}})
        );
        assert_eq!(serde_json::from_value::<RecordMessage>(json).unwrap(), said);
        // A key stored before FEN messages had codes still reads.
        let old = serde_json::json!({"code": "unusable_fen", "parts": {"why": "empty FEN"}});
        assert_eq!(
            serde_json::from_value::<RecordMessage>(old).unwrap(),
            RecordMessage::UnusableFen {
                why: "empty FEN".into(),
                fen: None
            }
        );
        let switch = SwitchMessage::NotAValueOf {
            key: "promotion".into(),
            value: "x".into(),
            expected: vec!["continue-man".into(), "stop".into(), "continue-king".into()],
        };
        assert_eq!(
            switch.to_string(),
            "`x` is not a value of `promotion` (expected continue-man, stop or continue-king)"
        );
    }

    #[test]
    fn why_a_game_has_no_board_is_its_record_s_message_within_a_code_of_its_own() {
        let reason = RecordMessage::UnknownGameType {
            game_type: "77".into(),
        };
        let m = NoBoardMessage::NotReplayedBecause {
            status: "unsupported".into(),
            why: reason.to_string(),
            reason: Some(Box::new(reason)),
        };
        assert_eq!(
            m.to_string(),
            "the game is unsupported: GameType \"77\" names no game pdndb knows"
        );
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(json["code"], "not_replayed_because");
        assert_eq!(json["parts"]["reason"]["code"], "unknown_game_type");
        assert_eq!(serde_json::from_value::<NoBoardMessage>(json).unwrap(), m);
        let m = NoBoardMessage::StartNotRebuilt {
            status: "illegal".into(),
            variant: "russian".into(),
        };
        assert_eq!(
            m.to_string(),
            "the game is illegal: its start cannot be rebuilt under russian"
        );
        let refused = RequestMessage::NoBoard {
            why: format!("game 3 has no board to show: {m}"),
            id: Some(3),
            reason: Some(m),
        };
        assert_eq!(
            refused.to_string(),
            "game 3 has no board to show: the game is illegal: its start cannot be rebuilt \
             under russian"
        );
        // A refusal written before it had parts of its own still reads.
        let old = serde_json::json!({"code": "no_board", "parts": {"why": "no"}});
        assert!(serde_json::from_value::<RequestMessage>(old).is_ok());
    }

    #[test]
    fn a_database_failure_is_its_cause_beside_sqlite_s_own_words() {
        let m = RequestMessage::DatabaseUnavailable {
            why: "database: file is not a database".into(),
            cause: Some(DatabaseCause::NotADatabase),
            detail: Some("file is not a database".into()),
        };
        assert_eq!(m.to_string(), "database: file is not a database");
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            serde_json::json!({"code": "database_unavailable", "parts": {
                "why": "database: file is not a database",
                "cause": {"code": "not_a_database"},
                "detail": "file is not a database"}})
        );
        let m = RequestMessage::QueryStopped {
            why: "task 4 was cancelled".into(),
            cause: Some(DatabaseCause::QueryCancelled),
            detail: None,
        };
        assert_eq!(m.to_string(), "the query stopped: task 4 was cancelled");
        let cause = DatabaseCause::DatabaseTooNew {
            found: 30,
            known: 29,
        };
        assert_eq!(
            serde_json::to_value(&cause).unwrap(),
            serde_json::json!({"code": "database_too_new", "parts": {"found": 30, "known": 29}})
        );
    }

    #[test]
    fn refusals_other_than_400_are_coded_and_worded_as_before() {
        let m = RequestMessage::NoSuchGame { id: 9 };
        assert_eq!(m.to_string(), "no game 9 in the database");
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            serde_json::json!({"code": "no_such_game", "parts": {"id": 9}})
        );
        let m = RequestMessage::RequestTooLong {
            bytes: 9000,
            most: 8192,
        };
        assert_eq!(
            m.to_string(),
            "the request is 9000 bytes long; at most 8192 are read"
        );
        assert_eq!(
            RequestMessage::Stopping.to_string(),
            "the server is stopping"
        );
    }
}
