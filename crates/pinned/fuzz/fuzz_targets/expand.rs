//! `expand`: arbitrary bytes → `rapier_pinned::testing::expand_record_stream`, the bounded
//! expansion of a format-3 record stream (`docs/protocol.md` §3.2, check 11.2) with a small level
//! (a trimesh and a heightfield), and `expand_delta_stream`, that of a format-4 stream (§3.4)
//! against a baseline (the level's bytes), which a restore runs only after the checksum and the
//! MAC have verified the stored bytes (and after the decompression): this target reaches them
//! directly.
//!
//! Asserts: no panic; a success returns exactly the stated expanded length (the first 8 bytes,
//! u64 little-endian), at most 2^30 and at most 255 × the stream plus the level's shape bytes
//! (format 3) or the baseline's bytes (format 4); a refusal is `PayloadTooLarge` (stated length
//! over 2^30) or `Link`; and the same bytes without the level expand the same or are refused.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rapier_pinned::testing::{expand_delta_stream, expand_record_stream};
use rapier_pinned::{Baseline, ErrorKind, Level, PAYLOAD_LIMIT};
use rapier_pinned_fuzz::small_level;
use std::sync::OnceLock;

fn level() -> &'static Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    LEVEL.get_or_init(small_level)
}

fn baseline() -> &'static Baseline {
    static BASELINE: OnceLock<Baseline> = OnceLock::new();
    BASELINE.get_or_init(|| Baseline::from_payload(level().bytes().to_vec()))
}

/// A success is exactly the stated length, within the limit and `refs` bytes beyond 255 × the
/// stream; a refusal is typed.
fn check(data: &[u8], expanded: Result<Vec<u8>, rapier_pinned::Error>, refs: u64) {
    match expanded {
        Ok(payload) => {
            let stated = u64::from_le_bytes(data[..8].try_into().unwrap());
            assert_eq!(payload.len() as u64, stated);
            assert!(stated <= PAYLOAD_LIMIT);
            assert!(stated <= 255 * data.len() as u64 + refs);
        }
        Err(e) => assert!(
            matches!(e.kind(), ErrorKind::PayloadTooLarge | ErrorKind::Link),
            "{e:?}"
        ),
    }
}

fuzz_target!(|data: &[u8]| {
    let level = level();
    let level_bytes = level.bytes().len() as u64;
    check(data, expand_record_stream(data, Some(level)), level_bytes);
    let baseline = baseline();
    let baseline_bytes = baseline.payload().len() as u64;
    check(data, expand_delta_stream(data, baseline), baseline_bytes);
    if let Ok(without) = expand_record_stream(data, None) {
        assert_eq!(Ok(without), expand_record_stream(data, Some(level)));
    }
});
