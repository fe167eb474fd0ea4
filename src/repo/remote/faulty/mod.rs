//! A fault-injecting wrapper around another remote, for tests and simulations.
//!
//! [`Faulty`] forwards every call to the remote it wraps, except where one of its
//! [`Rule`]s applies. A rule names the operations it affects ([`Op`]), a path prefix,
//! a probability and the [`Fault`] to inject. Faults can be switched on and off while
//! the remote is in use (the wrapper is shared behind an `Arc`).
//!
//! Every random decision is a pure function of the seed, the rule, the operation and the
//! path (and, for [`Rule::per_call`] rules, of how often that path was asked for before),
//! never of the order in which concurrent requests arrive: a test that uses the same seed
//! sees the same faults on the same objects every time.
//!
//! What each fault does:
//!
//! * [`Fault::Error`]: the call fails with an error of that kind, touching nothing.
//! * [`Fault::Timeout`]: the call fails with a `Fatal` "timed out" error (no delay).
//! * [`Fault::Truncate`]: data comes back cut short (`get`, `get_range`: the first half
//!   of the bytes; `stat`, `list`: sizes halved; `list` also drops the second half of
//!   the entries). For `put`/`put_new`/`put_once` half the data is stored and success reported
//!   (a torn write the remote does not admit).
//! * [`Fault::FlipBits`]: `n` bits flipped in returned data (`get`, `get_range`) or in
//!   the data stored (`put`, `put_new`, `put_once`: silent corruption at write time).
//! * [`Fault::LostAck`]: `put`/`put_new`/`put_once`/`delete` do their work but then fail (the
//!   reply got lost); for other operations it acts like `Timeout`.
//!
//! Stale lists: after [`Faulty::freeze_lists`], `list` omits every object created
//! through this wrapper from then on (as an eventually consistent store might), until
//! [`Faulty::thaw_lists`]. Objects stay readable with `get`.
//!
//! [`Faulty::set_offline`] makes every call fail (a remote that is unreachable).
//!
//! [`Faulty::hold_writes`] makes `put`/`put_new`/`put_once` wait until [`Faulty::release_writes`]
//! (a remote that is slow to accept data), so tests can see who waits for whom.

mod rule;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use async_trait::async_trait;
use bytes::Bytes;

use super::{DynRemote, ObjectInfo, Remote, RemoteError, WriteAccess};
use crate::error::{Error, Kind, Result};
pub use rule::{Fault, Op, Rule};
use rule::{flip, mix};

#[derive(Default)]
struct State {
    seed: u64,
    rules: Vec<(Rule, u64)>,
    offline: bool,
    frozen: bool,
    hidden: HashSet<String>,
    calls: HashMap<(Op, String), u64>,
    injected: u64,
    log: Vec<(Op, String, Fault)>,
}

/// A remote that forwards to another one and injects the faults it is told to.
pub struct Faulty {
    inner: DynRemote,
    state: Mutex<State>,
    /// True while writes are held back.
    hold: tokio::sync::watch::Sender<bool>,
    writes_waiting: std::sync::atomic::AtomicU64,
}

impl Faulty {
    pub fn new(inner: DynRemote) -> Faulty {
        Faulty {
            inner,
            state: Mutex::new(State::default()),
            hold: tokio::sync::watch::Sender::new(false),
            writes_waiting: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Like [`Faulty::new`], with the seed of the random decisions.
    pub fn with_seed(inner: DynRemote, seed: u64) -> Faulty {
        let f = Faulty::new(inner);
        f.state().seed = seed;
        f
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    #[cfg(test)]
    pub(crate) fn inner(&self) -> &DynRemote {
        &self.inner
    }

    /// Add a rule (rules are tried in the order they were added; the first that fires
    /// wins).
    pub fn add(&self, rule: Rule) {
        self.state().rules.push((rule, 0));
    }

    /// Remove every rule (the remote behaves again; stale lists and offline stay as set).
    pub fn clear(&self) {
        self.state().rules.clear();
    }

    /// Every call fails with a `Fatal` "unreachable" error while set.
    pub fn set_offline(&self, offline: bool) {
        self.state().offline = offline;
    }

    /// From now on, every write waits (before doing anything) until
    /// [`Faulty::release_writes`].
    pub fn hold_writes(&self) {
        self.hold.send_replace(true);
    }

    /// Let held and future writes through.
    pub fn release_writes(&self) {
        self.hold.send_replace(false);
    }

    /// How many writes are waiting for [`Faulty::release_writes`] right now.
    pub fn writes_waiting(&self) -> u64 {
        self.writes_waiting
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// From now on, `list` omits objects written through this wrapper.
    pub fn freeze_lists(&self) {
        let mut s = self.state();
        s.frozen = true;
        s.hidden.clear();
    }

    /// `list` shows everything again.
    pub fn thaw_lists(&self) {
        let mut s = self.state();
        s.frozen = false;
        s.hidden.clear();
    }

    /// How many faults were injected so far.
    pub fn injected(&self) -> u64 {
        self.state().injected
    }

    /// The faults injected so far: operation, path, fault.
    pub fn log(&self) -> Vec<(Op, String, Fault)> {
        self.state().log.clone()
    }

    /// How often `op` was called on `path` (`list`: on that prefix).
    #[cfg(test)]
    pub(crate) fn calls(&self, op: Op, path: &str) -> u64 {
        self.state()
            .calls
            .get(&(op, path.to_string()))
            .copied()
            .unwrap_or(0)
    }

    /// How often `op` was called, on any path.
    pub fn calls_to(&self, op: Op) -> u64 {
        (self.state().calls.iter())
            .filter(|((o, _), _)| *o == op)
            .map(|(_, n)| n)
            .sum()
    }

    /// The fault to inject into this call, if any (and count the call).
    fn decide(&self, op: Op, path: &str) -> Result<Option<(Fault, u64)>> {
        let mut s = self.state();
        if s.offline {
            return Err(RemoteError::Unreachable {
                url: self.inner.url().to_string(),
                what: "unreachable (injected)".to_string(),
                source: None,
            }
            .into());
        }
        let n = {
            let c = s.calls.entry((op, path.to_string())).or_insert(0);
            *c += 1;
            *c - 1
        };
        let seed = s.seed;
        let mut hit = None;
        for (k, (rule, used)) in s.rules.iter_mut().enumerate() {
            if rule.ops & op.bit() == 0
                || !path.starts_with(&rule.prefix)
                || (rule.exact && path != rule.prefix)
                || rule.limit.is_some_and(|l| *used >= l)
            {
                continue;
            }
            let h = mix(seed, k as u64, op, path, if rule.per_call { n } else { 0 });
            let fires = rule.probability >= 1.0
                || ((h >> 11) as f64 / (1u64 << 53) as f64) < rule.probability;
            if fires {
                *used += 1;
                hit = Some((rule.fault, h));
                break;
            }
        }
        if let Some((fault, _)) = hit {
            s.injected += 1;
            s.log.push((op, path.to_string(), fault));
        }
        Ok(hit)
    }

    fn fail(&self, op: Op, path: &str, fault: Fault) -> Error {
        let url = self.inner.url();
        let (kind, what) = match fault {
            Fault::Error(kind) => (kind, format!("injected {op:?} failure")),
            _ => (Kind::Fatal, format!("{op:?} timed out (injected)")),
        };
        RemoteError::Injected {
            url: url.to_string(),
            path: path.to_string(),
            what,
            kind,
        }
        .into()
    }

    fn hide_if_frozen(&self, path: &str) {
        let mut s = self.state();
        if s.frozen {
            s.hidden.insert(path.to_string());
        }
    }

    async fn write(&self, access: WriteAccess, op: Op, path: &str, data: Bytes) -> Result<bool> {
        let mut hold = self.hold.subscribe();
        if *hold.borrow_and_update() {
            use std::sync::atomic::Ordering::SeqCst;
            self.writes_waiting.fetch_add(1, SeqCst);
            let _ = hold.wait_for(|held| !*held).await;
            self.writes_waiting.fetch_sub(1, SeqCst);
        }
        let fault = self.decide(op, path)?;
        let data = match fault {
            None | Some((Fault::LostAck, _)) => data,
            Some((Fault::Truncate, _)) => data.slice(..data.len() / 2),
            Some((Fault::FlipBits(n), h)) => flip(&data, n, h),
            Some((f, _)) => return Err(self.fail(op, path, f)),
        };
        // A stale list still shows objects that existed before the freeze.
        let existed = self.state().frozen && self.inner.stat(path).await.is_ok();
        let written = match op {
            Op::PutNew => self.inner.put_new(access, path, data).await?,
            Op::PutOnce => self.inner.put_once(access, path, data).await?,
            _ => {
                self.inner.put(access, path, data).await?;
                true
            }
        };
        if written && !existed {
            self.hide_if_frozen(path);
        }
        match fault {
            Some((Fault::LostAck, _)) => Err(self.fail(op, path, Fault::LostAck)),
            _ => Ok(written),
        }
    }

    /// Apply a data fault to bytes read; errors for the others.
    fn read_fault(
        &self,
        op: Op,
        path: &str,
        fault: Option<(Fault, u64)>,
        data: Bytes,
    ) -> Result<Bytes> {
        match fault {
            None => Ok(data),
            Some((Fault::Truncate, _)) => Ok(data.slice(..data.len() / 2)),
            Some((Fault::FlipBits(n), h)) => Ok(flip(&data, n, h)),
            Some((f, _)) => Err(self.fail(op, path, f)),
        }
    }
}

#[async_trait]
impl Remote for Faulty {
    fn url(&self) -> &str {
        self.inner.url()
    }

    async fn put(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<()> {
        self.write(access, Op::Put, path, data).await.map(|_| ())
    }

    async fn put_new(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        self.write(access, Op::PutNew, path, data).await
    }

    async fn put_once(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        self.write(access, Op::PutOnce, path, data).await
    }

    async fn get(&self, path: &str) -> Result<Bytes> {
        let fault = self.decide(Op::Get, path)?;
        if let Some((f @ (Fault::Error(_) | Fault::Timeout | Fault::LostAck), _)) = fault {
            return Err(self.fail(Op::Get, path, f));
        }
        let data = self.inner.get(path).await?;
        self.read_fault(Op::Get, path, fault, data)
    }

    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        let fault = self.decide(Op::GetRange, path)?;
        if let Some((f @ (Fault::Error(_) | Fault::Timeout | Fault::LostAck), _)) = fault {
            return Err(self.fail(Op::GetRange, path, f));
        }
        let data = self.inner.get_range(path, offset, len).await?;
        self.read_fault(Op::GetRange, path, fault, data)
    }

    async fn stat(&self, path: &str) -> Result<ObjectInfo> {
        let mut info = match self.decide(Op::Stat, path)? {
            None | Some((Fault::FlipBits(_), _)) => self.inner.stat(path).await?,
            Some((Fault::Truncate, _)) => {
                let mut i = self.inner.stat(path).await?;
                i.size /= 2;
                i
            }
            Some((f, _)) => return Err(self.fail(Op::Stat, path, f)),
        };
        info.path = path.to_string();
        Ok(info)
    }

    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        let fault = self.decide(Op::List, prefix)?;
        let mut objects = match fault {
            None | Some((Fault::FlipBits(_) | Fault::Truncate, _)) => {
                self.inner.list(prefix).await?
            }
            Some((f, _)) => return Err(self.fail(Op::List, prefix, f)),
        };
        {
            let s = self.state();
            if s.frozen {
                objects.retain(|o| !s.hidden.contains(&o.path));
            }
        }
        if let Some((Fault::Truncate, _)) = fault {
            objects.truncate(objects.len() / 2);
            for o in &mut objects {
                o.size /= 2;
            }
        }
        Ok(objects)
    }

    async fn list_temp(&self) -> Result<Vec<ObjectInfo>> {
        match self.decide(Op::List, "")? {
            None | Some((Fault::FlipBits(_) | Fault::Truncate, _)) => self.inner.list_temp().await,
            Some((f, _)) => Err(self.fail(Op::List, "", f)),
        }
    }

    async fn delete(&self, access: WriteAccess, path: &str) -> Result<()> {
        match self.decide(Op::Delete, path)? {
            None | Some((Fault::Truncate | Fault::FlipBits(_), _)) => {
                self.inner.delete(access, path).await
            }
            Some((Fault::LostAck, _)) => {
                self.inner.delete(access, path).await?;
                Err(self.fail(Op::Delete, path, Fault::LostAck))
            }
            Some((f, _)) => Err(self.fail(Op::Delete, path, f)),
        }
    }

    async fn exists(&self) -> Result<bool> {
        match self.decide(Op::Exists, "")? {
            None | Some((Fault::Truncate | Fault::FlipBits(_), _)) => self.inner.exists().await,
            Some((f, _)) => Err(self.fail(Op::Exists, "", f)),
        }
    }

    async fn create(&self, access: WriteAccess) -> Result<()> {
        match self.decide(Op::Create, "")? {
            None | Some((Fault::Truncate | Fault::FlipBits(_), _)) => {
                self.inner.create(access).await
            }
            Some((f, _)) => Err(self.fail(Op::Create, "", f)),
        }
    }
}
