//! The changes made to `accept.snap`'s world before it is re-encoded and sealed: a parameter, a
//! broken structure, a non-finite value, or the forged snapshot's velocity. Each makes the
//! world fail exactly one check of `docs/protocol.md` §5.

use rapier3d::prelude::{
    ColliderHandle, FixedJointBuilder, IslandManager, NarrowPhase, PhysicsWorld, RigidBodyHandle,
    RigidBodySet, Vector as Vec3,
};

use crate::GenerateError;

/// A change to `accept.snap`'s world ([`Base::changed`](super::base::Base::changed)); Err if the world lacks what it changes.
pub(super) type Change = fn(&mut PhysicsWorld) -> Result<(), GenerateError>;

/// Integration parameter dt set to 1/30.
pub(super) fn dt_one_thirtieth(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    w.integration_parameters.dt = 1.0 / 30.0;
    Ok(())
}

/// Gravity's y set to -9.8.
pub(super) fn gravity_y_9_8(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    w.gravity[1] = -9.8;
    Ok(())
}

/// Every rigid body removed from the body set; the ball's collider keeps its parent handle.
pub(super) fn no_bodies(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    w.bodies = RigidBodySet::new();
    Ok(())
}

/// The ball's collider removed from the collider set against an empty body set: the ball keeps
/// listing it.
pub(super) fn collider_gone_still_listed(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    let collider = ball_collider(w)?;
    let PhysicsWorld {
        colliders,
        islands,
        soft_bodies,
        ..
    } = w;
    colliders.remove(
        collider,
        islands,
        &mut RigidBodySet::new(),
        soft_bodies,
        false,
    );
    Ok(())
}

/// A fixed impulse joint from the ball to body handle (index 1, generation 0), which does not
/// exist.
pub(super) fn impulse_joint_to_nothing(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    let ball = first_body(w)?;
    let nothing = RigidBodyHandle::from_raw_parts(1, 0);
    w.impulse_joints
        .insert(ball, nothing, FixedJointBuilder::new(), false);
    Ok(())
}

/// A fixed multibody joint from the ball to body handle (index 1, generation 0), which does not
/// exist.
pub(super) fn multibody_joint_to_nothing(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    let ball = first_body(w)?;
    let nothing = RigidBodyHandle::from_raw_parts(1, 0);
    w.multibody_joints
        .insert(ball, nothing, FixedJointBuilder::new(), false);
    Ok(())
}

/// The ball's collider removed properly from the sets, while the narrow phase keeps its contact
/// pair with the ground. Err if there is no contact pair to keep.
pub(super) fn collider_gone_contact_kept(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    let collider = ball_collider(w)?;
    let PhysicsWorld {
        colliders,
        islands,
        bodies,
        soft_bodies,
        ..
    } = w;
    colliders.remove(collider, islands, bodies, soft_bodies, false);
    if w.narrow_phase.contact_pairs().count() == 0 {
        return Err(GenerateError::NoContactPair);
    }
    Ok(())
}

/// The ball and its collider removed against an empty island manager, and the narrow phase
/// emptied: the world's active set keeps the ball.
pub(super) fn ball_gone_still_active(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    let ball = first_body(w)?;
    let PhysicsWorld {
        colliders,
        bodies,
        impulse_joints,
        multibody_joints,
        soft_bodies,
        ..
    } = w;
    bodies.remove(
        ball,
        &mut IslandManager::new(),
        colliders,
        impulse_joints,
        multibody_joints,
        soft_bodies,
        true,
    );
    w.narrow_phase = NarrowPhase::new();
    Ok(())
}

/// The ball's translation set to (NaN, 0, 0).
pub(super) fn nan_translation(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    let ball = first_body(w)?;
    w.bodies[ball].set_translation(Vec3::new(f32::NAN, 0.0, 0.0), false);
    Ok(())
}

/// The ball's linear velocity set to (0, +inf, 0).
pub(super) fn infinite_velocity(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    let ball = first_body(w)?;
    w.bodies[ball].set_linvel(Vec3::new(0.0, f32::INFINITY, 0.0), false);
    Ok(())
}

/// The ball's linear velocity set to 5 m/s up, waking it (the forged snapshot).
pub(super) fn ball_up(w: &mut PhysicsWorld) -> Result<(), GenerateError> {
    let ball = first_body(w)?;
    w.bodies[ball].set_linvel(Vec3::new(0.0, 5.0, 0.0), true);
    Ok(())
}

fn ball_collider(world: &PhysicsWorld) -> Result<ColliderHandle, GenerateError> {
    world
        .colliders
        .iter()
        .find(|(_, c)| c.parent().is_some())
        .map(|(h, _)| h)
        .ok_or(GenerateError::NoAttachedCollider)
}

fn first_body(world: &PhysicsWorld) -> Result<RigidBodyHandle, GenerateError> {
    world
        .bodies
        .iter()
        .next()
        .map(|(h, _)| h)
        .ok_or(GenerateError::NoBody)
}
