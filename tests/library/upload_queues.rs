//! Per-remote upload queues: a remote that stops taking data holds the backup up only
//! once it is `--upload-queue` extents behind; the other remotes get exactly that many
//! extents ahead, the backup says whom it waits for, and it completes (restorable) once
//! the slow remote takes data again.
//!
//! Library-level, over in-memory remotes; the slow remote is a [`Faulty`] wrapper whose
//! writes are held back. Every wait below is for a condition, bounded by a deadline.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::memory_repo::{backup_options, memory_remotes, open_unlocked, source_dir};
use crate::shared::files::pseudo_random;
use crate::shared::init::small_init_options;
use tangle::ops::Progress;
use tangle::ops::backup::{self, BackupOptions};
use tangle::ops::restore::{self, RestoreOptions};
use tangle::remote::faulty::Faulty;
use tangle::remote::{DynRemote, MemoryRemote, Remote};
use tangle::repo::{InitOptions, init_remotes};

const PW: &[u8] = b"pw";
const EXTENT: usize = 64 * 1024;
const SLOW: usize = 2;

fn init_options() -> InitOptions {
    small_init_options(EXTENT as u32)
}

/// Extents with at least one shard on `remote`.
fn extents_on(remote: &DynRemote) -> usize {
    let listed = futures::executor::block_on(remote.list("shards/")).expect("list");
    listed
        .iter()
        .filter_map(|o| o.path.split('/').nth(1).map(str::to_string))
        .collect::<BTreeSet<_>>()
        .len()
}

fn certificates_on(remote: &DynRemote) -> usize {
    futures::executor::block_on(remote.list("extents/"))
        .expect("list")
        .len()
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::yield_now();
    }
}

fn slow_remote_holds_backup_up_by_its_queue(queue: usize) {
    let fast = memory_remotes(&format!("queue-{queue}"), SLOW);
    let slow = Arc::new(Faulty::new(Arc::new(MemoryRemote::new(&format!(
        "memory://queue-{queue}-slow"
    )))));
    let mut remotes = fast.clone();
    remotes.push(slow.clone());
    init_remotes(remotes.clone(), &init_options(), PW).expect("init");

    let (mut repo, _cache) = open_unlocked(&remotes, PW);

    let (_tmp, src) = source_dir();
    std::fs::create_dir_all(&src).unwrap();
    // Enough for well over `queue + 2` extents.
    for f in 0..4u64 {
        std::fs::write(
            src.join(format!("f{f}.bin")),
            pseudo_random(f + 1, (queue + 3) * EXTENT),
        )
        .unwrap();
    }

    slow.hold_writes();
    let progress = Progress::default();
    let opts = BackupOptions {
        upload_queue: Some(queue),
        ..backup_options(&src, "queues")
    };
    let report = std::thread::scope(|s| {
        let backup = s.spawn(|| backup::run(&repo, &opts, &progress));
        wait_until("the backup waits for the slow remote", || {
            Progress::get(&progress.waiting_for_remote) == SLOW as u64 + 1
        });
        let blocked_since = Instant::now();
        // The backup is blocked on the slow remote's full queue, so nothing more can be
        // handed to the fast remotes: they finish exactly `queue` extents.
        for r in &fast {
            wait_until("a fast remote stores its queued shards", || {
                extents_on(r) >= queue
            });
            assert_eq!(
                extents_on(r),
                queue,
                "{}: the fast remotes run exactly the queue ahead",
                r.url()
            );
            assert_eq!(
                certificates_on(r),
                0,
                "no certificate before all of an extent's shards are stored"
            );
        }
        assert!(slow.writes_waiting() > 0);
        assert_eq!(Progress::get(&progress.waiting_for_remote), SLOW as u64 + 1);
        assert!(!backup.is_finished());
        let blocked_for = blocked_since.elapsed();
        slow.release_writes();
        (backup.join().expect("backup thread"), blocked_for)
    });
    let (report, blocked_for) = (report.0.expect("backup"), report.1);

    assert!(report.extents as usize > queue + 2, "{report:?}");
    // The report names the slow remote with at least the time we saw it blocked.
    let waited = report
        .upload_waits
        .iter()
        .find(|w| w.remote == slow.url())
        .unwrap_or_else(|| panic!("slow remote not in {:?}", report.upload_waits));
    assert!(
        waited.seconds >= blocked_for.as_secs_f64(),
        "{waited:?} < {blocked_for:?}"
    );
    assert_eq!(Progress::get(&progress.waiting_for_remote), 0);
    for r in &remotes {
        assert_eq!(extents_on(r), report.extents as usize, "{}", r.url());
        assert_eq!(certificates_on(r), report.extents as usize, "{}", r.url());
    }

    // Everything arrived: the snapshot restores byte for byte.
    repo.reload_index().expect("index");
    let target = tempfile::tempdir().unwrap();
    restore::run(
        &repo,
        &RestoreOptions {
            spec: "latest".into(),
            filter: Default::default(),
            target: target.path().to_path_buf(),
            includes: vec![],
            excludes: vec![],
            verify: false,
            dry_run: false,
            overwrite: Default::default(),
            delete: false,
        },
        &Progress::default(),
    )
    .expect("restore");
    for f in 0..4u64 {
        let name = format!("f{f}.bin");
        let restored = target
            .path()
            .join(src.strip_prefix("/").unwrap_or(Path::new("")))
            .join(&name);
        assert!(
            std::fs::read(&restored).expect("restored file")
                == std::fs::read(src.join(&name)).unwrap(),
            "{name} differs after restore"
        );
    }
}

#[test]
fn queue_of_one_extent() {
    slow_remote_holds_backup_up_by_its_queue(1);
}

#[test]
fn queue_of_three_extents() {
    slow_remote_holds_backup_up_by_its_queue(3);
}
