//! Collider shapes from rapier.js's `ColliderDesc` constructors, as a shape number and its numbers.

use rapier3d::prelude::*;
use wasm_bindgen::JsValue;

use crate::error::js_error;

/// The builder of shape `shape`: 0 `ball(radius)`, 1 `cuboid(hx, hy, hz)`, 2
/// `capsule(halfHeight, radius)` (along y), 3 `cylinder(halfHeight, radius)`, 4
/// `cone(halfHeight, radius)`, 5 `roundCuboid(hx, hy, hz, borderRadius)`, 6 `convexHull(points)`,
/// 7 `trimesh(vertices, indices)`. `dims` holds the numbers in that order, `points` x y z
/// triples, `indices` triangles.
pub fn build(
    shape: u8,
    dims: &[f32],
    points: &[f32],
    indices: &[u32],
) -> Result<ColliderBuilder, JsValue> {
    let want = match shape {
        0 => 1,
        1 => 3,
        2..=4 => 2,
        5 => 4,
        6 | 7 => 0,
        s => return Err(js_error(&format!("{s} is not a shape"))),
    };
    if dims.len() != want {
        return Err(js_error(&format!(
            "shape {shape}: {} numbers, expected {want}",
            dims.len()
        )));
    }
    if points.len() % 3 != 0 || indices.len() % 3 != 0 {
        return Err(js_error("points and indices come in threes"));
    }
    let d = dims;
    let points: Vec<Vector> = points
        .chunks_exact(3)
        .map(|p| Vector::new(p[0], p[1], p[2]))
        .collect();
    Ok(match shape {
        0 => ColliderBuilder::ball(d[0]),
        1 => ColliderBuilder::cuboid(d[0], d[1], d[2]),
        2 => ColliderBuilder::capsule_y(d[0], d[1]),
        3 => ColliderBuilder::cylinder(d[0], d[1]),
        4 => ColliderBuilder::cone(d[0], d[1]),
        5 => ColliderBuilder::round_cuboid(d[0], d[1], d[2], d[3]),
        6 => ColliderBuilder::convex_hull(&points)
            .ok_or_else(|| js_error("convexHull: the points have no hull"))?,
        _ => {
            if indices.iter().any(|&i| i as usize >= points.len()) {
                return Err(js_error("trimesh: an index is past the vertices"));
            }
            let triangles = indices
                .chunks_exact(3)
                .map(|t| [t[0], t[1], t[2]])
                .collect();
            ColliderBuilder::trimesh(points, triangles)
                .map_err(|e| js_error(&format!("trimesh: {e}")))?
        }
    })
}
