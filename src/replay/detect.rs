//! Choosing the rules, notation and start position of a record, then
//! replaying it.
//!
//! In this order: rules given on the command line apply to every game
//! ([`VariantFrom::Forced`]); else the `GameType` tag (with `Variant`), a
//! `Variant` tag naming a preset, or a `Notation "Dama"` tag name them
//! ([`VariantFrom::Tag`]); else they are inferred from the record
//! ([`VariantFrom::Inferred`]): the board's size from the squares written
//! in the moves and the set-up, the notation from letters or numbers, and
//! every preset of a possible size that suits the notation is a candidate.
//! Replay decides: the first candidate under which the record reads `ok`
//! wins; when none does, the one whose reading reaches furthest (then the
//! one with fewer readings). The candidates are tried in this order: the
//! preset most earlier games of the same file were inferred as, then
//! [`Preset::INFERENCE_ORDER`]. A set-up without moves (a problem position)
//! gives replay nothing to decide by: it is read under the file's preset,
//! else as English checkers, since that is what numbered problem
//! collections without a `GameType` are (International when its squares
//! need the 10×10 board). A record with neither moves nor set-up gets
//! Filipino Dama ([`VariantFrom::Default`]).
//!
//! Since the first clean reading ends the search, a file whose games read
//! cleanly under the rules of its first games costs one replay per game.
//! Nor is a candidate replayed that cannot change the answer: rules that
//! read every record as ones already tried do (Brazilian after Filipino;
//! Frysk! from a set-up after Frisian), and Frisian and Frysk! are tried
//! only when International, which takes the records all three read, does
//! not read it cleanly ([`Preset::yields_to`]), also while the file's
//! preset is chosen, so that International files cost no Frisian replay.
//! Antidraughts and Breakthrough move as International does: only their
//! tags name them.
//!
//! For a record that does not read cleanly, the other presets and switch
//! settings under which it would are listed ([`Reading`]'s
//! `reads_ok_under`), so that a Filipino record played without the
//! majority rule, or a Russian game read as Filipino, is found.

use serde::{Deserialize, Serialize};

use crate::message::RecordMessage;
use crate::notation::{Fen, MoveToken, Notation, SquareToken};
use crate::pdn::GameType;
use crate::rules::{
    Color, Corner, Geometry, KingFirst, KingLimit, MaxCapture, Position, Preset, Promotion, Rules,
    Switches, game_type_name,
};

use super::interpret::{KeptPositions, Replay, Written, replay_keeping};
use super::shape::AsRead;

/// Longest main line replayed, in plies.
pub const MAX_PLIES: usize = 20_000;

/// Where a game's rules came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VariantFrom {
    /// `--variant` (or `--rules`) on the command line.
    Forced,
    /// The game's tags.
    Tag,
    /// Inferred from the record by replaying it.
    Inferred,
    /// Nothing to decide by: the default preset.
    Default,
}

impl VariantFrom {
    /// Every source, in the order of the documentation.
    pub const ALL: [VariantFrom; 4] = [
        VariantFrom::Forced,
        VariantFrom::Tag,
        VariantFrom::Inferred,
        VariantFrom::Default,
    ];

    /// The name stored and printed.
    pub fn name(self) -> &'static str {
        match self {
            VariantFrom::Forced => "forced",
            VariantFrom::Tag => "tag",
            VariantFrom::Inferred => "inferred",
            VariantFrom::Default => "default",
        }
    }

    /// The source of a stored name; `None` for an unknown one.
    pub fn from_name(name: &str) -> Option<VariantFrom> {
        VariantFrom::ALL.into_iter().find(|v| v.name() == name)
    }
}

impl std::fmt::Display for VariantFrom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is none of [`VariantFrom::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown source of rules `{0}` (expected forced, tag, inferred or default)")]
pub struct UnknownVariantFrom(pub String);

impl std::str::FromStr for VariantFrom {
    type Err = UnknownVariantFrom;

    /// A source by its exact name.
    fn from_str(s: &str) -> Result<VariantFrom, UnknownVariantFrom> {
        VariantFrom::from_name(s).ok_or_else(|| UnknownVariantFrom(s.to_string()))
    }
}

/// Choices given on the command line; they apply to every game.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--variant` (with `--rules` applied): the rules of every game.
    pub rules: Option<Rules>,
    /// `--rules` without `--variant`: switches applied on top of each
    /// game's detected preset.
    pub switches: Option<Switches>,
    /// `--notation`.
    pub notation: Option<Notation>,
    /// Leave out the search for other rules under which a game that does
    /// not read cleanly would (for callers that only replay).
    pub skip_alternatives: bool,
    /// Which certain positions a replay keeps: all, or, for callers that
    /// only report on records (`check`), the last one.
    pub positions: KeptPositions,
}

impl Overrides {
    /// Applies the switches to detected rules.
    fn adjust(&self, mut rules: Rules) -> Rules {
        if let Some(switches) = &self.switches {
            rules.apply_switches(switches);
        }
        rules
    }
}

/// What detection needs from a record: its telling tags and main line.
#[derive(Clone, Debug, Default)]
pub struct RecordText<'a> {
    /// The `GameType` tag, as written.
    pub game_type: Option<&'a str>,
    /// The `Variant` tag.
    pub variant: Option<&'a str>,
    /// The `Notation` tag.
    pub notation: Option<&'a str>,
    /// The set-up: `FEN` tag or `/FEN/` command.
    pub fen: Option<&'a str>,
    /// The main line: each written move, `None` for one that can fit no
    /// move (`- -`, or text that is not a move).
    pub moves: Vec<Option<&'a MoveToken>>,
    /// Whether a capture starts where the capture before it ended
    /// ([`Hints::split_captures`](crate::pdn::Hints::split_captures));
    /// `None`: not known, looked for in `moves`.
    pub split_captures: Option<bool>,
}

/// The preset a `Variant` tag names by itself (without a `GameType`), if
/// it names one: lidraughts' names for its games as they are
/// (`modules/draughts/src/main/variant/`: `Standard`, `From Position`,
/// `Frisian`, `Frysk!`, `Antidraughts`, `Breakthrough`, `Russian`,
/// `Brazilian`; its reader takes a `Variant` tag by these names, in any
/// case, where there is no `GameType`, which its own export always
/// writes); else a name found in the tag, the more specific names looked
/// for first, so that `Dama italiana` is Italian and `Dama` alone
/// Filipino.
fn variant_tag_preset(tag: &str) -> Option<Preset> {
    const EXACT: [(&str, Preset); 2] = [
        ("standard", Preset::International),
        ("from position", Preset::International),
    ];
    const NAMES: [(&str, Preset); 18] = [
        ("frisian", Preset::Frisian),
        ("frysk", Preset::Frysk),
        ("antidraughts", Preset::Antidraughts),
        ("breakthrough", Preset::Breakthrough),
        ("italian", Preset::Italian),
        ("spanish", Preset::Spanish),
        ("españo", Preset::Spanish),
        ("czech", Preset::Czech),
        ("russian", Preset::Russian),
        ("shashki", Preset::Russian),
        ("brazil", Preset::Brazilian),
        ("pool", Preset::Pool),
        ("international", Preset::International),
        ("10x10", Preset::International),
        ("english", Preset::English),
        ("checkers", Preset::English),
        ("filipino", Preset::Filipino),
        ("dama", Preset::Filipino),
    ];
    let lower = tag.trim().to_lowercase();
    EXACT
        .iter()
        .find(|(name, _)| lower == *name)
        .or_else(|| NAMES.iter().find(|(name, _)| lower.contains(name)))
        .map(|&(_, preset)| preset)
}

/// Whether two rules read every record alike: the same moves from the
/// same start, whatever their names and win conditions (Brazilian and
/// Filipino; International and Antidraughts); with a set-up, the start
/// does not count either (Frisian and Frysk!).
fn plays_alike(a: &Rules, b: &Rules, set_up: bool) -> bool {
    let as_a = Rules {
        preset: a.preset,
        win: a.win,
        start_rows: if set_up { a.start_rows } else { b.start_rows },
        ..*b
    };
    as_a == *a
}

/// Whether replaying `candidate` can change what the candidates `tried`
/// (with whether each read the record cleanly) tell: not when it reads
/// as one of them does (the same notation, on the board turned alike), nor when the preset it yields to
/// ([`Preset::yields_to`]) read the record cleanly.
fn worth_trying(candidate: &Candidate, tried: &[(Candidate, bool)], set_up: bool) -> bool {
    let alike = tried.iter().any(|(c, _)| {
        (c.notation, c.turned) == (candidate.notation, candidate.turned)
            && plays_alike(&c.rules, &candidate.rules, set_up)
    });
    let yielded = candidate.rules.preset.yields_to().is_some_and(|first| {
        tried
            .iter()
            .any(|(c, clean)| *clean && c.rules.preset == first)
    });
    !alike && !yielded
}

/// How a record was read.
#[derive(Clone, Debug)]
pub enum Reading {
    /// Replayed.
    Replayed {
        /// The rules it was read by.
        rules: Rules,
        /// The notation of its moves (`None` when it has none).
        notation: Option<Notation>,
        /// Whether its algebraic squares are named on the board turned
        /// 180° (Black on ranks 1–3, as PlayStrategy writes English
        /// draughts): tried when they do not read cleanly as named.
        turned: bool,
        /// The start position.
        start: Position,
        /// What replay found.
        replay: Replay,
        /// Where the rules came from.
        from: VariantFrom,
        /// For a record that does not read cleanly: the other presets, and
        /// switch settings of its own, under which it does.
        reads_ok_under: Vec<Rules>,
    },
    /// A variant the engine does not play.
    Unsupported {
        /// `unknown` (kept as a name for the records).
        variant: &'static str,
        /// Why.
        message: RecordMessage,
        /// Where the verdict came from.
        from: VariantFrom,
    },
    /// Text or set-up that cannot be used.
    Unreadable {
        /// The rules it would have been read by, if known.
        rules: Option<Rules>,
        /// Why.
        message: RecordMessage,
        /// Where those rules came from.
        from: VariantFrom,
    },
}

impl Reading {
    /// Where the rules came from.
    pub fn variant_from(&self) -> VariantFrom {
        match self {
            Reading::Replayed { from, .. }
            | Reading::Unsupported { from, .. }
            | Reading::Unreadable { from, .. } => *from,
        }
    }

    /// The rules the record was read (or would have been read) by.
    pub fn rules(&self) -> Option<&Rules> {
        match self {
            Reading::Replayed { rules, .. } => Some(rules),
            Reading::Unreadable { rules, .. } => rules.as_ref(),
            Reading::Unsupported { .. } => None,
        }
    }

    /// Whether every move was read, one way only.
    pub fn is_clean(&self) -> bool {
        matches!(self, Reading::Replayed { replay, .. } if reads_cleanly(replay))
    }
}

fn reads_cleanly(replay: &Replay) -> bool {
    replay.reached == replay.plies && replay.interpretations == Some(1) && replay.limit.is_none()
}

/// Decides variant, notation and start position, and replays the record.
pub fn read_record(text: &RecordText<'_>, overrides: &Overrides) -> Reading {
    read_record_in(text, overrides, None)
}

/// [`read_record`] for a game of a file whose earlier games were mostly
/// inferred as `majority`: when rules are inferred, that preset is tried
/// first.
pub fn read_record_in(
    text: &RecordText<'_>,
    overrides: &Overrides,
    majority: Option<Preset>,
) -> Reading {
    let fen = match text.fen.map(Fen::parse) {
        None => None,
        Some(Ok(fen)) => Some(fen),
        Some(Err(err)) => {
            return Reading::Unreadable {
                rules: overrides.rules,
                message: RecordMessage::UnusableFen {
                    why: err.to_string(),
                    fen: Some(err.said()),
                },
                from: if overrides.rules.is_some() {
                    VariantFrom::Forced
                } else {
                    VariantFrom::Default
                },
            };
        }
    };
    let record = Record::new(text, fen.as_ref(), overrides.positions);
    let plan = match plan(text, &record, overrides, majority) {
        Ok(plan) => plan,
        Err(Unplayable { message, from }) => {
            return Reading::Unsupported {
                variant: "unknown",
                message: *message,
                from,
            };
        }
    };
    if text.moves.len() > MAX_PLIES {
        return Reading::Unreadable {
            rules: plan.candidates(&record, overrides).next().map(|c| c.rules),
            message: RecordMessage::TooManyPlies {
                plies: text.moves.len(),
                most: MAX_PLIES,
            },
            from: plan.from,
        };
    }
    let (best, tried) = best_reading(&plan, &record, overrides);
    let Some(mut reading) = best else {
        return Reading::Unreadable {
            rules: None,
            message: RecordMessage::NoRulesFit,
            from: plan.from,
        };
    };
    if !overrides.skip_alternatives
        && let Some(chosen) = Candidate::of(&reading)
        && let Reading::Replayed {
            replay,
            reads_ok_under,
            ..
        } = &mut reading
        && !reads_cleanly(replay)
        && replay.plies > 0
    {
        *reads_ok_under = record.alternatives(&chosen, &tried);
    }
    reading
}

/// The plan's candidates replayed in order until one reads the record
/// cleanly: the best reading, and each candidate tried with whether it
/// read cleanly.
fn best_reading(
    plan: &Plan,
    record: &Record<'_, '_>,
    overrides: &Overrides,
) -> (Option<Reading>, Vec<(Candidate, bool)>) {
    let mut tried: Vec<(Candidate, bool)> = Vec::new();
    let mut best: Option<Reading> = None;
    for candidate in plan.candidates(record, overrides) {
        if !worth_trying(&candidate, &tried, record.fen.is_some()) {
            continue;
        }
        let reading = record.read(&candidate, plan.from);
        let clean = reading.is_clean();
        tried.push((candidate, clean));
        best = Some(match best {
            None => reading,
            Some(current) => better(current, reading),
        });
        if clean {
            break;
        }
    }
    (best, tried)
}

/// The presets under which a record whose rules would be inferred reads
/// cleanly; `None` when its rules are not inferred (forced, named by its
/// tags, or the default) or it has no moves to decide by.
pub fn presets_reading_cleanly(
    text: &RecordText<'_>,
    overrides: &Overrides,
) -> Option<Vec<Preset>> {
    if overrides.rules.is_some() || text.moves.is_empty() || text.moves.len() > MAX_PLIES {
        return None;
    }
    let fen = match text.fen.map(Fen::parse) {
        Some(Err(_)) => return None,
        other => other.and_then(Result::ok),
    };
    // Only whether it reads cleanly counts: no position is read.
    let record = Record::new(text, fen.as_ref(), KeptPositions::Last);
    let plan = plan(text, &record, overrides, None).ok()?;
    if plan.from != VariantFrom::Inferred {
        return None;
    }
    let mut clean: Vec<Preset> = Vec::new();
    let mut tried: Vec<(Candidate, bool)> = Vec::new();
    for candidate in plan.candidates(&record, overrides) {
        let preset = candidate.rules.preset;
        if clean.contains(&preset) || !worth_trying(&candidate, &tried, record.fen.is_some()) {
            continue;
        }
        let reads = record.read(&candidate, plan.from).is_clean();
        tried.push((candidate, reads));
        if reads {
            clean.push(preset);
        }
    }
    Some(clean)
}

/// A way to read a record: rules, notation, and whether the board is
/// turned.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    rules: Rules,
    notation: Option<Notation>,
    turned: bool,
}

impl Candidate {
    /// Rules and notation on the board as named.
    fn new(rules: Rules, notation: Option<Notation>) -> Candidate {
        Candidate {
            rules,
            notation,
            turned: false,
        }
    }

    /// The candidate a replayed record was read by.
    fn of(reading: &Reading) -> Option<Candidate> {
        match *reading {
            Reading::Replayed {
                rules,
                notation,
                turned,
                ..
            } => Some(Candidate {
                rules,
                notation,
                turned,
            }),
            _ => None,
        }
    }
}

/// The candidates to replay, in order, and where their rules come from:
/// fixed ones, or, where rules are inferred, the presets to try in order
/// (their candidates are made as they are needed, since the first clean
/// reading ends the search).
struct Plan {
    fixed: Vec<Candidate>,
    order: Vec<Preset>,
    dama_tag: bool,
    from: VariantFrom,
}

impl Plan {
    /// A plan of fixed candidates.
    fn fixed(candidates: Vec<Candidate>, dama_tag: bool, from: VariantFrom) -> Plan {
        Plan {
            fixed: candidates,
            order: Vec::new(),
            dama_tag,
            from,
        }
    }

    /// The candidates in order.
    fn candidates<'p>(
        &'p self,
        record: &'p Record<'_, '_>,
        overrides: &'p Overrides,
    ) -> impl Iterator<Item = Candidate> + 'p {
        self.fixed
            .iter()
            .copied()
            .chain(self.order.iter().flat_map(move |&preset| {
                let rules = overrides.adjust(preset.rules());
                record.notations(&rules, overrides, None, self.dama_tag, true)
            }))
    }
}

/// A record of a game the engine does not play: why, and what said so.
struct Unplayable {
    message: Box<RecordMessage>,
    from: VariantFrom,
}

/// Works out where the rules come from and the candidates to try; a
/// record the engine cannot play is answered at once.
fn plan(
    text: &RecordText<'_>,
    record: &Record<'_, '_>,
    overrides: &Overrides,
    majority: Option<Preset>,
) -> Result<Plan, Unplayable> {
    let game_type = text
        .game_type
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .and_then(|raw| GameType::parse(raw).map(|parsed| (raw, parsed)));
    let dama_tag = text
        .notation
        .is_some_and(|n| n.trim().eq_ignore_ascii_case("dama"));
    if let Some(rules) = overrides.rules {
        let candidates = record.notations(&rules, overrides, game_type.as_ref(), dama_tag, false);
        return Ok(Plan::fixed(candidates, dama_tag, VariantFrom::Forced));
    }
    let tagged = match &game_type {
        Some((raw, parsed)) => match Preset::of_game_type(parsed.number, text.variant) {
            Some(preset) => Some(preset),
            None => {
                let game_type = (*raw).to_string();
                let message = match game_type_name(parsed.number) {
                    Some(name) => RecordMessage::GameNotPlayed {
                        game_type,
                        game: name.to_string(),
                    },
                    None => RecordMessage::UnknownGameType { game_type },
                };
                return Err(Unplayable {
                    message: Box::new(message),
                    from: VariantFrom::Tag,
                });
            }
        },
        None => text
            .variant
            .and_then(variant_tag_preset)
            .or(dama_tag.then_some(Preset::Filipino)),
    };
    if let Some(preset) = tagged {
        let rules = overrides.adjust(preset.rules());
        let candidates = record.notations(&rules, overrides, game_type.as_ref(), dama_tag, false);
        return Ok(Plan::fixed(candidates, dama_tag, VariantFrom::Tag));
    }
    if record.tokens == 0 && record.fen.is_none() {
        let candidate = Candidate::new(
            overrides.adjust(Preset::Filipino.rules()),
            overrides.notation,
        );
        return Ok(Plan::fixed(vec![candidate], dama_tag, VariantFrom::Default));
    }
    if !record.fits(Geometry::standard()) && !record.fits(Geometry::international()) {
        return Err(Unplayable {
            message: Box::new(RecordMessage::SquareBeyondBoards {
                square: record.farthest_square(),
            }),
            from: VariantFrom::Inferred,
        });
    }
    let mut order: Vec<Preset> = Vec::with_capacity(Preset::ALL.len());
    if record.tokens == 0 {
        // A set-up without moves gives replay nothing to decide by: it is
        // read as the file's other games are, else as an English problem
        // (or an International one, when it needs the larger board).
        let preset = majority
            .filter(|p| record.fits(p.rules().geometry))
            .unwrap_or(if record.fits(Geometry::standard()) {
                Preset::English
            } else {
                Preset::International
            });
        order.push(preset);
    } else {
        for preset in majority.into_iter().chain(Preset::INFERENCE_ORDER) {
            if !order.contains(&preset) && record.fits(preset.rules().geometry) {
                order.push(preset);
            }
        }
    }
    Ok(Plan {
        fixed: Vec::new(),
        order,
        dama_tag,
        from: VariantFrom::Inferred,
    })
}

/// A record with what its squares tell.
struct Record<'t, 'a> {
    text: &'t RecordText<'a>,
    fen: Option<&'t Fen>,
    /// Which certain positions its replays keep.
    positions: KeptPositions,
    /// Moves read as moves.
    tokens: usize,
    /// Moves written with letters.
    letters: usize,
    /// Algebraic moves whose squares are playing squares of the 8×8 board
    /// lettered from a1, and from h1.
    vismin: usize,
    luzon: usize,
    /// The largest number, farthest file (0-based) and rank written in the
    /// moves and the set-up.
    largest: u32,
    file: u8,
    rank: u8,
}

impl<'t, 'a> Record<'t, 'a> {
    fn new(
        text: &'t RecordText<'a>,
        fen: Option<&'t Fen>,
        positions: KeptPositions,
    ) -> Record<'t, 'a> {
        let mut record = Record {
            text,
            fen,
            positions,
            tokens: 0,
            letters: 0,
            vismin: 0,
            luzon: 0,
            largest: 0,
            file: 0,
            rank: 0,
        };
        if let Some(fen) = fen {
            (record.largest, record.file, record.rank) = fen.extent();
        }
        for token in text.moves.iter().flatten() {
            record.tokens += 1;
            // The commonest move, two numbers, by a shorter way.
            if let [SquareToken::Number(a), SquareToken::Number(b)] = token.squares[..] {
                record.largest = record.largest.max(u32::from(a.max(b)));
                continue;
            }
            for square in &token.squares {
                match *square {
                    SquareToken::Number(n) => record.largest = record.largest.max(u32::from(n)),
                    SquareToken::Algebraic { file, rank } => {
                        record.file = record.file.max(file);
                        record.rank = record.rank.max(rank);
                    }
                }
            }
            if token.is_algebraic() {
                record.letters += 1;
                let views = token.views();
                record.vismin += usize::from(views.vismin);
                record.luzon += usize::from(views.luzon);
            }
        }
        record
    }

    /// Whether every square written can lie on the board.
    fn fits(&self, geometry: &Geometry) -> bool {
        self.largest as usize <= geometry.len()
            && u32::from(self.file) < geometry.width()
            && u32::from(self.rank) <= geometry.height()
    }

    /// The square written that lies farthest out, for messages.
    fn farthest_square(&self) -> String {
        if self.largest > 50 || self.letters == 0 {
            self.largest.to_string()
        } else {
            SquareToken::Algebraic {
                file: self.file,
                rank: self.rank,
            }
            .to_string()
        }
    }

    /// The candidates of one set of rules: the notations worth trying,
    /// most likely first, each algebraic one then on the board turned 180°
    /// when the record starts from the initial position (a set-up would
    /// be named on the board as it is). `inferred` keeps the Dama notation
    /// to Filipino.
    fn notations(
        &self,
        rules: &Rules,
        overrides: &Overrides,
        game_type: Option<&(&str, GameType)>,
        dama_tag: bool,
        inferred: bool,
    ) -> Vec<Candidate> {
        let named = self.named_notations(rules, overrides, game_type, dama_tag, inferred);
        let mut candidates = Vec::with_capacity(2 * named.len());
        for candidate in named {
            candidates.push(candidate);
            if self.fen.is_none() && candidate.notation.and_then(Notation::orientation).is_some() {
                candidates.push(Candidate {
                    turned: true,
                    ..candidate
                });
            }
        }
        candidates
    }

    /// [`Record::notations`] on the board as named.
    fn named_notations(
        &self,
        rules: &Rules,
        overrides: &Overrides,
        game_type: Option<&(&str, GameType)>,
        dama_tag: bool,
        inferred: bool,
    ) -> Vec<Candidate> {
        let with = |notation| Candidate::new(*rules, notation);
        let dama_board = Notation::Dama.names_squares_of(rules.geometry);
        if let Some(n) = overrides.notation {
            if inferred && n == Notation::Dama && rules.preset != Preset::Filipino {
                return Vec::new();
            }
            return vec![with(Some(n))];
        }
        if dama_tag {
            return vec![with(Some(Notation::Dama))];
        }
        if self.tokens == 0 {
            return vec![with(None)];
        }
        if let Some(board) = game_type.and_then(|(_, g)| g.board) {
            // The invert flag says whether the square called a1 is a
            // playing square; the board says which lettering that is.
            let a1_playing = board.invert != Some(true);
            let direct = a1_playing == (rules.geometry.corner() == Corner::Left);
            match board.notation {
                'A' if direct => return vec![with(Some(Notation::Vismin))],
                'A' => return vec![with(Some(Notation::Luzon))],
                'N' if dama_board => {
                    return vec![with(Some(Notation::Numeric)), with(Some(Notation::Dama))];
                }
                'N' => return vec![with(Some(Notation::Numeric))],
                _ => {}
            }
        }
        if self.letters * 2 > self.tokens {
            // Letters on the mirrored boards are not a notation of theirs.
            if inferred && rules.geometry.corner() == Corner::Right {
                return Vec::new();
            }
            let luzon = rules.geometry == Geometry::standard() && self.luzon > self.vismin;
            return vec![with(Some(if luzon {
                Notation::Luzon
            } else {
                Notation::Vismin
            }))];
        }
        if dama_board && (!inferred || rules.preset == Preset::Filipino) {
            vec![with(Some(Notation::Numeric)), with(Some(Notation::Dama))]
        } else {
            vec![with(Some(Notation::Numeric))]
        }
    }

    /// Replays the record under one candidate.
    fn read(&self, candidate: &Candidate, from: VariantFrom) -> Reading {
        let Candidate {
            rules,
            notation,
            turned,
        } = *candidate;
        let unreadable = |message| Reading::Unreadable {
            rules: Some(rules),
            message,
            from,
        };
        // Turned, captures written one jump per move joined (shape.rs).
        let shape = AsRead::new(notation, turned, rules.geometry);
        let as_read = match self.text.split_captures {
            Some(false) if !turned => None,
            _ => shape.tokens(&self.text.moves),
        };
        let refs: Vec<Option<&MoveToken>>;
        let moves = match &as_read {
            Some(tokens) => {
                refs = tokens.iter().map(Option::as_ref).collect();
                &refs
            }
            None => &self.text.moves,
        };
        let first = moves.first().copied().flatten();
        let start = match self.fen {
            None => Position::initial(&rules),
            Some(fen) => {
                let mut setup = match fen.setup(rules.geometry) {
                    Ok(setup) => setup,
                    Err(err) => {
                        return unreadable(RecordMessage::UnusableFen {
                            why: err.to_string(),
                            fen: Some(err.said()),
                        });
                    }
                };
                if setup.side.is_none() {
                    setup.side = Some(side_of_first_move(&setup, first, notation, &rules));
                }
                match Position::from_setup(&setup, &rules) {
                    Ok(position) => position,
                    Err(err) => {
                        return unreadable(RecordMessage::UnusableFen {
                            why: err.to_string(),
                            fen: Some(err.said()),
                        });
                    }
                }
            }
        };
        let written = written_moves(moves, notation, &rules);
        Reading::Replayed {
            rules,
            notation,
            turned,
            start,
            replay: replay_keeping(&rules, start, &written, self.positions),
            from,
            reads_ok_under: Vec::new(),
        }
    }

    /// Whether the record reads cleanly under a candidate, using what was
    /// already tried.
    fn reads_cleanly_under(&self, candidate: &Candidate, tried: &[(Candidate, bool)]) -> bool {
        match tried.iter().find(|(c, _)| c == candidate) {
            Some(&(_, clean)) => clean,
            None => self.read(candidate, VariantFrom::Forced).is_clean(),
        }
    }

    /// The other presets, and the switch settings of the chosen rules,
    /// under which the record reads cleanly.
    fn alternatives(&self, chosen: &Candidate, tried: &[(Candidate, bool)]) -> Vec<Rules> {
        let mut found: Vec<Rules> = Vec::new();
        let plain = Overrides::default();
        for preset in Preset::INFERENCE_ORDER {
            let rules = preset.rules();
            // The chosen rules under another name (Brazilian for Filipino,
            // International for Antidraughts) read no better, and rules
            // that read as ones found say nothing new (Frysk! from a
            // set-up, as Frisian); nor does Frisian where International
            // was found.
            let set_up = self.fen.is_some();
            let same = plays_alike(&chosen.rules, &rules, set_up)
                || found.iter().any(|f| {
                    plays_alike(f, &rules, set_up) || preset.yields_to() == Some(f.preset)
                });
            if preset == chosen.rules.preset || same || !self.fits(rules.geometry) {
                continue;
            }
            let candidates = match chosen.notation {
                // A Dama record stays in Dama numbers.
                Some(Notation::Dama) if Notation::Dama.names_squares_of(rules.geometry) => {
                    vec![Candidate::new(rules, chosen.notation)]
                }
                Some(Notation::Dama) => Vec::new(),
                _ => self.notations(&rules, &plain, None, false, true),
            };
            if candidates
                .iter()
                .any(|c| self.reads_cleanly_under(c, tried))
            {
                found.push(rules);
            }
        }
        let mut switched: Vec<Rules> = Vec::new();
        let changes = |rules: &Rules| changed_switches(&chosen.rules, rules);
        for rules in switch_settings(&chosen.rules) {
            // A setting that adds changes to one already found says nothing new.
            let implied = switched
                .iter()
                .any(|s| changes(s) & changes(&rules) == changes(s));
            // Nor one that is another preset's rules under another name.
            let named = found.iter().any(|f| {
                Rules {
                    preset: rules.preset,
                    ..*f
                } == rules
            });
            if implied || named {
                continue;
            }
            let candidate = Candidate {
                rules,
                notation: chosen.notation,
                turned: chosen.turned,
            };
            if self.reads_cleanly_under(&candidate, tried) {
                switched.push(rules);
            }
        }
        found.extend(switched);
        found
    }
}

/// Every other setting of the switches of `rules`, fewest changes first:
/// the capture value and the king limit only where the rules have them
/// (Frisian), which may be switched off.
fn switch_settings(rules: &Rules) -> Vec<Rules> {
    let mut all = Vec::new();
    let max_captures: &[MaxCapture] = if rules.max_capture == MaxCapture::Value {
        &[MaxCapture::Value, MaxCapture::On, MaxCapture::Off]
    } else {
        &[MaxCapture::On, MaxCapture::Off]
    };
    let king_limits: &[KingLimit] = if rules.king_limit == KingLimit::On {
        &[KingLimit::On, KingLimit::Off]
    } else {
        &[KingLimit::Off]
    };
    for &max_capture in max_captures {
        for king_first in [KingFirst::Off, KingFirst::On] {
            for promotion in [
                Promotion::ContinueMan,
                Promotion::Stop,
                Promotion::ContinueKing,
            ] {
                for &king_limit in king_limits {
                    let other = Rules {
                        max_capture,
                        king_first,
                        promotion,
                        king_limit,
                        ..*rules
                    };
                    if other != *rules {
                        all.push(other);
                    }
                }
            }
        }
    }
    all.sort_by_key(|r| changed_switches(rules, r).count_ones());
    all
}

/// Which switches differ: one bit per switch, in table order.
fn changed_switches(base: &Rules, other: &Rules) -> u8 {
    u8::from(base.max_capture != other.max_capture)
        | u8::from(base.king_first != other.king_first) << 1
        | u8::from(base.promotion != other.promotion) << 2
        | u8::from(base.king_limit != other.king_limit) << 3
}

/// The square sets of written moves in one notation.
pub fn written_moves(
    moves: &[Option<&MoveToken>],
    notation: Option<Notation>,
    rules: &Rules,
) -> Written {
    // Two written squares per move, mostly.
    let mut written = Written::with_capacity(moves.len(), 2 * moves.len() + 8);
    for m in moves {
        written.push_with(|out| match (m, notation) {
            (Some(token), Some(n)) => token.square_sets_into(n, rules.geometry, out),
            _ => false,
        });
    }
    written
}

/// For a FEN with `?` to move: the side whose piece stands on the first
/// move's start square (White when there is no move or no telling).
fn side_of_first_move(
    setup: &crate::rules::Setup,
    first: Option<&MoveToken>,
    notation: Option<Notation>,
    rules: &Rules,
) -> Color {
    let from = first
        .and_then(|t| t.squares.first())
        .zip(notation)
        .and_then(|(s, n)| s.squares(n, rules.geometry))
        .unwrap_or(0);
    let on = |color: Color| {
        setup.pieces.iter().any(|&(label, piece)| {
            piece.color == color && (1..=64).contains(&label) && from & (1u64 << (label - 1)) != 0
        })
    };
    if on(Color::Black) && !on(Color::White) {
        Color::Black
    } else {
        Color::White
    }
}

/// Of two readings, the one covering more moves, then with fewer readings,
/// then the earlier one.
fn better(current: Reading, challenger: Reading) -> Reading {
    let score = |r: &Reading| match r {
        Reading::Replayed { replay, .. } => (
            replay.reached as i64,
            -(replay.interpretations.unwrap_or(u64::MAX / 2) as i64),
        ),
        _ => (-1, 0),
    };
    if score(&challenger) > score(&current) {
        challenger
    } else {
        current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<MoveToken> {
        text.split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect()
    }

    fn read(moves: &[MoveToken], f: impl FnOnce(&mut RecordText<'_>)) -> Reading {
        let mut text = RecordText {
            moves: moves.iter().map(Some).collect(),
            ..RecordText::default()
        };
        f(&mut text);
        read_record(&text, &Overrides::default())
    }

    #[test]
    fn a_records_squares_are_summed_up_whatever_their_shape() {
        let moves: Vec<MoveToken> = ["9-14", "31-7", "12x19x26", "c3-d4", "h2xf4xd6", "5-50"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let summary = |moves: &[MoveToken]| {
            let text = RecordText {
                moves: moves.iter().map(Some).chain([None]).collect(),
                ..RecordText::default()
            };
            let r = Record::new(&text, None, KeptPositions::All);
            (r.tokens, r.letters, r.largest, r.file, r.rank)
        };
        assert_eq!(summary(&moves[..2]), (2, 0, 31, 0, 0));
        assert_eq!(summary(&moves[..3]), (3, 0, 31, 0, 0));
        assert_eq!(summary(&moves[..5]), (5, 2, 31, 7, 6));
        assert_eq!(summary(&moves), (6, 2, 50, 7, 6));
        assert_eq!(summary(&moves[2..3]), (1, 0, 26, 0, 0));
    }

    fn summary(r: &Reading) -> (String, Option<Notation>, usize, Option<u64>) {
        match r {
            Reading::Replayed {
                rules,
                notation,
                replay,
                ..
            } => (
                rules.name(),
                *notation,
                replay.reached,
                replay.interpretations,
            ),
            Reading::Unsupported { message, .. } => (message.to_string(), None, 0, None),
            Reading::Unreadable { message, .. } => (message.to_string(), None, 0, None),
        }
    }

    #[test]
    fn game_type_presets() {
        let game_type_preset = |g: &GameType, variant| Preset::of_game_type(g.number, variant);
        let g = GameType::parse("26,W,8,8,A0,1").unwrap();
        assert_eq!(
            game_type_preset(&g, Some("Filipino Dama")),
            Some(Preset::Filipino)
        );
        assert_eq!(game_type_preset(&g, None), Some(Preset::Brazilian));
        for (number, preset) in [
            (20, Preset::International),
            (21, Preset::English),
            (22, Preset::Italian),
            (23, Preset::Pool),
            (24, Preset::Spanish),
            (25, Preset::Russian),
            (29, Preset::Czech),
            (40, Preset::Frisian),
            (96, Preset::Breakthrough),
            (97, Preset::Frysk),
            (98, Preset::Antidraughts),
        ] {
            let g = GameType::parse(&number.to_string()).unwrap();
            assert_eq!(game_type_preset(&g, None), Some(preset));
        }
        assert_eq!(
            game_type_preset(&GameType::parse("30").unwrap(), None),
            None
        );
    }

    #[test]
    fn numbers_from_black_side_mean_english() {
        let moves = tokens("11-15 23-19 8-11 22-17");
        let r = read(&moves, |_| {});
        assert_eq!(
            summary(&r),
            ("english".into(), Some(Notation::Numeric), 4, Some(1))
        );
        assert_eq!(r.variant_from(), VariantFrom::Inferred);
        let moves = tokens("23-18 10-15");
        assert_eq!(
            summary(&read(&moves, |_| {})),
            ("filipino".into(), Some(Notation::Numeric), 2, Some(1))
        );
    }

    #[test]
    fn dama_wins_when_it_covers_more() {
        // Dama 2-15 2-15: numeric 2-15 is not a move for White at the start.
        let moves = tokens("2-15 2-15 4-16 7-2");
        assert_eq!(
            summary(&read(&moves, |_| {})),
            ("filipino".into(), Some(Notation::Dama), 4, Some(1))
        );
    }

    #[test]
    fn tags_choose_variant_and_notation() {
        let moves = tokens("e3-d4 d6-e5");
        assert_eq!(summary(&read(&moves, |_| {})).1, Some(Notation::Vismin));
        let moves = tokens("d3-e4 e6-d5");
        assert_eq!(summary(&read(&moves, |_| {})).1, Some(Notation::Luzon));
        let moves = tokens("11-15 23-19");
        let r = read(&moves, |t| t.game_type = Some("21,B,8,8,N1,0"));
        assert_eq!(summary(&r).0, "english");
        assert_eq!(r.variant_from(), VariantFrom::Tag);
        let r = read(&moves, |t| t.game_type = Some("20"));
        assert_eq!(summary(&r).0, "international");
        let r = read(&moves, |t| t.game_type = Some("30"));
        assert!(
            summary(&r)
                .0
                .contains("Turkish draughts, a game pdndb does not play"),
            "{r:?}"
        );
        let r = read(&moves, |t| t.game_type = Some("99"));
        assert!(summary(&r).0.contains("names no game"), "{r:?}");
        let r = read(&tokens("32-28 18-23"), |t| {
            t.variant = Some("Russian draughts")
        });
        assert_eq!(summary(&r).0, "russian");
        assert_eq!(r.variant_from(), VariantFrom::Tag);
    }

    #[test]
    fn squares_above_32_mean_the_ten_by_ten_board() {
        let moves = tokens("32-28 19-23 28x19 14x23");
        let r = read(&moves, |_| {});
        assert_eq!(
            summary(&r),
            ("international".into(), Some(Notation::Numeric), 4, Some(1))
        );
        // Squares up to 32 that only the 10×10 board reads cleanly.
        let moves = tokens("32-28 19-23");
        assert_eq!(summary(&read(&moves, |_| {})).0, "international");
        let r = read(&[], |t| t.fen = Some("W:W31-50:B1-20"));
        assert_eq!(summary(&r).0, "international");
        let r = read(&tokens("60-55"), |_| {});
        assert!(summary(&r).0.contains("beyond every board"), "{r:?}");
    }

    #[test]
    fn frisian_is_inferred_only_where_international_does_not_read_cleanly() {
        let evidence = |text: &str| {
            let moves = tokens(text);
            let record = RecordText {
                moves: moves.iter().map(Some).collect(),
                ..RecordText::default()
            };
            presets_reading_cleanly(&record, &Overrides::default())
        };
        // Both read it: International only, Frisian not even replayed.
        assert_eq!(
            evidence("32-28 19-23 28x19 14x23"),
            Some(vec![Preset::International])
        );
        // 4... 14x34 takes along a file.
        let frisian = "34-30 18-22 30-24 19x30 35x24 20x29 33x24 14x34";
        assert_eq!(evidence(frisian), Some(vec![Preset::Frisian]));
        let r = read(&tokens(frisian), |_| {});
        assert_eq!(summary(&r).0, "frisian");
        assert_eq!(r.variant_from(), VariantFrom::Inferred);
        // Tagged International, it says what reads it.
        let r = read(&tokens(frisian), |t| t.game_type = Some("20"));
        let Reading::Replayed { reads_ok_under, .. } = &r else {
            panic!("{r:?}")
        };
        let names: Vec<String> = reads_ok_under.iter().map(Rules::name).collect();
        assert_eq!(names, ["frisian"]);
    }

    #[test]
    fn set_ups_without_moves_are_english_problems() {
        let r = read(&[], |t| t.fen = Some("W:W13,11,10,6:BK14,3,1."));
        assert_eq!(summary(&r).0, "english");
        assert_eq!(r.variant_from(), VariantFrom::Inferred);
        let r = read(&[], |_| {});
        assert_eq!(summary(&r).0, "filipino");
        assert_eq!(r.variant_from(), VariantFrom::Default);
    }

    #[test]
    fn the_file_majority_breaks_ties() {
        // Reads cleanly under Filipino and Russian alike.
        let moves = tokens("c3-d4 f6-e5");
        let text = RecordText {
            moves: moves.iter().map(Some).collect(),
            ..RecordText::default()
        };
        let r = read_record_in(&text, &Overrides::default(), Some(Preset::Russian));
        assert_eq!(summary(&r).0, "russian");
        let r = read_record_in(&text, &Overrides::default(), None);
        assert_eq!(summary(&r).0, "filipino");
    }

    #[test]
    fn problem_games_say_what_reads_them_cleanly() {
        // White's 27 can take two (27x18x11), 26 one (26x17): the majority
        // rule forbids what the record plays.
        let fen = "W:W26,27:B1,15,22,23";
        let moves = tokens("26x17");
        let r = read(&moves, |t| {
            t.fen = Some(fen);
            t.game_type = Some("26,W,8,8,N2,0");
            t.variant = Some("Filipino Dama");
        });
        let Reading::Replayed { reads_ok_under, .. } = &r else {
            panic!("{r:?}")
        };
        let names: Vec<String> = reads_ok_under.iter().map(Rules::name).collect();
        assert!(names.contains(&"russian".to_string()), "{names:?}");
        assert!(
            names.contains(&"filipino+max-capture=off".to_string()),
            "{names:?}"
        );
        // Only the smallest change is named.
        assert!(
            !names
                .iter()
                .any(|n| n.starts_with("filipino+max-capture=off+")),
            "{names:?}"
        );
    }

    #[test]
    fn bad_fen_or_overlong_games_are_unreadable() {
        let r = read(&[], |t| t.fen = Some("W:W18,18:B1"));
        assert!(summary(&r).0.contains("two pieces on square 18"), "{r:?}");
        let r = read(&[], |t| t.fen = Some("Q:W18"));
        assert!(summary(&r).0.starts_with("FEN: "), "{r:?}");
        let many = tokens(&"23-18 ".repeat(MAX_PLIES + 1));
        assert!(summary(&read(&many, |_| {})).0.contains("over the limit"));
    }

    #[test]
    fn question_mark_side_takes_the_first_mover() {
        let moves = tokens("9-14");
        let r = read(&moves, |t| t.fen = Some("?:W18:B9"));
        let Reading::Replayed { start, replay, .. } = r else {
            panic!()
        };
        assert_eq!(start.side(), Color::Black);
        assert_eq!(replay.reached, 1);
    }
}
