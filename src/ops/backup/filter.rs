//! What a backup leaves out, restic's way: paths matching `--exclude` (and, ignoring
//! case, `--iexclude`) patterns, files larger than `--exclude-larger-than`, the contents
//! of directories tagged by `--exclude-caches` or `--exclude-if-present`, and with
//! `--one-file-system` what lies on another file system than its source.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::content::{Node, NodeKind};
use crate::error::{Error, Result};
use crate::pathmatch::PathMatcher;

/// The tag file of the Cache Directory Tagging Specification
/// (<https://bford.info/cachedir/>), which `--exclude-caches` looks for.
pub(crate) const CACHEDIR_TAG: &str = "CACHEDIR.TAG";
/// How a valid `CACHEDIR.TAG` starts.
pub(crate) const CACHEDIR_SIGNATURE: &str = "Signature: 8a477f597d28d172789f06886806bc55";

/// The filters as given (flags or profile keys).
#[derive(Clone, Debug, Default)]
pub struct FilterOptions {
    pub excludes: Vec<String>,
    pub exclude_files: Vec<PathBuf>,
    /// As `excludes`, ignoring case.
    pub iexcludes: Vec<String>,
    pub iexclude_files: Vec<PathBuf>,
    /// Skip what is in a directory holding a valid `CACHEDIR.TAG`, except the tag.
    pub exclude_caches: bool,
    /// restic's `FILE[:HEADER]`: skip what is in a directory holding FILE (starting with
    /// HEADER when one is given), except FILE.
    pub exclude_if_present: Vec<String>,
    /// Skip files larger than this many bytes.
    pub exclude_larger_than: Option<u64>,
    /// Do not descend into directories on another file system than their source (they
    /// are kept, empty, as mount points).
    pub one_file_system: bool,
}

/// A tag file that excludes the rest of its directory.
#[derive(Debug)]
struct Tag {
    name: Vec<u8>,
    /// What the file must start with; empty: any file of that name.
    header: Vec<u8>,
}

/// The filters, compiled.
pub struct Filter {
    excludes: PathMatcher,
    iexcludes: PathMatcher,
    tags: Vec<Tag>,
    larger_than: Option<u64>,
    one_file_system: bool,
}

/// The tag files found in one directory: all of its other entries are left out.
pub(crate) struct Tagged<'a>(Vec<&'a [u8]>);

impl Tagged<'_> {
    /// Whether the entry `name` of the directory is left out (it is not a tag file).
    pub(crate) fn excludes(&self, name: &[u8]) -> bool {
        !self.0.is_empty() && !self.0.contains(&name)
    }
}

impl Filter {
    pub fn new(o: &FilterOptions) -> Result<Filter> {
        let mut tags = Vec::new();
        if o.exclude_caches {
            tags.push(Tag {
                name: CACHEDIR_TAG.into(),
                header: CACHEDIR_SIGNATURE.into(),
            });
        }
        for spec in &o.exclude_if_present {
            tags.push(parse_tag(spec).map_err(Error::usage)?);
        }
        Ok(Filter {
            excludes: PathMatcher::new(&o.excludes, &o.exclude_files)?,
            iexcludes: PathMatcher::with_case(&o.iexcludes, &o.iexclude_files, true)?,
            tags,
            larger_than: o.exclude_larger_than,
            one_file_system: o.one_file_system,
        })
    }

    /// No filter at all.
    pub(crate) fn none() -> Filter {
        Filter {
            excludes: PathMatcher::empty(),
            iexcludes: PathMatcher::empty(),
            tags: Vec::new(),
            larger_than: None,
            one_file_system: false,
        }
    }

    /// Whether `path` (absolute, file name `name`) matches an exclude pattern: decided
    /// before the entry is even looked at.
    pub(crate) fn excluded_by_name(&self, path: &Path, name: &[u8]) -> bool {
        self.excludes.matches(path, name) || self.iexcludes.matches(path, name)
    }

    /// Whether an entry is left out for what its metadata says: a file larger than
    /// `--exclude-larger-than` (directories and the like have no size to go by).
    pub(crate) fn excluded_by_size(&self, node: &Node) -> bool {
        node.kind == NodeKind::File && self.excluded_by_size_of(node.size)
    }

    /// Whether a file of `size` bytes is larger than `--exclude-larger-than`.
    pub(crate) fn excluded_by_size_of(&self, size: u64) -> bool {
        self.larger_than.is_some_and(|limit| size > limit)
    }

    /// Whether the backup stays on the file system of each source.
    pub(crate) fn one_file_system(&self) -> bool {
        self.one_file_system
    }

    /// The tag files among `names` (the entries of the directory `dir`, sorted) that
    /// exclude the rest of it. A tag with a header counts only when the file starts with
    /// it; one that cannot be read does not count (the directory is backed up, and
    /// reading the tag file then fails as any unreadable file does).
    pub(crate) fn tags_in(&self, dir: &Path, names: &[Vec<u8>]) -> Tagged<'_> {
        let found = (self.tags.iter())
            .filter(|t| names.binary_search(&t.name).is_ok())
            .filter(|t| t.header.is_empty() || starts_with(&dir.join(os(&t.name)), &t.header))
            .map(|t| t.name.as_slice())
            .collect();
        Tagged(found)
    }
}

fn os(name: &[u8]) -> &std::ffi::OsStr {
    std::os::unix::ffi::OsStrExt::from_bytes(name)
}

/// Whether the file at `path` starts with `header`.
fn starts_with(path: &Path, header: &[u8]) -> bool {
    let mut start = Vec::with_capacity(header.len());
    crate::content::fsmeta::open_to_read(path)
        .and_then(|f| f.take(header.len() as u64).read_to_end(&mut start))
        .is_ok_and(|_| start == header)
}

/// restic's `--exclude-if-present FILE[:HEADER]` (split at the first colon).
pub fn parse_tag_spec(spec: &str) -> std::result::Result<(String, Option<String>), String> {
    let (name, header) = match spec.split_once(':') {
        Some((name, header)) => (name, Some(header.to_string())),
        None => (spec, None),
    };
    if name.is_empty() {
        return Err(format!(
            "{spec:?} names no file: give FILE or FILE:HEADER (a file name, no directory)"
        ));
    }
    if name.contains('/') || name == "." || name == ".." {
        return Err(format!(
            "{spec:?}: FILE must be a file name, without a directory (it is looked for in \
             every directory)"
        ));
    }
    Ok((name.to_string(), header))
}

fn parse_tag(spec: &str) -> std::result::Result<Tag, String> {
    let (name, header) = parse_tag_spec(spec)?;
    Ok(Tag {
        name: name.into_bytes(),
        header: header.unwrap_or_default().into_bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_specs() {
        assert_eq!(parse_tag_spec(".nobackup"), Ok((".nobackup".into(), None)));
        assert_eq!(
            parse_tag_spec("CACHEDIR.TAG:Signature: 8a"),
            Ok(("CACHEDIR.TAG".into(), Some("Signature: 8a".into())))
        );
        for bad in ["", ":x", "a/b", "..", "/x:y"] {
            assert!(parse_tag_spec(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tags_keep_only_themselves() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join(CACHEDIR_TAG),
            format!("{CACHEDIR_SIGNATURE}\n# a cache"),
        )
        .unwrap();
        std::fs::write(d.path().join("MARK"), b"no").unwrap();
        let names: Vec<Vec<u8>> = vec![b"CACHEDIR.TAG".to_vec(), b"MARK".to_vec(), b"x".to_vec()];
        let f = Filter::new(&FilterOptions {
            exclude_caches: true,
            exclude_if_present: vec!["MARK:yes".into()],
            ..Default::default()
        })
        .unwrap();
        let t = f.tags_in(d.path(), &names);
        assert!(t.excludes(b"x") && t.excludes(b"MARK") && !t.excludes(b"CACHEDIR.TAG"));
        // A wrong signature is no tag.
        std::fs::write(d.path().join(CACHEDIR_TAG), b"Signature: 0000").unwrap();
        assert!(!f.tags_in(d.path(), &names).excludes(b"x"));
        assert!(!Filter::none().tags_in(d.path(), &names).excludes(b"x"));
    }
}
