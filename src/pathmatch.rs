//! Path patterns for `--exclude`, `--exclude-file`, `--iexclude` and `--include`, the same in backup
//! and restore: a pattern containing `/` matches the whole absolute path (anchored when it
//! starts with `/`, else at any depth); a pattern without `/` matches the file name
//! anywhere, like restic and .gitignore.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use globset::{GlobSet, GlobSetBuilder};

use crate::error::{Error, Result, ResultExt};

pub(crate) struct PathMatcher {
    by_path: GlobSet,
    by_name: GlobSet,
    empty: bool,
}

impl PathMatcher {
    /// Patterns given directly plus those in `files` (one per line, `#` comments).
    pub(crate) fn new(patterns: &[String], files: &[PathBuf]) -> Result<PathMatcher> {
        Self::with_case(patterns, files, false)
    }

    /// As [`new`](Self::new), optionally ignoring case (`find --ignore-case`).
    pub(crate) fn with_case(
        patterns: &[String],
        files: &[PathBuf],
        ignore_case: bool,
    ) -> Result<PathMatcher> {
        let mut all: Vec<String> = patterns.to_vec();
        for f in files {
            let text = std::fs::read_to_string(f)
                .ctx(format_args!("reading pattern file {}", f.display()))?;
            all.extend(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(String::from),
            );
        }
        let (mut by_path, mut by_name) = (GlobSetBuilder::new(), GlobSetBuilder::new());
        for pat in &all {
            let glob = |p: &str| {
                globset::GlobBuilder::new(p)
                    .literal_separator(true)
                    .case_insensitive(ignore_case)
                    .build()
                    .map_err(|e| Error::usage(format!("invalid pattern {pat:?}: {e}")))
            };
            if pat.contains('/') {
                let anchored = if pat.starts_with('/') || pat.starts_with("**") {
                    pat.clone()
                } else {
                    format!("**/{pat}")
                };
                by_path.add(glob(anchored.trim_end_matches('/'))?);
            } else {
                by_name.add(glob(pat)?);
            }
        }
        let build = |b: GlobSetBuilder| {
            b.build()
                .map_err(|e| Error::usage(format!("invalid patterns: {e}")))
        };
        Ok(PathMatcher {
            by_path: build(by_path)?,
            by_name: build(by_name)?,
            empty: all.is_empty(),
        })
    }

    /// Matches nothing.
    pub(crate) fn empty() -> PathMatcher {
        PathMatcher {
            by_path: GlobSet::empty(),
            by_name: GlobSet::empty(),
            empty: true,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.empty
    }

    /// Whether `path` (absolute) or its file name `name` matches.
    pub(crate) fn matches(&self, path: &Path, name: &[u8]) -> bool {
        !self.empty
            && (self
                .by_name
                .is_match(Path::new(std::ffi::OsStr::from_bytes(name)))
                || self.by_path.is_match(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_name_and_by_path() {
        let ex = PathMatcher::new(
            &["*.log".into(), "/tmp/cache".into(), "build/out".into()],
            &[],
        )
        .unwrap();
        assert!(ex.matches(Path::new("/a/b/x.log"), b"x.log"));
        assert!(!ex.matches(Path::new("/a/b/x.txt"), b"x.txt"));
        assert!(ex.matches(Path::new("/tmp/cache"), b"cache"));
        assert!(!ex.matches(Path::new("/tmp/cachex"), b"cachex"));
        assert!(ex.matches(Path::new("/src/build/out"), b"out"));
        assert!(PathMatcher::new(&["[".into()], &[]).is_err());
        let ci = PathMatcher::with_case(&["*.LOG".into()], &[], true).unwrap();
        assert!(ci.matches(Path::new("/a/x.log"), b"x.log"));
        assert!(
            !PathMatcher::new(&[], &[])
                .unwrap()
                .matches(Path::new("/x"), b"x")
        );
    }
}
