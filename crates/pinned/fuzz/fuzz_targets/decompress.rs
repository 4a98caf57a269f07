//! `decompress`: arbitrary bytes → `rapier_pinned::testing::decompress_payload`, the bounded decompression
//! of a format-2 compressed payload (`docs/protocol.md` §3.1, check 11.1), which a restore runs
//! only after the checksum and the MAC have verified the stored bytes: this target reaches it
//! directly.
//!
//! Asserts: no panic; a success returns exactly the stated uncompressed length (the first 4
//! bytes, u32 little-endian), at most 2^30 and at most 255 × the block; a refusal is
//! `PayloadTooLarge` (stated length over 2^30) or `Decompression`; and whatever decompresses,
//! compressed again by the wrapper, decompresses to itself.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rapier_pinned::testing::{compress_payload, decompress_payload};
use rapier_pinned::{ErrorKind, PAYLOAD_LIMIT};

fuzz_target!(|data: &[u8]| {
    match decompress_payload(data) {
        Ok(payload) => {
            let stated = u32::from_le_bytes(data[..4].try_into().unwrap()) as usize;
            assert_eq!(payload.len(), stated);
            assert!(payload.len() as u64 <= PAYLOAD_LIMIT);
            assert!(payload.len() as u64 <= 255 * (data.len() as u64 - 4));
            let again = compress_payload(&payload);
            assert_eq!(decompress_payload(&again).unwrap(), payload);
        }
        Err(e) => assert!(
            matches!(
                e.kind(),
                ErrorKind::PayloadTooLarge | ErrorKind::Decompression
            ),
            "{e:?}"
        ),
    }
});
