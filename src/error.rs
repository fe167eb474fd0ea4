//! One error type for the whole crate. Every error carries a [`Kind`] that maps to the
//! exit codes of the command-line contract (shared DESIGN.md §5, docs/DESIGN.md), plus a human message
//! built from the innermost cause outwards ("reading snapshot 1a2b: remote /x: not found").
//! Layers below keep their own typed errors ([`CryptoError`], [`CodecError`],
//! [`ContentError`], [`ExtentError`], [`RemoteError`]), each with a `kind()` that maps its
//! variants to a [`Kind`], and convert into this one once; the typed error stays reachable
//! as the [`source`] so a caller can still match on it (`downcast_ref`), and so the chain
//! of causes survives.
//!
//! [`CryptoError`]: crate::crypto::CryptoError
//! [`CodecError`]: crate::codec::CodecError
//! [`ContentError`]: crate::content::ContentError
//! [`ExtentError`]: crate::extent::ExtentError
//! [`RemoteError`]: crate::repo::remote::RemoteError
//!
//! [`source`]: std::error::Error::source

use std::fmt;
use std::sync::Arc;

/// What went wrong, as far as a script calling `tangle` needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Anything without a more specific code (exit 1).
    Fatal,
    /// No repository at the given location (exit 10).
    RepoNotFound,
    /// Another operation holds a conflicting lock (exit 11).
    Busy,
    /// The password does not open any key of the repository (exit 12).
    WrongPassword,
    /// An object is missing (on one remote; callers may fall back to others).
    NotFound,
    /// An object failed its checksum, signature, decryption or decoding.
    Corrupt,
    /// The user asked for something that cannot be done (bad flag combination, ...).
    Usage,
    /// The operation was interrupted by a signal (exit 130).
    Interrupted,
    /// Remotes disagree about who owns the repository, or none serves what the pinned
    /// owner signed: nothing can be trusted (exit 22, like verify's trust violations).
    Trust,
    /// Data of the repository could be read from no remote and rebuilt from no codeword:
    /// what needed it (a restore of some files) could not be done (exit 21, as `verify`
    /// exits for the same loss).
    DataLost,
}

impl Kind {
    pub fn exit_code(self) -> i32 {
        match self {
            Kind::RepoNotFound => 10,
            Kind::Busy => 11,
            Kind::WrongPassword => 12,
            Kind::Interrupted => 130,
            Kind::Trust => 22,
            Kind::DataLost => 21,
            Kind::Fatal | Kind::NotFound | Kind::Corrupt | Kind::Usage => 1,
        }
    }
}

/// The cause kept behind an [`Error`]; shared (not boxed) so that errors stay `Clone`.
pub(crate) type Source = Arc<dyn std::error::Error + Send + Sync + 'static>;

#[derive(Debug, Clone)]
pub struct Error {
    kind: Kind,
    message: String,
    source: Option<Source>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            source: None,
        }
    }
    /// Keep `source` as the cause (returned by `source()`); the message is unchanged,
    /// so it should already say what the cause means for the user.
    pub(crate) fn with_source(
        mut self,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        self.source = Some(Arc::new(source));
        self
    }
    pub fn fatal(message: impl Into<String>) -> Self {
        Self::new(Kind::Fatal, message)
    }
    pub(crate) fn corrupt(message: impl Into<String>) -> Self {
        Self::new(Kind::Corrupt, message)
    }
    pub(crate) fn not_found(message: impl Into<String>) -> Self {
        Self::new(Kind::NotFound, message)
    }
    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(Kind::Usage, message)
    }
    pub fn kind(&self) -> Kind {
        self.kind
    }
    pub fn message(&self) -> &str {
        &self.message
    }
    /// Prefix the message with what we were doing: `err.context("reading config")`.
    pub fn context(mut self, what: impl fmt::Display) -> Self {
        self.message = format!("{what}: {}", self.message);
        self
    }
    /// A failure to read repository data (missing, corrupt, not rebuildable on every
    /// remote) as what it costs the caller: data lost (exit 21). Interruptions, trust
    /// violations and the like keep their kind.
    pub(crate) fn into_data_lost(self) -> Self {
        match self.kind {
            Kind::Corrupt | Kind::NotFound | Kind::Fatal => self.with_kind(Kind::DataLost),
            _ => self,
        }
    }
    /// Same error, another kind (e.g. a NotFound config becomes RepoNotFound).
    pub(crate) fn with_kind(mut self, kind: Kind) -> Self {
        self.kind = kind;
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn std::error::Error + 'static))
    }
}

/// A layer's typed error (codec, content, crypto, extent, remote): `kind` is its one
/// mapping to [`Kind`]. It becomes an [`Error`] once, by `?` or `into()`, with the message
/// its `Display` gives and itself kept as the source (for callers that match on it).
pub(crate) trait LayerError: std::error::Error + Send + Sync + 'static {
    fn kind(&self) -> Kind;
}

impl<E: LayerError> From<E> for Error {
    fn from(e: E) -> Error {
        Error::new(e.kind(), e.to_string()).with_source(e)
    }
}

/// The typed error `e` was converted from (tests of the layers' conversions).
#[cfg(test)]
pub(crate) fn typed_source<E: std::error::Error + 'static>(e: &Error) -> &E {
    std::error::Error::source(e)
        .and_then(|s| s.downcast_ref::<E>())
        .expect("the typed error is the source")
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        let kind = match e.kind() {
            std::io::ErrorKind::NotFound => Kind::NotFound,
            std::io::ErrorKind::Interrupted => Kind::Interrupted,
            _ => Kind::Fatal,
        };
        Error::new(kind, e.to_string()).with_source(e)
    }
}

impl From<postcard::Error> for Error {
    fn from(e: postcard::Error) -> Self {
        Error::corrupt(format!("malformed encoding: {e}"))
    }
}

/// `result.ctx("reading /etc/x")?` adds context to any error convertible into ours.
pub trait ResultExt<T> {
    fn ctx(self, what: impl fmt::Display) -> Result<T>;
}

impl<T, E: Into<Error>> ResultExt<T> for std::result::Result<T, E> {
    fn ctx(self, what: impl fmt::Display) -> Result<T> {
        self.map_err(|e| e.into().context(what))
    }
}
