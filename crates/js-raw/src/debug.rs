//! `RawDebugRenderPipeline` (rapier3d's debug renderer) and `RawVHACDParameters`.

use js_sys::{Float32Array, Function};
use rapier3d::parry::transformation::vhacd::VHACDParameters;
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::bodies::RawRigidBodySet;
use crate::colliders::RawColliderSet;
use crate::interface::to_flat;
use crate::joints::{RawImpulseJointSet, RawMultibodyJointSet};
use crate::sets::{RawNarrowPhase, RawSoftBodySet};

/// Stock's debug renderer: rapier3d's `DebugRenderPipeline` (its default style and mode) drawing
/// into two buffers stock's API layer reads after `render`: line ends (x, y, z each) and their
/// colours (r, g, b, a each; rapier3d gives HSLA, stock's buffers hold RGBA).
#[wasm_bindgen]
#[derive(Default)]
pub struct RawDebugRenderPipeline {
    pipeline: DebugRenderPipeline,
    vertices: Vec<f32>,
    colors: Vec<f32>,
}

struct Lines<'a> {
    vertices: &'a mut Vec<f32>,
    colors: &'a mut Vec<f32>,
    bodies: &'a RigidBodySet,
    filter: QueryFilter<'a>,
}

/// rapier3d's HSLA (hue in degrees) as RGBA.
fn rgba([h, s, l, a]: [f32; 4]) -> [f32; 4] {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let h6 = (h.rem_euclid(360.0)) / 60.0;
    let x = c * (1.0 - (h6 % 2.0 - 1.0).abs());
    let (r, g, b) = match h6 as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    [r + m, g + m, b + m, a]
}

impl DebugRenderBackend for Lines<'_> {
    /// Colliders (shapes, AABBs) pass the game's filter; everything else is drawn.
    fn filter_object(&self, object: DebugRenderObject) -> bool {
        match object {
            DebugRenderObject::Collider(h, co) | DebugRenderObject::ColliderAabb(h, co, _) => {
                self.filter.test(self.bodies, h, co)
            }
            _ => true,
        }
    }
    fn draw_line(&mut self, _: DebugRenderObject, a: Vector, b: Vector, color: DebugColor) {
        self.vertices
            .extend_from_slice(&[a.x, a.y, a.z, b.x, b.y, b.z]);
        let c = rgba(color);
        self.colors.extend_from_slice(&c);
        self.colors.extend_from_slice(&c);
    }
}

#[wasm_bindgen]
impl RawDebugRenderPipeline {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
    /// The last render's line ends: x, y, z per end, two ends per line.
    pub fn vertices(&self) -> Float32Array {
        Float32Array::from(&self.vertices[..])
    }
    /// The last render's colours: r, g, b, a per line end.
    pub fn colors(&self) -> Float32Array {
        Float32Array::from(&self.colors[..])
    }
    #[allow(clippy::too_many_arguments)]
    pub fn render(
        &mut self,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        soft_bodies: &RawSoftBodySet,
        impulse_joints: &RawImpulseJointSet,
        multibody_joints: &RawMultibodyJointSet,
        narrow_phase: &RawNarrowPhase,
        filter_flags: u32,
        filter_predicate: JsValue,
    ) {
        let predicate = filter_predicate.dyn_ref::<Function>().cloned();
        // As the scene queries: `false` filters a collider out, anything else keeps it.
        let test = move |h: ColliderHandle, _: &Collider| match &predicate {
            Some(p) => p
                .call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())))
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(true),
            None => true,
        };
        self.vertices.clear();
        self.colors.clear();
        let mut lines = Lines {
            vertices: &mut self.vertices,
            colors: &mut self.colors,
            bodies: &bodies.0,
            filter: QueryFilter {
                flags: QueryFilterFlags::from_bits_truncate(filter_flags),
                predicate: Some(&test),
                ..QueryFilter::default()
            },
        };
        self.pipeline.render(
            &mut lines,
            &bodies.0,
            &colliders.0,
            &impulse_joints.0,
            &multibody_joints.0,
            &narrow_phase.0,
            &soft_bodies.0,
        );
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
