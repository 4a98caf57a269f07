//! Probes `ccd_relative_motion` on cases the tests do not cover; prints what happens, off and on.
//! `cargo run --release -p rapier-pinned-conformance --example relative_motion_probe`

use rapier3d::prelude::*;

struct Body {
    pos: Vector,
    vel: Vector,
    shape: ColliderBuilder,
    kind: RigidBodyBuilder,
}

fn ball(pos: Vector, vel: Vector, r: Real) -> Body {
    Body { pos, vel, shape: ColliderBuilder::ball(r), kind: RigidBodyBuilder::dynamic().ccd_enabled(true) }
}

/// Runs `bodies` for 20 steps; returns (any contact seen, worst overlap between any two balls'
/// bounding spheres at a frame end, whether any pair ended swapped along its initial separation).
fn run(bodies: &[Body], relative_motion: bool) -> (bool, Real, bool) {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::ZERO;
    world.integration_parameters.ccd_relative_motion = relative_motion;
    world.integration_parameters.normalized_max_linear_velocity = Real::MAX;
    let mut handles = Vec::new();
    for b in bodies {
        let h = world.bodies.insert(b.kind.clone().translation(b.pos).linvel(b.vel));
        let c = world.colliders.insert_with_parent(b.shape.clone(), h, &mut world.bodies);
        handles.push((h, c));
    }
    let start: Vec<Vector> = bodies.iter().map(|b| b.pos).collect();
    let (mut contact, mut worst, mut swapped) = (false, 0.0 as Real, false);
    for _ in 0..20 {
        world.step();
        for i in 0..handles.len() {
            for j in i + 1..handles.len() {
                let (ci, cj) = (handles[i].1, handles[j].1);
                contact |= world.contact_pair(ci, cj).is_some_and(|p| p.has_any_active_contact());
                let (a, b) = (&world.colliders[ci], &world.colliders[cj]);
                if let Ok(Some(c)) = rapier3d::parry::query::contact(a.position(), a.shape(), b.position(), b.shape(), 0.0) {
                    worst = worst.max(-c.dist);
                }
                let d0 = start[j] - start[i];
                let d = world.bodies[handles[j].0].translation() - world.bodies[handles[i].0].translation();
                swapped |= d0.dot(d) < 0.0;
            }
        }
    }
    (contact, worst, swapped)
}

fn main() {
    let cases: Vec<(&str, Vec<Body>)> = vec![
        ("oblique crossing, 90 degrees, r 0.5, 300 m/s", vec![
            ball(Vector::new(-5.0, 0.0, 0.0), Vector::new(300.0, 0.0, 0.0), 0.5),
            ball(Vector::new(0.0, -5.0, 0.0), Vector::new(0.0, 300.0, 0.0), 0.5),
        ]),
        ("unequal radii 0.05 vs 2.0, head-on 400 m/s", vec![
            ball(Vector::new(-10.0, 0.0, 0.0), Vector::new(400.0, 0.0, 0.0), 0.05),
            Body { pos: Vector::new(10.0, 0.0, 0.0), vel: Vector::new(-400.0, 0.0, 0.0), shape: ColliderBuilder::ball(2.0), kind: RigidBodyBuilder::dynamic() },
        ]),
        ("kinematic wall moving sideways (50 m/s) across a 300 m/s bullet", vec![
            ball(Vector::new(-5.0, 0.0, 0.0), Vector::new(300.0, 0.0, 0.0), 0.1),
            Body { pos: Vector::new(0.0, 0.0, -1.5), vel: Vector::new(0.0, 0.0, 50.0), shape: ColliderBuilder::cuboid(0.05, 1.0, 1.0), kind: RigidBodyBuilder::kinematic_velocity_based() },
        ]),
        ("three bullets meeting at the origin in one step, 120 degrees apart", {
            let dirs = [(1.0 as Real, 0.0 as Real), (-0.5, 0.866_025_4), (-0.5, -0.866_025_4)];
            dirs.iter().map(|(x, y)| ball(Vector::new(-3.0 * x, -3.0 * y, 0.0), Vector::new(240.0 * x, 240.0 * y, 0.0), 0.5)).collect()
        }),
    ];
    for (name, bodies) in &cases {
        for rm in [false, true] {
            let (contact, worst, swapped) = run(bodies, rm);
            println!("{name:<66} relative motion {:<5}: contact {contact:<5} worst end-of-frame overlap {:>7.2} mm, swapped {swapped}", rm, worst * 1e3);
        }
    }
}
