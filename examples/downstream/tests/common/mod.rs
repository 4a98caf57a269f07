//! The game's scene and physics-version, shared by its golden trajectories (`golden.rs`) and its
//! recorded matches (`replays.rs`).

use rapier3d::prelude::*;
use rapier_pinned_golden::rapier_pinned::{PhysicsVersion, PinnedWorld};

/// The physics-version this game's servers and clients run.
pub const PHYSICS_VERSION: PhysicsVersion = PhysicsVersion::V2;

/// `user_data` of the player; crates are 100, 101, ...
pub const PLAYER: u128 = 1;

/// A floor, the player (a capsule that does not tip over) and a stack of four crates ahead of it.
pub fn arena(world: &mut PinnedWorld) {
    world.insert_collider(ColliderBuilder::cuboid(30.0, 0.5, 30.0), None);
    let player = world.insert_body(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-4.0, 1.4, 0.0))
            .lock_rotations()
            .user_data(PLAYER),
    );
    world.insert_collider(ColliderBuilder::capsule_y(0.5, 0.4), Some(player));
    for i in 0..4 {
        let body = world.insert_body(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(0.0, 0.8 + 0.61 * i as f32, 0.1 * i as f32))
                .user_data(100 + i as u128),
        );
        world.insert_collider(ColliderBuilder::cuboid(0.3, 0.3, 0.3), Some(body));
    }
}
