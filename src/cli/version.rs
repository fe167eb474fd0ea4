//! `tangle version`: the version (the first line is what `tangle --version` prints),
//! the target, the enabled features and the repository format versions.

use clap::Args;
use tangle::Result;
use tangle::ops::version::{self, FormatVersions};

use super::{Global, line};

#[derive(Args)]
#[command(after_help = "Examples:\n  tangle version\n  tangle version --json")]
pub struct VersionArgs {}

pub fn run(g: &Global, _a: &VersionArgs) -> Result<u8> {
    let v = version::info();
    if g.json {
        return g.print_json(&v).map(|_| 0);
    }
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let versions =
        |f: &FormatVersions| format!("reads {}, writes {}", list(&f.reads), list(&f.writes));
    let features = if v.features.is_empty() {
        "none".to_string()
    } else {
        v.features.join(", ")
    };
    line(format_args!("tangle {}", v.version))?;
    line(format_args!("target:            {}", v.target))?;
    line(format_args!("features:          {features}"))?;
    line(format_args!(
        "repository format: {}",
        versions(&v.formats.repository)
    ))?;
    line(format_args!(
        "object envelope:   {}",
        versions(&v.formats.envelope)
    ))?;
    line(format_args!(
        "tree format:       {}",
        versions(&v.formats.tree)
    ))?;
    Ok(0)
}
