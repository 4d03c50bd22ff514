//! The archivist's loop through the real binary: import a folder, correct
//! a file, import again; remove files and games. Each time the database
//! must equal a fresh import of the files as they are.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{crate_path, integrity, json_lines, pdndb};

/// One game's columns, as text: what identifies it whatever its id.
const GAME: &str = "g.status || '|' || g.variant || '|' || g.preset || '|' || coalesce(g.notation, '') \
    || '|' || coalesce(g.start_fen, '') || '|' || hex(coalesce(g.moves, x'')) || '|' || g.white \
    || '|' || g.black || '|' || g.event || '|' || g.date || '|' || coalesce(g.result, '') || '|' \
    || g.outcome || '|' || coalesce(g.plies, '') || '|' || coalesce(g.record, '') || '|' \
    || coalesce(g.variant_from, '')";

/// What a database holds, without its ids: games, their copies in files,
/// index rows, the opening tree's counts and the files.
#[derive(Debug, PartialEq)]
pub struct Snapshot {
    games: Vec<String>,
    copies: Vec<String>,
    index: Vec<String>,
    tree: Vec<String>,
    files: Vec<String>,
    players: Vec<String>,
    strays: i64,
}

fn strings(conn: &rusqlite::Connection, sql: &str) -> Vec<String> {
    let mut stmt = conn.prepare(sql).unwrap();
    let mut rows: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.sort();
    rows
}

pub fn snapshot(db: &Path) -> Snapshot {
    let conn = crate::open_with_index_rows(db);
    Snapshot {
        games: strings(&conn, &format!("SELECT {GAME} FROM game g")),
        copies: strings(
            &conn,
            &format!(
                "SELECT f.path || ':' || p.idx || ':' || p.line || ':' || p.byte_offset || ':' || hex(p.text) \
                 || ':' || {GAME} FROM provenance p JOIN source_file f ON f.id = p.file \
                 JOIN game g ON g.id = p.game"
            ),
        ),
        index: strings(
            &conn,
            &format!(
                "SELECT p.key || ':' || p.ply || ':' || coalesce(m.name, '') || ':' || {GAME} \
                 FROM position p JOIN game g ON g.id = p.game LEFT JOIN move_name m ON m.id = p.next"
            ),
        ),
        tree: strings(
            &conn,
            "SELECT s.start_key || ':' || s.variant || ':' || s.start_fen || ':' || coalesce(m.name, '') \
             || ':' || s.outcome || ':' || s.games FROM start_move s LEFT JOIN move_name m ON m.id = s.next",
        ),
        files: strings(
            &conn,
            "SELECT path || ':' || games || ':' || complete || ':' || hash || ':' || coalesce(options, '') \
             FROM source_file",
        ),
        players: strings(
            &conn,
            "SELECT name || ':' || variant || ':' || games || ':' || wins || ':' || draws || ':' || losses \
             || ':' || unknown || ':' || coalesce(first_day, '') || ':' || coalesce(last_day, '') \
             FROM player_stat UNION ALL SELECT field || ':' || value || ':' || games FROM tag_value",
        ),
        strays: conn
            .query_row(
                "SELECT (SELECT count(*) FROM position WHERE game NOT IN (SELECT id FROM game)) \
                 + (SELECT count(*) FROM game WHERE id NOT IN (SELECT game FROM provenance)) \
                 + (SELECT count(*) FROM position_run)",
                [],
                |r| r.get(0),
            )
            .unwrap(),
    }
}

/// Asserts two databases hold the same, naming the first part that differs.
pub fn assert_same(db: &Path, fresh: &Path, context: &str) {
    let (a, b) = (snapshot(db), snapshot(fresh));
    assert_eq!(
        a.strays, 0,
        "{context}: rows of no game, or games of no file"
    );
    for (part, x, y) in [
        ("games", &a.games, &b.games),
        ("copies", &a.copies, &b.copies),
        ("index", &a.index, &b.index),
        ("tree", &a.tree, &b.tree),
        ("files", &a.files, &b.files),
        ("players and tags", &a.players, &b.players),
    ] {
        if x != y {
            let only_a: Vec<_> = x.iter().filter(|r| !y.contains(r)).take(3).collect();
            let only_b: Vec<_> = y.iter().filter(|r| !x.contains(r)).take(3).collect();
            panic!(
                "{context}: {part} differ ({} rows against {} fresh)\nonly here: {only_a:#?}\nonly fresh: {only_b:#?}",
                x.len(),
                y.len()
            );
        }
    }
    assert_eq!(integrity(db), "ok", "{context}");
    assert_counts_kept(db, context);
}

/// `stats` against a count of the database's rows: the counts it keeps
/// (files, games, duplicates, by status, by variant) equal a recount, and
/// `stats --check` (which also recounts the positions) finds nothing
/// wrong.
fn assert_counts_kept(db: &Path, context: &str) {
    let (out, err, code) = run(Path::new("."), db, &["stats", "--check", "--json"]);
    assert_eq!(code, 0, "{context}: {out}{err}");
    let stats: Value = serde_json::from_str(out.trim()).unwrap();
    let conn = rusqlite::Connection::open(db).unwrap();
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    let files = count("SELECT count(*) FROM source_file");
    let games = count("SELECT count(*) FROM game");
    let copies = count("SELECT count(*) FROM provenance");
    assert_eq!(stats["files"], files, "{context}: {stats}");
    assert_eq!(stats["games"], games, "{context}: {stats}");
    assert_eq!(stats["duplicates"], copies - games, "{context}: {stats}");
    for (field, column) in [("by_status", "status"), ("by_variant", "variant")] {
        let counted: serde_json::Map<String, Value> = conn
            .prepare(&format!("SELECT {column}, count(*) FROM game GROUP BY 1"))
            .unwrap()
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
            .unwrap()
            .map(|row| row.map(|(name, n)| (name, Value::from(n))))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(stats[field], Value::Object(counted), "{context}: {stats}");
    }
}

/// Runs `pdndb --db DB ARGS…` in `dir`: stdout, stderr, exit code.
fn run(dir: &Path, db: &Path, args: &[&str]) -> (String, String, i32) {
    let out = pdndb(db).current_dir(dir).args(args).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn import(db: &Path, dir: &Path, args: &[&str]) -> Value {
    let out = pdndb(db)
        .current_dir(dir)
        .args(["import", "--json", "--quiet"])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn generate(args: &[&str]) -> String {
    let out = pdndb(Path::new("unused.sqlite"))
        .arg("generate")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The games of a PDN text generated by `pdndb generate`.
fn games_of(text: &str) -> Vec<String> {
    text.split("\n\n[")
        .enumerate()
        .map(|(i, g)| {
            let g = g.trim_end();
            if i == 0 {
                format!("{g}\n")
            } else {
                format!("[{g}\n")
            }
        })
        .collect()
}

/// A folder of the sample files and a generated archive `archive.pdn`,
/// under `root/games`.
fn folder(root: &Path, games: usize) -> PathBuf {
    let dir = root.join("games");
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(crate_path("sample-pdn")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let archive = generate(&["--games", &games.to_string(), "--seed", "11"]);
    let mut games = games_of(&archive);
    // Game 2 holds an illegal move (a man moving backwards), fixed later.
    games[1] = games[1].replacen("1. ", "1. 5-9 ", 1);
    std::fs::write(dir.join("archive.pdn"), games.join("\n")).unwrap();
    dir
}

/// The archive corrected: game 2's move fixed, game 3 deleted, two new
/// games added at the end.
fn correct(dir: &Path) {
    let path = dir.join("archive.pdn");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut games = games_of(&text);
    games[1] = games[1].replacen("1. 5-9 ", "1. ", 1);
    games.remove(2);
    let extra = generate(&["--games", "2", "--seed", "99"]);
    games.push(extra.trim_end().to_string() + "\n");
    std::fs::write(&path, games.join("\n")).unwrap();
}

#[test]
fn a_corrected_file_imported_again_equals_a_fresh_import() {
    let root = tempfile::tempdir().unwrap();
    let dir = folder(root.path(), 40);
    let db = root.path().join("loop.sqlite");
    let first = import(&db, root.path(), &["games"]);
    assert_eq!(first["illegal"], 6, "{first}");

    correct(&dir);
    let second = import(&db, root.path(), &["games"]);
    assert_eq!(second["files"], 1, "{second}");
    assert_eq!(second["files_replaced"], 1, "{second}");
    assert_eq!(second["files_skipped"], 10, "{second}");
    // The fixed game and the new ones are added; the broken one and the
    // deleted one go; the other 38 keep their ids.
    assert_eq!(second["games"], 3, "{second}");
    assert_eq!(second["ok"], 3, "{second}");
    assert_eq!(second["games_removed"], 2, "{second}");
    assert_eq!(second["games_kept"], 38, "{second}");
    assert_eq!(second["games_changed"], 0, "{second}");
    // The fixed game takes the id of the broken one (its players, event,
    // site and date are the same).
    assert_eq!(second["games_in_place"], 1, "{second}");

    let fresh = root.path().join("fresh.sqlite");
    import(&fresh, root.path(), &["games"]);
    assert_same(&db, &fresh, "after the correction");
    // `report` no longer lists the broken copy.
    let (out, _, _) = run(root.path(), &db, &["report", "--json"]);
    assert_eq!(json_lines(&out).len(), 5 + 1);

    // Said again with other rules, the file is read again; without them,
    // the rules it was imported with are kept.
    let third = import(
        &db,
        root.path(),
        &["--variant", "russian", "games/archive.pdn"],
    );
    assert_eq!(third["games_kept"], 41, "{third}");
    assert_eq!(third["games_changed"], 41, "{third}");
    assert_eq!(third["games"], 0, "{third}");
    let fourth = import(&db, root.path(), &["games"]);
    assert_eq!(fourth["files_skipped"], 11, "{fourth}");
    let fresh = root.path().join("fresh-russian.sqlite");
    import(
        &fresh,
        root.path(),
        &["--variant", "russian", "games/archive.pdn"],
    );
    import(&fresh, root.path(), &["games"]);
    assert_same(&db, &fresh, "after --variant russian");

    // --force reads a file again whatever changed: everything is kept.
    let forced = import(&db, root.path(), &["--force", "games/archive.pdn"]);
    assert_eq!(
        (
            forced["games_kept"].as_u64(),
            forced["games_changed"].as_u64()
        ),
        (Some(41), Some(0)),
        "{forced}"
    );
    assert_same(&db, &fresh, "after --force");
}

#[test]
fn a_file_reached_by_another_path_is_the_same_file() {
    let root = tempfile::tempdir().unwrap();
    let dir = folder(root.path(), 5);
    let db = root.path().join("paths.sqlite");
    import(&db, root.path(), &["games/archive.pdn"]);
    let again = import(&db, &dir, &["./archive.pdn"]);
    assert_eq!(again["files_skipped"], 1, "{again}");
    let absolute = dir.join("archive.pdn");
    let again = import(&db, root.path(), &[absolute.to_str().unwrap()]);
    assert_eq!(again["files_skipped"], 1, "{again}");
    // A copy elsewhere is another file: its games are duplicates (the
    // illegal one too).
    std::fs::copy(&absolute, root.path().join("copy.pdn")).unwrap();
    let copy = import(&db, root.path(), &["copy.pdn"]);
    assert_eq!(
        (copy["files"].as_u64(), copy["games"].as_u64()),
        (Some(1), Some(0)),
        "{copy}"
    );
    assert_eq!(copy["duplicates"], 5, "{copy}");
}

/// Starts a command and kills it (SIGKILL) after `delay`; whether it was
/// still running then.
fn killed_after(mut command: Command, delay: Duration) -> bool {
    let mut child = command.spawn().unwrap();
    std::thread::sleep(delay);
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    child.wait().unwrap();
    running
}

fn import_command(db: &Path, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pdndb"));
    command
        .current_dir(dir)
        .arg("--db")
        .arg(db)
        .args(["import", "--quiet"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

#[test]
fn a_reimport_killed_at_ten_moments_is_completed_by_the_same_command() {
    let root = tempfile::tempdir().unwrap();
    let dir = folder(root.path(), 3000);
    let start = root.path().join("start.sqlite");
    import(&start, root.path(), &["games"]);
    correct(&dir);
    let fresh = root.path().join("fresh.sqlite");
    import(&fresh, root.path(), &["games"]);

    let timed = root.path().join("timed.sqlite");
    std::fs::copy(&start, &timed).unwrap();
    let began = Instant::now();
    let status = import_command(&timed, root.path(), &["games"])
        .status()
        .unwrap();
    assert!(status.success());
    let full = began.elapsed();
    assert_same(&timed, &fresh, "uninterrupted");

    let runs = 10;
    let mut killed = 0;
    for run in 0..runs {
        let db = root.path().join(format!("killed-{run}.sqlite"));
        std::fs::copy(&start, &db).unwrap();
        let delay = full.mul_f64((run as f64 + 0.5) / runs as f64);
        if killed_after(import_command(&db, root.path(), &["games"]), delay) {
            killed += 1;
        }
        assert_eq!(integrity(&db), "ok", "run {run}, killed after {delay:?}");
        // Killed, the database holds the old version (3,000 games) or the
        // new one (3,001).
        let games: i64 = rusqlite::Connection::open(&db)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM provenance p JOIN source_file f ON f.id = p.file \
                 WHERE f.path = 'games/archive.pdn'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(
            [3000, 3001].contains(&games),
            "run {run}: {games} games, a mix of the two versions"
        );
        assert_counts_kept(&db, &format!("run {run}, killed after {delay:?}"));
        let status = import_command(&db, root.path(), &["games"])
            .status()
            .unwrap();
        assert!(status.success(), "run {run}: the completing import failed");
        assert_same(&db, &fresh, &format!("run {run}, killed after {delay:?}"));
        // The fixed game 2 has the id it had before (game 3 is gone).
        assert_eq!(
            archive_ids(&db, &[1, 2, 3]),
            archive_ids(&start, &[1, 2, 4]),
            "run {run}"
        );
    }
    assert!(
        killed >= runs / 2,
        "only {killed} of {runs} imports were killed while running"
    );
}

/// The ids of the games of `games/archive.pdn` at `indexes`.
fn archive_ids(db: &Path, indexes: &[i64]) -> Vec<i64> {
    let conn = rusqlite::Connection::open(db).unwrap();
    indexes
        .iter()
        .map(|index| {
            conn.query_row(
                "SELECT p.game FROM provenance p JOIN source_file f ON f.id = p.file \
                 WHERE f.path = 'games/archive.pdn' AND p.idx = ?1",
                [index],
                |r| r.get(0),
            )
            .unwrap()
        })
        .collect()
}

#[test]
fn removed_files_and_games_leave_what_a_fresh_import_without_them_holds() {
    let root = tempfile::tempdir().unwrap();
    let dir = folder(root.path(), 30);
    let db = root.path().join("remove.sqlite");
    import(&db, root.path(), &["games"]);

    let (out, err, code) = run(
        root.path(),
        &db,
        &["remove", "--dry-run", "--json", "games/seed-dama.pdn"],
    );
    assert_eq!(code, 0, "{err}");
    let dry = &json_lines(&out)[0];
    assert_eq!(
        (dry["files"].as_u64(), dry["games"].as_u64()),
        (Some(1), Some(1)),
        "{dry}"
    );
    assert!(dry["positions"].as_u64().unwrap() > 60, "{dry}");
    let before = snapshot(&db);
    assert_eq!(snapshot(&db), before, "a dry run changes nothing");

    let (out, err, code) = run(
        root.path(),
        &db,
        &["remove", "--json", "games/seed-dama.pdn"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_lines(&out)[0],
        dry.clone()
            .as_object()
            .map(|o| {
                let mut o = o.clone();
                o.insert("dry_run".into(), false.into());
                Value::Object(o)
            })
            .unwrap()
    );
    // Games 4 and 7 of the archive, by id.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let id_of = |index: i64| -> i64 {
        conn.query_row(
            "SELECT p.game FROM provenance p JOIN source_file f ON f.id = p.file \
             WHERE f.path = 'games/archive.pdn' AND p.idx = ?1",
            [index],
            |r| r.get(0),
        )
        .unwrap()
    };
    let (four, seven) = (id_of(4).to_string(), id_of(7).to_string());
    let (out, err, code) = run(
        root.path(),
        &db,
        &["remove", "--json", "--game", &four, &seven],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["games"], 2);
    assert_counts_kept(&db, "after removing a file and two games");

    // Fresh: the folder without the file, the archive without the games.
    std::fs::remove_file(dir.join("seed-dama.pdn")).unwrap();
    let text = std::fs::read_to_string(dir.join("archive.pdn")).unwrap();
    let mut games = games_of(&text);
    games.remove(6);
    games.remove(3);
    std::fs::write(dir.join("archive.pdn"), games.join("\n")).unwrap();
    let fresh = root.path().join("fresh.sqlite");
    import(&fresh, root.path(), &["games"]);
    let (a, b) = (snapshot(&db), snapshot(&fresh));
    assert_eq!(a.strays, 0);
    assert_eq!(a.games, b.games);
    assert_eq!(a.index, b.index);
    assert_eq!(a.tree, b.tree);
    assert_eq!(a.players, b.players);
    assert_eq!(integrity(&db), "ok");

    // A folder names every file imported from under it.
    let (out, err, code) = run(root.path(), &db, &["remove", "--json", "games"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["files"], 10);
    let empty = snapshot(&db);
    assert!(empty.games.is_empty() && empty.index.is_empty() && empty.tree.is_empty());
    assert_counts_kept(&db, "after removing every file");
}

#[test]
fn the_counts_stats_prints_follow_the_statuses_recheck_changes() {
    let root = tempfile::tempdir().unwrap();
    folder(root.path(), 20);
    let db = root.path().join("recheck.sqlite");
    import(&db, root.path(), &["games"]);
    assert_counts_kept(&db, "imported");
    // Statuses that reading the games again changes back.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "UPDATE game SET status = 'ambiguous' WHERE id IN (SELECT id FROM game WHERE status = 'ok' LIMIT 3)",
        [],
    )
    .unwrap();
    drop(conn);
    assert_counts_kept(&db, "statuses changed");
    let (out, err, code) = run(root.path(), &db, &["recheck", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_counts_kept(&db, "rechecked");
    let fresh = root.path().join("fresh.sqlite");
    import(&fresh, root.path(), &["games"]);
    assert_same(&db, &fresh, "rechecked");
}

#[test]
fn a_count_stats_keeps_that_differs_from_a_recount_fails_the_check() {
    let root = tempfile::tempdir().unwrap();
    folder(root.path(), 5);
    let db = root.path().join("tampered.sqlite");
    import(&db, root.path(), &["games"]);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "UPDATE kept_count SET n = n + 1 WHERE name = 'copies'; \
         UPDATE tag_value SET games = games + 2 WHERE field = 'status' AND value = 'illegal';",
    )
    .unwrap();
    drop(conn);
    let (out, err, code) = run(root.path(), &db, &["stats", "--check"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("check: stats keeps 28 copies of games in files, a recount finds 27"),
        "{out}"
    );
    assert!(
        out.contains("check: stats keeps 8 illegal games, a recount finds 6"),
        "{out}"
    );
}

#[test]
fn removing_what_was_never_imported_removes_nothing() {
    let root = tempfile::tempdir().unwrap();
    folder(root.path(), 5);
    let db = root.path().join("bad.sqlite");
    import(&db, root.path(), &["games"]);
    let before = snapshot(&db);
    for args in [
        vec!["remove", "nowhere.pdn"],
        vec!["remove", "games/archive.pdn", "nowhere.pdn"],
        vec!["remove", "--game", "999999"],
        vec!["remove", "--game", "1", "--game", "424242"],
    ] {
        let (_, err, code) = run(root.path(), &db, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("nothing removed"), "{args:?}: {err}");
    }
    let (_, err, code) = run(root.path(), &db, &["remove", "--game", "x"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(snapshot(&db), before);
}

#[test]
fn removing_a_large_file_in_one_pass_over_the_index_leaves_what_a_fresh_import_holds() {
    let root = tempfile::tempdir().unwrap();
    let dir = folder(root.path(), 1500);
    let db = root.path().join("large.sqlite");
    import(&db, root.path(), &["games"]);
    let (out, err, code) = run(root.path(), &db, &["remove", "--json", "games/archive.pdn"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["games"], 1500);
    std::fs::remove_file(dir.join("archive.pdn")).unwrap();
    let fresh = root.path().join("fresh.sqlite");
    import(&fresh, root.path(), &["games"]);
    assert_same(&db, &fresh, "after removing the archive");
}

#[test]
fn a_file_gone_from_a_folder_is_named_and_can_be_removed_by_its_path() {
    let root = tempfile::tempdir().unwrap();
    let dir = folder(root.path(), 5);
    let db = root.path().join("gone.sqlite");
    import(&db, root.path(), &["games"]);
    std::fs::remove_file(dir.join("seed-luzon.pdn")).unwrap();
    let (_, err, code) = run(root.path(), &db, &["import", "games"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "games/seed-luzon.pdn: imported before, no longer there; \
             `pdndb remove games/seed-luzon.pdn` takes its games out"
        ),
        "{err}"
    );
    let (out, err, code) = run(
        root.path(),
        &db,
        &["remove", "--json", "games/seed-luzon.pdn"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["files"], 1);
    let fresh = root.path().join("fresh.sqlite");
    import(&fresh, root.path(), &["games"]);
    assert_same(&db, &fresh, "after removing the file gone");
}

/// The ids of the games of file `name` in the database, by index, as
/// `games --json` lists them.
fn ids_of(dir: &Path, db: &Path, name: &str) -> Vec<u64> {
    let (out, err, code) = run(dir, db, &["games", "--json", "--limit", "0"]);
    assert_eq!(code, 0, "{err}");
    let mut ids: Vec<(u64, u64)> = json_lines(&out)
        .iter()
        .filter(|g| g["file"] == name)
        .map(|g| (g["index"].as_u64().unwrap(), g["game"].as_u64().unwrap()))
        .collect();
    ids.sort_unstable();
    ids.into_iter().map(|(_, id)| id).collect()
}

/// A generated game with its result changed to `*`: another game, with
/// the same players, event, site and date.
fn unfinished(game: &str) -> String {
    let result = result_of(game);
    let trimmed = game.trim_end();
    let moves = trimmed.strip_suffix(result).unwrap();
    format!("{moves}*\n").replace(&format!("[Result \"{result}\"]"), "[Result \"*\"]")
}

/// Checks `db` against a fresh import of `games.pdn` and its invariants.
fn same_as_fresh(dir: &Path, db: &Path, context: &str) {
    let fresh = dir.join(format!("fresh-{}.sqlite", context.replace(' ', "-")));
    import(&fresh, dir, &["games.pdn"]);
    assert_same(db, &fresh, context);
    let (_, err, code) = run(dir, db, &["stats", "--check"]);
    assert_eq!(code, 0, "{context}: {err}");
}

#[test]
fn a_corrected_game_keeps_its_id_and_an_inserted_one_takes_none() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    let db = dir.join("ids.sqlite");
    let games = games_of(&generate(&["--games", "4", "--seed", "21"]));
    let (a, b, c, x) = (&games[0], &games[1], &games[2], &games[3]);
    let write = |parts: &[&str]| std::fs::write(dir.join("games.pdn"), parts.join("\n")).unwrap();

    write(&[a, b, c]);
    import(&db, dir, &["games.pdn"]);
    let ids = ids_of(dir, &db, "games.pdn");
    assert_eq!(ids.len(), 3);

    // Game 2 corrected: it keeps its id, and `show` of that id shows it
    // as corrected; a search reaches it under that id.
    let corrected = unfinished(b);
    write(&[a, &corrected, c]);
    let summary = import(&db, dir, &["games.pdn"]);
    assert_eq!(
        (summary["games"].as_u64(), summary["games_removed"].as_u64()),
        (Some(1), Some(1)),
        "{summary}"
    );
    assert_eq!(summary["games_in_place"], 1, "{summary}");
    assert_eq!(ids_of(dir, &db, "games.pdn"), ids);
    let (out, err, code) = run(dir, &db, &["show", &ids[1].to_string(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let shown = &json_lines(&out)[0];
    assert_eq!(shown["tags"]["Result"], "*", "{shown}");
    assert_eq!(shown["game"], ids[1], "{shown}");
    let moves: Vec<&str> = shown["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let line = moves.join(" ");
    let (out, err, code) = run(dir, &db, &["search", "--json", "--moves", &line]);
    assert_eq!(code, 0, "{err}");
    let found: Vec<u64> = json_lines(&out)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(found, vec![ids[1]], "{out}");
    same_as_fresh(dir, &db, "game 2 corrected");

    // A game inserted before game 2 while game 2 is corrected back: the
    // inserted one takes a new id, game 2 (same players, event, site and
    // date) its own.
    write(&[a, x, b, c]);
    let summary = import(&db, dir, &["games.pdn"]);
    assert_eq!(summary["games_in_place"], 1, "{summary}");
    let now = ids_of(dir, &db, "games.pdn");
    assert_eq!(
        (now[0], now[2], now[3]),
        (ids[0], ids[1], ids[2]),
        "{now:?}"
    );
    assert!(now[1] > ids[2], "{now:?}");
    let (out, _, _) = run(dir, &db, &["show", &ids[1].to_string(), "--json"]);
    assert_eq!(json_lines(&out)[0]["tags"]["Result"], result_of(b));
    same_as_fresh(dir, &db, "a game inserted");

    // The inserted game deleted, game 2 unchanged: the others keep their
    // ids; the deleted game's id names no game.
    write(&[a, b, c]);
    let summary = import(&db, dir, &["games.pdn"]);
    assert_eq!(summary["games_in_place"], 0, "{summary}");
    assert_eq!(ids_of(dir, &db, "games.pdn"), ids);
    let (_, err, code) = run(dir, &db, &["show", &now[1].to_string()]);
    assert_eq!(code, 2, "{err}");
    same_as_fresh(dir, &db, "a game deleted");
}

/// The Result tag of a generated game.
fn result_of(game: &str) -> &str {
    game.lines()
        .find_map(|l| l.strip_prefix("[Result \"")?.strip_suffix("\"]"))
        .unwrap()
}
