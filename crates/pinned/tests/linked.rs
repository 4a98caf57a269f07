//! Snapshot format 3 (`docs/protocol.md` §3.2): a linked payload that refers to a level's shapes
//! and stores a shared shape once. It restores to exactly the world format 1 gives (every catalog
//! scene, every version, and a world on a 50,000-triangle level); a snapshot naming a level is
//! refused, typed, without it or with another; a bad record stream is refused with its cause,
//! after the checksum, never with a panic and never leaving the target changed.

mod common;

use common::{assert_steps_alike, config, tower, Tally, MATCH, VERSION};
use rapier3d::prelude::*;
use rapier_pinned::testing::{
    compress_payload, decompress_payload, encode_world, expand_linked, seal_stored,
};
use rapier_pinned::{
    inspect, recorded_params_on, Error, ErrorKind, Level, LevelError, LevelId, LinkError,
    PhysicsVersion, PinnedWorld, SnapshotHeader, SnapshotKey, WorldConfig, FLAG_COMPRESSED,
    FORMAT_VERSION_3, HEADER_LEN,
};
use rapier_pinned_scenes::{catalog, trimesh_level, LEVEL_GRID};

/// The level scene under `version`, adopted on its level, after `steps` steps.
fn on_level(version: PhysicsVersion, steps: usize) -> (PinnedWorld, Level) {
    let params = WorldConfig::new(version).unwrap().params();
    let (world, shapes) = trimesh_level(params);
    let level = Level::new(shapes).unwrap();
    let config = WorldConfig::new(version)
        .unwrap()
        .with_match_id(MATCH)
        .with_level(level.id());
    let mut world = PinnedWorld::adopt(config, world).unwrap();
    for _ in 0..steps {
        world.step();
    }
    (world, level)
}

#[test]
fn every_scene_restores_the_same_world() {
    for scene in catalog() {
        for version in rapier_pinned::version_table().iter().map(|e| e.number) {
            let config = WorldConfig::new(version).unwrap().with_match_id(MATCH);
            let mut built = scene.build(config.params());
            built.gravity = Vector::from_array(config.entry().gravity);
            let mut world = PinnedWorld::adopt(config, built).unwrap();
            for _ in 0..if scene.name == "mixed_5000" { 3 } else { 20 } {
                world.step();
            }
            let plain = world.snapshot(None);
            let bytes = world.snapshot_linked(None, None).unwrap();
            let info = inspect(&bytes).unwrap();
            assert_eq!(info.format_version, FORMAT_VERSION_3);
            assert_eq!(info.level, None);
            let restored = PinnedWorld::restore(config, &bytes, None).unwrap();
            assert_eq!(restored.tick(), world.tick());
            assert_eq!(restored.snapshot(None), plain, "{} v{version}", scene.name);
        }
    }
}

#[test]
fn a_world_on_a_level_restores_with_it_and_steps_the_same() {
    let (world, level) = on_level(PhysicsVersion::V3, 20);
    let config = *world.config();
    let key = SnapshotKey::new([4; 32]);
    let plain = world.snapshot(None);
    let compressed = world.snapshot_compressed(None);
    let linked = world.snapshot_linked(Some(&level), Some(&key)).unwrap();
    let info = inspect(&linked).unwrap();
    assert_eq!(info.level, Some(level.id()));
    assert!(info.authenticated && info.compressed);
    // The terrain alone is megabytes; the linked snapshot has only the bodies and contacts.
    assert!(level.bytes().len() > 2_000_000, "{}", level.bytes().len());
    assert!(
        linked.len() * 10 < compressed.len(),
        "linked {} compressed {}",
        linked.len(),
        compressed.len()
    );
    let mut restored = PinnedWorld::restore_on(config, Some(&level), &linked, Some(&key)).unwrap();
    assert_eq!(restored.snapshot(None), plain);
    let (gravity, params) = recorded_params_on(&linked, Some(&level)).unwrap();
    assert_eq!((gravity, params.dt), (config.gravity(), config.params().dt));

    // A world restored from a snapshot holds its own copies of the level's shapes; they are
    // still found by their bytes, so its snapshot refers to the level as the original's does.
    assert_eq!(
        restored.snapshot_linked(Some(&level), Some(&key)).unwrap(),
        linked
    );
    let mut original = world;
    assert_steps_alike(&mut original, &mut restored, 10, "on a level");
}

#[test]
fn a_level_is_needed_and_must_be_the_one_named() {
    let (world, level) = on_level(PhysicsVersion::V3, 2);
    let config = *world.config();
    let linked = world.snapshot_linked(Some(&level), None).unwrap();
    let other = Level::new(vec![SharedShape::cuboid(1.0, 2.0, 3.0)]).unwrap();
    let mut target = PinnedWorld::new(config);
    let mut tally = Tally::default();

    let missing = tally.attempt_on(&mut target, None, &linked, ErrorKind::LevelMissing, "none");
    assert_eq!(missing, Some(Error::LevelMissing { needed: level.id() }));
    assert!(missing
        .unwrap()
        .to_string()
        .contains(&level.id().to_string()));
    let wrong = tally.attempt_on(
        &mut target,
        Some(&other),
        &linked,
        ErrorKind::WrongLevel,
        "other",
    );
    assert_eq!(
        wrong,
        Some(Error::WrongLevel {
            needed: level.id(),
            given: other.id()
        })
    );
    // A world whose config is on no level is another match: the digest covers the level.
    let off_level = WorldConfig::new(PhysicsVersion::V3)
        .unwrap()
        .with_match_id(MATCH);
    assert_ne!(off_level.digest(), config.digest());
    let refused = PinnedWorld::restore_on(off_level, Some(&level), &linked, None).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::ConfigDigestMismatch);
    tally.finish("format 3");

    // Saving checks the level against the config too.
    assert_eq!(
        world.snapshot_linked(None, None),
        Err(Error::LevelMissing { needed: level.id() })
    );
    assert_eq!(
        world.snapshot_linked(Some(&other), None),
        Err(Error::WrongLevel {
            needed: level.id(),
            given: other.id()
        })
    );
}

#[test]
fn a_level_is_read_only_from_its_own_canonical_bytes() {
    let (_, shapes) = trimesh_level(WorldConfig::new(VERSION).unwrap().params());
    let level = Level::new(shapes).unwrap();
    assert_eq!(level.shapes().len(), 2);
    let read = Level::from_bytes(level.bytes(), level.id()).unwrap();
    assert_eq!(read.id(), level.id());
    assert_eq!(read.bytes(), level.bytes());
    // The terrain has its triangles back.
    let mesh = read.shapes()[0].as_trimesh().unwrap();
    assert_eq!(
        mesh.indices().len(),
        2 * (LEVEL_GRID - 1) * (LEVEL_GRID - 1)
    );

    let other = LevelId([1; 32]);
    assert!(matches!(
        Level::from_bytes(level.bytes(), other),
        Err(LevelError::WrongId { expected, found }) if expected == other && found == level.id()
    ));
    assert_eq!(Level::read(b"RPINLEV").unwrap_err(), LevelError::BadMagic);
    let mut bytes = level.bytes().to_vec();
    bytes[8] = 2;
    assert_eq!(
        Level::read(&bytes).unwrap_err(),
        LevelError::UnknownFormat(2)
    );
    let cut = &level.bytes()[..level.bytes().len() - 1];
    assert!(matches!(Level::read(cut), Err(LevelError::Undecodable(_))));
    // A trailing byte is refused by the decoder; a bool of 2 is not canonical bincode.
    let mut long = level.bytes().to_vec();
    long.push(0);
    assert!(matches!(
        Level::read(&long),
        Err(LevelError::Undecodable(_))
    ));
}

/// Every single-byte change of a small level is refused, typed, or reads as a level whose bytes
/// are exactly the changed ones (never a panic, never a level with other bytes than read).
#[test]
fn a_changed_level_byte_is_refused_or_is_another_canonical_level() {
    let level = Level::new(vec![
        SharedShape::convex_hull(&[
            Vector::new(0.0, 0.0, 0.0),
            Vector::new(1.0, 0.0, 0.0),
            Vector::new(0.0, 1.0, 0.0),
            Vector::new(0.0, 0.0, 1.0),
        ])
        .unwrap(),
        SharedShape::cuboid(1.0, 2.0, 3.0),
    ])
    .unwrap();
    let (mut refused, mut read) = (0, 0);
    for i in 0..level.bytes().len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bytes = level.bytes().to_vec();
            bytes[i] ^= flip;
            match std::panic::catch_unwind(|| Level::read(&bytes)) {
                Err(_) => panic!("byte {i} ^ {flip:#x}: panic"),
                Ok(Ok(other)) => {
                    assert_eq!(other.bytes(), &bytes[..]);
                    read += 1;
                }
                Ok(Err(_)) => refused += 1,
            }
        }
    }
    println!("{refused} refused, {read} read as another canonical level");
    assert!(refused > 0);
}

/// A shape several colliders share (one `Arc`) is written once and repeated: for one larger
/// than LZ4's 64 KiB window, format 2 stores every copy and format 3 one.
#[test]
fn a_shared_or_copied_shape_is_stored_once() {
    let config = common::config();
    let n = 60;
    let vertices = (0..n * n)
        .map(|k| {
            Vector::new(
                (k % n) as Real,
                ((k * 7) % 5) as Real * 0.1,
                (k / n) as Real,
            )
        })
        .collect();
    let indices = (0..(n - 1) * (n - 1))
        .flat_map(|k| {
            let a = (k / (n - 1) * n + k % (n - 1)) as u32;
            let (b, c, d) = (a + 1, a + n as u32, a + n as u32 + 1);
            [[a, c, b], [b, c, d]]
        })
        .collect();
    let mesh = SharedShape::trimesh(vertices, indices).unwrap();
    let build = |shared: bool| {
        let mut world = PinnedWorld::new(config);
        for i in 0..4 {
            let shape = if shared {
                mesh.clone()
            } else {
                SharedShape::new(mesh.as_trimesh().unwrap().clone())
            };
            let at = Vector::new(i as Real * 70.0, 0.0, 0.0);
            world.insert_collider(ColliderBuilder::new(shape).translation(at), None);
        }
        let ball = world.insert_body(RigidBodyBuilder::dynamic().translation(Vector::Y * 2.0));
        world.insert_collider(ColliderBuilder::ball(0.5), Some(ball));
        world.step();
        world
    };
    let (shared, separate) = (build(true), build(false));
    assert_eq!(shared.snapshot(None), separate.snapshot(None));
    let once = shared.snapshot_linked(None, None).unwrap();
    let each = separate.snapshot_linked(None, None).unwrap();
    let compressed = shared.snapshot_compressed(None);
    println!(
        "shared {} bytes, separate {}, format 2 {}",
        once.len(),
        each.len(),
        compressed.len()
    );
    // Shared or four equal copies, the mesh is stored once: format 2 stores every copy.
    assert!(once.len() * 3 < compressed.len(), "{}", once.len());
    assert_eq!(each.len(), once.len());
    // A restored world holds copies (rapier's serde shares no `Arc`): still stored once.
    let restored = PinnedWorld::restore(config, &once, None).unwrap();
    assert_eq!(restored.snapshot(None), shared.snapshot(None));
    let again = restored.snapshot_linked(None, None).unwrap();
    assert_eq!(again.len(), once.len());
    // Copies that differ in one vertex are two shapes: both are stored.
    let mut other = mesh.as_trimesh().unwrap().vertices().to_vec();
    other[5].y += 0.5;
    let indices = mesh.as_trimesh().unwrap().indices().to_vec();
    let mut differing = build(true);
    let handle = differing.colliders().iter().next().unwrap().0;
    let changed = SharedShape::trimesh(other, indices).unwrap();
    differing.collider_mut(handle).unwrap().set_shape(changed);
    let two = differing.snapshot_linked(None, None).unwrap();
    assert!(
        two.len() > once.len() * 3 / 2,
        "{} {}",
        two.len(),
        once.len()
    );
}

/// A format-3 stored payload of `tower(12)` under a valid checksum: the level id, then `stream`
/// (compressed first when `compressed`).
fn sealed(stream: &[u8], compressed: bool) -> Vec<u8> {
    let mut stored = vec![0; 32];
    if compressed {
        stored.extend_from_slice(&compress_payload(stream));
    } else {
        stored.extend_from_slice(stream);
    }
    let flags = if compressed { FLAG_COMPRESSED } else { 0 };
    seal_stored(
        FORMAT_VERSION_3,
        flags,
        SnapshotHeader::new(&config(), 3),
        &stored,
        None,
    )
}

#[test]
fn bad_record_streams_are_refused_with_their_cause() {
    let source = tower(12);
    let payload = encode_world(source.world());
    let good = source.snapshot_linked(None, None).unwrap();
    let mut target = tower(5);
    let mut tally = Tally::default();
    tally.attempt(&mut target, &good, None, None, "as written");

    let literal = |bytes: &[u8]| {
        let mut s = (payload.len() as u64).to_le_bytes().to_vec();
        s.push(0);
        s.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        s.extend_from_slice(bytes);
        s
    };
    // Uncompressed (flag bit 1 clear) is valid.
    tally.attempt(
        &mut target,
        &sealed(&literal(&payload), false),
        None,
        None,
        "plain",
    );
    tally.attempt(
        &mut target,
        &sealed(&literal(&payload), true),
        None,
        None,
        "compressed",
    );

    let cases: Vec<(&str, Vec<u8>, LinkError)> = vec![
        (
            "one byte short",
            literal(&payload[..payload.len() - 1]),
            LinkError::LengthMismatch {
                written: payload.len() as u64 - 1,
                stated: payload.len() as u64,
            },
        ),
        (
            "unknown tag",
            {
                let mut s = literal(&payload);
                s[8] = 9;
                s
            },
            LinkError::UnknownRecord { tag: 9, at: 8 },
        ),
        (
            "a level shape without a level",
            {
                let mut s = (64u64).to_le_bytes().to_vec();
                s.extend_from_slice(&[1, 0, 0, 0, 0]);
                s
            },
            LinkError::NoSuchShape { index: 0, count: 0 },
        ),
        (
            "a repeat ahead of the output",
            {
                let mut s = 16u64.to_le_bytes().to_vec();
                s.push(2);
                s.extend_from_slice(&0u64.to_le_bytes());
                s.extend_from_slice(&16u32.to_le_bytes());
                s
            },
            LinkError::RepeatAhead {
                offset: 0,
                len: 16,
                written: 0,
            },
        ),
        (
            "a gigabyte from a few bytes",
            {
                let mut s = (1u64 << 29).to_le_bytes().to_vec();
                s.extend_from_slice(&[0, 1, 0, 0, 0, 7]);
                s
            },
            LinkError::BeyondStream {
                stated: 1 << 29,
                reachable: 255 * 14,
            },
        ),
    ];
    for (case, stream, cause) in cases {
        for compressed in [false, true] {
            let found = tally.attempt(
                &mut target,
                &sealed(&stream, compressed),
                None,
                Some(ErrorKind::Link),
                case,
            );
            assert_eq!(found, Some(Error::Link(cause.clone())), "{case}");
        }
    }
    // Shorter than its level id.
    let short = seal_stored(
        FORMAT_VERSION_3,
        0,
        SnapshotHeader::new(&config(), 3),
        &[0; 31],
        None,
    );
    tally.attempt(
        &mut target,
        &short,
        None,
        Some(ErrorKind::Link),
        "no level id",
    );
    tally.finish("format 3");
}

/// A small world on a small level whose record stream holds every record kind: `tower(12)` with a
/// 32-triangle trimesh of the level on a fixed collider and one hull shared by three dynamic
/// bodies. Its config, level, the snapshot and the uncompressed record stream.
fn small_on_level() -> (WorldConfig, Level, Vec<u8>, Vec<u8>) {
    let n = 5u32;
    let vertices = (0..n * n)
        .map(|k| Vector::new((k % n) as Real, 0.0, (k / n) as Real))
        .collect();
    let indices = (0..(n - 1) * (n - 1))
        .flat_map(|k| {
            let a = k / (n - 1) * n + k % (n - 1);
            [[a, a + n, a + 1], [a + 1, a + n, a + n + 1]]
        })
        .collect();
    let level = Level::new(vec![SharedShape::trimesh(vertices, indices).unwrap()]).unwrap();
    let config = common::config().with_level(level.id());
    let tower = tower(12);
    let mut built = PhysicsWorld::new();
    built.integration_parameters = config.params();
    built.gravity = config.gravity();
    let mut world = PinnedWorld::adopt(config, built).unwrap();
    for (_, c) in tower
        .colliders()
        .iter()
        .filter(|(_, c)| c.parent().is_none())
    {
        world.insert_collider(c.clone(), None);
    }
    let at = Vector::new(30.0, 0.0, 0.0);
    world.insert_collider(
        ColliderBuilder::new(level.shapes()[0].clone()).translation(at),
        None,
    );
    let hull = hull_level().shapes()[0].clone();
    for i in 0..3 {
        let body = RigidBodyBuilder::dynamic().translation(Vector::new(i as Real * 2.0, 1.0, 5.0));
        let body = world.insert_body(body);
        world.insert_collider(ColliderBuilder::new(hull.clone()), Some(body));
    }
    for _ in 0..10 {
        world.step();
    }
    let snapshot = world.snapshot_linked(Some(&level), None).unwrap();
    let stream = decompress_payload(&snapshot[HEADER_LEN + 32..]).unwrap();
    (config, level, snapshot, stream)
}

/// A level of one convex hull: its shape is what [`small_on_level`]'s bodies share.
fn hull_level() -> Level {
    let points = [
        Vector::new(0.0, 0.0, 0.0),
        Vector::new(0.6, 0.0, 0.0),
        Vector::new(0.0, 0.6, 0.0),
        Vector::new(0.0, 0.0, 0.6),
        Vector::new(0.4, 0.4, 0.4),
    ];
    Level::new(vec![SharedShape::convex_hull(&points).unwrap()]).unwrap()
}

/// The mutation gate on the record stream: single-bit, single-byte and small-integer changes of
/// an uncompressed stream with literal, level and repeat records, each sealed with a valid
/// checksum and restored with the level: refused with a typed error and the target unchanged, or
/// restored to exactly the world the changed stream expands to. Never a panic.
#[test]
fn mutated_record_streams_are_refused_or_expand_to_what_they_say() {
    let (config, level, snapshot, stream) = small_on_level();
    // Every record kind is in the stream: the level's trimesh is one level record and two of the
    // hull's three copies are repeats, so the stream is shorter than the payload by at least their
    // bytes, less the 8-byte length, the records and the literals' headers.
    let payload_len = expand_linked(&snapshot, Some(&level)).unwrap().len();
    let shape_len = |l: &Level| l.bytes().len() - 24; // a level's 16-byte header and count
    let saved = shape_len(&level) + 2 * shape_len(&hull_level());
    assert!(
        stream.len() + saved <= payload_len + 8 + 4 * 13 + 4 * 5,
        "{}",
        stream.len()
    );
    let reseal = |stream: &[u8]| {
        let stored = [&level.id().0[..], stream].concat();
        seal_stored(
            FORMAT_VERSION_3,
            0,
            SnapshotHeader {
                physics_version: VERSION,
                tick: 10,
                config_digest: config.digest(),
            },
            &stored,
            None,
        )
    };
    let mut target = PinnedWorld::restore_on(config, Some(&level), &snapshot, None).unwrap();
    let mut tally = Tally::default();
    tally.attempt_on_ok(&mut target, Some(&level), &reseal(&stream), "as written");
    let mut rng = common::SplitMix(0x6c69_6e6b);
    let (mut refused, mut restored) = (Counts::default(), 0);
    for case in 0..3000 {
        let mut changed = stream.clone();
        common::mutate(&mut rng, &mut changed, case);
        let bytes = reseal(&changed);
        match tally.attempt_any_on(&mut target, Some(&level), &bytes, &format!("case {case}")) {
            Some(e) => refused.add(e.kind().as_str()),
            None => {
                // Restored: the world is what the changed stream expands to.
                let payload = expand_linked(&bytes, Some(&level)).unwrap();
                assert_eq!(
                    &target.snapshot(None)[HEADER_LEN..],
                    &payload[..],
                    "case {case}"
                );
                restored += 1;
            }
        }
    }
    println!(
        "3000 mutated streams: {restored} restored, refused {:?}",
        refused.0
    );
    assert!(refused.0.contains_key("Link") && refused.0.contains_key("Undecodable"));
    tally.finish("mutated record streams");
}

/// Counts by name, in name order.
#[derive(Default)]
struct Counts(std::collections::BTreeMap<&'static str, usize>);

impl Counts {
    fn add(&mut self, name: &'static str) {
        *self.0.entry(name).or_default() += 1;
    }
}
