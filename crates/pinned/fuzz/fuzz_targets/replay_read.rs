//! `replay_read`: arbitrary bytes → `rapier_pinned::Replay::read` (`docs/protocol.md` §7), three
//! ways: the bytes as a whole file; as the start snapshot of a small valid replay, re-sealed;
//! as one of its keyframes, re-sealed (the re-sealed files get past the chained checksums to the
//! chunk checks behind them). The first byte picks the way.
//!
//! Asserts: no panic; a file read is its own bytes: framed again (`Replay::seal`), it gives
//! back exactly the bytes read, without the torn tail (a file with MACs, read without the key,
//! framed again without them, is compared by its chunks' contents instead).

#![no_main]

use libfuzzer_sys::fuzz_target;
use rapier_pinned::{PinnedWorld, Replay, ReplayWriter, SnapshotKey};
use rapier_pinned_fuzz::small_world;
use std::sync::OnceLock;

/// A small replay of the target world: 6 ticks, a keyframe every 3.
fn valid() -> &'static Replay {
    static REPLAY: OnceLock<Replay> = OnceLock::new();
    REPLAY.get_or_init(|| {
        let mut world: PinnedWorld = small_world(0);
        let mut writer = ReplayWriter::start(Vec::new(), &world, None, 3, "fuzz/1", None).unwrap();
        for tick in 0..6u64 {
            world.step();
            writer.tick(&world, &tick.to_le_bytes()).unwrap();
        }
        Replay::read(&writer.into_inner(), None).unwrap()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&way, rest)) = data.split_first() else {
        return;
    };
    let file = match way % 3 {
        0 => rest.to_vec(),
        1 => Replay {
            start: rest.to_vec(),
            ..valid().clone()
        }
        .seal(None),
        _ => {
            let mut replay = valid().clone();
            replay.keyframes[0].1 = rest.to_vec();
            replay.seal(None)
        }
    };
    for key in [None, Some(SnapshotKey::new([7; 32]))] {
        let Ok(replay) = Replay::read(&file, key.as_ref()) else {
            continue;
        };
        let read = file.len() - replay.tear.map_or(0, |t| t.len as usize);
        if !replay.header.authenticated {
            assert_eq!(replay.seal(None), file[..read]);
        } else if let Some(key) = &key {
            assert_eq!(replay.seal(Some(key)), file[..read]);
        }
    }
});
