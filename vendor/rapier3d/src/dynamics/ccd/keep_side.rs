//! Policy 5's side rule,
//! [`CcdPersistentContactPolicy::KeepSide`](crate::dynamics::CcdPersistentContactPolicy::KeepSide)
//! (rapier-pinned patch): after the passes and the depth rule, no centre of a piece of a
//! CCD-active body, or of a bullet, ends the step past the surface of a fixed collider that its
//! path crossed during the step.
//!
//! A centre is a point of its piece, so a centre past a surface is the piece through the surface
//! or inside the solid behind it. The continuous pass does not stop that when the pair starts the
//! step in contact: its sweeps then start at fraction 0, and the contact solver, which has the
//! pair, does not stop a part that arrives fast, spins fast, or is thinner than the overlap it
//! allows. A mesh or a heightfield has no inside: once a centre is past one of its faces, the
//! contact on the far side pushes it on through. This rule moves the body back along the crossed
//! face's normal until its piece is no deeper behind the face than it started and its centre is
//! in front of it: the motion along the face, and the velocities, are kept.

use crate::dynamics::{RigidBody, RigidBodyHandle, RigidBodySet};
use crate::geometry::{Collider, ColliderHandle, ColliderSet};
use crate::math::{Pose, Real, Vector};
use crate::parry::bounding_volume::{Aabb, BoundingVolume};
use crate::parry::partitioning::Bvh;
use crate::pipeline::PhysicsHooks;
use parry::query::Ray;
use parry::shape::{Shape, SupportMap, TypedShape};

use super::bounds::centre;
use super::motion::MotionModel;
use super::sweeps::{
    BodyContinuousResult, intersect_swept_aabb, is_bullet, is_fixed_target,
    pair_filtered_out_by_hooks,
};

/// How many times the rule corrects one body in a step: it pushes a centre back out of the face
/// it crossed first, but it may still be past another (a wall at the corner, the next triangle
/// of a bumpy terrain); a body still past a surface at the last correction keeps its start pose
/// for the step, so none of its centres moves.
pub(super) const MAX_CORRECTIONS: usize = 4;

/// A convex piece of a collider's shape: the shape itself, or a compound's child.
struct Piece<'a> {
    shape: &'a dyn Shape,
    map: &'a dyn SupportMap,
    /// Its pose in the collider's frame.
    pose: Pose,
}

/// Calls `f` with each convex piece of `shape`: the shape itself, or a compound's children that
/// have a support map.
fn for_each_piece<'a>(shape: &'a dyn Shape, mut f: impl FnMut(Piece<'a>)) {
    if let TypedShape::Compound(compound) = shape.as_typed_shape() {
        for (pose, child) in compound.shapes() {
            if let Some(map) = child.as_support_map() {
                let shape = child.as_ref();
                f(Piece {
                    shape,
                    map,
                    pose: *pose,
                });
            }
        }
    } else if let Some(map) = shape.as_support_map() {
        f(Piece {
            shape,
            map,
            pose: Pose::IDENTITY,
        });
    }
}

/// Whether the solver makes the collider `co1` of body `bh1` and the fixed collider `co2`
/// collide: `co2` is not a sensor, their groups match, and the user's pair filter keeps them.
fn collides(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    hooks: &dyn PhysicsHooks,
    (ch1, co1, bh1): (ColliderHandle, &Collider, RigidBodyHandle),
    (ch2, co2): (ColliderHandle, &Collider),
) -> bool {
    !co2.is_sensor()
        && co1.flags.collision_groups.test(co2.flags.collision_groups)
        && co1.flags.solver_groups.test(co2.flags.solver_groups)
        && !pair_filtered_out_by_hooks(
            hooks,
            bodies,
            colliders,
            co1,
            co2,
            ch1,
            ch2,
            bh1,
            co2.parent.map(|p| p.handle),
        )
}

/// Where the rule finds the fixed colliders a centre's path may cross.
#[derive(Copy, Clone)]
pub(super) enum FixedColliders<'a> {
    /// The continuous pass's cached list of the fixed colliders and their bounds, and a tree
    /// over it (a leaf's index is its place in the list).
    Listed {
        list: &'a [(ColliderHandle, Aabb)],
        tree: &'a Bvh,
    },
    /// The broad phase's tree of every collider, past the list's length.
    Broad(&'a Bvh),
}

/// Calls `f` with each fixed collider of `fixed` whose bounds reach `path`, the bounds of a
/// centre's path (the broad phase's tree gives colliders that are not fixed too).
fn for_each_candidate(
    colliders: &ColliderSet,
    fixed: FixedColliders,
    path: &Aabb,
    mut f: impl FnMut(ColliderHandle, &Collider),
) {
    match fixed {
        FixedColliders::Listed { list, tree } => {
            for leaf in tree.leaves(|node| node.aabb().intersects(path)) {
                let (ch2, _) = list[leaf as usize];
                f(ch2, &colliders[ch2]);
            }
        }
        FixedColliders::Broad(bvh) => {
            for (ch2, co2) in intersect_swept_aabb(bvh, colliders, *path) {
                f(ch2, co2);
            }
        }
    }
}

/// Where a centre's path crossed a fixed collider's surface: the fraction of the path, the point,
/// and the surface's normal there, turned towards the path's start.
#[derive(Copy, Clone)]
struct Crossing {
    at: Real,
    point: Vector,
    normal: Vector,
}

/// Where the path from `c0` to `c1` first crosses the surface of the fixed collider `co2`,
/// strictly after `c0`: a path that starts inside a solid, or on a surface, crossed nothing.
/// Meshes and heightfields are surfaces: every face counts, from either side.
fn crossing(co2: &Collider, c0: Vector, c1: Vector) -> Option<Crossing> {
    let path = c1 - c0;
    if let Some(cuboid) = co2.shape.as_cuboid() {
        // A cuboid (most fixed colliders) whose face plane has both ends of the path beyond it is
        // not reached: a test that costs a fraction of a cast.
        let (a, b) = (
            co2.pos.inverse_transform_point(c0),
            co2.pos.inverse_transform_point(c1),
        );
        let h = cuboid.half_extents;
        if (0..3).any(|i| (a[i] > h[i] && b[i] > h[i]) || (a[i] < -h[i] && b[i] < -h[i])) {
            return None;
        }
    }
    let solid = !matches!(
        co2.shape.as_typed_shape(),
        TypedShape::TriMesh(_) | TypedShape::HeightField(_)
    );
    let ray = Ray::new(c0, path);
    let hit = co2
        .shape
        .cast_ray_and_get_normal(&co2.pos, &ray, 1.0, solid)?;
    (hit.time_of_impact > 0.0).then(|| Crossing {
        at: hit.time_of_impact,
        point: c0 + path * hit.time_of_impact,
        normal: if hit.normal.dot(path) > 0.0 {
            -hit.normal
        } else {
            hit.normal
        },
    })
}

/// How far the body must move along a crossing's normal so that the piece `map` (at `from` and
/// `to`, its centre at `c0` and `c1`) ends no deeper behind the crossed face's plane than it
/// started (touching it, if it started in front), and its centre in front of that plane, no
/// nearer than it started or than the piece reaches behind its centre there.
fn push_back(
    map: &dyn SupportMap,
    (from, to): (&Pose, &Pose),
    (c0, c1): (Vector, Vector),
    x: &Crossing,
) -> Real {
    let side = |p: Vector| (p - x.point).dot(x.normal);
    let reach = |pose: &Pose, c: Vector| side(c) - side(map.support_point(pose, -x.normal));
    let limit = (side(c0) - reach(from, c0)).min(0.0);
    let end_reach = reach(to, c1);
    let wanted = (limit + end_reach).max(side(c0).min(end_reach));
    (wanted - side(c1)).max(0.0)
}

/// The earliest crossing of the surface of a fixed collider of `fixed` by any centre of the body
/// `handle`'s colliders, and the push that corrects it.
fn earliest_crossing(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    fixed: FixedColliders,
    hooks: &dyn PhysicsHooks,
    handle: RigidBodyHandle,
) -> Option<(Crossing, Real)> {
    let rb = &bodies[handle];
    let (start, end) = (rb.pos.position, rb.pos.next_position);
    let mut best: Option<(Crossing, Real)> = None;
    for ch1 in &rb.colliders.0 {
        let co1 = &colliders[*ch1];
        let Some(parent) = co1.parent.as_ref().filter(|_| !co1.is_sensor()) else {
            continue;
        };
        for_each_piece(co1.shape.as_ref(), |piece| {
            let local = match piece.pose == Pose::IDENTITY {
                true => parent.pos_wrt_parent,
                false => parent.pos_wrt_parent * piece.pose,
            };
            let in_body = local.transform_point(centre(piece.shape));
            let (c0, c1) = (start.transform_point(in_body), end.transform_point(in_body));
            if c0 == c1 || !(c0.is_finite() && c1.is_finite()) {
                return;
            }
            let path = Aabb::new(c0.min(c1), c0.max(c1));
            for_each_candidate(colliders, fixed, &path, |ch2, co2| {
                let rb2 = co2.parent.and_then(|p| bodies.get(p.handle));
                if !is_fixed_target(rb2)
                    || !collides(bodies, colliders, hooks, (*ch1, co1, handle), (ch2, co2))
                {
                    return;
                }
                let Some(x) = crossing(co2, c0, c1) else {
                    return;
                };
                if best.is_some_and(|(b, _)| b.at <= x.at) {
                    return;
                }
                let (from, to) = (start * local, end * local);
                let push = push_back(piece.map, (&from, &to), (c0, c1), &x);
                if push > 0.0 {
                    best = Some((x, push));
                }
            });
        });
    }
    best
}

/// Moves back every body the rule checks (see [`checked`]) whose centres crossed the surface of a
/// fixed collider of `fixed` this step (see the module docs), earliest crossing first, at most
/// [`MAX_CORRECTIONS`] times per body (the last one keeps the body at its start pose). Bodies are independent (their targets are fixed), so the
/// order they are corrected in, or a body checked twice, changes nothing.
pub(super) fn keep_sides(
    bodies: &mut RigidBodySet,
    colliders: &ColliderSet,
    fixed: FixedColliders,
    hooks: &dyn PhysicsHooks,
    checked: impl Iterator<Item = RigidBodyHandle>,
) {
    if matches!(fixed, FixedColliders::Listed { list: [], .. }) {
        return; // No fixed collider.
    }
    for handle in checked {
        if !bodies[handle].is_dynamic() {
            continue;
        }
        for i in 1..=MAX_CORRECTIONS {
            let Some((x, push)) = earliest_crossing(bodies, colliders, fixed, hooks, handle) else {
                break;
            };
            let rb = bodies.index_mut_internal(handle);
            rb.pos.next_position = match i < MAX_CORRECTIONS {
                true => rb.pos.next_position.append_translation(x.normal * push),
                // Still past a surface: the body keeps its start pose (and its velocities), so
                // none of its centres moves.
                false => rb.pos.position,
            };
        }
    }
}

/// The bodies the side rule checks, among the `active` ones: those whose step the continuous
/// pass cannot vouch for. A body the pass swept (`results`) and clamped, if at all, along the
/// model its sweeps used, turning less than a quarter turn (upstream trusts a sweep up to
/// that), whose every pair with a fixed collider was cast from apart by a sweep of its own,
/// stays apart from those colliders by the cast's target separation all step: its centres cross
/// none. The others are checked:
/// - a swept body with a pair that started in contact, or had no such sweep
///   ([`BodyContinuousResult::fixed_contact`]), clamped along another model (a fast-turning
///   pair's slices, a nonlinear cast: its pieces did not follow the endpoint sweeps), or turning
///   a quarter turn or more in the step (its angular velocity, or its poses' short arc);
/// - a bullet that is not CCD-active (not swept: it may rest on a mesh);
/// - a body policy 3's depth rule moved after the sweeps (`moved`).
pub(super) fn checked<'a>(
    bodies: &'a RigidBodySet,
    results: &'a [BodyContinuousResult],
    active: impl Iterator<Item = RigidBodyHandle> + 'a,
    moved: &'a [RigidBodyHandle],
    dt: Real,
) -> impl Iterator<Item = RigidBodyHandle> + 'a {
    let quarter = core::f64::consts::FRAC_PI_2 as Real;
    let turns_fast = move |rb: &RigidBody| {
        let cos_half = rb
            .pos
            .position
            .rotation
            .dot(rb.pos.next_position.rotation)
            .abs();
        // Not `<=`: a NaN turns fast.
        !(rb.vels.angvel.length() * dt <= quarter && cos_half >= (0.5 * quarter).cos())
    };
    let swept = (results.iter())
        .filter(move |r| {
            r.fixed_contact
                || (r.fraction < 1.0 && r.model != MotionModel::Endpoint)
                || turns_fast(&bodies[r.handle])
        })
        .map(|r| r.handle);
    let resting = active.filter(|h| {
        let rb = &bodies[*h];
        is_bullet(rb) && !rb.ccd.ccd_active
    });
    swept.chain(resting).chain(moved.iter().copied())
}
