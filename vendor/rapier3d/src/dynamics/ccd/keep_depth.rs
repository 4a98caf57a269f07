//! Policy 3's depth rule,
//! [`CcdPersistentContactPolicy::KeepDepth`](crate::dynamics::CcdPersistentContactPolicy::KeepDepth)
//! (rapier-pinned patch): after every clamp of the continuous pass, no solid pair of a fast body
//! with a thin collider (thinner than `allowed_linear_error`), or of a slow bullet with a thin
//! other collider, ends the step deeper than it started, or on the other side of each other (its
//! piece's core sphere reached the target: the pass flags the pair).
//!
//! The contact solver allows `allowed_linear_error` of overlap, more than a thin part is thick,
//! and a persistent pair's sweeps start at fraction 0, so neither stops a part sinking into or
//! through a thin target it already touches. Clamping the motion stops it but truncates pushes
//! (the pushed body is stopped with the pusher). This rule keeps the motion and corrects only the
//! depth: the bodies are moved apart along the end contact's normal (along the start one if
//! they crossed), shared by inverse mass, so a pusher hands its motion to what it pushes.

use crate::alloc_prelude::*;
use crate::dynamics::{CcdPersistentContactPolicy, RigidBodyHandle, RigidBodySet};
use crate::geometry::{Collider, ColliderHandle, ColliderSet, NarrowPhase};
use crate::math::{Pose, Real, Vector};
use crate::pipeline::PhysicsHooks;
use parry::bounding_volume::BoundingVolume;
use parry::query::sweep_toi::ToiProxy;
use parry::query::{Contact, QueryDispatcher};
use parry::shape::{Shape, TypedShape};

use super::bounds::{centre, ends_within_face, ends_within_surface};
use super::sweeps::{is_bullet, is_fixed_target, ordered, pair_filtered_out_by_hooks};

/// The pose `co` ends the step at: its body's (possibly clamped) `next_position`, or its own pose
/// for a parentless collider.
fn end_pose(bodies: &RigidBodySet, co: &Collider) -> Pose {
    match co.parent.as_ref() {
        Some(parent) => bodies[parent.handle].pos.next_position * parent.pos_wrt_parent,
        None => co.pos.0,
    }
}

/// Policy 4's bounds on a pair at its end poses: their bounding boxes are disjoint (the pair is
/// apart, so no correction follows), or one of them is a fixed cuboid and the other a convex
/// collider that ends less than the thinner one's half-thickness behind one of its faces, its
/// centre in front of it (`bounds.rs`: neither can have passed through the other, and the solver
/// resolves the rest). With `surfaces` (policy 6), also a fixed mesh or heightfield and a convex
/// collider that ends less than half its half-thickness behind every face near it, its centre
/// in front of each.
fn ends_within_bounds(
    bodies: &RigidBodySet,
    (co1, co2): (&Collider, &Collider),
    (end1, end2): (&Pose, &Pose),
    surfaces: bool,
) -> bool {
    if !(co1.shape.compute_aabb(end1)).intersects(&co2.shape.compute_aabb(end2)) {
        return true;
    }
    let fixed = |co: &Collider| is_fixed_target(co.parent.as_ref().map(|p| &bodies[p.handle]));
    let surface = |co: &Collider| {
        let kind = co.shape.as_typed_shape();
        matches!(kind, TypedShape::TriMesh(_) | TypedShape::HeightField(_)) && fixed(co)
    };
    let on_surface = match surfaces {
        true if surface(co1) => Some((co1, end1, co2, end2)),
        true if surface(co2) => Some((co2, end2, co1, end1)),
        _ => None,
    };
    if let Some((mesh, mesh_pose, other, pose)) = on_surface {
        let Some(proxy) = ToiProxy::from_shape(other.shape.as_ref()) else {
            return false;
        };
        let eps = 0.5 * other.shape.ccd_thickness();
        let local = mesh_pose.inv_mul(pose);
        let aabb = other.shape.compute_aabb(&local).loosened(eps);
        let centre = centre(other.shape.as_ref());
        return ends_within_surface(&proxy, (&local, centre), &aabb, mesh.shape.as_ref(), eps);
    }
    let (cuboid, cuboid_pose, other, pose) = match (co1.shape.as_cuboid(), co2.shape.as_cuboid()) {
        (Some(cuboid), _) if fixed(co1) => (cuboid, end1, co2, end2),
        (_, Some(cuboid)) if fixed(co2) => (cuboid, end2, co1, end1),
        _ => return false,
    };
    let Some(proxy) = ToiProxy::from_shape(other.shape.as_ref()) else {
        return false;
    };
    let half = cuboid.half_extents;
    let eps = half.min_element().min(other.shape.ccd_thickness());
    let centre = centre(other.shape.as_ref());
    ends_within_face(&proxy, (pose, centre), half, cuboid_pose, eps)
}

/// The body of `co` this rule may move (a dynamic one) and its inverse mass; `None` and 0
/// otherwise (fixed, kinematic, or no body).
fn movable(bodies: &RigidBodySet, co: &Collider) -> (Option<RigidBodyHandle>, Real) {
    match co.parent.as_ref() {
        Some(parent) if bodies[parent.handle].is_dynamic() => (
            Some(parent.handle),
            bodies[parent.handle].mprops.local_mprops.inv_mass,
        ),
        _ => (None, 0.0),
    }
}

/// Writes into `pairs` the narrow-phase pairs of a collider of a CCD-active or bullet body among
/// the `active` (the islands' awake) bodies with a collider thinner than `linear_slop` (only
/// such a part can be sunk into or through by the solver's allowed overlap), each once, in
/// collider-handle order (a fixed order: the corrections are applied one pair after the other).
/// A body that is not CCD-active (a slow bullet) has only its pairs with a thin *other* collider
/// checked: at its speed its own thin part cannot pass through a thick one, and against a thick
/// one the solver's normal stays on the side it came from.
fn thin_pairs(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    active: impl Iterator<Item = RigidBodyHandle>,
    linear_slop: Real,
    pairs: &mut Vec<(ColliderHandle, ColliderHandle)>,
) {
    let thin = |ch: ColliderHandle| colliders[ch].shape.ccd_thickness() < linear_slop;
    pairs.clear();
    // Every CCD-active body, and every bullet (`ccd_enabled`) even when it is slow: a bullet
    // pressed into a thin part sinks into it at any speed.
    let checked = active.filter(|h| bodies[*h].ccd.ccd_active || is_bullet(&bodies[*h]));
    for handle in checked {
        let rb = &bodies[handle];
        for ch in rb.colliders() {
            let thin_here = rb.ccd.ccd_active && thin(*ch);
            for pair in narrow_phase.contact_pairs_with(*ch) {
                let (a, b) = (pair.collider1, pair.collider2);
                if !thin_here && !thin(if a == *ch { b } else { a }) {
                    continue;
                }
                pairs.push(ordered(a, b));
            }
        }
    }
    pairs.sort_by_key(|p| key(*p));
    pairs.dedup();
}

/// Whether the solver makes the two colliders collide: neither is a sensor, their collision
/// and solver groups match, and the user's pair filter (if active) keeps the pair.
fn collides(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    hooks: &dyn PhysicsHooks,
    (ch1, co1): (ColliderHandle, &Collider),
    (ch2, co2): (ColliderHandle, &Collider),
) -> bool {
    if co1.is_sensor()
        || co2.is_sensor()
        || !co1.flags.collision_groups.test(co2.flags.collision_groups)
        || !co1.flags.solver_groups.test(co2.flags.solver_groups)
    {
        return false;
    }
    let (bh1, bh2) = (co1.parent.map(|p| p.handle), co2.parent.map(|p| p.handle));
    let filtered = match (bh1, bh2) {
        (Some(bh1), _) => {
            pair_filtered_out_by_hooks(hooks, bodies, colliders, co1, co2, ch1, ch2, bh1, bh2)
        }
        (None, Some(bh2)) => {
            pair_filtered_out_by_hooks(hooks, bodies, colliders, co2, co1, ch2, ch1, bh2, None)
        }
        (None, None) => true,
    };
    !filtered
}

/// A pair's sort key: both handles' raw parts.
fn key((a, b): (ColliderHandle, ColliderHandle)) -> ((u32, u32), (u32, u32)) {
    (a.into_raw_parts(), b.into_raw_parts())
}

/// The sine of half the angle `co`'s body turns this step (0 without a body).
fn turn(bodies: &RigidBodySet, co: &Collider) -> Real {
    co.parent.as_ref().map_or(0.0, |parent| {
        let rb = &bodies[parent.handle];
        let cos_half = rb
            .pos
            .position
            .rotation
            .dot(rb.pos.next_position.rotation)
            .abs();
        (1.0 - cos_half.min(1.0).powi(2)).sqrt()
    })
}

/// For a pair the pass flagged as crossing (a piece's core sphere reached the target: it is
/// going through, not around), the start normal at the end poses (world space, from shape 1
/// towards shape 2; in the frame of the collider whose body turned less) and the shapes'
/// separation along it (negative: by how much their extents overlap along it). `None` when
/// either shape has no support map, or with `compounds` (policy 5) is neither one nor a compound
/// of convex children ([`reach`]).
fn crossing(
    bodies: &RigidBodySet,
    (co1, co2): (&Collider, &Collider),
    start: &Contact,
    (end1, end2): (&Pose, &Pose),
    compounds: bool,
) -> Option<(Vector, Real)> {
    let normal = if turn(bodies, co1) <= turn(bodies, co2) {
        end1.rotation * start.normal1
    } else {
        -(end2.rotation * start.normal2)
    };
    let reach1 = reach(co1.shape.as_ref(), end1, normal, compounds)?;
    let reach2 = -reach(co2.shape.as_ref(), end2, -normal, compounds)?;
    Some((normal, reach2 - reach1))
}

/// How far `shape` at `pose` reaches along `dir`: its support point's projection on it. `None`
/// for a shape without a support map, except, with `compounds`, a compound whose children all
/// have one: it reaches as far as its farthest child (as its convex hull does).
fn reach(shape: &dyn Shape, pose: &Pose, dir: Vector, compounds: bool) -> Option<Real> {
    if let Some(map) = shape.as_support_map() {
        return Some(map.support_point(pose, dir).dot(dir));
    }
    let TypedShape::Compound(compound) = shape.as_typed_shape() else {
        return None;
    };
    if !compounds {
        return None;
    }
    (compound.shapes().iter())
        .map(|(child_pose, child)| reach(child.as_ref(), &(*pose * *child_pose), dir, false))
        .try_fold(Real::MIN, |far, r| Some(far.max(r?)))
}

/// A pair's end contact in one pass of the rule: the relative pose it was queried at and what
/// [`touching`] found there. The next pass reuses it as the pair's start contact when the start
/// pose is the same, bit for bit (nothing moved the pair in between), since the query is a pure
/// function of the pose and the shapes.
#[derive(Clone)]
struct EndContact {
    pair: (ColliderHandle, ColliderHandle),
    pos12: Pose,
    contact: Option<Contact>,
}

/// The rule's lists, kept between passes so that their allocations are reused, the last pass's
/// end contacts (see [`EndContact`]) and whether any collider is thin. Not part of a world's
/// state: they only spare queries and checks whose answer they already hold, so a world without
/// them (new, restored or after [`Self::forget_shapes`]) steps the same.
#[derive(Clone, Default)]
pub(super) struct DepthRuleLists {
    /// The pairs the pass checks ([`thin_pairs`]).
    pairs: Vec<(ColliderHandle, ColliderHandle)>,
    /// The pairs the continuous pass flagged as crossing.
    crossings: Vec<(ColliderHandle, ColliderHandle)>,
    /// The last pass's end contacts, in pair order.
    last: Vec<EndContact>,
    /// The pass's own, written while `last` is read; the next pass's `last`.
    now: Vec<EndContact>,
    /// Whether any collider is thinner than the slop it was counted for: no pair is checked
    /// when none is. `None` until counted, and again once a collider is added or reshaped.
    any_thin: Option<(Real, bool)>,
    /// The bodies the last pass moved, once or more, in the order it moved them (policy 5's side
    /// rule checks them).
    moved: Vec<RigidBodyHandle>,
}

impl DepthRuleLists {
    /// The bodies the last pass moved (see [`keep_depths`]).
    pub(super) fn moved(&self) -> &[RigidBodyHandle] {
        &self.moved
    }

    /// Forgets every end contact and the thin count: a collider was added or its shape changed,
    /// so a pose no longer determines a contact, nor the count the colliders.
    pub(super) fn forget_shapes(&mut self) {
        self.now.clear();
        self.any_thin = None;
    }
}

/// Whether any collider of `colliders`, enabled or not, is thinner than `linear_slop`, or a
/// soft body's deforming mesh (conservatively: its thickness changes without a reshape).
fn any_thin(colliders: &ColliderSet, linear_slop: Real) -> bool {
    (colliders.iter())
        .any(|(_, co)| co.is_deformable_collider() || co.shape.ccd_thickness() < linear_slop)
}

/// The contact `pair` ended the last pass with in `last`, if it was queried at `pos12` exactly.
fn ended_at(
    last: &[EndContact],
    pair: (ColliderHandle, ColliderHandle),
    pos12: &Pose,
) -> Option<Option<Contact>> {
    let i = last
        .binary_search_by_key(&key(pair), |c| key(c.pair))
        .ok()?;
    let cached = &last[i];
    same_bits(&cached.pos12, pos12).then_some(cached.contact)
}

/// Whether two poses are the same bit for bit (`==` takes -0 for 0 and never matches NaN).
fn same_bits(a: &Pose, b: &Pose) -> bool {
    let bits = |p: &Pose| {
        let (t, r) = (p.translation, p.rotation);
        [t.x, t.y, t.z, r.x, r.y, r.z, r.w].map(Real::to_bits)
    };
    bits(a) == bits(b)
}

/// The contact of the two shapes at `pos12` if they touch or overlap, and for some shapes that are
/// close but apart (at a positive distance); `None` if they are apart (or parry failed). Cheaper
/// than a distance query: GJK stops at the first separating axis.
fn touching(
    dispatcher: &dyn QueryDispatcher,
    (shape1, shape2): (&dyn Shape, &dyn Shape),
    pos12: &Pose,
) -> Option<Contact> {
    dispatcher
        .contact(pos12, shape1, shape2, 0.0)
        .ok()
        .flatten()
}

/// Whether the two shapes at `pos12` are apart (`false` if they overlap, or parry failed).
fn apart(
    dispatcher: &dyn QueryDispatcher,
    (shape1, shape2): (&dyn Shape, &dyn Shape),
    pos12: &Pose,
) -> bool {
    (dispatcher.intersection_test(pos12, shape1, shape2)).is_ok_and(|hit| !hit.intersecting)
}

/// The contact of the two shapes at `pos12` at any distance; `None` only if parry failed.
fn closest(
    dispatcher: &dyn QueryDispatcher,
    (shape1, shape2): (&dyn Shape, &dyn Shape),
    pos12: &Pose,
) -> Option<Contact> {
    dispatcher
        .contact(pos12, shape1, shape2, Real::MAX)
        .ok()
        .flatten()
}

/// Moves the dynamic bodies of every pair [`thin_pairs`] picks among the `active` bodies'
/// narrow-phase pairs apart, along the end contact's normal (the
/// start one for the `crossings` the pass flagged, in any order: see [`crossing`]), by how much
/// deeper than `min(start distance, 0)` the pair would end the step; shared by inverse mass.
/// Pairs that do not collide (sensors, collision or solver groups, the user's pair filter) are
/// skipped, as the pass skips them. Pairs are corrected in collider-handle order, each at the
/// poses the corrections before it left. A pair whose contact parry cannot compute is left as
/// it is. `lists` are reused from pass to pass; they hold the last pass's end contacts and take
/// this pass's. Under a `policy` that skips bounded work (4 to 6), a pair the pass did not flag
/// is not queried when [`ends_within_bounds`] proves it needs no correction beyond what the
/// policy allows; under policy 5 a flagged compound part is moved back too ([`reach`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn keep_depths(
    bodies: &mut RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    hooks: &dyn PhysicsHooks,
    active: impl Iterator<Item = RigidBodyHandle>,
    crossings: impl Iterator<Item = (ColliderHandle, ColliderHandle)>,
    linear_slop: Real,
    policy: CcdPersistentContactPolicy,
    lists: &mut DepthRuleLists,
) {
    let bounded = policy.skips_bounded_work();
    let DepthRuleLists {
        pairs,
        crossings: crossed_pairs,
        last,
        now,
        any_thin: thin_count,
        moved,
    } = lists;
    let dispatcher = narrow_phase.query_dispatcher();
    crossed_pairs.clear();
    moved.clear();
    crossed_pairs.extend(crossings);
    crossed_pairs.sort_by_key(|p| key(*p));
    crossed_pairs.dedup();
    core::mem::swap(last, now);
    now.clear();
    let counted = thin_count.filter(|(slop, _)| *slop == linear_slop);
    let (_, thin) = counted.unwrap_or_else(|| (linear_slop, any_thin(colliders, linear_slop)));
    *thin_count = Some((linear_slop, thin));
    if thin {
        thin_pairs(bodies, colliders, narrow_phase, active, linear_slop, pairs);
    } else {
        pairs.clear(); // Without a thin collider, no pair is.
    }
    for &pair in pairs.iter() {
        let (ch1, ch2) = pair;
        let (co1, co2) = (&colliders[ch1], &colliders[ch2]);
        let ((body1, w1), (body2, w2)) = (movable(bodies, co1), movable(bodies, co2));
        if w1 + w2 <= 0.0 || !collides(bodies, colliders, hooks, (ch1, co1), (ch2, co2)) {
            continue;
        }
        let shapes = (co1.shape.as_ref(), co2.shape.as_ref());
        let start_pos12 = co1.pos.inv_mul(&co2.pos);
        let (end1, end2) = (end_pose(bodies, co1), end_pose(bodies, co2));
        let end_pos12 = end1.inv_mul(&end2);
        let crossed = crossed_pairs
            .binary_search_by_key(&key(pair), |p| key(*p))
            .is_ok();
        let correction = if crossed {
            // Separated or not, the start normal says which side the part came from.
            let Some(start) = closest(dispatcher, shapes, &start_pos12) else {
                continue;
            };
            let limit = start.dist.min(0.0);
            let compounds = policy.keeps_side();
            match crossing(bodies, (co1, co2), &start, (&end1, &end2), compounds) {
                Some((normal, dist)) => (normal, dist, limit),
                None => {
                    let Some(end) = closest(dispatcher, shapes, &end_pos12) else {
                        continue;
                    };
                    (end1.rotation * end.normal1, end.dist, limit)
                }
            }
        } else {
            let surfaces = policy.bounds_surfaces();
            if bounded && ends_within_bounds(bodies, (co1, co2), (&end1, &end2), surfaces) {
                continue;
            }
            // Only an end overlap can be deeper than the limit (at most 0): a pair apart at the
            // end, or whose end contact is not below 0, needs no start query at all.
            let end = touching(dispatcher, shapes, &end_pos12);
            now.push(EndContact {
                pair,
                pos12: end_pos12,
                contact: end,
            });
            let Some(end) = end else {
                continue;
            };
            if end.dist >= 0.0 {
                continue;
            }
            let start = (ended_at(last, pair, &start_pos12))
                .unwrap_or_else(|| touching(dispatcher, shapes, &start_pos12));
            let limit = match start {
                Some(start) => start.dist.min(0.0),
                // Apart at the start, or parry failed: an intersection test tells which.
                None if apart(dispatcher, shapes, &start_pos12) => 0.0,
                None => continue,
            };
            (end1.rotation * end.normal1, end.dist, limit)
        };
        let (normal, dist, limit) = correction;
        if dist >= limit {
            continue;
        }
        let push = normal * ((limit - dist) / (w1 + w2));
        for (body, share) in [(body1, -w1), (body2, w2)] {
            if let Some(handle) = body {
                let rb = bodies.index_mut_internal(handle);
                rb.pos.next_position = rb.pos.next_position.append_translation(push * share);
                moved.push(handle);
            }
        }
    }
}
