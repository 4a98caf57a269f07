//! What one spinning body costs a step: two thin blades spinning at a given rate, one free (with
//! `allow_fast_rotation`) and one driven by a revolute joint's motor (a jointed world can reach
//! any angular velocity without that flag), beside six bullets. Under relative motion a pair with
//! a fast-turning body is swept in time slices, as many as its turn needs unless the version
//! bounds them: the cost of a step grows with the spin, or does not (`docs/physics-engine.md`,
//! "What one step can cost"). Bench only: no golden file pins them.

use rapier3d::prelude::*;

use crate::catalog::add;

/// The spin rates of the bench cases, rad/s, with their names: from a fast machine part (10³)
/// to what a solver blow-up reaches (10⁷).
pub const SPIN_CASES: [(&str, Real); 5] = [
    ("spin_1e3", 1.0e3),
    ("spin_1e4", 1.0e4),
    ("spin_1e5", 1.0e5),
    ("spin_1e6", 1.0e6),
    ("spin_1e7", 1.0e7),
];

/// Steps of each spin case.
pub const SPIN_STEPS: usize = 20;

/// The spin scene at `spin` rad/s: zero gravity; a free 1 mm blade (0.5 m long) spinning about
/// its thin axis, and a second one on a revolute joint to a fixed hub whose motor drives it at
/// `spin`; six 1 cm bullets fired at 60 m/s past and into both.
pub fn spin_scene(world: &mut PhysicsWorld, spin: Real) {
    world.gravity = Vector::ZERO;
    let blade = || ColliderBuilder::cuboid(0.25, 0.0005, 0.02);
    let free = RigidBodyBuilder::dynamic()
        .angvel(Vector::new(0.0, spin, 0.0))
        .ccd_enabled(true)
        .allow_fast_rotation(true);
    add(world, free, blade());
    let hub = world
        .bodies
        .insert(RigidBodyBuilder::fixed().translation(Vector::new(0.6, 0.0, 0.0)));
    let (driven, _) = add(
        world,
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.6, 0.0, 0.0))
            .ccd_enabled(true),
        blade(),
    );
    let axle = RevoluteJointBuilder::new(Vector::Y).motor_velocity(spin, 1.0e6);
    world.impulse_joints.insert(hub, driven, axle, true);
    for k in 0..6 {
        let x = -0.3 + 0.24 * k as Real;
        let bullet = RigidBodyBuilder::dynamic()
            .translation(Vector::new(x, 0.005 * k as Real, -1.0))
            .linvel(Vector::new(0.0, 0.0, 60.0))
            .ccd_enabled(true);
        add(world, bullet, ColliderBuilder::ball(0.01));
    }
}
