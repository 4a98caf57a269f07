//! What the format-3 vectors are made from beyond [`Base`]: `ball_drop`'s linked snapshots, the
//! level of the vectors (a small trimesh terrain) and `ball_drop` on it; and the level files the
//! vectors name, the same for every physics-version.

use rapier3d::prelude::{ColliderBuilder, SharedShape, Vector as Vec3};
use rapier_pinned::testing::seal_linked;
use rapier_pinned::{Level, PinnedWorld, SnapshotHeader, SnapshotKey};

use super::base::{accepted, ball_drop, Base, SCENE, TEST_KEY, TICK};
use crate::verdict::Expect;
use crate::{ConformanceError, GenerateError};

/// What the format-3 vectors are made from: `ball_drop`'s linked snapshots, and `ball_drop` on a
/// level.
pub(super) struct LevelBase {
    /// `accept_linked.snap`: ball_drop's linked snapshot without a key.
    pub(super) linked: Vec<u8>,
    /// `accept_linked_mac.snap`: with the test key.
    pub(super) linked_mac: Vec<u8>,
    /// The level of the vectors ([`vector_level`]).
    pub(super) level: Level,
    /// `accept_level.snap`: ball_drop on the level, linked.
    pub(super) on_level: Vec<u8>,
    /// Its verdict.
    pub(super) accepted: Expect,
}

impl LevelBase {
    /// The format-3 base of `b`'s version.
    pub(super) fn new(b: &Base) -> Result<LevelBase, GenerateError> {
        let world = ball_drop(b.config, TICK)?;
        let key = SnapshotKey::new(TEST_KEY);
        let linked = world
            .snapshot_linked(None, None)
            .map_err(GenerateError::Wrapper)?;
        let linked_mac = world
            .snapshot_linked(None, Some(&key))
            .map_err(GenerateError::Wrapper)?;
        let level = vector_level(0.0)?;
        let config = b.config.with_level(level.id());
        let scene = rapier_pinned_scenes::find(SCENE).ok_or(GenerateError::NoScene(SCENE))?;
        let mut built = scene.build(config.params());
        let terrain =
            ColliderBuilder::new(level.shapes()[0].clone()).translation(Vec3::new(50.0, 0.0, 0.0));
        built.colliders.insert(terrain);
        let mut on = PinnedWorld::adopt(config, built).map_err(GenerateError::Wrapper)?;
        for _ in 0..TICK {
            on.step();
        }
        let on_level = on
            .snapshot_linked(Some(&level), None)
            .map_err(GenerateError::Wrapper)?;
        // The generator's format-3 framing is the wrapper's.
        let sealed = seal_linked(
            SnapshotHeader {
                physics_version: b.version,
                tick: TICK,
                config_digest: b.config.digest(),
            },
            &b.payload,
            None,
            &[],
            None,
        );
        if sealed != linked {
            return Err(GenerateError::LinkedFraming);
        }
        Ok(LevelBase {
            linked,
            linked_mac,
            level,
            on_level,
            accepted: accepted(on),
        })
    }
}

/// The level of the format-3 vectors: a 5 x 5 grid of vertices 1 m apart at height `y`, 32
/// triangles (`y` 0: `level.level`; 1: `other.level`).
fn vector_level(y: f32) -> Result<Level, GenerateError> {
    let n = 5u32;
    let vertices = (0..n * n)
        .map(|k| Vec3::new((k % n) as f32, y, (k / n) as f32))
        .collect();
    let indices = (0..(n - 1) * (n - 1))
        .flat_map(|k| {
            let a = k / (n - 1) * n + k % (n - 1);
            [[a, a + n, a + 1], [a + 1, a + n, a + n + 1]]
        })
        .collect();
    let mesh = SharedShape::trimesh(vertices, indices).map_err(GenerateError::Trimesh)?;
    Level::new(vec![mesh]).map_err(GenerateError::Level)
}

/// The level files the vectors name, with their bytes: the same for every physics-version.
pub fn level_files() -> Result<Vec<(String, Vec<u8>)>, ConformanceError> {
    let level = vector_level(0.0)?;
    let other = vector_level(1.0)?;
    let cut = level.bytes()[..level.bytes().len() - 1].to_vec();
    Ok(vec![
        ("level.level".to_string(), level.bytes().to_vec()),
        ("not_a_level.level".to_string(), cut),
        ("other.level".to_string(), other.bytes().to_vec()),
    ])
}
