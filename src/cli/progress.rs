//! A progress bar on stderr, drawn from an operation's live counters.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use tangle::ops::Progress;

/// A thread that reports while the work runs, until `finish` stops it (and waits, so
/// nothing it prints lands after what the command prints next).
struct Reporter {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Reporter {
    /// Run `report` (given the stop flag) on its own thread if `enabled`.
    fn start(enabled: bool, report: impl FnOnce(Arc<AtomicBool>) + Send + 'static) -> Reporter {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = enabled.then(|| {
            let stop = stop.clone();
            std::thread::spawn(move || report(stop))
        });
        Reporter { stop, thread }
    }

    fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The bars on the terminal, so that a signal can take them off before it says
/// "interrupted" ([`clear_for_exit`]); each drawing thread draws only while holding this
/// lock, and not at all once `CLEARED` is set.
static DRAWN: Mutex<Vec<(u64, ProgressBar)>> = Mutex::new(Vec::new());
static CLEARED: AtomicBool = AtomicBool::new(false);
static NEXT_BAR: AtomicU64 = AtomicU64::new(0);

/// Take every bar off the terminal for good (the process is about to exit): nothing is
/// drawn after this returns. Whether a bar was on it. Waits at most half a second for a
/// bar being drawn (a terminal that takes no output must not keep a second Ctrl-C from
/// ending the process).
pub fn clear_for_exit() -> bool {
    CLEARED.store(true, Ordering::Relaxed);
    let deadline = std::time::Instant::now() + Duration::from_millis(500);
    let mut drawn = loop {
        match DRAWN.try_lock() {
            Ok(drawn) => break drawn,
            Err(std::sync::TryLockError::Poisoned(p)) => break p.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5))
            }
            Err(std::sync::TryLockError::WouldBlock) => return false,
        }
    };
    let any = !drawn.is_empty();
    for (_, bar) in drawn.drain(..) {
        bar.finish_and_clear();
    }
    any
}

pub struct Bar(Reporter);

/// Run `work` with live counters, drawn while it runs (if `enabled`) as a bar of `verb`
/// counting `unit` (as [`Bar::counting`]).
pub fn with_bar<T>(
    enabled: bool,
    verb: &'static str,
    unit: &'static str,
    work: impl FnOnce(&Progress) -> T,
) -> T {
    let progress = Arc::new(Progress::default());
    let bar = Bar::counting(enabled, progress.clone(), verb, unit);
    let result = work(&progress);
    bar.finish();
    result
}

impl Bar {
    /// Start drawing if `enabled`; `verb` is e.g. "backing up".
    pub fn start(enabled: bool, progress: Arc<Progress>, verb: &'static str) -> Bar {
        Bar::counting(enabled, progress, verb, "files")
    }

    /// [`start`](Self::start) for work counted in `unit` (e.g. "extents") and bytes.
    pub fn counting(
        enabled: bool,
        progress: Arc<Progress>,
        verb: &'static str,
        unit: &'static str,
    ) -> Bar {
        if enabled {
            progress.watched.store(true, Ordering::Relaxed);
        }
        Bar(Reporter::start(enabled, move |stop2| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {bytes_per_sec} ETA {eta} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_prefix(verb);
            let id = NEXT_BAR.fetch_add(1, Ordering::Relaxed);
            DRAWN
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((id, bar.clone()));
            while !stop2.load(Ordering::Relaxed) {
                let drawn = DRAWN.lock().unwrap_or_else(|p| p.into_inner());
                if CLEARED.load(Ordering::Relaxed) {
                    return;
                }
                // Whether the totals are final before the totals: set the other way round.
                let suffix = if progress.totals_known.load(Ordering::Acquire) {
                    ""
                } else {
                    "+"
                };
                let files_total = Progress::get(&progress.files_total);
                let waiting = match Progress::get(&progress.waiting_for_remote) {
                    0 => String::new(),
                    r => progress
                        .remote_urls
                        .get()
                        .and_then(|urls| urls.get(r as usize - 1))
                        .map(|url| format!(" (waiting for {url})"))
                        .unwrap_or_default(),
                };
                // The message first: the bar draws when its position moves.
                bar.set_message(format!(
                    "{}/{files_total}{suffix} {unit}{waiting}",
                    Progress::get(&progress.files_done)
                ));
                let total = Progress::get(&progress.bytes_total);
                bar.set_length(total.max(Progress::get(&progress.bytes_done)));
                bar.set_position(Progress::get(&progress.bytes_done));
                drop(drawn);
                std::thread::sleep(Duration::from_millis(100));
            }
            let mut drawn = DRAWN.lock().unwrap_or_else(|p| p.into_inner());
            drawn.retain(|(i, _)| *i != id);
            if !CLEARED.load(Ordering::Relaxed) {
                bar.finish_and_clear();
            }
        }))
    }

    pub fn finish(self) {
        self.0.finish()
    }
}

/// `--json --progress`: restic-style status lines on stdout, one when the work starts and
/// one per second while it runs (`{"message_type":"status","percent_done":0.42,...}`), then the caller
/// prints its summary line.
pub struct JsonStatus(Reporter);

impl JsonStatus {
    pub fn start(enabled: bool, progress: Arc<Progress>) -> JsonStatus {
        let started = std::time::Instant::now();
        if enabled {
            progress.watched.store(true, Ordering::Relaxed);
        }
        JsonStatus(Reporter::start(enabled, move |stop2| {
            // The first line at once, then one a second.
            let mut next = Duration::ZERO;
            while !stop2.load(Ordering::Relaxed) {
                if started.elapsed() < next {
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
                next += Duration::from_secs(1);
                let (done, total) = (
                    Progress::get(&progress.bytes_done),
                    Progress::get(&progress.bytes_total),
                );
                let line = serde_json::json!({
                    "message_type": "status",
                    "seconds_elapsed": started.elapsed().as_secs(),
                    "percent_done": if total > 0 { (done as f64 / total as f64).min(1.0) } else { 0.0 },
                    "total_files": Progress::get(&progress.files_total),
                    "files_done": Progress::get(&progress.files_done),
                    "total_bytes": total,
                    "bytes_done": done,
                    "totals_final": progress.totals_known.load(Ordering::Relaxed),
                });
                if super::write_stdout(format!("{line}\n").as_bytes()).is_err() {
                    return;
                }
            }
        }))
    }

    pub fn finish(self) {
        self.0.finish()
    }
}
