//! `restore_delta_then_step`: `restore_then_step` for snapshot format 4, a delta against a
//! baseline (`docs/protocol.md` §3.4): a valid payload, mutated, written as a delta against the
//! payload of `small_world` at tick 3 and *re-sealed* with a valid checksum (and MAC), restored
//! with that baseline into a small world, then stepped.
//!
//! Input: as `restore_compressed_then_step`'s (byte 0: bit 0 the base world, tick 3 or 40 of
//! `small_world`; bit 1 the seal, authenticated or not; bits 2..=3 + 1 the steps after a
//! successful restore, 1–4; bit 4 which bytes the operations mutate; the rest 4-byte xor
//! operations `[o0, o1, o2, x]`), `MutatedSnapshot::new_delta` in `src/world.rs`:
//!
//! - bit 4 clear: the plain payload, then written as a delta (`seal_delta`). Every input reaches
//!   the expansion with valid records, then the decoder, the parameter diff and the
//!   structural/finiteness validation, through format 4's path;
//! - bit 4 set: the delta's record stream, stored uncompressed after the baseline's id. Every
//!   input reaches the bounded expansion behind the checksum and the MAC (record tags, offsets
//!   into the baseline, lengths, XOR bytes); what still expands goes on to the decoder and the
//!   validation.
//!
//! Asserts: no panic escapes the restore; on error the world is byte-for-byte unchanged; a world
//! that restored steps without a panic (and without a hang: run with `-timeout`), and its plain
//! and delta snapshots can be taken afterwards; the restored world is the payload the stored
//! bytes expand to (its plain snapshot re-encodes to it, or is logged as non-canonical). Panics
//! the wrapper catches inside restore are logged and the input saved under
//! `caught/restore_delta_then_step/` (see `src/lib.rs`; `PINNED_FUZZ_STRICT=1` makes them
//! crashes).

#![no_main]

use libfuzzer_sys::fuzz_target;
use rapier_pinned_fuzz::{
    base_seeds, xor_seeds, MutatedSnapshot, RestoreState, Sealed, MUTATE_STORED,
};
use std::sync::{Mutex, OnceLock};

const TARGET: &str = "restore_delta_then_step";

fn state() -> &'static Mutex<RestoreState> {
    static STATE: OnceLock<Mutex<RestoreState>> = OnceLock::new();
    STATE.get_or_init(|| Mutex::new(RestoreState::new(seeds)))
}

/// Unmutated bases (each selector byte, both mutation modes), a few single xors into the plain
/// payload (the integration parameters, which must give `ConfigMismatch`, and past them), and a
/// few into the record stream: its stated length, the first record's tag, offset and length,
/// and further in.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = base_seeds(32);
    out.extend(xor_seeds(
        "xor-payload",
        0,
        &[20, 100, 300, 1000, 3000, 10_000],
    ));
    let stream = [0, 3, 8, 9, 13, 17, 20, 40, 400, 4000];
    out.extend(xor_seeds("xor-stream", MUTATE_STORED, &stream));
    out
}

fuzz_target!(|data: &[u8]| {
    let mut st = state().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(snapshot) = MutatedSnapshot::new_delta(&st.bases, &st.baseline, data) {
        let note = format!(", stream mutated: {}", data[0] & MUTATE_STORED != 0);
        st.restore_then_step(TARGET, data, snapshot, &note, Sealed::Delta);
    }
});
