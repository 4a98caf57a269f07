//! Import of worlds written by *pristine* upstream rapier3d 0.36.1: the fixtures of
//! `conformance/snapshots/` (written by the parity project, `conformance/parity`, and checked byte
//! for byte against a fresh pristine run by `scripts/parity`).
//!
//! An imported world is a physics-version 1 world at tick 0 that continues exactly like the fork
//! stepping the same scene from scratch under version 1 (the parity run shows the fork at
//! version 1 is upstream bit for bit), and its payload is the fork's own encoding of that world.

use rapier3d::prelude::*;
use rapier_pinned::testing::{encode_world, seal};
use rapier_pinned::{
    import_upstream, ErrorKind, PhysicsVersion, PinnedWorld, SnapshotHeader, WorldConfig,
    HEADER_LEN,
};
use rapier_pinned_scenes::{find, state_digest};

/// The fixtures: catalog scene and the steps upstream took before writing it.
const FIXTURES: [(&str, usize); 2] = [("ball_drop", 30), ("tower", 60)];
/// Steps the imported world is continued for.
const K: usize = 60;
/// The match id the imports are made for (any; it is only in the config digest).
const MATCH: u64 = 42;

fn config() -> WorldConfig {
    WorldConfig::new(PhysicsVersion::V1)
        .unwrap()
        .with_match_id(MATCH)
}

fn fixture(scene: &str, steps: usize) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/snapshots")
        .join(format!("upstream-0.36.1-{scene}-{steps}.bin"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Offset at which the fork's two extra parameter bytes go (gravity, then the parameters).
fn fork_fields_offset() -> usize {
    12 + bincode::serialize(&IntegrationParameters::default())
        .unwrap()
        .len()
        - 2
}

#[test]
fn imported_upstream_world_continues_like_the_fork_from_scratch() {
    let config = config();
    for (name, steps) in FIXTURES {
        let upstream = fixture(name, steps);
        let snapshot = import_upstream(config, &upstream).unwrap();
        let mut imported = PinnedWorld::restore(config, &snapshot, None).unwrap();
        assert_eq!(imported.tick(), 0, "{name}: an import starts at tick 0");

        // The fork from scratch under version 1, for steps + K steps.
        let scene = find(name).unwrap();
        let mut fresh = PinnedWorld::adopt(config, scene.build(config.params())).unwrap();
        let mut expected = Vec::with_capacity(steps + K);
        for step in 1..=steps + K {
            fresh.step();
            expected.push(state_digest(fresh.bodies()));
            if step == steps {
                // Same world, byte for byte: upstream's bytes with the fork's two fields
                // inserted are the fork's own encoding of the world at this step.
                assert!(
                    snapshot[HEADER_LEN..] == encode_world(fresh.world())[..],
                    "{name}: imported payload differs from the fork's encoding at step {steps}"
                );
            }
        }

        assert_eq!(
            state_digest(imported.bodies()),
            expected[steps - 1],
            "{name}: imported state differs from the fork's at step {steps}"
        );
        for k in 0..K {
            imported.step();
            assert_eq!(
                state_digest(imported.bodies()),
                expected[steps + k],
                "{name}: continuing the import diverges from the fork at step {}",
                steps + k + 1
            );
        }
        println!(
            "{name}: upstream {} bytes after {steps} steps, imported, continued {K} steps == fork \
             from scratch",
            upstream.len()
        );
    }
}

#[test]
fn upstream_fixture_does_not_decode_as_a_fork_world() {
    for (name, steps) in FIXTURES {
        let upstream = fixture(name, steps);
        // A plain decode with the fork's types: the two missing parameter fields shift every
        // later byte, so it fails (this is why the import exists).
        let plain = bincode::deserialize::<PhysicsWorld>(&upstream);
        assert!(
            plain.is_err(),
            "{name}: upstream bytes decoded as a fork world"
        );
        // Framed as-is as a version 1 snapshot: refused as undecodable, not accepted.
        let config = config();
        let framed = seal(
            SnapshotHeader {
                physics_version: PhysicsVersion::V1,
                tick: steps as u64,
                config_digest: config.digest(),
            },
            &upstream,
            None,
        );
        let err = PinnedWorld::restore(config, &framed, None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Undecodable, "{name}: {err}");
    }
}

#[test]
fn truncated_upstream_fixture_is_a_typed_error() {
    let config = config();
    let at = fork_fields_offset();
    for (name, steps) in FIXTURES {
        let upstream = fixture(name, steps);
        let cuts = [
            0,
            1,
            12,
            at - 1,
            at,
            at + 1,
            upstream.len() / 2,
            upstream.len() - 1,
        ];
        for cut in cuts {
            let err = import_upstream(config, &upstream[..cut]).unwrap_err();
            let expected = if cut < at {
                ErrorKind::Truncated
            } else {
                ErrorKind::Undecodable
            };
            assert_eq!(err.kind(), expected, "{name} cut at {cut}: {err}");
        }
    }
}

#[test]
fn upstream_world_with_other_parameters_or_for_another_version_is_refused() {
    let upstream = fixture("ball_drop", 30);
    // dt is the first parameter, right after gravity: change its lowest byte.
    let mut other_dt = upstream.clone();
    other_dt[12] ^= 1;
    let err = import_upstream(config(), &other_dt).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ConfigMismatch, "{err}");
    assert!(err.to_string().contains("dt: pinned"), "{err}");
    // Physics-version 1 is upstream's behaviour; no other version imports.
    let v2 = WorldConfig::new(PhysicsVersion::V2).unwrap();
    let err = import_upstream(v2, &upstream).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PhysicsVersionMismatch, "{err}");
}
