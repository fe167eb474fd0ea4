//! End-to-end: choosing snapshots as restic does (issue 36, "for people switching from
//! restic"): `snapshots --host/--tag/--path/--latest/--group-by/--compact`, `latest`
//! scoped by `--host/--tag/--path` in every command that takes a SNAPSHOT, and
//! `tangle version`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::shared::files::write_file;
use crate::support::command::{
    assert_clean_failure, run_code, run_code_saying, run_ok, stderr_str, stdout_str, tangle_bare,
};
use crate::support::manifest::{Entry, assert_tree_matches, manifest};
use crate::support::repo::{Repo, parse_snapshots, restored_path};

/// Two hosts backing up different trees into one repository; host `b` backs up last, so
/// plain `latest` is `b`'s.
struct TwoHosts {
    repo: Repo,
    src_a: PathBuf,
    src_b: PathBuf,
    /// Snapshot ids, in backup order: a (daily), b (daily,db), a (weekly), b.
    ids: Vec<String>,
    /// `src_a` as its newest snapshot holds it.
    a_latest: Vec<Entry>,
}

fn two_hosts() -> TwoHosts {
    let repo = Repo::init();
    let src_a = repo.dir("src-a");
    let src_b = repo.dir("src-b");
    write_file(&src_a.join("alpha-only.txt"), b"alpha 1");
    write_file(&src_a.join("sub/alpha-deep.bin"), &[7u8; 5000]);
    write_file(&src_b.join("beta-only.txt"), b"beta 1");
    let mut ids = Vec::new();
    let mut backup = |src: &Path, extra: &[&str]| {
        ids.push(repo.backup(&[src], extra).snapshot_id);
    };
    backup(&src_a, &["--host", "a", "--tag", "daily"]);
    backup(&src_b, &["--host", "b", "--tag", "daily", "--tag", "db"]);
    write_file(&src_a.join("alpha-only.txt"), b"alpha 2, longer");
    write_file(&src_a.join("alpha-new.txt"), b"new in the second");
    backup(&src_a, &["--host", "a", "--tag", "weekly"]);
    write_file(&src_b.join("beta-new.txt"), b"beta 2");
    backup(&src_b, &["--host", "b"]);
    let a_latest = manifest(&src_a);
    TwoHosts {
        repo,
        src_a,
        src_b,
        ids,
        a_latest,
    }
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stdout_str(out)))
}

/// The ids of `snapshots --json ARGS`, oldest first.
fn listed(h: &TwoHosts, args: &[&str]) -> Vec<String> {
    let out = run_ok(h.repo.cmd().args(["snapshots", "--json"]).args(args));
    parse_snapshots(&out.stdout)
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

fn ids(h: &TwoHosts, which: &[usize]) -> Vec<String> {
    which.iter().map(|&i| h.ids[i].clone()).collect()
}

/// `ls latest --host a` lists a's files (not b's, whose snapshot is the newest);
/// `restore latest --host a` restores a's tree byte for byte; `dump`, `cat snapshot`,
/// `diff`, `stats` and `find` take the same flags.
#[test]
fn latest_is_scoped_by_host_in_every_command() {
    let h = two_hosts();
    let a = h.src_a.to_str().unwrap();
    let b = h.src_b.to_str().unwrap();

    let plain = stdout_str(&run_ok(h.repo.cmd().args(["ls", "latest"])));
    assert!(plain.contains("beta-new.txt"), "{plain}");
    for flag in ["--host", "-H"] {
        let out = stdout_str(&run_ok(h.repo.cmd().args(["ls", "latest", flag, "a"])));
        assert!(
            out.contains(&format!("{a}/alpha-new.txt")) && out.contains("alpha-deep.bin"),
            "ls latest {flag} a:\n{out}"
        );
        assert!(!out.contains(b) && !out.contains("beta"), "{out}");
    }

    let target = h.repo.path("restored-a");
    run_ok(
        h.repo
            .cmd()
            .args(["restore", "latest", "--host", "a", "--target"])
            .arg(&target),
    );
    assert_tree_matches(
        &h.a_latest,
        &restored_path(&target, &h.src_a),
        "restore latest --host a",
    );
    assert!(!restored_path(&target, &h.src_b).exists());
    // `latest:PATH` too.
    let sub = h.repo.path("restored-sub");
    run_ok(
        h.repo
            .cmd()
            .arg("restore")
            .arg(format!("latest:{a}/sub"))
            .args(["--host", "a", "--target"])
            .arg(&sub),
    );
    assert_eq!(
        std::fs::read(restored_path(&sub, &h.src_a).join("sub/alpha-deep.bin")).unwrap(),
        vec![7u8; 5000]
    );

    let out = run_ok(
        h.repo
            .cmd()
            .args(["dump", "latest", "--host", "a"])
            .arg(h.src_a.join("alpha-only.txt")),
    );
    assert_eq!(out.stdout, b"alpha 2, longer");

    let cat = json(&run_ok(
        h.repo
            .cmd()
            .args(["cat", "snapshot", "latest", "--host", "a"]),
    ));
    assert_eq!(cat["host"], "a", "{cat}");
    assert_eq!(cat["tags"], serde_json::json!(["weekly"]), "{cat}");

    // diff: `latest` on both sides is a's newest; the older one named by id.
    let diff = json(&run_ok(h.repo.cmd().args([
        "diff",
        h.ids[0].as_str(),
        "latest",
        "--host",
        "a",
        "--json",
    ])));
    assert_eq!(diff["b"], h.ids[2].as_str(), "{diff}");
    let changed: Vec<&str> = (diff["changes"].as_array().unwrap().iter())
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert!(
        changed.iter().any(|p| p.ends_with("/alpha-new.txt")),
        "{changed:?}"
    );

    // stats: with no snapshot named, the filter chooses which are counted.
    let stats = json(&run_ok(
        h.repo.cmd().args(["stats", "--host", "b", "--json"]),
    ));
    assert_eq!(stats["snapshots_count"], 2, "{stats}");
    let stats = json(&run_ok(
        h.repo
            .cmd()
            .args(["stats", "latest", "--tag", "daily", "--json"]),
    ));
    assert_eq!(stats["snapshots_count"], 1, "{stats}");

    // find: the filter chooses the snapshots searched, and `latest` among them.
    let found = json(&run_ok(
        h.repo
            .cmd()
            .args(["find", "--host", "a", "--json", "*.txt"]),
    ));
    assert_eq!(found["snapshots_searched"], 2, "{found}");
    let found = json(&run_ok(h.repo.cmd().args([
        "find", "-s", "latest", "--tag", "daily,db", "--json", "*.txt",
    ])));
    let hit = &found["snapshots"][0]["snapshot"];
    assert_eq!(hit["id"], h.ids[1].as_str(), "{found}");
}

/// `snapshots --host/--tag/--path`: restic's semantics (hosts and tag lists are
/// alternatives, the tags of one list and all paths are required); `snapshots ID...`.
#[test]
fn snapshots_filters() {
    let h = two_hosts();
    assert_eq!(listed(&h, &["--host", "a"]), ids(&h, &[0, 2]));
    assert_eq!(
        listed(&h, &["--host", "a", "--host", "b"]),
        ids(&h, &[0, 1, 2, 3])
    );
    assert!(listed(&h, &["--host", "nobody"]).is_empty());
    assert_eq!(listed(&h, &["--tag", "daily"]), ids(&h, &[0, 1]));
    assert_eq!(listed(&h, &["--tag", "daily,db"]), ids(&h, &[1]));
    assert_eq!(
        listed(&h, &["--tag", "db", "--tag", "weekly"]),
        ids(&h, &[1, 2])
    );
    assert_eq!(listed(&h, &["--tag", ""]), ids(&h, &[3]));
    assert_eq!(
        listed(&h, &["--host", "b", "--tag", "daily"]),
        ids(&h, &[1])
    );
    let b = h.src_b.to_str().unwrap();
    assert_eq!(listed(&h, &["--path", b]), ids(&h, &[1, 3]));
    assert_eq!(listed(&h, &["--path", &format!("{b}/")]), ids(&h, &[1, 3]));
    assert!(listed(&h, &["--path", b, "--path", h.src_a.to_str().unwrap()]).is_empty());
    // A relative --path is taken from the current directory, as backup takes sources.
    let out = run_ok(h.repo.cmd().current_dir(&h.repo.root).args([
        "snapshots",
        "--json",
        "--path",
        "src-a",
    ]));
    assert_eq!(parse_snapshots(&out.stdout).len(), 2);
    // Snapshots named: those (`latest` among the filtered ones), as restic.
    assert_eq!(listed(&h, &["latest", "--host", "a"]), ids(&h, &[2]));
    assert_eq!(
        listed(&h, &[&h.ids[1][..8], h.ids[0].as_str(), "latest"]),
        ids(&h, &[0, 1, 3])
    );
    // Text: only the matching rows, and the count.
    let text = stdout_str(&run_ok(h.repo.cmd().args(["snapshots", "--host", "b"])));
    assert!(
        text.contains(&h.ids[1][..8]) && text.contains(&h.ids[3][..8]),
        "{text}"
    );
    assert!(!text.contains(&h.ids[0][..8]), "{text}");
    assert!(text.trim_end().ends_with("2 snapshots"), "{text}");
}

/// `--latest N` keeps the N newest of each group; `--group-by` prints restic's groups;
/// without `--group-by`, `--json` keeps its flat array.
#[test]
fn latest_and_group_by() {
    let h = two_hosts();
    // Without --group-by: the N newest of all, in today's flat shape.
    assert_eq!(listed(&h, &["--latest", "1"]), ids(&h, &[3]));
    assert_eq!(listed(&h, &["--latest", "3"]), ids(&h, &[1, 2, 3]));
    assert_eq!(listed(&h, &["--latest", "1", "--host", "a"]), ids(&h, &[2]));

    let grouped = json(&run_ok(h.repo.cmd().args([
        "snapshots",
        "--json",
        "--latest",
        "1",
        "--group-by",
        "host",
    ])));
    let groups = grouped.as_array().expect("an array of groups");
    assert_eq!(groups.len(), 2, "{grouped}");
    for (group, host, id) in [(&groups[0], "a", &h.ids[2]), (&groups[1], "b", &h.ids[3])] {
        assert_eq!(
            group["group_key"],
            serde_json::json!({"host": host, "paths": null, "tags": null}),
            "{grouped}"
        );
        let snaps = group["snapshots"].as_array().unwrap();
        assert_eq!(snaps.len(), 1, "{grouped}");
        assert_eq!(snaps[0]["id"], id.as_str());
        assert_eq!(snaps[0]["host"], host);
    }
    // Every field, sorted; '' is one group with nulls.
    let grouped = json(&run_ok(h.repo.cmd().args([
        "snapshots",
        "--json",
        "--group-by",
        "host,paths,tags",
        "--host",
        "b",
    ])));
    assert_eq!(grouped.as_array().unwrap().len(), 2, "{grouped}");
    assert_eq!(
        grouped[1]["group_key"],
        serde_json::json!({"host": "b", "paths": [h.src_b.to_str().unwrap()], "tags": ["daily", "db"]}),
        "{grouped}"
    );
    let one = json(&run_ok(h.repo.cmd().args([
        "snapshots",
        "--json",
        "--group-by",
        "",
    ])));
    assert_eq!(one.as_array().unwrap().len(), 1, "{one}");
    assert_eq!(one[0]["snapshots"].as_array().unwrap().len(), 4, "{one}");
    assert!(one[0]["group_key"]["host"].is_null(), "{one}");

    // Text: a header per group, as restic prints it.
    let text = stdout_str(&run_ok(h.repo.cmd().args([
        "snapshots",
        "--group-by",
        "host",
        "--latest",
        "1",
    ])));
    let headers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("snapshots for"))
        .collect();
    assert_eq!(
        headers,
        ["snapshots for (host [a]):", "snapshots for (host [b]):"],
        "{text}"
    );
    assert_eq!(text.matches("1 snapshots").count(), 2, "{text}");

    // --compact: no paths column.
    let compact = stdout_str(&run_ok(h.repo.cmd().args(["snapshots", "--compact"])));
    let full = stdout_str(&run_ok(h.repo.cmd().arg("snapshots")));
    let a = h.src_a.to_str().unwrap();
    assert!(
        full.contains(a) && full.lines().next().unwrap().ends_with("Paths"),
        "{full}"
    );
    assert!(
        !compact.contains(a) && !compact.contains("Paths"),
        "{compact}"
    );
    assert_eq!(compact.lines().count(), full.lines().count(), "{compact}");
    assert!(compact.contains(&h.ids[0][..8]), "{compact}");
}

/// `latest` that no snapshot matches: one message naming the filter, exit 1 (an unknown
/// snapshot); an id is taken as given, with a warning when it does not match.
#[test]
fn no_match_and_ids_outside_the_filter() {
    let h = two_hosts();
    for args in [
        &["ls", "latest", "--host", "nobody"][..],
        &["dump", "latest", "--host", "nobody", "/x"],
        &["cat", "snapshot", "latest", "--host", "nobody"],
        &["diff", "latest", "latest", "--host", "nobody"],
        &["stats", "latest", "--host", "nobody"],
        &["find", "-s", "latest", "--host", "nobody", "x"],
    ] {
        let out = run_code(h.repo.cmd().args(args), 1);
        assert_clean_failure(&out, &format!("{args:?}"));
        let err = stderr_str(&out);
        assert_eq!(
            err.trim(),
            "tangle: error: no snapshot matches --host nobody",
            "{args:?}"
        );
    }
    run_code_saying(
        h.repo.cmd().args([
            "restore",
            "latest",
            "--tag",
            "daily,weekly",
            "--target",
            "/nonexistent/t",
        ]),
        1,
        "no snapshot matches --tag daily,weekly",
    );
    assert!(!Path::new("/nonexistent/t").exists());
    // With --json, the error object too.
    let out = run_code(
        h.repo
            .cmd()
            .args(["ls", "latest", "--json", "--host", "x", "--path", "/nope"]),
        1,
    );
    let last: Value = serde_json::from_str(stderr_str(&out).lines().last().unwrap()).unwrap();
    assert_eq!(last["exit_code"], 1);
    assert_eq!(last["error"], "no snapshot matches --host x --path /nope");

    // An id (prefix) names its snapshot whatever the filter, as in restic, and says so.
    let out = run_ok(h.repo.cmd().args(["ls", &h.ids[1][..8], "--host", "a"]));
    assert!(stdout_str(&out).contains("beta-only.txt"));
    assert!(
        stderr_str(&out).contains(&format!(
            "snapshot {} does not match --host a",
            &h.ids[1][..8]
        )),
        "{}",
        stderr_str(&out)
    );
    // A matching id: no warning.
    let out = run_ok(h.repo.cmd().args(["ls", h.ids[1].as_str(), "--host", "b"]));
    assert!(stderr_str(&out).is_empty(), "{}", stderr_str(&out));
}

/// Bad `--group-by` and `--latest`: one clear message, the usage exit code (1), never a
/// panic.
#[test]
fn bad_selection_flags_are_usage_errors() {
    let repo = Repo::uninit();
    for (args, says) in [
        (
            &["snapshots", "--group-by", "host,colour"][..],
            "unknown criterion \"colour\"",
        ),
        (
            &["snapshots", "--latest", "0"][..],
            "give a count of 1 or more",
        ),
        (
            &["snapshots", "--latest=-2"][..],
            "want a count of 1 or more",
        ),
        (
            &["snapshots", "--latest", "many"][..],
            "want a count of 1 or more",
        ),
    ] {
        let out = run_code(
            repo.cmd_as(crate::support::repo::Client::no_repo())
                .args(args),
            1,
        );
        assert_clean_failure(&out, &format!("{args:?}"));
        let err = stderr_str(&out);
        assert!(err.contains(says), "{args:?}:\n{err}");
        assert_eq!(
            err.lines().filter(|l| l.starts_with("error:")).count(),
            1,
            "{args:?}:\n{err}"
        );
    }
}

/// `tangle version`: its first line is `tangle --version`'s; `--json` has stable keys.
#[test]
fn version_text_and_json() {
    let home = tempfile::tempdir().unwrap();
    let short = stdout_str(&run_ok(tangle_bare(home.path()).arg("--version")));
    let long = stdout_str(&run_ok(tangle_bare(home.path()).arg("version")));
    assert_eq!(long.lines().next(), short.lines().next(), "{long}");
    assert_eq!(
        short.trim(),
        format!("tangle {}", env!("CARGO_PKG_VERSION"))
    );
    for key in ["target:", "features:", "repository format:", "tree format:"] {
        assert!(long.contains(key), "{long}");
    }

    let v: Value = serde_json::from_slice(
        &run_ok(tangle_bare(home.path()).args(["version", "--json"])).stdout,
    )
    .unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["features", "formats", "target", "version"], "{v}");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert!(v["target"].as_str().unwrap().contains("linux"), "{v}");
    // The tests run with the `testing` feature, beside the default `restic-import`.
    assert_eq!(
        v["features"],
        serde_json::json!(["restic-import", "testing"]),
        "{v}"
    );
    assert_eq!(
        v["formats"]["repository"]["reads"],
        serde_json::json!([1]),
        "{v}"
    );
    assert_eq!(
        v["formats"]["repository"]["writes"],
        serde_json::json!([1]),
        "{v}"
    );
    assert_eq!(
        v["formats"]["envelope"]["writes"],
        serde_json::json!([1]),
        "{v}"
    );
    assert_eq!(
        v["formats"]["tree"]["reads"],
        serde_json::json!([1, 2]),
        "{v}"
    );
}
