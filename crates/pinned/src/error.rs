//! Typed errors: one variant per cause, each naming the field or the cause.

use crate::diff::FieldDiff;

/// Why a config, a world or a snapshot was refused.
///
/// Every snapshot cause is a variant; [`Error::kind`] gives a fieldless [`ErrorKind`] to match on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The first 8 bytes are not `RPINSNAP`.
    #[error("not a rapier-pinned snapshot (bad magic)")]
    BadMagic,
    /// The snapshot format version is not one this build reads.
    #[error("unknown snapshot format version {0}")]
    UnknownFormatVersion(u16),
    /// Flag bits the snapshot's format version does not define are set (in format 1: every bit
    /// but the MAC flag, compression included).
    #[error("unknown snapshot flags 0x{0:04x}")]
    UnknownFlags(u16),
    /// The MAC flag is clear but the MAC field is not all zero.
    #[error("MAC field not zero in an unauthenticated snapshot")]
    StrayMac,
    /// Fewer bytes than the header (or the header's payload length) requires.
    #[error("truncated snapshot: needed {needed} bytes, got {got}")]
    Truncated {
        /// Bytes needed.
        needed: u64,
        /// Bytes present.
        got: u64,
    },
    /// More bytes than the header's payload length accounts for.
    #[error("{extra} trailing bytes after the payload")]
    TrailingBytes {
        /// Bytes past the end of the payload.
        extra: u64,
    },
    /// The payload length field, or the uncompressed length a compressed payload states, claims
    /// more than [`crate::PAYLOAD_LIMIT`].
    #[error("payload length {claimed} exceeds the limit {limit}")]
    PayloadTooLarge {
        /// The claimed length.
        claimed: u64,
        /// The limit.
        limit: u64,
    },
    /// No released physics-version has this number.
    #[error("unknown physics-version {0}")]
    UnknownPhysicsVersion(u32),
    /// The snapshot's physics-version is not the world's.
    #[error("physics-version mismatch: snapshot {snapshot}, world {world}")]
    PhysicsVersionMismatch {
        /// The snapshot's.
        snapshot: u32,
        /// The world's.
        world: u32,
    },
    /// The snapshot's config digest is not the world's (another match id).
    #[error("config digest mismatch: snapshot {snapshot}, world {world}")]
    ConfigDigestMismatch {
        /// The snapshot's, hex.
        snapshot: String,
        /// The world's, hex.
        world: String,
    },
    /// The checksum does not match the bytes.
    #[error("checksum mismatch")]
    ChecksumMismatch,
    /// A key was given but the snapshot carries no MAC.
    #[error("snapshot is not authenticated (a key was given)")]
    MacMissing,
    /// The MAC does not match the key.
    #[error("MAC mismatch (wrong key or tampered snapshot)")]
    MacMismatch,
    /// A compressed payload (format 2, flag bit 1) does not decompress to exactly its stated
    /// uncompressed length: no length prefix, a stated length more than its LZ4 block can
    /// expand to, an invalid block, or a block that writes fewer or more bytes than stated. (A
    /// stated length over [`crate::PAYLOAD_LIMIT`] is [`Error::PayloadTooLarge`].)
    #[error("compressed payload refused: {0}")]
    Decompression(String),
    /// The payload does not decode as a world.
    #[error("undecodable payload: {0}")]
    Undecodable(String),
    /// The world's integration parameters or gravity differ from the pinned ones.
    #[error("config mismatch: {}", list(.0))]
    ConfigMismatch(Vec<FieldDiff>),
    /// A structural invariant fails (the message names it and the handle).
    #[error("structural: {0}")]
    Structural(String),
    /// A number that must be finite is not.
    #[error("non-finite {what} of {handle}")]
    NonFinite {
        /// Which quantity.
        what: &'static str,
        /// Whose (a handle, as text).
        handle: String,
    },
    /// A game setting the physics-version does not allow (at config creation).
    #[error("setting {field} = {value} not allowed by this physics-version (allowed: {allowed})")]
    SettingNotAllowed {
        /// The setting, e.g. `tick_hz` or `gravity.y`.
        field: &'static str,
        /// The value given.
        value: String,
        /// What the version allows.
        allowed: String,
    },
}

/// The errors a restore returns (the same enum as [`Error`]).
pub type RestoreError = Error;

/// The cause of an [`Error`], without its data.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// [`Error::BadMagic`].
    BadMagic,
    /// [`Error::UnknownFormatVersion`].
    UnknownFormatVersion,
    /// [`Error::UnknownFlags`].
    UnknownFlags,
    /// [`Error::StrayMac`].
    StrayMac,
    /// [`Error::Truncated`].
    Truncated,
    /// [`Error::TrailingBytes`].
    TrailingBytes,
    /// [`Error::PayloadTooLarge`].
    PayloadTooLarge,
    /// [`Error::UnknownPhysicsVersion`].
    UnknownPhysicsVersion,
    /// [`Error::PhysicsVersionMismatch`].
    PhysicsVersionMismatch,
    /// [`Error::ConfigDigestMismatch`].
    ConfigDigestMismatch,
    /// [`Error::ChecksumMismatch`].
    ChecksumMismatch,
    /// [`Error::MacMissing`].
    MacMissing,
    /// [`Error::MacMismatch`].
    MacMismatch,
    /// [`Error::Decompression`].
    Decompression,
    /// [`Error::Undecodable`].
    Undecodable,
    /// [`Error::ConfigMismatch`].
    ConfigMismatch,
    /// [`Error::Structural`].
    Structural,
    /// [`Error::NonFinite`].
    NonFinite,
    /// [`Error::SettingNotAllowed`].
    SettingNotAllowed,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 19] = [
        ErrorKind::BadMagic,
        ErrorKind::UnknownFormatVersion,
        ErrorKind::UnknownFlags,
        ErrorKind::StrayMac,
        ErrorKind::Truncated,
        ErrorKind::TrailingBytes,
        ErrorKind::PayloadTooLarge,
        ErrorKind::UnknownPhysicsVersion,
        ErrorKind::PhysicsVersionMismatch,
        ErrorKind::ConfigDigestMismatch,
        ErrorKind::ChecksumMismatch,
        ErrorKind::MacMissing,
        ErrorKind::MacMismatch,
        ErrorKind::Decompression,
        ErrorKind::Undecodable,
        ErrorKind::ConfigMismatch,
        ErrorKind::Structural,
        ErrorKind::NonFinite,
        ErrorKind::SettingNotAllowed,
    ];

    /// The kind's stable name, as conformance vectors and the command line write it. A released
    /// vector names its verdict this way, so a name never changes (a renamed variant keeps its
    /// string here).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::BadMagic => "BadMagic",
            ErrorKind::UnknownFormatVersion => "UnknownFormatVersion",
            ErrorKind::UnknownFlags => "UnknownFlags",
            ErrorKind::StrayMac => "StrayMac",
            ErrorKind::Truncated => "Truncated",
            ErrorKind::TrailingBytes => "TrailingBytes",
            ErrorKind::PayloadTooLarge => "PayloadTooLarge",
            ErrorKind::UnknownPhysicsVersion => "UnknownPhysicsVersion",
            ErrorKind::PhysicsVersionMismatch => "PhysicsVersionMismatch",
            ErrorKind::ConfigDigestMismatch => "ConfigDigestMismatch",
            ErrorKind::ChecksumMismatch => "ChecksumMismatch",
            ErrorKind::MacMissing => "MacMissing",
            ErrorKind::MacMismatch => "MacMismatch",
            ErrorKind::Decompression => "Decompression",
            ErrorKind::Undecodable => "Undecodable",
            ErrorKind::ConfigMismatch => "ConfigMismatch",
            ErrorKind::Structural => "Structural",
            ErrorKind::NonFinite => "NonFinite",
            ErrorKind::SettingNotAllowed => "SettingNotAllowed",
        }
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ErrorKind {
    type Err = String;

    /// The kind named by [`ErrorKind::as_str`]'s string.
    fn from_str(name: &str) -> Result<Self, String> {
        ErrorKind::ALL
            .into_iter()
            .find(|k| k.as_str() == name)
            .ok_or_else(|| format!("unknown error kind {name:?}"))
    }
}

impl Error {
    /// The cause, without its data.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::BadMagic => ErrorKind::BadMagic,
            Error::UnknownFormatVersion(_) => ErrorKind::UnknownFormatVersion,
            Error::UnknownFlags(_) => ErrorKind::UnknownFlags,
            Error::StrayMac => ErrorKind::StrayMac,
            Error::Truncated { .. } => ErrorKind::Truncated,
            Error::TrailingBytes { .. } => ErrorKind::TrailingBytes,
            Error::PayloadTooLarge { .. } => ErrorKind::PayloadTooLarge,
            Error::UnknownPhysicsVersion(_) => ErrorKind::UnknownPhysicsVersion,
            Error::PhysicsVersionMismatch { .. } => ErrorKind::PhysicsVersionMismatch,
            Error::ConfigDigestMismatch { .. } => ErrorKind::ConfigDigestMismatch,
            Error::ChecksumMismatch => ErrorKind::ChecksumMismatch,
            Error::MacMissing => ErrorKind::MacMissing,
            Error::MacMismatch => ErrorKind::MacMismatch,
            Error::Decompression(_) => ErrorKind::Decompression,
            Error::Undecodable(_) => ErrorKind::Undecodable,
            Error::ConfigMismatch(_) => ErrorKind::ConfigMismatch,
            Error::Structural(_) => ErrorKind::Structural,
            Error::NonFinite { .. } => ErrorKind::NonFinite,
            Error::SettingNotAllowed { .. } => ErrorKind::SettingNotAllowed,
        }
    }
}

/// `a: pinned x, found y; b: ...`
fn list(diffs: &[FieldDiff]) -> String {
    diffs
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
