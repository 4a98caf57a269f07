//! The thin-part perturbation sets: each set is a builder of one part/target pair,
//! run from 7 starts × 30/60/120 m/s (the vehicle scenes at their own speeds). Starts vary along
//! the target's face by closed formulas; nothing is random. Every target is a cuboid, so the
//! strict pass-through and penetration measures apply to each of them.

use rapier3d::prelude::*;

use crate::catalog::{
    add, blade, blade_into_plate_with, blade_of, box_into_rotor_at, vehicle, Guard,
};

/// Starts per set.
pub const STARTS: usize = 7;
/// Driving speeds of the part, m/s.
pub const SPEEDS: [Real; 3] = [30.0, 60.0, 120.0];

/// One built pair: the measured part and its cuboid target, and how many steps to run.
#[derive(Copy, Clone, Debug)]
pub struct ThinCase {
    pub part: ColliderHandle,
    pub target: ColliderHandle,
    /// Steps at the world's `dt`: the set's count at [`ThinSet::STEPS_HZ`], scaled by
    /// [`ThinSet::build`] so that every tick rate runs the same simulated time.
    pub steps: usize,
}

/// One run of a set: the part's speed and the start's index (`0..STARTS`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ThinRun {
    /// The set's name.
    pub set: &'static str,
    pub speed: Real,
    pub start: usize,
}

impl std::fmt::Display for ThinRun {
    /// `set@speed#start`, the name every report and golden file gives a run.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}#{}", self.set, self.speed, self.start)
    }
}

/// A perturbation set.
pub struct ThinSet {
    /// Stable name, printed by the suite.
    pub name: &'static str,
    pub about: &'static str,
    /// Whether the target is a kinematic/dynamic body (the moving-target gates apply) or fixed.
    pub moving_target: bool,
    /// The speeds this set runs at.
    pub speeds: &'static [Real],
    build: fn(&mut PhysicsWorld, usize, Real) -> ThinCase,
}

impl ThinSet {
    /// Every run of the set, in the order every report uses: each speed of [`ThinSet::speeds`],
    /// and within a speed each start from 0 to [`STARTS`] - 1.
    pub fn runs(&self) -> impl Iterator<Item = ThinRun> + '_ {
        self.speeds.iter().flat_map(move |&speed| {
            (0..STARTS).map(move |start| ThinRun {
                set: self.name,
                speed,
                start,
            })
        })
    }

    /// How many runs the set has (speeds × starts).
    pub fn run_count(&self) -> usize {
        self.speeds.len() * STARTS
    }

    /// [`ThinSet::build`] for one of [`ThinSet::runs`].
    pub fn build_run(
        &self,
        params: IntegrationParameters,
        run: ThinRun,
    ) -> (PhysicsWorld, ThinCase) {
        self.build(params, run.start, run.speed)
    }

    /// A fresh world (zero gravity unless the set says otherwise) holding start `start` at `speed`.
    pub fn build(
        &self,
        params: IntegrationParameters,
        start: usize,
        speed: Real,
    ) -> (PhysicsWorld, ThinCase) {
        let mut world = PhysicsWorld::new();
        world.integration_parameters = params;
        world.gravity = Vector::ZERO;
        let mut case = (self.build)(&mut world, start, speed);
        case.steps = Self::steps_at(case.steps, params.dt);
        (world, case)
    }

    /// The tick rate the sets' step counts are written at (90 steps: 1.5 s).
    pub const STEPS_HZ: u32 = 60;

    /// `steps` at [`Self::STEPS_HZ`] as a count at `dt`: the same simulated time, to the nearest
    /// step (90 at 60 Hz: 45 at 30 Hz, 180 at 120 Hz; unchanged at `1.0 / 60.0`).
    pub fn steps_at(steps: usize, dt: Real) -> usize {
        (steps as f64 / (Self::STEPS_HZ as f64 * dt as f64)).round() as usize
    }

    /// Every run of the set under `params` (speeds, then starts), with the state digest after
    /// each step, in the text form of [`crate::digest_lines`]: the scene column is
    /// `set@speed#start`.
    pub fn digest_lines(&self, params: IntegrationParameters) -> String {
        let mut out = String::new();
        for run in self.runs() {
            let (mut world, case) = self.build_run(params, run);
            out += &crate::step_lines(run, &mut world, case.steps);
        }
        out
    }

    /// The target's half-thickness (its smallest half-extent): the penetration gate.
    pub fn half_thickness(&self, world: &PhysicsWorld, case: &ThinCase) -> Real {
        let he = world.colliders[case.target]
            .shape()
            .as_cuboid()
            .expect("cuboid target")
            .half_extents;
        he.x.min(he.y).min(he.z)
    }
}

static SETS: &[ThinSet] = &[
    ThinSet {
        name: "spinning_blade",
        about: "1 mm blade, 300 rad/s (allow_fast_rotation), into a 2 mm dynamic guard",
        moving_target: true,
        speeds: &SPEEDS,
        build: spinning_blade_fast,
    },
    ThinSet {
        name: "spinning_blade_capped",
        about: "the same blade under the default angular-velocity cap",
        moving_target: true,
        speeds: &SPEEDS,
        build: spinning_blade_capped,
    },
    ThinSet {
        name: "box_into_rotor_100",
        about: "2 cm box into a 2 mm rotor spinning at 100 rad/s",
        moving_target: true,
        speeds: &SPEEDS,
        build: box_into_rotor_100,
    },
    ThinSet {
        name: "box_into_rotor_300",
        about: "2 cm box into a 2 mm rotor spinning at 300 rad/s",
        moving_target: true,
        speeds: &SPEEDS,
        build: box_into_rotor_300,
    },
    ThinSet {
        name: "blade_pressed",
        about: "1 mm blade edge pressed against a 2 mm dynamic guard, then pushed",
        moving_target: true,
        speeds: &SPEEDS,
        build: blade_pressed,
    },
    ThinSet {
        name: "projectile_pressed",
        about: "1 cm projectile pressed against a vehicle's 2 mm side guard, then pushed",
        moving_target: true,
        speeds: &SPEEDS,
        build: projectile_pressed,
    },
    ThinSet {
        name: "projectile_pushed",
        about:
            "1 cm projectile from 5 cm off a vehicle's 2 mm side guard, pushed into it by a force",
        moving_target: true,
        speeds: &SPEEDS,
        build: projectile_pushed,
    },
    ThinSet {
        name: "vehicle_ram",
        about: "vehicle with a 2 mm guard rams another at 30 m/s",
        moving_target: true,
        speeds: &[30.0],
        build: vehicle_ram,
    },
    ThinSet {
        name: "vehicle_push",
        about: "vehicle pushes another guard to guard at 3 m/s",
        moving_target: true,
        speeds: &[3.0],
        build: vehicle_push,
    },
    ThinSet {
        name: "vehicle_ram_clear",
        about: "vehicle_ram with the guards clear of the floor (vehicle_ram's start inside it)",
        moving_target: true,
        speeds: &[30.0],
        build: vehicle_ram_clear,
    },
    ThinSet {
        name: "vehicle_push_clear",
        about: "vehicle_push with the guards clear of the floor (vehicle_push's start inside it)",
        moving_target: true,
        speeds: &[3.0],
        build: vehicle_push_clear,
    },
    ThinSet {
        name: "fixed_plate",
        about: "the spinning blade into a 2 mm fixed plate",
        moving_target: false,
        speeds: &SPEEDS,
        build: fixed_plate,
    },
    ThinSet {
        name: "fixed_wall",
        about: "the spinning blade into a 20 cm fixed wall",
        moving_target: false,
        speeds: &SPEEDS,
        build: fixed_wall,
    },
    ThinSet {
        name: "slanted_blade",
        about: "the spinning blade into a fixed 2 mm blade slanted 30 degrees",
        moving_target: false,
        speeds: &SPEEDS,
        build: slanted_blade,
    },
    ThinSet {
        name: "hex_wheel",
        about: "non-round (hexagonal) wheel rolling fast on fixed ground",
        moving_target: false,
        speeds: &SPEEDS,
        build: hex_wheel,
    },
];

/// Every set, in a fixed order.
pub fn thin_sets() -> &'static [ThinSet] {
    SETS
}

/// The start's offset along the target's face: -0.3 .. 0.3 m in 7 steps, scaled by `scale`.
fn offset(start: usize, scale: Real) -> Real {
    (-0.3 + 0.1 * start as Real) * scale
}

/// A 1 m x 1 m fixed plate of `half_thickness` with mid-plane x = 1 (thin along x).
fn fixed_plate_at_one(world: &mut PhysicsWorld, half_thickness: Real) -> ColliderHandle {
    world.colliders.insert(
        ColliderBuilder::cuboid(half_thickness, 0.5, 0.5).translation(Vector::new(1.0, 0.0, 0.0)),
    )
}

fn spinning_blade(
    world: &mut PhysicsWorld,
    start: usize,
    speed: Real,
    fast_rotation: bool,
) -> ThinCase {
    let (target, part) =
        blade_into_plate_with(world, offset(start, 1.0), speed, 300.0, fast_rotation);
    ThinCase {
        part,
        target,
        steps: 90,
    }
}

fn spinning_blade_fast(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    spinning_blade(world, start, speed, true)
}

fn spinning_blade_capped(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    spinning_blade(world, start, speed, false)
}

/// A 1 m x 10 cm x 2 mm rotor at the origin spinning about y (its thin axis is z, so its faces
/// sweep the box's path), and a 2 cm box from x = -2 at `speed`, its height varied along the rotor.
fn box_into_rotor(world: &mut PhysicsWorld, start: usize, speed: Real, spin: Real) -> ThinCase {
    let (target, part) = box_into_rotor_at(
        world,
        offset(start, 0.1),
        0.1 * offset(start, 1.0),
        0.01,
        speed,
        spin,
    );
    ThinCase {
        part,
        target,
        steps: 90,
    }
}

fn box_into_rotor_100(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    box_into_rotor(world, start, speed, 100.0)
}

fn box_into_rotor_300(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    box_into_rotor(world, start, speed, 300.0)
}

/// The blade, long axis along x, its 4 cm x 1 mm end 1 mm from the dynamic guard (inside the
/// slop: a persistent contact from the first step), then driven into it at `speed`.
fn blade_pressed(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    let target = add(
        world,
        RigidBodyBuilder::dynamic().translation(Vector::new(1.0, 0.0, 0.0)),
        ColliderBuilder::cuboid(0.001, 0.5, 0.5),
    )
    .1;
    let x = 1.0 - 0.001 - 0.001 - 0.25;
    let part = blade(
        world,
        Vector::new(x, offset(start, 1.0), 0.0),
        speed,
        0.0,
        false,
    );
    ThinCase {
        part,
        target,
        steps: 60,
    }
}

/// A 1 cm projectile 1 mm from a resting vehicle's side guard, then pushed into it at `speed`.
fn projectile_pressed(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    projectile_into_guard(world, start, speed, 0.001, 0.0)
}

/// A 1 cm projectile 5 cm from a resting vehicle's side guard (beyond the contact prediction
/// distance: the solver alone does not stop it), fired into it at `speed` and kept pushed by a
/// constant force that adds `speed` to its velocity every 0.1 s, so it keeps pressing after the
/// impact.
fn projectile_pushed(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    projectile_into_guard(world, start, speed, 0.05, 10.0 * speed)
}

/// A 1 cm projectile (a bullet) `gap` from the side guard of a vehicle resting at x = 2, fired
/// into it at `speed`, with a constant force giving it `push` m/s² towards the guard (none when
/// 0); the start shifts it along the guard. 60 steps.
fn projectile_into_guard(
    world: &mut PhysicsWorld,
    start: usize,
    speed: Real,
    gap: Real,
    push: Real,
) -> ThinCase {
    // No floor here: the guard's fit does not matter.
    let target = vehicle(world, Vector::new(2.0, 0.0, 0.0), 0.0, -1.0, Guard::Sunk);
    let guard_face = 2.0 - 1.002;
    let body = RigidBodyBuilder::dynamic()
        .translation(Vector::new(
            guard_face - gap - 0.005,
            offset(start, 1.0),
            0.5 * offset(start, 1.0),
        ))
        .linvel(Vector::new(speed, 0.0, 0.0))
        .ccd_enabled(true);
    let (handle, part) = add(world, body, ColliderBuilder::ball(0.005));
    if push != 0.0 {
        let rb = &mut world.bodies[handle];
        let force = Vector::new(rb.mass() * push, 0.0, 0.0);
        rb.add_force(force, true);
    }
    ThinCase {
        part,
        target,
        steps: 60,
    }
}

/// Vehicle A (guard in front) from x = `a` at `speed` into vehicle B (guard behind) at rest at
/// x = `b`, on fixed ground, their guards fitted as `guard`; the start shifts B sideways.
fn vehicle_pair(
    world: &mut PhysicsWorld,
    (a, b): (Real, Real),
    guard: Guard,
    start: usize,
    speed: Real,
) -> ThinCase {
    world.gravity = Vector::new(0.0, -9.81, 0.0);
    world
        .colliders
        .insert(ColliderBuilder::cuboid(50.0, 0.1, 50.0).translation(Vector::new(0.0, -0.1, 0.0)));
    let part = vehicle(world, Vector::new(a, 0.3, 0.0), speed, 1.0, guard);
    let target = vehicle(
        world,
        Vector::new(b, 0.3, offset(start, 1.0)),
        0.0,
        -1.0,
        guard,
    );
    ThinCase {
        part,
        target,
        steps: 120,
    }
}

/// A ram: A from 8 m behind B.
const RAM: (Real, Real) = (-6.0, 2.0);
/// A push: guards 1 mm apart, A pushes B from the first step.
const PUSH: (Real, Real) = (-1.0, 1.005);

fn vehicle_ram(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    vehicle_pair(world, RAM, Guard::Sunk, start, speed)
}

fn vehicle_push(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    vehicle_pair(world, PUSH, Guard::Sunk, start, speed)
}

fn vehicle_ram_clear(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    vehicle_pair(world, RAM, Guard::Clear, start, speed)
}

fn vehicle_push_clear(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    vehicle_pair(world, PUSH, Guard::Clear, start, speed)
}

/// The fixed-target sets' part: the spinning 1 mm blade (300 rad/s, `allow_fast_rotation`) from
/// start `start` at `speed`, for 90 steps against `target` (inserted first).
fn blade_against(
    world: &mut PhysicsWorld,
    target: ColliderHandle,
    start: usize,
    speed: Real,
) -> ThinCase {
    let part = blade(
        world,
        Vector::new(0.0, offset(start, 1.0), 0.0),
        speed,
        300.0,
        true,
    );
    ThinCase {
        part,
        target,
        steps: 90,
    }
}

fn fixed_plate(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    let target = fixed_plate_at_one(world, 0.001);
    blade_against(world, target, start, speed)
}

fn fixed_wall(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    let target = world
        .colliders
        .insert(ColliderBuilder::cuboid(0.1, 0.5, 0.5).translation(Vector::new(1.1, 0.0, 0.0)));
    blade_against(world, target, start, speed)
}

fn slanted_blade(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    let slant = ColliderBuilder::cuboid(0.001, 0.5, 0.5)
        .translation(Vector::new(1.0, 0.0, 0.0))
        .rotation(Vector::new(0.0, Real::to_radians(30.0), 0.0));
    let target = world.colliders.insert(slant);
    blade_against(world, target, start, speed)
}

/// A hexagonal wheel (radius 30 cm, 10 cm wide, axle along z) rolling along +x on fixed ground
/// at `speed` (spin matched to rolling), its start shifted sideways. The target is the ground.
fn hex_wheel(world: &mut PhysicsWorld, start: usize, speed: Real) -> ThinCase {
    world.gravity = Vector::new(0.0, -9.81, 0.0);
    let target = world
        .colliders
        .insert(ColliderBuilder::cuboid(500.0, 0.1, 5.0).translation(Vector::new(0.0, -0.1, 0.0)));
    let radius: Real = 0.3;
    let mut points = Vec::new();
    for i in 0..6 {
        let a = i as Real * core::f32::consts::FRAC_PI_3;
        for z in [-0.05, 0.05] {
            points.push(Vector::new(radius * a.cos(), radius * a.sin(), z));
        }
    }
    let wheel = ColliderBuilder::convex_hull(&points)
        .expect("hexagon")
        .friction(0.9);
    let body = RigidBodyBuilder::dynamic()
        .translation(Vector::new(0.0, radius, offset(start, 1.0)))
        .linvel(Vector::new(speed, 0.0, 0.0))
        .angvel(Vector::new(0.0, 0.0, -speed / radius));
    let part = add(world, body, wheel).1;
    ThinCase {
        part,
        target,
        steps: 60,
    }
}

// The variation families: the thin-part pairs beyond the sets' own starts, speeds, thicknesses
// and spin rates, each built from continuous parameters (the CCD evaluation's
// `variations` module runs them over its grids).

/// A zero-gravity world under `params`.
fn free_world(params: IntegrationParameters) -> PhysicsWorld {
    let mut world = PhysicsWorld::new();
    world.integration_parameters = params;
    world.gravity = Vector::ZERO;
    world
}

/// A blade of half-thickness `blade` at height `start`, driven along +x at `speed` and spinning
/// at `spin`, into a dynamic 1 m x 1 m guard of half-thickness `guard` at x = 1 (pressed: the
/// blade starts edge-first 1 mm from the guard's face; otherwise from x = 0). 90 steps.
pub fn blade_into_guard(
    params: IntegrationParameters,
    start: Real,
    speed: Real,
    spin: Real,
    (blade, guard): (Real, Real),
    pressed: bool,
) -> (PhysicsWorld, ThinCase) {
    let mut w = free_world(params);
    let target = add(
        &mut w,
        RigidBodyBuilder::dynamic().translation(Vector::new(1.0, 0.0, 0.0)),
        ColliderBuilder::cuboid(guard, 0.5, 0.5),
    )
    .1;
    let x = if pressed {
        1.0 - guard - 0.001 - 0.25
    } else {
        0.0
    };
    let part = blade_of(&mut w, blade, Vector::new(x, start, 0.0), speed, spin, true);
    (
        w,
        ThinCase {
            part,
            target,
            steps: 90,
        },
    )
}

/// A cube of half-size `size` into the free 1 m x 10 cm rotor of half-thickness 1 mm spinning at
/// `spin` about its 10 cm axis ([`box_into_rotor_at`] at height 0.1 `start`, depth 0.3 `start`).
/// 90 steps.
pub fn box_into_free_rotor(
    params: IntegrationParameters,
    start: Real,
    speed: Real,
    spin: Real,
    size: Real,
) -> (PhysicsWorld, ThinCase) {
    let mut w = free_world(params);
    let (target, part) = box_into_rotor_at(&mut w, 0.1 * start, 0.3 * start, size, speed, spin);
    (
        w,
        ThinCase {
            part,
            target,
            steps: 90,
        },
    )
}
