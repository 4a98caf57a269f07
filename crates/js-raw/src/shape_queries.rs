//! `RawShape`'s and `RawColliderSet`'s per-shape queries and shape details, and their result
//! classes (`RawShapeContact`, `RawConvexMeshData`, `RawSdpMatrix3`). The collider versions run
//! the same code on the collider's shape and pose.

use js_sys::{Float32Array, Uint32Array};
use rapier3d::parry::query::{self, Contact, ShapeCastOptions};
use rapier3d::parry::shape::CompoundFlags;
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::colliders::{collider_handle, RawColliderSet};
use crate::debug::RawVHACDParameters;
use crate::interface::{err, write};
use crate::math::{RawRotation, RawVector};
use crate::queries::{RawPointProjection, RawRayIntersection, RawShapeCastHit};
use crate::shapes::RawShape;

fn pose(t: &RawVector, r: &RawRotation) -> Pose {
    Pose::from_parts(t.0, r.0)
}

fn cast_options(target_distance: f32, max_toi: f32, stop_at_penetration: bool) -> ShapeCastOptions {
    ShapeCastOptions {
        max_time_of_impact: max_toi,
        target_distance,
        stop_at_penetration,
        compute_impact_geometry_on_penetration: true,
    }
}

// The shape details stock reads back, shared by `RawShape` and `RawColliderSet`.
fn halfspace_normal(s: &dyn Shape) -> Option<Vector> {
    s.as_halfspace().map(|h| h.normal)
}
fn trimesh_flags(s: &dyn Shape) -> Option<u32> {
    s.as_trimesh().map(|m| m.flags().bits() as u32)
}
fn polyline_flags(s: &dyn Shape) -> Option<u32> {
    s.as_polyline().map(|m| m.flags().bits() as u32)
}
fn heightfield_flags(s: &dyn Shape) -> Option<u32> {
    s.as_heightfield().map(|h| h.flags().bits() as u32)
}
fn compound_flags(s: &dyn Shape) -> Option<u32> {
    s.as_compound().map(|c| c.flags().bits() as u32)
}
fn heightfield_heights(s: &dyn Shape) -> Option<Float32Array> {
    s.as_heightfield()
        .map(|h| Float32Array::from(h.heights().data()))
}
fn voxel_size(s: &dyn Shape) -> Option<Vector> {
    s.as_voxels().map(|v| v.voxel_size())
}
fn ray_intersection(
    s: &dyn Shape,
    pos: &Pose,
    ray: &Ray,
    max_toi: f32,
    solid: bool,
) -> Option<RawRayIntersection> {
    s.cast_ray_and_get_normal(pos, ray, max_toi, solid)
        .map(RawRayIntersection)
}
fn shape_contact(c: Option<Contact>) -> Option<RawShapeContact> {
    c.map(RawShapeContact)
}

#[wasm_bindgen]
impl RawShape {
    #[wasm_bindgen(js_name = castRay)]
    pub fn cast_ray(
        &self,
        shape_pos: &RawVector,
        shape_rot: &RawRotation,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
        solid: bool,
    ) -> f32 {
        self.0
            .cast_ray(
                &pose(shape_pos, shape_rot),
                &Ray::new(ray_orig.0, ray_dir.0),
                max_toi,
                solid,
            )
            .unwrap_or(-1.0)
    }
    #[wasm_bindgen(js_name = castRayAndGetNormal)]
    pub fn cast_ray_and_get_normal(
        &self,
        shape_pos: &RawVector,
        shape_rot: &RawRotation,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
        solid: bool,
    ) -> Option<RawRayIntersection> {
        ray_intersection(
            &*self.0,
            &pose(shape_pos, shape_rot),
            &Ray::new(ray_orig.0, ray_dir.0),
            max_toi,
            solid,
        )
    }
    #[wasm_bindgen(js_name = intersectsRay)]
    pub fn intersects_ray(
        &self,
        shape_pos: &RawVector,
        shape_rot: &RawRotation,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
    ) -> bool {
        self.0.intersects_ray(
            &pose(shape_pos, shape_rot),
            &Ray::new(ray_orig.0, ray_dir.0),
            max_toi,
        )
    }
    #[wasm_bindgen(js_name = containsPoint)]
    pub fn contains_point(
        &self,
        shape_pos: &RawVector,
        shape_rot: &RawRotation,
        point: &RawVector,
    ) -> bool {
        self.0.contains_point(&pose(shape_pos, shape_rot), point.0)
    }
    #[wasm_bindgen(js_name = projectPoint)]
    pub fn project_point(
        &self,
        shape_pos: &RawVector,
        shape_rot: &RawRotation,
        point: &RawVector,
        solid: bool,
    ) -> RawPointProjection {
        RawPointProjection(
            self.0
                .project_point(&pose(shape_pos, shape_rot), point.0, solid),
        )
    }
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = castShape)]
    pub fn cast_shape(
        &self,
        shape_pos1: &RawVector,
        shape_rot1: &RawRotation,
        shape_vel1: &RawVector,
        shape2: &RawShape,
        shape_pos2: &RawVector,
        shape_rot2: &RawRotation,
        shape_vel2: &RawVector,
        target_distance: f32,
        max_toi: f32,
        stop_at_penetration: bool,
    ) -> Option<RawShapeCastHit> {
        query::cast_shapes(
            &pose(shape_pos1, shape_rot1),
            shape_vel1.0,
            &*self.0,
            &pose(shape_pos2, shape_rot2),
            shape_vel2.0,
            &*shape2.0,
            cast_options(target_distance, max_toi, stop_at_penetration),
        )
        .ok()
        .flatten()
        .map(RawShapeCastHit)
    }
    #[wasm_bindgen(js_name = intersectsShape)]
    pub fn intersects_shape(
        &self,
        shape_pos1: &RawVector,
        shape_rot1: &RawRotation,
        shape2: &RawShape,
        shape_pos2: &RawVector,
        shape_rot2: &RawRotation,
    ) -> bool {
        query::intersection_test(
            &pose(shape_pos1, shape_rot1),
            &*self.0,
            &pose(shape_pos2, shape_rot2),
            &*shape2.0,
        )
        .map(|i| i.intersecting)
        .unwrap_or(false)
    }
    #[wasm_bindgen(js_name = contactShape)]
    pub fn contact_shape(
        &self,
        shape_pos1: &RawVector,
        shape_rot1: &RawRotation,
        shape2: &RawShape,
        shape_pos2: &RawVector,
        shape_rot2: &RawRotation,
        prediction: f32,
    ) -> Option<RawShapeContact> {
        shape_contact(
            query::contact(
                &pose(shape_pos1, shape_rot1),
                &*self.0,
                &pose(shape_pos2, shape_rot2),
                &*shape2.0,
                prediction,
            )
            .ok()
            .flatten(),
        )
    }
    #[wasm_bindgen(js_name = halfspaceNormal)]
    pub fn halfspace_normal(&self) -> Option<RawVector> {
        halfspace_normal(&*self.0).map(RawVector)
    }
    #[wasm_bindgen(js_name = triMeshFlags)]
    pub fn tri_mesh_flags(&self) -> Option<u32> {
        trimesh_flags(&*self.0)
    }
    #[wasm_bindgen(js_name = polylineFlags)]
    pub fn polyline_flags(&self) -> Option<u32> {
        polyline_flags(&*self.0)
    }
    #[wasm_bindgen(js_name = heightFieldFlags)]
    pub fn height_field_flags(&self) -> Option<u32> {
        heightfield_flags(&*self.0)
    }
    #[wasm_bindgen(js_name = heightfieldHeights)]
    pub fn heightfield_heights(&self) -> Option<Float32Array> {
        heightfield_heights(&*self.0)
    }
    #[wasm_bindgen(js_name = heightfieldNRows)]
    pub fn heightfield_nrows(&self) -> Option<usize> {
        self.0.as_heightfield().map(|h| h.nrows())
    }
    #[wasm_bindgen(js_name = heightfieldNCols)]
    pub fn heightfield_ncols(&self) -> Option<usize> {
        self.0.as_heightfield().map(|h| h.ncols())
    }
    #[wasm_bindgen(js_name = heightfieldScale)]
    pub fn heightfield_scale(&self) -> Option<RawVector> {
        self.0.as_heightfield().map(|h| RawVector(h.scale()))
    }
    #[wasm_bindgen(js_name = voxelSize)]
    pub fn voxel_size(&self) -> Option<RawVector> {
        voxel_size(&*self.0).map(RawVector)
    }
    #[wasm_bindgen(js_name = compoundFlags)]
    pub fn compound_flags(&self) -> Option<u32> {
        compound_flags(&*self.0)
    }
    #[wasm_bindgen(js_name = compoundLen)]
    pub fn compound_len(&self) -> Option<usize> {
        self.0.as_compound().map(|c| c.shapes().len())
    }
    #[wasm_bindgen(js_name = compoundShape)]
    pub fn compound_shape(&self, index: usize) -> Option<RawShape> {
        let c = self.0.as_compound()?;
        c.shapes().get(index).map(|(_, s)| RawShape(s.clone()))
    }
    #[wasm_bindgen(js_name = compoundTranslation)]
    pub fn compound_translation(&self, index: usize) -> Option<RawVector> {
        let c = self.0.as_compound()?;
        c.shapes().get(index).map(|(p, _)| RawVector(p.translation))
    }
    #[wasm_bindgen(js_name = compoundRotation)]
    pub fn compound_rotation(&self, index: usize) -> Option<RawRotation> {
        let c = self.0.as_compound()?;
        c.shapes().get(index).map(|(p, _)| RawRotation(p.rotation))
    }
    #[wasm_bindgen(js_name = convexMeshData)]
    pub fn convex_mesh_data(&self) -> Option<RawConvexMeshData> {
        let poly = self
            .0
            .as_convex_polyhedron()
            .or_else(|| self.0.as_round_convex_polyhedron().map(|r| &r.inner_shape))?;
        let (vertices, indices) = poly.to_trimesh();
        Some(RawConvexMeshData {
            vertices: vertices.iter().flat_map(|p| [p.x, p.y, p.z]).collect(),
            indices: indices.iter().flatten().copied().collect(),
        })
    }
    /// A compound of convex parts (parry's V-HACD, default parameters).
    #[wasm_bindgen(js_name = convexDecomposition)]
    pub fn convex_decomposition(vertices: &[f32], indices: &[u32], flags: u8) -> Option<RawShape> {
        Self::decompose(vertices, indices, flags, &Default::default())
    }
    #[wasm_bindgen(js_name = convexDecompositionWithParams)]
    pub fn convex_decomposition_with_params(
        vertices: &[f32],
        indices: &[u32],
        params: &RawVHACDParameters,
        flags: u8,
    ) -> Option<RawShape> {
        Self::decompose(vertices, indices, flags, &params.0)
    }
}

impl RawShape {
    fn decompose(
        vertices: &[f32],
        indices: &[u32],
        flags: u8,
        params: &rapier3d::parry::transformation::vhacd::VHACDParameters,
    ) -> Option<RawShape> {
        let v: Vec<Vector> = vertices
            .chunks_exact(3)
            .map(|p| Vector::new(p[0], p[1], p[2]))
            .collect();
        let i: Vec<[u32; 3]> = indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect();
        if v.is_empty() || i.is_empty() {
            return None;
        }
        let shape = SharedShape::convex_decomposition_with_params(&v, &i, params);
        let flags = CompoundFlags::from_bits_truncate(flags);
        if flags.is_empty() {
            return Some(RawShape(shape));
        }
        let parts = shape.as_compound()?.shapes().to_vec();
        Some(RawShape(SharedShape::new(
            rapier3d::parry::shape::Compound::with_flags(parts, flags, None),
        )))
    }
}

#[wasm_bindgen]
pub struct RawConvexMeshData {
    vertices: Vec<f32>,
    indices: Vec<u32>,
}

#[wasm_bindgen]
impl RawConvexMeshData {
    #[wasm_bindgen(getter)]
    pub fn vertices(&self) -> Float32Array {
        Float32Array::from(&self.vertices[..])
    }
    #[wasm_bindgen(setter)]
    pub fn set_vertices(&mut self, v: Vec<f32>) {
        self.vertices = v;
    }
    #[wasm_bindgen(getter)]
    pub fn indices(&self) -> Uint32Array {
        Uint32Array::from(&self.indices[..])
    }
    #[wasm_bindgen(setter)]
    pub fn set_indices(&mut self, v: Vec<u32>) {
        self.indices = v;
    }
}

/// A symmetric 3×3 matrix: m11, m12, m13, m22, m23, m33.
#[wasm_bindgen]
pub struct RawSdpMatrix3([f32; 6]);

#[wasm_bindgen]
impl RawSdpMatrix3 {
    pub fn elements(&self) -> Float32Array {
        Float32Array::from(&self.0[..])
    }
}

/// Stock's layout: distance, point 1, point 2, normal 1, normal 2.
#[wasm_bindgen]
pub struct RawShapeContact(Contact);

#[wasm_bindgen]
impl RawShapeContact {
    #[wasm_bindgen(js_name = getComponents)]
    pub fn get_components(&self, buf: &Float32Array) {
        let c = &self.0;
        write(
            buf,
            &[
                c.dist,
                c.point1.x,
                c.point1.y,
                c.point1.z,
                c.point2.x,
                c.point2.y,
                c.point2.z,
                c.normal1.x,
                c.normal1.y,
                c.normal1.z,
                c.normal2.x,
                c.normal2.y,
                c.normal2.z,
            ],
        );
    }
}

#[wasm_bindgen]
impl RawColliderSet {
    #[wasm_bindgen(js_name = coCastRay)]
    pub fn co_cast_ray(
        &self,
        handle: f64,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
        solid: bool,
    ) -> Result<f32, JsValue> {
        let c = self.get(handle)?;
        Ok(c.shape()
            .cast_ray(
                c.position(),
                &Ray::new(ray_orig.0, ray_dir.0),
                max_toi,
                solid,
            )
            .unwrap_or(-1.0))
    }
    #[wasm_bindgen(js_name = coCastRayAndGetNormal)]
    pub fn co_cast_ray_and_get_normal(
        &self,
        handle: f64,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
        solid: bool,
    ) -> Result<Option<RawRayIntersection>, JsValue> {
        let c = self.get(handle)?;
        Ok(ray_intersection(
            c.shape(),
            c.position(),
            &Ray::new(ray_orig.0, ray_dir.0),
            max_toi,
            solid,
        ))
    }
    #[wasm_bindgen(js_name = coIntersectsRay)]
    pub fn co_intersects_ray(
        &self,
        handle: f64,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
    ) -> Result<bool, JsValue> {
        let c = self.get(handle)?;
        Ok(c.shape()
            .intersects_ray(c.position(), &Ray::new(ray_orig.0, ray_dir.0), max_toi))
    }
    #[wasm_bindgen(js_name = coContainsPoint)]
    pub fn co_contains_point(&self, handle: f64, point: &RawVector) -> Result<bool, JsValue> {
        let c = self.get(handle)?;
        Ok(c.shape().contains_point(c.position(), point.0))
    }
    #[wasm_bindgen(js_name = coProjectPoint)]
    pub fn co_project_point(
        &self,
        handle: f64,
        point: &RawVector,
        solid: bool,
    ) -> Result<RawPointProjection, JsValue> {
        let c = self.get(handle)?;
        Ok(RawPointProjection(c.shape().project_point(
            c.position(),
            point.0,
            solid,
        )))
    }
    #[wasm_bindgen(js_name = coIntersectsShape)]
    pub fn co_intersects_shape(
        &self,
        handle: f64,
        shape2: &RawShape,
        shape_pos2: &RawVector,
        shape_rot2: &RawRotation,
    ) -> Result<bool, JsValue> {
        let c = self.get(handle)?;
        Ok(query::intersection_test(
            c.position(),
            c.shape(),
            &pose(shape_pos2, shape_rot2),
            &*shape2.0,
        )
        .map(|i| i.intersecting)
        .unwrap_or(false))
    }
    #[wasm_bindgen(js_name = coContactShape)]
    pub fn co_contact_shape(
        &self,
        handle: f64,
        shape2: &RawShape,
        shape_pos2: &RawVector,
        shape_rot2: &RawRotation,
        prediction: f32,
    ) -> Result<Option<RawShapeContact>, JsValue> {
        let c = self.get(handle)?;
        Ok(shape_contact(
            query::contact(
                c.position(),
                c.shape(),
                &pose(shape_pos2, shape_rot2),
                &*shape2.0,
                prediction,
            )
            .ok()
            .flatten(),
        ))
    }
    #[wasm_bindgen(js_name = coContactCollider)]
    pub fn co_contact_collider(
        &self,
        handle: f64,
        collider2handle: f64,
        prediction: f32,
    ) -> Result<Option<RawShapeContact>, JsValue> {
        let (c1, c2) = (self.get(handle)?, self.get(collider2handle)?);
        Ok(shape_contact(
            query::contact(
                c1.position(),
                c1.shape(),
                c2.position(),
                c2.shape(),
                prediction,
            )
            .ok()
            .flatten(),
        ))
    }
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = coCastShape)]
    pub fn co_cast_shape(
        &self,
        handle: f64,
        collider_vel: &RawVector,
        shape2: &RawShape,
        shape2_pos: &RawVector,
        shape2_rot: &RawRotation,
        shape2_vel: &RawVector,
        target_distance: f32,
        max_toi: f32,
        stop_at_penetration: bool,
    ) -> Result<Option<RawShapeCastHit>, JsValue> {
        let c = self.get(handle)?;
        Ok(query::cast_shapes(
            c.position(),
            collider_vel.0,
            c.shape(),
            &pose(shape2_pos, shape2_rot),
            shape2_vel.0,
            &*shape2.0,
            cast_options(target_distance, max_toi, stop_at_penetration),
        )
        .ok()
        .flatten()
        .map(RawShapeCastHit))
    }
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = coCastCollider)]
    pub fn co_cast_collider(
        &self,
        handle: f64,
        collider1_vel: &RawVector,
        collider2handle: f64,
        collider2_vel: &RawVector,
        target_distance: f32,
        max_toi: f32,
        stop_at_penetration: bool,
    ) -> Result<Option<crate::queries::RawColliderShapeCastHit>, JsValue> {
        let (c1, c2) = (self.get(handle)?, self.get(collider2handle)?);
        Ok(query::cast_shapes(
            c1.position(),
            collider1_vel.0,
            c1.shape(),
            c2.position(),
            collider2_vel.0,
            c2.shape(),
            cast_options(target_distance, max_toi, stop_at_penetration),
        )
        .ok()
        .flatten()
        .map(|hit| {
            crate::queries::RawColliderShapeCastHit::new(collider_handle(collider2handle), hit)
        }))
    }
    #[wasm_bindgen(js_name = coHalfspaceNormal)]
    pub fn co_halfspace_normal(&self, handle: f64, buf: &Float32Array) -> Result<bool, JsValue> {
        Ok(match halfspace_normal(self.get(handle)?.shape()) {
            Some(n) => {
                write(buf, &[n.x, n.y, n.z]);
                true
            }
            None => false,
        })
    }
    #[wasm_bindgen(js_name = coTriMeshFlags)]
    pub fn co_tri_mesh_flags(&self, handle: f64) -> Result<Option<u32>, JsValue> {
        Ok(trimesh_flags(self.get(handle)?.shape()))
    }
    #[wasm_bindgen(js_name = coPolylineFlags)]
    pub fn co_polyline_flags(&self, handle: f64) -> Result<Option<u32>, JsValue> {
        Ok(polyline_flags(self.get(handle)?.shape()))
    }
    #[wasm_bindgen(js_name = coHeightFieldFlags)]
    pub fn co_height_field_flags(&self, handle: f64) -> Result<Option<u32>, JsValue> {
        Ok(heightfield_flags(self.get(handle)?.shape()))
    }
    #[wasm_bindgen(js_name = coCompoundFlags)]
    pub fn co_compound_flags(&self, handle: f64) -> Result<Option<u32>, JsValue> {
        Ok(compound_flags(self.get(handle)?.shape()))
    }
    #[wasm_bindgen(js_name = coHeightfieldHeights)]
    pub fn co_heightfield_heights(&self, handle: f64) -> Result<Option<Float32Array>, JsValue> {
        Ok(heightfield_heights(self.get(handle)?.shape()))
    }
    #[wasm_bindgen(js_name = coHeightfieldNRows)]
    pub fn co_heightfield_nrows(&self, handle: f64) -> Result<Option<usize>, JsValue> {
        Ok(self
            .get(handle)?
            .shape()
            .as_heightfield()
            .map(|h| h.nrows()))
    }
    #[wasm_bindgen(js_name = coHeightfieldNCols)]
    pub fn co_heightfield_ncols(&self, handle: f64) -> Result<Option<usize>, JsValue> {
        Ok(self
            .get(handle)?
            .shape()
            .as_heightfield()
            .map(|h| h.ncols()))
    }
    #[wasm_bindgen(js_name = coHeightfieldScale)]
    pub fn co_heightfield_scale(&self, handle: f64, buf: &Float32Array) -> Result<bool, JsValue> {
        Ok(match self.get(handle)?.shape().as_heightfield() {
            Some(h) => {
                let s = h.scale();
                write(buf, &[s.x, s.y, s.z]);
                true
            }
            None => false,
        })
    }
    #[wasm_bindgen(js_name = coVoxelSize)]
    pub fn co_voxel_size(&self, handle: f64) -> Result<Option<RawVector>, JsValue> {
        Ok(voxel_size(self.get(handle)?.shape()).map(RawVector))
    }
    #[wasm_bindgen(js_name = coVoxelData)]
    pub fn co_voxel_data(&self, handle: f64) -> Result<Option<js_sys::Int32Array>, JsValue> {
        Ok(RawShape(self.get(handle)?.shared_shape().clone()).voxel_data())
    }
    #[wasm_bindgen(js_name = coSetHalfExtents)]
    pub fn co_set_half_extents(&mut self, handle: f64, v: &RawVector) -> Result<(), JsValue> {
        let s = self.shape_mut(handle)?;
        if let Some(c) = s.as_cuboid_mut() {
            c.half_extents = v.0;
        } else if let Some(c) = s.as_round_cuboid_mut() {
            c.inner_shape.half_extents = v.0;
        } else {
            return Err(err("coSetHalfExtents: the collider is not a cuboid"));
        }
        Ok(())
    }
    #[wasm_bindgen(js_name = coSetRadius)]
    pub fn co_set_radius(&mut self, handle: f64, r: f32) -> Result<(), JsValue> {
        let s = self.shape_mut(handle)?;
        match s.shape_type() {
            ShapeType::Ball => s.as_ball_mut().unwrap().radius = r,
            ShapeType::Capsule => s.as_capsule_mut().unwrap().radius = r,
            ShapeType::Cylinder => s.as_cylinder_mut().unwrap().radius = r,
            ShapeType::RoundCylinder => s.as_round_cylinder_mut().unwrap().inner_shape.radius = r,
            ShapeType::Cone => s.as_cone_mut().unwrap().radius = r,
            ShapeType::RoundCone => s.as_round_cone_mut().unwrap().inner_shape.radius = r,
            _ => return Err(err("coSetRadius: the collider's shape has no radius")),
        }
        Ok(())
    }
    #[wasm_bindgen(js_name = coSetHalfHeight)]
    pub fn co_set_half_height(&mut self, handle: f64, h: f32) -> Result<(), JsValue> {
        let s = self.shape_mut(handle)?;
        match s.shape_type() {
            ShapeType::Capsule => {
                let c = s.as_capsule_mut().unwrap();
                // A capsule along its own axis: both ends move, the centre stays.
                let axis = (c.segment.b - c.segment.a).normalize_or_zero();
                let mid = (c.segment.a + c.segment.b) * 0.5;
                c.segment.a = mid - axis * h;
                c.segment.b = mid + axis * h;
            }
            ShapeType::Cylinder => s.as_cylinder_mut().unwrap().half_height = h,
            ShapeType::RoundCylinder => {
                s.as_round_cylinder_mut().unwrap().inner_shape.half_height = h
            }
            ShapeType::Cone => s.as_cone_mut().unwrap().half_height = h,
            ShapeType::RoundCone => s.as_round_cone_mut().unwrap().inner_shape.half_height = h,
            _ => {
                return Err(err(
                    "coSetHalfHeight: the collider's shape has no half height",
                ))
            }
        }
        Ok(())
    }
    #[wasm_bindgen(js_name = coSetRoundRadius)]
    pub fn co_set_round_radius(&mut self, handle: f64, r: f32) -> Result<(), JsValue> {
        let s = self.shape_mut(handle)?;
        match s.shape_type() {
            ShapeType::RoundCuboid => s.as_round_cuboid_mut().unwrap().border_radius = r,
            ShapeType::RoundTriangle => s.as_round_triangle_mut().unwrap().border_radius = r,
            ShapeType::RoundCylinder => s.as_round_cylinder_mut().unwrap().border_radius = r,
            ShapeType::RoundCone => s.as_round_cone_mut().unwrap().border_radius = r,
            ShapeType::RoundConvexPolyhedron => {
                s.as_round_convex_polyhedron_mut().unwrap().border_radius = r
            }
            _ => {
                return Err(err(
                    "coSetRoundRadius: the collider's shape is not a round shape",
                ))
            }
        }
        Ok(())
    }
    #[wasm_bindgen(js_name = coCombineVoxelStates)]
    pub fn co_combine_voxel_states(
        &mut self,
        handle1: f64,
        handle2: f64,
        shift_x: i32,
        shift_y: i32,
        shift_z: i32,
    ) -> Result<(), JsValue> {
        let shift = rapier3d::parry::math::IVector::new(shift_x, shift_y, shift_z);
        self.two_voxels(handle1, handle2, |a, b| a.combine_voxel_states(b, shift))
    }
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = coPropagateVoxelChange)]
    pub fn co_propagate_voxel_change(
        &mut self,
        handle1: f64,
        handle2: f64,
        ix: i32,
        iy: i32,
        iz: i32,
        shift_x: i32,
        shift_y: i32,
        shift_z: i32,
    ) -> Result<(), JsValue> {
        let voxel = rapier3d::parry::math::IVector::new(ix, iy, iz);
        let shift = rapier3d::parry::math::IVector::new(shift_x, shift_y, shift_z);
        self.two_voxels(handle1, handle2, |a, b| {
            a.propagate_voxel_change(b, voxel, shift)
        })
    }
    #[wasm_bindgen(js_name = coSetVoxel)]
    pub fn co_set_voxel(
        &mut self,
        handle: f64,
        ix: i32,
        iy: i32,
        iz: i32,
        filled: bool,
    ) -> Result<(), JsValue> {
        let s = self.shape_mut(handle)?;
        let v = s
            .as_voxels_mut()
            .ok_or_else(|| err("coSetVoxel: the collider is not a voxels shape"))?;
        v.set_voxel(rapier3d::parry::math::IVector::new(ix, iy, iz), filled);
        Ok(())
    }
}

impl RawColliderSet {
    /// Runs `f` on the voxels of two distinct colliders, then gives both their edited shapes.
    fn two_voxels(
        &mut self,
        handle1: f64,
        handle2: f64,
        f: impl FnOnce(&mut rapier3d::parry::shape::Voxels, &mut rapier3d::parry::shape::Voxels),
    ) -> Result<(), JsValue> {
        if collider_handle(handle1) == collider_handle(handle2) {
            return Err(err("voxels: the two colliders must differ"));
        }
        let mut s1 = self.get(handle1)?.shared_shape().clone();
        let mut s2 = self.get(handle2)?.shared_shape().clone();
        let (v1, v2) = match (s1.make_mut().as_voxels_mut(), s2.make_mut().as_voxels_mut()) {
            (Some(v1), Some(v2)) => (v1, v2),
            _ => return Err(err("voxels: both colliders must be voxels shapes")),
        };
        f(v1, v2);
        self.0[collider_handle(handle1)].set_shape(s1);
        self.0[collider_handle(handle2)].set_shape(s2);
        Ok(())
    }

    fn shape_mut(&mut self, handle: f64) -> Result<&mut dyn Shape, JsValue> {
        let c = self
            .0
            .get_mut(collider_handle(handle))
            .ok_or_else(|| err(&format!("no collider with handle {handle:e}")))?;
        Ok(c.shape_mut())
    }
}
