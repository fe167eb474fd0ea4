//! The `tangle` binary: parse the command line, run the command, map errors to the
//! documented exit codes.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU8, Ordering};

mod cli;

/// The exit code of the signal that arrived (0: none yet). From then on the signal
/// thread ends the process, once it has removed the locks.
static SIGNALLED: AtomicU8 = AtomicU8::new(0);

fn main() -> ExitCode {
    limit_malloc_arenas();
    // Usage errors exit 1 like every other fatal error (the documented table has no 2).
    let args = match cli::parse() {
        Ok(args) => args,
        Err(e) => return usage_end(&e),
    };
    exit_on_signals();
    let json = args.cli.global.json;
    let mut result = cli::run(args);
    // Interrupted: the command's own end (an error its refused writes caused) must not
    // race the signal thread, which exits with the signal's code.
    let signalled = SIGNALLED.load(Ordering::SeqCst);
    if signalled != 0 {
        // Bounded: the lock removals are (5 s each), and a second signal exits at once.
        std::thread::sleep(std::time::Duration::from_secs(30));
        std::process::exit(signalled.into());
    }
    // A lock whose lease lapsed (the process stalled): whatever the command made of the
    // refused writes, what happened is that it lost its lock (exit 11).
    if let Some(why) = tangle::repo::remote::lease::lost_reason()
        && !matches!(&result, Err(e) if e.kind() == tangle::Kind::Busy)
    {
        result = Err(tangle::Error::new(
            tangle::Kind::Busy,
            format!("lost the lock: {why}"),
        ));
    }
    // TANGLE_DEBUG_REQUESTS: the process-wide debug counters.
    if tangle::debug::enabled() {
        for line in tangle::debug::report() {
            eprintln!("{line}");
        }
    }
    // Send what is still buffered now, so that its write errors count below.
    let _ = cli::Stdout.flush();
    // A reader that stopped reading (`tangle ls latest --json | head -c 50`) is a normal
    // end, as in ripgrep: exit 0 quietly, whatever the command was doing.
    if cli::stdout_closed() {
        return ExitCode::SUCCESS;
    }
    match result.and_then(|code| cli::stdout_error().map_or(Ok(code), Err)) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let code = e.kind().exit_code();
            // Ignore errors writing stderr: the exit code still tells what happened.
            let mut stderr = std::io::stderr();
            // Escaped as every name in human output; the JSON keeps the exact message.
            let message = e.to_string();
            let _ = writeln!(stderr, "tangle: error: {}", tangle::util::escape(&message));
            if json {
                let _ = writeln!(
                    stderr,
                    "{}",
                    serde_json::json!({ "error": e.to_string(), "exit_code": code })
                );
            }
            ExitCode::from(code as u8)
        }
    }
}

/// On Ctrl-C (SIGINT) or a stop (SIGTERM, as systemd sends): refuse further writes,
/// remove the locks this process holds (at most 5 s each), say so, and exit 130 or 143.
/// What was under way is left as a kill leaves it: an interrupted backup or delete never
/// reads as valid (docs/DESIGN.md, "Interrupted writes"). A second signal exits at once.
fn exit_on_signals() {
    let listener = std::thread::Builder::new().name("signals".into());
    let _ = listener.spawn(|| {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        let _guard = rt.enter();
        let (mut interrupt, mut terminate) = (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        );
        if interrupt.is_none() && terminate.is_none() {
            return;
        }
        async fn next(s: &mut Option<Signal>) {
            match s {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        let mut next_signal = || {
            rt.block_on(async {
                tokio::select! {
                    _ = next(&mut interrupt) => 130,
                    _ = next(&mut terminate) => 143,
                }
            })
        };
        let code = next_signal();
        // `tangle mount` ends by a signal: unmount, and let it finish as it does after
        // `umount` (exit 0). A second signal exits at once.
        if tangle::ops::mount::unmount_for_signal() {
            next_signal();
            std::process::exit(code);
        }
        SIGNALLED.store(code as u8, Ordering::SeqCst);
        // A progress bar comes off first, or it is drawn again below the message. Without
        // one, the new line leaves the terminal's `^C`.
        let newline = if cli::progress::clear_for_exit() {
            ""
        } else {
            "\n"
        };
        let _ = writeln!(std::io::stderr(), "{newline}tangle: interrupted");
        let _ = std::thread::Builder::new().spawn(move || {
            // Exit whatever happens while the locks are removed: a command that ended
            // meanwhile may have shut its runtime down under them (the lock then goes
            // stale), which is no panic to show.
            std::panic::set_hook(Box::new(|_| {}));
            let _ = std::panic::catch_unwind(|| {
                tangle::repo::stop_writing_and_unlock(std::time::Duration::from_secs(5))
            });
            std::process::exit(code);
        });
        next_signal();
        std::process::exit(code);
    });
}

/// The end of a run that stopped at the command line: help and version go to stdout
/// (exit 0; 1 if stdout cannot take them, except a closed pipe), a usage error to stderr
/// as clap words it (exit 1), and with `--json` also as the JSON error object.
fn usage_end(e: &clap::Error) -> ExitCode {
    let printed = e.print();
    if !e.use_stderr() {
        return match printed {
            Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
                let _ = writeln!(std::io::stderr(), "tangle: error: writing help: {err}");
                ExitCode::from(1)
            }
            _ => ExitCode::SUCCESS,
        };
    }
    let json_wanted = std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json");
    if json_wanted {
        let rendered = e.render().to_string();
        let first = rendered.lines().next().unwrap_or_default();
        let mut message = match e.kind() {
            // clap shows the help here, not an error line.
            clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                "a command is required (see --help)"
            }
            _ => first.strip_prefix("error: ").unwrap_or(first),
        }
        .to_string();
        // clap's tips (restic's command names among them: see cli/restic.rs) too.
        let tips: Vec<&str> = (rendered.lines())
            .filter_map(|l| l.trim_start().strip_prefix("tip: "))
            .collect();
        if !tips.is_empty() {
            message = format!("{message} (tip: {})", tips.join("; "));
        }
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            serde_json::json!({ "error": message, "exit_code": 1 })
        );
    }
    ExitCode::from(1)
}

/// glibc tuning for a process that allocates and frees many chunk-sized buffers on
/// several threads: one arena (per-thread arenas each keep freed buffers), and return
/// freed memory at the top of the heap to the OS beyond 4 MiB (the default, adjusted
/// upward dynamically after large frees such as Argon2's 64 MiB, keeps far more). Peak
/// RSS of a 1.85 GiB backup: 139 -> 112 MiB at the same speed (docs/PERFORMANCE.md).
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only adjusts allocator tuning; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
        // Setting the trim threshold turns off glibc's adaptive mmap threshold, which
        // left every buffer of 128 KiB or more (chunks, whole small files, compressed
        // blobs) to an mmap of its own: a page fault and a zeroed page for every 4 KiB
        // of it, 900,000 faults in a backup of the 2 GiB benchmark tree. Below 2 MiB
        // they now come from the heap and are reused (half the faults); extents, shards
        // and big chunks still go back to the system when freed, and the heap is
        // trimmed past 16 MiB free, which keeps the peak memory within 10% of before.
        libc::mallopt(libc::M_MMAP_THRESHOLD, 2 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 16 << 20);
    }
}
