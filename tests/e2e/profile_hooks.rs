//! A profile's backup hooks (issue 36): `run-before`, `run-after`, `run-failed`,
//! `run-finally` around `backup -P NAME` and `run`'s backup step, in order, with their
//! environment; a failing `run-before` aborts the backup (exit 1, no snapshot); a
//! failing later hook is a warning and exit 1; `profile show` lists them.

use std::path::{Path, PathBuf};

use crate::shared::files::write_file;
use crate::support::command::{
    PASSWORD, assert_no_panic, run_any, run_code, run_code_saying, run_ok, stderr_str,
};
use crate::support::fsutil::set_mode;
use crate::support::repo::{Client, Repo};
use crate::support::report::{BackupReport, parse_single_json_object};
use assert_cmd::Command;

/// A repository, a source with one file, and the recording hook: `sh rec.sh LOG`
/// appends `HOOK|PROFILE|EXIT_CODE|SNAPSHOT_ID|ERROR` (`-` for an unset variable).
struct Setup {
    repo: Repo,
    src: PathBuf,
    log: PathBuf,
    rec: String,
}

fn setup() -> Setup {
    let (repo, src) = Repo::with_source("a.txt", b"alpha\n");
    let script = repo.path("rec.sh");
    write_file(
        &script,
        b"printf '%s|%s|%s|%s|%s\\n' \"${TANGLE_HOOK--}\" \"${TANGLE_PROFILE--}\" \
          \"${TANGLE_EXIT_CODE--}\" \"${TANGLE_SNAPSHOT_ID--}\" \"${TANGLE_ERROR--}\" >> \"$1\"\n",
    );
    let log = repo.path("hooks.log");
    let rec = format!("sh {} {}", script.display(), log.display());
    Setup {
        repo,
        src,
        log,
        rec,
    }
}

impl Setup {
    /// Write profile NAME: the repository, `[backup] sources` (`sources`, else the
    /// source) and the `[backup]` lines `hooks`.
    fn profile(&self, name: &str, sources: Option<&Path>, hooks: &str) {
        let path = (self.repo.home.join("config/tangle")).join(format!("{name}.toml"));
        let text = format!(
            "[repository]\nremotes = [{:?}]\npassword = {PASSWORD:?}\n[backup]\nsources = [{:?}]\n{hooks}",
            self.repo.url(0),
            sources.unwrap_or(&self.src).to_str().unwrap(),
        );
        write_file(&path, text.as_bytes());
        set_mode(&path, 0o600);
    }

    /// tangle with nothing but what the profile gives.
    fn bare(&self) -> Command {
        self.repo.cmd_as(Client::no_repo().no_password())
    }

    /// The log's lines, split at `|`, and the log emptied.
    fn calls(&self) -> Vec<Vec<String>> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let _ = std::fs::remove_file(&self.log);
        (text.lines())
            .map(|l| l.split('|').map(str::to_string).collect())
            .collect()
    }
}

/// `"a"` in TOML (a basic string).
fn q(s: &str) -> String {
    format!("{s:?}")
}

fn hooks(names: &[&str]) -> Vec<String> {
    names.iter().map(|h| h.to_string()).collect()
}

#[test]
fn profile_hooks_run_around_a_backup_in_order_with_their_environment() {
    let s = setup();
    s.profile(
        "h",
        None,
        &format!(
            "run-before = [{rec}, 'echo before-out; echo before-err >&2']\nrun-after = {rec}\nrun-failed = {rec}\nrun-finally = [{rec}]\n",
            rec = q(&s.rec)
        ),
    );
    let out = run_ok(
        s.bare()
            .args(["-P", "h", "backup", "--json", "--no-progress"]),
    );
    // stdout is the report alone: a hook's output goes to stderr.
    let report = BackupReport::parse(&out.stdout);
    let err = stderr_str(&out);
    assert!(
        err.contains("before-out") && err.contains("before-err"),
        "the hook's output is not on stderr:\n{err}"
    );
    let calls = s.calls();
    let id = report.snapshot_id.as_str();
    assert_eq!(
        calls,
        [
            vec!["before", "h", "-", "-", "-"],
            vec!["after", "h", "0", id, "-"],
            vec!["finally", "h", "0", id, "-"],
        ],
        "hooks, in order, with their environment"
    );
    assert_eq!(s.repo.snapshots().len(), 1);

    // `profile show` lists the keys as the profile gives them.
    let shown = run_ok(s.bare().args(["-P", "h", "profile", "show", "--json"]));
    let v = parse_single_json_object(&shown.stdout, "profile show --json");
    let b = &v["settings"]["backup"];
    assert_eq!(b["run-before"]["source"], "profile", "{v:#}");
    assert_eq!(
        b["run-before"]["value"][1],
        "echo before-out; echo before-err >&2"
    );
    assert_eq!(b["run-after"]["value"][0], s.rec.as_str(), "{v:#}");
    assert_eq!(b["run-finally"]["source"], "profile");

    // `run`'s backup step, the same way; as rustic writes them, in [backup.hooks].
    s.profile(
        "r",
        None,
        &format!(
            "[backup.hooks]\nrun-before = {rec}\nrun-after = {rec}\nrun_finally = {rec}\n",
            rec = q(&s.rec)
        ),
    );
    let out = run_ok(s.bare().args(["-P", "r", "run", "--json"]));
    let v = parse_single_json_object(&out.stdout, "run --json");
    let id = v["steps"][0]["report"]["snapshot_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no snapshot id: {v:#}"));
    let calls = s.calls();
    let hooks_run: Vec<&str> = calls.iter().map(|c| c[0].as_str()).collect();
    assert_eq!(hooks_run, ["before", "after", "finally"]);
    assert_eq!(calls[1], ["after", "r", "0", id, "-"]);
    assert_eq!(s.repo.snapshots().len(), 2);

    // A profile without hooks lists them as not set.
    s.profile("none", None, "");
    let shown = run_ok(s.bare().args(["-P", "none", "profile", "show", "--json"]));
    let v = parse_single_json_object(&shown.stdout, "profile show --json");
    assert_eq!(v["settings"]["backup"]["run-failed"]["source"], "default");
    assert_eq!(
        v["settings"]["backup"]["run-failed"]["value"],
        serde_json::json!([])
    );
}

#[test]
fn profile_hook_run_before_failing_aborts_the_backup() {
    let s = setup();
    s.profile(
        "h",
        None,
        &format!(
            "run-before = [{rec}, 'exit 7', {rec}]\nrun-after = {rec}\nrun-failed = {rec}\nrun-finally = {rec}\n",
            rec = q(&s.rec)
        ),
    );
    let out = run_code_saying(
        s.bare().args(["-P", "h", "backup", "--no-progress"]),
        1,
        "run-before: `exit 7` exited with 7: nothing was backed up",
    );
    let err = stderr_str(&out);
    assert_eq!(err.matches("tangle: error:").count(), 1, "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(s.repo.snapshots().is_empty(), "a snapshot was made");
    let calls = s.calls();
    let hooks_run: Vec<&str> = calls.iter().map(|c| c[0].as_str()).collect();
    // The list stops at `exit 7`; no after; failed and finally do run.
    assert_eq!(hooks_run, hooks(&["before", "failed", "finally"]));
    assert_eq!(&calls[1][..4], ["failed", "h", "1", "-"]);
    assert!(
        calls[1][4].contains("exit 7"),
        "TANGLE_ERROR: {:?}",
        calls[1]
    );
    assert_eq!(calls[2], ["finally", "h", "1", "-", "-"]);

    // `run`: the backup step fails, the run stops there.
    let out = run_any(s.bare().args(["-P", "h", "run", "--json"]));
    assert_no_panic(&out, "run --json");
    assert_eq!(out.status.code(), Some(1));
    let v = parse_single_json_object(&out.stdout, "run --json");
    assert_eq!(v["steps"].as_array().map(Vec::len), Some(1), "{v:#}");
    assert_eq!(v["steps"][0]["exit_code"], 1, "{v:#}");
    assert!(s.repo.snapshots().is_empty(), "run made a snapshot");
    let hooks_run: Vec<String> = s.calls().into_iter().map(|c| c[0].clone()).collect();
    assert_eq!(hooks_run, hooks(&["before", "failed", "finally"]));
}

#[test]
fn profile_hooks_after_a_failed_backup_and_failing_later_hooks() {
    let s = setup();
    let rec = q(&s.rec);
    let all =
        format!("run-before = {rec}\nrun-after = {rec}\nrun-failed = {rec}\nrun-finally = {rec}\n");

    // The backup fails (its source is gone): failed and finally, never after.
    let gone = s.repo.path("gone");
    s.profile("h", Some(&gone), &all);
    run_code_saying(
        s.bare().args(["-P", "h", "backup", "--no-progress"]),
        1,
        "cannot be backed up",
    );
    let calls = s.calls();
    let hooks_run: Vec<&str> = calls.iter().map(|c| c[0].as_str()).collect();
    assert_eq!(hooks_run, hooks(&["before", "failed", "finally"]));
    assert!(
        calls[1][4].contains("cannot be backed up") && calls[1][2] == "1",
        "{:?}",
        calls[1]
    );

    // A failing run-after: the snapshot stands, a warning, exit 1; finally still runs.
    s.profile(
        "h",
        None,
        &format!("run-after = ['exit 4', {rec}]\nrun-failed = {rec}\nrun-finally = {rec}\n"),
    );
    let out = run_code_saying(
        s.bare().args(["-P", "h", "backup", "--no-progress"]),
        1,
        "tangle: warning: [backup] run-after: `exit 4` exited with 4",
    );
    assert!(!stderr_str(&out).contains("error"), "{}", stderr_str(&out));
    assert_eq!(s.repo.snapshots().len(), 1, "the snapshot is gone");
    let hooks_run: Vec<String> = s.calls().into_iter().map(|c| c[0].clone()).collect();
    assert_eq!(hooks_run, hooks(&["finally"]));

    // A failing run-finally after a good backup: exit 1 too.
    s.profile("h", None, "run-finally = 'false'\n");
    run_code_saying(
        s.bare().args(["-P", "h", "backup", "--no-progress"]),
        1,
        "run-finally: `false` exited with 1",
    );
    assert_eq!(s.repo.snapshots().len(), 2);
    // With none failing: 0.
    s.profile("h", None, "run-finally = 'true'\n");
    run_ok(s.bare().args(["-P", "h", "backup", "--no-progress"]));

    // Bad values: one usage error naming the key, exit 1, nothing run.
    for (bad, says) in [
        ("run-before = 3\n", "run-before"),
        ("run-after = ['']\n", "run-after"),
        (
            "run-before = 'true'\n[backup.hooks]\nrun-before = 'true'\n",
            "given twice",
        ),
        ("[backup.hooks]\nrun-sometimes = 'true'\n", "run-sometimes"),
    ] {
        s.profile("bad", None, bad);
        run_code_saying(s.bare().args(["-P", "bad", "backup"]), 1, says);
    }
    assert_eq!(s.repo.snapshots().len(), 3);
    // Without a profile no hook runs (and none is there to run).
    run_code(
        s.repo.cmd().args(["backup", "--no-progress"]).arg(&s.src),
        0,
    );
    assert!(s.calls().is_empty());
}
