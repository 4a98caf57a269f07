//! The generated arenas (`rapier_pinned_scenes::arena_generated`), laid out by a seed rather than
//! by hand, so that no CCD rule was tuned on them: under the current physics-version and the one
//! before it, no body leaves the room, whether it is built of cuboids, meshes or a heightfield;
//! under upstream's rules, one does.

use rapier3d::prelude::*;
use rapier_pinned::{CcdConfig, PhysicsVersion, PHYSICS_VERSION_CURRENT};
use rapier_pinned_scenes::{
    arena_generated_in, generated_arenas, Room, ARENA_GENERATED_STEPS, ARENA_SEEDS,
};

/// How far past the room's inner faces a body's centre may end: a thin part resting on the floor
/// sits a little into it (rapier lets resting contacts penetrate by about its allowed linear
/// error, 1 mm; a 1 mm blade lying flat in the third arena ends with its centre 0.6 mm below the
/// floor's top), while a part that went through is metres away. The walls are 20 cm thick.
const SLACK: Real = 0.01;

/// The generated arena of `seed` in `room` stepped under `config`; its bodies whose centre ends
/// outside the room (more than [`SLACK`] past a wall's, the floor's or the ceiling's inner face).
fn escaped(seed: u64, room: Room, config: CcdConfig) -> Vec<String> {
    let mut world = PhysicsWorld::new();
    world.integration_parameters = config.params();
    let room = arena_generated_in(&mut world, seed, room);
    for _ in 0..ARENA_GENERATED_STEPS {
        world.step();
    }
    world
        .bodies
        .iter()
        .filter(|(_, body)| body.is_dynamic())
        .filter_map(|(handle, body)| {
            let p = body.translation();
            // A NaN position is outside too: `!(inside)` rather than `outside`.
            let inside = p.x.abs() < room.x + SLACK
                && p.z.abs() < room.z + SLACK
                && p.y > -SLACK
                && p.y < room.y + SLACK;
            (!inside).then(|| format!("{handle:?} at {p:?}"))
        })
        .collect()
}

#[test]
fn no_body_leaves_a_generated_arena_under_the_current_version_or_the_one_before() {
    let previous = PhysicsVersion::new(PHYSICS_VERSION_CURRENT.get() - 1);
    for config in [CcdConfig::current(), CcdConfig::version(previous).unwrap()] {
        for (name, seed, room) in generated_arenas() {
            let out = escaped(seed, room, config);
            assert!(out.is_empty(), "{name} under {config:?}: {out:#?}");
        }
    }
}

/// The containment check fires on a known-bad case: under upstream's rules a blade of the third
/// arena falls through the floor.
#[test]
fn under_upstreams_rules_a_body_leaves_a_generated_arena() {
    let escapes: usize = ARENA_SEEDS
        .iter()
        .map(|&(_, seed)| escaped(seed, Room::Cuboids, CcdConfig::upstream()).len())
        .sum();
    assert!(
        escapes > 0,
        "every body stayed in every room under upstream's rules"
    );
}
