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
//!   the entries). For `put`/`put_new` half the data is stored and success reported
//!   (a torn write the remote does not admit).
//! * [`Fault::FlipBits`]: `n` bits flipped in returned data (`get`, `get_range`) or in
//!   the data stored (`put`, `put_new`: silent corruption at write time).
//! * [`Fault::LostAck`]: `put`/`put_new`/`delete` do their work but then fail (the
//!   reply got lost); for other operations it acts like `Timeout`.
//!
//! Stale lists: after [`Faulty::freeze_lists`], `list` omits every object created
//! through this wrapper from then on (as an eventually consistent store might), until
//! [`Faulty::thaw_lists`]. Objects stay readable with `get`.
//!
//! [`Faulty::set_offline`] makes every call fail (a remote that is unreachable).
//!
//! [`Faulty::hold_writes`] makes `put`/`put_new` wait until [`Faulty::release_writes`]
//! (a remote that is slow to accept data), so tests can see who waits for whom.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use async_trait::async_trait;
use bytes::Bytes;

use super::{DynRemote, ObjectInfo, Remote};
use crate::error::{Error, Kind, Result};

/// An operation of the [`Remote`] trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Put,
    PutNew,
    Get,
    GetRange,
    Stat,
    List,
    Delete,
    Exists,
    Create,
}

impl Op {
    pub const ALL: [Op; 9] = [
        Op::Put,
        Op::PutNew,
        Op::Get,
        Op::GetRange,
        Op::Stat,
        Op::List,
        Op::Delete,
        Op::Exists,
        Op::Create,
    ];
    /// Operations that read objects: `get`, `get_range`.
    pub const READS: [Op; 2] = [Op::Get, Op::GetRange];
    /// Operations that write objects: `put`, `put_new`.
    pub const WRITES: [Op; 2] = [Op::Put, Op::PutNew];

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// What goes wrong when a rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Error(Kind),
    Timeout,
    Truncate,
    FlipBits(u32),
    LostAck,
}

/// When and where a fault is injected.
#[derive(Clone, Debug)]
pub struct Rule {
    fault: Fault,
    ops: u16,
    prefix: String,
    probability: f64,
    per_call: bool,
    limit: Option<u64>,
}

impl Rule {
    /// `fault` on every operation and every path, always.
    pub fn new(fault: Fault) -> Rule {
        Rule {
            fault,
            ops: Op::ALL.iter().fold(0, |m, o| m | o.bit()),
            prefix: String::new(),
            probability: 1.0,
            per_call: false,
            limit: None,
        }
    }
    /// Only on these operations.
    pub fn ops(mut self, ops: &[Op]) -> Rule {
        self.ops = ops.iter().fold(0, |m, o| m | o.bit());
        self
    }
    /// Only on paths starting with `prefix` (for `list`: the listed prefix).
    pub fn prefix(mut self, prefix: &str) -> Rule {
        self.prefix = prefix.to_string();
        self
    }
    /// Only for a seeded random share of the paths.
    pub fn probability(mut self, p: f64) -> Rule {
        self.probability = p.clamp(0.0, 1.0);
        self
    }
    /// Decide anew on every call (a transient fault) instead of once per path (a
    /// persistent one: the same object always fails the same way).
    pub fn per_call(mut self) -> Rule {
        self.per_call = true;
        self
    }
    /// Inject at most `n` times.
    pub fn times(mut self, n: u64) -> Rule {
        self.limit = Some(n);
        self
    }
}

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

    pub fn inner(&self) -> &DynRemote {
        &self.inner
    }

    pub fn set_seed(&self, seed: u64) {
        self.state().seed = seed;
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

    /// From now on, `put` and `put_new` wait (before doing anything) until
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
    pub fn calls(&self, op: Op, path: &str) -> u64 {
        self.state()
            .calls
            .get(&(op, path.to_string()))
            .copied()
            .unwrap_or(0)
    }

    /// The fault to inject into this call, if any (and count the call).
    fn decide(&self, op: Op, path: &str) -> Result<Option<(Fault, u64)>> {
        let mut s = self.state();
        if s.offline {
            return Err(Error::fatal(format!(
                "remote {}: unreachable (injected)",
                self.inner.url()
            )));
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
        match fault {
            Fault::Error(kind) => Error::new(
                kind,
                format!("remote {url}: {path}: injected {op:?} failure"),
            ),
            _ => Error::fatal(format!("remote {url}: {path}: {op:?} timed out (injected)")),
        }
    }

    fn hide_if_frozen(&self, path: &str) {
        let mut s = self.state();
        if s.frozen {
            s.hidden.insert(path.to_string());
        }
    }

    async fn write(&self, op: Op, path: &str, data: Bytes) -> Result<bool> {
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
            Op::PutNew => self.inner.put_new(path, data).await?,
            _ => {
                self.inner.put(path, data).await?;
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

/// A 64-bit hash of one decision's inputs (BLAKE3, so any change of input changes it).
fn mix(seed: u64, rule: u64, op: Op, path: &str, call: u64) -> u64 {
    let mut h = blake3::Hasher::new();
    h.update(&seed.to_le_bytes());
    h.update(&rule.to_le_bytes());
    h.update(&(op as u64).to_le_bytes());
    h.update(&call.to_le_bytes());
    h.update(path.as_bytes());
    let b = h.finalize();
    u64::from_le_bytes(b.as_bytes()[..8].try_into().unwrap_or([0; 8]))
}

/// `data` with `n` bits flipped at positions derived from `h` (distinct positions, so
/// flips never cancel out; empty data stays empty).
fn flip(data: &[u8], n: u32, h: u64) -> Bytes {
    let mut v = data.to_vec();
    if v.is_empty() || n == 0 {
        return Bytes::from(v);
    }
    let bits = v.len() as u64 * 8;
    let mut x = h | 1;
    let mut done = HashSet::new();
    for _ in 0..(n as u64).min(bits) {
        loop {
            // xorshift64*
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            let pos = x.wrapping_mul(0x2545_F491_4F6C_DD1D) % bits;
            if done.insert(pos) {
                v[(pos / 8) as usize] ^= 1 << (pos % 8);
                break;
            }
        }
    }
    Bytes::from(v)
}

#[async_trait]
impl Remote for Faulty {
    fn url(&self) -> &str {
        self.inner.url()
    }

    async fn put(&self, path: &str, data: Bytes) -> Result<()> {
        self.write(Op::Put, path, data).await.map(|_| ())
    }

    async fn put_new(&self, path: &str, data: Bytes) -> Result<bool> {
        self.write(Op::PutNew, path, data).await
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

    async fn delete(&self, path: &str) -> Result<()> {
        match self.decide(Op::Delete, path)? {
            None | Some((Fault::Truncate | Fault::FlipBits(_), _)) => self.inner.delete(path).await,
            Some((Fault::LostAck, _)) => {
                self.inner.delete(path).await?;
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

    async fn create(&self) -> Result<()> {
        match self.decide(Op::Create, "")? {
            None | Some((Fault::Truncate | Fault::FlipBits(_), _)) => self.inner.create().await,
            Some((f, _)) => Err(self.fail(Op::Create, "", f)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::remote::MemoryRemote;

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        futures::executor::block_on(f)
    }

    fn setup(seed: u64) -> Faulty {
        let inner: DynRemote = Arc::new(MemoryRemote::new("memory://faulty-unit"));
        let f = Faulty::with_seed(inner, seed);
        block_on(async {
            for i in 0..64 {
                f.put(&format!("shards/{i:02}"), Bytes::from(vec![i as u8; 100]))
                    .await
                    .unwrap();
            }
            f.put("config", Bytes::from_static(b"cfg")).await.unwrap();
        });
        f
    }

    #[test]
    fn forwards_without_rules() {
        let f = setup(1);
        assert_eq!(
            block_on(f.get("config")).unwrap(),
            Bytes::from_static(b"cfg")
        );
        assert_eq!(block_on(f.list("shards")).unwrap().len(), 64);
        assert_eq!(f.injected(), 0);
    }

    #[test]
    fn prefix_and_ops_select_what_fails() {
        let f = setup(1);
        f.add(Rule::new(Fault::Timeout).ops(&[Op::Get]).prefix("shards/"));
        let e = block_on(f.get("shards/03")).unwrap_err();
        assert_eq!(e.kind(), Kind::Fatal);
        assert!(e.message().contains("timed out"), "{e}");
        assert!(block_on(f.get_range("shards/03", 0, 10)).is_ok());
        assert!(block_on(f.get("config")).is_ok());
        f.clear();
        assert!(block_on(f.get("shards/03")).is_ok());
        f.add(Rule::new(Fault::Error(Kind::NotFound)).ops(&[Op::List]));
        assert_eq!(
            block_on(f.list("shards")).unwrap_err().kind(),
            Kind::NotFound
        );
    }

    #[test]
    fn probability_is_seeded_and_sticky_per_path() {
        let failing = |seed| {
            let f = setup(seed);
            f.add(Rule::new(Fault::Timeout).ops(&[Op::Get]).probability(0.5));
            let a: Vec<bool> = (0..64)
                .map(|i| block_on(f.get(&format!("shards/{i:02}"))).is_err())
                .collect();
            let b: Vec<bool> = (0..64)
                .map(|i| block_on(f.get(&format!("shards/{i:02}"))).is_err())
                .collect();
            assert_eq!(a, b, "a persistent fault must hit the same paths again");
            a
        };
        let a = failing(7);
        assert_eq!(a, failing(7));
        assert_ne!(a, failing(8));
        let n = a.iter().filter(|&&x| x).count();
        assert!((16..=48).contains(&n), "{n} of 64 failed at p = 0.5");
    }

    #[test]
    fn per_call_and_times() {
        let f = setup(3);
        f.add(
            Rule::new(Fault::Timeout)
                .ops(&[Op::Get])
                .per_call()
                .probability(0.5),
        );
        let outcomes: HashSet<bool> = (0..40)
            .map(|_| block_on(f.get("shards/01")).is_err())
            .collect();
        assert_eq!(outcomes.len(), 2, "a transient fault must come and go");
        assert_eq!(f.calls(Op::Get, "shards/01"), 40);
        f.clear();
        f.add(Rule::new(Fault::Timeout).ops(&[Op::Get]).times(2));
        assert!(block_on(f.get("config")).is_err());
        assert!(block_on(f.get("config")).is_err());
        assert!(block_on(f.get("config")).is_ok());
    }

    #[test]
    fn data_faults() {
        let f = setup(5);
        f.add(
            Rule::new(Fault::Truncate)
                .ops(&[Op::Get])
                .prefix("shards/01"),
        );
        f.add(
            Rule::new(Fault::FlipBits(3))
                .ops(&Op::READS)
                .prefix("shards/02"),
        );
        assert_eq!(block_on(f.get("shards/01")).unwrap().len(), 50);
        let flipped = block_on(f.get("shards/02")).unwrap();
        let diff: u32 = flipped.iter().map(|b| (b ^ 2).count_ones()).sum();
        assert_eq!(diff, 3);
        let r = block_on(f.get_range("shards/02", 10, 20)).unwrap();
        assert_eq!(r.len(), 20);
        assert_ne!(&r[..], &[2u8; 20][..]);
    }

    #[test]
    fn write_faults_and_lost_acks() {
        let f = setup(5);
        f.add(Rule::new(Fault::FlipBits(1)).ops(&Op::WRITES).prefix("a"));
        f.add(Rule::new(Fault::LostAck).ops(&Op::WRITES).prefix("b"));
        f.add(
            Rule::new(Fault::Error(Kind::Fatal))
                .ops(&Op::WRITES)
                .prefix("c"),
        );
        block_on(f.put("a", Bytes::from_static(b"\0\0\0\0"))).unwrap();
        assert_ne!(&block_on(f.inner().get("a")).unwrap()[..], b"\0\0\0\0");
        assert!(block_on(f.put("b", Bytes::from_static(b"x"))).is_err());
        assert_eq!(&block_on(f.inner().get("b")).unwrap()[..], b"x");
        assert!(block_on(f.put("c", Bytes::from_static(b"x"))).is_err());
        assert_eq!(
            block_on(f.inner().get("c")).unwrap_err().kind(),
            Kind::NotFound
        );
        assert_eq!(f.injected(), 3);
    }

    #[test]
    fn stale_lists_and_offline() {
        let f = setup(5);
        f.freeze_lists();
        block_on(f.put("shards/new", Bytes::from_static(b"n"))).unwrap();
        let listed = block_on(f.list("shards")).unwrap();
        assert_eq!(listed.len(), 64);
        assert!(block_on(f.get("shards/new")).is_ok());
        f.thaw_lists();
        assert_eq!(block_on(f.list("shards")).unwrap().len(), 65);
        f.set_offline(true);
        assert!(block_on(f.list("shards")).is_err());
        assert!(block_on(f.get("config")).is_err());
        f.set_offline(false);
        assert!(block_on(f.get("config")).is_ok());
    }
}
