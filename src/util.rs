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
    std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| format!("uid {}", rustix::process::geteuid().as_raw()))
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
