//! Rules as data: the presets and the switches for contested points.
//!
//! A [`Rules`] value is everything the move generator needs to know about a
//! variant. Presets fill it in; `--rules key=value,…` switches change single
//! fields on top of a preset. [`Rules::name`] gives the recorded form
//! (`filipino`, `filipino+max-capture=off+promotion=stop`).
//!
//! The presets and the decisive rules of each:
//!
//! | preset | board | first | men capture backward | kings | capture choice | a man reaching the last row in a capture |
//! |---|---|---|---|---|---|---|
//! | `filipino` | 8×8 | White | yes | flying | most pieces | goes on as a man; crowned if the move ends there |
//! | `brazilian` | 8×8 | White | yes | flying | most pieces | as filipino |
//! | `pool` | 8×8 | Black | yes | flying | free | as filipino |
//! | `russian` | 8×8 | White | yes | flying | free | crowned at once, goes on as a king |
//! | `english` | 8×8 | Black | no | one square | free | crowned, the move ends |
//! | `international` | 10×10 | White | yes | flying | most pieces | as filipino |
//! | `czech` | 8×8 | White | no | flying | free, but a king must capture when a king can | crowned, the move ends |
//! | `italian` | 8×8, mirrored | White | no; a man may not capture a king | one square | most pieces, then with a king, then most kings, then a king first | crowned, the move ends |
//! | `spanish` | 8×8, mirrored | White | no | flying | most pieces, then most kings | crowned, the move ends |
//! | `frisian` | 10×10 | White | yes, and men and kings also capture along rows and files | flying (moving diagonally, capturing every way) | highest value (a king worth less than two men, more than one), then with a king; a king may not make a fourth plain move in a row while its side has men | as filipino |
//! | `frysk` | 10×10, five men each on the back rows | as `frisian` | | | | |
//! | `antidraughts` | as `international`; the side that cannot move (no piece left, or all blocked) wins | | | | | |
//! | `breakthrough` | as `international`; the first side to make a king wins | | | | | |
//!
//! Common to all: capturing is compulsory and goes on while it can; captured
//! pieces leave the board when the move ends and none is jumped twice; a
//! flying king lands on a square from which it can go on capturing when
//! there is one. "Mirrored" boards have their bottom-right corner as a
//! playing square ([`Corner::Right`](crate::rules::Corner::Right)); their squares are numbered row by row
//! from the top left like the others.
//!
//! Sources (the rule numbers are theirs):
//!
//! * International: FMJD, *Official rules for international draughts*,
//!   Annex 1 (fmjd.org; art. 2.4 the board, 2.6 the numbering, 4.1 men
//!   capture backwards, 4.3 flying kings, 4.5 removal after the capture,
//!   4.13 the majority rule, kings counting as men, 4.15 no promotion in
//!   passing).
//! * Czech: the rules of the Česká federace dámy (damweb.cz, "Pravidla
//!   české dámy"): men move and capture forward only, kings fly, no majority
//!   rule, "may the player jump with a king or a man, he must jump with the
//!   king"; a man ending its capture on the last row is crowned.
//! * Italian: Federazione Italiana Dama, *Regolamento ufficiale di gioco*,
//!   Capo I (fid.it): art. 2.3 the bottom-right square is dark, 2.4 the
//!   numbering from the top-left corner, 2.6 Black on 1–12, 3.4 White moves
//!   first, 5.3 men capture forward only and never a king, 6.6–6.10 the
//!   order of precedence.
//! * Spanish: the rules of *damas clásicas* of the Federação Portuguesa de
//!   Damas (the same game), rule 3 the numbering from White's bottom-right
//!   square, right to left and bottom to top, rule 6 the bottom-right corner
//!   is a playing square, rule 7 the laws of quantity then quality.
//! * Frisian: KNDB (Koninklijke Nederlandse Dambond), *Official Rules for
//!   Frisian Draughts* (2011), as lidraughts ships it
//!   (RoepStoep/lidraughts, `doc/variant/frisian/OfficialRulesFrisianDraughts.pdf`):
//!   art. 7 men move one square diagonally forward and capture every way,
//!   along rows and files too; art. 8 crowned only where the move ends;
//!   art. 9 kings move along diagonals only, fly, and capture every way;
//!   art. 11 the highest capture value, a king worth more than one man and
//!   less than two ("three kings are of less value than six men, but
//!   higher in value than five men"); art. 12 on equal value the king
//!   captures; art. 17 a player with kings and men may not make more than
//!   three plain moves in a row with the same king; a capture with it, or
//!   a move of another king or a man, lifts the ban; a player with only
//!   kings is free. lidraughts (`modules/draughts/src/main/variant/Frisian.scala`)
//!   values a king 199 and a man 100, which orders every capture as the
//!   text does, prefers a king's capture on a tie, and
//!   (`Actor.scala`, `DraughtsHistory.scala`, `Frisian.finalizeBoard`)
//!   counts a side's plain king moves with the king that made them: a plain
//!   move of another king starts the count again at one, a man's move or a
//!   capture sets it to none, and a side without men is not counted. The
//!   switches `king-first` (on) and `king-limit` (on) can turn the
//!   contested points off; `max-capture=on` counts pieces instead.
//! * Frysk!: lidraughts' variant of Frisian rules from five men each on
//!   the back rows (`variant/Frysk.scala`: `W:W46,47,48,49,50:B1,2,3,4,5`).
//! * Antidraughts and Breakthrough: lidraughts' variants
//!   (`variant/Antidraughts.scala`, `variant/Breakthrough.scala`) of the
//!   International game, moving exactly as it does; they differ only in
//!   who wins ([`WinCondition`]). GameTypes 40, 96, 97 and 98 are
//!   lidraughts' numbers for Frisian, Breakthrough, Frysk! and Antidraughts.
//! * Board layouts, rule-book test positions and published perft counts:
//!   rhalbersma/dctl (`include/dctl/core/rules/`, `test/src/core/actions/`,
//!   `test/src/ai/traversal/initial/`); International perft also Aart Bik's
//!   BikDam figures. The landing rule of Czech flying kings is not written
//!   in the Czech texts; the published Czech counts need it (depth 9 is
//!   3963671 with it, 3963673 without).

use std::fmt;
use std::str::FromStr;

use super::board::{Color, Geometry};
use super::switch::{KingFirst, KingLimit, MaxCapture, Promotion, Switch, SwitchError, Switches};

/// A named set of rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Preset {
    /// Filipino Dama (the default): Brazilian rules.
    Filipino,
    /// Brazilian draughts.
    Brazilian,
    /// American pool checkers.
    Pool,
    /// Russian draughts (shashki).
    Russian,
    /// English draughts / American checkers.
    English,
    /// International draughts on the 10×10 board (FMJD rules).
    International,
    /// Czech draughts.
    Czech,
    /// Italian draughts (on the mirrored 8×8 board).
    Italian,
    /// Spanish draughts (on the mirrored 8×8 board).
    Spanish,
    /// Frisian draughts (KNDB rules), on the 10×10 board.
    Frisian,
    /// Frysk!: Frisian rules from five men each on the back rows.
    Frysk,
    /// Antidraughts: International moves; the side that cannot move wins.
    Antidraughts,
    /// Breakthrough: International moves; the first side to make a king
    /// wins.
    Breakthrough,
}

impl Preset {
    /// Every preset, in the order of the rules table.
    pub const ALL: [Preset; 13] = [
        Preset::Filipino,
        Preset::Brazilian,
        Preset::Pool,
        Preset::Russian,
        Preset::English,
        Preset::International,
        Preset::Czech,
        Preset::Italian,
        Preset::Spanish,
        Preset::Frisian,
        Preset::Frysk,
        Preset::Antidraughts,
        Preset::Breakthrough,
    ];

    /// The presets a record's rules may be inferred as, in the order that
    /// breaks ties: Filipino first, International ahead of Frisian (a
    /// record both read is International), Frysk last. Antidraughts and
    /// Breakthrough are not among them: they move as International does,
    /// so a record's moves cannot tell them apart; only tags name them.
    pub const INFERENCE_ORDER: [Preset; 11] = [
        Preset::Filipino,
        Preset::English,
        Preset::Russian,
        Preset::Brazilian,
        Preset::Pool,
        Preset::Czech,
        Preset::Italian,
        Preset::Spanish,
        Preset::International,
        Preset::Frisian,
        Preset::Frysk,
    ];

    /// The preset a record's rules are inferred as in preference to this
    /// one, and whose clean reading of a record makes trying this one
    /// needless: International for Frisian and Frysk!, whose records it
    /// reads alike until a capture (or a king's fourth move) tells them
    /// apart. So a file of International games costs no Frisian replay.
    pub fn yields_to(self) -> Option<Preset> {
        match self {
            Preset::Frisian | Preset::Frysk => Some(Preset::International),
            _ => None,
        }
    }

    /// The preset's name as written on the command line and stored.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Filipino => "filipino",
            Preset::Brazilian => "brazilian",
            Preset::Pool => "pool",
            Preset::Russian => "russian",
            Preset::English => "english",
            Preset::International => "international",
            Preset::Czech => "czech",
            Preset::Italian => "italian",
            Preset::Spanish => "spanish",
            Preset::Frisian => "frisian",
            Preset::Frysk => "frysk",
            Preset::Antidraughts => "antidraughts",
            Preset::Breakthrough => "breakthrough",
        }
    }

    /// Other names people give the preset on the command line
    /// (`checkers` and `american` for English draughts).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Preset::English => &["checkers", "american"],
            Preset::Filipino => &["dama"],
            _ => &[],
        }
    }

    /// The PDN GameType number.
    pub fn game_type(self) -> u32 {
        match self {
            Preset::Filipino | Preset::Brazilian => 26,
            Preset::Pool => 23,
            Preset::Russian => 25,
            Preset::English => 21,
            Preset::International => 20,
            Preset::Czech => 29,
            Preset::Italian => 22,
            Preset::Spanish => 24,
            Preset::Frisian => 40,
            Preset::Breakthrough => 96,
            Preset::Frysk => 97,
            Preset::Antidraughts => 98,
        }
    }

    /// The preset's rules.
    pub fn rules(self) -> Rules {
        let base = Rules {
            preset: self,
            geometry: Geometry::standard(),
            start_rows: 3,
            first: Color::White,
            men_capture_backward: true,
            men_capture_kings: true,
            flying_kings: true,
            orthogonal_captures: false,
            max_capture: MaxCapture::On,
            king_first: KingFirst::Off,
            most_kings: false,
            king_met_first: false,
            promotion: Promotion::ContinueMan,
            king_limit: KingLimit::Off,
            win: WinCondition::Usual,
        };

        // The rules of the games where men capture forward only.
        let forward_only = Rules {
            men_capture_backward: false,
            promotion: Promotion::Stop,
            ..base
        };
        match self {
            Preset::Filipino | Preset::Brazilian => base,
            Preset::Pool => Rules {
                first: Color::Black,
                max_capture: MaxCapture::Off,
                ..base
            },
            Preset::Russian => Rules {
                max_capture: MaxCapture::Off,
                promotion: Promotion::ContinueKing,
                ..base
            },
            Preset::English => Rules {
                first: Color::Black,
                flying_kings: false,
                max_capture: MaxCapture::Off,
                ..forward_only
            },
            Preset::Czech => Rules {
                max_capture: MaxCapture::Off,
                king_first: KingFirst::On,
                ..forward_only
            },
            Preset::Italian => Rules {
                geometry: Geometry::italian(),
                men_capture_kings: false,
                flying_kings: false,
                king_first: KingFirst::On,
                most_kings: true,
                king_met_first: true,
                ..forward_only
            },
            Preset::Spanish => Rules {
                geometry: Geometry::spanish(),
                most_kings: true,
                ..forward_only
            },
            Preset::International
            | Preset::Frisian
            | Preset::Frysk
            | Preset::Antidraughts
            | Preset::Breakthrough => self.ten_by_ten_rules(base),
        }
    }

    /// The rules of the presets of the 10×10 board, from the common base.
    fn ten_by_ten_rules(self, base: Rules) -> Rules {
        let international = Rules {
            geometry: Geometry::international(),
            start_rows: 4,
            ..base
        };
        let frisian = Rules {
            orthogonal_captures: true,
            max_capture: MaxCapture::Value,
            king_first: KingFirst::On,
            king_limit: KingLimit::On,
            ..international
        };
        match self {
            Preset::Frisian => frisian,
            Preset::Frysk => Rules {
                start_rows: 1,
                ..frisian
            },
            Preset::Antidraughts => Rules {
                win: WinCondition::CannotMove,
                ..international
            },
            Preset::Breakthrough => Rules {
                win: WinCondition::FirstKing,
                ..international
            },
            _ => international,
        }
    }

    /// The preset of a PDN GameType number, where one plays it: 26 is
    /// `filipino` when the `Variant` tag names Filipino Dama, `brazilian`
    /// otherwise.
    pub fn of_game_type(number: u32, variant_tag: Option<&str>) -> Option<Preset> {
        match number {
            26 if variant_tag.is_some_and(names_filipino) => Some(Preset::Filipino),
            _ => Preset::ALL
                .into_iter()
                .filter(|p| *p != Preset::Filipino)
                .find(|p| p.game_type() == number),
        }
    }
}

/// Whether a `Variant` tag names Filipino Dama.
fn names_filipino(tag: &str) -> bool {
    let holds = |word: &[u8]| {
        tag.as_bytes()
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word))
    };
    holds(b"filipino") || holds(b"dama")
}

/// The games of the PDN GameType table that no preset plays, by number.
const OTHER_GAMES: [(u32, &str); 9] = [
    (0, "chess"),
    (1, "Chinese chess"),
    (27, "Canadian draughts (12x12)"),
    (28, "Portuguese draughts"),
    (30, "Turkish draughts"),
    (31, "Thai draughts"),
    (32, "Thai draughts"),
    (41, "Spantsiretti"),
    (42, "Gothic draughts"),
];

/// The name of the game a PDN GameType number stands for, for messages:
/// the preset's name when one plays it.
pub fn game_type_name(number: u32) -> Option<&'static str> {
    Preset::of_game_type(number, None)
        .map(Preset::name)
        .or_else(|| {
            OTHER_GAMES
                .iter()
                .find(|(n, _)| *n == number)
                .map(|(_, name)| *name)
        })
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Preset, RulesError> {
        let lower = s.trim().to_ascii_lowercase();
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == lower || p.aliases().contains(&lower.as_str()))
            .ok_or_else(|| RulesError::UnknownPreset(s.to_string()))
    }
}

/// Who wins when the game ends on the board, for a later check of results
/// against the final position (see [`Rules::winner`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinCondition {
    /// The side that cannot move (no piece left, or all blocked) loses:
    /// every preset but the two below.
    Usual,
    /// Antidraughts: the side that cannot move (no piece left, or all
    /// blocked) wins.
    CannotMove,
    /// Breakthrough: the first side to make a king wins (and a side that
    /// cannot move loses).
    FirstKing,
}

/// The full set of rules the engine plays by.
///
/// Among the captures a position allows, the rules keep, in this order: the
/// ones taking the most pieces, or of the highest value
/// ([`Rules::max_capture`]); those made by a king ([`Rules::king_first`]); those taking the most kings
/// ([`Rules::most_kings`]); those meeting a king earliest
/// ([`Rules::king_met_first`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The preset these rules started from.
    pub preset: Preset,
    /// The board.
    pub geometry: &'static Geometry,
    /// The rows each side's men fill at the start, from its own edge (all
    /// their playing squares).
    pub start_rows: u32,
    /// The side that moves first from the initial position.
    pub first: Color,
    /// Men may capture backwards.
    pub men_capture_backward: bool,
    /// Men may capture kings (not in Italian draughts).
    pub men_capture_kings: bool,
    /// Kings move and capture along whole diagonals.
    pub flying_kings: bool,
    /// Men and kings also capture along rows and files (Frisian), every
    /// way; kings fly there too.
    pub orthogonal_captures: bool,
    /// The majority-capture rule.
    pub max_capture: MaxCapture,
    /// The king-first rule.
    pub king_first: KingFirst,
    /// Of the captures left, only those taking the most kings are legal.
    pub most_kings: bool,
    /// Of the captures left, only those that take a king earliest in their
    /// sequence of jumps are legal.
    pub king_met_first: bool,
    /// Mid-capture promotion.
    pub promotion: Promotion,
    /// The limit on plain moves in a row with one king.
    pub king_limit: KingLimit,
    /// Who wins when the game ends on the board.
    pub win: WinCondition,
}

impl Default for Rules {
    fn default() -> Rules {
        Preset::Filipino.rules()
    }
}

/// Why a variant or rules string cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Not one of the preset names.
    #[error(
        "unknown variant `{0}` (expected filipino, brazilian, pool, russian, english, international, czech, italian, spanish, frisian, frysk, antidraughts or breakthrough)"
    )]
    UnknownPreset(String),
    /// A switch that cannot be read.
    #[error(transparent)]
    Switch(#[from] SwitchError),
}

impl RulesError {
    /// The message of a parameter `param` whose value names no rules,
    /// as a code and its parts.
    pub fn said(&self, param: String) -> crate::message::RequestMessage {
        use crate::message::RequestMessage;
        match self {
            RulesError::UnknownPreset(name) => RequestMessage::UnknownVariant {
                param,
                value: name.clone(),
                expected: Preset::ALL.map(Preset::name).join(", "),
                why: self.to_string(),
            },
            RulesError::Switch(e) => RequestMessage::BadRules {
                param,
                why: e.to_string(),
                switch: Some(e.said()),
            },
        }
    }
}

impl Rules {
    /// Whether every capture is legal when any is: no majority, king-first,
    /// most-kings or king-met-first rule chooses among them.
    pub fn captures_chosen_freely(&self) -> bool {
        self.max_capture == MaxCapture::Off
            && self.king_first == KingFirst::Off
            && !self.most_kings
            && !self.king_met_first
    }

    /// Applies one switch.
    ///
    /// # Errors
    /// An unknown key or a value the key does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        self.apply(Switch::parse(key, value)?);
        Ok(())
    }

    /// Sets one switch.
    pub fn apply(&mut self, switch: Switch) {
        match switch {
            Switch::MaxCapture(v) => self.max_capture = v,
            Switch::KingFirst(v) => self.king_first = v,
            Switch::Promotion(v) => self.promotion = v,
            Switch::KingLimit(v) => self.king_limit = v,
        }
    }

    /// Sets each switch, in order (a later one wins).
    pub fn apply_switches(&mut self, switches: &Switches) {
        for &switch in &switches.0 {
            self.apply(switch);
        }
    }

    /// Every switch as these rules set it, in table order.
    pub fn switches(&self) -> [Switch; 4] {
        [
            Switch::MaxCapture(self.max_capture),
            Switch::KingFirst(self.king_first),
            Switch::Promotion(self.promotion),
            Switch::KingLimit(self.king_limit),
        ]
    }

    /// Rules from a preset and the switches of `--rules`.
    pub fn with_switches(preset: Preset, switches: Option<&Switches>) -> Rules {
        let mut rules = preset.rules();
        if let Some(switches) = switches {
            rules.apply_switches(switches);
        }
        rules
    }

    /// A variant as a user writes it, in the form stored: lower case,
    /// trimmed, the preset named by its own name rather than an alias
    /// (`Checkers+max-capture=on` → `english+max-capture=on`).
    pub fn stored_form(text: &str) -> String {
        let text = text.trim().to_ascii_lowercase();
        let (head, rest) = text.split_at(text.find('+').unwrap_or(text.len()));
        match head.parse::<Preset>() {
            Ok(preset) => format!("{}{rest}", preset.name()),
            Err(_) => text,
        }
    }

    /// Parses the recorded form: a preset name followed by `+key=value`
    /// switches (`filipino+promotion=stop`).
    ///
    /// # Errors
    /// An unknown preset or a bad switch.
    pub fn parse(recorded: &str) -> Result<Rules, RulesError> {
        let mut parts = recorded.split('+');
        let preset: Preset = parts.next().unwrap_or_default().parse()?;
        let mut rules = preset.rules();
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SwitchError::NotKeyValue(part.to_string()))?;
            rules.set(key, value)?;
        }
        Ok(rules)
    }

    /// The recorded form: preset name plus each switch that differs from the
    /// preset, in table order.
    pub fn name(&self) -> String {
        let base = self.preset.rules().switches();
        let mut name = self.preset.name().to_string();
        for (switch, preset) in self.switches().into_iter().zip(base) {
            if switch != preset {
                name.push('+');
                name.push_str(&switch.to_string());
            }
        }
        name
    }

    /// The side whose win `1-0` records: the side that moves first.
    pub fn one_nil_winner(&self) -> Color {
        self.first
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_tags_naming_filipino_dama() {
        for tag in [
            "Filipino Dama",
            "FILIPINO",
            "dama",
            "Pinoy DaMa",
            "Dama (Luzon)",
        ] {
            assert_eq!(
                Preset::of_game_type(26, Some(tag)),
                Some(Preset::Filipino),
                "{tag}"
            );
        }
        for tag in ["Brazilian", "", "Filipin", "dam a", "Dáma"] {
            assert_eq!(
                Preset::of_game_type(26, Some(tag)),
                Some(Preset::Brazilian),
                "{tag}"
            );
        }
    }

    #[test]
    fn presets_have_the_table_values() {
        let f = Preset::Filipino.rules();
        assert_eq!(f.first, Color::White);
        assert_eq!(f.max_capture, MaxCapture::On);
        assert_eq!(f.promotion, Promotion::ContinueMan);
        let e = Preset::English.rules();
        assert_eq!(e.first, Color::Black);
        assert!(!e.flying_kings && !e.men_capture_backward);
        assert_eq!(e.promotion, Promotion::Stop);
        assert_eq!(Preset::Russian.rules().promotion, Promotion::ContinueKing);
        assert_eq!(Preset::Pool.rules().first, Color::Black);
        assert_eq!(Preset::Pool.rules().max_capture, MaxCapture::Off);
    }

    #[test]
    fn recorded_name_lists_changed_switches_in_table_order() {
        let mut r = Rules::default();
        assert_eq!(r.name(), "filipino");
        "promotion=stop,max-capture=off"
            .parse::<Switches>()
            .map(|s| r.apply_switches(&s))
            .unwrap();
        assert_eq!(r.name(), "filipino+max-capture=off+promotion=stop");
        assert_eq!(Rules::parse(&r.name()).unwrap(), r);
        let mut r = Preset::Russian.rules();
        r.set("max-capture", "on").unwrap();
        assert_eq!(r.name(), "russian+max-capture=on");
        // Setting a switch to the preset's own value records nothing.
        let mut r = Rules::default();
        r.set("king-first", "off").unwrap();
        assert_eq!(r.name(), "filipino");
    }

    #[test]
    fn bad_switches_name_the_bad_part() {
        let err = "promotion=fly".parse::<Switches>().unwrap_err();
        assert!(err.to_string().contains("`fly`"), "{err}");
        let err = Rules::parse("chess").unwrap_err();
        assert_eq!(err, RulesError::UnknownPreset("chess".into()));
    }
}
