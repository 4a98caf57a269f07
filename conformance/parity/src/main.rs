//! The parity run's upstream side, built against pristine rapier3d 0.36.1.
//!
//! Without arguments: prints `scene step digest` for every step of every catalog scene and of
//! every run of the thin-part perturbation sets, at upstream default settings. Same functions the
//! fork's `rapier-pinned digests` uses.
//!
//! `upstream-snapshot --scene NAME --steps N --out FILE`: builds catalog scene NAME at upstream
//! default settings, steps it N times and writes `bincode::serialize(&PhysicsWorld)` to FILE: a
//! world snapshot exactly as a game on plain upstream would write it (the fixtures of
//! `conformance/snapshots/`, read by `rapier_pinned::import_upstream`).
//!
//! `crashes --steps N FILE...`: each FILE a world as the npm package's `World.takeSnapshot()`
//! wrote it (`conformance/crashes/`), stepped N times at upstream's rules; prints, per file,
//! the step upstream panicked at and its message, or that it completed.
//!
//! `bench-case --case NAME [--min-ms T] [--limit N]`: times benchmark case NAME
//! (`rapier_pinned_scenes::bench_cases`) at upstream defaults, runs repeated for T ms, and prints
//! one line of milliseconds per step for each run: the upstream side of `rapier-pinned-xtask
//! bench` (scripts/bench).
use rapier3d::prelude::{IntegrationParameters, PhysicsWorld};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: rapier-pinned-parity                      (per-step digests of every scene and thin-part set)
       rapier-pinned-parity upstream-snapshot --scene NAME --steps N --out FILE
       rapier-pinned-parity crashes --steps N FILE...
       rapier-pinned-parity bench-case --case NAME [--min-ms T] [--limit N]";

fn digests() {
    let mut out = std::io::stdout().lock();
    for scene in rapier_pinned_scenes::catalog() {
        out.write_all(
            rapier_pinned_scenes::digest_lines(scene, IntegrationParameters::default()).as_bytes(),
        )
        .expect("stdout");
    }
    for set in rapier_pinned_scenes::thin_sets() {
        out.write_all(
            set.digest_lines(IntegrationParameters::default())
                .as_bytes(),
        )
        .expect("stdout");
    }
}

/// A command's `--flag value` options, parsed by hand (this project has no other dependency to
/// add): the value of each flag in `flags`, in that order.
fn options(args: &[String], flags: &[&str]) -> Result<Vec<Option<String>>, String> {
    let mut values = vec![None; flags.len()];
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let index = flags
            .iter()
            .position(|f| f == flag)
            .ok_or_else(|| format!("unknown option {flag}"))?;
        values[index] = Some(value.clone());
    }
    Ok(values)
}

/// `value` of option `flag` as a count.
fn count(flag: &str, value: &str) -> Result<usize, String> {
    value.parse().map_err(|e| format!("{flag} {value}: {e}"))
}

/// `upstream-snapshot`: writes a catalog scene's world after N steps as plain upstream's bincode.
fn upstream_snapshot(args: &[String]) -> Result<(), String> {
    let [scene, steps, out]: [Option<String>; 3] = options(args, &["--scene", "--steps", "--out"])?
        .try_into()
        .expect("three options");
    let name = scene.ok_or("--scene is required")?;
    let steps = count("--steps", &steps.ok_or("--steps is required")?)?;
    let out = out.ok_or("--out is required")?;
    let scene =
        rapier_pinned_scenes::find(&name).ok_or_else(|| format!("unknown scene '{name}'"))?;
    let mut world = scene.build(IntegrationParameters::default());
    for _ in 0..steps {
        world.step();
    }
    let bytes = bincode::serialize(&world).map_err(|e| format!("bincode: {e}"))?;
    std::fs::write(&out, &bytes).map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "upstream-snapshot: {name} after {steps} steps, {} bodies, {} bytes -> {out}",
        world.bodies.len(),
        bytes.len()
    );
    Ok(())
}

/// The bytes after the parameters in a world the package wrote: the fork's two CCD settings
/// (`ccd_relative_motion`, `ccd_persistent_contact_policy`, one byte each), which pristine
/// rapier3d's parameters do not have; 0 and 0 are its defaults, upstream's rules.
const FORK_PARAMETER_BYTES: [u8; 2] = [0, 0];

/// A world as the npm package's `World.takeSnapshot()` wrote it (crates/js-raw `WorldRef`: the
/// fork's bincode of gravity, parameters, islands, broad phase, narrow phase, bodies, colliders,
/// soft bodies, impulse joints, multibody joints), read with pristine rapier3d's types.
fn package_world(bytes: &[u8]) -> Result<PhysicsWorld, String> {
    let mut rd = bytes;
    // One part after the other (a macro: the parts' types differ, and this crate names no serde).
    macro_rules! next {
        ($rd:expr, $what:literal) => {
            bincode::deserialize_from(&mut *$rd).map_err(|e| format!("{}: {e}", $what))?
        };
    }
    let mut world = PhysicsWorld::default();
    world.gravity = next!(&mut rd, "gravity");
    world.integration_parameters = next!(&mut rd, "parameters");
    if !rd.starts_with(&FORK_PARAMETER_BYTES) {
        return Err("the fork's CCD settings are not upstream's".into());
    }
    rd = &rd[FORK_PARAMETER_BYTES.len()..];
    world.islands = next!(&mut rd, "islands");
    world.broad_phase = next!(&mut rd, "broad phase");
    world.narrow_phase = next!(&mut rd, "narrow phase");
    world.bodies = next!(&mut rd, "bodies");
    world.colliders = next!(&mut rd, "colliders");
    world.soft_bodies = next!(&mut rd, "soft bodies");
    world.impulse_joints = next!(&mut rd, "impulse joints");
    world.multibody_joints = next!(&mut rd, "multibody joints");
    if !rd.is_empty() {
        return Err(format!("{} bytes after the world", rd.len()));
    }
    Ok(world)
}

/// `crashes`: steps each package-written world at upstream's rules, catching a panic.
fn crashes(args: &[String]) -> Result<(), String> {
    let [flag, steps, files @ ..] = args else {
        return Err("crashes needs --steps N FILE...".into());
    };
    if flag != "--steps" || files.is_empty() {
        return Err("crashes needs --steps N FILE...".into());
    }
    let steps = count("--steps", steps)?;
    // The panic is the result printed below, not a message for stderr.
    std::panic::set_hook(Box::new(|_| {}));
    for file in files {
        let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
        let mut world = package_world(&bytes).map_err(|e| format!("{file}: {e}"))?;
        let mut outcome = format!("completed {steps} steps");
        for step in 1..=steps {
            let stepped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.step()));
            if let Err(panic) = stepped {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(no message)".into());
                outcome = format!("panicked at step {step}: {message}");
                break;
            }
        }
        println!("{file}: {outcome}");
    }
    Ok(())
}

/// `bench-case`: one sample of the upstream side of `rapier-pinned-xtask bench`.
fn bench_case(args: &[String]) -> Result<(), String> {
    let [case, min_ms, limit]: [Option<String>; 3] =
        options(args, &["--case", "--min-ms", "--limit"])?
            .try_into()
            .expect("three options");
    let name = case.ok_or("--case is required")?;
    let case =
        rapier_pinned_scenes::find_case(&name).ok_or_else(|| format!("unknown case '{name}'"))?;
    let min_ms = min_ms.map_or(Ok(0), |t| count("--min-ms", &t))?;
    let limit = limit.map(|l| count("--limit", &l)).transpose()?;
    for ms_per_step in case.times(IntegrationParameters::default(), limit, min_ms as f64) {
        println!("{ms_per_step}");
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            digests();
            Ok(())
        }
        Some("upstream-snapshot") => upstream_snapshot(&args[1..]),
        Some("crashes") => crashes(&args[1..]),
        Some("bench-case") => bench_case(&args[1..]),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
