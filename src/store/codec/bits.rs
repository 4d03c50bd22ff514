//! Bit strings, most significant bit first, and the Exp-Golomb codes the
//! position index keeps its numbers in.
//!
//! The Exp-Golomb code of order `k` of a number `v` is `q = v >> k` as
//! Elias gamma of `q + 1` (as many zeros as `q + 1` has bits after its
//! first, then `q + 1`), followed by the low `k` bits of `v`: small numbers
//! take few bits, and `k` suits the code to numbers of a size.

/// The bits an Exp-Golomb code of order `k` gives `v`.
pub fn exp_golomb_bits(v: u64, k: u32) -> u32 {
    let q = u128::from(v >> k.min(63)) + 1;
    let n = 128 - q.leading_zeros();
    2 * n - 1 + k
}

/// The order of Exp-Golomb code that codes numbers of the bit lengths
/// `lengths` counts (`lengths[b]`: how many numbers have `b` bits, `b`
/// at most 64) in the
/// fewest bits, among `0..=max_k`. The cost is a close estimate: a number
/// of `b` bits takes `1 + k` bits when `b <= k`, else `2 (b - k) + k`.
pub fn best_order(lengths: &[u64], max_k: u32) -> u32 {
    let Some(longest) = lengths.iter().rposition(|&n| n > 0) else {
        return 0;
    };
    // Going down from the longest length (a larger order only costs
    // more): `short` numbers have at most k bits, the others `long`,
    // `long_bits` the sum of their lengths.
    let mut short: u64 = lengths[..=longest].iter().sum();
    let (mut long, mut long_bits) = (0u64, 0u64);
    let mut best = (u64::MAX, 0);
    for k in (0..=longest as u32).rev() {
        if k <= max_k {
            let cost = short * u64::from(1 + k) + 2 * long_bits - u64::from(k) * long;
            if cost < best.0 {
                best = (cost, k);
            }
        }
        let n = lengths[k as usize];
        short -= n;
        long += n;
        long_bits += n * u64::from(k);
    }
    best.1
}

/// The bit length of `v` (0 for 0).
pub fn length(v: u64) -> usize {
    64 - v.leading_zeros() as usize
}

/// Writes bits into bytes, the last byte padded with zeros.
#[derive(Default)]
pub struct BitWriter {
    out: Vec<u8>,
    pending: u64,
    pending_bits: u32,
}

impl BitWriter {
    /// A writer appending to `out`.
    pub fn new(out: Vec<u8>) -> BitWriter {
        BitWriter {
            out,
            pending: 0,
            pending_bits: 0,
        }
    }

    /// Writes the low `n` bits of `v` (`n` at most 64).
    pub fn put(&mut self, v: u64, n: u32) {
        if n > 32 {
            self.put(v >> 32, n - 32);
            self.put(v, 32);
            return;
        }
        // Fewer than 32 bits wait: room for 32 more.
        self.pending = (self.pending << n) | (v & mask(n));
        self.pending_bits += n;
        if self.pending_bits >= 32 {
            self.pending_bits -= 32;
            let word = (self.pending >> self.pending_bits) as u32;
            self.out.extend_from_slice(&word.to_be_bytes());
        }
    }

    /// Writes `v` in the Exp-Golomb code of order `k` (at most 63).
    pub fn exp_golomb(&mut self, v: u64, k: u32) {
        let k = k.min(63);
        let q = u128::from(v >> k) + 1;
        let n = 128 - q.leading_zeros();
        if 2 * n - 1 + k <= 32 {
            // q + 1 in 2n - 1 bits (its n - 1 leading zeros, then itself),
            // then the low k bits of v.
            self.put(((q as u64) << k) | (v & mask(k)), 2 * n - 1 + k);
        } else {
            self.put(0, n - 1);
            self.put(1, 1);
            self.put((q - (1 << (n - 1))) as u64, n - 1);
            self.put(v, k);
        }
    }

    /// The bytes written, the last one padded.
    pub fn finish(mut self) -> Vec<u8> {
        let mut left = self.pending_bits;
        while left >= 8 {
            left -= 8;
            self.out.push((self.pending >> left) as u8);
        }
        if left > 0 {
            self.out.push((self.pending << (8 - left)) as u8);
        }
        self.out
    }
}

/// The low `n` bits set (`n` at most 64).
fn mask(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

/// Reads the bits of bytes in the order [`BitWriter`] wrote them.
pub struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The next bits, from the top one.
    buffer: u64,
    buffered: u32,
}

/// The bits ran out, or a code is longer than any number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBits;

impl<'a> BitReader<'a> {
    /// A reader at the first bit of `bytes`.
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader {
            bytes,
            at: 0,
            buffer: 0,
            buffered: 0,
        }
    }

    fn refill(&mut self) {
        while self.buffered <= 56 {
            let Some(&byte) = self.bytes.get(self.at) else {
                return;
            };
            self.at += 1;
            self.buffer |= u64::from(byte) << (56 - self.buffered);
            self.buffered += 8;
        }
    }

    fn consume(&mut self, n: u32) {
        self.buffer = self.buffer.checked_shl(n).unwrap_or(0);
        self.buffered -= n;
    }

    /// Reads `n` bits (at most 64).
    pub fn get(&mut self, n: u32) -> Result<u64, OutOfBits> {
        if n > 32 {
            let high = self.get(n - 32)?;
            return Ok((high << 32) | self.get(32)?);
        }
        if n == 0 {
            return Ok(0);
        }
        if self.buffered < n {
            self.refill();
            if self.buffered < n {
                return Err(OutOfBits);
            }
        }
        let v = self.buffer >> (64 - n);
        self.consume(n);
        Ok(v)
    }

    /// Reads a number in the Exp-Golomb code of order `k` (at most 63).
    pub fn exp_golomb(&mut self, k: u32) -> Result<u64, OutOfBits> {
        let k = k.min(63);
        let mut zeros = 0;
        loop {
            if self.buffered == 0 {
                self.refill();
                if self.buffered == 0 {
                    return Err(OutOfBits);
                }
            }
            let run = self.buffer.leading_zeros().min(self.buffered);
            zeros += run;
            if zeros > 64 {
                return Err(OutOfBits);
            }
            if run < self.buffered {
                self.consume(run + 1);
                break;
            }
            self.consume(run);
        }
        let q = (1u128 << zeros) + u128::from(self.get(zeros)?) - 1;
        if q >> (64 - k) != 0 {
            return Err(OutOfBits);
        }
        Ok(((q as u64) << k) | self.get(k)?)
    }

    /// Whether every bit left is a zero, and fewer than eight are left.
    pub fn only_padding_left(&mut self) -> bool {
        self.refill();
        self.buffered < 8 && self.buffer == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn numbers_read_back_as_written(
            items in proptest::collection::vec((any::<u64>(), 0u32..64, any::<bool>()), 0..60)
        ) {
            let mut writer = BitWriter::new(vec![0xAB]);
            let mut bits = 0;
            for &(v, k, plain) in &items {
                if plain {
                    writer.put(v, k + 1);
                    bits += k + 1;
                } else {
                    writer.exp_golomb(v, k);
                    bits += exp_golomb_bits(v, k);
                }
            }
            let bytes = writer.finish();
            prop_assert_eq!(bytes.len() as u32, 1 + bits.div_ceil(8));
            let mut reader = BitReader::new(&bytes[1..]);
            for &(v, k, plain) in &items {
                if plain {
                    let mask = if k == 63 { u64::MAX } else { (1 << (k + 1)) - 1 };
                    prop_assert_eq!(reader.get(k + 1), Ok(v & mask));
                } else {
                    prop_assert_eq!(reader.exp_golomb(k), Ok(v));
                }
            }
            prop_assert!(reader.only_padding_left());
        }

        #[test]
        fn nothing_panics_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..40), k in 0u32..70) {
            let mut reader = BitReader::new(&bytes);
            while reader.exp_golomb(k).is_ok() {}
        }
    }

    #[test]
    fn small_numbers_take_few_bits() {
        assert_eq!(exp_golomb_bits(0, 0), 1);
        assert_eq!(exp_golomb_bits(1, 0), 3);
        assert_eq!(exp_golomb_bits(u64::MAX, 0), 129);
        assert_eq!(exp_golomb_bits(100, 5), 2 * 3 - 1 + 5);
        let mut lengths = [0u64; 65];
        lengths[9] = 100; // numbers of about 300
        assert_eq!(best_order(&lengths, 16), 9);
        assert_eq!(best_order(&[0; 65], 16), 0);
    }

    #[test]
    fn too_long_codes_are_refused() {
        let zeros = [0u8; 12];
        assert_eq!(BitReader::new(&zeros).exp_golomb(0), Err(OutOfBits));
        assert_eq!(BitReader::new(&[]).get(1), Err(OutOfBits));
        // 63 zeros, a one, then 63 ones: 2^64 - 1 + 2^63 - 1 is past u64 with k = 0.
        let mut writer = BitWriter::default();
        writer.put(0, 63);
        writer.put(1, 1);
        writer.put(u64::MAX, 63);
        writer.put(0, 1);
        let bytes = writer.finish();
        assert_eq!(BitReader::new(&bytes).exp_golomb(1), Err(OutOfBits));
    }
}
