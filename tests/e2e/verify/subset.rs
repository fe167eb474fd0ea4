//! `verify --read-data-subset` through the binary, in restic's three forms: `P%` reads at
//! least one extent however small the repository; `n/t` splits the extents into t
//! groups by name, so a rotation 1/t … t/t reads each extent exactly once and finds a
//! bit-flipped shard in exactly one run; `SIZE` reads random extents up to a byte
//! budget; bad forms are usage errors; a profile's `[verify] read-data-subset` takes the
//! same forms, for `verify` and for `run`.
//!
//! The repository is created through the library with small extents (64 KiB), so that
//! about 1 MiB gives a few dozen extents; everything else runs the binary, without the
//! password.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    PASSWORD, assert_no_panic, run_any, run_code, run_ok, stderr_str, stdout_str,
};
use crate::support::fsutil::{apparent_size, files_under};
use crate::support::remote_dirs::flip_bytes;
use crate::support::repo::{Client, Repo, fine_chunked_init_options};
use crate::support::report::{
    expect_code, parse_single_json_object, run_report, show_findings, verify_damage,
};
use serde_json::Value;

const EXTENT_SIZE: u32 = 64 * 1024;

/// A repository over three local remotes with one backup of about 1 MiB.
fn setup() -> Repo {
    let repo = Repo::uninit();
    tangle::repo::init(
        &fine_chunked_init_options(&repo, EXTENT_SIZE),
        PASSWORD.as_bytes(),
    )
    .expect("library init");
    let src = repo.dir("src");
    for i in 0..3 {
        write_file(&src.join(format!("f{i}.bin")), &pseudo_random(i, 350_000));
    }
    repo.backup(&[&src], &[]);
    repo
}

/// `tangle -r remotes[via] verify --json ARGS` without a password: exit code and report.
fn verify(repo: &Repo, via: usize, args: &[&str]) -> (i32, Value) {
    let what = format!("verify {}", args.join(" "));
    run_report(
        repo.cmd_as(Client::via(via).no_password())
            .arg("verify")
            .arg("--json")
            .args(args),
        &what,
    )
}

/// The same in text: exit code and stdout.
fn verify_text(repo: &Repo, args: &[&str]) -> (i32, String) {
    let o = run_any(
        repo.cmd_as(Client::via(0).no_password())
            .arg("verify")
            .args(args),
    );
    assert_no_panic(&o, &format!("verify {}", args.join(" ")));
    (o.status.code().unwrap_or(-1), stdout_str(&o))
}

/// The `subset.extent_names` of a report, checked against `subset.extents_read`.
fn names_read(v: &Value) -> Vec<String> {
    let s = &v["subset"];
    let names: Vec<String> = (s["extent_names"].as_array())
        .unwrap_or_else(|| panic!("no subset.extent_names in\n{v:#}"))
        .iter()
        .map(|n| n.as_str().expect("a name is a string").to_string())
        .collect();
    assert_eq!(
        s["extents_read"].as_u64(),
        Some(names.len() as u64),
        "{v:#}"
    );
    names
}

/// Every extent on the remotes, with the bytes of all its shards (all remotes).
fn extents_on_disk(repo: &Repo) -> BTreeMap<String, u64> {
    let mut sizes = BTreeMap::new();
    for r in &repo.remotes {
        for p in files_under(&r.join("shards")) {
            let extent = p.parent().unwrap().file_name().unwrap();
            *sizes
                .entry(extent.to_str().unwrap().to_string())
                .or_default() += apparent_size(&p);
        }
    }
    sizes
}

/// The group of `n/t` an extent belongs to, as docs/CLI.md defines it: the first 8
/// bytes of its name, big-endian, modulo t, plus one.
fn documented_group(name: &str, t: u64) -> u64 {
    u64::from_str_radix(&name[..16], 16).unwrap() % t + 1
}

#[test]
fn a_percentage_reads_at_least_one_extent_of_a_small_repository() {
    let repo = setup();
    let extents = extents_on_disk(&repo).len();
    assert!(
        (10..60).contains(&extents),
        "{extents} extents: 2% of them is less than one"
    );
    for seed in ["1", "2", "3", "4", "5"] {
        let (code, v) = verify(&repo, 0, &["--read-data-subset", "2%", "--seed", seed]);
        expect_code(code, 0, &v, "2% sample");
        assert!(
            v["shards_read"].as_u64().unwrap() > 0,
            "seed {seed}: 2% read nothing\n{v:#}"
        );
        assert!(v["bytes_read"].as_u64().unwrap() > 0, "{v:#}");
        let names = names_read(&v);
        assert!(!names.is_empty(), "{v:#}");
        let s = &v["subset"];
        assert_eq!(s["form"], "percent", "{v:#}");
        assert_eq!(s["percent"].as_f64(), Some(2.0), "{v:#}");
        assert_eq!(s["seed"].as_u64(), seed.parse().ok(), "{v:#}");
        for r in s["detection_rates"].as_array().unwrap() {
            assert!(r["probability"].as_f64().unwrap() > 0.0, "{v:#}");
        }
        // The bare number is a percentage too, and the seed repeats the sample.
        let (_, bare) = verify(&repo, 1, &["--read-data-subset", "2", "--seed", seed]);
        assert_eq!(names_read(&bare), names, "seed {seed}: `2` and `2%` differ");
    }
    // The text says what was read, of how much, and no 0% probability.
    let (code, text) = verify_text(&repo, &["--read-data-subset", "2%", "--seed", "1"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!(" of {extents} extents (")),
        "no `N of {extents} extents` in:\n{text}"
    );
    assert!(text.contains("would be caught with probability"), "{text}");
    assert!(!text.contains("probability 0.0%"), "{text}");
}

#[test]
fn a_rotation_reads_every_extent_once_and_finds_a_flipped_shard_once() {
    let repo = setup();
    let all = extents_on_disk(&repo);
    // Bit rot in one data shard on remote 1: same size, so only reading it finds it.
    let shard: PathBuf = files_under(&repo.remotes[1].join("shards"))
        .into_iter()
        .find(|p| p.file_name().is_some_and(|n| n == "0"))
        .expect("a data shard on remote 1");
    let flipped = shard.parent().unwrap().file_name().unwrap();
    let flipped = flipped.to_str().unwrap().to_string();
    flip_bytes(&shard);
    let (code, v) = verify(&repo, 0, &[]);
    expect_code(code, 0, &v, "plain verify does not read shards");

    let t = 4;
    let mut seen: Vec<String> = Vec::new();
    let mut found_in = Vec::new();
    for n in 1..=t {
        let spec = format!("{n}/{t}");
        let (code, v) = verify(&repo, 0, &["--read-data-subset", &spec]);
        let s = &v["subset"];
        assert_eq!(s["form"], "group", "{v:#}");
        assert_eq!((s["n"].as_u64(), s["t"].as_u64()), (Some(n), Some(t)));
        assert_eq!(s["seed"], 0, "n/t draws nothing: {v:#}");
        assert_eq!(v["extents"].as_u64(), Some(all.len() as u64), "{v:#}");
        let names = names_read(&v);
        for name in &names {
            assert_eq!(documented_group(name, t), n, "{spec} read {name}");
        }
        if names.contains(&flipped) {
            expect_code(code, 20, &v, &spec);
            let bad: Vec<Value> = (verify_damage(&v).into_iter())
                .filter(|f| f["kind"] == "bad-shard")
                .collect();
            assert_eq!(bad.len(), 1, "{spec}:\n{}", show_findings(&v));
            assert_eq!(bad[0]["remote"].as_str(), Some(repo.url(1).as_str()));
            assert_eq!(bad[0]["extent"].as_str(), Some(flipped.as_str()));
            found_in.push(n);
            // The text names the remote too.
            let (code, text) = verify_text(&repo, &["--read-data-subset", &spec]);
            assert_eq!(code, 20, "{text}");
            assert!(
                text.contains(&repo.url(1)) && text.contains("damage"),
                "{text}"
            );
        } else {
            expect_code(code, 0, &v, &spec);
        }
        seen.extend(names);
    }
    assert_eq!(found_in.len(), 1, "found in runs {found_in:?} of 1..={t}");
    let unique: BTreeSet<&String> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "an extent read twice: {seen:?}");
    let expected: BTreeSet<&String> = all.keys().collect();
    assert_eq!(unique, expected, "the rotation did not read every extent");
}

#[test]
fn a_group_is_the_same_every_time_and_keeps_its_extents_as_more_come() {
    let repo = setup();
    // One group that holds something: at most 3 groups, a few dozen extents.
    let (_, a) = verify(&repo, 0, &["--read-data-subset", "2/3"]);
    let before = names_read(&a);
    assert!(!before.is_empty(), "{a:#}");
    let (_, b) = verify(&repo, 2, &["--read-data-subset", "2/3"]);
    assert_eq!(names_read(&b), before, "the same n/t read other extents");
    // A new backup adds extents; the old ones stay in their groups.
    let src = repo.dir("more");
    write_file(&src.join("g.bin"), &pseudo_random(9, 300_000));
    repo.backup(&[&src], &[]);
    let (code, c) = verify(&repo, 1, &["--read-data-subset", "2/3"]);
    expect_code(code, 0, &c, "2/3 after a backup");
    let after: BTreeSet<String> = names_read(&c).into_iter().collect();
    assert!(
        before.iter().all(|n| after.contains(n)),
        "extents left group 2/3 when others were added: {before:?} -> {after:?}"
    );
}

#[test]
fn a_size_reads_at_least_one_extent_and_stops_near_the_budget() {
    let repo = setup();
    let sizes = extents_on_disk(&repo);
    let largest = *sizes.values().max().unwrap();
    let total: u64 = sizes.values().sum();
    let budget = 400 * 1024;
    assert!(
        largest < budget && budget < total / 2,
        "extents of up to {largest} bytes, {total} in all"
    );
    let (code, v) = verify(&repo, 0, &["--read-data-subset", "400K", "--seed", "3"]);
    expect_code(code, 0, &v, "400K");
    let s = &v["subset"];
    assert_eq!(s["form"], "size", "{v:#}");
    assert_eq!(s["budget_bytes"].as_u64(), Some(budget), "{v:#}");
    assert_eq!(s["bytes_total"].as_u64(), Some(total), "{v:#}");
    let read: u64 = names_read(&v).iter().map(|n| sizes[n]).sum();
    assert_eq!(v["bytes_read"].as_u64(), Some(read), "{v:#}");
    assert!(
        read <= budget && read + largest > budget,
        "read {read} bytes for a budget of {budget} (extents up to {largest})"
    );
    // The same seed, the same extents; a budget below any extent still reads one.
    let (_, again) = verify(&repo, 1, &["--read-data-subset", "400K", "--seed", "3"]);
    assert_eq!(names_read(&again), names_read(&v));
    let (code, v) = verify(&repo, 0, &["--read-data-subset", "0K"]);
    expect_code(code, 0, &v, "0K");
    assert_eq!(names_read(&v).len(), 1, "{v:#}");
}

#[test]
fn bad_forms_are_usage_errors_with_one_message() {
    let repo = setup();
    for bad in ["0/3", "4/3", "1/0", "abc", "-5%", "500X"] {
        let o = run_code(
            repo.cmd_as(Client::via(0).no_password())
                .args(["verify", "--read-data-subset", bad]),
            1,
        );
        let err = stderr_str(&o);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{bad}: {err}");
        assert!(
            lines[0].starts_with(&format!("tangle: error: read-data-subset {bad:?}: ")),
            "{bad}: {err}"
        );
        assert!(
            lines[0].contains("1/7") && lines[0].contains("500M"),
            "{err}"
        );
        assert!(o.stdout.is_empty(), "{bad}: {}", stdout_str(&o));
    }
    // In a profile, the same.
    let profile = repo.home.join("config/tangle/bad.toml");
    write_file(&profile, b"[verify]\nread-data-subset = \"4/3\"\n");
    let o = run_code(
        repo.cmd_as(Client::via(0).no_password())
            .args(["-P", "bad", "verify"]),
        1,
    );
    let err = stderr_str(&o);
    assert!(
        err.contains("read-data-subset \"4/3\"") && err.contains("bad.toml"),
        "{err}"
    );
}

#[test]
fn a_profile_takes_the_same_forms_for_verify_and_run() {
    let repo = setup();
    let urls: Vec<String> = (0..3).map(|i| format!("{:?}", repo.url(i))).collect();
    write_file(
        &repo.home.join("config/tangle/sub.toml"),
        format!(
            "[repository]\nremotes = [{}]\n[verify]\nread-data-subset = \"3/3\"\n",
            urls.join(", ")
        )
        .as_bytes(),
    );
    let (_, cli) = verify(&repo, 0, &["--read-data-subset", "3/3"]);
    let want = names_read(&cli);
    assert!(!want.is_empty(), "{cli:#}");

    let mut c = repo.cmd_as(Client::no_repo().no_password());
    let (code, v) = run_report(c.args(["-P", "sub", "verify", "--json"]), "-P sub verify");
    expect_code(code, 0, &v, "-P sub verify");
    assert_eq!(v["subset"]["t"], 3, "{v:#}");
    assert_eq!(names_read(&v), want);

    let o = run_ok(
        repo.cmd_as(Client::no_repo().no_password())
            .args(["-P", "sub", "run", "--json"]),
    );
    let run = parse_single_json_object(&o.stdout, "-P sub run --json");
    let step = &run["steps"][0];
    assert_eq!(step["step"], "verify", "{run:#}");
    assert_eq!(names_read(&step["report"]), want, "{run:#}");
    // The command line replaces the profile's subset.
    let mut c = repo.cmd_as(Client::no_repo().no_password());
    let (_, v) = run_report(
        c.args(["-P", "sub", "verify", "--json", "--read-data-subset", "1/3"]),
        "-P sub verify 1/3",
    );
    assert_eq!(v["subset"]["n"], 1, "{v:#}");
}
