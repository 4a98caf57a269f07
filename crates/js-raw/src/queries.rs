//! Scene queries: `RawBroadPhase`'s (the world's, through rapier3d's `QueryPipeline`) and their
//! result classes.

use js_sys::{Float32Array, Function};
use rapier3d::parry::query::ShapeCastOptions;
use rapier3d::parry::shape::FeatureId;
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::bodies::{body_handle, RawRigidBodySet};
use crate::colliders::{collider_handle, unpack_groups, RawColliderSet};
use crate::interface::{to_flat, write};
use crate::math::{RawRotation, RawVector};
use crate::sets::{RawBroadPhase, RawNarrowPhase};
use crate::shapes::RawShape;

/// rapier.js's `RawFeatureType`.
#[wasm_bindgen]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RawFeatureType {
    Vertex = 0,
    Edge = 1,
    Face = 2,
    Unknown = 3,
}

pub(crate) fn feature(f: FeatureId) -> (RawFeatureType, Option<u32>) {
    match f {
        FeatureId::Vertex(i) => (RawFeatureType::Vertex, Some(i)),
        FeatureId::Edge(i) => (RawFeatureType::Edge, Some(i)),
        FeatureId::Face(i) => (RawFeatureType::Face, Some(i)),
        _ => (RawFeatureType::Unknown, None),
    }
}

fn flat(h: ColliderHandle) -> JsValue {
    JsValue::from(to_flat(h.into_raw_parts()))
}

/// A JavaScript callback's answer: `false` means no (stop, or filter out); anything else yes,
/// as stock's API layer passes `undefined` when the game gave no predicate.
fn yes(r: Result<JsValue, JsValue>) -> bool {
    r.ok().and_then(|v| v.as_bool()).unwrap_or(true)
}

/// Runs `f` with the query pipeline of the world these sets make, under stock's filter
/// arguments.
#[allow(clippy::too_many_arguments)]
fn with_pipeline<R>(
    broad_phase: &RawBroadPhase,
    narrow_phase: &RawNarrowPhase,
    bodies: &RawRigidBodySet,
    colliders: &RawColliderSet,
    filter_flags: u32,
    filter_groups: Option<u32>,
    filter_exclude_collider: Option<f64>,
    filter_exclude_rigid_body: Option<f64>,
    filter_predicate: &JsValue,
    f: impl FnOnce(&QueryPipeline) -> R,
) -> R {
    let predicate = filter_predicate.dyn_ref::<Function>().cloned();
    let test = move |h: ColliderHandle, _: &Collider| match &predicate {
        Some(p) => yes(p.call1(&JsValue::NULL, &flat(h))),
        None => true,
    };
    let filter = QueryFilter {
        flags: QueryFilterFlags::from_bits_truncate(filter_flags),
        groups: filter_groups.map(unpack_groups),
        exclude_collider: filter_exclude_collider.map(collider_handle),
        exclude_rigid_body: filter_exclude_rigid_body.map(body_handle),
        predicate: Some(&test),
    };
    let qp = broad_phase.0.as_query_pipeline(
        narrow_phase.0.query_dispatcher(),
        &bodies.0,
        &colliders.0,
        filter,
    );
    f(&qp)
}

#[wasm_bindgen]
impl RawBroadPhase {
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = castRay)]
    pub fn cast_ray(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
        solid: bool,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) -> Option<RawRayColliderHit> {
        let ray = Ray::new(ray_orig.0, ray_dir.0);
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| qp.cast_ray(&ray, max_toi, solid),
        )
        .map(|(handle, toi)| RawRayColliderHit { handle, toi })
    }

    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = castRayAndGetNormal)]
    pub fn cast_ray_and_get_normal(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
        solid: bool,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) -> Option<RawRayColliderIntersection> {
        let ray = Ray::new(ray_orig.0, ray_dir.0);
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| qp.cast_ray_and_get_normal(&ray, max_toi, solid),
        )
        .map(|(handle, inter)| RawRayColliderIntersection { handle, inter })
    }

    /// Calls `callback(intersection)` for each collider the ray hits, until it answers false.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = intersectionsWithRay)]
    pub fn intersections_with_ray(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        ray_orig: &RawVector,
        ray_dir: &RawVector,
        max_toi: f32,
        solid: bool,
        callback: &Function,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) {
        let ray = Ray::new(ray_orig.0, ray_dir.0);
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| {
                for (handle, _, inter) in qp.intersect_ray(ray, max_toi, solid) {
                    let hit = JsValue::from(RawRayColliderIntersection { handle, inter });
                    if !yes(callback.call1(&JsValue::NULL, &hit)) {
                        break;
                    }
                }
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = projectPoint)]
    pub fn project_point(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        point: &RawVector,
        solid: bool,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) -> Option<RawPointColliderProjection> {
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| qp.project_point(point.0, Real::MAX, solid),
        )
        .map(|(handle, proj)| RawPointColliderProjection {
            handle,
            proj,
            feature: FeatureId::Unknown,
        })
    }

    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = projectPointAndGetFeature)]
    pub fn project_point_and_get_feature(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        point: &RawVector,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) -> Option<RawPointColliderProjection> {
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| qp.project_point_and_get_feature(point.0, Real::MAX),
        )
        .map(|(handle, proj, feature)| RawPointColliderProjection {
            handle,
            proj,
            feature,
        })
    }

    /// Calls `callback(collider)` for each collider containing the point, until it answers false.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = intersectionsWithPoint)]
    pub fn intersections_with_point(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        point: &RawVector,
        callback: &Function,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) {
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| {
                for (handle, _) in qp.intersect_point(point.0) {
                    if !yes(callback.call1(&JsValue::NULL, &flat(handle))) {
                        break;
                    }
                }
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = castShape)]
    pub fn cast_shape(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        shape_pos: &RawVector,
        shape_rot: &RawRotation,
        shape_vel: &RawVector,
        shape: &RawShape,
        target_distance: f32,
        max_toi: f32,
        stop_at_penetration: bool,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) -> Option<RawColliderShapeCastHit> {
        let pos = Pose::from_parts(shape_pos.0, shape_rot.0);
        let options = ShapeCastOptions {
            max_time_of_impact: max_toi,
            target_distance,
            stop_at_penetration,
            compute_impact_geometry_on_penetration: true,
        };
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| qp.cast_shape(&pos, shape_vel.0, &*shape.0, options),
        )
        .map(|(handle, hit)| RawColliderShapeCastHit { handle, hit })
    }

    /// The first collider (in the tree's order) intersecting the shape.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = intersectionWithShape)]
    pub fn intersection_with_shape(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        shape_pos: &RawVector,
        shape_rot: &RawRotation,
        shape: &RawShape,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) -> Option<f64> {
        let pos = Pose::from_parts(shape_pos.0, shape_rot.0);
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| qp.intersect_shape(pos, &*shape.0).next().map(|(h, _)| h),
        )
        .map(|h| to_flat(h.into_raw_parts()))
    }

    /// Calls `callback(collider)` for each collider intersecting the shape, until it answers false.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = intersectionsWithShape)]
    pub fn intersections_with_shape(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        shape_pos: &RawVector,
        shape_rot: &RawRotation,
        shape: &RawShape,
        callback: &Function,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_exclude_collider: Option<f64>,
        filter_exclude_rigid_body: Option<f64>,
        filter_predicate: JsValue,
    ) {
        let pos = Pose::from_parts(shape_pos.0, shape_rot.0);
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            filter_flags,
            filter_groups,
            filter_exclude_collider,
            filter_exclude_rigid_body,
            &filter_predicate,
            |qp| {
                for (handle, _) in qp.intersect_shape(pos, &*shape.0) {
                    if !yes(callback.call1(&JsValue::NULL, &flat(handle))) {
                        break;
                    }
                }
            },
        )
    }

    /// Calls `callback(collider)` for each collider whose bounding box meets the box, until it
    /// answers false (conservative: boxes, not shapes).
    #[wasm_bindgen(js_name = collidersWithAabbIntersectingAabb)]
    pub fn colliders_with_aabb_intersecting_aabb(
        &self,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        aabb_center: &RawVector,
        aabb_half_extents: &RawVector,
        callback: &Function,
    ) {
        let aabb = Aabb::new(
            aabb_center.0 - aabb_half_extents.0,
            aabb_center.0 + aabb_half_extents.0,
        );
        with_pipeline(
            self,
            narrow_phase,
            bodies,
            colliders,
            0,
            None,
            None,
            None,
            &JsValue::UNDEFINED,
            |qp| {
                for (handle, _) in qp.intersect_aabb_conservative(aabb) {
                    if !yes(callback.call1(&JsValue::NULL, &flat(handle))) {
                        break;
                    }
                }
            },
        )
    }
}

#[wasm_bindgen]
pub struct RawRayColliderHit {
    handle: ColliderHandle,
    toi: f32,
}

#[wasm_bindgen]
impl RawRayColliderHit {
    #[wasm_bindgen(js_name = colliderHandle)]
    pub fn collider_handle(&self) -> f64 {
        to_flat(self.handle.into_raw_parts())
    }
    #[wasm_bindgen(js_name = timeOfImpact)]
    pub fn time_of_impact(&self) -> f32 {
        self.toi
    }
}

#[wasm_bindgen]
pub struct RawRayColliderIntersection {
    handle: ColliderHandle,
    inter: RayIntersection,
}

#[wasm_bindgen]
impl RawRayColliderIntersection {
    #[wasm_bindgen(js_name = colliderHandle)]
    pub fn collider_handle(&self) -> f64 {
        to_flat(self.handle.into_raw_parts())
    }
    pub fn normal(&self, buf: &Float32Array) {
        let n = self.inter.normal;
        write(buf, &[n.x, n.y, n.z]);
    }
    pub fn time_of_impact(&self) -> f32 {
        self.inter.time_of_impact
    }
    #[wasm_bindgen(js_name = featureType)]
    pub fn feature_type(&self) -> RawFeatureType {
        feature(self.inter.feature).0
    }
    #[wasm_bindgen(js_name = featureId)]
    pub fn feature_id(&self) -> Option<u32> {
        feature(self.inter.feature).1
    }
}

#[wasm_bindgen]
pub struct RawRayIntersection(pub(crate) RayIntersection);

#[wasm_bindgen]
impl RawRayIntersection {
    pub fn normal(&self, buf: &Float32Array) {
        let n = self.0.normal;
        write(buf, &[n.x, n.y, n.z]);
    }
    pub fn time_of_impact(&self) -> f32 {
        self.0.time_of_impact
    }
    #[wasm_bindgen(js_name = featureType)]
    pub fn feature_type(&self) -> RawFeatureType {
        feature(self.0.feature).0
    }
    #[wasm_bindgen(js_name = featureId)]
    pub fn feature_id(&self) -> Option<u32> {
        feature(self.0.feature).1
    }
}

#[wasm_bindgen]
pub struct RawPointColliderProjection {
    handle: ColliderHandle,
    proj: PointProjection,
    feature: FeatureId,
}

#[wasm_bindgen]
impl RawPointColliderProjection {
    #[wasm_bindgen(js_name = colliderHandle)]
    pub fn collider_handle(&self) -> f64 {
        to_flat(self.handle.into_raw_parts())
    }
    pub fn point(&self, buf: &Float32Array) {
        let p = self.proj.point;
        write(buf, &[p.x, p.y, p.z]);
    }
    #[wasm_bindgen(js_name = isInside)]
    pub fn is_inside(&self) -> bool {
        self.proj.is_inside
    }
    #[wasm_bindgen(js_name = featureType)]
    pub fn feature_type(&self) -> RawFeatureType {
        feature(self.feature).0
    }
    #[wasm_bindgen(js_name = featureId)]
    pub fn feature_id(&self) -> Option<u32> {
        feature(self.feature).1
    }
}

#[wasm_bindgen]
pub struct RawPointProjection(pub(crate) PointProjection);

#[wasm_bindgen]
impl RawPointProjection {
    pub fn point(&self, buf: &Float32Array) {
        let p = self.0.point;
        write(buf, &[p.x, p.y, p.z]);
    }
    #[wasm_bindgen(js_name = isInside)]
    pub fn is_inside(&self) -> bool {
        self.0.is_inside
    }
}

/// Stock's layout: time of impact, witness 1, witness 2, normal 1, normal 2.
fn hit_components(hit: &ShapeCastHit, buf: &Float32Array) {
    let (w1, w2, n1, n2) = (hit.witness1, hit.witness2, hit.normal1, hit.normal2);
    write(
        buf,
        &[
            hit.time_of_impact,
            w1.x,
            w1.y,
            w1.z,
            w2.x,
            w2.y,
            w2.z,
            n1.x,
            n1.y,
            n1.z,
            n2.x,
            n2.y,
            n2.z,
        ],
    );
}

#[wasm_bindgen]
pub struct RawShapeCastHit(pub(crate) ShapeCastHit);

#[wasm_bindgen]
impl RawShapeCastHit {
    #[wasm_bindgen(js_name = getComponents)]
    pub fn get_components(&self, buf: &Float32Array) {
        hit_components(&self.0, buf);
    }
}

#[wasm_bindgen]
pub struct RawColliderShapeCastHit {
    handle: ColliderHandle,
    hit: ShapeCastHit,
}

impl RawColliderShapeCastHit {
    pub(crate) fn new(handle: ColliderHandle, hit: ShapeCastHit) -> Self {
        Self { handle, hit }
    }
}

#[wasm_bindgen]
impl RawColliderShapeCastHit {
    #[wasm_bindgen(js_name = colliderHandle)]
    pub fn collider_handle(&self) -> f64 {
        to_flat(self.handle.into_raw_parts())
    }
    #[wasm_bindgen(js_name = getComponents)]
    pub fn get_components(&self, buf: &Float32Array) {
        hit_components(&self.hit, buf);
    }
}
