//! `restore_then_step`: a valid payload, mutated and *re-sealed* with a valid checksum (and MAC),
//! restored into a small world, then stepped.
//!
//! Input: byte 0 picks the base world (bit 0: tick 3 or tick 40 of `small_world`) and the seal
//! (bit 1: authenticated, restored with the key; else unauthenticated, restored without); bits
//! 2..=3 + 1 is the number of steps after a successful restore (1–4). The rest is read as 4-byte
//! operations `[o0, o1, o2, x]`: byte `(o0 | o1 << 8 | o2 << 16) % payload length` of the payload
//! is xor-ed with `x`. The result is framed with `rapier_pinned::testing::seal` (physics-version 2, the
//! world's config digest, the base's tick), so the checksum passes and every input reaches the
//! decoder, the parameter diff and the structural/finiteness validation (`MutatedSnapshot` in
//! `src/world.rs`, which the regression test in CI shares).
//!
//! Asserts: no panic escapes `restore_into`; on error the world is byte-for-byte unchanged; a
//! world that restored steps without a panic (and without a hang: run with `-timeout`), and its
//! snapshot can be taken afterwards. Panics the wrapper catches inside restore are logged and the
//! input saved under `caught/restore_then_step/` (see `src/lib.rs`; `PINNED_FUZZ_STRICT=1` makes
//! them crashes). An accepted payload that re-encodes differently (non-canonical) is logged.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rapier_pinned_fuzz::{base_seeds, xor_seeds, MutatedSnapshot, RestoreState, Sealed};
use std::sync::{Mutex, OnceLock};

fn state() -> &'static Mutex<RestoreState> {
    static STATE: OnceLock<Mutex<RestoreState>> = OnceLock::new();
    STATE.get_or_init(|| Mutex::new(RestoreState::new(seeds)))
}

/// Unmutated bases (each selector byte), and a few single xors into the integration parameters
/// (which must give `ConfigMismatch`) and past them.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = base_seeds(16);
    out.extend(xor_seeds("xor", 0, &[20, 100, 300, 1000, 3000, 10_000]));
    out
}

fuzz_target!(|data: &[u8]| {
    let mut st = state().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(snapshot) = MutatedSnapshot::new(&st.bases, data) {
        st.restore_then_step("restore_then_step", data, snapshot, "", Sealed::Plain);
    }
});
