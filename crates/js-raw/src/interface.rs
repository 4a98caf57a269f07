//! The conventions of stock's raw interface, which every class follows: a handle is one `f64`
//! whose bits are the arena index (low 32) and generation (high 32), as stock encodes them;
//! getters write vectors into the caller's `Float32Array` scratch buffer; a bad handle or
//! argument throws an `Error` naming it (stock traps), and what this build does not implement
//! throws "not supported by this build".

use wasm_bindgen::JsValue;

/// A handle's bits, as stock encodes them (see the module docs).
pub fn from_flat(handle: f64) -> (u32, u32) {
    let bits = handle.to_bits();
    (bits as u32, (bits >> 32) as u32)
}

/// A handle as stock encodes it, from its arena index and generation.
pub fn to_flat((index, generation): (u32, u32)) -> f64 {
    f64::from_bits(index as u64 | ((generation as u64) << 32))
}

/// A JavaScript `Error` with `msg`, which wasm-bindgen throws.
pub fn err(msg: &str) -> JsValue {
    js_sys::Error::new(msg).into()
}

/// The error of a raw method this build does not implement (soft bodies: see docs/js.md).
pub fn unsupported(what: &str) -> JsValue {
    err(&format!(
        "{what}: not supported by this build (rapier-pinned)"
    ))
}

/// The quaternion of a setter taking x, y, z, w, normalized: stock normalizes these (while a
/// `RawRotation`, e.g. a description's, is taken as given).
pub fn unit_quat(x: f32, y: f32, z: f32, w: f32) -> rapier3d::math::Rotation {
    rapier3d::math::Rotation::from_xyzw(x, y, z, w).normalize()
}

/// Writes `values` into the caller's scratch buffer.
pub fn write(buf: &js_sys::Float32Array, values: &[f32]) {
    for (i, v) in values.iter().enumerate() {
        buf.set_index(i as u32, *v);
    }
}
