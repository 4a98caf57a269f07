//! `RawShape` (a parry `SharedShape`) and `RawShapeType`.

use js_sys::{Float32Array, Int32Array, Uint32Array};
use rapier3d::parry::shape::{CompoundFlags, HeightFieldFlags, TriMeshFlags};
use rapier3d::parry::utils::Array2;
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::math::RawVector;

/// rapier.js's `RawShapeType`, in its order.
#[wasm_bindgen]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RawShapeType {
    Ball = 0,
    Cuboid = 1,
    Capsule = 2,
    Segment = 3,
    Polyline = 4,
    Triangle = 5,
    TriMesh = 6,
    HeightField = 7,
    Compound = 8,
    ConvexPolyhedron = 9,
    Cylinder = 10,
    Cone = 11,
    RoundCuboid = 12,
    RoundTriangle = 13,
    RoundCylinder = 14,
    RoundCone = 15,
    RoundConvexPolyhedron = 16,
    HalfSpace = 17,
    Voxels = 18,
}

pub(crate) fn raw_shape_type(t: ShapeType) -> Option<RawShapeType> {
    Some(match t {
        ShapeType::Ball => RawShapeType::Ball,
        ShapeType::Cuboid => RawShapeType::Cuboid,
        ShapeType::Capsule => RawShapeType::Capsule,
        ShapeType::Segment => RawShapeType::Segment,
        ShapeType::Polyline => RawShapeType::Polyline,
        ShapeType::Triangle => RawShapeType::Triangle,
        ShapeType::TriMesh => RawShapeType::TriMesh,
        ShapeType::HeightField => RawShapeType::HeightField,
        ShapeType::Compound => RawShapeType::Compound,
        ShapeType::ConvexPolyhedron => RawShapeType::ConvexPolyhedron,
        ShapeType::Cylinder => RawShapeType::Cylinder,
        ShapeType::Cone => RawShapeType::Cone,
        ShapeType::RoundCuboid => RawShapeType::RoundCuboid,
        ShapeType::RoundTriangle => RawShapeType::RoundTriangle,
        ShapeType::RoundCylinder => RawShapeType::RoundCylinder,
        ShapeType::RoundCone => RawShapeType::RoundCone,
        ShapeType::RoundConvexPolyhedron => RawShapeType::RoundConvexPolyhedron,
        ShapeType::HalfSpace => RawShapeType::HalfSpace,
        ShapeType::Voxels => RawShapeType::Voxels,
        _ => return None,
    })
}

#[wasm_bindgen]
pub struct RawShape(pub(crate) SharedShape);

fn points(v: &[f32]) -> Vec<Vector> {
    v.chunks_exact(3)
        .map(|p| Vector::new(p[0], p[1], p[2]))
        .collect()
}

fn triangles(i: &[u32]) -> Vec<[u32; 3]> {
    i.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect()
}

#[wasm_bindgen]
impl RawShape {
    pub fn ball(radius: f32) -> RawShape {
        RawShape(SharedShape::ball(radius))
    }
    pub fn cuboid(hx: f32, hy: f32, hz: f32) -> RawShape {
        RawShape(SharedShape::cuboid(hx, hy, hz))
    }
    #[wasm_bindgen(js_name = roundCuboid)]
    pub fn round_cuboid(hx: f32, hy: f32, hz: f32, border_radius: f32) -> RawShape {
        RawShape(SharedShape::round_cuboid(hx, hy, hz, border_radius))
    }
    /// Along the local y axis, as stock's capsules.
    pub fn capsule(half_height: f32, radius: f32) -> RawShape {
        RawShape(SharedShape::capsule_y(half_height, radius))
    }
    pub fn cylinder(half_height: f32, radius: f32) -> RawShape {
        RawShape(SharedShape::cylinder(half_height, radius))
    }
    #[wasm_bindgen(js_name = roundCylinder)]
    pub fn round_cylinder(half_height: f32, radius: f32, border_radius: f32) -> RawShape {
        RawShape(SharedShape::round_cylinder(
            half_height,
            radius,
            border_radius,
        ))
    }
    pub fn cone(half_height: f32, radius: f32) -> RawShape {
        RawShape(SharedShape::cone(half_height, radius))
    }
    #[wasm_bindgen(js_name = roundCone)]
    pub fn round_cone(half_height: f32, radius: f32, border_radius: f32) -> RawShape {
        RawShape(SharedShape::round_cone(half_height, radius, border_radius))
    }
    pub fn halfspace(normal: &RawVector) -> RawShape {
        RawShape(SharedShape::halfspace(normal.0.normalize()))
    }
    pub fn segment(p1: &RawVector, p2: &RawVector) -> RawShape {
        RawShape(SharedShape::segment(p1.0, p2.0))
    }
    pub fn triangle(p1: &RawVector, p2: &RawVector, p3: &RawVector) -> RawShape {
        RawShape(SharedShape::triangle(p1.0, p2.0, p3.0))
    }
    #[wasm_bindgen(js_name = roundTriangle)]
    pub fn round_triangle(
        p1: &RawVector,
        p2: &RawVector,
        p3: &RawVector,
        border_radius: f32,
    ) -> RawShape {
        RawShape(SharedShape::round_triangle(p1.0, p2.0, p3.0, border_radius))
    }
    pub fn polyline(vertices: &[f32], indices: &[u32], flags: u8) -> RawShape {
        let idx: Vec<[u32; 2]> = indices.chunks_exact(2).map(|s| [s[0], s[1]]).collect();
        let idx = if idx.is_empty() { None } else { Some(idx) };
        let flags = rapier3d::parry::shape::PolylineFlags::from_bits_truncate(flags);
        RawShape(SharedShape::new(
            rapier3d::parry::shape::Polyline::with_flags(points(vertices), idx, flags),
        ))
    }
    /// `undefined` when parry refuses the mesh (stock does the same).
    pub fn trimesh(vertices: &[f32], indices: &[u32], flags: u16) -> Option<RawShape> {
        let flags = TriMeshFlags::from_bits_truncate(flags);
        SharedShape::trimesh_with_flags(points(vertices), triangles(indices), flags)
            .ok()
            .map(RawShape)
    }
    /// `heights`: `(nrows + 1) × (ncols + 1)` values, column-major.
    pub fn heightfield(
        nrows: u32,
        ncols: u32,
        heights: &[f32],
        scale: &RawVector,
        flags: u8,
    ) -> Result<RawShape, JsValue> {
        let (r, c) = (nrows as usize + 1, ncols as usize + 1);
        if heights.len() != r * c {
            return Err(crate::interface::err(&format!(
                "heightfield: {} heights, expected (nrows + 1) × (ncols + 1) = {}",
                heights.len(),
                r * c
            )));
        }
        let flags = HeightFieldFlags::from_bits_truncate(flags);
        Ok(RawShape(SharedShape::heightfield_with_flags(
            Array2::new(r, c, heights.to_vec()),
            scale.0,
            flags,
        )))
    }
    #[wasm_bindgen(js_name = convexHull)]
    pub fn convex_hull(points_: &[f32]) -> Option<RawShape> {
        SharedShape::convex_hull(&points(points_)).map(RawShape)
    }
    #[wasm_bindgen(js_name = roundConvexHull)]
    pub fn round_convex_hull(points_: &[f32], border_radius: f32) -> Option<RawShape> {
        SharedShape::round_convex_hull(&points(points_), border_radius).map(RawShape)
    }
    #[wasm_bindgen(js_name = convexMesh)]
    pub fn convex_mesh(vertices: &[f32], indices: &[u32]) -> Option<RawShape> {
        SharedShape::convex_mesh(points(vertices), &triangles(indices)).map(RawShape)
    }
    #[wasm_bindgen(js_name = roundConvexMesh)]
    pub fn round_convex_mesh(
        vertices: &[f32],
        indices: &[u32],
        border_radius: f32,
    ) -> Option<RawShape> {
        SharedShape::round_convex_mesh(points(vertices), &triangles(indices), border_radius)
            .map(RawShape)
    }
    /// `positions`: 3 numbers per shape; `rotations`: 4 (x, y, z, w).
    pub fn compound(
        shapes: Vec<RawShape>,
        positions: &[f32],
        rotations: &[f32],
        flags: u8,
    ) -> Result<RawShape, JsValue> {
        if positions.len() != 3 * shapes.len() || rotations.len() != 4 * shapes.len() {
            return Err(crate::interface::err(
                "compound: positions and rotations do not match the shapes",
            ));
        }
        let parts = shapes
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let t = Vector::new(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
                let q = &rotations[4 * i..4 * i + 4];
                (
                    Pose::from_parts(t, Rotation::from_xyzw(q[0], q[1], q[2], q[3])),
                    s.0,
                )
            })
            .collect();
        let flags = CompoundFlags::from_bits_truncate(flags);
        Ok(RawShape(SharedShape::new(
            rapier3d::parry::shape::Compound::with_flags(parts, flags, None),
        )))
    }
    pub fn voxels(voxel_size: &RawVector, grid_coords: &[i32]) -> RawShape {
        let coords: Vec<_> = grid_coords
            .chunks_exact(3)
            .map(|c| rapier3d::parry::math::IVector::new(c[0], c[1], c[2]))
            .collect();
        RawShape(SharedShape::voxels(voxel_size.0, &coords))
    }
    #[wasm_bindgen(js_name = voxelsFromPoints)]
    pub fn voxels_from_points(voxel_size: &RawVector, points_: &[f32]) -> RawShape {
        RawShape(SharedShape::voxels_from_points(
            voxel_size.0,
            &points(points_),
        ))
    }

    #[wasm_bindgen(js_name = shapeType)]
    pub fn shape_type(&self) -> Result<RawShapeType, JsValue> {
        raw_shape_type(self.0.shape_type()).ok_or_else(|| {
            crate::interface::err("shapeType: a shape type rapier.js has no number for")
        })
    }
    #[wasm_bindgen(js_name = halfExtents)]
    pub fn half_extents(&self) -> Option<RawVector> {
        shape_half_extents(&*self.0).map(RawVector)
    }
    pub fn radius(&self) -> Option<f32> {
        shape_radius(&*self.0)
    }
    #[wasm_bindgen(js_name = halfHeight)]
    pub fn half_height(&self) -> Option<f32> {
        shape_half_height(&*self.0)
    }
    #[wasm_bindgen(js_name = roundRadius)]
    pub fn round_radius(&self) -> Option<f32> {
        shape_round_radius(&*self.0)
    }
    pub fn vertices(&self) -> Option<Float32Array> {
        shape_vertices(&*self.0).map(|v| Float32Array::from(&v[..]))
    }
    pub fn indices(&self) -> Option<Uint32Array> {
        shape_indices(&*self.0).map(|v| Uint32Array::from(&v[..]))
    }
    #[wasm_bindgen(js_name = voxelData)]
    pub fn voxel_data(&self) -> Option<Int32Array> {
        let v = self.0.as_voxels()?;
        let data: Vec<i32> = v
            .voxels()
            .filter(|vx| !vx.state.is_empty())
            .flat_map(|vx| [vx.grid_coords.x, vx.grid_coords.y, vx.grid_coords.z])
            .collect();
        Some(Int32Array::from(&data[..]))
    }
}

pub(crate) fn shape_half_extents(s: &dyn Shape) -> Option<Vector> {
    s.as_cuboid()
        .map(|c| c.half_extents)
        .or_else(|| s.as_round_cuboid().map(|c| c.inner_shape.half_extents))
}

pub(crate) fn shape_radius(s: &dyn Shape) -> Option<f32> {
    match s.shape_type() {
        ShapeType::Ball => s.as_ball().map(|b| b.radius),
        ShapeType::Capsule => s.as_capsule().map(|c| c.radius),
        ShapeType::Cylinder => s.as_cylinder().map(|c| c.radius),
        ShapeType::RoundCylinder => s.as_round_cylinder().map(|c| c.inner_shape.radius),
        ShapeType::Cone => s.as_cone().map(|c| c.radius),
        ShapeType::RoundCone => s.as_round_cone().map(|c| c.inner_shape.radius),
        _ => None,
    }
}

pub(crate) fn shape_half_height(s: &dyn Shape) -> Option<f32> {
    match s.shape_type() {
        ShapeType::Capsule => s.as_capsule().map(|c| c.half_height()),
        ShapeType::Cylinder => s.as_cylinder().map(|c| c.half_height),
        ShapeType::RoundCylinder => s.as_round_cylinder().map(|c| c.inner_shape.half_height),
        ShapeType::Cone => s.as_cone().map(|c| c.half_height),
        ShapeType::RoundCone => s.as_round_cone().map(|c| c.inner_shape.half_height),
        _ => None,
    }
}

pub(crate) fn shape_round_radius(s: &dyn Shape) -> Option<f32> {
    match s.shape_type() {
        ShapeType::RoundCuboid => s.as_round_cuboid().map(|c| c.border_radius),
        ShapeType::RoundTriangle => s.as_round_triangle().map(|c| c.border_radius),
        ShapeType::RoundCylinder => s.as_round_cylinder().map(|c| c.border_radius),
        ShapeType::RoundCone => s.as_round_cone().map(|c| c.border_radius),
        ShapeType::RoundConvexPolyhedron => s.as_round_convex_polyhedron().map(|c| c.border_radius),
        _ => None,
    }
}

fn flat(v: &[Vector]) -> Vec<f32> {
    v.iter().flat_map(|p| [p.x, p.y, p.z]).collect()
}

pub(crate) fn shape_vertices(s: &dyn Shape) -> Option<Vec<f32>> {
    match s.shape_type() {
        ShapeType::TriMesh => s.as_trimesh().map(|m| flat(m.vertices())),
        ShapeType::Polyline => s.as_polyline().map(|m| flat(m.vertices())),
        ShapeType::ConvexPolyhedron => s.as_convex_polyhedron().map(|m| flat(m.points())),
        ShapeType::RoundConvexPolyhedron => s
            .as_round_convex_polyhedron()
            .map(|m| flat(m.inner_shape.points())),
        ShapeType::Segment => s.as_segment().map(|g| flat(&[g.a, g.b])),
        ShapeType::Triangle => s.as_triangle().map(|t| flat(&[t.a, t.b, t.c])),
        ShapeType::RoundTriangle => s
            .as_round_triangle()
            .map(|t| flat(&[t.inner_shape.a, t.inner_shape.b, t.inner_shape.c])),
        _ => None,
    }
}

pub(crate) fn shape_indices(s: &dyn Shape) -> Option<Vec<u32>> {
    match s.shape_type() {
        ShapeType::TriMesh => s
            .as_trimesh()
            .map(|m| m.indices().iter().flatten().copied().collect()),
        ShapeType::Polyline => s
            .as_polyline()
            .map(|m| m.indices().iter().flatten().copied().collect()),
        ShapeType::ConvexPolyhedron => s.as_convex_polyhedron().map(|m| {
            let (_, idx) = m.to_trimesh();
            idx.iter().flatten().copied().collect()
        }),
        _ => None,
    }
}
