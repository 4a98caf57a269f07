//! The scene catalog of rapier-pinned: deterministic scenes written only against rapier3d's public
//! API, shared by the command-line tool, golden files, conformance, the parity run and benchmarks.
//!
//! A scene is a name, a builder and a step count; the caller chooses the
//! [`IntegrationParameters`](rapier3d::prelude::IntegrationParameters), so the same scene runs under
//! upstream defaults (parity), under a physics-version, or under any setting being measured.

mod bench;
mod catalog;
mod generated;
mod level;
mod shots;
mod spin;
mod stream;
mod thin;

pub use bench::{bench_cases, bench_step, find_case, BenchCase, Workload, MIXED_STEPS};
pub use catalog::{
    add, blade_of, box_into_rotor_at, bullet_probes, catalog, crossing, find, mixed_pile,
    probe_world, Crosser, ProbeBody, Scene, ARENA_HALF, BALL_DROP_HEIGHT, BALL_RADIUS, TOWER_BEAM,
    TOWER_BEAMS, TOWER_LAYERS,
};
pub use generated::{
    arena_generated, arena_generated_in, generated_arenas, generated_digest_lines, Room,
    ARENA_GENERATED_STEPS, ARENA_ROOMS, ARENA_SEEDS,
};
pub use level::{trimesh_level, LEVEL_BODIES, LEVEL_GRID, LEVEL_SCENE, LEVEL_STEPS};
pub use shots::{shots, PartKind, Shot, ShotCase, Surface, TargetKind, MAX_ANGLE_DEGREES};
pub use spin::{spin_scene, SPIN_CASES, SPIN_STEPS};
// The state digest lives in its own crate (the protocol's code needs it, not the catalog).
pub use rapier_pinned_digest::{
    body_state, body_state_bytes, state_bytes, state_digest, BYTES_PER_BODY,
};
pub use thin::{
    blade_into_guard, box_into_free_rotor, thin_sets, ThinCase, ThinRun, ThinSet, SPEEDS, STARTS,
};

use rapier3d::prelude::*;

/// Runs `scene` for its step count under `params` and returns the state digest after each step.
pub fn step_digests(scene: &Scene, params: IntegrationParameters) -> Vec<u64> {
    let mut world = scene.build(params);
    (0..scene.steps)
        .map(|_| {
            world.step();
            state_digest(&world.bodies)
        })
        .collect()
}

/// The text form of per-step digests both sides of the parity run write, one line per step:
/// `scene step digest` (step counted from 1, digest as 16 hex digits).
pub fn digest_lines(scene: &Scene, params: IntegrationParameters) -> String {
    step_lines(scene.name, &mut scene.build(params), scene.steps)
}

/// Steps `world` `steps` times and writes a line per step in [`digest_lines`]' form, with
/// `label` in the scene column: what every digest text of the crate (scenes, thin-part runs,
/// generated arenas) is made of.
pub(crate) fn step_lines(
    label: impl std::fmt::Display,
    world: &mut PhysicsWorld,
    steps: usize,
) -> String {
    (1..=steps)
        .map(|step| {
            world.step();
            let digest = state_digest(&world.bodies);
            format!("{label} {step} {digest:016x}\n")
        })
        .collect()
}
