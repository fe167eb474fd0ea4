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
//! lists every shard read it will make, in order ([`PlannedReads`]): the cache then gives
//! up the shard needed last, so a shard read again later (deduplicated files) is fetched
//! once, and a prefetcher fetches the shards of the next reads all at once, so every
//! remote holding one of them transfers at the same time.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::fs::{File, OpenOptions};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use crossbeam_channel::bounded;
use serde::Serialize;

use super::Progress;
use super::locate::{Located, locate, split_spec};
use crate::content::fsmeta::{self, Refused, XattrRefusal};
use crate::content::{BlobId, BlobKind, Node, NodeKind, Tree};
use crate::error::{Error, Result, ResultExt};
use crate::pathmatch::PathMatcher;
use crate::repo::{ForgetReadPlan, PREFETCH_WINDOW};
use crate::repo::{
    PLAN_SEGMENT, PlannedReads, ReadMode, RemoteReadAround, Repository, TREE_SHARDS_AHEAD,
    TREES_AHEAD,
};

pub struct RestoreOptions {
    /// `SNAPSHOT[:PATH]`.
    pub spec: String,
    pub target: PathBuf,
    pub includes: Vec<String>,
    pub excludes: Vec<String>,
    /// Read every restored file back and compare it with the snapshot.
    pub verify: bool,
}

#[derive(Serialize, Default, Debug)]
pub struct RestoreReport {
    pub snapshot_id: String,
    pub files: u64,
    pub dirs: u64,
    pub others: u64,
    pub bytes: u64,
    pub verified: Option<u64>,
    pub duration_secs: f64,
    pub errors: Vec<String>,
    /// What was restored incompletely without being an error: extended attributes the
    /// target refused, one line per kind (also printed as warnings).
    pub warnings: Vec<String>,
    /// Files and directories not restored because the repository lost their data (no
    /// remote serves it and no codeword rebuilds it); each is also in `errors`.
    pub lost: Vec<LostEntry>,
    /// Bytes of the files in `lost` (directories whose listing is lost count 0: what
    /// they held is unknown).
    pub lost_bytes: u64,
    /// Per remote, the shards this restore read around (missing, corrupt, not served):
    /// remembered for the next plain `repair` (see [`Repository::damage_read_around`]).
    pub damage_read_around: Vec<RemoteReadAround>,
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

/// Why a file was not restored: its data is lost, or anything else (the target).
enum Failure {
    Lost(Error),
    Other(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Other(e)
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

/// Note the extended attributes `path` refused.
fn note_refused(refusals: &Mutex<Refusals>, path: &Path, refused: &[Refused]) {
    if !refused.is_empty() {
        refusals
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .note(path, refused);
    }
}

struct Filter {
    include: PathMatcher,
    exclude: PathMatcher,
}

/// A file whose contents a worker must write, created (empty) by the walk.
struct FileJob {
    path: PathBuf,
    /// Its path as backed up.
    orig: PathBuf,
    node: Node,
    file: File,
    /// The temporary name `file` has until it is complete (see [`create_file`]).
    tmp: Option<PathBuf>,
}

pub fn run(repo: &Repository, opts: &RestoreOptions, progress: &Progress) -> Result<RestoreReport> {
    let result = restore(repo, opts, progress);
    // What was read around is remembered for `repair` however the restore ended.
    repo.remember_damage_read_around();
    let mut report = result?;
    report.damage_read_around = repo.damage_read_around();
    Ok(report)
}

fn restore(repo: &Repository, opts: &RestoreOptions, progress: &Progress) -> Result<RestoreReport> {
    let started = Instant::now();
    // Restore what is there, but say when it is older than what this client saw.
    let stale = repo.older_than_seen()?;
    if let Some(why) = &stale {
        repo.warn(why);
    }
    let (snap_spec, sub) = split_spec(&opts.spec);
    let (id, snap) = repo.find_snapshot(snap_spec)?;
    let filter = Filter {
        include: PathMatcher::new(&opts.includes, &[])?,
        exclude: PathMatcher::new(&opts.excludes, &[])?,
    };
    std::fs::create_dir_all(&opts.target)
        .ctx(format_args!("creating target {}", opts.target.display()))?;
    let chown = fsmeta::is_root();
    let errors = Mutex::new(Vec::new());
    let lost = Mutex::new(Vec::new());
    let refusals = Mutex::new(Refusals::default());
    let mut report = RestoreReport {
        snapshot_id: id,
        ..Default::default()
    };

    let start = sub.map(Path::new).unwrap_or(Path::new("/"));
    let located = locate(repo, &snap, start).map_err(|e| match e.kind() {
        crate::error::Kind::DataLost => e.context(format!(
            "snapshot {} cannot be restored: its directory listing is lost",
            &report.snapshot_id[..8]
        )),
        _ => e,
    })?;
    // A bar shows the totals from the start (else they grow as the walk goes);
    // before the read plan, whose shard cache a walk would disturb.
    let whole = sub.is_none() && opts.includes.is_empty() && opts.excludes.is_empty();
    let totals_ahead = (progress.watched.load(std::sync::atomic::Ordering::Relaxed))
        .then(|| totals(repo, &snap, &filter, &located, start, whole))
        .flatten();
    if let Some((files, bytes)) = totals_ahead {
        progress.set_totals(files, bytes);
    }

    // With a high-latency remote (S3, SFTP), walk the trees ahead of the restore, so the
    // shard cache knows which shards are read again and when, and the prefetcher what
    // comes next: the first segment of reads now, the next ones while the restore runs.
    // Local remotes skip it: a shard read again comes from the page cache, and the walk
    // cost more than it saved (measured on the benchmark tree). A walk that fails only
    // loses (the rest of) the plan: the restore meets the same error.
    let mut read_planner = repo
        .remotes()
        .iter()
        .any(|r| r.high_latency())
        .then(|| ReadPlanner::new(repo, &filter, &located, start))
        .and_then(|mut read_planner| {
            let more = read_planner.walk(plan_segment()).ok()?;
            repo.follow_read_plan(read_planner.take_reads());
            more.then_some(read_planner)
        });
    let planned = !repo.read_plan_is_over();
    let _forget_plan = ForgetReadPlan(repo);

    let workers = restore_workers();
    let (tx, rx) = bounded::<FileJob>(workers * 4);
    let mut dirs: Vec<(PathBuf, Node)> = Vec::new();
    let mut hard_links: Vec<(PathBuf, PathBuf)> = Vec::new();
    let verified = std::sync::atomic::AtomicU64::new(0);
    // The last worker to stop ends the plan, which stops the prefetcher.
    let workers_left = std::sync::atomic::AtomicUsize::new(workers);
    std::thread::scope(|s| -> Result<()> {
        // A thread that fails to start panics here: end the plan, or the prefetcher
        // would wait on it for ever and the scope never end.
        let _ends_plan_on_panic = EndPlanOnPanic(repo);
        if planned {
            s.spawn(|| repo.prefetch_planned(PREFETCH_WINDOW));
        }
        if let Some(mut read_planner) = read_planner.take() {
            // A look for include patterns recurses once per directory level (down to
            // ~2,048 levels, as deep as paths go): the stack the backup's walker gets.
            // Without the thread the plan just stops after its first segment.
            let _ = std::thread::Builder::new()
                .name("read-planner".into())
                .stack_size(crate::ops::WALKER_STACK)
                .spawn_scoped(s, move || read_planner.keep_ahead());
        }
        for _ in 0..workers {
            let (rx, errors, verified, lost) = (rx.clone(), &errors, &verified, &lost);
            let (refusals, workers_left) = (&refusals, &workers_left);
            s.spawn(move || {
                let _last_ends_plan = LastWorkerEndsPlan(repo, workers_left);
                for job in rx {
                    let FileJob {
                        path,
                        orig,
                        node,
                        file,
                        tmp,
                    } = job;
                    if let Some(ms) = test_setting("TANGLE_TEST_RESTORE_FILE_DELAY_MS") {
                        std::thread::sleep(std::time::Duration::from_millis(ms as u64));
                    }
                    let written = write_file(repo, &path, &node, (file, tmp), chown, progress);
                    let result = written.and_then(|refused| {
                        note_refused(refusals, &path, &refused);
                        if opts.verify {
                            Ok(verify_file(repo, &path, &node)?)
                        } else {
                            Ok(())
                        }
                    });
                    let error = match result {
                        Ok(()) if opts.verify => {
                            verified.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            None
                        }
                        Ok(()) => None,
                        Err(Failure::Lost(e)) => {
                            note_lost(lost, &orig, "file", node.size, &e);
                            Some(e.context(format!("restoring {}", path.display())))
                        }
                        Err(Failure::Other(e)) => Some(e),
                    };
                    if let Some(e) = error {
                        errors
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push(e.to_string());
                    }
                    Progress::add(&progress.files_done, 1);
                }
            });
        }
        drop(rx);
        let mut planner = Planner {
            repo,
            filter: &filter,
            tx,
            dirs: &mut dirs,
            report: &mut report,
            errors: &errors,
            lost: &lost,
            refusals: &refusals,
            chown,
            links: HashMap::new(),
            hard_links: &mut hard_links,
            skipped_inodes: Default::default(),
            memo: HashMap::new(),
            progress,
            count_totals: totals_ahead.is_none(),
        };
        let result = match located {
            Located::Root(tree) => planner.tree(&tree, &opts.target, Path::new("/"), false),
            Located::Node(node) => {
                let parent_dir = start.parent().unwrap_or(Path::new("/"));
                let dest_dir = make_dirs_below(&opts.target, parent_dir)?;
                planner.node(node, &dest_dir, parent_dir, false)
            }
        };
        drop(planner);
        progress
            .totals_known
            .store(true, std::sync::atomic::Ordering::Relaxed);
        result
    })?;

    for (first, dest) in &hard_links {
        let _ = std::fs::remove_file(dest);
        if let Err(e) = std::fs::hard_link(first, dest) {
            errors
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(format!("linking {}: {e}", dest.display()));
        }
    }
    for_dirs_deepest_first(&mut dirs, |path, node| {
        match fsmeta::apply_metadata(path, node, chown) {
            Ok(refused) => note_refused(&refusals, path, &refused),
            Err(e) => errors
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(e.to_string()),
        }
    });
    report.verified = opts.verify.then(|| verified.into_inner());
    report.errors = errors.into_inner().unwrap_or_else(|p| p.into_inner());
    report.lost = lost.into_inner().unwrap_or_else(|p| p.into_inner());
    report.lost.sort_by(|a, b| a.path.cmp(&b.path));
    report.lost_bytes = report.lost.iter().map(|l| l.size).sum();
    report.warnings = refusals
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .warnings();
    for w in &report.warnings {
        repo.warn(w);
    }
    if let Some(why) = stale {
        report.warnings.insert(0, why);
    }
    report.duration_secs = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Run `apply` on each directory, deepest first: a parent's mtime is set after every
/// change inside it, and a parent that forbids entering it after its children. The
/// directories of one depth are independent, so they are shared among threads (at the
/// end of a restore this pass ran alone on one core: 0.5 s of syscalls on the
/// benchmark tree's 4,700 directories).
fn for_dirs_deepest_first(dirs: &mut [(PathBuf, Node)], apply: impl Fn(&Path, &Node) + Sync) {
    use std::sync::atomic::{AtomicUsize, Ordering};
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

/// Ends the read plan if dropped during a panic.
struct EndPlanOnPanic<'a>(&'a Repository);

impl Drop for EndPlanOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.finish_read_plan();
        }
    }
}

/// Ends the read plan when the last restore worker stops, however it stops (a panic
/// included), so the prefetcher waiting on the plan stops too.
struct LastWorkerEndsPlan<'a>(&'a Repository, &'a std::sync::atomic::AtomicUsize);

impl Drop for LastWorkerEndsPlan<'_> {
    fn drop(&mut self) {
        if self.1.fetch_sub(1, std::sync::atomic::Ordering::AcqRel) == 1 {
            self.0.finish_read_plan();
        }
    }
}

struct Planner<'a> {
    repo: &'a Repository,
    filter: &'a Filter,
    tx: crossbeam_channel::Sender<FileJob>,
    dirs: &'a mut Vec<(PathBuf, Node)>,
    report: &'a mut RestoreReport,
    errors: &'a Mutex<Vec<String>>,
    lost: &'a Mutex<Vec<LostEntry>>,
    refusals: &'a Mutex<Refusals>,
    chown: bool,
    /// First restored path of each hard-linked inode.
    links: HashMap<(u64, u64), PathBuf>,
    /// (existing, new) pairs to link after all contents are written.
    hard_links: &'a mut Vec<(PathBuf, PathBuf)>,
    /// Hard-linked inodes whose planned reads were skipped with their directory (or
    /// made by a worker).
    skipped_inodes: std::collections::HashSet<(u64, u64)>,
    /// What looks for include patterns found out below the walk (`Filter::subtree_has_match`).
    memo: HashMap<PathBuf, bool>,
    progress: &'a Progress,
    /// Add each file to the progress totals (they were not known ahead).
    count_totals: bool,
}

/// Record that `orig` was not restored because its data is lost.
fn note_lost(lost: &Mutex<Vec<LostEntry>>, orig: &Path, kind: &'static str, size: u64, e: &Error) {
    lost.lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(LostEntry {
            path: orig.to_string_lossy().into_owned(),
            kind,
            size,
            error: e.to_string(),
        });
}

impl Planner<'_> {
    fn error(&self, e: Error) {
        self.errors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(e.to_string());
    }

    /// A directory whose listing cannot be read: nothing below it is restored, the
    /// rest of the snapshot is.
    fn listing_lost(&self, orig: &Path, e: Error) -> Result<()> {
        let e = e.as_data_lost();
        if e.kind() != crate::error::Kind::DataLost {
            return Err(e);
        }
        note_lost(self.lost, orig, "dir", 0, &e);
        self.error(e.context(format!("directory {} not restored", orig.display())));
        Ok(())
    }

    /// Restore the entries of `tree`; `dest` is where they go, `orig` where they were.
    /// `included` is set once an ancestor matched an include pattern.
    fn tree(&mut self, tree: &Tree, dest: &Path, orig: &Path, included: bool) -> Result<()> {
        for node in &tree.nodes {
            self.node(node.clone(), dest, orig, included)?;
        }
        Ok(())
    }

    fn node(&mut self, node: Node, dest_dir: &Path, orig_dir: &Path, included: bool) -> Result<()> {
        let (orig, included) = match self.filter.admit(&node, orig_dir, included) {
            Admitted::Yes { orig, included } => (orig, included),
            Admitted::Excluded => return Ok(()),
            Admitted::InvalidName(e) => {
                self.error(e);
                return Ok(());
            }
        };
        let dest = dest_dir.join(OsStr::from_bytes(&node.name));
        match node.kind {
            NodeKind::Dir => {
                let subtree = match node.subtree.map(|id| self.repo.load_tree(&id)) {
                    Some(Ok(tree)) => tree,
                    Some(Err(e)) => return self.listing_lost(&orig, e),
                    None => Tree::default(),
                };
                if !included {
                    match (self.filter).subtree_has_match(
                        self.repo,
                        &subtree,
                        &orig,
                        &mut self.memo,
                    ) {
                        Ok(true) => {}
                        Ok(false) => return Ok(()),
                        Err(e) => return self.listing_lost(&orig, e),
                    }
                }
                if let Err(e) = make_dir(&dest) {
                    self.error(e);
                    self.skip_planned(subtree, orig, included);
                    return Ok(());
                }
                self.tree(&subtree, &dest, &orig, included)?;
                self.report.dirs += 1;
                self.dirs.push((dest, node));
            }
            _ if !included => {}
            NodeKind::File => {
                self.report.files += 1;
                self.report.bytes += node.size;
                if self.count_totals {
                    Progress::add(&self.progress.files_total, 1);
                    Progress::add(&self.progress.bytes_total, node.size);
                }
                if node.links > 1 {
                    if let Some(first) = self.links.get(&(node.device, node.inode)) {
                        // Linked once the workers are done: the first path may not exist yet.
                        self.hard_links.push((first.clone(), dest));
                        Progress::add(&self.progress.files_done, 1);
                        return Ok(());
                    }
                    self.links.insert((node.device, node.inode), dest.clone());
                }
                // Files are created here, in walk order, by one thread: workers creating
                // the files of one directory at once contended for its lock, and
                // creating a file cost them twice what it costs tar -x.
                let (file, tmp) = match create_file(&dest) {
                    Ok(created) => created,
                    Err(e) => {
                        self.repo.skip_planned_reads(&node.content);
                        self.error(e);
                        Progress::add(&self.progress.files_done, 1);
                        return Ok(());
                    }
                };
                let job = FileJob {
                    path: dest,
                    orig,
                    node,
                    file,
                    tmp,
                };
                self.tx
                    .send(job)
                    .map_err(|_| Error::fatal("restore workers stopped"))?;
            }
            _ => {
                self.report.others += 1;
                let _ = std::fs::remove_file(&dest);
                if node.kind == NodeKind::Socket {
                    return Ok(());
                }
                let r = fsmeta::create_special(&dest, &node)
                    .and_then(|_| fsmeta::apply_metadata(&dest, &node, self.chown));
                match r {
                    Ok(refused) => note_refused(self.refusals, &dest, &refused),
                    Err(e) => self.error(e),
                }
            }
        }
        Ok(())
    }
}

impl Planner<'_> {
    /// A directory is not restored after all (it could not be made): take the reads
    /// planned for what it holds off the read plan, listed by the plan's own walk.
    fn skip_planned(&mut self, subtree: Tree, orig: PathBuf, included: bool) {
        let mut walk =
            ReadPlanner::starting_at(self.repo, self.filter, subtree.nodes, orig, included);
        // The plan lists an inode's reads at its first path only.
        walk.links = (self.links.keys().chain(&self.skipped_inodes))
            .copied()
            .collect();
        // A walk that fails skips what it listed.
        let _ = walk.walk(usize::MAX);
        self.repo.skip_planned(walk.take_reads());
        self.skipped_inodes = walk.links;
    }
}

/// Whether and how a tree entry is restored.
enum Admitted {
    /// `orig` is its path as backed up; `included` once it or an ancestor matched an
    /// include pattern (or there are none).
    Yes {
        orig: PathBuf,
        included: bool,
    },
    Excluded,
    InvalidName(Error),
}

impl Filter {
    fn admit(&self, node: &Node, orig_dir: &Path, included: bool) -> Admitted {
        // One path component, never a way out of `dest_dir` (trees are signed by the
        // owner, but a restore must stay inside --target whatever a tree says).
        if matches!(&node.name[..], b"" | b"." | b"..") || node.name.contains(&b'/') {
            return Admitted::InvalidName(Error::corrupt(format!(
                "{}: skipping an entry with the invalid name {:?}",
                orig_dir.display(),
                String::from_utf8_lossy(&node.name)
            )));
        }
        let orig = orig_dir.join(OsStr::from_bytes(&node.name));
        if self.exclude.matches(&orig, &node.name) {
            return Admitted::Excluded;
        }
        let included =
            included || self.include.is_empty() || self.include.matches(&orig, &node.name);
        Admitted::Yes { orig, included }
    }

    /// Whether anything below the directory `orig` (holding `tree`) matches the include
    /// patterns. `memo` keeps what earlier looks found out about the directories below
    /// (each answer is taken out when asked for): a walk asks about every directory on
    /// its way down, and without it each question would search the same subtree again
    /// (quadratic in the depth: a 1,900-level tree took minutes).
    fn subtree_has_match(
        &self,
        repo: &Repository,
        tree: &Tree,
        orig: &Path,
        memo: &mut HashMap<PathBuf, bool>,
    ) -> Result<bool> {
        if self.include.is_empty() {
            return Ok(true);
        }
        if let Some(known) = memo.remove(orig) {
            return Ok(known);
        }
        self.search_for_match(repo, tree, orig, memo)
    }

    fn search_for_match(
        &self,
        repo: &Repository,
        tree: &Tree,
        orig: &Path,
        memo: &mut HashMap<PathBuf, bool>,
    ) -> Result<bool> {
        for n in &tree.nodes {
            let p = orig.join(OsStr::from_bytes(&n.name));
            if self.include.matches(&p, &n.name) {
                return Ok(true);
            }
            if let (NodeKind::Dir, Some(id)) = (n.kind, n.subtree) {
                let found =
                    self.search_for_match(repo, &repo.load_tree_off_plan(&id)?, &p, memo)?;
                memo.insert(p, found);
                if found {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// Threads writing files: two a core (writes wait on the disk, reads on the remotes).
/// Tests with the `testing` feature may set `TANGLE_TEST_RESTORE_WORKERS` to make the
/// order of reads exactly the plan's.
fn restore_workers() -> usize {
    test_setting("TANGLE_TEST_RESTORE_WORKERS")
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()) * 2)
}

/// Reads the plan holds at a time ([`PLAN_SEGMENT`]; tests with the `testing` feature
/// may set `TANGLE_TEST_PLAN_SEGMENT` to make a small tree take many segments).
fn plan_segment() -> usize {
    test_setting("TANGLE_TEST_PLAN_SEGMENT").unwrap_or(PLAN_SEGMENT)
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

/// The walk ahead of the restore: the same walk, reading only trees, to list the shard
/// reads the restore will make in the order it makes them. It stops after each segment
/// of reads and goes on from there ([`keep_ahead`](Self::keep_ahead)), so the plan's
/// memory stays bounded however large the restore.
struct ReadPlanner<'a> {
    repo: &'a Repository,
    filter: &'a Filter,
    reads: PlannedReads,
    /// Hard-linked inodes seen: only the first path's contents are read.
    links: std::collections::HashSet<(u64, u64)>,
    /// What looks for include patterns found out below the walk (`Filter::subtree_has_match`).
    memo: HashMap<PathBuf, bool>,
    /// The trees being walked, innermost last: the nodes left, their directory's path as
    /// backed up, and whether it is included.
    stack: Vec<(std::vec::IntoIter<Node>, PathBuf, bool)>,
    /// Only count the files and bytes the restore writes (`files`, `bytes`), listing no
    /// reads: see [`totals`].
    count_only: bool,
    files: u64,
    bytes: u64,
}

/// The files and bytes the restore writes, before it starts, for a progress display:
/// a whole snapshot's own count, else a walk of the trees it restores (the walk the
/// restore makes, reading only trees; `None` if it fails: the totals then grow as the
/// restore goes).
fn totals(
    repo: &Repository,
    snap: &crate::content::Snapshot,
    filter: &Filter,
    located: &Located,
    start: &Path,
    whole: bool,
) -> Option<(u64, u64)> {
    let summary = &snap.summary;
    if whole && (summary.files > 0 || summary.bytes > 0) {
        return Some((summary.files, summary.bytes));
    }
    let mut walk = ReadPlanner::new(repo, filter, located, start);
    walk.count_only = true;
    walk.walk(usize::MAX).ok()?;
    Some((walk.files, walk.bytes))
}

impl<'a> ReadPlanner<'a> {
    fn new(repo: &'a Repository, filter: &'a Filter, located: &Located, start: &Path) -> Self {
        let (nodes, dir) = match located {
            Located::Root(tree) => (tree.nodes.clone(), PathBuf::from("/")),
            Located::Node(node) => (
                vec![node.clone()],
                start.parent().unwrap_or(Path::new("/")).to_path_buf(),
            ),
        };
        Self::starting_at(repo, filter, nodes, dir, false)
    }

    /// The walk of `nodes`, the entries of the directory `dir` (as backed up); `included`
    /// if it or an ancestor matched an include pattern.
    fn starting_at(
        repo: &'a Repository,
        filter: &'a Filter,
        nodes: Vec<Node>,
        dir: PathBuf,
        included: bool,
    ) -> Self {
        ReadPlanner {
            repo,
            filter,
            reads: PlannedReads::new(),
            links: Default::default(),
            memo: HashMap::new(),
            stack: vec![(nodes.into_iter(), dir, included)],
            count_only: false,
            files: 0,
            bytes: 0,
        }
    }

    /// The reads listed since the last call.
    fn take_reads(&mut self) -> PlannedReads {
        std::mem::take(&mut self.reads)
    }

    /// Walk on until `segment` reads are listed or the walk is over; whether there is
    /// more to walk.
    fn walk(&mut self, segment: usize) -> Result<bool> {
        while self.reads.len() < segment {
            let Some((nodes, orig_dir, included)) = self.stack.last_mut() else {
                return Ok(false);
            };
            let Some(node) = nodes.next() else {
                self.stack.pop();
                continue;
            };
            let Admitted::Yes { orig, included } = self.filter.admit(&node, orig_dir, *included)
            else {
                continue;
            };
            match node.kind {
                NodeKind::Dir => {
                    let subtree = match node.subtree {
                        Some(id) => {
                            if !self.count_only {
                                self.repo.plan_blob_read(&mut self.reads, &id);
                            }
                            self.read_trees_ahead(&id);
                            self.repo.load_tree_off_plan(&id)?
                        }
                        None => Tree::default(),
                    };
                    let filter = self.filter;
                    if included
                        || filter.subtree_has_match(self.repo, &subtree, &orig, &mut self.memo)?
                    {
                        self.stack.push((subtree.nodes.into_iter(), orig, included));
                    }
                }
                NodeKind::File if included => {
                    self.files += 1;
                    self.bytes += node.size;
                    if self.count_only
                        || node.links > 1 && !self.links.insert((node.device, node.inode))
                    {
                        continue;
                    }
                    for id in &node.content {
                        self.repo.plan_blob_read(&mut self.reads, id);
                    }
                }
                _ => {}
            }
        }
        Ok(!self.stack.is_empty())
    }

    /// Before reading tree `next`: fetch its shard together with those of the trees
    /// walked after it that are known now (the directories left at each level, innermost
    /// first), while the restore has not started (later, its reads overlap the walk's,
    /// and the shard cache is the restore's).
    fn read_trees_ahead(&self, next: &BlobId) {
        if !self.repo.read_plan_is_over() {
            return;
        }
        let then = || {
            (self.stack.iter().rev())
                .flat_map(|(nodes, _, _)| nodes.as_slice())
                .filter(|node| node.kind == NodeKind::Dir)
                .filter_map(|node| node.subtree)
                .take(TREES_AHEAD)
                .collect()
        };
        self.repo.read_trees_ahead(next, then, TREE_SHARDS_AHEAD);
    }

    /// While the restore runs: add the next segment of reads to the plan whenever fewer
    /// than half a segment are left ahead of the restore, until the walk or the restore
    /// is over. A walk that fails adds what it listed and stops.
    fn keep_ahead(&mut self) {
        let segment = plan_segment();
        while self.repo.read_plan_wants_more(segment.div_ceil(2)) {
            let more = self.walk(segment);
            self.repo.extend_read_plan(self.take_reads());
            if !matches!(more, Ok(true)) || self.repo.read_plan_is_over() {
                return;
            }
        }
    }
}

/// Make `path` a directory: an existing directory is kept; anything else there (a file, a
/// symlink that might lead out of the target) is replaced, never followed.
fn make_dir(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(md) if md.is_dir() => Ok(()),
        Ok(_) => {
            std::fs::remove_file(path).ctx(format_args!("replacing {}", path.display()))?;
            std::fs::create_dir(path).ctx(format_args!("creating {}", path.display()))
        }
        Err(_) => std::fs::create_dir(path).ctx(format_args!("creating {}", path.display())),
    }
}

/// `target/rel`, made one component at a time with [`make_dir`] so that no symlink
/// already inside the target is followed.
fn make_dirs_below(target: &Path, rel: &Path) -> Result<PathBuf> {
    let mut dir = target.to_path_buf();
    for c in rel.components() {
        if let std::path::Component::Normal(name) = c {
            dir.push(name);
            make_dir(&dir)?;
        }
    }
    Ok(dir)
}

/// Create the file for `path`: a new path with `O_CREAT|O_EXCL|O_NOFOLLOW`, so nothing at
/// the path is ever opened for writing. If something is there (an earlier restore, a
/// hard link to a file elsewhere, a symlink), the file is created under a temporary name
/// in the same directory and renamed over it once complete; returns that name.
fn create_file(path: &Path) -> Result<(File, Option<PathBuf>)> {
    use std::os::unix::fs::OpenOptionsExt;
    let create = |p: &Path| {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(p)
    };
    match create(path) {
        Ok(f) => return Ok((f, None)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(Error::from(e).context(format!("creating {}", path.display()))),
    }
    let name = path.file_name().unwrap_or_default();
    for attempt in 0..16u32 {
        let tmp = path.with_file_name(temporary_name(
            name,
            &hex::encode(crate::crypto::random_bytes::<6>()?),
        ));
        match create(&tmp) {
            Ok(f) => return Ok((f, Some(tmp))),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 15 => {}
            Err(e) => return Err(Error::from(e).context(format!("creating {}", tmp.display()))),
        }
    }
    Err(Error::fatal(format!(
        "creating {}: no free temporary name",
        path.display()
    )))
}

/// The longest file name Linux file systems take (`NAME_MAX`).
const NAME_MAX: usize = 255;

/// `.tangle-restore-<hex>-<name>`, the name cut so that the whole fits in [`NAME_MAX`]
/// bytes (a name of 227 bytes or more would not fit whole); a cut never splits a UTF-8
/// character. Only the prefix marks a temporary file.
fn temporary_name(name: &std::ffi::OsStr, hex: &str) -> std::ffi::OsString {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let mut out = format!(".tangle-restore-{hex}-").into_bytes();
    let name = name.as_bytes();
    let mut keep = name.len().min(NAME_MAX.saturating_sub(out.len()));
    // Back off over continuation bytes (10xxxxxx) to the start of a character: at most
    // three, as a UTF-8 character has (a name that is not UTF-8 is cut anywhere).
    let floor = keep.saturating_sub(3);
    while keep > floor && keep < name.len() && name[keep] & 0xc0 == 0x80 {
        keep -= 1;
    }
    out.extend_from_slice(&name[..keep]);
    std::ffi::OsString::from_vec(out)
}

/// Write one file (`created` by [`create_file`]) with its metadata; returns the extended
/// attributes the target refused.
fn write_file(
    repo: &Repository,
    path: &Path,
    node: &Node,
    (file, tmp): (File, Option<PathBuf>),
    chown: bool,
    progress: &Progress,
) -> Result<Vec<Refused>, Failure> {
    let contents = write_contents(repo, &file, path, node, progress);
    let contents_failed = contents.is_err();
    let written =
        contents.and_then(|_| Ok(fsmeta::apply_metadata_to_file(&file, path, node, chown)?));
    drop(file);
    match (written, tmp) {
        (Ok(refused), None) => Ok(refused),
        (Ok(refused), Some(tmp)) => match std::fs::rename(&tmp, path) {
            Ok(()) => Ok(refused),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(Error::from(e)
                    .context(format!("replacing {}", path.display()))
                    .into())
            }
        },
        (Err(e), Some(tmp)) => {
            let _ = std::fs::remove_file(tmp);
            Err(e)
        }
        // Sized and partly written, it would look restored: a file whose contents could
        // not be restored is not left behind (one restored whose metadata was refused is).
        (Err(e), None) => {
            if contents_failed {
                let _ = std::fs::remove_file(path);
            }
            Err(e)
        }
    }
}

fn write_contents(
    repo: &Repository,
    file: &File,
    path: &Path,
    node: &Node,
    progress: &Progress,
) -> Result<(), Failure> {
    // Blobs read (or tried): after an error, the reads planned for the rest are skipped.
    let mut tried = 0;
    let written = write_blobs(repo, file, path, node, progress, &mut tried);
    if written.is_err() {
        repo.skip_planned_reads(&node.content[tried..]);
    }
    written
}

fn write_blobs(
    repo: &Repository,
    file: &File,
    path: &Path,
    node: &Node,
    progress: &Progress,
    tried: &mut usize,
) -> Result<(), Failure> {
    // Blocks never written (all-zero) stay holes: a write past the end leaves one, and
    // the length is set at the end only where the file ends in zeros (an `ftruncate`
    // per file cost 2% of a restore's CPU).
    let (mut offset, mut written_to) = (0u64, 0u64);
    for id in &node.content {
        *tried += 1;
        let (end, len) = repo
            .read_blob_then(id, BlobKind::Data, ReadMode::Shard, |data| {
                write_sparse(file, data, offset).map(|end| (end, data.len() as u64))
            })
            .map_err(|e| {
                // Not served by any remote, not rebuilt by any codeword: the data is lost
                // (exit 21), which a restore reports per file.
                let e = e.as_data_lost();
                match e.kind() {
                    crate::error::Kind::DataLost => Failure::Lost(e),
                    _ => Failure::Other(e.context(format!("restoring {}", path.display()))),
                }
            })?
            .ctx(format_args!("writing {}", path.display()))?;
        written_to = written_to.max(end);
        offset += len;
        Progress::add(&progress.bytes_done, len);
    }
    if offset != node.size {
        return Err(Error::corrupt(format!(
            "{}: snapshot says {} bytes but its blobs hold {offset}",
            path.display(),
            node.size
        ))
        .into());
    }
    if written_to < node.size {
        file.set_len(node.size)
            .ctx(format_args!("sizing {}", path.display()))?;
    }
    Ok(())
}

/// Write `data` at `offset`, skipping whole file-system blocks of zeros so they stay holes
/// (ranges skipped below the file's end read back as zeros). Returns the end of the last
/// byte written (0 if none).
fn write_sparse(file: &File, data: &[u8], offset: u64) -> std::io::Result<u64> {
    const BLOCK: u64 = 4096;
    // End (relative to `data`) of the file block that contains data[from].
    let block_end = |from: usize| (((offset + from as u64) / BLOCK + 1) * BLOCK - offset) as usize;
    let is_zero = |from: usize| {
        data[from..block_end(from).min(data.len())]
            .iter()
            .all(|&b| b == 0)
    };
    let (mut pos, mut end) = (0, 0);
    while pos < data.len() {
        let (start, zero) = (pos, is_zero(pos));
        while pos < data.len() && is_zero(pos) == zero {
            pos = block_end(pos).min(data.len());
        }
        if !zero {
            file.write_all_at(&data[start..pos], offset + start as u64)?;
            end = offset + pos as u64;
        }
    }
    Ok(end)
}

fn verify_file(repo: &Repository, path: &Path, node: &Node) -> Result<()> {
    let key = repo.key()?;
    let file = File::open(path).ctx(format_args!("verifying {}", path.display()))?;
    let mut offset = 0u64;
    for id in &node.content {
        let (_, loc) = repo
            .index()
            .get(id)
            .ok_or_else(|| Error::corrupt("blob missing from index"))?;
        // The index is authentic but says nothing that was checked against this file:
        // never allocate past its end.
        if offset + u64::from(loc.raw_len) > node.size {
            return Err(Error::corrupt(format!(
                "{}: the index says its blobs hold more than its {} bytes",
                path.display(),
                node.size
            )));
        }
        let mut buf = vec![0u8; loc.raw_len as usize];
        file.read_exact_at(&mut buf, offset)
            .ctx(format_args!("verifying {}", path.display()))?;
        if key.blob_id(&buf) != *id {
            return Err(Error::corrupt(format!(
                "{}: restored content differs at offset {offset}",
                path.display()
            )));
        }
        offset += buf.len() as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    use super::*;

    #[test]
    fn temporary_names_fit_and_cut_between_characters() {
        let hex = "0123456789ab";
        let short = temporary_name(OsStr::new("a.txt"), hex);
        assert_eq!(short, ".tangle-restore-0123456789ab-a.txt");
        for len in [226, 227, 230, 255] {
            let name = "n".repeat(len);
            let t = temporary_name(OsStr::new(&name), hex);
            assert!(t.len() <= NAME_MAX, "{len}: {} bytes", t.len());
            assert!(t.as_bytes().starts_with(b".tangle-restore-0123456789ab-n"));
        }
        assert_eq!(temporary_name(OsStr::new(&"n".repeat(226)), hex).len(), 255);
        // 2-byte characters: the cut falls between two of them, never inside one.
        let name = format!("{}x", "é".repeat(127));
        let t = temporary_name(OsStr::new(&name), hex);
        assert!(t.to_str().is_some(), "a character was split: {t:?}");
        assert_eq!(t.len(), 29 + 226);
        let name = format!("x{}", "é".repeat(127));
        let t = temporary_name(OsStr::new(&name), hex);
        assert!(t.to_str().is_some(), "a character was split: {t:?}");
        assert_eq!(t.len(), 29 + 225);
        // Not UTF-8: cut anyway, within three bytes of the limit.
        let raw = [0x80u8; 255];
        let t = temporary_name(OsStr::from_bytes(&raw), hex);
        assert!(t.len() <= NAME_MAX && t.len() >= NAME_MAX - 3);
    }
}
