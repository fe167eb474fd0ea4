//! `--keep-within`: a restic-style calendar duration, and the time it reaches back to
//! from the newest snapshot.

use std::fmt;

use chrono::{DateTime, Datelike, Days, NaiveDate, TimeZone, Utc};
use serde::Serialize;

use crate::error::{Error, Result};

/// A restic-style calendar duration such as `1y5m7d2h` (`m` is months).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Within {
    pub(crate) years: u32,
    pub(crate) months: u32,
    pub(crate) days: u32,
    pub(crate) hours: u32,
}

impl Within {
    pub(crate) fn is_zero(&self) -> bool {
        *self == Within::default()
    }

    /// `newest` minus this duration: years, months and days on the calendar of `tz`
    /// (a day of month past the month's end rolls over, as Go's `AddDate`: 31 March minus
    /// one month is 3 March), then hours of elapsed time.
    pub(super) fn cutoff<Tz: TimeZone>(&self, newest: DateTime<Utc>, tz: &Tz) -> DateTime<Utc> {
        self.try_cutoff(newest, tz)
            .unwrap_or(DateTime::<Utc>::MIN_UTC)
    }

    fn try_cutoff<Tz: TimeZone>(&self, newest: DateTime<Utc>, tz: &Tz) -> Option<DateTime<Utc>> {
        let local = newest.with_timezone(tz).naive_local();
        let months = i64::from(local.year()) * 12 + i64::from(local.month0())
            - i64::from(self.years) * 12
            - i64::from(self.months);
        let year = i32::try_from(months.div_euclid(12)).ok()?;
        let month = u32::try_from(months.rem_euclid(12)).ok()? + 1;
        let date = NaiveDate::from_ymd_opt(year, month, 1)?
            .checked_add_days(Days::new(u64::from(local.day() - 1)))?
            .checked_sub_days(Days::new(u64::from(self.days)))?;
        let naive = date.and_time(local.time());
        // A local time skipped by a DST change does not exist: take the next hour's.
        let back = tz
            .from_local_datetime(&naive)
            .earliest()
            .or_else(|| {
                tz.from_local_datetime(&(naive + chrono::Duration::hours(1)))
                    .earliest()
            })?
            .with_timezone(&Utc);
        back.checked_sub_signed(chrono::Duration::hours(i64::from(self.hours)))
    }
}

impl fmt::Display for Within {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0h");
        }
        for (n, unit) in [
            (self.years, 'y'),
            (self.months, 'm'),
            (self.days, 'd'),
            (self.hours, 'h'),
        ] {
            if n != 0 {
                write!(f, "{n}{unit}")?;
            }
        }
        Ok(())
    }
}

impl Serialize for Within {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Parse `--keep-within`: numbers with units `y` (years), `m` (months), `d` (days),
/// `h` (hours), e.g. `1y5m7d2h`, `30d`, `12h`; each unit at most once, in any order.
pub fn parse_within(s: &str) -> Result<Within> {
    const HELP: &str = "use a number with y (years), m (months), d (days) or h (hours), \
                        e.g. 30d, 12h or 1y5m7d2h";
    let bad = |why: String| Error::usage(format!("invalid duration {s:?}: {why} ({HELP})"));
    let text = s.trim();
    if text.is_empty() {
        return Err(bad("it is empty".into()));
    }
    let mut w = Within::default();
    let mut seen = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if rest.starts_with('-') {
            return Err(bad("negative durations are not allowed".into()));
        }
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return Err(bad(format!("expected a number at {rest:?}")));
        }
        let n: u32 = rest[..digits]
            .parse()
            .map_err(|_| bad(format!("{} is too large", &rest[..digits])))?;
        rest = &rest[digits..];
        let Some(unit) = rest.chars().next() else {
            return Err(bad(format!("{n} has no unit")));
        };
        let slot = match unit {
            'y' => &mut w.years,
            'm' => &mut w.months,
            'd' => &mut w.days,
            'h' => &mut w.hours,
            _ => return Err(bad(format!("unknown unit {unit:?}"))),
        };
        if seen.contains(unit) {
            return Err(bad(format!("unit {unit:?} given twice")));
        }
        seen.push(unit);
        *slot = n;
        rest = &rest[unit.len_utf8()..];
    }
    Ok(w)
}
