//! Property tests with a fixed budget: arbitrary byte mutations of a valid snapshot never panic,
//! succeed only when the bytes are unchanged, and leave the target unchanged on error; and
//! arbitrary mutations of the payload, re-sealed with a valid checksum, reach the decoder and the
//! validation without a panic. Both for format 1 and for format 2 with a compressed payload (whose
//! re-sealed mutations hit the stored LZ4 bytes, so they reach the bounded decompression first).

mod common;

use common::{config, tower};
use proptest::prelude::*;
use rapier_pinned::testing::{seal, seal_stored};
use rapier_pinned::{PinnedWorld, SnapshotHeader, FLAG_COMPRESSED, FORMAT_VERSION_2};
use std::sync::OnceLock;

/// One mutation: overwrite, insert or delete a range.
#[derive(Clone, Debug)]
enum Mutation {
    Overwrite { at: usize, bytes: Vec<u8> },
    Insert { at: usize, bytes: Vec<u8> },
    Delete { at: usize, len: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let bytes = proptest::collection::vec(any::<u8>(), 1..16);
    prop_oneof![
        (any::<usize>(), bytes.clone()).prop_map(|(at, bytes)| Mutation::Overwrite { at, bytes }),
        (any::<usize>(), bytes).prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Delete { at, len }),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let n = bytes.len();
    match m {
        Mutation::Overwrite { at, bytes: b } => {
            let at = at % n;
            for (i, x) in b.iter().enumerate() {
                if at + i < n {
                    bytes[at + i] = *x;
                }
            }
        }
        Mutation::Insert { at, bytes: b } => {
            let at = at % (n + 1);
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::Delete { at, len } => {
            let at = at % n;
            bytes.drain(at..(at + len).min(n));
        }
    }
}

/// A valid snapshot of another state than the target's and its payload, built once.
fn fixture() -> &'static (Vec<u8>, Vec<u8>) {
    static FIXTURE: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let source = tower(12);
        let payload = rapier_pinned::testing::encode_world(source.world());
        (source.snapshot(None), payload)
    })
}

/// The same state as a compressed (format 2) snapshot and its stored, compressed payload.
fn compressed_fixture() -> &'static (Vec<u8>, Vec<u8>) {
    static FIXTURE: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let source = tower(12);
        let stored = rapier_pinned::testing::compress_payload(
            &rapier_pinned::testing::encode_world(source.world()),
        );
        (source.snapshot_compressed(None), stored)
    })
}

fn target() -> PinnedWorld {
    tower(4)
}

/// `mutations` applied to `bytes`.
fn mutated(bytes: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for m in mutations {
        apply(&mut bytes, m);
    }
    bytes
}

/// Restores `bytes`, a mutation of the valid snapshot `good`: accepted only if unchanged, and a
/// refusal leaves the target as it was.
fn refused_or_unchanged(good: &[u8], bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut world = target();
    let before = world.snapshot(None);
    match world.restore_into(bytes, None) {
        Ok(()) => prop_assert_eq!(bytes, good, "a changed snapshot was accepted"),
        Err(_) => prop_assert_eq!(world.snapshot(None), before),
    }
    Ok(())
}

/// Restores the resealed (checksum-valid) `bytes`: a refusal leaves the target as it was and is
/// not a caught panic.
fn resealed_refused_cleanly(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut world = target();
    let before = world.snapshot(None);
    if let Err(e) = world.restore_into(bytes, None) {
        prop_assert_eq!(world.snapshot(None), before);
        // A panic inside rapier caught by the restore would say so; none is expected.
        prop_assert!(!e.to_string().contains("panic while decoding"), "{}", e);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mutated_snapshots(mutations in proptest::collection::vec(mutation(), 1..4)) {
        let (good, _) = fixture();
        refused_or_unchanged(good, &mutated(good, &mutations))?;
    }

    #[test]
    fn mutated_payloads_resealed(mutations in proptest::collection::vec(mutation(), 1..4)) {
        let (_, payload) = fixture();
        let p = mutated(payload, &mutations);
        let bytes = seal(SnapshotHeader::new(&config(), 12), &p, None);
        resealed_refused_cleanly(&bytes)?;
    }

    #[test]
    fn mutated_compressed_snapshots(mutations in proptest::collection::vec(mutation(), 1..4)) {
        let (good, _) = compressed_fixture();
        refused_or_unchanged(good, &mutated(good, &mutations))?;
    }

    #[test]
    fn mutated_compressed_payloads_resealed(
        mutations in proptest::collection::vec(mutation(), 1..4)
    ) {
        let (_, stored) = compressed_fixture();
        let p = mutated(stored, &mutations);
        let bytes = seal_stored(FORMAT_VERSION_2, FLAG_COMPRESSED, SnapshotHeader::new(&config(), 12), &p, None);
        resealed_refused_cleanly(&bytes)?;
    }
}
