//! Arenas no cut was tuned on. Issue 43 asks the cost gates to hold on scenes built outside the
//! catalog, not only on the ones the cuts were measured with. Each is the same kind of match as
//! the catalog's `arena` (vehicles with 2 mm guards, spinning 1 mm blades, loose 2 mm plates,
//! bullets and crates in a closed room), laid out by a seeded stream instead of by hand, with
//! fixed geometry the catalog's arena lacks (pillars turned off the room's axes, a tilted ramp, a
//! convex rock) and every heading off the axes. Bench only: no golden file pins them.
//!
//! A room is built of cuboids, as the catalog's, or of what a game's level ships instead
//! ([`Room`]): the same layout of the same seed with every fixed box a closed `TriMesh`, or the
//! floor a `HeightField`.

use rapier3d::prelude::*;

use crate::catalog::{add, vehicle_on, Guard};
use crate::shots::box_mesh;
use crate::stream::Stream;

/// What a generated arena's fixed geometry is made of. The layout of a seed is the same in each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Room {
    /// Cuboids: the room's six slabs, the pillars and the ramp.
    Cuboids,
    /// The same boxes as closed `TriMesh`es of default flags (as `ColliderBuilder::trimesh`
    /// builds a level's mesh).
    Mesh,
    /// The floor a `HeightField` with dips of up to 5 mm; the rest cuboids.
    HeightField,
}

/// The benchmark cases of generated arenas: a name and its seed.
pub const ARENA_SEEDS: [(&str, u64); 3] = [
    ("arena_generated_1", 1),
    ("arena_generated_2", 2),
    ("arena_generated_3", 3),
];

/// The benchmark cases of generated arenas whose rooms are meshes and heightfields: a name, its
/// seed and its room. The seeds are the cuboid arenas' own, so each reads against its twin.
pub const ARENA_ROOMS: [(&str, u64, Room); 4] = [
    ("arena_mesh_1", 1, Room::Mesh),
    ("arena_mesh_2", 2, Room::Mesh),
    ("arena_heightfield_1", 1, Room::HeightField),
    ("arena_heightfield_2", 2, Room::HeightField),
];

/// Every generated arena of the bench, in its order: the cuboid rooms ([`ARENA_SEEDS`]), then
/// the mesh and heightfield rooms ([`ARENA_ROOMS`]); a name, a seed and a room each.
pub fn generated_arenas() -> impl Iterator<Item = (&'static str, u64, Room)> {
    let cuboids = ARENA_SEEDS.map(|(name, seed)| (name, seed, Room::Cuboids));
    cuboids.into_iter().chain(ARENA_ROOMS)
}

/// Steps of each generated arena: 4 s at 60 Hz, as the catalog's arena.
pub const ARENA_GENERATED_STEPS: usize = 240;

/// The generated arena of `seed` in `room`, named `name`, run for [`ARENA_GENERATED_STEPS`]
/// steps under `params`: one `name step digest` line per step, as [`crate::digest_lines`]
/// writes a scene's (the proof of a speed-only change to the depth rule's bounds on meshes and
/// heightfields, which no catalog scene has near a CCD body).
pub fn generated_digest_lines(
    (name, seed, room): (&str, u64, Room),
    params: IntegrationParameters,
) -> String {
    let mut world = PhysicsWorld::new();
    world.integration_parameters = params;
    arena_generated_in(&mut world, seed, room);
    crate::step_lines(name, &mut world, ARENA_GENERATED_STEPS)
}

/// A point of the floor at least `radius` from every wall and farther than `radius` plus its
/// radius from everything `placed` (each a centre and a radius), so that no two parts start
/// inside each other; recorded in `placed`.
fn place(
    rng: &mut Stream,
    (hx, hz): (Real, Real),
    radius: Real,
    placed: &mut Vec<(Real, Real, Real)>,
) -> (Real, Real) {
    for _ in 0..1000 {
        let x = rng.range(-hx + radius, hx - radius);
        let z = rng.range(-hz + radius, hz - radius);
        let free = placed.iter().all(|&(px, pz, pr)| {
            let (dx, dz) = (x - px, z - pz);
            dx * dx + dz * dz > (radius + pr) * (radius + pr)
        });
        if free {
            placed.push((x, z, radius));
            return (x, z);
        }
    }
    panic!("the generated arena has no room left for a part of radius {radius}");
}

/// The generated arena of `seed`: a room of 14–20 m by 10–16 m, 4 m high; 2 turned pillars, a
/// ramp and a convex rock; 8 vehicles driving at 5–25 m/s on any heading; 4 blades thrown
/// spinning at 150–300 rad/s; 8 loose upright plates; 20 bullets at 60–150 m/s; 10 crates and
/// balls. 68 colliders in all. Returns the room's inside as (half-length along x, ceiling
/// height, half-length along z): the floor's top is at `y = 0`, the room centred on the y axis.
pub fn arena_generated(world: &mut PhysicsWorld, seed: u64) -> Vector {
    arena_generated_in(world, seed, Room::Cuboids)
}

/// The generated arena of `seed` with its fixed geometry made of `room`: [`arena_generated`]'s
/// layout, draw for draw.
pub fn arena_generated_in(world: &mut PhysicsWorld, seed: u64, room: Room) -> Vector {
    let mut rng = Stream::new(seed);
    let (hx, hz, hy) = (rng.range(7.0, 10.0), rng.range(5.0, 8.0), 2.0);
    let fixed = |world: &mut PhysicsWorld, collider: ColliderBuilder| {
        world.colliders.insert(collider.friction(0.5));
    };
    // A fixed box of the room's kind.
    let block = |half: [Real; 3], at: Vector| {
        let [x, y, z] = half;
        let shape = match room {
            Room::Mesh => box_mesh(Vector::new(x, y, z), TriMeshFlags::empty()),
            Room::Cuboids | Room::HeightField => SharedShape::cuboid(x, y, z),
        };
        ColliderBuilder::new(shape).translation(at)
    };
    let floor = match room {
        Room::HeightField => ColliderBuilder::new(floor_field(hx + 0.2, hz + 0.2)),
        Room::Cuboids | Room::Mesh => block([hx + 0.2, 0.1, hz + 0.2], Vector::new(0.0, -0.1, 0.0)),
    };
    fixed(world, floor);
    fixed(
        world,
        block([hx, 0.1, hz], Vector::new(0.0, 2.0 * hy + 0.1, 0.0)),
    );
    for side in [-1.0, 1.0] {
        fixed(
            world,
            block([0.1, hy, hz], Vector::new(side * (hx + 0.1), hy, 0.0)),
        );
        fixed(
            world,
            block([hx, hy, 0.1], Vector::new(0.0, hy, side * (hz + 0.1))),
        );
    }
    let mut placed = Vec::new();
    let inside = (hx, hz);
    let turn = |rng: &mut Stream| Vector::new(0.0, rng.range(-3.1, 3.1), 0.0);
    for _ in 0..2 {
        let (x, z) = place(&mut rng, inside, 0.5, &mut placed);
        let pillar = block([0.3, hy, 0.3], Vector::new(x, hy, z)).rotation(turn(&mut rng));
        fixed(world, pillar);
    }
    let (x, z) = place(&mut rng, inside, 1.8, &mut placed);
    let ramp = block([1.5, 0.05, 1.0], Vector::new(x, 0.25, z))
        .rotation(turn(&mut rng) + Vector::new(0.0, 0.0, 0.2));
    fixed(world, ramp);
    let (x, z) = place(&mut rng, inside, 0.9, &mut placed);
    let points: Vec<Vector> = (0..12)
        .map(|_| {
            let r = |rng: &mut Stream| rng.range(-0.6, 0.6);
            Vector::new(r(&mut rng), rng.range(0.0, 0.8), r(&mut rng))
        })
        .collect();
    let rock = ColliderBuilder::convex_hull(&points).expect("12 points span a volume");
    fixed(world, rock.translation(Vector::new(x, 0.0, z)));

    // Vehicles: the catalog's, guards clear of the floor, on a heading.
    for _ in 0..8 {
        let (x, z) = place(&mut rng, inside, 1.3, &mut placed);
        let heading = turn(&mut rng);
        let forward = Rotation::from_scaled_axis(heading) * Vector::X;
        let body = RigidBodyBuilder::dynamic()
            .translation(Vector::new(x, 0.3, z))
            .rotation(heading)
            .linvel(forward * rng.range(5.0, 25.0))
            .ccd_enabled(true);
        vehicle_on(world, body, 1.0, Guard::Clear);
    }
    // Blades thrown across the room, spinning about their thin axis.
    for _ in 0..4 {
        let (x, z) = place(&mut rng, inside, 0.3, &mut placed);
        let heading = turn(&mut rng);
        let frame = Rotation::from_scaled_axis(heading);
        let body = RigidBodyBuilder::dynamic()
            .translation(Vector::new(x, rng.range(1.0, 2.5), z))
            .rotation(heading)
            .linvel(frame * Vector::X * rng.range(10.0, 20.0))
            .angvel(frame * Vector::Z * rng.range(150.0, 300.0))
            .ccd_enabled(true)
            .allow_fast_rotation(true);
        add(world, body, ColliderBuilder::cuboid(0.25, 0.02, 0.0005));
    }
    // Loose upright plates.
    for _ in 0..8 {
        let (x, z) = place(&mut rng, inside, 0.45, &mut placed);
        let body = RigidBodyBuilder::dynamic()
            .translation(Vector::new(x, 0.301, z))
            .rotation(turn(&mut rng))
            .ccd_enabled(true);
        let plate = ColliderBuilder::cuboid(0.001, 0.3, 0.4).friction(0.5);
        add(world, body, plate);
    }
    // Bullets, on any heading, slightly up or down.
    for _ in 0..20 {
        let (x, z) = place(&mut rng, inside, 0.05, &mut placed);
        let heading = turn(&mut rng);
        let dir = (Rotation::from_scaled_axis(heading) * Vector::X
            + Vector::new(0.0, rng.range(-0.1, 0.1), 0.0))
        .normalize();
        let body = RigidBodyBuilder::dynamic()
            .translation(Vector::new(x, rng.range(0.2, 1.5), z))
            .linvel(dir * rng.range(60.0, 150.0))
            .ccd_enabled(true);
        add(world, body, ColliderBuilder::ball(0.02).density(8.0));
    }
    // Crates and balls, without CCD.
    for i in 0..10 {
        let (x, z) = place(&mut rng, inside, 0.4, &mut placed);
        let body = RigidBodyBuilder::dynamic().translation(Vector::new(x, 0.31, z));
        let shape = if i % 2 == 0 {
            ColliderBuilder::cuboid(0.25, 0.25, 0.25)
        } else {
            ColliderBuilder::ball(0.3)
        };
        add(world, body, shape.friction(0.6));
    }
    Vector::new(hx, 2.0 * hy, hz)
}

/// A floor of half-extents `hx` by `hz` whose top is at `y = 0`, dipping up to 5 mm in two
/// waves (shallow enough that every part starts clear of it and a part resting in a dip stays
/// within the containment test's slack), in cells of about 25 cm.
fn floor_field(hx: Real, hz: Real) -> SharedShape {
    let (nx, nz) = ((hx * 8.0) as usize + 1, (hz * 8.0) as usize + 1);
    let heights = (0..nx * nz)
        .map(|k| {
            // Column-major, as parry's `Array2`: row i advances along z, column j along x.
            let (i, j) = ((k % nz) as Real, (k / nz) as Real);
            -0.0025 * (1.0 + (j * 0.7).sin() * (i * 0.45).cos())
        })
        .collect();
    SharedShape::heightfield(
        Array2::new(nz, nx, heights),
        Vector::new(2.0 * hx, 1.0, 2.0 * hz),
    )
}
