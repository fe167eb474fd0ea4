//! Small helpers shared by several layers.

/// This machine's name as `gethostname(2)` reports it (the kernel's node name).
pub(crate) fn hostname() -> String {
    // uname(2) cannot fail, so the old "unknown" fallback of gethostname(2) is gone.
    rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned()
}

/// The user recorded in snapshots and key files: `$USER`, `$LOGNAME`, else the numeric
/// effective uid (no passwd lookup, so a container without /etc/passwd behaves the same).
pub(crate) fn username() -> String {
    // The effective user's name from the password file, as restic records it; cron jobs
    // and systemd units often run without USER or LOGNAME.
    let uid = rustix::process::geteuid().as_raw();
    std::fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|text| passwd_name(&text, uid))
        .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
        .or_else(|| std::env::var("LOGNAME").ok().filter(|u| !u.is_empty()))
        .unwrap_or_else(|| format!("uid {uid}"))
}

/// The name of `uid` in a passwd(5) text (`name:x:uid:gid:...`).
fn passwd_name(text: &str, uid: u32) -> Option<String> {
    text.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let id = fields.nth(1)?.parse::<u32>().ok()?;
        (id == uid && !name.is_empty()).then(|| name.to_string())
    })
}

/// The bytes of a regular file of at most `limit` bytes, for state files this program
/// keeps (the local cache): never through a symlink at the last component, never
/// blocking on a FIFO, and never reading more than `limit` whatever the file claims.
pub fn read_regular_file(path: &std::path::Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let md = file.metadata()?;
    if !md.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if md.len() > limit {
        return Err(std::io::Error::other(format!("larger than {limit} bytes")));
    }
    let mut bytes = Vec::with_capacity(md.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!("larger than {limit} bytes")));
    }
    Ok(bytes)
}

/// Replace the state file at `path` with `bytes` (creating its directory): written to
/// a new temporary file of this process beside it, then renamed over it, so a reader
/// never sees half a file and whatever stood at `path` (a FIFO, a symlink) is replaced,
/// never opened.
pub(crate) fn replace_file(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(std::io::Error::other("not a file path"));
    };
    std::fs::create_dir_all(dir)?;
    // Unique to the call: threads of one process may replace the same file at once.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}-{call}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let _ = std::fs::remove_file(&tmp);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|_| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The sum of sizes a remote reported, stopping at `u64::MAX` (a listing may lie).
pub(crate) fn saturating_sum(sizes: impl IntoIterator<Item = u64>) -> u64 {
    sizes.into_iter().fold(0, u64::saturating_add)
}

/// Binary units, each 1024 times the one before.
pub const BINARY_UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/// `1.50 MiB`-style sizes for humans.
/// The first 8 characters of an id, as ids are shown to people (the whole of a shorter
/// one).
pub fn short_id(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

pub fn human_bytes(n: u64) -> String {
    human_bytes_in(n, &BINARY_UNITS, 2)
}

/// [`human_bytes`] in `units` (a start of [`BINARY_UNITS`]: the last is the largest
/// used), with `decimals` digits after the point; whole bytes have none.
pub fn human_bytes_in(n: u64, units: &[&str], decimals: usize) -> String {
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.decimals$} {}", units[u])
    }
}

/// A size in bytes, as restic writes them: digits and an optional `K`, `M`, `G` or `T`
/// (upper or lower case; powers of 1024): `512`, `100K`, `500M`, `2G`. `None` for
/// anything else, or a size beyond `u64`.
pub fn parse_size(text: &str) -> Option<u64> {
    let (digits, shift) = match text.char_indices().last() {
        Some((i, 'k' | 'K')) => (&text[..i], 10),
        Some((i, 'm' | 'M')) => (&text[..i], 20),
        Some((i, 'g' | 'G')) => (&text[..i], 30),
        Some((i, 't' | 'T')) => (&text[..i], 40),
        _ => (text, 0),
    };
    digits.parse::<u64>().ok()?.checked_mul(1u64 << shift)
}

/// A name (a path in a snapshot, a remote object name) or a message quoting one, as
/// human output prints it: one line that a terminal shows as it is written. A backslash
/// becomes `\\`; newline, tab and carriage return become `\n`, `\t`, `\r`; every
/// other control character (U+0000 to U+001F and U+007F, e.g. ESC as `\x1b`) becomes
/// `\xNN`, and one of U+0080 to U+009F becomes `\u{NN}`; each byte of invalid UTF-8
/// becomes `\xNN`. Everything else, names without these characters included, is left
/// as it is (borrowed, not copied). `--json` output and plain `ls` into a pipe keep the
/// exact names instead; docs/CLI.md ("Names in human output") documents this rule.
pub fn escape<B: AsRef<[u8]> + ?Sized>(name: &B) -> std::borrow::Cow<'_, str> {
    use std::fmt::Write;
    let bytes = name.as_ref();
    let plain = |c: char| c != '\\' && !c.is_control();
    if let Ok(s) = std::str::from_utf8(bytes)
        && s.chars().all(plain)
    {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if (c as u32) < 0x80 && c.is_control() => {
                    let _ = write!(out, "\\x{:02x}", c as u32);
                }
                c if c.is_control() => {
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Round `n` up to a multiple of `m` (m > 0).
pub(crate) fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m) * m
}

/// A duration as people write one: `90` or `90s`, `10m`, `2h`, `1d`, or parts together
/// (`1h30m`). For `--retry-lock` and other waits.
pub fn parse_duration(text: &str) -> std::result::Result<std::time::Duration, String> {
    let bad = || format!("{text:?} is not a duration (such as 90s, 10m, 2h or 1h30m)");
    let t = text.trim();
    if t.is_empty() {
        return Err(bad());
    }
    if let Ok(secs) = t.parse::<u64>() {
        return Ok(std::time::Duration::from_secs(secs));
    }
    let (mut total, mut number) = (0u64, String::new());
    for c in t.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86400,
            _ => return Err(bad()),
        };
        let n: u64 = number.parse().map_err(|_| bad())?;
        number.clear();
        total = n
            .checked_mul(unit)
            .and_then(|s| total.checked_add(s))
            .ok_or_else(bad)?;
    }
    if !number.is_empty() {
        return Err(bad());
    }
    Ok(std::time::Duration::from_secs(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_regular_file_refuses_fifos_symlinks_and_oversized_files() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(read_regular_file(&file, 5).unwrap(), b"12345");
        assert!(read_regular_file(&file, 4).is_err());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(read_regular_file(&link, 5).is_err());
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Returns at once (no writer): a blocking open would hang the test.
        assert!(read_regular_file(&fifo, 5).is_err());
    }

    #[test]
    fn durations_parse_as_people_write_them() {
        let secs = |t: &str| super::parse_duration(t).map(|d| d.as_secs());
        assert_eq!(secs("90"), Ok(90));
        assert_eq!(secs("90s"), Ok(90));
        assert_eq!(secs("10m"), Ok(600));
        assert_eq!(secs("1h30m"), Ok(5400));
        assert_eq!(secs("2d"), Ok(172800));
        for bad in ["", "m", "10x", "5m3", "-1", "99999999999999999999d"] {
            assert!(secs(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn escape_leaves_plain_names_alone() {
        for name in [
            "",
            "a",
            "/home/me/report 2024.pdf",
            "caf\u{e9} \u{1f600}",
            "\u{fffd}",
        ] {
            assert!(matches!(escape(name), std::borrow::Cow::Borrowed(n) if n == name));
        }
    }

    #[test]
    fn escape_writes_control_bytes_backslashes_and_invalid_utf8_as_escapes() {
        let cases: &[(&[u8], &str)] = &[
            (b"x\nno damage found", "x\\nno damage found"),
            (b"a\tb\rc", "a\\tb\\rc"),
            (b"\x1b[2Kdone", "\\x1b[2Kdone"),
            (b"\0\x01\x7f", "\\x00\\x01\\x7f"),
            (b"back\\slash", "back\\\\slash"),
            // A literal backslash-n is told apart from a newline.
            (b"a\\nb", "a\\\\nb"),
            (b"bad\xff\xfe utf8", "bad\\xff\\xfe utf8"),
            // Valid UTF-8 around an invalid byte stays as it is.
            ("\u{e9}".as_bytes(), "\u{e9}"),
            (b"\xc3\xa9\xc3", "\u{e9}\\xc3"),
            // C1 controls (CSI is U+009B): UTF-8 that some terminals obey.
            ("x\u{9b}2K".as_bytes(), "x\\u{9b}2K"),
        ];
        for (name, want) in cases {
            let got = escape(*name);
            assert_eq!(got, *want, "{name:?}");
            assert!(!got.chars().any(char::is_control), "{got:?}");
        }
        assert_eq!(escape("tab\there"), "tab\\there");
        assert_eq!(escape(&b"v\n".to_vec()), "v\\n");
    }

    #[test]
    fn passwd_lookup() {
        let text = "root:x:0:0:root:/root:/bin/bash\n# comment\nme:x:1000:1000::/home/me:/bin/sh\nbad:x:zz:1::/:/bin/sh\n";
        assert_eq!(passwd_name(text, 0).as_deref(), Some("root"));
        assert_eq!(passwd_name(text, 1000).as_deref(), Some("me"));
        assert_eq!(passwd_name(text, 5), None);
    }
}
