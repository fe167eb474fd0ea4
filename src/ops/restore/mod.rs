//! `tangle restore`: recreate a snapshot (or part of it) under a target directory, at
//! `TARGET/<absolute path as backed up>`.
//!
//! The tree is walked once, in order: directories, symlinks, special files and (empty)
//! regular files are made right away, by the one walking thread; file contents go to a
//! pool of workers that fetch blobs, skip all-zero blocks so holes stay holes, and write
//! at their offsets. Directory metadata is applied
//! last, deepest first, because creating entries changes a directory's mtime.
//!
//! Extended attributes (POSIX ACLs included) are set after the contents and before the
//! times. What the target file system or our privileges refuse is summed up in one
//! warning per kind at the end, not counted as an error.
//!
//! Workers read whole data shards through a shard cache (one request per shard, not per
//! blob). With high-latency remotes (S3, SFTP), a pass over the trees before the restore
//! lists every shard read it will make, in order ([`PlannedReads`](crate::repo::PlannedReads)): the cache then gives
//! up the shard needed last, so a shard read again later (deduplicated files) is fetched
//! once, and a prefetcher fetches the shards of the next reads all at once, so every
//! remote holding one of them transfers at the same time.
//!
//! One file per job, as restic splits its restorer: this one runs a restore, stage by
//! stage ([`Restorer`]); `plan.rs` is the walk that makes directories, links and special
//! files and hands file contents on, `workers.rs` the threads that write them, `write.rs`
//! creating files and directories inside the target and writing contents, `existing.rs`
//! what is already in the target (`--overwrite`, `--delete`), `sparse.rs`
//! the holes, `check.rs` reading a file back (`--verify`), `read_plan.rs` the walk ahead
//! that plans the shard reads, and `notes.rs` what goes wrong on the way (errors, lost
//! data, refused attributes), gathered into the report.

mod check;
mod existing;
mod notes;
mod plan;
mod read_plan;
mod sparse;
mod workers;
mod write;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crossbeam_channel::bounded;
use serde::Serialize;

pub use self::existing::Overwrite;
use self::notes::Notes;
use self::plan::{Filter, Planner};
use self::read_plan::{ReadPlanner, plan_ahead, totals};
use self::workers::{EndPlanOnPanic, FileJob, restore_workers};
use self::write::make_dirs_below;
use super::Progress;
use super::locate::{Located, locate, split_spec};
use super::select::{self, SnapshotFilter};
use crate::content::Node;
use crate::content::fsmeta;
use crate::error::{Kind, Result, ResultExt};
use crate::repo::{ForgetReadPlan, Indexed, RemoteReadAround, Repository};

pub struct RestoreOptions {
    /// `SNAPSHOT[:PATH]`.
    pub spec: String,
    /// Which snapshots `latest` chooses among (`--host`, `--tag`, `--path`).
    pub filter: SnapshotFilter,
    pub target: PathBuf,
    pub includes: Vec<String>,
    pub excludes: Vec<String>,
    /// Read every restored file back and compare it with the snapshot.
    pub verify: bool,
    /// Count what would be restored; write nothing (the target is not even made).
    pub dry_run: bool,
    /// What to do with an entry already at a restored path (`--overwrite`).
    pub overwrite: Overwrite,
    /// Remove what is in the target but not in the snapshot, below the restored paths
    /// (`--delete`).
    pub delete: bool,
}

#[derive(Serialize, Default, Debug)]
pub struct RestoreReport {
    pub snapshot_id: String,
    /// Nothing was written: `files` and `bytes` are what would have been restored.
    pub dry_run: bool,
    pub files: u64,
    pub dirs: u64,
    pub others: u64,
    pub bytes: u64,
    /// `--overwrite`: what was done with entries already at restored paths.
    pub overwrite: Overwrite,
    /// Of `files`, those that replaced an entry already at their path.
    pub files_overwritten: u64,
    /// Files already at their path that were kept (`--overwrite if-changed`, `if-newer`,
    /// `never`); not in `files`.
    pub files_skipped: u64,
    /// Their sizes in the snapshot.
    pub(crate) bytes_skipped: u64,
    /// Symlinks and special files already at their path that were kept; not in `others`.
    pub others_skipped: u64,
    /// `--delete`: files, symlinks and special files removed from the target.
    pub files_deleted: u64,
    /// `--delete`: directories removed from the target.
    pub dirs_deleted: u64,
    pub verified: Option<u64>,
    pub duration_secs: f64,
    pub errors: Vec<String>,
    /// What was restored incompletely without being an error: extended attributes the
    /// target refused, one line per kind (also printed as warnings).
    pub(crate) warnings: Vec<String>,
    /// Files and directories not restored because the repository lost their data (no
    /// remote serves it and no codeword rebuilds it); each is also in `errors`.
    pub lost: Vec<LostEntry>,
    /// Bytes of the files in `lost` (directories whose listing is lost count 0: what
    /// they held is unknown).
    pub lost_bytes: u64,
    /// Per remote, the shards this restore read around (missing, corrupt, not served):
    /// remembered for the next plain `repair` (see [`Repository::damage_read_around`]).
    pub(crate) damage_read_around: Vec<RemoteReadAround>,
}

/// A file or directory a restore could not write because its data is lost.
#[derive(Serialize, Debug, Clone)]
pub struct LostEntry {
    /// The path as it was backed up.
    pub path: String,
    /// `file`, or `dir` when the directory's listing is lost (nothing below it restored).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The file's size (0 for a directory).
    pub size: u64,
    /// Why: what could not be read (e.g. `extent 1a2b3c4d cannot be rebuilt: …`).
    pub error: String,
}

pub fn run(
    repo: &Repository<Indexed>,
    opts: &RestoreOptions,
    progress: &Progress,
) -> Result<RestoreReport> {
    let result = restore(repo, opts, progress);
    // What was read around is remembered for `repair` however the restore ended.
    repo.remember_damage_read_around();
    let mut report = result?;
    report.damage_read_around = repo.damage_read_around();
    Ok(report)
}

/// One restore under way: what its stages, the walk and the workers share.
struct Restorer<'a> {
    repo: &'a Repository<Indexed>,
    progress: &'a Progress,
    filter: Filter,
    /// Read every file back once written (`--verify`).
    verify: bool,
    /// Restore owners and groups (only root may).
    chown: bool,
    /// `--overwrite`.
    overwrite: Overwrite,
    /// `--delete`.
    delete: bool,
    /// `--dry-run`: the walk only looks, and counts.
    dry: bool,
    notes: Notes,
}

/// What the walk leaves for after the contents are written.
struct Walked {
    /// Every directory made, with its node: its metadata is applied last.
    dirs: Vec<(PathBuf, Node)>,
    /// (existing, new) pairs of paths to hard-link.
    hard_links: Vec<(PathBuf, PathBuf)>,
}

/// The stages: find what to restore, count it for the progress display, plan the reads
/// ahead (high-latency remotes), write every entry, link hard links, set the
/// directories' metadata, and say what went wrong.
fn restore(
    repo: &Repository<Indexed>,
    opts: &RestoreOptions,
    progress: &Progress,
) -> Result<RestoreReport> {
    let started = Instant::now();
    // Restore what is there, but say when it is older than what this client saw.
    let stale = repo.older_than_seen()?;
    if let Some(why) = &stale {
        repo.warn(why);
    }
    let (snap_spec, sub) = split_spec(&opts.spec);
    let (id, snap) = select::find(repo, snap_spec, &opts.filter)?;
    let r = Restorer {
        repo,
        progress,
        filter: Filter::new(&opts.includes, &opts.excludes)?,
        verify: opts.verify,
        chown: fsmeta::is_root(),
        overwrite: opts.overwrite,
        delete: opts.delete,
        dry: opts.dry_run,
        notes: Notes::default(),
    };
    let start = sub.map(Path::new).unwrap_or(Path::new("/"));
    let located = locate(repo, &snap, start).map_err(|e| match e.kind() {
        Kind::DataLost => e.context(format!(
            "snapshot {} cannot be restored: its directory listing is lost",
            &id[..8]
        )),
        _ => e,
    })?;
    let whole = sub.is_none() && opts.includes.is_empty() && opts.excludes.is_empty();
    // The target is new (nothing in it needs looking at) unless it is a directory (or a
    // symlink to one: the target itself may be one).
    let target_fresh = !opts.target.is_dir();
    if opts.dry_run {
        // The restore's own walk, looking and counting only; a listing it cannot read
        // is an error here (exit 21), as it would be a loss in the restore.
        let mut report = RestoreReport {
            snapshot_id: id,
            dry_run: true,
            overwrite: opts.overwrite,
            ..Default::default()
        };
        r.dry_walk(located, start, &opts.target, target_fresh, &mut report)?;
        r.notes.into_report(&mut report, false);
        report.duration_secs = started.elapsed().as_secs_f64();
        return Ok(report);
    }
    std::fs::create_dir_all(&opts.target)
        .ctx(format_args!("creating target {}", opts.target.display()))?;
    // A bar shows the totals from the start (else they grow as the walk goes);
    // before the read plan, whose shard cache a walk would disturb.
    let totals_ahead = (progress.watched.load(Ordering::Relaxed))
        .then(|| totals(repo, &snap, &r.filter, &located, start, whole))
        .flatten();
    if let Some((files, bytes)) = totals_ahead {
        progress.set_totals(files, bytes);
    }
    let read_planner = plan_ahead(repo, &r.filter, &located, start);
    let _forget_plan = ForgetReadPlan(repo);

    let mut report = RestoreReport {
        snapshot_id: id,
        overwrite: opts.overwrite,
        ..Default::default()
    };
    let walked = r.write_entries(
        located,
        start,
        (&opts.target, target_fresh),
        read_planner,
        totals_ahead.is_none(),
        &mut report,
    )?;
    r.link_hard_links(&walked.hard_links);
    r.apply_dir_metadata(walked.dirs);

    r.notes.into_report(&mut report, opts.verify);
    for w in &report.warnings {
        repo.warn(w);
    }
    if let Some(why) = stale {
        report.warnings.insert(0, why);
    }
    report.duration_secs = started.elapsed().as_secs_f64();
    Ok(report)
}

impl Restorer<'_> {
    /// Write what `located` holds under `target`: the walk ([`Planner`], on this thread)
    /// makes directories, links, special files and empty files, and hands file contents
    /// to the workers; with a read plan, the prefetcher and the rest of the plan's walk
    /// run beside them. `count_totals`: add each file to the progress totals (they were
    /// not known ahead).
    fn write_entries(
        &self,
        located: Located,
        start: &Path,
        (target, target_fresh): (&Path, bool),
        read_planner: Option<ReadPlanner<'_>>,
        count_totals: bool,
        report: &mut RestoreReport,
    ) -> Result<Walked> {
        let repo = self.repo;
        let planned = !repo.read_plan_is_over();
        let workers = restore_workers();
        let (tx, rx) = bounded::<FileJob>(workers * 4);
        // The last worker to stop ends the plan, which stops the prefetcher.
        let workers_left = AtomicUsize::new(workers);
        std::thread::scope(|s| -> Result<Walked> {
            // A thread that fails to start panics here: end the plan, or the prefetcher
            // would wait on it for ever and the scope never end.
            let _ends_plan_on_panic = EndPlanOnPanic(repo);
            if planned {
                s.spawn(|| repo.prefetch_planned());
            }
            if let Some(mut read_planner) = read_planner {
                // A look for include patterns recurses once per directory level (down to
                // ~2,048 levels, as deep as paths go): the stack the backup's walker gets.
                // Without the thread the plan just stops after its first segment.
                let _ = std::thread::Builder::new()
                    .name("read-planner".into())
                    .stack_size(crate::ops::WALKER_STACK)
                    .spawn_scoped(s, move || read_planner.keep_ahead());
            }
            for _ in 0..workers {
                let (rx, workers_left) = (rx.clone(), &workers_left);
                s.spawn(move || self.work(rx, workers_left));
            }
            drop(rx);
            let mut planner = Planner::new(self, tx, report, count_totals);
            let result = self.walk(&mut planner, located, start, target, target_fresh);
            let walked = planner.finish();
            self.progress.totals_known.store(true, Ordering::Relaxed);
            result.map(|()| walked)
        })
    }

    /// The walk of what `located` holds, from `target` (`target_fresh`: it was just made,
    /// or would be).
    fn walk(
        &self,
        planner: &mut Planner<'_>,
        located: Located,
        start: &Path,
        target: &Path,
        target_fresh: bool,
    ) -> Result<()> {
        match located {
            Located::Root(tree) => {
                planner.dir_entries(&tree, target, Path::new("/"), false, target_fresh)
            }
            Located::Node(node) => {
                let parent_dir = start.parent().unwrap_or(Path::new("/"));
                let (dest_dir, fresh) =
                    make_dirs_below(target, parent_dir, target_fresh, self.dry)?;
                planner.fresh = fresh;
                planner.node(node, &dest_dir, parent_dir, false)
            }
        }
    }

    /// `--dry-run`: the walk of the restore, which looks at the target and counts what
    /// the restore would write, keep and delete, and changes nothing.
    fn dry_walk(
        &self,
        located: Located,
        start: &Path,
        target: &Path,
        target_fresh: bool,
        report: &mut RestoreReport,
    ) -> Result<()> {
        // No worker: the dry walk sends no file.
        let (tx, _rx) = bounded::<FileJob>(1);
        let mut planner = Planner::new(self, tx, report, false);
        let result = self.walk(&mut planner, located, start, target, target_fresh);
        planner.finish();
        result
    }

    /// Link each hard link to the first path of its inode, now that the workers are done
    /// (that path may not have existed before).
    fn link_hard_links(&self, hard_links: &[(PathBuf, PathBuf)]) {
        for (first, dest) in hard_links {
            let _ = std::fs::remove_file(dest);
            if let Err(e) = std::fs::hard_link(first, dest) {
                self.notes.error(format!("linking {}: {e}", dest.display()));
            }
        }
    }

    /// Apply the directories' metadata, last: creating entries changes a directory's
    /// mtime.
    fn apply_dir_metadata(&self, mut dirs: Vec<(PathBuf, Node)>) {
        for_dirs_deepest_first(&mut dirs, |path, node| {
            match fsmeta::apply_metadata(path, node, self.chown) {
                Ok(refused) => self.notes.refused(path, &refused),
                Err(e) => self.notes.error(e),
            }
        });
    }
}

/// Run `apply` on each directory, deepest first: a parent's mtime is set after every
/// change inside it, and a parent that forbids entering it after its children. The
/// directories of one depth are independent, so they are shared among threads (at the
/// end of a restore this pass ran alone on one core: 0.5 s of syscalls on the
/// benchmark tree's 4,700 directories).
fn for_dirs_deepest_first(dirs: &mut [(PathBuf, Node)], apply: impl Fn(&Path, &Node) + Sync) {
    /// Fewer directories than this at one depth are not worth a thread.
    const PER_THREAD: usize = 64;
    dirs.sort_by_cached_key(|(path, _)| std::cmp::Reverse(path.components().count()));
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    for level in dirs.chunk_by(|a, b| a.0.components().count() == b.0.components().count()) {
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some((path, node)) = level.get(next.fetch_add(1, Ordering::Relaxed)) {
                apply(path, node);
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads.min(level.len() / PER_THREAD) {
                scope.spawn(work);
            }
            work();
        });
    }
}

/// A positive number from the environment variable `name`, read only by a build with
/// the `testing` feature (the tests' knobs: also `TANGLE_TEST_RESTORE_FILE_DELAY_MS`, a
/// pause before each file's contents, for a restore that is still running when a test
/// signals it); `None` otherwise.
fn test_setting(name: &str) -> Option<usize> {
    #[cfg(feature = "testing")]
    return std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0);
    #[cfg(not(feature = "testing"))]
    {
        let _ = name;
        None
    }
}
