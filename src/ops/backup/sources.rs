//! What to back up: the source paths (as a "virtual" tree from `/` down to each of them),
//! and the lists of them `--files-from`, `--files-from-verbatim` and `--files-from-raw`
//! read.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result, ResultExt};
use crate::ops::locate::names;

/// The directories between `/` and the source paths. Only the sources themselves are
/// walked in full; their ancestors contribute just their own metadata.
#[derive(Debug, Default)]
pub(crate) struct VirtualDir {
    pub(crate) children: BTreeMap<Vec<u8>, VirtualEntry>,
}

#[derive(Debug)]
pub(crate) enum VirtualEntry {
    /// A source path: back up everything below it.
    Source,
    /// An ancestor of one or more sources.
    Dir(VirtualDir),
}

pub(crate) struct Sources {
    pub(crate) paths: Vec<PathBuf>,
    /// `None` when `/` itself is a source.
    pub(crate) root: Option<VirtualDir>,
}

impl Sources {
    /// Make paths absolute, check they exist (before anything is written), dedup, and
    /// drop paths inside other paths.
    pub(crate) fn new(given: &[PathBuf]) -> Result<Sources> {
        if given.is_empty() {
            return Err(Error::usage("nothing to back up: give at least one path"));
        }
        let cwd = std::env::current_dir().ctx("reading the current directory")?;
        let mut paths = Vec::new();
        for p in given {
            let abs = normalize(&cwd.join(p));
            std::fs::symlink_metadata(&abs).map_err(|e| {
                Error::fatal(format!(
                    "source path {} cannot be backed up: {}",
                    p.display(),
                    e
                ))
            })?;
            paths.push(abs);
        }
        paths.sort();
        paths.dedup();
        let kept: Vec<PathBuf> = paths
            .iter()
            .filter(|p| !paths.iter().any(|q| q != *p && p.starts_with(q)))
            .cloned()
            .collect();
        let mut root = VirtualDir::default();
        let mut whole = false;
        for p in &kept {
            let comps = names(p);
            if comps.is_empty() {
                whole = true;
                continue;
            }
            let mut dir = &mut root;
            for (i, c) in comps.iter().enumerate() {
                if i + 1 == comps.len() {
                    dir.children.insert(c.to_vec(), VirtualEntry::Source);
                    break;
                }
                let entry = dir
                    .children
                    .entry(c.to_vec())
                    .or_insert_with(|| VirtualEntry::Dir(VirtualDir::default()));
                dir = match entry {
                    VirtualEntry::Dir(d) => d,
                    VirtualEntry::Source => break,
                };
            }
        }
        Ok(Sources {
            paths: kept,
            root: if whole { None } else { Some(root) },
        })
    }

    pub(crate) fn display_paths(&self) -> Vec<String> {
        self.paths
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect()
    }
}

/// Lexically resolve `.` and `..` (like restic, without following symlinks).
pub(crate) fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

/// Files listing the paths to back up, as restic's flags of the same names read them
/// (`-` is stdin).
#[derive(Clone, Debug, Default)]
pub struct FilesFrom {
    /// `--files-from`: a path or a pattern a line; spaces around it, blank lines and
    /// lines starting with `#` are ignored. A pattern (`*`, `?`, `[...]`, `\` escapes,
    /// within one path component, as restic's Go `filepath.Glob`) names the existing
    /// paths it matches.
    pub patterns: Vec<PathBuf>,
    /// `--files-from-verbatim`: a path a line, exactly (only empty lines are ignored).
    pub verbatim: Vec<PathBuf>,
    /// `--files-from-raw`: paths separated by NUL bytes (as `find -print0` writes them).
    pub raw: Vec<PathBuf>,
}

/// The paths the lists name, in their order, and a warning for each pattern that
/// matches nothing (it is skipped, as restic does). A list that cannot be read, or an
/// invalid pattern, is a usage error; whether the paths exist is checked later, as for
/// the paths of the command line.
pub fn files_from(lists: &FilesFrom) -> Result<(Vec<PathBuf>, Vec<String>)> {
    let mut paths = Vec::new();
    let mut warnings = Vec::new();
    for f in &lists.patterns {
        let flag = "--files-from";
        let text = read_list(f, flag)?;
        for (n, line) in text.split(|b| *b == b'\n').enumerate() {
            let line = line.strip_suffix(b"\r").unwrap_or(line).trim_ascii();
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            match std::str::from_utf8(line) {
                Ok(pattern) if is_pattern(pattern) => {
                    let found = expand(pattern).map_err(|e| {
                        Error::usage(format!("{flag} {}: line {}: {e}", f.display(), n + 1))
                    })?;
                    if found.is_empty() {
                        warnings.push(format!(
                            "{flag} {}: pattern {pattern:?} matches nothing, skipped",
                            f.display()
                        ));
                    }
                    paths.extend(found);
                }
                _ => paths.push(PathBuf::from(OsStr::from_bytes(line))),
            }
        }
    }
    for (lists, flag, separator) in [
        (&lists.verbatim, "--files-from-verbatim", b'\n'),
        (&lists.raw, "--files-from-raw", b'\0'),
    ] {
        for f in lists {
            let text = read_list(f, flag)?;
            for item in text.split(|b| *b == separator) {
                let item = match separator {
                    b'\n' => item.strip_suffix(b"\r").unwrap_or(item),
                    _ => item,
                };
                if !item.is_empty() {
                    paths.push(PathBuf::from(OsStr::from_bytes(item)));
                }
            }
        }
    }
    Ok((paths, warnings))
}

/// The whole list file (`-`: stdin).
fn read_list(f: &Path, flag: &str) -> Result<Vec<u8>> {
    let mut text = Vec::new();
    let read = if f == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut text)
    } else {
        std::fs::File::open(f).and_then(|mut file| file.read_to_end(&mut text))
    };
    read.map_err(|e| Error::usage(format!("cannot read {flag} {}: {e}", f.display())))?;
    Ok(text)
}

/// Whether a line of `--files-from` is a pattern (Go's `filepath.Glob` meta characters).
fn is_pattern(text: &str) -> bool {
    text.contains(['*', '?', '[', '\\'])
}

/// The existing paths `pattern` matches, component by component (a pattern does not
/// reach across `/`), sorted within each directory; relative to the current directory
/// when the pattern is.
fn expand(pattern: &str) -> std::result::Result<Vec<PathBuf>, String> {
    let start = if pattern.starts_with('/') { "/" } else { "" };
    let mut found = vec![PathBuf::from(start)];
    for part in pattern.split('/').filter(|c| !c.is_empty()) {
        if !is_pattern(part) {
            found.iter_mut().for_each(|p| p.push(part));
            continue;
        }
        let glob = globset::GlobBuilder::new(part)
            .literal_separator(true)
            .build()
            .map_err(|e| format!("invalid pattern {pattern:?}: {e}"))?
            .compile_matcher();
        let mut next = Vec::new();
        for dir in &found {
            let listed = if dir.as_os_str().is_empty() {
                std::fs::read_dir(".")
            } else {
                std::fs::read_dir(dir)
            };
            // As filepath.Glob: a directory that cannot be listed matches nothing.
            let Ok(listed) = listed else {
                continue;
            };
            let mut names: Vec<OsString> = (listed.flatten())
                .map(|e| e.file_name())
                .filter(|n| glob.is_match(Path::new(n)))
                .collect();
            names.sort();
            next.extend(names.into_iter().map(|n| dir.join(n)));
        }
        found = next;
    }
    found.retain(|p| std::fs::symlink_metadata(p).is_ok());
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_from_lists() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        for f in ["a.txt", "b.txt", "c.log", "lit*", "sub/x.txt", "sub/y.log"] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, b"x").unwrap();
        }
        let r = root.display();
        let list = root.join("list");
        std::fs::write(
            &list,
            format!("# comment\n\n  {r}/*.txt  \r\n{r}/s?b/*.log\n{r}/none*\n{r}/plain\n"),
        )
        .unwrap();
        let verbatim = root.join("verbatim");
        std::fs::write(&verbatim, format!("{r}/lit*\n\n# not a comment\n")).unwrap();
        let raw = root.join("raw");
        std::fs::write(&raw, format!("{r}/a b\n\0\0{r}/c.log")).unwrap();
        let (paths, warnings) = files_from(&FilesFrom {
            patterns: vec![list],
            verbatim: vec![verbatim],
            raw: vec![raw],
        })
        .unwrap();
        let mut want: Vec<PathBuf> = ["a.txt", "b.txt", "sub/y.log", "plain", "lit*"]
            .iter()
            .map(|p| root.join(p))
            .collect();
        want.push("# not a comment".into());
        want.extend([root.join("a b\n"), root.join("c.log")]);
        assert_eq!(paths, want);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("none*"), "{warnings:?}");

        let bad = root.join("bad");
        std::fs::write(&bad, b"/x/[a\n").unwrap();
        let e = files_from(&FilesFrom {
            patterns: vec![bad],
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.message().contains("line 1"), "{e}");
        let e = files_from(&FilesFrom {
            raw: vec![root.join("missing")],
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(e.kind(), crate::error::Kind::Usage);
        assert!(
            e.message().starts_with("cannot read --files-from-raw"),
            "{e}"
        );
    }

    #[test]
    fn sources_nest_and_require_existence() {
        let d = std::env::temp_dir();
        let s = Sources::new(&[d.clone(), d.join("."), d.join("nonexistent-but-inside")]);
        assert!(s.is_err(), "missing path is an error");
        let s = Sources::new(&[d.clone(), d.clone()]).unwrap();
        assert_eq!(s.paths.len(), 1);
    }
}
