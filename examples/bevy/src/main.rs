//! A bevy game's physics and the wrapper's agree bit for bit.
//!
//! One scene — a ground, a stack of boxes, a 2 mm dynamic plate and a CCD ball shot through the
//! air at it at 100 m/s — stepped twice under each of two configs of the current physics-version,
//! its default settings and a game's own (zero gravity at 120 Hz, `docs/protocol.md` §2):
//! - by bevy_rapier3d's plugin in a headless bevy app (no window, manual fixed time), with the
//!   integration parameters, the tick and the gravity taken from the wrapper's config;
//! - by `rapier_pinned::PinnedWorld`, built in the same order bevy_rapier3d builds it (all bodies,
//!   then all colliders, each in spawn order).
//!
//! Every step's state digest (`rapier_pinned_scenes::state_digest`) must be equal; the program
//! exits non-zero naming the first step that differs. The scene is checked to step differently
//! under physics-version 1 (upstream behaviour), so that agreement is not a foregone result.

use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy_rapier3d::plugin::context::DefaultRapierContext;
use bevy_rapier3d::prelude::*;
use bevy_rapier3d::rapier::prelude as rapier;
use rapier_pinned::{
    GameSettings, PhysicsVersion, PinnedWorld, WorldConfig, PHYSICS_VERSION_CURRENT,
};
use rapier_pinned_scenes::state_digest;

/// Steps compared (two seconds at 60 Hz, one at 120: the ball reaches the plate within the
/// first tenth of a second).
const STEPS: usize = 120;

/// One body of the scene, with its one collider attached to it.
struct Part {
    body: rapier::RigidBodyType,
    at: [f32; 3],
    linvel: [f32; 3],
    ccd: bool,
    shape: Shape,
}

enum Shape {
    Cuboid([f32; 3]),
    Ball(f32),
}

/// The scene, in spawn order. Identity rotations only: bevy derives a body's pose from its
/// global transform's matrix, which reproduces a rotation only up to rounding.
fn parts() -> Vec<Part> {
    let fixed = rapier::RigidBodyType::Fixed;
    let dynamic = rapier::RigidBodyType::Dynamic;
    let mut parts = vec![Part {
        body: fixed,
        at: [0.0, -0.5, 0.0],
        linvel: [0.0; 3],
        ccd: false,
        shape: Shape::Cuboid([20.0, 0.5, 20.0]),
    }];
    for i in 0..4 {
        parts.push(Part {
            body: dynamic,
            at: [-3.0, 0.5 + i as f32 * 1.0, 0.0],
            linvel: [0.0; 3],
            ccd: false,
            shape: Shape::Cuboid([0.5, 0.5, 0.5]),
        });
    }
    // The 2 mm plate stands on the ground, facing the ball.
    parts.push(Part {
        body: dynamic,
        at: [5.0, 0.5, 0.0],
        linvel: [0.0; 3],
        ccd: true,
        shape: Shape::Cuboid([0.001, 0.5, 0.5]),
    });
    parts.push(Part {
        body: dynamic,
        at: [-1.0, 0.5, 0.0],
        linvel: [100.0, 0.0, 0.0],
        ccd: true,
        shape: Shape::Ball(0.05),
    });
    parts
}

impl Shape {
    fn bevy(&self) -> Collider {
        match *self {
            Shape::Cuboid([x, y, z]) => Collider::cuboid(x, y, z),
            Shape::Ball(r) => Collider::ball(r),
        }
    }

    fn rapier(&self) -> rapier::ColliderBuilder {
        match *self {
            Shape::Cuboid([x, y, z]) => rapier::ColliderBuilder::cuboid(x, y, z),
            Shape::Ball(r) => rapier::ColliderBuilder::ball(r),
        }
    }
}

/// Per-step digests of the scene stepped by bevy_rapier3d's plugin, configured from `config`:
/// its integration parameters (tick and length unit included) and its gravity.
fn bevy_digests(config: WorldConfig) -> Vec<u64> {
    let params = config.params();
    let mut app = App::new();
    let rapier_configuration = RapierConfiguration {
        gravity: Vec3::from_array(config.settings().gravity),
        ..RapierConfiguration::new(params.length_unit)
    };
    let plugin = RapierPhysicsPlugin::<NoUserData>::default().with_custom_initialization(
        RapierContextInitialization::InitializeDefaultRapierContext {
            integration_parameters: params,
            rapier_configuration,
            broad_phase_optimization_strategy: default(),
        },
    );
    app.add_plugins((TransformPlugin, TimePlugin, plugin));
    app.insert_resource(TimestepMode::Fixed {
        dt: params.dt,
        substeps: 1,
    });
    app.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f32(params.dt),
    ));
    app.finish();
    // The first update creates the context; bodies spawned after it are created in the next one.
    app.update();
    for part in parts() {
        // The same components on every entity: one archetype, so bevy visits them in spawn order.
        app.world_mut().spawn((
            Transform::from_xyz(part.at[0], part.at[1], part.at[2]),
            RigidBody::from(part.body),
            Velocity::linear(Vec3::from(part.linvel)),
            Ccd { enabled: part.ccd },
            part.shape.bevy(),
        ));
    }
    let context = app
        .world_mut()
        .query_filtered::<Entity, With<DefaultRapierContext>>()
        .single(app.world())
        .expect("one default rapier context");
    (0..STEPS)
        .map(|_| {
            app.update();
            let bodies = app
                .world()
                .get::<RapierRigidBodySet>(context)
                .expect("body set");
            state_digest(&bodies.bodies)
        })
        .collect()
}

/// Per-step digests of the same scene stepped by the wrapper.
fn wrapper_digests(config: WorldConfig) -> Vec<u64> {
    let mut world = PinnedWorld::new(config);
    let parts = parts();
    let handles: Vec<_> = parts
        .iter()
        .map(|part| {
            world.insert_body(
                rapier::RigidBodyBuilder::new(part.body)
                    .pose(rapier::Pose::from_translation(part.at.into()))
                    .linvel(part.linvel.into())
                    .ccd_enabled(part.ccd),
            )
        })
        .collect();
    for (part, handle) in parts.iter().zip(handles) {
        world.insert_collider(part.shape.rapier(), Some(handle));
    }
    (0..STEPS)
        .map(|_| {
            world.step();
            state_digest(world.bodies())
        })
        .collect()
}

/// Whether bevy and the wrapper step the scene alike under `config`; prints the verdict.
fn parity(config: WorldConfig) -> bool {
    let bevy = bevy_digests(config);
    let wrapper = wrapper_digests(config);
    let settings = config.settings();
    match bevy.iter().zip(&wrapper).position(|(a, b)| a != b) {
        None => {
            println!(
                "bevy_rapier3d == rapier-pinned, physics-version {PHYSICS_VERSION_CURRENT}, \
                 {settings}: {STEPS} steps, final digest {:016x}",
                bevy[STEPS - 1]
            );
            true
        }
        Some(step) => {
            eprintln!(
                "bevy_rapier3d and rapier-pinned diverge at step {} ({settings}): {:016x} != \
                 {:016x}",
                step + 1,
                bevy[step],
                wrapper[step]
            );
            false
        }
    }
}

fn main() {
    let config = WorldConfig::new(PHYSICS_VERSION_CURRENT).expect("the current physics-version");
    // A space game at 120 Hz: its settings reach bevy through the same config.
    let space = config
        .with_settings(GameSettings {
            gravity: [0.0; 3],
            tick_hz: 120,
            ..config.settings()
        })
        .expect("zero gravity at 120 Hz is allowed");
    // The scene must tell physics-versions apart, and the settings apart, or agreeing on it
    // would prove little.
    let upstream =
        wrapper_digests(WorldConfig::new(PhysicsVersion::V1).expect("physics-version 1"));
    let current = wrapper_digests(config);
    if upstream == current || wrapper_digests(space) == current {
        eprintln!("the scene steps alike under two configs it must tell apart");
        println!("bevy-parity: 0 passed, 1 failed");
        std::process::exit(1);
    }
    let passed = [config, space].into_iter().filter(|c| parity(*c)).count();
    println!("bevy-parity: {passed} passed, {} failed", 2 - passed);
    if passed != 2 {
        std::process::exit(1);
    }
}
