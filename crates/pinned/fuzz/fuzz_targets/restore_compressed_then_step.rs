//! `restore_compressed_then_step`: `restore_then_step` for snapshot format 2 with a compressed
//! payload (flag bit 1, `docs/protocol.md` §3.1): a valid payload, mutated, compressed and
//! *re-sealed* with a valid checksum (and MAC), restored into a small world, then stepped.
//!
//! Input: as `restore_then_step`'s (byte 0: bit 0 the base world, tick 3 or 40 of
//! `small_world`; bit 1 the seal, authenticated or not; bits 2..=3 + 1 the steps after a
//! successful restore, 1–4; the rest 4-byte xor operations `[o0, o1, o2, x]`), and bit 4 of byte 0
//! picks which bytes the operations mutate (`MUTATE_STORED`, `MutatedSnapshot::new_compressed`
//! in `src/world.rs`):
//!
//! - clear: the plain payload, before it is compressed (`seal_compressed`). Every input reaches
//!   the decompression with a valid block, then the decoder, the parameter diff and the
//!   structural/finiteness validation, as in `restore_then_step`, through format 2's path;
//! - set: the stored bytes, the u32 uncompressed length and the LZ4 block of the base's payload,
//!   sealed as they are (`seal_stored`). Every input reaches the bounded decompression behind the
//!   checksum and the MAC (which `restore` cannot reach with random bytes); what still
//!   decompresses goes on to the decoder and the validation.
//!
//! Asserts: no panic escapes `restore_into`; on error the world is byte-for-byte unchanged; a
//! world that restored steps without a panic (and without a hang: run with `-timeout`), and its
//! snapshots can be taken afterwards; the restored world is the payload the stored bytes
//! decompress to (its plain snapshot re-encodes to it, or is logged as non-canonical). Panics the
//! wrapper catches inside restore are logged and the input saved under
//! `caught/restore_compressed_then_step/` (see `src/lib.rs`; `PINNED_FUZZ_STRICT=1` makes them
//! crashes).

#![no_main]

use libfuzzer_sys::fuzz_target;
use rapier_pinned_fuzz::{
    base_seeds, xor_seeds, MutatedSnapshot, RestoreState, Sealed, MUTATE_STORED,
};
use std::sync::{Mutex, OnceLock};

const TARGET: &str = "restore_compressed_then_step";

fn state() -> &'static Mutex<RestoreState> {
    static STATE: OnceLock<Mutex<RestoreState>> = OnceLock::new();
    STATE.get_or_init(|| Mutex::new(RestoreState::new(seeds)))
}

/// Unmutated bases (each selector byte, both mutation modes), a few single xors into the plain
/// payload (the integration parameters, which must give `ConfigMismatch`, and past them), and a
/// few into the stored bytes: the length prefix (which must be refused by the decompression) and
/// the LZ4 block.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = base_seeds(32);
    out.extend(xor_seeds(
        "xor-payload",
        0,
        &[20, 100, 300, 1000, 3000, 10_000],
    ));
    let stored = [0, 2, 3, 4, 5, 40, 400, 4000];
    out.extend(xor_seeds("xor-stored", MUTATE_STORED, &stored));
    out
}

fuzz_target!(|data: &[u8]| {
    let mut st = state().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(snapshot) = MutatedSnapshot::new_compressed(&st.bases, data) {
        let note = format!(", stored mutated: {}", data[0] & MUTATE_STORED != 0);
        st.restore_then_step(TARGET, data, snapshot, &note, Sealed::Compressed);
    }
});
