//! Seams between commands (issue 31), on the local inputs: passwords are their exact
//! bytes whatever the source, long file names restore over existing files, and password
//! files, profiles and password commands are read within bounds.

mod common;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use common::*;

// ---------------------------------------------------------------------------------------
// Passwords are bytes.

/// Two passwords that are not UTF-8 and that a lossy conversion makes the same (four
/// U+FFFD each).
const PW_A: &[u8] = &[0xff, 0xfe, 0xfd, 0xfc];
const PW_B: &[u8] = &[0x80, 0x81, 0x82, 0x83];

#[derive(Clone, Copy, Debug)]
enum Source {
    Env,
    File,
    Command,
}

const SOURCES: [Source; 3] = [Source::Env, Source::File, Source::Command];

/// `printf` arguments that print `bytes` exactly (octal escapes).
fn printf_octal(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\{b:03o}")).collect()
}

/// Give `cmd` the password `pw` through `source`; files are written under `dir`.
fn with_password(cmd: &mut Command, source: Source, pw: &[u8], dir: &Path) {
    match source {
        Source::Env => {
            cmd.env("TANGLE_PASSWORD", OsStr::from_bytes(pw));
        }
        Source::File => {
            let n = fs::read_dir(dir).map(|d| d.count()).unwrap_or(0);
            let f = dir.join(format!("pw-{n}"));
            // With the newline `echo` would write: only the first line is the password.
            let mut text = pw.to_vec();
            text.push(b'\n');
            write_file(&f, &text);
            set_mode(&f, 0o600);
            cmd.arg("--password-file").arg(f);
        }
        Source::Command => {
            cmd.arg("--password-command")
                .arg(format!("printf '{}\\n'", printf_octal(pw)));
        }
    }
}

#[test]
fn non_utf8_passwords_are_their_exact_bytes_from_every_source() {
    for made_by in SOURCES {
        let repo = Repo::uninit();
        let pw_dir = repo.dir("passwords");
        let mut init = repo.cmd_bare();
        init.arg("init");
        for r in &repo.remotes {
            init.arg("--remote").arg(r);
        }
        with_password(&mut init, made_by, PW_A, &pw_dir);
        let o = run_any(&mut init);
        assert!(
            o.status.success(),
            "init with a non-UTF-8 password from {made_by:?} failed ({:?}):\n{}",
            o.status.code(),
            stderr_str(&o)
        );
        for opened_by in SOURCES {
            let mut open = repo.cmd_via_nopw(0);
            with_password(&mut open, opened_by, PW_A, &pw_dir);
            let o = run_any(open.args(["snapshots", "--json"]));
            assert!(
                o.status.success(),
                "made with {made_by:?}, the same bytes through {opened_by:?} do not open it ({:?}):\n{}",
                o.status.code(),
                stderr_str(&o)
            );

            let mut wrong = repo.cmd_via_nopw(0);
            with_password(&mut wrong, opened_by, PW_B, &pw_dir);
            let o = run_any(wrong.args(["snapshots", "--json"]));
            assert_eq!(
                o.status.code(),
                Some(12),
                "made with {made_by:?} from {PW_A:02x?}, {PW_B:02x?} (the same after a lossy \
                 conversion) through {opened_by:?} is not refused as a wrong password:\n{}",
                stderr_str(&o)
            );
        }
    }
}

#[test]
fn utf8_passwords_keep_their_newline_rules() {
    let repo = Repo::init();
    let dir = repo.dir("passwords");
    let file = |name: &str, text: &str| {
        let f = dir.join(name);
        write_file(&f, text.as_bytes());
        set_mode(&f, 0o600);
        f
    };
    // The file's first line (a CRLF ending is a line ending), the command's output
    // without its trailing CR and LF, the profile's and the environment's as given.
    let opens = |cmd: &mut Command, what: &str| {
        let o = run_any(cmd.args(["snapshots", "--json"]));
        assert!(
            o.status.success(),
            "{what}: the password does not open the repository:\n{}",
            stderr_str(&o)
        );
    };
    for text in [
        format!("{PASSWORD}\n"),
        format!("{PASSWORD}\r\nsecond line\n"),
        PASSWORD.to_string(),
    ] {
        let f = file("pw", &text);
        opens(
            repo.cmd_via_nopw(0).arg("--password-file").arg(&f),
            &format!("password file {text:?}"),
        );
    }
    opens(
        repo.cmd_via_nopw(0)
            .arg("--password-command")
            .arg(format!("printf '{PASSWORD}\\r\\n\\n'")),
        "password command with CR LF LF",
    );
    let profile = repo.path("p.toml");
    write_file(
        &profile,
        format!("[repository]\npassword = {PASSWORD:?}\n").as_bytes(),
    );
    set_mode(&profile, 0o600);
    opens(
        repo.cmd_via_nopw(0).arg("-P").arg(&profile),
        "the profile's password",
    );
    // A trailing CR without LF stays part of the file's line.
    let f = file("pw-cr", &format!("{PASSWORD}\r"));
    run_code(
        repo.cmd_via_nopw(0)
            .arg("--password-file")
            .arg(&f)
            .arg("snapshots"),
        12,
    );
}

// ---------------------------------------------------------------------------------------
// Long names restore over existing files.

#[test]
fn names_up_to_255_bytes_restore_over_existing_files() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let mut names: Vec<OsString> = vec![
        OsString::from("a".repeat(255)),
        OsString::from("b".repeat(230)),
        OsString::from("c".repeat(227)),
        // 254 bytes of two-byte characters and one more: a cut must not split one.
        OsString::from(format!("{}x", "é".repeat(127))),
    ];
    // A name that is not UTF-8 either.
    let mut raw_name = vec![0xffu8; 200];
    raw_name.extend(std::iter::repeat_n(b'r', 55));
    names.push(OsStr::from_bytes(&raw_name).to_os_string());
    for (i, n) in names.iter().enumerate() {
        assert!(n.len() >= 227 && n.len() <= 255);
        write_file(&src.join(n), &pseudo_random(i as u64 + 1, 1000 + i * 100));
    }
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);

    let target = repo.path("target");
    let restore = |what: &str| {
        let o = run_any(
            repo.cmd()
                .args(["restore", "latest", "--no-progress", "--target"])
                .arg(&target),
        );
        assert!(
            o.status.success(),
            "{what}: restore failed ({:?}):\n{}",
            o.status.code(),
            stderr_str(&o)
        );
        let root = restored_path(&target, &src);
        if let Some(d) = manifest_diff(&expected, &manifest(&root)) {
            panic!("{what}: {d}");
        }
        let leftovers: Vec<PathBuf> = (fs::read_dir(&root).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| (p.file_name().unwrap().as_bytes()).starts_with(b".tangle"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "{what}: temporary files left: {leftovers:?}"
        );
    };
    restore("first restore");
    restore("restore again over the same files");
    let root = restored_path(&target, &src);
    for n in &names {
        write_file(&root.join(n), b"something else entirely");
    }
    restore("restore over other files at those names");
}
