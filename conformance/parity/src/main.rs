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
use rapier3d::prelude::IntegrationParameters;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: rapier-pinned-parity                      (per-step digests of every scene and thin-part set)
       rapier-pinned-parity upstream-snapshot --scene NAME --steps N --out FILE";

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

/// `upstream-snapshot`'s options, parsed by hand (this project has no other dependency to add).
fn upstream_snapshot(args: &[String]) -> Result<(), String> {
    let (mut scene, mut steps, mut out) = (None, None, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--scene" => scene = Some(value.clone()),
            "--steps" => {
                steps = Some(
                    value
                        .parse::<usize>()
                        .map_err(|e| format!("--steps {value}: {e}"))?,
                )
            }
            "--out" => out = Some(value.clone()),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let name = scene.ok_or("--scene is required")?;
    let steps = steps.ok_or("--steps is required")?;
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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            digests();
            Ok(())
        }
        Some("upstream-snapshot") => upstream_snapshot(&args[1..]),
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
