//! The shots of the CCD safety matrix (`docs/physics-engine.md`, "The CCD safety matrix"): one
//! fast part fired at one target, every parameter drawn from a seed rather than picked.
//!
//! A shot is a cell (a [`TargetKind`] and a [`PartKind`]) and its draws: the part's size
//! (1 mm to 1 m), speed (1 to 300 m/s), angle of incidence (0 to 85° from the surface normal),
//! spin (none, or 1 to 1,000 rad/s about any axis), orientation, aim point and where in a step it
//! arrives. The same shot runs at any tick rate. Every part is a bullet (`ccd_enabled`): the
//! matrix asks what continuous collision promises to a body that asked for it.
//!
//! A built shot says what the judge checks ([`Surface`]): the closed solids a part's centre must
//! never be inside of, the open surfaces it must never cross, and the moving thin plates it must
//! never pass through. The judge itself is `rapier_pinned_ccd_eval::safety`.

use std::collections::BTreeMap;

use rapier3d::math::{Pose, Real, Rotation, Vector};
use rapier3d::parry::query::{self, Ray};
use rapier3d::prelude::*;

use crate::catalog::add;
use crate::stream::Stream;

/// The shapes of the fast part.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PartKind {
    Ball,
    Cuboid,
    Capsule,
    Cylinder,
    Hull,
    /// A plate 1–2 mm thick (thinner than the default slop).
    Plate,
    /// A dumbbell: a bar with a ball at each end.
    Compound,
}

impl PartKind {
    /// Every part kind, in the order the tables print them.
    pub const ALL: [PartKind; 7] = [
        PartKind::Ball,
        PartKind::Cuboid,
        PartKind::Capsule,
        PartKind::Cylinder,
        PartKind::Hull,
        PartKind::Plate,
        PartKind::Compound,
    ];

    /// The name the tables print.
    pub fn name(self) -> &'static str {
        match self {
            PartKind::Ball => "ball",
            PartKind::Cuboid => "cuboid",
            PartKind::Capsule => "capsule",
            PartKind::Cylinder => "cylinder",
            PartKind::Hull => "hull",
            PartKind::Plate => "plate",
            PartKind::Compound => "compound",
        }
    }
}

/// What the part is fired at.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetKind {
    /// A fixed cuboid wall 0.5 m thick, 4 × 4 m.
    CuboidThick,
    /// A fixed cuboid plate 2 mm thick, 4 × 4 m.
    CuboidThin,
    /// The thick wall as a closed `TriMesh`, default flags (`ColliderBuilder::trimesh`).
    MeshClosed,
    /// The same mesh with `ORIENTED | FIX_INTERNAL_EDGES`.
    MeshClosedOriented,
    /// A single open `TriMesh` sheet, 4 × 4 m, default flags.
    MeshSheet,
    /// The sheet with `ORIENTED | FIX_INTERNAL_EDGES`, its normal facing the part.
    MeshSheetOriented,
    /// A bumpy `HeightField`, 8 × 8 m, tilted up to 17°, shot from above.
    HeightField,
    /// A fixed convex hull 1–3 m across.
    Hull,
    /// A fixed compound: a wall of 4 × 4 cuboid bricks, 0.5 m thick.
    Compound,
    /// A level: a floor and a wall as one `TriMesh` (default flags); the part slides on the
    /// floor into the wall.
    LevelMesh,
    /// The level with `ORIENTED | FIX_INTERNAL_EDGES`.
    LevelMeshOriented,
    /// A closed 4 m room whose six sides are one `TriMesh` (default flags); the part is fired
    /// from inside.
    RoomMesh,
    /// The room with `ORIENTED | FIX_INTERNAL_EDGES`, its normals facing in.
    RoomMeshOriented,
    /// The room of six fixed cuboids 0.2 m thick.
    RoomCuboids,
    /// A free dynamic plate, 1 × 1 m and 2 mm thick, drifting and spinning about its normal.
    PlateDynamic,
    /// A kinematic plate, 1 × 1 m and 2 mm thick, moving towards the part.
    PlateKinematic,
}

impl TargetKind {
    /// Every target kind, in the order the tables print them.
    pub const ALL: [TargetKind; 16] = [
        TargetKind::CuboidThick,
        TargetKind::CuboidThin,
        TargetKind::MeshClosed,
        TargetKind::MeshClosedOriented,
        TargetKind::MeshSheet,
        TargetKind::MeshSheetOriented,
        TargetKind::HeightField,
        TargetKind::Hull,
        TargetKind::Compound,
        TargetKind::LevelMesh,
        TargetKind::LevelMeshOriented,
        TargetKind::RoomMesh,
        TargetKind::RoomMeshOriented,
        TargetKind::RoomCuboids,
        TargetKind::PlateDynamic,
        TargetKind::PlateKinematic,
    ];

    /// The name the tables print.
    pub fn name(self) -> &'static str {
        match self {
            TargetKind::CuboidThick => "cuboid_thick",
            TargetKind::CuboidThin => "cuboid_thin",
            TargetKind::MeshClosed => "mesh_closed",
            TargetKind::MeshClosedOriented => "mesh_closed_oriented",
            TargetKind::MeshSheet => "mesh_sheet",
            TargetKind::MeshSheetOriented => "mesh_sheet_oriented",
            TargetKind::HeightField => "heightfield",
            TargetKind::Hull => "hull",
            TargetKind::Compound => "compound",
            TargetKind::LevelMesh => "level_mesh",
            TargetKind::LevelMeshOriented => "level_mesh_oriented",
            TargetKind::RoomMesh => "room_mesh",
            TargetKind::RoomMeshOriented => "room_mesh_oriented",
            TargetKind::RoomCuboids => "room_cuboids",
            TargetKind::PlateDynamic => "plate_dynamic",
            TargetKind::PlateKinematic => "plate_kinematic",
        }
    }

    /// The flags of this kind's `TriMesh`, if it is one: none (as `ColliderBuilder::trimesh`
    /// and bevy's `Collider::trimesh` build them), or oriented with fixed internal edges.
    fn mesh_flags(self) -> Option<TriMeshFlags> {
        let oriented = TriMeshFlags::ORIENTED | TriMeshFlags::FIX_INTERNAL_EDGES;
        match self {
            TargetKind::MeshClosed
            | TargetKind::MeshSheet
            | TargetKind::LevelMesh
            | TargetKind::RoomMesh => Some(TriMeshFlags::empty()),
            TargetKind::MeshClosedOriented
            | TargetKind::MeshSheetOriented
            | TargetKind::LevelMeshOriented
            | TargetKind::RoomMeshOriented => Some(oriented),
            _ => None,
        }
    }
}

/// What the judge checks of a built shot.
#[derive(Clone)]
pub enum Surface {
    /// A closed solid (at its pose): a part's centre must never be inside it at the end of a
    /// step, nor cross it between two steps.
    Solid { shape: SharedShape, pose: Pose },
    /// An open surface (a sheet, a heightfield, a mesh with no inside): a part's centre must
    /// never cross it between two steps.
    Open { shape: SharedShape, pose: Pose },
    /// A moving thin plate (a cuboid collider): the part must never pass through it within its
    /// face (judged in the plate's own frame), nor end a step with its centre inside it.
    Moving { collider: ColliderHandle },
}

/// One shot of the matrix: its cell, its index in the cell, and its draws.
#[derive(Copy, Clone, Debug)]
pub struct Shot {
    pub target: TargetKind,
    pub part: PartKind,
    /// The shot's index within its cell.
    pub index: u32,
    /// The part's largest extent, m.
    pub size: Real,
    /// The part's speed, m/s.
    pub speed: Real,
    /// The angle of incidence from the surface normal, radians (rooms: any direction).
    pub angle: Real,
    /// The part's spin, rad/s (0: none).
    pub spin: Real,
    /// The rest of the shot's draws (shape proportions, orientation, aim, arrival).
    seed: u64,
}

impl std::fmt::Display for Shot {
    /// `target/part#index`, the name every report gives a shot.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{}#{}",
            self.target.name(),
            self.part.name(),
            self.index
        )
    }
}

/// A built shot: the part's body, the points of it that are judged, what they are judged
/// against, and how many steps to run.
pub struct ShotCase {
    pub part: RigidBodyHandle,
    /// The part's centres in its body's frame: its centre of mass, or each compound child's
    /// centroid. A centre is a point of the part, so a centre past a surface is the part past it.
    pub centres: Vec<Vector>,
    pub surfaces: Vec<Surface>,
    pub steps: usize,
}

/// The most angle of incidence a shot draws: 85°.
pub const MAX_ANGLE_DEGREES: Real = 85.0;

/// How long a shot runs after its part arrives, s.
const AFTER_ARRIVAL: Real = 0.5;

/// The shots of the matrix of `seed`: `per_cell` shots of every target and part kind, in the
/// order of [`TargetKind::ALL`], then [`PartKind::ALL`], then index. A shot's draws depend only
/// on the seed, its cell and its index, so a larger matrix of the same seed extends a smaller one.
pub fn shots(seed: u64, per_cell: u32) -> Vec<Shot> {
    let mut out = Vec::new();
    for (t, target) in TargetKind::ALL.into_iter().enumerate() {
        for (p, part) in PartKind::ALL.into_iter().enumerate() {
            for index in 0..per_cell {
                let cell = ((t as u64) << 40) | ((p as u64) << 32) | index as u64;
                let mut rng = Stream::new(Stream::new(seed ^ cell).next());
                out.push(Shot {
                    target,
                    part,
                    index,
                    size: log_range(&mut rng, 0.001, 1.0),
                    speed: log_range(&mut rng, 1.0, 300.0),
                    angle: rng.range(0.0, MAX_ANGLE_DEGREES).to_radians(),
                    spin: if rng.range(0.0, 3.0) < 1.0 {
                        0.0
                    } else {
                        log_range(&mut rng, 1.0, 1000.0)
                    },
                    seed: rng.next(),
                });
            }
        }
    }
    out
}

/// A value in `[lo, hi)` spread evenly on a log scale.
fn log_range(rng: &mut Stream, lo: Real, hi: Real) -> Real {
    (rng.range(lo.ln(), hi.ln())).exp()
}

/// A rotation drawn uniformly (Shoemake's method).
fn any_rotation(rng: &mut Stream) -> Rotation {
    let (u1, u2, u3) = (
        rng.range(0.0, 1.0),
        rng.range(0.0, std::f32::consts::TAU),
        rng.range(0.0, std::f32::consts::TAU),
    );
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    Rotation::from_xyzw(a * u2.sin(), a * u2.cos(), b * u3.sin(), b * u3.cos()).normalize()
}

/// A unit vector drawn uniformly.
fn any_direction(rng: &mut Stream) -> Vector {
    let z = rng.range(-1.0, 1.0);
    let phi = rng.range(0.0, std::f32::consts::TAU);
    let r = (1.0 - z * z).max(0.0).sqrt();
    Vector::new(r * phi.cos(), r * phi.sin(), z)
}

/// Where a target is hit: the aim point, the surface normal there (facing the part), and the
/// direction the part comes from within the cone of its angle of incidence.
struct Aim {
    point: Vector,
    normal: Vector,
}

impl Aim {
    /// The direction of travel that meets the surface at `angle` from its normal, turned by a
    /// drawn azimuth about it.
    fn incoming(&self, angle: Real, rng: &mut Stream) -> Vector {
        let n = self.normal;
        let helper = if n.x.abs() < 0.9 {
            Vector::X
        } else {
            Vector::Y
        };
        let t = n.cross(helper).normalize();
        let b = n.cross(t);
        let phi = rng.range(0.0, std::f32::consts::TAU);
        -n * angle.cos() + (t * phi.cos() + b * phi.sin()) * angle.sin()
    }
}

impl Shot {
    /// The world of this shot under `params` (its `dt` sets how far the part starts), with
    /// gravity, and what the judge checks.
    pub fn build(&self, params: IntegrationParameters) -> (PhysicsWorld, ShotCase) {
        let mut rng = Stream::new(self.seed);
        let mut world = PhysicsWorld::new();
        world.integration_parameters = params;
        let dt = params.dt;
        let (part, centres) = part_shape(self.part, self.size, &mut rng);
        let reach = part.compute_local_bounding_sphere();
        let reach = reach.center.length() + reach.radius;
        let (surfaces, start, velocity, rotation, spin_axis, arrival) = match self.target {
            TargetKind::LevelMesh | TargetKind::LevelMeshOriented => {
                let flags = self.target.mesh_flags().expect("a level is a mesh");
                let yaw = Rotation::from_rotation_y(rng.range(0.0, std::f32::consts::TAU));
                let pose = Pose::from_parts(Vector::ZERO, yaw);
                let mesh = level_mesh(flags);
                world
                    .colliders
                    .insert(ColliderBuilder::new(mesh.clone()).position(pose));
                // Lying flat on the floor (thinnest axis up), turned about the vertical.
                let lying = Rotation::from_rotation_y(rng.range(0.0, std::f32::consts::TAU))
                    * Rotation::from_rotation_x(-std::f32::consts::FRAC_PI_2);
                let rotation = yaw * lying;
                let bottom = part
                    .compute_aabb(&Pose::from_parts(Vector::ZERO, rotation))
                    .mins
                    .y;
                let phi = rng.range(-1.0, 1.0).signum() * self.angle;
                let dir = yaw * Vector::new(phi.cos(), 0.0, phi.sin());
                // Clear of the wall by its reach and 2 cm, plus 0.1 to 1.1 steps of travel
                // towards it; along its path, that far over the cosine of the incidence.
                let across = reach + 0.02 + self.speed * phi.cos() * dt * rng.range(0.1, 1.1);
                let d = across / phi.cos();
                // Hits the wall as far from the floor's middle as it starts: both within 11 m.
                let along = 0.5 * d * phi.sin() + rng.range(-1.0, 1.0);
                let to_wall = yaw * Vector::new(LEVEL_WALL_X, 0.0, along);
                let start = to_wall - dir * d + Vector::new(0.0, 0.0005 - bottom, 0.0);
                let surfaces = vec![Surface::Open { shape: mesh, pose }];
                (
                    surfaces,
                    start,
                    dir * self.speed,
                    rotation,
                    Vector::Y,
                    d / self.speed,
                )
            }
            TargetKind::RoomMesh | TargetKind::RoomMeshOriented | TargetKind::RoomCuboids => {
                let yaw = Rotation::from_rotation_y(rng.range(0.0, std::f32::consts::TAU));
                let surfaces = room(&mut world, self.target, yaw);
                let start = Vector::new(
                    rng.range(-0.5, 0.5),
                    ROOM_HALF + rng.range(-0.5, 0.5),
                    rng.range(-0.5, 0.5),
                );
                let dir = any_direction(&mut rng);
                let (rotation, axis) = (any_rotation(&mut rng), any_direction(&mut rng));
                let arrival = (2.0 * ROOM_HALF / self.speed).min(1.0);
                (surfaces, start, dir * self.speed, rotation, axis, arrival)
            }
            _ => {
                let (surfaces, aim, target_velocity) =
                    fixed_or_moving_target(&mut world, self.target, &mut rng);
                let dir = aim.incoming(self.angle, &mut rng);
                let closing = (self.speed - target_velocity.dot(dir)).max(self.speed);
                let mut d = reach + 0.02 + closing * dt * rng.range(0.1, 1.1);
                // Start clear of every fixed surface: step back along the path until the part's
                // reach is 1 cm from each (a bump of a heightfield, a hull's far side).
                for _ in 0..1000 {
                    let at = aim.point - dir * d;
                    if clear(&surfaces, &world, at, reach + 0.01) {
                        break;
                    }
                    d += 0.05;
                }
                let start = aim.point - dir * d;
                let (rotation, axis) = (any_rotation(&mut rng), any_direction(&mut rng));
                (
                    surfaces,
                    start,
                    dir * self.speed,
                    rotation,
                    axis,
                    d / closing,
                )
            }
        };
        let mut body = RigidBodyBuilder::dynamic()
            .translation(start)
            .rotation(rotation.to_scaled_axis())
            .linvel(velocity)
            .ccd_enabled(true);
        if self.spin > 0.0 {
            body = body.angvel(spin_axis * self.spin).allow_fast_rotation(true);
        }
        let (handle, _) = add(&mut world, body, ColliderBuilder::new(part));
        let steps = ((arrival.min(2.0) + AFTER_ARRIVAL) / dt).ceil() as usize;
        let case = ShotCase {
            part: handle,
            centres,
            surfaces,
            steps,
        };
        (world, case)
    }
}

/// Whether a ball of radius `reach` at `at` is clear of every fixed surface.
fn clear(surfaces: &[Surface], world: &PhysicsWorld, at: Vector, reach: Real) -> bool {
    let ball = Ball::new(reach);
    let here = Pose::from_translation(at);
    surfaces.iter().all(|surface| {
        let (shape, pose) = match surface {
            Surface::Solid { shape, pose } | Surface::Open { shape, pose } => {
                (shape.clone(), *pose)
            }
            Surface::Moving { collider } => {
                let co = &world.colliders[*collider];
                (co.shared_shape().clone(), *co.position())
            }
        };
        query::intersection_test(&pose, shape.as_ref(), &here, &ball)
            .is_ok_and(|hit| !hit.intersecting)
    })
}

/// The part's shape, its largest extent about `size`, centred on its centre of mass, and the
/// centres the judge follows (see [`ShotCase::centres`]).
fn part_shape(kind: PartKind, size: Real, rng: &mut Stream) -> (SharedShape, Vec<Vector>) {
    let h = 0.5 * size;
    let share = |rng: &mut Stream| rng.range(0.2, 1.0);
    let shape = match kind {
        PartKind::Ball => SharedShape::ball(h),
        PartKind::Cuboid => SharedShape::cuboid(h, h * share(rng), h * share(rng)),
        PartKind::Capsule => {
            let radius = h * 0.5 * share(rng);
            SharedShape::capsule_y(h - radius, radius)
        }
        PartKind::Cylinder => SharedShape::cylinder(h * share(rng), h * share(rng)),
        PartKind::Hull => {
            let (sy, sz) = (share(rng), share(rng));
            loop {
                let points: Vec<Vector> = (0..10)
                    .map(|_| {
                        Vector::new(
                            rng.range(-h, h),
                            rng.range(-h, h) * sy,
                            rng.range(-h, h) * sz,
                        )
                    })
                    .collect();
                if let Some(hull) = SharedShape::convex_hull(&points) {
                    // Centred on its centre of mass, as every other part.
                    let com = hull.mass_properties(1.0).local_com;
                    let centred: Vec<Vector> = points.iter().map(|p| *p - com).collect();
                    if let Some(hull) = SharedShape::convex_hull(&centred) {
                        break hull;
                    }
                }
            }
        }
        PartKind::Plate => {
            let thickness = rng.range(0.001, 0.002).min(size);
            SharedShape::cuboid(h, h * share(rng), 0.5 * thickness)
        }
        PartKind::Compound => {
            let bar = SharedShape::cuboid(h, 0.25 * h, 0.25 * h);
            let end = SharedShape::ball(h / 3.0);
            let at = |x: Real| Pose::from_translation(Vector::new(x, 0.0, 0.0));
            let children = vec![
                (at(0.0), bar),
                (at(-0.8 * h), end.clone()),
                (at(0.8 * h), end),
            ];
            let centres = vec![Vector::ZERO, Vector::new(-0.8 * h, 0.0, 0.0), {
                Vector::new(0.8 * h, 0.0, 0.0)
            }];
            return (SharedShape::compound(children), centres);
        }
    };
    (shape, vec![Vector::ZERO])
}

/// Half the inside of a room, m: rooms are 4 m cubes with the floor's top at `y = 0`.
const ROOM_HALF: Real = 2.0;

/// The wall of a level: the plane `x = LEVEL_WALL_X` (level frame), facing `-x`.
const LEVEL_WALL_X: Real = 3.0;

/// A fixed target (or a moving plate) with its front face in the plane `z = 0` of its frame,
/// facing `+z`, turned by a drawn rotation about the origin; the aim on it, and the target's
/// velocity (zero but for the kinematic plate).
fn fixed_or_moving_target(
    world: &mut PhysicsWorld,
    kind: TargetKind,
    rng: &mut Stream,
) -> (Vec<Surface>, Aim, Vector) {
    let turn = any_rotation(rng);
    let pose = Pose::from_parts(Vector::ZERO, turn);
    let front = |x: Real, y: Real| Aim {
        point: pose.transform_point(Vector::new(x, y, 0.0)),
        normal: turn * Vector::Z,
    };
    let aim_on =
        |half: Real, rng: &mut Stream| front(rng.range(-half, half), rng.range(-half, half));
    let fixed = |world: &mut PhysicsWorld, shape: &SharedShape, at: Pose| {
        world
            .colliders
            .insert(ColliderBuilder::new(shape.clone()).position(at));
    };
    match kind {
        TargetKind::CuboidThick | TargetKind::CuboidThin | TargetKind::Compound => {
            let half_z = if kind == TargetKind::CuboidThin {
                0.001
            } else {
                0.25
            };
            let at = pose * Pose::from_translation(Vector::new(0.0, 0.0, -half_z));
            let shape = if kind == TargetKind::Compound {
                bricks()
            } else {
                SharedShape::cuboid(2.0, 2.0, half_z)
            };
            fixed(world, &shape, at);
            let surfaces = vec![Surface::Solid { shape, pose: at }];
            (surfaces, aim_on(1.5, rng), Vector::ZERO)
        }
        TargetKind::MeshClosed | TargetKind::MeshClosedOriented => {
            let half = Vector::new(2.0, 2.0, 0.25);
            let flags = kind.mesh_flags().expect("a mesh");
            let at = pose * Pose::from_translation(Vector::new(0.0, 0.0, -half.z));
            fixed(world, &box_mesh(half, flags), at);
            // The mesh's inside is the box it was built from.
            let solid = SharedShape::cuboid(half.x, half.y, half.z);
            let surfaces = vec![Surface::Solid {
                shape: solid,
                pose: at,
            }];
            (surfaces, aim_on(1.5, rng), Vector::ZERO)
        }
        TargetKind::MeshSheet | TargetKind::MeshSheetOriented => {
            let flags = kind.mesh_flags().expect("a mesh");
            let sheet = grid_mesh(&[quad(Vector::new(0.0, 0.0, 0.0), 2.0)], 8, flags);
            fixed(world, &sheet, pose);
            let surfaces = vec![Surface::Open { shape: sheet, pose }];
            (surfaces, aim_on(1.5, rng), Vector::ZERO)
        }
        TargetKind::HeightField => {
            let tilt = Rotation::from_rotation_x(rng.range(-0.3, 0.3));
            let yaw = Rotation::from_rotation_y(rng.range(0.0, std::f32::consts::TAU));
            let at = Pose::from_parts(Vector::ZERO, yaw * tilt);
            let field = heightfield(rng);
            fixed(world, &field, at);
            let (x, z) = (rng.range(-2.5, 2.5), rng.range(-2.5, 2.5));
            let aim = surface_below(&field, &at, at.transform_point(Vector::new(x, 5.0, z)), {
                at.rotation * -Vector::Y
            });
            (
                vec![Surface::Open {
                    shape: field,
                    pose: at,
                }],
                aim,
                Vector::ZERO,
            )
        }
        TargetKind::Hull => {
            let radii = Vector::new(
                rng.range(0.5, 1.5),
                rng.range(0.5, 1.5),
                rng.range(0.5, 1.5),
            );
            let points: Vec<Vector> = (0..16)
                .map(|_| any_direction(rng) * radii * rng.range(0.8, 1.0))
                .collect();
            let hull = SharedShape::convex_hull(&points).expect("16 points on an ellipsoid");
            fixed(world, &hull, pose);
            // Aimed at its centre of mass from any side: the ray ends inside, so it meets it.
            let centre = pose.transform_point(hull.mass_properties(1.0).local_com);
            let side = any_direction(rng);
            let aim = surface_below(&hull, &pose, centre + side * 10.0, -side);
            (
                vec![Surface::Solid { shape: hull, pose }],
                aim,
                Vector::ZERO,
            )
        }
        TargetKind::PlateDynamic | TargetKind::PlateKinematic => {
            let at = pose * Pose::from_translation(Vector::new(0.0, 0.0, -0.001));
            let plate = ColliderBuilder::cuboid(0.5, 0.5, 0.001);
            let normal = turn * Vector::Z;
            let body = if kind == TargetKind::PlateDynamic {
                let spin = if rng.range(0.0, 2.0) < 1.0 {
                    0.0
                } else {
                    rng.range(1.0, 300.0)
                };
                RigidBodyBuilder::dynamic()
                    .linvel(any_direction(rng) * rng.range(0.0, 5.0))
                    .angvel(normal * spin)
                    .allow_fast_rotation(true)
            } else {
                RigidBodyBuilder::kinematic_velocity_based()
                    .linvel(normal * rng.range(1.0, 30.0))
                    .angvel(normal * rng.range(0.0, 100.0))
            };
            let body = body.pose(at);
            let (handle, collider) = add(world, body, plate);
            let velocity = world.bodies[handle].linvel();
            let surfaces = vec![Surface::Moving { collider }];
            (surfaces, aim_on(0.4, rng), velocity)
        }
        TargetKind::LevelMesh
        | TargetKind::LevelMeshOriented
        | TargetKind::RoomMesh
        | TargetKind::RoomMeshOriented
        | TargetKind::RoomCuboids => unreachable!("built by their own rules"),
    }
}

/// Where the ray from `from` along `dir` (a unit vector) meets `shape` at `pose`, and the outward
/// normal there.
fn surface_below(shape: &SharedShape, pose: &Pose, from: Vector, dir: Vector) -> Aim {
    let hit = shape
        .cast_ray_and_get_normal(pose, &Ray::new(from, dir), 100.0, true)
        .unwrap_or_else(|| panic!("the aim ray from {from} along {dir} misses the target"));
    Aim {
        point: from + dir * hit.time_of_impact,
        normal: hit.normal,
    }
}

/// A wall of 4 × 4 bricks, each 1 × 1 × 0.5 m, centred on the origin: the compound target.
fn bricks() -> SharedShape {
    let brick = SharedShape::cuboid(0.5, 0.5, 0.25);
    let children = (0..16)
        .map(|i| {
            let (x, y) = ((i % 4) as Real - 1.5, (i / 4) as Real - 1.5);
            (
                Pose::from_translation(Vector::new(x, y, 0.0)),
                brick.clone(),
            )
        })
        .collect();
    SharedShape::compound(children)
}

/// A square of half-side `half` in a plane, as its centre and two half-edge vectors whose cross
/// product is the square's front normal.
type Quad = (Vector, Vector, Vector);

/// The square of half-side `half` centred on `centre` in the plane `z = centre.z`, facing `+z`.
fn quad(centre: Vector, half: Real) -> Quad {
    (centre, Vector::X * half, Vector::Y * half)
}

/// One `TriMesh` of the quads, each cut into `cells × cells` squares of two triangles, wound so
/// that each triangle faces its quad's front; vertices shared where quads meet (a level's mesh
/// is one connected surface).
fn grid_mesh(quads: &[Quad], cells: u32, flags: TriMeshFlags) -> SharedShape {
    let mut vertices = Vec::new();
    let mut index_of: BTreeMap<[u32; 3], u32> = BTreeMap::new();
    let mut indices = Vec::new();
    for &(centre, u, v) in quads {
        let mut vertex = |i: u32, j: u32| {
            let s = 2.0 * i as Real / cells as Real - 1.0;
            let t = 2.0 * j as Real / cells as Real - 1.0;
            let p = centre + u * s + v * t;
            // Shared by every quad that reaches it: keyed by its bits after rounding to 0.1 mm.
            let key = [p.x, p.y, p.z].map(|c| (c * 1e4).round() as i32 as u32);
            *index_of.entry(key).or_insert_with(|| {
                vertices.push(p);
                vertices.len() as u32 - 1
            })
        };
        for i in 0..cells {
            for j in 0..cells {
                let (a, b, c, d) = (
                    vertex(i, j),
                    vertex(i + 1, j),
                    vertex(i + 1, j + 1),
                    vertex(i, j + 1),
                );
                indices.push([a, b, c]);
                indices.push([a, c, d]);
            }
        }
    }
    SharedShape::trimesh_with_flags(vertices, indices, flags).expect("a grid is a valid trimesh")
}

/// The closed surface of the box of half-extents `half`, facing out.
pub(crate) fn box_mesh(half: Vector, flags: TriMeshFlags) -> SharedShape {
    let (x, y, z) = (Vector::X * half.x, Vector::Y * half.y, Vector::Z * half.z);
    let quads = [
        (z, x, y),
        (-z, y, x),
        (x, y, z),
        (-x, z, y),
        (y, z, x),
        (-y, x, z),
    ];
    grid_mesh(&quads, 4, flags)
}

/// A level's floor and wall as one mesh: the floor 30 × 30 m at `y = 0` facing up, ending at the
/// wall, 3 m high at `x = LEVEL_WALL_X` and facing `-x`; the two share the edge's vertices.
fn level_mesh(flags: TriMeshFlags) -> SharedShape {
    let floor = (
        Vector::new(LEVEL_WALL_X - 15.0, 0.0, 0.0),
        Vector::Z * 15.0,
        Vector::X * 15.0,
    );
    let wall = (
        Vector::new(LEVEL_WALL_X, 1.5, 0.0),
        Vector::Z * 15.0,
        Vector::Y * 1.5,
    );
    grid_mesh(&[floor, wall], 24, flags)
}

/// A closed room of half-side [`ROOM_HALF`] (floor at `y = 0`) turned by `yaw`: one mesh facing
/// in, or six cuboids 0.2 m thick. Returns what the judge checks.
fn room(world: &mut PhysicsWorld, kind: TargetKind, yaw: Rotation) -> Vec<Surface> {
    let pose = Pose::from_parts(Vector::new(0.0, ROOM_HALF, 0.0), yaw);
    let h = ROOM_HALF;
    match kind.mesh_flags() {
        Some(flags) => {
            let (x, y, z) = (Vector::X * h, Vector::Y * h, Vector::Z * h);
            // Each side's front (its normal) faces the room's centre.
            let quads = [
                (z, y, x),
                (-z, x, y),
                (x, z, y),
                (-x, y, z),
                (y, x, z),
                (-y, z, x),
            ];
            let mesh = grid_mesh(&quads, 4, flags);
            world
                .colliders
                .insert(ColliderBuilder::new(mesh.clone()).position(pose));
            vec![Surface::Open { shape: mesh, pose }]
        }
        None => {
            let t = 0.1;
            let walls = [
                (
                    Vector::new(0.0, 0.0, h + t),
                    Vector::new(h + 2.0 * t, h + 2.0 * t, t),
                ),
                (
                    Vector::new(0.0, 0.0, -h - t),
                    Vector::new(h + 2.0 * t, h + 2.0 * t, t),
                ),
                (Vector::new(h + t, 0.0, 0.0), Vector::new(t, h, h)),
                (Vector::new(-h - t, 0.0, 0.0), Vector::new(t, h, h)),
                (Vector::new(0.0, h + t, 0.0), Vector::new(h, t, h)),
                (Vector::new(0.0, -h - t, 0.0), Vector::new(h, t, h)),
            ];
            walls
                .into_iter()
                .map(|(centre, half)| {
                    let shape = SharedShape::cuboid(half.x, half.y, half.z);
                    let at = pose * Pose::from_translation(centre);
                    world
                        .colliders
                        .insert(ColliderBuilder::new(shape.clone()).position(at));
                    Surface::Solid { shape, pose: at }
                })
                .collect()
        }
    }
}

/// A heightfield of 8 × 8 m in 16 × 16 cells, gently bumpy (two drawn waves, up to ±0.15 m),
/// centred on the origin, its surface facing `+y`.
fn heightfield(rng: &mut Stream) -> SharedShape {
    let n = 17;
    let (a, b) = (rng.range(0.02, 0.1), rng.range(0.02, 0.05));
    let (kx, kz) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
    // Phases in [0, 6.28): not `TAU`, which would move every heightfield shot of the figures.
    #[allow(clippy::approx_constant)]
    let (px, pz) = (rng.range(0.0, 6.28), rng.range(0.0, 6.28));
    let heights = (0..n * n)
        .map(|k| {
            // Column-major, as parry's `Array2`: row i advances along z, column j along x.
            let (i, j) = ((k % n) as Real, (k / n) as Real);
            let (x, z) = (j * 0.5 - 4.0, i * 0.5 - 4.0);
            a * (kx * x + px).sin() + b * (kz * z + pz).cos()
        })
        .collect();
    SharedShape::heightfield(Array2::new(n, n, heights), Vector::new(8.0, 1.0, 8.0))
}
