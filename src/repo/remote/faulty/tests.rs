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
            f.put(
                WriteAccess::for_tests(),
                &format!("shards/{i:02}"),
                Bytes::from(vec![i as u8; 100]),
            )
            .await
            .unwrap();
        }
        f.put(
            WriteAccess::for_tests(),
            "config",
            Bytes::from_static(b"cfg"),
        )
        .await
        .unwrap();
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
    block_on(f.put(
        WriteAccess::for_tests(),
        "a",
        Bytes::from_static(b"\0\0\0\0"),
    ))
    .unwrap();
    assert_ne!(&block_on(f.inner().get("a")).unwrap()[..], b"\0\0\0\0");
    assert!(block_on(f.put(WriteAccess::for_tests(), "b", Bytes::from_static(b"x"))).is_err());
    assert_eq!(&block_on(f.inner().get("b")).unwrap()[..], b"x");
    assert!(block_on(f.put(WriteAccess::for_tests(), "c", Bytes::from_static(b"x"))).is_err());
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
    block_on(f.put(
        WriteAccess::for_tests(),
        "shards/new",
        Bytes::from_static(b"n"),
    ))
    .unwrap();
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
