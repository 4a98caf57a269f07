//! Structural, shape and range invariants of a world, checked on every restore and adopt.
//!
//! Structural (in this order):
//! 1. every collider's parent body exists and lists the collider among its colliders;
//! 2. every collider a body lists exists and has that body as its parent;
//! 3. both bodies of every impulse joint exist;
//! 4. every multibody is well formed and agrees with its bodies, which exist
//!    (`MultibodyJointSet::validate`);
//! 5. the narrow phase's pair graphs agree with themselves and with the colliders' graph
//!    indices (`NarrowPhase::validate`), and both colliders of every contact pair and
//!    intersection pair exist;
//! 6. the island manager's ids agree with the bodies', which exist, the active set's among them
//!    (`IslandManager::validate`);
//! 7. the broad phase's tree is well formed (`Bvh::validate`: every index in range, every node
//!    reached once, the leaf map and the tree in agreement);
//! 8. every collider's shape is (`validate_shape`: a mesh's, polyhedron's, heightfield's or
//!    compound's indices and tree).
//!
//! The engine's `validate` methods replace the accessor walks that indexed with decoded numbers
//! (`MultibodyJointSet::iter`, `IslandManager::active_bodies`).
//!
//! Finite: every body's translation, rotation, linear and angular velocity and mass; every
//! collider's translation and rotation.
//!
//! Ranges: every rotation (body, collider, collider relative to its parent) is a unit
//! quaternion within [`UNIT_TOLERANCE`]; every collider's contact skin is at least 0; every
//! body's additional solver iterations are at most [`MAX_ADDITIONAL_SOLVER_ITERATIONS`].
//!
//! Not checked yet: the narrow phase's manifolds and solver tables, soft bodies. Some of rapier's
//! accessors index internal arrays with decoded numbers and panic when they are out of range;
//! the caller runs this under `catch_unwind` (see `snapshot.rs`).

use crate::error::Error;
use rapier3d::parry::shape::validate_shape;
use rapier3d::prelude::*;

/// How far from 1 a decoded rotation's norm may be. The integrator renormalizes every step, so a
/// stepped world stays within about 1e-6; a rotation far from unit makes parry's EPA index out
/// of its arrays.
pub const UNIT_TOLERANCE: Real = 1e-4;

/// The most extra solver iterations a body may ask for. Each one is a whole extra substep of its
/// island, so a decoded `u32::MAX` made one step of a 20-body world take seconds.
pub const MAX_ADDITIONAL_SOLVER_ITERATIONS: usize = 64;

/// Checks every invariant of the module docs; the first one that fails is the error.
pub(crate) fn validate(world: &PhysicsWorld) -> Result<(), Error> {
    structural(world)?;
    finite(world)?;
    ranges(world)
}

fn structural(w: &PhysicsWorld) -> Result<(), Error> {
    let fail = |msg: String| Err(Error::Structural(msg));
    for (h, co) in w.colliders.iter() {
        if let Some(parent) = co.parent() {
            match w.bodies.get(parent) {
                None => return fail(format!("collider {h:?}: parent {parent:?} does not exist")),
                Some(rb) if !rb.colliders().contains(&h) => {
                    return fail(format!(
                        "collider {h:?}: parent {parent:?} does not list it"
                    ))
                }
                Some(_) => {}
            }
        }
    }
    for (h, rb) in w.bodies.iter() {
        for &c in rb.colliders() {
            match w.colliders.get(c) {
                Some(co) if co.parent() == Some(h) => {}
                Some(_) => return fail(format!("body {h:?}: collider {c:?} has another parent")),
                None => return fail(format!("body {h:?}: collider {c:?} does not exist")),
            }
        }
    }
    for (h, joint) in w.impulse_joints.iter() {
        for body in [joint.body1(), joint.body2()] {
            if !w.bodies.contains(body) {
                return fail(format!("impulse joint {h:?}: body {body:?} does not exist"));
            }
        }
    }
    // Every link's body exists among its checks.
    w.multibody_joints
        .validate(&w.bodies)
        .or_else(|e| fail(e.to_string()))?;
    w.narrow_phase.validate().or_else(|e| fail(e.to_string()))?;
    for pair in w.narrow_phase.contact_pairs() {
        for c in [pair.collider1, pair.collider2] {
            if !w.colliders.contains(c) {
                return fail(format!("contact pair: collider {c:?} does not exist"));
            }
        }
    }
    for (c1, c2, _) in w.narrow_phase.intersection_pairs() {
        for c in [c1, c2] {
            if !w.colliders.contains(c) {
                return fail(format!("intersection pair: collider {c:?} does not exist"));
            }
        }
    }
    // Every island's bodies (the active set's among them) exist among its checks.
    w.islands
        .validate(&w.bodies)
        .or_else(|e| fail(e.to_string()))?;
    let tree = (w.broad_phase)
        .as_query_pipeline(
            w.narrow_phase.query_dispatcher(),
            &w.bodies,
            &w.colliders,
            QueryFilter::default(),
        )
        .bvh;
    if let Err(e) = tree.validate() {
        return fail(format!("broad phase: {e}"));
    }
    for (h, co) in w.colliders.iter() {
        if let Err(e) = validate_shape(co.shape()) {
            return fail(format!("collider {h:?}: {e}"));
        }
    }
    Ok(())
}

fn ranges(w: &PhysicsWorld) -> Result<(), Error> {
    let fail = |msg: String| Err(Error::Structural(msg));
    let unit = |q: &Rotation| (q.length() - 1.0).abs() <= UNIT_TOLERANCE;
    for (h, rb) in w.bodies.iter() {
        if !unit(&rb.position().rotation) {
            return fail(format!("body {h:?}: rotation is not a unit quaternion"));
        }
        let extra = rb.additional_solver_iterations();
        if extra > MAX_ADDITIONAL_SOLVER_ITERATIONS {
            return fail(format!(
                "body {h:?}: {extra} additional solver iterations (at most {MAX_ADDITIONAL_SOLVER_ITERATIONS})"
            ));
        }
    }
    for (h, co) in w.colliders.iter() {
        let relative = co.position_wrt_parent().map(|p| p.rotation);
        if !unit(&co.position().rotation) || relative.is_some_and(|q| !unit(&q)) {
            return fail(format!("collider {h:?}: rotation is not a unit quaternion"));
        }
        // NaN is below 0 here too.
        if co
            .contact_skin()
            .partial_cmp(&0.0)
            .is_none_or(|o| o.is_lt())
        {
            return fail(format!(
                "collider {h:?}: contact skin {} below 0",
                co.contact_skin()
            ));
        }
    }
    Ok(())
}

fn finite(w: &PhysicsWorld) -> Result<(), Error> {
    let fail = |what: &'static str, handle: String| Err(Error::NonFinite { what, handle });
    for (h, rb) in w.bodies.iter() {
        let pos = rb.position();
        if !pos.translation.is_finite() {
            return fail("body translation", format!("{h:?}"));
        }
        if !pos.rotation.is_finite() {
            return fail("body rotation", format!("{h:?}"));
        }
        if !rb.linvel().is_finite() {
            return fail("body linear velocity", format!("{h:?}"));
        }
        if !rb.angvel().is_finite() {
            return fail("body angular velocity", format!("{h:?}"));
        }
        if !rb.mass().is_finite() {
            return fail("body mass", format!("{h:?}"));
        }
    }
    for (h, co) in w.colliders.iter() {
        let pos = co.position();
        if !pos.translation.is_finite() {
            return fail("collider translation", format!("{h:?}"));
        }
        if !pos.rotation.is_finite() {
            return fail("collider rotation", format!("{h:?}"));
        }
    }
    Ok(())
}
