//! A scene on a level: static geometry that is large next to its dynamic state, the case snapshot
//! format 3 refers to by id instead of copying (`docs/protocol.md` §3.2).
//!
//! Not in the stepping catalog: a level changes no trajectory (it is how a snapshot is written,
//! not how a world steps), so golden files, parity and the determinism matrix would step 50,000
//! triangles on every target for nothing they do not already cover; the snapshot tests, the
//! snapshot bench and the command line use it.

use crate::catalog::add;
use rapier3d::prelude::*;

/// The level scene's name, as the command line takes it.
pub const LEVEL_SCENE: &str = "trimesh_level";
/// Vertices per side of the terrain grid: 2 × 159² = 50,562 triangles.
pub const LEVEL_GRID: usize = 160;
/// Dynamic bodies dropped on the terrain.
pub const LEVEL_BODIES: usize = 216;
/// Steps the scene takes before its snapshot is measured.
pub const LEVEL_STEPS: usize = 60;

/// The terrain (a ≥ 50,000-triangle trimesh of rolling hills, 80 m square), four rocks sharing
/// one convex hull, and 216 boxes, balls and capsules dropped on it, under `params`; with the
/// level's shapes (terrain, then the rock), the ones the world's fixed colliders hold.
pub fn trimesh_level(params: IntegrationParameters) -> (PhysicsWorld, Vec<SharedShape>) {
    let mut world = PhysicsWorld::new();
    world.integration_parameters = params;
    let terrain = terrain();
    let rock = SharedShape::convex_hull(&rock_points()).expect("rock points span a volume");
    world
        .colliders
        .insert(ColliderBuilder::new(terrain.clone()).friction(0.7));
    for (x, z) in [(-20.0, -20.0), (20.0, -20.0), (-20.0, 20.0), (20.0, 20.0)] {
        let at = Vector::new(x, height(x, z), z);
        world
            .colliders
            .insert(ColliderBuilder::new(rock.clone()).translation(at));
    }
    let side = 6; // 6 × 6 × 6 = 216
    for i in 0..LEVEL_BODIES {
        let (gx, gy, gz) = (i % side, (i / side) % side, i / (side * side));
        let x = (gx as Real - 2.5) * 3.0;
        let z = (gz as Real - 2.5) * 3.0;
        let y = height(x, z) + 2.0 + gy as Real * 1.5;
        let body = RigidBodyBuilder::dynamic().translation(Vector::new(x, y, z));
        let collider = match i % 3 {
            0 => ColliderBuilder::cuboid(0.4, 0.3, 0.5),
            1 => ColliderBuilder::ball(0.45),
            _ => ColliderBuilder::capsule_y(0.3, 0.3),
        };
        add(&mut world, body, collider.friction(0.6));
    }
    (world, vec![terrain, rock])
}

/// The terrain's height at `(x, z)`: gentle hills, at most 1.25 m. Only `+`, `-`, `*` and
/// `floor`, which IEEE 754 rounds exactly, so every target builds the same level (a platform's
/// `sin` may differ in the last bit, and the level's id with it).
fn height(x: Real, z: Real) -> Real {
    0.75 * bump(x * 0.05) * bump(z * 0.07) + 0.5 * bump((x + z) * 0.03)
}

/// A periodic bump: 0 at whole numbers, 1 half-way between (a parabola on each unit interval).
fn bump(t: Real) -> Real {
    let f = t - t.floor();
    4.0 * f * (1.0 - f)
}

/// The terrain trimesh: a `LEVEL_GRID` × `LEVEL_GRID` grid of vertices 0.5 m apart.
fn terrain() -> SharedShape {
    let n = LEVEL_GRID;
    let step = 0.5;
    let half = (n - 1) as Real * step / 2.0;
    let vertices = (0..n * n)
        .map(|k| {
            let (x, z) = ((k % n) as Real * step - half, (k / n) as Real * step - half);
            Vector::new(x, height(x, z), z)
        })
        .collect();
    let mut indices = Vec::with_capacity(2 * (n - 1) * (n - 1));
    for row in 0..n - 1 {
        for col in 0..n - 1 {
            let a = (row * n + col) as u32;
            let (b, c, d) = (a + 1, a + n as u32, a + n as u32 + 1);
            indices.push([a, c, b]);
            indices.push([b, c, d]);
        }
    }
    SharedShape::trimesh(vertices, indices).expect("a grid is a valid trimesh")
}

/// A rock: an icosahedron stretched to 4 × 2.4 × 3.2 m (twenty triangular faces, so every face
/// of its hull is planar).
fn rock_points() -> Vec<Vector> {
    let phi = (1.0 + Real::sqrt(5.0)) / 2.0;
    let mut points = Vec::with_capacity(12);
    for a in [-1.0, 1.0] {
        for b in [-phi, phi] {
            points.push(Vector::new(0.0, a, b));
            points.push(Vector::new(a, b, 0.0));
            points.push(Vector::new(b, 0.0, a));
        }
    }
    let scale = Vector::new(2.0, 1.2, 1.6) / phi;
    points.into_iter().map(|p| p * scale).collect()
}
