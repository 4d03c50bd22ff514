//! The `pdndb` binary: everything is in the library's `cli` module.

fn main() -> std::process::ExitCode {
    pdndb::cli::run()
}
