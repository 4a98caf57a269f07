//! Policy 3's depth rule,
//! [`CcdPersistentContactPolicy::CoreSphereKeepDepth`](crate::dynamics::CcdPersistentContactPolicy::CoreSphereKeepDepth)
//! (rapier-pinned patch): after every clamp of the continuous pass, no solid pair of a fast body
//! or a bullet with a thin collider (thinner than `allowed_linear_error`) ends the step deeper
//! than it started.
//!
//! The contact solver allows `allowed_linear_error` of overlap, more than a thin part is thick,
//! and a persistent pair's sweeps start at fraction 0, so neither stops a part sinking into or
//! through a thin target it already touches. Clamping the motion stops it but truncates pushes
//! (the pushed body is stopped with the pusher). This rule keeps the motion and corrects only the
//! depth: the bodies are moved apart along the end contact's normal, shared by inverse mass, so
//! a pusher hands its motion to what it pushes.

use crate::alloc_prelude::*;
use crate::dynamics::{RigidBodyHandle, RigidBodySet};
use crate::geometry::{Collider, ColliderHandle, ColliderSet, NarrowPhase};
use crate::math::{Pose, Real};
use parry::query::QueryDispatcher;

/// The pose `co` ends the step at: its body's (possibly clamped) `next_position`, or its own pose
/// for a parentless collider.
fn end_pose(bodies: &RigidBodySet, co: &Collider) -> Pose {
    match co.parent.as_ref() {
        Some(parent) => bodies[parent.handle].pos.next_position * parent.pos_wrt_parent,
        None => co.pos.0,
    }
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

/// The narrow-phase pairs of a collider of one of the `active` bodies with one of them thinner
/// than `linear_slop` (only such a part can be sunk into or through by the solver's allowed
/// overlap), each once, in collider-handle order (a fixed order: the corrections are applied one
/// pair after the other).
fn thin_pairs(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    active: &[RigidBodyHandle],
    linear_slop: Real,
) -> Vec<(ColliderHandle, ColliderHandle)> {
    let thin = |ch: ColliderHandle| colliders[ch].shape.ccd_thickness() < linear_slop;
    let mut pairs = Vec::new();
    for handle in active {
        for ch in bodies[*handle].colliders() {
            let thin_here = thin(*ch);
            for pair in narrow_phase.contact_pairs_with(*ch) {
                let (a, b) = (pair.collider1, pair.collider2);
                if !thin_here && !thin(if a == *ch { b } else { a }) {
                    continue;
                }
                pairs.push(if a.into_raw_parts() <= b.into_raw_parts() {
                    (a, b)
                } else {
                    (b, a)
                });
            }
        }
    }
    pairs.sort_by_key(|(a, b)| (a.into_raw_parts(), b.into_raw_parts()));
    pairs.dedup();
    pairs
}

/// Moves the dynamic bodies of every narrow-phase pair of the `active` (CCD-active or bullet)
/// bodies with a collider thinner than `linear_slop` apart, along the end contact's normal, by
/// how much deeper than `min(start distance, 0)` the pair would end the step; shared by inverse
/// mass. Pairs are corrected in collider-handle order, each at the poses the corrections before
/// it left. A pair whose contact parry cannot compute is left as it is.
pub(super) fn keep_depths(
    bodies: &mut RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    dispatcher: &dyn QueryDispatcher,
    active: &[RigidBodyHandle],
    linear_slop: Real,
) {
    for (ch1, ch2) in thin_pairs(bodies, colliders, narrow_phase, active, linear_slop) {
        let (co1, co2) = (&colliders[ch1], &colliders[ch2]);
        let ((body1, w1), (body2, w2)) = (movable(bodies, co1), movable(bodies, co2));
        if w1 + w2 <= 0.0 {
            continue;
        }
        let (shape1, shape2) = (co1.shape.as_ref(), co2.shape.as_ref());
        let contact = |pos12: &Pose| {
            dispatcher
                .contact(pos12, shape1, shape2, Real::MAX)
                .ok()
                .flatten()
        };
        let Some(start) = contact(&co1.pos.inv_mul(&co2.pos)) else {
            continue;
        };
        let (end1, end2) = (end_pose(bodies, co1), end_pose(bodies, co2));
        let Some(end) = contact(&end1.inv_mul(&end2)) else {
            continue;
        };
        let limit = start.dist.min(0.0);
        if end.dist >= limit {
            continue;
        }
        // From shape 1 towards shape 2, in world space.
        let push = end1.rotation * end.normal1 * ((limit - end.dist) / (w1 + w2));
        for (body, share) in [(body1, -w1), (body2, w2)] {
            if let Some(handle) = body {
                let rb = bodies.index_mut_internal(handle);
                rb.pos.next_position = rb.pos.next_position.append_translation(push * share);
            }
        }
    }
}
