//! One entry point to the `validate` methods of decoded shapes (rapier-pinned patch).

use crate::shape::{Shape, TypedShape};
use crate::utils::InvalidStructure;

/// Checks, without panicking, the index invariants of a shape decoded from untrusted bytes: the
/// `validate` method of a triangle mesh, convex polyhedron (rounded or not), heightfield or
/// compound. Other shapes have no index a query trusts and pass. The first broken invariant is
/// the error.
pub fn validate_shape(shape: &dyn Shape) -> Result<(), InvalidStructure> {
    match shape.as_typed_shape() {
        TypedShape::TriMesh(mesh) => mesh.validate(),
        #[cfg(feature = "dim3")]
        TypedShape::ConvexPolyhedron(poly) => poly.validate(),
        #[cfg(feature = "dim3")]
        TypedShape::RoundConvexPolyhedron(round) => round.inner_shape.validate(),
        #[cfg(feature = "dim3")]
        TypedShape::HeightField(field) => field.validate(),
        TypedShape::Compound(compound) => compound.validate(),
        _ => Ok(()),
    }
}
