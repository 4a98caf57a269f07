//! `rapier-pinned conformance`: every vector suite under `conformance/`, one line each.

use rapier3d::prelude::*;
use rapier_pinned::{import_upstream, PhysicsVersion, PinnedWorld, WorldConfig};
use rapier_pinned_conformance::{conformance_dir, snapshot_vectors, sweep_check};
use rapier_pinned_digest::state_digest;
use rapier_pinned_scenes::find;

use crate::args::physics_versions;
use crate::failure::Failure;

/// Runs every suite of every released physics-version and prints one line per suite, then the
/// total. A failed case is a failed check; a suite that cannot run is a usage error.
pub fn run() -> Result<(), Failure> {
    let all = physics_versions(true, &[]);
    let (mut passed, mut failed) = (0, 0);
    for suite in suites(&all).map_err(Failure::Usage)? {
        for failure in &suite.failures {
            eprintln!("  {failure}");
        }
        println!(
            "{:<28} {:>6} passed, {} failed",
            suite.name,
            suite.cases - suite.failed,
            suite.failed
        );
        passed += suite.cases - suite.failed;
        failed += suite.failed;
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        return Err(Failure::Failed(format!(
            "{failed} conformance cases failed"
        )));
    }
    Ok(())
}

/// One suite's outcome: its name, its cases, how many failed and what to print about them.
pub struct Suite {
    pub name: String,
    pub cases: usize,
    pub failed: usize,
    pub failures: Vec<String>,
}

/// The suites for `versions`: the sweeps (version-independent), each version's snapshot
/// vectors, and the pristine-upstream snapshots when version 1 is among them.
pub fn suites(versions: &[PhysicsVersion]) -> Result<Vec<Suite>, String> {
    let slop = IntegrationParameters::default().allowed_linear_error();
    let (fixed, random) = sweep_check::run_all(slop).map_err(|e| e.to_string())?;
    // A case fails by a failed query, a miss, a false hit, a late hit or a hit too far apart
    // (the gates of `Report::passed`); the figures are printed by `rapier-pinned sweeps`.
    let sweep = |name: &str, r: &sweep_check::Report| Suite {
        name: name.into(),
        cases: r.cases,
        failed: r.failed_cases(),
        failures: if r.passed() {
            Vec::new()
        } else {
            vec![format!("{name}: {r}")]
        },
    };
    let mut out = vec![
        sweep("sweeps/fixed.json", &fixed),
        sweep("sweeps/random.csv", &random),
    ];
    for &v in versions {
        let (passed, failures) = snapshot_vectors::check(v).map_err(|e| e.to_string())?;
        out.push(Suite {
            name: format!("snapshots/{v}"),
            cases: passed + failures.len(),
            failed: failures.len(),
            failures,
        });
    }
    if versions.contains(&PhysicsVersion::V1) {
        out.push(upstream_snapshots()?);
    }
    Ok(out)
}

/// Steps after an imported upstream snapshot that must match the fork stepping from scratch.
const CONTINUE: usize = 30;

/// `conformance/snapshots/upstream-0.36.1-<scene>-<steps>.bin`, written by pristine upstream:
/// each imports as a physics-version 1 snapshot and continues exactly like the fork stepping the
/// scene from scratch under version 1.
fn upstream_snapshots() -> Result<Suite, String> {
    let dir = conformance_dir().join("snapshots");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no upstream snapshot fixtures", dir.display()));
    }
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| {
            upstream_case(path)
                .err()
                .map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    Ok(Suite {
        name: "snapshots/upstream-0.36.1".into(),
        cases: files.len(),
        failed: failures.len(),
        failures,
    })
}

/// One upstream fixture: imports it and steps it on against the fork stepping from scratch; Err
/// names the first step whose digests differ, or why it could not run.
fn upstream_case(path: &std::path::Path) -> Result<(), String> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let (scene, steps) = stem
        .strip_prefix("upstream-0.36.1-")
        .and_then(|rest| rest.rsplit_once('-'))
        .and_then(|(scene, steps)| Some((find(scene)?, steps.parse::<usize>().ok()?)))
        .ok_or("name is not upstream-0.36.1-<catalog scene>-<steps>.bin")?;
    let config = WorldConfig::new(PhysicsVersion::V1).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let snapshot = import_upstream(config, &bytes).map_err(|e| e.to_string())?;
    let mut imported = PinnedWorld::restore(config, &snapshot, None).map_err(|e| e.to_string())?;
    let mut fresh = scene.build(config.params());
    for _ in 0..steps {
        fresh.step();
    }
    for step in 1..=CONTINUE {
        imported.step();
        fresh.step();
        let (a, b) = (state_digest(imported.bodies()), state_digest(&fresh.bodies));
        if a != b {
            return Err(format!(
                "step {step} after import: digest {a:016x}, fork from scratch {b:016x}"
            ));
        }
    }
    Ok(())
}
