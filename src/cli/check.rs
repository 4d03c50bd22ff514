//! `pdndb check PATH…`: read and replay every game, report each one that is
//! not `ok` (or every game as JSON with `--json`).

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::board::diagram;
use super::error::{CliError, Exit};
use super::files::{discover, open_inputs};
use super::game_text::{rules_line, tag_text};
use super::output::write_json_line;
use super::reading::ReadingArgs;
use crate::escape::visible;
use crate::notation::{Notation, parse_fen_on, write_move_among};
use crate::pdn::Game;
use crate::replay::{
    CheckedGame, FileCheck, Handed, JoinerTally, Joiners, Reading, Status, VariantFrom, record_tags,
};
use crate::rules::Position;
use crate::store::listing::Roster;

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// PDN files or folders (searched for `*.pdn`, any case); `-` reads
    /// standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// One JSON object per game on standard output.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub reading: ReadingArgs,
}

/// Counts of games by status.
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    by_status: [usize; 5],
}

/// Runs `check`.
///
/// # Errors
/// Bad arguments or a failed write; unreadable files are reported and give
/// exit status 2 after every other file has been read.
pub fn cmd_check(args: &CheckArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let overrides = crate::replay::Overrides {
        // A report reads no position but the one before a fault.
        positions: crate::replay::KeptPositions::Last,
        ..args.reading.overrides()
    };
    let found = discover(&args.paths);
    let opened = open_inputs(&found.files, args.reading.encoding);
    let mut failed = !found.errors.is_empty() || opened.failed > 0;
    for error in &found.errors {
        say!("{error}");
    }
    let mut tally = Tally::default();
    for input in &opened.inputs {
        let name = input.name();
        let file = match File::open(input.path()) {
            Ok(file) => file,
            Err(err) => {
                say!("{name}: {err}");
                failed = true;
                continue;
            }
        };
        let mut joiners = JoinerTally::default();
        let checking = FileCheck {
            name: name.as_str(),
            overrides: &overrides,
            jobs: args.reading.jobs(),
            // The tags are printed only in JSON and for games not `ok`.
            with_tags: args.json,
        };
        let end = checking.run_file(
            file,
            input.path(),
            args.reading.encoding,
            false,
            &|_| true,
            &|| |game, checked| report_game(&name, &game, checked, args.json),
            &mut |handed| match handed {
                Handed::Game { output, .. } => {
                    let reported = output?;
                    joiners.add(reported.index, &reported.joiners);
                    tally.games += 1;
                    tally.by_status[reported.status as usize] += 1;
                    for warning in &reported.warnings {
                        say!("{warning}");
                    }
                    out.write_all(&reported.output)?;
                    Ok::<(), CliError>(())
                }
                Handed::ReadError { error, at } => {
                    say!("{name}:{at}: {error}");
                    failed = true;
                    Ok(())
                }
            },
        )?;
        for d in &end.trailing {
            say!("{name}:{}: {}: {}", d.position, d.severity, d.message);
        }
        if let Some(notice) = joiners.notice(&name) {
            say!("{notice}");
        }
    }
    let names = ["ok", "ambiguous", "illegal", "unreadable", "unsupported"];
    let counts: Vec<String> = names
        .iter()
        .zip(tally.by_status)
        .map(|(n, c)| format!("{c} {n}"))
        .collect();
    say!(
        "checked {} games in {} files: {}",
        tally.games,
        opened.inputs.len(),
        counts.join(", ")
    );
    Ok(if failed {
        Exit::Error
    } else if tally.by_status[0] < tally.games {
        Exit::Problems
    } else {
        Exit::Success
    })
}

/// One game's part of what `check` prints.
struct Reported {
    /// Its status, for the tally.
    status: Status,
    /// Its index in the file and its moves written with the other kind's
    /// joiner, for the file's notice.
    index: u64,
    joiners: Joiners,
    /// Its warnings, as printed (on standard error, before its output).
    warnings: Vec<String>,
    /// Its record (JSON) or, for a game that is not `ok`, its report.
    output: Vec<u8>,
}

/// What `check` prints of one checked game. Made on the thread that
/// checked it, so that the game and its replay are freed there, where they
/// were made, and the printing thread only writes.
fn report_game(
    name: &str,
    game: &Game,
    mut checked: CheckedGame,
    json: bool,
) -> Result<Reported, CliError> {
    if !json && checked.record.outcome.status != Status::Ok {
        checked.record.source.tags = record_tags(game);
    }
    let warnings = checked
        .warnings
        .iter()
        .map(|w| {
            format!(
                "{name}:{}:{}: warning: game {}: {}",
                w.line, w.column, game.index, w.message
            )
        })
        .collect();
    let mut output = Vec::new();
    if json {
        write_json_line(&mut output, &JsonRecord::new(&checked))?;
    } else if checked.record.outcome.status != Status::Ok {
        write_problem(&mut output, &checked)?;
    }
    Ok(Reported {
        status: checked.record.outcome.status,
        index: game.index,
        joiners: checked.joiners,
        warnings,
        output,
    })
}

/// The check record plus its warnings, as printed by `--json`.
#[derive(serde::Serialize)]
struct JsonRecord<'a> {
    #[serde(flatten)]
    record: &'a crate::replay::CheckRecord,
    result_check: crate::replay::ResultCheck,
    warnings: &'a [crate::replay::GameWarning],
}

impl<'a> JsonRecord<'a> {
    fn new(checked: &'a CheckedGame) -> JsonRecord<'a> {
        JsonRecord {
            record: &checked.record,
            result_check: checked.result_check,
            warnings: &checked.warnings,
        }
    }
}

/// A compiler-style report of one problem game: where, what, the board
/// before the faulty ply and the moves possible there.
fn write_problem(out: &mut impl Write, checked: &CheckedGame) -> Result<(), CliError> {
    let (s, r) = (&checked.record.source, &checked.record.outcome);
    let at = checked.fault_at.map_or_else(
        || format!("{}:1", s.line),
        |p| format!("{}:{}", p.line, p.column),
    );
    let tag = |name: &str| tag_text(Some(&s.tags), name);
    writeln!(
        out,
        "{}:{at}: game {} ({}, {}): {} [{}]",
        visible(&s.file),
        s.index,
        Roster::of(&s.tags, &r.variant).players(),
        tag("Event"),
        visible(r.message.as_deref().unwrap_or(r.status.name())),
        r.status.name()
    )?;
    let rules_line = rules_line(
        &r.variant,
        r.variant_from.map(VariantFrom::name),
        &r.reads_ok_under,
    );
    writeln!(out, "{rules_line}")?;
    if let (
        Some(fen),
        Reading::Replayed {
            rules, notation, ..
        },
    ) = (&r.fen, &checked.reading)
    {
        let notation = notation.unwrap_or(Notation::Numeric);
        let Some(position) = parse_fen_on(fen, rules.geometry)
            .ok()
            .and_then(|s| Position::from_setup(&s, rules).ok())
        else {
            return Ok(());
        };
        for line in diagram(&position, rules.geometry, notation).lines() {
            writeln!(out, "    {line}")?;
        }
        let legal = position.legal_moves(rules);
        let mut names: Vec<String> = legal
            .iter()
            .map(|m| write_move_among(m, &legal, notation, rules.geometry))
            .collect();
        names.sort();
        if r.status == Status::Illegal {
            writeln!(
                out,
                "    legal moves: {}",
                if names.is_empty() {
                    "none".into()
                } else {
                    names.join(" ")
                }
            )?;
        }
        if !r.candidates.is_empty() {
            writeln!(
                out,
                "    readings part here: {}",
                visible(&r.candidates.join(" "))
            )?;
        }
    }
    writeln!(out)?;
    Ok(())
}
