//! What users of the catalog rely on: the scenes behave physically as described, and the digest
//! sees every field it claims to cover.

use rapier3d::prelude::*;
use rapier_pinned_scenes::*;

fn scene(name: &str) -> &'static Scene {
    find(name).unwrap_or_else(|| panic!("no scene {name}"))
}

#[test]
fn catalog_names_are_unique_and_findable() {
    let names: Vec<_> = catalog().iter().map(|s| s.name).collect();
    for name in &names {
        assert_eq!(
            names.iter().filter(|n| *n == name).count(),
            1,
            "{name} twice"
        );
        assert!(find(name).is_some());
        assert!(scene(name).steps > 0);
    }
    assert!(find("no_such_scene").is_none());
}

#[test]
fn body_counts_match_the_descriptions() {
    let count = |name| {
        scene(name)
            .build(IntegrationParameters::default())
            .bodies
            .len()
    };
    assert_eq!(count("pyramid"), 210);
    assert_eq!(count("tower"), 50);
    assert_eq!(count("bullets_crossing"), 2);
    assert_eq!(count("bullets_vs_plates"), 100);
    assert_eq!(count("mixed_5000"), 5000);
}

/// Seed 002's reference: a ball dropped from 1 m with restitution 0.5 rebounds to e^2 * 1 m.
#[test]
fn ball_drop_first_rebound_peaks_near_a_quarter_metre() {
    let s = scene("ball_drop");
    let mut world = s.build(IntegrationParameters::default());
    let (ball, _) = world.bodies.iter().next().unwrap();
    let mut bounced = false;
    let mut peak: Real = 0.0;
    for _ in 0..s.steps {
        world.step();
        let body = &world.bodies[ball];
        let vy = body.linvel().y;
        if !bounced && vy > 0.0 {
            bounced = true;
        }
        if bounced {
            if vy < 0.0 {
                break; // past the first rebound's apex
            }
            peak = peak.max(body.translation().y - BALL_RADIUS);
        }
    }
    assert!(bounced, "the ball never bounced");
    let expected = 0.25 * BALL_DROP_HEIGHT;
    println!("first rebound peak: {peak} m (expected about {expected} m)");
    assert!(
        (peak - expected).abs() < 0.03,
        "first rebound peaked at {peak} m, expected about {expected} m"
    );
}

#[test]
fn tower_still_stands_after_its_run() {
    let s = scene("tower");
    let mut world = s.build(IntegrationParameters::default());
    let start: Vec<(RigidBodyHandle, Vector)> = world
        .bodies
        .iter()
        .map(|(h, b)| (h, b.translation()))
        .collect();
    for _ in 0..s.steps {
        world.step();
    }
    for (h, p0) in start {
        let p = world.bodies[h].translation();
        let horizontal = ((p.x - p0.x).powi(2) + (p.z - p0.z).powi(2)).sqrt();
        assert!(horizontal < 0.01, "a beam slid {horizontal} m sideways");
        // Settling into the contacts costs at most the linear slop per layer.
        assert!(
            (p.y - p0.y).abs() < 0.06,
            "a beam moved {} m vertically",
            p.y - p0.y
        );
    }
    let top = world
        .bodies
        .iter()
        .map(|(_, b)| b.translation().y)
        .fold(Real::MIN, Real::max);
    let expected_top = TOWER_BEAM[1] * (2 * TOWER_LAYERS - 1) as Real;
    assert!(
        (top - expected_top).abs() < 0.06,
        "top layer at {top} m, built at {expected_top} m"
    );
}

#[test]
fn runs_are_bit_identical() {
    for name in ["pyramid", "blade_into_plate", "vehicles"] {
        let s = scene(name);
        assert_eq!(
            step_digests(s, IntegrationParameters::default()),
            step_digests(s, IntegrationParameters::default()),
            "{name}"
        );
    }
}

#[test]
fn digest_covers_every_field_of_every_body() {
    let world = scene("tower").build(IntegrationParameters::default());
    assert_eq!(state_bytes(&world.bodies).len(), 50 * BYTES_PER_BODY);
    let base = state_digest(&world.bodies);
    let (handle, _) = world.bodies.iter().last().unwrap();
    let nudge = |x: Real| Real::from_bits(x.to_bits() ^ 1); // flip the lowest mantissa bit
                                                            // Every one of the 13 numbers, one at a time.
    for field in 0..13 {
        let mut bodies = world.bodies.clone();
        let body = &mut bodies[handle];
        let (mut t, mut r, mut v, mut w) = (
            body.translation(),
            *body.rotation(),
            body.linvel(),
            body.angvel(),
        );
        match field {
            0 => t.x = nudge(t.x),
            1 => t.y = nudge(t.y),
            2 => t.z = nudge(t.z),
            3 => r.x = nudge(r.x),
            4 => r.y = nudge(r.y),
            5 => r.z = nudge(r.z),
            6 => r.w = nudge(r.w),
            7 => v.x = nudge(v.x),
            8 => v.y = nudge(v.y),
            9 => v.z = nudge(v.z),
            10 => w.x = nudge(w.x),
            11 => w.y = nudge(w.y),
            _ => w.z = nudge(w.z),
        }
        body.set_position(Pose::from_parts(t, r), false);
        body.set_linvel(v, false);
        body.set_angvel(w, false);
        assert_ne!(state_digest(&bodies), base, "field {field} is not covered");
    }
    // Removing a body changes the digest too (handles are part of it).
    let mut fewer = scene("tower").build(IntegrationParameters::default());
    fewer.remove_body(handle);
    assert_ne!(state_digest(&fewer.bodies), base);
}

#[test]
fn bench_cases_are_unique_and_cover_the_issue_scenes() {
    let cases = bench_cases();
    let names: Vec<_> = cases.iter().map(|c| c.name).collect();
    for name in &names {
        assert_eq!(
            names.iter().filter(|n| *n == name).count(),
            1,
            "{name} twice"
        );
        assert!(find_case(name).is_some());
    }
    for wanted in [
        "pyramid",
        "tower",
        "bullets_vs_plates",
        "bullet_swarm",
        "vehicles",
        "vehicles_clear",
        "arena",
        "arena_clear",
        "arena_generated_1",
        "arena_generated_2",
        "arena_generated_3",
        "arena_mesh_1",
        "arena_heightfield_1",
    ] {
        assert!(names.contains(&wanted), "{wanted} is not benchmarked");
    }
    assert_eq!(
        cases
            .iter()
            .filter(|c| matches!(c.workload, Workload::Thin(_)))
            .count(),
        thin_sets().len(),
        "every thin-part set is benchmarked"
    );
    assert!(find_case("no_such_case").is_none());
}

#[test]
fn mixed_piles_hold_500_bodies_per_layer_and_the_catalog_pile_is_ten_layers() {
    for (name, bodies) in [
        ("mixed_1000", 1000),
        ("mixed_2000", 2000),
        ("mixed_10000", 10000),
    ] {
        let case = find_case(name).unwrap();
        let worlds = case.worlds(IntegrationParameters::default(), Some(1));
        assert_eq!(worlds.len(), 1);
        assert_eq!(worlds[0].0.bodies.len(), bodies, "{name}");
        assert_eq!(worlds[0].1, 1, "--limit caps the steps");
    }
    // The benchmark's mixed_5000 is the catalog scene: same bodies, same first step.
    let bench = &mut find_case("mixed_5000")
        .unwrap()
        .worlds(IntegrationParameters::default(), Some(1))[0]
        .0;
    let catalog = &mut scene("mixed_5000").build(IntegrationParameters::default());
    bench.step();
    catalog.step();
    assert_eq!(state_digest(&bench.bodies), state_digest(&catalog.bodies));
}

#[test]
fn a_limit_caps_steps_and_thin_set_runs_and_samples_are_positive() {
    let set = thin_sets()[0].name;
    let case = find_case(set).unwrap();
    let full = case.worlds(IntegrationParameters::default(), None);
    assert_eq!(full.len(), thin_sets()[0].run_count());
    let quick = case.worlds(IntegrationParameters::default(), Some(3));
    assert_eq!(quick.len(), 3);
    assert!(quick.iter().all(|(_, steps)| *steps <= 3));
    let times = case.times(IntegrationParameters::default(), Some(3), 0.0);
    assert_eq!(times.len(), 1, "min_ms 0 is one run");
    assert!(times.iter().all(|t| t.is_finite() && *t > 0.0));
}

/// The deepest start overlap in `world` between a dynamic body's collider and a fixed collider,
/// in metres (0 when none overlaps), from parry's contact query at the built poses.
fn deepest_start_overlap_with_fixed(world: &PhysicsWorld) -> Real {
    let is_fixed = |c: &Collider| {
        c.parent()
            .is_none_or(|b| world.bodies[b].body_type() == RigidBodyType::Fixed)
    };
    let mut deepest: Real = 0.0;
    for (_, moving) in world.colliders.iter().filter(|(_, c)| !is_fixed(c)) {
        for (_, fixed) in world.colliders.iter().filter(|(_, c)| is_fixed(c)) {
            let contact = rapier3d::parry::query::contact(
                moving.position(),
                moving.shape(),
                fixed.position(),
                fixed.shape(),
                0.0,
            )
            .expect("parry answers a cuboid-cuboid contact");
            if let Some(c) = contact {
                assert!(c.dist.is_finite());
                deepest = deepest.max(-c.dist);
            }
        }
    }
    deepest
}

/// The vehicles' first guard fit (`vehicles`, `arena`, `vehicle_ram`, `vehicle_push`) starts its
/// lowest 10 cm inside the floor: a thin-fixed pair in contact from the first step. Those scenes
/// stay as released; their `_clear` twins start with nothing of theirs inside fixed geometry.
#[test]
fn the_clear_scenes_start_with_every_guard_out_of_the_floor() {
    let params = IntegrationParameters::default();
    for (sunk, clear) in [("vehicles", "vehicles_clear"), ("arena", "arena_clear")] {
        let depth = deepest_start_overlap_with_fixed(&scene(sunk).build(params));
        assert!((depth - 0.1).abs() < 1e-4, "{sunk}: {depth} m");
        assert_eq!(
            deepest_start_overlap_with_fixed(&scene(clear).build(params)),
            0.0
        );
    }
    let set = |name: &str| thin_sets().iter().find(|s| s.name == name).unwrap();
    for (sunk, clear) in [
        ("vehicle_ram", "vehicle_ram_clear"),
        ("vehicle_push", "vehicle_push_clear"),
    ] {
        for start in 0..STARTS {
            let (world, _) = set(sunk).build(params, start, set(sunk).speeds[0]);
            let depth = deepest_start_overlap_with_fixed(&world);
            assert!((depth - 0.1).abs() < 1e-4, "{sunk} #{start}: {depth} m");
            let (world, _) = set(clear).build(params, start, set(clear).speeds[0]);
            assert_eq!(
                deepest_start_overlap_with_fixed(&world),
                0.0,
                "{clear} #{start}"
            );
        }
    }
}

#[test]
fn generated_arenas_differ_by_seed_and_start_with_no_part_inside_another() {
    let build = |seed| {
        let mut world = PhysicsWorld::new();
        arena_generated(&mut world, seed);
        world
    };
    let seeds = ARENA_SEEDS.map(|(_, seed)| seed);
    let worlds: Vec<_> = seeds.iter().map(|&seed| build(seed)).collect();
    for (seed, world) in seeds.iter().zip(&worlds) {
        assert_eq!(world.colliders.len(), 68, "seed {seed}");
        assert_eq!(world.bodies.len(), 50, "seed {seed}");
        assert_eq!(
            state_bytes(&world.bodies),
            state_bytes(&build(*seed).bodies),
            "seed {seed} builds the same world twice"
        );
        // Parts may touch (a chassis on the floor) but none starts inside another: a start
        // that overlaps would measure the solver's push-out, not a match.
        let colliders: Vec<_> = world.colliders.iter().collect();
        for (i, (_, a)) in colliders.iter().enumerate() {
            for (_, b) in &colliders[i + 1..] {
                if a.parent() == b.parent() {
                    continue; // One body's colliders, or two pieces of the fixed room.
                }
                let contact = rapier3d::parry::query::contact(
                    a.position(),
                    a.shape(),
                    b.position(),
                    b.shape(),
                    0.0,
                )
                .expect("supported shapes");
                if let Some(contact) = contact {
                    assert!(
                        contact.dist > -1.0e-3,
                        "seed {seed}: two parts start {} m inside each other",
                        -contact.dist
                    );
                }
            }
        }
    }
    let first = state_bytes(&worlds[0].bodies);
    assert!(worlds[1..].iter().all(|w| state_bytes(&w.bodies) != first));
}
