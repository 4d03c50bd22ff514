//! A record's result checked against its moves: the `Result` tag against
//! the result written after the moves, and the result against the last
//! position on the board.
//!
//! The rules checked, in this order:
//! 1. `contradicts_movetext`: the game has both a `Result` tag (or its name
//!    in another language) and a result after its moves, both readable,
//!    and they mean different things (`1-0` and `2-0` mean the same; `*`
//!    and `-` mean no result, which differs from any result).
//! 2. `contradicts_position`: the game is `ok`, its last position is
//!    certain (every reading reaches the same one), its result (the tag,
//!    else the result after the moves) says who won or that it was drawn,
//!    and the board says the game is over with a different winner: by the
//!    variant's win condition ([`crate::rules::WinCondition`]), the side to
//!    move has no legal move (it lost; in Antidraughts it won), or in
//!    Breakthrough a side has a king (it won). A side that lost while it
//!    still had moves (a resignation, a loss on time) is not questioned.
//! 3. `consistent`: a result that says who won or that it was drawn, and
//!    neither rule above applies.
//! 4. `unknown`: no result (none, `*`, `0-0`, or text that is not a
//!    result), or a game whose last position is not known (not `ok`, or
//!    read more than one way at its end) or holds no piece at all.
//!
//! The check only reports: it never changes a game's status.

use serde::{Deserialize, Serialize};

use super::detect::Reading;
use super::record::Status;
use crate::pdn::Game;
use crate::rules::Color;

/// What a game's result says when checked against its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultCheck {
    /// The result agrees with what the moves show.
    Consistent,
    /// The last position's side to move is out of moves (or the game is
    /// otherwise over on the board) and the result says otherwise.
    ContradictsPosition,
    /// The `Result` tag and the result after the moves differ.
    ContradictsMovetext,
    /// Nothing to check: no result, or no known last position.
    Unknown,
}

/// A name that is not one of [`ResultCheck::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not consistent, contradicts_position, contradicts_movetext or unknown")]
pub struct UnknownResultCheck(pub String);

impl ResultCheck {
    /// Every value, in the order above.
    pub const ALL: [ResultCheck; 4] = [
        ResultCheck::Consistent,
        ResultCheck::ContradictsPosition,
        ResultCheck::ContradictsMovetext,
        ResultCheck::Unknown,
    ];

    /// The value's name, as stored and shown.
    pub fn name(self) -> &'static str {
        match self {
            ResultCheck::Consistent => "consistent",
            ResultCheck::ContradictsPosition => "contradicts_position",
            ResultCheck::ContradictsMovetext => "contradicts_movetext",
            ResultCheck::Unknown => "unknown",
        }
    }

    /// Whether the result contradicts the moves.
    pub fn contradicts(self) -> bool {
        matches!(
            self,
            ResultCheck::ContradictsPosition | ResultCheck::ContradictsMovetext
        )
    }

    /// The value stored under `name`; `unknown` for none (a game stored
    /// before the check existed and not rechecked since).
    ///
    /// # Errors
    /// A name that is none of the values.
    pub fn parse(name: Option<&str>) -> Result<ResultCheck, UnknownResultCheck> {
        match name {
            None => Ok(ResultCheck::Unknown),
            Some(n) => ResultCheck::ALL
                .into_iter()
                .find(|c| c.name() == n)
                .ok_or_else(|| UnknownResultCheck(n.to_string())),
        }
    }
}

impl std::fmt::Display for ResultCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a result says, the first side being known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Meaning {
    Won(Color),
    Draw,
    /// `0-0`: both lost (a double forfeit).
    BothLost,
    /// `*` or `-`: no result.
    Open,
}

/// What the result `text` says when the game's first side is `first`
/// (`1-0` is a win of the first side); `None` for text that is no result.
fn meaning(text: &str, first: Color) -> Option<Meaning> {
    match text.trim() {
        "1-0" | "2-0" => Some(Meaning::Won(first)),
        "0-1" | "0-2" => Some(Meaning::Won(first.opponent())),
        "1-1" | "½-½" | "1/2-1/2" => Some(Meaning::Draw),
        "0-0" => Some(Meaning::BothLost),
        "*" | "-" => Some(Meaning::Open),
        _ => None,
    }
}

/// Checks `game`'s result against its moves as `reading` replayed them;
/// `status` is the game's status (see the module's documentation).
pub fn check_result(game: &Game, reading: &Reading, status: Status) -> ResultCheck {
    let rules = match reading {
        Reading::Replayed { rules, .. } => Some(rules),
        Reading::Unreadable { rules, .. } => rules.as_ref(),
        Reading::Unsupported { .. } => None,
    };
    let first = rules.map_or(Color::White, |r| r.first);
    let tag = game
        .standard_tag("Result")
        .map(str::trim)
        .filter(|t| !t.is_empty() && *t != "?");
    let written = game.result.as_ref().map(|r| r.text.as_str());
    if let (Some(tag), Some(written)) = (tag, written)
        && let (Some(a), Some(b)) = (meaning(tag, first), meaning(written, first))
        && a != b
    {
        return ResultCheck::ContradictsMovetext;
    }
    // The tag when it reads as a result, else the result after the moves.
    let read = tag.and_then(|t| meaning(t, first));
    let said = match read.or_else(|| written.and_then(|w| meaning(w, first))) {
        Some(m @ (Meaning::Won(_) | Meaning::Draw)) => m,
        _ => return ResultCheck::Unknown,
    };
    let Reading::Replayed { rules, replay, .. } = reading else {
        return ResultCheck::Unknown;
    };
    if status != Status::Ok {
        return ResultCheck::Unknown;
    }
    let Some(last) = replay.certain_at(replay.plies) else {
        return ResultCheck::Unknown;
    };
    // An empty board (a diagram left blank) is no game to judge.
    let pieces = |c: Color| last.position.pieces(c);
    if pieces(Color::White) | pieces(Color::Black) == 0 {
        return ResultCheck::Unknown;
    }
    match rules.winner(&last.position) {
        Some(winner) if said != Meaning::Won(winner) => ResultCheck::ContradictsPosition,
        _ => ResultCheck::Consistent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Overrides, check_game};

    /// The check of the one game in `text`, read as `variant` says.
    fn checked(text: &str) -> ResultCheck {
        let game = crate::pdn::Reader::new(text.as_bytes())
            .next_game()
            .unwrap()
            .unwrap();
        let result = check_game(&game, "t.pdn", &Overrides::default());
        check_result(&game, &result.reading, result.record.outcome.status)
    }

    /// A game of `variant` from `fen` with `moves`, `tag` as its Result
    /// tag and `end` after its moves.
    fn game(game_type: &str, fen: &str, moves: &str, tag: &str, end: &str) -> String {
        format!("[GameType \"{game_type}\"]\n[FEN \"{fen}\"]\n[Result \"{tag}\"]\n{moves} {end}\n")
    }

    #[test]
    fn a_side_without_moves_must_have_lost() {
        // White to move has no piece: Black has won.
        let bare = "W:W:B20";
        let black_won = game("20", bare, "", "0-2", "0-2");
        assert_eq!(checked(&black_won), ResultCheck::Consistent);
        for tag in ["2-0", "1-1"] {
            let wrong = game("20", bare, "", tag, tag);
            assert_eq!(checked(&wrong), ResultCheck::ContradictsPosition, "{tag}");
        }
        // No result says nothing; nor does an empty board.
        assert_eq!(
            checked(&game("20", bare, "", "*", "*")),
            ResultCheck::Unknown
        );
        let empty = game("20", "W:W:B", "", "1/2-1/2", "1/2-1/2");
        assert_eq!(checked(&empty), ResultCheck::Unknown);
        // White's last man is captured by the last move: White is to move
        // without moves.
        let taken = game("20", "B:W28:B23", "1... 23x32", "0-2", "0-2");
        assert_eq!(checked(&taken), ResultCheck::Consistent);
        let taken = game("20", "B:W28:B23", "1... 23x32", "2-0", "2-0");
        assert_eq!(checked(&taken), ResultCheck::ContradictsPosition);
    }

    #[test]
    fn a_blocked_side_lost_except_in_antidraughts() {
        // White's man on 46 is blocked by Black's on 41 and 37.
        let blocked = "W:W46:B41,37";
        let white_won = game("20", blocked, "", "2-0", "2-0");
        assert_eq!(checked(&white_won), ResultCheck::ContradictsPosition);
        let anti = game("98", blocked, "", "2-0", "2-0");
        assert_eq!(checked(&anti), ResultCheck::Consistent);
        let anti = game("98", blocked, "", "0-2", "0-2");
        assert_eq!(checked(&anti), ResultCheck::ContradictsPosition);
    }

    #[test]
    fn the_first_king_wins_breakthrough() {
        // White has a king on 5, Black a man on 36 that still has moves.
        let crowned = "B:WK5:B36";
        let white_won = game("96", crowned, "", "2-0", "2-0");
        assert_eq!(checked(&white_won), ResultCheck::Consistent);
        for tag in ["0-2", "1-1"] {
            let wrong = game("96", crowned, "", tag, tag);
            assert_eq!(checked(&wrong), ResultCheck::ContradictsPosition, "{tag}");
        }
        // The same board in international draughts is no finished game:
        // Black may have resigned.
        let resigned = game("20", crowned, "", "0-2", "0-2");
        assert_eq!(checked(&resigned), ResultCheck::Consistent);
        // A man crowned by the last move ends the game too.
        let crowning = game("96", "W:W6:B36", "1. 6-1", "2-0", "2-0");
        assert_eq!(checked(&crowning), ResultCheck::Consistent);
        let crowning = game("96", "W:W6:B36", "1. 6-1", "0-2", "0-2");
        assert_eq!(checked(&crowning), ResultCheck::ContradictsPosition);
    }

    #[test]
    fn a_loss_with_moves_left_is_a_resignation() {
        let start = game("21", "B:W21,22:B9,10", "", "1-0", "1-0");
        assert_eq!(checked(&start), ResultCheck::Consistent);
        let drawn = game("21", "B:W21,22:B9,10", "", "1/2-1/2", "1-1");
        assert_eq!(checked(&drawn), ResultCheck::Consistent);
    }

    #[test]
    fn the_tag_and_the_result_after_the_moves_must_agree() {
        let moves = "1. 11-15 23-19";
        let text = |tag: &str, end: &str| {
            format!("[GameType \"21\"]\n[Result \"{tag}\"]\n{moves} {end}\n")
        };
        assert_eq!(checked(&text("1-0", "2-0")), ResultCheck::Consistent);
        assert_eq!(checked(&text("1/2-1/2", "1-1")), ResultCheck::Consistent);
        for end in ["*", "0-1"] {
            assert_eq!(
                checked(&text("1-0", end)),
                ResultCheck::ContradictsMovetext,
                "{end}"
            );
        }
        // Without a tag, or with no readable result, nothing to compare.
        let untagged = format!("[GameType \"21\"]\n{moves} 0-1\n");
        assert_eq!(checked(&untagged), ResultCheck::Consistent);
        assert_eq!(checked(&text("White won", "1-0")), ResultCheck::Consistent);
        assert_eq!(checked(&text("*", "*")), ResultCheck::Unknown);
    }

    #[test]
    fn illegal_games_are_not_checked_against_the_board() {
        let text = "[GameType \"21\"]\n[Result \"1-0\"]\n1. 11-15 11-15 1-0\n";
        assert_eq!(checked(text), ResultCheck::Unknown);
        let text = "[GameType \"21\"]\n[Result \"1-0\"]\n1. 11-15 11-15 0-1\n";
        assert_eq!(checked(text), ResultCheck::ContradictsMovetext);
    }

    #[test]
    fn names_read_back() {
        for check in ResultCheck::ALL {
            assert_eq!(ResultCheck::parse(Some(check.name())), Ok(check));
        }
        assert_eq!(ResultCheck::parse(None), Ok(ResultCheck::Unknown));
        assert!(ResultCheck::parse(Some("fine")).is_err());
    }
}
