//! Repair markers (`repairs/<id>`): how a `repair` without the password takes part in
//! locking. It cannot sign a lock, and an unsigned lock would let any remote stop every
//! command for ever, so it announces itself instead:
//!
//! 1. it writes its marker on every remote, then looks for exclusive locks, and refuses
//!    (exit 11, or waits with `--retry-lock`) while a live one exists;
//! 2. every [`LockTimes::repair_check`] it looks again and rewrites its marker with a
//!    higher beat; it writes shards and copies only while its last clean look is within
//!    [`LockTimes::repair_lease`] (the write lease), and stops writing for good once it
//!    sees an exclusive lock;
//! 3. an exclusive holder, once its own lock is written, waits until every marker is
//!    gone or has been watched unchanged for [`LockTimes::repair_stale`] (a dead repair's).
//!
//! Whichever of a repair and a delete writes second sees the other's object, so they
//! never both go ahead. A marker is trusted with nothing but a bounded wait: one that a
//! remote plants (or keeps changing) holds a delete up for [`LockTimes::repair_wait`] at
//! most, and then the delete goes ahead with a warning naming the remotes serving it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use futures::StreamExt;

use super::{
    HeldLock, LockKind, LockTimes, SeenLock, WRITE, human_duration, judge, lock_times,
    read_lock_copies, release,
};
use crate::error::{Error, Kind, Result};
use crate::remote::{DynRemote, lease};
use crate::repo::{Repository, State};

const MAGIC: &str = "tangle repair marker v1";

/// A repair's marker: rewritten in the background while the repair runs, removed from
/// every remote when dropped.
pub struct RepairMarkerGuard(Arc<HeldLock>);

impl Drop for RepairMarkerGuard {
    fn drop(&mut self) {
        release(&self.0);
    }
}

fn marker_text(repo_id: &[u8; 16], beat: u64) -> Bytes {
    Bytes::from(format!(
        "{MAGIC}\nrepo {}\nbeat {beat}\nhost {}\npid {}\n",
        hex::encode(repo_id),
        crate::util::hostname(),
        std::process::id()
    ))
}

/// Who a marker says it is (it proves nothing: it is not signed).
fn marker_holder(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines();
    (lines.next()? == MAGIC).then_some(())?;
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
            .map(|v| {
                v.chars()
                    .filter(|c| !c.is_control())
                    .take(64)
                    .collect::<String>()
            })
    };
    Some(format!(
        "repair (pid {} on {})",
        field("pid")?,
        field("host")?
    ))
}

/// Write `bytes` at `path` on every remote; whether at least one took it.
async fn put_everywhere(remotes: &[DynRemote], path: &str, bytes: Bytes) -> bool {
    let oks =
        futures::future::join_all(remotes.iter().map(|r| r.put(WRITE, path, bytes.clone()))).await;
    oks.iter().any(|r| r.is_ok())
}

/// A marker as every remote serves it.
struct MarkerSeen {
    path: String,
    /// Changes whenever any copy changes.
    state: String,
    holder: String,
    remotes: Vec<String>,
}

impl<S: State> Repository<S> {
    /// Announce a repair and check that no exclusive lock is live (waiting up to
    /// `--retry-lock`); from then on writes go ahead only while the background re-checks
    /// find none (see the module's comment).
    pub fn repair_marker(&self) -> Result<RepairMarkerGuard> {
        let guard = self.wait_for_locks(|| self.try_repair_marker())?;
        super::stop_here_for_tests();
        Ok(guard)
    }

    fn try_repair_marker(&self) -> Result<std::result::Result<RepairMarkerGuard, SeenLock>> {
        let times = lock_times();
        let id: [u8; 32] = crate::crypto::random_bytes()?;
        let path = format!("repairs/{}", hex::encode(id));
        let lease = lease::start(
            "this repair's check for exclusive locks",
            times.repair_lease,
        );
        let marker = self.hold(&path, lease, None);
        let guard = RepairMarkerGuard(marker.clone());
        let repo_id = self.config.id;
        let at = lease::mark();
        if !self.block_on(put_everywhere(
            &self.inner.remotes,
            &path,
            marker_text(&repo_id, 1),
        )) {
            return Err(Error::fatal(
                "could not write a repair marker (repairs/...) to any remote",
            ));
        }
        if let Some(l) = self.busy(LockKind::Shared, None)? {
            drop(guard);
            return Ok(Err(l));
        }
        lease::renew(lease, at);
        let refresher = self.inner.rt.spawn({
            let remotes = self.inner.remotes.clone();
            let owner = self.signers().clone();
            let watch = self.lock_watch();
            let health = self.inner.health.clone();
            async move {
                let mut beat = 1;
                loop {
                    tokio::time::sleep(times.repair_check).await;
                    let at = lease::mark();
                    // A remote that stopped answering is not waited for again (each wait
                    // would cost more than the lease).
                    let usable: Vec<bool> = (0..remotes.len())
                        .map(|i| health.down(i).is_none())
                        .collect();
                    // Bounded: a remote that stalls must not outlast the lease. An
                    // exclusive lock is on the other remotes too.
                    let copies = read_lock_copies(
                        &remotes,
                        &usable,
                        &owner,
                        &repo_id,
                        Some(times.repair_check),
                    )
                    .await;
                    for (i, e) in &copies.unlisted {
                        health.note_list_error(*i, e);
                    }
                    let exclusive = judge(&copies, &watch)
                        .into_iter()
                        .find(|l| l.info.kind == LockKind::Exclusive && !l.state.is_stale(&times));
                    if let Some(l) = exclusive {
                        lease::lose(format!(
                            "{} took an exclusive lock while this repair ran, so the repair \
                             stopped writing; run it again when that is done",
                            l.info.describe()
                        ));
                        return;
                    }
                    beat += 1;
                    let live: Vec<DynRemote> = (remotes.iter().enumerate())
                        .filter(|(i, _)| usable[*i])
                        .map(|(_, r)| r.clone())
                        .collect();
                    let marker = marker_text(&repo_id, beat);
                    if !super::put_and_renew(&live, (&path, marker), false, lease, at).await {
                        return;
                    }
                }
            }
        });
        *marker.refresher.lock().unwrap_or_else(|p| p.into_inner()) =
            Some(refresher.abort_handle());
        Ok(Ok(guard))
    }

    /// The repair markers every remote lists.
    pub(super) fn repair_marker_paths(&self) -> Vec<String> {
        self.list_union_all("repairs").unwrap_or_default()
    }

    /// Every marker, as read from each remote that lists it.
    fn read_repair_markers(&self) -> Vec<MarkerSeen> {
        let listings = self.list_each("repairs");
        let copies: Vec<(usize, String)> = (listings.into_iter().enumerate())
            .flat_map(|(i, l)| l.into_iter().flatten().map(move |p| (i, p)))
            .collect();
        let read: Vec<(usize, String, Result<Bytes>)> = self.block_on(
            futures::stream::iter(copies)
                .map(|(i, path)| async move {
                    let got = self.inner.remotes[i].get_max(&path, super::MAX_SIZE).await;
                    (i, path, got)
                })
                .buffer_unordered(16)
                .collect(),
        );
        let mut by_path: HashMap<String, MarkerSeen> = HashMap::new();
        let mut parts: HashMap<String, Vec<String>> = HashMap::new();
        for (i, path, got) in read {
            let url = self.inner.remotes[i].url().to_string();
            let part = match &got {
                Ok(b) => format!("{url}={}", blake3::hash(b).to_hex()),
                Err(e) if e.kind() == Kind::NotFound => continue,
                Err(_) => format!("{url}=unreadable"),
            };
            parts.entry(path.clone()).or_default().push(part);
            let seen = by_path.entry(path.clone()).or_insert_with(|| MarkerSeen {
                path,
                state: String::new(),
                holder: "a repair marker".into(),
                remotes: Vec::new(),
            });
            if let Some(h) = got.ok().as_deref().and_then(marker_holder) {
                seen.holder = h;
            }
            seen.remotes.push(url);
        }
        for (path, mut p) in parts {
            p.sort();
            if let Some(seen) = by_path.get_mut(&path) {
                seen.state = p.join(" ");
            }
        }
        by_path.into_values().collect()
    }

    /// For an exclusive holder whose lock is written: wait until no repair may still be
    /// writing (see the module's comment).
    pub(super) fn wait_for_repairs(&self) -> Result<()> {
        let times: LockTimes = lock_times();
        let started = Instant::now();
        let mut watched: HashMap<String, (String, Instant)> = HashMap::new();
        let mut said = false;
        loop {
            let markers = self.read_repair_markers();
            let now = Instant::now();
            let live: Vec<&MarkerSeen> = (markers.iter())
                .filter(|m| {
                    let (state, since) = watched
                        .entry(m.path.clone())
                        .or_insert_with(|| (m.state.clone(), now));
                    if *state != m.state {
                        *state = m.state.clone();
                        *since = now;
                    }
                    now.duration_since(*since) < times.repair_stale
                })
                .collect();
            if live.is_empty() {
                // Left by repairs that died: no one needs to wait for them again.
                for m in &markers {
                    self.inner.rt.block_on(futures::future::join_all(
                        self.inner.remotes.iter().map(|r| r.delete(WRITE, &m.path)),
                    ));
                }
                return Ok(());
            }
            if started.elapsed() >= times.repair_wait {
                for m in live {
                    self.warn(&format!(
                        "going ahead after waiting {} for {} (on {}) to stop: a repair \
                         marker proves nothing, and a repair that still runs stops \
                         writing at its next check",
                        human_duration(times.repair_wait),
                        m.holder,
                        m.remotes.join(", ")
                    ));
                }
                return Ok(());
            }
            if !said {
                self.warn(&format!(
                    "waiting for {} to notice this lock and stop writing",
                    live[0].holder
                ));
                said = true;
            }
            std::thread::sleep((times.repair_check / 2).min(times.poll()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_names_its_holder_without_control_characters() {
        let m = marker_text(&[1; 16], 3);
        let holder = marker_holder(&m).expect("a marker");
        assert!(holder.starts_with("repair (pid "), "{holder}");
        assert_eq!(marker_holder(b"junk"), None);
        let hostile = format!("{MAGIC}\npid 1\nhost a\x1b[2Kb\n");
        assert_eq!(
            marker_holder(hostile.as_bytes()).as_deref(),
            Some("repair (pid 1 on a[2Kb)")
        );
    }
}
