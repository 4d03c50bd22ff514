//! The position index read and written as an outside tool would: the rows
//! of table `posting` decoded by the layout schema.sql documents (step 14),
//! with none of the library's internals.
//!
//! A row holds a chunk of one bucket's entries: four bytes (the
//! Exp-Golomb orders of the suffix differences, the bits of a game id
//! written whole, the order of the game differences, the order of the
//! plies with the open bits' flag on top), a LEB128 count, then the
//! entries' bits, most significant first.

use rusqlite::{Connection, params};

/// Bits of the kept key stored in each entry (below the bucket's).
const SUFFIX_BITS: u32 = 16;

/// How a chunk's entries are coded: its first four bytes.
#[derive(Clone, Copy, Debug)]
struct Coding {
    suffix_order: u32,
    game_bits: u32,
    game_order: u32,
    ply_order: u32,
    open_bits: bool,
}

/// One entry of a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    suffix: u32,
    game: i64,
    ply: u32,
    open: bool,
}

/// Bits read most significant first.
struct BitsIn<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl BitsIn<'_> {
    fn bit(&mut self) -> u64 {
        let byte = self.bytes[self.at / 8];
        self.at += 1;
        u64::from((byte >> (7 - (self.at - 1) % 8)) & 1)
    }

    fn get(&mut self, n: u32) -> u64 {
        (0..n).fold(0, |v, _| (v << 1) | self.bit())
    }

    fn exp_golomb(&mut self, k: u32) -> u64 {
        let mut zeros = 0;
        while self.bit() == 0 {
            zeros += 1;
        }
        let q = ((1u128 << zeros) | u128::from(self.get(zeros))) - 1;
        ((q as u64) << k) | self.get(k)
    }
}

/// Bits written most significant first, the last byte padded with zeros.
#[derive(Default)]
struct BitsOut {
    bytes: Vec<u8>,
    bits: usize,
}

impl BitsOut {
    fn put(&mut self, v: u64, n: u32) {
        for i in (0..n).rev() {
            if self.bits.is_multiple_of(8) {
                self.bytes.push(0);
            }
            if (v >> i) & 1 == 1 {
                *self.bytes.last_mut().unwrap() |= 0x80 >> (self.bits % 8);
            }
            self.bits += 1;
        }
    }

    fn exp_golomb(&mut self, v: u64, k: u32) {
        let q = u128::from(v >> k) + 1;
        let n = 128 - q.leading_zeros();
        self.put(0, n - 1);
        self.put(1, 1);
        self.put((q - (1 << (n - 1))) as u64, n - 1);
        self.put(v & ((1u64 << k) - 1), k);
    }
}

/// A chunk's coding and entries.
fn decode(bytes: &[u8]) -> (Coding, Vec<Entry>) {
    let coding = Coding {
        suffix_order: u32::from(bytes[0]),
        game_bits: u32::from(bytes[1]),
        game_order: u32::from(bytes[2]),
        ply_order: u32::from(bytes[3] & 0x7F),
        open_bits: bytes[3] & 0x80 != 0,
    };
    let (mut count, mut at, mut shift) = (0u64, 4, 0);
    loop {
        count |= u64::from(bytes[at] & 0x7F) << shift;
        at += 1;
        shift += 7;
        if bytes[at - 1] & 0x80 == 0 {
            break;
        }
    }
    let mut input = BitsIn {
        bytes: &bytes[at..],
        at: 0,
    };
    let mut entries: Vec<Entry> = Vec::new();
    for _ in 0..count {
        let (suffix, game) = match entries.last() {
            None => (
                input.get(SUFFIX_BITS) as u32,
                input.get(coding.game_bits) as i64,
            ),
            Some(p) => match input.exp_golomb(coding.suffix_order) {
                0 => (
                    p.suffix,
                    p.game + input.exp_golomb(coding.game_order) as i64,
                ),
                delta => (p.suffix + delta as u32, input.get(coding.game_bits) as i64),
            },
        };
        let ply = input.exp_golomb(coding.ply_order) as u32;
        let open = coding.open_bits && input.get(1) == 1;
        entries.push(Entry {
            suffix,
            game,
            ply,
            open,
        });
    }
    (coding, entries)
}

/// `entries` coded as a chunk under `coding`.
fn encode(coding: Coding, entries: &[Entry]) -> Vec<u8> {
    let mut out = BitsOut::default();
    for (i, e) in entries.iter().enumerate() {
        match i.checked_sub(1).map(|p| &entries[p]) {
            None => {
                out.put(u64::from(e.suffix), SUFFIX_BITS);
                out.put(e.game as u64, coding.game_bits);
            }
            Some(p) if p.suffix == e.suffix => {
                out.exp_golomb(0, coding.suffix_order);
                out.exp_golomb((e.game - p.game) as u64, coding.game_order);
            }
            Some(p) => {
                out.exp_golomb(u64::from(e.suffix - p.suffix), coding.suffix_order);
                out.put(e.game as u64, coding.game_bits);
            }
        }
        out.exp_golomb(u64::from(e.ply), coding.ply_order);
        if coding.open_bits {
            out.put(u64::from(e.open), 1);
        }
    }
    let mut bytes = vec![
        coding.suffix_order as u8,
        coding.game_bits as u8,
        coding.game_order as u8,
        coding.ply_order as u8 | if coding.open_bits { 0x80 } else { 0 },
    ];
    let mut count = entries.len();
    while count >= 0x80 {
        bytes.push((count as u8) | 0x80);
        count >>= 7;
    }
    bytes.push(count as u8);
    bytes.extend(out.bytes);
    bytes
}

/// The chunks of the index in order: (bucket, its bytes).
fn chunks(conn: &Connection) -> Vec<(i64, Vec<u8>)> {
    conn.prepare("SELECT bucket, entries FROM posting ORDER BY bucket, suffix, game")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Every entry of the index as (kept key, game, ply, open), in order of
/// kept key and game.
pub fn all(conn: &Connection) -> Vec<(i64, i64, u32, bool)> {
    let mut out = Vec::new();
    for (bucket, bytes) in chunks(conn) {
        let (_, entries) = decode(&bytes);
        out.extend(entries.iter().map(|e| {
            (
                (bucket << SUFFIX_BITS) | i64::from(e.suffix),
                e.game,
                e.ply,
                e.open,
            )
        }));
    }
    out
}

/// Takes out the entries of `game` at plies `gone` chooses, rewriting the
/// chunks that hold them (under their new first entry); returns how many.
pub fn remove(conn: &Connection, game: i64, gone: impl Fn(u32) -> bool) -> usize {
    let mut removed = 0;
    for (bucket, bytes) in chunks(conn) {
        let (coding, entries) = decode(&bytes);
        let kept: Vec<Entry> = entries
            .iter()
            .filter(|e| e.game != game || !gone(e.ply))
            .copied()
            .collect();
        if kept.len() == entries.len() {
            continue;
        }
        removed += entries.len() - kept.len();
        let (first, head) = (entries[0], kept.first());
        conn.execute(
            "DELETE FROM posting WHERE bucket = ?1 AND suffix = ?2 AND game = ?3",
            params![bucket, first.suffix, first.game],
        )
        .unwrap();
        if let Some(head) = head {
            conn.execute(
                "INSERT INTO posting (bucket, suffix, game, entries) VALUES (?1, ?2, ?3, ?4)",
                params![bucket, head.suffix, head.game, encode(coding, &kept)],
            )
            .unwrap();
        }
    }
    removed
}

#[test]
fn chunks_read_here_code_back_to_the_bytes_pdndb_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let seed = crate::crate_path("sample-pdn");
    let (_, err, code) = crate::run(&db, &["import", "--quiet", seed.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let conn = Connection::open(&db).unwrap();
    let chunks = chunks(&conn);
    assert!(!chunks.is_empty());
    for (_, bytes) in &chunks {
        let (coding, entries) = decode(bytes);
        assert!(!entries.is_empty());
        assert_eq!(&encode(coding, &entries), bytes);
    }
    // As many entries as pdndb counts.
    let (out, err, code) = crate::run(&db, &["stats", "--json"]);
    assert_eq!(code, 0, "{err}");
    let stats: serde_json::Value = serde_json::from_str(&out).unwrap();
    let entries = all(&conn);
    assert_eq!(
        Some(entries.len() as i64),
        stats["positions"].as_i64(),
        "{stats}"
    );
    assert!(entries.iter().any(|e| e.3), "no open entry in sample-pdn");
}
