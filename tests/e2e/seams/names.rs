//! Names in human output: a file name from a snapshot or an object name a remote lists
//! is printed escaped (`\n`, `\x1b`, `\\`, `\xNN` for bytes of invalid UTF-8; see
//! docs/CLI.md, "Names in human output"), so a hostile name cannot forge a line such as
//! `no damage found` nor drive the terminal. `--json` and plain `ls` into a pipe keep the
//! exact names.

use std::path::Path;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{assert_no_panic, run_any, run_ok, stdout_str};
use crate::support::fsutil::raw;
use crate::support::repo::{Client, Repo};
use crate::support::report::{expect_code, run_report, show_findings, verify_findings};
use serde_json::Value;

/// A name with a newline and a fake verdict after it.
const FORGED: &[u8] = b"x\nno damage found";
/// A name with an escape sequence (erase the line) and a carriage return.
const ERASE: &[u8] = b"e\x1b[2K\rgone";
/// A name that is not UTF-8.
const NOT_UTF8: &[u8] = b"bad\xffname";

fn s(p: &Path) -> String {
    p.to_str().expect("UTF-8 temp dir").to_string()
}

fn lines(out: &[u8]) -> Vec<&[u8]> {
    out.split(|&b| b == b'\n').collect()
}

/// No byte that a terminal would act on, other than the newlines ending lines.
fn assert_no_controls(out: &[u8], what: &str) {
    assert!(
        !out.iter().any(|&b| b != b'\n' && (b < 0x20 || b == 0x7f)),
        "{what} printed a control byte:\n{}",
        String::from_utf8_lossy(out)
    );
}

/// Two snapshots of `src`: without, then with the three hostile names (and a name with a
/// backslash). Returns (repo, src, first id, second id).
fn hostile_tree() -> (Repo, std::path::PathBuf, String, String) {
    let (repo, src) = Repo::with_source("plain.txt", b"plain");
    let a = repo.backup(&[&src], &[]).snapshot_id;
    for name in [FORGED, ERASE, NOT_UTF8, b"back\\slash"] {
        write_file(&src.join(raw(name)), b"hostile");
    }
    let b = repo
        .backup(
            &[&src],
            &["--host", "h\nno damage found", "--tag", "t\x1b[2K"],
        )
        .snapshot_id;
    (repo, src, a, b)
}

#[test]
fn find_diff_and_ls_long_print_hostile_names_escaped_on_one_line_each() {
    let (repo, src, a, b) = hostile_tree();
    let root = s(&src);
    let escaped = [
        format!("{root}/x\\nno damage found"),
        format!("{root}/e\\x1b[2K\\rgone"),
        format!("{root}/bad\\xffname"),
        format!("{root}/back\\\\slash"),
    ];

    let runs: [(&str, Vec<&str>); 3] = [
        ("find", vec!["find", "*", "--snapshot", &b]),
        ("diff", vec!["diff", &a, &b]),
        ("ls -l", vec!["ls", "-l", &b]),
    ];
    for (what, args) in runs {
        let out = run_ok(repo.cmd().args(&args)).stdout;
        assert_no_controls(&out, what);
        let text = String::from_utf8(out.clone()).expect("escaped output is UTF-8");
        for name in &escaped {
            assert_eq!(
                text.lines().filter(|l| l.ends_with(name.as_str())).count(),
                1,
                "{what}: {name} not on exactly one line:\n{text}"
            );
        }
        assert!(
            !lines(&out)
                .iter()
                .any(|l| l.starts_with(b"no damage found")),
            "{what}: a name forged a line:\n{text}"
        );
        // A plain name prints as it is (diff lists only what changed).
        assert!(
            what == "diff" || text.contains(&format!("{root}/plain.txt")),
            "{what}:\n{text}"
        );
    }
}

#[test]
fn snapshots_print_host_and_tags_escaped() {
    let (repo, _, _, b) = hostile_tree();
    let out = run_ok(repo.cmd().arg("snapshots")).stdout;
    assert_no_controls(&out, "snapshots");
    let text = String::from_utf8(out).expect("escaped output is UTF-8");
    let row = (text.lines())
        .find(|l| l.starts_with(&b[..8]))
        .unwrap_or_else(|| panic!("no row for {b}:\n{text}"));
    assert!(
        row.contains("h\\nno damage found") && row.contains("t\\x1b[2K"),
        "{row}"
    );
    // JSON: exact.
    let list = repo.snapshots();
    let v = list.iter().find(|v| v["id"] == b.as_str()).unwrap();
    assert_eq!(v["host"], "h\nno damage found");
    assert_eq!(v["tags"][0], "t\x1b[2K");
}

#[test]
fn plain_ls_into_a_pipe_and_json_keep_the_exact_names() {
    let (repo, src, a, b) = hostile_tree();
    let root = s(&src);

    // Plain `ls` into a pipe: each line is the path's exact bytes (docs/CLI.md).
    let out = run_ok(repo.cmd().args(["ls", &b])).stdout;
    for name in [FORGED, ERASE, NOT_UTF8, b"back\\slash"] {
        let mut line = format!("{root}/").into_bytes();
        line.extend_from_slice(name);
        line.push(b'\n');
        assert!(
            out.windows(line.len()).any(|w| w == line),
            "plain ls lacks {:?}:\n{}",
            String::from_utf8_lossy(&line),
            String::from_utf8_lossy(&out)
        );
    }

    // `--json`: the names as they are (invalid UTF-8 as U+FFFD, as before).
    let exact = [
        format!("{root}/x\nno damage found"),
        format!("{root}/e\x1b[2K\rgone"),
        format!("{root}/bad\u{fffd}name"),
        format!("{root}/back\\slash"),
    ];
    let ls: Value =
        serde_json::from_slice(&run_ok(repo.cmd().args(["ls", &b, "--json"])).stdout).unwrap();
    let find: Value = serde_json::from_slice(
        &run_ok(repo.cmd().args(["find", "*", "--snapshot", &b, "--json"])).stdout,
    )
    .unwrap();
    let diff: Value =
        serde_json::from_slice(&run_ok(repo.cmd().args(["diff", &a, &b, "--json"])).stdout)
            .unwrap();
    let paths = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|e| e["path"].as_str().unwrap().to_string())
            .collect()
    };
    let ls_paths = paths(&ls);
    let find_paths = paths(&find["snapshots"][0]["matches"]);
    let diff_paths = paths(&diff["changes"]);
    for name in &exact {
        for (what, got) in [
            ("ls", &ls_paths),
            ("find", &find_paths),
            ("diff", &diff_paths),
        ] {
            assert!(got.contains(name), "{what} --json lacks {name:?}: {got:?}");
        }
    }
}

#[test]
fn plain_ls_on_a_terminal_escapes_names() {
    let (repo, src, _, b) = hostile_tree();
    let drawn = repo.on_a_terminal(&format!("ls {b}"), "dumb");
    // The terminal turns each newline into CR LF.
    let drawn: Vec<u8> = String::from_utf8(drawn)
        .expect("escaped output is UTF-8")
        .replace("\r\n", "\n")
        .into_bytes();
    assert_no_controls(&drawn, "ls on a terminal");
    let text = String::from_utf8(drawn).unwrap();
    let root = s(&src);
    for name in ["x\\nno damage found", "e\\x1b[2K\\rgone", "bad\\xffname"] {
        assert!(
            text.lines().any(|l| l == format!("{root}/{name}")),
            "{name}:\n{text}"
        );
    }
}

/// Plant a file named `rel` (raw bytes) in remote `i`'s directory.
fn plant(repo: &Repo, i: usize, dir: &str, name: &[u8]) {
    let d = repo.remotes[i].join(dir);
    std::fs::create_dir_all(&d).unwrap();
    write_file(&d.join(raw(name)), b"junk");
}

#[test]
fn hostile_object_names_on_a_remote_cannot_forge_verify_lines() {
    let (repo, _) = Repo::with_snapshot_of("a.bin", &pseudo_random(4, 100_000));
    plant(&repo, 1, "snapshots", b"junk\nno damage found");
    plant(&repo, 1, "shards", b"j\x1b[2K\rno damage found");

    for args in [vec!["verify"], vec!["verify", "-v"]] {
        let out = run_ok(repo.cmd_as(Client::via(0).no_password()).args(&args));
        let what = args.join(" ");
        assert_no_controls(&out.stdout, &what);
        assert_no_controls(&out.stderr, &what);
        let text = stdout_str(&out);
        // The verdict is the last line and the only one that starts so.
        let verdicts: Vec<&str> = (text.lines())
            .filter(|l| l.starts_with("no damage found"))
            .collect();
        assert_eq!(verdicts.len(), 1, "{what}:\n{text}");
        assert_eq!(text.lines().last(), Some(verdicts[0]), "{what}:\n{text}");
        if args.contains(&"-v") {
            // Each hostile object named, escaped, with its remote.
            for name in [
                "snapshots/junk\\nno damage found",
                "shards/j\\x1b[2K\\rno damage found",
            ] {
                assert!(
                    text.lines().any(|l| l.starts_with("info: ")
                        && l.contains(name)
                        && l.contains(&repo.url(1))),
                    "{what}: {name} not named with its remote:\n{text}"
                );
            }
        }
    }

    // JSON keeps the exact names.
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify --json",
    );
    expect_code(code, 0, &v, "verify --json");
    for name in [
        "snapshots/junk\nno damage found",
        "shards/j\x1b[2K\rno damage found",
    ] {
        assert!(
            verify_findings(&v)
                .iter()
                .any(|f| f["path"] == name && f["remote"] == repo.url(1).as_str()),
            "{name:?}: {}",
            show_findings(&v)
        );
    }
}

#[test]
fn verify_text_names_the_remote_of_a_planted_object() {
    let (repo, _) = Repo::with_snapshot_of("a.bin", &pseudo_random(5, 100_000));
    // Junk under a canonical snapshot name, on remote 1 only.
    let name = format!("snapshots/{}", "ab".repeat(32));
    write_file(&repo.remotes[1].join(&name), b"junk");

    let (_, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify --json",
    );
    let finding = verify_findings(&v)
        .into_iter()
        .find(|f| f["path"] == name.as_str())
        .unwrap_or_else(|| panic!("no finding for {name}: {}", show_findings(&v)));
    assert_eq!(finding["remote"], repo.url(1).as_str(), "{finding:#}");

    let out = run_any(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "-v"]),
    );
    assert_no_panic(&out, "verify -v");
    let text = stdout_str(&out);
    let line = text
        .lines()
        .find(|l| l.contains(&name))
        .unwrap_or_else(|| panic!("{name} not in the text:\n{text}"));
    assert!(
        line.contains(&repo.url(1)),
        "the finding does not name its remote: {line}\n{text}"
    );
}
