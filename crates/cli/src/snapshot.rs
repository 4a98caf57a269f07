//! `rapier-pinned snapshot ...`: save a catalog scene as a pinned snapshot, inspect and verify a
//! snapshot, import a plain-upstream world. Every check is the wrapper's (`rapier_pinned`); this
//! module only reads files, calls it and prints.

use std::path::Path;

use rapier3d::prelude::PhysicsWorld;
use rapier_pinned::{
    import_upstream, inspect, recorded_params, Error, GameSettings, PhysicsVersion, PinnedWorld,
    SnapshotInfo, SnapshotKey, WorldConfig, PHYSICS_VERSION_CURRENT,
};

use crate::{hex, Failure, MatchArgs, RestoreArgs};

/// A wrapper error as the tool prints it: its message and its kind.
pub fn typed(e: &Error) -> String {
    format!("{e} (kind: {})", e.kind())
}

/// Reads a key file: exactly 32 raw bytes, or 64 hex digits optionally followed by one newline
/// (`\n` or `\r\n`). Anything else is refused, including a 32-byte file that is all hex digits
/// and newlines (text that is too short to be a hex key, not a raw key).
pub fn read_key(path: &Path) -> Result<SnapshotKey, String> {
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

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// How a snapshot written with `key` is sealed, as the tool prints it.
fn authentication(key: Option<&SnapshotKey>) -> &'static str {
    if key.is_some() {
        "authenticated (MAC)"
    } else {
        "unauthenticated"
    }
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
    /// value the version does not allow is a usage error.
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
/// a setting `v` does not allow is a usage error.
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

/// `snapshot save` (format 2 with a compressed payload when `compressed`).
pub fn save(
    name: &str,
    steps: u64,
    game: &MatchArgs,
    out: &Path,
    compressed: bool,
) -> Result<(), Failure> {
    let scene = rapier_pinned_scenes::find(name)
        .ok_or_else(|| format!("unknown scene '{name}' (see `rapier-pinned scenes --list`)"))?;
    let (v, match_id) = (game.physics_version, game.match_id);
    let config = game.config()?;
    let key = game.key()?;
    let mut world = PinnedWorld::adopt(config, scene.build(config.params())).map_err(|e| {
        format!(
            "scene '{name}' cannot run under physics-version {v} with settings {}: {}",
            config.settings(),
            typed(&e)
        )
    })?;
    for _ in 0..steps {
        world.step();
    }
    let (bytes, format) = if compressed {
        (
            world.snapshot_compressed(key.as_ref()),
            "format 2, compressed",
        )
    } else {
        (world.snapshot(key.as_ref()), "format 1")
    };
    write(out, &bytes)?;
    println!(
        "saved {}: scene {name}, physics-version {v}, match {match_id}, {}, tick {}, {} bodies, \
         {} bytes ({format}), {}",
        out.display(),
        config.settings(),
        world.tick(),
        world.bodies().len(),
        bytes.len(),
        authentication(key.as_ref())
    );
    Ok(())
}

/// Restores `bytes` under `config`. On a config-digest mismatch, says whether the payload is
/// otherwise fine for the physics-version, i.e. whether the snapshot is of another match.
fn restore(
    bytes: &[u8],
    config: WorldConfig,
    key: Option<&SnapshotKey>,
) -> Result<PinnedWorld, String> {
    PinnedWorld::restore(config, bytes, key).map_err(|e| {
        let mut msg = typed(&e);
        if matches!(e, Error::ConfigDigestMismatch { .. }) {
            msg += &match_hint(bytes, config, key);
        }
        msg
    })
}

/// Why a config digest differs, as far as the wrapper can tell
/// ([`PinnedWorld::open_ignoring_match`]: every other check).
fn match_hint(bytes: &[u8], config: WorldConfig, key: Option<&SnapshotKey>) -> String {
    match PinnedWorld::open_ignoring_match(config, bytes, key) {
        Ok(_) => format!(
            "\n  the payload is a valid physics-version {} world: the snapshot was written for \
             another match id than {} (pass its --match-id)",
            config.physics_version(),
            config.match_id()
        ),
        Err(e) => format!(
            "\n  the payload is not a valid physics-version {} world either ({}): not a snapshot \
             of this physics-version with another match id",
            config.physics_version(),
            typed(&e)
        ),
    }
}

/// One line on a world: its counts and the payload size per body.
fn counts(world: &PhysicsWorld, payload_len: u64) -> Vec<(&'static str, String)> {
    let bodies = world.bodies.len();
    let per_body = if bodies == 0 {
        "no bodies".to_string()
    } else {
        format!("{:.1} bytes per body", payload_len as f64 / bodies as f64)
    };
    vec![
        ("bodies", bodies.to_string()),
        ("colliders", world.colliders.len().to_string()),
        ("impulse joints", world.impulse_joints.len().to_string()),
        (
            "multibody joints",
            world.multibody_joints.iter().count().to_string(),
        ),
        ("payload", format!("{payload_len} bytes, {per_body}")),
    ]
}

/// A short summary of a physics-version's pinned fields.
fn config_summary(config: &WorldConfig) -> Vec<(&'static str, String)> {
    let e = config.entry();
    let p = config.params();
    let current = if e.number == PHYSICS_VERSION_CURRENT {
        " (current)"
    } else {
        ""
    };
    vec![
        (
            "config",
            format!(
                "physics-version {}{current}: rapier3d {} + parry3d {} + patch series {}..., {}, {}",
                e.number,
                e.rapier3d,
                e.parry3d,
                &e.patch_series[..16],
                e.scalar,
                e.features.join(",")
            ),
        ),
        ("settings", config.settings().to_string()),
        (
            "",
            format!(
                "{} solver iterations, core_fraction {:?}",
                p.num_solver_iterations, e.core_fraction
            ),
        ),
        (
            "",
            format!(
                "ccd_relative_motion {}, ccd_persistent_contact_policy {:?}",
                p.ccd_relative_motion, p.ccd_persistent_contact_policy
            ),
        ),
        ("", format!("entry digest {}", hex(&e.digest()))),
        (
            "",
            format!(
                "all {} fields: rapier-pinned versions --fields {}",
                e.fields().len(),
                e.number
            ),
        ),
        ("match id", config.match_id().to_string()),
    ]
}

fn print_rows(rows: &[(&str, String)]) {
    for (name, value) in rows {
        println!("{name:<17}{value}");
    }
}

/// `snapshot inspect`.
pub fn inspect_file(file: &Path, match_id: u64, key_file: Option<&Path>) -> Result<(), Failure> {
    let key = key(key_file)?;
    let bytes = read(file)?;
    println!("{:<17}{} ({} bytes)", "file", file.display(), bytes.len());
    let info = inspect(&bytes).map_err(|e| Failure::Refused(typed(&e)))?;
    let known = WorldConfig::new(info.physics_version).is_ok();
    let mut rows = vec![
        ("format version", info.format_version.to_string()),
        (
            "flags",
            format!(
                "0x{:04x}{}",
                info.flags,
                if info.authenticated { " (MAC)" } else { "" }
            ),
        ),
        (
            "authenticated",
            match (info.authenticated, &key) {
                (false, _) => "no".to_string(),
                (true, None) => "yes (MAC present, not checked: no --key-file)".to_string(),
                (true, Some(_)) => "yes (MAC checked with --key-file below)".to_string(),
            },
        ),
        (
            "physics-version",
            format!(
                "{}{}",
                info.physics_version,
                if !known {
                    " (unknown to this build)"
                } else if info.physics_version == PHYSICS_VERSION_CURRENT {
                    " (current)"
                } else {
                    ""
                }
            ),
        ),
        ("tick", info.tick.to_string()),
        ("config digest", hex(&info.config_digest)),
        ("payload length", format!("{} bytes", info.payload_len)),
        ("checksum", format!("{} (valid)", hex(&info.checksum))),
    ];
    let config = match WorldConfig::new(info.physics_version) {
        Ok(c) => c.with_match_id(match_id),
        Err(e) => {
            print_rows(&rows);
            return Err(Failure::Refused(typed(&e.into())));
        }
    };
    // The settings the snapshot records (its payload's gravity and parameters): the restore
    // below runs under them when the physics-version allows them.
    let (config, recorded) = match recorded_params(&bytes) {
        Ok((gravity, params)) => match GameSettings::of_world(gravity, &params) {
            Some(s) => match config.with_settings(s) {
                Ok(c) => (c, s.to_string()),
                Err(e) => (config, format!("{s}: {}", typed(&e.into()))),
            },
            None => (
                config,
                format!(
                    "gravity {:?}, dt {:?} (not 1/N for a whole N), length_unit {:?}",
                    gravity.to_array(),
                    params.dt,
                    params.length_unit
                ),
            ),
        },
        Err(e) => (config, format!("unreadable: {}", typed(&e))),
    };
    rows.push(("stored settings", recorded));
    rows.extend(config_summary(&config));
    print_rows(&rows);
    match restore(&bytes, config, key.as_ref()) {
        Ok(world) => {
            print_rows(&counts(world.world(), info.payload_len));
            Ok(())
        }
        // Another match's snapshot: what it holds is still shown, and that is not a failure.
        Err(_) if info.config_digest != config.digest() => {
            let (world, _) = PinnedWorld::open_ignoring_match(config, &bytes, key.as_ref())
                .map_err(|e| Failure::Refused(typed(&e)))?;
            println!(
                "(a valid physics-version {} world of another match than {match_id}; decoded \
                 ignoring the match id:)",
                config.physics_version()
            );
            print_rows(&counts(&world, info.payload_len));
            Ok(())
        }
        Err(msg) => Err(Failure::Refused(msg)),
    }
}

/// `snapshot verify`.
pub fn verify(r: &RestoreArgs) -> Result<(), Failure> {
    let (world, info, key) = restore_file(r)?;
    println!(
        "ok: {}: physics-version {}, match {}, tick {}, {} bodies, {} colliders, {} joints, {}; \
         {}",
        r.file.display(),
        world.config().physics_version(),
        r.match_id,
        world.tick(),
        world.bodies().len(),
        world.colliders().len(),
        world.impulse_joints().len() + world.multibody_joints().iter().count(),
        match (info.authenticated, key.is_some()) {
            (true, true) => "MAC verified",
            (true, false) => "MAC present but not checked (no --key-file)",
            (false, _) => "unauthenticated",
        },
        world.config().settings()
    );
    Ok(())
}

/// `snapshot continue`: restores like `verify`, then steps and prints `tick digest` per step.
pub fn continue_file(r: &RestoreArgs, steps: u64) -> Result<(), Failure> {
    let (mut world, _, _) = restore_file(r)?;
    for _ in 0..steps {
        world.step();
        let digest = rapier_pinned_digest::state_digest(world.bodies());
        println!("{} {digest:016x}", world.tick());
    }
    Ok(())
}

/// Restores `r.file` with every check, under `r.physics_version` (default: the header's), its
/// match id and settings.
fn restore_file(
    r: &RestoreArgs,
) -> Result<(PinnedWorld, SnapshotInfo, Option<SnapshotKey>), Failure> {
    let key = key(r.key_file.as_deref())?;
    let bytes = read(&r.file)?;
    // The header's own physics-version unless one is demanded; a header that does not even
    // frame is refused with inspect's reason.
    let info = inspect(&bytes).map_err(|e| Failure::Refused(typed(&e)))?;
    let config = match r.physics_version {
        Some(v) => config(v, r.match_id, &r.settings)?,
        None => r.settings.apply(
            WorldConfig::new(info.physics_version)
                .map_err(|e| Failure::Refused(typed(&e.into())))?
                .with_match_id(r.match_id),
        )?,
    };
    let world = restore(&bytes, config, key.as_ref()).map_err(Failure::Refused)?;
    Ok((world, info, key))
}

/// `snapshot import-upstream`.
pub fn import(
    input: &Path,
    output: &Path,
    match_id: u64,
    key_file: Option<&Path>,
) -> Result<(), Failure> {
    let config = config(1, match_id, &SettingsArgs::default())?;
    let key = key(key_file)?;
    let upstream = read(input)?;
    let mut bytes = import_upstream(config, &upstream).map_err(|e| Failure::Refused(typed(&e)))?;
    let world = PinnedWorld::restore(config, &bytes, None)
        .map_err(|e| Failure::Refused(format!("imported snapshot refused: {}", typed(&e))))?;
    if key.is_some() {
        bytes = world.snapshot(key.as_ref());
    }
    write(output, &bytes)?;
    println!(
        "imported {} ({} bytes of upstream rapier3d 0.36.1 bincode) -> {}: physics-version 1, \
         match {match_id}, tick 0, {} bodies, {} bytes, {}",
        input.display(),
        upstream.len(),
        output.display(),
        world.bodies().len(),
        bytes.len(),
        authentication(key.as_ref())
    );
    Ok(())
}
