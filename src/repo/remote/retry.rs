//! Retrying transient failures of network remotes: exponential backoff with full jitter
//! (the delay before attempt `n` is uniform in `[0, min(max, base * 2^n)]`), a bounded
//! number of attempts and an overall deadline, so that a flaky link is ridden out but a
//! dead one is reported within a predictable time.
//!
//! The S3 backend uses `object_store`'s own retry machinery (configured from
//! [`Policy::s3`]); the SFTP backend drives [`Policy`] itself.

use std::time::{Duration, Instant};

/// How often and how patiently to retry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Policy {
    /// Attempts in total, the first one included (1 = no retry).
    pub(crate) attempts: u32,
    /// The cap of the first backoff delay; doubled for each further attempt.
    pub(crate) base: Duration,
    /// The largest backoff delay.
    pub(crate) max: Duration,
    /// No new attempt is started this long after the first one began.
    pub(crate) deadline: Duration,
}

impl Policy {
    /// For SFTP operations: a lost ssh connection is re-established and the operation
    /// repeated, waiting up to about a minute in all.
    pub(crate) const fn sftp() -> Policy {
        Policy {
            attempts: 6,
            base: Duration::from_millis(250),
            max: Duration::from_secs(16),
            deadline: Duration::from_secs(120),
        }
    }

    /// For S3 requests (handed to `object_store`'s retry logic, which retries 5xx,
    /// 429, timeouts and connection errors with its own jittered backoff).
    pub(crate) const fn s3() -> Policy {
        Policy {
            attempts: 9,
            base: Duration::from_millis(100),
            max: Duration::from_secs(10),
            deadline: Duration::from_secs(120),
        }
    }

    /// The delay before retry number `retry` (0 = the first retry), with full jitter.
    pub(crate) fn delay(&self, retry: u32) -> Duration {
        let cap = self
            .base
            .saturating_mul(1u32.checked_shl(retry.min(20)).unwrap_or(u32::MAX))
            .min(self.max);
        let r = jitter_fraction();
        cap.mul_f64(r)
    }
}

/// A uniform random fraction in [0, 1); falls back to 0.5 if randomness is unavailable.
fn jitter_fraction() -> f64 {
    match crate::crypto::random_bytes::<8>() {
        Ok(b) => (u64::from_le_bytes(b) >> 11) as f64 / (1u64 << 53) as f64,
        Err(_) => 0.5,
    }
}

/// What a failed attempt means for the next one.
pub(crate) enum Verdict<E> {
    /// Give up with this error.
    Fail(E),
    /// Try again (after a backoff) if the policy allows; else give up with this error.
    Retry(E),
}

/// Run `op` until it succeeds, fails permanently, or the policy is exhausted.
/// `op` gets the attempt number (0-based).
pub(crate) async fn run<T, E, F, Fut>(policy: Policy, mut op: F) -> Result<T, E>
where
    F: FnMut(u32) -> Fut,
    Fut: std::future::Future<Output = Result<T, Verdict<E>>>,
{
    let start = Instant::now();
    let mut attempt = 0u32;
    loop {
        match op(attempt).await {
            Ok(v) => return Ok(v),
            Err(Verdict::Fail(e)) => return Err(e),
            Err(Verdict::Retry(e)) => {
                let delay = policy.delay(attempt);
                attempt += 1;
                if attempt >= policy.attempts || start.elapsed() + delay > policy.deadline {
                    return Err(e);
                }
                tokio::time::sleep(delay).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_and_are_capped() {
        let p = Policy::sftp();
        for retry in 0..40 {
            let d = p.delay(retry);
            assert!(d <= p.max);
            let cap = p.base.saturating_mul(1 << retry.min(20)).min(p.max);
            assert!(d <= cap, "retry {retry}: {d:?} > {cap:?}");
        }
    }

    #[tokio::test]
    async fn retries_then_succeeds_or_gives_up() {
        let p = Policy {
            attempts: 3,
            base: Duration::from_millis(1),
            max: Duration::from_millis(2),
            deadline: Duration::from_secs(5),
        };
        let r: Result<u32, &str> = run(p, |n| async move {
            if n < 2 {
                Err(Verdict::Retry("again"))
            } else {
                Ok(n)
            }
        })
        .await;
        assert_eq!(r, Ok(2));
        let r: Result<u32, &str> = run(p, |_| async { Err(Verdict::Retry("always")) }).await;
        assert_eq!(r, Err("always"));
        let mut calls = 0;
        let r: Result<u32, &str> = run(p, |_| {
            calls += 1;
            async { Err(Verdict::Fail("fatal")) }
        })
        .await;
        assert_eq!((r, calls), (Err("fatal"), 1));
    }
}
