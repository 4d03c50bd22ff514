//! The standard tags and the names other languages give them.
//!
//! Files written by programs in other languages name the Seven Tag Roster
//! in their own words: an Italian file has `Bianco`, `Nero` and
//! `Risultato` where PDN has `White`, `Black` and `Result`. The reader
//! keeps every tag as written; [`standard_tag`] (and
//! [`Game::standard_tag`](super::Game::standard_tag)) read the standard
//! tag through these names when the game lacks it. [`TAG_ALIASES`] is the
//! one table of them. PlayStrategy names the players `P1` and `P2`:
//! [`player_tag`] reads them where `White` and `Black` are absent.

use crate::rules::Color;

/// The standard tags that other languages name differently, each with
/// the names read for it, in the order they are tried. Names are compared
/// without case.
///
/// | standard | Italian | French | German | Dutch | Russian | Spanish | Portuguese |
/// |---|---|---|---|---|---|---|---|
/// | `Event` | `Evento`, `Torneo`, then `Dati` (the details) | `Événement`, `Evénement`, `Evenement` | `Turnier` | `Toernooi` | `Турнир` | `Evento`, `Torneo` | `Evento` |
/// | `Site` | `Luogo` | `Lieu` | `Ort` | `Plaats` | `Место` | `Lugar` | `Local` |
/// | `Date` | `Data`, then `Anno` (the year) | `Date` | `Datum` | `Datum` | `Дата` | `Fecha` | `Data` |
/// | `Round` | `Turno` | `Ronde` | `Runde` | `Ronde` | `Тур` | `Ronda` | `Rodada` |
/// | `White` | `Bianco` | `Blanc`, `Blancs` | `Weiss`, `Weiß` | `Wit` | `Белые` | `Blancas` | `Brancas` |
/// | `Black` | `Nero` | `Noir`, `Noirs` | `Schwarz` | `Zwart` | `Черные`, `Чёрные` | `Negras` | `Pretas` |
/// | `Result` | `Risultato` | `Résultat`, `Resultat` | `Ergebnis` | `Uitslag` | `Результат` | `Resultado` | `Resultado` |
///
/// The Italian championship files write the event and round in `Dati`
/// ("details": `69° ASSOLUTO 1° TURNO`) and the year in `Anno`: `Dati`
/// counts as the event and `Anno` as the date only when no other name of
/// them is there.
pub const TAG_ALIASES: &[(&str, &[&str])] = &[
    (
        "Event",
        &[
            "Evento",
            "Torneo",
            "Événement",
            "Evénement",
            "Evenement",
            "Turnier",
            "Toernooi",
            "Турнир",
            "Dati",
        ],
    ),
    (
        "Site",
        &["Luogo", "Lieu", "Ort", "Plaats", "Место", "Lugar", "Local"],
    ),
    ("Date", &["Data", "Datum", "Дата", "Fecha", "Anno"]),
    (
        "Round",
        &["Turno", "Ronde", "Runde", "Тур", "Ronda", "Rodada"],
    ),
    (
        "White",
        &[
            "Bianco",
            "Blanc",
            "Blancs",
            "Weiss",
            "Weiß",
            "Wit",
            "Белые",
            "Blancas",
            "Brancas",
        ],
    ),
    (
        "Black",
        &[
            "Nero",
            "Noir",
            "Noirs",
            "Schwarz",
            "Zwart",
            "Черные",
            "Чёрные",
            "Negras",
            "Pretas",
        ],
    ),
    (
        "Result",
        &[
            "Risultato",
            "Résultat",
            "Resultat",
            "Ergebnis",
            "Uitslag",
            "Результат",
            "Resultado",
        ],
    ),
];

/// The names read for the standard tag `standard` (compared without
/// case), in the order tried; empty for a tag without other names.
pub fn tag_aliases(standard: &str) -> &'static [&'static str] {
    TAG_ALIASES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(standard))
        .map_or(&[], |(_, aliases)| aliases)
}

/// The value of the standard tag `standard` among `tags` (pairs of name
/// and value, in the order written): the first tag of that name, compared
/// without case; when there is none, the first tag named by the first of
/// its [`TAG_ALIASES`] that the game has. For a tag without other names,
/// simply the first tag of that name.
///
/// ```
/// use pdndb::pdn::standard_tag;
///
/// let tags = [("Bianco", "Rossi"), ("Nero", "Verdi"), ("White", "Smith")];
/// assert_eq!(standard_tag(tags, "White"), Some("Smith"));
/// assert_eq!(standard_tag(tags, "black"), Some("Verdi"));
/// assert_eq!(standard_tag(tags, "Result"), None);
/// ```
pub fn standard_tag<'a, T>(tags: T, standard: &str) -> Option<&'a str>
where
    T: IntoIterator<Item = (&'a str, &'a str)>,
    T::IntoIter: Clone,
{
    let tags = tags.into_iter();
    // The standard name first: most games have it, and it is quickly found.
    if let Some((_, value)) = tags
        .clone()
        .find(|(name, _)| name.eq_ignore_ascii_case(standard))
    {
        return Some(value);
    }
    let aliases = tag_aliases(standard);
    // The best alias found so far: its rank (k + 1 the k-th) and value.
    let mut best: Option<(usize, &'a str)> = None;
    for (name, value) in tags {
        if let Some(k) = aliases.iter().position(|a| same_name(a, name))
            && best.is_none_or(|(rank, _)| k + 1 < rank)
        {
            best = Some((k + 1, value));
        }
    }
    best.map(|(_, value)| value)
}

/// The name of the player of `color` among `tags` (pairs of name and
/// value, in the order written): the `White` or `Black` tag (also through
/// its names in other languages, as [`standard_tag`]); where the game has
/// none, the tag PlayStrategy (playstrategy.org) writes instead: `P1` for
/// the side that moves first under the game's rules (`first`: Black in
/// English draughts and pool, White in the others), `P2` for the other.
///
/// ```
/// use pdndb::pdn::player_tag;
/// use pdndb::rules::Color;
///
/// let tags = [("P1", "Ann"), ("P2", "Bob")];
/// assert_eq!(player_tag(tags, Color::Black, Color::Black), Some("Ann"));
/// assert_eq!(player_tag(tags, Color::White, Color::Black), Some("Bob"));
/// assert_eq!(player_tag([("White", "Cy"), ("P2", "Bob")], Color::White, Color::Black), Some("Cy"));
/// ```
pub fn player_tag<'a, T>(tags: T, color: Color, first: Color) -> Option<&'a str>
where
    T: IntoIterator<Item = (&'a str, &'a str)>,
    T::IntoIter: Clone,
{
    let tags = tags.into_iter();
    let standard = match color {
        Color::White => "White",
        Color::Black => "Black",
    };
    standard_tag(tags.clone(), standard).or_else(|| {
        let numbered = if color == first { "P1" } else { "P2" };
        tags.into_iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(numbered))
            .map(|(_, value)| value)
    })
}

/// Whether two tag names are the same, compared without case (also outside
/// ASCII: `ЧЁРНЫЕ` is `Чёрные`).
fn same_name(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_name_first_then_the_aliases_in_table_order() {
        let tags = [
            ("Anno", "1998"),
            ("bianco", "Rossi"),
            ("Data", "1998.05.03"),
            ("BLANCAS", "López"),
        ];
        assert_eq!(standard_tag(tags, "White"), Some("Rossi"));
        assert_eq!(standard_tag(tags, "Date"), Some("1998.05.03"));
        assert_eq!(standard_tag([("Anno", "1998")], "Date"), Some("1998"));
        assert_eq!(
            standard_tag([("Anno", "1998"), ("Date", "1999")], "date"),
            Some("1999")
        );
        let italian = [("Dati", "69° ASSOLUTO 1° TURNO"), ("Anno", "2005")];
        assert_eq!(
            standard_tag(italian, "Event"),
            Some("69° ASSOLUTO 1° TURNO")
        );
        assert_eq!(standard_tag(italian, "Date"), Some("2005"));
        assert_eq!(standard_tag([("RÉSULTAT", "1-0")], "Result"), Some("1-0"));
        assert_eq!(
            standard_tag([("ЧЁРНЫЕ", "Иванов")], "Black"),
            Some("Иванов")
        );
        assert_eq!(standard_tag([("Weiß", "Müller")], "White"), Some("Müller"));
        assert_eq!(standard_tag([("GameType", "21")], "gametype"), Some("21"));
        assert_eq!(standard_tag([("Bianco", "Rossi")], "Black"), None);
        assert_eq!(tag_aliases("result")[0], "Risultato");
        assert!(tag_aliases("FEN").is_empty());
    }

    #[test]
    fn p1_and_p2_name_the_first_side_and_the_other_where_white_and_black_are_absent() {
        let tags = [("P1", "Ann"), ("P2", "Bob")];
        // English draughts: P1, who moves first, is Black.
        assert_eq!(player_tag(tags, Color::Black, Color::Black), Some("Ann"));
        assert_eq!(player_tag(tags, Color::White, Color::Black), Some("Bob"));
        // Russian draughts: P1 is White.
        assert_eq!(player_tag(tags, Color::White, Color::White), Some("Ann"));
        assert_eq!(player_tag(tags, Color::Black, Color::White), Some("Bob"));
        // White and Black (or their other names) come first, each alone.
        let mixed = [("p2", "Bob"), ("Nero", "Verdi"), ("P1", "Ann")];
        assert_eq!(player_tag(mixed, Color::Black, Color::Black), Some("Verdi"));
        assert_eq!(player_tag(mixed, Color::White, Color::Black), Some("Bob"));
        assert_eq!(
            player_tag([("Event", "x")], Color::White, Color::White),
            None
        );
    }

    #[test]
    fn every_alias_names_one_standard_tag() {
        let mut seen: Vec<String> = Vec::new();
        for (standard, aliases) in TAG_ALIASES {
            for alias in *aliases {
                let lower = alias.to_lowercase();
                assert!(!seen.contains(&lower), "{alias} twice");
                assert!(
                    TAG_ALIASES.iter().all(|(s, _)| !same_name(s, alias)),
                    "{alias} of {standard} is a standard name"
                );
                seen.push(lower);
            }
        }
    }
}
