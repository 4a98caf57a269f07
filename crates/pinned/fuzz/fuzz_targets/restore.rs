//! `restore`: arbitrary bytes → `PinnedWorld::restore_into` on a small non-empty world under
//! physics-version 2 (match id 7), without a key and with the fleet key.
//!
//! Asserts: no panic escapes `restore_into`; on error the world's snapshot bytes and tick are
//! exactly as before (atomicity); on success the restored world re-encodes to the input's
//! payload (a snapshot that restores is canonical). Inputs that pass the checksum are only the
//! seeds and their re-framings: the checksum (BLAKE3) walls the decoder off from random bytes, so
//! this target covers framing, header checks, lengths, checksum and MAC; `restore_then_step`
//! covers what lies behind them.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rapier_pinned::testing::decompress_payload;
use rapier_pinned::{
    PhysicsVersion, PinnedWorld, SnapshotHeader, SnapshotKey, WorldConfig, FLAG_COMPRESSED,
    HEADER_LEN,
};
use rapier_pinned_fuzz::{config, in_restore, install_panic_policy, key, small_world, write_seeds};
use std::sync::{Mutex, OnceLock};

struct State {
    world: PinnedWorld,
    key: SnapshotKey,
    /// `world.snapshot(None)` and `world.tick()` while it is the reference world.
    reference: Vec<u8>,
    tick: u64,
}

fn state() -> &'static Mutex<State> {
    static STATE: OnceLock<Mutex<State>> = OnceLock::new();
    STATE.get_or_init(|| {
        install_panic_policy();
        let world = small_world(12);
        let reference = world.snapshot(None);
        let tick = world.tick();
        write_seeds(|| seeds(&world));
        Mutex::new(State {
            world,
            key: key(),
            reference,
            tick,
        })
    })
}

/// Valid snapshots (plain and authenticated, two ticks), and near misses: another
/// physics-version, another match, an authenticated one with a stray key.
fn seeds(world: &PinnedWorld) -> Vec<(String, Vec<u8>)> {
    let key = key();
    let other_key = SnapshotKey::new([1; 32]);
    let later = small_world(40);
    // A physics-version 1 framing (refused by the target world before its payload is read).
    let v1 = {
        let c = WorldConfig::new(PhysicsVersion::V1).unwrap();
        rapier_pinned::testing::seal(
            SnapshotHeader {
                physics_version: PhysicsVersion::V1,
                tick: 12,
                config_digest: c.digest(),
            },
            &rapier_pinned::testing::encode_world(world.world()),
            None,
        )
    };
    let other_match = {
        let c = config().with_match_id(8);
        rapier_pinned::testing::seal(
            SnapshotHeader::new(&c, 12),
            &rapier_pinned::testing::encode_world(world.world()),
            None,
        )
    };
    vec![
        ("tick12-plain".into(), world.snapshot(None)),
        ("tick12-mac".into(), world.snapshot(Some(&key))),
        ("tick12-other-key".into(), world.snapshot(Some(&other_key))),
        ("tick40-plain".into(), later.snapshot(None)),
        // Format 2, compressed payload (flag bit 1), plain and authenticated.
        ("tick12-compressed".into(), world.snapshot_compressed(None)),
        (
            "tick12-compressed-mac".into(),
            world.snapshot_compressed(Some(&key)),
        ),
        ("v1-framing".into(), v1),
        ("other-match".into(), other_match),
        (
            "header-only".into(),
            world.snapshot(None)[..HEADER_LEN].to_vec(),
        ),
    ]
}

fuzz_target!(|data: &[u8]| {
    let mut guard = state().lock().unwrap_or_else(|e| e.into_inner());
    let st = &mut *guard;
    for with_key in [false, true] {
        let key = with_key.then_some(&st.key);
        let result = in_restore("restore", data, || st.world.restore_into(data, key));
        match result {
            Err(e) => {
                assert!(
                    st.world.tick() == st.tick && st.world.snapshot(None) == st.reference,
                    "a failed restore ({e:?}) changed the world"
                );
            }
            Ok(()) => {
                let again = st.world.snapshot(None);
                let compressed = u16::from_le_bytes([data[10], data[11]]) & FLAG_COMPRESSED != 0;
                let stored = &data[HEADER_LEN..];
                let payload = match compressed {
                    true => decompress_payload(stored).expect("an accepted payload decompresses"),
                    false => stored.to_vec(),
                };
                assert_eq!(
                    &again[HEADER_LEN..],
                    &payload[..],
                    "an accepted snapshot does not re-encode to its own payload"
                );
                st.world
                    .restore_into(&st.reference.clone(), None)
                    .expect("the reference snapshot restores");
                assert_eq!(st.world.tick(), st.tick);
            }
        }
    }
});
