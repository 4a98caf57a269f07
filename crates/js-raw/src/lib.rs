//! rapier.js 0.21.0's raw module (`rapier_wasm3d`), reimplemented over the fork's rapier3d.
//!
//! Stock rapier.js is a TypeScript API layer over a wasm-bindgen module whose interface its npm
//! package declares in `rapier_wasm3d.d.ts` (41 `Raw*` classes). This crate implements that
//! interface, names and argument orders as declared, from the `.d.ts` and rapier3d's own API, so
//! the stock layer (taken from npm by scripts/js-package) runs on the fork unchanged. What is not
//! implemented yet is absent (listed by `crates/js/tests/raw-interface.test.mjs`) or, for soft
//! bodies, throws "not supported by this build"; nothing pretends.
//!
//! Its conventions (handles, errors, scratch buffers) are in `interface`.

mod bodies;
mod body_links;
mod colliders;
mod contacts;
mod controllers;
mod debug;
mod events;
mod interface;
mod joints;
mod math;
mod pipeline;
mod queries;
mod sets;
mod shape_queries;
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
