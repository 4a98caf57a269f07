//! Conformance for rapier-pinned: the language-neutral vectors under `conformance/` and the
//! runners that check the fork against them.
//!
//! - sphere sweeps (`conformance/sweeps/`): [`oracle`] (the exact double-precision reference),
//!   [`generator`] (the seeded random cases), [`sweep_vectors`] (reading and writing the files),
//!   [`sweep_check`] (the engine's moving-pair kernel against them) and [`world_sweep`] (every
//!   vector through a full world step);
//! - snapshot vectors (`conformance/snapshots/`): [`snapshot_vectors`] (reading, checking,
//!   generating and writing them, a module of its own files);
//! - [`ConformanceError`]: why vectors could not be read, checked, generated or written (the
//!   crate's one error), with [`VectorFailure`] and [`GenerateError`], two of its causes.
//!
//! The thin-part CCD measurement harness (perturbation sets, truncation, variation families, the
//! CCD bench and examples) reads no vectors and is in `crates/ccd-eval`.

mod error;
pub mod generator;
pub mod oracle;
pub mod snapshot_vectors;
pub mod sweep_check;
pub mod sweep_vectors;
mod verdict;
pub mod world_sweep;

pub use error::{ConformanceError, GenerateError, VectorFailure};

use std::path::PathBuf;

/// The repository's `conformance/` folder.
pub fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}
