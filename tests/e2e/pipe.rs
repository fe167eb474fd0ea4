//! A reader that stops reading is a normal end: every command that prints (in particular
//! every `--json` command) exits 0 without a panic when its standard output is closed,
//! as `tangle ... --json | head -c 1` does. Rust ignores SIGPIPE, so a plain `println!`
//! would panic with exit 101 on the first write after the reader has gone.

use crate::shared::files::write_file;
use crate::support::command::{CMD_TIMEOUT, tangle_std};
use crate::support::repo::Repo;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How the reader treats the pipe.
#[derive(Clone, Copy, Debug)]
enum Reader {
    /// Close before reading anything: the first write of the command fails, whatever
    /// the size of its output (a pipe buffer would otherwise hide small outputs).
    CloseAtOnce,
    /// Read one byte, then close: exactly `| head -c 1`.
    HeadOneByte,
}

/// [`tangle_std`] for `repo` (its HOME, the password, stdin closed), `-r` the first remote
/// of `repo` unless `with_repo` is false.
fn tangle(repo: &Repo, with_repo: bool) -> Command {
    let mut c = tangle_std(&repo.home);
    if with_repo {
        c.arg("-r").arg(&repo.remotes[0]);
    }
    c
}

/// Run `cmd` with stdout on a pipe that `reader` closes early; require exit 0 and no
/// panic. Fails after a timeout instead of hanging.
fn run_into_closed_pipe(mut cmd: Command, reader: Reader, what: &str) {
    let what = format!("{what} ({reader:?})");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start tangle: {e}"));
    let mut stdout = child.stdout.take().expect("stdout is piped");
    if let Reader::HeadOneByte = reader {
        let mut byte = [0u8; 1];
        let _ = stdout.read(&mut byte);
    }
    drop(stdout);
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let stderr_thread = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + CMD_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for tangle") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: timed out");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let err = stderr_thread.join().unwrap_or_default();
    assert!(
        !err.contains("panicked"),
        "{what}: panicked\nstderr:\n{err}"
    );
    assert_eq!(
        status.code(),
        Some(0),
        "{what}: expected exit 0 with a closed stdout\nstderr:\n{err}"
    );
}

/// Both ways of closing the pipe; `make` builds a fresh command for each.
fn both_readers(what: &str, make: impl Fn() -> Command) {
    for reader in [Reader::CloseAtOnce, Reader::HeadOneByte] {
        run_into_closed_pipe(make(), reader, what);
    }
}

/// A repository with one snapshot of a tree with enough files that `ls --json` prints
/// far more than a pipe buffer (64 KiB), so `head -c 1` closes it mid-output.
fn repo_with_snapshot() -> (Repo, std::path::PathBuf) {
    let repo = Repo::init();
    let src = repo.dir("src");
    for d in 0..20 {
        let dir = src.join(format!("directory-with-a-long-name-{d:02}"));
        for f in 0..50 {
            write_file(
                &dir.join(format!("file-with-a-long-name-{f:03}.txt")),
                format!("file {d}/{f}\n").as_bytes(),
            );
        }
    }
    repo.backup(&[&src], &[]);
    (repo, src)
}

fn args(repo: &Repo, with_repo: bool, args: &[&str]) -> Command {
    let mut c = tangle(repo, with_repo);
    c.args(args);
    c
}

#[test]
fn help_version_and_completions_into_a_closed_pipe() {
    let repo = Repo::uninit();
    let mut cases: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["-h"],
        vec!["--version"],
        vec!["help"],
        vec!["remote", "--help"],
        vec!["completions", "bash"],
        vec!["completions", "zsh"],
        vec!["completions", "fish"],
    ];
    for sub in [
        "init",
        "backup",
        "snapshots",
        "ls",
        "restore",
        "dump",
        "verify",
        "repair",
        "remote",
        "completions",
    ] {
        cases.push(vec![sub, "--help"]);
        cases.push(vec!["help", sub]);
    }
    for sub in ["list", "add", "replace", "rebalance"] {
        cases.push(vec!["remote", sub, "--help"]);
    }
    for a in &cases {
        both_readers(&a.join(" "), || args(&repo, false, a));
    }
}

#[test]
fn init_into_a_closed_pipe() {
    for json in [true, false] {
        for reader in [Reader::CloseAtOnce, Reader::HeadOneByte] {
            // A new repository each time: init refuses to initialise twice.
            let repo = Repo::uninit();
            let mut c = tangle(&repo, false);
            c.arg("init");
            if json {
                c.arg("--json");
            }
            for r in &repo.remotes {
                c.arg("--remote").arg(r);
            }
            run_into_closed_pipe(c, reader, &format!("init (json: {json})"));
        }
    }
}

#[test]
fn backup_into_a_closed_pipe() {
    let (repo, src) = repo_with_snapshot();
    write_file(&src.join("new-file"), b"changed");
    for extra in [&["--json"][..], &[][..], &["--json", "--dry-run"][..]] {
        both_readers(&format!("backup {extra:?}"), || {
            let mut c = args(&repo, true, &["backup", "--no-progress"]);
            c.args(extra).arg(&src);
            c
        });
    }
}

/// Every read-only command, with `--json` and as human text.
#[test]
fn reading_commands_into_a_closed_pipe() {
    let (repo, src) = repo_with_snapshot();
    let one_file = src.join("directory-with-a-long-name-00/file-with-a-long-name-000.txt");
    let one_file = one_file.to_str().expect("temp paths are UTF-8");
    let src_dir = src.to_str().expect("temp paths are UTF-8");
    let cases: Vec<Vec<&str>> = vec![
        vec!["snapshots", "--json"],
        vec!["snapshots"],
        vec!["ls", "latest", "--json"],
        vec!["ls", "latest"],
        vec!["ls", "-l", "latest"],
        vec!["ls", "--json", "latest", one_file],
        vec!["verify", "--json"],
        vec!["verify"],
        vec!["verify", "-v"],
        vec!["verify", "--read-data", "--json"],
        vec![
            "verify",
            "--read-data-subset",
            "50%",
            "--seed",
            "1",
            "--json",
        ],
        vec!["repair", "--json"],
        vec!["repair", "--dry-run", "--json"],
        vec!["repair", "--dry-run", "-v"],
        vec!["remote", "list", "--json"],
        vec!["remote", "list"],
        vec!["remote", "rebalance", "--dry-run", "--json"],
        vec!["remote", "rebalance", "--dry-run"],
        vec!["dump", "latest", one_file],
        vec!["dump", "latest", src_dir],
        vec!["dump", "latest", "/"],
    ];
    for a in &cases {
        both_readers(&a.join(" "), || args(&repo, true, a));
    }
    // Restore writes files, so each run gets its own target.
    let n = std::cell::Cell::new(0);
    for json in [true, false] {
        both_readers(&format!("restore (json: {json})"), || {
            n.set(n.get() + 1);
            let target = repo.path(&format!("target-{}", n.get()));
            let mut c = args(&repo, true, &["restore", "latest", "--no-progress"]);
            c.arg("--target").arg(&target);
            if json {
                c.arg("--json");
            }
            c
        });
    }
}

/// `remote add` and `remote replace` change the repository; each run adds (or replaces
/// with) a new directory.
#[test]
fn remote_changes_into_a_closed_pipe() {
    let (repo, _src) = repo_with_snapshot();
    let n = std::cell::Cell::new(0);
    let new_dir = |prefix: &str| {
        n.set(n.get() + 1);
        repo.path(&format!("{prefix}-{}", n.get()))
    };
    for json in [true, false] {
        both_readers(&format!("remote add (json: {json})"), || {
            let mut c = args(&repo, true, &["remote", "add"]);
            c.arg(new_dir("added"));
            if json {
                c.arg("--json");
            }
            c
        });
    }
    for json in [true, false] {
        both_readers(&format!("remote replace (json: {json})"), || {
            // Replace the last remote (an added one) by another new directory.
            let mut c = args(&repo, true, &["remote", "replace"]);
            let list = args(&repo, true, &["remote", "list", "--json"])
                .output()
                .expect("remote list");
            let list: serde_json::Value =
                serde_json::from_slice(&list.stdout).expect("remote list --json is JSON");
            let last = list
                .as_array()
                .and_then(|a| a.last())
                .and_then(|r| r["url"].as_str())
                .expect("remote list has URLs")
                .to_string();
            c.arg(last).arg(new_dir("replacement"));
            if json {
                c.arg("--json");
            }
            c
        });
    }
}

/// `dump` of a file much larger than its 1 MiB output buffer and the pipe buffer.
#[test]
fn dump_of_a_large_file_into_a_closed_pipe() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let big = src.join("big");
    write_file(&big, &noise(12 << 20));
    repo.backup(&[&src], &[]);
    let big: &Path = &big;
    both_readers("dump of a 12 MiB file", || {
        let mut c = args(&repo, true, &["dump", "latest"]);
        c.arg(big);
        c
    });
    // The same file inside a tar archive of its directory.
    let dir: &Path = &src;
    both_readers("dump of a directory holding a 12 MiB file", || {
        let mut c = args(&repo, true, &["dump", "latest"]);
        c.arg(dir);
        c
    });
}

/// Incompressible bytes (xorshift), so the dump really streams `len` bytes.
fn noise(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A full stdout is not a closed one: help, version, a completion script and a JSON
/// listing written to /dev/full (every write fails with "no space") exit 1 with one
/// `tangle: error:` line, never 0 as if the text had been delivered.
#[test]
fn a_full_stdout_is_a_fatal_error() {
    let repo = Repo::init();
    let cases: [&[&str]; 5] = [
        &["--help"],
        &["--version"],
        &["backup", "--help"],
        &["completions", "bash"],
        &["snapshots", "--json"],
    ];
    for case in cases {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = tangle_std(&repo.home)
            .arg("-r")
            .arg(&repo.remotes[0])
            .args(case)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("run tangle");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{case:?}: {stderr}");
        assert!(
            stderr
                .lines()
                .filter(|l| l.starts_with("tangle: error:"))
                .count()
                == 1,
            "{case:?}: {stderr}"
        );
    }
}
