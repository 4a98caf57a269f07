//! Typed errors: one variant per cause, each naming the field or the cause, its data in typed
//! fields (text only where the cause is another library's message or a free-form description).

use crate::baseline::BaselineId;
use crate::codec::DecompressionError;
use crate::diff::{real, FieldDiff};
use crate::level::{LevelError, LevelId};
use crate::link::LinkError;
use crate::physics_version::PhysicsVersion;
use rapier3d::prelude::{ColliderHandle, RigidBodyHandle};

/// Why a config, a world or a snapshot was refused.
///
/// Every snapshot cause is a variant; [`Error::kind`] gives a fieldless [`ErrorKind`] to match on.
///
/// [`ErrorKind`] is derived from this enum by strum's `EnumDiscriminants` (the one list of
/// causes: a variant added here is a kind, with its documentation, and `kind()` cannot miss it),
/// with its name (`IntoStaticStr`) and its list (`VariantArray`) derived too. A well-kept crate
/// rather than a macro of our own: strum is the common way to do exactly this, and a hand-written
/// macro would be one more thing to read. A renamed variant keeps its released name with
/// `#[strum_discriminants(strum(serialize = "OldName"))]`.
#[derive(Clone, Debug, PartialEq, thiserror::Error, strum::EnumDiscriminants)]
#[strum_discriminants(
    name(ErrorKind),
    vis(pub),
    derive(Hash, strum::IntoStaticStr, strum::VariantArray),
    non_exhaustive,
    doc = "The cause of an [`Error`], without its data (each variant is documented as the \
           [`Error`] variant of the same name)."
)]
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
    UnknownPhysicsVersion(PhysicsVersion),
    /// The snapshot's physics-version is not the world's.
    #[error("physics-version mismatch: snapshot {snapshot}, world {world}")]
    PhysicsVersionMismatch {
        /// The snapshot's.
        snapshot: PhysicsVersion,
        /// The world's.
        world: PhysicsVersion,
    },
    /// The snapshot's config digest is not the world's (another match id).
    #[error("config digest mismatch: snapshot {}, world {}", hex(.snapshot), hex(.world))]
    ConfigDigestMismatch {
        /// The snapshot's (printed as lowercase hex).
        snapshot: [u8; 32],
        /// The world's ([`crate::WorldConfig::digest`]).
        world: [u8; 32],
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
    /// stated length over [`crate::PAYLOAD_LIMIT`] is [`Error::PayloadTooLarge`].) The cause
    /// names which, with its numbers.
    #[error("compressed payload refused: {0}")]
    Decompression(DecompressionError),
    /// A format-3 snapshot refers to a level the restore was not given.
    #[error("snapshot refers to level {needed}, which this restore does not have")]
    LevelMissing {
        /// The level's id.
        needed: LevelId,
    },
    /// A format-3 snapshot refers to another level than the one given, or a world is saved
    /// with a level that is not its config's.
    #[error("snapshot refers to level {needed}, the level given is {given}")]
    WrongLevel {
        /// The level the snapshot (or the config) names.
        needed: LevelId,
        /// The level given.
        given: LevelId,
    },
    /// A delta snapshot (format 4) was restored without the baseline it is written against.
    #[error("delta snapshot against baseline {needed}, which this restore does not have")]
    BaselineMissing {
        /// The baseline's id.
        needed: BaselineId,
    },
    /// A delta snapshot (format 4) was restored with another baseline than the one it is
    /// written against.
    #[error("delta snapshot against baseline {needed}, the baseline given is {given}")]
    WrongBaseline {
        /// The baseline the snapshot names.
        needed: BaselineId,
        /// The baseline given.
        given: BaselineId,
    },
    /// The bytes given as a level are not one ([`crate::Level::read`]): the cause names why.
    #[error("level refused: {0}")]
    BadLevel(LevelError),
    /// A format-3 linked payload (`docs/protocol.md` §3.2) does not expand to exactly its
    /// stated length: the cause names which record, with its numbers. (A stated length over
    /// [`crate::PAYLOAD_LIMIT`] is [`Error::PayloadTooLarge`].)
    #[error("linked payload refused: {0}")]
    Link(LinkError),
    /// The payload does not decode as a world. Text: bincode's message (another library's, of
    /// no structure this crate defines), or `panic while decoding: <the panic's message>` when
    /// the decoding or the checks of the decoded world panic (on restore, and on
    /// [`crate::PinnedWorld::adopt`] alike: the checks read indices the world carries).
    #[error("undecodable payload: {0}")]
    Undecodable(String),
    /// The world's integration parameters or gravity differ from the pinned ones.
    #[error("config mismatch: {}", list(.0))]
    ConfigMismatch(Vec<FieldDiff>),
    /// A structural invariant fails (the message names it and the handle). Text: a free-form
    /// description of one of the many checks of `validate.rs` and of the engine's own
    /// `validate` methods (whose errors are rapier's and parry's messages); there is no closed
    /// set of causes to type.
    #[error("structural: {0}")]
    Structural(String),
    /// A number that must be finite is not.
    #[error("non-finite {what} of {handle}")]
    NonFinite {
        /// Which quantity, e.g. `body translation` or `collider rotation`.
        what: &'static str,
        /// Whose.
        handle: BodyOrCollider,
    },
    /// A game setting the physics-version does not allow (at config creation: the
    /// [`ConfigError::SettingNotAllowed`] of [`crate::WorldConfig::with_settings`]).
    #[error("setting {field} = {value} not allowed by this physics-version (allowed: {allowed})")]
    SettingNotAllowed {
        /// The setting, e.g. `tick_hz` or `gravity.y`.
        field: &'static str,
        /// The value given.
        value: SettingValue,
        /// What the version allows.
        allowed: Allowed,
    },
}

/// Why a [`crate::WorldConfig`] could not be made ([`crate::WorldConfig::new`],
/// [`crate::WorldConfig::with_settings`]). Converts into [`Error`] (its variant of the same name,
/// with the same message), so `?` works in a function returning either.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// No released physics-version has this number.
    #[error("unknown physics-version {0}")]
    UnknownPhysicsVersion(PhysicsVersion),
    /// A game setting the physics-version does not allow: the first field outside its
    /// [`crate::Choices`].
    #[error("setting {field} = {value} not allowed by this physics-version (allowed: {allowed})")]
    SettingNotAllowed {
        /// The setting: `tick_hz`, `length_unit`, `gravity.x`, `gravity.y`, `gravity.z` or
        /// `gravity` (its magnitude).
        field: &'static str,
        /// The value given.
        value: SettingValue,
        /// What the version allows.
        allowed: Allowed,
    },
}

impl ConfigError {
    /// The cause, without its data (the [`ErrorKind`] of the [`Error`] it converts into).
    pub fn kind(&self) -> ErrorKind {
        match self {
            ConfigError::UnknownPhysicsVersion(_) => ErrorKind::UnknownPhysicsVersion,
            ConfigError::SettingNotAllowed { .. } => ErrorKind::SettingNotAllowed,
        }
    }
}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Error {
        match e {
            ConfigError::UnknownPhysicsVersion(v) => Error::UnknownPhysicsVersion(v),
            ConfigError::SettingNotAllowed {
                field,
                value,
                allowed,
            } => Error::SettingNotAllowed {
                field,
                value,
                allowed,
            },
        }
    }
}

/// A refused setting's value ([`ConfigError::SettingNotAllowed`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum SettingValue {
    /// A whole number (`tick_hz`), printed as it is.
    Whole(u32),
    /// A number (`length_unit`, a gravity component), printed bit-exact: `value (0xbits)`.
    Real(f32),
    /// A vector (gravity, refused for its magnitude), printed `[x, y, z]`.
    Vector([f32; 3]),
}

impl std::fmt::Display for SettingValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingValue::Whole(n) => write!(f, "{n}"),
            SettingValue::Real(x) => f.write_str(&real(*x)),
            SettingValue::Vector(v) => write!(f, "{v:?}"),
        }
    }
}

/// What a physics-version allows of a refused setting ([`ConfigError::SettingNotAllowed`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Allowed {
    /// One of these values (`tick_hz`).
    OneOf(&'static [u32]),
    /// A finite number from `low` to `high`, inclusive (`length_unit`).
    Range {
        /// The smallest allowed.
        low: f32,
        /// The largest allowed.
        high: f32,
    },
    /// A finite vector of at most this magnitude times the length unit (gravity).
    MaxMagnitude(f32),
}

impl std::fmt::Display for Allowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Allowed::OneOf(values) => write!(f, "one of {values:?}"),
            Allowed::Range { low, high } => write!(f, "finite, from {low} to {high}"),
            Allowed::MaxMagnitude(max) => {
                write!(f, "finite, of magnitude at most {max} x length_unit")
            }
        }
    }
}

/// The body or collider a refusal names ([`Error::NonFinite`]), printed as rapier prints its
/// handle (`RigidBodyHandle(Index { .. })`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BodyOrCollider {
    /// A rigid body.
    Body(RigidBodyHandle),
    /// A collider.
    Collider(ColliderHandle),
}

impl std::fmt::Display for BodyOrCollider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyOrCollider::Body(h) => write!(f, "{h:?}"),
            BodyOrCollider::Collider(h) => write!(f, "{h:?}"),
        }
    }
}

impl From<LevelError> for Error {
    fn from(e: LevelError) -> Self {
        Error::BadLevel(e)
    }
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [ErrorKind] = <ErrorKind as strum::VariantArray>::VARIANTS;

    /// The kind's stable name, as conformance vectors and the command line write it: the
    /// variant's own. A released vector names its verdict this way, so a name never changes (a
    /// renamed variant keeps its string with `strum(serialize = ..)`, see [`Error`]).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ErrorKind {
    type Err = ParseErrorKindError;

    /// The kind named by [`ErrorKind::as_str`]'s string.
    fn from_str(name: &str) -> Result<Self, ParseErrorKindError> {
        ErrorKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == name)
            .ok_or_else(|| ParseErrorKindError(name.to_string()))
    }
}

/// A name that is no [`ErrorKind`]'s ([`ErrorKind`]'s `FromStr`); holds the name given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown error kind {0:?}")]
pub struct ParseErrorKindError(pub String);

impl Error {
    /// The cause, without its data.
    pub fn kind(&self) -> ErrorKind {
        self.into()
    }
}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `a: pinned x, found y; b: ...`
fn list(diffs: &[FieldDiff]) -> String {
    diffs
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed fields print the texts the variants held before (issue 33): each expected
    /// string is the `format!` the construction site used.
    #[test]
    fn typed_fields_print_the_former_texts() {
        let setting = |value, allowed| {
            Error::from(ConfigError::SettingNotAllowed {
                field: "f",
                value,
                allowed,
            })
            .to_string()
        };
        let allowed = |a: Allowed| setting(SettingValue::Whole(1), a);
        assert_eq!(
            allowed(Allowed::OneOf(&[30, 60])),
            format!(
                "setting f = 1 not allowed by this physics-version (allowed: one of {:?})",
                [30, 60]
            )
        );
        let (low, high, max) = (0.01f32, 100.0f32, 100.0f32);
        assert!(allowed(Allowed::Range { low, high })
            .ends_with(&format!("(allowed: finite, from {low} to {high})")));
        assert!(allowed(Allowed::MaxMagnitude(max)).ends_with(&format!(
            "(allowed: finite, of magnitude at most {max} x length_unit)"
        )));
        let value = |v: SettingValue| setting(v, Allowed::MaxMagnitude(max));
        assert!(
            value(SettingValue::Real(-0.0)).starts_with(&format!("setting f = {} not", real(-0.0)))
        );
        let g = [0.0, -1500.0, f32::NAN];
        assert!(value(SettingValue::Vector(g)).starts_with(&format!("setting f = {g:?} not")));
        assert_eq!(
            ConfigError::UnknownPhysicsVersion(PhysicsVersion::new(9)).to_string(),
            Error::UnknownPhysicsVersion(PhysicsVersion::new(9)).to_string()
        );
        let (a, b) = ([0xab; 32], [0x01; 32]);
        let hex = |d: &[u8]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            Error::ConfigDigestMismatch {
                snapshot: a,
                world: b
            }
            .to_string(),
            format!(
                "config digest mismatch: snapshot {}, world {}",
                hex(&a),
                hex(&b)
            )
        );
        let body = RigidBodyHandle::from_raw_parts(3, 1);
        let collider = ColliderHandle::from_raw_parts(0, 2);
        for (handle, text) in [
            (BodyOrCollider::Body(body), format!("{body:?}")),
            (BodyOrCollider::Collider(collider), format!("{collider:?}")),
        ] {
            let what = "body mass";
            assert_eq!(
                Error::NonFinite { what, handle }.to_string(),
                format!("non-finite {what} of {text}")
            );
        }
        let stated = 100_000;
        for (cause, text) in [
            (
                DecompressionError::NoLengthPrefix { len: 3 },
                "compressed payload of 3 bytes is shorter than its 4-byte length prefix".into(),
            ),
            (
                DecompressionError::BeyondBlock { stated, block: 10 },
                format!(
                    "stated uncompressed length {stated} is more than an LZ4 block of 10 bytes can \
                     expand to (2550)"
                ),
            ),
            (
                DecompressionError::ShortBlock { written: 7, stated },
                format!("LZ4 block decompresses to 7 bytes, stated uncompressed length {stated}"),
            ),
            (
                DecompressionError::LongBlock { stated },
                format!(
                    "LZ4 block decompresses to more than the stated uncompressed length {stated}"
                ),
            ),
            (
                DecompressionError::InvalidBlock("x".into()),
                "invalid LZ4 block: x".into(),
            ),
            (
                DecompressionError::Panic("panic while decoding: y".into()),
                "panic while decoding: y".into(),
            ),
        ] {
            assert_eq!(
                Error::Decompression(cause).to_string(),
                format!("compressed payload refused: {text}")
            );
        }
    }
}
