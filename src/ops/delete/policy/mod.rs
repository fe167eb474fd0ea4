//! Which snapshots a retention policy keeps: restic's `forget` semantics, as pure logic
//! (no I/O, no clock, no time zone of its own: the caller passes `now` and the zone, so
//! tests are deterministic).
//!
//! How a policy is applied (restic's `ApplyPolicy`, internal/data/snapshot_policy.go):
//!
//! * Snapshots that fail the [`Filter`] (`--host`, `--tag`) are not considered at all:
//!   they are kept and get no [`Decision`].
//! * The others are split into groups by [`GroupBy`] (default `host,paths`); the policy
//!   applies to each group on its own.
//! * Within a group, snapshots are walked newest first. Equal times are ordered by id:
//!   of two snapshots with the same time, the one with the greater id counts as newer.
//! * Every rule looks at every snapshot, independently; a snapshot is kept when at least
//!   one rule wants it, and it uses up a slot of *every* rule that wants it (the newest
//!   snapshot is at once the last, the hourly, the daily, ... one).
//! * `--keep-last N`: the N newest. `--keep-hourly/daily/weekly/monthly/yearly N`: the
//!   newest snapshot of each of the N newest hours/days/ISO weeks (Monday to Sunday,
//!   numbered by ISO week-year)/months/years that have a snapshot, in the given zone.
//! * When a calendar rule (or `--keep-last`) still has slots left at the oldest snapshot
//!   of the group, that snapshot is kept too ("oldest daily snapshot"): this keeps the
//!   longest history the counts allow.
//! * `--keep-within D`: every snapshot newer than (strictly after) the group's newest
//!   snapshot minus D — relative to the newest snapshot, not to now, so a repository that
//!   stopped receiving backups does not lose them all. Snapshots dated after `now` do not
//!   count as the newest (a wrong clock must not expire everything) and are always within.
//! * `--keep-tag L`: every snapshot that has all tags of the comma-separated list L
//!   (`''` matches untagged snapshots); several `--keep-tag` are alternatives.
//! * A count of 0 switches its rule off, as in restic; a policy with no rule on is empty:
//!   [`apply`] then keeps everything and [`Policy::check`] refuses it.
//! * A non-empty policy that would remove every snapshot of a group is refused, as in
//!   restic (a typo in `--keep-tag` must not wipe a host's history).
//!
//! One file per job: this one holds the policy and applies it; `within.rs` is
//! `--keep-within`'s calendar duration, `group.rs` which snapshots are considered and
//! how they are grouped (`--host`, `--tag`, `--group-by`), `period.rs` the calendar
//! buckets of the counted rules.

mod group;
mod period;
mod within;

use std::collections::BTreeMap;
use std::fmt;

use chrono::{DateTime, TimeZone, Utc};
use serde::Serialize;

pub use self::group::{Filter, GroupBy, SnapshotRef};
use self::group::{GroupKey, group_key, has_tags, split_tags, tag_reason};
use self::period::Period;
pub use self::within::{Within, parse_within};
use crate::error::{Error, Result};

/// A count meaning "no limit" (restic's `unlimited`): every hour/day/... is kept.
pub const UNLIMITED: u32 = u32::MAX;

/// Parse a `--keep-*` count: a non-negative integer or `unlimited` ([`UNLIMITED`]).
pub fn parse_count(s: &str) -> Result<u32> {
    let text = s.trim();
    if text == "unlimited" {
        return Ok(UNLIMITED);
    }
    match text.parse::<u32>() {
        Ok(n) if n != UNLIMITED => Ok(n),
        _ if text.starts_with('-') => Err(Error::usage(format!(
            "invalid count {s:?}: negative counts are not allowed (use 'unlimited' to keep all)"
        ))),
        _ => Err(Error::usage(format!(
            "invalid count {s:?}: want a number like 7, or 'unlimited'"
        ))),
    }
}

/// A retention policy. Counts of `None` or `Some(0)` switch their rule off.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Policy {
    pub keep_last: Option<u32>,
    pub keep_hourly: Option<u32>,
    pub keep_daily: Option<u32>,
    pub keep_weekly: Option<u32>,
    pub keep_monthly: Option<u32>,
    pub keep_yearly: Option<u32>,
    pub keep_within: Option<Within>,
    /// Tag lists: a snapshot is kept when it has every tag of one list (comma-separated;
    /// an empty list means "has no tags").
    pub keep_tags: Vec<String>,
}

impl Policy {
    /// No rule is on: nothing would be removed.
    pub(crate) fn is_empty(&self) -> bool {
        self.counts().iter().all(|(n, _)| *n == 0)
            && self.keep_within.is_none_or(|w| w.is_zero())
            && self.keep_tags.is_empty()
    }

    /// Refuse an empty policy (the CLI calls this before touching the repository).
    pub fn check(&self) -> Result<()> {
        if self.is_empty() {
            return Err(Error::usage(
                "no policy given: pass at least one --keep-* option with a count above 0, \
                 or the snapshots to delete",
            ));
        }
        Ok(())
    }

    /// The counted rules in restic's order, with their reason text.
    fn counts(&self) -> [(u32, Period); 6] {
        [
            (self.keep_last.unwrap_or(0), Period::Last),
            (self.keep_hourly.unwrap_or(0), Period::Hour),
            (self.keep_daily.unwrap_or(0), Period::Day),
            (self.keep_weekly.unwrap_or(0), Period::Week),
            (self.keep_monthly.unwrap_or(0), Period::Month),
            (self.keep_yearly.unwrap_or(0), Period::Year),
        ]
    }
}

impl fmt::Display for Policy {
    /// "keep the last 3, 7 daily snapshots, snapshots with tag home, snapshots within 30d
    /// of the newest" (or "keep everything").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        for (n, period) in self.counts() {
            let n = match n {
                0 => continue,
                UNLIMITED => "all".to_string(),
                n => n.to_string(),
            };
            parts.push(match period {
                Period::Last => format!("the last {n}"),
                _ => format!("{n} {} snapshots", period.adjective()),
            });
        }
        for list in &self.keep_tags {
            let list = split_tags(list);
            parts.push(if list.is_empty() {
                "untagged snapshots".to_string()
            } else {
                format!("snapshots with {}", tag_reason(&list))
            });
        }
        if let Some(w) = self.keep_within.filter(|w| !w.is_zero()) {
            parts.push(format!("snapshots within {w} of the newest"));
        }
        if parts.is_empty() {
            f.write_str("keep everything")
        } else {
            write!(f, "keep {}", parts.join(", "))
        }
    }
}

/// The verdict on one considered snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub id: String,
    pub keep: bool,
    /// Why it is kept ("last snapshot", "daily snapshot", "oldest monthly snapshot",
    /// "within 30d", "tag home"); empty when removed.
    pub reasons: Vec<String>,
    /// The group it was judged in, e.g. `host alpha, paths [/home]` (empty with
    /// `--group-by ''`).
    pub group: String,
}

/// Apply `policy` to the snapshots `filter` selects, group by group. Returns a decision
/// for every considered snapshot: groups in order of their key, each oldest first.
/// `now` only decides which snapshots are "in the future" for `--keep-within`; `tz` is
/// the zone whose calendar defines hours, days, weeks, months and years.
///
/// An empty policy keeps everything (callers refuse it with [`Policy::check`]); a
/// policy that would remove a whole group is refused with a usage error.
pub fn apply<Tz: TimeZone>(
    policy: &Policy,
    group_by: GroupBy,
    filter: &Filter,
    snapshots: &[SnapshotRef],
    now: DateTime<Utc>,
    tz: &Tz,
) -> Result<Vec<Decision>> {
    let mut groups: BTreeMap<GroupKey, Vec<&SnapshotRef>> = BTreeMap::new();
    for s in snapshots.iter().filter(|s| filter.matches(s)) {
        groups.entry(group_key(s, group_by)).or_default().push(s);
    }
    let mut out = Vec::new();
    for (key, mut group) in groups {
        // Newest first; of equal times, the greater id counts as newer.
        group.sort_by(|a, b| (b.time, &b.id).cmp(&(a.time, &a.id)));
        let label = key.to_string();
        let reasons = judge(policy, &group, now, tz);
        if !policy.is_empty() && reasons.iter().all(Vec::is_empty) {
            let name = if label.is_empty() {
                String::new()
            } else {
                format!(" ({label})")
            };
            return Err(Error::usage(format!(
                "refusing to delete every snapshot of a group{name}: the policy ({policy}) \
                 keeps none of its {} snapshots; delete them by id if that is meant",
                group.len()
            )));
        }
        out.extend(
            group
                .iter()
                .zip(reasons)
                .rev()
                .map(|(s, reasons)| Decision {
                    id: s.id.clone(),
                    keep: !reasons.is_empty(),
                    reasons,
                    group: label.clone(),
                }),
        );
    }
    Ok(out)
}

/// The reasons to keep each snapshot of one group (sorted newest first); empty: remove.
fn judge<Tz: TimeZone>(
    policy: &Policy,
    group: &[&SnapshotRef],
    now: DateTime<Utc>,
    tz: &Tz,
) -> Vec<Vec<String>> {
    if policy.is_empty() {
        return vec![vec!["no policy".to_string()]; group.len()];
    }
    let tag_lists: Vec<Vec<String>> = policy.keep_tags.iter().map(|l| split_tags(l)).collect();
    // Relative to the newest snapshot that is not in the future; if all are, all are
    // within (restic compares with the zero time then).
    let within = policy.keep_within.filter(|w| !w.is_zero()).map(|w| {
        let newest = group.iter().map(|s| s.time).filter(|t| *t < now).max();
        (w, newest.map(|n| w.cutoff(n, tz)))
    });
    // (slots left, period, bucket of the last snapshot it kept)
    let mut rules: Vec<(u32, Period, Option<i64>)> = policy
        .counts()
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, p)| (n, p, None))
        .collect();
    let oldest = group.len().saturating_sub(1);
    let mut out = Vec::with_capacity(group.len());
    for (nr, s) in group.iter().enumerate() {
        let mut reasons = Vec::new();
        for list in &tag_lists {
            if has_tags(s, list) {
                reasons.push(tag_reason(list));
            }
        }
        if let Some((w, cutoff)) = within
            && cutoff.is_none_or(|c| s.time > c)
        {
            reasons.push(format!("within {w}"));
        }
        let local = s.time.with_timezone(tz);
        for (left, period, last) in &mut rules {
            if *left == 0 {
                continue;
            }
            let bucket = period.bucket(&local, nr);
            let same = *last == Some(bucket);
            // The oldest snapshot is kept while slots are left: the longest history.
            if !same || nr == oldest {
                let what = format!("{} snapshot", period.adjective());
                reasons.push(if same { format!("oldest {what}") } else { what });
                *last = Some(bucket);
                if *left != UNLIMITED {
                    *left -= 1;
                }
            }
        }
        out.push(reasons);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::FixedOffset;

    /// `"2025-01-02 09:00"` in UTC.
    fn at(s: &str) -> DateTime<Utc> {
        chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M")
            .unwrap()
            .and_utc()
    }

    fn snap(id: &str, time: &str, host: &str, paths: &[&str], tags: &[&str]) -> SnapshotRef {
        SnapshotRef {
            id: id.into(),
            time: at(time),
            host: host.into(),
            paths: paths.iter().map(|p| p.to_string()).collect(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            writer: None,
        }
    }

    /// The shared table. Group alpha:/home spans years, months, an ISO week that starts in
    /// the previous calendar year (2024-12-30 is in 2025-W01) and one that ends in the
    /// next (2023-12-31 is in 2023-W52, 2024-01-01 in 2024-W01), and two snapshots in
    /// one hour. Weekdays: 2023-12-31 Sun, 2024-01-01 Mon, 2024-01-07 Sun, 2024-02-29 Thu,
    /// 2024-12-29 Sun, 2024-12-30 Mon, 2025-01-01 Wed, 2025-01-02 Thu.
    fn table() -> Vec<SnapshotRef> {
        let home = &["/home"];
        vec![
            snap("a01", "2023-06-15 09:00", "alpha", home, &[]),
            snap("a02", "2023-11-30 18:00", "alpha", home, &[]),
            snap("a03", "2023-12-31 22:00", "alpha", home, &[]),
            snap("a04", "2024-01-01 08:00", "alpha", home, &[]),
            snap("a05", "2024-01-07 12:00", "alpha", home, &[]),
            snap("a06", "2024-02-29 10:00", "alpha", home, &[]),
            snap("a07", "2024-12-29 20:00", "alpha", home, &[]),
            snap("a08", "2024-12-30 07:00", "alpha", home, &[]),
            snap("a09", "2025-01-01 00:30", "alpha", home, &[]),
            snap("a10", "2025-01-01 00:45", "alpha", home, &[]),
            snap("a11", "2025-01-01 13:00", "alpha", home, &[]),
            snap("a12", "2025-01-02 09:00", "alpha", home, &[]),
            snap("b1", "2024-12-30 10:00", "beta", &["/srv"], &["db"]),
            snap("b2", "2025-01-01 10:00", "beta", &["/srv"], &[]),
            snap(
                "b3",
                "2025-01-02 10:00",
                "beta",
                &["/srv"],
                &["weekly", "db"],
            ),
            // Same time as a12, other paths: another group by default.
            snap("e1", "2025-01-02 09:00", "alpha", &["/etc"], &[]),
        ]
    }

    /// A snapshot of `/` on host `h`, untagged.
    fn plain(id: &str, time: &str) -> SnapshotRef {
        snap(id, time, "h", &["/"], &[])
    }

    /// A policy of `--keep-within` only.
    fn within(duration: &str) -> Policy {
        Policy {
            keep_within: Some(parse_within(duration).unwrap()),
            ..Policy::default()
        }
    }

    fn now() -> DateTime<Utc> {
        at("2025-06-01 00:00")
    }

    fn run(policy: &Policy, by: GroupBy, filter: &Filter, snaps: &[SnapshotRef]) -> Vec<Decision> {
        apply(policy, by, filter, snaps, now(), &Utc).unwrap()
    }

    /// [`run`] with the default grouping and no filter.
    fn decide(policy: &Policy, snaps: &[SnapshotRef]) -> Vec<Decision> {
        run(policy, GroupBy::default(), &Filter::default(), snaps)
    }

    /// The table's group alpha:/home.
    fn home() -> Vec<SnapshotRef> {
        (table().into_iter())
            .filter(|s| s.id.starts_with('a'))
            .collect()
    }

    /// The ids kept in group alpha:/home, oldest first.
    fn kept_home(policy: &Policy) -> Vec<String> {
        let d = decide(policy, &home());
        assert_eq!(d.len(), 12, "every snapshot of the group gets a decision");
        d.into_iter().filter(|d| d.keep).map(|d| d.id).collect()
    }

    /// The ids kept, in the order decided.
    fn kept_ids(d: &[Decision]) -> Vec<&str> {
        d.iter().filter(|d| d.keep).map(|d| d.id.as_str()).collect()
    }

    fn reasons_of<'a>(d: &'a [Decision], id: &str) -> &'a [String] {
        &d.iter().find(|d| d.id == id).unwrap().reasons
    }

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parse_within_accepts_restic_durations() {
        let w = |y, m, d, h| Within {
            years: y,
            months: m,
            days: d,
            hours: h,
        };
        assert_eq!(parse_within("1y5m7d2h").unwrap(), w(1, 5, 7, 2));
        assert_eq!(parse_within("30d").unwrap(), w(0, 0, 30, 0));
        assert_eq!(parse_within("12h").unwrap(), w(0, 0, 0, 12));
        assert_eq!(parse_within(" 2h1y ").unwrap(), w(1, 0, 0, 2));
        assert_eq!(parse_within("0d").unwrap(), Within::default());
        assert_eq!(parse_within("1y5m7d2h").unwrap().to_string(), "1y5m7d2h");
        assert_eq!(parse_within("2h1y").unwrap().to_string(), "1y2h");
    }

    #[test]
    fn parse_within_rejects_bad_input_with_a_usage_error() {
        for (bad, why) in [
            ("", "empty"),
            ("1w", "unknown unit 'w'"),
            ("30", "no unit"),
            ("d", "expected a number"),
            ("-1d", "negative"),
            ("1d2d", "given twice"),
            ("99999999999d", "too large"),
            ("1d 2h", "expected a number"),
            ("1.5d", "unknown unit '.'"),
        ] {
            let e = parse_within(bad).unwrap_err();
            assert_eq!(e.kind(), crate::error::Kind::Usage, "{bad}");
            assert!(e.message().contains(why), "{bad}: {}", e.message());
            assert!(
                e.message().contains("1y5m7d2h"),
                "the message shows the format"
            );
        }
    }

    #[test]
    fn parse_count_accepts_numbers_and_unlimited() {
        assert_eq!(parse_count("7").unwrap(), 7);
        assert_eq!(parse_count("0").unwrap(), 0);
        assert_eq!(parse_count("unlimited").unwrap(), UNLIMITED);
        for bad in ["-1", "x", "", "4294967295", "1.5"] {
            let e = parse_count(bad).unwrap_err();
            assert_eq!(e.kind(), crate::error::Kind::Usage, "{bad}");
        }
        assert!(
            parse_count("-1")
                .unwrap_err()
                .message()
                .contains("unlimited")
        );
    }

    #[test]
    fn group_by_parses_like_restic() {
        assert_eq!(GroupBy::default().to_string(), "host,paths");
        assert_eq!(GroupBy::parse("host,paths").unwrap(), GroupBy::default());
        assert_eq!(GroupBy::parse("").unwrap(), GroupBy::NONE);
        assert_eq!(GroupBy::parse("").unwrap().to_string(), "");
        let all = GroupBy::parse("tags, path,hosts").unwrap();
        assert_eq!((all.host, all.paths, all.tags), (true, true, true));
        assert_eq!(all.to_string(), "host,paths,tags");
        assert_eq!("host".parse::<GroupBy>().unwrap().to_string(), "host");
        let e = GroupBy::parse("host,user").unwrap_err();
        assert_eq!(e.kind(), crate::error::Kind::Usage);
        assert!(e.message().contains("\"user\""), "{}", e.message());
    }

    #[test]
    fn empty_policy_is_refused_by_check_and_keeps_everything() {
        let p = Policy::default();
        assert!(p.is_empty());
        let e = p.check().unwrap_err();
        assert_eq!(e.kind(), crate::error::Kind::Usage);
        assert!(e.message().starts_with("no policy given"));
        // restic: 0 switches a rule off, so all-zero is still empty.
        let zeros = Policy {
            keep_last: Some(0),
            keep_daily: Some(0),
            keep_within: Some(Within::default()),
            ..Policy::default()
        };
        assert!(zeros.is_empty() && zeros.check().is_err());
        let d = decide(&zeros, &table());
        assert_eq!(d.len(), table().len());
        assert!(d.iter().all(|d| d.keep));
        assert_eq!(p.to_string(), "keep everything");
        for p in [
            Policy {
                keep_yearly: Some(1),
                ..Policy::default()
            },
            Policy {
                keep_tags: vec!["".into()],
                ..Policy::default()
            },
            within("1h"),
        ] {
            assert!(!p.is_empty() && p.check().is_ok(), "{p:?}");
        }
    }

    #[test]
    fn empty_input_gives_no_decisions() {
        let p = Policy {
            keep_last: Some(1),
            ..Policy::default()
        };
        assert!(decide(&p, &[]).is_empty());
    }

    #[test]
    fn keep_last() {
        let p = |n| Policy {
            keep_last: Some(n),
            ..Policy::default()
        };
        assert_eq!(kept_home(&p(3)), ids(&["a10", "a11", "a12"]));
        assert_eq!(kept_home(&p(12)).len(), 12);
        assert_eq!(kept_home(&p(UNLIMITED)).len(), 12);
    }

    #[test]
    fn keep_last_1_keeps_exactly_one_per_group() {
        let p = Policy {
            keep_last: Some(1),
            ..Policy::default()
        };
        let d = decide(&p, &table());
        assert_eq!(d.len(), table().len());
        let kept: Vec<(&str, &str)> = d
            .iter()
            .filter(|d| d.keep)
            .map(|d| (d.group.as_str(), d.id.as_str()))
            .collect();
        assert_eq!(
            kept,
            [
                ("host alpha, paths [/etc]", "e1"),
                ("host alpha, paths [/home]", "a12"),
                ("host beta, paths [/srv]", "b3"),
            ]
        );
        assert_eq!(reasons_of(&d, "a12"), ["last snapshot"]);
        assert!(reasons_of(&d, "a11").is_empty());
        // A group of one is kept by keep-last 1 too.
        let one = [plain("x", "2020-01-01 00:00")];
        let d = decide(&p, &one);
        assert!(d[0].keep);
    }

    #[test]
    fn keep_hourly() {
        let p = Policy {
            keep_hourly: Some(4),
            ..Policy::default()
        };
        // a09 shares 2025-01-01 00:xx with the newer a10.
        assert_eq!(kept_home(&p), ids(&["a08", "a10", "a11", "a12"]));
    }

    #[test]
    fn keep_daily() {
        let p = Policy {
            keep_daily: Some(3),
            ..Policy::default()
        };
        assert_eq!(kept_home(&p), ids(&["a08", "a11", "a12"]));
    }

    #[test]
    fn keep_daily_matches_restics_documented_example() {
        // restic doc/060_forget.rst: weekdays for two weeks, an extra on Fridays at 23:00,
        // Wednesday 2025-04-30 missed; `--keep-daily 5` reaches back to the Friday before.
        let times = [
            "2025-04-21 11:00",
            "2025-04-22 11:00",
            "2025-04-23 11:00",
            "2025-04-24 11:00",
            "2025-04-25 11:00",
            "2025-04-25 23:00",
            "2025-04-28 11:00",
            "2025-04-29 11:00",
            "2025-05-01 11:00",
            "2025-05-02 11:00",
            "2025-05-02 23:00",
        ];
        let snaps: Vec<SnapshotRef> = times
            .iter()
            .enumerate()
            .map(|(i, t)| snap(&format!("s{i:02}"), t, "mopped", &["/home/user/work"], &[]))
            .collect();
        let p = Policy {
            keep_daily: Some(5),
            ..Policy::default()
        };
        let d = decide(&p, &snaps);
        assert_eq!(kept_ids(&d), ["s05", "s06", "s07", "s08", "s10"]);
        assert!(
            d.iter()
                .filter(|d| d.keep)
                .all(|d| d.reasons == ["daily snapshot"])
        );
    }

    #[test]
    fn keep_weekly_uses_iso_weeks_across_year_boundaries() {
        let p = |n| Policy {
            keep_weekly: Some(n),
            ..Policy::default()
        };
        // a08 (Mon 2024-12-30) .. a12 are all 2025-W01; a07 (Sun 2024-12-29) is 2024-W52.
        assert_eq!(kept_home(&p(3)), ids(&["a06", "a07", "a12"]));
        // a04 (Mon 2024-01-01) and a05 (Sun 2024-01-07) share 2024-W01; a03 (Sun
        // 2023-12-31) is 2023-W52.
        assert_eq!(kept_home(&p(5)), ids(&["a03", "a05", "a06", "a07", "a12"]));
    }

    #[test]
    fn keep_monthly() {
        let p = Policy {
            keep_monthly: Some(4),
            ..Policy::default()
        };
        assert_eq!(kept_home(&p), ids(&["a05", "a06", "a08", "a12"]));
        let all = Policy {
            keep_monthly: Some(UNLIMITED),
            ..Policy::default()
        };
        assert_eq!(
            kept_home(&all),
            ids(&["a01", "a02", "a03", "a05", "a06", "a08", "a12"])
        );
    }

    #[test]
    fn keep_yearly() {
        let p = |n| Policy {
            keep_yearly: Some(n),
            ..Policy::default()
        };
        assert_eq!(kept_home(&p(2)), ids(&["a08", "a12"]));
        // Only 3 years have snapshots: the 2 slots left keep the oldest one as well.
        assert_eq!(kept_home(&p(5)), ids(&["a01", "a03", "a08", "a12"]));
    }

    #[test]
    fn the_oldest_snapshot_is_kept_while_slots_are_left() {
        let snaps = [
            plain("x1", "2025-03-01 08:00"),
            plain("x2", "2025-03-01 20:00"),
            plain("x3", "2025-03-02 08:00"),
            plain("x4", "2025-03-02 20:00"),
        ];
        let daily = |n| Policy {
            keep_daily: Some(n),
            ..Policy::default()
        };
        let d = decide(&daily(5), &snaps);
        assert_eq!(reasons_of(&d, "x4"), ["daily snapshot"]);
        assert!(reasons_of(&d, "x3").is_empty());
        assert_eq!(reasons_of(&d, "x2"), ["daily snapshot"]);
        assert_eq!(reasons_of(&d, "x1"), ["oldest daily snapshot"]);
        // With no slot left at the oldest, it goes.
        let d = decide(&daily(2), &snaps);
        assert!(!d[0].keep && d[0].id == "x1");
    }

    #[test]
    fn keep_within_is_relative_to_the_newest_snapshot() {
        // Newest a12 is 2025-01-02 09:00, five months before `now`.
        assert_eq!(kept_home(&within("2d")), ids(&["a09", "a10", "a11", "a12"]));
        // The cut-off 2024-12-30 07:00 is a08's time: strictly newer only.
        assert_eq!(
            kept_home(&within("3d2h")),
            ids(&["a09", "a10", "a11", "a12"])
        );
        assert_eq!(
            kept_home(&within("3d3h")),
            ids(&["a08", "a09", "a10", "a11", "a12"])
        );
        assert_eq!(
            kept_home(&within("1m")).first().map(String::as_str),
            Some("a07")
        );
        // 2024-01-02 09:00: a05 (01-07) in, a04 (01-01) out.
        assert_eq!(
            kept_home(&within("1y")).first().map(String::as_str),
            Some("a05")
        );
        let d = decide(&within("2d"), &home());
        assert_eq!(reasons_of(&d, "a12"), ["within 2d"]);
    }

    #[test]
    fn keep_within_calendar_arithmetic_follows_go_add_date() {
        // 2025-03-31 minus one month is "2025-02-31", which rolls over to 2025-03-03.
        let snaps = [
            plain("m1", "2025-03-03 12:00"),
            plain("m2", "2025-03-03 12:01"),
            plain("m3", "2025-03-31 12:00"),
        ];
        let p = within("1m");
        let d = decide(&p, &snaps);
        assert_eq!(kept_ids(&d), ["m2", "m3"]);
        // Leap day minus a year: 2023-03-01.
        let w = parse_within("1y").unwrap();
        assert_eq!(
            w.cutoff(at("2024-02-29 10:00"), &Utc),
            at("2023-03-01 10:00")
        );
        // Far beyond the calendar: everything is within.
        let huge = parse_within("4000000000y").unwrap();
        assert_eq!(
            huge.cutoff(at("2024-02-29 10:00"), &Utc),
            DateTime::<Utc>::MIN_UTC
        );
    }

    #[test]
    fn keep_within_ignores_future_snapshots_as_the_newest() {
        let snaps = [
            plain("old", "2025-01-01 00:00"),
            plain("recent", "2025-05-30 00:00"),
            // A clock gone wrong: after `now` (2025-06-01).
            plain("future", "2031-01-01 00:00"),
        ];
        let p = within("7d");
        let d = decide(&p, &snaps);
        assert_eq!(kept_ids(&d), ["recent", "future"]);
        // All in the future: all within.
        let d = apply(
            &p,
            GroupBy::default(),
            &Filter::default(),
            &snaps,
            at("2000-01-01 00:00"),
            &Utc,
        )
        .unwrap();
        assert!(d.iter().all(|d| d.keep));
    }

    #[test]
    fn keep_tag_matches_tag_lists() {
        let beta = Filter {
            hosts: vec!["beta".into()],
            tags: vec![],
        };
        let p = |lists: &[&str]| Policy {
            keep_tags: lists.iter().map(|s| s.to_string()).collect(),
            ..Policy::default()
        };
        let kept = |lists: &[&str]| -> Vec<String> {
            run(&p(lists), GroupBy::default(), &beta, &table())
                .into_iter()
                .filter(|d| d.keep)
                .map(|d| d.id)
                .collect()
        };
        assert_eq!(kept(&["db"]), ids(&["b1", "b3"]));
        // A list needs all its tags.
        assert_eq!(kept(&["db,weekly"]), ids(&["b3"]));
        assert_eq!(kept(&[" weekly , db "]), ids(&["b3"]));
        // Several lists are alternatives; '' means untagged.
        assert_eq!(kept(&["weekly", ""]), ids(&["b2", "b3"]));
        let d = run(&p(&["db", "weekly"]), GroupBy::default(), &beta, &table());
        assert_eq!(reasons_of(&d, "b3"), ["tag db", "tag weekly"]);
        let d = run(&p(&["db,weekly", ""]), GroupBy::default(), &beta, &table());
        assert_eq!(reasons_of(&d, "b3"), ["tags db,weekly"]);
        assert_eq!(reasons_of(&d, "b2"), ["without tags"]);
    }

    #[test]
    fn a_policy_that_removes_a_whole_group_is_refused() {
        let p = Policy {
            keep_tags: vec!["db".into()],
            ..Policy::default()
        };
        // Group alpha:/home has no tagged snapshot.
        let e = apply(
            &p,
            GroupBy::default(),
            &Filter::default(),
            &table(),
            now(),
            &Utc,
        )
        .unwrap_err();
        assert_eq!(e.kind(), crate::error::Kind::Usage);
        assert!(
            e.message().contains("host alpha, paths [/etc]"),
            "{}",
            e.message()
        );
        assert!(e.message().contains("tag db"), "{}", e.message());
    }

    #[test]
    fn rules_combine_and_share_snapshots() {
        let p = Policy {
            keep_daily: Some(2),
            keep_weekly: Some(2),
            keep_monthly: Some(2),
            keep_yearly: Some(3),
            ..Policy::default()
        };
        assert_eq!(kept_home(&p), ids(&["a03", "a07", "a08", "a11", "a12"]));
        let d = decide(&p, &home());
        // The newest uses a slot of every rule; so the 2nd weekly is a07, not a08.
        assert_eq!(
            reasons_of(&d, "a12"),
            [
                "daily snapshot",
                "weekly snapshot",
                "monthly snapshot",
                "yearly snapshot"
            ]
        );
        assert_eq!(reasons_of(&d, "a11"), ["daily snapshot"]);
        assert_eq!(
            reasons_of(&d, "a08"),
            ["monthly snapshot", "yearly snapshot"]
        );
        assert_eq!(reasons_of(&d, "a07"), ["weekly snapshot"]);
        assert_eq!(reasons_of(&d, "a03"), ["yearly snapshot"]);
        // Yearly slots are used up at a03, so the oldest (a01) is not kept.
        assert!(reasons_of(&d, "a01").is_empty());
    }

    #[test]
    fn every_kind_of_rule_in_one_policy() {
        let mut snaps = home();
        snaps[5].tags = vec!["keep".into()]; // a06
        let p = Policy {
            keep_last: Some(1),
            keep_hourly: Some(2),
            keep_within: Some(parse_within("1d").unwrap()),
            keep_tags: vec!["keep".into()],
            ..Policy::default()
        };
        let d = decide(&p, &snaps);
        assert_eq!(
            reasons_of(&d, "a12"),
            ["within 1d", "last snapshot", "hourly snapshot"]
        );
        assert_eq!(reasons_of(&d, "a11"), ["within 1d", "hourly snapshot"]);
        assert_eq!(reasons_of(&d, "a06"), ["tag keep"]);
        assert_eq!(kept_ids(&d), ["a06", "a11", "a12"]);
        assert_eq!(
            p.to_string(),
            "keep the last 1, 2 hourly snapshots, snapshots with tag keep, \
             snapshots within 1d of the newest"
        );
    }

    /// docs/CLI.md, retention policy, example 3.
    #[test]
    fn documented_example_groups_within_and_tags() {
        let snaps: Vec<SnapshotRef> = table().into_iter().filter(|s| s.id != "e1").collect();
        let p = Policy {
            keep_within: Some(parse_within("2d").unwrap()),
            keep_tags: vec!["db,weekly".into()],
            ..Policy::default()
        };
        let d = decide(&p, &snaps);
        assert_eq!(kept_ids(&d), ["a09", "a10", "a11", "a12", "b2", "b3"]);
        assert_eq!(reasons_of(&d, "b3"), ["tags db,weekly", "within 2d"]);
        assert_eq!(reasons_of(&d, "b2"), ["within 2d"]);
        let beta = Filter {
            hosts: vec!["beta".into()],
            tags: vec![],
        };
        let d = run(&p, GroupBy::default(), &beta, &snaps);
        assert_eq!(d.len(), 3);
        let tags_only = Policy {
            keep_tags: vec!["db,weekly".into()],
            ..Policy::default()
        };
        assert!(
            apply(
                &tags_only,
                GroupBy::default(),
                &Filter::default(),
                &snaps,
                now(),
                &Utc
            )
            .is_err()
        );
    }

    #[test]
    fn group_by_changes_what_keep_last_counts() {
        let p = Policy {
            keep_last: Some(1),
            ..Policy::default()
        };
        let kept = |by: &str| -> Vec<(String, String)> {
            run(
                &p,
                GroupBy::parse(by).unwrap(),
                &Filter::default(),
                &table(),
            )
            .into_iter()
            .filter(|d| d.keep)
            .map(|d| (d.group, d.id))
            .collect()
        };
        // e1 and a12 have the same time: the greater id counts as newer.
        assert_eq!(
            kept("host"),
            [
                ("host alpha".to_string(), "e1".to_string()),
                ("host beta".to_string(), "b3".to_string()),
            ]
        );
        assert_eq!(kept(""), [(String::new(), "b3".to_string())]);
        assert_eq!(
            kept("tags"),
            [
                ("tags []".to_string(), "e1".to_string()),
                ("tags [db]".to_string(), "b1".to_string()),
                ("tags [db, weekly]".to_string(), "b3".to_string()),
            ]
        );
        // Paths are compared as a set, in any order.
        let two = [
            snap("p1", "2025-01-01 00:00", "h", &["/a", "/b"], &[]),
            snap("p2", "2025-01-02 00:00", "h", &["/b", "/a"], &[]),
        ];
        let d = decide(&p, &two);
        assert_eq!(d[0].group, d[1].group);
        assert_eq!(d[0].group, "host h, paths [/a, /b]");
    }

    #[test]
    fn filters_select_what_is_considered() {
        let p = Policy {
            keep_last: Some(1),
            ..Policy::default()
        };
        let decided = |f: Filter| -> Vec<String> {
            run(&p, GroupBy::default(), &f, &table())
                .into_iter()
                .map(|d| d.id)
                .collect()
        };
        assert_eq!(
            decided(Filter {
                hosts: vec!["beta".into()],
                tags: vec![],
            }),
            ids(&["b1", "b2", "b3"])
        );
        assert_eq!(
            decided(Filter {
                hosts: vec!["beta".into(), "nobody".into()],
                tags: vec!["db".into()],
            }),
            ids(&["b1", "b3"])
        );
        assert_eq!(
            decided(Filter {
                hosts: vec![],
                tags: vec!["db,weekly".into()],
            }),
            ids(&["b3"])
        );
        // '' selects untagged snapshots; the lists are alternatives.
        let untagged = decided(Filter {
            hosts: vec![],
            tags: vec!["".into()],
        });
        assert_eq!(untagged.len(), 14);
        assert!(!untagged.contains(&"b1".to_string()));
        assert!(
            decided(Filter {
                hosts: vec!["gamma".into()],
                tags: vec![],
            })
            .is_empty()
        );
        // keep-last 1 then applies to the considered ones only: b1 is kept.
        let d = run(
            &p,
            GroupBy::default(),
            &Filter {
                hosts: vec![],
                tags: vec!["db".into()],
            },
            &table(),
        );
        assert_eq!(d.iter().filter(|d| d.keep).count(), 1);
        assert!(Filter::default().is_empty());
    }

    #[test]
    fn equal_times_are_ordered_by_id_whatever_the_input_order() {
        let mk = |id: &str| plain(id, "2025-01-01 12:00");
        let p = |n| Policy {
            keep_last: Some(n),
            ..Policy::default()
        };
        for order in [["x", "y", "z"], ["z", "x", "y"], ["y", "z", "x"]] {
            let snaps: Vec<SnapshotRef> = order.iter().map(|id| mk(id)).collect();
            let d = decide(&p(1), &snaps);
            let got: Vec<(&str, bool)> = d.iter().map(|d| (d.id.as_str(), d.keep)).collect();
            assert_eq!(got, [("x", false), ("y", false), ("z", true)]);
            let d = decide(&p(2), &snaps);
            assert_eq!(kept_ids(&d), ["y", "z"]);
        }
    }

    #[test]
    fn decisions_come_oldest_first_per_group() {
        let p = Policy {
            keep_last: Some(2),
            ..Policy::default()
        };
        let mut snaps = table();
        snaps.reverse();
        let d = decide(&p, &snaps);
        let order: Vec<&str> = d.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(
            order,
            [
                "e1", "a01", "a02", "a03", "a04", "a05", "a06", "a07", "a08", "a09", "a10", "a11",
                "a12", "b1", "b2", "b3"
            ]
        );
    }

    #[test]
    fn calendar_buckets_follow_the_given_time_zone() {
        // 12:00 and 23:30 on 31 December and 00:10 on 1 January, UTC.
        let snaps = [
            plain("s1", "2024-12-31 12:00"),
            plain("s2", "2024-12-31 23:30"),
            plain("s3", "2025-01-01 00:10"),
        ];
        let p = Policy {
            keep_daily: Some(2),
            ..Policy::default()
        };
        let utc = apply(
            &p,
            GroupBy::default(),
            &Filter::default(),
            &snaps,
            now(),
            &Utc,
        )
        .unwrap();
        assert_eq!(kept_ids(&utc), ["s2", "s3"]);
        // At UTC-2 all three fall on 31 December: the newest, then the oldest (slot left).
        let west = FixedOffset::west_opt(2 * 3600).unwrap();
        let d = apply(
            &p,
            GroupBy::default(),
            &Filter::default(),
            &snaps,
            now(),
            &west,
        )
        .unwrap();
        assert_eq!(reasons_of(&d, "s3"), ["daily snapshot"]);
        assert!(reasons_of(&d, "s2").is_empty());
        assert_eq!(reasons_of(&d, "s1"), ["oldest daily snapshot"]);
    }

    #[test]
    fn snapshot_ref_from_nanoseconds() {
        let s = SnapshotRef::new("id", 1_735_808_400_000_000_000, "h", vec![], vec![]);
        assert_eq!(s.time, at("2025-01-02 09:00"));
    }

    #[test]
    fn decisions_serialise_for_json_output() {
        let d = Decision {
            id: "a12".into(),
            keep: true,
            reasons: vec!["daily snapshot".into(), "within 30d".into()],
            group: "host alpha, paths [/home]".into(),
        };
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            serde_json::json!({
                "id": "a12",
                "keep": true,
                "reasons": ["daily snapshot", "within 30d"],
                "group": "host alpha, paths [/home]",
            })
        );
        let p = within("30d");
        assert_eq!(serde_json::to_value(&p).unwrap()["keep_within"], "30d");
    }
}
