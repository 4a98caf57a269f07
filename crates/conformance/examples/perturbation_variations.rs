//! The moving-target gates beyond the suite's own starts, speeds, thicknesses and spin rates:
//! `cargo run --release -p rapier-pinned-conformance --example perturbation_variations`.
//! Prints, per family and configuration, runs, strict pass-throughs and the worst end-of-frame
//! penetration as a fraction of the target's half-thickness (the gate is <= 1). `-- --dt SECONDS`
//! runs everything at another time step (the default is upstream's 1/60 s).

use rapier3d::prelude::*;
use rapier_pinned_conformance::perturbation::{run_case, CcdConfig, SetReport};
use rapier_pinned_scenes::ThinCase;

const STARTS: [Real; 13] = [-0.36, -0.3, -0.24, -0.18, -0.12, -0.06, 0.0, 0.06, 0.12, 0.18, 0.24, 0.3, 0.36];
const SPEEDS: [Real; 4] = [10.0, 45.0, 90.0, 200.0];

/// The time step: `--dt SECONDS` on the command line, upstream's default otherwise.
fn dt() -> Real {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--dt")
        .map(|i| args[i + 1].parse().expect("--dt SECONDS"))
        .unwrap_or(IntegrationParameters::default().dt)
}

fn world(config: CcdConfig) -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.integration_parameters = config.params();
    w.integration_parameters.dt = dt();
    w.gravity = Vector::ZERO;
    w
}

fn insert(w: &mut PhysicsWorld, body: RigidBodyBuilder, shape: ColliderBuilder) -> ColliderHandle {
    let h = w.bodies.insert(body);
    w.colliders.insert_with_parent(shape, h, &mut w.bodies)
}

/// A blade of half-thickness `blade` driven at `speed`, spinning at `spin`, into a dynamic guard of
/// half-thickness `guard` whose face is `gap` m from the blade's tip (0 gap: pressed edge-first).
fn blade(config: CcdConfig, start: Real, speed: Real, spin: Real, blade: Real, guard: Real, pressed: bool) -> (PhysicsWorld, ThinCase) {
    let mut w = world(config);
    let target = insert(&mut w, RigidBodyBuilder::dynamic().translation(Vector::new(1.0, 0.0, 0.0)), ColliderBuilder::cuboid(guard, 0.5, 0.5));
    let x = if pressed { 1.0 - guard - 0.001 - 0.25 } else { 0.0 };
    let body = RigidBodyBuilder::dynamic()
        .translation(Vector::new(x, start, 0.0))
        .linvel(Vector::new(speed, 0.0, 0.0))
        .angvel(Vector::new(0.0, 0.0, spin))
        .ccd_enabled(true)
        .allow_fast_rotation(true);
    let part = insert(&mut w, body, ColliderBuilder::cuboid(0.25, 0.02, blade));
    (w, ThinCase { part, target, steps: 90 })
}

/// A cube of half-size `size` into a 1 m x 10 cm rotor of half-thickness 1 mm spinning at `spin`.
fn rotor(config: CcdConfig, start: Real, speed: Real, spin: Real, size: Real) -> (PhysicsWorld, ThinCase) {
    let mut w = world(config);
    let target = insert(&mut w, RigidBodyBuilder::dynamic().angvel(Vector::new(0.0, spin, 0.0)).allow_fast_rotation(true), ColliderBuilder::cuboid(0.5, 0.05, 0.001));
    let body = RigidBodyBuilder::dynamic().translation(Vector::new(-2.0, 0.1 * start, 0.3 * start)).linvel(Vector::new(speed, 0.0, 0.0)).ccd_enabled(true);
    let part = insert(&mut w, body, ColliderBuilder::cuboid(size, size, size));
    (w, ThinCase { part, target, steps: 90 })
}

fn family(name: &str, config: CcdConfig, cases: impl Iterator<Item = ((PhysicsWorld, ThinCase), Real)>) {
    let mut r = SetReport::default();
    let mut worst_ratio: Real = 0.0;
    for ((w, case), half) in cases {
        let before = r.max_penetration;
        r.max_penetration = 0.0;
        run_case(w, case, false, &mut r);
        worst_ratio = worst_ratio.max(r.max_penetration / half);
        r.max_penetration = r.max_penetration.max(before);
    }
    println!("{name:<44} {:<9} runs {:>5} strict {:>4} worst penetration / half-thickness {:>7.3}", config.label(), r.runs, r.pass_throughs, worst_ratio);
}

fn main() {
    let pinned = CcdConfig { policy: CcdPersistentContactPolicy::CoreSphereFixedTargets, relative_motion: true };
    let upstream = CcdConfig { policy: CcdPersistentContactPolicy::Upstream, relative_motion: false };
    for config in [upstream, pinned] {
        for spin in [100.0, 300.0, 600.0, 1000.0] {
            let cases = STARTS.iter().flat_map(move |&s| SPEEDS.iter().flat_map(move |&v| {
                [(0.0005, 0.001), (0.00025, 0.0005), (0.002, 0.0025)].into_iter().map(move |(b, g)| (blade(config, s, v, spin, b, g, false), g))
            }));
            family(&format!("spinning blade {spin} rad/s, 3 thicknesses"), config, cases);
        }
        for spin in [0.0, 30.0] {
            let cases = STARTS.iter().flat_map(move |&s| SPEEDS.iter().flat_map(move |&v| {
                [(0.0005, 0.001), (0.00025, 0.0005), (0.002, 0.0025)].into_iter().map(move |(b, g)| (blade(config, s, v, spin, b, g, true), g))
            }));
            family(&format!("pressed blade, spin {spin} rad/s, 3 thicknesses"), config, cases);
        }
        for spin in [50.0, 200.0, 500.0] {
            let cases = STARTS.iter().flat_map(move |&s| SPEEDS.iter().flat_map(move |&v| {
                [0.005, 0.01, 0.05].into_iter().map(move |size| (rotor(config, s, v, spin, size), 0.001))
            }));
            family(&format!("box into rotor {spin} rad/s, 3 box sizes"), config, cases);
        }
    }
}

