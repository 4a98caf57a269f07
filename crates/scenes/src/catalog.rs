//! The scenes. Units: metres, kilograms, seconds. Every scene has a fixed ground top at y = 0 unless
//! it says it floats in zero gravity. Nothing here is random: variation comes from closed formulas.

use rapier3d::prelude::*;

/// One scene of the catalog.
pub struct Scene {
    /// Stable name, used on the command line, in the golden files' names (`golden/`) and by the
    /// parity runs (`conformance/parity`).
    pub name: &'static str,
    /// One line on what the scene exercises.
    pub about: &'static str,
    /// How many steps a run of the scene takes.
    pub steps: usize,
    build: fn(&mut PhysicsWorld),
}

impl Scene {
    /// A fresh world holding the scene, stepped under `params`.
    pub fn build(&self, params: IntegrationParameters) -> PhysicsWorld {
        let mut world = PhysicsWorld::new();
        world.integration_parameters = params;
        (self.build)(&mut world);
        world
    }
}

static CATALOG: &[Scene] = &[
    Scene { name: "pyramid", about: "210-box pyramid (base 20), sleeping disabled", steps: 200, build: pyramid },
    Scene { name: "ball_drop", about: "ball r=0.1 m, 1 kg, dropped from 1 m, restitution 0.5, friction 0.6", steps: 120, build: ball_drop },
    Scene { name: "tower", about: "10-layer x 5-beam tower (alternating layers)", steps: 300, build: tower },
    Scene { name: "bullets_crossing", about: "two r=1 bullets crossing head-on at +-400 m/s", steps: 10, build: bullets_crossing },
    Scene { name: "bullet_swarm", about: "200 bullets in two opposing 10 x 10 swarms at 200 m/s, lanes interleaved 1.2 cm apart", steps: 30, build: bullet_swarm },
    Scene { name: "bullets_vs_plates", about: "100 bullets fired at a wall of 2 mm fixed plates", steps: 30, build: bullets_vs_plates },
    Scene { name: "blade_into_plate", about: "1 mm blade spinning at 300 rad/s driven at 60 m/s into a 2 mm dynamic plate", steps: 60, build: blade_into_plate },
    Scene { name: "box_into_rotor", about: "box driven at 30 m/s into a 2 mm rotor spinning at 100 rad/s", steps: 60, build: box_into_rotor },
    Scene { name: "vehicles", about: "two vehicle pairs with 2 mm guards: a 30 m/s ram and a 3 m/s push", steps: 120, build: vehicles },
    Scene { name: "vehicles_clear", about: "vehicles with the guards clear of the floor (vehicles' guards start 10 cm inside it)", steps: 120, build: vehicles_clear },
    Scene { name: "arena", about: "a combat match in a closed room: 4 vehicles with 2 mm guards, 4 spinning 1 mm blades, 8 loose 2 mm plates, 12 bullets, 6 crates", steps: 240, build: arena },
    Scene { name: "arena_clear", about: "arena with the vehicles' guards clear of the floor (arena's start 10 cm inside it)", steps: 240, build: arena_clear },
    Scene { name: "mixed_5000", about: "5,000 mixed shapes piled on the ground (scaling)", steps: 30, build: mixed_5000 },
];

/// Every scene, in a fixed order.
pub fn catalog() -> &'static [Scene] {
    CATALOG
}

/// The scene called `name`.
pub fn find(name: &str) -> Option<&'static Scene> {
    CATALOG.iter().find(|s| s.name == name)
}

/// A fixed ground slab whose top face is y = 0.
fn ground(world: &mut PhysicsWorld, friction: Real, restitution: Real) {
    let slab = ColliderBuilder::cuboid(200.0, 0.1, 200.0)
        .translation(Vector::new(0.0, -0.1, 0.0))
        .friction(friction)
        .restitution(restitution);
    world.colliders.insert(slab);
}

/// Inserts `body` with `collider` attached and returns both handles.
pub fn add(
    world: &mut PhysicsWorld,
    body: RigidBodyBuilder,
    collider: ColliderBuilder,
) -> (RigidBodyHandle, ColliderHandle) {
    let handle = world.bodies.insert(body);
    let collider = world
        .colliders
        .insert_with_parent(collider, handle, &mut world.bodies);
    (handle, collider)
}

fn pyramid(world: &mut PhysicsWorld) {
    ground(world, 0.5, 0.0);
    let half = 0.5;
    for row in 0..20 {
        let count = 20 - row;
        for i in 0..count {
            let x = (i as Real - (count - 1) as Real / 2.0) * 2.0 * half;
            let y = half + row as Real * 2.0 * half;
            let body = RigidBodyBuilder::dynamic()
                .translation(Vector::new(x, y, 0.0))
                .can_sleep(false);
            add(world, body, ColliderBuilder::cuboid(half, half, half));
        }
    }
}

/// Height of the ball's lowest point above the ground at the start of `ball_drop`.
pub const BALL_DROP_HEIGHT: Real = 1.0;
/// The ball's radius in `ball_drop`.
pub const BALL_RADIUS: Real = 0.1;

fn ball_drop(world: &mut PhysicsWorld) {
    // Both surfaces carry the materials, so the combined coefficients are 0.5 and 0.6.
    ground(world, 0.6, 0.5);
    let body = RigidBodyBuilder::dynamic().translation(Vector::new(
        0.0,
        BALL_DROP_HEIGHT + BALL_RADIUS,
        0.0,
    ));
    let ball = ColliderBuilder::ball(BALL_RADIUS)
        .mass(1.0)
        .restitution(0.5)
        .friction(0.6);
    add(world, body, ball);
}

/// Tower geometry: beam half-extents (long, height, wide) and layer/beam counts.
pub const TOWER_LAYERS: usize = 10;
pub const TOWER_BEAMS: usize = 5;
pub const TOWER_BEAM: [Real; 3] = [1.25, 0.1, 0.25];

fn tower(world: &mut PhysicsWorld) {
    ground(world, 0.6, 0.0);
    let [long, height, wide] = TOWER_BEAM;
    for layer in 0..TOWER_LAYERS {
        let y = height + layer as Real * 2.0 * height;
        for beam in 0..TOWER_BEAMS {
            let offset = (beam as Real - (TOWER_BEAMS - 1) as Real / 2.0) * 2.0 * wide;
            // Even layers: beams along x, side by side in z; odd layers: the other way round.
            let (pos, half) = if layer % 2 == 0 {
                (Vector::new(0.0, y, offset), [long, height, wide])
            } else {
                (Vector::new(offset, y, 0.0), [wide, height, long])
            };
            let body = RigidBodyBuilder::dynamic().translation(pos);
            add(
                world,
                body,
                ColliderBuilder::cuboid(half[0], half[1], half[2]).friction(0.6),
            );
        }
    }
}

fn bullets_crossing(world: &mut PhysicsWorld) {
    crossing(world, Crosser::Bullet, 400.0);
}

/// What the right-hand body of a head-on crossing is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Crosser {
    /// A bullet (`ccd_enabled`), like the left one.
    Bullet,
    /// A plain dynamic body.
    Dynamic,
    /// A velocity-based kinematic body.
    Kinematic,
}

/// Two r = 1 balls in zero gravity, the left a bullet at x = -10 moving at +`speed`, the right a
/// `second` at x = +10 moving at -`speed`. Handles: left first, right second.
pub fn crossing(world: &mut PhysicsWorld, second: Crosser, speed: Real) {
    world.gravity = Vector::ZERO;
    let left = RigidBodyBuilder::dynamic()
        .translation(Vector::new(-10.0, 0.0, 0.0))
        .linvel(Vector::new(speed, 0.0, 0.0))
        .ccd_enabled(true);
    add(world, left, ColliderBuilder::ball(1.0));
    let right = match second {
        Crosser::Bullet => RigidBodyBuilder::dynamic().ccd_enabled(true),
        Crosser::Dynamic => RigidBodyBuilder::dynamic(),
        Crosser::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
    };
    let right = right
        .translation(Vector::new(10.0, 0.0, 0.0))
        .linvel(Vector::new(-speed, 0.0, 0.0));
    add(world, right, ColliderBuilder::ball(1.0));
}

fn bullet_swarm(world: &mut PhysicsWorld) {
    world.gravity = Vector::ZERO;
    // Two 10 x 10 grids of 20 cm bullets on 30 cm lanes, 12 m apart in x, flying at each other.
    // The right grid is offset by half a lane in y and z, so the lanes interleave: every bullet
    // crosses up to four others 1.2 cm apart (inside the broad phase and the motion bounds,
    // outside the contact slop), which makes this the CCD pass's cost case, not a collision one.
    for (x, vx, shift) in [(-6.0, 200.0, 0.0), (6.0, -200.0, 0.15)] {
        for j in 0..10 {
            for k in 0..10 {
                let body = RigidBodyBuilder::dynamic()
                    .translation(Vector::new(
                        x,
                        j as Real * 0.3 + shift,
                        k as Real * 0.3 + shift,
                    ))
                    .linvel(Vector::new(vx, 0.0, 0.0))
                    .ccd_enabled(true);
                add(world, body, ColliderBuilder::ball(0.1));
            }
        }
    }
}

fn bullets_vs_plates(world: &mut PhysicsWorld) {
    ground(world, 0.5, 0.0);
    // A 5 x 5 wall of 1 m x 1 m plates, 2 mm thick, in the plane x = 10.
    for j in 0..5 {
        for k in 0..5 {
            let plate = ColliderBuilder::cuboid(0.001, 0.5, 0.5).translation(Vector::new(
                10.0,
                0.5 + j as Real,
                -2.0 + k as Real,
            ));
            world.colliders.insert(plate);
        }
    }
    // 100 bullets, 2 cm across, on a 10 x 10 grid in front of the wall, 150..=249 m/s.
    for i in 0..100 {
        let (j, k) = ((i / 10) as Real, (i % 10) as Real);
        let body = RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 0.55 + 0.48 * j, -2.25 + 0.5 * k))
            .linvel(Vector::new(150.0 + i as Real, 0.0, 0.0))
            .ccd_enabled(true);
        add(world, body, ColliderBuilder::ball(0.01));
    }
}

fn blade_into_plate(world: &mut PhysicsWorld) {
    blade_into_plate_with(world, 0.0, 60.0, 300.0, true);
}

/// The blade/plate pair of `blade_into_plate`, parametrized: the blade starts at x = 0 with its
/// centre `offset` m off the plate's centre (along y), driven at `speed` m/s along +x, spinning at
/// `spin` rad/s about its thin axis (z), with `allow_fast_rotation` set to `fast_rotation`. The
/// plate (dynamic, 2 mm, 1 m x 1 m, mid-plane x = 1) is inserted first, the blade second.
/// Returns the (plate, blade) colliders.
pub(crate) fn blade_into_plate_with(
    world: &mut PhysicsWorld,
    offset: Real,
    speed: Real,
    spin: Real,
    fast_rotation: bool,
) -> (ColliderHandle, ColliderHandle) {
    world.gravity = Vector::ZERO;
    let plate = add(
        world,
        RigidBodyBuilder::dynamic().translation(Vector::new(1.0, 0.0, 0.0)),
        ColliderBuilder::cuboid(0.001, 0.5, 0.5),
    );
    (
        plate.1,
        blade(
            world,
            Vector::new(0.0, offset, 0.0),
            speed,
            spin,
            fast_rotation,
        ),
    )
}

/// The 50 cm x 4 cm x 1 mm blade (a bullet) at `pos`, driven along +x at `speed`, spinning about
/// its thin axis (z) at `spin`. Returns its collider.
pub(crate) fn blade(
    world: &mut PhysicsWorld,
    pos: Vector,
    speed: Real,
    spin: Real,
    fast_rotation: bool,
) -> ColliderHandle {
    blade_of(world, 0.0005, pos, speed, spin, fast_rotation)
}

/// [`blade`] with another half-thickness (its other sizes stay 50 cm x 4 cm).
pub fn blade_of(
    world: &mut PhysicsWorld,
    half_thickness: Real,
    pos: Vector,
    speed: Real,
    spin: Real,
    fast_rotation: bool,
) -> ColliderHandle {
    let body = RigidBodyBuilder::dynamic()
        .translation(pos)
        .linvel(Vector::new(speed, 0.0, 0.0))
        .angvel(Vector::new(0.0, 0.0, spin))
        .ccd_enabled(true)
        .allow_fast_rotation(fast_rotation);
    add(
        world,
        body,
        ColliderBuilder::cuboid(0.25, 0.02, half_thickness),
    )
    .1
}

fn box_into_rotor(world: &mut PhysicsWorld) {
    world.gravity = Vector::ZERO;
    box_into_rotor_at(world, 0.0, 0.0, 0.05, 30.0, 100.0);
}

/// The rotor: 1 m x 10 cm x 2 mm at the origin, spinning about y at `spin` (its thin axis is z,
/// so its faces sweep the box's path); and a cube of half-size `half_size` (a bullet) from
/// (-2, `y`, `z`) along +x at `speed`. Returns the rotor's and the cube's colliders.
pub fn box_into_rotor_at(
    world: &mut PhysicsWorld,
    y: Real,
    z: Real,
    half_size: Real,
    speed: Real,
    spin: Real,
) -> (ColliderHandle, ColliderHandle) {
    let rotor = RigidBodyBuilder::dynamic()
        .angvel(Vector::new(0.0, spin, 0.0))
        .allow_fast_rotation(true);
    let rotor = add(world, rotor, ColliderBuilder::cuboid(0.5, 0.05, 0.001)).1;
    let body = RigidBodyBuilder::dynamic()
        .translation(Vector::new(-2.0, y, z))
        .linvel(Vector::new(speed, 0.0, 0.0))
        .ccd_enabled(true);
    (
        rotor,
        add(
            world,
            body,
            ColliderBuilder::cuboid(half_size, half_size, half_size),
        )
        .1,
    )
}

/// How a vehicle's 2 mm guard plate fits its 60 cm tall chassis.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Guard {
    /// 80 cm tall around the chassis's centre: on a floor its lowest 10 cm start inside it, a
    /// thin-fixed pair in contact from the first step. A scene bug, found when physics-version 3
    /// was released; the scenes built with it stay as they are, so that their released golden
    /// files and every figure measured on them stay reproducible.
    Sunk,
    /// 50 cm tall around the chassis's centre: 5 cm clear of the floor.
    Clear,
}

impl Guard {
    /// The guard's half-extents: thickness, height, width.
    pub(crate) fn half_extents(self) -> [Real; 3] {
        match self {
            Guard::Sunk => [0.001, 0.4, 0.6],
            Guard::Clear => [0.001, 0.25, 0.6],
        }
    }
}

/// A vehicle: a 2 m x 60 cm x 1 m chassis box plus a 2 mm guard plate fitted as `guard` on the
/// side given by `guard_side` (+1 front, -1 back), both colliders of one body. Returns the guard.
pub(crate) fn vehicle(
    world: &mut PhysicsWorld,
    pos: Vector,
    vx: Real,
    guard_side: Real,
    guard: Guard,
) -> ColliderHandle {
    let body = RigidBodyBuilder::dynamic()
        .translation(pos)
        .linvel(Vector::new(vx, 0.0, 0.0))
        .ccd_enabled(true);
    vehicle_on(world, body, guard_side, guard)
}

/// [`vehicle`]'s chassis and guard on a body of any pose and motion.
pub(crate) fn vehicle_on(
    world: &mut PhysicsWorld,
    body: RigidBodyBuilder,
    guard_side: Real,
    guard: Guard,
) -> ColliderHandle {
    let (handle, _) = add(
        world,
        body,
        ColliderBuilder::cuboid(1.0, 0.3, 0.5).friction(0.2),
    );
    let [gx, gy, gz] = guard.half_extents();
    let guard = ColliderBuilder::cuboid(gx, gy, gz)
        .translation(Vector::new(guard_side * 1.001, 0.0, 0.0))
        .friction(0.2);
    world
        .colliders
        .insert_with_parent(guard, handle, &mut world.bodies)
}

fn vehicles(world: &mut PhysicsWorld) {
    vehicles_with(world, Guard::Sunk);
}

fn vehicles_clear(world: &mut PhysicsWorld) {
    vehicles_with(world, Guard::Clear);
}

/// Two vehicle pairs on the ground, their guards fitted as `guard`.
fn vehicles_with(world: &mut PhysicsWorld, guard: Guard) {
    ground(world, 0.5, 0.0);
    // Ram: A at 30 m/s into B at rest.
    vehicle(world, Vector::new(-6.0, 0.3, 0.0), 30.0, 1.0, guard);
    vehicle(world, Vector::new(2.0, 0.3, 0.0), 0.0, -1.0, guard);
    // Push: guards 1 mm apart, A at 3 m/s against B at rest.
    vehicle(world, Vector::new(-1.0, 0.3, 5.0), 3.0, 1.0, guard);
    vehicle(world, Vector::new(1.005, 0.3, 5.0), 0.0, -1.0, guard);
}

fn mixed_5000(world: &mut PhysicsWorld) {
    mixed_pile(world, 10);
}

/// `layers` layers of 20 x 25 mixed shapes (balls, cubes, capsules, cylinders) on the ground:
/// 500 bodies per layer. The scaling scene; the benchmarks run it at 2, 4, 10 and 20 layers.
pub fn mixed_pile(world: &mut PhysicsWorld, layers: usize) {
    ground(world, 0.5, 0.0);
    for i in 0..20 {
        for j in 0..layers {
            for k in 0..25 {
                let pos = Vector::new(
                    i as Real * 1.0 - 10.0,
                    0.5 + j as Real * 1.0,
                    k as Real * 1.0 - 12.5,
                );
                let shape = match (i + j + k) % 4 {
                    0 => ColliderBuilder::ball(0.45),
                    1 => ColliderBuilder::cuboid(0.4, 0.4, 0.4),
                    2 => ColliderBuilder::capsule_y(0.2, 0.25),
                    _ => ColliderBuilder::cylinder(0.4, 0.4),
                };
                add(world, RigidBodyBuilder::dynamic().translation(pos), shape);
            }
        }
    }
}

/// The arena's room: floor top y = 0, walls at x = ±ARENA_HALF[0] and z = ±ARENA_HALF[2], a
/// ceiling at y = ARENA_HALF[1] * 2.
pub const ARENA_HALF: [Real; 3] = [8.0, 2.0, 6.0];

/// What a combat game's match looks like: dozens of bodies, most of them CCD parts, in a closed
/// room under gravity (so a pinned world adopts it). Vehicles ram guard to guard, blades fly
/// spinning, bullets cross the room through loose plates and crates. Closed formulas only.
fn arena(world: &mut PhysicsWorld) {
    arena_with(world, Guard::Sunk);
}

fn arena_clear(world: &mut PhysicsWorld) {
    arena_with(world, Guard::Clear);
}

/// The arena, its vehicles' guards fitted as `guard`.
fn arena_with(world: &mut PhysicsWorld, guard: Guard) {
    ground(world, 0.6, 0.0);
    let [hx, hy, hz] = ARENA_HALF;
    let fixed = |world: &mut PhysicsWorld, half: [Real; 3], pos: Vector| {
        world.colliders.insert(
            ColliderBuilder::cuboid(half[0], half[1], half[2])
                .translation(pos)
                .friction(0.5),
        );
    };
    for side in [-1.0, 1.0] {
        fixed(
            world,
            [0.1, hy, hz],
            Vector::new(side * (hx + 0.1), hy, 0.0),
        );
        fixed(
            world,
            [hx, hy, 0.1],
            Vector::new(0.0, hy, side * (hz + 0.1)),
        );
    }
    fixed(world, [hx, 0.1, hz], Vector::new(0.0, 2.0 * hy + 0.1, 0.0));
    // Two vehicle pairs, guards facing: a head-on ram and a fast car into a slow one.
    for (z, (xa, va), (xb, vb)) in [
        (-3.0, (-5.0, 12.0), (5.0, -12.0)),
        (3.0, (-4.0, 20.0), (4.0, -8.0)),
    ] {
        vehicle(world, Vector::new(xa, 0.3, z), va, 1.0, guard);
        vehicle(world, Vector::new(xb, 0.3, z), vb, -1.0, guard);
    }
    // Spinning blades thrown across the room.
    for i in 0..4 {
        let s = if i % 2 == 0 { 1.0 } else { -1.0 };
        let pos = Vector::new(-3.0 * s, 1.2 + 0.2 * i as Real, -1.5 + i as Real);
        blade_of(world, 0.0005, pos, 15.0 * s, 200.0 + 50.0 * i as Real, true);
    }
    // Loose upright plates in the bullets' way.
    for i in 0..8 {
        let pos = Vector::new(
            -5.25 + 1.5 * i as Real,
            0.301,
            if i % 2 == 0 { -1.0 } else { 1.0 },
        );
        let body = RigidBodyBuilder::dynamic()
            .translation(pos)
            .ccd_enabled(true);
        add(
            world,
            body,
            ColliderBuilder::cuboid(0.001, 0.3, 0.4).friction(0.5),
        );
    }
    // Bullets fired from both ends, fanned out.
    for i in 0..12 {
        let s = if i % 2 == 0 { 1.0 } else { -1.0 };
        let (k, speed) = ((i / 2) as Real, 80.0 + 14.0 * (i / 2) as Real);
        let pos = Vector::new(-7.5 * s, 0.2 + 0.25 * k, -2.5 + k);
        let dir = Vector::new(s, 0.0, 0.15 * (2.5 - k)).normalize();
        let body = RigidBodyBuilder::dynamic()
            .translation(pos)
            .linvel(dir * speed)
            .ccd_enabled(true);
        add(world, body, ColliderBuilder::ball(0.02).density(8.0));
    }
    // Crates.
    for i in 0..6 {
        let pos = Vector::new(-2.5 + i as Real, 0.25, if i % 2 == 0 { 4.5 } else { -4.5 });
        add(
            world,
            RigidBodyBuilder::dynamic().translation(pos),
            ColliderBuilder::cuboid(0.25, 0.25, 0.25).friction(0.6),
        );
    }
}

/// One body of a bullet probe: its start, velocity, shape and kind.
#[derive(Clone)]
pub struct ProbeBody {
    pub pos: Vector,
    pub vel: Vector,
    pub shape: ColliderBuilder,
    pub kind: RigidBodyBuilder,
}

/// A dynamic `ccd_enabled` ball of radius `r` at `pos` moving at `vel`.
fn probe_ball(pos: Vector, vel: Vector, r: Real) -> ProbeBody {
    ProbeBody {
        pos,
        vel,
        shape: ColliderBuilder::ball(r),
        kind: RigidBodyBuilder::dynamic().ccd_enabled(true),
    }
}

/// Fast-bullet cases beyond the crossing scenes, each a name and its bodies (zero gravity; build
/// with [`probe_world`]): an oblique crossing, unequal radii head-on, a kinematic wall moving
/// across a bullet's path, three bullets meeting at one point within one step.
pub fn bullet_probes() -> Vec<(&'static str, Vec<ProbeBody>)> {
    vec![
        (
            "oblique crossing, 90 degrees, r 0.5, 300 m/s",
            vec![
                probe_ball(
                    Vector::new(-5.0, 0.0, 0.0),
                    Vector::new(300.0, 0.0, 0.0),
                    0.5,
                ),
                probe_ball(
                    Vector::new(0.0, -5.0, 0.0),
                    Vector::new(0.0, 300.0, 0.0),
                    0.5,
                ),
            ],
        ),
        (
            "unequal radii 0.05 vs 2.0, head-on 400 m/s",
            vec![
                probe_ball(
                    Vector::new(-10.0, 0.0, 0.0),
                    Vector::new(400.0, 0.0, 0.0),
                    0.05,
                ),
                ProbeBody {
                    pos: Vector::new(10.0, 0.0, 0.0),
                    vel: Vector::new(-400.0, 0.0, 0.0),
                    shape: ColliderBuilder::ball(2.0),
                    kind: RigidBodyBuilder::dynamic(),
                },
            ],
        ),
        (
            "kinematic wall moving sideways (50 m/s) across a 300 m/s bullet",
            vec![
                probe_ball(
                    Vector::new(-5.0, 0.0, 0.0),
                    Vector::new(300.0, 0.0, 0.0),
                    0.1,
                ),
                ProbeBody {
                    pos: Vector::new(0.0, 0.0, -1.5),
                    vel: Vector::new(0.0, 0.0, 50.0),
                    shape: ColliderBuilder::cuboid(0.05, 1.0, 1.0),
                    kind: RigidBodyBuilder::kinematic_velocity_based(),
                },
            ],
        ),
        (
            "three bullets meeting at the origin in one step, 120 degrees apart",
            {
                let dirs: [(Real, Real); 3] =
                    [(1.0, 0.0), (-0.5, 0.866_025_4), (-0.5, -0.866_025_4)];
                dirs.iter()
                    .map(|(x, y)| {
                        probe_ball(
                            Vector::new(-3.0 * x, -3.0 * y, 0.0),
                            Vector::new(240.0 * x, 240.0 * y, 0.0),
                            0.5,
                        )
                    })
                    .collect()
            },
        ),
    ]
}

/// A zero-gravity world under `params` holding `bodies` (in order); returns each body's handles.
pub fn probe_world(
    bodies: &[ProbeBody],
    params: IntegrationParameters,
) -> (PhysicsWorld, Vec<(RigidBodyHandle, ColliderHandle)>) {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::ZERO;
    world.integration_parameters = params;
    let handles = bodies
        .iter()
        .map(|b| {
            let h = world
                .bodies
                .insert(b.kind.clone().translation(b.pos).linvel(b.vel));
            let c = world
                .colliders
                .insert_with_parent(b.shape.clone(), h, &mut world.bodies);
            (h, c)
        })
        .collect();
    (world, handles)
}
