//! The values a query, a game view or a games filter is given, named as
//! each front end names them: `--fen` on the command line, `fen` in the
//! web server's query strings.

/// A value given to a query, a view or a filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    /// The variant (a preset, any switches, or a full variant string).
    Variant,
    /// A position as FEN.
    Fen,
    /// Moves from the start.
    Moves,
    /// The notation moves are written in.
    Notation,
    /// White or Black.
    Player,
    /// White.
    White,
    /// Black.
    Black,
    /// The event.
    Event,
    /// The site.
    Site,
    /// A date or a range of dates.
    Date,
    /// A result, or who won.
    Result,
    /// A status.
    Status,
    /// A ply of a game: a position in it.
    Ply,
    /// A pattern in its written form.
    Pattern,
    /// A pattern in its JSON form.
    PatternJson,
    /// Counts of men and kings.
    Material,
    /// A kind of move a game plays.
    Manoeuvre,
    /// A part of an opening's name.
    Opening,
    /// The side a player had.
    Colour,
}

impl Param {
    /// The name both front ends give it, without the command line's `--`.
    pub fn name(self) -> &'static str {
        match self {
            Param::Variant => "variant",
            Param::Fen => "fen",
            Param::Moves => "moves",
            Param::Notation => "notation",
            Param::Player => "player",
            Param::White => "white",
            Param::Black => "black",
            Param::Event => "event",
            Param::Site => "site",
            Param::Date => "date",
            Param::Result => "result",
            Param::Status => "status",
            Param::Ply => "ply",
            Param::Pattern => "pattern",
            Param::PatternJson => "pattern_json",
            Param::Material => "material",
            Param::Manoeuvre => "manoeuvre",
            Param::Opening => "opening",
            Param::Colour => "colour",
        }
    }
}

/// How a front end names the values it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wording {
    /// As command-line options: `--fen`.
    Options,
    /// As query-string parameters: `fen`.
    Parameters,
}

impl Wording {
    /// What goes before a value's name.
    pub fn prefix(self) -> &'static str {
        match self {
            Wording::Options => "--",
            Wording::Parameters => "",
        }
    }

    /// `param` as this front end names it: `--fen` or `fen`.
    pub fn name(self, param: Param) -> String {
        format!("{}{}", self.prefix(), param.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_front_end_names_values_its_way() {
        assert_eq!(Wording::Options.name(Param::Fen), "--fen");
        assert_eq!(Wording::Parameters.name(Param::Date), "date");
    }
}
