//! Why a set of vectors could not be read, checked, generated or written: [`ConformanceError`],
//! the crate's one error, with two of its causes typed in enums of their own: why a vector failed
//! ([`VectorFailure`]) and why the snapshot-vector generator could not make one
//! ([`GenerateError`]).

use crate::verdict::Expect;
use rapier3d::parry::shape::TriMeshBuilderError;
use rapier_pinned::{ConfigError, LevelError, PhysicsVersion, WorldConfig};
use std::path::PathBuf;

/// An error of the crate's public functions. A vector that is read and restored but gives
/// another verdict is [`ConformanceError::VectorFailed`]: a failure line of
/// [`crate::snapshot_vectors::check`], not a reason to stop.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConformanceError {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A JSON file (a manifest, `sweeps/fixed.json`) does not parse.
    #[error("{}: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// serde_json's error.
        source: serde_json::Error,
    },
    /// A manifest lists no vector.
    #[error("{}: no vectors", path.display())]
    NoVectors {
        /// The manifest.
        path: PathBuf,
    },
    /// A manifest names a vector twice.
    #[error("{}: vector {name} twice", path.display())]
    DuplicateVector {
        /// The manifest.
        path: PathBuf,
        /// The vector's name.
        name: String,
    },
    /// A vector's file is not a plain file name (a path, `.`, `..` or empty).
    #[error("file {0:?} is not a plain file name")]
    NotPlainFileName(String),
    /// A vector's file could not be read.
    #[error("{name}: cannot read {}: {source}", path.display())]
    VectorUnreadable {
        /// The vector's name.
        name: String,
        /// Its file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A vector restored to another verdict than its manifest's.
    #[error("{name}: expected {expected}, got {got}")]
    VectorFailed {
        /// The vector's name.
        name: String,
        /// The manifest's verdict.
        expected: Expect,
        /// What happened (the refusal and its kind, the tick, the first differing digest...).
        got: Box<VectorFailure>,
    },
    /// A stored vector file is not what the generator makes.
    #[error(
        "{}: released vector bytes changed (the generator no longer makes the stored bytes; a \
         released physics-version's vectors never change)",
        path.display()
    )]
    VectorBytesChanged {
        /// The stored file.
        path: PathBuf,
    },
    /// A stored manifest lists a vector the generator no longer makes as it is.
    #[error(
        "{}: released vector {name} changed or removed (a released physics-version's vectors \
         never change)",
        path.display()
    )]
    VectorChanged {
        /// The stored manifest.
        path: PathBuf,
        /// The vector's name.
        name: String,
    },
    /// The generator could not make a vector (its reason: a world or a byte it could not find).
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A key is not 64 hex digits.
    #[error("{0:?} is not 64 hex digits")]
    BadKey(String),
    /// `random.csv` does not start with its header line.
    #[error("random.csv: unexpected header")]
    RandomHeader,
    /// A `random.csv` line (numbered from 1, the header included) has another number of fields
    /// than 17.
    #[error("random.csv line {line}: {fields} fields")]
    RandomFields {
        /// The line.
        line: usize,
        /// Its number of fields.
        fields: usize,
    },
    /// A `random.csv` field that must be a number is not.
    #[error("random.csv line {line}: {source}")]
    RandomNumber {
        /// The line.
        line: usize,
        /// Why.
        source: std::num::ParseFloatError,
    },
    /// A `random.csv` verdict that is none of `hit`, `none`, `error`.
    #[error("random.csv line {line}: verdict {verdict}")]
    RandomVerdict {
        /// The line.
        line: usize,
        /// The verdict found.
        verdict: String,
    },
    /// No released physics-version has this number.
    #[error(transparent)]
    Version(#[from] rapier_pinned::Error),
}

/// What a snapshot vector gave instead of its manifest's verdict, or why it could not be
/// restored as its manifest says ([`ConformanceError::VectorFailed`]'s `got`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VectorFailure {
    /// The vector's physics-version makes no config.
    #[error("no world: {0}")]
    NoWorld(#[source] ConfigError),
    /// The manifest's key is not 64 hex digits ([`ConformanceError::BadKey`]).
    #[error("a bad key in the manifest: {0}")]
    BadKey(#[source] Box<ConformanceError>),
    /// The manifest's level id is not 64 hex digits ([`ConformanceError::BadKey`]).
    #[error("a bad level id in the manifest: {0}")]
    BadLevelId(#[source] Box<ConformanceError>),
    /// The baseline file is shorter than a snapshot header.
    #[error("a baseline file shorter than a header")]
    ShortBaseline,
    /// The restore refused the snapshot (with another kind than expected, or expected to accept).
    #[error("reject {kind} ({0})", kind = .0.kind())]
    Rejected(#[source] rapier_pinned::Error),
    /// The restore accepted the snapshot, at this tick (expected to reject, or another tick).
    #[error("accept at tick {0}")]
    AcceptedAt(u64),
    /// The restored world could not be snapshotted linked again.
    #[error("accept, but the restored world does not snapshot: {0}")]
    NoSnapshot(#[source] rapier_pinned::Error),
    /// The restored world snapshots to other bytes than the file's.
    #[error(
        "accept, but the restored world snapshots to other bytes ({len} bytes, first difference \
         at byte {at})"
    )]
    OtherBytes {
        /// The length of the re-snapshot (in canonical form where the file's is compared so).
        len: usize,
        /// The first byte that differs (or the shorter length).
        at: usize,
    },
    /// The manifest lists another number of digests than its steps.
    #[error("accept, but the manifest lists {digests} digests for {steps} steps")]
    DigestCount {
        /// The digests listed.
        digests: usize,
        /// The steps stated.
        steps: u32,
    },
    /// A step of the restored world has another state digest than the manifest's.
    #[error("accept, but step {step} (tick {tick}) has state digest {got}, not {expected}")]
    Digest {
        /// The step, from 1.
        step: usize,
        /// The world's tick after it.
        tick: u64,
        /// The world's digest.
        got: String,
        /// The manifest's.
        expected: String,
    },
    /// A linked or delta payload, accepted by the restore, does not expand again.
    #[error("accept, but the payload does not expand: {0}")]
    NoExpand(#[source] rapier_pinned::Error),
    /// A compressed payload, accepted by the restore, does not decompress again.
    #[error("accept, but the payload does not decompress: {0}")]
    NoDecompress(#[source] rapier_pinned::Error),
    /// The restore or the check panicked.
    #[error("a panic")]
    Panic,
}

/// Why the snapshot-vector generator could not make a vector: a world it could not build, a
/// byte or a part of a world it could not find, or its framing no longer the wrapper's (each a
/// bug of the generator or a changed wrapper; [`ConformanceError::Generate`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The vectors' physics-version makes no config.
    #[error("physics-version {version}: {source}")]
    Config {
        /// The version.
        version: PhysicsVersion,
        /// Why.
        source: ConfigError,
    },
    /// The other version (the mismatch vectors') makes no config.
    #[error("physics-version {version} (the other version): {source}")]
    OtherConfig {
        /// The version.
        version: PhysicsVersion,
        /// Why.
        source: ConfigError,
    },
    /// The catalog has no such scene.
    #[error("no scene {0}")]
    NoScene(&'static str),
    /// The wrapper does not adopt the scene under the config.
    #[error("{scene} under {config:?}: {source}")]
    SceneRefused {
        /// The scene.
        scene: &'static str,
        /// The config.
        config: Box<WorldConfig>,
        /// Why.
        source: rapier_pinned::Error,
    },
    /// The wrapper does not adopt the forged snapshot's world.
    #[error("the forged world cannot be adopted: {0}")]
    ForgedRefused(#[source] rapier_pinned::Error),
    /// A payload the generator changes does not decode.
    #[error("payload does not decode: {0}")]
    Undecodable(#[source] bincode::Error),
    /// The integration parameters do not encode (to find the policy byte).
    #[error(transparent)]
    ParamsEncoding(bincode::Error),
    /// The payload holds another value than the CCD persistent-contact policy where the policy
    /// byte should be.
    #[error("payload byte {at} is {found}, not the CCD persistent-contact policy {policy}")]
    PolicyByte {
        /// The offset in the payload.
        at: usize,
        /// The byte there.
        found: u8,
        /// The version's policy.
        policy: u8,
    },
    /// The wrapper refused to adopt or to snapshot a world of the format-3 vectors.
    #[error(transparent)]
    Wrapper(rapier_pinned::Error),
    /// The level of the vectors is refused.
    #[error(transparent)]
    Level(LevelError),
    /// The level's trimesh is refused.
    #[error(transparent)]
    Trimesh(TriMeshBuilderError),
    /// The generator's format-3 framing is not the wrapper's.
    #[error("seal_linked does not write PinnedWorld::snapshot_linked's bytes")]
    LinkedFraming,
    /// The compressed payload does not start with its uncompressed length.
    #[error("the compressed payload does not start with its uncompressed length")]
    CompressedLength,
    /// The generator's format-2 framing is not the wrapper's.
    #[error("the wrapper's format-2 snapshot differs from the protocol's")]
    CompressedFraming,
    /// The generator's checksum or MAC is not the wrapper's.
    #[error("the generator's checksum/MAC differs from the wrapper's")]
    Checksum,
    /// The LZ4 block ends within its first literal length.
    #[error("LZ4 block ends in a literal length")]
    LiteralLengthCut,
    /// The LZ4 block's first sequence has no match (offset) to flip.
    #[error("the LZ4 block's first sequence has no match")]
    NoMatch,
    /// The world has no collider attached to a body.
    #[error("the world has no attached collider")]
    NoAttachedCollider,
    /// The world has no body.
    #[error("the world has no body")]
    NoBody,
    /// `ball_drop` has no contact pair at the snapshot's tick.
    #[error("ball_drop has no contact pair at the snapshot's tick")]
    NoContactPair,
    /// Two rows of the table have the same name.
    #[error("vector {0} generated twice")]
    NameTwice(&'static str),
    /// Two rows of the table make the same file.
    #[error("file {0} generated twice")]
    FileTwice(String),
    /// A row without bytes names no earlier row's file.
    #[error("vector {name}: no bytes, and no earlier vector makes {file}")]
    NoBytes {
        /// The row's name.
        name: &'static str,
        /// The file it names.
        file: String,
    },
}
