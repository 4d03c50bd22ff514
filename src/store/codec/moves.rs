//! The compact move list stored with each game: per ply, the index of the
//! move among the position's legal moves in canonical order (start square,
//! then the landing squares of the canonical route, by number), written as
//! LEB128. One byte per ply in practice, and independent of the move
//! generator's internal order. Reading finds each move from its rank
//! ([`Position::canonical_nth`]) without sorting the legal moves.

use crate::rules::{Move, Position, Rules};

/// Legal moves in canonical order.
pub fn canonical_moves(position: &Position, rules: &Rules) -> Vec<Move> {
    let mut moves = position.legal_moves(rules);
    moves.sort_by(Move::canonical_cmp);
    moves
}

/// Encodes a sequence of legal moves from `start`; `None` if some move is
/// not legal where it is played.
pub fn encode(rules: &Rules, start: &Position, moves: &[Move]) -> Option<Vec<u8>> {
    // Each move is played once the one after it is asked for: after its
    // rank has shown it legal.
    let mut position = *start;
    let mut before: Option<&Move> = None;
    let played = moves.iter().map(|mv| {
        if let Some(previous) = before.replace(mv) {
            position = position.play(previous);
        }
        (position, *mv)
    });
    encode_played(rules, played, moves.len())
}

/// Encodes moves each with the position it is played from (of which there
/// are about `plies`), as replay knows them; `None` if some move is not
/// legal there.
pub fn encode_played(
    rules: &Rules,
    played: impl IntoIterator<Item = (Position, Move)>,
    plies: usize,
) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(plies);
    let mut legal = Vec::with_capacity(32);
    for (position, mv) in played {
        let index = position.canonical_rank(rules, &mv, &mut legal)?;
        write_leb128(&mut out, index as u64);
    }
    Some(out)
}

/// Decodes a move list: each move with the position it is played from.
/// `None` when the data does not fit the rules (a corrupt or foreign list).
pub fn decode(rules: &Rules, start: &Position, mut data: &[u8]) -> Option<Vec<(Position, Move)>> {
    let mut out = Vec::new();
    let mut position = *start;
    let mut scratch = Vec::with_capacity(32);
    while !data.is_empty() {
        let index = read_leb128(&mut data)? as usize;
        let mv = position.canonical_nth(rules, index, &mut scratch)?;
        out.push((position, mv));
        position = position.play(&mv);
    }
    Some(out)
}

/// Hands `each` the positions a move list goes through, from `start`
/// (position 0) to position `last` at most, until `each` breaks; `None`
/// when the data does not fit the rules before that (the positions before
/// were handed out).
pub fn each_position(
    rules: &Rules,
    start: &Position,
    mut data: &[u8],
    last: usize,
    mut each: impl FnMut(usize, &Position) -> std::ops::ControlFlow<()>,
) -> Option<()> {
    let mut position = *start;
    let mut legal = Vec::with_capacity(32);
    for ply in 0..=last {
        if each(ply, &position).is_break() || data.is_empty() || ply == last {
            return Some(());
        }
        let index = read_leb128(&mut data)? as usize;
        position = position.play(&position.canonical_nth(rules, index, &mut legal)?);
    }
    Some(())
}

/// Hands `each` the moves of a move list with the position each is
/// played from and the number of the position it leads to (1 for the
/// first), up to position `last`, until `each` breaks; `None` when the
/// data does not fit the rules before that.
pub fn each_move(
    rules: &Rules,
    start: &Position,
    mut data: &[u8],
    last: usize,
    mut each: impl FnMut(usize, &Position, &Move) -> std::ops::ControlFlow<()>,
) -> Option<()> {
    let mut position = *start;
    let mut legal = Vec::with_capacity(32);
    for ply in 1..=last {
        if data.is_empty() {
            break;
        }
        let index = read_leb128(&mut data)? as usize;
        let mv = position.canonical_nth(rules, index, &mut legal)?;
        if each(ply, &position, &mv).is_break() {
            break;
        }
        position = position.play(&mv);
    }
    Some(())
}

/// The position after the first `plies` moves of a move list; `None` when
/// the list is shorter or does not fit the rules.
pub fn decode_prefix(
    rules: &Rules,
    start: &Position,
    mut data: &[u8],
    plies: usize,
) -> Option<Position> {
    let mut position = *start;
    let mut scratch = Vec::with_capacity(32);
    for _ in 0..plies {
        let index = read_leb128(&mut data)? as usize;
        let mv = position.canonical_nth(rules, index, &mut scratch)?;
        position = position.play(&mv);
    }
    Some(position)
}

/// The bytes of the first `plies` moves of an encoded move list; `None`
/// when the list is shorter.
pub fn prefix(data: &[u8], plies: usize) -> Option<&[u8]> {
    let mut rest = data;
    for _ in 0..plies {
        read_leb128(&mut rest)?;
    }
    Some(&data[..data.len() - rest.len()])
}

/// The move a move list plays at `ply` (0-based), from `position`, the
/// position the list is at there; `None` past the list's end or when the
/// data does not fit the rules.
pub fn move_at(rules: &Rules, position: &Position, data: &[u8], ply: usize) -> Option<Move> {
    position.canonical_nth(rules, index_at(data, ply)?, &mut Vec::new())
}

/// The stored index of the move a move list plays at `ply` (0-based)
/// among the legal moves in canonical order; `None` past the list's end.
pub fn index_at(data: &[u8], ply: usize) -> Option<usize> {
    let mut rest = &data[prefix(data, ply)?.len()..];
    usize::try_from(read_leb128(&mut rest)?).ok()
}

/// Appends `value` as LEB128 (7 bits a byte, low first).
pub(in crate::store) fn write_leb128(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads a LEB128 number from the front of `data`, advancing it; `None`
/// when `data` ends first or the number takes more than 64 bits.
pub(in crate::store) fn read_leb128(data: &mut &[u8]) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = data.split_first()?;
        *data = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_round_trip() {
        let rules = Rules::default();
        let start = Position::initial(&rules);
        let mut rng = crate::generate::SplitMix64::new(5);
        for _ in 0..20 {
            let mut p = start;
            let mut moves = Vec::new();
            for _ in 0..120 {
                let legal = p.legal_moves(&rules);
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                moves.push(mv);
                p = p.play(&mv);
            }
            let data = encode(&rules, &start, &moves).unwrap();
            assert_eq!(data.len(), moves.len());
            let back: Vec<Move> = decode(&rules, &start, &data)
                .unwrap()
                .into_iter()
                .map(|(_, m)| m)
                .collect();
            assert_eq!(back, moves);
            let end = moves.iter().fold(start, |p, m| p.play(m));
            assert_eq!(decode_prefix(&rules, &start, &data, moves.len()), Some(end));
            assert_eq!(decode_prefix(&rules, &start, &data, moves.len() + 1), None);
            let at = moves.len() / 2;
            let there = moves[..at].iter().fold(start, |p, m| p.play(m));
            assert_eq!(move_at(&rules, &there, &data, at), moves.get(at).copied());
            assert_eq!(move_at(&rules, &end, &data, moves.len()), None);
        }
    }

    #[test]
    fn leb128_and_corrupt_data() {
        let mut out = Vec::new();
        for v in [0u64, 127, 128, 300, u64::MAX] {
            out.clear();
            write_leb128(&mut out, v);
            assert_eq!(read_leb128(&mut &out[..]), Some(v));
        }
        let rules = Rules::default();
        let start = Position::initial(&rules);
        assert_eq!(decode(&rules, &start, &[200, 1]), None);
        assert_eq!(decode(&rules, &start, &[0x80]), None);
        assert_eq!(prefix(&[3, 0x81, 1, 7], 2), Some(&[3, 0x81, 1][..]));
        assert_eq!(prefix(&[3], 0), Some(&[][..]));
        assert_eq!(prefix(&[3], 2), None);
    }
}
