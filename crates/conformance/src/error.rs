//! Why a set of vectors could not be read, checked, generated or written: [`ConformanceError`],
//! the crate's one error.

use crate::verdict::Expect;
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
        got: String,
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
    #[error("{0}")]
    Generate(String),
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
