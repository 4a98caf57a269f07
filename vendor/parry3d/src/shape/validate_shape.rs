//! One entry point to the `validate` methods of decoded shapes (rapier-pinned patch).

use crate::math::{Real, Vector};
use crate::shape::{Shape, TypedShape};
use crate::utils::InvalidStructure;
use alloc::format;

/// `aabb`, loosened by a millionth of its size: a stored bound holds what it was computed from,
/// up to rounding (rapier-pinned patch).
pub(crate) fn loose(aabb: &crate::bounding_volume::Aabb) -> crate::bounding_volume::Aabb {
    use crate::bounding_volume::BoundingVolume;
    let size = (aabb.maxs - aabb.mins).abs().max_element();
    aabb.loosened(1.0e-6 * size + Real::EPSILON)
}

/// How far from 1 the norm of a decoded rotation or unit normal may be. Queries assume unit
/// length; parry's constructors normalize, so a built shape is within about 1e-6.
pub const UNIT_TOLERANCE: Real = 1.0e-4;

/// Checks, without panicking, the invariants of a shape decoded from untrusted bytes that its
/// queries rely on: the `validate` method of a triangle mesh, polyline, convex polyhedron
/// (rounded or not), heightfield or compound; the dimensions of every other shape (finite, none
/// negative, a half-space's normal of unit length). Voxels are not checked and are refused. The
/// first broken invariant is the error.
pub fn validate_shape(shape: &dyn Shape) -> Result<(), InvalidStructure> {
    let fail = |structure, detail| Err(InvalidStructure::new(structure, detail));
    let size = |structure, values: &[Real]| {
        if values.iter().all(|v| v.is_finite() && *v >= 0.0) {
            Ok(())
        } else {
            fail(
                structure,
                format!("a dimension is negative or not finite: {values:?}"),
            )
        }
    };
    let points = |structure, points: &[Vector]| {
        if points.iter().all(|p| p.is_finite()) {
            Ok(())
        } else {
            fail(structure, format!("a point is not finite"))
        }
    };
    match shape.as_typed_shape() {
        TypedShape::TriMesh(mesh) => mesh.validate(),
        TypedShape::Polyline(polyline) => polyline.validate(),
        #[cfg(feature = "dim3")]
        TypedShape::ConvexPolyhedron(poly) => poly.validate(),
        #[cfg(feature = "dim3")]
        TypedShape::RoundConvexPolyhedron(round) => {
            size("RoundConvexPolyhedron", &[round.border_radius])?;
            round.inner_shape.validate()
        }
        #[cfg(feature = "dim3")]
        TypedShape::HeightField(field) => field.validate(),
        TypedShape::Compound(compound) => compound.validate(),
        TypedShape::Ball(ball) => size("Ball", &[ball.radius]),
        TypedShape::Cuboid(cuboid) => size("Cuboid", &cuboid.half_extents.to_array()),
        TypedShape::RoundCuboid(round) => size(
            "RoundCuboid",
            &[
                round.inner_shape.half_extents.to_array().as_slice(),
                &[round.border_radius],
            ]
            .concat(),
        ),
        TypedShape::Capsule(capsule) => {
            points("Capsule", &[capsule.segment.a, capsule.segment.b])?;
            size("Capsule", &[capsule.radius])
        }
        TypedShape::Segment(segment) => points("Segment", &[segment.a, segment.b]),
        TypedShape::Triangle(tri) => points("Triangle", &[tri.a, tri.b, tri.c]),
        TypedShape::RoundTriangle(round) => {
            let tri = &round.inner_shape;
            points("RoundTriangle", &[tri.a, tri.b, tri.c])?;
            size("RoundTriangle", &[round.border_radius])
        }
        #[cfg(feature = "dim3")]
        TypedShape::Cylinder(c) => size("Cylinder", &[c.half_height, c.radius]),
        #[cfg(feature = "dim3")]
        TypedShape::Cone(c) => size("Cone", &[c.half_height, c.radius]),
        #[cfg(feature = "dim3")]
        TypedShape::RoundCylinder(round) => {
            let c = &round.inner_shape;
            size(
                "RoundCylinder",
                &[c.half_height, c.radius, round.border_radius],
            )
        }
        #[cfg(feature = "dim3")]
        TypedShape::RoundCone(round) => {
            let c = &round.inner_shape;
            size("RoundCone", &[c.half_height, c.radius, round.border_radius])
        }
        TypedShape::HalfSpace(half_space) => {
            let norm = half_space.normal.length();
            if (norm - 1.0).abs() <= UNIT_TOLERANCE {
                Ok(())
            } else {
                fail("HalfSpace", format!("normal of length {norm}"))
            }
        }
        TypedShape::Voxels(_) => fail("Voxels", "not checked by validate_shape".into()),
        _ => Ok(()),
    }
}
