//! What this build has little or none of, present so that stock's API layer loads and every
//! world runs: `RawDebugRenderPipeline` (no rendering: rapier3d's `debug-render` feature is off),
//! the soft-body classes (no soft bodies: their constructors throw), and `RawVHACDParameters`.

use js_sys::Float32Array;
use rapier3d::parry::transformation::vhacd::VHACDParameters;
use wasm_bindgen::prelude::*;

use crate::unsupported;

#[wasm_bindgen]
#[derive(Default)]
pub struct RawDebugRenderPipeline;

#[wasm_bindgen]
impl RawDebugRenderPipeline {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self
    }
    /// Empty: nothing is ever rendered by this build.
    pub fn vertices(&self) -> Float32Array {
        Float32Array::new_with_length(0)
    }
    /// Empty: nothing is ever rendered by this build.
    pub fn colors(&self) -> Float32Array {
        Float32Array::new_with_length(0)
    }
    pub fn render(&mut self) -> Result<(), JsValue> {
        Err(unsupported("debug render (RawDebugRenderPipeline.render)"))
    }
}

#[wasm_bindgen]
pub struct RawVHACDParameters(pub(crate) VHACDParameters);

#[wasm_bindgen]
impl RawVHACDParameters {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Self(VHACDParameters::default())
    }
    #[wasm_bindgen(getter)]
    pub fn concavity(&self) -> f32 {
        self.0.concavity
    }
    #[wasm_bindgen(setter)]
    pub fn set_concavity(&mut self, v: f32) {
        self.0.concavity = v
    }
    #[wasm_bindgen(getter)]
    pub fn alpha(&self) -> f32 {
        self.0.alpha
    }
    #[wasm_bindgen(setter)]
    pub fn set_alpha(&mut self, v: f32) {
        self.0.alpha = v
    }
    #[wasm_bindgen(getter)]
    pub fn beta(&self) -> f32 {
        self.0.beta
    }
    #[wasm_bindgen(setter)]
    pub fn set_beta(&mut self, v: f32) {
        self.0.beta = v
    }
    #[wasm_bindgen(getter)]
    pub fn resolution(&self) -> u32 {
        self.0.resolution
    }
    #[wasm_bindgen(setter)]
    pub fn set_resolution(&mut self, v: u32) {
        self.0.resolution = v
    }
    #[wasm_bindgen(getter)]
    pub fn plane_downsampling(&self) -> u32 {
        self.0.plane_downsampling
    }
    #[wasm_bindgen(setter)]
    pub fn set_plane_downsampling(&mut self, v: u32) {
        self.0.plane_downsampling = v
    }
    #[wasm_bindgen(getter)]
    pub fn convex_hull_downsampling(&self) -> u32 {
        self.0.convex_hull_downsampling
    }
    #[wasm_bindgen(setter)]
    pub fn set_convex_hull_downsampling(&mut self, v: u32) {
        self.0.convex_hull_downsampling = v
    }
    #[wasm_bindgen(getter)]
    pub fn convex_hull_approximation(&self) -> bool {
        self.0.convex_hull_approximation
    }
    #[wasm_bindgen(setter)]
    pub fn set_convex_hull_approximation(&mut self, v: bool) {
        self.0.convex_hull_approximation = v
    }
    #[wasm_bindgen(getter)]
    pub fn max_convex_hulls(&self) -> u32 {
        self.0.max_convex_hulls
    }
    #[wasm_bindgen(setter)]
    pub fn set_max_convex_hulls(&mut self, v: u32) {
        self.0.max_convex_hulls = v
    }
}

macro_rules! no_soft_bodies {
    ($($name:ident),*) => {
        $(
            /// Soft bodies are not supported by this build: the constructor throws.
            #[wasm_bindgen]
            pub struct $name;

            #[wasm_bindgen]
            impl $name {
                #[wasm_bindgen(constructor)]
                pub fn new() -> Result<$name, JsValue> {
                    Err(unsupported(stringify!($name)))
                }
            }
        )*
    };
}

no_soft_bodies!(
    RawSoftBodyBuilder,
    RawSoftBodyMaterial,
    RawSoftRecoverySettings,
    RawSoftBodyTearEvent
);
