//! Snapshot-resume determinism: for every catalog scene under physics-versions 1, 2 and 3, a world
//! restored from a snapshot taken at step k — or cloned at step k — continues exactly like the
//! uninterrupted run — the same per-step state digest and the same snapshot bytes at the end —
//! and a snapshot's bytes are a function of the world (twice the same; a restored world
//! re-serializes to them).

use rapier_pinned::{Error, GameSettings, PhysicsVersion, PinnedWorld, WorldConfig};
use rapier_pinned_scenes::{catalog, state_digest, Scene};

/// The scene under `config` with the scene's own gravity as the game's setting (the catalog's
/// zero-gravity scenes: `[0, 0, 0]`), and that config.
fn build(scene: &Scene, config: WorldConfig) -> (WorldConfig, PinnedWorld) {
    let world = scene.build(config.params());
    let settings = GameSettings {
        gravity: world.gravity.to_array(),
        ..config.settings()
    };
    let config = config.with_settings(settings).unwrap();
    (config, PinnedWorld::adopt(config, world).unwrap())
}

#[test]
fn adopt_refuses_zero_gravity() {
    let config = WorldConfig::new(PhysicsVersion::V2).unwrap();
    let world = rapier_pinned_scenes::find("bullets_crossing")
        .unwrap()
        .build(config.params());
    let Err(Error::ConfigMismatch(diffs)) = PinnedWorld::adopt(config, world) else {
        panic!("a zero-gravity world was adopted");
    };
    let fields: Vec<&str> = diffs.iter().map(|d| d.field).collect();
    assert_eq!(fields, ["gravity.x", "gravity.y", "gravity.z"]);
}

fn check_scene(scene: &Scene, version: PhysicsVersion) {
    let config = WorldConfig::new(version).unwrap().with_match_id(42);
    let steps = scene.steps as u64;
    let points: Vec<u64> = if scene.name == "mixed_5000" {
        vec![steps / 2]
    } else {
        vec![1, steps / 3, 2 * steps / 3]
    };
    let (config, mut world) = build(scene, config);
    let mut digests = Vec::new();
    let mut snapshots = Vec::new();
    let mut clones = Vec::new();
    while world.tick() < steps {
        if points.contains(&world.tick()) {
            let bytes = world.snapshot(None);
            let clone = world.clone();
            assert_eq!(
                clone.snapshot(None),
                bytes,
                "{}: a clone's snapshot",
                scene.name
            );
            clones.push(clone);
            assert_eq!(
                bytes,
                world.snapshot(None),
                "{}: two snapshots differ",
                scene.name
            );
            snapshots.push((world.tick(), bytes));
        }
        world.step();
        digests.push(state_digest(&world.world().bodies));
    }
    let end = world.snapshot(None);
    let restored = snapshots.into_iter().map(|(tick, bytes)| {
        let resumed = PinnedWorld::restore(config, &bytes, None).unwrap();
        assert_eq!(
            resumed.snapshot(None),
            bytes,
            "{} v{version}: restored world re-serializes differently (tick {tick})",
            scene.name
        );
        ("restored", resumed)
    });
    let cloned = clones.into_iter().map(|c| ("cloned", c));
    for (how, mut resumed) in restored.chain(cloned).collect::<Vec<_>>() {
        let tick = resumed.tick();
        while resumed.tick() < steps {
            resumed.step();
            let step = resumed.tick();
            assert_eq!(
                state_digest(&resumed.world().bodies),
                digests[step as usize - 1],
                "{} v{version}: {how} at {tick}, diverges at step {step}",
                scene.name
            );
        }
        assert_eq!(
            resumed.snapshot(None),
            end,
            "{} v{version}: {how} at {tick}, final snapshot differs",
            scene.name
        );
    }
}

#[test]
fn every_scene_resumes_bit_for_bit_v1() {
    for scene in catalog() {
        check_scene(scene, PhysicsVersion::V1);
    }
}

#[test]
fn every_scene_resumes_bit_for_bit_v2() {
    for scene in catalog() {
        check_scene(scene, PhysicsVersion::V2);
    }
}

/// Version 3's depth rule keeps a cache of end contacts that is not in the snapshot: a restored
/// world, which starts without it, must still continue bit for bit.
#[test]
fn every_scene_resumes_bit_for_bit_v3() {
    for scene in catalog() {
        check_scene(scene, PhysicsVersion::V3);
    }
}

/// Version 4's side rule and bounded slices, version 5's bounded casts and version 6's surface
/// bound keep no state across steps beyond version 3's caches: a restored world continues bit
/// for bit.
#[test]
fn every_scene_resumes_bit_for_bit_v4_to_v6() {
    for scene in catalog() {
        check_scene(scene, PhysicsVersion::V4);
        check_scene(scene, PhysicsVersion::V5);
        check_scene(scene, PhysicsVersion::V6);
    }
}
