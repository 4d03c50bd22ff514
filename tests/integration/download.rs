//! `GET /api/export`: the PDN file the explorer and the viewer offer for
//! download is, byte for byte, what `pdndb export` writes for the same
//! choice, streamed (a large export comes in many chunks), and a bad
//! choice is refused before anything is written.

use super::serve::{Server, sample_db};
use super::{generate, run};

/// The CLI's export with `args`, then the server's with `query`: equal.
fn same_as_export(server: &Server, db: &std::path::Path, query: &str, args: &[&str]) -> String {
    let mut all = vec!["export"];
    all.extend_from_slice(args);
    let (expected, err, code) = run(db, &all);
    assert_eq!(code, 0, "{args:?}: {err}");
    let response = server.get(&format!("/api/export?{query}"));
    assert_eq!(response.status, 200, "{query}: {}", response.body);
    assert_eq!(
        response.header("content-type"),
        Some("application/x-chess-pdn; charset=utf-8")
    );
    assert_eq!(response.body, expected, "{query} against export {args:?}");
    response.body
}

#[test]
fn the_download_is_what_export_writes_for_the_same_filters() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    let all = same_as_export(&server, &db, "", &[]);
    assert_eq!(all.matches("[Event ").count(), 22);
    let reyes = same_as_export(&server, &db, "player=reyes", &["--player", "reyes"]);
    assert_eq!(reyes.matches("[Event ").count(), 2);
    same_as_export(
        &server,
        &db,
        "variant=english&moves=11-15",
        &["--variant", "english", "--moves", "11-15"],
    );
    same_as_export(
        &server,
        &db,
        "status=ok,illegal&notation=numeric&paths=full",
        &[
            "--status",
            "ok,illegal",
            "--notation",
            "numeric",
            "--paths",
            "full",
        ],
    );
    same_as_export(
        &server,
        &db,
        "date=2019..2024&result=draw&skip_broken=1&limit=3",
        &[
            "--date",
            "2019..2024",
            "--result",
            "draw",
            "--skip-broken",
            "--limit",
            "3",
        ],
    );
    let one = same_as_export(&server, &db, "game=3", &["--game", "3"]);
    assert_eq!(one.matches("[Event ").count(), 1);
    same_as_export(
        &server,
        &db,
        "game=3&game=5",
        &["--game", "3", "--game", "5"],
    );
    // Named as a file to save: one game by its id, else games.
    let response = server.get("/api/export?game=3");
    assert_eq!(
        response.header("content-disposition"),
        Some("attachment; filename=\"pdndb-game-3.pdn\"")
    );
    let response = server.get("/api/export?player=reyes");
    assert_eq!(
        response.header("content-disposition"),
        Some("attachment; filename=\"pdndb-games.pdn\"")
    );
}

#[test]
fn a_bad_choice_is_refused_naming_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    for (query, said) in [
        ("status=bogus", "status: unknown status `bogus`"),
        ("game=0", "game: \"0\" is not a game id"),
        (
            "paths=long",
            "paths: \"long\" is not written, short or full",
        ),
        ("moves=zz", "moves: ply 1: \"zz\" is not a move"),
        ("fen=W:W21&moves=11-15", "give fen or moves, not both"),
        ("variant=nonsense", "variant: "),
        ("notation=klingon", "notation: "),
        ("limit=-1", "limit: \"-1\" is not a whole number"),
        ("colour=white", "colour: give player too"),
        (
            "player=A&colour=red",
            "colour: \"red\" is not white or black",
        ),
        ("flavour=red", "unknown parameter \"flavour\""),
    ] {
        let response = server.get(&format!("/api/export?{query}"));
        assert_eq!(response.status, 400, "{query}: {}", response.body);
        let error: serde_json::Value = serde_json::from_str(&response.body).unwrap();
        let message = error["error"].as_str().unwrap();
        assert!(message.starts_with(said), "{query}: {message}");
        assert!(response.header("content-disposition").is_none(), "{query}");
    }
}

#[test]
fn a_large_download_is_streamed_whole() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("many.pdn");
    generate(&pdn, "english", 1500, 7);
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let server = Server::start(&db, &[]);
    let response = server.get("/api/export");
    assert_eq!(response.header("transfer-encoding"), Some("chunked"));
    let body = same_as_export(&server, &db, "", &[]);
    // Many chunks of at most 64 KiB, joined back into the whole export.
    assert!(body.len() > 4 * 64 * 1024, "{} bytes", body.len());
    assert_eq!(body.matches("[Event ").count(), 1500);
}
