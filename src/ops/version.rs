//! `tangle version`: this build's version, target and features, and the versions of the
//! repository format it reads and writes (docs/FORMAT.md §10).

use serde::Serialize;

use crate::content::tree::{TREE_VERSION, TREE_VERSION_XATTRS};
use crate::crypto::envelope;
use crate::repo::config::FORMAT_VERSION;

/// What `tangle version --json` prints.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct VersionInfo {
    /// The crate version, as `tangle --version` prints it.
    pub version: &'static str,
    /// The target triple the binary was built for.
    pub target: &'static str,
    /// The cargo features enabled in this build.
    pub features: Vec<&'static str>,
    /// Per part of the repository format, the versions read and written.
    pub formats: Formats,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Formats {
    /// The config's `format_version`: the repository format.
    pub repository: FormatVersions,
    /// The envelope around every metadata object.
    pub envelope: FormatVersions,
    /// The version byte of a tree blob (2 only for trees with extended attributes).
    pub tree: FormatVersions,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct FormatVersions {
    pub reads: Vec<u32>,
    pub writes: Vec<u32>,
}

impl FormatVersions {
    fn both(v: &[u32]) -> FormatVersions {
        FormatVersions {
            reads: v.to_vec(),
            writes: v.to_vec(),
        }
    }
}

pub fn info() -> VersionInfo {
    let mut features = Vec::new();
    if cfg!(feature = "restic-import") {
        features.push("restic-import");
    }
    if cfg!(feature = "testing") {
        features.push("testing");
    }
    VersionInfo {
        version: env!("CARGO_PKG_VERSION"),
        target: env!("TANGLE_TARGET"),
        features,
        formats: Formats {
            repository: FormatVersions::both(&[FORMAT_VERSION]),
            envelope: FormatVersions::both(&[envelope::VERSION as u32]),
            tree: FormatVersions::both(&[TREE_VERSION as u32, TREE_VERSION_XATTRS as u32]),
        },
    }
}
