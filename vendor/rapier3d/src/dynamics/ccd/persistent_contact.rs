//! The persistent-contact branch of the continuous pass,
//! [`IntegrationParameters::ccd_persistent_contact_policy`](crate::dynamics::IntegrationParameters::ccd_persistent_contact_policy)
//! (rapier-pinned patch, `Upstream` by default).
//!
//! A pair is a *persistent contact* when a sub-shape's sweep reports fraction 0: the
//! shapes are already within the sweep's target separation, or overlapping, at the start of the
//! step. That is derived from the poses alone; nothing is remembered between steps. Upstream
//! ignores such pairs in 3D. The other policies:
//!
//! - **fixed target** (policies 1 and 2): the full shape is cast first — a nonlinear cast over
//!   the fast body's motion that does not give up on a pair starting in contact — and its hit is
//!   accepted only on a different *face* of the target than the one the pair touches at the start
//!   (a convex target's face is its support feature toward the contact normal, as parry's
//!   `PolygonalFeatureMap` reports it; shapes without one, such as balls, have one face). On the
//!   same face, or without a hit, each touching sub-shape sweeps its *core sphere* instead: a ball at
//!   the sub-shape's centroid of radius `CORE_FRACTION × ccd_thickness`.
//! - **kinematic/dynamic target**, policy 1: the core sphere only;
//! - **kinematic/dynamic target**, policy 2: the full-shape nonlinear cast (over both bodies'
//!   motions with `ccd_relative_motion`, against the target frozen at its end pose without),
//!   honoured down to fraction 0, the clamp following the same constant-velocity model;
//! - **any target**, policy 3: no clamp, but at the start of a later time slice (a fast-turning
//!   pair that comes into contact within the step stops there); the depth rule of
//!   `keep_depth.rs` keeps the pair from ending the step deeper or on the other side.

use crate::dynamics::CcdPersistentContactPolicy;
use crate::geometry::Collider;
use crate::math::{Pose, Real, Vector};
use crate::parry::bounding_volume::{Aabb, BoundingVolume};
use parry::query::sweep_toi::{
    CORE_FRACTION, Sweep, SweepToiOutput, SweepToiStatus, ToiProxy,
    sweep_time_of_impact_with_target,
};
use parry::query::{NonlinearRigidMotion, QueryDispatcher};
use parry::shape::{PolygonalFeature, Shape};

use super::motion::MotionModel;

/// A sub-shape of the fast collider whose sweep starts in contact with the target: its sweep and
/// its *core sphere*, a ball at its centroid `CORE_FRACTION × ccd_thickness` wide.
pub(super) struct TouchingSubShape {
    pub(super) sweep: Sweep,
    pub(super) core_sphere: ToiProxy<'static>,
}

impl TouchingSubShape {
    /// The sub-shape swept by `sweep`, with centroid `local_centroid` (in the sweep's local frame)
    /// and smallest extent `min_extent`.
    pub(super) fn new(sweep: Sweep, local_centroid: Vector, min_extent: Real) -> Self {
        Self {
            sweep,
            core_sphere: ToiProxy::point(local_centroid, CORE_FRACTION * min_extent),
        }
    }
}

/// The target of a persistent pair, as the pass that found it sees it.
pub(super) struct PersistentTarget<'a> {
    pub(super) collider: &'a Collider,
    /// The target's point-cloud proxy (core-sphere sweeps need it).
    pub(super) proxy: &'a ToiProxy<'a>,
    /// The target's endpoint sweep (constant for fixed and frozen targets).
    pub(super) sweep: Sweep,
    /// The target's constant-velocity motion (constant position for fixed and frozen targets).
    pub(super) motion: NonlinearRigidMotion,
    /// Fixed target (parentless collider or `Fixed` parent)?
    pub(super) fixed: bool,
}

impl<'a> PersistentTarget<'a> {
    /// A target that holds `pose` during the whole sweep (fixed, or frozen at its end pose).
    pub(super) fn holding_pose(
        collider: &'a Collider,
        proxy: &'a ToiProxy<'a>,
        pose: &Pose,
        fixed: bool,
    ) -> Self {
        Self {
            collider,
            proxy,
            sweep: Sweep::constant(pose, Vector::ZERO),
            motion: NonlinearRigidMotion::constant_position(*pose),
            fixed,
        }
    }

    /// A target moving along its body's step (`ccd_relative_motion`): `sweep` as the pair cast
    /// used it, and `body_motion`, its body's constant-velocity motion reproducing the same step
    /// ([`BodyStep::motion`](super::motion::BodyStep::motion): `None` for a step of zero length).
    pub(super) fn moving(
        collider: &'a Collider,
        body_motion: Option<NonlinearRigidMotion>,
        proxy: &'a ToiProxy<'a>,
        sweep: Sweep,
    ) -> Option<Self> {
        let parent = collider.parent.as_ref()?;
        Some(Self {
            collider,
            proxy,
            sweep,
            motion: body_motion?.prepend(parent.pos_wrt_parent),
            fixed: false,
        })
    }
}

/// Where in its step a persistent pair is examined, as step fractions.
#[derive(Copy, Clone, Debug)]
pub(super) struct Window {
    /// Where the pair starts in contact: 0, or the start of a fast-turning pair's time slice.
    pub(super) from: Real,
    /// Hits at or after this are not accepted (an earlier hit of the same body, or the
    /// slice's end).
    pub(super) max_fraction: Real,
    /// Where the full-shape cast ends: the end of the step, or of the slice.
    pub(super) cast_end: Real,
}

/// The face of a convex `shape` a contact with local normal `normal` lies on: its support
/// feature toward `normal`. `None` for shapes without polygonal features (one face).
fn face(shape: &dyn Shape, normal: Vector) -> Option<u32> {
    let (map, _) = shape.as_polygonal_feature_map()?;
    let mut feature = PolygonalFeature::default();
    map.local_support_feature(normal, &mut feature);
    Some(feature.fid.0)
}

/// The fast collider of a persistent pair: its collider and its body's constant-velocity motion
/// ([`BodyStep::motion`](super::motion::BodyStep::motion): `None` for a step of zero length).
#[derive(Copy, Clone)]
pub(super) struct FastCollider<'a> {
    pub(super) collider: &'a Collider,
    pub(super) body_motion: Option<NonlinearRigidMotion>,
}

/// What a pair's cast found: the hit it accepts (`H`: a step fraction and how to clamp to it),
/// whether policy 3 flags the pair as going through its target (a piece's core sphere
/// reached it; the depth rule of `keep_depth.rs` moves the piece back), and whether the cast
/// cannot vouch that no piece crosses the target's surface: a piece started the sweep in contact,
/// or the pair has no sweep that tells (policy 5's side rule, `keep_side.rs`, checks those).
#[derive(Copy, Clone, Debug)]
pub(super) struct PairCast<H> {
    pub(super) hit: Option<H>,
    pub(super) crossed: bool,
    pub(super) touched: bool,
}

impl<H> Default for PairCast<H> {
    fn default() -> Self {
        None.into()
    }
}

impl<H> From<Option<H>> for PairCast<H> {
    /// A cast that found `hit`, flags nothing and vouches for the pair.
    fn from(hit: Option<H>) -> Self {
        Self {
            hit,
            crossed: false,
            touched: false,
        }
    }
}

/// Applies `policy` to a persistent pair: `touching` are the fast collider's sub-shapes whose
/// sweep started at fraction 0, `pair_toi` the time of impact the pass uses for a sub-shape
/// against this target (so the core sphere stops exactly as a full sub-shape would). `window` is
/// where in the step the pair is in contact and what it may be clamped to (see [`Window`]).
/// Returns the accepted fraction in `[window.from, window.max_fraction)` and the model the clamp
/// must follow, and whether policy 3 flags the pair as crossing.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve_persistent(
    policy: CcdPersistentContactPolicy,
    dispatcher: &dyn QueryDispatcher,
    fast: FastCollider,
    touching: &[TouchingSubShape],
    target: &PersistentTarget,
    window: Window,
    dt: Real,
    pair_toi: impl Fn(&ToiProxy, &Sweep, &ToiProxy, &Sweep, Real) -> SweepToiOutput,
) -> PairCast<(Real, MotionModel)> {
    let Window {
        from, max_fraction, ..
    } = window;
    if touching.is_empty() || !policy.resolves_persistent_contacts() {
        return None.into(); // Callers only collect touching sub-shapes under another policy.
    }
    if policy.keeps_depth() {
        // A pair that comes into contact within the step (a later time slice of a fast-turning
        // pair starts in contact) stops where it does. A pair in contact from the start keeps
        // its motion: the depth rule (`keep_depth.rs`) corrects how deep it ends, and moves the
        // piece back to its side when its core sphere reaches the target (`crossed`).
        if from > 0.0 {
            return Some((from, MotionModel::Endpoint)).into();
        }
        let crossed = touching.iter().any(|sub| core_sphere_touches(target, sub));
        return PairCast {
            hit: None,
            crossed,
            touched: true,
        };
    }

    let full_shape = policy.casts_full_shape_against_moving_targets() || target.fixed;
    if full_shape {
        if let Some(fraction) = full_shape_fraction(dispatcher, fast, target, window, dt) {
            return Some((fraction, MotionModel::Nonlinear)).into();
        }
        if !target.fixed {
            return None.into(); // Policy 2 never falls back to the core sphere on a moving target.
        }
    }

    let mut best = None;
    let mut max_fraction = max_fraction;
    for sub in touching {
        let output = pair_toi(
            target.proxy,
            &target.sweep,
            &sub.core_sphere,
            &sub.sweep,
            max_fraction,
        );
        if from < output.fraction && output.fraction < max_fraction {
            best = Some((output.fraction, MotionModel::Endpoint));
            max_fraction = output.fraction;
        }
    }
    best.into()
}

/// Whether the core sphere of `sub` touches the target during its sweep (policy 3's crossing
/// test): swept until the two full shapes touch, within a quarter of their radii. A piece whose
/// centre comes that close to the target, or starts that close, is going through it, not
/// around it.
pub(super) fn core_sphere_touches(target: &PersistentTarget, sub: &TouchingSubShape) -> bool {
    let radii = target.proxy.radius + sub.core_sphere.radius;
    if radii <= 0.0 {
        return false;
    }
    let output = sweep_time_of_impact_with_target(
        target.proxy,
        &target.sweep,
        &sub.core_sphere,
        &sub.sweep,
        1.0,
        radii,
        0.25 * radii,
    );
    matches!(
        output.status,
        SweepToiStatus::Hit | SweepToiStatus::Overlapped
    )
}

/// The full-shape rule: a nonlinear cast of the whole fast collider against the target that
/// does not give up on a pair starting in contact (`stop_at_penetration = false`). A moving
/// target's hit is honoured down to fraction 0, and also when the shapes only get deeper (see
/// [`deepening_fraction`]); a fixed target's hit only strictly after 0 and on a different face
/// than the one touched at the start.
fn full_shape_fraction(
    dispatcher: &dyn QueryDispatcher,
    fast: FastCollider,
    target: &PersistentTarget,
    window: Window,
    dt: Real,
) -> Option<Real> {
    let Window {
        from,
        max_fraction,
        cast_end,
    } = window;
    let parent1 = fast.collider.parent.as_ref()?;
    let motion1 = fast.body_motion?.prepend(parent1.pos_wrt_parent);
    let (shape1, shape2) = (fast.collider.shape.as_ref(), target.collider.shape.as_ref());
    // Both motions are posed about 25 times by the deepening bisection: prepared once.
    let (poses1, poses2) = (motion1.poses(), target.motion.poses());
    // A target without velocity (fixed, frozen, or at rest) is at the same pose at every time
    // of the step, bit for bit: its motion scales zero velocities by the time, so it is computed
    // once.
    let still = target.motion.linvel == Vector::ZERO && target.motion.angvel == Vector::ZERO;
    let target_pose = still.then(|| poses2.position_at_time(0.0));
    // The fast collider's pose in the target's frame.
    let pose12_at = |fraction: Real| {
        let t = fraction * dt;
        target_pose
            .unwrap_or_else(|| poses2.position_at_time(t))
            .inv_mul(&poses1.position_at_time(t))
    };
    // Fixed targets: the face the pair touches at the start (no hit can be accepted without one).
    let start_face = if target.fixed {
        let (from_pose, end_pose) = (pose12_at(from), pose12_at(1.0));
        Some(fixed_start_face(
            dispatcher, shape1, shape2, &from_pose, &end_pose,
        )?)
    } else {
        None
    };
    // The target first, so the hit's `normal1` is in the target's frame.
    let hit = dispatcher
        .cast_shapes_nonlinear(
            &target.motion,
            shape2,
            &motion1,
            shape1,
            from * dt,
            cast_end * dt,
            false,
        )
        .ok()
        .flatten();

    let Some(start_face) = start_face else {
        let cast = hit
            .map(|hit| hit.time_of_impact / dt)
            .filter(|f| from <= *f && *f < max_fraction);
        let distance_at = |fraction: Real| {
            dispatcher
                .contact(&pose12_at(fraction), shape2, shape1, Real::MAX)
                .ok()
                .flatten()
                .map(|c| c.dist)
        };
        return deepening_fraction(distance_at, from, cast.unwrap_or(max_fraction)).or(cast);
    };

    let hit = hit?;
    let fraction = hit.time_of_impact / dt;
    if !(from < fraction && fraction < max_fraction) {
        return None;
    }
    (start_face != face(shape2, hit.normal1)).then_some(fraction)
}

/// The face of the fixed target `shape2` the fast collider `shape1` touches at `from_pose` (its
/// pose in the target's frame), or `None` when no hit can be accepted this step: bounds over the
/// step (`from_pose` to `end_pose`) that reach no face, no contact at the start, or bounds that
/// reach no face but the one touched. The bounds come first: they are cheap, the contact is not.
fn fixed_start_face(
    dispatcher: &dyn QueryDispatcher,
    shape1: &dyn Shape,
    shape2: &dyn Shape,
    from_pose: &Pose,
    end_pose: &Pose,
) -> Option<Option<u32>> {
    let swept = shape1
        .compute_aabb(from_pose)
        .merged(&shape1.compute_aabb(end_pose));
    let reached = faces_reached(shape2, &swept);
    if reached == Some(0) {
        return None;
    }
    let start = dispatcher
        .contact(from_pose, shape2, shape1, Real::MAX)
        .ok()??;
    if !may_reach_another_face(reached, start.normal1) {
        return None;
    }
    Some(face(shape2, start.normal1))
}

/// The faces of the convex target `shape` that a fast collider whose bounds over the step are
/// `swept` (at its start and end poses, the bounds the pass's own candidate search uses, in the
/// target's frame) can touch, as a mask with bit `2 × axis + 1` for the face at `+half_extents`
/// on that axis and `2 × axis` for the one at `-half_extents`. Answered for cuboids, whose faces
/// are rectangles; `None` for any other shape: it may touch any face.
fn faces_reached(shape: &dyn Shape, swept: &Aabb) -> Option<u8> {
    let he = shape.as_cuboid()?.half_extents;
    let mut mask = 0;
    for axis in 0..3 {
        for side in [false, true] {
            let plane = if side { he[axis] } else { -he[axis] };
            let reached = swept.mins[axis] <= plane
                && plane <= swept.maxs[axis]
                && (0..3)
                    .filter(|other| *other != axis)
                    .all(|o| swept.mins[o] <= he[o] && -he[o] <= swept.maxs[o]);
            if reached {
                mask |= 1 << (2 * axis + side as usize);
            }
        }
    }
    Some(mask)
}

/// Can a fast collider that may touch the faces `reached` (see [`faces_reached`]) touch one
/// other than the face its start contact normal `start_normal` lies on?
fn may_reach_another_face(reached: Option<u8>, start_normal: Vector) -> bool {
    let Some(mask) = reached else {
        return true;
    };
    let start_axis = start_normal.abs().max_position();
    let start_side = start_normal[start_axis] > 0.0;
    mask & !(1 << (2 * start_axis + start_side as usize)) != 0
}

/// When a persistent pair ends its motion from `from` to `max_fraction` *deeper* than at `from` —
/// overlapping if it started apart, more overlapping if it started overlapped — the last fraction
/// before that happens, found by bisection on the signed distance `distance_at` (the shapes'
/// contact distance, negative when overlapping). Parry's directional cast misses this when the
/// shapes sink without approaching at their contact points (a thin part rotating flat into a
/// plate), and the contact solver, linearized at stale points, does not stop it either. With this
/// rule a persistent moving pair never ends a step deeper than it started.
fn deepening_fraction(
    distance_at: impl Fn(Real) -> Option<Real>,
    from: Real,
    max_fraction: Real,
) -> Option<Real> {
    let limit = distance_at(from)?.min(0.0);
    let deeper = |fraction: Real| distance_at(fraction).is_some_and(|d| d < limit);
    if !deeper(max_fraction) {
        return None;
    }
    // Bisection down to the precision of `Real`: `lo` is never deeper, `hi` always is.
    let (mut lo, mut hi) = (from, max_fraction);
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            return Some(lo);
        }
        if deeper(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
}
