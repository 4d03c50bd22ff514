//! A set-up command in the middle of a game's moves (`/FEN "…"/` after a
//! move of the main line). A game is replayed from one start: its FEN tag,
//! a set-up command before its first move, or the variant's initial
//! position. A set-up further on does not move the replay: where the
//! moves stop reading after one, the record says so, and whether they
//! read from the set-up; where they read on from a position the set-up
//! does not show, a warning says so.

use super::detect::{Reading, written_moves};
use super::interpret::replay;
use super::record::{CheckRecord, Status};
use super::warning::GameWarning;
use crate::notation::parse_fen_on;
use crate::pdn::{Ply, SetupCommand};
use crate::rules::{Position, Rules};

/// Says what a set-up command after a move of the main line, `plies` (as
/// read), meant for its `reading`: in the record's message when the moves
/// stop reading after it, as a warning when they read on from another
/// position.
pub(super) fn note_mid_game_setup(
    plies: &[Ply],
    reading: &Reading,
    record: &mut CheckRecord,
    warnings: &mut Vec<GameWarning>,
) {
    let Some((after, setup, fen)) = mid_game_setup(plies) else {
        return;
    };
    let Reading::Replayed {
        rules,
        notation,
        start,
        replay: read,
        ..
    } = reading
    else {
        return;
    };
    let reached = (read.reading.len() >= after).then(|| {
        read.reading[..after]
            .iter()
            .fold(*start, |at, step| at.play(&step.chosen))
    });
    let shown = setup_position(fen, rules, reached.map(|p| p.side()));
    if let (Some(reached), Ok(shown)) = (reached, &shown)
        && same_position(&reached, shown)
    {
        return;
    }
    let line = setup.position.line;
    let stopped_after =
        record.outcome.status == Status::Illegal && record.outcome.ply.is_some_and(|p| p > after);
    if stopped_after {
        let from_setup = match &shown {
            Ok(shown) => {
                let tokens: Vec<_> = plies[after..].iter().map(Ply::move_token).collect();
                let rest = replay(rules, *shown, &written_moves(&tokens, *notation, rules));
                if rest.reached == rest.plies {
                    "they read from the set-up".to_string()
                } else {
                    format!(
                        "they do not read from the set-up either (its ply {} does not)",
                        rest.reached + 1
                    )
                }
            }
            Err(why) => format!("the set-up cannot be read ({why})"),
        };
        if let Some(message) = &mut record.outcome.message {
            message.push_str(&format!(
                "; the moves from ply {} follow a set-up (/FEN \"{fen}\"/, line {line}) that the \
                 game does not reach, and {from_setup}: a game is replayed from its start",
                after + 1
            ));
        }
    } else if reached.is_some() && record.outcome.status != Status::Unreadable {
        warnings.push(GameWarning {
            line,
            column: setup.position.column,
            message: format!(
                "the set-up after ply {after} (/FEN \"{fen}\"/) does not show the position the \
                 moves reach there; they go on from that position"
            ),
        });
    }
}

/// The first set-up command with a FEN after a move of the main line and
/// before its last: the ply it follows (1-based), the command and its FEN.
fn mid_game_setup(plies: &[Ply]) -> Option<(usize, &SetupCommand, &str)> {
    let (_, before_last) = plies.split_last()?;
    before_last.iter().enumerate().find_map(|(k, ply)| {
        ply.setups()
            .iter()
            .find_map(|s| s.fen.as_deref().map(|fen| (k + 1, s, fen)))
    })
}

/// Why a FEN gives no position: it cannot be read on the board, or what
/// it shows is not a legal set-up there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The FEN cannot be read on the board.
    #[error(transparent)]
    Fen(#[from] crate::notation::FenError),
    /// The FEN reads, but its set-up is not a position of the rules.
    #[error(transparent)]
    Position(#[from] crate::rules::PositionError),
}

impl SetupError {
    /// The error as a code and its parts.
    pub fn said(&self) -> crate::message::FenMessage {
        match self {
            SetupError::Fen(e) => e.said(),
            SetupError::Position(e) => e.said(),
        }
    }
}

/// The position a set-up's FEN shows under `rules`, its side to move
/// `side` when it names none.
fn setup_position(
    fen: &str,
    rules: &Rules,
    side: Option<crate::rules::Color>,
) -> Result<Position, SetupError> {
    let mut setup = parse_fen_on(fen, rules.geometry)?;
    if setup.side.is_none() {
        setup.side = side;
    }
    Ok(Position::from_setup(&setup, rules)?)
}

/// Whether two positions have the same pieces and side to move.
fn same_position(a: &Position, b: &Position) -> bool {
    a.to_setup() == b.to_setup()
}

#[cfg(test)]
mod tests {
    use crate::replay::{Overrides, Status, check_game};

    fn check(text: &str) -> crate::replay::CheckedGame {
        let game = crate::pdn::Reader::new(text.as_bytes())
            .next_game()
            .unwrap()
            .unwrap();
        check_game(&game, "", &Overrides::default())
    }

    #[test]
    fn a_set_up_after_a_move_is_not_the_start() {
        // The game reads from the initial position to the set-up, which
        // shows where it stands: nothing to say.
        let agreeing = check(
            "1. 22-18 11-15 /FEN \"W:W18,21,23,24,25,26,27,28,29,30,31,32:\
             B1,2,3,4,5,6,7,8,9,10,12,15\"/ 2. 18x11 8x15 *",
        );
        assert_eq!(agreeing.record.outcome.status, Status::Ok);
        assert!(agreeing.warnings.is_empty(), "{:?}", agreeing.warnings);
    }

    #[test]
    fn moves_that_stop_after_a_set_up_say_so() {
        let checked = check("1. 22-18 11-15 /FEN \"W:W6:B1\"/ 2. 6-2 1-5 *");
        let r = &checked.record;
        assert_eq!(
            (r.outcome.status, r.outcome.ply),
            (Status::Illegal, Some(3))
        );
        let message = r.outcome.message.as_deref().unwrap();
        assert!(
            message.ends_with(
                "; the moves from ply 3 follow a set-up (/FEN \"W:W6:B1\"/, line 1) that the game \
                 does not reach, and they read from the set-up: a game is replayed from its start"
            ),
            "{message}"
        );
        let neither = check("1. 22-18 11-15 /FEN \"W:W6:B1\"/ 2. 6-2 9-13 *");
        let message = neither.record.outcome.message.unwrap();
        assert!(
            message.contains("they do not read from the set-up either (its ply 2 does not)"),
            "{message}"
        );
    }

    #[test]
    fn moves_that_read_on_past_a_set_up_that_does_not_show_them_warn() {
        let checked = check("1. 22-18 11-15 /FEN \"W:W6:B1\"/ 2. 18x11 8x15 *");
        assert_eq!(checked.record.outcome.status, Status::Ok);
        let warned: Vec<&str> = checked
            .warnings
            .iter()
            .map(|w| w.message.as_str())
            .collect();
        assert_eq!(
            warned,
            [
                "the set-up after ply 2 (/FEN \"W:W6:B1\"/) does not show the position the moves \
              reach there; they go on from that position"
            ]
        );
    }
}
