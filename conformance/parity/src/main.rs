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
//! `bench-case --case NAME [--min-ms T] [--limit N]`: times benchmark case NAME
//! (`rapier_pinned_scenes::bench_cases`) at upstream defaults, runs repeated for T ms, and prints
//! one line of milliseconds per step for each run: the upstream side of `rapier-pinned-xtask
//! bench` (scripts/bench).
use rapier3d::prelude::IntegrationParameters;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: rapier-pinned-parity                      (per-step digests of every scene and thin-part set)
       rapier-pinned-parity upstream-snapshot --scene NAME --steps N --out FILE
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
