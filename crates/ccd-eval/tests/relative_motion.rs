//! `ccd_relative_motion` scenarios (bullet pairs swept on both bodies' motions;
//! docs/physics-engine.md): crossing bullets collide, and a bullet is clamped at the
//! relative-motion fraction against a target moving toward it. The thin-part gates, which need
//! the persistent-contact policy too, are in `persistent_contact.rs`.

use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_scenes::{crossing, find, Crosser};

/// Upstream's defaults with `ccd_relative_motion` as given (policy 0), with or without the
/// solver's speed cap.
fn params(relative_motion: bool, speed_cap: bool) -> IntegrationParameters {
    let mode = match relative_motion {
        true => CcdRelativeMotion::On,
        false => CcdRelativeMotion::Off,
    };
    let mut p = CcdConfig::new(mode, CcdPersistentContactPolicy::Upstream).params();
    if !speed_cap {
        p.normalized_max_linear_velocity = Real::MAX;
    }
    p
}

/// Runs a crossing for 30 steps: (a contact appeared, the left ball ever got right of the right one).
fn run_crossing(second: Crosser, speed: Real, params: IntegrationParameters) -> (bool, bool) {
    let mut world = PhysicsWorld::new();
    world.integration_parameters = params;
    crossing(&mut world, second, speed);
    let handles: Vec<_> = world.bodies.iter().map(|(h, _)| h).collect();
    let colliders: Vec<_> = world.colliders.iter().map(|(h, _)| h).collect();
    let (mut contact, mut swapped) = (false, false);
    for _ in 0..30 {
        world.step();
        contact |= world
            .contact_pair(colliders[0], colliders[1])
            .is_some_and(|p| p.has_any_active_contact());
        swapped |=
            world.bodies[handles[0]].translation().x > world.bodies[handles[1]].translation().x;
    }
    (contact, swapped)
}

/// Under every policy a version sets (0, 2, 3 and 5) and policy 4.
#[test]
fn crossing_bullets_collide_with_relative_motion() {
    use CcdPersistentContactPolicy::*;
    for policy in [
        Upstream,
        CoreSphereFixedTargets,
        KeepDepth,
        KeepDepthBounded,
        KeepSide,
    ] {
        for second in [Crosser::Bullet, Crosser::Dynamic, Crosser::Kinematic] {
            for (speed, cap) in [(400.0, true), (600.0, false)] {
                let mut p = params(true, cap);
                p.ccd_persistent_contact_policy = policy;
                let (contact, swapped) = run_crossing(second, speed, p);
                assert!(
                    contact,
                    "{policy:?}, {second:?} at ±{speed} m/s: no contact"
                );
                assert!(
                    !swapped,
                    "{policy:?}, {second:?} at ±{speed} m/s: swapped sides"
                );
            }
        }
    }
}

/// The upstream behaviour this setting exists for: two bullets swap places, no contact ever.
#[test]
fn crossing_bullets_pass_through_each_other_upstream() {
    let (contact, swapped) = run_crossing(Crosser::Bullet, 400.0, params(false, true));
    assert!(!contact && swapped);
}

/// The sweep vectors' reference cases (`head_on_crossing` and `frozen_target` of
/// conformance/sweeps/fixed.json) in one step: r = 1 balls from x = ∓5 moving ±10 m per step meet
/// at u = 0.4 (centres at ∓1); freezing the target would give 0.8. Both are clamped, stopping
/// `allowed_linear_error` apart: u in [0.4 − (slop + tol)/20, 0.4].
#[test]
fn bullet_and_oncoming_target_are_clamped_at_the_relative_fraction() {
    for second in [Crosser::Bullet, Crosser::Dynamic] {
        let mut world = PhysicsWorld::new();
        world.integration_parameters = params(true, false);
        crossing(&mut world, second, 600.0); // 10 m per 1/60 s step
        let handles: Vec<_> = world.bodies.iter().map(|(h, _)| h).collect();
        // Start them at ∓5 as in `head_on_crossing`.
        world.bodies[handles[0]].set_translation(Vector::new(-5.0, 0.0, 0.0), true);
        world.bodies[handles[1]].set_translation(Vector::new(5.0, 0.0, 0.0), true);
        world.step();
        let slop = world.integration_parameters.allowed_linear_error();
        let (xa, xb) = (
            world.bodies[handles[0]].translation().x,
            world.bodies[handles[1]].translation().x,
        );
        let ua = (xa + 5.0) / 10.0;
        let ub = (5.0 - xb) / 10.0;
        for u in [ua, ub] {
            assert!(
                u <= 0.4 + 1e-5 && u >= 0.4 - 1.25 * slop / 20.0 - 1e-5,
                "{second:?}: clamped at u = {u}"
            );
        }
        // Velocities are kept: the next step's contact resolves the collision.
        assert_eq!(world.bodies[handles[0]].linvel().x, 600.0);
    }
}

/// A kinematic body is never clamped: its motion is the user's.
#[test]
fn kinematic_target_keeps_its_motion() {
    let mut world = PhysicsWorld::new();
    world.integration_parameters = params(true, true);
    crossing(&mut world, Crosser::Kinematic, 400.0);
    let handles: Vec<_> = world.bodies.iter().map(|(h, _)| h).collect();
    for step in 1..=30 {
        world.step();
        let x = world.bodies[handles[1]].translation().x;
        let expected = 10.0 - 400.0 * step as Real / 60.0;
        assert!(
            (x - expected).abs() < 1e-3,
            "step {step}: kinematic at {x}, expected {expected}"
        );
    }
}

#[test]
fn relative_motion_runs_are_bit_identical() {
    for name in [
        "bullets_crossing",
        "blade_into_plate",
        "box_into_rotor",
        "vehicles",
        "bullets_vs_plates",
    ] {
        let scene = find(name).unwrap();
        let run = || rapier_pinned_scenes::step_digests(scene, params(true, true));
        assert_eq!(run(), run(), "{name}");
    }
}

/// A bullet not moving fast this step is not swept itself, so a fast bullet must sweep against
/// it whatever their handle order (patch `0004-rapier-ccd-relative-motion`): a 5 cm ball at
/// 100 m/s into a resting 2 mm dynamic plate with `ccd_enabled`, the plate created first (the
/// smaller handle). Before the patch the ball passed straight through under relative motion, as
/// it does upstream (bullets never sweep bullets there).
#[test]
fn fast_bullet_hits_a_resting_bullet_with_a_smaller_handle() {
    for (relative_motion, expect_hit) in [(true, true), (false, false)] {
        let mut world = PhysicsWorld::new();
        world.integration_parameters = params(relative_motion, true);
        let ground =
            world.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(0.0, -0.5, 0.0)));
        world.insert_collider(ColliderBuilder::cuboid(20.0, 0.5, 20.0), Some(ground));
        let plate = world.insert_body(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(5.0, 0.5, 0.0))
                .ccd_enabled(true),
        );
        world.insert_collider(ColliderBuilder::cuboid(0.001, 0.5, 0.5), Some(plate));
        let ball = world.insert_body(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(-1.0, 0.5, 0.0))
                .linvel(Vector::new(100.0, 0.0, 0.0))
                .ccd_enabled(true),
        );
        world.insert_collider(ColliderBuilder::ball(0.05), Some(ball));
        let mut passed = false;
        for _ in 0..10 {
            world.step();
            passed |=
                world.bodies[ball].translation().x > world.bodies[plate].translation().x + 0.5;
        }
        assert_eq!(
            !passed, expect_hit,
            "relative motion {relative_motion}: ball passed the plate: {passed}"
        );
    }
}
