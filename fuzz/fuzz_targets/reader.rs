//! Arbitrary bytes through the PDN reader, and every game read back through
//! the writer and the reader again: nothing may panic, every game keeps
//! within the reader's limits, and the rewritten text reads as many games.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdndb::pdn::{self, Reader};

fuzz_target!(|data: &[u8]| {
    let mut reader = Reader::new(data);
    let mut games = Vec::new();
    while let Some(game) = reader.next_game().expect("reading from memory cannot fail") {
        assert_eq!(game.index, games.len() as u64 + 1);
        assert!(game.movetext.len() <= pdn::MAX_GAME_LEN);
        assert!(game.diagnostics.len() <= pdn::MAX_DIAGNOSTICS + 1);
        assert!(game.start.byte <= data.len() as u64);
        games.push(game);
    }
    let mut written = Vec::new();
    pdn::write_games(&mut written, &games).expect("writing to memory cannot fail");
    let again = Reader::new(&written[..]).count();
    assert_eq!(again, games.len(), "{}", String::from_utf8_lossy(&written));
});
