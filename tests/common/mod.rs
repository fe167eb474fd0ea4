//! Shared helpers for the end-to-end tests of the `tangle` binary.
//!
//! * [`Repo`]: a repository over three local remote directories inside one temp dir,
//!   with an isolated HOME / cache / config directory and the password in the env.
//! * [`manifest`] / [`assert_same_tree`]: a sorted, printable description of a tree
//!   (kind, mode, owner, mtime with nanoseconds, size, content hash, symlink target,
//!   hard-link group) so that failures show a per-entry diff.
//! * [`build_awkward_tree`], [`build_real_tree`], [`build_simple_tree`]: source trees.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::hash::{DefaultHasher, Hasher};
use std::io::{Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

pub const PASSWORD: &str = "correct horse battery staple";
/// Upper bound for any single command, so that a hang (e.g. opening a FIFO, waiting
/// for a password on a terminal) fails the test instead of blocking CI forever.
pub const CMD_TIMEOUT: Duration = Duration::from_secs(240);

pub const MIB: u64 = 1024 * 1024;

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tangle")
}

// ---------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------

/// A command running `program pre_args...` with a clean environment: only PATH, and
/// HOME / XDG dirs pointing at `home` (so no user cache, config or profile leaks in).
/// No password and no repository are set.
pub fn clean_command(program: &OsStr, pre_args: &[&OsStr], home: &Path) -> Command {
    let mut std_cmd = clean_std_command(program, home);
    std_cmd.args(pre_args);
    let mut c = Command::from_std(std_cmd);
    c.timeout(CMD_TIMEOUT);
    c
}

/// The environment every test command runs in: only PATH, and HOME / XDG dirs under
/// `home`, so no user cache, config or profile leaks in.
fn clean_std_command(program: &OsStr, home: &Path) -> std::process::Command {
    fs::create_dir_all(home).unwrap();
    let mut c = std::process::Command::new(program);
    c.env_clear();
    if let Some(p) = std::env::var_os("PATH") {
        c.env("PATH", p);
    }
    c.env("HOME", home)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("NO_COLOR", "1")
        .env("TERM", "dumb");
    c
}

/// `tangle` with a clean environment and no password / repository.
pub fn tangle_bare(home: &Path) -> Command {
    clean_command(OsStr::new(bin()), &[], home)
}

pub fn stdout_str(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr_str(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Run and require exit code 0; returns the output.
pub fn run_ok(cmd: &mut Command) -> Output {
    cmd.assert().success().get_output().clone()
}

/// Run and require exactly `code`; returns the output.
pub fn run_code(cmd: &mut Command, code: i32) -> Output {
    cmd.assert().code(code).get_output().clone()
}

/// Run and return the output whatever the exit status (but fail on timeout).
pub fn run_any(cmd: &mut Command) -> Output {
    cmd.output().expect("failed to run tangle (timeout?)")
}

/// The binary exited normally (no panic, no signal), whatever its exit code.
pub fn assert_no_panic(o: &Output, what: &str) {
    let err = stderr_str(o);
    assert_ne!(
        o.status.code(),
        Some(101),
        "{what}: exit code 101 (panic)\nstderr:\n{err}"
    );
    assert!(
        !err.contains("panicked"),
        "{what}: binary panicked\nstderr:\n{err}"
    );
    assert!(o.status.code().is_some(), "{what}: killed by a signal");
}

/// Common checks for a failing command: a message on stderr, no panic.
pub fn assert_clean_failure(o: &Output, what: &str) {
    let err = stderr_str(o);
    assert!(
        !o.status.success(),
        "{what}: expected failure, got success\nstdout:\n{}\nstderr:\n{err}",
        stdout_str(o)
    );
    assert_no_panic(o, what);
    assert!(
        !err.trim().is_empty(),
        "{what}: failed without any message on stderr (exit {:?})",
        o.status.code()
    );
}

// ---------------------------------------------------------------------------------
// Repository fixture
// ---------------------------------------------------------------------------------

static HOME_COUNTER: AtomicUsize = AtomicUsize::new(0);

pub struct Repo {
    /// Everything lives under here: remotes, homes, sources, restore targets.
    pub tmp: TempDir,
    /// Canonical path of `tmp`.
    pub root: PathBuf,
    /// The three remote directories (absolute).
    pub remotes: Vec<PathBuf>,
    /// HOME used by default (holds the client cache).
    pub home: PathBuf,
}

impl Repo {
    /// Paths only, nothing created except the temp dir and home.
    pub fn uninit() -> Repo {
        let tmp = tempfile::Builder::new()
            .prefix("tangle-e2e-")
            .tempdir()
            .unwrap();
        let root = fs::canonicalize(tmp.path()).unwrap();
        let remotes = (0..3).map(|i| root.join(format!("remote{i}"))).collect();
        let home = root.join("home");
        fs::create_dir_all(&home).unwrap();
        Repo {
            tmp,
            root,
            remotes,
            home,
        }
    }

    /// A fresh repository with the default coding over three (not yet existing) dirs.
    pub fn init() -> Repo {
        let repo = Repo::uninit();
        let out = run_ok(&mut repo.init_cmd(&repo.remotes, &[]));
        let text = stdout_str(&out);
        assert!(
            text.contains("4 data + 3 parity"),
            "init output does not mention the coding \"4 data + 3 parity\":\n{text}"
        );
        repo
    }

    pub fn init_cmd(&self, remotes: &[PathBuf], extra: &[&str]) -> Command {
        let mut c = self.cmd_bare();
        c.env("TANGLE_PASSWORD", PASSWORD).arg("init");
        for r in remotes {
            c.arg("--remote").arg(r);
        }
        c.args(extra);
        c
    }

    /// Clean env, default HOME, no password, no repository.
    pub fn cmd_bare(&self) -> Command {
        tangle_bare(&self.home)
    }

    /// Clean env + password; no repository.
    pub fn cmd_no_repo(&self) -> Command {
        let mut c = self.cmd_bare();
        c.env("TANGLE_PASSWORD", PASSWORD);
        c
    }

    /// `tangle -r remotes[i]` with password.
    pub fn cmd_via(&self, i: usize) -> Command {
        let mut c = self.cmd_no_repo();
        c.arg("-r").arg(&self.remotes[i]);
        c
    }

    /// `tangle -r remotes[0]` with password.
    pub fn cmd(&self) -> Command {
        self.cmd_via(0)
    }

    /// A new, empty HOME (so an empty client cache: everything must come from remotes).
    pub fn fresh_home(&self) -> PathBuf {
        let n = HOME_COUNTER.fetch_add(1, Ordering::SeqCst);
        let h = self.root.join(format!("home-fresh-{n}"));
        fs::create_dir_all(&h).unwrap();
        h
    }

    /// `tangle -r remotes[i]` with password and a fresh, empty HOME/cache.
    pub fn cmd_via_fresh(&self, i: usize) -> Command {
        let mut c = tangle_bare(&self.fresh_home());
        c.env("TANGLE_PASSWORD", PASSWORD)
            .arg("-r")
            .arg(&self.remotes[i]);
        c
    }

    /// A new directory (absolute, canonical) inside the temp dir.
    pub fn dir(&self, name: &str) -> PathBuf {
        let p = self.root.join(name);
        fs::create_dir_all(&p).unwrap();
        p
    }

    /// A path inside the temp dir that does not exist yet.
    pub fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// `tangle -r remotes[0] backup --json --no-progress EXTRA... PATHS...`, exit 0.
    pub fn backup(&self, paths: &[&Path], extra: &[&str]) -> BackupReport {
        let mut c = self.cmd();
        c.arg("backup")
            .arg("--json")
            .arg("--no-progress")
            .args(extra)
            .args(paths);
        let out = run_ok(&mut c);
        BackupReport::parse(&out.stdout)
    }

    /// `tangle -r remotes[i] snapshots --json`, exit 0, parsed.
    pub fn snapshots_via(&self, i: usize) -> Vec<Value> {
        let out = run_ok(self.cmd_via(i).arg("snapshots").arg("--json"));
        parse_snapshots(&out.stdout)
    }

    pub fn snapshots(&self) -> Vec<Value> {
        self.snapshots_via(0)
    }

    pub fn snapshot_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .snapshots()
            .iter()
            .map(|s| {
                s["id"]
                    .as_str()
                    .expect("snapshot without string id")
                    .to_string()
            })
            .collect();
        ids.sort();
        ids
    }

    /// `tangle -r remotes[0] restore SPEC --target TARGET`, exit 0.
    pub fn restore(&self, spec: &str, target: &Path) {
        run_ok(
            self.cmd()
                .arg("restore")
                .arg(spec)
                .arg("--target")
                .arg(target),
        );
    }

    /// Full listing (paths, kinds, contents) of all three remotes.
    pub fn remote_state(&self) -> Vec<BTreeMap<PathBuf, DirItem>> {
        self.remotes.iter().map(|r| dir_state(r)).collect()
    }
}

/// Where a snapshot of `src` (absolute) lands under a restore target.
pub fn restored_path(target: &Path, src: &Path) -> PathBuf {
    target.join(src.strip_prefix("/").expect("source must be absolute"))
}

pub fn parse_snapshots(stdout: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(stdout);
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| {
        panic!("`snapshots --json` did not print one JSON value ({e}):\n{text}")
    });
    match v {
        Value::Array(a) => a,
        other => panic!("`snapshots --json` did not print a JSON array:\n{other}"),
    }
}

// ---------------------------------------------------------------------------------
// Backup report
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone)]
pub struct BackupReport {
    pub json: Value,
    pub snapshot_id: String,
    pub short_id: String,
    pub files_new: u64,
    pub files_changed: u64,
    pub files_unchanged: u64,
    pub dirs: u64,
    pub bytes_read: u64,
    pub bytes_added: u64,
    pub errors: Vec<String>,
}

pub fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Parse the output of `backup --json`: stdout must be exactly ONE JSON object.
pub fn parse_single_json_object(stdout: &[u8], what: &str) -> Value {
    let text =
        std::str::from_utf8(stdout).unwrap_or_else(|_| panic!("{what}: stdout is not UTF-8"));
    let values: Vec<Value> = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e}):\n{text}"));
    assert_eq!(
        values.len(),
        1,
        "{what}: expected exactly one JSON value on stdout, got {}:\n{text}",
        values.len()
    );
    let v = values.into_iter().next().unwrap();
    assert!(
        v.is_object(),
        "{what}: stdout JSON is not an object:\n{text}"
    );
    v
}

impl BackupReport {
    pub fn parse(stdout: &[u8]) -> BackupReport {
        let json = parse_single_json_object(stdout, "backup --json");
        let num = |k: &str| -> u64 {
            json.get(k).and_then(Value::as_u64).unwrap_or_else(|| {
                panic!("backup report: field `{k}` missing or not a u64:\n{json:#}")
            })
        };
        let string = |k: &str| -> String {
            json.get(k)
                .and_then(Value::as_str)
                .unwrap_or_else(|| {
                    panic!("backup report: field `{k}` missing or not a string:\n{json:#}")
                })
                .to_string()
        };
        let snapshot_id = string("snapshot_id");
        let short_id = string("short_id");
        assert!(
            is_hex(&snapshot_id, 64),
            "snapshot_id is not 64 hex digits: {snapshot_id:?}"
        );
        assert!(
            is_hex(&short_id, 8),
            "short_id is not 8 hex digits: {short_id:?}"
        );
        assert!(
            snapshot_id.starts_with(&short_id),
            "short_id {short_id} is not a prefix of snapshot_id {snapshot_id}"
        );
        let errors = json
            .get("errors")
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("backup report: `errors` missing or not an array:\n{json:#}"))
            .iter()
            .map(|e| {
                e.as_str()
                    .unwrap_or_else(|| panic!("backup report: error entry is not a string: {e}"))
                    .to_string()
            })
            .collect();
        BackupReport {
            snapshot_id,
            short_id,
            files_new: num("files_new"),
            files_changed: num("files_changed"),
            files_unchanged: num("files_unchanged"),
            dirs: num("dirs"),
            bytes_read: num("bytes_read"),
            bytes_added: num("bytes_added"),
            errors,
            json,
        }
    }
}

// ---------------------------------------------------------------------------------
// Misc system helpers
// ---------------------------------------------------------------------------------

/// True when the tests run as root (checked via the owner of a freshly created file).
pub fn is_root() -> bool {
    let f = tempfile::NamedTempFile::new().unwrap();
    f.as_file().metadata().unwrap().uid() == 0
}

pub fn system_hostname() -> String {
    if let Ok(h) = fs::read_to_string("/proc/sys/kernel/hostname") {
        return h.trim().to_string();
    }
    let o = std::process::Command::new("hostname").output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Loose RFC 3339 check: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
pub fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
    if b.len() < 20
        || !digits(0..4)
        || b[4] != b'-'
        || !digits(5..7)
        || b[7] != b'-'
        || !digits(8..10)
        || !(b[10] == b'T' || b[10] == b't')
        || !digits(11..13)
        || b[13] != b':'
        || !digits(14..16)
        || b[16] != b':'
        || !digits(17..19)
    {
        return false;
    }
    let mut i = 19;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let rest = &s[i..];
    if rest == "Z" || rest == "z" {
        return true;
    }
    let r = rest.as_bytes();
    r.len() == 6
        && (r[0] == b'+' || r[0] == b'-')
        && r[1].is_ascii_digit()
        && r[2].is_ascii_digit()
        && r[3] == b':'
        && r[4].is_ascii_digit()
        && r[5].is_ascii_digit()
}

/// Deterministic pseudo-random bytes (xorshift64*), so that tests are reproducible.
pub fn pseudo_random(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        out.extend_from_slice(&x.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    out.truncate(len);
    out
}

pub fn write_file(path: &Path, data: &[u8]) {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p).unwrap();
    }
    fs::write(path, data).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

pub fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("chmod {:o} {}: {e}", mode, path.display()));
}

/// Set the mtime (and atime) of `path` itself (symlinks are not followed), with
/// nanosecond precision, via `touch -h -d @SECS.NANOS`.
pub fn set_mtime(path: &Path, secs: i64, nanos: u32) {
    let status = std::process::Command::new("touch")
        .arg("-h")
        .arg("-d")
        .arg(format!("@{secs}.{nanos:09}"))
        .arg(path)
        .status()
        .expect("touch");
    assert!(status.success(), "touch -h -d failed on {}", path.display());
    let m = fs::symlink_metadata(path).unwrap();
    assert_eq!(
        (m.mtime(), m.mtime_nsec()),
        (secs, nanos as i64),
        "could not set mtime of {}",
        path.display()
    );
}

pub fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(status.success(), "mkfifo {} failed", path.display());
}

/// Allocated bytes on disk (`st_blocks * 512`).
pub fn allocated(path: &Path) -> u64 {
    fs::symlink_metadata(path).unwrap().blocks() * 512
}

/// Build an OsString path component from raw bytes.
pub fn raw(bytes: &[u8]) -> OsString {
    OsString::from_vec(bytes.to_vec())
}

// ---------------------------------------------------------------------------------
// Source trees
// ---------------------------------------------------------------------------------

pub const SPARSE_LEN: u64 = 64 * MIB;
pub const BIG_LEN: usize = 9 * 1024 * 1024 + 4321;

/// Notable paths inside an awkward tree.
pub struct Awkward {
    pub root: PathBuf,
    pub sparse: PathBuf,
    pub big: PathBuf,
    pub plain: PathBuf,
    pub non_utf8: PathBuf,
    pub fifo: PathBuf,
    /// Hard-link groups (paths sharing one inode).
    pub hardlink_groups: Vec<Vec<PathBuf>>,
}

/// Build a tree with every awkward case the restore must reproduce:
/// symlinks (relative, absolute, dangling, self-loop, to a dir), hard links (two groups,
/// across directories), empty and nested-empty dirs, non-UTF-8 names (file and dir),
/// names with space / tab / newline / leading dash, a 64 MiB sparse file, a FIFO, odd
/// modes (4755, 2750, 600, 444, 000, 1777 dir, 700 dir, 555 dir), a zero-length file,
/// a > 8 MiB random file, a file of repeating content, foreign ownership (when root),
/// and explicit nanosecond mtimes on everything (dirs and symlinks included).
pub fn build_awkward_tree(root: &Path) -> Awkward {
    build_awkward_tree_opts(root, true)
}

/// [`build_awkward_tree`], optionally without the hard links.
pub fn build_awkward_tree_opts(root: &Path, with_hardlinks: bool) -> Awkward {
    let root_user = is_root();
    fs::create_dir_all(root).unwrap();
    // Every created path, in creation order, gets an explicit mtime at the end.
    let mut all: Vec<PathBuf> = Vec::new();
    let mut add = |p: PathBuf| -> PathBuf {
        all.push(p.clone());
        p
    };

    let plain = add(root.join("plain.txt"));
    write_file(&plain, b"hello, tangle\n");
    let empty = add(root.join("empty-file"));
    write_file(&empty, b"");

    let big = add(root.join("big-random.bin"));
    write_file(&big, &pseudo_random(1, BIG_LEN));

    let block = pseudo_random(2, 64 * 1024);
    let repeat: Vec<u8> = block
        .iter()
        .copied()
        .cycle()
        .take(3 * MIB as usize)
        .collect();
    write_file(&add(root.join("repeating.bin")), &repeat);

    let sparse = add(root.join("sparse.img"));
    {
        let mut f = fs::File::create(&sparse).unwrap();
        f.set_len(SPARSE_LEN).unwrap();
        f.write_all(b"begin of sparse file").unwrap();
        use std::io::{Seek, SeekFrom};
        f.seek(SeekFrom::Start(SPARSE_LEN - 3)).unwrap();
        f.write_all(b"end").unwrap();
        f.sync_all().unwrap();
    }

    // Modes.
    let modes = add(root.join("modes"));
    fs::create_dir(&modes).unwrap();
    let setuid = add(modes.join("setuid"));
    write_file(&setuid, b"#!/bin/sh\necho setuid\n");
    let setgid = add(modes.join("setgid"));
    write_file(&setgid, b"#!/bin/sh\necho setgid\n");
    let private = add(modes.join("private"));
    write_file(&private, b"secret-ish\n");
    let readonly = add(modes.join("readonly"));
    write_file(&readonly, b"read only\n");
    let sticky = add(modes.join("sticky-dir"));
    fs::create_dir(&sticky).unwrap();
    write_file(&add(sticky.join("inside")), b"in sticky dir\n");
    let private_dir = add(modes.join("private-dir"));
    fs::create_dir(&private_dir).unwrap();
    write_file(&add(private_dir.join("inside")), b"in private dir\n");

    // Ownership (only possible as root). chown before chmod: chown clears setuid.
    if root_user {
        use std::os::unix::fs::{chown, lchown};
        chown(&setuid, Some(1234), Some(1234)).unwrap();
        let owned = add(root.join("owned"));
        fs::create_dir(&owned).unwrap();
        let f = add(owned.join("by-1234"));
        write_file(&f, b"owned by 1234:5678\n");
        chown(&f, Some(1234), Some(5678)).unwrap();
        let d = add(owned.join("dir-4321"));
        fs::create_dir(&d).unwrap();
        write_file(&add(d.join("file")), b"in foreign dir\n");
        chown(&d, Some(4321), Some(8765)).unwrap();
        let l = add(owned.join("link"));
        std::os::unix::fs::symlink("by-1234", &l).unwrap();
        lchown(&l, Some(1234), Some(5678)).unwrap();
    }
    set_mode(&setuid, 0o4755);
    set_mode(&setgid, 0o2750);
    set_mode(&private, 0o600);
    set_mode(&readonly, 0o444);
    set_mode(&sticky, 0o1777);
    set_mode(&private_dir, 0o700);
    if root_user {
        // Not readable / not writable by their owner: only sensible when root, who
        // can still read the source and clean up.
        let none = add(modes.join("none"));
        write_file(&none, b"mode 000\n");
        set_mode(&none, 0o000);
        let ro_dir = add(modes.join("readonly-dir"));
        fs::create_dir(&ro_dir).unwrap();
        write_file(&add(ro_dir.join("inner")), b"in read-only dir\n");
        set_mode(&ro_dir, 0o555);
    }

    // Symlinks.
    let links = add(root.join("links"));
    fs::create_dir(&links).unwrap();
    write_file(&add(links.join("target.txt")), b"link target\n");
    let sl = |target: &str, name: &str| -> PathBuf {
        let p = links.join(name);
        std::os::unix::fs::symlink(target, &p).unwrap();
        p
    };
    add(sl("target.txt", "relative"));
    add(sl("/etc/hostname", "absolute"));
    add(sl("does/not/exist", "dangling"));
    add(sl("self-loop", "self-loop"));
    add(sl("../modes", "to-dir"));
    {
        let p = links.join("non-utf8-target");
        std::os::unix::fs::symlink(raw(b"caf\xe9-missing"), &p).unwrap();
        add(p);
    }

    // Hard links: two groups, one spanning directories.
    let mut hardlink_groups = Vec::new();
    if with_hardlinks {
        let hard = add(root.join("hard"));
        fs::create_dir(&hard).unwrap();
        let a = add(hard.join("a"));
        write_file(&a, b"hard-linked content, group 1\n");
        let deeper = add(hard.join("deeper"));
        fs::create_dir(&deeper).unwrap();
        let b = add(hard.join("b"));
        fs::hard_link(&a, &b).unwrap();
        let c = add(deeper.join("c"));
        fs::hard_link(&a, &c).unwrap();
        let x = add(hard.join("x"));
        write_file(&x, &pseudo_random(3, 100_000));
        let y = add(deeper.join("y"));
        fs::hard_link(&x, &y).unwrap();
        hardlink_groups = vec![vec![a, b, c], vec![x, y]];
    }

    // Empty directories.
    add(root.join("empty-dir"));
    fs::create_dir(root.join("empty-dir")).unwrap();
    add(root.join("nested"));
    add(root.join("nested/empty"));
    add(root.join("nested/empty/deeper"));
    fs::create_dir_all(root.join("nested/empty/deeper")).unwrap();

    // Names.
    let names = add(root.join("names"));
    fs::create_dir(&names).unwrap();
    let non_utf8 = add(names.join(raw(b"caf\xe9")));
    write_file(&non_utf8, b"latin-1 name\n");
    let odd_dir = add(names.join(raw(b"dir-\xff\xfe")));
    fs::create_dir(&odd_dir).unwrap();
    write_file(&add(odd_dir.join(raw(b"f\x80"))), b"in a non-utf8 dir\n");
    for n in [
        "ü-utf8.txt",
        "with space",
        "tab\tname",
        "new\nline",
        "-dash",
        "star*",
        "q?mark",
        "[brackets]",
    ] {
        write_file(&add(names.join(n)), n.as_bytes());
    }

    // FIFO.
    let fifo = add(root.join("fifo"));
    mkfifo(&fifo);
    set_mode(&fifo, 0o640);

    // Explicit mtimes with distinct nanoseconds; the root last.
    all.push(root.to_path_buf());
    for (i, p) in all.iter().enumerate() {
        let secs = 1_500_000_000 + (i as i64) * 86_413;
        let nanos = ((i as u64 * 123_456_789 + 987_654_321) % 1_000_000_000) as u32;
        set_mtime(p, secs, nanos);
    }

    Awkward {
        root: root.to_path_buf(),
        sparse,
        big,
        plain,
        non_utf8,
        fifo,
        hardlink_groups,
    }
}

/// Apparent size of a tree (regular files only, symlinks not followed).
pub fn apparent_size(p: &Path) -> u64 {
    let m = match fs::symlink_metadata(p) {
        Ok(m) => m,
        Err(_) => return 0,
    };
    if m.is_dir() {
        fs::read_dir(p)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| apparent_size(&e.path()))
                    .sum()
            })
            .unwrap_or(0)
    } else if m.is_file() {
        m.len()
    } else {
        0
    }
}

/// Copy (cp -a) top-level entries of /usr/share/doc, in name order, until `budget`
/// bytes; entries larger than budget/4 are skipped. Returns bytes copied.
pub fn copy_doc_subset(dst: &Path, budget: u64) -> u64 {
    fs::create_dir_all(dst).unwrap();
    let src = Path::new("/usr/share/doc");
    let mut entries: Vec<PathBuf> = match fs::read_dir(src) {
        Ok(rd) => rd.filter_map(Result::ok).map(|e| e.path()).collect(),
        Err(_) => return 0,
    };
    entries.sort();
    let mut total = 0;
    let mut chosen = Vec::new();
    for e in entries {
        let s = apparent_size(&e);
        if s > budget / 4 || total + s > budget {
            continue;
        }
        total += s;
        chosen.push(e);
    }
    if chosen.is_empty() {
        return 0;
    }
    let status = std::process::Command::new("cp")
        .arg("-a")
        .args(&chosen)
        .arg(dst)
        .status()
        .unwrap();
    assert!(status.success(), "cp -a of /usr/share/doc subset failed");
    total
}

/// Copy (cp -a) a few binaries from /usr/bin that exist here.
pub fn copy_some_binaries(dst: &Path) {
    fs::create_dir_all(dst).unwrap();
    let want = [
        "ls", "cat", "cp", "tar", "gzip", "env", "touch", "mkfifo", "setpriv", "bash",
    ];
    let existing: Vec<PathBuf> = want
        .iter()
        .map(|n| Path::new("/usr/bin").join(n))
        .filter(|p| fs::symlink_metadata(p).is_ok())
        .collect();
    if existing.is_empty() {
        return;
    }
    let status = std::process::Command::new("cp")
        .arg("-a")
        .args(&existing)
        .arg(dst)
        .status()
        .unwrap();
    assert!(status.success(), "cp -a of binaries failed");
}

/// A real tree: `root/docs` (subset of /usr/share/doc, ~32 MiB), `root/bin` (binaries),
/// `root/awkward` (see [`build_awkward_tree`]).
pub fn build_real_tree(root: &Path) -> Awkward {
    fs::create_dir_all(root).unwrap();
    copy_doc_subset(&root.join("docs"), 32 * MIB);
    copy_some_binaries(&root.join("bin"));
    let awk = build_awkward_tree(&root.join("awkward"));
    set_mtime(root, 1_650_000_000, 424_242_424);
    awk
}

/// A small tree of ordinary files: returns (number of regular files, number of
/// directories below the root, total file bytes). Contains `big-random.bin`
/// (9 MiB + 4321 random bytes) and an identical copy `copy-of-big.bin` for dedup.
pub fn build_simple_tree(root: &Path) -> (u64, u64, u64) {
    let big = pseudo_random(11, BIG_LEN);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("a.txt", b"alpha\n".to_vec()),
        ("b.txt", b"bravo bravo\n".to_vec()),
        ("big-random.bin", big.clone()),
        ("sub/copy-of-big.bin", big),
        ("sub/c.txt", b"charlie\n".to_vec()),
        ("sub/deep/d.txt", pseudo_random(12, 70_000)),
        ("sub/deep/e.log", b"a log line\n".to_vec()),
        ("other/f.txt", b"foxtrot\n".to_vec()),
        ("other/g.log", b"another log line\n".to_vec()),
        ("other/empty", Vec::new()),
    ];
    let mut total = 0;
    for (name, data) in &files {
        write_file(&root.join(name), data);
        total += data.len() as u64;
    }
    fs::create_dir_all(root.join("emptydir")).unwrap();
    // dirs below root: sub, sub/deep, other, emptydir
    (files.len() as u64, 4, total)
}

// ---------------------------------------------------------------------------------
// Manifests
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Fifo,
    Socket,
    CharDev,
    BlockDev,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Path relative to the manifest root, raw bytes ("." for the root itself).
    pub path: Vec<u8>,
    pub kind: Kind,
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    pub mtime: i64,
    pub mtime_nsec: i64,
    /// Regular files only.
    pub size: Option<u64>,
    /// Regular files only: 64-bit hash of the contents.
    pub content: Option<u64>,
    /// Symlinks only.
    pub link_target: Option<Vec<u8>>,
    /// For non-directories sharing an inode with other entries of the tree: the
    /// smallest path of that group.
    pub hardlink_group: Option<Vec<u8>>,
}

pub fn esc(bytes: &[u8]) -> String {
    bytes
        .iter()
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect()
}

impl Entry {
    pub fn render(&self) -> String {
        let mut s = format!(
            "{} {:?} mode={:04o} owner={}:{} mtime={}.{:09}",
            esc(&self.path),
            self.kind,
            self.mode,
            self.uid,
            self.gid,
            self.mtime,
            self.mtime_nsec
        );
        if let Some(n) = self.size {
            s += &format!(" size={n}");
        }
        if let Some(h) = self.content {
            s += &format!(" content={h:016x}");
        }
        if let Some(t) = &self.link_target {
            s += &format!(" -> {}", esc(t));
        }
        if let Some(g) = &self.hardlink_group {
            s += &format!(" hardlink-group={}", esc(g));
        }
        s
    }
}

pub fn hash_file(path: &Path) -> u64 {
    let mut f = fs::File::open(path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    let mut h = DefaultHasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut n_total = 0u64;
    loop {
        let n = f.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        h.write(&buf[..n]);
        n_total += n as u64;
    }
    h.write_u64(n_total);
    h.finish()
}

/// Sorted description of every entry under `root` (root included as ".").
/// Symlinks are never followed; FIFOs are never opened.
pub fn manifest(root: &Path) -> Vec<Entry> {
    let mut raw_entries: Vec<(Vec<u8>, fs::Metadata, PathBuf)> = Vec::new();
    fn walk(base: &Path, rel: &Path, out: &mut Vec<(Vec<u8>, fs::Metadata, PathBuf)>) {
        let full = if rel.as_os_str().is_empty() {
            base.to_path_buf()
        } else {
            base.join(rel)
        };
        let m =
            fs::symlink_metadata(&full).unwrap_or_else(|e| panic!("lstat {}: {e}", full.display()));
        let name = if rel.as_os_str().is_empty() {
            b".".to_vec()
        } else {
            rel.as_os_str().as_bytes().to_vec()
        };
        let is_dir = m.is_dir();
        out.push((name, m, full.clone()));
        if is_dir {
            let mut children: Vec<OsString> = fs::read_dir(&full)
                .unwrap_or_else(|e| panic!("readdir {}: {e}", full.display()))
                .map(|e| e.unwrap().file_name())
                .collect();
            children.sort();
            for c in children {
                walk(base, &rel.join(c), out);
            }
        }
    }
    walk(root, Path::new(""), &mut raw_entries);

    let mut groups: HashMap<(u64, u64), Vec<Vec<u8>>> = HashMap::new();
    for (name, m, _) in &raw_entries {
        if !m.is_dir() && m.nlink() > 1 {
            groups
                .entry((m.dev(), m.ino()))
                .or_default()
                .push(name.clone());
        }
    }

    let mut entries: Vec<Entry> = raw_entries
        .into_iter()
        .map(|(name, m, full)| {
            let ft = m.file_type();
            let kind = if ft.is_file() {
                Kind::File
            } else if ft.is_dir() {
                Kind::Dir
            } else if ft.is_symlink() {
                Kind::Symlink
            } else if ft.is_fifo() {
                Kind::Fifo
            } else if ft.is_socket() {
                Kind::Socket
            } else if ft.is_char_device() {
                Kind::CharDev
            } else {
                Kind::BlockDev
            };
            let hardlink_group = groups
                .get(&(m.dev(), m.ino()))
                .filter(|g| g.len() > 1 && kind != Kind::Dir)
                .map(|g| g.iter().min().unwrap().clone());
            Entry {
                kind,
                mode: m.mode() & 0o7777,
                uid: m.uid(),
                gid: m.gid(),
                mtime: m.mtime(),
                mtime_nsec: m.mtime_nsec(),
                size: (kind == Kind::File).then_some(m.len()),
                content: (kind == Kind::File).then(|| hash_file(&full)),
                link_target: (kind == Kind::Symlink)
                    .then(|| fs::read_link(&full).unwrap().into_os_string().into_vec()),
                hardlink_group,
                path: name,
            }
        })
        .collect();
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    entries
}

/// Compare two manifests; on mismatch panic with a per-entry diff
/// (`-` expected / `+` actual), at most 80 entries shown.
pub fn assert_manifests_eq(expected: &[Entry], actual: &[Entry], what: &str) {
    if let Some(d) = manifest_diff(expected, actual) {
        panic!("{what}: {d}");
    }
}

/// `None` if equal, else a readable per-entry diff (at most 80 entries).
pub fn manifest_diff(expected: &[Entry], actual: &[Entry]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let e: BTreeMap<&[u8], String> = expected.iter().map(|x| (&x.path[..], x.render())).collect();
    let a: BTreeMap<&[u8], String> = actual.iter().map(|x| (&x.path[..], x.render())).collect();
    let keys: BTreeSet<&[u8]> = e.keys().chain(a.keys()).copied().collect();
    let mut diff = Vec::new();
    let mut n = 0;
    for k in keys {
        let (x, y) = (e.get(k), a.get(k));
        if x == y {
            continue;
        }
        n += 1;
        if diff.len() < 160 {
            match x {
                Some(x) => diff.push(format!("- {x}")),
                None => diff.push(format!("- (missing) {}", esc(k))),
            }
            match y {
                Some(y) => diff.push(format!("+ {y}")),
                None => diff.push(format!("+ (missing) {}", esc(k))),
            }
        }
    }
    Some(format!(
        "trees differ in {n} entries ({} expected, {} actual entries)\n\
         (- expected / + actual)\n{}",
        expected.len(),
        actual.len(),
        diff.join("\n")
    ))
}

/// Compare the tree at `actual_root` with `expected` (a manifest of the source).
pub fn assert_tree_matches(expected: &[Entry], actual_root: &Path, what: &str) {
    assert!(
        fs::symlink_metadata(actual_root).is_ok(),
        "{what}: restored root {} does not exist",
        actual_root.display()
    );
    let actual = manifest(actual_root);
    assert_manifests_eq(expected, &actual, what);
}

// ---------------------------------------------------------------------------------
// Remote directory state (for "nothing changed" checks)
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirItem {
    Dir,
    File(Vec<u8>),
    Symlink(PathBuf),
    Other,
}

/// Every path under `root` with its kind and contents (empty map if absent).
pub fn dir_state(root: &Path) -> BTreeMap<PathBuf, DirItem> {
    let mut out = BTreeMap::new();
    fn walk(root: &Path, p: &Path, out: &mut BTreeMap<PathBuf, DirItem>) {
        let Ok(m) = fs::symlink_metadata(p) else {
            return;
        };
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        if m.is_dir() {
            out.insert(rel, DirItem::Dir);
            for e in fs::read_dir(p).unwrap() {
                walk(root, &e.unwrap().path(), out);
            }
        } else if m.is_file() {
            out.insert(rel, DirItem::File(fs::read(p).unwrap()));
        } else if m.file_type().is_symlink() {
            out.insert(rel, DirItem::Symlink(fs::read_link(p).unwrap()));
        } else {
            out.insert(rel, DirItem::Other);
        }
    }
    walk(root, root, &mut out);
    out
}

/// Names of the paths that differ between two states (for readable failures).
pub fn state_diff(
    before: &BTreeMap<PathBuf, DirItem>,
    after: &BTreeMap<PathBuf, DirItem>,
) -> Vec<String> {
    let keys: BTreeSet<&PathBuf> = before.keys().chain(after.keys()).collect();
    keys.into_iter()
        .filter(|k| before.get(*k) != after.get(*k))
        .map(|k| match (before.get(k), after.get(k)) {
            (None, Some(_)) => format!("added {}", k.display()),
            (Some(_), None) => format!("removed {}", k.display()),
            _ => format!("changed {}", k.display()),
        })
        .collect()
}

pub fn assert_remotes_unchanged(
    before: &[BTreeMap<PathBuf, DirItem>],
    after: &[BTreeMap<PathBuf, DirItem>],
    what: &str,
) {
    for (i, (b, a)) in before.iter().zip(after).enumerate() {
        let d = state_diff(b, a);
        assert!(
            d.is_empty(),
            "{what}: remote{i} was modified:\n{}",
            d.join("\n")
        );
    }
}

/// All regular files under `dir` (recursively).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        let Ok(m) = fs::symlink_metadata(p) else {
            return;
        };
        if m.is_dir() {
            for e in fs::read_dir(p).unwrap() {
                walk(&e.unwrap().path(), out);
            }
        } else if m.is_file() {
            out.push(p.to_path_buf());
        }
    }
    walk(dir, &mut out);
    out.sort();
    out
}

// ---------------------------------------------------------------------------------
// Test servers, background processes, JSON reports (cli_remotes / cli_interrupt)
// ---------------------------------------------------------------------------------

/// Environment through which `tangle` reaches the S3 and SFTP test servers (written by
/// `scripts/test-servers.sh env`); [`pass_env`] copies them into a clean command.
pub const SERVER_ENV: &[&str] = &[
    "AWS_ENDPOINT",
    "AWS_ALLOW_HTTP",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_DEFAULT_REGION",
    "AWS_REGION",
    "TANGLE_SSH_COMMAND",
];

/// Copy `vars` that are set in the test's own environment into `cmd` (whose
/// environment was cleared).
pub fn pass_env<'a>(cmd: &'a mut Command, vars: &[&str]) -> &'a mut Command {
    for v in vars {
        if let Some(val) = std::env::var_os(v) {
            cmd.env(v, val);
        }
    }
    cmd
}

/// Like [`clean_command`] but a `std::process::Command` running `tangle`, for a process
/// the test spawns and controls itself (e.g. to kill it): clean environment, HOME / XDG
/// dirs under `home`, the password set. stdin is closed.
pub fn tangle_std(home: &Path) -> std::process::Command {
    let mut c = clean_std_command(OsStr::new(bin()), home);
    c.env("TANGLE_PASSWORD", PASSWORD)
        .stdin(std::process::Stdio::null());
    c
}

/// `files` files `f0`, `f1`, ... of `len` pseudo-random bytes each (seeded from `seed`,
/// so incompressible and different from every other seed) directly under `root`.
/// Returns the total size.
pub fn build_random_tree(root: &Path, seed: u64, files: usize, len: usize) -> u64 {
    fs::create_dir_all(root).unwrap();
    for i in 0..files {
        write_file(
            &root.join(format!("f{i}")),
            &pseudo_random(seed * 1000 + i as u64, len),
        );
    }
    set_mtime(root, 1_600_000_000 + seed as i64, 123_456_789);
    (files * len) as u64
}

/// Run a command that prints one JSON object on stdout (`verify --json`, `repair
/// --json`, `backup --json`...); returns its exit code, the object and the output.
/// Fails on a panic, a timeout or output that is not one JSON object.
pub fn run_json(cmd: &mut Command, what: &str) -> (i32, Value, Output) {
    let out = run_any(cmd);
    let err = stderr_str(&out);
    assert!(
        !err.contains("panicked") && out.status.code() != Some(101),
        "{what}: panicked\nstderr:\n{err}"
    );
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("{what}: killed by a signal\nstderr:\n{err}"));
    let text = stdout_str(&out);
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| {
        panic!("{what}: stdout is not one JSON value ({e}); exit {code}\nstdout:\n{text}\nstderr:\n{err}")
    });
    (code, v, out)
}

/// The `findings` of a `verify --json` report.
pub fn verify_findings(report: &Value) -> Vec<Value> {
    report["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("verify report without a findings array:\n{report:#}"))
        .clone()
}

/// Findings of a `verify --json` report that are not information (i.e. damage).
pub fn verify_damage(report: &Value) -> Vec<Value> {
    verify_findings(report)
        .into_iter()
        .filter(|f| f["severity"] != "info")
        .collect()
}
