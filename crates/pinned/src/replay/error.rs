//! Why a replay could not be written or read.

use crate::error::{ConfigError, Error};
use crate::physics_version::PhysicsVersion;

/// Why a replay file was refused (or could not be written). A reader refuses a file whole on
/// any of these; a file that merely ends inside a chunk is read up to it and the tear reported
/// ([`crate::replay::Replay::tear`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The first bytes are not `RPINRPLY`.
    #[error("not a rapier-pinned replay (bad magic)")]
    BadMagic,
    /// The replay format version is not one this build reads.
    #[error("unknown replay format version {0}")]
    UnknownFormat(u16),
    /// Header flag bits other than the MAC's are set.
    #[error("unknown replay flags {0:#06x}")]
    UnknownFlags(u16),
    /// The file ends before its header's checksum (or MAC).
    #[error("the file ends inside the replay header ({len} bytes)")]
    HeaderTorn {
        /// Bytes of the file.
        len: u64,
    },
    /// The header's level flag is neither 0 nor 1, or no level is named and its id is not zero.
    #[error("the header's level field is malformed")]
    BadLevelField,
    /// The header says a keyframe follows every 0 ticks.
    #[error("keyframe_every must be at least 1")]
    KeyframeEvery,
    /// The input format's name is longer than 64 bytes or not ASCII.
    #[error("the input format's name ({len} bytes) is longer than 64 bytes or not ASCII")]
    InputFormatName {
        /// Its length.
        len: u64,
    },
    /// The header's checksum is not the BLAKE3 of its bytes.
    #[error("the replay header's checksum does not match")]
    HeaderChecksum,
    /// A key was given and the file has no MAC.
    #[error("the replay carries no MAC and a key was given")]
    MacMissing,
    /// A chunk's (or, chunk 0, the header's) MAC is not the fleet key's.
    #[error("chunk {chunk} at byte {offset}: bad MAC")]
    BadMac {
        /// The chunk's number (0: the header, 1: the start).
        chunk: u64,
        /// Its offset in the file.
        offset: u64,
    },
    /// A complete chunk's checksum does not match: the chunk, or one before it, was changed,
    /// removed or moved.
    #[error("chunk {chunk} at byte {offset}: checksum does not match (changed, or a chunk before it changed, moved or removed)")]
    ChunkChecksum {
        /// The chunk's number (1: the start).
        chunk: u64,
        /// Its offset in the file.
        offset: u64,
    },
    /// A chunk's kind is none of the four.
    #[error("chunk {chunk} at byte {offset}: unknown kind {kind}")]
    UnknownChunk {
        /// The chunk's number.
        chunk: u64,
        /// Its offset.
        offset: u64,
        /// Its kind byte.
        kind: u8,
    },
    /// A chunk's stated length is over its kind's bound.
    #[error("chunk {chunk} at byte {offset}: {len} bytes, more than its kind allows ({limit})")]
    ChunkTooLong {
        /// The chunk's number.
        chunk: u64,
        /// Its offset.
        offset: u64,
        /// Its stated length.
        len: u64,
        /// Its kind's bound.
        limit: u64,
    },
    /// A chunk's body does not have its kind's layout (too short, a bad event code, text not
    /// UTF-8).
    #[error("chunk {chunk} at byte {offset}: malformed {what}")]
    Malformed {
        /// The chunk's number.
        chunk: u64,
        /// Its offset.
        offset: u64,
        /// What is malformed.
        what: &'static str,
    },
    /// The first chunk is not the start, or a second start follows.
    #[error("chunk {chunk}: the start must be the first chunk and only it")]
    StartPlace {
        /// The chunk's number.
        chunk: u64,
    },
    /// The file ends before its start chunk is complete: there is nothing to replay.
    #[error("the file ends at byte {len}, before its start snapshot is complete")]
    NoStart {
        /// Bytes of the file.
        len: u64,
    },
    /// A tick record, keyframe or event is not at the tick that comes next.
    #[error("chunk {chunk}: {what} at tick {found}, expected tick {expected}")]
    OutOfOrder {
        /// The chunk's number.
        chunk: u64,
        /// `tick record`, `keyframe` or `event`.
        what: &'static str,
        /// The tick it should have.
        expected: u64,
        /// The tick it has.
        found: u64,
    },
    /// A snapshot in a chunk (the start or a keyframe) is refused by the snapshot reader, or is
    /// of another match (physics-version, config digest) than the header's.
    #[error("chunk {chunk}: snapshot: {source}")]
    ChunkSnapshot {
        /// The chunk's number.
        chunk: u64,
        /// Why.
        source: Error,
    },
    /// The header's physics-version is not one this build serves.
    #[error("physics-version {0} is not one this build serves")]
    UnknownPhysicsVersion(PhysicsVersion),
    /// The header's settings are not a config of its physics-version.
    #[error("the header's config: {0}")]
    Config(ConfigError),
    /// The header's config digest is not that of the config its fields make.
    #[error("the header's config digest is not its config's")]
    ConfigDigest,
    /// A world could not be snapshotted or restored.
    #[error("snapshot: {0}")]
    Snapshot(Error),
    /// A tick's inputs are longer than 65,536 bytes.
    #[error("tick {tick}: {len} bytes of inputs, more than 65536")]
    InputsTooLong {
        /// The tick.
        tick: u64,
        /// The inputs' length.
        len: u64,
    },
    /// A tick's recorded inputs could not be applied (the game's decoder's reason).
    #[error("tick {tick}'s inputs: {reason}")]
    Inputs {
        /// The tick the inputs were recorded for.
        tick: u64,
        /// Why.
        reason: String,
    },
    /// Writing failed (the I/O error's message).
    #[error("write: {0}")]
    Write(String),
}
