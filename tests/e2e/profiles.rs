//! Profiles (`-P NAME`): precedence flag > environment > profile > default for the
//! repository, the password and a command option; the command tables; `profile show`
//! masking secrets; `tangle run` (backup, delete, verify) and the documented cron and
//! systemd lines; warnings about secrets everyone can read.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    PASSWORD, assert_no_panic, assert_stdout_has, bin, clean_command, run_any, run_code,
    run_code_saying, run_ok, stderr_str, stdout_str, tangle_unprivileged,
};
use crate::support::fsutil::set_mode;
use crate::support::manifest::manifest;
use crate::support::repo::{Client, Repo};
use crate::support::report::{BackupReport, parse_single_json_object};
use assert_cmd::Command;
use serde_json::Value;

/// Write `HOME/config/tangle/NAME.toml` (the clean environment's XDG_CONFIG_HOME),
/// readable by its owner only.
fn write_profile(repo: &Repo, name: &str, text: &str) -> PathBuf {
    let path = repo.home.join("config/tangle").join(format!("{name}.toml"));
    write_file(&path, text.as_bytes());
    set_mode(&path, 0o600);
    path
}

/// A file holding `text`, mode 600.
fn secret_file(repo: &Repo, name: &str, text: &str) -> PathBuf {
    let path = repo.path(name);
    write_file(&path, text.as_bytes());
    set_mode(&path, 0o600);
    path
}

/// `["remote0", "remote1", "remote2"]` in TOML.
fn remotes_toml(repo: &Repo) -> String {
    let urls: Vec<String> = (0..3).map(|i| format!("{:?}", repo.url(i))).collect();
    format!("[{}]", urls.join(", "))
}

/// `tangle ... profile show --json` parsed: `settings.TABLE.KEY` as (value, source).
fn show(cmd: &mut Command) -> Value {
    let out = run_ok(cmd.args(["profile", "show", "--json"]));
    parse_single_json_object(&out.stdout, "profile show --json")
}

/// `tangle` with neither `-r` nor a password: all it has is what the profile named with
/// `-P` (and the environment) gives it.
fn bare(repo: &Repo) -> Command {
    repo.cmd_as(Client::no_repo().no_password())
}

/// Where [`bare`] `-P PROFILE` (no `-P` for `None`) takes `TABLE.KEY` from, as
/// `profile show` says.
fn shown_source(repo: &Repo, profile: Option<&str>, table: &str, key: &str) -> String {
    let mut c = bare(repo);
    if let Some(p) = profile {
        c.args(["-P", p]);
    }
    source(&show(&mut c), table, key)
}

fn source(v: &Value, table: &str, key: &str) -> String {
    v["settings"][table][key]["source"]
        .as_str()
        .unwrap_or_else(|| panic!("no settings.{table}.{key}.source in {v:#}"))
        .to_string()
}

/// Parse `--json` output of a backup and return the snapshot's host and tags.
fn snapshot_of(repo: &Repo, out: &std::process::Output) -> Value {
    let id = BackupReport::parse(&out.stdout).snapshot_id;
    (repo.snapshots().into_iter())
        .find(|s| s["id"] == id.as_str())
        .unwrap_or_else(|| panic!("snapshot {id} not listed"))
}

#[test]
fn repository_precedence_flag_env_profile_default() {
    let repo = Repo::init();
    let pw = secret_file(&repo, "pw", PASSWORD);
    let missing = repo.path("not-mounted");
    let nowhere = repo.path("nowhere");
    write_profile(
        &repo,
        "p",
        &format!(
            "[repository]\nremotes = [{:?}, {:?}]\npassword-file = {pw:?}\n",
            missing.to_str().unwrap(),
            repo.url(1)
        ),
    );

    // Profile: opens through the first of its remotes that opens; the missing one is
    // named in a warning.
    let o = run_ok(bare(&repo).args(["-P", "p", "snapshots", "--json"]));
    assert!(
        stderr_str(&o).contains("not-mounted"),
        "the unreachable remote is not named:\n{}",
        stderr_str(&o)
    );
    assert_eq!(
        shown_source(&repo, Some("p"), "repository", "remotes"),
        "profile"
    );

    // Environment beats profile: TANGLE_REPO names a place with no repository.
    let mut env = bare(&repo);
    env.env("TANGLE_REPO", &nowhere);
    run_code(env.args(["-P", "p", "snapshots"]), 10);
    let mut env = bare(&repo);
    env.env("TANGLE_REPO", &nowhere);
    assert_eq!(
        source(&show(env.args(["-P", "p"])), "repository", "remotes"),
        "env"
    );

    // Flag beats environment.
    let mut flag = bare(&repo);
    flag.env("TANGLE_REPO", &nowhere);
    run_ok(flag.args(["-P", "p", "-r", &repo.url(0), "snapshots"]));
    let mut flag = bare(&repo);
    flag.env("TANGLE_REPO", &nowhere);
    let v = show(flag.args(["-P", "p", "-r", &repo.url(0)]));
    assert_eq!(source(&v, "repository", "remotes"), "flag");
    assert_eq!(
        v["settings"]["repository"]["remotes"]["value"][0],
        repo.url(0).as_str()
    );

    // Default: no repository at all.
    run_code_saying(
        repo.cmd_as(Client::no_repo()).arg("snapshots"),
        10,
        "no repository given",
    );
    assert_eq!(
        shown_source(&repo, None, "repository", "remotes"),
        "default"
    );
}

#[test]
fn password_precedence_flag_env_profile_default() {
    let repo = Repo::init();
    let right = secret_file(&repo, "right.pw", PASSWORD);
    let wrong = secret_file(&repo, "wrong.pw", "not the password");
    write_profile(
        &repo,
        "p",
        &format!(
            "[repository]\nremotes = [{:?}]\npassword-file = {right:?}\n",
            repo.url(0)
        ),
    );
    let p = || {
        let mut c = bare(&repo);
        c.args(["-P", "p"]);
        c
    };

    // Profile.
    run_ok(p().arg("snapshots"));
    assert_eq!(
        source(&show(&mut p()), "repository", "password-file"),
        "profile"
    );

    // Environment beats profile, whichever variable it is.
    run_code(
        p().env("TANGLE_PASSWORD", "not the password")
            .arg("snapshots"),
        12,
    );
    run_code(p().env("TANGLE_PASSWORD_FILE", &wrong).arg("snapshots"), 12);
    run_code(
        p().env("TANGLE_PASSWORD_COMMAND", "echo nope")
            .arg("snapshots"),
        12,
    );
    let v = show(p().env("TANGLE_PASSWORD_FILE", &wrong));
    assert_eq!(source(&v, "repository", "password-file"), "env");

    // Flag beats environment, whichever kinds the two are.
    let mut c = p();
    c.env("TANGLE_PASSWORD", "not the password");
    run_ok(c.arg("--password-file").arg(&right).arg("snapshots"));
    let cat = format!("cat {}", right.display());
    let mut c = p();
    c.env("TANGLE_PASSWORD_FILE", &wrong);
    run_ok(c.args(["--password-command", &cat, "snapshots"]));
    let mut c = p();
    c.env("TANGLE_PASSWORD_FILE", &wrong);
    let v = show(c.args(["--password-command", &cat]));
    assert_eq!(source(&v, "repository", "password-command"), "flag");
    assert!(
        v["settings"]["repository"].get("password-file").is_none(),
        "{v:#}"
    );

    // Default: nothing gives a password, and there is no terminal to ask on.
    run_code_saying(
        repo.cmd_as(Client::via(0).no_password()).arg("snapshots"),
        1,
        "no password given",
    );
}

#[test]
fn backup_option_precedence_and_backup_table() {
    let (repo, src) = Repo::with_source("keep.txt", b"kept\n");
    write_file(&src.join("skip.tmp"), b"excluded\n");
    let table = format!(
        "[repository]\nremotes = [{:?}]\npassword = {PASSWORD:?}\n[backup]\nsources = [{:?}]\nexclude = [\"*.tmp\"]\ntags = \"nightly\"\n",
        repo.url(0),
        src.to_str().unwrap()
    );
    write_profile(&repo, "p", &format!("{table}host = \"from-profile\"\n"));
    write_profile(&repo, "nohost", &table);
    let backup = |profile: &str, env: Option<&str>, flag: Option<&str>| {
        let mut c = bare(&repo);
        if let Some(h) = env {
            c.env("TANGLE_HOST", h);
        }
        c.args(["-P", profile, "backup", "--json", "--no-progress"]);
        if let Some(h) = flag {
            c.args(["--host", h]);
        }
        run_ok(&mut c)
    };

    // Profile: host, sources, excludes and tags all from [backup].
    let o = backup("p", None, None);
    let r = BackupReport::parse(&o.stdout);
    assert_eq!(
        r.files_new, 1,
        "the *.tmp exclude of the profile was not applied"
    );
    let s = snapshot_of(&repo, &o);
    assert_eq!(s["host"], "from-profile");
    assert_eq!(s["tags"], serde_json::json!(["nightly"]));
    // Environment beats profile.
    assert_eq!(
        snapshot_of(&repo, &backup("p", Some("from-env"), None))["host"],
        "from-env"
    );
    let mut c = bare(&repo);
    c.env("TANGLE_HOST", "from-env");
    assert_eq!(source(&show(c.args(["-P", "p"])), "backup", "host"), "env");
    // Flag beats environment.
    let o = backup("p", Some("from-env"), Some("from-flag"));
    assert_eq!(snapshot_of(&repo, &o)["host"], "from-flag");
    // Default: this machine's name.
    let host = snapshot_of(&repo, &backup("nohost", None, None))["host"].clone();
    for given in ["from-profile", "from-env", "from-flag"] {
        assert_ne!(host, given);
    }
    assert_eq!(
        shown_source(&repo, Some("nohost"), "backup", "host"),
        "default"
    );
    assert_eq!(shown_source(&repo, Some("p"), "backup", "host"), "profile");

    // PATHs on the command line replace the sources; other keys still come from the
    // profile.
    let other = repo.dir("other");
    write_file(&other.join("x.tmp"), b"excluded too\n");
    write_file(&other.join("y"), b"y\n");
    let mut c = bare(&repo);
    let o = run_ok(
        c.args(["-P", "p", "backup", "--json", "--no-progress"])
            .arg(&other),
    );
    assert_eq!(BackupReport::parse(&o.stdout).files_new, 1);
    assert_eq!(
        snapshot_of(&repo, &o)["paths"],
        serde_json::json!([other.to_str().unwrap()])
    );
}

/// Removed snapshot ids of a `delete --json` report.
fn removed(out: &std::process::Output) -> usize {
    let v = parse_single_json_object(&out.stdout, "delete --json");
    v["snapshots_removed"]
        .as_array()
        .unwrap_or_else(|| panic!("no snapshots_removed in {v:#}"))
        .len()
}

#[test]
fn delete_and_verify_tables() {
    let repo = Repo::init();
    let src = repo.dir("src");
    for i in 0..3 {
        write_file(&src.join("f"), format!("version {i}\n").as_bytes());
        repo.backup(&[&src], &[]);
    }
    write_profile(
        &repo,
        "p",
        &format!(
            "[repository]\nremotes = {}\npassword = {PASSWORD:?}\n[delete]\nkeep-last = 2\n[verify]\nread-data = true\n",
            remotes_toml(&repo)
        ),
    );
    let delete = |args: &[&str]| {
        let mut c = bare(&repo);
        run_ok(c.args(["-P", "p", "delete", "-n", "--json"]).args(args))
    };
    // No snapshots and no --keep-*: the profile's policy.
    assert_eq!(removed(&delete(&[])), 1);
    // --policy with a flag: the flag wins for its key.
    assert_eq!(removed(&delete(&["--policy", "--keep-last", "1"])), 2);
    // --keep-* without --policy: the command line's policy alone (keep-last 2 would
    // keep two of these snapshots of one day).
    assert_eq!(removed(&delete(&["--keep-daily", "1"])), 2);
    // --policy needs a profile with [delete].
    run_code_saying(repo.cmd().args(["delete", "--policy", "-n"]), 1, "[delete]");

    // [verify] read-data: every shard is read; without the profile, none.
    let v = |c: &mut Command| {
        let out = run_ok(c.args(["verify", "--json"]));
        parse_single_json_object(&out.stdout, "verify --json")["shards_read"]
            .as_u64()
            .expect("shards_read")
    };
    assert!(v(bare(&repo).args(["-P", "p"])) > 0);
    assert_eq!(v(&mut repo.cmd()), 0);
}

#[test]
fn profile_show_masks_secrets() {
    let repo = Repo::uninit();
    write_profile(
        &repo,
        "p",
        r#"
[repository]
remotes = ["s3://bucket/tangle"]
password = "SECRET-password"
[remote."s3://bucket/tangle"]
endpoint = "https://s3.example.net"
access_key_id = "AKIAEXAMPLE"
secret_access_key = "SECRET-access-key"
session_token = "SECRET-session"
AWS_SECRET_ACCESS_KEY = "SECRET-aws-name"
"#,
    );
    let text = stdout_str(&run_ok(bare(&repo).args(["-P", "p", "profile", "show"])));
    let json_out = run_ok(bare(&repo).args(["-P", "p", "profile", "show", "--json"]));
    let json = stdout_str(&json_out);
    for out in [&text, &json] {
        assert!(!out.contains("SECRET-"), "a secret is printed:\n{out}");
        assert!(out.contains("***"), "no masked value:\n{out}");
        assert!(out.contains("https://s3.example.net"), "{out}");
        assert!(out.contains("AKIAEXAMPLE"), "{out}");
    }
    let v = parse_single_json_object(&json_out.stdout, "profile show --json");
    let remote = &v["settings"]["remote.\"s3://bucket/tangle\""];
    assert_eq!(remote["secret_access_key"]["value"], "***", "{v:#}");
    assert_eq!(remote["session_token"]["value"], "***");
    assert_eq!(v["settings"]["repository"]["password"]["value"], "***");
    assert_eq!(v["settings"]["repository"]["password"]["source"], "profile");

    // The environment's password is masked too.
    let mut c = bare(&repo);
    c.env("TANGLE_PASSWORD", "SECRET-env");
    let out = stdout_str(&run_ok(c.args(["-P", "p", "profile", "show"])));
    assert!(!out.contains("SECRET-"), "{out}");
}

#[test]
fn secrets_readable_by_everyone_are_warned_about() {
    let repo = Repo::init();
    let pw = secret_file(&repo, "pw", PASSWORD);
    let profile = write_profile(
        &repo,
        "p",
        &format!(
            "[repository]\nremotes = [{:?}]\npassword-file = {pw:?}\n",
            repo.url(0)
        ),
    );
    let warned = |c: &mut Command| stderr_str(&run_ok(c.arg("snapshots")));
    // Profile NAME reads its secret from FILE: no warning while FILE is private, the
    // chmod to run once it is readable by others.
    let warns_once_readable = |name: &str, file: &Path, what: &str| {
        let with_profile = || warned(bare(&repo).args(["-P", name]));
        assert!(!with_profile().contains("chmod"));
        set_mode(file, 0o644);
        let err = with_profile();
        assert!(
            err.contains(&format!("chmod 600 {}", file.display())),
            "no warning about the {what}:\n{err}"
        );
    };
    warns_once_readable("p", &pw, "password file");
    // Also when the file comes from the command line.
    let err = warned(
        repo.cmd_as(Client::via(0).no_password())
            .arg("--password-file")
            .arg(&pw),
    );
    assert!(err.contains("chmod 600"), "{err}");

    // A profile that keeps the password itself.
    let profile_with_pw = write_profile(
        &repo,
        "q",
        &format!(
            "[repository]\nremotes = [{:?}]\npassword = {PASSWORD:?}\n",
            repo.url(0)
        ),
    );
    warns_once_readable("q", &profile_with_pw, "profile");
    // A world-readable profile without secrets is fine.
    set_mode(&profile, 0o644);
    set_mode(&pw, 0o600);
    assert!(!warned(bare(&repo).args(["-P", "p"])).contains("chmod"));
}

/// A profile for `run` over the three remotes of `repo` (not created yet).
fn run_profile(repo: &Repo, src: &Path) -> PathBuf {
    let pw = secret_file(repo, "run.pw", PASSWORD);
    write_profile(
        repo,
        "home",
        &format!(
            r#"[repository]
remotes = {}
password-file = {pw:?}
cache-dir = {:?}
[backup]
sources = [{:?}]
tags = ["nightly"]
[delete]
keep-last = 2
[verify]
read-data = true
"#,
            remotes_toml(repo),
            repo.path("cache").to_str().unwrap(),
            src.to_str().unwrap()
        ),
    )
}

/// A repository made by `tangle -P home init` from [`run_profile`]; returns it and the
/// profile's source (empty).
fn home_repository() -> (Repo, PathBuf) {
    let repo = Repo::uninit();
    let src = repo.dir("src");
    run_profile(&repo, &src);
    run_ok(bare(&repo).args(["-P", "home", "init"]));
    (repo, src)
}

/// `tangle -P home run --json` parsed, with its exit code.
fn run_json(c: &mut Command) -> (Value, i32) {
    let out = run_any(c.args(["-P", "home", "run", "--json"]));
    assert_no_panic(&out, "run --json");
    (
        parse_single_json_object(&out.stdout, "run --json"),
        out.status.code().unwrap_or(-1),
    )
}

/// The steps of a `run --json` report: (step, exit code) in order.
fn steps(v: &Value) -> Vec<(&str, i64)> {
    (v["steps"]
        .as_array()
        .unwrap_or_else(|| panic!("no steps: {v:#}"))
        .iter())
    .map(|s| {
        (
            s["step"].as_str().unwrap_or_default(),
            s["exit_code"].as_i64().unwrap_or(-1),
        )
    })
    .collect()
}

#[test]
fn run_backs_up_deletes_and_verifies() {
    let repo = Repo::uninit();
    let src = repo.dir("src");
    run_profile(&repo, &src);
    // init creates the repository over all the profile's remotes.
    let o = run_ok(bare(&repo).args(["-P", "home", "init"]));
    for i in 0..3 {
        assert_stdout_has(&o, &repo.url(i));
    }
    let listed = stdout_str(&run_ok(repo.cmd().args(["remote", "list"])));
    for i in 0..3 {
        assert!(listed.contains(&repo.url(i)), "{listed}");
    }

    for n in 0..3 {
        write_file(&src.join("f"), format!("night {n}\n").as_bytes());
        let (v, code) = run_json(&mut bare(&repo));
        assert_eq!(code, 0, "run {n}: {v:#}");
        assert_eq!(v["exit_code"], 0);
        assert_eq!(
            steps(&v),
            [("backup", 0), ("delete", 0), ("verify", 0)],
            "{v:#}"
        );
        let s = &v["steps"];
        assert!(s[0]["report"]["snapshot_id"].is_string(), "{v:#}");
        assert!(
            s[2]["report"]["shards_read"].as_u64().unwrap_or(0) > 0,
            "{v:#}"
        );
        if n == 2 {
            assert_eq!(
                s[1]["report"]["snapshots_removed"].as_array().map(Vec::len),
                Some(1)
            );
        }
    }
    // Pruned to the policy, and the newest restores.
    let snaps = repo.snapshots();
    assert_eq!(snaps.len(), 2, "keep-last = 2 was not applied: {snaps:#?}");
    assert!(
        snaps
            .iter()
            .all(|s| s["tags"] == serde_json::json!(["nightly"]))
    );
    let expected = manifest(&src);
    repo.assert_restore_matches(1, "latest", &src, &expected, "after run");

    // Text output: one heading per step and the verdict.
    let out = stdout_str(&run_ok(bare(&repo).args(["-P", "home", "run"])));
    for h in ["== backup", "== delete", "== verify", "exit 0"] {
        assert!(out.contains(h), "no {h:?} in:\n{out}");
    }
    // `run` needs a profile.
    run_code(repo.cmd().arg("run"), 1);
}

#[test]
fn run_goes_on_after_unreadable_files_and_stops_after_a_failed_backup() {
    let (repo, src) = home_repository();
    write_file(&src.join("ok.txt"), b"readable\n");
    let secret = src.join("secret.txt");
    write_file(&secret, b"unreadable\n");
    set_mode(&secret, 0o000);

    // As root (who reads mode-000 files) run without CAP_DAC_OVERRIDE under setpriv.
    let Some(mut c) = tangle_unprivileged(&repo.home, &secret) else {
        return;
    };
    let (v, code) = run_json(&mut c);
    assert_eq!(code, 3, "{v:#}");
    assert_eq!(
        steps(&v),
        [("backup", 3), ("delete", 0), ("verify", 0)],
        "delete and verify must run after a backup with unreadable files: {v:#}"
    );
    let errors = v["steps"][0]["report"]["errors"].to_string();
    assert!(errors.contains("secret.txt"), "{errors}");

    // A backup that fails (a source is gone) stops the run.
    set_mode(&secret, 0o644);
    std::fs::remove_dir_all(&src).unwrap();
    let (v, code) = run_json(&mut bare(&repo));
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(steps(&v), [("backup", 1)], "{v:#}");
    assert!(v["steps"][0]["error"].is_string(), "{v:#}");
}

/// The command of the documented cron line and the ExecStart of the documented
/// systemd service, run as written (only the profile path and the binary's directory
/// are this test's own).
#[test]
fn documented_cron_and_systemd_lines_work() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/SCHEDULING.md"))
        .expect("docs/SCHEDULING.md");
    let cron = (doc.lines())
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() > 7 && f[2..5] == ["*", "*", "*"] && f[5] == "root" && f[6] == "tangle")
                .then(|| f[6..].join(" "))
        })
        .expect("no `M H * * * root tangle ...` line in docs/SCHEDULING.md");
    let exec = (doc.lines())
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("no ExecStart= line in docs/SCHEDULING.md")
        .to_string();
    const DOC_PROFILE: &str = "/etc/tangle/home.toml";
    assert!(
        cron.contains(DOC_PROFILE) && exec.contains(DOC_PROFILE),
        "{cron}\n{exec}"
    );

    let repo = Repo::uninit();
    let src = repo.dir("src");
    let profile = run_profile(&repo, &src);
    let profile = profile.to_str().unwrap();
    run_ok(bare(&repo).args(["-P", profile, "init"]));
    // cron's PATH, with this build's binary found first as /usr/local/bin/tangle would be.
    let bindir = repo.dir("bin");
    std::os::unix::fs::symlink(bin(), bindir.join("tangle")).unwrap();
    let path = format!("{}:/usr/bin:/bin", bindir.display());

    for (n, line) in [&cron, &exec].into_iter().enumerate() {
        write_file(&src.join("f"), format!("run {n}\n").as_bytes());
        let line = line
            .replace(DOC_PROFILE, profile)
            .replace("/usr/local/bin/tangle", "tangle");
        let mut c = clean_command(
            OsStr::new("sh"),
            &[OsStr::new("-c"), OsStr::new(&line)],
            &repo.home,
        );
        let out = run_ok(c.env("PATH", &path));
        if line.contains("--quiet") {
            // cron mails whatever is printed: nothing when all is well.
            assert_eq!(stdout_str(&out), "", "{line}");
            assert_eq!(stderr_str(&out), "", "{line}");
        }
    }
    assert_eq!(repo.snapshots().len(), 2);
}

/// A night with one remote away (an unplugged disk): the backup goes on degraded, the
/// delete is deferred to a night with every remote present (one line, not a failure),
/// and verify reports the remote, so the run exits 20 (repairable), not 1. Verify's
/// text shows at most 20 damage lines per remote and counts the rest. With the disk
/// back, the next run deletes again.
#[test]
fn a_night_with_a_remote_away_defers_delete_and_exits_20() {
    let (repo, src) = home_repository();
    for n in 0..3 {
        write_file(&src.join(format!("f{n}")), &pseudo_random(n, 50_000));
        let (v, code) = run_json(&mut bare(&repo));
        assert_eq!(code, 0, "night {n}: {v:#}");
    }
    let away = repo.path("unplugged");
    std::fs::rename(&repo.remotes[2], &away).unwrap();
    let url = repo.url(2);

    write_file(&src.join("f3"), b"a night with a disk away\n");
    let (v, code) = run_json(&mut bare(&repo));
    assert_eq!(code, 20, "{v:#}");
    assert_eq!(
        steps(&v),
        [("backup", 0), ("delete", 0), ("verify", 20)],
        "{v:#}"
    );
    let deferred = v["steps"][1]["deferred"].as_str().unwrap_or_default();
    assert!(
        deferred.contains(&url) && deferred.contains("next night"),
        "the delete step does not say it waits for the remote: {v:#}"
    );
    assert!(v["steps"][1]["error"].is_null(), "{v:#}");
    let findings_on_away = (v["steps"][2]["report"]["findings"].as_array())
        .expect("verify findings")
        .iter()
        .filter(|f| f["remote"] == url.as_str() && f["severity"] == "repairable")
        .count();
    assert!(findings_on_away > 20, "{findings_on_away} findings: {v:#}");

    // The same night as cron sees it (-q): one deferral line, verify's damage capped.
    let out = run_any(bare(&repo).args(["-P", "home", "run", "-q"]));
    assert_eq!(out.status.code(), Some(20), "{}", stderr_str(&out));
    let text = format!("{}{}", stdout_str(&out), stderr_str(&out));
    assert_eq!(text.matches("delete deferred: remote").count(), 1, "{text}");
    // One line for the remote that is away, one counting what it lacks.
    let damage_lines: Vec<&str> = (text.lines())
        .filter(|l| l.starts_with("damage:") && l.contains(url.as_str()))
        .collect();
    assert_eq!(damage_lines.len(), 2, "{text}");
    let counted: usize = (damage_lines[1].split_whitespace())
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        damage_lines[0].contains("does not hold the repository")
            && damage_lines[1].contains(&format!(
                "objects to copy back to remote {url} once it is back"
            ))
            && counted >= 20,
        "{text}"
    );
    // remote list says the remote is missing, not that it is empty.
    let out = run_ok(bare(&repo).args(["-P", "home", "remote", "list"]));
    let listed = stdout_str(&out);
    assert!(
        (listed.lines())
            .any(|l| l.contains(url.as_str()) && l.contains("MISSING: holds no repository")),
        "{listed}"
    );
    let out = run_ok(bare(&repo).args(["-P", "home", "--json", "remote", "list"]));
    let list: Value = serde_json::from_slice(&out.stdout).expect("remote list --json");
    assert_eq!(list[2]["holds_repository"], false, "{list:#}");
    assert_eq!(list[0]["holds_repository"], true, "{list:#}");
    // -v lists them all.
    let out = run_any(bare(&repo).args(["-P", "home", "verify", "-v"]));
    assert_eq!(out.status.code(), Some(20), "{}", stderr_str(&out));
    let listed = (stdout_str(&out).lines())
        .filter(|l| l.starts_with("damage:") && l.contains(url.as_str()))
        .count();
    assert!(listed >= findings_on_away, "{}", stdout_str(&out));

    // The disk is back: the run deletes again (and repair, not run, refills the remote).
    std::fs::rename(&away, &repo.remotes[2]).unwrap();
    let (v, code) = run_json(&mut bare(&repo));
    assert!(v["steps"][1]["deferred"].is_null(), "{v:#}");
    assert!(v["steps"][1]["report"].is_object(), "{v:#}");
    assert_ne!(code, 1, "{v:#}");
}
