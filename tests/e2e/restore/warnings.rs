//! What restore (and dump, and repair) say about damage (issue 32):
//!
//! * A restore that reads around missing or corrupt shards says so, one warning per
//!   remote naming it (a remote serving corrupt shards may be lying) and `repair`;
//!   `--json` has `damage_read_around`. It remembers the extents in the cache, so a plain
//!   `repair` afterwards (no `--read-data`) rebuilds exactly what the restore saw, corrupt
//!   shards included, which a listing cannot see. The hint is never evidence: repair
//!   hashes those extents' shards itself and writes only the certified bytes, so neither
//!   a lying remote nor a forged hint makes it spread anything.
//! * `repair` facing data nothing can rebuild names what is lost (snapshots, paths,
//!   bytes, as verify does), says why, and says what to do next, instead of "nothing to
//!   repair" with exit 21.
//! * A restore's progress bar knows its totals from the start, and a signal takes the bar
//!   off the terminal before "interrupted" (SIGTERM as Ctrl-C). These run the binary on a
//!   pseudo-terminal: the bar is drawn only there.
//!
//! The repository is 4+3 with 2 pointers (`Repo::init`); a small backup seals one data
//! extent and one tree extent, whose certificates (read through the library, no
//! password needed) say which shard lies where.

use std::fs;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    assert_no_panic, assert_stderr_has, run_any, stderr_str, stdout_str, tangle_std,
};
use crate::support::manifest::{Entry, assert_tree_matches, manifest};
use crate::support::remote_dirs::{assert_files_equal, files_state, flip_bytes};
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::report::{expect_code, parse_single_json_object, repair_actions, run_report};
use serde_json::Value;
use tangle::extent::Certificate;
use tangle::repo::Repository;

struct Fixture {
    repo: Repo,
    src: PathBuf,
    expected: Vec<Entry>,
    /// The extent holding the files' data (4+3; the other holds the trees).
    data: Arc<Certificate>,
    /// The repository id, which names its directory in the cache.
    id: String,
}

fn setup() -> Fixture {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(7, 300_000));
    write_file(&src.join("b.txt"), b"read around\n");
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);
    let lib = Repository::open(repo.url(0).as_str(), Some(repo.path("lib-cache")))
        .expect("open through the library");
    let certs = lib.load_catalog().expect("certificates");
    let data: Vec<Arc<Certificate>> = certs.into_iter().filter(|c| c.parity_shards == 3).collect();
    assert_eq!(data.len(), 1, "one data extent");
    Fixture {
        id: lib.config.id_hex(),
        repo,
        src,
        expected,
        data: data[0].clone(),
    }
}

impl Fixture {
    fn remote_of(&self, shard: usize) -> usize {
        self.data.shards[shard].remote as usize
    }

    fn shard_path(&self, shard: usize) -> String {
        self.data.name().shard_path(shard)
    }

    fn shard_file(&self, shard: usize) -> PathBuf {
        self.repo.remotes[self.remote_of(shard)].join(self.shard_path(shard))
    }

    /// `restore latest` with the default cache (the one `repair` reads afterwards).
    fn restore(&self, target: &str, extra: &[&str]) -> (std::process::Output, PathBuf) {
        let target = self.repo.path(target);
        let out = run_any(
            self.repo
                .cmd()
                .args(["restore", "latest", "--target"])
                .arg(&target)
                .args(extra),
        );
        assert_no_panic(&out, "restore");
        (out, target)
    }

    /// [`Fixture::restore`] into `restored`: exit 0 and the source as it was backed up
    /// (`what` names the case); returns stdout and stderr.
    fn restores_whole(&self, what: &str) -> (String, String) {
        let (out, target) = self.restore("restored", &[]);
        let err = stderr_str(&out);
        assert_eq!(out.status.code(), Some(0), "restore\nstderr:\n{err}");
        assert_tree_matches(&self.expected, &restored_path(&target, &self.src), what);
        (stdout_str(&out), err)
    }

    /// The cache's suspect extents (what a plain `repair` hashes again).
    fn hint_file(&self) -> PathBuf {
        self.repo
            .home
            .join("cache/tangle")
            .join(&self.id)
            .join("suspect-extents.json")
    }

    /// `verify --read-data` with a fresh cache (nothing remembered helps it): exit code.
    fn verify_read_data(&self) -> (i32, Value) {
        run_report(
            self.repo
                .cmd_as(Client::via(2).no_password().fresh_home())
                .args(["verify", "--read-data", "--json"]),
            "verify --read-data",
        )
    }
}

/// The `tangle: warning: read around …` lines of a command's stderr.
fn read_around_lines(err: &str) -> Vec<&str> {
    err.lines()
        .filter(|l| l.starts_with("tangle: warning: read around"))
        .collect()
}

/// A data shard is corrupt on one remote (same size, other bytes: only hashing shows
/// it) and another is missing on a second remote. Restore, `restore -q`, `restore --json`
/// and dump all come out whole, each saying which remote served what; then a plain
/// `repair` with the same cache rebuilds both shards byte for byte, where a plain repair
/// without the restore's memory leaves the corrupt one, and `verify --read-data` is clean.
#[test]
fn restore_names_each_remote_it_read_around_and_a_plain_repair_rebuilds_what_it_saw() {
    let fx = setup();
    let corrupt = 0;
    let missing = (1..fx.data.data_shards as usize)
        .find(|&i| fx.remote_of(i) != fx.remote_of(corrupt))
        .expect("two data shards on different remotes");
    let (rc, rm) = (fx.remote_of(corrupt), fx.remote_of(missing));
    let original_corrupt = fs::read(fx.shard_file(corrupt)).unwrap();
    let original_missing = fs::read(fx.shard_file(missing)).unwrap();
    flip_bytes(&fx.shard_file(corrupt));

    // A listing cannot see the corruption: a plain repair that never read it (another
    // cache) changes nothing.
    let (code, r) = run_report(
        fx.repo
            .cmd_as(Client::via(1).no_password().fresh_home())
            .args(["repair", "--json"]),
        "repair without the restore's memory",
    );
    assert_eq!(code, 0, "{r:#}");
    assert!(repair_actions(&r).is_empty(), "{r:#}");
    assert_ne!(fs::read(fx.shard_file(corrupt)).unwrap(), original_corrupt);
    fs::remove_file(fx.shard_file(missing)).unwrap();

    let (stdout, err) = fx.restores_whole("restore around damage");
    let lines = read_around_lines(&err);
    assert_eq!(lines.len(), 2, "one warning per damaged remote:\n{err}");
    let on = |r: usize| -> &str {
        let url = fx.repo.url(r);
        lines
            .iter()
            .find(|l| l.contains(&format!("remote {url} ")))
            .unwrap_or_else(|| panic!("no warning names remote {url}:\n{err}"))
    };
    assert!(
        on(rc).contains("1 corrupt") && on(rc).contains("do not match their certificates"),
        "{err}"
    );
    assert!(on(rm).contains("1 missing"), "{err}");
    for l in &lines {
        assert!(l.contains("repair`"), "the warning names the fix: {l}");
    }
    assert!(!stdout.contains("read around"), "warnings stay off stdout");

    // -q: the summary goes, the warnings stay.
    let (out, _) = fx.restore("restored-quiet", &["-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    assert_eq!(stdout_str(&out), "");
    assert_eq!(read_around_lines(&stderr_str(&out)).len(), 2);

    // --json: one entry per remote, in config order.
    let (out, _) = fx.restore("restored-json", &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    let v = parse_single_json_object(&out.stdout, "restore --json");
    let entry = |r: usize, missing: u64, corrupt: u64| {
        serde_json::json!({"remote": fx.repo.url(r), "missing": missing, "corrupt": corrupt,
            "unreadable": 0})
    };
    let mut want = vec![(rc, entry(rc, 0, 1)), (rm, entry(rm, 1, 0))];
    want.sort_by_key(|(r, _)| *r);
    assert_eq!(
        v["damage_read_around"],
        Value::Array(want.into_iter().map(|(_, e)| e).collect()),
        "{v:#}"
    );

    // dump reads the same shards (a.bin begins in data shard 0) and says the same.
    let a = fx.src.join("a.bin");
    let out = run_any(fx.repo.cmd().args(["dump", "latest"]).arg(&a));
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    assert!(out.stdout == fs::read(&a).unwrap(), "dump differs");
    let dumped = stderr_str(&out);
    assert!(
        read_around_lines(&dumped)
            .iter()
            .any(|l| l.contains(&fx.repo.url(rc)) && l.contains("corrupt")),
        "dump does not name the remote serving a corrupt shard:\n{dumped}"
    );

    // The plain repair: the remembered extent is hashed, both shards rebuilt.
    assert!(fx.hint_file().exists(), "restore remembered nothing");
    let (code, r) = run_report(fx.repo.cmd().args(["repair", "--json"]), "repair");
    assert_eq!(code, 0, "{r:#}");
    let rebuilt: Vec<(String, String)> = repair_actions(&r)
        .iter()
        .filter(|a| a["kind"] == "rebuild-shard")
        .map(|a| {
            (
                a["remote"].as_str().unwrap_or_default().to_string(),
                a["path"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    for (r, shard) in [(rc, corrupt), (rm, missing)] {
        assert!(
            rebuilt.contains(&(fx.repo.url(r), fx.shard_path(shard))),
            "repair did not rebuild shard {shard} on remote{r}: {rebuilt:?}"
        );
    }
    assert_eq!(fs::read(fx.shard_file(corrupt)).unwrap(), original_corrupt);
    assert_eq!(fs::read(fx.shard_file(missing)).unwrap(), original_missing);
    let (code, v) = fx.verify_read_data();
    expect_code(code, 0, &v, "verify --read-data after repair");

    // Nothing left to read around.
    let (out, _) = fx.restore("restored-after-repair", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(read_around_lines(&stderr_str(&out)).is_empty());
}

/// One remote serves altered bytes for every shard of the data extent it holds (a
/// lying remote). Restore names it, and only it. Its hint, with forged entries added (a
/// sound extent, a name no certificate has, junk), makes a plain repair write exactly
/// the certified shards back to that remote and nothing else: every remote's shards end
/// byte for byte as they were before the lie.
#[test]
fn a_lying_remote_is_named_and_what_restore_remembers_spreads_nothing() {
    let fx = setup();
    let shards_before: Vec<_> = (0..3)
        .map(|r| files_state(&fx.repo.remotes[r].join("shards")))
        .collect();
    let liar = fx.remote_of(0);
    let altered: Vec<usize> = (0..fx.data.shards.len())
        .filter(|&i| fx.remote_of(i) == liar)
        .collect();
    assert!(
        altered.len() <= fx.data.parity_shards as usize,
        "{altered:?}: more than the parity can cover"
    );
    for &i in &altered {
        flip_bytes(&fx.shard_file(i));
    }

    let (_, err) = fx.restores_whole("restore around a lying remote");
    let lines = read_around_lines(&err);
    assert_eq!(lines.len(), 1, "only the lying remote is named:\n{err}");
    assert!(
        lines[0].contains(&format!("remote {} ", fx.repo.url(liar)))
            && lines[0].contains("corrupt")
            && lines[0].contains("do not match their certificates"),
        "{err}"
    );

    // Forged hints: never evidence, only where repair looks.
    let hint = fx.hint_file();
    let mut names: Vec<String> =
        serde_json::from_slice(&fs::read(&hint).expect("restore wrote its hint")).unwrap();
    assert_eq!(names, vec![fx.data.name().hex()]);
    let lib = Repository::open(fx.repo.url(0).as_str(), Some(fx.repo.path("lib-cache")))
        .expect("open through the library");
    let trees = lib.load_catalog().unwrap();
    let trees = trees.iter().find(|c| c.parity_shards != 3).unwrap();
    names.extend([
        trees.name().hex(),
        "ab".repeat(32),
        "not an extent".to_string(),
    ]);
    fs::write(&hint, serde_json::to_vec(&names).unwrap()).unwrap();

    let (code, r) = run_report(fx.repo.cmd().args(["repair", "--json"]), "repair");
    assert_eq!(code, 0, "{r:#}");
    let mut written: Vec<(String, String)> = repair_actions(&r)
        .iter()
        .map(|a| {
            assert_eq!(a["kind"], "rebuild-shard", "{r:#}");
            (
                a["remote"].as_str().unwrap_or_default().to_string(),
                a["path"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    written.sort();
    let mut want: Vec<(String, String)> = (altered.iter())
        .map(|&i| (fx.repo.url(liar), fx.shard_path(i)))
        .collect();
    want.sort();
    assert_eq!(written, want, "repair wrote what only the lie asked for");
    for (r, before) in shards_before.iter().enumerate() {
        assert_files_equal(
            before,
            &files_state(&fx.repo.remotes[r].join("shards")),
            &format!("shards of remote{r} after repair"),
        );
    }
    let (code, v) = fx.verify_read_data();
    expect_code(code, 0, &v, "verify --read-data after repair");
    assert!(
        !hint.exists() || fs::read(&hint).unwrap() == b"[]",
        "a repair that left nothing unrepaired forgets the hint"
    );
}

/// Every shard of the data extent is gone: nothing can rebuild it. `repair --read-data`
/// exits 21 and, instead of "nothing to repair", names the lost files (as backed up,
/// with their bytes) and the snapshot, says why nothing can be done and what to do next;
/// `--json` has the same in `data_lost`. Without the password it says that naming needs
/// it. The restore it suggests restores what is left and exits 21.
#[test]
fn repair_says_what_is_lost_and_why_nothing_can_be_done() {
    let fx = setup();
    for i in 0..fx.data.shards.len() {
        fs::remove_file(fx.shard_file(i)).unwrap();
    }
    let short = fx.data.name().short();
    let a = fx.src.join("a.bin");
    let a = a.to_str().unwrap();

    let out = run_any(fx.repo.cmd().args(["repair", "--read-data"]));
    assert_no_panic(&out, "repair");
    let (text, err) = (stdout_str(&out), stderr_str(&out));
    assert_eq!(
        out.status.code(),
        Some(21),
        "stdout:\n{text}\nstderr:\n{err}"
    );
    assert!(
        !text.contains("nothing to repair") && !err.contains("nothing to repair"),
        "stdout:\n{text}\nstderr:\n{err}"
    );
    assert!(
        text.contains(&format!("LOST: extent {short}: "))
            && text.contains(&format!("{a}: 292.97 KiB of 292.97 KiB lost"))
            && text.contains("in 1 snapshot")
            && text.contains("why: only 0 of the")
            && text.contains("tangle restore"),
        "repair does not say what is lost, why, and what next:\n{text}"
    );

    let (code, v) = run_report(
        fx.repo.cmd().args(["repair", "--read-data", "--json"]),
        "repair --json",
    );
    assert_eq!(code, 21, "{v:#}");
    let lost = v["data_lost"].as_array().expect("data_lost");
    assert_eq!(lost.len(), 1, "{v:#}");
    assert_eq!(lost[0]["kind"], "data-lost");
    assert_eq!(lost[0]["extent"], fx.data.name().hex());
    assert!(lost[0]["why"].as_str().is_some_and(|w| !w.is_empty()));
    let paths: Vec<&str> = (lost[0]["paths"].as_array().expect("paths"))
        .iter()
        .filter_map(|p| p["path"].as_str())
        .collect();
    assert!(paths.contains(&a), "{paths:?}");
    assert_eq!(lost[0]["lost_bytes"], 300_000 + 12);
    assert!(!v["unrepaired"].as_array().unwrap().is_empty(), "{v:#}");

    let out = run_any(fx.repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    assert_eq!(out.status.code(), Some(21));
    let text = stdout_str(&out);
    assert!(
        text.contains(&format!("LOST: extent {short}: "))
            && text.contains("needs the password")
            && text.contains("why: "),
        "{text}"
    );

    let (out, _) = fx.restore("restored", &[]);
    assert_eq!(out.status.code(), Some(21), "{}", stderr_str(&out));
    assert_stderr_has(&out, &format!("not restored: {a}"));
}

/// A command running on a pseudo-terminal (stderr only; stdout is discarded), and
/// everything it drew there so far.
struct OnPty {
    child: std::process::Child,
    drawn: Arc<Mutex<Vec<u8>>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl OnPty {
    fn spawn(mut cmd: std::process::Command) -> OnPty {
        let (mut master, mut slave) = (0, 0);
        let size = libc::winsize {
            ws_row: 24,
            ws_col: 160,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty writes two descriptors, which are owned below.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both are open descriptors nothing else owns.
        let (master, slave) =
            unsafe { (fs::File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        cmd.env("TERM", "xterm")
            .stdout(std::process::Stdio::null())
            .stderr(slave);
        let child = cmd.spawn().expect("spawning tangle");
        // Our copy of the terminal's other end goes: reading ends when tangle's does.
        drop(cmd);
        let drawn = Arc::new(Mutex::new(Vec::new()));
        let sink = drawn.clone();
        let reader = std::thread::spawn(move || {
            let mut master = master;
            let mut buf = [0u8; 4096];
            while let Ok(n) = master.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        OnPty {
            child,
            drawn,
            reader: Some(reader),
        }
    }

    fn drawn(&self) -> String {
        String::from_utf8_lossy(&self.drawn.lock().unwrap()).into_owned()
    }

    /// Wait until `ready` holds for what was drawn (the command still running).
    fn wait_for(&mut self, ready: impl Fn(&str) -> bool) {
        let started = Instant::now();
        while !ready(&self.drawn()) {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("tangle ended ({status}) first:\n{}", self.drawn());
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "not drawn in two minutes:\n{}",
                self.drawn()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Wait for the command to end: its exit code (`None` if killed) and all it drew.
    fn finish(mut self) -> (Option<i32>, String) {
        let status = self.child.wait().unwrap();
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
        (status.code(), self.drawn())
    }
}

/// A tree of `n` small files, backed up; a restore of it pauses `delay_ms` before each
/// file, with one worker, so that it runs long enough to be watched.
fn slow_restore_fixture(n: usize) -> (Repo, PathBuf) {
    let repo = Repo::init();
    let src = repo.dir("src");
    for i in 0..n {
        write_file(
            &src.join(format!("sub/f{i:02}.bin")),
            &pseudo_random(i as u64, 20_000),
        );
    }
    write_file(&src.join("top.txt"), b"top\n");
    repo.backup(&[&src], &[]);
    (repo, src)
}

fn slow_restore(repo: &Repo, spec: &str, target: &Path, delay_ms: u32) -> OnPty {
    let mut cmd = tangle_std(&repo.home);
    cmd.env("TANGLE_TEST_RESTORE_WORKERS", "1")
        .env("TANGLE_TEST_RESTORE_FILE_DELAY_MS", delay_ms.to_string())
        .arg("-r")
        .arg(&repo.remotes[0])
        .args(["restore", spec, "--target"])
        .arg(target);
    OnPty::spawn(cmd)
}

/// The file counts the bar drew, `done/total` with `+` while the total may still grow.
fn file_counts(drawn: &str) -> Vec<String> {
    drawn
        .split(" files")
        .filter_map(|before| before.rsplit(' ').next())
        .filter(|w| w.contains('/') && w.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// The bar's total is the restore's from its first frames (the snapshot's own count for a
/// whole snapshot; a walk of the trees for a path in it), not a count that grows as the
/// walk feeds the workers: no frame shows a total that is not final.
#[test]
fn restore_progress_knows_its_totals_from_the_start() {
    let (repo, src) = slow_restore_fixture(12);
    let sub = format!("latest:{}", src.join("sub").display());
    for (spec, files) in [("latest", 13), (sub.as_str(), 12)] {
        let target = repo.path(&format!("restored-{files}"));
        let (code, drawn) = slow_restore(&repo, spec, &target, 40).finish();
        assert_eq!(code, Some(0), "{drawn}");
        let counts = file_counts(&drawn);
        assert!(
            counts.iter().any(|c| c.ends_with(&format!("/{files}"))),
            "{spec}: the bar never showed the total of {files} files: {counts:?}\n{drawn}"
        );
        // Before the totals are set a frame may show none (`0/0+`); never one that grows.
        for c in &counts {
            let total = c
                .split('/')
                .nth(1)
                .unwrap_or_default()
                .trim_end_matches('+');
            assert!(
                total == files.to_string() || c == "0/0+",
                "{spec}: a frame showed {c}, not the final total of {files}: {counts:?}"
            );
        }
    }
}

/// SIGTERM (as `systemctl stop` sends) and Ctrl-C in the middle of a restore drawn on a
/// terminal: exit 143 and 130, "tangle: interrupted" once, the bar taken off the line
/// first and never drawn again below the message.
#[test]
fn a_signal_takes_the_restore_bar_off_before_saying_interrupted() {
    let (repo, _) = slow_restore_fixture(20);
    for (signal, want) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let target = repo.path(&format!("restored-{signal}"));
        let mut run = slow_restore(&repo, "latest", &target, 300);
        run.wait_for(|d| d.contains("restoring") && d.contains(" files"));
        // SAFETY: a plain kill(2) of the child this test spawned.
        assert_eq!(unsafe { libc::kill(run.child.id() as i32, signal) }, 0);
        let (code, drawn) = run.finish();
        assert_eq!(code, Some(want), "signal {signal}:\n{drawn}");
        assert_eq!(
            drawn.matches("tangle: interrupted").count(),
            1,
            "signal {signal}:\n{drawn:?}"
        );
        let (before, after) = drawn.split_once("tangle: interrupted").unwrap_or_default();
        assert!(
            before.ends_with("\x1b[2K"),
            "signal {signal}: the bar's line is not cleared before the message:\n{drawn:?}"
        );
        assert!(
            !after.contains("restoring") && after.trim().is_empty(),
            "signal {signal}: drawn after the message: {after:?}"
        );
    }
}
