//! What goes wrong on the way, noted by the walk and the workers as they go (errors,
//! entries whose data is lost, extended attributes the target refused, files read back)
//! and gathered into the report at the end.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::{LostEntry, RestoreReport};
use crate::content::fsmeta::{Refused, XattrRefusal};
use crate::error::Error;

#[derive(Default)]
pub(super) struct Notes {
    errors: Mutex<Vec<String>>,
    lost: Mutex<Vec<LostEntry>>,
    refusals: Mutex<Refusals>,
    /// Files read back and found whole (`--verify`).
    verified: AtomicU64,
}

/// A lock that a thread which panicked holding it does not poison for the others.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn unpoisoned<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(|p| p.into_inner())
}

impl Notes {
    pub(super) fn error(&self, e: impl std::fmt::Display) {
        lock(&self.errors).push(e.to_string());
    }

    /// Record that `orig` (its path as backed up) was not restored because its data is
    /// lost.
    pub(super) fn lost(&self, orig: &Path, kind: &'static str, size: u64, e: &Error) {
        lock(&self.lost).push(LostEntry {
            path: orig.to_string_lossy().into_owned(),
            kind,
            size,
            error: e.to_string(),
        });
    }

    /// Note the extended attributes `path` refused.
    pub(super) fn refused(&self, path: &Path, refused: &[Refused]) {
        if !refused.is_empty() {
            lock(&self.refusals).note(path, refused);
        }
    }

    pub(super) fn verified(&self) {
        self.verified.fetch_add(1, Ordering::Relaxed);
    }

    /// Into `report`: the errors, the lost entries (by path) and their bytes, one warning
    /// per kind of refused attribute, and with `verify` the files read back.
    pub(super) fn into_report(self, report: &mut RestoreReport, verify: bool) {
        report.verified = verify.then(|| self.verified.into_inner());
        report.errors = unpoisoned(self.errors);
        report.lost = unpoisoned(self.lost);
        report.lost.sort_by(|a, b| a.path.cmp(&b.path));
        report.lost_bytes = report.lost.iter().map(|l| l.size).sum();
        report.warnings = unpoisoned(self.refusals).warnings();
    }
}

/// Extended attributes the target refused, by kind: warned about once per kind at the
/// end (a file system without them would otherwise give one warning per file).
#[derive(Default)]
struct Refusals(BTreeMap<XattrRefusal, RefusalCount>);

struct RefusalCount {
    attributes: u64,
    entries: u64,
    /// The first attribute refused and its path.
    first: String,
}

impl Refusals {
    fn note(&mut self, path: &Path, refused: &[Refused]) {
        let mut kinds: Vec<XattrRefusal> = Vec::new();
        for r in refused {
            let count = self.0.entry(r.why).or_insert_with(|| RefusalCount {
                attributes: 0,
                entries: 0,
                first: format!("{} on {}", String::from_utf8_lossy(&r.name), path.display()),
            });
            count.attributes += 1;
            if !kinds.contains(&r.why) {
                kinds.push(r.why);
                count.entries += 1;
            }
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|(why, c)| {
                format!(
                    "extended attributes not restored on {} entr{} ({} attribute{}, first {}): {}",
                    c.entries,
                    if c.entries == 1 { "y" } else { "ies" },
                    c.attributes,
                    if c.attributes == 1 { "" } else { "s" },
                    c.first,
                    why.describe()
                )
            })
            .collect()
    }
}
