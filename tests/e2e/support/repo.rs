//! A repository over three local remote directories inside one temp dir, driven
//! through the binary; and cheap init options for repositories made through the
//! library.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use assert_cmd::Command;
use serde_json::Value;
use tangle::content::ChunkerParams;
use tangle::repo::InitOptions;
use tempfile::TempDir;

use super::command::{
    PASSWORD, assert_no_panic, bin, run_any, run_code, run_ok, stderr_str, stdout_str, tangle_bare,
    tangle_std,
};
use super::manifest::{Entry, assert_tree_matches, manifest, manifest_diff};
use super::remote_dirs::{DirItem, assert_remotes_unchanged, dir_state};
use super::report::BackupReport;
use super::trees::build_simple_tree;
use crate::shared::files::write_file;
use crate::shared::init::small_init_options;
use crate::shared::servers;

/// `init`'s flags for the coding of [`Repo::init`]: 4 data + 3 parity shards, 2 pointers.
pub const CODING_4_3: [&str; 6] = [
    "--data-shards",
    "4",
    "--parity-shards",
    "3",
    "--pointers",
    "2",
];

static HOME_COUNTER: AtomicUsize = AtomicUsize::new(0);
static TARGET_COUNTER: AtomicUsize = AtomicUsize::new(0);

pub struct Repo {
    /// Everything lives under here: remotes, homes, sources, restore targets (removed
    /// when the `Repo` is dropped).
    _tmp: TempDir,
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
            _tmp: tmp,
            root,
            remotes,
            home,
        }
    }

    /// A fresh repository over three (not yet existing) dirs, coded 4+3 with 2 pointers:
    /// the default before 2026-11-27, which repositories made then keep, and the shard
    /// arithmetic most tests are written for.
    pub fn init() -> Repo {
        let repo = Repo::uninit();
        let out = run_ok(&mut repo.init_cmd(&repo.remotes, &CODING_4_3));
        let text = stdout_str(&out);
        assert!(
            text.contains("4 data + 3 parity"),
            "init output does not mention the coding \"4 data + 3 parity\":\n{text}"
        );
        repo
    }

    /// As [`Repo::init`] (4+3, 2 pointers, three local remotes), with 64 KiB test extents
    /// and a weak key derivation: a few hundred KiB make many extents.
    pub fn init_small_extents() -> Repo {
        let repo = Repo::uninit();
        run_ok(
            repo.init_cmd(&repo.remotes, &CODING_4_3)
                .env("TANGLE_TEST_EXTENT_SIZE", "65536")
                .env("TANGLE_TEST_WEAK_KDF", "1"),
        );
        repo
    }

    /// [`Repo::init`] and a source directory `src` (returned) holding one file, `name`
    /// with `contents`, not backed up yet.
    pub fn with_source(name: &str, contents: &[u8]) -> (Repo, PathBuf) {
        let repo = Repo::init();
        let src = repo.dir("src");
        write_file(&src.join(name), contents);
        (repo, src)
    }

    /// [`Repo::init`] and a source directory `src` (returned) holding
    /// [`build_simple_tree`]'s tree, not backed up yet.
    pub fn with_simple_tree() -> (Repo, PathBuf) {
        let repo = Repo::init();
        let src = repo.dir("src");
        build_simple_tree(&src);
        (repo, src)
    }

    /// [`Repo::with_source`], backed up once: a repository with one snapshot.
    pub fn with_snapshot_of(name: &str, contents: &[u8]) -> (Repo, PathBuf) {
        let (repo, src) = Repo::with_source(name, contents);
        repo.backup(&[&src], &[]);
        (repo, src)
    }

    pub fn init_cmd(&self, remotes: &[PathBuf], extra: &[&str]) -> Command {
        let mut c = self.cmd_as(Client::no_repo());
        c.arg("init");
        for r in remotes {
            c.arg("--remote").arg(r);
        }
        c.args(extra);
        c
    }

    /// `tangle` run as `client`: through which remote, with which password, from which
    /// HOME; always with a clean environment.
    pub fn cmd_as(&self, client: Client) -> Command {
        let home = if client.fresh_home {
            self.fresh_home()
        } else {
            self.home.clone()
        };
        let mut c = tangle_bare(&home);
        if let Some(password) = client.password {
            c.env("TANGLE_PASSWORD", password);
        }
        if let Some(i) = client.via {
            c.arg("-r").arg(&self.remotes[i]);
        }
        c
    }

    /// `tangle -r remotes[0]` with the password, from the default HOME: the common case
    /// of [`Repo::cmd_as`].
    pub fn cmd(&self) -> Command {
        self.cmd_as(Client::via(0))
    }

    /// A new, empty HOME (so an empty client cache: everything must come from remotes).
    pub fn fresh_home(&self) -> PathBuf {
        let n = HOME_COUNTER.fetch_add(1, Ordering::SeqCst);
        let h = self.root.join(format!("home-fresh-{n}"));
        fs::create_dir_all(&h).unwrap();
        h
    }

    /// `snapshots` via remote `via` with `password` is refused as a wrong password
    /// (exit 12).
    pub fn assert_password_refused(&self, via: usize, password: &str, what: &str) {
        let out = run_code(
            self.cmd_as(Client::via(via).password(password).fresh_home())
                .args(["snapshots", "--json"]),
            12,
        );
        assert!(
            stderr_str(&out).contains("wrong password"),
            "{what} via {via}: {}",
            stderr_str(&out)
        );
    }

    /// A file holding `password` (as `--new-password-file` reads it).
    pub fn password_file(&self, password: &str) -> PathBuf {
        let p = self.path(&format!("pw-{}", password.replace(' ', "-")));
        write_file(&p, format!("{password}\n").as_bytes());
        p
    }

    /// Run `tangle -r remotes[0] ARGS` under a pseudo-terminal (`script`, with `TERM` set
    /// to `term`) and return everything it drew.
    pub fn on_a_terminal(&self, args: &str, term: &str) -> Vec<u8> {
        let line = format!("{} -r {} {args}", bin(), self.url(0));
        let out = std::process::Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .env_clear()
            .envs(std::env::vars_os().filter(|(k, _)| k == "PATH"))
            .env("HOME", &self.home)
            .env("XDG_CACHE_HOME", self.home.join("cache"))
            .env("TERM", term)
            .env("TANGLE_PASSWORD", PASSWORD)
            .output()
            .expect("script(1) runs");
        assert!(out.status.success(), "{line}: {out:?}");
        out.stdout
    }

    /// The URL of remote `i` (its absolute path).
    pub fn url(&self, i: usize) -> String {
        self.remotes[i]
            .to_str()
            .expect("UTF-8 temp dir")
            .to_string()
    }

    /// Restore snapshot `id` via remote `via` with an empty client cache into a new
    /// target and compare it with `expected` (the manifest of `src` when it was backed
    /// up); the target is removed again. `Err` says what went wrong.
    pub fn try_restore_matches(
        &self,
        via: usize,
        id: &str,
        src: &Path,
        expected: &[Entry],
        what: &str,
    ) -> Result<(), String> {
        let n = TARGET_COUNTER.fetch_add(1, Ordering::SeqCst);
        let target = self.path(&format!("target-{n}"));
        let out = run_any(
            self.cmd_as(Client::via(via).fresh_home())
                .arg("restore")
                .arg(id)
                .arg("--target")
                .arg(&target),
        );
        assert_no_panic(&out, what);
        if !out.status.success() {
            return Err(format!(
                "{what}: restore of snapshot {} via remote{via} failed with {:?}\nstdout:\n{}\nstderr:\n{}",
                &id[..8.min(id.len())],
                out.status.code(),
                stdout_str(&out),
                stderr_str(&out)
            ));
        }
        let root = restored_path(&target, src);
        if fs::symlink_metadata(&root).is_err() {
            return Err(format!(
                "{what}: restored root {} is missing",
                root.display()
            ));
        }
        if let Some(d) = manifest_diff(expected, &manifest(&root)) {
            return Err(format!(
                "{what}: snapshot {} restored via remote{via}: {d}",
                &id[..8.min(id.len())]
            ));
        }
        let _ = fs::remove_dir_all(&target);
        Ok(())
    }

    /// [`Repo::try_restore_matches`], failing the test on any difference.
    pub fn assert_restore_matches(
        &self,
        via: usize,
        id: &str,
        src: &Path,
        expected: &[Entry],
        what: &str,
    ) {
        if let Err(e) = self.try_restore_matches(via, id, src, expected, what) {
            panic!("{e}");
        }
    }

    /// [`Repo::restore`] of `spec` into a new target, which must then hold `src` as
    /// `expected` says (its manifest when it was backed up).
    pub fn assert_restores(&self, spec: &str, src: &Path, expected: &[Entry], what: &str) {
        let n = TARGET_COUNTER.fetch_add(1, Ordering::SeqCst);
        let target = self.dir(&format!("target-{n}"));
        self.restore(spec, &target);
        assert_tree_matches(expected, &restored_path(&target, src), what);
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
        let out = run_ok(self.cmd_as(Client::via(i)).arg("snapshots").arg("--json"));
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

    /// `tangle -r remotes[0] backup --no-progress EXTRA... SRC` started in the background,
    /// stdout discarded and stderr into the file `stderr_log`.
    pub fn spawn_backup(
        &self,
        src: &Path,
        extra: &[&str],
        stderr_log: &Path,
    ) -> std::process::Child {
        tangle_std(&self.home)
            .arg("-r")
            .arg(&self.remotes[0])
            .args(["backup", "--no-progress"])
            .args(extra)
            .arg(src)
            .stdout(std::process::Stdio::null())
            .stderr(fs::File::create(stderr_log).unwrap())
            .spawn()
            .expect("spawning tangle backup")
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

    /// Run `f` (a command that must be refused) and require that no remote changed
    /// meanwhile; returns what `f` returned.
    pub fn unchanged_by<T>(&self, what: &str, f: impl FnOnce() -> T) -> T {
        let before = self.remote_state();
        let r = f();
        assert_remotes_unchanged(&before, &self.remote_state(), what);
        r
    }

    /// Full listing (paths, kinds, contents) of all three remotes.
    pub fn remote_state(&self) -> Vec<BTreeMap<PathBuf, DirItem>> {
        self.remotes.iter().map(|r| dir_state(r)).collect()
    }
}

/// Who runs a command of a [`Repo`] ([`Repo::cmd_as`]): through which remote (`-r`), with
/// which password, from which HOME (and so with which client cache).
#[derive(Clone, Copy, Debug)]
pub struct Client<'a> {
    via: Option<usize>,
    password: Option<&'a str>,
    fresh_home: bool,
}

impl<'a> Client<'a> {
    /// `-r remotes[i]` with the password, from the repository's HOME.
    pub fn via(i: usize) -> Client<'a> {
        Client {
            via: Some(i),
            password: Some(PASSWORD),
            fresh_home: false,
        }
    }

    /// No `-r`, with the password, from the repository's HOME.
    pub fn no_repo() -> Client<'a> {
        Client {
            via: None,
            ..Client::via(0)
        }
    }

    /// Without `TANGLE_PASSWORD`.
    pub fn no_password(self) -> Client<'a> {
        Client {
            password: None,
            ..self
        }
    }

    /// With `password` in `TANGLE_PASSWORD`.
    pub fn password(self, password: &'a str) -> Client<'a> {
        Client {
            password: Some(password),
            ..self
        }
    }

    /// From a new, empty HOME: an empty client cache, so everything must come from the
    /// remotes (and a password must open a key file they serve).
    pub fn fresh_home(self) -> Client<'a> {
        Client {
            fresh_home: true,
            ..self
        }
    }
}

/// A repository with snapshots of one source tree, and what the source looked like
/// at each.
pub struct History {
    pub repo: Repo,
    pub src: PathBuf,
    /// (snapshot id, manifest of the source at that time), oldest first.
    pub snaps: Vec<(String, Vec<Entry>)>,
}

impl History {
    /// Restore every snapshot via remote `via` with an empty client cache and compare
    /// each with the source as it was at backup time; `Err` says what went wrong.
    pub fn try_restore_all(&self, via: usize, what: &str) -> Result<(), String> {
        for (n, (snap, expected)) in self.snaps.iter().enumerate() {
            let what = format!("{what} (snapshot {})", n + 1);
            self.repo
                .try_restore_matches(via, snap, &self.src, expected, &what)?;
        }
        Ok(())
    }

    /// [`History::try_restore_all`], failing the test on any difference.
    pub fn restore_all_and_compare(&self, via: usize, what: &str) {
        if let Err(e) = self.try_restore_all(via, what) {
            panic!("{e}");
        }
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

/// [`small_init_options`] over `repo`'s three remotes, with chunks small against the
/// extent: full extents then differ little in size, and pointers (never larger than the
/// codeword's own shards) find each other freely.
pub fn fine_chunked_init_options(repo: &Repo, extent_size: u32) -> InitOptions {
    chunked_init_options(repo, extent_size, 2 * 1024, 4 * 1024, 8 * 1024)
}

/// [`small_init_options`] over `repo`'s three remotes, with chunks of 8 to 128 KiB (32 on
/// average): a tree of a few hundred KiB files fills several small extents.
pub fn medium_chunked_init_options(repo: &Repo, extent_size: u32) -> InitOptions {
    chunked_init_options(repo, extent_size, 8 * 1024, 32 * 1024, 128 * 1024)
}

fn chunked_init_options(
    repo: &Repo,
    extent_size: u32,
    min: u32,
    avg: u32,
    max: u32,
) -> InitOptions {
    InitOptions {
        remotes: (0..3).map(|i| repo.url(i)).collect(),
        chunker: Some(ChunkerParams { min, avg, max }),
        ..small_init_options(extent_size)
    }
}

/// Sizes of the data shards (`shards/EXTENT/i`, i below the data shard count) on all of
/// a repository's remotes, one per shard.
pub fn data_shard_sizes(repo: &tangle::repo::Repository) -> Vec<u64> {
    let rt = servers::runtime();
    let mut sizes = Vec::new();
    for remote in repo.remotes() {
        let objects = rt.block_on(remote.list("shards/")).expect("list shards");
        for o in objects {
            let index = o.path.rsplit('/').next().and_then(|i| i.parse::<u8>().ok());
            if index.is_some_and(|i| i < repo.config.coding.data_shards) {
                sizes.push(o.size);
            }
        }
    }
    sizes
}
