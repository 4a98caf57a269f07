//! The immutable configuration of a world, and the field-by-field diff of a world's parameters
//! and gravity against the config's.
//!
//! Decision: a physics-version pins the engine's rules; a world adds the game's choices its
//! version allows ([`GameSettings`]: gravity, tick, length unit) and `match_id`, a game's id for
//! the match. Both are in the config digest, so a snapshot of another game's settings or of
//! another match is refused.

use crate::diff::{diff_fields, gravity_fields, FieldDiff};
use crate::error::ConfigError;
use crate::level::LevelId;
use crate::param_fields::param_fields;
use crate::settings::GameSettings;
use crate::version::{self, PhysicsVersion, VersionEntry};
use rapier3d::prelude::{IntegrationParameters, Vector};

/// A physics-version plus the per-world choices the protocol allows: the game's settings and
/// the match id.
#[derive(Copy, Clone, Debug)]
pub struct WorldConfig {
    entry: &'static VersionEntry,
    settings: GameSettings,
    match_id: u64,
    level: Option<LevelId>,
}

impl PartialEq for WorldConfig {
    fn eq(&self, other: &Self) -> bool {
        self.entry.number == other.entry.number
            && self.settings == other.settings
            && self.match_id == other.match_id
            && self.level == other.level
    }
}

impl Eq for WorldConfig {}

impl WorldConfig {
    /// The config of physics-version `version`: its default settings, match id 0
    /// ([`ConfigError::UnknownPhysicsVersion`] if no released version has that number).
    pub fn new(version: PhysicsVersion) -> Result<Self, ConfigError> {
        // `entry`'s one refusal is an unknown number.
        let entry =
            version::entry(version).map_err(|_| ConfigError::UnknownPhysicsVersion(version))?;
        Ok(Self {
            entry,
            settings: entry.default_settings(),
            match_id: 0,
            level: None,
        })
    }

    /// The same config with the game's `settings`, if the physics-version allows them
    /// ([`ConfigError::SettingNotAllowed`] names the first field it does not).
    pub fn with_settings(self, settings: GameSettings) -> Result<Self, ConfigError> {
        settings.check(&self.entry.choices)?;
        Ok(Self { settings, ..self })
    }

    /// The same config for match `match_id`.
    pub fn with_match_id(self, match_id: u64) -> Self {
        Self { match_id, ..self }
    }

    /// The same config for a world on the level `level` (its static shapes, shipped to every
    /// peer; [`crate::Level`]). The level is part of the match: the config digest covers its id.
    pub fn with_level(self, level: LevelId) -> Self {
        Self {
            level: Some(level),
            ..self
        }
    }

    /// The level the world is on, if any.
    pub fn level(&self) -> Option<LevelId> {
        self.level
    }

    /// The physics-version.
    pub fn physics_version(&self) -> PhysicsVersion {
        self.entry.number
    }

    /// The game's settings.
    pub fn settings(&self) -> GameSettings {
        self.settings
    }

    /// The match id.
    pub fn match_id(&self) -> u64 {
        self.match_id
    }

    /// The physics-version's table entry.
    pub fn entry(&self) -> &'static VersionEntry {
        self.entry
    }

    /// The world's integration parameters: the version's, with the settings' `dt` and
    /// `length_unit`.
    pub fn params(&self) -> IntegrationParameters {
        IntegrationParameters {
            dt: self.settings.dt(),
            length_unit: self.settings.length_unit,
            ..self.entry.params()
        }
    }

    /// The world's gravity (the settings').
    pub fn gravity(&self) -> Vector {
        Vector::from_array(self.settings.gravity)
    }

    /// BLAKE3 of the entry's [`VersionEntry::digest`] (32 bytes), `match_id` as a u64
    /// little-endian (8 bytes), only when the settings are not the version's defaults
    /// [`GameSettings`]' 20 bytes (gravity, `dt`, `length_unit` as f32 bits), and only when the
    /// world is on a level its [`LevelId`] (32 bytes): a config of default settings and no level
    /// has the digest it had before games could choose, so every earlier snapshot and
    /// conformance vector keeps its verdict. (The four hashed lengths, 40, 60, 72 and 92 bytes,
    /// tell the cases apart.)
    pub fn digest(&self) -> [u8; 32] {
        let mut hasher = blake3::Hasher::new();
        hasher.update(&self.entry.digest());
        hasher.update(&self.match_id.to_le_bytes());
        if self.settings != self.entry.default_settings() {
            hasher.update(&self.settings.digest_bytes());
        }
        if let Some(level) = self.level {
            hasher.update(&level.0);
        }
        *hasher.finalize().as_bytes()
    }
}

/// Every field of `params` and `gravity` that differs from `config`'s (empty when they are
/// equal).
pub fn diff_world(
    config: &WorldConfig,
    params: &IntegrationParameters,
    gravity: Vector,
) -> Vec<FieldDiff> {
    let pinned = gravity_fields(config.settings.gravity)
        .into_iter()
        .chain(param_fields(&config.params()));
    let found = gravity_fields(gravity.to_array())
        .into_iter()
        .chain(param_fields(params));
    diff_fields(pinned.collect(), found.collect())
}
