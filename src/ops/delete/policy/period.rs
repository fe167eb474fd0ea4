//! The counted rules (`--keep-last`, `--keep-hourly` ... `--keep-yearly`) and the
//! calendar buckets they keep one snapshot of.

use chrono::{DateTime, Datelike, TimeZone, Timelike};

/// A counted rule: the newest snapshot of each bucket is kept, up to the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Period {
    Last,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

impl Period {
    pub(super) fn adjective(self) -> &'static str {
        match self {
            Period::Last => "last",
            Period::Hour => "hourly",
            Period::Day => "daily",
            Period::Week => "weekly",
            Period::Month => "monthly",
            Period::Year => "yearly",
        }
    }

    /// The bucket of a snapshot (its position `nr` for `Last`, so each is its own).
    pub(super) fn bucket<Tz: TimeZone>(self, t: &DateTime<Tz>, nr: usize) -> i64 {
        let (y, m, d, h) = (
            i64::from(t.year()),
            i64::from(t.month()),
            i64::from(t.day()),
            i64::from(t.hour()),
        );
        match self {
            Period::Last => nr as i64,
            Period::Hour => ((y * 100 + m) * 100 + d) * 100 + h,
            Period::Day => (y * 100 + m) * 100 + d,
            Period::Week => {
                let w = t.iso_week();
                i64::from(w.year()) * 100 + i64::from(w.week())
            }
            Period::Month => y * 100 + m,
            Period::Year => y,
        }
    }
}
