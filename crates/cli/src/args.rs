//! What several commands take: the match and restore options, a game's settings, the key file,
//! and the physics-version, scene and CCD-configuration selections.

use std::path::{Path, PathBuf};

use rapier_pinned::{GameSettings, PhysicsVersion, SnapshotKey, WorldConfig};
use rapier_pinned_scenes::{catalog, find, Scene};

/// The help of every `--key-file` that takes the fleet key.
pub const KEY_FILE_HELP: &str =
    "The 32-byte fleet key of the snapshot MAC, in a file holding exactly 32 raw bytes, or 64 \
     hex digits optionally followed by one newline (e.g. `openssl rand -hex 32 > key`); anything \
     else is an error";

/// The match a pinned world belongs to, and its fleet key (`serve`, `join`, `snapshot save`).
#[derive(clap::Args)]
pub struct MatchArgs {
    /// Physics-version (default: the current one; `rapier-pinned versions`).
    #[arg(long, value_name = "V", default_value_t = rapier_pinned::PHYSICS_VERSION_CURRENT)]
    pub physics_version: PhysicsVersion,
    /// Match id, part of the config digest.
    #[arg(long, value_name = "M", default_value_t = 0)]
    pub match_id: u64,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[arg(long, value_name = "F", help = KEY_FILE_HELP)]
    pub key_file: Option<PathBuf>,
}

impl MatchArgs {
    /// The world config of this physics-version, match and settings.
    pub fn config(&self) -> Result<WorldConfig, String> {
        config(self.physics_version, self.match_id, &self.settings)
    }

    /// The fleet key, if a key file was given.
    pub fn key(&self) -> Result<Option<SnapshotKey>, String> {
        key(self.key_file.as_deref())
    }
}

/// A snapshot file to restore and what it must match (`snapshot verify`, `snapshot continue`).
#[derive(clap::Args)]
pub struct RestoreArgs {
    /// Snapshot file.
    pub file: PathBuf,
    /// Physics-version the snapshot must be (default: the one in its header).
    #[arg(long, value_name = "V")]
    pub physics_version: Option<PhysicsVersion>,
    /// Match id the snapshot must be for.
    #[arg(long, value_name = "M", default_value_t = 0)]
    pub match_id: u64,
    /// The settings the snapshot must be of (default: the physics-version's).
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[arg(long, value_name = "F", help = KEY_FILE_HELP)]
    pub key_file: Option<PathBuf>,
    /// The level the world is on (`snapshot save --level`): needed by a format-3 snapshot that
    /// names one, and part of the config digest.
    #[arg(long, value_name = "FILE")]
    pub level: Option<PathBuf>,
    /// For a delta (format 4): the snapshot it is written against (`snapshot save
    /// --baseline`).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
}

/// A game's world settings (`docs/protocol.md` §2): each defaults to the physics-version's.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SettingsArgs {
    /// Gravity as `X,Y,Z` in length units per second squared, bit for bit (`0,-9.81,0` is not
    /// the default `-0,-9.81,-0`); e.g. `0,0,0` for a space game, `0,0,-9.81` for z-up.
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true, value_parser = parse_gravity)]
    pub gravity: Option<[f32; 3]>,
    /// Steps per second (dt = 1 / N); one the physics-version allows (`rapier-pinned versions`).
    #[arg(long, value_name = "N")]
    pub tick_hz: Option<u32>,
    /// rapier's `length_unit`: the size of a typical object in the game's units (100 for cm).
    #[arg(long, value_name = "U")]
    pub length_unit: Option<f32>,
}

impl SettingsArgs {
    /// These settings over `config`'s (its physics-version's defaults where none is given); a
    /// value the version does not allow is an error.
    pub fn apply(&self, config: WorldConfig) -> Result<WorldConfig, String> {
        let d = config.settings();
        let settings = GameSettings {
            gravity: self.gravity.unwrap_or(d.gravity),
            tick_hz: self.tick_hz.unwrap_or(d.tick_hz),
            length_unit: self.length_unit.unwrap_or(d.length_unit),
        };
        config
            .with_settings(settings)
            .map_err(|e| format!("{e} (see `rapier-pinned versions`)"))
    }
}

/// `X,Y,Z`: three floats.
fn parse_gravity(text: &str) -> Result<[f32; 3], String> {
    let parts = text
        .split(',')
        .map(|p| p.trim().parse::<f32>().map_err(|e| format!("{p:?}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    parts
        .try_into()
        .map_err(|p: Vec<f32>| format!("expected X,Y,Z (3 numbers), got {}", p.len()))
}

/// The config of physics-version `v` for match `match_id` under `settings`; an unknown `v` or
/// a setting `v` does not allow is an error.
pub fn config(
    v: PhysicsVersion,
    match_id: u64,
    settings: &SettingsArgs,
) -> Result<WorldConfig, String> {
    let config = WorldConfig::new(v)
        .map(|c| c.with_match_id(match_id))
        .map_err(|e| format!("--physics-version {v}: {e} (see `rapier-pinned versions`)"))?;
    settings.apply(config)
}

/// The fleet key in `key_file`, if one is given.
pub fn key(key_file: Option<&Path>) -> Result<Option<SnapshotKey>, String> {
    key_file.map(read_key).transpose()
}

/// Reads a key file: exactly 32 raw bytes, or 64 hex digits optionally followed by one newline
/// (`\n` or `\r\n`). Anything else is refused, including a 32-byte file that is all hex digits
/// and newlines (text that is too short to be a hex key, not a raw key).
fn read_key(path: &Path) -> Result<SnapshotKey, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("key file {}: {e}", path.display()))?;
    let looks_like_text = bytes
        .iter()
        .all(|b| b.is_ascii_hexdigit() || *b == b'\n' || *b == b'\r');
    if bytes.len() == 32 && !looks_like_text {
        return Ok(SnapshotKey::new(bytes.try_into().expect("32 bytes")));
    }
    let text = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    let text = if text.len() < bytes.len() {
        text.strip_suffix(b"\r").unwrap_or(text)
    } else {
        text
    };
    if text.len() == 64 && text.iter().all(u8::is_ascii_hexdigit) {
        let mut key = [0u8; 32];
        for (k, pair) in key.iter_mut().zip(text.chunks(2)) {
            let digits = std::str::from_utf8(pair).expect("ASCII hex digits");
            *k = u8::from_str_radix(digits, 16).expect("hex digits");
        }
        return Ok(SnapshotKey::new(key));
    }
    Err(format!(
        "key file {}: expected exactly 32 raw bytes, or 64 hex digits optionally followed by a \
         newline; found {} bytes{}",
        path.display(),
        bytes.len(),
        if looks_like_text { " of hex text" } else { "" }
    ))
}

/// Every released physics-version with `all`, else `chosen`, else the current one.
pub fn physics_versions(all: bool, chosen: &[PhysicsVersion]) -> Vec<PhysicsVersion> {
    if all {
        rapier_pinned::version_table()
            .iter()
            .map(|e| e.number)
            .collect()
    } else if chosen.is_empty() {
        vec![rapier_pinned::PHYSICS_VERSION_CURRENT]
    } else {
        chosen.to_vec()
    }
}

/// The catalog scenes named in `names` (all when empty), in the order named.
pub fn catalog_scenes(names: &[String]) -> Result<Vec<&'static Scene>, String> {
    if names.is_empty() {
        return Ok(catalog().iter().collect());
    }
    names
        .iter()
        .map(|n| {
            find(n)
                .ok_or_else(|| format!("unknown scene '{n}' (see `rapier-pinned scenes --list`)"))
        })
        .collect()
}

/// A `--config` value, `POLICY:MODE` (`rapier_pinned::CcdConfig`'s form, e.g. `5:bounded`).
pub fn ccd_config(text: &str) -> Result<rapier_pinned::CcdConfig, String> {
    text.parse()
        .map_err(|e: rapier_pinned::ParseCcdConfigError| e.to_string())
}
