//! `rapier-pinned snapshot ...`: save a catalog scene as a pinned snapshot, inspect and verify a
//! snapshot, import a plain-upstream world. Every check is the wrapper's (`rapier_pinned`); this
//! module only reads files, calls it and prints.

use std::path::Path;

use rapier3d::prelude::PhysicsWorld;
use rapier_pinned::{
    import_upstream, inspect, Error, PhysicsVersion, PinnedWorld, SnapshotInfo, SnapshotKey,
    WorldConfig, PHYSICS_VERSION_CURRENT,
};

use crate::{hex, Failure, MatchArgs};

/// A wrapper error as the tool prints it: its message and its kind.
pub fn typed(e: &Error) -> String {
    format!("{e} (kind: {:?})", e.kind())
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

/// The config of physics-version `v` for match `match_id`; an unknown `v` is a usage error.
pub fn config(v: PhysicsVersion, match_id: u64) -> Result<WorldConfig, String> {
    WorldConfig::new(v)
        .map(|c| c.with_match_id(match_id))
        .map_err(|e| format!("--physics-version {v}: {e} (see `rapier-pinned versions`)"))
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
    let mut world =
        PinnedWorld::adopt(config, scene.build(config.entry().params())).map_err(|e| {
            format!(
                "scene '{name}' cannot run under physics-version {v}, which pins every \
                 integration parameter and gravity: {}",
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
        "saved {}: scene {name}, physics-version {v}, match {match_id}, tick {}, {} bodies, {} \
         bytes ({format}), {}",
        out.display(),
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
    let p = e.params();
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
        (
            "",
            format!(
                "dt {:?}, gravity {:?}, {} solver iterations, core_fraction {:?}",
                p.dt, e.gravity, p.num_solver_iterations, e.core_fraction
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
            return Err(Failure::Refused(typed(&e)));
        }
    };
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
pub fn verify(
    file: &Path,
    v: Option<PhysicsVersion>,
    match_id: u64,
    key_file: Option<&Path>,
) -> Result<(), Failure> {
    let (world, info, key) = restore_file(file, v, match_id, key_file)?;
    println!(
        "ok: {}: physics-version {}, match {}, tick {}, {} bodies, {} colliders, {} joints, {}",
        file.display(),
        world.config().physics_version(),
        match_id,
        world.tick(),
        world.bodies().len(),
        world.colliders().len(),
        world.impulse_joints().len() + world.multibody_joints().iter().count(),
        match (info.authenticated, key.is_some()) {
            (true, true) => "MAC verified",
            (true, false) => "MAC present but not checked (no --key-file)",
            (false, _) => "unauthenticated",
        }
    );
    Ok(())
}

/// `snapshot continue`: restores like `verify`, then steps and prints `tick digest` per step.
pub fn continue_file(
    file: &Path,
    steps: u64,
    v: Option<PhysicsVersion>,
    match_id: u64,
    key_file: Option<&Path>,
) -> Result<(), Failure> {
    let (mut world, _, _) = restore_file(file, v, match_id, key_file)?;
    for _ in 0..steps {
        world.step();
        let digest = rapier_pinned_scenes::state_digest(world.bodies());
        println!("{} {digest:016x}", world.tick());
    }
    Ok(())
}

/// Restores `file` with every check, under `v` (default: the header's physics-version).
fn restore_file(
    file: &Path,
    v: Option<PhysicsVersion>,
    match_id: u64,
    key_file: Option<&Path>,
) -> Result<(PinnedWorld, SnapshotInfo, Option<SnapshotKey>), Failure> {
    let key = key(key_file)?;
    let bytes = read(file)?;
    // The header's own physics-version unless one is demanded; a header that does not even
    // frame is refused with inspect's reason.
    let info = inspect(&bytes).map_err(|e| Failure::Refused(typed(&e)))?;
    let config = match v {
        Some(v) => config(v, match_id)?,
        None => WorldConfig::new(info.physics_version)
            .map_err(|e| Failure::Refused(typed(&e)))?
            .with_match_id(match_id),
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
    let config = config(1, match_id)?;
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
