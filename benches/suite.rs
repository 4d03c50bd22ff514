//! The whole benchmark, run by hand (not in CI):
//!
//! ```text
//! cargo bench --bench suite                    # OCA (if present), 20k, 200k, 1M games
//! cargo bench --bench suite -- 20000 200000    # only these generated sizes
//! ```
//!
//! For each archive — the Open Checkers Archive when `../shared/corpus` is
//! beside the project, a 10×10 archive (`pdndb generate --variant
//! international`, 20,000 games, seed 1) and `pdndb generate` archives
//! (Filipino, numeric, seed 1) — it prints one table row:
//!
//! * reading alone and reading + replay (rules chosen as `pdndb check`
//!   chooses them, file by file), in this process on one core, the file in
//!   memory (best of three passes): MB/s and games/s;
//! * `pdndb import` into a new database (the real binary): seconds, games/s,
//!   microseconds per game, positions indexed, database bytes per indexed
//!   position (all tables and indexes), peak resident memory;
//! * the per-game summaries a pattern, material or manoeuvre search reads
//!   to pass over games (`game.summary`, src/store/codec/compact.rs):
//!   their bytes per game and per indexed position ("prefilter");
//! * query latency, as users see it (the whole `pdndb` command, process
//!   start included), median and 99th percentile: `search --fen` for 100
//!   rare positions (the last position of random games), `search --moves`
//!   for 100 common ones (the first 2 to 4 plies of random games), and
//!   `tree` at 100 positions (the start, and the first 1 to 3 plies of
//!   random games); `games --player` for 100 names (a stored player's
//!   name, or three letters of it, each query counting every match),
//!   `games --date` for 100 months, `games --event` for 20 events (each a
//!   scan of the distinct events: one per game in generated archives), and
//!   `players` 20 times; `search --pattern` for 20 common patterns (two
//!   white pieces and one black piece of a random game's position after 4
//!   to 8 plies) and 20 rare ones (every piece of a random game's last
//!   position, with its side to move), and `search --material` for 20
//!   materials (the numbers of men and kings of a random game's last
//!   position): each a replay of the stored games.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pdndb::notation::write_fen;
use pdndb::pdn::Reader;
use pdndb::replay::{FileChecker, Overrides};
use pdndb::rules::{Color, Position, squares};
use pdndb::{Mode, Store};

const BIN: &str = env!("CARGO_BIN_EXE_pdndb");
const QUERIES: usize = 100;
/// Queries of each replaying kind (pattern, material): each reads every game.
const REPLAYING: usize = 20;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![20_000, 200_000, 1_000_000]
    } else {
        sizes
    };
    let work = tempfile::tempdir().expect("a temporary folder");
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!(
        "pdndb benchmark — {}, {} cores, commit {commit}\n",
        today(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "| archive | games | MB | read MB/s | read games/s | read+replay games/s | import s | import games/s | µs/game | positions | B/pos | prefilter B/game | prefilter B/pos | search rare ms (median / p99) | search common ms (median / p99) | tree ms (median / p99) | games --player ms | games --date ms | games --event ms | players ms | pattern common ms | pattern rare ms | material ms | import peak MiB |"
    );
    println!(
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let oca = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/english/OCA_2.0.pdn");
    if oca.exists() {
        row("OCA", &oca, "english", work.path());
    } else {
        eprintln!("{} is absent: the OCA row is skipped", oca.display());
    }
    let international = generated(work.path(), 20_000, "international");
    row(
        "gen-intl-20000",
        &international,
        "international",
        work.path(),
    );
    let _ = std::fs::remove_file(&international);
    for n in sizes {
        let archive = generated(work.path(), n, "filipino");
        row(&format!("gen-{n}"), &archive, "filipino", work.path());
        let _ = std::fs::remove_file(&archive);
    }
}

/// A `pdndb generate` archive of `n` games of a preset, numeric, seed 1.
fn generated(work: &Path, n: usize, variant: &str) -> std::path::PathBuf {
    let archive = work.join(format!("gen-{variant}-{n}.pdn"));
    let status = Command::new(BIN)
        .args(["generate", "--games", &n.to_string(), "--seed", "1"])
        .args(["--variant", variant, "--notation", "numeric", "-o"])
        .arg(&archive)
        .status()
        .expect("pdndb generate runs");
    assert!(status.success(), "pdndb generate failed");
    archive
}

/// Measures one archive and prints its row.
fn row(name: &str, archive: &Path, variant: &str, work: &Path) {
    let speed = reading_speed(archive);
    let db = work.join(format!("{name}.sqlite"));
    let began = Instant::now();
    let (summary, peak_mib) = run_measured(
        Command::new(BIN)
            .arg("--db")
            .arg(&db)
            .args(["import", "--quiet", "--json"])
            .arg(archive),
    );
    let import = began.elapsed().as_secs_f64();
    let summary: serde_json::Value = serde_json::from_str(&summary).expect("an import summary");
    let stored = summary["games"].as_u64().unwrap_or(0);
    let positions = summary["positions"].as_u64().unwrap_or(0);
    let bytes = database_bytes(&db);
    let (games_stored, prefilter) = summary_bytes(&db);
    let Latencies {
        rare,
        common,
        tree,
        by_player,
        by_date,
        by_event,
        players,
        pattern_common,
        pattern_rare,
        material,
    } = Latencies::measure(&db, variant);
    let ReadingSpeed {
        mb,
        read,
        games,
        checked,
    } = speed;
    println!(
        "| {name} | {stored} | {mb:.1} | {:.1} | {:.0} | {:.0} | {import:.2} | {:.0} | {:.0} | {positions} | {:.1} | {:.1} | {:.2} | {rare} | {common} | {tree} | {by_player} | {by_date} | {by_event} | {players} | {pattern_common} | {pattern_rare} | {material} | {peak_mib} |",
        mb / read,
        games as f64 / read,
        games as f64 / checked,
        stored as f64 / import,
        1e6 * import / stored.max(1) as f64,
        bytes as f64 / positions.max(1) as f64,
        prefilter as f64 / games_stored.max(1) as f64,
        prefilter as f64 / positions.max(1) as f64,
    );
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// How fast an archive is read, and read and replayed, in memory.
struct ReadingSpeed {
    /// The archive's size in MB.
    mb: f64,
    /// Seconds to read it (best of 3).
    read: f64,
    /// Games read.
    games: usize,
    /// Seconds to read and replay it (best of 3).
    checked: f64,
}

/// Reads `archive` into memory and times reading and replaying it.
fn reading_speed(archive: &Path) -> ReadingSpeed {
    let data = std::fs::read(archive).expect("the archive reads");
    let mb = data.len() as f64 / 1e6;
    let (read, games) = best_of(3, || {
        let mut games = 0usize;
        for game in Reader::new(&data[..]) {
            std::hint::black_box(game.expect("reading from memory cannot fail"));
            games += 1;
        }
        games
    });
    let overrides = Overrides::default();
    let (checked, _) = best_of(3, || {
        let mut checker = FileChecker::new("bench", &overrides);
        let mut done = 0usize;
        let mut count = |game, checked| {
            std::hint::black_box((game, checked));
            done += 1;
            Ok::<_, std::convert::Infallible>(())
        };
        for game in Reader::new(&data[..]) {
            let game = game.expect("reading from memory cannot fail");
            let Ok(()) = checker.push(game, true, false, &mut count);
        }
        let Ok(()) = checker.finish(false, &mut count);
        std::hint::black_box(done);
    });
    ReadingSpeed {
        mb,
        read,
        games,
        checked,
    }
}

/// Query latencies on an imported archive, each "median / p99 ms".
struct Latencies {
    rare: String,
    common: String,
    tree: String,
    by_player: String,
    by_date: String,
    by_event: String,
    players: String,
    pattern_common: String,
    pattern_rare: String,
    material: String,
}

impl Latencies {
    /// Times each kind of query at positions and values picked from `db`.
    fn measure(db: &Path, variant: &str) -> Latencies {
        let queries = Queries::pick(db, variant);
        let search_moves = |moves: &String| {
            let variant = variant.to_string();
            vec![
                "search".into(),
                "--variant".into(),
                variant,
                "--moves".into(),
                moves.clone(),
            ]
        };
        let tree_at = |fen: &String| {
            let mut args = vec!["tree".to_string(), "--variant".into(), variant.into()];
            if !fen.is_empty() {
                args.extend(["--fen".into(), fen.clone()]);
            }
            args
        };
        let search_by = |flag: &'static str| {
            let variant = variant.to_string();
            move |value: &String| {
                let words = ["search", "--variant", &variant, flag, value];
                words.iter().map(|w| w.to_string()).collect()
            }
        };
        let games_by = |flag: &'static str| {
            move |value: &String| vec!["games".into(), flag.into(), value.clone()]
        };
        Latencies {
            rare: latency(
                &queries.rare,
                |fen| vec!["search".into(), "--fen".into(), fen.clone()],
                db,
            ),
            common: latency(&queries.common, search_moves, db),
            tree: latency(&queries.tree, tree_at, db),
            by_player: latency(&queries.players, games_by("--player"), db),
            by_date: latency(&queries.months, games_by("--date"), db),
            by_event: latency(&queries.events, games_by("--event"), db),
            players: latency(&vec![String::new(); 20], |_| vec!["players".into()], db),
            pattern_common: latency(&queries.common_patterns, search_by("--pattern"), db),
            pattern_rare: latency(&queries.rare_patterns, search_by("--pattern"), db),
            material: latency(&queries.materials, search_by("--material"), db),
        }
    }
}

/// The fastest of `passes` runs of `work`, in seconds, with its result.
fn best_of<T>(passes: usize, mut work: impl FnMut() -> T) -> (f64, T) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..passes {
        let began = Instant::now();
        let value = work();
        best = best.min(began.elapsed());
        result = Some(value);
    }
    (best.as_secs_f64(), result.expect("at least one pass"))
}

/// Runs a command to its end: its stdout and its peak resident memory
/// (MiB), sampled from `/proc` every millisecond while it runs (the
/// kernel's accounting of a child would include this process's own peak).
fn run_measured(command: &mut Command) -> (String, u64) {
    let out_file = tempfile::NamedTempFile::new().expect("a temporary file");
    let mut child = command
        .stdout(out_file.reopen().expect("reopen"))
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the command starts");
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(status.success(), "{command:?} failed");
    let out = std::fs::read_to_string(out_file.path()).expect("its output");
    (out, peak_kib / 1024)
}

/// The database file with its WAL (all tables and indexes).
fn database_bytes(db: &Path) -> u64 {
    ["", "-wal"]
        .iter()
        .filter_map(|s| std::fs::metadata(format!("{}{s}", db.display())).ok())
        .map(|m| m.len())
        .sum()
}

/// The games of the database and the bytes of their stored summaries.
fn summary_bytes(db: &Path) -> (i64, i64) {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("the database opens");
    conn.query_row(
        "SELECT count(*), coalesce(sum(length(summary)), 0) FROM game",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .expect("the games are counted")
}

/// Query arguments drawn from the imported games.
struct Queries {
    rare: Vec<String>,
    common: Vec<String>,
    tree: Vec<String>,
    players: Vec<String>,
    months: Vec<String>,
    events: Vec<String>,
    common_patterns: Vec<String>,
    rare_patterns: Vec<String>,
    materials: Vec<String>,
}

impl Queries {
    fn pick(db: &Path, variant: &str) -> Queries {
        let store = Store::open(db, Mode::Read).expect("the database opens");
        // The games and names to ask about, read from the tables as any
        // SQLite client would.
        let conn =
            rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .expect("the database opens");
        let ids: Vec<i64> = column(
            &conn,
            "SELECT id FROM game WHERE status = 'ok' AND preset = ?1 AND start_fen IS NULL AND plies >= 8",
            [variant],
        );
        let mut rng = pdndb::generate::SplitMix64::new(7);
        let names: Vec<String> = column(
            &conn,
            "SELECT DISTINCT name FROM player_stat ORDER BY name",
            [],
        );
        let events: Vec<String> = column(
            &conn,
            "SELECT value FROM tag_value WHERE field = 'event' AND value <> '' ORDER BY value",
            [],
        );
        let mut queries = Queries {
            rare: Vec::new(),
            common: Vec::new(),
            tree: vec![String::new()],
            players: Vec::new(),
            months: Vec::new(),
            events: Vec::new(),
            common_patterns: Vec::new(),
            rare_patterns: Vec::new(),
            materials: Vec::new(),
        };
        for i in 0..QUERIES {
            if !names.is_empty() {
                let name = &names[rng.below(names.len())];
                let part: String = match i % 2 {
                    0 => name.clone(),
                    _ => name.chars().skip(1).take(3).collect(),
                };
                queries.players.push(part);
            }
            queries
                .months
                .push(format!("{}.{:02}", 2000 + rng.below(26), 1 + rng.below(12)));
            if !events.is_empty() && queries.events.len() < 20 {
                queries.events.push(events[rng.below(events.len())].clone());
            }
        }
        for i in 0..3 * QUERIES {
            let id = ids[rng.below(ids.len())];
            let game = store
                .game(pdndb::store::GameId(id))
                .expect("query")
                .expect("the game");
            let (_, _, moves) = game.reading().expect("its moves");
            match i % 3 {
                0 => {
                    let (last, mv) = moves.last().expect("moves");
                    queries.rare.push(write_fen(&last.play(mv)));
                }
                1 => {
                    let plies = 2 + rng.below(3);
                    let words: Vec<String> = moves[..plies]
                        .iter()
                        .map(|(_, m)| m.full_numeric())
                        .collect();
                    queries.common.push(words.join(" "));
                }
                _ if queries.tree.len() < QUERIES => {
                    let plies = 1 + rng.below(3);
                    let (at, mv) = moves[plies - 1];
                    queries.tree.push(write_fen(&at.play(&mv)));
                }
                _ => {}
            }
            if i % 3 == 0 && queries.materials.len() < REPLAYING {
                let (last, mv) = moves.last().expect("moves");
                let last = last.play(mv);
                queries
                    .rare_patterns
                    .push(pattern_of(&last, usize::MAX, usize::MAX));
                queries.materials.push(material_of(&last));
                let (at, mv) = moves[3 + rng.below(5)];
                let early = at.play(&mv);
                queries.common_patterns.push(pattern_of(&early, 2, 1));
            }
        }
        queries
    }
}

/// A `search --pattern` for a position's side to move and its first
/// `white` white and `black` black pieces (all of them with `usize::MAX`).
fn pattern_of(position: &Position, white: usize, black: usize) -> String {
    let mut pattern = position.side().fen_char().to_string();
    for (color, take) in [(Color::White, white), (Color::Black, black)] {
        let items: Vec<String> = squares(position.pieces(color))
            .take(take)
            .map(|s| {
                let king = position.kings() & s.bit() != 0;
                format!("{}{}", if king { "K" } else { "" }, s.label())
            })
            .collect();
        if !items.is_empty() {
            pattern.push_str(&format!(":{}{}", color.fen_char(), items.join(",")));
        }
    }
    pattern
}

/// A `search --material` for a position's numbers of men and kings.
fn material_of(position: &Position) -> String {
    let count = |color: Color, kings: bool| {
        let of = position.pieces(color)
            & if kings {
                position.kings()
            } else {
                !position.kings()
            };
        of.count_ones()
    };
    format!(
        "wm={},wk={},bm={},bk={}",
        count(Color::White, false),
        count(Color::White, true),
        count(Color::Black, false),
        count(Color::Black, true)
    )
}

/// The one column `sql` selects, every row.
fn column<T: rusqlite::types::FromSql>(
    conn: &rusqlite::Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Vec<T> {
    let mut stmt = conn.prepare(sql).expect("query");
    stmt.query_map(params, |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
}

/// Median and 99th percentile wall time of running each query, in ms.
fn latency(queries: &[String], args: impl Fn(&String) -> Vec<String>, db: &Path) -> String {
    let mut times: Vec<f64> = queries
        .iter()
        .map(|q| {
            let began = Instant::now();
            let status = Command::new(BIN)
                .arg("--db")
                .arg(db)
                .args(args(q))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("the query runs");
            assert!(status.success(), "query {q} failed");
            began.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    format!("{:.1} / {:.1}", at(0.5), at(0.99))
}

/// Today's date (UTC) as YYYY-MM-DD.
fn today() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}
