//! Freed memory handed back to the system between the phases of a long
//! job. The threads that read and replay games during an import free what
//! they held when they end, and the system's allocator may keep it in
//! arenas of its own (glibc keeps some 100 MiB after ten million games)
//! that the phases after them, on other threads, do not reuse. The library
//! says when to hand it back; the binary, which knows its allocator, says
//! how ([`set_release`]).

use std::sync::OnceLock;

static RELEASE: OnceLock<fn()> = OnceLock::new();

/// Sets what hands freed memory back to the system (the first call only).
pub fn set_release(release: fn()) {
    let _ = RELEASE.set(release);
}

/// Hands freed memory back to the system, when the binary said how.
pub(crate) fn release() {
    if let Some(release) = RELEASE.get() {
        release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CALLS: AtomicUsize = AtomicUsize::new(0);

    fn counted() {
        CALLS.fetch_add(1, Ordering::SeqCst);
    }

    #[test]
    fn release_calls_what_was_set_first() {
        set_release(counted);
        set_release(|| panic!("a second release is ignored"));
        let before = CALLS.load(Ordering::SeqCst);
        release();
        assert_eq!(CALLS.load(Ordering::SeqCst), before + 1);
    }
}
