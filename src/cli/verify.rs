//! `tangle verify [--read-data | --read-data-subset PCT%|n/t|SIZE]`

use clap::Args;
use tangle::Result;
use tangle::ops::verify::{
    self, FindingKind, LostUnknown, ReadData, Severity, SubsetForm, SubsetReport, VerifyReport,
};
use tangle::util::{escape, human_bytes};

use super::Global;
use super::open::{ForVerify, Purpose, with_repo};
use super::progress::with_bar;
use super::render::{print_lost, repair_command, storage_split};
use super::settings::{self, Given, Resolved, settings};

settings! {
    section "verify";
    #[derive(Args, Clone)]
    #[command(
        after_help = "Examples:\n  tangle verify\n  TANGLE_OWNER=63ac7238604ea1f8fa7c70d4d1c6f36f tangle -r s3://bucket/tangle verify --read-data-subset 2% --json\n  tangle verify --read-data-subset 3/7"
    )]
    pub struct VerifyArgs {
        /// Download every shard, check its hash and that parity matches data and pointers
        #[arg(long, conflicts_with = "read_data_subset")]
        pub read_data: bool,
        /// Read part of the extents: a random share (`10%`), group n of t by extent name
        /// (`1/7`; 1/7 to 7/7 read each extent once), or random extents up to a size (`500M`);
        /// at least one extent
        #[arg(long, value_name = "PCT%|n/t|SIZE", allow_hyphen_values = true)]
        pub read_data_subset: Option<String> => check(verify::Subset::parse),
        /// Seed of the sample (to reproduce it; `n/t` draws nothing)
        #[arg(long, requires = "read_data_subset")]
        pub seed: Option<u64>,
    }
}

/// The arguments with the profile's `[verify]` where `given` lacks a key; how much data
/// to read is one setting (`--read-data` on the command line replaces the profile's
/// `read-data-subset`).
fn resolve(g: &Global, a: &VerifyArgs, given: &Given) -> Result<Resolved<VerifyArgs>> {
    let given = given.joined(&["read_data", "read_data_subset"]);
    settings::resolve(g.loaded.as_deref(), a, &given, |_| true)
}

/// The settings `tangle run` uses: no flags.
pub fn unflagged(g: &Global) -> Result<Resolved<VerifyArgs>> {
    let (a, given) = settings::defaults::<VerifyArgs>("verify")?;
    resolve(g, &a, &given)
}

pub fn run(g: &Global, a: &VerifyArgs) -> Result<u8> {
    let r = execute(g, &resolve(g, a, &g.given)?.args)?;
    print(g, &r)?;
    Ok(r.exit_code)
}

/// Check the repository and return the report (its `exit_code` is the command's).
pub fn execute(g: &Global, a: &VerifyArgs) -> Result<VerifyReport> {
    // A bad subset is a usage error before anything is opened.
    let read = if a.read_data {
        ReadData::All
    } else if let Some(p) = &a.read_data_subset {
        let subset = verify::Subset::parse(p)?;
        let seed = if subset.is_seeded() {
            a.seed.unwrap_or_else(rand_seed)
        } else {
            0
        };
        ReadData::Subset(subset, seed)
    } else {
        ReadData::No
    };
    // The storage layer needs only the public key; the password (when given) adds the
    // snapshot checks. Never prompt: verify runs unattended in CI.
    let ForVerify { repo, unlock_error } = g.open(Purpose::Writing)?;
    let reading = !matches!(read, ReadData::No);
    let mut r = with_bar(
        reading && g.show_progress(),
        "reading",
        "extents",
        |progress| {
            with_repo!(&repo, |repo| verify::run_with_progress(
                repo, read, progress
            ))
        },
    )?;
    if let Some(e) = unlock_error {
        verify::keys_unreadable(&mut r, &e.to_string());
    }
    Ok(r)
}

/// The report: JSON, or the findings and the verdict.
pub fn print(g: &Global, r: &VerifyReport) -> Result<()> {
    if g.json {
        g.print_json(r)
    } else {
        print_text(g, r);
        Ok(())
    }
}

/// Human output. Default: damage, a summary and the verdict. `-v` adds the notes and
/// what repair would do. `-q` keeps only what is wrong: nothing for a sound repository
/// (the exit code says so), else the damage and the verdict.
fn print_text(g: &Global, r: &VerifyReport) {
    // `say` is silent under `-q`; damage and its verdict are the errors `-q` still shows.
    let errors = Global {
        quiet: false,
        ..g.clone()
    };
    let verbose = g.verbose > 0 && !g.quiet;
    // A remote that is away (unreachable, or holding no repository: an unplugged disk)
    // gets one line; the objects it lacks are counted, not listed. Other repairable
    // damage is shown at most this many times per remote. -v and --json list it all.
    const DAMAGE_PER_REMOTE: usize = 20;
    let away: Vec<&str> = (r.findings.iter())
        .filter(|f| {
            matches!(
                f.kind,
                FindingKind::RemoteEmpty | FindingKind::RemoteUnreachable
            )
        })
        .filter_map(|f| f.remote.as_deref())
        .collect();
    let mut shown: std::collections::BTreeMap<Option<&str>, usize> = Default::default();
    for f in &r.findings {
        if f.severity == Severity::Repairable && !verbose {
            let on = f.remote.as_deref();
            let headline = matches!(
                f.kind,
                FindingKind::RemoteEmpty | FindingKind::RemoteUnreachable
            );
            let n = shown.entry(on).or_default();
            *n += 1;
            let limit = match on {
                Some(url) if away.contains(&url) => 1,
                _ => DAMAGE_PER_REMOTE,
            };
            if *n > limit && !headline {
                continue;
            }
        }
        let label = match f.severity {
            Severity::Info if !verbose => continue,
            Severity::Info => "info",
            Severity::Repairable => "damage",
            Severity::Unrecoverable => "LOST",
            Severity::Trust => "TRUST VIOLATION",
        };
        // Each finding names its remote, as in `--json`; the message, which may quote
        // a remote's object names, is escaped so that it stays one line.
        let message = match &f.remote {
            Some(url) if !f.message.contains(url.as_str()) => {
                format!("{} (remote {url})", f.message)
            }
            _ => f.message.clone(),
        };
        errors.say(format_args!("{label}: {}", escape(&message)));
        if let Some(lost) = &f.lost {
            print_lost(&errors, lost, verbose);
        }
        if let (Some(rep), true) = (&f.repair, verbose) {
            g.say(format_args!("    repair would: {}", escape(rep)));
        }
    }
    for (remote, n) in shown {
        match remote {
            Some(url) if away.contains(&url) && n > 1 => errors.say(format_args!(
                "damage: {} objects to copy back to remote {url} once it is back (-v or --json lists them)",
                n - 1
            )),
            _ if n > DAMAGE_PER_REMOTE => errors.say(format_args!(
                "damage: {} more on {} (-v or --json lists them)",
                n - DAMAGE_PER_REMOTE,
                remote.map_or("no remote".to_string(), |u| format!("remote {u}"))
            )),
            _ => {}
        }
    }
    let no_password = |f: &verify::Finding| {
        (f.lost.as_ref()).is_some_and(|l| l.paths_unknown == Some(LostUnknown::NoPassword))
    };
    if r.findings.iter().any(no_password) {
        errors.say(
            "naming the snapshots and files this data loss affects needs the password and a \
             readable key: give verify the password (TANGLE_PASSWORD, --password-file or the \
             profile's)",
        );
    }
    let infos = r
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Info)
        .count();
    g.say(format_args!(
        "checked {} remotes, {} extents, {} shards{}{} against owner key {}",
        r.remotes.len(),
        r.extents,
        r.shards,
        if r.shards_read > 0 {
            format!(" ({} read, {})", r.shards_read, human_bytes(r.bytes_read))
        } else {
            String::new()
        },
        if r.snapshots_checked > 0 {
            format!(", {} snapshots", r.snapshots_checked)
        } else {
            String::new()
        },
        r.owner_fingerprint,
    ));
    if verbose {
        print_coverage(g, r);
    }
    if let Some(s) = &r.subset {
        print_subset(g, r, s);
    }
    match r.exit_code {
        0 if infos > 0 => g.say(format_args!("no damage found ({infos} notes; -v shows them)")),
        0 => g.say("no damage found"),
        20 => errors.say(format_args!(
            "damage found: `{}` can fix all of it",
            repair_command(g)
        )),
        21 => errors.say("data loss found: some data cannot be recovered"),
        _ => errors.say("trust violation found: a remote served data the owner did not write, or an older or forked state"),
    }
}

/// What `--read-data-subset` read, of how much, and how likely that was to catch
/// corruption; when it read nothing, that and why, and no probability.
fn print_subset(g: &Global, r: &VerifyReport, s: &SubsetReport) {
    let asked = match (s.form, s.n.zip(s.t), s.budget_bytes) {
        (SubsetForm::Group, Some((n, t)), _) => format!("group {n} of {t}"),
        (SubsetForm::Size, _, Some(b)) => format!("up to {}, seed {}", human_bytes(b), s.seed),
        _ => format!("{}% of extents, seed {}", s.percent, s.seed),
    };
    if r.shards_read == 0 {
        let why = if r.extents == 0 {
            "the repository has no extents".to_string()
        } else if s.extents_read == 0 {
            format!("the group holds none of the {} extents", r.extents)
        } else {
            "no shard of the chosen extents was there to read".to_string()
        };
        g.say(format_args!(
            "sample ({asked}): nothing was read: {why}, so it says nothing about corruption"
        ));
        return;
    }
    g.say(format_args!(
        "sample ({asked}): read {} of {} extents ({} of {} shards, {} of {})",
        s.extents_read,
        r.extents,
        r.shards_read,
        r.shards,
        human_bytes(r.bytes_read),
        human_bytes(s.bytes_total)
    ));
    for d in &s.detection_rates {
        g.say(format_args!(
            "sample: corruption of {:.1}% of shards would be caught with probability {}",
            d.corrupt_fraction * 100.0,
            match d.probability * 100.0 {
                p if p > 0.0 && p < 0.05 => "below 0.1%".to_string(),
                p => format!("{p:.1}%"),
            }
        ));
    }
}

/// One line (`-v`): what the pointers protect (see `pointer_coverage` in `--json`).
fn print_coverage(g: &Global, r: &VerifyReport) {
    let c = &r.pointer_coverage;
    let spares: Vec<String> = (c.spare_after_losing.iter())
        .map(|s| format!("{:.1}% without {}", s.share * 100.0, escape(&s.remote)))
        .collect();
    g.say(format_args!(
        "pointer coverage: {:.1}% of data shards ({} of {}) have a codeword pointing at them; extents keeping a spare symbol: {}",
        c.share * 100.0,
        c.pointed,
        c.data_shards,
        spares.join(", ")
    ));
    let st = &r.storage;
    if st.extent_bytes > 0 {
        g.say(format_args!(
            "storage: shards hold {:.3}x the extent data ({} in shards for {}); {}",
            st.overhead,
            tangle::util::human_bytes(st.shard_bytes),
            tangle::util::human_bytes(st.extent_bytes),
            storage_split(st)
        ));
    }
}

/// A random seed below 2^53, so that every JSON reader (jq, JavaScript) keeps it exact.
fn rand_seed() -> u64 {
    u64::from_le_bytes(tangle::crypto::random_bytes().unwrap_or([7; 8])) >> 11
}
