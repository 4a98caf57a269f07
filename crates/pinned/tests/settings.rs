//! A game's own settings (issue 30): gravity, tick rate and length unit are chosen per world
//! within the version's choices, are in the config digest, and a snapshot of other settings is
//! refused with `ConfigMismatch` naming each field and both values.

use rapier3d::prelude::*;
use rapier_pinned::{
    entry, version_table, ConfigError, Error, ErrorKind, GameSettings, PhysicsVersion, PinnedWorld,
    SnapshotKey, WorldConfig, PHYSICS_VERSION_CURRENT,
};
use rapier_pinned_scenes::{catalog, state_digest};

/// A ball over a ground, stepped 5 times under `config`.
fn ball_world(config: WorldConfig) -> PinnedWorld {
    let mut world = PinnedWorld::new(config);
    world.insert_collider(ColliderBuilder::cuboid(10.0, 0.1, 10.0), None);
    let ball =
        world.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 2.0, 0.0)));
    world.insert_collider(ColliderBuilder::ball(0.5), Some(ball));
    for _ in 0..5 {
        world.step();
    }
    world
}

fn defaults(version: PhysicsVersion) -> GameSettings {
    entry(version).unwrap().default_settings()
}

/// Each choosable field changed alone from the defaults: the field's name as `ConfigMismatch`
/// names it, and the settings.
fn one_field_changed(version: PhysicsVersion) -> Vec<(&'static str, GameSettings)> {
    let d = defaults(version);
    let with = |f: &dyn Fn(&mut GameSettings)| {
        let mut s = d;
        f(&mut s);
        s
    };
    vec![
        ("gravity.x", with(&|s| s.gravity[0] = 1.5)),
        ("gravity.y", with(&|s| s.gravity[1] = 0.0)),
        ("gravity.z", with(&|s| s.gravity[2] = -9.81)),
        ("dt", with(&|s| s.tick_hz = 120)),
        ("length_unit", with(&|s| s.length_unit = 100.0)),
    ]
}

/// The value of a choosable field in `config`'s world.
fn value(config: WorldConfig, field: &str) -> f32 {
    match field {
        "gravity.x" => config.gravity().x,
        "gravity.y" => config.gravity().y,
        "gravity.z" => config.gravity().z,
        "dt" => config.params().dt,
        "length_unit" => config.params().length_unit,
        _ => unreachable!("{field}"),
    }
}

/// A float as `FieldDiff` writes it: `value (0xbits)`.
fn text(x: f32) -> String {
    format!("{x:?} (0x{:08x})", x.to_bits())
}

#[test]
fn the_defaults_are_the_released_values_and_keep_the_released_digest() {
    for entry in version_table() {
        let d = entry.default_settings();
        assert_eq!(d.dt().to_bits(), entry.params().dt.to_bits());
        assert_eq!(d.gravity.map(f32::to_bits), entry.gravity.map(f32::to_bits));
        assert!(entry.choices.tick_hz.contains(&d.tick_hz));
        let plain = WorldConfig::new(entry.number).unwrap().with_match_id(7);
        // The digest of a default config is the one it had before settings existed: BLAKE3 of
        // the entry digest and the match id, nothing else.
        let mut before = blake3::Hasher::new();
        before.update(&entry.digest());
        before.update(&7u64.to_le_bytes());
        assert_eq!(plain.digest(), *before.finalize().as_bytes());
        assert_eq!(plain.with_settings(d).unwrap().digest(), plain.digest());
        let world = PinnedWorld::new(plain);
        assert_eq!(
            world.integration_parameters().dt.to_bits(),
            entry.params().dt.to_bits()
        );
        assert!(rapier_pinned::diff_world(&plain, &entry.params(), world.gravity()).is_empty());
    }
}

#[test]
fn every_choosable_field_changed_alone_is_refused_naming_it_with_both_values() {
    let key = SnapshotKey::new([3; 32]);
    for version in [PhysicsVersion::V1, PHYSICS_VERSION_CURRENT] {
        let base = WorldConfig::new(version).unwrap().with_match_id(9);
        for (field, settings) in one_field_changed(version) {
            let other = base.with_settings(settings).unwrap();
            assert_ne!(other.digest(), base.digest(), "{field}");
            // Both ways: a snapshot of the changed world under the default, and back.
            for (made, restored) in [(other, base), (base, other)] {
                let world = ball_world(made);
                let attempts = [
                    (world.snapshot(None), None),
                    (world.snapshot(Some(&key)), None),
                    (world.snapshot(Some(&key)), Some(&key)),
                    (world.snapshot_compressed(Some(&key)), Some(&key)),
                ];
                for (bytes, k) in attempts {
                    let err = PinnedWorld::restore(restored, &bytes, k).unwrap_err();
                    let Error::ConfigMismatch(diffs) = &err else {
                        panic!("v{version} {field}: {err}");
                    };
                    // One field: 120 Hz changes dt alone (min_ccd_dt stays the version's).
                    let names: Vec<&str> = diffs.iter().map(|d| d.field).collect();
                    assert_eq!(names, [field], "v{version}: {err}");
                    assert_eq!(
                        diffs[0].pinned.to_string(),
                        text(value(restored, field)),
                        "{err}"
                    );
                    assert_eq!(
                        diffs[0].found.to_string(),
                        text(value(made, field)),
                        "{err}"
                    );
                }
                // The same settings restore.
                let bytes = world.snapshot(Some(&key));
                let back = PinnedWorld::restore(made, &bytes, Some(&key)).unwrap();
                assert_eq!(back.snapshot(Some(&key)), bytes);
            }
        }
    }
}

#[test]
fn the_error_text_names_the_field_and_both_values() {
    let base = WorldConfig::new(PhysicsVersion::V2).unwrap();
    let zero = base
        .with_settings(GameSettings {
            gravity: [0.0; 3],
            ..defaults(PhysicsVersion::V2)
        })
        .unwrap();
    let err = PinnedWorld::restore(base, &ball_world(zero).snapshot(None), None).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("gravity.y: pinned -9.81 (0xc11cf5c3), found 0.0 (0x00000000)"),
        "{text}"
    );
    assert!(text.contains("gravity.x: pinned -0.0 (0x80000000), found 0.0 (0x00000000)"));
}

#[test]
fn another_match_or_a_damaged_snapshot_still_gets_the_digest_verdict() {
    let base = WorldConfig::new(PhysicsVersion::V2)
        .unwrap()
        .with_match_id(1);
    let slow = base
        .with_settings(GameSettings {
            tick_hz: 120,
            ..defaults(PhysicsVersion::V2)
        })
        .unwrap();
    // Same settings, another match id: the payload cannot say which, so the digest verdict.
    let bytes = ball_world(slow.with_match_id(2)).snapshot(None);
    let err = PinnedWorld::restore(slow, &bytes, None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ConfigDigestMismatch, "{err}");
    // Other settings but a payload that fails its checksum, or a MAC that fails: the digest
    // verdict too (the settings are read only from verified bytes).
    let mut damaged = ball_world(slow).snapshot(None);
    *damaged.last_mut().unwrap() ^= 1;
    let err = PinnedWorld::restore(base, &damaged, None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ConfigDigestMismatch, "{err}");
    let keyed = ball_world(slow).snapshot(Some(&SnapshotKey::new([1; 32])));
    let err = PinnedWorld::restore(base, &keyed, Some(&SnapshotKey::new([2; 32]))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ConfigDigestMismatch, "{err}");
}

#[test]
fn settings_outside_the_choices_are_refused_at_config_creation() {
    let base = WorldConfig::new(PhysicsVersion::V2).unwrap();
    let d = defaults(PhysicsVersion::V2);
    let cases: Vec<(&str, GameSettings)> = vec![
        ("tick_hz", GameSettings { tick_hz: 59, ..d }),
        // Measured, and a gate fails there (docs/physics-engine.md, "Gates at each tick rate").
        ("tick_hz", GameSettings { tick_hz: 30, ..d }),
        ("tick_hz", GameSettings { tick_hz: 0, ..d }),
        ("tick_hz", GameSettings { tick_hz: 1000, ..d }),
        (
            "length_unit",
            GameSettings {
                length_unit: 0.0,
                ..d
            },
        ),
        (
            "length_unit",
            GameSettings {
                length_unit: -1.0,
                ..d
            },
        ),
        (
            "length_unit",
            GameSettings {
                length_unit: f32::NAN,
                ..d
            },
        ),
        (
            "length_unit",
            GameSettings {
                length_unit: f32::INFINITY,
                ..d
            },
        ),
        (
            "length_unit",
            GameSettings {
                length_unit: 1000.0,
                ..d
            },
        ),
        (
            "gravity.x",
            GameSettings {
                gravity: [f32::NAN, 0.0, 0.0],
                ..d
            },
        ),
        (
            "gravity.z",
            GameSettings {
                gravity: [0.0, 0.0, f32::NEG_INFINITY],
                ..d
            },
        ),
        (
            "gravity",
            GameSettings {
                gravity: [0.0, -2000.0, 0.0],
                ..d
            },
        ),
        (
            "gravity",
            GameSettings {
                gravity: [800.0, 0.0, 800.0],
                ..d
            },
        ),
    ];
    for (field, settings) in cases {
        match base.with_settings(settings) {
            Err(ConfigError::SettingNotAllowed { field: f, .. }) => {
                assert_eq!(f, field, "{settings:?}")
            }
            other => panic!("{settings:?}: {other:?}"),
        }
    }
    // The gravity bound is in length units: centimetres allow -1500 (15 m/s²), metres do not.
    let cm = GameSettings {
        gravity: [0.0, -1500.0, 0.0],
        length_unit: 100.0,
        ..d
    };
    assert!(base.with_settings(cm).is_ok());
    assert_eq!(
        base.with_settings(GameSettings {
            length_unit: 1.0,
            ..cm
        })
        .unwrap_err()
        .kind(),
        ErrorKind::SettingNotAllowed
    );
}

#[test]
fn a_world_steps_at_its_own_tick() {
    for hz in [60, 120] {
        let config = WorldConfig::new(PhysicsVersion::V2)
            .unwrap()
            .with_settings(GameSettings {
                tick_hz: hz,
                ..defaults(PhysicsVersion::V2)
            })
            .unwrap();
        let mut world = PinnedWorld::new(config);
        let ball = world.insert_body(RigidBodyBuilder::dynamic());
        world.insert_collider(ColliderBuilder::ball(0.5), Some(ball));
        world.step();
        let v = world.bodies()[ball].linvel().y;
        assert_eq!(v, -9.81 * (1.0 / hz as f32), "{hz} Hz");
    }
}

#[test]
fn the_catalogs_zero_gravity_scenes_adopt_save_and_restore_under_zero_gravity() {
    let zero = WorldConfig::new(PhysicsVersion::V2)
        .unwrap()
        .with_settings(GameSettings {
            gravity: [0.0; 3],
            ..defaults(PhysicsVersion::V2)
        })
        .unwrap();
    let default = WorldConfig::new(PhysicsVersion::V2).unwrap();
    let mut adopted = 0;
    for scene in catalog() {
        let built = scene.build(zero.params());
        if built.gravity.to_array() != [0.0; 3] {
            continue;
        }
        assert!(PinnedWorld::adopt(default, scene.build(default.params())).is_err());
        let mut plain = scene.build(zero.params());
        let mut world = PinnedWorld::adopt(zero, built).unwrap();
        for _ in 0..10 {
            world.step();
            plain.step();
        }
        let bytes = world.snapshot(None);
        let mut back = PinnedWorld::restore(zero, &bytes, None).unwrap();
        for _ in 0..10 {
            world.step();
            back.step();
            plain.step();
            // The pinned world is the plain one, step for step, and so is the restored one.
            assert_eq!(state_digest(world.bodies()), state_digest(&plain.bodies));
            assert_eq!(state_digest(back.bodies()), state_digest(world.bodies()));
        }
        adopted += 1;
    }
    assert_eq!(
        adopted, 4,
        "bullets_crossing, bullet_swarm, blade_into_plate, box_into_rotor"
    );
}
