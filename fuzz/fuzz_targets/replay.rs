//! Arbitrary bytes read as PDN and every game replayed, by detection and
//! under forced presets and notations: nothing may panic, and each record
//! keeps the promises of its status.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdndb::notation::Notation;
use pdndb::pdn::Reader;
use pdndb::replay::{CheckRecord, FileChecker, Overrides, Status};
use pdndb::rules::Rules;

fn assert_consistent(record: &CheckRecord) {
    match record.status {
        Status::Ok => {
            assert_eq!(record.reached, record.plies, "{record:?}");
            assert_eq!(record.interpretations, Some(1), "{record:?}");
            assert!(record.ply.is_none() && record.candidates.is_empty(), "{record:?}");
            assert!(record.message.is_none(), "{record:?}");
        }
        Status::Ambiguous => {
            assert!(record.interpretations.is_none_or(|n| n >= 2), "{record:?}");
            assert!(record.message.is_some(), "{record:?}");
        }
        Status::Illegal => {
            assert_eq!(record.ply, record.reached.map(|l| l + 1), "{record:?}");
            assert!(record.token.is_some() && record.message.is_some(), "{record:?}");
        }
        Status::Unreadable | Status::Unsupported => {
            assert!(record.message.is_some(), "{record:?}");
        }
    }
    if let (Some(reached), Some(plies)) = (record.reached, record.plies) {
        assert!(reached <= plies, "{record:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let forced = [
        Overrides::default(),
        Overrides {
            rules: Rules::from_args(Some("english"), None).ok(),
            ..Overrides::default()
        },
        Overrides {
            rules: Rules::from_args(Some("russian"), Some("max-capture=on")).ok(),
            notation: Some(Notation::Dama),
            ..Overrides::default()
        },
        Overrides {
            rules: Rules::from_args(Some("international"), None).ok(),
            ..Overrides::default()
        },
        Overrides {
            rules: Rules::from_args(Some("italian"), None).ok(),
            ..Overrides::default()
        },
    ];
    for overrides in &forced {
        // As `check` reads a file: the file's preset chosen from its first
        // games, results in file order.
        let mut checker = FileChecker::new("fuzz", overrides);
        let mut done = Vec::new();
        let mut read = 0u64;
        for game in Reader::new(data) {
            let game = game.expect("reading from memory cannot fail");
            read += 1;
            let Ok(()) = checker.push(game, true, false, &mut |game, checked| {
                done.push((game, checked));
                Ok::<_, std::convert::Infallible>(())
            });
        }
        let Ok(()) = checker.finish(false, &mut |game, checked| {
            done.push((game, checked));
            Ok::<_, std::convert::Infallible>(())
        });
        assert_eq!(done.len() as u64, read);
        for (k, (game, checked)) in done.iter().enumerate() {
            assert_eq!(game.index, k as u64 + 1);
            assert_consistent(&checked.record);
        }
    }
});
