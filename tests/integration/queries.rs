//! Queries say what they did, through the real binary: the variant they
//! chose, why moves do not read and where they do, how many games they
//! list of how many, where each game stands, who won, the tree's unknown
//! results and shares, and games without a board.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{crate_path, json_lines, pdndb, run};

/// English games with messy tags and every kind of result, and a game
/// whose set-up cannot be read.
const OWN_GAMES: &str = "\
[Event \"Club\tnight\"]
[White \"  Ann\u{1b}[31m  Lee\t\"]
[Black \"Bo\"]
[Date \"3/5/2019\"]
[Result \"1-0\"]
[GameType \"21,B,8,8,N1,0\"]

1. 11-15 23-19 1-0

[Event \"Unfinished\"]
[White \"Cy\"]
[Black \"Di\"]
[Result \"*\"]
[GameType \"21,B,8,8,N1,0\"]

1. 11-15 22-18 *

[Event \"Nothing known\"]
[White \"Ed\"]
[Black \"Fe\"]
[Result \"0-0\"]
[GameType \"21,B,8,8,N1,0\"]

1. 11-15 22-18 0-0

[Event \"Bad set-up\"]
[White \"Gil\"]
[Black \"Hu\"]
[Result \"1-0\"]
[SetUp \"1\"]
[FEN \"W:W18,18:B1\"]

1. 18-14 1-5 1-0
";

/// A database of the sample archives (mostly Filipino), 20 generated
/// English games, 3 generated Russian ones and [`OWN_GAMES`]: English has
/// the most games.
fn mixed_db(dir: &Path) -> PathBuf {
    let db = dir.join("mixed.sqlite");
    let mut files = vec![crate_path("sample-pdn")];
    for (variant, games) in [("english", "20"), ("russian", "3")] {
        let file = dir.join(format!("{variant}.pdn"));
        let out = pdndb(&db)
            .args(["generate", "--variant", variant, "--games", games])
            .args(["--seed", "5", "-o"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        files.push(file);
    }
    let own = dir.join("own.pdn");
    std::fs::write(&own, OWN_GAMES).unwrap();
    files.push(own);
    let out = pdndb(&db).arg("import").args(&files).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    db
}

/// Runs a command that must succeed; its stdout and stderr.
fn ok(db: &Path, args: &[&str]) -> (String, String) {
    let (out, err, code) = run(db, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    (out, err)
}

/// The JSON records of a command that must succeed.
fn records(db: &Path, args: &[&str]) -> Vec<Value> {
    let mut args = args.to_vec();
    args.push("--json");
    json_lines(&ok(db, &args).0)
}

/// The JSON records of `report` (exit 1: it lists problem games).
fn report(db: &Path, args: &[&str]) -> Vec<Value> {
    let args = [&["report", "--json"], args].concat();
    let (out, err, code) = run(db, &args);
    assert_eq!(code, 1, "{args:?}: {err}");
    json_lines(&out)
}

/// `file:line: game N`, as every listing writes a game's place.
fn place(record: &Value) -> String {
    format!(
        "{}:{}: game {}",
        record["file"].as_str().unwrap(),
        record["line"],
        record["index"]
    )
}

#[test]
fn the_variant_chosen_is_said_and_illegal_moves_lead_to_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let db = mixed_db(dir.path());
    let (_, err) = ok(&db, &["tree"]);
    assert!(
        err.contains("tree: english games (the variant with most games; --variant to choose)"),
        "{err}"
    );
    let (_, err) = ok(&db, &["search", "--fen", "W:W21-32:B1-12"]);
    assert!(err.contains("search: games of every variant"), "{err}");
    let (_, err) = ok(&db, &["search", "--variant", "english"]);
    assert!(!err.contains("--variant to choose"), "{err}");

    // The manual's example (docs/manual.md): White's first move of Dama, illegal where
    // Black moves first.
    let (out, err, code) = run(&db, &["search", "--moves", "1. 23-18"]);
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(
        err.contains("23-18 is illegal under english; legal under filipino"),
        "{err}"
    );
    // Following the advice finds the seed game's copies.
    let advice = err
        .split("add --variant ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no advice: {err}"));
    assert_eq!(advice, "filipino");
    let hits = records(&db, &["search", "--moves", "1. 23-18", "--variant", advice]);
    assert!(hits.len() >= 4, "{hits:?}");
    assert!(hits.iter().all(|h| h["variant"] == "filipino"));
    // Moves legal nowhere say so.
    let (_, err, code) = run(&db, &["search", "--moves", "1. 23-27"]);
    assert_eq!(code, 2);
    assert!(err.contains("under every other variant"), "{err}");
    // Moves that read under a variant the database has no game of are not
    // offered it: nothing would be found there.
    let (_, err, code) = run(&db, &["search", "--moves", "1. 11-15 22-19"]);
    assert_eq!(code, 2);
    assert!(!err.contains("spanish"), "{err}");
}

#[test]
fn moves_are_written_one_way_everywhere_and_a_bad_token_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = mixed_db(dir.path());
    let english = ["--variant", "english"];
    let spaced = records(
        &db,
        &[&["tree", "--moves", "1. 11-15 23-19"][..], &english].concat(),
    );
    assert!(!spaced.is_empty());
    for written in [
        "11-15,23-19",
        "11-15, 23-19",
        "1.11-15 23-19",
        "1. 11-15! 1... 23-19",
    ] {
        let tree = records(&db, &[&["tree", "--moves", written][..], &english].concat());
        assert_eq!(tree, spaced, "{written}");
    }
    let (out, err, code) = run(
        &db,
        &["tree", "--variant", "english", "--moves", "11-15 23-19 foo"],
    );
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains(r#"--moves: ply 3: "foo" is not a move"#),
        "{err}"
    );
    let server = super::serve::Server::start(&db, &[]);
    for route in ["tree", "search"] {
        let r = server.get(&format!("/api/{route}?variant=english&moves=11-15,23-19"));
        assert_eq!(r.status, 200, "{route}: {}", r.body);
        let r = server.get(&format!(
            "/api/{route}?variant=english&moves=11-15,23-19,foo"
        ));
        assert_eq!(r.status, 400, "{route}: {}", r.body);
        assert!(
            r.body.contains(r#"moves: ply 3: \"foo\" is not a move"#),
            "{}",
            r.body
        );
    }
    let r = server.get("/api/position?variant=english&moves=1.%2011-15%2023-19");
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn variant_names_ignore_case_and_absent_ones_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let db = mixed_db(dir.path());
    let lower = records(&db, &["search", "--variant", "english", "--limit", "0"]);
    assert!(lower.len() >= 20, "{}", lower.len());
    let upper = records(&db, &["search", "--variant", "English", "--limit", "0"]);
    assert_eq!(upper, lower);
    let tree = records(&db, &["tree", "--variant", "ENGLISH"]);
    assert_eq!(tree, records(&db, &["tree", "--variant", "english"]));
    for command in ["search", "tree"] {
        let (out, err, code) = run(&db, &[command, "--variant", "pool"]);
        assert_eq!((out.as_str(), code), ("", 2), "{command}: {err}");
        assert!(
            err.contains("no game in the database is pool"),
            "{command}: {err}"
        );
        for present in ["english (", "filipino (", "russian (3 games)"] {
            assert!(err.contains(present), "{command}: {err}");
        }
    }
}

#[test]
fn listings_say_n_of_m_and_where_each_game_stands() {
    let dir = tempfile::tempdir().unwrap();
    let db = mixed_db(dir.path());
    let all = records(&db, &["search", "--variant", "english", "--limit", "0"]);
    let (out, err) = ok(&db, &["search", "--variant", "english", "--limit", "3"]);
    assert!(err.contains(&format!("3 of {} games", all.len())), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    for (line, hit) in lines.iter().zip(&all) {
        assert!(hit["line"].as_i64().unwrap() >= 1, "{hit}");
        assert!(
            line.starts_with(&format!("{} (", place(hit))),
            "{line} / {hit}"
        );
        assert!(line.contains(&format!("[id {}]", hit["game"])), "{line}");
    }

    // Report and search write a game's place alike: a game of the seed
    // files' second game onwards (line > index) shows the difference.
    let stats = records(&db, &["stats"]);
    let games = stats[0]["games"].as_i64().unwrap();
    let reported = report(&db, &[]);
    let (out, err, _) = run(&db, &["report"]);
    assert!(
        err.contains(&format!("{} of {games} games listed", reported.len())),
        "{err}"
    );
    let everywhere = records(&db, &["search", "--fen", "W:W21-32:B1-12", "--limit", "0"]);
    let both: Vec<&Value> = everywhere
        .iter()
        .filter(|h| reported.iter().any(|r| r["game"] == h["game"]))
        .collect();
    assert!(!both.is_empty());
    assert!(
        both.iter().any(|h| h["line"] != h["index"]),
        "a game whose line is not its index: {both:?}"
    );
    let (search_out, _) = ok(&db, &["search", "--fen", "W:W21-32:B1-12", "--limit", "0"]);
    for hit in both {
        let id = format!("[id {}]", hit["game"]);
        let in_report = out.lines().find(|l| l.contains(&id)).unwrap();
        let in_search = search_out.lines().find(|l| l.contains(&id)).unwrap();
        assert!(in_report.starts_with(&place(hit)), "{in_report}");
        assert!(in_search.starts_with(&place(hit)), "{in_search}");
    }
}

#[test]
fn listings_show_cleaned_tags_and_who_won() {
    let dir = tempfile::tempdir().unwrap();
    let db = mixed_db(dir.path());
    let hits = records(
        &db,
        &[
            "search",
            "--moves",
            "1. 11-15 23-19",
            "--variant",
            "english",
        ],
    );
    let own = hits
        .iter()
        .find(|h| h["tags"]["Event"] == "Club\tnight")
        .expect("the game with messy tags");
    // JSON keeps the tags as written, and says who won.
    assert_eq!(own["tags"]["White"], "  Ann\u{1b}[31m  Lee\t");
    assert_eq!(own["result"], "1-0");
    assert_eq!(own["outcome"], "black");
    let (out, _) = ok(
        &db,
        &[
            "search",
            "--moves",
            "1. 11-15 23-19",
            "--variant",
            "english",
        ],
    );
    let line = out
        .lines()
        .find(|l| l.contains(&format!("[id {}]", own["game"])))
        .unwrap();
    assert!(
        line.contains("(Bo (Black) – Ann Lee (White), Club night 2019.05.03)"),
        "{line}"
    );
    assert!(line.contains("Black won"), "{line}");
    assert!(!line.contains('\u{1b}') && !line.contains('\t'), "{line}");
    // Under Filipino rules 1-0 is White's win.
    let filipino = records(&db, &["search", "--variant", "filipino", "--limit", "0"]);
    let white = filipino
        .iter()
        .find(|h| h["result"] == "1-0")
        .expect("a Filipino game won 1-0");
    assert_eq!(white["outcome"], "white");
    let id = white["game"].to_string();
    let (out, _) = ok(&db, &["show", &id]);
    assert!(out.contains("result 1-0: White won"), "{out}");

    let id = own["game"].to_string();
    let (out, _) = ok(&db, &["show", &id]);
    assert!(out.contains("[White \"Ann Lee\"]"), "{out}");
    assert!(out.contains("[Date \"2019.05.03\"]"), "{out}");
    assert!(out.contains("result 1-0: Black won"), "{out}");
    assert!(
        out.starts_with(&format!("{} [id {id}]", place(own))),
        "{out}"
    );
}

#[test]
fn the_tree_counts_unknown_results_and_shares_in_the_usual_notation() {
    let dir = tempfile::tempdir().unwrap();
    let db = mixed_db(dir.path());
    let moves = records(&db, &["tree", "--variant", "english"]);
    let field = |m: &Value, k: &str| m[k].as_i64().unwrap_or_else(|| panic!("{k}: {m}"));
    let mut unknown = 0;
    for m in &moves {
        let parts = ["white_wins", "draws", "black_wins", "unknown"];
        let sum: i64 = parts.iter().map(|k| field(m, k)).sum();
        assert_eq!(sum, field(m, "games"), "{m}");
        unknown += field(m, "unknown");
        // The score stays Black's (the side to move) over decided games.
        let decided = field(m, "white_wins") + field(m, "draws") + field(m, "black_wins");
        let expected = (decided > 0).then(|| {
            let points = field(m, "black_wins") as f64 + field(m, "draws") as f64 / 2.0;
            (1000.0 * points / decided as f64).round() / 10.0
        });
        assert_eq!(m["score"].as_f64(), expected, "{m}");
    }
    assert!(unknown >= 2, "the * and 0-0 games: {moves:?}");
    let games: i64 = moves.iter().map(|m| field(m, "games")).sum();
    let shares: f64 = moves.iter().map(|m| m["share"].as_f64().unwrap()).sum();
    assert!((shares - 100.0).abs() < 0.5, "{shares}");
    let first = &moves[0];
    let share = 100.0 * field(first, "games") as f64 / games as f64;
    // Rounded to one decimal (31.25 is written 31.3).
    assert!(
        (first["share"].as_f64().unwrap() - share).abs() <= 0.05 + 1e-9,
        "{first}"
    );
    let (out, _) = ok(&db, &["tree", "--variant", "english"]);
    assert!(out.lines().next().unwrap().contains("unknown"), "{out}");
    assert!(out.contains('%'), "{out}");

    // Russian moves come algebraic unless --notation says otherwise.
    let russian = records(&db, &["tree", "--variant", "russian"]);
    assert!(!russian.is_empty());
    for m in &russian {
        let mv = m["move"].as_str().unwrap();
        assert!(mv.starts_with(|c: char| c.is_ascii_lowercase()), "{mv}");
    }
    let numeric = records(
        &db,
        &["tree", "--variant", "russian", "--notation", "numeric"],
    );
    for m in &numeric {
        let mv = m["move"].as_str().unwrap();
        assert!(mv.starts_with(|c: char| c.is_ascii_digit()), "{mv}");
    }
}

#[test]
fn show_of_a_game_whose_setup_cannot_be_read_draws_no_board() {
    let dir = tempfile::tempdir().unwrap();
    let db = mixed_db(dir.path());
    let bad = report(&db, &["--status", "unreadable"])
        .into_iter()
        .find(|r| r["tags"]["Event"] == "Bad set-up")
        .expect("the game with a bad set-up");
    let id = bad["game"].to_string();
    let (out, _) = ok(&db, &["show", &id]);
    assert!(
        out.contains(
            "no board: the game is unreadable: FEN: invalid position: two pieces on square 18"
        ),
        "{out}"
    );
    assert!(!out.contains("to move") && !out.contains("FEN W:"), "{out}");
    let shown = records(&db, &["show", &id]);
    assert!(shown[0]["no_board"].as_str().unwrap().contains("square 18"));
    assert_eq!(shown[0]["fen"], Value::Null);
    let (_, err, code) = run(&db, &["show", &id, "--ply", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("no board to show"), "{err}");
    // A game that reads still has its board.
    let good = records(&db, &["search", "--variant", "english", "--limit", "1"]);
    let (out, _) = ok(&db, &["show", &good[0]["game"].to_string()]);
    assert!(out.contains("FEN ") && !out.contains("no board"), "{out}");
}

/// `--moves "1. 11-15 22-19"`, illegal in English checkers, is legal in
/// Spanish draughts only: the advice names Spanish when the database holds
/// Spanish games, and no variant it holds no game of.
#[test]
fn the_advice_names_only_variants_the_database_holds() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let generated = |variant: &str| {
        let file = dir.path().join(format!("{variant}.pdn"));
        let out = pdndb(&db)
            .args(["generate", "--variant", variant, "--games", "3"])
            .args(["--seed", "5", "-o"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let (_, err, code) = run(&db, &["import", "--quiet", file.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
    };
    let advice = |db: &Path| {
        let (out, err, code) = run(
            db,
            &[
                "search",
                "--variant",
                "english",
                "--moves",
                "1. 11-15 22-19",
            ],
        );
        assert_eq!((out.as_str(), code), ("", 2), "{err}");
        err
    };
    generated("english");
    let err = advice(&db);
    assert!(
        err.contains("(and under every other variant of the database's games)"),
        "{err}"
    );
    assert!(
        !err.contains("spanish") && !err.contains("add --variant"),
        "{err}"
    );
    generated("spanish");
    let err = advice(&db);
    assert!(
        err.contains("legal under spanish: add --variant spanish"),
        "{err}"
    );
    let named = err.split("; legal under ").nth(1).unwrap_or_default();
    let named = named.split(':').next().unwrap_or_default();
    assert_eq!(named, "spanish", "{err}");
}
