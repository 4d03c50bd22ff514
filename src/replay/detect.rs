//! Choosing the variant, notation and start position of a record, then
//! replaying it (DESIGN order: command line, tags, letters, numbers).

use crate::notation::{MoveToken, Notation, parse_fen};
use crate::pdn::GameType;
use crate::rules::{Color, Position, Preset, Rules, Setup};

use super::interpret::{Replay, Written, replay};

/// Longest main line replayed, in plies.
pub const MAX_PLIES: usize = 20_000;

/// Choices given on the command line; they apply to every game.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--variant` (with `--rules` applied): the rules of every game.
    pub rules: Option<Rules>,
    /// `--rules` without `--variant`: switches applied on top of each
    /// game's detected preset, as `key=value,…` (already validated).
    pub switches: Option<String>,
    /// `--notation`.
    pub notation: Option<Notation>,
}

impl Overrides {
    /// Applies the switches to detected rules.
    fn adjust(&self, mut rules: Rules) -> Rules {
        if let Some(switches) = &self.switches {
            // Validated when the overrides were made; a bad pair is skipped.
            let _ = rules.apply_switches(switches);
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
}

/// The preset of a known GameType number (26 is `filipino` with a Variant
/// tag naming Filipino Dama, `brazilian` without).
pub fn game_type_preset(game_type: &GameType, variant_tag: Option<&str>) -> Option<Preset> {
    match game_type.number {
        21 => Some(Preset::English),
        23 => Some(Preset::Pool),
        25 => Some(Preset::Russian),
        26 if variant_tag.is_some_and(names_filipino) => Some(Preset::Filipino),
        26 => Some(Preset::Brazilian),
        _ => None,
    }
}

fn names_filipino(tag: &str) -> bool {
    let lower = tag.to_ascii_lowercase();
    lower.contains("filipino") || lower.contains("dama")
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
        /// The start position.
        start: Position,
        /// What replay found.
        replay: Replay,
    },
    /// A variant the engine does not play.
    Unsupported {
        /// `international` or `unknown`.
        variant: &'static str,
        /// Why.
        message: String,
    },
    /// Text or set-up that cannot be used.
    Unreadable {
        /// The rules it would have been read by, if known.
        rules: Option<Rules>,
        /// Why.
        message: String,
    },
}

/// Decides variant, notation and start position, and replays the record.
pub fn read_record(text: &RecordText<'_>, overrides: &Overrides) -> Reading {
    let game_type = text
        .game_type
        .filter(|t| !t.trim().is_empty())
        .map(|t| (t, GameType::parse(t)));
    let tag_preset = match &game_type {
        Some((raw, parsed)) => match parsed
            .as_ref()
            .and_then(|g| game_type_preset(g, text.variant))
        {
            Some(preset) => Some(preset),
            None if overrides.rules.is_some() => None,
            None => {
                let number = parsed.as_ref().map(|g| g.number);
                return Reading::Unsupported {
                    variant: if number == Some(20) {
                        "international"
                    } else {
                        "unknown"
                    },
                    message: format!("GameType \"{raw}\" is a variant pdndb does not play"),
                };
            }
        },
        None => None,
    };
    let setup = match text.fen.map(parse_fen) {
        None => None,
        Some(Ok(setup)) => Some(setup),
        Some(Err(err)) => {
            return Reading::Unreadable {
                rules: overrides.rules,
                message: format!("FEN: {err}"),
            };
        }
    };
    if game_type.is_none()
        && overrides.rules.is_none()
        && let Some(square) = square_above_32(setup.as_ref(), &text.moves)
    {
        return Reading::Unsupported {
            variant: if square <= 50 {
                "international"
            } else {
                "unknown"
            },
            message: format!(
                "square {square} is above 32: not an 8x8 game (a 10x10 variant is not played yet)"
            ),
        };
    }
    if text.moves.len() > MAX_PLIES {
        return Reading::Unreadable {
            rules: overrides.rules.or(tag_preset.map(Preset::rules)),
            message: format!(
                "{} plies: over the limit of {MAX_PLIES} plies per game",
                text.moves.len()
            ),
        };
    }
    let tag_rules = overrides.rules.or(tag_preset.map(Preset::rules));
    let candidates = notation_candidates(
        text,
        overrides,
        game_type.as_ref().and_then(|(_, g)| g.as_ref()),
    );
    let mut best: Option<Reading> = None;
    for notation in candidates {
        let reading = match read_in(text, setup.as_ref(), notation, tag_rules, overrides) {
            Ok(reading) => reading,
            Err(message) => Reading::Unreadable {
                rules: tag_rules,
                message,
            },
        };
        best = Some(match best {
            None => reading,
            Some(current) => better(current, reading),
        });
        if let Some(Reading::Replayed { replay, .. }) = &best
            && replay.reached == replay.plies
            && replay.interpretations == Some(1)
        {
            break; // no later notation can do better
        }
    }
    best.unwrap_or_else(|| Reading::Unreadable {
        rules: tag_rules,
        message: "nothing to read".to_string(),
    })
}

/// The notations worth trying, most likely first.
fn notation_candidates(
    text: &RecordText<'_>,
    overrides: &Overrides,
    game_type: Option<&GameType>,
) -> Vec<Option<Notation>> {
    if let Some(n) = overrides.notation {
        return vec![Some(n)];
    }
    if text
        .notation
        .is_some_and(|n| n.trim().eq_ignore_ascii_case("dama"))
    {
        return vec![Some(Notation::Dama)];
    }
    let tokens: Vec<&MoveToken> = text.moves.iter().flatten().copied().collect();
    if tokens.is_empty() {
        return vec![None];
    }
    let by_tag = game_type
        .and_then(|g| g.board)
        .and_then(|b| match (b.notation, b.invert) {
            ('A', Some(true)) => Some(vec![Some(Notation::Luzon)]),
            ('A', _) => Some(vec![Some(Notation::Vismin)]),
            ('N', _) => Some(vec![Some(Notation::Numeric), Some(Notation::Dama)]),
            _ => None,
        });
    if let Some(list) = by_tag {
        return list;
    }
    let letters = tokens.iter().filter(|t| t.is_algebraic()).count();
    if letters * 2 > tokens.len() {
        let vismin = tokens.iter().filter(|t| t.views().vismin).count();
        let luzon = tokens.iter().filter(|t| t.views().luzon).count();
        return if luzon > vismin {
            vec![Some(Notation::Luzon)]
        } else {
            vec![Some(Notation::Vismin)]
        };
    }
    vec![Some(Notation::Numeric), Some(Notation::Dama)]
}

/// The first square above 32 named by a set-up or a numeric move.
fn square_above_32(setup: Option<&Setup>, moves: &[Option<&MoveToken>]) -> Option<u32> {
    let in_setup = setup.and_then(|s| s.pieces.iter().map(|&(label, _)| label).find(|&l| l > 32));
    in_setup.or_else(|| {
        moves
            .iter()
            .flatten()
            .filter_map(|t| t.max_number())
            .find(|&n| n > 32)
    })
}

/// Replays the record in one notation.
fn read_in(
    text: &RecordText<'_>,
    setup: Option<&Setup>,
    notation: Option<Notation>,
    tag_rules: Option<Rules>,
    overrides: &Overrides,
) -> Result<Reading, String> {
    let first = text.moves.first().copied().flatten();
    let rules = match (overrides.rules, notation) {
        (Some(rules), _) => rules,
        // The Dama notation is Filipino, unless the tags name other rules
        // (a game of another variant exported in Dama numbers).
        (None, Some(Notation::Dama)) => {
            overrides.adjust(tag_rules.unwrap_or_else(|| Preset::Filipino.rules()))
        }
        (None, _) => overrides.adjust(tag_rules.unwrap_or_else(|| guess_rules(setup, first))),
    };
    let start = match setup {
        None => Position::initial(&rules),
        Some(setup) => {
            let mut setup = setup.clone();
            if setup.side.is_none() {
                setup.side = Some(side_of_first_move(&setup, first, notation, &rules));
            }
            Position::from_setup(&setup, &rules).map_err(|e| format!("FEN: {e}"))?
        }
    };
    let written = written_moves(&text.moves, notation, &rules);
    let replay = replay(&rules, start, &written);
    Ok(Reading::Replayed {
        rules,
        notation,
        start,
        replay,
    })
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

/// Without tags: a numeric record from the standard start whose first move is
/// made by the side on 1..12 is English checkers; anything else Filipino.
fn guess_rules(setup: Option<&Setup>, first: Option<&MoveToken>) -> Rules {
    let filipino = Preset::Filipino.rules();
    let standard_start = match setup {
        None => true,
        Some(s) => {
            let mut s = s.clone();
            s.side = Some(Color::White);
            Position::from_setup(&s, &filipino).is_ok_and(|p| {
                p.to_setup().pieces == Position::initial(&filipino).to_setup().pieces
            })
        }
    };
    let first_from = first
        .and_then(|t| t.squares.first())
        .and_then(|s| s.squares(Notation::Numeric, filipino.geometry));
    match first_from {
        Some(from) if standard_start && from & 0xFFF != 0 => Preset::English.rules(),
        _ => filipino,
    }
}

/// For a FEN with `?` to move: the side whose piece stands on the first
/// move's start square (White when there is no move or no telling).
fn side_of_first_move(
    setup: &Setup,
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
            Reading::Unsupported { variant, .. } => (variant.to_string(), None, 0, None),
            Reading::Unreadable { message, .. } => (message.clone(), None, 0, None),
        }
    }

    #[test]
    fn game_type_presets() {
        let g = GameType::parse("26,W,8,8,A0,1").unwrap();
        assert_eq!(
            game_type_preset(&g, Some("Filipino Dama")),
            Some(Preset::Filipino)
        );
        assert_eq!(game_type_preset(&g, None), Some(Preset::Brazilian));
        assert_eq!(
            game_type_preset(&GameType::parse("21").unwrap(), None),
            Some(Preset::English)
        );
        assert_eq!(
            game_type_preset(&GameType::parse("20").unwrap(), None),
            None
        );
    }

    #[test]
    fn numbers_from_black_side_mean_english() {
        let moves = tokens("11-15 23-19 8-11 22-17");
        assert_eq!(
            summary(&read(&moves, |_| {})),
            ("english".into(), Some(Notation::Numeric), 4, Some(1))
        );
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
        let r = read(&moves, |t| t.game_type = Some("20"));
        assert_eq!(summary(&r).0, "international");
        let r = read(&moves, |t| t.game_type = Some("30"));
        assert_eq!(summary(&r).0, "unknown");
    }

    #[test]
    fn squares_above_32_without_game_type_are_unsupported() {
        let moves = tokens("32-28 19-23 33-29");
        assert_eq!(summary(&read(&moves, |_| {})).0, "international");
        let r = read(&[], |t| t.fen = Some("W:W31-50:B1-20"));
        assert_eq!(summary(&r).0, "international");
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
