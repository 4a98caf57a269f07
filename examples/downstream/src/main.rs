//! Drops a ball on the ground with the fork, exactly as a game would with upstream rapier3d.
use rapier3d::prelude::*;

fn main() {
    let mut world = PhysicsWorld::new();
    world
        .colliders
        .insert(ColliderBuilder::cuboid(10.0, 0.1, 10.0));
    let (ball, _) = world.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 2.0, 0.0)),
        ColliderBuilder::ball(0.5),
    );
    for _ in 0..120 {
        world.step();
    }
    println!("ball at y = {:.3}", world.bodies[ball].translation().y);
}
