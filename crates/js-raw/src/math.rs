//! `RawVector`, `RawRotation`, `RawSdpMatrix3`.

use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
#[derive(Clone, Copy)]
pub struct RawVector(pub(crate) Vector);

#[wasm_bindgen]
impl RawVector {
    #[wasm_bindgen(constructor)]
    pub fn new(x: f32, y: f32, z: f32) -> RawVector {
        RawVector(Vector::new(x, y, z))
    }
    pub fn zero() -> RawVector {
        RawVector(Vector::ZERO)
    }
    #[wasm_bindgen(getter)]
    pub fn x(&self) -> f32 {
        self.0.x
    }
    #[wasm_bindgen(setter)]
    pub fn set_x(&mut self, v: f32) {
        self.0.x = v
    }
    #[wasm_bindgen(getter)]
    pub fn y(&self) -> f32 {
        self.0.y
    }
    #[wasm_bindgen(setter)]
    pub fn set_y(&mut self, v: f32) {
        self.0.y = v
    }
    #[wasm_bindgen(getter)]
    pub fn z(&self) -> f32 {
        self.0.z
    }
    #[wasm_bindgen(setter)]
    pub fn set_z(&mut self, v: f32) {
        self.0.z = v
    }
    pub fn xyz(&self) -> RawVector {
        *self
    }
    pub fn xzy(&self) -> RawVector {
        RawVector::new(self.0.x, self.0.z, self.0.y)
    }
    pub fn yxz(&self) -> RawVector {
        RawVector::new(self.0.y, self.0.x, self.0.z)
    }
    pub fn yzx(&self) -> RawVector {
        RawVector::new(self.0.y, self.0.z, self.0.x)
    }
    pub fn zxy(&self) -> RawVector {
        RawVector::new(self.0.z, self.0.x, self.0.y)
    }
    pub fn zyx(&self) -> RawVector {
        RawVector::new(self.0.z, self.0.y, self.0.x)
    }
}

#[wasm_bindgen]
#[derive(Clone, Copy)]
pub struct RawRotation(pub(crate) Rotation);

#[wasm_bindgen]
impl RawRotation {
    /// Taken as given, not renormalized: stock passes the quaternion through unchanged.
    #[wasm_bindgen(constructor)]
    pub fn new(x: f32, y: f32, z: f32, w: f32) -> RawRotation {
        RawRotation(Rotation::from_xyzw(x, y, z, w))
    }
    pub fn identity() -> RawRotation {
        RawRotation(Rotation::IDENTITY)
    }
    #[wasm_bindgen(getter)]
    pub fn x(&self) -> f32 {
        self.0.x
    }
    #[wasm_bindgen(getter)]
    pub fn y(&self) -> f32 {
        self.0.y
    }
    #[wasm_bindgen(getter)]
    pub fn z(&self) -> f32 {
        self.0.z
    }
    #[wasm_bindgen(getter)]
    pub fn w(&self) -> f32 {
        self.0.w
    }
}
