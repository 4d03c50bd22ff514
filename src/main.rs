//! The `pdndb` binary: everything is in the library's `cli` module.

fn main() -> std::process::ExitCode {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    pdndb::memory::set_release(trim);
    pdndb::cli::run()
}

/// Hands glibc's free memory back to the system, in every arena (what the
/// threads of an import's storing freed, some 100 MiB after ten million
/// games, which glibc would otherwise keep).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: `malloc_trim` takes no pointer and only releases pages that
    // glibc's allocator holds free; it is safe to call from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
