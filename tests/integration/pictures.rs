//! Board pictures through the real binary: the Unicode board of `show`,
//! `show --svg`, `report --html`, and `search`/`tree --board`.

use std::path::Path;

use serde_json::Value;

use crate::{crate_path, run};

/// A database of sample-pdn/ and the id of the Dama copy of the seed game.
fn sample_db(dir: &Path) -> (std::path::PathBuf, String, Vec<Value>) {
    let db = dir.join("sample.sqlite");
    let sample = crate_path("sample-pdn");
    let (_, err, code) = run(&db, &["import", sample.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (out, _, code) = run(&db, &["report", "--json"]);
    assert_eq!(code, 1);
    let records: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let dama = records
        .iter()
        .find(|r| r["tags"]["Event"] == "Seed game (Dama notation)")
        .expect("the Dama copy is a problem game");
    let id = dama["game"].as_i64().unwrap().to_string();
    (db, id, records)
}

fn xml(text: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(text, options)
        .unwrap_or_else(|e| panic!("not well-formed: {e}"))
}

fn has_class(node: &roxmltree::Node, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split(' ').any(|w| w == class))
}

fn count_class(node: roxmltree::Node, class: &str) -> usize {
    node.descendants().filter(|e| has_class(e, class)).count()
}

#[test]
fn show_draws_the_dama_copy_before_ply_70_with_its_two_readings() {
    let dir = tempfile::tempdir().unwrap();
    let (db, id, _) = sample_db(dir.path());
    let svg_path = dir.path().join("dama-69.svg");
    let (out, err, code) = run(
        &db,
        &[
            "show",
            &id,
            "--ply",
            "69",
            "--svg",
            svg_path.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    // B:WK6,30:B3,K18,21,K31 in Dama numbers, White at the bottom.
    let board: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("position 69"))
        .collect();
    let squares = |l: &str| l.split('│').nth(1).unwrap_or_default().to_string();
    assert_eq!(squares(board[2]), "   12    [·]    ●     9 ", "{out}");
    assert_eq!(squares(board[3]), " 8    [◎]    6     5    ", "{out}");
    assert_eq!(squares(board[6]), "   16     ◉    14    13 ", "{out}");
    assert_eq!(squares(board[7]), " ●     1     2     3    ", "{out}");
    assert_eq!(squares(board[9]), " 9     ○     ◉    12    ", "{out}");
    assert!(out.contains("Black to move"), "{out}");
    assert!(out.contains("last move [11-7]"), "{out}");
    assert!(out.contains("arrow 1 (red): 15-5 (numeric 18-25)"), "{out}");
    assert!(out.contains("arrow 2 (blue): 15-5 (numeric 18-8)"), "{out}");
    assert!(!out.contains('\x1b'), "no colour when not a terminal");
    assert!(out.contains("FEN B:WK6,30:B3,K18,21,K31"));

    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = xml(&svg);
    let root = doc.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
    assert_eq!(count_class(root, "piece"), 6);
    assert_eq!(count_class(root, "wm"), 1);
    assert_eq!(count_class(root, "wk"), 1);
    assert_eq!(count_class(root, "bm"), 2);
    assert_eq!(count_class(root, "bk"), 2);
    let arrows: Vec<&str> = root
        .descendants()
        .filter(|e| has_class(e, "arrow"))
        .filter_map(|e| e.attribute("data-move"))
        .collect();
    assert_eq!(arrows, ["18-25", "18-8"]);
    let fills: Vec<&str> = root
        .descendants()
        .filter(|e| has_class(e, "arrow"))
        .filter_map(|e| e.attribute("stroke"))
        .collect();
    assert_ne!(fills[0], fills[1], "distinct colours");
    assert_eq!(count_class(root, "last-move"), 1);
    for u in root.descendants().filter(|e| e.has_tag_name("use")) {
        let target = u.attribute("href").unwrap().trim_start_matches('#');
        assert!(
            root.descendants()
                .any(|d| d.attribute("id") == Some(target)),
            "{target} is defined in the file"
        );
    }

    // Elsewhere no arrows; the start has 24 men.
    let (_, err, code) = run(
        &db,
        &[
            "show",
            &id,
            "--ply",
            "0",
            "--svg",
            svg_path.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = xml(&svg);
    assert_eq!(count_class(doc.root_element(), "piece"), 24);
    assert_eq!(count_class(doc.root_element(), "arrow"), 0);
    assert_eq!(count_class(doc.root_element(), "last-move"), 0);

    // Luzon board: mirrored, files and ranks on the edges.
    let (out, _, code) = run(&db, &["show", &id, "--ply", "69", "--notation", "luzon"]);
    assert_eq!(code, 0);
    assert!(out.contains("  4 │ ·     ·     ◉     ·    │ 4"), "{out}");
    assert!(
        out.contains("arrow 1 (red): e4-g2 (numeric 18-25)"),
        "{out}"
    );

    // The JSON fields stay as they were.
    let (out, _, _) = run(&db, &["show", &id, "--ply", "69", "--json"]);
    let shown: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(shown["fen"], "B:WK6,30:B3,K18,21,K31");
    assert_eq!(shown["ply"], 69);

    // A bad --svg path is an error, not a panic.
    let (_, err, code) = run(
        &db,
        &[
            "show",
            &id,
            "--svg",
            dir.path().join("no/such/dir.svg").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn report_html_has_one_board_per_problem_game_with_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let (db, id, records) = sample_db(dir.path());
    let page_path = dir.path().join("report.html");
    let (_, err, code) = run(&db, &["report", "--html", page_path.to_str().unwrap()]);
    assert_eq!(code, 1, "problems listed: {err}");
    let html = std::fs::read_to_string(&page_path).unwrap();
    let doc = xml(&html);
    let games: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|e| e.has_tag_name("details") && has_class(e, "game"))
        .collect();
    assert_eq!(games.len(), records.len());
    // Every game with a position (ambiguous, illegal) has exactly one
    // board; unsupported and unreadable ones say why they have none.
    for record in &records {
        let anchor = format!("game-{}", record["game"]);
        let section = games
            .iter()
            .find(|g| g.attribute("id") == Some(anchor.as_str()))
            .unwrap_or_else(|| panic!("{anchor}"));
        let boards = section
            .descendants()
            .filter(|e| e.has_tag_name("svg") && has_class(e, "board"))
            .count();
        let expected = usize::from(matches!(
            record["status"].as_str(),
            Some("ambiguous" | "illegal")
        ));
        assert_eq!(boards, expected, "{record}");
        if expected == 0 {
            assert_eq!(count_class(*section, "no-board"), 1);
        }
        assert_eq!(count_class(*section, "fault"), expected, "{record}");
    }
    let boards = doc
        .descendants()
        .filter(|e| e.has_tag_name("svg") && has_class(e, "board"))
        .count();
    assert_eq!(boards, records.len(), "every problem game has a board");

    // The Dama copy: its board at position 69, two arrows, 15-5 marked.
    let dama = games
        .iter()
        .find(|g| g.attribute("id") == Some(format!("game-{id}").as_str()))
        .unwrap();
    assert_eq!(count_class(*dama, "arrow"), 2);
    assert_eq!(count_class(*dama, "piece"), 6);
    let fault = dama
        .descendants()
        .find(|e| e.has_tag_name("mark") && has_class(e, "fault"))
        .unwrap();
    assert_eq!(fault.text(), Some("15-5"));
    assert_eq!(fault.attribute("title"), Some("ply 70"));
    assert_eq!(count_class(*dama, "resolved"), 1, "ply 62, 8-12");
    assert!(
        dama.descendants()
            .any(|e| e.text().is_some_and(|t| t.contains("pdndb show"))
                && e.text().is_some_and(|t| t.contains("--ply 69")))
    );

    // The summary counts per status and per file.
    let by_file = doc
        .descendants()
        .find(|e| e.has_tag_name("table") && has_class(e, "by-file"))
        .unwrap();
    assert!(by_file.descendants().any(|e| {
        e.text()
            .is_some_and(|t| t.ends_with("sample-pdn/seed-dama.pdn"))
    }));
    // Self-contained: nothing to fetch, no scripts; definitions once.
    assert!(!html.contains("<script") && !html.contains("<link") && !html.contains("url(http"));
    for e in doc.descendants().filter(|e| e.is_element()) {
        assert!(e.attribute("src").is_none());
        if let Some(href) = e.attribute("href") {
            assert!(href.starts_with('#'), "{href}");
        }
    }
    assert_eq!(html.matches("<pattern ").count(), 2);

    // To standard output with `-`.
    let (out, _, code) = run(&db, &["report", "--status", "ambiguous", "--html", "-"]);
    assert_eq!(code, 1);
    let doc = xml(&out);
    assert_eq!(count_class(doc.root_element(), "board"), 1);
    // --html does not mix with --json.
    let (_, _, code) = run(&db, &["report", "--json", "--html", "-"]);
    assert_eq!(code, 2);
}

#[test]
fn search_and_tree_print_the_queried_board() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _, _) = sample_db(dir.path());
    let (out, err, code) = run(&db, &["search", "--moves", "1. 22-18 11-15", "--board"]);
    assert_eq!(code, 0, "{err}");
    let first_result = out.find("game ").unwrap();
    let board_at = out.find('┌').unwrap();
    assert!(board_at < first_result, "board above the results: {out}");
    assert!(out.contains("last move [11-15]"), "{out}");
    assert_eq!(out.matches('○').count(), 12 + 1, "{out}");

    let fen = "B:WK6,30:B3,K18,21,K31";
    let (out, _, code) = run(
        &db,
        &["tree", "--fen", fen, "--board", "--notation", "vismin"],
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("     a  b  c"), "{out}");
    assert!(out.contains("Black to move"));
    assert!(out.contains("move "), "the table follows: {out}");

    // With --json the board goes to stderr; stdout stays JSON lines.
    let (out, err, code) = run(&db, &["tree", "--fen", fen, "--board", "--json"]);
    assert_eq!(code, 0);
    assert!(err.contains('┌') && err.contains('◉'), "{err}");
    for line in out.lines() {
        serde_json::from_str::<Value>(line).unwrap();
    }
    assert!(!out.is_empty());
    let (out, err, _) = run(&db, &["search", "--fen", fen, "--board", "--json"]);
    assert!(err.contains('┌'));
    assert!(
        out.lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok())
    );
}
