//! The problem report as one self-contained HTML page: no scripts, no
//! fonts, nothing fetched. Written as it goes (a game at a time), so a
//! report of thousands of games needs little memory.
//!
//! The page is well-formed XML as well as HTML (void elements closed,
//! every text escaped), so programs can read it with an XML parser. Games
//! are grouped by source file in collapsible `<details>` sections; the
//! board definitions (squares, pieces, coordinates) are written once at
//! the top and every board refers to them.

use std::io::{self, Write};

use super::board::Board;
use super::markup::escape;
use super::svg::{self, Defs};
use crate::notation::Notation;
use crate::rules::{Geometry, Rules};
use crate::store::listing::Roster;
use crate::store::record::ReportRecord;

/// The statuses in the order the summary lists them.
const STATUSES: [&str; 5] = ["ok", "ambiguous", "illegal", "unreadable", "unsupported"];

/// How many games a page may hold and still show them all open.
pub const OPEN_UP_TO: usize = 100;

const STYLE: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:1250px;padding:1rem 1.5rem;color:#222;background:#fbfaf7}
h1{margin:.2rem 0 .5rem}h2{margin:1.2rem 0 .5rem;font-size:1.2rem}
table{border-collapse:collapse;margin:.3rem 0 .8rem}
td,th{border:1px solid #d8d4cc;padding:.2rem .55rem;text-align:left;vertical-align:top}
th{background:#efece5}td.n{text-align:right;font-variant-numeric:tabular-nums}
.summary{display:flex;gap:2rem;flex-wrap:wrap;align-items:flex-start}
details.file{margin:.8rem 0;border:1px solid #cfc9bd;border-radius:6px;background:#fff}
details.file>summary{font-weight:600;padding:.5rem .7rem;cursor:pointer;background:#efece5;border-radius:6px}
details.game{border-top:1px solid #e3dfd6;padding:.4rem .8rem}
details.game>summary{cursor:pointer;padding:.2rem 0}
.game-body{display:flex;gap:1.5rem;flex-wrap:wrap;align-items:flex-start;margin:.5rem 0;content-visibility:auto;contain-intrinsic-size:auto 540px}
figure{margin:0}figcaption{font-size:.9rem;color:#555;max-width:452px}
.info{flex:1;min-width:320px}
.status{display:inline-block;padding:0 .45rem;border-radius:4px;color:#fff;font-size:.85rem;font-weight:600}
.status.ambiguous{background:#b26b00}.status.illegal{background:#c62828}
.status.unreadable{background:#6a1b9a}.status.unsupported{background:#546e7a}.status.ok{background:#2e7d32}
.movetext{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.9rem;line-height:1.6;max-height:16rem;overflow:auto;background:#f6f4ef;padding:.5rem;border-radius:4px}
.movetext .num{color:#888}
mark.fault{background:#ffcdd2;outline:2px solid #c62828;border-radius:2px;font-weight:700;color:#000}
mark.resolved{background:#fff3b0;border-radius:2px}
code{background:#efece5;padding:0 .25rem;border-radius:3px}
.where{color:#444}
";

/// One token of a game's main line, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveItem {
    /// The move number written before it (`12.`, `12...`), if any.
    pub number: Option<String>,
    /// The token as written.
    pub text: String,
    /// How it is highlighted.
    pub mark: TokenMark,
}

/// How a token of the move text is highlighted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenMark {
    /// Not at all.
    None,
    /// The faulty token (where readings part, or the first that fits no move).
    Fault,
    /// A resolved ambiguity; the text says which moves it fitted.
    Resolved(String),
}

/// One problem game on the page.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The game id in the database.
    pub id: crate::store::GameId,
    /// Its record (file, index, line, tags, status, message, …).
    pub record: ReportRecord,
    /// The board at the fault or where readings part, when there is one.
    pub board: Option<Board>,
    /// What the board shows, one line.
    pub caption: String,
    /// The main line's tokens.
    pub movetext: Vec<MoveItem>,
    /// A command that shows the game at that position.
    pub command: Option<String>,
}

/// Counts for the top of the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games per status, in the order of the statuses (only statuses present).
    pub by_status: Vec<(String, usize)>,
    /// Per file (in the page's order): games per status, in `by_status` order.
    pub by_file: Vec<(String, Vec<usize>)>,
    /// Every game listed.
    pub total: usize,
    /// The notations and boards the games' pictures use, each once.
    pub layouts: Vec<(Notation, &'static Geometry)>,
}

impl Summary {
    /// The counts of these records, files in order of first appearance.
    pub fn of(records: &[ReportRecord]) -> Summary {
        let mut summary = SummaryBuilder::default();
        for (place, r) in records.iter().enumerate() {
            summary.add(place, r);
        }
        summary.finish()
    }
}

/// The counts of a [`Summary`] gathered a record at a time, in any order:
/// each record comes with its place on the page (its file's section,
/// then its order there), so that a page can be counted before it is
/// written without holding its records.
#[derive(Clone, Debug)]
pub struct SummaryBuilder<K> {
    /// Per status: the first place it is met at, games.
    statuses: Vec<(String, K, usize)>,
    /// Per file: the first place it is met at, games per status (indexes
    /// into `statuses`).
    files: Vec<(String, K, Vec<usize>)>,
    /// Per board layout: the first place it is met at.
    layouts: Vec<((Notation, &'static Geometry), K)>,
    total: usize,
}

impl<K> Default for SummaryBuilder<K> {
    fn default() -> Self {
        SummaryBuilder {
            statuses: Vec::new(),
            files: Vec::new(),
            layouts: Vec::new(),
            total: 0,
        }
    }
}

/// Both players, the side that moves first first, each with its colour
/// (as the command line's listings name them).
fn players(record: &ReportRecord) -> String {
    Roster::of(&record.source.tags, &record.record.variant)
        .players()
        .to_string()
}

/// The entry of `key` in `list`, added (at `place`) when new, else met
/// at `place` if that comes first.
fn first_place<T: PartialEq, K: Ord + Copy, V>(
    list: &mut Vec<(T, K, V)>,
    key: T,
    place: K,
    new: impl FnOnce() -> V,
) -> usize {
    match list.iter().position(|(k, ..)| *k == key) {
        Some(i) => {
            if place < list[i].1 {
                list[i].1 = place;
            }
            i
        }
        None => {
            list.push((key, place, new()));
            list.len() - 1
        }
    }
}

impl<K: Ord + Copy> SummaryBuilder<K> {
    /// Counts a record shown at `place` on the page.
    pub fn add(&mut self, place: K, record: &ReportRecord) {
        let status = first_place(
            &mut self.statuses,
            record.record.status.name().to_string(),
            place,
            || 0,
        );
        self.statuses[status].2 += 1;
        let file = first_place(&mut self.files, record.source.file.clone(), place, Vec::new);
        let counts = &mut self.files[file].2;
        if counts.len() <= status {
            counts.resize(status + 1, 0);
        }
        counts[status] += 1;
        let geometry = Rules::parse(&record.record.variant)
            .map_or(Geometry::standard(), |rules| rules.geometry);
        let notation = record.record.notation.unwrap_or(Notation::Numeric);
        match self
            .layouts
            .iter_mut()
            .find(|(l, _)| *l == (notation, geometry))
        {
            Some((_, first)) => *first = place.min(*first),
            None => self.layouts.push(((notation, geometry), place)),
        }
        self.total += 1;
    }

    /// The summary: statuses in the order of `STATUSES` (others after
    /// them, in page order), files and layouts in page order.
    pub fn finish(mut self) -> Summary {
        let mut order: Vec<usize> = (0..self.statuses.len()).collect();
        let rank = |s: &str| {
            STATUSES
                .iter()
                .position(|x| *x == s)
                .unwrap_or(STATUSES.len())
        };
        order.sort_by(|&a, &b| {
            let (sa, pa, _) = &self.statuses[a];
            let (sb, pb, _) = &self.statuses[b];
            rank(sa).cmp(&rank(sb)).then(pa.cmp(pb))
        });
        self.files.sort_by_key(|f| f.1);
        self.layouts.sort_by_key(|l| l.1);
        let by_file = self
            .files
            .into_iter()
            .map(|(file, _, counts)| {
                let column = |&s: &usize| counts.get(s).copied().unwrap_or(0);
                (file, order.iter().map(column).collect())
            })
            .collect();
        Summary {
            by_status: order
                .iter()
                .map(|&s| (self.statuses[s].0.clone(), self.statuses[s].2))
                .collect(),
            by_file,
            total: self.total,
            layouts: self.layouts.into_iter().map(|(layout, _)| layout).collect(),
        }
    }
}

/// The page being written.
pub struct Page<W: Write> {
    out: W,
    open_games: bool,
    file_open: bool,
    files: usize,
}

impl<W: Write> Page<W> {
    /// Writes the head, the shared definitions and the summary. Games are
    /// shown open when there are at most [`OPEN_UP_TO`], folded otherwise.
    ///
    /// # Errors
    /// A failed write.
    pub fn begin(mut out: W, title: &str, subtitle: &str, summary: &Summary) -> io::Result<Self> {
        let title = escape(title);
        write!(
            out,
            "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>{title}</title>\
             <style>{STYLE}</style></head>\n<body>\n"
        )?;
        writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">{}</svg>",
            svg::defs(&summary.layouts)
        )?;
        writeln!(
            out,
            "<header><h1>{title}</h1><p>{}</p></header>",
            escape(subtitle)
        )?;
        write!(
            out,
            "<h2>Summary: {} problem game{}</h2><div class=\"summary\"><table class=\"by-status\"><thead><tr><th>status</th><th>games</th></tr></thead><tbody>",
            summary.total,
            if summary.total == 1 { "" } else { "s" }
        )?;
        for (status, count) in &summary.by_status {
            write!(
                out,
                "<tr><td><span class=\"status {s}\">{s}</span></td><td class=\"n\">{count}</td></tr>",
                s = escape(status)
            )?;
        }
        write!(
            out,
            "</tbody></table><table class=\"by-file\"><thead><tr><th>file</th><th>games</th>"
        )?;
        for (status, _) in &summary.by_status {
            write!(out, "<th>{}</th>", escape(status))?;
        }
        write!(out, "</tr></thead><tbody>")?;
        for (i, (file, counts)) in summary.by_file.iter().enumerate() {
            write!(
                out,
                "<tr><td><a href=\"#file-{}\">{}</a></td><td class=\"n\">{}</td>",
                i + 1,
                escape(file),
                counts.iter().sum::<usize>()
            )?;
            for count in counts {
                write!(out, "<td class=\"n\">{count}</td>")?;
            }
            write!(out, "</tr>")?;
        }
        writeln!(out, "</tbody></table></div>\n<main>")?;
        Ok(Page {
            out,
            open_games: summary.total <= OPEN_UP_TO,
            file_open: false,
            files: 0,
        })
    }

    /// Starts the section of a source file holding `games` problem games.
    ///
    /// # Errors
    /// A failed write.
    pub fn file(&mut self, file: &str, games: usize) -> io::Result<()> {
        self.close_file()?;
        self.files += 1;
        writeln!(
            self.out,
            "<details class=\"file\" id=\"file-{}\" open=\"open\"><summary>{} — {games} game{}</summary>",
            self.files,
            escape(file),
            if games == 1 { "" } else { "s" }
        )?;
        self.file_open = true;
        Ok(())
    }

    fn close_file(&mut self) -> io::Result<()> {
        if self.file_open {
            writeln!(self.out, "</details>")?;
            self.file_open = false;
        }
        Ok(())
    }

    /// Writes one game.
    ///
    /// # Errors
    /// A failed write.
    pub fn game(&mut self, game: &Problem) -> io::Result<()> {
        self.game_summary(game)?;
        self.game_figure(game)?;
        self.game_info(game)?;
        if !game.movetext.is_empty() {
            self.game_movetext(&game.movetext)?;
        }
        writeln!(self.out, "</div></div></details>")
    }

    /// Opens a game's `<details>` with its one-line summary: status,
    /// index, players, event and message.
    fn game_summary(&mut self, game: &Problem) -> io::Result<()> {
        let r = &game.record;
        let status = escape(r.record.status.name());
        // Standard tags also through their names in other languages.
        let pairs = r
            .source
            .tags
            .iter()
            .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
        let event = crate::pdn::standard_tag(pairs, "Event").unwrap_or("?");
        let message = r
            .record
            .message
            .clone()
            .unwrap_or_else(|| "resolved ambiguities".to_string());
        let open = if self.open_games {
            " open=\"open\""
        } else {
            ""
        };
        write!(
            self.out,
            "<details class=\"game\" id=\"game-{id}\"{open}><summary><span class=\"status {status}\">{status}</span> \
             game {index}: {players}, {event} — {message}</summary><div class=\"game-body\">",
            id = game.id,
            index = r.source.index,
            players = escape(&players(r)),
            event = escape(event),
            message = escape(&message),
        )
    }

    /// The game's board with its caption, or the caption alone.
    fn game_figure(&mut self, game: &Problem) -> io::Result<()> {
        match &game.board {
            Some(board) => write!(
                self.out,
                "<figure>{}<figcaption>{}</figcaption></figure>",
                svg::render(board, Defs::Shared, &game.caption),
                escape(&game.caption)
            ),
            None => write!(
                self.out,
                "<figure class=\"no-board\"><figcaption>{}</figcaption></figure>",
                escape(&game.caption)
            ),
        }
    }

    /// Where the game is (file, line, index, id, a command to show it) and
    /// its variant, notation and tags.
    fn game_info(&mut self, game: &Problem) -> io::Result<()> {
        let r = &game.record;
        write!(
            self.out,
            "<div class=\"info\"><p class=\"where\"><code>{}:{}</code>, game {} in the file, id {}",
            escape(&r.source.file),
            r.source.line,
            r.source.index,
            game.id
        )?;
        if let Some(command) = &game.command {
            write!(self.out, " — <code>{}</code>", escape(command))?;
        }
        write!(self.out, "</p>")?;
        write!(
            self.out,
            "<table class=\"tags\"><tbody><tr><th>variant</th><td>{}</td></tr><tr><th>notation</th><td>{}</td></tr>",
            escape(&r.record.variant),
            escape(r.record.notation.map_or("—", Notation::name))
        )?;
        for (name, value) in &r.source.tags {
            write!(
                self.out,
                "<tr><th>{}</th><td>{}</td></tr>",
                escape(name),
                escape(value.as_str().unwrap_or_default())
            )?;
        }
        write!(self.out, "</tbody></table>")
    }

    /// The main line's tokens, the faulty one and resolved ones marked.
    fn game_movetext(&mut self, movetext: &[MoveItem]) -> io::Result<()> {
        write!(self.out, "<p class=\"movetext\">")?;
        for (i, item) in movetext.iter().enumerate() {
            if i > 0 {
                write!(self.out, " ")?;
            }
            if let Some(number) = &item.number {
                write!(self.out, "<span class=\"num\">{}</span> ", escape(number))?;
            }
            let token = escape(&item.text);
            match &item.mark {
                TokenMark::None => write!(self.out, "{token}")?,
                TokenMark::Fault => write!(
                    self.out,
                    "<mark class=\"fault\" title=\"ply {}\">{token}</mark>",
                    i + 1
                )?,
                TokenMark::Resolved(why) => write!(
                    self.out,
                    "<mark class=\"resolved\" title=\"{}\">{token}</mark>",
                    escape(why)
                )?,
            }
        }
        write!(self.out, "</p>")
    }

    /// Closes the page and returns the writer.
    ///
    /// # Errors
    /// A failed write.
    pub fn finish(mut self) -> io::Result<W> {
        self.close_file()?;
        writeln!(self.out, "</main>\n</body>\n</html>")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{Notation, parse_fen};
    use crate::replay::RecordBody;
    use crate::replay::Status;
    use crate::rules::{Position, Rules};
    use serde_json::Value;

    fn record(file: &str, status: Status, tags: Value) -> ReportRecord {
        let mut record = RecordBody::ok("filipino".into(), Some(Notation::Dama), Some(2));
        record.status = status;
        record.message = Some("ply 2 <bad> & \"worse\"".into());
        ReportRecord {
            game: crate::store::GameId(1),
            source: crate::replay::RecordSource {
                file: file.into(),
                index: 2,
                line: 3,
                tags: tags.as_object().cloned().unwrap_or_default(),
            },
            record,
            opening: None,
            ballot: None,
            result_check: crate::replay::ResultCheck::Unknown,
            first_side: crate::rules::Color::White,
        }
    }

    fn page(problems: &[Problem]) -> String {
        let records: Vec<ReportRecord> = problems.iter().map(|p| p.record.clone()).collect();
        let summary = Summary::of(&records);
        let mut page = Page::begin(Vec::new(), "t <1>", "sub & title", &summary).unwrap();
        for p in problems {
            page.file(&p.record.source.file, 1).unwrap();
            page.game(p).unwrap();
        }
        String::from_utf8(page.finish().unwrap()).unwrap()
    }

    #[test]
    fn page_is_well_formed_and_escapes_every_string() {
        let rules = Rules::default();
        let p =
            Position::from_setup(&parse_fen("B:WK6,30:B3,K18,21,K31").unwrap(), &rules).unwrap();
        let hostile = serde_json::json!({
            "Event": "</summary><script>alert(1)</script>",
            "White": "O'Brien & \"Sons\"\u{1}",
            "Bl<a>ck": "x"
        });
        let problems = vec![
            Problem {
                id: crate::store::GameId(7),
                record: record("a<b>.pdn", Status::Ambiguous, hostile),
                board: Some(Board::new(p, rules.geometry, Notation::Dama)),
                caption: "position 1 <x>".into(),
                movetext: vec![
                    MoveItem {
                        number: Some("1.".into()),
                        text: "2-15".into(),
                        mark: TokenMark::None,
                    },
                    MoveItem {
                        number: None,
                        text: "<15-5>".into(),
                        mark: TokenMark::Fault,
                    },
                    MoveItem {
                        number: None,
                        text: "8-12".into(),
                        mark: TokenMark::Resolved("fits \"3\" moves".into()),
                    },
                ],
                command: Some("pdndb show 7 --ply 1".into()),
            },
            Problem {
                id: crate::store::GameId(8),
                record: record("b.pdn", Status::Unsupported, serde_json::json!({})),
                board: None,
                caption: "no board".into(),
                movetext: Vec::new(),
                command: None,
            },
        ];
        let html = page(&problems);
        assert!(!html.contains("<script>"));
        assert!(!html.contains("<a>"));
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        let doc = roxmltree::Document::parse_with_options(&html, options).unwrap();
        let count = |tag: &str, class: &str| {
            doc.descendants()
                .filter(|e| e.has_tag_name(tag) && e.attribute("class") == Some(class))
                .count()
        };
        assert_eq!(count("details", "game"), 2);
        assert_eq!(count("svg", "board"), 1);
        assert_eq!(count("mark", "fault"), 1);
        assert_eq!(count("mark", "resolved"), 1);
        assert_eq!(count("table", "by-file"), 1);
        assert!(
            doc.descendants()
                .any(|e| e.text() == Some("</summary><script>alert(1)</script>"))
        );
        // No external resources.
        for e in doc.descendants().filter(|e| e.is_element()) {
            for a in e.attributes() {
                if a.name() == "href" {
                    assert!(a.value().starts_with('#'), "{}", a.value());
                }
                assert_ne!(a.name(), "src");
            }
        }
    }

    #[test]
    fn summary_counts_per_status_and_file() {
        let records = vec![
            record("a.pdn", Status::Illegal, Value::Null),
            record("b.pdn", Status::Ambiguous, Value::Null),
            record("a.pdn", Status::Ambiguous, Value::Null),
        ];
        let s = Summary::of(&records);
        assert_eq!(
            s.by_status,
            vec![("ambiguous".to_string(), 2), ("illegal".to_string(), 1)]
        );
        assert_eq!(
            s.by_file,
            vec![
                ("a.pdn".to_string(), vec![1, 1]),
                ("b.pdn".to_string(), vec![1, 0])
            ]
        );
        assert_eq!(s.total, 3);
    }

    #[test]
    fn a_summary_counted_in_any_order_is_the_same() {
        let mut records = vec![
            record("a.pdn", Status::Illegal, Value::Null),
            record("b.pdn", Status::Ambiguous, Value::Null),
            record("a.pdn", Status::Ambiguous, Value::Null),
            record("c.pdn", Status::Ok, Value::Null),
            record("b.pdn", Status::Unsupported, Value::Null),
        ];
        records[1].record.variant = "international".into();
        records[4].record.notation = Some(Notation::Numeric);
        let whole = Summary::of(&records);
        let mut builder = SummaryBuilder::default();
        for place in [4, 2, 0, 3, 1] {
            builder.add(place, &records[place]);
        }
        assert_eq!(builder.finish(), whole);
        let statuses: Vec<&str> = whole.by_status.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(statuses, ["ok", "ambiguous", "illegal", "unsupported"]);
        assert_eq!(whole.by_file[1], ("b.pdn".to_string(), vec![0, 1, 0, 1]));
        assert_eq!(whole.layouts.len(), 3);
        assert_eq!(whole.layouts[1].0, Notation::Dama);
    }

    #[test]
    fn many_games_are_folded() {
        let records: Vec<ReportRecord> = (0..=OPEN_UP_TO)
            .map(|_| record("a.pdn", Status::Illegal, Value::Null))
            .collect();
        let page = Page::begin(Vec::new(), "t", "s", &Summary::of(&records)).unwrap();
        assert!(!page.open_games);
    }
}
