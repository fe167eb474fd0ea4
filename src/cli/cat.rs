//! `tangle cat config | key ID | snapshot ID | index ID | certificate NAME |
//! head WRITER[/SEQ] | deletion ID | tree ID | blob ID`

use clap::{Args, Subcommand};
use tangle::Result;
use tangle::ops::cat::{self, Object};

use tangle::repo::{Indexed, Public, Repository};

use super::open::Purpose;
use super::snapshot_filter::SnapshotFilterArgs;
use super::{Global, write_stdout};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle cat config\n  tangle cat snapshot latest\n  tangle cat snapshot latest --host laptop\n  tangle cat head 7bced8a2"
)]
pub struct CatArgs {
    #[command(subcommand)]
    pub what: CatWhat,
}

#[derive(Subcommand)]
pub enum CatWhat {
    /// The repository config (no password needed)
    Config,
    /// A key file (no password needed)
    Key {
        /// Key file id (or a unique prefix)
        id: String,
    },
    /// A snapshot record
    Snapshot {
        /// Snapshot id (or a unique prefix), or `latest`
        id: String,
        #[command(flatten)]
        filter: SnapshotFilterArgs,
    },
    /// An index segment
    Index {
        /// Index segment id (or a unique prefix)
        id: String,
    },
    /// An extent certificate (no password needed)
    Certificate {
        /// Extent name (or a unique prefix)
        name: String,
    },
    /// A writer's head (no password needed)
    Head {
        /// WRITER[/SEQ]: writer id (or a unique prefix) and chain position (decimal, or
        /// the 16 hex digits of its name); without SEQ the writer's newest head
        spec: String,
    },
    /// A deletion record (no password needed)
    Deletion {
        /// Deletion record id (or a unique prefix)
        id: String,
    },
    /// A tree blob (one directory)
    Tree {
        /// Tree blob id (or a unique prefix)
        id: String,
    },
    /// A data blob: its bytes (with --json: where it is stored and its bytes in base64)
    Blob {
        /// Blob id (or a unique prefix)
        id: String,
    },
}

pub fn run(g: &Global, a: &CatArgs) -> Result<u8> {
    let what = match &a.what {
        CatWhat::Config => Object::Config,
        CatWhat::Key { id } => Object::Key(id.clone()),
        CatWhat::Snapshot { id, filter } => Object::Snapshot(id.clone(), filter.filter()?),
        CatWhat::Index { id } => Object::Index(id.clone()),
        CatWhat::Certificate { name } => Object::Certificate(name.clone()),
        CatWhat::Head { spec } => Object::Head(spec.clone()),
        CatWhat::Deletion { id } => Object::Deletion(id.clone()),
        CatWhat::Tree { id } => Object::Tree(id.clone()),
        CatWhat::Blob { id } => Object::Blob(id.clone()),
    };
    let out = if what.needs_password() {
        let repo: Repository<Indexed> = g.open(Purpose::Reading)?;
        cat::cat(&repo, &what)?
    } else {
        // Signed-only objects are checked with the public key: no password is asked for.
        let repo: Repository<Public> = g.open(Purpose::Reading)?;
        cat::cat_signed(&repo, &what)?
    };
    match out.blob {
        Some(data) if g.json => {
            use base64::Engine;
            let mut v = out.json;
            v["data"] = base64::engine::general_purpose::STANDARD
                .encode(&data)
                .into();
            g.print_json(&v)?;
        }
        // The blob's bytes as they are, like `restic cat blob`.
        Some(data) => write_stdout(&data)?,
        None => g.print_json(&out.json)?,
    }
    Ok(0)
}
