//! `tangle mount`: snapshots as a read-only FUSE file system, through the real kernel
//! (`/dev/fuse`; mounting as root with mount(2)). Skipped, with a message, where
//! `/dev/fuse` cannot be opened or the tests do not run as root.

use crate::support::command::{run_code_saying, tangle_std};
use crate::support::fsutil::is_root;
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::remote_dirs::{flip_bytes, object_paths};
use crate::support::repo::Repo;
use crate::support::trees::build_simple_tree;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Whether this machine lets the tests mount a FUSE file system.
fn fuse_available() -> bool {
    let usable = is_root()
        && fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/fuse")
            .is_ok();
    if !usable {
        eprintln!("skipped: FUSE needs root and /dev/fuse here, and this test has not both");
    }
    usable
}

/// Whether `dir` is a mount point now (from /proc/self/mountinfo).
fn mounted(dir: &Path) -> bool {
    let info = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let dir = dir.to_string_lossy();
    info.lines()
        .any(|l| l.split(' ').nth(4).is_some_and(|m| m == dir))
}

/// A `tangle mount` running in the background; unmounted and killed when dropped, so a
/// failed assertion leaves no mount behind the temporary directory.
struct Mounted {
    child: Option<Child>,
    at: PathBuf,
    log: PathBuf,
}

impl Mounted {
    /// `tangle -r remotes[0] mount ARGS... AT`, once the mount is there; `None` (the test
    /// is skipped) where the kernel does not let root mount FUSE.
    fn start(repo: &Repo, args: &[&str], name: &str) -> Option<Mounted> {
        let at = repo.dir(name);
        let log = repo.path(&format!("{name}.stderr"));
        let mut child = tangle_std(&repo.home)
            .arg("-r")
            .arg(&repo.remotes[0])
            .arg("mount")
            .args(args)
            .arg(&at)
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log).unwrap())
            .spawn()
            .expect("spawning tangle mount");
        let started = Instant::now();
        loop {
            let said = fs::read_to_string(&log).unwrap_or_default();
            if said.contains("tangle: mounted") {
                break;
            }
            if let Some(status) = child.try_wait().expect("waiting for tangle mount") {
                // The kernel refused the mount itself (a container without the right to
                // mount): as good as no /dev/fuse. Anything else is a failure.
                if said.contains("cannot mount at") && said.contains("Operation not permitted") {
                    eprintln!("skipped: this machine does not let root mount FUSE:\n{said}");
                    return None;
                }
                panic!("tangle mount ended ({status}) before mounting:\n{said}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "tangle mount did not mount in two minutes:\n{said}"
            );
            // Polling interval, not synchronisation: stderr is re-read until it says so.
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(mounted(&at), "{} is not a mount point", at.display());
        Some(Mounted {
            child: Some(child),
            at,
            log,
        })
    }

    /// Send `signal` (or, with `None`, unmount from outside as `umount` does) and
    /// return the exit code and stderr.
    fn stop(mut self, signal: Option<libc::c_int>) -> (Option<i32>, String) {
        let mut child = self.child.take().expect("running");
        match signal {
            Some(s) => assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, s) }, 0),
            None => rustix::mount::unmount(&self.at, rustix::mount::UnmountFlags::empty())
                .expect("umount"),
        }
        let asked = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("waiting for tangle mount") {
                break status;
            }
            assert!(
                asked.elapsed() < Duration::from_secs(30),
                "tangle mount still runs 30 s after it was told to stop"
            );
            // Polling interval, not synchronisation: the exit is re-checked until seen.
            std::thread::sleep(Duration::from_millis(5));
        };
        (
            status.code(),
            fs::read_to_string(&self.log).unwrap_or_default(),
        )
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = rustix::mount::unmount(&self.at, rustix::mount::UnmountFlags::DETACH);
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The entries of a directory, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("readdir {}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn link(path: &Path) -> String {
    fs::read_link(path)
        .unwrap_or_else(|e| panic!("readlink {}: {e}", path.display()))
        .to_string_lossy()
        .into_owned()
}

/// Where `src` (absolute, as backed up) is under a snapshot directory of the mount.
fn under(snapshot_dir: &Path, src: &Path) -> PathBuf {
    snapshot_dir.join(src.strip_prefix("/").unwrap())
}

#[test]
fn a_mount_shows_the_snapshots_as_restic_does_reads_around_a_lost_remote_and_ends_on_sigterm() {
    if !fuse_available() {
        return;
    }
    let (repo, src) = Repo::with_simple_tree();
    std::os::unix::fs::symlink("sub/c.txt", src.join("to-c")).unwrap();
    let first = manifest(&src);
    repo.backup(&[&src], &["--tag", "first"]);
    fs::write(src.join("added.txt"), b"only in the second snapshot\n").unwrap();
    let second = manifest(&src);
    repo.backup(&[&src], &["--tag", "second,weekly"]); // two tags, as in restic
    let ids = repo.snapshot_ids();
    assert_eq!(ids.len(), 2);

    let Some(m) = Mounted::start(&repo, &[], "mnt") else {
        return;
    };
    assert_eq!(names(&m.at), ["hosts", "ids", "snapshots", "tags"]);
    let snapshots = m.at.join("snapshots");
    let dirs: Vec<String> = names(&snapshots)
        .into_iter()
        .filter(|n| n != "latest")
        .collect();
    assert_eq!(dirs.len(), 2, "{dirs:?}");
    assert_eq!(link(&snapshots.join("latest")), dirs[1]);
    assert_eq!(names(&m.at.join("tags")), ["first", "second", "weekly"]);
    assert_eq!(
        link(&m.at.join("tags/first").join(&dirs[0])),
        format!("../../snapshots/{}", dirs[0])
    );
    assert_eq!(link(&m.at.join("tags/weekly/latest")), dirs[1]);
    let hosts = names(&m.at.join("hosts"));
    assert_eq!(hosts.len(), 1, "{hosts:?}");
    assert_eq!(
        names(&m.at.join("hosts").join(&hosts[0])),
        [&dirs[0], &dirs[1], "latest"]
    );
    let short: Vec<String> = ids.iter().map(|id| id[..8].to_string()).collect();
    let mut sorted = short.clone();
    sorted.sort();
    assert_eq!(names(&m.at.join("ids")), sorted);
    let mut targets: Vec<String> = short
        .iter()
        .map(|s| link(&m.at.join("ids").join(s)))
        .collect();
    targets.sort();
    assert_eq!(
        targets,
        dirs.iter()
            .map(|d| format!("../snapshots/{d}"))
            .collect::<Vec<_>>()
    );

    // A remote's shards gone before any file is read (so that no cache, the kernel's or
    // tangle's, holds their data): both snapshots, byte for byte and with their
    // metadata, are read around it, and the remote is named at the end. (Gone only
    // after the newest was read, the first's blobs, which the newest shares, could come
    // from what that read left cached: in a clean-clone run on 2026-12-01 the remote went
    // unnamed.)
    fs::remove_dir_all(repo.remotes[1].join("shards")).unwrap();
    assert!(object_paths(&repo.remotes[1], "shards").is_empty());
    assert_tree_matches(
        &second,
        &under(&snapshots.join("latest"), &src),
        "latest, mounted, remote 1 gone",
    );
    assert_tree_matches(
        &first,
        &under(&snapshots.join(&dirs[0]), &src),
        "first, remote 1 gone",
    );

    let at = m.at.clone();
    let (code, stderr) = m.stop(Some(libc::SIGTERM));
    assert_eq!(code, Some(0), "stderr:\n{stderr}");
    assert!(!mounted(&at), "still mounted after SIGTERM");
    assert!(stderr.contains("tangle: unmounted"), "{stderr}");
    let remote1 = repo.remotes[1].to_string_lossy().into_owned();
    assert!(
        stderr
            .lines()
            .any(|l| l.contains("read around") && l.contains(&remote1)),
        "the remote read around is not named:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn one_snapshot_mounts_at_the_root_and_umount_ends_it() {
    if !fuse_available() {
        return;
    }
    let repo = Repo::init();
    let src = repo.dir("src");
    build_simple_tree(&src);
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);

    // One remote lies: every shard it holds has bytes flipped (same sizes, so only the
    // checks can tell). The mount reads around it and names it at the end.
    for shard in object_paths(&repo.remotes[2], "shards") {
        flip_bytes(&repo.remotes[2].join(shard));
    }
    let Some(m) = Mounted::start(&repo, &["latest"], "one") else {
        return;
    };
    assert_tree_matches(
        &expected,
        &under(&m.at, &src),
        "one snapshot mounted, remote 2 lying",
    );
    // Read-only: nothing can be written.
    assert!(fs::write(under(&m.at, &src).join("new.txt"), b"x").is_err());
    let at = m.at.clone();
    let (code, stderr) = m.stop(None);
    assert_eq!(code, Some(0), "stderr:\n{stderr}");
    assert!(!mounted(&at));
    let liar = repo.remotes[2].to_string_lossy().into_owned();
    assert!(
        (stderr.lines())
            .any(|l| l.contains("read around") && l.contains(&liar) && l.contains("corrupt")),
        "the lying remote is not named:\n{stderr}"
    );

    // A mount point that is not there: one line, exit 1, nothing mounted.
    let missing = repo.path("no-such-dir");
    let o = run_code_saying(
        repo.cmd().arg("mount").arg(&missing),
        1,
        "create the directory first",
    );
    assert!(!mounted(&missing), "{o:?}");
    // A mount point that is a file: one line, exit 1.
    let file = repo.path("a-file");
    fs::write(&file, b"not a directory").unwrap();
    let o = run_code_saying(repo.cmd().arg("mount").arg(&file), 1, "is not a directory");
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).lines().count(),
        1,
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // An unknown snapshot: exit 1, as for every command that takes one.
    run_code_saying(
        repo.cmd()
            .arg("mount")
            .arg("feedf00d")
            .arg(repo.dir("mnt2")),
        1,
        "no snapshot matches",
    );
}
