//! Stored texts in format 2: each byte coded with rANS under a fixed model
//! of what follows the two bytes before it.
//!
//! A game's text is a few hundred bytes, mostly move numbers, squares,
//! joiners and blanks in a handful of patterns. Deflate finds few repeats
//! in so little, and setting it up (its tables cleared, a dictionary
//! loaded) costs more than the text itself. Here every text is coded with
//! the same fixed probabilities, counted once from a training text
//! (`TRAINING_V2`, generated games of every preset and notation, tags
//! as pdndb stores them, a few comments): per byte, a table lookup and an
//! rANS step. On real archives this is a quarter to a third smaller than
//! format 1 and several times faster to write. The counted model is built
//! in as bytes ([`MODEL_V2`], `text_model_v2.bin`), so that a command does
//! not count it again; a test counts it from the training text and
//! compares (run it with `PDNDB_WRITE_TEXT_MODEL` set to write the file).
//!
//! The model: for the two bytes before (two zero bytes before the first),
//! the training text's counts of the byte after them when the pair is met
//! `PAIR_FLOOR` times or more, blended with the counts after the last
//! byte alone and with the counts of all bytes; else the last byte's
//! counts blended with all bytes'. Every byte keeps a probability of at
//! least 1 in [`TOTAL`], so any text codes.
//!
//! # Stability
//!
//! The training text, the blend and the rounding make the model (and
//! `text_model_v2.bin` holds it); stored texts are decoded with it, so
//! none of them ever changes (a better model is a new format).
//!
//! The rANS coder is the byte-wise one of Fabian Giesen's public-domain
//! `rans_byte.h`: a 32-bit state kept in [[`STATE_LOW`], 256 × it), bytes
//! written as it grows past the range, and the stream reversed so that it
//! decodes from its start.

use std::sync::OnceLock;

/// The training text of the model (never changed: see the module).
#[cfg(test)]
const TRAINING_V2: &[u8] = include_bytes!("text_training_v2.txt");

/// The model counted from [`TRAINING_V2`], as [`Model::to_bytes`] writes
/// it: built in so that a command does not count it again (a test checks
/// that counting gives these bytes).
const MODEL_V2: &[u8] = include_bytes!("text_model_v2.bin");

/// Bits of the probability scale.
const SCALE_BITS: u32 = 16;

/// The probability scale: a byte's frequency in a table is out of it.
const TOTAL: u32 = 1 << SCALE_BITS;

/// The least coder state.
const STATE_LOW: u32 = 1 << 23;

/// Times a pair of bytes is met in the training text for it to get a table
/// of its own.
#[cfg(test)]
const PAIR_FLOOR: u32 = 4;

/// The longest text decoded (a stored text claiming more is damaged).
const MAX_TEXT: u64 = 1 << 30;

/// The frequencies of the 256 bytes after one context, out of [`TOTAL`].
struct Table {
    /// What coding each byte takes, and after them an entry whose `cum`
    /// is [`TOTAL`] (where the decoder's search ends).
    coding: [Coding; 257],
    /// `first[k]`: the byte whose range holds slot `k << 8` (where the
    /// decoder's search for a slot's byte starts).
    first: [u8; 256],
}

/// What decoding a byte takes.
#[derive(Clone, Copy, Default)]
struct Coding {
    /// The frequencies of the bytes below it.
    cum: u32,
    /// Its frequency.
    freq: u32,
}

/// What coding a byte takes, as the encoder reads it: its range, and the
/// reciprocal of its frequency, so that the coder's state is divided by a
/// multiplication (see [`Coder::step`]).
#[derive(Clone, Copy, Default)]
struct Coder {
    /// `⌈2^(31 + shift) / freq⌉`, where `2^shift` is the least power of
    /// two at or above `freq`; `2^32 - 1` for a frequency of 1.
    reciprocal: u32,
    /// `shift - 1` (0 for a frequency of 1).
    shift: u32,
    /// What the step adds: `cum`, and `TOTAL - 1` more for a frequency
    /// of 1 (whose quotient comes out one short).
    bias: u32,
    /// Its frequency.
    freq: u32,
}

impl Coder {
    fn new(cum: u32, freq: u32) -> Coder {
        if freq == 1 {
            return Coder {
                reciprocal: u32::MAX,
                shift: 0,
                bias: cum + TOTAL - 1,
                freq,
            };
        }
        let shift = u32::BITS - (freq - 1).leading_zeros();
        Coder {
            reciprocal: (1u64 << (31 + shift)).div_ceil(u64::from(freq)) as u32,
            shift: shift - 1,
            bias: cum,
            freq,
        }
    }

    /// The coder's next state from `state` (from 1 to below 2^31, as
    /// renormalized): `(state / freq) · TOTAL + state % freq + cum`, that
    /// is `state + (state / freq) · (TOTAL - freq) + cum`.
    ///
    /// The quotient is taken by a multiplication, as `rans_byte.h` does:
    /// `⌊state · reciprocal / 2^(31 + shift)⌋` is `⌊state / freq⌋` for
    /// any `state` below 2^31 (Alverson's exact division); for a frequency
    /// of 1 it is `state - 1`, which the bias makes up. The division it
    /// replaces took several times as long, on the chain every byte of a
    /// text waits for.
    #[inline]
    fn step(&self, state: u32) -> u32 {
        // One shift of the product, and the sum not waiting for it.
        let quotient = (u64::from(state) * u64::from(self.reciprocal)) >> (32 + self.shift);
        (state + self.bias) + quotient as u32 * (TOTAL - self.freq)
    }
}

/// The fixed model: a table per last byte, and one per pair of bytes met
/// often enough.
struct Model {
    /// The table of each pair of bytes (`previous << 8 | last`).
    by_pair: Vec<u16>,
    /// Each table, made when first used (a command that reads a few texts
    /// needs a few hundred of them).
    tables: Vec<OnceLock<Box<Table>>>,
    /// What the encoder reads of each table, made when first used.
    encoding: Vec<OnceLock<Box<[Coder; 256]>>>,
    /// The tables' frequencies as [`Model::to_bytes`] writes them (empty
    /// for a model counted here, whose tables are all made).
    frequencies: &'static [u8],
}

impl Model {
    fn get() -> &'static Model {
        static MODEL: OnceLock<Model> = OnceLock::new();
        MODEL.get_or_init(|| Model::from_bytes(MODEL_V2))
    }

    /// The model as bytes: the number of pairs with a table of their own
    /// and each such pair (u16, little-endian), then every table's 256
    /// frequencies (u16, little-endian), the last bytes' tables first.
    #[cfg(test)]
    fn to_bytes(&self) -> Vec<u8> {
        let pairs: Vec<u16> = (0..=u16::MAX)
            .filter(|&p| usize::from(self.by_pair[usize::from(p)]) >= 256)
            .collect();
        let mut out = Vec::new();
        out.extend_from_slice(&(pairs.len() as u16).to_le_bytes());
        for p in &pairs {
            out.extend_from_slice(&p.to_le_bytes());
        }
        for t in 0..self.tables.len() {
            for f in self.table_at(t).freq() {
                out.extend_from_slice(&f.to_le_bytes());
            }
        }
        out
    }

    /// The model [`Model::to_bytes`] wrote (built in, so well formed).
    fn from_bytes(bytes: &'static [u8]) -> Model {
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let pairs = usize::from(u16_at(0));
        let mut by_pair: Vec<u16> = (0..=u16::MAX).map(|p| p & 0xFF).collect();
        for k in 0..pairs {
            by_pair[usize::from(u16_at(2 + 2 * k))] = (256 + k) as u16;
        }
        Model {
            by_pair,
            tables: (0..256 + pairs).map(|_| OnceLock::new()).collect(),
            encoding: (0..256 + pairs).map(|_| OnceLock::new()).collect(),
            frequencies: &bytes[2 + 2 * pairs..],
        }
    }

    /// Table `t`, made from its frequencies when first asked for.
    fn table_at(&self, t: usize) -> &Table {
        self.tables[t].get_or_init(|| Box::new(Table::with(self.freq_of(t))))
    }

    /// The model counted from `training`.
    #[cfg(test)]
    fn train(training: &[u8]) -> Model {
        // The pair of bytes before each byte (two zero bytes before the first).
        let pairs_before = || {
            training.iter().scan(0u16, |pair, &byte| {
                let before = *pair;
                *pair = *pair << 8 | u16::from(byte);
                Some((before, byte))
            })
        };
        let mut all = [0u32; 256];
        let mut after_byte = vec![[0u32; 256]; 256];
        let mut pair_seen = vec![0u32; 1 << 16];
        for (pair, byte) in pairs_before() {
            all[usize::from(byte)] += 1;
            after_byte[usize::from(pair & 0xFF)][usize::from(byte)] += 1;
            pair_seen[usize::from(pair)] += 1;
        }
        // The pairs met often enough, in order, each with its counts.
        let mut pair_slot: Vec<Option<u16>> = vec![None; 1 << 16];
        let mut pairs: Vec<u16> = Vec::new();
        for (p, &seen) in pair_seen.iter().enumerate() {
            if seen >= PAIR_FLOOR {
                pair_slot[p] = Some(pairs.len() as u16);
                pairs.push(p as u16);
            }
        }
        let mut after_pair = vec![[0u32; 256]; pairs.len()];
        for (pair, byte) in pairs_before() {
            if let Some(slot) = pair_slot[usize::from(pair)] {
                after_pair[usize::from(slot)][usize::from(byte)] += 1;
            }
        }
        // Each count as a share of its context's, scaled to 2^16.
        let shares = |counts: &[u32; 256]| -> [u64; 256] {
            let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
            counts.map(|c| (u64::from(c) << 16).checked_div(total).unwrap_or(0))
        };
        let all = shares(&all);
        let after_byte: Vec<[u64; 256]> = after_byte.iter().map(shares).collect();
        let mut tables: Vec<Table> = after_byte
            .iter()
            .map(|last| Table::rounded(|s| 95 * last[s] + 5 * all[s] + 1))
            .collect();
        let mut by_pair: Vec<u16> = (0..=u16::MAX).map(|p| p & 0xFF).collect();
        for (&p, counts) in pairs.iter().zip(&after_pair) {
            let (pair, last) = (shares(counts), &after_byte[usize::from(p & 0xFF)]);
            by_pair[usize::from(p)] = tables.len() as u16;
            tables.push(Table::rounded(|s| {
                80 * pair[s] + 15 * last[s] + 5 * all[s] + 1
            }));
        }
        Model {
            by_pair,
            encoding: tables.iter().map(|_| OnceLock::new()).collect(),
            tables: tables
                .into_iter()
                .map(|table| OnceLock::from(Box::new(table)))
                .collect(),
            frequencies: &[],
        }
    }

    fn table(&self, pair: u16) -> &Table {
        self.table_at(usize::from(self.by_pair[usize::from(pair)]))
    }

    /// What the encoder reads of table `t`, made when first asked for.
    fn coders(&self, t: usize) -> &[Coder; 256] {
        self.encoding[t].get_or_init(|| {
            let mut coders = Box::new([Coder::default(); 256]);
            let mut cum = 0;
            for (coder, freq) in coders.iter_mut().zip(self.freq_of(t)) {
                *coder = Coder::new(cum, u32::from(freq));
                cum += u32::from(freq);
            }
            coders
        })
    }

    /// The frequencies of table `t`.
    fn freq_of(&self, t: usize) -> [u16; 256] {
        match self.tables[t].get() {
            Some(table) => table.freq(),
            None => {
                let bytes = &self.frequencies[512 * t..512 * (t + 1)];
                std::array::from_fn(|b| u16::from_le_bytes([bytes[2 * b], bytes[2 * b + 1]]))
            }
        }
    }
}

impl Table {
    /// Frequencies out of [`TOTAL`] in proportion to `weight` (each at
    /// least 1), every byte at least 1; what rounding leaves goes to the
    /// first heaviest byte.
    #[cfg(test)]
    fn rounded(weight: impl Fn(usize) -> u64) -> Table {
        let weights: Vec<u64> = (0..256).map(&weight).collect();
        let sum: u64 = weights.iter().sum();
        let spread = u64::from(TOTAL) - 256;
        let mut freq = [0u16; 256];
        for (f, &w) in freq.iter_mut().zip(&weights) {
            *f = (1 + w * spread / sum) as u16;
        }
        let given: u32 = freq.iter().map(|&f| u32::from(f)).sum();
        let heaviest = (0..256).fold(
            0,
            |best, s| if weights[s] > weights[best] { s } else { best },
        );
        freq[heaviest] += (TOTAL - given) as u16;
        Table::with(freq)
    }

    /// The table of these frequencies.
    fn with(freq: [u16; 256]) -> Table {
        let mut cum = [0u32; 257];
        for s in 0..256 {
            cum[s + 1] = cum[s] + u32::from(freq[s]);
        }
        let mut first = [0u8; 256];
        let mut byte = 0;
        for (k, first) in first.iter_mut().enumerate() {
            while cum[byte + 1] <= (k as u32) << 8 {
                byte += 1;
            }
            *first = byte as u8;
        }
        let coding = std::array::from_fn(|b| Coding {
            cum: cum[b],
            freq: freq.get(b).map_or(0, |&f| u32::from(f)),
        });
        Table { coding, first }
    }

    /// The frequency of each byte.
    fn freq(&self) -> [u16; 256] {
        std::array::from_fn(|b| self.coding[b].freq as u16)
    }
}

/// Appends `text` coded (its length is not in it: the decoder is told).
#[cfg(test)]
pub fn encode(text: &[u8], out: &mut Vec<u8>) {
    encode_with(text, out, &mut EncodeScratch::default());
}

/// What [`encode_with`] keeps from one text to the next: the coder of each
/// byte of the text.
#[derive(Default)]
pub struct EncodeScratch {
    coders: Vec<Coder>,
}

/// [`encode`], its buffer kept in `scratch` for the next text.
///
/// Two passes: the first looks up the coder of each byte (by the two
/// bytes before it), lookups that do not wait for one another; the
/// second runs the coder's state through them, from the last byte, each
/// step waiting for the one before but for no lookup.
pub fn encode_with(text: &[u8], out: &mut Vec<u8>, scratch: &mut EncodeScratch) {
    let model = Model::get();
    let coders = &mut scratch.coders;
    coders.clear();
    let mut pair = 0u16;
    coders.extend(text.iter().map(|&byte| {
        let table = usize::from(model.by_pair[usize::from(pair)]);
        pair = pair << 8 | u16::from(byte);
        model.coders(table)[usize::from(byte)]
    }));
    let start = out.len();
    // A byte puts out two bytes at most (below), the state four at the end.
    out.resize(start + 2 * text.len() + 4, 0);
    let coded = &mut out[start..];
    let mut len = 0;
    let mut state = STATE_LOW;
    for coder in coders.iter().rev() {
        // The state's low bytes go out while it is at or above `most`, so
        // that the step stays below 2^31: none, one or two of them
        // (`state` < 2^31 and `most` ≥ 2^15), counted without a branch.
        let most = u64::from((STATE_LOW >> SCALE_BITS) << 8) * u64::from(coder.freq);
        let state_wide = u64::from(state);
        let put = usize::from(state_wide >= most) + usize::from(state_wide >= most << 8);
        coded[len] = state as u8;
        coded[len + 1] = (state >> 8) as u8;
        len += put;
        state = coder.step((state_wide >> (8 * put)) as u32);
    }
    coded[len..len + 4].copy_from_slice(&state.to_le_bytes());
    len += 4;
    coded[..len].reverse();
    out.truncate(start + len);
}

/// The `len` bytes coded in `coded`; `None` when `coded` is not such a
/// text (cut short, too long, or damaged so that the coder does not end
/// where it began).
pub fn decode(coded: &[u8], len: u64) -> Option<Vec<u8>> {
    decode_until(coded, len, None)
}

/// The bytes coded in `coded` before the first `stop` byte, when one is
/// among the `len` bytes (the rest is not decoded, nor the end checked);
/// else all of them, as [`decode`] gives them.
pub fn decode_until(coded: &[u8], len: u64, stop: Option<u8>) -> Option<Vec<u8>> {
    if len > MAX_TEXT {
        return None;
    }
    let model = Model::get();
    let (head, mut rest) = coded.split_first_chunk::<4>()?;
    let mut state = u32::from_be_bytes(*head);
    if !(STATE_LOW..STATE_LOW << 8).contains(&state) {
        return None;
    }
    let mut text = Vec::with_capacity(len.min(1 << 16) as usize);
    let mut pair = 0u16;
    for _ in 0..len {
        let table = model.table(pair);
        let slot = state & (TOTAL - 1);
        let mut byte = usize::from(table.first[(slot >> 8) as usize]);
        while table.coding[byte + 1].cum <= slot {
            byte += 1;
        }
        let Coding { cum, freq, .. } = table.coding[byte];
        state = freq * (state >> SCALE_BITS) + slot - cum;
        while state < STATE_LOW {
            let (&next, after) = rest.split_first()?;
            state = state << 8 | u32::from(next);
            rest = after;
        }
        if stop == Some(byte as u8) {
            return Some(text);
        }
        text.push(byte as u8);
        pair = pair << 8 | byte as u16;
    }
    (state == STATE_LOW && rest.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_sums_to_the_scale_and_keeps_every_byte() {
        let model = Model::get();
        assert!(model.tables.len() > 256, "pairs have tables of their own");
        for table in (0..model.tables.len()).map(|t| model.table_at(t)) {
            assert_eq!(table.coding[256].cum, TOTAL);
            assert!(table.freq().iter().all(|&f| f >= 1));
        }
    }

    #[test]
    fn the_encoders_coders_hold_every_tables_frequencies() {
        let model = Model::get();
        for t in 0..model.tables.len() {
            let (table, coders) = (model.table_at(t), model.coders(t));
            for (b, (coding, coder)) in table.coding.iter().zip(coders).enumerate() {
                let cum = coder.bias - if coder.freq == 1 { TOTAL - 1 } else { 0 };
                assert_eq!(
                    (cum, coder.freq),
                    (coding.cum, coding.freq),
                    "table {t}, byte {b}"
                );
            }
        }
    }

    #[test]
    fn a_step_divides_exactly() {
        // Every frequency a table can hold, with states from the range the
        // coder keeps them in before a step (from 1, below `most`): its
        // ends, and some between.
        for freq in 1..TOTAL {
            let coder = Coder::new(7, freq);
            let most = ((STATE_LOW >> SCALE_BITS) << 8) * freq;
            let between = (1..48u32).map(|k| 1 + k.wrapping_mul(0x9E37_79B9) % (most - 1));
            for state in (1..16).chain(most - 16..most).chain(between) {
                let expected = (state / freq) * TOTAL + state % freq + 7;
                assert_eq!(coder.step(state), expected, "{state} / {freq}");
            }
        }
    }

    /// [`encode`] as `rans_byte.h` writes it: a division per byte and a
    /// loop putting bytes out.
    fn encode_by_division(text: &[u8]) -> Vec<u8> {
        let model = Model::get();
        let mut out = Vec::new();
        let mut state = STATE_LOW;
        for i in (0..text.len()).rev() {
            let previous = if i >= 2 { text[i - 2] } else { 0 };
            let last = if i >= 1 { text[i - 1] } else { 0 };
            let table = model.table(u16::from(previous) << 8 | u16::from(last));
            let Coding { cum, freq } = table.coding[usize::from(text[i])];
            while state >= ((STATE_LOW >> SCALE_BITS) << 8) * freq {
                out.push(state as u8);
                state >>= 8;
            }
            state = ((state / freq) << SCALE_BITS) + state % freq + cum;
        }
        out.extend_from_slice(&state.to_le_bytes());
        out.reverse();
        out
    }

    #[test]
    fn the_built_in_model_is_the_one_the_training_text_gives() {
        let trained = Model::train(TRAINING_V2);
        if std::env::var_os("PDNDB_WRITE_TEXT_MODEL").is_some() {
            std::fs::write("src/store/text_model_v2.bin", trained.to_bytes()).unwrap();
        }
        assert!(
            trained.to_bytes() == MODEL_V2,
            "src/store/text_model_v2.bin is not what the training gives"
        );
        let again = Model::train(TRAINING_V2);
        let model = Model::get();
        assert_eq!(again.by_pair, model.by_pair);
        assert_eq!(again.tables.len(), model.tables.len());
        assert!(
            (0..model.tables.len()).all(|t| again.table_at(t).freq() == model.table_at(t).freq())
        );
    }

    #[test]
    fn the_model_is_what_format_two_was_released_with() {
        // A digest of every frequency: the stored texts depend on them.
        let model = Model::get();
        let digest = (0..model.tables.len())
            .flat_map(|t| model.table_at(t).freq())
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, f| {
                (h ^ u64::from(f)).wrapping_mul(0x0100_0000_01b3)
            });
        assert_eq!(
            (model.tables.len(), digest),
            (710, 3_746_310_650_791_669_739)
        );
    }

    #[test]
    fn a_text_codes_to_the_bytes_format_two_was_released_with() {
        let text = b"{\"Event\":\"x\"}\n1. 11-15 23-19 *";
        let mut coded = Vec::new();
        encode(text, &mut coded);
        assert_eq!(coded, [4, 240, 135, 125, 223, 37, 255, 88, 181, 2, 81, 0]);
        assert_eq!(
            decode(&coded, text.len() as u64).as_deref(),
            Some(&text[..])
        );
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_read_back(text in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
            let mut coded = vec![1, 2, 3];
            encode(&text, &mut coded);
            proptest::prop_assert_eq!(&coded[..3], [1, 2, 3]);
            proptest::prop_assert_eq!(&coded[3..], encode_by_division(&text));
            proptest::prop_assert_eq!(decode(&coded[3..], text.len() as u64), Some(text));
        }

        #[test]
        fn nothing_panics_on_any_coded_bytes(
            coded in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
            len in 0u64..200,
        ) {
            let _ = decode(&coded, len);
        }
    }

    /// `text` coded, alone.
    fn coded(text: &[u8]) -> Vec<u8> {
        let mut coded = Vec::new();
        encode(text, &mut coded);
        coded
    }

    #[test]
    fn decoding_stops_at_the_first_stop_byte() {
        let text = b"{\"Event\":\"x\"}\n1. 11-15 23-19\n2. 8-11 *";
        let coded = coded(text);
        let len = text.len() as u64;
        let first_line = decode_until(&coded, len, Some(b'\n'));
        assert_eq!(first_line.as_deref(), Some(&b"{\"Event\":\"x\"}"[..]));
        assert_eq!(
            decode_until(&coded, len, Some(b'#')).as_deref(),
            Some(&text[..])
        );
        assert_eq!(decode_until(&coded, len, Some(b'#')), decode(&coded, len));
    }

    #[test]
    fn a_text_cut_or_told_another_length_is_refused() {
        let text = b"{\"Event\":\"x\"}\n1. 11-15 23-19 2. 8-11 22-17 *";
        let coded = coded(text);
        let len = text.len() as u64;
        assert_eq!(decode(&coded, len).as_deref(), Some(&text[..]));
        assert_eq!(decode(&coded[..coded.len() - 1], len), None);
        assert_eq!(decode(&coded, len + 1), None);
        assert_eq!(decode(&coded, MAX_TEXT + 1), None);
    }
}
