//! The byte budget of blobs between the readers and the appender. The channels between
//! those stages hold many blobs, so that small files flow without a thread hand-off
//! (and a wake-up) per blob; this budget is what bounds their memory, whatever the mix
//! of small blobs and 8 MiB chunks.

use std::sync::{Condvar, Mutex, MutexGuard};

pub(super) struct Budget {
    state: Mutex<State>,
    freed: Condvar,
    limit: usize,
}

struct State {
    used: usize,
    /// Threads waiting in `acquire` (so `release` wakes no one when no one waits).
    waiting: usize,
    /// The appender has stopped, or a compressor lost a blob: nothing more will come
    /// back.
    closed: bool,
}

/// The backup is stopping (an error elsewhere); the blob will never be stored.
pub(super) struct Closed;

impl Budget {
    pub(super) fn new(limit: usize) -> Self {
        Budget {
            state: Mutex::new(State {
                used: 0,
                waiting: 0,
                closed: false,
            }),
            freed: Condvar::new(),
            limit,
        }
    }

    /// Take `n` bytes of the budget, waiting while it is spent. A blob bigger than the
    /// whole budget still goes through, alone.
    pub(super) fn acquire(&self, n: usize) -> Result<(), Closed> {
        let mut s = self.lock();
        while !s.closed && s.used > 0 && s.used + n > self.limit {
            s.waiting += 1;
            s = self.freed.wait(s).unwrap_or_else(|p| p.into_inner());
            s.waiting -= 1;
        }
        if s.closed {
            return Err(Closed);
        }
        s.used += n;
        Ok(())
    }

    /// Give back `n` bytes (a blob reached the extent).
    pub(super) fn release(&self, n: usize) {
        let mut s = self.lock();
        s.used = s.used.saturating_sub(n);
        if s.waiting > 0 {
            self.freed.notify_all();
        }
    }

    /// Wake every waiter with an error and refuse all later requests.
    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.freed.notify_all();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_budget_holds_senders_until_bytes_come_back() {
        let budget = Budget::new(10);
        assert!(budget.acquire(6).is_ok());
        assert!(budget.acquire(4).is_ok());
        std::thread::scope(|s| {
            let waiter = s.spawn(|| budget.acquire(5).is_ok());
            // The waiter cannot pass until 5 bytes are back (it may not have started
            // waiting yet, which the release covers as well).
            budget.release(6);
            assert!(waiter.join().unwrap());
        });
        assert_eq!(budget.lock().used, 9);
    }

    #[test]
    fn a_blob_bigger_than_the_budget_passes_alone() {
        let budget = Budget::new(10);
        assert!(budget.acquire(100).is_ok());
        budget.release(100);
        assert!(budget.acquire(3).is_ok());
    }

    #[test]
    fn closing_frees_the_waiters_with_an_error() {
        let budget = Budget::new(10);
        assert!(budget.acquire(10).is_ok());
        std::thread::scope(|s| {
            let waiter = s.spawn(|| budget.acquire(1).is_err());
            budget.close();
            assert!(waiter.join().unwrap());
        });
        assert!(budget.acquire(1).is_err());
    }
}
