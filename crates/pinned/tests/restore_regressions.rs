//! The committed fuzz reproducers (`fuzz/regressions/restore_then_step/`), replayed in CI: each
//! is a single-byte mutation of a snapshot of the fuzz targets' small world, re-sealed with a
//! valid checksum. `restore` must refuse it, or the world must step (as many steps as the input
//! asks) and snapshot again. Each runs in a child process of this test binary, under a memory
//! limit and a timeout, so an abort, an allocation failure or a hang is counted, not fatal.
//!
//! The reproducers that still crash are listed in [`STILL_CRASHING`]: the test fails when one of
//! them stops crashing (take it off the list) and when any other one crashes.

#[path = "../fuzz/src/world.rs"]
#[allow(dead_code)]
mod world;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use world::{bases, key, small_world, MutatedSnapshot, BASE_TICKS};

/// The reproducers no validation refuses yet; each still crashes the step. What is left to take
/// them off (issue 29): the narrow phase's manifolds and solver tables.
const STILL_CRASHING: &[&str] = &[
    "step-contact_manifolds_composite_shape_shape-103",
    "step-contact_manifolds_heightfield_shape-130",
    "step-contact_with_twist_friction-196",
    "step-interaction_groups-278-alloc-64GiB",
    "step-manifold_store-117",
    "step-narrow_phase-remove_pair-swap_remove",
];

/// What one child process reports on its last line of output.
const REFUSED: &str = "outcome: refused";
const STEPPED: &str = "outcome: stepped";

/// The environment variable naming the reproducer a child replays.
const CASE: &str = "RAPIER_PINNED_REPLAY_CASE";

/// A child's limits: address space (bytes) and wall time.
const MEMORY_LIMIT: u64 = 2 << 30;
const TIME_LIMIT: Duration = Duration::from_secs(30);

/// Where the reproducers are.
fn regressions() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/restore_then_step")
}

fn reproducers() -> Vec<PathBuf> {
    let dir = regressions();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    files
}

/// The child's part: replays the reproducer named by [`CASE`] and prints its outcome. Run only
/// by [`reproducers_are_refused_or_step`], with `--ignored`.
#[test]
#[ignore = "the child process of reproducers_are_refused_or_step"]
fn replay_one_reproducer() {
    let path = std::env::var(CASE).expect("run by reproducers_are_refused_or_step");
    let input = std::fs::read(&path).expect("the reproducer");
    let snapshot = MutatedSnapshot::new(&bases(), &input).expect("a non-empty reproducer");
    let mut world = small_world(BASE_TICKS[0]);
    let key = key();
    let key = snapshot.authenticated.then_some(&key);
    match world.restore_into(&snapshot.bytes, key) {
        Err(e) => println!("{REFUSED} ({:?}: {e})", e.kind()),
        Ok(()) => {
            for _ in 0..snapshot.steps {
                world.step();
            }
            let _ = world.snapshot(None);
            println!("{STEPPED}");
        }
    }
}

/// How one reproducer went.
#[derive(Debug, PartialEq)]
enum Outcome {
    Refused,
    Stepped,
    /// Anything else: a panic, an abort, the memory limit, the timeout.
    Crashed(String),
}

/// Runs the reproducer at `path` in a child process under the limits.
fn run_child(path: &Path) -> Outcome {
    let exe = std::env::current_exe().expect("the test binary");
    // `ulimit -v` takes KiB; the shell then runs the test binary itself, with only the child test.
    let script = format!("ulimit -v {} && exec \"$0\" \"$@\"", MEMORY_LIMIT >> 10);
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .arg(&exe)
        .args([
            "--ignored",
            "--exact",
            "replay_one_reproducer",
            "--nocapture",
        ])
        .args(["--test-threads", "1"])
        .env(CASE, path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the child");
    let started = Instant::now();
    loop {
        match child.try_wait().expect("wait for the child") {
            Some(_) => break,
            None if started.elapsed() > TIME_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Outcome::Crashed(format!("no outcome within {TIME_LIMIT:?}"));
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    let output = child.wait_with_output().expect("the child's output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    if output.status.success() && stdout.contains(REFUSED) {
        return Outcome::Refused;
    }
    if output.status.success() && stdout.contains(STEPPED) {
        return Outcome::Stepped;
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let panic = (stderr.lines())
        .find(|l| l.contains("panicked at") || l.contains("memory allocation"))
        .map(|l| l.trim().to_string());
    Outcome::Crashed(panic.unwrap_or_else(|| format!("{}", output.status)))
}

/// The validation refuses none of the worlds the reproducers start from: every base, unmutated
/// and sealed as a reproducer would be, restores.
#[test]
fn the_unmutated_bases_restore() {
    let bases = bases();
    for selector in 0u8..4 {
        let snapshot = MutatedSnapshot::new(&bases, &[selector]).expect("a selector");
        assert!(!snapshot.mutated);
        let mut world = small_world(BASE_TICKS[0]);
        let key = key();
        let key = snapshot.authenticated.then_some(&key);
        world
            .restore_into(&snapshot.bytes, key)
            .unwrap_or_else(|e| panic!("base {selector}: {e}"));
    }
}

/// The validation refuses no world the engine builds: every catalog scene the current version
/// can run, snapshotted every 7 ticks of its run (sleeping, waking, contacts starting and
/// stopping, pairs and islands coming and going), restores; and so does the small world at
/// every tick of its first 60.
#[test]
fn every_world_the_engine_builds_restores() {
    let config = rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let mut restored = 0;
    for scene in rapier_pinned_scenes::catalog() {
        let world = scene.build(config.entry().params());
        let Ok(mut world) = rapier_pinned::PinnedWorld::adopt(config, world) else {
            continue; // A scene with settings of its own (zero gravity).
        };
        let steps = if scene.name.starts_with("mixed") {
            8
        } else {
            scene.steps
        };
        for tick in 0..=steps {
            if tick % 7 == 0 {
                let bytes = world.snapshot(None);
                if let Err(e) = rapier_pinned::PinnedWorld::restore(config, &bytes, None) {
                    panic!("{} at tick {tick}: {e}", scene.name);
                }
                restored += 1;
            }
            world.step();
        }
    }
    let mut world = small_world(0);
    for tick in 0..60 {
        let bytes = world.snapshot(None);
        let mut again = small_world(0);
        if let Err(e) = again.restore_into(&bytes, None) {
            panic!("the small world at tick {tick}: {e}");
        }
        world.step();
    }
    assert!(restored > 100, "{restored} snapshots of the catalog");
}

/// `adopt` refuses, with a typed error and no panic, the worlds of the two reproducers whose
/// multibody tables once made rapier's `MultibodyJointSet::iter` panic inside the checks:
/// `MultibodyJointSet::validate` now refuses them before any accessor runs, and the checks run
/// under `catch_unwind` besides (a panic there would be `Structural("panic while validating:
/// …")`).
#[test]
fn adopt_refuses_the_worlds_whose_checks_once_panicked() {
    let dir = regressions();
    for name in [
        "caught-multibody_joint_set-107",
        "caught-multibody_joint_set-108",
    ] {
        let input = std::fs::read(dir.join(name)).expect("the reproducer");
        let snapshot = MutatedSnapshot::new(&bases(), &input).expect("a reproducer");
        let world: rapier3d::prelude::PhysicsWorld =
            bincode::deserialize(&snapshot.payload).expect("the payload decodes");
        match rapier_pinned::PinnedWorld::adopt(world::config(), world) {
            Err(rapier_pinned::Error::Structural(msg)) => {
                assert!(msg.contains("MultibodyJointSet"), "{name}: {msg}")
            }
            Err(e) => panic!("{name}: refused for another reason: {e}"),
            Ok(_) => panic!("{name}: adopted"),
        }
    }
}

#[test]
fn reproducers_are_refused_or_step() {
    let files = reproducers();
    assert!(files.len() >= 36, "the reproducers are missing");
    let (mut refused, mut stepped, mut crashed) = (0, 0, Vec::new());
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let outcome = run_child(path);
        println!("{name}: {outcome:?}");
        match outcome {
            Outcome::Refused => refused += 1,
            Outcome::Stepped => stepped += 1,
            Outcome::Crashed(why) => crashed.push((name, why)),
        }
    }
    println!(
        "{} reproducers: {refused} refused, {stepped} stepped, {} crashed",
        files.len(),
        crashed.len()
    );
    let crashed_names: Vec<&str> = crashed.iter().map(|(n, _)| n.as_str()).collect();
    let new: Vec<_> = crashed
        .iter()
        .filter(|(n, _)| !STILL_CRASHING.contains(&n.as_str()))
        .collect();
    let fixed: Vec<_> = (STILL_CRASHING.iter())
        .filter(|n| !crashed_names.contains(n))
        .collect();
    assert!(new.is_empty(), "reproducers that crash: {new:#?}");
    assert!(
        fixed.is_empty(),
        "no longer crash, take them off STILL_CRASHING: {fixed:?}"
    );
}
