//! Names that are probably one player (`pdndb players --similar`):
//! proposals for `pdndb alias`, never applied on their own.
//!
//! A name is read as a surname and given names: `Last, First M.`,
//! `First M. Last`, or `LAST F` (a one-letter last word after a longer
//! first one). Surnames are compared without case, accents, blanks,
//! hyphens or apostrophes, and with common differences of transliteration
//! (Russian names in Latin letters above all) folded by
//! [`transliteration_key`]. Given names are compared word by word: two
//! full names must fold alike, an initial must be the first letter of the
//! other name's word, and a shorter list may stop early (`D.` fits
//! `D.M.`, which does not fit `D.J.`; `Bill` does not fit `William`).
//! Names with no given name only meet names with none.
//!
//! A name fitting several groups (`Lafferty, D.` beside `Lafferty, D.M.`
//! and `Lafferty, D.J.`) joins the one with most games.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::store::read::games::fold;
use crate::store::read::players::PlayerRow;
use crate::store::stored::{Store, StoreError};

/// One name of a proposed group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SimilarName {
    /// The name (canonical, for a name that already has aliases).
    pub name: String,
    /// Its games.
    pub games: i64,
}

/// Names that are probably one player: the most frequent name with a full
/// given name first (the proposed canonical name), then by games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SimilarGroup {
    /// The names.
    pub names: Vec<SimilarName>,
    /// Their games together.
    pub games: i64,
}

/// A word of the given names: a full name (its first letter, folded, and
/// its transliteration key) or an initial (folded, not transliterated:
/// `W.` and `V.` are two initials).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Given {
    Full(char, String),
    Initial(char),
}

impl Given {
    fn first(&self) -> char {
        match self {
            Given::Full(c, _) | Given::Initial(c) => *c,
        }
    }
}

/// A name read as surname (folded) and given names.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ReadName {
    surname: String,
    given: Vec<Given>,
}

/// The words of `text`, split at blanks, dots and commas.
fn words(text: &str) -> Vec<&str> {
    text.split([' ', '.', ','])
        .filter(|w| !w.is_empty())
        .collect()
}

/// `name` read as surname and given names; `None` when it has no letter.
fn read_name(name: &str) -> Option<ReadName> {
    let folded = fold(name);
    let (surname, given): (String, Vec<&str>) = match folded.split_once(',') {
        Some((last, first)) if joined_initials(name) => (
            last.to_string(),
            first.matches(char::is_alphabetic).collect(),
        ),
        Some((last, first)) => (last.to_string(), words(first)),
        None => {
            let w = words(&folded);
            match w.as_slice() {
                [] => return None,
                [only] => (only.to_string(), Vec::new()),
                [first, rest @ ..]
                    if first.chars().count() > 1
                        && rest.last().is_some_and(|l| l.chars().count() == 1) =>
                {
                    (first.to_string(), rest.to_vec())
                }
                [given @ .., last] => (last.to_string(), given.to_vec()),
            }
        }
    };
    let surname = transliteration_key(&surname);
    if surname.is_empty() {
        return None;
    }
    let given = given
        .into_iter()
        .filter_map(|word| {
            let mut letters = word.chars().filter(|c| c.is_alphabetic());
            let first = letters.next()?;
            Some(match letters.next() {
                None => Given::Initial(first),
                Some(_) => Given::Full(first, transliteration_key(word)),
            })
        })
        .collect();
    Some(ReadName { surname, given })
}

/// Whether `name` is `Last, FM`: initials written together in capitals
/// (two or three letters) after a surname that is not all capitals.
fn joined_initials(name: &str) -> bool {
    let Some((last, first)) = name.split_once(',') else {
        return false;
    };
    let first: Vec<&str> = words(first);
    let [initials] = first.as_slice() else {
        return false;
    };
    (2..=3).contains(&initials.chars().count())
        && initials.chars().all(|c| c.is_uppercase())
        && last.chars().any(char::is_lowercase)
}

/// A folded word with common transliteration differences folded away:
/// only letters kept; `shch`, `sch`, `sh` → `s`; `tsch`, `tch`, `ch` →
/// `c`; `ts`, `tz` → `c`; `kh` → `h`; `zh` → `z`; `ph` → `f`; `w` → `v`;
/// `x` → `ks`; `y`, `j` → `i`; a final `ff` → `v`; an `i` between vowels
/// dropped (`Moiseyev`, `Moiseev`); doubled letters once.
pub(crate) fn transliteration_key(word: &str) -> String {
    let mut s: String = word.chars().filter(|c| c.is_alphabetic()).collect();
    for (from, to) in [
        ("shch", "s"),
        ("tsch", "c"),
        ("sch", "s"),
        ("tch", "c"),
        ("sh", "s"),
        ("ch", "c"),
        ("ts", "c"),
        ("tz", "c"),
        ("kh", "h"),
        ("zh", "z"),
        ("ph", "f"),
        ("w", "v"),
        ("x", "ks"),
        ("y", "i"),
        ("j", "i"),
    ] {
        s = s.replace(from, to);
    }
    if let Some(stem) = s.strip_suffix("ff") {
        s = format!("{stem}v");
    }
    let chars: Vec<char> = s.chars().collect();
    let vowel = |c: char| "aeiou".contains(c);
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_vowels =
            c == 'i' && i > 0 && vowel(chars[i - 1]) && chars.get(i + 1).is_some_and(|&n| vowel(n));
        if between_vowels || out.ends_with(c) {
            continue;
        }
        out.push(c);
    }
    out
}

/// A name read, with its player.
type Named<'a> = (ReadName, &'a PlayerRow);

/// Whether two lists of given names can name one person.
fn fits(a: &[Given], b: &[Given]) -> bool {
    if a.is_empty() != b.is_empty() {
        return false;
    }
    a.iter().zip(b).all(|pair| match pair {
        (Given::Full(_, x), Given::Full(_, y)) => x == y,
        (x, y) => x.first() == y.first(),
    })
}

/// How much a name tells: full given names, then words.
fn detail(name: &ReadName) -> (usize, usize) {
    let full = name
        .given
        .iter()
        .filter(|g| matches!(g, Given::Full(..)))
        .count();
    (full, name.given.len())
}

/// Groups of two or more of `players` (most games first) that are
/// probably one player, most games first.
pub(crate) fn similar_groups(players: &[PlayerRow]) -> Vec<SimilarGroup> {
    // By surname and first initial.
    let mut buckets: BTreeMap<(String, Option<char>), Vec<Named<'_>>> = BTreeMap::new();
    for p in players {
        if let Some(read) = read_name(&p.name) {
            let key = (read.surname.clone(), read.given.first().map(Given::first));
            buckets.entry(key).or_default().push((read, p));
        }
    }
    let mut groups = Vec::new();
    for (_, mut names) in buckets {
        if names.len() < 2 {
            continue;
        }
        names.sort_by(|a, b| {
            detail(&b.0)
                .cmp(&detail(&a.0))
                .then(b.1.games.cmp(&a.1.games))
        });
        let mut clusters: Vec<Vec<Named<'_>>> = Vec::new();
        for name in names {
            let fitting = clusters
                .iter_mut()
                .filter(|c| c.iter().all(|m| fits(&m.0.given, &name.0.given)))
                .max_by_key(|c| c.iter().map(|m| m.1.games).sum::<i64>());
            match fitting {
                Some(cluster) => cluster.push(name),
                None => clusters.push(vec![name]),
            }
        }
        groups.extend(clusters.into_iter().filter(|c| c.len() > 1).map(group_of));
    }
    groups.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then_with(|| a.names[0].name.cmp(&b.names[0].name))
    });
    groups
}

/// A cluster as shown: names with a full given name first, by games.
fn group_of(mut cluster: Vec<Named<'_>>) -> SimilarGroup {
    cluster.sort_by(|a, b| {
        (detail(&b.0).0 > 0)
            .cmp(&(detail(&a.0).0 > 0))
            .then(b.1.games.cmp(&a.1.games))
            .then(a.1.name.cmp(&b.1.name))
    });
    let names: Vec<SimilarName> = cluster
        .iter()
        .map(|(_, p)| SimilarName {
            name: p.name.clone(),
            games: p.games,
        })
        .collect();
    SimilarGroup {
        games: names.iter().map(|n| n.games).sum(),
        names,
    }
}

impl Store {
    /// Groups of player names that are probably one player (of `variant`
    /// when given), most games first; names already aliases count under
    /// their canonical name.
    ///
    /// # Errors
    /// A database failure.
    pub fn similar_players(&self, variant: Option<&str>) -> Result<Vec<SimilarGroup>, StoreError> {
        Ok(similar_groups(&self.players(variant, 0)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, games: i64) -> PlayerRow {
        PlayerRow {
            name: name.into(),
            aliases: Vec::new(),
            games,
            wins: 0,
            draws: 0,
            losses: 0,
            unknown: games,
            score: None,
            first_date: None,
            last_date: None,
        }
    }

    fn grouped(names: &[(&str, i64)]) -> Vec<Vec<String>> {
        let rows: Vec<PlayerRow> = names.iter().map(|(n, g)| row(n, *g)).collect();
        similar_groups(&rows)
            .into_iter()
            .map(|g| g.names.into_iter().map(|n| n.name).collect())
            .collect()
    }

    #[test]
    fn one_player_written_four_ways_is_one_group() {
        let groups = grouped(&[
            ("Lowder, B.", 40),
            ("Lowder, Bill", 12),
            ("B. Lowder", 3),
            ("LOWDER B", 2),
            ("Bill Lowder", 1),
            ("Lowder, E.", 90),
        ]);
        assert_eq!(
            groups,
            [vec![
                "Lowder, Bill",
                "Bill Lowder",
                "Lowder, B.",
                "B. Lowder",
                "LOWDER B"
            ]]
        );
    }

    #[test]
    fn different_first_names_and_initials_stay_apart() {
        let groups = grouped(&[
            ("Smith, John", 5),
            ("Smith, James", 5),
            ("Lafferty, D.M.", 9),
            ("Lafferty, D.J.", 4),
            ("Lafferty, D.", 2),
            ("Ross, R.", 3),
            ("Ross, B.", 3),
            ("Ross", 1),
            ("Ryan, W.F.", 9),
            ("Ryan, V.", 2),
            ("Owen, HL.", 4),
            ("Owen, H.L.", 3),
            ("Owen, H.M.", 2),
        ]);
        assert_eq!(
            groups,
            [
                vec!["Lafferty, D.M.", "Lafferty, D."],
                vec!["Owen, HL.", "Owen, H.L."]
            ]
        );
    }

    #[test]
    fn spelling_blanks_case_and_transliteration_fold() {
        let groups = grouped(&[
            ("Tinsley, M.F.", 900),
            ("Tinsley ,M.F.", 7),
            ("DeLong, V.", 5),
            ("Delong, V.", 4),
            ("Moiseyev, A.", 30),
            ("Moiseev, A.", 10),
            ("Tchaikovsky, P.", 3),
            ("Chaikovskiy, P.", 2),
            ("Gantvarg, A.", 8),
            ("Gantwarg, A.", 6),
            ("Koeperwas, Alexander", 4),
            ("Köperwas, A.", 1),
        ]);
        assert_eq!(groups.len(), 5, "{groups:?}");
        assert!(groups.contains(&vec![
            "Tinsley, M.F.".to_string(),
            "Tinsley ,M.F.".to_string()
        ]));
        assert!(groups.contains(&vec!["Moiseyev, A.".to_string(), "Moiseev, A.".to_string()]));
        assert!(groups.contains(&vec![
            "Tchaikovsky, P.".to_string(),
            "Chaikovskiy, P.".to_string()
        ]));
    }

    #[test]
    fn transliterations_fold_to_one_key() {
        let key = transliteration_key;
        assert_eq!(key("petroff"), key("petrov"));
        assert_eq!(key("shchegolev"), key("schegolev"));
        assert_eq!(key("khodzhaev"), key("hodzaev"));
        assert_eq!(key("yusupov"), key("jusupov"));
        assert_ne!(key("ross"), key("cross"));
    }
}
