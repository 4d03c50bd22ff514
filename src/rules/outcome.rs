//! The end of a game on the board: who has won by the rules'
//! [`WinCondition`].

use super::board::Color;
use super::position::Position;
use super::variant::{Rules, WinCondition};

impl Rules {
    /// Who has won in `position`, when the game is over there by the
    /// rules' [`WinCondition`] (the side to move cannot move; in
    /// Breakthrough, also a side has a king); `None` while it goes on.
    /// Draws by agreement or by repetition are not the board's to tell.
    pub fn winner(&self, position: &Position) -> Option<Color> {
        let to_move = position.side();
        if self.win == WinCondition::FirstKing {
            for color in [to_move.opponent(), to_move] {
                if position.pieces(color) & position.kings() != 0 {
                    return Some(color);
                }
            }
        }
        if !position.legal_moves(self).is_empty() {
            return None;
        }
        Some(match self.win {
            WinCondition::CannotMove => to_move,
            WinCondition::Usual | WinCondition::FirstKing => to_move.opponent(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn win_conditions_say_who_won_on_the_board() {
        let at = |fen: &str, rules: &Rules| {
            let setup = crate::notation::parse_fen_on(fen, rules.geometry).unwrap();
            Position::from_setup(&setup, rules).unwrap()
        };
        let international = Preset::International.rules();
        let anti = Preset::Antidraughts.rules();
        let breakthrough = Preset::Breakthrough.rules();
        assert_eq!(anti.win, WinCondition::CannotMove);
        // White has no piece left: it lost, except in Antidraughts.
        let bare = "W:W:B20";
        assert_eq!(
            international.winner(&at(bare, &international)),
            Some(Color::Black)
        );
        assert_eq!(anti.winner(&at(bare, &anti)), Some(Color::White));
        // White's man is blocked by Black's two.
        let blocked = "W:W46:B41,37";
        assert_eq!(anti.winner(&at(blocked, &anti)), Some(Color::White));
        // In Breakthrough the first king wins, whoever is to move.
        let king = "B:WK3:B20,30";
        assert_eq!(
            breakthrough.winner(&at(king, &breakthrough)),
            Some(Color::White)
        );
        assert_eq!(international.winner(&at(king, &international)), None);
        let start = Position::initial(&breakthrough);
        assert_eq!(breakthrough.winner(&start), None);
    }
}
