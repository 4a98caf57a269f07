//! The patch-series hash of a patch folder, computed from its files: tooling for the tests that
//! check the physics-version table against the tree (`version_table.rs`). It reads the file
//! system, so it lives here and not in the wrapper a game builds on, which only carries the
//! hashes (`rapier_pinned::PATCH_SERIES`, `RELEASED_SERIES_1_2`,
//! `BIT_IDENTICAL_SERIES`). Use it from a test with `mod series;`.

use std::path::Path;

/// The patch-series hash of the fork whose patch folder is `patches_dir`, as 64 hex digits.
///
/// Definition: the *physics patches* are the files named by `patches_dir/series` (one name a
/// line; `#` starts a comment; blank lines skipped), in that order, that contain a line starting
/// with `--- a/rapier3d/`, `+++ b/rapier3d/`, `--- a/parry3d/` or `+++ b/parry3d/` (they change a
/// crate that can change a trajectory; patches to other vendored crates, e.g. bevy_rapier3d,
/// cannot). The hash is BLAKE3 over, for each physics patch in order: its file name (UTF-8), one
/// `0` byte, its length in bytes as a u64 little-endian, its bytes.
pub fn patch_series_hash(patches_dir: &Path) -> std::io::Result<String> {
    let series = std::fs::read_to_string(patches_dir.join("series"))?;
    let mut hasher = blake3::Hasher::new();
    for line in series.lines() {
        let name = line.split('#').next().unwrap_or("").trim();
        if name.is_empty() {
            continue;
        }
        let bytes = std::fs::read(patches_dir.join(name))?;
        if !touches_physics(&bytes) {
            continue;
        }
        hasher.update(name.as_bytes());
        hasher.update(&[0]);
        hasher.update(&(bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hasher.finalize().to_hex().to_string())
}

/// Whether a patch file changes rapier3d or parry3d (see [`patch_series_hash`]).
fn touches_physics(patch: &[u8]) -> bool {
    const PREFIXES: [&[u8]; 4] = [
        b"--- a/rapier3d/",
        b"+++ b/rapier3d/",
        b"--- a/parry3d/",
        b"+++ b/parry3d/",
    ];
    patch
        .split(|&b| b == b'\n')
        .any(|line| PREFIXES.iter().any(|p| line.starts_with(p)))
}
