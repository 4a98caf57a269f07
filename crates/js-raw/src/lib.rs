//! rapier.js 0.21.0's raw module (`rapier_wasm3d`), reimplemented over the fork's rapier3d.
//!
//! Stock rapier.js is a TypeScript API layer over a wasm-bindgen module whose interface its npm
//! package declares in `rapier_wasm3d.d.ts` (41 `Raw*` classes). This crate implements that
//! interface, names and argument orders as declared, from the `.d.ts` and rapier3d's own API, so
//! the stock layer (taken from npm by scripts/js-package) runs on the fork unchanged. What is not
//! implemented yet is absent (listed by `crates/js/tests/raw-interface.test.mjs`) or, for soft
//! bodies, throws "not supported by this build"; nothing pretends.
//!
//! Conventions of the interface: handles are one `f64` whose bits are the arena index (low 32)
//! and generation (high 32), as stock encodes them; getters write vectors into the caller's
//! `Float32Array` scratch buffer. A bad handle throws an `Error` naming it (stock traps).

mod bodies;
mod body_links;
mod colliders;
mod controllers;
mod debug;
mod events;
mod extra;
mod joints;
mod math;
mod pipeline;
mod queries;
mod sets;
mod shapes;
mod soft;

use wasm_bindgen::prelude::*;

pub use bodies::RawRigidBodySet;
pub use colliders::RawColliderSet;
pub use joints::{RawImpulseJointSet, RawMultibodyJointSet};
pub use math::{RawRotation, RawVector};
pub use pipeline::{reset_workspaces, RawDeserializedWorld, RawPhysicsPipeline, WorldParts};
pub use sets::{
    RawBroadPhase, RawCCDSolver, RawIntegrationParameters, RawIslandManager, RawNarrowPhase,
    RawSoftBodySet,
};

/// The version string of the API this module implements (stock's `version()`).
#[wasm_bindgen]
pub fn version() -> String {
    "0.21.0".to_string()
}

/// Stock grows the wasm memory ahead of use; allocation is the same here, so this reserves by
/// allocating and freeing a buffer of that size (the allocator keeps the pages).
#[wasm_bindgen]
pub fn reserve_memory(extra_bytes_count: u32) {
    let v: Vec<u8> = Vec::with_capacity(extra_bytes_count as usize);
    drop(v);
}

/// A handle's bits, as stock encodes them (see the module docs).
pub(crate) fn from_flat(handle: f64) -> (u32, u32) {
    let bits = handle.to_bits();
    (bits as u32, (bits >> 32) as u32)
}

pub(crate) fn to_flat((index, generation): (u32, u32)) -> f64 {
    f64::from_bits(index as u64 | ((generation as u64) << 32))
}

pub(crate) fn err(msg: &str) -> JsValue {
    js_sys::Error::new(msg).into()
}

/// The error of a raw method this build does not implement (soft bodies: see docs/js.md).
pub(crate) fn unsupported(what: &str) -> JsValue {
    err(&format!(
        "{what}: not supported by this build (rapier-pinned)"
    ))
}

/// The quaternion of a setter taking x, y, z, w, normalized: stock normalizes these (while a
/// `RawRotation`, e.g. a description's, is taken as given).
pub(crate) fn unit_quat(x: f32, y: f32, z: f32, w: f32) -> rapier3d::math::Rotation {
    rapier3d::math::Rotation::from_xyzw(x, y, z, w).normalize()
}

/// Writes `values` into the caller's scratch buffer.
pub(crate) fn write(buf: &js_sys::Float32Array, values: &[f32]) {
    for (i, v) in values.iter().enumerate() {
        buf.set_index(i as u32, *v);
    }
}
