//! `rapier-pinned snapshot ...`: save a catalog scene as a pinned snapshot, inspect and verify a
//! snapshot, import a plain-upstream world. Every check is the wrapper's (`rapier_pinned`); this
//! module only reads files, calls it and prints.

use std::path::{Path, PathBuf};

use rapier3d::prelude::{IntegrationParameters, PhysicsWorld, Vector};
use rapier_pinned::{
    import_upstream, inspect, recorded_params_against, recorded_params_on, Baseline, Error,
    GameSettings, Level, PhysicsVersion, PinnedWorld, SnapshotInfo, SnapshotKey, WorldConfig,
    FORMAT_VERSION_3, FORMAT_VERSION_4, PHYSICS_VERSION_CURRENT,
};

use crate::args::{config, key, MatchArgs, RestoreArgs, SettingsArgs};
use crate::failure::Failure;
use crate::show::{hex, typed};

/// `snapshot save|inspect|verify|continue|import-upstream`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Build a catalog scene under a physics-version's pinned parameters and the game's settings,
    /// step it and write its snapshot (authenticated with --key-file).
    ///
    /// The scene is adopted into a pinned world, which refuses a world whose parameters or
    /// gravity differ from the config's: the catalog's zero-gravity scenes (bullets_crossing,
    /// bullet_swarm, blade_into_plate, box_into_rotor) need `--gravity 0,0,0`; under the default
    /// gravity [-0.0, -9.81, -0.0] they are refused with the typed error (ConfigMismatch naming
    /// gravity.x/y/z), exit status 2.
    Save {
        /// Catalog scene (`rapier-pinned scenes --list`).
        #[arg(long, value_name = "NAME")]
        scene: String,
        /// Steps to take before the snapshot (its tick).
        #[arg(long, value_name = "N")]
        steps: u64,
        #[command(flatten)]
        game: MatchArgs,
        /// Output file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Write snapshot format 2 with an LZ4-compressed payload (docs/protocol.md §3.1); the
        /// same as `--format 2`.
        #[arg(long, conflicts_with = "format")]
        compressed: bool,
        /// Snapshot format: 1 (the payload as it is), 2 (LZ4-compressed), 3 (linked: the
        /// level's shapes by reference, a shared shape once, LZ4-compressed; docs/protocol.md
        /// §3.2) or 4 (a delta against --baseline, LZ4-compressed; §3.4).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=4))]
        format: u16,
        /// For format 4: a snapshot of the same match at an earlier tick (any format), which
        /// the receiver holds; the delta is written against its world.
        #[arg(long, value_name = "FILE", required_if_eq("format", "4"))]
        baseline: Option<PathBuf>,
        /// For a scene on a level (`trimesh_level`): where to write the level, the file a
        /// restore needs (`--level` of verify, continue and inspect). Its id is in the config
        /// digest.
        #[arg(long, value_name = "FILE")]
        level: Option<PathBuf>,
    },
    /// Print a snapshot's header and the settings it records; then restore it under its
    /// physics-version, those settings and --match-id and print the config summary,
    /// body/collider/joint counts and payload size per body.
    ///
    /// A snapshot that is a valid world of another match is shown too (exit status 0, the
    /// counts printed as decoded ignoring the match id). Exit status 1 if the header is refused
    /// or the snapshot does not restore for any match (the reason names the typed error).
    Inspect {
        /// Snapshot file.
        file: PathBuf,
        /// Match id to restore it for (the config digest covers it and cannot be read back).
        #[arg(long, value_name = "M", default_value_t = 0)]
        match_id: u64,
        /// Also check the MAC with this key: 32 raw bytes or 64 hex digits (+ optional newline).
        #[arg(long, value_name = "F")]
        key_file: Option<PathBuf>,
        /// The level the world is on (`snapshot save --level`): needed by a format-3 snapshot
        /// that names one, and part of the config digest.
        #[arg(long, value_name = "FILE")]
        level: Option<PathBuf>,
        /// For a delta (format 4): the snapshot it is written against (`snapshot save
        /// --baseline`).
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
    },
    /// Restore a snapshot with every check of docs/protocol.md; print `ok: ...` and exit 0, or the
    /// typed reason (message and kind) on stderr and exit 1.
    ///
    /// The line ends with the payload id, the BLAKE3 of the world's format-1 payload: one world
    /// has one payload id in every format, though formats 2-4 store bytes that depend on the
    /// writer's word size; a delta written against the snapshot names it.
    ///
    /// Without --key-file an authenticated snapshot is accepted once its checksum verifies (its
    /// MAC is not checked: the wrapper's decision); with one, the MAC must be present and match.
    Verify {
        #[command(flatten)]
        restore: RestoreArgs,
    },
    /// Restore a snapshot with every check (like verify), step it and print `tick digest` after
    /// each step (the per-step state digest of crates/scenes).
    Continue {
        #[command(flatten)]
        restore: RestoreArgs,
        /// Steps to take after the restore.
        #[arg(long, value_name = "N")]
        steps: u64,
    },
    /// Convert a plain `bincode::serialize(&PhysicsWorld)` of upstream rapier3d 0.36.1 into a
    /// physics-version 1 snapshot at tick 0 (rapier_pinned::import_upstream).
    ///
    /// The world must have upstream's default parameters and gravity (physics-version 1 is
    /// upstream's behaviour); anything else is refused with the typed error, exit status 1.
    ImportUpstream {
        /// Upstream world (bincode).
        input: PathBuf,
        /// Snapshot to write.
        output: PathBuf,
        /// Match id of the snapshot.
        #[arg(long, value_name = "M", default_value_t = 0)]
        match_id: u64,
        /// Authenticate the snapshot with this key: 32 raw bytes or 64 hex digits (+ optional
        /// newline).
        #[arg(long, value_name = "F")]
        key_file: Option<PathBuf>,
    },
}

/// Runs the subcommand. A snapshot (or upstream world) the wrapper refuses is refused; usage
/// and I/O errors, and a scene that cannot be adopted, are usage errors.
pub fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Save {
            scene,
            steps,
            game,
            out,
            compressed,
            format,
            baseline,
            level,
        } => {
            let format = if compressed { 2 } else { format };
            let files = (level.as_deref(), baseline.as_deref());
            save(&scene, steps, &game, &out, format, files)
        }
        Command::Inspect {
            file,
            match_id,
            key_file,
            level,
            baseline,
        } => {
            let files = (level.as_deref(), baseline.as_deref());
            inspect_file(&file, match_id, key_file.as_deref(), files)
        }
        Command::Verify { restore } => verify(&restore),
        Command::Continue { restore, steps } => continue_file(&restore, steps),
        Command::ImportUpstream {
            input,
            output,
            match_id,
            key_file,
        } => import(&input, &output, match_id, key_file.as_deref()),
    }
}

/// The bytes of `path`; the error names the file.
fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `bytes` to `path`; the error names the file.
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

/// The level in `path` (any id: a restore checks it against the snapshot's).
pub fn read_level(path: &Path) -> Result<Level, Failure> {
    let bytes = read(path).map_err(Failure::Usage)?;
    Level::read(&bytes).map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))
}

/// The baseline of the snapshot `bytes` (any format, read from `path`) restored under `config`:
/// what a delta against it is written against, or read with.
fn baseline_of(
    path: &Path,
    bytes: &[u8],
    config: WorldConfig,
    key: Option<&SnapshotKey>,
    level: Option<&Level>,
) -> Result<Baseline, Failure> {
    let world = restore(bytes, config, key, level, None).map_err(|e| {
        Failure::Usage(format!(
            "{}: not a snapshot of this match, so no baseline: {e}",
            path.display()
        ))
    })?;
    Ok(world.baseline())
}

/// `config` on the world's level: the one given, else the one the snapshot names (a restore then
/// refuses the snapshot as missing its level, naming the id).
fn on_level(config: WorldConfig, level: Option<&Level>, info: &SnapshotInfo) -> WorldConfig {
    match level.map(Level::id).or(info.level) {
        Some(id) => config.with_level(id),
        None => config,
    }
}

/// A scene's world under `config` (with its level when the scene is on one, written to
/// `level_out`), before it is adopted.
pub fn build_scene(
    name: &str,
    config: WorldConfig,
    level_out: Option<&Path>,
) -> Result<(PhysicsWorld, WorldConfig, Option<Level>), Failure> {
    if name == rapier_pinned_scenes::LEVEL_SCENE {
        let (world, shapes) = rapier_pinned_scenes::trimesh_level(config.params());
        let level = Level::new(shapes).expect("the level scene's shapes serialize");
        let out = level_out.ok_or_else(|| {
            Failure::Usage(format!(
                "scene '{name}' is on a level: --level FILE says where to write it"
            ))
        })?;
        write(out, level.bytes()).map_err(Failure::Usage)?;
        return Ok((world, config.with_level(level.id()), Some(level)));
    }
    if level_out.is_some() {
        return Err(Failure::Usage(format!(
            "scene '{name}' is on no level (--level is for {})",
            rapier_pinned_scenes::LEVEL_SCENE
        )));
    }
    // A spin case (`spin_1e3` to `spin_1e7`, zero gravity): what one body spinning without bound
    // costs a server's tick (`docs/physics-engine.md`, "What one step can cost").
    if let Some(&(_, spin)) = (rapier_pinned_scenes::SPIN_CASES.iter()).find(|(c, _)| *c == name) {
        let mut world = PhysicsWorld::new();
        world.integration_parameters = config.params();
        rapier_pinned_scenes::spin_scene(&mut world, spin);
        return Ok((world, config, None));
    }
    let scene = rapier_pinned_scenes::find(name)
        .ok_or_else(|| format!("unknown scene '{name}' (see `rapier-pinned scenes --list`)"))
        .map_err(Failure::Usage)?;
    Ok((scene.build(config.params()), config, None))
}

/// `snapshot save` in snapshot format `format` (1-4); `files` are where to write the level and
/// which snapshot is the baseline of a delta.
fn save(
    name: &str,
    steps: u64,
    game: &MatchArgs,
    out: &Path,
    format: u16,
    (level_out, baseline_file): (Option<&Path>, Option<&Path>),
) -> Result<(), Failure> {
    let (v, match_id) = (game.physics_version, game.match_id);
    let config = game.config().map_err(Failure::Usage)?;
    let key = game.key().map_err(Failure::Usage)?;
    let (built, config, level) = build_scene(name, config, level_out)?;
    // A scene the pinned world cannot adopt is a command that cannot do its job, not a refused
    // snapshot.
    let mut world = PinnedWorld::adopt(config, built).map_err(|e| {
        Failure::Usage(format!(
            "scene '{name}' cannot run under physics-version {v} with settings {}: {}",
            config.settings(),
            typed(&e)
        ))
    })?;
    for _ in 0..steps {
        world.step();
    }
    let (bytes, format) = match format {
        1 => (world.snapshot(key.as_ref()), "format 1".to_string()),
        2 => (
            world.snapshot_compressed(key.as_ref()),
            "format 2, compressed".to_string(),
        ),
        4 => {
            let file = baseline_file.expect("clap requires --baseline with --format 4");
            let bytes = read(file).map_err(Failure::Usage)?;
            let baseline = baseline_of(file, &bytes, config, key.as_ref(), level.as_ref())?;
            (
                world.snapshot_delta(&baseline, key.as_ref()),
                format!(
                    "format 4, a delta against {} ({})",
                    file.display(),
                    baseline.id()
                ),
            )
        }
        _ => (
            world
                .snapshot_linked(level.as_ref(), key.as_ref())
                .expect("the config's own level"),
            match &level {
                Some(l) => format!("format 3, linked to level {}", l.id()),
                None => "format 3, linked, no level".to_string(),
            },
        ),
    };
    write(out, &bytes).map_err(Failure::Usage)?;
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

/// Restores `bytes` under `config` (a delta against `baseline`). On a config-digest mismatch,
/// says whether the payload is otherwise fine for the physics-version, i.e. whether the snapshot
/// is of another match.
fn restore(
    bytes: &[u8],
    config: WorldConfig,
    key: Option<&SnapshotKey>,
    level: Option<&Level>,
    baseline: Option<&Baseline>,
) -> Result<PinnedWorld, String> {
    let restored = match baseline {
        Some(baseline) => PinnedWorld::restore_delta(config, baseline, bytes, key),
        None => PinnedWorld::restore_on(config, level, bytes, key),
    };
    restored.map_err(|e| {
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
                "ccd_relative_motion {:?}, ccd_persistent_contact_policy {:?}",
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

/// Prints `name value` rows, the names in a column of 17.
fn print_rows(rows: &[(&str, String)]) {
    for (name, value) in rows {
        println!("{name:<17}{value}");
    }
}

/// `snapshot inspect`.
fn inspect_file(
    file: &Path,
    match_id: u64,
    key_file: Option<&Path>,
    (level_file, baseline_file): (Option<&Path>, Option<&Path>),
) -> Result<(), Failure> {
    let key = key(key_file).map_err(Failure::Usage)?;
    let level = level_file.map(read_level).transpose()?;
    let bytes = read(file).map_err(Failure::Usage)?;
    println!("{:<17}{} ({} bytes)", "file", file.display(), bytes.len());
    let info = inspect(&bytes).map_err(|e| Failure::Refused(typed(&e)))?;
    let known = WorldConfig::new(info.header.physics_version).is_ok();
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
                info.header.physics_version,
                if !known {
                    " (unknown to this build)"
                } else if info.header.physics_version == PHYSICS_VERSION_CURRENT {
                    " (current)"
                } else {
                    ""
                }
            ),
        ),
        ("tick", info.header.tick.to_string()),
        ("config digest", hex(&info.header.config_digest)),
        ("payload length", format!("{} bytes", info.payload_len)),
        ("checksum", format!("{} (valid)", hex(&info.checksum))),
    ];
    if info.format_version == FORMAT_VERSION_3 {
        rows.push((
            "level",
            info.level.map_or("none".to_string(), |id| id.to_string()),
        ));
    }
    if let (FORMAT_VERSION_4, Some(id)) = (info.format_version, info.baseline) {
        rows.push(("baseline", id.to_string()));
    }
    let config = match WorldConfig::new(info.header.physics_version) {
        Ok(c) => on_level(c.with_match_id(match_id), level.as_ref(), &info),
        Err(e) => {
            print_rows(&rows);
            return Err(Failure::Refused(typed(&e.into())));
        }
    };
    // A delta's baseline is restored under the settings its own file records.
    let baseline = match baseline_file {
        None => None,
        Some(file) => {
            let bytes = read(file).map_err(Failure::Usage)?;
            let (c, _) = recorded_config(config, recorded_params_on(&bytes, level.as_ref()));
            Some(baseline_of(file, &bytes, c, key.as_ref(), level.as_ref())?)
        }
    };
    // The settings the snapshot records (its payload's gravity and parameters): the restore
    // below runs under them when the physics-version allows them.
    let recorded = match &baseline {
        Some(baseline) => recorded_params_against(&bytes, baseline),
        None => recorded_params_on(&bytes, level.as_ref()),
    };
    let (config, recorded) = recorded_config(config, recorded);
    rows.push(("stored settings", recorded));
    rows.extend(config_summary(&config));
    print_rows(&rows);
    match restore(
        &bytes,
        config,
        key.as_ref(),
        level.as_ref(),
        baseline.as_ref(),
    ) {
        Ok(world) => {
            print_rows(&counts(world.world(), info.payload_len));
            Ok(())
        }
        // Another match's snapshot: what it holds is still shown, and that is not a failure.
        Err(_) if info.header.config_digest != config.digest() => {
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

/// `config` under the settings a snapshot records (`recorded`, its gravity and parameters) when
/// the physics-version allows them, and those settings as `inspect` prints them.
fn recorded_config(
    config: WorldConfig,
    recorded: Result<(Vector, IntegrationParameters), Error>,
) -> (WorldConfig, String) {
    match recorded {
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
    }
}

/// `snapshot verify`. The line ends with the payload id: the BLAKE3 of the restored world's
/// format-1 payload, the same for every format of one world (formats 2-4 store bytes that depend
/// on the writer's word size; their canonical form is that payload) and the id a delta written
/// against the snapshot names.
fn verify(r: &RestoreArgs) -> Result<(), Failure> {
    let (world, info, key) = restore_file(r)?;
    println!(
        "ok: {}: physics-version {}, match {}, tick {}, {} bodies, {} colliders, {} joints, {}; \
         {}; payload id {}",
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
        world.config().settings(),
        world.baseline().id()
    );
    Ok(())
}

/// `snapshot continue`: restores like `verify`, then steps and prints `tick digest` per step.
fn continue_file(r: &RestoreArgs, steps: u64) -> Result<(), Failure> {
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
    let key = key(r.key_file.as_deref()).map_err(Failure::Usage)?;
    let level = r.level.as_deref().map(read_level).transpose()?;
    let bytes = read(&r.file).map_err(Failure::Usage)?;
    // The header's own physics-version unless one is demanded; a header that does not even
    // frame is refused with inspect's reason.
    let info = inspect(&bytes).map_err(|e| Failure::Refused(typed(&e)))?;
    let config = match r.physics_version {
        Some(v) => config(v, r.match_id, &r.settings).map_err(Failure::Usage)?,
        None => r
            .settings
            .apply(
                WorldConfig::new(info.header.physics_version)
                    .map_err(|e| Failure::Refused(typed(&e.into())))?
                    .with_match_id(r.match_id),
            )
            .map_err(Failure::Usage)?,
    };
    let config = on_level(config, level.as_ref(), &info);
    let baseline = match r.baseline.as_deref() {
        None => None,
        Some(file) => {
            let bytes = read(file).map_err(Failure::Usage)?;
            Some(baseline_of(
                file,
                &bytes,
                config,
                key.as_ref(),
                level.as_ref(),
            )?)
        }
    };
    let world = restore(
        &bytes,
        config,
        key.as_ref(),
        level.as_ref(),
        baseline.as_ref(),
    )
    .map_err(Failure::Refused)?;
    Ok((world, info, key))
}

/// `snapshot import-upstream`.
fn import(
    input: &Path,
    output: &Path,
    match_id: u64,
    key_file: Option<&Path>,
) -> Result<(), Failure> {
    let config =
        config(PhysicsVersion::V1, match_id, &SettingsArgs::default()).map_err(Failure::Usage)?;
    let key = key(key_file).map_err(Failure::Usage)?;
    let upstream = read(input).map_err(Failure::Usage)?;
    let mut bytes = import_upstream(config, &upstream).map_err(|e| Failure::Refused(typed(&e)))?;
    let world = PinnedWorld::restore(config, &bytes, None)
        .map_err(|e| Failure::Refused(format!("imported snapshot refused: {}", typed(&e))))?;
    if key.is_some() {
        bytes = world.snapshot(key.as_ref());
    }
    write(output, &bytes).map_err(Failure::Usage)?;
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
