//! The real `pdndb` binary.

use assert_cmd::Command;

use super::run;

fn pdndb() -> Command {
    Command::cargo_bin("pdndb").expect("the pdndb binary")
}

fn stdout_of(args: &[&str]) -> String {
    let out = pdndb().args(args).output().expect("run pdndb");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

#[test]
fn perft_prints_the_count_on_its_last_line() {
    assert_eq!(last_line(&stdout_of(&["perft", "6"])), "37628");
    assert_eq!(
        last_line(&stdout_of(&["perft", "--variant", "english", "6"])),
        "36768"
    );
    assert_eq!(
        last_line(&stdout_of(&[
            "perft",
            "--variant",
            "russian",
            "--rules",
            "max-capture=on",
            "5"
        ])),
        "7473"
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "deep perft runs in release builds (cargo test --release)"
)]
fn perft_10_filipino() {
    assert_eq!(
        last_line(&stdout_of(&["perft", "--variant", "filipino", "10"])),
        "21560022"
    );
}

/// The published counts of the presets beyond the 8×8 games of Dama:
/// International from Aart Bik's BikDam figures, the others from the perft
/// tests of rhalbersma/dctl (`test/src/ai/traversal/initial/`).
const PUBLISHED: [(&str, [u64; 10]); 4] = [
    (
        "international",
        [
            9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763,
        ],
    ),
    (
        "czech",
        [
            7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671, 18368918,
        ],
    ),
    (
        "italian",
        [
            7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875, 17761384,
        ],
    ),
    (
        "spanish",
        [
            7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866, 17743464,
        ],
    ),
];

#[test]
fn perft_of_the_new_presets_through_the_binary() {
    // Depths 1..6 in debug builds, 1..10 in release builds.
    let deepest = if cfg!(debug_assertions) { 6 } else { 10 };
    for (variant, counts) in PUBLISHED {
        for (depth, expected) in counts.iter().enumerate().take(deepest) {
            let depth = (depth + 1).to_string();
            assert_eq!(
                last_line(&stdout_of(&["perft", "--variant", variant, &depth])),
                expected.to_string(),
                "{variant} depth {depth}"
            );
        }
    }
}

#[test]
fn divide_lists_each_first_move_and_sums() {
    let out = stdout_of(&["perft", "--divide", "3"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8);
    let sum: u64 = lines[..7]
        .iter()
        .map(|l| {
            l.rsplit_once(": ")
                .expect("move: count")
                .1
                .parse::<u64>()
                .expect("count")
        })
        .sum();
    assert_eq!(lines[7], "302");
    assert_eq!(sum, 302);
    assert!(lines.contains(&"23-18: 42") || lines.iter().any(|l| l.starts_with("23-18: ")));
}

#[test]
fn perft_from_a_fen() {
    assert_eq!(
        last_line(&stdout_of(&[
            "perft",
            "--fen",
            "W:WKa1:Bb2,b4,c5,e5,g5,c7,e7",
            "1"
        ])),
        "5"
    );
    assert_eq!(
        last_line(&stdout_of(&[
            "perft",
            "--fen",
            "W:WKc1:Bd2,b4,d4,e5,f6,g7",
            "--divide",
            "1"
        ]))
        .len(),
        1
    );
}

#[test]
fn bad_arguments_exit_2_with_a_message_naming_the_bad_part() {
    for (args, needle) in [
        (
            vec!["perft", "--variant", "chess", "3"],
            "invalid value 'chess' for '--variant",
        ),
        (
            vec!["perft", "--rules", "promotion=fly", "3"],
            "`fly` is not a value of `promotion`",
        ),
        (
            vec!["perft", "--fen", "W:W18,zz:B1", "3"],
            "`zz` is not a square",
        ),
        (
            vec!["perft", "--fen", "W:W18,18:B1", "3"],
            "two pieces on square 18",
        ),
        (vec!["perft", "three"], "invalid value"),
    ] {
        let out = pdndb().args(&args).output().expect("run pdndb");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn option_values_are_read_once_into_their_types_and_refused_naming_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    for (args, option, why) in [
        (
            &["perft", "--rules", "promotion=fly", "1"][..],
            "--rules",
            "`fly` is not a value of `promotion`",
        ),
        (
            &["check", "--rules", "speed=on", "x.pdn"],
            "--rules",
            "unknown rules switch `speed`",
        ),
        (
            &["games", "--result", "3-0"],
            "--result",
            "\"3-0\" is not a result",
        ),
        (
            &["games", "--date", "2019.13"],
            "--date",
            "\"2019.13\": there is no month 13",
        ),
        (
            &["games", "--player", " "],
            "--player",
            "give some text to look for",
        ),
        (&["show", "x"], "<GAME>", "invalid digit"),
        (&["remove", "--game", "1x"], "--game", "invalid digit"),
        (&["tree", "--notation", "chess"], "--notation", "chess"),
    ] {
        let (out, err, code) = run(&db, args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains(option) && err.contains(why), "{args:?}: {err}");
    }
    // The switches apply, a later one winning.
    for (switches, count) in [
        ("max-capture=on,max-capture=off", "36768"),
        ("max-capture=off,max-capture=on", "36473"),
    ] {
        let args = ["perft", "--variant", "english", "--rules", switches, "6"];
        let (out, err, code) = run(&db, &args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().last(), Some(count), "{switches}");
    }
}

#[test]
fn rough_edges_a_new_user_met_are_smoothed() {
    let dir = tempfile::tempdir().unwrap();
    // A folder with no PDN file is said, and nothing is created.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(&db, &["import", empty.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("no *.pdn file in this folder"), "{err}");
    assert!(!db.exists());
    let sample = super::crate_path("sample-pdn");
    let (_, err, code) = run(&db, &["import", "--quiet", sample.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // `players` is a table with a header, its columns aligned, dates as far
    // as they are known; the unknown column only when some result is.
    let (out, err, _) = run(&db, &["players", "--min-games", "3"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("player") && lines[0].ends_with("years"),
        "{out}"
    );
    let ends: Vec<usize> = lines.iter().map(|l| l.find("%").unwrap_or(0)).collect();
    assert!(ends[1..].windows(2).all(|w| w[0] == w[1]), "{out}");
    assert!(
        lines[1..]
            .iter()
            .all(|l| !l.contains("??") && !l.contains("games")),
        "{out}"
    );
    assert_eq!(err.trim(), format!("{} players", lines.len() - 1));
    let (out, err, _) = run(&db, &["players", "--min-games", "1000"]);
    assert_eq!((out.as_str(), err.trim()), ("", "0 players"));
    // Other names of English draughts, and a FEN tag pasted whole.
    for name in ["checkers", "American", "english"] {
        let (out, err, code) = run(&db, &["games", "--variant", name, "--json", "--limit", "0"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(!out.is_empty(), "{name}");
    }
    let (plain, _, _) = run(
        &db,
        &["search", "--variant", "english", "--fen", "B:W21-32:B1-12"],
    );
    let (pasted, err, code) = run(
        &db,
        &[
            "search",
            "--variant",
            "english",
            "--fen",
            r#"[FEN "B:W21-32:B1-12"]"#,
        ],
    );
    assert_eq!((code, &pasted), (0, &plain), "{err}");
    // A position no game reaches is said so, not answered with a bare header.
    let (out, err, code) = run(&db, &["tree", "--variant", "english", "--fen", "W:W32:B1"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.contains("no game in the database reaches this position"),
        "{err}"
    );
}

/// `players` has a column of unknown results only when some player has
/// one: with every result known it is a column of zeros no one needs
/// (once printed as `?0` on every line).
#[test]
fn players_show_unknown_results_only_when_there_are_some() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let known = dir.path().join("known.pdn");
    std::fs::write(
        &known,
        "[White \"Ana\"]\n[Black \"Ben\"]\n[Result \"1-0\"]\n1. 11-15 23-19 1-0\n\n\
         [White \"Ben\"]\n[Black \"Ana\"]\n[Result \"1/2-1/2\"]\n1. 11-15 23-19 1/2-1/2\n",
    )
    .unwrap();
    let (_, err, code) = run(&db, &["import", "--quiet", known.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (out, _, code) = run(&db, &["players"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(!lines[0].contains("unknown"), "{out}");
    assert!(!out.contains("?0") && !out.contains(" ?"), "{out}");
    let cells = |line: &str| line.split_whitespace().count();
    assert!(lines.iter().all(|l| cells(l) == cells(lines[0])), "{out}");
    // A game without a result: the column appears, with its count.
    let open = dir.path().join("open.pdn");
    std::fs::write(
        &open,
        "[White \"Ana\"]\n[Black \"Cid\"]\n[Result \"*\"]\n1. 11-15 22-18 *\n",
    )
    .unwrap();
    let (_, err, code) = run(&db, &["import", "--quiet", open.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (out, _, _) = run(&db, &["players"]);
    let lines: Vec<&str> = out.lines().collect();
    let head: Vec<&str> = lines[0].split_whitespace().collect();
    let at = head.iter().position(|h| *h == "unknown").expect(&out);
    let ana: Vec<&str> = lines
        .iter()
        .find(|l| l.starts_with("Ana"))
        .expect(&out)
        .split_whitespace()
        .collect();
    assert_eq!(ana[at], "1", "{out}");
    assert!(!out.contains("?0") && !out.contains("?1"), "{out}");
}
