//! `pdndb games` and `pdndb players` through the real binary, their answers
//! checked against counts made here from the PDN text of the imported files.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::{crate_path, json_lines, run};

/// The tags of every game of a PDN text, names in lower case: read with
/// plain string handling, independently of pdndb's reader.
fn pdn_tags(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut games: Vec<BTreeMap<String, String>> = Vec::new();
    let mut in_tags = false;
    for line in text.lines() {
        let line = line.trim();
        let tag = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|l| {
                let (name, rest) = l.split_once(' ')?;
                let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
                Some((name.to_lowercase(), value.to_string()))
            });
        match tag {
            Some((name, value)) => {
                if !in_tags {
                    games.push(BTreeMap::new());
                    in_tags = true;
                }
                if let Some(game) = games.last_mut() {
                    game.insert(name, value);
                }
            }
            None if !line.is_empty() => in_tags = false,
            None => {}
        }
    }
    games
}

/// Who won by a result as written, for a variant where `black_first`.
fn winner(result: &str, black_first: bool) -> &'static str {
    match (result, black_first) {
        ("1-0", false) | ("0-1", true) => "white",
        ("0-1", false) | ("1-0", true) => "black",
        ("1/2-1/2", _) => "draw",
        _ => "unknown",
    }
}

/// `[games, wins, draws, losses, unknown]` per player, from tags.
fn records(games: &[BTreeMap<String, String>], black_first: bool) -> BTreeMap<String, [i64; 5]> {
    let mut by_name: BTreeMap<String, [i64; 5]> = BTreeMap::new();
    for game in games {
        let result = game.get("result").map_or("*", String::as_str);
        let won = winner(result, black_first);
        for (side, name) in [("white", game.get("white")), ("black", game.get("black"))] {
            let Some(name) = name else { continue };
            let r = by_name.entry(name.clone()).or_default();
            r[0] += 1;
            match won {
                "draw" => r[2] += 1,
                "unknown" => r[4] += 1,
                w if w == side => r[1] += 1,
                _ => r[3] += 1,
            }
        }
    }
    by_name
}

/// `players --json`, by name, as `[games, wins, draws, losses, unknown]`.
fn players(db: &Path, args: &[&str]) -> BTreeMap<String, [i64; 5]> {
    let mut all = vec!["players", "--json"];
    all.extend_from_slice(args);
    let (out, err, code) = run(db, &all);
    assert_eq!(code, 0, "{err}");
    json_lines(&out)
        .iter()
        .map(|p| {
            let n = |f: &str| p[f].as_i64().unwrap();
            (
                p["name"].as_str().unwrap().to_string(),
                [n("games"), n("wins"), n("draws"), n("losses"), n("unknown")],
            )
        })
        .collect()
}

/// `games --json --limit 0 ARGS…`: the records, and the total it reports.
fn games(db: &Path, args: &[&str]) -> (Vec<Value>, usize) {
    let mut all = vec!["games", "--json", "--limit", "0"];
    all.extend_from_slice(args);
    let (out, err, code) = run(db, &all);
    assert_eq!(code, 0, "{args:?}: {err}");
    let records = json_lines(&out);
    let total = err
        .lines()
        .find_map(|l| l.strip_suffix(" games")?.split(" of ").nth(1)?.parse().ok())
        .unwrap_or_else(|| panic!("no count in {err:?}"));
    assert_eq!(records.len(), total, "{args:?}");
    (records, total)
}

fn import(dir: &Path, files: &[&str]) -> std::path::PathBuf {
    let db = dir.join("db.sqlite");
    let mut args = vec!["import", "--quiet"];
    args.extend_from_slice(files);
    let (_, err, code) = run(&db, &args);
    assert_eq!(code, 0, "{err}");
    db
}

#[test]
fn an_english_archive_is_listed_and_scored_with_black_moving_first() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("english.pdn");
    let pdn_arg = pdn.to_str().unwrap();
    let (_, err, code) = run(
        &dir.path().join("unused.sqlite"),
        &[
            "generate",
            "--variant",
            "english",
            "--games",
            "300",
            "--seed",
            "5",
            "-o",
            pdn_arg,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    let tags = pdn_tags(&text);
    assert_eq!(tags.len(), 300);
    let db = import(dir.path(), &[pdn_arg]);

    // Every player's record, results read with Black moving first.
    let expected = records(&tags, true);
    assert_eq!(players(&db, &[]), expected);
    assert_eq!(players(&db, &["--variant", "english"]), expected);
    assert!(players(&db, &["--variant", "filipino"]).is_empty());
    let most = expected.values().map(|r| r[0]).max().unwrap();
    let busy = players(&db, &["--min-games", &most.to_string()]);
    assert!(!busy.is_empty() && busy.values().all(|r| r[0] == most));

    // Sorted by games, scores and dates as counted here.
    let (out, _, _) = run(&db, &["players", "--json"]);
    let listed = json_lines(&out);
    assert!(
        listed
            .windows(2)
            .all(|w| w[0]["games"].as_i64() >= w[1]["games"].as_i64())
    );
    for p in &listed {
        let name = p["name"].as_str().unwrap();
        let [_, w, d, l, _] = expected[name];
        let score = (1000.0 * (w as f64 + d as f64 / 2.0) / (w + d + l) as f64).round() / 10.0;
        assert_eq!(p["score"].as_f64(), Some(score), "{name}");
        let mut dates: Vec<&str> = tags
            .iter()
            .filter(|g| g["white"] == name || g["black"] == name)
            .map(|g| g["date"].as_str())
            .collect();
        dates.sort();
        assert_eq!(p["first_date"], dates[0]);
        assert_eq!(p["last_date"], *dates.last().unwrap());
    }

    // Games by player (a substring, any case), by side, by result.
    let name = listed[0]["name"].as_str().unwrap().to_string();
    let part = name[1..4].to_uppercase();
    let contains =
        |v: Option<&String>| v.is_some_and(|v| v.to_lowercase().contains(&part.to_lowercase()));
    let (found, total) = games(&db, &["--player", &part]);
    assert_eq!(
        total,
        tags.iter()
            .filter(|g| contains(g.get("white")) || contains(g.get("black")))
            .count()
    );
    assert!(total > 0);
    for record in &found {
        let (w, b) = (
            record["tags"]["White"].as_str().unwrap(),
            record["tags"]["Black"].as_str().unwrap(),
        );
        assert!(
            w.to_lowercase().contains(&part.to_lowercase())
                || b.to_lowercase().contains(&part.to_lowercase())
        );
    }
    let (_, white) = games(&db, &["--white", &part]);
    assert_eq!(
        white,
        tags.iter().filter(|g| contains(g.get("white"))).count()
    );
    let black_won = tags.iter().filter(|g| g["result"] == "1-0").count();
    let (won, total) = games(&db, &["--result", "black"]);
    assert_eq!(total, black_won);
    assert!(
        won.iter()
            .all(|g| g["result"] == "1-0" && g["outcome"] == "black")
    );
    assert_eq!(games(&db, &["--result", "1-0"]).1, black_won);
    let (_, white_won) = games(&db, &["--result", "white"]);
    assert_eq!(
        white_won,
        tags.iter().filter(|g| g["result"] == "0-1").count()
    );
    let draws = tags.iter().filter(|g| g["result"] == "1/2-1/2").count();
    assert_eq!(games(&db, &["--result", "draw"]).1, draws);
    assert_eq!(games(&db, &["--result", "½-½"]).1, draws);
    assert_eq!(
        games(&db, &["--result", "*"]).1,
        tags.iter().filter(|g| g["result"] == "*").count()
    );

    // Dates: a range of years, a month, open ends.
    let year = |g: &BTreeMap<String, String>| g["date"][..4].parse::<u32>().unwrap();
    let (in_range, total) = games(&db, &["--date", "2010..2014"]);
    assert_eq!(
        total,
        tags.iter()
            .filter(|g| (2010..=2014).contains(&year(g)))
            .count()
    );
    assert!(
        in_range
            .iter()
            .all(|g| g["tags"]["Date"].as_str().unwrap() < "2015")
    );
    assert_eq!(
        games(&db, &["--date", "..2009"]).1,
        tags.iter().filter(|g| year(g) <= 2009).count()
    );
    assert_eq!(
        games(&db, &["--date", "2020.03"]).1,
        tags.iter()
            .filter(|g| g["date"].starts_with("2020.03"))
            .count()
    );

    // Every record's fields; the list sorted by date; pages.
    let (all, total) = games(&db, &["--sort", "date"]);
    assert_eq!(total, 300);
    let dates: Vec<&str> = all
        .iter()
        .map(|g| g["tags"]["Date"].as_str().unwrap())
        .collect();
    assert!(dates.windows(2).all(|w| w[0] <= w[1]));
    for g in &all {
        for field in [
            "game", "file", "index", "line", "tags", "result", "outcome", "variant", "status",
            "plies",
        ] {
            assert!(g.get(field).is_some(), "{field} missing in {g}");
        }
        assert_eq!(g["variant"], "english");
    }
    let (page, total) = {
        let (out, err, code) = run(
            &db,
            &[
                "games", "--json", "--sort", "date", "--limit", "7", "--offset", "10",
            ],
        );
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("7 of 300 games"), "{err}");
        (json_lines(&out), 300)
    };
    assert_eq!(total, 300);
    assert_eq!(page, all[10..17].to_vec());
}

const NAMES: &str = r#"[Event "Cebu Open"]
[site "Cebu City"]
[Date "2019.05.03"]
[White "José  Pérez"]
[Black "100%_Club"]
[Result "1-0"]

1. 22-18 11-15 *

[Event "Manila Cup"]
[Site "Manila"]
[Date "2019"]
[White "jose perez"]
[Black "100xxClub"]
[Result "0-1"]

1. 22-17 11-16 *

[Event "Manila Cup"]
[Site "Manila"]
[Date "garbage"]
[White "Lee, A."]
[Black "lee, a."]
[Result "1/2-1/2"]

1. 23-18 12-16 *

[Event "Davao 50% Cup"]
[Site "Davao"]
[Date "3 May 2019"]
[White "a_b"]
[Black "axb"]
[Result "*"]

1. 24-20 10-15 *

[Event "Nowhere"]
[Date "????.??.??"]
[White "JOSÉ PÉREZ"]
[Black "Ånström"]
[Result "1-0"]

1. 21-17 9-13 *
"#;

/// Events and names are found by a part of them (three characters or
/// more through the trigram index, fewer by reading them all) as the
/// games that hold them come and go; the check finds them kept.
#[test]
fn parts_of_events_and_names_find_the_games_as_files_come_and_go() {
    let dir = tempfile::tempdir().unwrap();
    let names = dir.path().join("names.pdn");
    std::fs::write(&names, NAMES).unwrap();
    let other = dir.path().join("other.pdn");
    std::fs::write(
        &other,
        "[Event \"Open de Cebú\"]\n[White \"Zoë Añonuevo\"]\n[Black \"Ånström\"]\n\n1. 22-18 *\n",
    )
    .unwrap();
    let db = import(
        dir.path(),
        &[names.to_str().unwrap(), other.to_str().unwrap()],
    );
    let count = |args: &[&str]| games(&db, args).1;
    let checked = || {
        let (out, err, code) = run(&db, &["stats", "--check"]);
        assert_eq!(code, 0, "{out}{err}");
    };
    assert_eq!(count(&["--event", "DE CEBU"]), 1);
    assert_eq!(count(&["--event", "bú"]), 2);
    assert_eq!(count(&["--player", "anonu"]), 1);
    assert_eq!(count(&["--player", "NSTR"]), 2);
    checked();
    let (_, err, code) = run(&db, &["remove", other.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(count(&["--event", "de cebu"]), 0);
    assert_eq!(count(&["--event", "BU"]), 1);
    assert_eq!(count(&["--player", "anonu"]), 0);
    assert_eq!(count(&["--player", "nstr"]), 1);
    checked();
    let (_, err, code) = run(&db, &["import", "--quiet", other.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(count(&["--event", "de cebu"]), 1);
    assert_eq!(count(&["--player", "zoe"]), 1);
    checked();
    // The first file's games go: the values the other file holds too are
    // entered again under its games.
    let (_, err, code) = run(&db, &["remove", names.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(count(&["--event", "de cebu"]), 1);
    assert_eq!(count(&["--player", "NSTR"]), 1);
    checked();
}

#[test]
fn names_match_without_case_or_accents_and_sql_wildcards_match_literally() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("names.pdn");
    std::fs::write(&pdn, NAMES).unwrap();
    let tags = pdn_tags(NAMES);
    assert_eq!(tags.len(), 5);
    let db = import(dir.path(), &[pdn.to_str().unwrap()]);
    let ids = |args: &[&str]| -> Vec<i64> {
        games(&db, args)
            .0
            .iter()
            .map(|g| g["index"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(ids(&["--player", "jose"]), [1, 2, 5]);
    assert_eq!(ids(&["--white", "PÉREZ"]), [1, 2, 5]);
    assert_eq!(ids(&["--black", "anstr"]), [5]);
    assert_eq!(ids(&["--player", "%"]), [1]);
    assert_eq!(ids(&["--player", "0%_c"]), [1]);
    assert_eq!(ids(&["--player", "_"]), [1, 4]);
    assert_eq!(ids(&["--player", "a_b"]), [4]);
    assert!(ids(&["--player", "'; DROP TABLE game; --"]).is_empty());
    assert_eq!(ids(&["--event", "50%"]), [4]);
    assert_eq!(ids(&["--event", "manila"]), [2, 3]);
    // The Site tag, whatever the case of its name.
    assert_eq!(ids(&["--site", "CEBU"]), [1]);
    // Dates: a year holds a game of that year with an unknown month; a
    // month does not; unreadable and unknown dates never match.
    assert_eq!(ids(&["--date", "2019"]), [1, 2, 4]);
    assert_eq!(ids(&["--date", "2019.05"]), [1, 4]);
    assert_eq!(ids(&["--date", "2019.05.03"]), [1, 4]);
    assert_eq!(ids(&["--date", "1000..3000"]), [1, 2, 4]);
    assert_eq!(ids(&["--date", "2019.05.04.."]), Vec::<i64>::new());
    // Tags cleaned, dates and results normalised.
    let (all, _) = games(&db, &[]);
    assert_eq!(all[0]["tags"]["White"], "José Pérez");
    assert_eq!(all[3]["tags"]["Date"], "2019.05.03");
    assert_eq!(all[2]["tags"]["Date"], "garbage");
    assert_eq!(all[0]["outcome"], "white");

    // Players: cleaned names compared exactly (José's two spellings with
    // accents differ; "Lee, A." and "lee, a." are two players).
    let records = players(&db, &[]);
    assert_eq!(records["José Pérez"], [1, 1, 0, 0, 0]);
    assert_eq!(records["jose perez"], [1, 0, 0, 1, 0]);
    assert_eq!(records["Lee, A."], [1, 0, 1, 0, 0]);
    assert_eq!(records["lee, a."], [1, 0, 1, 0, 0]);
    assert_eq!(records["a_b"], [1, 0, 0, 0, 1]);
    assert_eq!(records.len(), 10);
    let (out, _, _) = run(&db, &["players", "--json"]);
    let lee = json_lines(&out)
        .into_iter()
        .find(|p| p["name"] == "Lee, A.")
        .unwrap();
    assert_eq!(
        (lee["score"].as_f64(), &lee["first_date"]),
        (Some(50.0), &Value::Null)
    );
    let club = json_lines(&out)
        .into_iter()
        .find(|p| p["name"] == "a_b")
        .unwrap();
    assert_eq!(club["score"], Value::Null);
}

#[test]
fn malformed_filters_are_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("names.pdn");
    std::fs::write(&pdn, NAMES).unwrap();
    let db = import(dir.path(), &[pdn.to_str().unwrap()]);
    for date in [
        "",
        " ",
        "..",
        "20x9",
        "2019.13",
        "2019.02.30",
        "2019...2020",
        "2019..2018",
        "19",
        "2019.5",
        "2019-05",
        "2019..2020..2021",
    ] {
        for command in ["games", "search"] {
            let (out, err, code) = run(&db, &[command, "--date", date]);
            assert_eq!(code, 2, "{command} --date {date:?}: {out} {err}");
            assert!(
                err.contains("--date") && err.contains(&format!("'{date}'")),
                "{date:?}: {err}"
            );
            assert!(out.is_empty());
        }
    }
    let (_, err, _) = run(&db, &["games", "--date", "2019..2018"]);
    assert!(err.contains("the range is empty"), "{err}");
    for args in [
        &["games", "--result", "3-0"][..],
        &["games", "--status", "fine"],
        &["games", "--player", ""],
        &["games", "--variant", "chess"],
        &["games", "--sort", "colour"],
        &["players", "--variant", "chess"],
        &["players", "--min-games", "-1"],
    ] {
        let (_, err, code) = run(&db, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.is_empty());
    }
}

#[test]
fn search_takes_the_game_filters() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("pool.pdn");
    let (_, err, code) = run(
        &dir.path().join("unused.sqlite"),
        &[
            "generate",
            "--variant",
            "pool",
            "--games",
            "200",
            "--seed",
            "3",
            "-o",
            pdn.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let db = import(dir.path(), &[pdn.to_str().unwrap()]);
    let search = |args: &[&str]| -> Vec<Value> {
        let mut all = vec!["search", "--json", "--limit", "0", "--variant", "pool"];
        all.extend_from_slice(args);
        let (out, err, code) = run(&db, &all);
        assert_eq!(code, 0, "{err}");
        json_lines(&out)
    };
    let everyone = search(&[]);
    assert!(everyone.len() == 200);
    let name = everyone[0]["tags"]["White"].as_str().unwrap().to_string();
    let expected: Vec<&Value> = everyone
        .iter()
        .filter(|h| h["tags"]["White"] == name.as_str() || h["tags"]["Black"] == name.as_str())
        .filter(|h| h["tags"]["Result"] == "1-0")
        .collect();
    let found = search(&["--player", &name, "--result", "1-0"]);
    assert_eq!(found.iter().collect::<Vec<_>>(), expected);
    let (out, _, _) = run(
        &db,
        &[
            "search",
            "--json",
            "--variant",
            "pool",
            "--player",
            &name,
            "--limit",
            "1",
        ],
    );
    assert_eq!(json_lines(&out).len(), 1);
}

#[test]
fn a_database_of_the_previous_release_is_migrated_and_kept_right_by_recheck() {
    let dir = tempfile::tempdir().unwrap();
    let from = crate_path("tests/data/previous-release");
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let db = dir.path().join("previous-release.sqlite");
    let read = |file: &str| pdn_tags(&std::fs::read_to_string(dir.path().join(file)).unwrap());
    let pool = read("pool.pdn");
    // Opening migrates: the site comes from the stored tags.
    assert_eq!(players(&db, &["--variant", "pool"]), records(&pool, true));
    let (_, at_site) = games(&db, &["--site", "PDNDB GEN"]);
    let files = [
        "forced.pdn",
        "international.pdn",
        "pool.pdn",
        "problems.pdn",
        "russian.pdn",
    ];
    let with_site = files
        .iter()
        .flat_map(|f| read(f))
        .filter(|g| g.get("site").is_some_and(|s| s == "pdndb generate"))
        .count();
    assert_eq!(at_site, with_site);
    assert!(with_site > 0);
    // A recheck reads the Russian games as Russian: the counts follow.
    assert!(players(&db, &["--variant", "russian"]).is_empty());
    let (_, err, code) = run(&db, &["recheck"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        players(&db, &["--variant", "russian"]),
        records(&read("russian.pdn"), false)
    );
    assert_eq!(games(&db, &["--variant", "russian"]).1, 30);
}

#[test]
fn numbers_too_large_never_wrap_round() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::serve::sample_db(dir.path());
    let (all, _, code) = run(&db, &["games", "--json", "--limit", "0"]);
    assert_eq!(code, 0);
    let all = json_lines(&all);
    assert!(all.len() > 3);
    // An offset past the end, however large, gives no games.
    for offset in [
        all.len().to_string(),
        "9223372036854775807".to_string(),
        "9223372036854775808".to_string(),
        u64::MAX.to_string(),
    ] {
        let (out, err, code) = run(&db, &["games", "--json", "--offset", &offset]);
        assert_eq!(code, 0, "{offset}: {err}");
        assert_eq!(out, "", "--offset {offset}");
    }
    // A limit beyond every game lists them all.
    let (out, _, code) = run(&db, &["games", "--json", "--limit", &u64::MAX.to_string()]);
    assert_eq!(code, 0);
    assert_eq!(json_lines(&out), all);
    // An id beyond every game is not found; one past i64 is refused.
    let (_, err, code) = run(&db, &["show", "9223372036854775807"]);
    assert_eq!(code, 2);
    assert!(err.contains("no game 9223372036854775807"), "{err}");
    let (_, err, code) = run(&db, &["show", &u64::MAX.to_string()]);
    assert_eq!(code, 2);
    assert!(err.contains("too large"), "{err}");
}

#[test]
fn sorted_by_player_unknown_names_come_last() {
    let dir = tempfile::tempdir().unwrap();
    // (event, White, Black); `None`: no tag.
    let players = [
        ("g1", Some("Zamora"), Some("?")),
        ("g2", Some("?"), Some("Abad")),
        ("g3", None, Some("Cruz")),
        ("g4", Some("Abad"), Some("Zamora")),
        ("g5", Some("Abad"), Some("?")),
        ("g6", Some("-"), Some("??")),
        ("g7", Some("Abad"), Some("Cruz")),
        ("g8", Some("1st Club"), Some("")),
    ];
    let text: String = players
        .iter()
        .map(|(event, white, black)| {
            let tag = |name: &str, value: &Option<&str>| {
                value.map_or(String::new(), |v| format!("[{name} \"{v}\"]\n"))
            };
            format!(
                "[Event \"{event}\"]\n{}{}\n1. 22-18 11-15 *\n\n",
                tag("White", white),
                tag("Black", black)
            )
        })
        .collect();
    let pdn = dir.path().join("players.pdn");
    std::fs::write(&pdn, text).unwrap();
    let db = import(dir.path(), &[pdn.to_str().unwrap()]);
    let events = |records: &[Value]| -> Vec<String> {
        records
            .iter()
            .map(|g| g["tags"]["Event"].as_str().unwrap().to_string())
            .collect()
    };
    let (all, total) = games(&db, &["--sort", "player"]);
    assert_eq!(total, 8);
    // Known Whites by name (then by Black as written), then unknown
    // Whites (as written) with a Black, then neither.
    assert_eq!(
        events(&all),
        ["g8", "g5", "g7", "g4", "g1", "g3", "g2", "g6"]
    );
    // Every page is that list's slice, across the parts.
    for offset in 0..=8 {
        for limit in 1..=3 {
            let (out, err, code) = run(
                &db,
                &[
                    "games",
                    "--json",
                    "--sort",
                    "player",
                    "--limit",
                    &limit.to_string(),
                    "--offset",
                    &offset.to_string(),
                ],
            );
            assert_eq!(code, 0, "{err}");
            let end = (offset + limit).min(8);
            assert_eq!(
                events(&json_lines(&out)),
                events(&all[offset.min(8)..end]),
                "--limit {limit} --offset {offset}"
            );
        }
    }
    // Filters apply in every part.
    let (some, total) = games(&db, &["--sort", "player", "--black", "cruz"]);
    assert_eq!(total, 2);
    assert_eq!(events(&some), ["g7", "g3"]);
}

#[test]
fn a_players_count_takes_each_game_once_whichever_sides_the_names_had() {
    let dir = tempfile::tempdir().unwrap();
    let game = |event: &str, white: &str, black: &str, variant: &str| {
        format!(
            "[Event \"{event}\"]\n[GameType \"{variant}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"1-0\"]\n\n1. 22-18 1-0\n\n"
        )
    };
    let first = dir.path().join("first.pdn");
    let second = dir.path().join("second.pdn");
    std::fs::write(
        &first,
        [
            game("g1", "Ana Cruz", "Ben Reyes", "21"),
            game("g2", "Ana Cruz", "Ana Cruz", "21"),
            game("g3", "Diana Lim", "Ana Cruz", "21"),
            game("g4", "Ben Reyes", "Carl Yu", "21"),
        ]
        .concat(),
    )
    .unwrap();
    std::fs::write(
        &second,
        [
            game("g5", "Ana Cruz", "Diana Lim", "20"),
            game("g6", "Diana Lim", "Diana Lim", "20"),
        ]
        .concat(),
    )
    .unwrap();
    let db = import(
        dir.path(),
        &[first.to_str().unwrap(), second.to_str().unwrap()],
    );
    let events = |args: &[&str]| -> Vec<String> {
        let mut found: Vec<String> = (games(&db, args).0.iter())
            .map(|g| g["tags"]["Event"].as_str().unwrap().to_string())
            .collect();
        found.sort();
        found
    };
    // "an" is in "Ana Cruz" and "Diana Lim": games of either, or of both.
    assert_eq!(events(&["--player", "an"]), ["g1", "g2", "g3", "g5", "g6"]);
    assert_eq!(events(&["--player", "ana cruz"]), ["g1", "g2", "g3", "g5"]);
    assert_eq!(events(&["--player", "reyes"]), ["g1", "g4"]);
    let (_, err, code) = run(&db, &["remove", second.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(events(&["--player", "an"]), ["g1", "g2", "g3"]);
}
