//! Small helpers shared by several layers.

/// This machine's name as `gethostname(2)` reports it (the kernel's node name).
pub fn hostname() -> String {
    // uname(2) cannot fail, so the old "unknown" fallback of gethostname(2) is gone.
    rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned()
}

/// The user recorded in snapshots and key files: `$USER`, `$LOGNAME`, else the numeric
/// effective uid (no passwd lookup, so a container without /etc/passwd behaves the same).
pub fn username() -> String {
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

/// `1.5 MiB`-style sizes for humans.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.2} {}", UNITS[u])
    }
}

/// Round `n` up to a multiple of `m` (m > 0).
pub fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m) * m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwd_lookup() {
        let text = "root:x:0:0:root:/root:/bin/bash\n# comment\nme:x:1000:1000::/home/me:/bin/sh\nbad:x:zz:1::/:/bin/sh\n";
        assert_eq!(passwd_name(text, 0).as_deref(), Some("root"));
        assert_eq!(passwd_name(text, 1000).as_deref(), Some("me"));
        assert_eq!(passwd_name(text, 5), None);
    }
}
