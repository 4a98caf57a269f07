//! The worlds the differential test's programs found (`conformance/crashes/`,
//! `conformance/hangs/`), read natively: shared by the tests that step them.
use rapier3d::prelude::*;
use std::path::{Path, PathBuf};

/// The fixtures: every `*.world` in `conformance/<folder>/`, sorted.
pub fn fixtures(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance")
        .join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the fixtures' folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "world"))
        .collect();
    files.sort();
    files
}

/// A world as the npm package's `World.takeSnapshot()` wrote it: the fork's bincode of its parts
/// in crates/js-raw's `WorldRef` order (the parity side reads the same bytes with upstream's
/// types, see conformance/parity).
pub fn package_world(bytes: &[u8]) -> PhysicsWorld {
    let mut rd = bytes;
    macro_rules! next {
        ($what:literal) => {
            bincode::deserialize_from(&mut rd).expect($what)
        };
    }
    // A struct expression evaluates its fields in the order written: the bytes' order.
    let world = PhysicsWorld {
        gravity: next!("gravity"),
        integration_parameters: next!("parameters"),
        islands: next!("islands"),
        broad_phase: next!("broad phase"),
        narrow_phase: next!("narrow phase"),
        bodies: next!("bodies"),
        colliders: next!("colliders"),
        soft_bodies: next!("soft bodies"),
        impulse_joints: next!("impulse joints"),
        multibody_joints: next!("multibody joints"),
        ..PhysicsWorld::default()
    };
    assert!(rd.is_empty(), "{} bytes after the world", rd.len());
    world
}
