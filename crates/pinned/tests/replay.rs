//! Replay files (`docs/protocol.md` §7): a recorded match reads back as written and its worlds
//! restore; a file cut at any byte reads its complete chunks and reports the tear; any changed
//! byte is refused (or, in a chunk's length, read as a tear), never taken; MACs are checked
//! with the key; chunks out of order or of another match are refused, typed; re-stepping names a
//! changed input at its tick; on a level, keyframes refer to the level and restore with it.

use rapier3d::prelude::*;
use rapier_pinned::{
    inspect, EventKind, Level, PhysicsVersion, PinnedWorld, Replay, ReplayError, ReplayEvent,
    ReplayVerdict, ReplayWriter, SnapshotKey, WorldConfig, FORMAT_VERSION_3,
    PHYSICS_VERSION_CURRENT,
};
use rapier_pinned_scenes::state_digest;

const KEYFRAME_EVERY: u32 = 10;
const TICKS: u64 = 25;

/// A small world: a floor and three balls.
fn world(match_id: u64) -> PinnedWorld {
    let config = WorldConfig::new(PHYSICS_VERSION_CURRENT)
        .unwrap()
        .with_match_id(match_id);
    let mut world = PinnedWorld::new(config);
    let floor = world.insert_body(RigidBodyBuilder::fixed());
    world.insert_collider(ColliderBuilder::cuboid(10.0, 0.1, 10.0), Some(floor));
    for i in 0..3 {
        let ball = world.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(
            i as f32,
            1.0 + i as f32,
            0.0,
        )));
        world.insert_collider(ColliderBuilder::ball(0.3), Some(ball));
    }
    world
}

/// What a recording left: the file, the offset after each of its writes (the first: header
/// and start), and the world's format-1 snapshot after each tick (index 0: the start).
struct Recorded {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    states: Vec<Vec<u8>>,
}

/// The offset after each chunk of a replay file, walked by its frames (`docs/protocol.md` §7:
/// kind, u32 length, body, checksum, MAC when flag bit 0 is set), the header's end first.
fn chunk_ends(bytes: &[u8]) -> Vec<usize> {
    let trailer = if bytes[10] & 1 == 1 { 64 } else { 32 };
    let name = u16::from_le_bytes([bytes[113], bytes[114]]) as usize;
    let mut ends = vec![115 + name + trailer];
    while *ends.last().unwrap() < bytes.len() {
        let at = *ends.last().unwrap();
        let len = u32::from_le_bytes(bytes[at + 1..at + 5].try_into().unwrap()) as usize;
        ends.push(at + 5 + len + trailer);
    }
    ends
}

/// Records [`TICKS`] ticks of [`world`]: inputs are an impulse on ball 1 written as the tick's
/// bytes, an event every 7 ticks.
fn record(key: Option<SnapshotKey>) -> Recorded {
    let mut world = world(7);
    let mut states = vec![world.snapshot(None)];
    let mut writer =
        ReplayWriter::start(Vec::new(), &world, None, KEYFRAME_EVERY, "test/1", key).unwrap();
    let mut ends = vec![];
    // The header and the start were written together: the header's end is not observable
    // here, so the first end is the start's.
    ends.push(writer.written() as usize);
    for _ in 0..TICKS {
        let tick = world.tick();
        if tick % 7 == 3 {
            let event = ReplayEvent {
                tick,
                kind: EventKind::Joined,
                client: tick as u32,
                seat: Some(1),
                text: format!("joined at {tick} ✓"),
            };
            writer.event(&event).unwrap();
            ends.push(writer.written() as usize);
        }
        let inputs = (tick as u32).to_le_bytes();
        let ball = RigidBodyHandle::from_raw_parts(1, 0);
        let push = Vector::new(0.0, 0.0, tick as f32 * 0.01);
        world.body_mut(ball).unwrap().apply_impulse(push, true);
        world.step();
        writer.tick(&world, &inputs).unwrap();
        ends.push(writer.written() as usize);
        states.push(world.snapshot(None));
    }
    Recorded {
        bytes: writer.into_inner(),
        ends,
        states,
    }
}

#[test]
fn a_recorded_match_reads_back_and_its_worlds_restore() {
    let recorded = record(None);
    let replay = Replay::read(&recorded.bytes, None).unwrap();
    assert_eq!(replay.tear, None);
    assert_eq!(replay.start_tick, 0);
    assert_eq!(replay.last_tick(), TICKS);
    assert_eq!(replay.header.input_format, "test/1");
    assert_eq!(replay.header.keyframe_every, KEYFRAME_EVERY);
    for (i, t) in replay.ticks.iter().enumerate() {
        assert_eq!(t.tick, i as u64 + 1);
        assert_eq!(t.inputs, (i as u32).to_le_bytes());
    }
    assert_eq!(
        replay.keyframes.iter().map(|k| k.0).collect::<Vec<_>>(),
        [10, 20]
    );
    let ticks: Vec<u64> = replay.events.iter().map(|e| e.tick).collect();
    assert_eq!(ticks, [3, 10, 17, 24]);
    assert_eq!(replay.events[1].text, "joined at 10 ✓");
    let start = replay.start_world(None, None).unwrap();
    assert_eq!(start.snapshot(None), recorded.states[0]);
    for (i, (tick, _)) in replay.keyframes.iter().enumerate() {
        let world = replay.keyframe_world(i, &start, None, None).unwrap();
        assert_eq!(world.snapshot(None), recorded.states[*tick as usize]);
    }
    // Every digest is the state's after its tick.
    for t in &replay.ticks {
        let config = replay.config().unwrap();
        let world = PinnedWorld::restore(config, &recorded.states[t.tick as usize], None).unwrap();
        assert_eq!(t.digest, state_digest(world.bodies()));
    }
    let sizes = replay.sizes;
    let total = sizes.header + sizes.start + sizes.ticks + sizes.keyframes + sizes.events;
    assert_eq!(total, recorded.bytes.len() as u64);
    // Sealed again, the same bytes.
    assert_eq!(replay.seal(None), recorded.bytes);
}

#[test]
fn a_file_cut_at_any_byte_reads_its_complete_chunks_and_reports_the_tear() {
    for key in [None, Some(SnapshotKey::new([3; 32]))] {
        let recorded = record(key.clone());
        let full = Replay::read(&recorded.bytes, key.as_ref()).unwrap();
        let ends = chunk_ends(&recorded.bytes);
        // Every write ends at a chunk's end.
        assert!(recorded.ends.iter().all(|e| ends.contains(e)));
        let after_start = ends[1];
        for cut in 0..recorded.bytes.len() {
            let read = Replay::read(&recorded.bytes[..cut], key.as_ref());
            if cut < after_start {
                assert!(
                    matches!(
                        read,
                        Err(ReplayError::HeaderTorn { .. } | ReplayError::NoStart { .. })
                    ),
                    "cut at {cut}: {read:?}"
                );
                continue;
            }
            let replay = read.unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
            let last_end = *ends.iter().rfind(|e| **e <= cut).unwrap();
            match replay.tear {
                None => assert_eq!(last_end, cut, "cut at {cut}: no tear"),
                Some(tear) => {
                    assert_eq!(tear.offset as usize, last_end, "cut at {cut}");
                    assert_eq!(tear.len as usize, cut - last_end, "cut at {cut}");
                }
            }
            let prefix = Replay::read(&recorded.bytes[..last_end], key.as_ref()).unwrap();
            assert_eq!(replay.ticks, prefix.ticks, "cut at {cut}");
            assert_eq!(replay.ticks[..], full.ticks[..replay.ticks.len()]);
        }
    }
}

#[test]
fn any_changed_byte_is_refused_or_read_as_a_tear() {
    for key in [None, Some(SnapshotKey::new([3; 32]))] {
        let recorded = record(key.clone());
        let mut refused = 0;
        for at in 0..recorded.bytes.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut bytes = recorded.bytes.clone();
                bytes[at] ^= flip;
                match Replay::read(&bytes, key.as_ref()) {
                    Err(_) => refused += 1,
                    // A longer length in a chunk's frame reads as a file cut inside it.
                    Ok(r) => assert!(
                        r.tear.is_some()
                            && (1..5).contains(&(at - r.tear.unwrap().offset as usize)),
                        "byte {at} ^ {flip:#04x} was taken"
                    ),
                }
            }
        }
        assert!(refused > recorded.bytes.len());
    }
}

#[test]
fn macs_are_checked_with_the_key() {
    let key = SnapshotKey::new([3; 32]);
    let signed = record(Some(key.clone())).bytes;
    assert!(Replay::read(&signed, Some(&key)).is_ok());
    // Without the key the checksums are still checked.
    assert!(Replay::read(&signed, None).is_ok());
    let other = SnapshotKey::new([4; 32]);
    assert_eq!(
        Replay::read(&signed, Some(&other)),
        Err(ReplayError::BadMac {
            chunk: 0,
            offset: 0
        })
    );
    let plain = record(None).bytes;
    assert_eq!(
        Replay::read(&plain, Some(&key)),
        Err(ReplayError::MacMissing)
    );
    // A file re-sealed without the key is not the signed one: its MACs are gone.
    let replay = Replay::read(&signed, Some(&key)).unwrap();
    assert_eq!(replay.seal(Some(&key)), signed);
    assert_eq!(
        Replay::read(&replay.seal(None), Some(&key)),
        Err(ReplayError::MacMissing)
    );
}

#[test]
fn chunks_out_of_order_or_of_another_match_are_refused() {
    let replay = Replay::read(&record(None).bytes, None).unwrap();
    let mut gap = replay.clone();
    gap.ticks.remove(4);
    assert!(matches!(
        Replay::read(&gap.seal(None), None),
        Err(ReplayError::OutOfOrder {
            what: "tick record",
            expected: 5,
            found: 6,
            ..
        })
    ));
    let mut late = replay.clone();
    late.keyframes[0].0 = 11;
    assert!(matches!(
        Replay::read(&late.seal(None), None),
        Err(ReplayError::OutOfOrder {
            what: "keyframe",
            expected: 11,
            found: 10,
            ..
        })
    ));
    let mut foreign = replay.clone();
    foreign.start = world(8).snapshot(None);
    assert!(matches!(
        Replay::read(&foreign.seal(None), None),
        Err(ReplayError::ChunkSnapshot { chunk: 1, .. })
    ));
    let mut empty = replay.clone();
    empty.start.clear();
    assert!(matches!(
        Replay::read(&empty.seal(None), None),
        Err(ReplayError::ChunkSnapshot { chunk: 1, .. })
    ));
    assert_eq!(Replay::read(b"RPINSNAP", None), Err(ReplayError::BadMagic));
}

/// [`record`]'s inputs applied again: the tick's impulse on ball 1, read from its bytes.
fn apply(bytes: &[u8], world: &mut PinnedWorld) -> Result<(), String> {
    let tick: [u8; 4] = bytes.try_into().map_err(|_| "not 4 bytes".to_string())?;
    let push = Vector::new(0.0, 0.0, u32::from_le_bytes(tick) as f32 * 0.01);
    let ball = RigidBodyHandle::from_raw_parts(1, 0);
    world
        .body_mut(ball)
        .ok_or("no ball")?
        .apply_impulse(push, true);
    Ok(())
}

#[test]
fn a_replay_re_steps_to_its_digests_and_a_changed_input_is_named_at_its_tick() {
    let replay = Replay::read(&record(None).bytes, None).unwrap();
    let verdict = replay.verify(None, None, None, &mut apply, &mut |_| {});
    assert_eq!(verdict, Ok(ReplayVerdict::Same { from: 0, to: TICKS }));
    // From the keyframe at tick 10 when asked for 15.
    let verdict = replay.verify(None, None, Some(15), &mut apply, &mut |_| {});
    assert_eq!(
        verdict,
        Ok(ReplayVerdict::Same {
            from: 10,
            to: TICKS
        })
    );
    let mut changed = replay.clone();
    changed.ticks[11].inputs = 99u32.to_le_bytes().to_vec(); // tick 12
    let changed = Replay::read(&changed.seal(None), None).unwrap();
    let Ok(ReplayVerdict::Diverges(d)) = changed.verify(None, None, None, &mut apply, &mut |_| {})
    else {
        panic!("a changed input verified");
    };
    assert_eq!(d.tick, 12);
    let body = d.body.clone().unwrap();
    assert_eq!((body.body, body.tick), ((1, 0), 20));
    assert_ne!(body.recorded, body.now);
    let text = d.to_string();
    assert!(
        text.starts_with("diverges at tick 12: state digest recorded "),
        "{text}"
    );
    assert!(
        text.contains("\n  at the next keyframe, tick 20: body 1v0: "),
        "{text}"
    );
    // Inputs that do not decode are an error naming the tick, not a verdict.
    let mut garbled = replay.clone();
    garbled.ticks[3].inputs = vec![1, 2, 3];
    let garbled = Replay::read(&garbled.seal(None), None).unwrap();
    assert!(matches!(
        garbled.verify(None, None, None, &mut apply, &mut |_| {}),
        Err(ReplayError::Inputs { tick: 4, .. })
    ));
}

#[test]
fn under_its_own_version_a_replay_does_not_depart_and_under_another_it_does() {
    let replay = Replay::read(&record(None).bytes, None).unwrap();
    let own = replay
        .depart(PHYSICS_VERSION_CURRENT, None, None, &mut apply)
        .unwrap();
    assert_eq!(own.first, None);
    assert_eq!(own.to, TICKS);
    assert!(own
        .keyframes
        .iter()
        .all(|k| k.bodies == 0 && k.furthest.is_none()));
    // The departure itself is measured where the rules differ: the arena under version 1,
    // crates/cli/tests/replays.rs. A version this build does not know is refused.
    let unknown = PhysicsVersion::new(999);
    assert_eq!(
        replay.depart(unknown, None, None, &mut apply),
        Err(ReplayError::UnknownPhysicsVersion(unknown))
    );
}

#[test]
fn on_a_level_each_keyframe_is_the_smaller_of_linked_and_delta_and_restores_with_the_level() {
    // A floor as the level's one shape, a ball on it.
    let level = Level::new(vec![SharedShape::cuboid(10.0, 0.1, 10.0)]).unwrap();
    let config = WorldConfig::new(PHYSICS_VERSION_CURRENT)
        .unwrap()
        .with_level(level.id());
    let mut world = PinnedWorld::new(config);
    world.insert_collider(ColliderBuilder::new(level.shape(0).unwrap()), None);
    let ball =
        world.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 1.0, 0.0)));
    world.insert_collider(ColliderBuilder::ball(0.3), Some(ball));
    let mut writer = ReplayWriter::start(
        Vec::new(),
        &world,
        Some(&level),
        KEYFRAME_EVERY,
        "test/1",
        None,
    )
    .unwrap();
    let mut states = vec![world.snapshot_linked(Some(&level), None).unwrap()];
    let (mut baseline, mut expected) = (world.baseline(), Vec::new());
    for _ in 0..TICKS {
        world.step();
        writer.tick(&world, &[]).unwrap();
        states.push(world.snapshot(None));
        if world.tick() % u64::from(KEYFRAME_EVERY) == 0 {
            let linked = world.snapshot_linked(Some(&level), None).unwrap();
            let delta = world.snapshot_delta(&baseline, None);
            expected.push(if linked.len() < delta.len() {
                linked
            } else {
                delta
            });
            baseline = world.baseline();
        }
    }
    let mut replay = Replay::read(&writer.into_inner(), None).unwrap();
    assert_eq!(replay.start, states[0]);
    let kept: Vec<&Vec<u8>> = replay.keyframes.iter().map(|k| &k.1).collect();
    assert_eq!(kept, expected.iter().collect::<Vec<_>>());
    // Whatever their formats, the keyframes restore to the recorded worlds, with the level; and a
    // linked keyframe (the first, made one here) needs it.
    replay.keyframes[0].1 = world_at(&states, replay.keyframes[0].0, &level, config);
    let replay = Replay::read(&replay.seal(None), None).unwrap();
    assert_eq!(
        inspect(&replay.keyframes[0].1).unwrap().format_version,
        FORMAT_VERSION_3
    );
    let start = replay.start_world(Some(&level), None).unwrap();
    for (i, (tick, _)) in replay.keyframes.iter().enumerate() {
        let world = replay
            .keyframe_world(i, &start, Some(&level), None)
            .unwrap();
        assert_eq!(world.snapshot(None), states[*tick as usize]);
    }
    assert!(matches!(
        replay.keyframe_world(0, &start, None, None),
        Err(ReplayError::Snapshot(
            rapier_pinned::Error::LevelMissing { .. }
        ))
    ));
    let verdict = replay.verify(
        Some(&level),
        None,
        Some(15),
        &mut |_, _| Ok(()),
        &mut |_| {},
    );
    assert_eq!(
        verdict,
        Ok(ReplayVerdict::Same {
            from: 10,
            to: TICKS
        })
    );
}

/// The linked snapshot (format 3) of the world whose format-1 snapshot is `states[tick]`.
fn world_at(states: &[Vec<u8>], tick: u64, level: &Level, config: WorldConfig) -> Vec<u8> {
    let world = PinnedWorld::restore_on(config, Some(level), &states[tick as usize], None).unwrap();
    world.snapshot_linked(Some(level), None).unwrap()
}
