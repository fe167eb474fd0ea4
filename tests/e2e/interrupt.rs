//! End-to-end: `kill -9` of a backup at any moment leaves every earlier snapshot intact
//! (docs/DESIGN.md §4, "Interrupted writes"): the repository lists only complete
//! snapshots, every earlier snapshot restores byte-identical, `verify` reports the
//! leftovers as information (never as damage), and the next backup succeeds and
//! restores byte-identical.
//!
//! The backup runs in the background; the test watches the three remote directories
//! (bounded polling, no fixed sleeps) and sends SIGKILL as soon as the run reaches a
//! chosen point: a shard being written, the first complete shard, the first extent
//! certificate, the index segment. Metadata goes to all remotes in parallel, so whether
//! a kill lands between the copies of one object depends on timing; two more tests make
//! that state certain (see [`kill_between_replicas`]).
//!
//! Restores and listings are hard assertions. What `verify` gets wrong is collected and
//! reported at the end (the repository is repaired to continue), so that one misreport
//! does not hide what the later rounds show.

use crate::shared::files::write_file;
use crate::support::awkward::build_awkward_tree;
use crate::support::command::stderr_str;
use crate::support::fsutil::files_under;
use crate::support::manifest::{Entry, manifest};
use crate::support::repo::Repo;
use crate::support::report::{run_json, verify_damage, verify_findings};
use crate::support::trees::{build_random_tree, build_simple_tree};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::{Duration, Instant};

/// Size of the tree whose backup is interrupted: 5 x 16 MiB of random data, about five
/// extents of the default size, so that every kill point comes well before the end.
const BIG_FILES: usize = 5;
const BIG_FILE_LEN: usize = 16 * 1024 * 1024;
/// Upper bound for one interrupted run to reach its kill point.
const KILL_DEADLINE: Duration = Duration::from_secs(120);

// ---------------------------------------------------------------------------------
// What the remotes hold
// ---------------------------------------------------------------------------------

/// Objects on the three remotes (union), as far as the kill points need them.
#[derive(Default, Debug, Clone)]
struct State {
    /// Complete shard objects, as `remote/extent/index`.
    shards: BTreeSet<String>,
    /// Extents (hex) with at least one complete shard somewhere.
    shard_extents: BTreeSet<String>,
    /// Unfinished writes (`.tmp-*`) below `shards/`.
    temp_shards: usize,
    /// Extent certificates (hex names), on any remote.
    certs: BTreeSet<String>,
    index: BTreeSet<String>,
    snapshots: BTreeSet<String>,
    /// `writer/seq`.
    heads: BTreeSet<String>,
}

/// Names in `dir` (empty if it does not exist; entries that vanish are skipped).
fn names(dir: &Path) -> Vec<String> {
    match fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    }
}

fn is_temp(name: &str) -> bool {
    name.starts_with(".tmp-")
}

fn state(remotes: &[PathBuf]) -> State {
    let mut s = State::default();
    for (r, root) in remotes.iter().enumerate() {
        for ext in names(&root.join("shards")) {
            if is_temp(&ext) {
                s.temp_shards += 1;
                continue;
            }
            for i in names(&root.join("shards").join(&ext)) {
                if is_temp(&i) {
                    s.temp_shards += 1;
                } else {
                    s.shards.insert(format!("{r}/{ext}/{i}"));
                    s.shard_extents.insert(ext.clone());
                }
            }
        }
        let objects = |dir: &str| {
            names(&root.join(dir))
                .into_iter()
                .filter(|n| !is_temp(n))
                .collect::<Vec<_>>()
        };
        s.certs.extend(objects("extents"));
        s.index.extend(objects("index"));
        s.snapshots.extend(objects("snapshots"));
        for w in objects("heads") {
            for seq in names(&root.join("heads").join(&w)) {
                if !is_temp(&seq) {
                    s.heads.insert(format!("{w}/{seq}"));
                }
            }
        }
    }
    s
}

impl State {
    fn summary(&self) -> String {
        format!(
            "{} shards (of {} extents), {} unfinished shard writes, {} certificates, {} index \
             segments, {} snapshots, {} heads",
            self.shards.len(),
            self.shard_extents.len(),
            self.temp_shards,
            self.certs.len(),
            self.index.len(),
            self.snapshots.len(),
            self.heads.len()
        )
    }

    /// Extents with shards on some remote but no certificate on any: what an interrupted
    /// run leaves behind before it certifies an extent.
    fn uncertified_extents(&self) -> Vec<&String> {
        self.shard_extents
            .iter()
            .filter(|e| !self.certs.contains(*e))
            .collect()
    }
}

// ---------------------------------------------------------------------------------
// Kill points
// ---------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KillPoint {
    /// A shard write is in progress (a temp file exists below `shards/`).
    ShardBeingWritten,
    /// The first new shard object is complete.
    FirstShard,
    /// The first new extent certificate is there.
    FirstCertificate,
    /// The run's index segment is there (then come the head and the snapshot; the run
    /// may finish before the kill lands).
    Index,
}

impl KillPoint {
    fn reached(self, before: &State, now: &State) -> bool {
        match self {
            KillPoint::ShardBeingWritten => now.temp_shards > before.temp_shards,
            KillPoint::FirstShard => now.shards.len() > before.shards.len(),
            KillPoint::FirstCertificate => now.certs.len() > before.certs.len(),
            KillPoint::Index => now.index.len() > before.index.len(),
        }
    }

    /// Whether the run must still be far from done at this point (so the kill must
    /// land before it finishes, and no snapshot can be visible yet).
    fn early(self) -> bool {
        self != KillPoint::Index
    }
}

struct Interrupted {
    /// The remotes before the run started.
    before: State,
    /// The run was killed (rather than finishing before the kill landed).
    killed: bool,
    /// Whether the run may have got as far as writing its snapshot.
    snapshot_possible: bool,
    status: ExitStatus,
    /// The remotes right after the run ended.
    after: State,
    stderr: String,
}

/// Start `tangle backup SRC` in the background, SIGKILL it as soon as `point` is
/// reached on the remotes.
fn interrupted_backup(repo: &Repo, src: &Path, point: KillPoint, what: &str) -> Interrupted {
    let before = state(&repo.remotes);
    let log = repo.path(&format!(
        "{}.stderr",
        what.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    ));
    let mut child = repo.spawn_backup(src, &["--json"], &log);
    let started = Instant::now();
    let (killed, status) = loop {
        if let Some(status) = child.try_wait().expect("waiting for tangle") {
            break (false, status);
        }
        if point.reached(&before, &state(&repo.remotes)) {
            child.kill().expect("SIGKILL");
            let status = child.wait().expect("waiting for the killed tangle");
            use std::os::unix::process::ExitStatusExt;
            break (status.signal() == Some(9), status);
        }
        if started.elapsed() > KILL_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{what}: the backup did not reach {point:?} within {KILL_DEADLINE:?}; remotes: {}",
                state(&repo.remotes).summary()
            );
        }
        // Polling interval, not synchronisation: the state is re-read until it changes.
        std::thread::sleep(Duration::from_micros(200));
    };
    let after = state(&repo.remotes);
    let stderr = fs::read_to_string(&log).unwrap_or_default();
    assert!(
        !stderr.contains("panicked"),
        "{what}: the backup panicked before the kill:\n{stderr}"
    );
    if point.early() {
        assert!(
            killed,
            "{what}: the backup ended ({status}) before the kill at {point:?} landed, so this \
             kill point was not tested; remotes: {}\nstderr:\n{stderr}",
            after.summary()
        );
    }
    Interrupted {
        before,
        killed,
        snapshot_possible: !point.early(),
        status,
        after,
        stderr,
    }
}

// ---------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------

/// A complete snapshot and the source as it was backed up.
struct Known {
    id: String,
    src: PathBuf,
    manifest: Vec<Entry>,
}

fn restore_identical(repo: &Repo, via: usize, k: &Known, what: &str) {
    repo.assert_restore_matches(via, &k.id, &k.src, &k.manifest, what);
}

type Finding = serde_json::Value;

/// `verify --json` must find no damage (exit 0, only information), except findings
/// `allowed` accepts. Returns the findings, or what is wrong.
fn verify_clean(
    repo: &Repo,
    what: &str,
    allowed: &dyn Fn(&Finding) -> bool,
) -> Result<Vec<Finding>, String> {
    let (code, report, out) = run_json(repo.cmd().arg("verify").arg("--json"), what);
    let damage: Vec<Finding> = verify_damage(&report)
        .into_iter()
        .filter(|f| !allowed(f))
        .collect();
    // Allowed findings are all repairable (exit 20); without them verify must exit 0.
    let want = if verify_damage(&report).iter().any(allowed) {
        20
    } else {
        0
    };
    if damage.is_empty() && code == want {
        return Ok(verify_findings(&report));
    }
    Err(format!(
        "{what}: verify exited {code} (want {want}: leftovers of an interrupted run are \
         information, not damage); findings that are damage:\n{}\nstderr:\n{}",
        serde_json::to_string_pretty(&damage).unwrap(),
        stderr_str(&out)
    ))
}

/// `repair` exits 0 and verify is clean afterwards (no damage at all).
fn repair_to_clean(repo: &Repo, what: &str, problems: &mut Vec<String>) {
    let (code, report, out) = run_json(
        repo.cmd().arg("repair").arg("--json"),
        &format!("{what}: repair"),
    );
    assert_eq!(
        code,
        0,
        "{what}: repair exited {code}:\n{report:#}\nstderr:\n{}",
        stderr_str(&out)
    );
    if let Err(e) = verify_clean(repo, &format!("{what}: verify after repair"), &|_| false) {
        problems.push(e);
    }
}

/// [`verify_clean`]; when it finds (allowed or not) damage, note what was not allowed in
/// `problems` and run `repair`, so that the next checks start from a clean repository
/// again (one misreport must not hide what later rounds show).
fn verify_or_note(
    repo: &Repo,
    what: &str,
    allowed: &dyn Fn(&Finding) -> bool,
    problems: &mut Vec<String>,
) -> Option<Vec<Finding>> {
    match verify_clean(repo, what, allowed) {
        Ok(f) => {
            if f.iter().any(|f| f["severity"] != "info") {
                repair_to_clean(repo, what, problems);
            }
            Some(f)
        }
        Err(e) => {
            problems.push(e);
            repair_to_clean(repo, what, problems);
            None
        }
    }
}

/// After an interrupted run of a backup of `src`: only complete snapshots are listed,
/// all earlier ones among them, each restores byte-identical; verify finds no damage.
fn check_after_interruption(
    repo: &Repo,
    known: &mut Vec<Known>,
    src: &Path,
    point: KillPoint,
    run: &Interrupted,
    what: &str,
    problems: &mut Vec<String>,
) {
    let what = format!(
        "{what} (killed at {point:?}: {}; remotes then: {})",
        if run.killed {
            "killed".to_string()
        } else {
            format!("it finished first with {}", run.status)
        },
        run.after.summary()
    );
    eprintln!("{what}");
    if !run.killed {
        assert!(
            run.status.success(),
            "{what}: the backup failed on its own\nstderr:\n{}",
            run.stderr
        );
    }

    // Only complete snapshots, every earlier one among them.
    let listed: BTreeSet<String> = repo
        .snapshots()
        .iter()
        .map(|s| s["id"].as_str().expect("snapshot id").to_string())
        .collect();
    for k in known.iter() {
        assert!(
            listed.contains(&k.id),
            "{what}: earlier snapshot {} is no longer listed; listed: {listed:?}",
            &k.id[..8]
        );
    }
    let new: Vec<&String> = listed
        .iter()
        .filter(|id| !known.iter().any(|k| &k.id == *id))
        .collect();
    if !run.snapshot_possible {
        assert!(
            new.is_empty(),
            "{what}: a snapshot is listed although the run was killed before its index \
             segment was written (a snapshot must only become visible once everything it \
             needs is durable): {new:?}"
        );
    }
    assert!(
        new.len() <= 1,
        "{what}: one interrupted run produced several snapshots: {new:?}"
    );
    // A snapshot the run got to write before the kill must be complete.
    if let Some(id) = new.first() {
        known.push(Known {
            id: id.to_string(),
            src: src.to_path_buf(),
            manifest: manifest(src),
        });
    }

    // Every snapshot restores byte-identical, through different remotes, with an
    // empty cache (everything comes from the remotes).
    for (i, k) in known.iter().enumerate() {
        restore_identical(repo, i % 3, k, &what);
    }

    // Leftovers are information, not damage. When the run got as far as writing its head
    // somewhere (it is then committed; the head comes before the snapshot) or making its
    // snapshot visible, what it wrote is no leftover: copies of it that are missing on
    // some remote (it was killed while replicating them) are damage `repair` fixes.
    let committed = !new.is_empty()
        || run
            .after
            .heads
            .iter()
            .any(|h| !run.before.heads.contains(h));
    let written_by_run = |path: &str| -> bool {
        let (dir, name) = path.split_once('/').unwrap_or((path, ""));
        match dir {
            "snapshots" => !run.before.snapshots.contains(name),
            "index" => !run.before.index.contains(name),
            "extents" => !run.before.certs.contains(name),
            "heads" => !run.before.heads.contains(name),
            _ => false,
        }
    };
    let allowed = |f: &Finding| {
        committed
            && f["severity"] == "repairable"
            && f["kind"] == "missing-metadata"
            && f["path"].as_str().is_some_and(written_by_run)
    };
    let Some(findings) = verify_or_note(
        repo,
        &format!("{what}: verify after the kill"),
        &allowed,
        problems,
    ) else {
        return;
    };
    let uncertified = run.after.uncertified_extents();
    if !uncertified.is_empty() && !findings.iter().any(|f| f["kind"] == "leftover") {
        problems.push(format!(
            "{what}: shards of uncertified extents {uncertified:?} are on the remotes but \
             verify does not report them as leftovers; findings:\n{}",
            serde_json::to_string_pretty(&findings).unwrap()
        ));
    }
}

/// A new backup of `src` after the interruptions succeeds, restores byte-identical, and
/// leaves a repository verify finds no damage in.
fn complete_backup(
    repo: &Repo,
    known: &mut Vec<Known>,
    src: &Path,
    what: &str,
    problems: &mut Vec<String>,
) {
    let expected = manifest(src);
    let r = repo.backup(&[src], &[]);
    assert!(r.errors.is_empty(), "{what}: backup errors: {:?}", r.errors);
    assert_eq!(
        r.json["degraded_remotes"],
        serde_json::json!([]),
        "{what}: the backup reports degraded remotes:\n{:#}",
        r.json
    );
    let k = Known {
        id: r.snapshot_id.clone(),
        src: src.to_path_buf(),
        manifest: expected,
    };
    restore_identical(repo, 1, &k, &format!("{what}: the backup after the kill"));
    if !known.iter().any(|x| x.id == k.id) {
        known.push(k);
    }
    verify_or_note(
        repo,
        &format!("{what}: verify after the next backup"),
        &|_| false,
        problems,
    );
}

// ---------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------

#[test]
fn kill_9_at_any_moment_leaves_every_earlier_snapshot_intact() {
    let repo = Repo::init();
    let small = repo.dir("small");
    build_awkward_tree(&small);
    let first = repo.backup(&[&small], &[]);
    assert!(first.errors.is_empty(), "backup errors: {:?}", first.errors);
    let mut problems = Vec::new();
    let mut known = vec![Known {
        id: first.snapshot_id.clone(),
        src: small.clone(),
        manifest: manifest(&small),
    }];

    // Each round backs up new data and is killed at the given points (twice in a row in
    // one round), then a backup of the same data runs to the end.
    let rounds: &[&[KillPoint]] = &[
        &[KillPoint::ShardBeingWritten],
        &[KillPoint::FirstShard],
        &[KillPoint::FirstCertificate, KillPoint::FirstCertificate],
        &[KillPoint::Index],
    ];
    for (n, points) in rounds.iter().enumerate() {
        let big = repo.dir(&format!("big-{n}"));
        build_random_tree(&big, 10 + n as u64, BIG_FILES, BIG_FILE_LEN);
        for (m, &point) in points.iter().enumerate() {
            let what = format!("round {n}, kill {m}");
            let run = interrupted_backup(&repo, &big, point, &what);
            check_after_interruption(&repo, &mut known, &big, point, &run, &what, &mut problems);
        }
        complete_backup(
            &repo,
            &mut known,
            &big,
            &format!("round {n}"),
            &mut problems,
        );
    }

    // Snapshot 1 is still there and whole after all of it.
    restore_identical(&repo, 2, &known[0], "at the end");
    assert!(
        problems.is_empty(),
        "every snapshot stayed intact and restorable, but verify got the leftovers of \
         interrupted runs wrong {} time(s):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

// ---------------------------------------------------------------------------------
// A kill between the copies of one metadata object
// ---------------------------------------------------------------------------------

/// Every file below `dir` with its contents.
fn snapshot_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .map(|p| {
            let data = fs::read(&p).unwrap();
            (p, data)
        })
        .collect()
}

/// Metadata is written to every remote in parallel, so a kill can land after the first
/// copy of an object is written and before the others. The polling in
/// [`interrupted_backup`] catches that moment only sometimes; this test makes it certain:
/// it kills the run at `point` and then removes the other copies of the one object the
/// run was writing (and, for the index, what the run wrote after it, with the client
/// cache as it was before the run). That is exactly what a kill at that moment leaves.
fn kill_between_replicas(point: KillPoint, dir: &str) {
    let repo = Repo::init();
    let small = repo.dir("small");
    build_simple_tree(&small);
    let first = repo.backup(&[&small], &[]);
    let mut known = vec![Known {
        id: first.snapshot_id.clone(),
        src: small.clone(),
        manifest: manifest(&small),
    }];
    let big = repo.dir("big");
    build_random_tree(&big, 50, BIG_FILES, BIG_FILE_LEN);
    let cache = repo.home.join("cache");
    let cache_before = snapshot_files(&cache);

    let what = format!("killed between the copies of a new {dir}/ object");
    let mut run = interrupted_backup(&repo, &big, point, &what);
    let objects = |s: &State| -> BTreeSet<String> {
        match dir {
            "extents" => s.certs.clone(),
            "index" => s.index.clone(),
            _ => unreachable!(),
        }
    };
    let new = objects(&run.after)
        .difference(&objects(&run.before))
        .next()
        .cloned()
        .unwrap_or_else(|| panic!("{what}: the run wrote no {dir}/ object"));
    let path = format!("{dir}/{new}");
    let holders: Vec<&PathBuf> = repo
        .remotes
        .iter()
        .filter(|r| r.join(&path).exists())
        .collect();
    for r in &holders[1..] {
        fs::remove_file(r.join(&path)).unwrap();
    }
    if dir == "index" {
        // What comes after the index: the head, the snapshot, the client's memory of it.
        for r in &repo.remotes {
            for id in run.after.snapshots.difference(&run.before.snapshots) {
                let _ = fs::remove_file(r.join("snapshots").join(id));
            }
            for h in run.after.heads.difference(&run.before.heads) {
                let _ = fs::remove_file(r.join("heads").join(h));
            }
        }
        let _ = fs::remove_dir_all(&cache);
        for (p, data) in &cache_before {
            write_file(p, data);
        }
    }
    run.after = state(&repo.remotes);
    run.snapshot_possible = false;
    eprintln!("{what}: {path} left on {} only", holders[0].display());

    let mut problems = Vec::new();
    check_after_interruption(&repo, &mut known, &big, point, &run, &what, &mut problems);
    complete_backup(&repo, &mut known, &big, &what, &mut problems);
    restore_identical(&repo, 2, &known[0], &format!("{what}: at the end"));
    assert!(
        problems.is_empty(),
        "every snapshot stayed intact and restorable, but verify got the leftovers of the \
         interrupted run wrong {} time(s):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn kill_between_the_copies_of_an_extent_certificate_leaves_only_leftovers() {
    kill_between_replicas(KillPoint::FirstCertificate, "extents");
}

#[test]
fn kill_between_the_copies_of_an_index_segment_leaves_only_leftovers() {
    kill_between_replicas(KillPoint::Index, "index");
}
