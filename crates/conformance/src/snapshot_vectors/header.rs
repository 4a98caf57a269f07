//! The snapshot header as the generator and the checker address it (`docs/protocol.md` §3): the
//! offsets of the fields they change or compare, and the checksum and MAC recomputed over a
//! header the wrapper would not write.

use rapier_pinned::HEADER_LEN;

/// The header offset of the format version (u16 LE, `docs/protocol.md` §3).
pub(super) const FORMAT_AT: usize = 8;
/// The header offset of the flags (u16 LE).
pub(super) const FLAGS_AT: usize = 10;
/// The header offset of the tick (u64 LE).
pub(super) const TICK_AT: usize = 16;
/// The header offset of the payload length (u64 LE).
pub(super) const LENGTH_AT: usize = 56;
/// The header offset of the MAC (32 bytes, the last of the header).
pub(super) const MAC_AT: usize = 96;

/// BLAKE3 of the bytes the checksum and the MAC cover (`docs/protocol.md` §3): the header with
/// offsets 64..128 zeroed, then the payload.
fn covered(bytes: &[u8], mut hasher: blake3::Hasher) -> [u8; 32] {
    hasher.update(&bytes[..64]);
    hasher.update(&[0; 64]);
    hasher.update(&bytes[HEADER_LEN..]);
    *hasher.finalize().as_bytes()
}

/// Recomputes the checksum of a header the wrapper would not write (and the MAC, with `key`).
pub(super) fn reseal(bytes: &mut [u8], key: Option<&[u8; 32]>) {
    let checksum = covered(bytes, blake3::Hasher::new());
    bytes[64..96].copy_from_slice(&checksum);
    if let Some(key) = key {
        let mac = covered(bytes, blake3::Hasher::new_keyed(key));
        bytes[96..128].copy_from_slice(&mac);
    }
}
