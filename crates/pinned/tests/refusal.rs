//! Bad input: every case is refused with its own error kind, never panics, and leaves the target
//! world byte-for-byte as before (`restore_into` is atomic).

mod common;

use common::{config, flipped_header_kind, snapshot_of, tower, SplitMix, Tally, MATCH, VERSION};
use rapier3d::prelude::*;
use rapier_pinned::param_fields;
use rapier_pinned::testing::seal;
use rapier_pinned::{
    import_upstream, inspect, Error, ErrorKind, PhysicsVersion, PinnedWorld, SnapshotHeader,
    SnapshotKey, WorldConfig, HEADER_LEN, PAYLOAD_LIMIT,
};

/// The tally's counts are measured, not printed: a case with the wrong outcome is counted, and
/// `finish` fails on it.
#[test]
fn the_tally_counts_a_failed_case() {
    let mut target = tower(5);
    let good = tower(10).snapshot(None);
    let mut tally = Tally::default();
    let expected = Some(ErrorKind::ChecksumMismatch);
    tally.attempt(
        &mut target,
        &good,
        None,
        expected,
        "a valid snapshot expected refused",
    );
    assert_eq!((tally.cases, tally.wrong.len()), (1, 1));
    assert_eq!((tally.panics.len(), tally.partial.len()), (0, 0));
    assert!(std::panic::catch_unwind(|| tally.finish("known-bad")).is_err());
}

#[test]
fn framing_and_integrity() {
    let key = SnapshotKey::new([0x5a; 32]);
    let mut target = tower(5);
    let mut tally = Tally::default();
    let source = tower(20);
    for keyed in [false, true] {
        let k = keyed.then_some(&key);
        let good = source.snapshot(k);
        let payload_len = good.len() - HEADER_LEN;
        // Truncation at every header byte and at sampled payload offsets.
        for len in (0..HEADER_LEN).chain((0..64).map(|i| HEADER_LEN + i * payload_len / 64)) {
            let case = format!("truncated to {len} (keyed {keyed})");
            tally.attempt(
                &mut target,
                &good[..len],
                k,
                Some(ErrorKind::Truncated),
                &case,
            );
        }
        // Every single-bit flip of the header.
        for byte in 0..HEADER_LEN {
            for bit in 0..8 {
                let mut bytes = good.clone();
                bytes[byte] ^= 1 << bit;
                let expected = flipped_header_kind(&good, byte, bit, keyed);
                let case = format!("header byte {byte} bit {bit} flipped (keyed {keyed})");
                tally.attempt(&mut target, &bytes, k, Some(expected), &case);
            }
        }
        // Sampled single-bit flips of the payload.
        let mut rng = SplitMix(20261101);
        for _ in 0..256 {
            let at = HEADER_LEN + (rng.next() % payload_len as u64) as usize;
            let bit = rng.next() % 8;
            let mut bytes = good.clone();
            bytes[at] ^= 1 << bit;
            let case = format!("payload byte {at} bit {bit} flipped (keyed {keyed})");
            tally.attempt(
                &mut target,
                &bytes,
                k,
                Some(ErrorKind::ChecksumMismatch),
                &case,
            );
        }
        // Trailing bytes.
        for extra in [1, 7, 4096] {
            let mut bytes = good.clone();
            bytes.extend(std::iter::repeat_n(0, extra));
            let case = format!("{extra} trailing bytes");
            tally.attempt(
                &mut target,
                &bytes,
                k,
                Some(ErrorKind::TrailingBytes),
                &case,
            );
        }
        // The right snapshot restores.
        tally.attempt(&mut target, &good, k, None, "valid");
        assert_eq!(target.snapshot(None), source.snapshot(None));
        target = tower(5);
    }
    tally.finish("framing and integrity");
}

#[test]
fn lengths_claimed() {
    let mut target = tower(5);
    let mut tally = Tally::default();
    let good = tower(1).snapshot(None);
    for (claimed, kind) in [
        (1u64 << 60, ErrorKind::PayloadTooLarge),
        (u64::MAX, ErrorKind::PayloadTooLarge),
        (PAYLOAD_LIMIT + 1, ErrorKind::PayloadTooLarge),
        (PAYLOAD_LIMIT, ErrorKind::Truncated),
        (0, ErrorKind::TrailingBytes),
    ] {
        let mut bytes = good.clone();
        bytes[56..64].copy_from_slice(&claimed.to_le_bytes());
        let case = format!("payload length {claimed}");
        tally.attempt(&mut target, &bytes, None, Some(kind), &case);
        assert_eq!(inspect(&bytes).unwrap_err().kind(), kind);
    }
    tally.finish("claimed lengths");
}

#[test]
fn versions_configs_and_keys() {
    let key = SnapshotKey::new([1; 32]);
    let other_key = SnapshotKey::new([2; 32]);
    let mut tally = Tally::default();
    let source = tower(10);
    let world = source.world();
    let payload = rapier_pinned::testing::encode_world(world);
    let seal_as = |version: PhysicsVersion, match_id: u64, key: Option<&SnapshotKey>| {
        let digest = match WorldConfig::new(version) {
            Ok(c) => c.with_match_id(match_id).digest(),
            Err(_) => config().digest(),
        };
        seal(
            SnapshotHeader {
                physics_version: version,
                tick: 10,
                config_digest: digest,
            },
            &payload,
            key,
        )
    };
    type Case<'a> = (&'a str, Vec<u8>, Option<&'a SnapshotKey>, Option<ErrorKind>);
    let cases: Vec<Case> = vec![
        (
            "physics-version 1 into 2",
            seal_as(PhysicsVersion::V1, MATCH, None),
            None,
            Some(ErrorKind::PhysicsVersionMismatch),
        ),
        (
            "physics-version 0",
            seal_as(PhysicsVersion::new(0), MATCH, None),
            None,
            Some(ErrorKind::UnknownPhysicsVersion),
        ),
        (
            "physics-version 3 into 2",
            seal_as(PhysicsVersion::V3, MATCH, None),
            None,
            Some(ErrorKind::PhysicsVersionMismatch),
        ),
        (
            "physics-version 4 into 2",
            seal_as(PhysicsVersion::V4, MATCH, None),
            None,
            Some(ErrorKind::PhysicsVersionMismatch),
        ),
        (
            "physics-version 5 into 2",
            seal_as(PhysicsVersion::V5, MATCH, None),
            None,
            Some(ErrorKind::PhysicsVersionMismatch),
        ),
        (
            "physics-version 6 into 2",
            seal_as(PhysicsVersion::V6, MATCH, None),
            None,
            Some(ErrorKind::PhysicsVersionMismatch),
        ),
        (
            "physics-version 7",
            seal_as(PhysicsVersion::new(7), MATCH, None),
            None,
            Some(ErrorKind::UnknownPhysicsVersion),
        ),
        (
            "physics-version max",
            seal_as(PhysicsVersion::new(u32::MAX), MATCH, None),
            None,
            Some(ErrorKind::UnknownPhysicsVersion),
        ),
        (
            "another match",
            seal_as(VERSION, MATCH + 1, None),
            None,
            Some(ErrorKind::ConfigDigestMismatch),
        ),
        (
            "unauthenticated, key given",
            seal_as(VERSION, MATCH, None),
            Some(&key),
            Some(ErrorKind::MacMissing),
        ),
        (
            "wrong key",
            seal_as(VERSION, MATCH, Some(&other_key)),
            Some(&key),
            Some(ErrorKind::MacMismatch),
        ),
        (
            "right key",
            seal_as(VERSION, MATCH, Some(&key)),
            Some(&key),
            None,
        ),
        (
            "authenticated, no key (accepted: checksum verified)",
            seal_as(VERSION, MATCH, Some(&key)),
            None,
            None,
        ),
        (
            "unauthenticated, no key",
            seal_as(VERSION, MATCH, None),
            None,
            None,
        ),
    ];
    for (case, bytes, k, expected) in cases {
        let mut target = tower(5);
        tally.attempt(&mut target, &bytes, k, expected, case);
    }
    // A snapshot of physics-version 1 restores into a version-1 world of the same match.
    let v1 = WorldConfig::new(PhysicsVersion::V1)
        .unwrap()
        .with_match_id(MATCH);
    let scene = rapier_pinned_scenes::find("tower").unwrap();
    let w1 = PinnedWorld::adopt(v1, scene.build(v1.params())).unwrap();
    assert!(PinnedWorld::restore(v1, &w1.snapshot(None), None).is_ok());
    let err = PinnedWorld::restore(config(), &w1.snapshot(None), None).unwrap_err();
    assert_eq!(
        err,
        Error::PhysicsVersionMismatch {
            snapshot: PhysicsVersion::V1,
            world: PhysicsVersion::V2
        }
    );
    tally.finish("versions, configs and keys");
}

#[test]
fn random_bytes() {
    let mut target = tower(5);
    let mut tally = Tally::default();
    let mut rng = SplitMix(7);
    for len in [0usize, 1, 7, 8, 127, 128, 129, 1000, 100_000] {
        for _ in 0..8 {
            let bytes = rng.bytes(len);
            let expected = if len == 0 {
                ErrorKind::Truncated
            } else {
                ErrorKind::BadMagic
            };
            tally.attempt(&mut target, &bytes, None, Some(expected), "random bytes");
            // With the right magic, the header checks refuse them.
            let mut bytes = bytes;
            let n = bytes.len().min(8);
            bytes[..n].copy_from_slice(&b"RPINSNAP"[..n]);
            let before = target.snapshot(None);
            assert!(target.restore_into(&bytes, None).is_err());
            assert_eq!(target.snapshot(None), before);
            tally.cases += 1;
        }
    }
    tally.finish("random bytes");
}

/// One changed value per `IntegrationParameters` field, named as `param_fields` names it.
type Mutation = (&'static str, fn(&mut IntegrationParameters));

fn param_mutations() -> Vec<Mutation> {
    vec![
        ("dt", |p| p.dt = 1.0 / 30.0),
        ("min_ccd_dt", |p| p.min_ccd_dt *= 2.0),
        ("contact_softness.natural_frequency", |p| {
            p.contact_softness.natural_frequency += 1.0
        }),
        ("contact_softness.damping_ratio", |p| {
            p.contact_softness.damping_ratio += 1.0
        }),
        ("static_contact_softness.natural_frequency", |p| {
            p.static_contact_softness.natural_frequency += 1.0
        }),
        ("static_contact_softness.damping_ratio", |p| {
            p.static_contact_softness.damping_ratio += 1.0
        }),
        ("warmstart_coefficient", |p| p.warmstart_coefficient = 0.5),
        ("length_unit", |p| p.length_unit = 100.0),
        ("soft_bodies.recovery.authored_velocity_margin", |p| {
            p.soft_bodies.recovery.authored_velocity_margin ^= true
        }),
        ("soft_bodies.recovery.edge_speculation", |p| {
            p.soft_bodies.recovery.edge_speculation ^= true
        }),
        ("soft_bodies.recovery.inverted_cell_detection", |p| {
            p.soft_bodies.recovery.inverted_cell_detection ^= true
        }),
        ("soft_bodies.recovery.self_crossing_detection", |p| {
            p.soft_bodies.recovery.self_crossing_detection ^= true
        }),
        ("soft_bodies.recovery.detection_motion_gating", |p| {
            p.soft_bodies.recovery.detection_motion_gating ^= true
        }),
        ("soft_bodies.recovery.cross_body_detection", |p| {
            p.soft_bodies.recovery.cross_body_detection ^= true
        }),
        ("soft_bodies.recovery.self_stand_down", |p| {
            p.soft_bodies.recovery.self_stand_down ^= true
        }),
        ("soft_bodies.recovery.cross_body_expel_gate", |p| {
            p.soft_bodies.recovery.cross_body_expel_gate ^= true
        }),
        ("soft_bodies.recovery.edge_stand_down", |p| {
            p.soft_bodies.recovery.edge_stand_down ^= true
        }),
        ("soft_bodies.recovery.crossing_repulsion", |p| {
            p.soft_bodies.recovery.crossing_repulsion ^= true
        }),
        ("soft_bodies.recovery.crossing_repulsion_guide", |p| {
            p.soft_bodies.recovery.crossing_repulsion_guide ^= true
        }),
        ("soft_bodies.recovery.crossing_repulsion_self_guide", |p| {
            p.soft_bodies.recovery.crossing_repulsion_self_guide ^= true
        }),
        ("soft_bodies.recovery.recovery_pace", |p| {
            p.soft_bodies.recovery.recovery_pace += 1.0
        }),
        ("soft_bodies.recovery.overlap_constraints", |p| {
            p.soft_bodies.recovery.overlap_constraints ^= true
        }),
        ("soft_bodies.recovery.overlap_rigid", |p| {
            p.soft_bodies.recovery.overlap_rigid ^= true
        }),
        ("soft_bodies.recovery.overlap_skip_self_tangled", |p| {
            p.soft_bodies.recovery.overlap_skip_self_tangled ^= true
        }),
        ("soft_bodies.recovery.overlap_edge_stand_down", |p| {
            p.soft_bodies.recovery.overlap_edge_stand_down ^= true
        }),
        ("soft_bodies.recovery.overlap_constraint_pace", |p| {
            p.soft_bodies.recovery.overlap_constraint_pace += 1.0
        }),
        ("soft_bodies.recovery.overlap_patch_constraints", |p| {
            p.soft_bodies.recovery.overlap_patch_constraints = SoftPatchConstraints::Keep
        }),
        ("soft_bodies.recovery.overlap_skin_volume", |p| {
            p.soft_bodies.recovery.overlap_skin_volume ^= true
        }),
        ("soft_bodies.recovery.overlap_kept_depth", |p| {
            p.soft_bodies.recovery.overlap_kept_depth = -0.0
        }),
        ("soft_bodies.recovery.overlap_self_regions", |p| {
            p.soft_bodies.recovery.overlap_self_regions ^= true
        }),
        ("soft_bodies.recovery.overlap_normal_push", |p| {
            p.soft_bodies.recovery.overlap_normal_push ^= true
        }),
        ("soft_bodies.recovery.overlap_multi_volume", |p| {
            p.soft_bodies.recovery.overlap_multi_volume ^= true
        }),
        ("soft_bodies.recovery.overlap_split", |p| {
            p.soft_bodies.recovery.overlap_split += 1
        }),
        ("soft_bodies.recovery.overlap_patience", |p| {
            p.soft_bodies.recovery.overlap_patience += 1
        }),
        ("soft_bodies.recovery.overlap_progress_margin", |p| {
            p.soft_bodies.recovery.overlap_progress_margin *= 2.0
        }),
        ("soft_bodies.resweep_strain", |p| {
            p.soft_bodies.resweep_strain += 1.0
        }),
        ("soft_bodies.max_extra_substeps", |p| {
            p.soft_bodies.max_extra_substeps += 1
        }),
        ("soft_bodies.contact_stiffening", |p| {
            p.soft_bodies.contact_stiffening += 1.0
        }),
        ("normalized_allowed_linear_error", |p| {
            p.normalized_allowed_linear_error *= 2.0
        }),
        ("normalized_max_corrective_velocity", |p| {
            p.normalized_max_corrective_velocity += 1.0
        }),
        ("normalized_prediction_distance", |p| {
            p.normalized_prediction_distance *= 2.0
        }),
        ("normalized_max_linear_velocity", |p| {
            p.normalized_max_linear_velocity = f32::MAX
        }),
        ("num_solver_iterations", |p| p.num_solver_iterations += 1),
        ("num_internal_pgs_iterations", |p| {
            p.num_internal_pgs_iterations += 1
        }),
        ("num_internal_stabilization_iterations", |p| {
            p.num_internal_stabilization_iterations = 0
        }),
        ("max_ccd_substeps", |p| p.max_ccd_substeps = 0),
        ("contact_clustering", |p| p.contact_clustering ^= true),
        ("contact_recycling", |p| p.contact_recycling ^= true),
        ("normalized_contact_recycle_distance", |p| {
            p.normalized_contact_recycle_distance *= 2.0
        }),
        ("friction_in_bias_pass", |p| p.friction_in_bias_pass ^= true),
        ("warmstart_joints", |p| p.warmstart_joints ^= true),
        ("friction_model", |p| {
            p.friction_model = FrictionModel::Coulomb
        }),
        ("ccd_relative_motion", |p| {
            p.ccd_relative_motion = match p.ccd_relative_motion {
                CcdRelativeMotion::Off => CcdRelativeMotion::On,
                _ => CcdRelativeMotion::Off,
            }
        }),
        ("ccd_persistent_contact_policy", |p| {
            p.ccd_persistent_contact_policy = CcdPersistentContactPolicy::CoreSphere
        }),
    ]
}

#[test]
fn every_config_field_is_named() {
    let mutations = param_mutations();
    let mut names: Vec<&str> = mutations.iter().map(|(n, _)| *n).collect();
    let mut all: Vec<&str> = param_fields(&IntegrationParameters::default())
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    names.sort_unstable();
    all.sort_unstable();
    assert_eq!(names, all, "one mutation per field");

    let mut target = tower(5);
    let mut tally = Tally::default();
    let source = tower(10);
    let mut cases: Vec<(String, PhysicsWorld)> = Vec::new();
    for (name, mutate) in mutations {
        let mut world = decoded(&source);
        mutate(&mut world.integration_parameters);
        cases.push((name.to_string(), world));
    }
    for (i, name) in ["gravity.x", "gravity.y", "gravity.z"].iter().enumerate() {
        let mut world = decoded(&source);
        world.gravity[i] += 0.5;
        cases.push((name.to_string(), world));
    }
    for (name, world) in cases {
        let bytes = snapshot_of(&world, 10, None);
        let case = format!("changed {name}");
        let err = tally.attempt(
            &mut target,
            &bytes,
            None,
            Some(ErrorKind::ConfigMismatch),
            &case,
        );
        let Some(Error::ConfigMismatch(diffs)) = err else {
            unreachable!()
        };
        let fields: Vec<&str> = diffs.iter().map(|d| d.field).collect();
        assert_eq!(fields, [name.as_str()], "{case}");
        assert_ne!(diffs[0].pinned, diffs[0].found);
        // `adopt` refuses the same world with the same list.
        let adopted = PinnedWorld::adopt(config(), world).err().unwrap();
        assert_eq!(adopted, Error::ConfigMismatch(diffs));
    }
    tally.finish("config fields");
}

/// A copy of `world`'s `PhysicsWorld` (through the payload encoding).
fn decoded(world: &PinnedWorld) -> PhysicsWorld {
    world.world().clone_via_snapshot()
}

/// `PhysicsWorld` is not `Clone`: a copy through the payload encoding.
trait CloneViaSnapshot {
    fn clone_via_snapshot(&self) -> PhysicsWorld;
}

impl CloneViaSnapshot for PhysicsWorld {
    fn clone_via_snapshot(&self) -> PhysicsWorld {
        bincode::deserialize(&rapier_pinned::testing::encode_world(self)).unwrap()
    }
}

#[test]
fn undecodable_structural_and_non_finite() {
    let mut target = tower(5);
    let mut tally = Tally::default();
    let source = tower(3);
    let payload = rapier_pinned::testing::encode_world(source.world());
    let seal_payload = |p: &[u8]| seal(SnapshotHeader::new(&config(), 3), p, None);
    // Valid framing around a payload that does not decode.
    for (case, p) in [
        ("payload cut short", payload[..payload.len() - 10].to_vec()),
        (
            "payload with a trailing byte",
            [payload.clone(), vec![0]].concat(),
        ),
        ("empty payload", Vec::new()),
        ("bad policy byte", {
            // The policy is the last byte of the parameters: 12 bytes of gravity before them.
            let at = 12
                + bincode::serialize(&IntegrationParameters::default())
                    .unwrap()
                    .len()
                - 1;
            let mut p = payload.clone();
            p[at] = 9;
            p
        }),
    ] {
        tally.attempt(
            &mut target,
            &seal_payload(&p),
            None,
            Some(ErrorKind::Undecodable),
            case,
        );
    }
    // A collider whose parent is gone.
    let mut world = source.world().clone_via_snapshot();
    world.bodies = RigidBodySet::new();
    let bytes = snapshot_of(&world, 3, None);
    let err = tally.attempt(
        &mut target,
        &bytes,
        None,
        Some(ErrorKind::Structural),
        "dangling parent",
    );
    if let Some(err) = err {
        println!("dangling parent: {err}");
    }
    // A joint whose body is gone.
    let mut world = source.world().clone_via_snapshot();
    let bodies: Vec<RigidBodyHandle> = world.bodies.iter().map(|(h, _)| h).collect();
    world.impulse_joints.insert(
        bodies[0],
        RigidBodyHandle::from_raw_parts(9999, 0),
        FixedJointBuilder::new(),
        false,
    );
    let bytes = snapshot_of(&world, 3, None);
    let err = tally.attempt(
        &mut target,
        &bytes,
        None,
        Some(ErrorKind::Structural),
        "dangling joint",
    );
    if let Some(err) = err {
        println!("dangling joint: {err}");
    }
    // Non-finite state.
    type Poison = fn(&mut RigidBody);
    let poisons: [(&str, Poison); 3] = [
        ("translation", |b| {
            b.set_translation(Vector::new(f32::NAN, 0.0, 0.0), false)
        }),
        ("linear velocity", |b| {
            b.set_linvel(Vector::new(0.0, f32::INFINITY, 0.0), false)
        }),
        ("angular velocity", |b| {
            b.set_angvel(Vector::new(0.0, 0.0, f32::NAN), false)
        }),
    ];
    for (what, poison) in poisons {
        let mut world = source.world().clone_via_snapshot();
        let h = world.bodies.iter().nth(3).map(|(h, _)| h).unwrap();
        poison(&mut world.bodies[h]);
        let bytes = snapshot_of(&world, 3, None);
        let case = format!("non-finite {what}");
        let err = tally.attempt(&mut target, &bytes, None, Some(ErrorKind::NonFinite), &case);
        if let Some(err) = err {
            println!("{case}: {err}");
        }
    }
    tally.finish("decode and validation");
}

#[test]
fn upstream_import() {
    // An upstream-layout world: the fork's bytes without the two fork fields (the parity crate
    // builds pristine rapier3d; here the layout is made from the fork's, see src/upstream.rs).
    let v1 = WorldConfig::new(PhysicsVersion::V1)
        .unwrap()
        .with_match_id(MATCH);
    let scene = rapier_pinned_scenes::find("pyramid").unwrap();
    let mut world = PinnedWorld::adopt(v1, scene.build(v1.params())).unwrap();
    for _ in 0..5 {
        world.step();
    }
    let fork = rapier_pinned::testing::encode_world(world.world());
    let at = 12
        + bincode::serialize(&IntegrationParameters::default())
            .unwrap()
            .len()
        - 2;
    assert_eq!(&fork[at..at + 2], &[0, 0]);
    let upstream = [&fork[..at], &fork[at + 2..]].concat();
    assert!(bincode::deserialize::<PhysicsWorld>(&upstream).is_err());
    let imported = import_upstream(v1, &upstream).unwrap();
    let restored = PinnedWorld::restore(v1, &imported, None).unwrap();
    assert_eq!(rapier_pinned::testing::encode_world(restored.world()), fork);
    assert_eq!(restored.tick(), 0);
    assert_eq!(
        import_upstream(config(), &upstream).unwrap_err().kind(),
        ErrorKind::PhysicsVersionMismatch
    );
    assert_eq!(
        import_upstream(v1, &upstream[..20]).unwrap_err().kind(),
        ErrorKind::Truncated
    );
    assert_eq!(
        import_upstream(v1, &fork).unwrap_err().kind(),
        ErrorKind::Undecodable
    );
}

/// `open_ignoring_match` tells another match's snapshot from a bad one, in both formats: it
/// decodes the first to the very world `restore` refuses for the digest alone, and still
/// refuses a snapshot whose other checks fail (another physics-version, a flipped payload bit).
#[test]
fn open_ignoring_match_decodes_another_matchs_snapshot_only() {
    let source = tower(12);
    let other = config().with_match_id(MATCH + 1);
    for bytes in [source.snapshot(None), source.snapshot_compressed(None)] {
        assert_eq!(
            PinnedWorld::restore(other, &bytes, None)
                .unwrap_err()
                .kind(),
            ErrorKind::ConfigDigestMismatch
        );
        let (world, tick) = PinnedWorld::open_ignoring_match(other, &bytes, None)
            .map_err(|e| e.to_string())
            .unwrap();
        assert_eq!(tick, source.tick());
        assert_eq!(
            rapier_pinned::testing::encode_world(&world),
            rapier_pinned::testing::encode_world(source.world())
        );
        let v1 = WorldConfig::new(PhysicsVersion::V1).unwrap();
        let kind = |r: Result<(PhysicsWorld, u64), rapier_pinned::Error>| r.err().map(|e| e.kind());
        assert_eq!(
            kind(PinnedWorld::open_ignoring_match(v1, &bytes, None)),
            Some(ErrorKind::PhysicsVersionMismatch)
        );
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        assert_eq!(
            kind(PinnedWorld::open_ignoring_match(other, &damaged, None)),
            Some(ErrorKind::ChecksumMismatch)
        );
    }
}

#[test]
fn a_light_body_the_engine_spins_fast_restores_and_a_faster_one_is_refused() {
    // The engine spins the arena's 20 g bullets up to 1.7e5 rad/s in seeded matches: a world
    // it made must restore. The bound (1e7 rad/s) keeps the fast-rotation slices per step finite.
    let config = WorldConfig::new(PhysicsVersion::V2).unwrap();
    for (spin, restores) in [(1.7e5, true), (9.9e6, true), (1.1e7, false)] {
        let mut world = PinnedWorld::new(config);
        let bullet = world.insert_body(
            RigidBodyBuilder::dynamic()
                .ccd_enabled(true)
                .angvel(Vector::new(spin, 0.0, 0.0)),
        );
        world.insert_collider(ColliderBuilder::ball(0.01).density(48.0), Some(bullet));
        let bytes = world.snapshot(None);
        match PinnedWorld::restore(config, &bytes, None) {
            Ok(mut back) => {
                assert!(restores, "{spin} rad/s restored");
                back.step();
            }
            Err(e) => {
                assert!(!restores, "{spin} rad/s: {e}");
                assert!(e.to_string().contains("rad per second"), "{e}");
            }
        }
    }
}

#[test]
fn every_error_kind_has_a_stable_name_that_parses_back() {
    use std::str::FromStr;
    for &kind in ErrorKind::ALL {
        // The name is the variant's, as the released conformance vectors write it.
        assert_eq!(kind.as_str(), format!("{kind:?}"));
        assert_eq!(ErrorKind::from_str(kind.as_str()), Ok(kind));
    }
    assert!(ErrorKind::from_str("NoSuchKind").is_err());
}
