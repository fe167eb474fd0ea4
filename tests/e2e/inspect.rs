//! End-to-end: the inspection commands `find`, `diff`, `stats` and `cat`, through the
//! binary: what they print (text and `--json`), that their numbers are the ones a user
//! can check (file sizes written, bytes in the remote directories), and that `cat`
//! shows only authentic objects and needs no password for signed-only ones.

use std::fs;
use std::path::Path;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_code, run_code_saying, run_ok, stderr_str, stdout_str};
use crate::support::fsutil::{files_under, is_rfc3339, set_mode, set_mtime, system_hostname};
use crate::support::repo::{Client, Repo};
use crate::support::report::{is_hex, run_json};
use serde_json::{Value, json};

fn json_ok(cmd: &mut assert_cmd::Command, what: &str) -> Value {
    let (code, v, out) = run_json(cmd, what);
    assert_eq!(
        code,
        0,
        "{what}: exit {code}\nstderr:\n{}",
        stderr_str(&out)
    );
    v
}

fn s(p: &Path) -> String {
    p.to_str().expect("UTF-8 temp dir").to_string()
}

/// The full ids of the snapshots, oldest first.
fn ids_oldest_first(repo: &Repo) -> Vec<String> {
    repo.snapshots()
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect()
}

/// (snapshot id, matching paths) per snapshot of a `find --json` report.
fn hits(report: &Value) -> Vec<(String, Vec<String>)> {
    report["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|sm| {
            (
                sm["snapshot"]["id"].as_str().unwrap().to_string(),
                sm["matches"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["path"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn find_reports_matches_per_snapshot_newest_first() {
    let (repo, src) = Repo::with_source("a/report.txt", b"first report");
    write_file(&src.join("b/notes.md"), b"notes");
    repo.backup(&[&src], &[]);
    write_file(&src.join("c/Report-2.TXT"), b"second report");
    repo.backup(&[&src], &[]);
    fs::remove_file(src.join("a/report.txt")).unwrap();
    repo.backup(&[&src], &[]);
    let ids = ids_oldest_first(&repo);
    let (s1, s2, s3) = (&ids[0], &ids[1], &ids[2]);
    let src_s = s(&src);

    // Case-sensitive by name: only the first two snapshots hold a `*.txt`.
    let r = json_ok(repo.cmd().args(["find", "--json", "*.txt"]), "find *.txt");
    let report_txt = format!("{src_s}/a/report.txt");
    assert_eq!(
        hits(&r),
        vec![
            (s2.clone(), vec![report_txt.clone()]),
            (s1.clone(), vec![report_txt.clone()]),
        ]
    );
    assert_eq!(r["snapshots_searched"], 3);
    assert_eq!(r["matches"], 2);
    let m = &r["snapshots"][0]["matches"][0];
    assert_eq!(m["type"], "file");
    assert_eq!(m["size"], 12);
    assert!(is_rfc3339(m["mtime"].as_str().unwrap()), "{m}");

    // Ignoring case, the newest snapshot holds the upper-case one.
    let r = json_ok(
        repo.cmd()
            .args(["find", "--json", "--ignore-case", "REPORT*"]),
        "find -i",
    );
    let upper = format!("{src_s}/c/Report-2.TXT");
    assert_eq!(
        hits(&r),
        vec![
            (s3.clone(), vec![upper.clone()]),
            (s2.clone(), vec![report_txt.clone(), upper.clone()]),
            (s1.clone(), vec![report_txt.clone()]),
        ]
    );

    // A pattern with `/` matches the path; --snapshot restricts (prefix accepted).
    let r = json_ok(
        repo.cmd()
            .args(["find", "--json", "a/*.txt", "--snapshot", &s1[..10]]),
        "find --snapshot",
    );
    assert_eq!(hits(&r), vec![(s1.clone(), vec![report_txt.clone()])]);
    assert_eq!(r["snapshots_searched"], 1);

    // --path limits the search to a subtree; a directory matches too.
    let r = json_ok(
        repo.cmd().args([
            "find",
            "--json",
            "--snapshot",
            "latest",
            "--path",
            &format!("{src_s}/b"),
            "*",
        ]),
        "find --path",
    );
    assert_eq!(
        hits(&r),
        vec![(
            s3.clone(),
            vec![format!("{src_s}/b"), format!("{src_s}/b/notes.md")]
        )]
    );
    assert_eq!(r["snapshots"][0]["matches"][0]["type"], "dir");
    // A snapshot without the path has no match there (the first has no `c`).
    let r = json_ok(
        repo.cmd()
            .args(["find", "--json", "--path", &format!("{src_s}/c"), "*.TXT"]),
        "find --path absent",
    );
    assert_eq!(
        hits(&r),
        vec![
            (s3.clone(), vec![upper.clone()]),
            (s2.clone(), vec![upper.clone()])
        ]
    );
    run_code_saying(
        repo.cmd()
            .args(["find", "--path", &format!("{src_s}/../x"), "*"]),
        1,
        "`..`",
    );

    // No match is no error; the text output names the snapshot and the path.
    let r = json_ok(repo.cmd().args(["find", "--json", "*.jpg"]), "no match");
    assert_eq!(r["snapshots"], json!([]));
    let out = run_ok(repo.cmd().args(["find", "notes.md"]));
    let text = stdout_str(&out);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("snapshot ")).count(),
        3,
        "{text}"
    );
    assert!(text.contains(&format!("{src_s}/b/notes.md")), "{text}");
    assert!(text.contains("3 matches in 3 of 3 snapshots"), "{text}");
    // A bad pattern is a usage error.
    run_code_saying(repo.cmd().args(["find", "[x"]), 1, "invalid pattern");
}

/// The tree `diff` compares: each kind of change once, with sizes that make the bytes
/// added and removed exact (every file is one chunk of distinct content).
fn diff_fixture() -> (Repo, String, String, String) {
    let (repo, src) = Repo::with_source("gone.txt", &pseudo_random(1, 1000));
    write_file(&src.join("mod.txt"), &pseudo_random(2, 2000));
    write_file(&src.join("swap"), &pseudo_random(5, 500));
    write_file(&src.join("chmod.txt"), &pseudo_random(7, 700));
    write_file(&src.join("sub/deep/same.txt"), &pseudo_random(8, 800));
    set_mtime(&src.join("mod.txt"), 1_600_000_000, 0);
    repo.backup(&[&src], &[]);

    fs::remove_file(src.join("gone.txt")).unwrap();
    write_file(&src.join("mod.txt"), &pseudo_random(3, 3000));
    set_mtime(&src.join("mod.txt"), 1_600_000_000, 0);
    write_file(&src.join("new.txt"), &pseudo_random(4, 4000));
    fs::remove_file(src.join("swap")).unwrap();
    write_file(&src.join("swap/inner.txt"), &pseudo_random(6, 600));
    set_mode(&src.join("chmod.txt"), 0o600);
    repo.backup(&[&src], &[]);
    let ids = ids_oldest_first(&repo);
    let src_s = s(&src);
    (repo, ids[0].clone(), ids[1].clone(), src_s)
}

#[test]
fn diff_lists_each_kind_of_change_and_exact_byte_counts() {
    let (repo, a, b, src) = diff_fixture();

    let out = run_ok(repo.cmd().args(["diff", &a[..8], "latest"]));
    let expected = format!(
        "comparing snapshot {} to {}:\n\
         -    {src}/gone.txt\n\
         M    {src}/mod.txt  (2000 -> 3000 bytes)\n\
         +    {src}/new.txt\n\
         T    {src}/swap/\n\
         +    {src}/swap/inner.txt\n\
         files: 2 added, 2 removed, 1 changed; dirs: 1 added, 0 removed; others: 0 added, 0 removed; bytes: 7600 added, 3500 removed\n",
        &a[..8],
        &b[..8]
    );
    assert_eq!(stdout_str(&out), expected);

    let r = json_ok(repo.cmd().args(["diff", "--json", &a, &b]), "diff --json");
    assert_eq!(r["a"], a.as_str());
    assert_eq!(r["b"], b.as_str());
    assert_eq!(
        r["changes"],
        json!([
            {"path": format!("{src}/gone.txt"), "modifier": "-", "type": "file"},
            {"path": format!("{src}/mod.txt"), "modifier": "M", "type": "file",
             "old_size": 2000, "new_size": 3000, "what": ["content"]},
            {"path": format!("{src}/new.txt"), "modifier": "+", "type": "file"},
            {"path": format!("{src}/swap"), "modifier": "T", "type": "dir", "old_type": "file"},
            {"path": format!("{src}/swap/inner.txt"), "modifier": "+", "type": "file"},
        ])
    );
    let st = &r["stats"];
    for (k, v) in [
        ("files_added", 2),
        ("files_removed", 2),
        ("files_changed", 1),
        ("dirs_added", 1),
        ("dirs_removed", 0),
        ("type_changed", 1),
        ("blobs_added", 3),
        ("bytes_added", 3000 + 4000 + 600),
        ("blobs_removed", 3),
        ("bytes_removed", 1000 + 2000 + 500),
    ] {
        assert_eq!(st[k], v, "stats.{k}: {st:#}");
    }
    assert!(st["metadata_changed"].as_u64().unwrap() >= 2, "{st:#}");

    // --metadata adds the chmod (and the source directory, whose mtime changed).
    let r = json_ok(
        repo.cmd().args(["diff", "--json", "--metadata", &a, &b]),
        "diff --metadata",
    );
    let changes = r["changes"].as_array().unwrap();
    let chmod = changes
        .iter()
        .find(|c| c["path"] == format!("{src}/chmod.txt"))
        .unwrap_or_else(|| panic!("no change for chmod.txt: {r:#}"));
    assert_eq!(
        *chmod,
        json!({"path": format!("{src}/chmod.txt"), "modifier": "U", "type": "file",
               "old_size": 700, "new_size": 700, "what": ["mode"]})
    );
    let dir = changes.iter().find(|c| c["path"] == src).unwrap();
    assert_eq!(dir["modifier"], "U");
    assert!(dir["what"].as_array().unwrap().contains(&json!("mtime")));
    assert!(
        !changes.iter().any(|c| c["path"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{src}/sub"))),
        "the unchanged subtree shows up: {r:#}"
    );

    // A snapshot compared with itself: nothing.
    let r = json_ok(
        repo.cmd()
            .args(["diff", "--json", "--metadata", &b, "latest"]),
        "diff same",
    );
    assert_eq!(r["changes"], json!([]));
    // An unknown snapshot is an error naming it.
    run_code_saying(
        repo.cmd().args(["diff", "ffffffff", &b]),
        1,
        "no snapshot matches",
    );
}

/// Bytes of every file under a remote directory (what `du --apparent-size` counts).
fn du(dir: &Path) -> u64 {
    files_under(dir)
        .iter()
        .map(|f| fs::metadata(f).unwrap().len())
        .sum()
}

#[test]
fn stats_numbers_match_what_was_written() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let sizes = [1000usize, 20_000, 300_000, 5];
    for (i, n) in sizes.iter().enumerate() {
        write_file(
            &src.join(format!("d{i}/f{i}")),
            &pseudo_random(10 + i as u64, *n),
        );
    }
    let total: u64 = sizes.iter().map(|&n| n as u64).sum();
    repo.backup(&[&src], &[]);

    let r1 = json_ok(repo.cmd().args(["stats", "--json"]), "stats");
    assert_eq!(r1["mode"], "restore-size");
    assert_eq!(r1["snapshots_count"], 1);
    assert_eq!(r1["files"], sizes.len());
    assert_eq!(r1["logical_bytes"], total);
    assert_eq!(r1["total_size"], total);
    assert_eq!(r1["total_file_count"], sizes.len());
    assert_eq!(r1["unique_data_bytes"], total);
    assert_eq!(r1["dedup_ratio"].as_f64(), Some(1.0));
    assert!(r1["compression_ratio"].as_f64().unwrap() > 0.0);

    let u = &r1["repository"];
    for (i, rem) in u["remotes"].as_array().unwrap().iter().enumerate() {
        assert_eq!(rem["remote"], repo.url(i).as_str());
        assert_eq!(rem["reachable"], true);
        assert_eq!(
            rem["total_bytes"].as_u64(),
            Some(du(&repo.remotes[i])),
            "remote {i}: {rem:#}"
        );
        let parts: u64 = [
            "data_bytes",
            "parity_bytes",
            "metadata_bytes",
            "other_bytes",
        ]
        .iter()
        .map(|k| rem[k].as_u64().unwrap())
        .sum();
        assert_eq!(rem["total_bytes"].as_u64(), Some(parts));
    }
    // One data extent (4 data + 3 parity shards of one size) and one of trees (4 data +
    // 12 parity shards).
    assert_eq!(u["extents"].as_u64(), Some(2), "{u:#}");
    assert_eq!(u["shards"].as_u64(), Some(7 + 16), "{u:#}");
    let (data, parity) = (
        u["data_bytes"].as_f64().unwrap(),
        u["parity_bytes"].as_f64().unwrap(),
    );
    let overhead = u["parity_overhead"].as_f64().unwrap();
    assert!((overhead - parity / data).abs() < 1e-9, "{u:#}");
    assert!(overhead > 0.75 && overhead < 2.0, "{u:#}");
    let verify = json_ok(repo.cmd().args(["verify", "--json"]), "verify");
    assert_eq!(u["pointer_coverage"], verify["pointer_coverage"]);

    // The same tree again: twice the logical bytes over the same data.
    repo.backup(&[&src], &[]);
    let r2 = json_ok(repo.cmd().args(["stats", "--json"]), "stats after 2nd");
    assert_eq!(r2["snapshots_count"], 2);
    assert_eq!(r2["logical_bytes"], 2 * total);
    assert_eq!(r2["unique_data_bytes"], total);
    assert_eq!(r2["dedup_ratio"].as_f64(), Some(2.0));

    // One snapshot by id prefix, and raw-data mode.
    let first = &ids_oldest_first(&repo)[0];
    let r = json_ok(
        repo.cmd()
            .args(["stats", "--json", "--mode", "raw-data", &first[..8]]),
        "stats raw-data",
    );
    assert_eq!(r["snapshots"], json!([first]));
    assert_eq!(r["logical_bytes"], total);
    assert_eq!(r["total_size"], r["stored_blob_bytes"]);
    assert_eq!(r["total_file_count"], r["unique_blobs"]);

    // A file that is no object still counts on its remote (as `other`).
    write_file(&repo.remotes[1].join("README"), &[b'x'; 123]);
    let r3 = json_ok(
        repo.cmd().args(["stats", "--json"]),
        "stats with a foreign file",
    );
    let (before, after) = (
        &r2["repository"]["remotes"][1],
        &r3["repository"]["remotes"][1],
    );
    assert_eq!(
        after["other_bytes"].as_u64(),
        Some(before["other_bytes"].as_u64().unwrap() + 123)
    );
    assert_eq!(after["total_bytes"].as_u64(), Some(du(&repo.remotes[1])));

    let out = run_ok(repo.cmd().arg("stats"));
    let text = stdout_str(&out);
    assert!(text.contains("dedup ratio:         2.00"), "{text}");
    assert!(text.contains(&repo.url(2)), "{text}");
}

/// Walk `cat tree` from the snapshot's root down to `path`; the node found.
fn node_at(repo: &Repo, root: &str, path: &Path) -> Value {
    let mut tree = root.to_string();
    let comps: Vec<String> = path
        .components()
        .skip(1)
        .map(|c| c.as_os_str().to_str().unwrap().to_string())
        .collect();
    for (i, name) in comps.iter().enumerate() {
        let t = json_ok(repo.cmd().args(["cat", "tree", &tree]), "cat tree");
        let node = t["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == name.as_str())
            .unwrap_or_else(|| panic!("{name} not in tree {tree}: {t:#}"))
            .clone();
        if i + 1 == comps.len() {
            return node;
        }
        tree = node["subtree"].as_str().unwrap().to_string();
    }
    panic!("empty path")
}

fn object_names(remote: &Path, dir: &str) -> Vec<String> {
    let mut v: Vec<String> = files_under(&remote.join(dir))
        .iter()
        .map(|p| {
            p.strip_prefix(remote.join(dir))
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    v.sort();
    v
}

#[test]
fn cat_shows_every_kind_of_object_checked() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let content = pseudo_random(42, 5000);
    write_file(&src.join("dir/file.bin"), &content);
    repo.backup(&[&src], &[]);
    repo.backup(&[&src], &["--tag", "second"]);
    let snaps = repo.snapshots();
    let (first, second) = (
        snaps[0]["id"].as_str().unwrap().to_string(),
        snaps[1]["id"].as_str().unwrap().to_string(),
    );

    // Signed-only objects: no password needed, with a fresh cache.
    let c = json_ok(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .args(["cat", "config"]),
        "cat config",
    );
    let verify = json_ok(repo.cmd().args(["verify", "--json"]), "verify");
    assert_eq!(c["owner_fingerprint"], verify["owner_fingerprint"]);
    assert_eq!(c["remotes"], json!([repo.url(0), repo.url(1), repo.url(2)]));
    assert_eq!(c["data_shards"], 4);
    assert_eq!(c["parity_shards"], 3);
    assert!(is_hex(c["id"].as_str().unwrap(), 32), "{c:#}");

    let ext = &object_names(&repo.remotes[0], "extents")[0];
    let cert = json_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["cat", "certificate", &ext[..12]]),
        "cat certificate",
    );
    assert_eq!(cert["name"], ext.as_str());
    let shards = cert["shards"].as_array().unwrap();
    // A data extent (4 + 3) or a tree extent (4 + 12).
    let (s, p) = (cert["data_shards"].as_u64(), cert["parity_shards"].as_u64());
    assert!(
        matches!((s, p), (Some(4), Some(3)) | (Some(4), Some(12))),
        "{cert:#}"
    );
    assert_eq!(shards.len(), shards_of(&cert));
    assert_eq!(shards[0]["kind"], "data");
    assert_eq!(shards[shards.len() - 1]["kind"], "parity");
    let remote = shards[0]["remote"].as_str().unwrap();
    assert!((0..3).any(|i| repo.url(i) == remote), "{cert:#}");

    let key = &object_names(&repo.remotes[0], "keys")[0];
    let k = json_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["cat", "key", key]),
        "cat key",
    );
    assert_eq!(k["id"], key.as_str());
    assert_eq!(k["kdf"]["algorithm"], "argon2id");
    assert_eq!(k["host"], system_hostname().as_str());

    // The newest head of the second backup's writer names its snapshot.
    let heads = object_names(&repo.remotes[0], "heads");
    let found: Vec<Value> = heads
        .iter()
        .map(|h| {
            json_ok(
                repo.cmd_as(Client::via(0).no_password())
                    .args(["cat", "head", h]),
                "cat head WRITER/SEQ",
            )
        })
        .collect();
    assert!(
        found.iter().any(|h| h["snapshot"] == second.as_str()),
        "no head names {second}: {found:#?}"
    );
    let writer = heads[0].split('/').next().unwrap();
    let newest = json_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["cat", "head", &writer[..10]]),
        "cat head WRITER",
    );
    assert_eq!(newest["writer"], writer);

    // Encrypted objects need the password (none given, no terminal: exit 1).
    run_code_saying(
        repo.cmd_as(Client::via(0).no_password())
            .args(["cat", "snapshot", "latest"]),
        1,
        "password",
    );
    let snap = json_ok(
        repo.cmd().args(["cat", "snapshot", "latest"]),
        "cat snapshot",
    );
    assert_eq!(snap["id"], second.as_str());
    assert_eq!(snap["tags"], json!(["second"]));
    assert_eq!(snap["summary"]["files"], 1);
    let snap1 = json_ok(
        repo.cmd().args(["cat", "snapshot", &first[..8]]),
        "cat snapshot prefix",
    );
    assert_eq!(snap1["id"], first.as_str());

    let node = node_at(
        &repo,
        snap["tree"].as_str().unwrap(),
        &src.join("dir/file.bin"),
    );
    assert_eq!(node["type"], "file");
    assert_eq!(node["size"], 5000);
    let blob = node["content"][0].as_str().unwrap();
    let out = run_ok(repo.cmd().args(["cat", "blob", blob]));
    assert_eq!(out.stdout, content, "cat blob prints the plaintext");
    let bj = json_ok(
        repo.cmd().args(["cat", "--json", "blob", &blob[..16]]),
        "cat blob",
    );
    assert_eq!(bj["raw_len"], 5000);
    assert_eq!(bj["id"], blob);

    // Some index segment lists the blob as data.
    let listed = object_names(&repo.remotes[0], "index").iter().any(|seg| {
        let idx = json_ok(repo.cmd().args(["cat", "index", &seg[..12]]), "cat index");
        assert_eq!(idx["id"], seg.as_str());
        idx["extents"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|e| e["blobs"].as_array().unwrap().clone())
            .any(|b| b["id"] == blob && b["kind"] == "data")
    });
    assert!(listed, "no index segment lists blob {blob}");

    // A deletion record, after deleting the first snapshot.
    run_ok(repo.cmd().args(["delete", &first]));
    let del = &object_names(&repo.remotes[0], "deletions")[0];
    let d = json_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["cat", "deletion", del]),
        "cat deletion",
    );
    assert_eq!(d["snapshots"], json!([first]));

    // Usage errors: not hex, no match.
    run_code_saying(
        repo.cmd_as(Client::via(0).no_password())
            .args(["cat", "key", "xyz"]),
        1,
        "is not a key id",
    );
    let out = run_code(
        repo.cmd_as(Client::via(0).no_password())
            .args(["cat", "certificate", "0000000000"]),
        1,
    );
    let err = stderr_str(&out);
    assert!(
        err.contains("no extent certificate matches") || ext.starts_with("0000000000"),
        "{err}"
    );
}

#[test]
fn cat_refuses_forged_and_foreign_objects() {
    let (repo, _) = Repo::with_snapshot_of("f", b"data");
    let head = object_names(&repo.remotes[0], "heads")[0].clone();
    // Every command below starts with an empty cache: an authentic copy this client
    // cached earlier would be served from there (checked, as every read is).

    // Another repository's head planted on every remote: signed, but by another owner.
    let other = Repo::init();
    let other_src = other.dir("src");
    write_file(&other_src.join("g"), b"other");
    other.backup(&[&other_src], &[]);
    let foreign = object_names(&other.remotes[0], "heads")[0].clone();
    for r in &repo.remotes {
        let to = r.join("heads").join(&foreign);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(other.remotes[0].join("heads").join(&foreign), &to).unwrap();
    }
    let out = run_code(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["cat", "head", &foreign]),
        22,
    );
    let err = stderr_str(&out);
    assert!(
        err.contains(&format!("refusing heads/{foreign}")) && err.contains("signed by another key"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing is shown of a forged object");

    // A forged copy on one remote only: the authentic one on the others is shown.
    let mut forged = fs::read(repo.remotes[0].join("heads").join(&head)).unwrap();
    let n = forged.len();
    forged[n - 1] ^= 0x01;
    fs::write(repo.remotes[0].join("heads").join(&head), &forged).unwrap();
    let h = json_ok(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["cat", "head", &head]),
        "cat head",
    );
    assert_eq!(h["path"], format!("heads/{head}"));

    // Forged everywhere: refused as a trust violation, as verify calls it.
    for r in &repo.remotes[1..] {
        fs::write(r.join("heads").join(&head), &forged).unwrap();
    }
    let out = run_code(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["--json", "cat", "head", &head]),
        22,
    );
    assert!(out.stdout.is_empty());
    let err = stderr_str(&out);
    let last: Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(last["exit_code"], 22);
    assert!(
        last["error"].as_str().unwrap().contains("bad signature"),
        "{err}"
    );

    // Garbage everywhere is damage, not forgery: exit 1, naming every remote.
    for r in &repo.remotes {
        fs::write(r.join("heads").join(&head), b"garbage").unwrap();
    }
    let out = run_code(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["cat", "head", &head]),
        1,
    );
    let err = stderr_str(&out);
    assert!(err.contains("no good copy"), "{err}");
    for i in 0..3 {
        assert!(err.contains(&repo.url(i)), "{err}");
    }
}

fn shards_of(cert: &serde_json::Value) -> usize {
    (cert["data_shards"].as_u64().unwrap_or(0) + cert["parity_shards"].as_u64().unwrap_or(0))
        as usize
}
