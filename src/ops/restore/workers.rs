//! The threads that write file contents: the walk creates each file (empty) and sends
//! it to them; each writes its blobs, its metadata and, with `--verify`, reads it back.
//! With a read plan, the last of them to stop ends it, which stops the prefetcher.

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::check::verify_file;
use super::write::{Failure, write_file};
use super::{Restorer, test_setting};
use crate::content::Node;
use crate::ops::Progress;
use crate::repo::{Indexed, Repository};

/// A file whose contents a worker must write, created (empty) by the walk.
pub(super) struct FileJob {
    pub(super) path: PathBuf,
    /// Its path as backed up.
    pub(super) orig: PathBuf,
    pub(super) node: Node,
    pub(super) file: File,
    /// The temporary name `file` has until it is complete (see
    /// [`create_file`](super::write::create_file)).
    pub(super) tmp: Option<PathBuf>,
}

/// Threads writing files: two a core (writes wait on the disk, reads on the remotes).
/// Tests with the `testing` feature may set `TANGLE_TEST_RESTORE_WORKERS` to make the
/// order of reads exactly the plan's.
pub(super) fn restore_workers() -> usize {
    test_setting("TANGLE_TEST_RESTORE_WORKERS")
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()) * 2)
}

impl Restorer<'_> {
    /// One worker: write each file the walk sends until the walk is over.
    /// `workers_left` counts the workers still running.
    pub(super) fn work(
        &self,
        jobs: crossbeam_channel::Receiver<FileJob>,
        workers_left: &AtomicUsize,
    ) {
        let _last_ends_plan = LastWorkerEndsPlan(self.repo, workers_left);
        for job in jobs {
            if let Some(ms) = test_setting("TANGLE_TEST_RESTORE_FILE_DELAY_MS") {
                std::thread::sleep(std::time::Duration::from_millis(ms as u64));
            }
            self.write_job(job);
            Progress::add(&self.progress.files_done, 1);
        }
    }

    /// Write one file and its metadata, read it back with `--verify`, and note what went
    /// wrong.
    fn write_job(&self, job: FileJob) {
        let FileJob {
            path,
            orig,
            node,
            file,
            tmp,
        } = job;
        let written = write_file(
            self.repo,
            &path,
            &node,
            (file, tmp),
            self.chown,
            self.progress,
        );
        let result = written.and_then(|refused| {
            self.notes.refused(&path, &refused);
            if self.verify {
                Ok(verify_file(self.repo, &path, &node)?)
            } else {
                Ok(())
            }
        });
        match result {
            Ok(()) if self.verify => self.notes.verified(),
            Ok(()) => {}
            Err(Failure::Lost(e)) => {
                self.notes.lost(&orig, "file", node.size, &e);
                (self.notes).error(e.context(format!("restoring {}", path.display())));
            }
            Err(Failure::Other(e)) => self.notes.error(e),
        }
    }
}

/// Ends the read plan if dropped during a panic.
pub(super) struct EndPlanOnPanic<'a>(pub(super) &'a Repository<Indexed>);

impl Drop for EndPlanOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.finish_read_plan();
        }
    }
}

/// Ends the read plan when the last restore worker stops, however it stops (a panic
/// included), so the prefetcher waiting on the plan stops too.
struct LastWorkerEndsPlan<'a>(&'a Repository<Indexed>, &'a AtomicUsize);

impl Drop for LastWorkerEndsPlan<'_> {
    fn drop(&mut self) {
        if self.1.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.finish_read_plan();
        }
    }
}
