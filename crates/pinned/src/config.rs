//! The immutable configuration of a world, and the field-by-field diff of a world's config
//! against the pinned one.
//!
//! Decision: nothing that changes a trajectory is choosable per world; it is all in the
//! physics-version. The one per-world choice is `match_id`, a game's id for the match, carried in
//! the config digest so that a snapshot of one match is refused by another match's world.

use crate::error::Error;
use crate::version::{self, PhysicsVersion, VersionEntry};
use rapier3d::prelude::{IntegrationParameters, Vector};

/// A physics-version plus the per-world choices the protocol allows (only `match_id`).
#[derive(Copy, Clone, Debug)]
pub struct WorldConfig {
    entry: &'static VersionEntry,
    match_id: u64,
}

impl PartialEq for WorldConfig {
    fn eq(&self, other: &Self) -> bool {
        self.entry.number == other.entry.number && self.match_id == other.match_id
    }
}

impl Eq for WorldConfig {}

impl WorldConfig {
    /// The config of physics-version `version`, match id 0.
    pub fn new(version: PhysicsVersion) -> Result<Self, Error> {
        Ok(Self {
            entry: version::entry(version)?,
            match_id: 0,
        })
    }

    /// The same config for match `match_id`.
    pub fn with_match_id(self, match_id: u64) -> Self {
        Self { match_id, ..self }
    }

    /// The physics-version.
    pub fn physics_version(&self) -> PhysicsVersion {
        self.entry.number
    }

    /// The match id.
    pub fn match_id(&self) -> u64 {
        self.match_id
    }

    /// The physics-version's table entry.
    pub fn entry(&self) -> &'static VersionEntry {
        self.entry
    }

    /// BLAKE3 of the entry's [`VersionEntry::digest`] (32 bytes) followed by `match_id` as a u64
    /// little-endian (40 bytes hashed).
    pub fn digest(&self) -> [u8; 32] {
        let mut hasher = blake3::Hasher::new();
        hasher.update(&self.entry.digest());
        hasher.update(&self.match_id.to_le_bytes());
        *hasher.finalize().as_bytes()
    }
}

/// One field that differs: its name and both values as bit-exact text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDiff {
    /// The field, e.g. `dt`, `soft_bodies.recovery.overlap_split` or `gravity.y`.
    pub field: String,
    /// The pinned value (the first of two entries compared).
    pub pinned: String,
    /// The value found (in a snapshot or an adopted world; the second entry compared).
    pub snapshot: String,
}

impl std::fmt::Display for FieldDiff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: pinned {}, found {}",
            self.field, self.pinned, self.snapshot
        )
    }
}

/// Every field of `params` and `gravity` that differs from `entry`'s (empty when they are equal).
pub fn diff_world(
    entry: &VersionEntry,
    params: &IntegrationParameters,
    gravity: Vector,
) -> Vec<FieldDiff> {
    let pinned = version::gravity_fields(entry.gravity)
        .into_iter()
        .chain(version::param_fields(&entry.params()));
    let found = version::gravity_fields(gravity.to_array())
        .into_iter()
        .chain(version::param_fields(params));
    diff_fields(pinned.collect(), found.collect())
}

/// Pairs two field lists of the same shape by position and keeps those whose text differs.
pub(crate) fn diff_fields(a: Vec<(String, String)>, b: Vec<(String, String)>) -> Vec<FieldDiff> {
    a.into_iter()
        .zip(b)
        .filter(|(x, y)| x.1 != y.1)
        .map(|((field, pinned), (_, snapshot))| FieldDiff {
            field,
            pinned,
            snapshot,
        })
        .collect()
}
