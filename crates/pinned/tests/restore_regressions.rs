//! The committed fuzz reproducers (`fuzz/regressions/restore_then_step/`), replayed in CI: each
//! is a single-byte mutation of a snapshot of the fuzz targets' small world, re-sealed with a
//! valid checksum. `restore` must refuse it, or the world must step (as many steps as the input
//! asks) and snapshot again. Each runs in a child process of this test binary, under a memory
//! limit and a timeout (`common::child`, shared with `restore_mutations.rs`), so an abort, an
//! allocation failure or a hang is counted, not fatal.
//! Every one once crashed the step; none may now (issue 29).

mod common;
#[path = "../fuzz/src/world.rs"]
#[allow(dead_code)]
mod world;

use common::child::{crash_line, Child, Next};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use world::{bases, key, small_world, MutatedSnapshot, BASE_TICKS};

/// What one child process reports on its last line of output.
const REFUSED: &str = "outcome: refused";
const STEPPED: &str = "outcome: stepped";

/// The environment variable naming the reproducer a child replays.
const CASE: &str = "RAPIER_PINNED_REPLAY_CASE";

/// A child's wall time (its address space: `common::child::MEMORY_LIMIT`).
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
    let mut child = Child::spawn("replay_one_reproducer", [(CASE, path)]);
    let deadline = Instant::now() + TIME_LIMIT;
    let mut outcome = None;
    loop {
        match child.next_line(deadline) {
            Next::Line(line) if line.contains(REFUSED) => outcome = Some(Outcome::Refused),
            Next::Line(line) if line.contains(STEPPED) => outcome = Some(Outcome::Stepped),
            Next::Line(_) => {}
            Next::Exited => break,
            Next::TimedOut => {
                child.finish();
                return Outcome::Crashed(format!("no outcome within {TIME_LIMIT:?}"));
            }
        }
    }
    let (status, stderr) = child.finish();
    match outcome {
        Some(outcome) if status.success() => outcome,
        _ => Outcome::Crashed(crash_line(&stderr).unwrap_or_else(|| status.to_string())),
    }
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
        let world = scene.build(config.params());
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
/// under `catch_unwind` besides, as on restore (a panic there would be `Undecodable("panic while
/// decoding: …")`).
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
    assert!(crashed.is_empty(), "reproducers that crash: {crashed:#?}");
}
