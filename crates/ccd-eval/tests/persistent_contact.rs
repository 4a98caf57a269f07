//! `ccd_persistent_contact_policy` (what the continuous pass does with a pair that starts in
//! contact; docs/physics-engine.md): the thin-part gates under the configurations the released
//! physics-versions pin (version 2: policy 2 with relative motion; version 3: policy 3 with
//! relative motion; version 4, current: policy 5 with bounded relative motion) and under policy
//! 4 alone, fixed-target pairs identical under policies 1 and 2, repeatable runs, and the
//! setting's serialized form.

use rapier3d::prelude::*;
use rapier_pinned::{CcdConfig, PhysicsVersion};
use rapier_pinned_ccd_eval::configs;
use rapier_pinned_ccd_eval::perturbation::{run_set, run_set_edited, SetReport};
use rapier_pinned_ccd_eval::variations;
use rapier_pinned_scenes::{thin_sets, ThinSet};

/// Policy 2 with relative motion, as physics-version 2 pins it.
const PINNED: CcdConfig = CcdConfig::new(
    CcdRelativeMotion::On,
    CcdPersistentContactPolicy::CoreSphereFixedTargets,
);
/// Policy 3 with relative motion, as physics-version 3 pins it.
const V3: CcdConfig = CcdConfig::new(CcdRelativeMotion::On, CcdPersistentContactPolicy::KeepDepth);
/// Policy 5 with bounded relative motion, as physics-version 4 pins it.
const V4: CcdConfig = CcdConfig::new(
    CcdRelativeMotion::Bounded,
    CcdPersistentContactPolicy::KeepSide,
);
/// Policy 5 with bounded relative motion and bounded nonlinear casts, as physics-version 5
/// pins it.
const V5: CcdConfig = CcdConfig::new(
    CcdRelativeMotion::BoundedCasts,
    CcdPersistentContactPolicy::KeepSide,
);
/// Policy 6 with bounded relative motion and bounded nonlinear casts, as physics-version 6
/// (current) pins it.
const V6: CcdConfig = CcdConfig::new(
    CcdRelativeMotion::BoundedCasts,
    CcdPersistentContactPolicy::KeepSideSurfaceBounds,
);
/// Policy 4 with relative motion: version 3 with the work its bounds prove unneeded skipped (no
/// version pins it; version 4's policy 5 builds on it).
const POLICY_4: CcdConfig = CcdConfig::new(
    CcdRelativeMotion::On,
    CcdPersistentContactPolicy::KeepDepthBounded,
);

#[test]
fn the_released_versions_pin_these_configurations() {
    for (version, config) in [
        (PhysicsVersion::V1, CcdConfig::upstream()),
        (PhysicsVersion::V2, PINNED),
        (PhysicsVersion::V3, V3),
        (PhysicsVersion::V4, V4),
        (PhysicsVersion::V5, V5),
        (PhysicsVersion::V6, V6),
    ] {
        assert_eq!(CcdConfig::version(version).unwrap(), config, "{version}");
    }
    assert_eq!(CcdConfig::current(), V6);
}

fn report(set: &ThinSet, config: CcdConfig, r: &SetReport) {
    println!(
        "{:<22} {}: {} runs, strict pass-throughs {}, max penetration {:.3} mm (half-thickness {:.1} mm)",
        set.name,
        configs::label(config),
        r.runs,
        r.pass_throughs,
        r.max_penetration * 1e3,
        r.half_thickness * 1e3
    );
}

/// The harder set physics-version 2 does not hold (docs/physics-engine.md §2.2): a projectile
/// kept pushed into a thin guard sinks past its half-thickness. The test fails if it ever holds
/// (the table would be stale); policy 3 holds it (below).
const V2_FAILS: &[&str] = &["projectile_pushed"];

/// Every moving-target set meets the gates under physics-version 2, but the harder one it
/// fails. `box_into_rotor_300` has two collision steps the between-frames refinement cannot
/// judge; the substep replay (`perturbation::replay_clears`) clears both: in every replay the
/// box goes over the rotor's edge and ends on the side the coarse step ends on
/// (docs/physics-engine.md §2.2).
#[test]
fn moving_target_sets_meet_the_gates_under_policy_2_with_relative_motion() {
    let mut failures = Vec::new();
    for set in thin_sets().iter().filter(|s| s.moving_target) {
        let r = run_set(set, PINNED, false);
        report(set, PINNED, &r);
        if V2_FAILS.contains(&set.name) {
            if r.meets_gates() || !r.errors.is_empty() {
                failures.push(format!("{}: documented as failing, but: {r:?}", set.name));
            }
            continue;
        }
        if !r.meets_gates() {
            failures.push(format!("{}: {r:?}", set.name));
        }
        if set.name == "box_into_rotor_300" && r.replayed != 2 {
            failures.push(format!(
                "{}: replay-cleared {} (2 expected)",
                set.name, r.replayed
            ));
        }
    }
    assert!(failures.is_empty(), "gates fail: {failures:#?}");
}

/// Physics-version 3 (policy 3 with relative motion, `docs/decisions/physics-version-3.md`) meets
/// its release rule's gates on every set, fixed ones included: no gated pass-through,
/// penetration within the half-thickness, and truncation within its bound (vehicle push 1%,
/// pressed blade 2%, ram 3.4%, hex wheel 1.5%, every other set version 2's + 0.5 points).
#[test]
fn version_3_meets_its_gates_on_every_set() {
    meets_version_3s_gates_on_every_set(V3);
}

/// Policy 4 is held to version 3's gates: what it skips must not cost a gate.
#[test]
fn policy_4_meets_version_3s_gates_on_every_set() {
    meets_version_3s_gates_on_every_set(POLICY_4);
}

/// Physics-version 4 (`docs/decisions/physics-version-4.md`) is held to version 3's gates and
/// truncation bounds on every set: its release rule.
#[test]
fn version_4_meets_version_3s_gates_on_every_set() {
    meets_version_3s_gates_on_every_set(V4);
}

fn meets_version_3s_gates_on_every_set(config: CcdConfig) {
    let mut failures = Vec::new();
    for set in thin_sets() {
        let r = run_set(set, config, true);
        report(set, config, &r);
        if !r.meets_gates() {
            failures.push(format!("{}: {r:?}", set.name));
        }
        let bound = match set.name {
            "vehicle_push" | "vehicle_push_clear" => 0.01,
            "blade_pressed" => 0.02,
            "vehicle_ram" | "vehicle_ram_clear" => 0.034,
            "hex_wheel" => 0.015,
            _ => run_set(set, PINNED, true).truncation.ratio() + 0.005,
        };
        let truncation = r.truncation.ratio();
        println!("  truncation {:.4} (bound {bound:.4})", truncation);
        if truncation.is_nan() || truncation > bound {
            failures.push(format!("{}: truncation {truncation} > {bound}", set.name));
        }
    }
    assert!(failures.is_empty(), "{config:?} fails: {failures:#?}");
}

/// A configuration (or an edit of the built worlds) under which a set's gate fails.
#[derive(Clone, Copy, Debug)]
enum KnownBad {
    /// Upstream's rules: policy 0, relative motion off (physics-version 1).
    Upstream,
    /// Relative motion without a persistent-contact policy.
    RelativeMotionAlone,
    /// Upstream's rules with CCD off on every body and no contact prediction: nothing stops a
    /// part between frames. For the sets upstream already holds.
    NoCcdNoPrediction,
}

/// Every set's gate can fire: each fails under a known-bad case, by a gated count or a depth.
/// Upstream's rules fail every set they are expected to; the capped blade, the projectile, the
/// push with its guards clear of the floor and the hex wheel hold under upstream (the cap, the
/// projectile's start within contact prediction, the guards 1 mm apart, within it too, the
/// wheel's 20 cm ground), so their gates are shown on the harder known-bad cases.
#[test]
fn every_sets_gate_fires_on_a_known_bad_case() {
    use KnownBad::*;
    let cases = [
        ("spinning_blade", Upstream),
        ("spinning_blade_capped", RelativeMotionAlone),
        ("box_into_rotor_100", Upstream),
        ("box_into_rotor_300", Upstream),
        ("blade_pressed", Upstream),
        ("projectile_pressed", NoCcdNoPrediction),
        ("projectile_pushed", Upstream),
        ("vehicle_ram", Upstream),
        ("vehicle_push", Upstream),
        ("vehicle_ram_clear", Upstream),
        ("vehicle_push_clear", NoCcdNoPrediction),
        ("fixed_plate", Upstream),
        ("fixed_wall", Upstream),
        ("slanted_blade", Upstream),
        ("hex_wheel", NoCcdNoPrediction),
    ];
    assert_eq!(
        cases.len(),
        thin_sets().len(),
        "a set without a known-bad case"
    );
    let upstream = CcdConfig::upstream();
    for (name, bad) in cases {
        let set = thin_sets().iter().find(|s| s.name == name).unwrap();
        let r = match bad {
            Upstream => run_set(set, upstream, false),
            RelativeMotionAlone => run_set(
                set,
                CcdConfig::new(CcdRelativeMotion::On, CcdPersistentContactPolicy::Upstream),
                false,
            ),
            NoCcdNoPrediction => run_set_edited(set, upstream.params(), false, |w| {
                w.integration_parameters.normalized_prediction_distance = 0.0;
                w.bodies.iter_mut().for_each(|(_, b)| b.enable_ccd(false));
            }),
        };
        println!(
            "{name:<22} {bad:?}: gated {}, max penetration {:.3} mm",
            r.pass_throughs,
            r.max_penetration * 1e3
        );
        assert!(
            r.errors.is_empty() && r.runs == r.expected_runs,
            "{name}: {:?}",
            r.errors
        );
        assert!(
            r.pass_throughs > 0 || r.max_penetration > r.half_thickness,
            "{name} holds under {bad:?}"
        );
    }
}

/// No silent zeros: a run that blows up is an error that fails the gates, and so is a report
/// with fewer runs than the set has.
#[test]
fn a_run_that_cannot_be_measured_fails_the_gates() {
    let set = thin_sets()
        .iter()
        .find(|s| s.name == "blade_pressed")
        .unwrap();
    let r = run_set_edited(set, PINNED.params(), false, |w| {
        w.bodies
            .iter_mut()
            .for_each(|(_, b)| b.set_linvel(Vector::new(Real::NAN, 0.0, 0.0), true));
    });
    assert_eq!((r.runs, r.errors.len()), (0, r.expected_runs));
    assert!(r.errors[0].contains("non-finite"), "{}", r.errors[0]);
    assert!(!r.meets_gates());
    assert!(!SetReport::default().meets_gates(), "no runs is not a pass");
    let one_short = SetReport {
        runs: 20,
        expected_runs: 21,
        half_thickness: 0.001,
        ..SetReport::default()
    };
    assert!(!one_short.meets_gates());
}

#[test]
fn fixed_target_sets_are_bit_identical_under_policies_1_and_2() {
    for relative_motion in [CcdRelativeMotion::Off, CcdRelativeMotion::On] {
        for set in thin_sets().iter().filter(|s| !s.moving_target) {
            use CcdPersistentContactPolicy::*;
            let p1 = run_set(set, CcdConfig::new(relative_motion, CoreSphere), false);
            let p2 = run_set(
                set,
                CcdConfig::new(relative_motion, CoreSphereFixedTargets),
                false,
            );
            assert_eq!(
                p1.digests, p2.digests,
                "{} (relative motion {relative_motion:?})",
                set.name
            );
        }
    }
}

#[test]
fn defaults_are_upstream() {
    let params = IntegrationParameters::default();
    assert_eq!(
        params.ccd_persistent_contact_policy,
        CcdPersistentContactPolicy::Upstream
    );
    assert_eq!(params.ccd_relative_motion, CcdRelativeMotion::Off);
    assert_eq!(CcdConfig::of(&params), CcdConfig::upstream());
}

/// Serialized as its number; every other byte is an error naming the setting, never a default.
#[test]
fn the_policy_serializes_as_its_number_and_rejects_every_other() {
    use CcdPersistentContactPolicy::*;
    for (policy, n) in [
        (Upstream, 0u8),
        (CoreSphere, 1),
        (CoreSphereFixedTargets, 2),
        (KeepDepth, 3),
        (KeepDepthBounded, 4),
        (KeepSide, 5),
        (KeepSideSurfaceBounds, 6),
    ] {
        assert_eq!(bincode::serialize(&policy).unwrap(), vec![n]);
        assert_eq!(serde_json::to_string(&policy).unwrap(), n.to_string());
        assert_eq!(
            bincode::deserialize::<CcdPersistentContactPolicy>(&[n]).unwrap(),
            policy
        );
    }
    for n in 7..=u8::MAX {
        let err = bincode::deserialize::<CcdPersistentContactPolicy>(&[n])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unknown ccd_persistent_contact_policy"),
            "{n}: {err}"
        );
        assert!(serde_json::from_str::<CcdPersistentContactPolicy>(&n.to_string()).is_err());
    }
    assert!(serde_json::from_str::<CcdPersistentContactPolicy>("\"CoreSphere\"").is_err());
}

/// The setting travels with the world: a snapshot restores it, and a snapshot whose policy byte
/// names no policy is refused rather than read as a default.
#[test]
fn snapshots_carry_the_policy_and_refuse_unknown_numbers() {
    let mut world = PhysicsWorld::new();
    world.integration_parameters.ccd_persistent_contact_policy =
        CcdPersistentContactPolicy::CoreSphereFixedTargets;
    let bytes = bincode::serialize(&world).unwrap();
    let restored: PhysicsWorld = bincode::deserialize(&bytes).unwrap();
    assert_eq!(
        restored
            .integration_parameters
            .ccd_persistent_contact_policy,
        CcdPersistentContactPolicy::CoreSphereFixedTargets
    );

    // The policy byte is the one that differs from a world at policy 0.
    let upstream = bincode::serialize(&PhysicsWorld::new()).unwrap();
    let at: Vec<usize> = (0..bytes.len())
        .filter(|i| bytes[*i] != upstream[*i])
        .collect();
    assert_eq!(at.len(), 1);
    let mut bad = bytes.clone();
    bad[at[0]] = 7; // The first number no policy has.
    assert!(bincode::deserialize::<PhysicsWorld>(&bad).is_err());
}

/// Beyond the suite: spin rates of the variation families at which bodies turn
/// 16.7 rad (blade) and 8.3 rad (rotor) per step, at upstream's time step. Both failed before
/// patches `0007-rapier-ccd-fast-rotation-slices` and `0008-rapier-refresh-empty-ccd-pairs`
/// (penetration 1.22 half-thicknesses; 1 strict pass-through).
#[test]
fn gates_hold_for_bodies_turning_more_than_half_a_turn_per_step() {
    let dt = IntegrationParameters::default().dt;
    let blade = variations::spinning_blades(PINNED, dt, 1000.0, false);
    let rotor = variations::rotors(PINNED, dt, 500.0);
    println!("blade 1000 rad/s: {blade:?}\nrotor 500 rad/s: {rotor:?}");
    assert!(blade.meets_gates() && rotor.meets_gates());
}

/// Beyond the suite, policy 3 holds the variation families that a crossing test reading only
/// the step's two ends failed (a box going around a fast rotor taken as going through it:
/// 29 and 31 gated runs at 200 and 500 rad/s), and the blade families.
#[test]
fn policy_3_holds_the_rotor_and_blade_variation_families() {
    holds_the_rotor_and_blade_variation_families(V3);
}

/// Policy 4 and version 4 hold the same families.
#[test]
fn policy_4_and_version_4_hold_the_rotor_and_blade_variation_families() {
    holds_the_rotor_and_blade_variation_families(POLICY_4);
    holds_the_rotor_and_blade_variation_families(V4);
}

fn holds_the_rotor_and_blade_variation_families(config: CcdConfig) {
    let dt = IntegrationParameters::default().dt;
    let families = [
        ("rotor 200 rad/s", variations::rotors(config, dt, 200.0)),
        ("rotor 500 rad/s", variations::rotors(config, dt, 500.0)),
        (
            "blade 300 rad/s",
            variations::spinning_blades(config, dt, 300.0, false),
        ),
        (
            "pressed blade",
            variations::spinning_blades(config, dt, 30.0, true),
        ),
    ];
    for (name, r) in &families {
        println!("{name}: {r:?}");
    }
    assert!(families.iter().all(|(_, r)| r.meets_gates()));
}

/// Policy 3 keeps each pair's end contact to reuse as its next start contact; that cache is not
/// part of a snapshot, so a restored world starts without it. It must never change a
/// trajectory: worlds whose CCD solver is replaced by a fresh one before every step (as if
/// restored every step) step bit for bit like worlds that keep it, on the scenes and thin-part
/// sets where the rule corrects pairs every step.
#[test]
fn policy_3_steps_the_same_without_its_cached_contacts() {
    steps_the_same_without_cached_contacts(V3);
}

/// Policy 4 keeps the same cache and skips what its bounds prove unneeded; the bounds read only
/// the world, so it too steps the same without the cache. So does version 4, whose side rule
/// also keeps a tree over the fixed colliders' bounds: it only speeds up finding them.
#[test]
fn policy_4_and_version_4_step_the_same_without_their_caches() {
    steps_the_same_without_cached_contacts(POLICY_4);
    steps_the_same_without_cached_contacts(V4);
}

fn steps_the_same_without_cached_contacts(config: CcdConfig) {
    let params = config.params();
    let digests = |mut world: PhysicsWorld, steps: usize, forget: bool| -> Vec<u64> {
        (0..steps)
            .map(|_| {
                if forget {
                    world.ccd_solver = CCDSolver::new();
                }
                world.step();
                rapier_pinned_scenes::state_digest(&world.bodies)
            })
            .collect()
    };
    type Build = Box<dyn Fn() -> PhysicsWorld>;
    let mut worlds: Vec<(&str, Build, usize)> = Vec::new();
    for name in [
        "arena",
        "arena_clear",
        "vehicles",
        "bullet_swarm",
        "bullets_vs_plates",
    ] {
        let scene = rapier_pinned_scenes::find(name).unwrap();
        worlds.push((name, Box::new(move || scene.build(params)), scene.steps));
    }
    for name in ["vehicle_push", "blade_pressed", "projectile_pushed"] {
        let set = thin_sets().iter().find(|s| s.name == name).unwrap();
        worlds.push((
            name,
            Box::new(move || set.build(params, 0, set.speeds[0]).0),
            60,
        ));
    }
    for (name, build, steps) in worlds {
        let kept = digests(build(), steps, false);
        let forgotten = digests(build(), steps, true);
        let first = kept.iter().zip(&forgotten).position(|(a, b)| a != b);
        assert_eq!(
            first, None,
            "{config:?}, {name}: the cached contacts changed step {first:?}"
        );
    }
}

/// Policy 3 counts the thin colliders once and checks no pair while there is none; adding a
/// collider must count them again. Each thin-part set's thin colliders are taken out for the
/// first step and put back: the world that keeps its CCD solver steps bit for bit like one whose
/// solver is fresh before every step (which counts every time).
#[test]
fn policy_3_counts_a_thin_collider_added_between_steps() {
    let params =
        CcdConfig::new(CcdRelativeMotion::On, CcdPersistentContactPolicy::KeepDepth).params();
    let slop = params.allowed_linear_error();
    let digests = |mut world: PhysicsWorld, forget: bool| -> Vec<u64> {
        let thin: Vec<ColliderHandle> = (world.colliders.iter())
            .filter(|(_, co)| co.shape().ccd_thickness() < slop)
            .map(|(h, _)| h)
            .collect();
        assert!(!thin.is_empty());
        let taken: Vec<Collider> = (thin.into_iter())
            .filter_map(|h| {
                let w = &mut world;
                (w.colliders).remove(h, &mut w.islands, &mut w.bodies, &mut w.soft_bodies, true)
            })
            .collect();
        (0..60)
            .map(|step| {
                if step == 1 {
                    for co in &taken {
                        match co.parent() {
                            Some(parent) => {
                                (world.colliders).insert_with_parent(
                                    co.clone(),
                                    parent,
                                    &mut world.bodies,
                                );
                            }
                            None => {
                                world.colliders.insert(co.clone());
                            }
                        }
                    }
                }
                if forget {
                    world.ccd_solver = CCDSolver::new();
                }
                world.step();
                rapier_pinned_scenes::state_digest(&world.bodies)
            })
            .collect()
    };
    for name in ["vehicle_push", "blade_pressed", "projectile_pushed"] {
        let set = thin_sets().iter().find(|s| s.name == name).unwrap();
        let build = || set.build(params, 0, set.speeds[0]).0;
        let kept = digests(build(), false);
        let counted = digests(build(), true);
        let first = kept.iter().zip(&counted).position(|(a, b)| a != b);
        assert_eq!(
            first, None,
            "{name}: the kept thin count changed step {first:?}"
        );
    }
}
