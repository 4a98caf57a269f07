//! The per-step state digest shared by everything that compares trajectories (parity, golden,
//! determinism tests) and exchanged by the multiplayer server and its clients (crates/net,
//! crates/ggrs, crates/js). `rapier-pinned-scenes` re-exports it under the same names.
//!
//! Definition (64-bit, stable across platforms): XXH3-64 (default seed, zero) of the byte string made of, for
//! every rigid body in ascending handle order (index, then generation):
//!
//! ```text
//! index u32, generation u32,
//! translation x y z, rotation quaternion x y z w, linear velocity x y z, angular velocity x y z
//! ```
//!
//! each number as its IEEE-754 / integer bit pattern in little-endian order (60 bytes a body).
//! Bit patterns, not values: `-0.0` and `0.0` differ, and so do two NaNs with different payloads.
//! XXH3 comes from the `xxhash-rust` crate: a published, specified hash with a fixed output.

use rapier3d::prelude::*;

/// Bytes hashed per body (see the module docs).
pub const BYTES_PER_BODY: usize = 60;

/// The state digest of every body in `bodies` (see the module docs).
pub fn state_digest(bodies: &RigidBodySet) -> u64 {
    xxhash_rust::xxh3::xxh3_64(&state_bytes(bodies))
}

/// The exact byte string [`state_digest`] hashes.
pub fn state_bytes(bodies: &RigidBodySet) -> Vec<u8> {
    let mut handles: Vec<(u32, u32)> = bodies.iter().map(|(h, _)| h.into_raw_parts()).collect();
    handles.sort_unstable();
    let mut out = Vec::with_capacity(handles.len() * BYTES_PER_BODY);
    for (index, generation) in handles {
        let handle = RigidBodyHandle::from_raw_parts(index, generation);
        out.extend_from_slice(&body_state_bytes(handle, &bodies[handle]));
    }
    out
}

/// One body's part of [`state_bytes`]: its handle, then its 13 state numbers (see the module docs).
pub fn body_state_bytes(handle: RigidBodyHandle, body: &RigidBody) -> [u8; BYTES_PER_BODY] {
    let (index, generation) = handle.into_raw_parts();
    let mut out = [0; BYTES_PER_BODY];
    out[0..4].copy_from_slice(&index.to_le_bytes());
    out[4..8].copy_from_slice(&generation.to_le_bytes());
    for (i, x) in body_state(body).into_iter().enumerate() {
        out[8 + 4 * i..12 + 4 * i].copy_from_slice(&x.to_bits().to_le_bytes());
    }
    out
}

/// The 13 state numbers of a body, in digest order: translation x y z, rotation quaternion
/// x y z w, linear velocity x y z, angular velocity x y z.
pub fn body_state(body: &RigidBody) -> [Real; 13] {
    let (t, r, v) = (body.translation(), body.rotation(), body.linvel());
    let w = body.angvel();
    [
        t.x, t.y, t.z, r.x, r.y, r.z, r.w, v.x, v.y, v.z, w.x, w.y, w.z,
    ]
}
