//! Structural, shape and range invariants of a world, checked on every restore and adopt.
//!
//! Structural (in this order):
//! 1. every collider's parent body exists and lists the collider among its colliders;
//! 2. every collider a body lists exists and has that body as its parent;
//! 3. the impulse joint graph agrees with itself, the bodies' graph indices and the joint
//!    handles (`ImpulseJointSet::validate`), and both bodies of every impulse joint exist;
//! 4. every multibody is well formed and agrees with its bodies, which exist
//!    (`MultibodyJointSet::validate`);
//! 5. the island manager's ids agree with the bodies', which exist, the active set's among them
//!    (`IslandManager::validate`);
//! 6. the narrow phase's pair graphs agree with themselves and with the colliders' graph
//!    indices, every manifold's solver contacts name its points and hold finite numbers, every
//!    workspace indexes only its pair's manifolds, and the persistent solver contact graph is
//!    what the engine would select, stamped with the active set's solver-body ids
//!    (`NarrowPhase::validate`); both colliders of every contact pair and intersection pair
//!    exist;
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
//! quaternion within [`UNIT_TOLERANCE`]; every body's position and center of mass, every
//! collider's bounding box and offset from its body are within [`MAX_COORDINATE`] length units
//! of the origin; every body is slower than [`MAX_SPEED`] and [`MAX_ANGULAR_SPEED`]; every
//! collider's contact skin is at least 0; every body's additional solver and PGS iterations are
//! at most [`MAX_ADDITIONAL_SOLVER_ITERATIONS`].
//!
//! Soft bodies: no physics-version has validated them, so a world with a soft body, a soft
//! body's collision mesh or the contacts of two is refused. The checks run under
//! `catch_unwind` besides ([`validate_world`]).

use crate::config::{diff_world, WorldConfig};
use crate::error::{BodyOrCollider, Error};
use crate::panic::catch_panic;
use rapier3d::parry::shape::validate_shape;
use rapier3d::prelude::*;

/// How far from 1 a decoded rotation's norm may be. The integrator renormalizes every step, so a
/// stepped world stays within about 1e-6; a rotation far from unit makes parry's EPA index out
/// of its arrays.
pub const UNIT_TOLERANCE: Real = 1e-4;

/// How far from the origin, in length units, a body, its center of mass or any point of a
/// collider may be. At 1e6, f32 positions are spaced 6 cm apart: farther, contact geometry
/// degenerates, and a capsule reaching 1e35 made parry's EPA index out of its arrays.
pub const MAX_COORDINATE: Real = 1.0e6;

/// The fastest a body may move, in length units per second (a rifle bullet is under 1e3 m/s);
/// a decoded 1e30 carries a body past [`MAX_COORDINATE`] in one step.
pub const MAX_SPEED: Real = 1.0e5;

/// The fastest a body may spin, in radians per second. The engine itself spins light bodies
/// fast: seeded 4-player GGRS matches of the arena spin its 20 g bullets up to 1.7e5 rad/s, so a
/// lower bound refused worlds the engine made (1e4 did). At 1e7 a fast-turning CCD pair is swept
/// in about 200,000 time slices per step (patch `0007-rapier-ccd-fast-rotation-slices`), which
/// bounds the step: the arena with all 24 bullets at 1e7 rad/s steps in about 1 ms.
pub const MAX_ANGULAR_SPEED: Real = 1.0e7;

/// The most extra solver iterations, and extra PGS iterations, a body may ask for. Each extra
/// solver iteration is a whole extra substep of its island, so a decoded `u32::MAX` made one step
/// of a 20-body world take seconds; 65,536 extra PGS iterations made one take 150 ms.
pub const MAX_ADDITIONAL_SOLVER_ITERATIONS: usize = 64;

/// Checks 12-15 of `docs/protocol.md` §5 on a world, the one validation of both a restore (on
/// the decoded world) and [`crate::PinnedWorld::adopt`]: its integration parameters and gravity
/// are `config`'s bit for bit ([`Error::ConfigMismatch`] naming every field that differs), then
/// every invariant of the module docs.
///
/// Runs under `catch_unwind`: some of rapier's accessors used by the structural checks index
/// internal arrays with numbers the world carries (e.g. the island manager's awake island) and
/// panic when a crafted payload puts them out of range; such a panic becomes
/// `Error::Undecodable("panic while decoding: <message>")`, whichever of the two asked.
pub(crate) fn validate_world(config: &WorldConfig, world: &PhysicsWorld) -> Result<(), Error> {
    guarded(|| {
        let diffs = diff_world(config, &world.integration_parameters, world.gravity);
        if !diffs.is_empty() {
            return Err(Error::ConfigMismatch(diffs));
        }
        validate(world)
    })
}

/// Runs `checks` under `catch_unwind`; a panic becomes `Undecodable("panic while decoding: …")`,
/// the one mapping of a panic in the checks (restore's, kept byte for byte).
fn guarded(checks: impl FnOnce() -> Result<(), Error>) -> Result<(), Error> {
    catch_panic(checks, "decoding", Error::Undecodable)
}

/// Checks every invariant of the module docs; the first one that fails is the error.
fn validate(world: &PhysicsWorld) -> Result<(), Error> {
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
    (w.impulse_joints.validate()).or_else(|e| fail(e.to_string()))?;
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
    // Every island's bodies (the active set's among them) exist among its checks.
    w.islands
        .validate(&w.bodies, &w.colliders, &w.narrow_phase)
        .or_else(|e| fail(e.to_string()))?;
    // The solver tables' checks read the active set and the multibody links.
    (w.narrow_phase)
        .validate(&w.bodies, &w.colliders, &w.islands, &w.multibody_joints)
        .or_else(|e| fail(e.to_string()))?;
    // No physics-version has validated soft bodies: a world holding any is refused whole.
    if !w.soft_bodies.is_empty() {
        return fail(format!("{} soft bodies", w.soft_bodies.len()));
    }
    if let Some((h, _)) = (w.colliders.iter()).find(|(_, co)| co.deformable_mesh_ref().is_some()) {
        return fail(format!("collider {h:?}: a soft body's collision mesh"));
    }
    for pair in w.narrow_phase.contact_pairs() {
        for c in [pair.collider1, pair.collider2] {
            if !w.colliders.contains(c) {
                return fail(format!("contact pair: collider {c:?} does not exist"));
            }
        }
        if pair.soft().is_some() {
            return fail("contact pair: the contacts of two soft bodies".into());
        }
    }
    for (c1, c2, _) in w.narrow_phase.intersection_pairs() {
        for c in [c1, c2] {
            if !w.colliders.contains(c) {
                return fail(format!("intersection pair: collider {c:?} does not exist"));
            }
        }
    }
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
    let unit_length = w.integration_parameters.length_unit;
    let within = |v: Vector, bound: Real| v.abs().max_element() <= bound * unit_length;
    for (h, rb) in w.bodies.iter() {
        if !unit(&rb.position().rotation) {
            return fail(format!("body {h:?}: rotation is not a unit quaternion"));
        }
        if !within(rb.translation(), MAX_COORDINATE) || !within(rb.center_of_mass(), MAX_COORDINATE)
        {
            return fail(format!(
                "body {h:?}: position beyond {MAX_COORDINATE} length units"
            ));
        }
        let mprops = rb.mass_properties();
        let local = &mprops.local_mprops;
        let inertia = inv_inertia(rb);
        let sane = within(local.local_com, MAX_COORDINATE)
            && local.inv_mass.is_finite()
            && local.inv_mass >= 0.0
            && local.inv_principal_inertia.is_finite()
            && local.inv_principal_inertia.min_element() >= 0.0
            && unit(&local.principal_inertia_local_frame)
            && mprops.effective_inv_mass.is_finite()
            && mprops.effective_inv_mass.min_element() >= 0.0
            && inertia.is_finite();
        if !sane {
            return fail(format!(
                "body {h:?}: mass properties not finite, negative or beyond {MAX_COORDINATE} length units"
            ));
        }
        if !within(rb.linvel(), MAX_SPEED) || rb.angvel().abs().max_element() > MAX_ANGULAR_SPEED {
            return fail(format!(
                "body {h:?}: faster than {MAX_SPEED} length units or {MAX_ANGULAR_SPEED} rad per second"
            ));
        }
        let extra = rb
            .additional_solver_iterations()
            .max(rb.additional_pgs_iterations());
        if extra > MAX_ADDITIONAL_SOLVER_ITERATIONS {
            return fail(format!(
                "body {h:?}: {extra} additional solver or PGS iterations (at most {MAX_ADDITIONAL_SOLVER_ITERATIONS})"
            ));
        }
    }
    for (h, co) in w.colliders.iter() {
        let relative = co.position_wrt_parent();
        if !unit(&co.position().rotation) || relative.is_some_and(|p| !unit(&p.rotation)) {
            return fail(format!("collider {h:?}: rotation is not a unit quaternion"));
        }
        // The shape's extent in the world (its bounding sphere first: cheaper, and enough for
        // nearly every collider), and its offset from the body it moves with.
        let sphere = co.shape().compute_bounding_sphere(co.position());
        let inside =
            |aabb: Aabb| within(aabb.mins, MAX_COORDINATE) && within(aabb.maxs, MAX_COORDINATE);
        let near =
            sphere.center.abs().max_element() + sphere.radius <= MAX_COORDINATE * unit_length;
        if !(near || inside(co.compute_aabb()))
            || relative.is_some_and(|p| !within(p.translation, MAX_COORDINATE))
        {
            return fail(format!(
                "collider {h:?}: extends beyond {MAX_COORDINATE} length units"
            ));
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
    impulses(w)
}

/// The largest entry of a body's world inverse inertia (NaN if one is not finite).
fn inv_inertia(rb: &RigidBody) -> Real {
    let i = rb.mass_properties().effective_world_inv_inertia;
    let entries = [i.m11, i.m12, i.m13, i.m22, i.m23, i.m33];
    if entries.iter().all(|x| x.is_finite()) {
        entries.iter().fold(0.0, |m: Real, x| m.max(x.abs()))
    } else {
        Real::NAN
    }
}

const ZERO: Real = 0.0;

/// Every stored impulse the next step warm-starts with (contact points' normal, friction and
/// twist impulses; impulse joints'), applied alone, changes the velocity of each dynamic body it
/// acts on by at most [`MAX_SPEED`] and [`MAX_ANGULAR_SPEED`]: a decoded twist impulse of 4.7e6
/// on a crate spun it at 1e8 rad/s, and its next step took a second of continuous collision.
fn impulses(w: &PhysicsWorld) -> Result<(), Error> {
    let unit_length = w.integration_parameters.length_unit;
    // The largest inverse mass and inverse inertia among `bodies`.
    let response = |bodies: &[Option<RigidBodyHandle>]| {
        let dynamic = bodies
            .iter()
            .flatten()
            .filter_map(|h| w.bodies.get(*h))
            .filter(|rb| rb.is_dynamic());
        dynamic.fold((ZERO, ZERO), |(m, i), rb| {
            let inv_mass = rb.mass_properties().effective_inv_mass.max_element();
            (m.max(inv_mass), i.max(inv_inertia(rb)))
        })
    };
    let bounded = |linear: Real, angular: Real, (inv_mass, inv_inertia): (Real, Real)| {
        linear * inv_mass <= MAX_SPEED * unit_length && angular * inv_inertia <= MAX_ANGULAR_SPEED
    };
    for pair in w.narrow_phase.contact_pairs() {
        // The manifolds and the solver clusters (`solver_manifolds` is one of the two).
        let clusters = pair.rigid().map_or(&[][..], |r| &r.solver_clusters[..]);
        for m in pair.manifolds().iter().chain(clusters) {
            let bodies = response(&[m.data.rigid_body1, m.data.rigid_body2]);
            for point in &m.points {
                let d = &point.data;
                let linear = [d.impulse, d.warmstart_impulse]
                    .into_iter()
                    .chain(d.tangent_impulse.iter().copied())
                    .chain(d.warmstart_tangent_impulse.iter().copied())
                    .fold(ZERO, |a, x| a.max(x.abs()));
                if !bounded(linear, d.warmstart_twist_impulse.abs(), bodies) {
                    return Err(Error::Structural(format!(
                        "contact pair {:?}-{:?}: an impulse beyond the speed bounds",
                        pair.collider1, pair.collider2
                    )));
                }
            }
        }
    }
    for (h, joint) in w.impulse_joints.iter() {
        let bodies = response(&[Some(joint.body1()), Some(joint.body2())]);
        let i = joint.impulses;
        let linear = [i[0], i[1], i[2]].iter().fold(ZERO, |a, x| a.max(x.abs()));
        let angular = [i[3], i[4], i[5]].iter().fold(ZERO, |a, x| a.max(x.abs()));
        if !bounded(linear, angular, bodies) {
            return Err(Error::Structural(format!(
                "impulse joint {h:?}: an impulse beyond the speed bounds"
            )));
        }
    }
    Ok(())
}

fn finite(w: &PhysicsWorld) -> Result<(), Error> {
    let fail = |what: &'static str, handle: BodyOrCollider| Err(Error::NonFinite { what, handle });
    for (h, rb) in w.bodies.iter() {
        let pos = rb.position();
        if !pos.translation.is_finite() {
            return fail("body translation", BodyOrCollider::Body(h));
        }
        if !pos.rotation.is_finite() {
            return fail("body rotation", BodyOrCollider::Body(h));
        }
        if !rb.linvel().is_finite() {
            return fail("body linear velocity", BodyOrCollider::Body(h));
        }
        if !rb.angvel().is_finite() {
            return fail("body angular velocity", BodyOrCollider::Body(h));
        }
        if !rb.mass().is_finite() {
            return fail("body mass", BodyOrCollider::Body(h));
        }
    }
    for (h, co) in w.colliders.iter() {
        let pos = co.position();
        if !pos.translation.is_finite() {
            return fail("collider translation", BodyOrCollider::Collider(h));
        }
        if !pos.rotation.is_finite() {
            return fail("collider rotation", BodyOrCollider::Collider(h));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic in the checks is `Undecodable("panic while decoding: …")`, restore's mapping,
    /// whether a restore or an adopt runs them (both call [`validate_world`], which runs them
    /// through [`guarded`]).
    #[test]
    fn a_panic_in_the_checks_is_undecodable() {
        let err = guarded(|| panic!("index out of bounds")).unwrap_err();
        assert_eq!(
            err,
            Error::Undecodable("panic while decoding: index out of bounds".into())
        );
        assert_eq!(
            err.to_string(),
            "undecodable payload: panic while decoding: index out of bounds"
        );
    }
}
