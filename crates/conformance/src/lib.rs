//! Conformance for rapier-pinned: the language-neutral vectors under `conformance/` and the
//! runners that check the fork against them.

pub mod generator;
pub mod measure;
pub mod oracle;
pub mod perturbation;
pub mod snapshot_vectors;
pub mod sweep_check;
pub mod truncation;
pub mod variations;
pub mod vectors;
pub mod world_sweep;

use std::path::PathBuf;

/// The repository's `conformance/` folder.
pub fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}
