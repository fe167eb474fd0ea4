//! Certificates signed by the owner key (a buggy writer, or a stolen key) whose fields
//! contradict each other or the shards: restore and verify refuse them with a message,
//! never a panic or a hang, and read around them where the codeword allows.

use std::fs;
use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::init::small_init_options;
use crate::support::command::{
    PASSWORD, assert_clean_failure, assert_no_panic, run_any, stderr_str, stdout_str,
};
use crate::support::manifest::{Entry, assert_tree_matches, manifest};
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Repo, restored_path};
use tangle::crypto::Signer;
use tangle::extent::{Certificate, ExtentName, Pointer};
use tangle::repo::{Config, Repository};

/// Well under the harness's own timeout: a cycle must be refused, not waited out.
const QUICK: Duration = Duration::from_secs(120);

/// A repository with one backup of a few files (all in one extent with the default
/// 16 MiB extents), the owner's signer, and the expected tree.
fn setup() -> (Repo, Signer, Vec<Entry>, PathBuf) {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(3, 300_000));
    write_file(&src.join("d/b.txt"), b"hello\n");
    write_file(&src.join("empty"), b"");
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);
    let signer = owner_signer(&repo);
    (repo, signer, expected, src)
}

/// The owner's signer, through the library.
fn owner_signer(repo: &Repo) -> Signer {
    let cache = repo.path("library-cache");
    let lib = Repository::open(&repo.url(0), Some(cache)).expect("open through the library");
    let lib = lib.unlock(PASSWORD.as_bytes()).expect("unlock");
    lib.signer()
}

/// `restore latest` into a new target (returned), bounded by [`QUICK`].
fn restore_latest(repo: &Repo) -> (PathBuf, Output) {
    let target = repo.path("restored");
    let out = run_any(
        repo.cmd()
            .args(["restore", "latest", "--target"])
            .arg(&target)
            .timeout(QUICK),
    );
    (target, out)
}

/// `verify -v`, bounded by [`QUICK`].
fn verify_v(repo: &Repo) -> Output {
    run_any(repo.cmd().args(["verify", "-v"]).timeout(QUICK))
}

fn config(repo: &Repo) -> Config {
    Config::from_object(&fs::read(repo.remotes[0].join("config")).unwrap()).unwrap()
}

/// Every certificate of the repository (read from remote 0) with its name.
fn certificates(repo: &Repo) -> Vec<(ExtentName, Certificate)> {
    let owner = config(repo).owner;
    object_paths(&repo.remotes[0], "extents")
        .into_iter()
        .map(|p| {
            let name = ExtentName::parse(p.trim_start_matches("extents/")).unwrap();
            let bytes = fs::read(repo.remotes[0].join(&p)).unwrap();
            (
                name,
                Certificate::from_object(
                    &bytes,
                    &tangle::crypto::Signers::owner_only(owner),
                    &name,
                )
                .unwrap(),
            )
        })
        .collect()
}

/// Sign `cert` with the owner key and put it on every remote under `name`.
fn publish(repo: &Repo, signer: &Signer, name: &ExtentName, cert: &Certificate) {
    let object = cert.to_object(signer).unwrap();
    for r in &repo.remotes {
        fs::write(r.join(name.cert_path()), &object).unwrap();
    }
}

fn restore_fails_cleanly(repo: &Repo, what: &str, mentions: &str) {
    let (_, out) = restore_latest(repo);
    assert_clean_failure(&out, what);
    // Data that cannot be read is data lost: exit 21, as verify exits for it.
    assert_eq!(out.status.code(), Some(21), "{what}: exit code");
    assert!(
        stderr_str(&out).contains(mentions),
        "{what}: stderr does not say {mentions:?}:\n{}",
        stderr_str(&out)
    );
}

fn verify_reports(repo: &Repo, what: &str) {
    let out = verify_v(repo);
    assert_no_panic(&out, what);
    assert_eq!(
        out.status.code(),
        Some(21),
        "{what}: verify must report the certificate as lost\nstdout:\n{}\nstderr:\n{}",
        stdout_str(&out),
        stderr_str(&out)
    );
    // With the reason the copies were refused, not only "no authentic copy".
    assert!(
        stdout_str(&out).contains("no remote has an authentic copy (")
            && stdout_str(&out).contains("inconsistent"),
        "{what}: verify does not say why the certificate was refused:\n{}",
        stdout_str(&out)
    );
}

/// The first certificate of [`setup`]'s repository, changed by `tamper` and signed
/// with the owner key again, on every remote.
fn tampered(tamper: impl FnOnce(&ExtentName, &mut Certificate)) -> (Repo, ExtentName, Certificate) {
    let (repo, signer, _, _) = setup();
    let (name, mut cert) = certificates(&repo).remove(0);
    tamper(&name, &mut cert);
    publish(&repo, &signer, &name, &cert);
    (repo, name, cert)
}

/// Restore fails saying `mentions` ([`restore_fails_cleanly`]) and verify reports the
/// certificate lost ([`verify_reports`]), both about `what`.
fn refused_by_restore_and_verify(repo: &Repo, what: &str, mentions: &str) {
    restore_fails_cleanly(repo, &format!("restore, {what}"), mentions);
    verify_reports(repo, &format!("verify, {what}"));
}

#[test]
fn wrong_shard_count_is_refused_by_restore_and_verify() {
    let (repo, ..) = tampered(|_, cert| {
        cert.shards.pop();
    });
    refused_by_restore_and_verify(&repo, "a shard missing from the list", "shard counts");
}

#[test]
fn blocks_longer_than_the_extent_are_refused() {
    let (repo, ..) = tampered(|_, cert| cert.block_lengths.push(64));
    refused_by_restore_and_verify(&repo, "blocks past the size", "block lengths");
}

#[test]
fn a_pointer_to_itself_is_refused_instead_of_waited_on() {
    let (repo, name, cert) = tampered(|name, cert| {
        cert.pointers.push(Pointer {
            extent: *name,
            shard: 0,
        })
    });
    // With data shard 0 gone, a reader that followed the pointer would rebuild the
    // extent from itself.
    let info = cert.shards[0];
    fs::remove_file(repo.remotes[info.remote as usize].join(name.shard_path(0))).unwrap();
    refused_by_restore_and_verify(&repo, "a self-pointer", "pointer");
}

#[test]
fn a_certified_shard_of_the_wrong_length_counts_as_missing() {
    let (repo, signer, expected, src) = setup();
    let (name, mut cert) = certificates(&repo).remove(0);
    // The certificate vouches for a shard shorter than its shard size: a reader must
    // not take it as data (the extent would come out short and misaligned), but treat it
    // as missing and decode around it.
    let short = b"short".to_vec();
    cert.shards[0].hash = *blake3::hash(&short).as_bytes();
    publish(&repo, &signer, &name, &cert);
    let info = cert.shards[0];
    fs::write(
        repo.remotes[info.remote as usize].join(name.shard_path(0)),
        &short,
    )
    .unwrap();
    let (target, out) = restore_latest(&repo);
    assert_no_panic(&out, "restore around a short certified shard");
    assert!(
        out.status.success(),
        "restore around a short certified shard failed:\n{}",
        stderr_str(&out)
    );
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "restore around a short certified shard",
    );
    let out = verify_v(&repo);
    assert_no_panic(&out, "verify with a short certified shard");
    assert!(
        stdout_str(&out).contains("wrong size"),
        "verify does not report the short shard:\n{}",
        stdout_str(&out)
    );
}

#[test]
fn certificates_pointing_at_each_other_are_not_waited_on() {
    // Tiny extents (at most 1 KiB, chunks of at most 1 KiB): shard sizes can only be
    // 64 to 320 bytes, so among many extents two have the same one, which a pair of
    // pointers needs (a pointer is never larger than its codeword's shards).
    let repo = Repo::uninit();
    let mut opts = small_init_options(1024);
    opts.chunker = Some(tangle::content::ChunkerParams {
        min: 64,
        avg: 256,
        max: 1024,
    });
    opts.remotes = (0..3).map(|i| repo.url(i)).collect();
    tangle::repo::init(&opts, PASSWORD.as_bytes()).expect("init through the library");
    let src = repo.dir("src");
    write_file(&src.join("a.bin"), &pseudo_random(5, 12_000));
    repo.backup(&[&src], &[]);
    let signer = owner_signer(&repo);

    let certs = certificates(&repo);
    let (i, j) = (0..certs.len())
        .flat_map(|i| (i + 1..certs.len()).map(move |j| (i, j)))
        .find(|&(i, j)| certs[i].1.shard_size == certs[j].1.shard_size)
        .expect("two extents with the same shard size");
    let (a_name, mut a) = certs[i].clone();
    let (b_name, mut b) = certs[j].clone();
    // A points at B's data shard 0 and B at A's; both of those shards are gone, so
    // rebuilding either extent needs the other rebuilt first.
    for (cert, target) in [(&mut a, b_name), (&mut b, a_name)] {
        let p = Pointer {
            extent: target,
            shard: 0,
        };
        if !cert.pointers.contains(&p) {
            cert.pointers.push(p);
        }
    }
    publish(&repo, &signer, &a_name, &a);
    publish(&repo, &signer, &b_name, &b);
    for (name, cert) in [(&a_name, &a), (&b_name, &b)] {
        let r = cert.shards[0].remote as usize;
        fs::remove_file(repo.remotes[r].join(name.shard_path(0))).unwrap();
    }
    // The forged pointers do not match the parity, so the data cannot come back; what
    // matters is that restore says so instead of waiting forever.
    let (_, out) = restore_latest(&repo);
    assert_clean_failure(&out, "restore through a pointer cycle");
    let out = verify_v(&repo);
    assert_no_panic(&out, "verify with a pointer cycle");
}
