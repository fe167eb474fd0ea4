//! A repository of a format this build does not know (what an older tangle meets after a
//! newer one changed the repository, e.g. issue 35's version 2 for writer keys): every
//! command says so and exits 1, never 22 (nothing was forged) and never 10 (there is a
//! repository), and `verify` does not take it for damage either.

use crate::support::command::{run_code, stderr_str};
use crate::support::repo::{Client, Repo};
use tangle::crypto::Signer;
use tangle::crypto::envelope::{self, ObjectKind};
use tangle::repo::Config;

/// The repository's config rewritten on every remote as format version 3, self-signed
/// like any config (whoever makes it; a fresh client pins nothing yet).
fn bump_format(repo: &Repo) {
    let bytes = std::fs::read(repo.remotes[0].join("config")).unwrap();
    let mut config = Config::from_object(&bytes).unwrap();
    let signer = Signer::from_seed(&[3; 32]);
    config.format_version = 3;
    config.owner = signer.public();
    config.revision += 1;
    let payload = postcard::to_stdvec(&config).unwrap();
    let object = envelope::seal(ObjectKind::Config, &payload, &signer);
    for r in &repo.remotes {
        std::fs::write(r.join("config"), &object).unwrap();
    }
}

#[test]
fn a_repository_of_a_newer_format_is_refused_with_exit_1_by_every_command() {
    let (repo, src) = Repo::with_snapshot_of("a.txt", b"kept\n");
    bump_format(&repo);
    for (client, args) in [
        (Client::via(0).fresh_home(), vec!["snapshots"]),
        (
            Client::via(1).fresh_home(),
            vec!["backup", src.to_str().unwrap()],
        ),
        (Client::via(2).fresh_home().no_password(), vec!["verify"]),
        (Client::via(0).fresh_home().no_password(), vec!["repair"]),
    ] {
        let out = run_code(repo.cmd_as(client).args(&args), 1);
        let err = stderr_str(&out);
        assert!(
            err.contains("repository format version 3 is not supported by this tangle"),
            "{args:?}: {err}"
        );
    }
}
