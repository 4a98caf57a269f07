//! The one encoding of a world: bincode 1.3 with the encoding of `bincode::serialize` (fixed-width
//! integers, little endian; `usize` and lengths as u64). The only module that uses bincode.
//!
//! Same bytes on every target: fixint encoding does not depend on pointer width (lengths and
//! `usize` are written as u64) and little endian is forced, whatever the host. Same bytes on
//! every run: with `enhanced-determinism` (which this crate's dependency line enables), rapier's
//! and parry's hash sets/maps are `indexmap` sets/maps with a fixed hasher, serialized in insertion
//! order; no `std` HashMap/HashSet with a random seed is serialized.

use bincode::Options;
use rapier3d::prelude::PhysicsWorld;
use serde::Serialize;

/// The options of `bincode::serialize` spelled out, plus a read limit and no trailing bytes.
fn options(limit: u64) -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_little_endian()
        .with_limit(limit)
        .reject_trailing_bytes()
}

/// The bytes of `value` (identical to `bincode::serialize(value)`).
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    // Serializing rapier's types into memory has no failure path (no map of unknown length,
    // no size limit); an error here would be a bug in a Serialize impl.
    options(u64::MAX)
        .serialize(value)
        .expect("bincode serialization into memory cannot fail")
}

/// Decodes a whole world from exactly `bytes`, reading at most `bytes.len()` bytes.
pub(crate) fn decode_world(bytes: &[u8]) -> Result<PhysicsWorld, String> {
    options(bytes.len() as u64)
        .deserialize(bytes)
        .map_err(|e| e.to_string())
}
