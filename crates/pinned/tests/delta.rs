//! Snapshot format 4 (`docs/protocol.md` §3.4): a delta written against a baseline the receiver
//! holds. It restores to exactly the world format 1 gives (every catalog scene, every version),
//! a receiver that restored the baseline's snapshot holds the same baseline, a delta is refused,
//! typed, without its baseline or with another, and a bad record stream is refused with its
//! cause, never with a panic and never leaving the target changed.

mod common;

use common::{assert_steps_alike, config, tower, Tally, MATCH};
use rapier_pinned::testing::{decompress_payload, expand_delta, seal_stored};
use rapier_pinned::{
    inspect, Baseline, Error, ErrorKind, LinkError, PinnedWorld, SnapshotHeader, WorldConfig,
    FORMAT_VERSION_4, HEADER_LEN,
};
use rapier_pinned_scenes::catalog;

/// `stream` as a format-4 snapshot of [`config`]'s match at `tick` against `baseline`, its
/// stream stored as it is (flag bit 1 clear), with a valid checksum.
fn sealed(baseline: &Baseline, tick: u64, stream: &[u8]) -> Vec<u8> {
    let stored = [&baseline.id().0[..], stream].concat();
    let config = config();
    let (version, digest) = (config.physics_version(), config.digest());
    seal_stored(
        FORMAT_VERSION_4,
        0,
        SnapshotHeader {
            physics_version: version,
            tick,
            config_digest: digest,
        },
        &stored,
        None,
    )
}

#[test]
fn every_scene_restores_from_a_delta_against_what_the_receiver_restored() {
    for scene in catalog() {
        for version in rapier_pinned::version_table().iter().map(|e| e.number) {
            let config = WorldConfig::new(version).unwrap().with_match_id(MATCH);
            let mut built = scene.build(config.params());
            built.gravity = config.gravity();
            let mut world = PinnedWorld::adopt(config, built).unwrap();
            let steps = if scene.name == "mixed_5000" { 2 } else { 10 };
            for _ in 0..steps {
                world.step();
            }
            // The receiver restores a full snapshot and keeps its baseline; the sender keeps its
            // own. They are the same bytes, so the same id.
            let full = world.snapshot_compressed(None);
            let received = PinnedWorld::restore(config, &full, None)
                .unwrap()
                .baseline();
            let baseline = world.baseline();
            assert_eq!(received.id(), baseline.id(), "{} v{version}", scene.name);
            for _ in 0..steps {
                world.step();
            }
            let delta = world.snapshot_delta(&baseline, None);
            let info = inspect(&delta).unwrap();
            assert_eq!(info.format_version, FORMAT_VERSION_4);
            assert_eq!((info.baseline, info.level), (Some(baseline.id()), None));
            let restored = PinnedWorld::restore_delta(config, &received, &delta, None).unwrap();
            assert_eq!(restored.tick(), world.tick());
            let plain = world.snapshot(None);
            assert_eq!(restored.snapshot(None), plain, "{} v{version}", scene.name);
        }
    }
}

#[test]
fn a_world_restored_from_a_delta_steps_like_its_original() {
    let baseline = tower(20).baseline();
    let mut original = tower(80);
    let delta = original.snapshot_delta(&baseline, None);
    let mut restored = PinnedWorld::restore_delta(config(), &baseline, &delta, None).unwrap();
    assert_steps_alike(&mut original, &mut restored, 60, "tower from a delta");
}

#[test]
fn a_delta_needs_the_baseline_it_names() {
    let baseline = tower(20).baseline();
    let delta = tower(30).snapshot_delta(&baseline, None);
    let mut target = tower(5);
    let mut tally = Tally::default();
    let missing = tally.attempt(
        &mut target,
        &delta,
        None,
        Some(ErrorKind::BaselineMissing),
        "none",
    );
    let needed = baseline.id();
    assert_eq!(missing, Some(Error::BaselineMissing { needed }));
    // A baseline of another tick of the same match is another baseline.
    let other = tower(21).baseline();
    let kind = Some(Some(ErrorKind::WrongBaseline));
    let wrong = tally.attempt_delta(&mut target, &other, &delta, kind, "another tick");
    let given = other.id();
    assert_eq!(wrong, Some(Error::WrongBaseline { needed, given }));
    // The config digest is checked before the baseline: a delta of another match is that.
    let elsewhere = config().with_match_id(MATCH + 1);
    assert_eq!(
        PinnedWorld::restore_delta(elsewhere, &baseline, &delta, None)
            .unwrap_err()
            .kind(),
        ErrorKind::ConfigDigestMismatch
    );
    tally.finish("deltas without their baseline");
}

/// The kinds of the records of an uncompressed format-4 stream, in order (the stream's records
/// as `docs/protocol.md` §3.4 lays them out).
fn record_tags(stream: &[u8]) -> Vec<u8> {
    let mut tags = Vec::new();
    let mut at = 8;
    let u32_at = |i: usize| u32::from_le_bytes(stream[i..i + 4].try_into().unwrap()) as usize;
    while at < stream.len() {
        let tag = stream[at];
        tags.push(tag);
        at += match tag {
            0 => 5 + u32_at(at + 1),
            2 | 3 => 13,
            4 => 13 + u32_at(at + 9),
            _ => panic!("tag {tag} in a written delta"),
        };
    }
    tags
}

/// The mutation gate on the delta's record stream: single-bit, single-byte and small-integer
/// changes of an uncompressed stream with literal, baseline and XOR records, each sealed with a
/// valid checksum and restored with the baseline: refused with a typed error and the target
/// unchanged, or restored to exactly the world the changed stream expands to. Never a panic.
#[test]
fn mutated_deltas_are_refused_or_expand_to_what_they_say() {
    let baseline = tower(5).baseline();
    let delta = tower(12).snapshot_delta(&baseline, None);
    let stream = decompress_payload(&delta[HEADER_LEN + 32..]).unwrap();
    let tags = record_tags(&stream);
    for tag in [0, 3, 4] {
        assert!(tags.contains(&tag), "record {tag} in {tags:?}");
    }
    let reseal = |stream: &[u8]| sealed(&baseline, 12, stream);
    let mut target = tower(3);
    let mut tally = Tally::default();
    tally.attempt_delta(
        &mut target,
        &baseline,
        &reseal(&stream),
        Some(None),
        "as written",
    );
    let mut rng = common::SplitMix(0x6465_6c74);
    let mut refused = std::collections::BTreeMap::<&str, usize>::new();
    let mut restored = 0;
    for case in 0..3000 {
        let mut changed = stream.clone();
        common::mutate(&mut rng, &mut changed, case);
        let bytes = reseal(&changed);
        let case = format!("case {case}");
        match tally.attempt_delta(&mut target, &baseline, &bytes, None, &case) {
            Some(e) => *refused.entry(e.kind().as_str()).or_default() += 1,
            None => {
                let payload = expand_delta(&bytes, &baseline).unwrap();
                assert_eq!(&target.snapshot(None)[HEADER_LEN..], &payload[..], "{case}");
                restored += 1;
            }
        }
    }
    println!("3000 mutated deltas: {restored} restored, refused {refused:?}");
    assert!(refused.contains_key("Link") && refused.contains_key("Undecodable"));
    tally.finish("mutated deltas");
}

#[test]
fn bad_baseline_references_are_refused_with_their_cause() {
    let baseline = tower(5).baseline();
    let len = baseline.payload().len() as u64;
    let record = |tag: u8, offset: u64, n: u32| {
        let mut stream = (n as u64).to_le_bytes().to_vec();
        stream.push(tag);
        stream.extend_from_slice(&offset.to_le_bytes());
        stream.extend_from_slice(&n.to_le_bytes());
        if tag == 4 {
            stream.extend(std::iter::repeat_n(0, n as usize));
        }
        stream
    };
    let cause = |stream: Vec<u8>| {
        let bytes = sealed(&baseline, 5, &stream);
        PinnedWorld::restore_delta(config(), &baseline, &bytes, None).unwrap_err()
    };
    for tag in [3, 4] {
        let beyond = LinkError::BeyondBaseline {
            offset: len - 3,
            len: 4,
            baseline: len,
        };
        assert_eq!(cause(record(tag, len - 3, 4)), Error::Link(beyond));
    }
    // A level record is format 3's: a delta does not know it.
    let mut level_record = 64u64.to_le_bytes().to_vec();
    level_record.extend_from_slice(&[1, 0, 0, 0, 0]);
    assert_eq!(
        cause(level_record),
        Error::Link(LinkError::UnknownRecord { tag: 1, at: 8 })
    );
    // Every baseline byte copied is a whole payload again, so it restores (tick 5's world).
    let bytes = sealed(&baseline, 5, &record(3, 0, len as u32));
    let world = PinnedWorld::restore_delta(config(), &baseline, &bytes, None).unwrap();
    assert_eq!(world.snapshot(None), tower(5).snapshot(None));
}
