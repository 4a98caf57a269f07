//! A [`Vector`] and the manifest that lists a directory's vectors (`vectors.json`): where the
//! directory is, reading and writing the manifest, a vector's file as a plain name in it, and the
//! hex the manifest writes keys, level ids and state digests in.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rapier_pinned::{PhysicsVersion, PinnedWorld};
use serde::{Deserialize, Serialize};

use crate::verdict::Expect;
use crate::ConformanceError;

/// The manifest's file name.
pub const MANIFEST: &str = "vectors.json";

/// One vector of a manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// Unique within the manifest.
    pub name: String,
    /// One sentence: what was done to the bytes.
    pub about: String,
    /// The snapshot file, in the manifest's directory.
    pub file: String,
    /// The match id of the world the reader restores into.
    pub match_id: u64,
    /// Hex of the 32-byte key the reader restores with, or `None`.
    pub key: Option<String>,
    /// The level file (in the manifest's directory) the reader loads and gives to the restore,
    /// or `None` (format 3 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// Hex of the id of the level the reader's world is on (its config), when it is not the
    /// loaded level's: a world on a level whose bytes the reader does not have, or has wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_id: Option<String>,
    /// The baseline file (a format-1 snapshot in the manifest's directory) whose payload the
    /// reader gives to the restore as the baseline of a delta, or `None` (format 4 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// The verdict.
    pub expect: Expect,
}

/// `conformance/snapshots/<version>/`.
pub fn version_dir(version: PhysicsVersion) -> PathBuf {
    crate::conformance_dir()
        .join("snapshots")
        .join(version.to_string())
}

/// The vectors of `dir/vectors.json`. Err if it cannot be read or parsed, is empty, or names a
/// vector twice.
pub fn read_manifest(dir: &Path) -> Result<Vec<Vector>, ConformanceError> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    let vectors: Vec<Vector> = serde_json::from_str(&text).map_err(json(&path))?;
    if vectors.is_empty() {
        return Err(ConformanceError::NoVectors { path });
    }
    let mut names = BTreeSet::new();
    for v in &vectors {
        if !names.insert(v.name.as_str()) {
            let name = v.name.clone();
            return Err(ConformanceError::DuplicateVector { path, name });
        }
    }
    Ok(vectors)
}

/// The manifest text of `vectors`: pretty-printed JSON and a final newline.
pub fn manifest_json(vectors: &[Vector]) -> String {
    let mut text = serde_json::to_string_pretty(vectors).expect("vectors serialize");
    text.push('\n');
    text
}

/// `dir/file`, if `file` is a plain file name.
pub(super) fn file_path(dir: &Path, file: &str) -> Result<PathBuf, ConformanceError> {
    let plain = !file.is_empty() && file != "." && file != ".." && !file.contains(['/', '\\']);
    if plain {
        Ok(dir.join(file))
    } else {
        Err(ConformanceError::NotPlainFileName(file.to_string()))
    }
}

/// Makes an I/O error of `path` into [`ConformanceError::Io`].
pub(super) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ConformanceError {
    let path = path.to_path_buf();
    move |source| ConformanceError::Io { path, source }
}

/// Makes a JSON error of `path` into [`ConformanceError::Json`].
pub(super) fn json(path: &Path) -> impl FnOnce(serde_json::Error) -> ConformanceError {
    let path = path.to_path_buf();
    move |source| ConformanceError::Json { path, source }
}

/// The state digest of `world` as a manifest lists it (an accepted vector's `digests`): 16 hex
/// digits.
pub(super) fn digest(world: &PinnedWorld) -> String {
    format!(
        "{:016x}",
        rapier_pinned_scenes::state_digest(world.bodies())
    )
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A 32-byte key from 64 hex digits.
pub fn parse_key(text: &str) -> Result<[u8; 32], ConformanceError> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ConformanceError::BadKey(text.to_string()));
    }
    let mut key = [0; 32];
    for (i, k) in key.iter_mut().enumerate() {
        *k = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).expect("two hex digits");
    }
    Ok(key)
}
