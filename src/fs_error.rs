//! What a failed look at a path means, said for a user.

use std::io;

/// Whether `err` is a loop of symbolic links (`ELOOP`).
pub fn is_link_loop(err: &io::Error) -> bool {
    #[cfg(unix)]
    {
        rustix::io::Errno::from_io_error(err) == Some(rustix::io::Errno::LOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = err;
        false
    }
}

/// Why a path given cannot be used: a missing one as "no such file or
/// folder", a loop of symbolic links as such, else what the system said.
pub fn describe(err: &io::Error) -> String {
    if err.kind() == io::ErrorKind::NotFound {
        "no such file or folder".to_string()
    } else if is_link_loop(err) {
        "a loop of symbolic links (too many levels of symbolic links)".to_string()
    } else {
        err.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_link_loop_is_named_as_such_and_a_missing_path_as_missing() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::os::unix::fs::symlink(dir.path().join("b"), &a).unwrap();
        std::os::unix::fs::symlink(&a, dir.path().join("b")).unwrap();
        let err = std::fs::metadata(&a).unwrap_err();
        assert!(is_link_loop(&err));
        assert!(describe(&err).contains("loop of symbolic links"));
        let err = std::fs::metadata(dir.path().join("none")).unwrap_err();
        assert!(!is_link_loop(&err));
        assert_eq!(describe(&err), "no such file or folder");
    }
}
