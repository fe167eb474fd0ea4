//! What `copy` and `import restic` share: both bring snapshots into this repository as a
//! backup writes (under the shared lock, with the committed index loaded under it, a
//! progress bar), and report alike.

use std::sync::Arc;

use tangle::Result;
use tangle::ops::{Brought, Progress, Stored};
use tangle::repo::{Indexed, LockKind, Repository, Unlocked};
use tangle::util::human_bytes;

use super::{Global, progress::Bar, warn};

/// How one command words its report: `copy`/`copied`, `import`/`imported`.
pub(super) struct Words {
    pub(super) verb: &'static str,
    pub(super) done: &'static str,
    /// Progress bar label.
    pub(super) doing: &'static str,
    /// Where from, in the last line: ` from restic`, or nothing.
    pub(super) source: &'static str,
    /// What was read, in the last line: ` from the source`, or nothing.
    pub(super) read_from: &'static str,
}

/// `run` into `dst`: other backups and copies go on beside it; delete, prune, tag and
/// rewrite wait. With `dry_run` no lock is taken (nothing is written).
pub(super) fn into<R>(
    g: &Global,
    dst: Repository<Unlocked>,
    dry_run: bool,
    words: &Words,
    run: impl FnOnce(&Repository<Indexed>, &Progress) -> Result<R>,
) -> Result<R> {
    let _lock = match dry_run {
        true => None,
        false => Some(dst.lock(LockKind::Shared, words.verb)?),
    };
    let dst: Repository<Indexed> = tangle::ops::backup::prepare(dst)?;
    let progress = Arc::new(Progress::default());
    let bar = Bar::start(g.show_progress() && !dry_run, progress.clone(), words.doing);
    let result = run(&dst, &progress);
    bar.finish();
    result
}

/// A warning for each destination remote that could not be written.
pub(super) fn warn_degraded(stored: &Stored, words: &Words) {
    for d in &stored.degraded_remotes {
        warn(format_args!(
            "remote not written, the {} data has reduced redundancy there until `tangle \
             repair` runs: {d}",
            words.done
        ));
    }
}

/// `copied 1a2b3c4d → 5e6f7a8b  TIME  HOST  PATHS  [TAGS]` (`would copy` with dry_run).
pub(super) fn line(words: &Words, dry_run: bool, old: &str, s: &Brought) -> String {
    let verb = match dry_run {
        true => format!("would {}", words.verb),
        false => words.done.to_string(),
    };
    super::render::brought(&verb, old, s)
}

/// The last line: `copied N snapshots (M WHY): R read…, A new in B blobs (S stored)`;
/// `skipped` says M and why.
pub(super) fn summary(
    g: &Global,
    words: &Words,
    dry_run: bool,
    brought: usize,
    skipped: &str,
    stored: &Stored,
) {
    match dry_run {
        true => g.say(format_args!(
            "would {} {brought} snapshots{} ({skipped})",
            words.verb, words.source
        )),
        false => g.say(format_args!(
            "{} {brought} snapshots{} ({skipped}): {} read{}, {} new in {} blobs ({} stored)",
            words.done,
            words.source,
            human_bytes(stored.bytes_read),
            words.read_from,
            human_bytes(stored.bytes_added),
            stored.blobs_added,
            human_bytes(stored.bytes_stored)
        )),
    }
}
