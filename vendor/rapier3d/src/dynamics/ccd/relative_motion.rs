//! The bullet pass of [`IntegrationParameters::ccd_relative_motion`]: bullet pairs swept on
//! both bodies' motions, both bodies clamped (rapier-pinned patch, off by default).
//!
//! Upstream freezes a bullet's kinematic/dynamic target at its end-of-step pose (found through
//! start-of-step bounds) and never sweeps a bullet against another bullet, so two bullets can
//! swap places without a contact and a bullet can miss, or clamp at the wrong time against, a
//! target moving in the same step. Here, after the non-bullet pass:
//!
//! - targets that do not move (fixed colliders, soft-body meshes) are swept exactly as upstream;
//! - every kinematic/dynamic target is swept along its own start → end motion, in the same
//!   normalized time as the bullet; candidates come from bounds that cover the whole motion of
//!   both colliders (a sphere around the center of mass swept along its path, so any rotation is
//!   covered);
//! - bullet pairs are cast once, by the bullet with the smaller handle;
//! - a moving pair stops when the full shapes are `allowed_linear_error` apart, whatever their
//!   radii (upstream's proxy target lets round shapes sink `allowed_linear_error` deep instead,
//!   which misses grazing and tangent contacts and clamps late);
//! - every dynamic body in a hit takes the earliest fraction over all its pairs and is clamped
//!   along the motion model that fraction was computed on (endpoint sweep, or constant velocity
//!   with exact rotation for the nonlinear cast); kinematic bodies are never clamped (their motion
//!   is the user's); velocities are kept: the next step's contacts resolve the collision.
//!
//! All pairs are cast on the same (post non-bullet pass) motions and the per-body minimum is
//! order-independent, so the result does not depend on iteration order or thread count.

use crate::alloc_prelude::*;
use crate::dynamics::{CcdPersistentContactPolicy, RigidBody, RigidBodyHandle, RigidBodySet};
use crate::geometry::{Collider, ColliderHandle, ColliderSet};
use crate::math::{Pose, Real, Vector};
use crate::parry::bounding_volume::{Aabb, BoundingVolume};
use crate::parry::partitioning::Bvh;
use crate::pipeline::PhysicsHooks;
use parry::query::sweep_toi::{
    Sweep, SweepToiOutput, SweepToiStatus, ToiProxy, sweep_time_of_impact_with_target,
};
use parry::query::{NonlinearRigidMotion, QueryDispatcher};

use super::persistent_contact::{PersistentTarget, Window, resolve_persistent};
use super::sweeps::{
    BodyContinuousResult, FastColliderInfo, FastShapeKind, FastSubShape, PseudoHit,
    cast_collider_pair, intersect_swept_aabb, is_composite_shape, is_fixed_target,
    pair_filtered_out_by_hooks,
};

/// The motion model a time of impact was computed on. A clamped body follows the same model:
/// mixing them was measured to cost ~10 cm of penetration at high spin rates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum MotionModel {
    /// Linear center-of-mass interpolation + rotation nlerp between the endpoint poses.
    Endpoint,
    /// Constant linear and angular velocity (exact rotation), as `cast_shapes_nonlinear`.
    Nonlinear,
    /// The step cut into this many equal pieces of the [`Nonlinear`](Self::Nonlinear) motion,
    /// each swept as an endpoint sweep (see [`piece_count`]).
    Pieces(u32),
}

/// `rb`'s pose at `fraction` of its step along `model`: where a clamp to that fraction puts it.
pub(super) fn clamped_pose(rb: &RigidBody, model: MotionModel, fraction: Real, dt: Real) -> Pose {
    match model {
        MotionModel::Endpoint => Sweep::from_poses(
            &rb.pos.position,
            &rb.pos.next_position,
            rb.mprops.local_mprops.local_com,
        )
        .transform_at(fraction),
        MotionModel::Nonlinear => nonlinear_motion(rb, 1.0 / dt).position_at_time(fraction * dt),
        MotionModel::Pieces(n) => {
            let motion = nonlinear_motion(rb, 1.0 / dt);
            let scaled = fraction * n as Real;
            let k = (scaled as u32).min(n - 1);
            let at = |k: u32| motion.position_at_time(k as Real / n as Real * dt);
            Sweep::from_poses(&at(k), &at(k + 1), rb.mprops.local_mprops.local_com)
                .transform_at(scaled - k as Real)
        }
    }
}

/// The largest rotation of one endpoint sweep: upstream's own per-step cap for bodies without
/// `allow_fast_rotation` (π/4; "≥ 0.5π per step breaks CCD").
const PIECE_ROTATION: Real = crate::dynamics::solver::MAX_ROTATION;

/// How many pieces a pair's step is swept in: 1 while neither body turns more than twice
/// [`PIECE_ROTATION`] this step (every body under upstream's cap), otherwise enough that no
/// piece turns either body more than [`PIECE_ROTATION`]. An endpoint sweep nlerps its rotation
/// the short way round, so a body turning more than half a turn per step would be swept turning
/// the wrong way.
fn piece_count(rb1: &RigidBody, rb2: &RigidBody, dt: Real) -> u32 {
    let turn = |rb: &RigidBody| unwrapped_rotation(rb, dt).length();
    let turn = turn(rb1).max(turn(rb2));
    if turn <= 2.0 * PIECE_ROTATION {
        1
    } else {
        (turn / PIECE_ROTATION).ceil() as u32
    }
}

/// `rb`'s rotation over the step as a rotation vector: the one reaching its end pose from its
/// start pose that is nearest its angular velocity times `dt`. The poses alone give the rotation
/// modulo a turn, the short way round; the velocity says how many turns, and which way.
fn unwrapped_rotation(rb: &RigidBody, dt: Real) -> Vector {
    let short = rb.pos.pose_errors(rb.mprops.local_mprops.local_com).angular;
    let angle = short.length();
    if angle == 0.0 {
        return short;
    }
    let axis = short / angle;
    let full = core::f64::consts::TAU as Real;
    let turns = ((rb.vels.angvel.dot(axis) * dt - angle) / full).round();
    if turns == 0.0 {
        short
    } else {
        axis * (angle + turns * full)
    }
}

/// Where a dynamic body stops: the earliest fraction of its step over all its pairs.
#[derive(Copy, Clone, Debug)]
pub(super) struct Clamp {
    pub(super) handle: RigidBodyHandle,
    pub(super) fraction: Real,
    pub(super) model: MotionModel,
    /// Translation added after the clamp: a body stopped by a kinematic body is carried along
    /// the kinematic's remaining motion, so it ends the step where the pair touched.
    pub(super) carry: Vector,
}

/// One solid hit of a bullet's pair: the bullet, and the other body if it can be clamped.
struct PairHit {
    fraction: Real,
    model: MotionModel,
    bullet: RigidBodyHandle,
    /// The other body if it is dynamic and moves this step (fixed, kinematic and resting bodies
    /// are never clamped).
    other: Option<RigidBodyHandle>,
    /// The bullet's carry (see [`Clamp::carry`]): non-zero only against a kinematic body.
    carry: Vector,
}

/// Is `co` (attached to `rb`) a target that moves with its body during the step?
fn is_moving_target(rb: Option<&RigidBody>, co: &Collider) -> bool {
    !is_fixed_target(rb) && !co.is_deformable_collider() && !rb.is_some_and(|b| b.is_soft_frame())
}

/// The world pose of `co` at the start and at the end of its body's step.
fn collider_poses(rb: &RigidBody, co: &Collider) -> Option<(Pose, Pose)> {
    let parent = co.parent.as_ref()?;
    Some((
        rb.pos.position * parent.pos_wrt_parent,
        rb.pos.next_position * parent.pos_wrt_parent,
    ))
}

/// Bounds covering every pose of `co` along its body's motion this step, loosened by `margin`:
/// the sphere about the body's center of mass that contains the collider in any orientation,
/// swept along the center of mass' straight path (both motion models move it on that line
/// for the endpoint sweep; for the nonlinear one it is the same line at constant velocity).
fn motion_bounds(rb: &RigidBody, co: &Collider, margin: Real) -> Option<Aabb> {
    let path = ComPath::new(rb, co)?;
    let half = Vector::splat(path.radius + margin);
    Some(
        Aabb::new(path.start - half, path.start + half)
            .merged(&Aabb::new(path.end - half, path.end + half)),
    )
}

/// A collider's center-of-mass path this step: the body's center of mass moves from `start` to
/// `end` on a straight line at constant speed in both motion models, and the collider stays
/// within `radius` of it in any orientation.
#[derive(Copy, Clone)]
struct ComPath {
    start: Vector,
    end: Vector,
    radius: Real,
}

impl ComPath {
    fn new(rb: &RigidBody, co: &Collider) -> Option<Self> {
        let parent = co.parent.as_ref()?;
        let local_com = rb.mprops.local_mprops.local_com;
        let sphere = co.shape.compute_local_bounding_sphere();
        let center_in_body = parent.pos_wrt_parent.transform_point(sphere.center);
        Some(Self {
            start: rb.pos.position.transform_point(local_com),
            end: rb.pos.next_position.transform_point(local_com),
            radius: (center_in_body - local_com).length() + sphere.radius,
        })
    }

    /// Can the two colliders come within `margin` of each other during the step? Both centers
    /// move uniformly in the same normalized time, so their closest approach, less the two radii,
    /// bounds the colliders' distance from below at every instant.
    fn may_come_within(&self, other: &ComPath, margin: Real) -> bool {
        let d0 = self.start - other.start;
        let dd = (self.end - self.start) - (other.end - other.start);
        let len2 = dd.length_squared();
        let t = if len2 > 0.0 {
            (-d0.dot(dd) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (d0 + dd * t).length() <= self.radius + other.radius + margin
    }
}

/// The enabled colliders of kinematic/dynamic bodies with their [`motion_bounds`], in handle
/// order. Built once per step, after the non-bullet pass: the broad phase's own tree holds
/// start-of-step bounds only. A flat scan of this list per bullet measured cheaper than building
/// and walking a BVH over it every step (catalog scenes of 100–200 bullets).
pub(super) struct MovingTargets {
    list: Vec<(ColliderHandle, Aabb)>,
    /// The bullets this pass sweeps (`bullets` of [`Self::collect`]), sorted by handle.
    sweepers: Vec<RigidBodyHandle>,
}

impl MovingTargets {
    /// The moving targets of this step; `bullets` are the bodies the pass sweeps (awake,
    /// CCD-active bullets), any order.
    pub(super) fn collect(
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
        margin: Real,
        bullets: &[RigidBodyHandle],
    ) -> Self {
        let list = colliders
            .iter_enabled()
            .filter_map(|(ch, co)| {
                let rb = bodies.get(co.parent.as_ref()?.handle)?;
                if !is_moving_target(Some(rb), co) {
                    return None;
                }
                Some((ch, motion_bounds(rb, co, margin)?))
            })
            .collect();
        let mut sweepers = bullets.to_vec();
        sweepers.sort_unstable_by_key(|h| h.into_raw_parts());
        Self { list, sweepers }
    }

    /// Whether the pass sweeps `body` itself. A bullet that is not moving fast this step (or is
    /// asleep) is not swept: it is only ever a target.
    fn is_swept(&self, body: RigidBodyHandle) -> bool {
        self.sweepers
            .binary_search_by_key(&body.into_raw_parts(), |h| h.into_raw_parts())
            .is_ok()
    }

    /// The targets whose bounds intersect `bounds`, in handle order.
    fn intersecting<'a>(&'a self, bounds: &'a Aabb) -> impl Iterator<Item = ColliderHandle> + 'a {
        self.list.iter().filter(move |(_, aabb)| aabb.intersects(bounds)).map(|(ch, _)| *ch)
    }
}

/// Constant-velocity motion of `rb` reproducing its start → end step (exact at both ends up to
/// rounding): the nonlinear model, derived from the poses, with the whole turns the angular
/// velocity adds to them ([`unwrapped_rotation`]).
pub(super) fn nonlinear_motion(rb: &RigidBody, inv_dt: Real) -> NonlinearRigidMotion {
    let local_com = rb.mprops.local_mprops.local_com;
    let vels = rb.pos.interpolate_velocity(inv_dt, local_com);
    let angvel = if inv_dt == 0.0 {
        vels.angvel
    } else {
        unwrapped_rotation(rb, 1.0 / inv_dt) * inv_dt
    };
    NonlinearRigidMotion::new(rb.pos.position, local_com, vels.linvel, angvel)
}

/// Accepts a cast's fraction like upstream: pseudo pairs report any impact up to the bound,
/// solid pairs only strictly inside `(0, max_fraction)` (fraction 0 is a persistent contact,
/// left to the persistent-contact policy).
fn accept(fraction: Real, max_fraction: Real, is_pseudo: bool) -> Option<Real> {
    if is_pseudo {
        (fraction <= max_fraction).then_some(fraction)
    } else {
        (0.0 < fraction && fraction < max_fraction).then_some(fraction)
    }
}

/// The time of impact of two convex proxies that both move during the step, as the
/// `ccd_relative_motion` pass computes it: both endpoint sweeps in the same normalized time, the
/// full shapes stopping `linear_slop` apart (within upstream's tolerance of `linear_slop / 4`)
/// whatever their radii. Public so conformance tests can check exactly what the pass calls.
pub fn moving_pair_time_of_impact(
    proxy1: &ToiProxy,
    sweep1: &Sweep,
    proxy2: &ToiProxy,
    sweep2: &Sweep,
    max_fraction: Real,
    linear_slop: Real,
) -> SweepToiOutput {
    let target = proxy1.radius + proxy2.radius + linear_slop;
    sweep_time_of_impact_with_target(
        proxy1,
        sweep1,
        proxy2,
        sweep2,
        max_fraction,
        target,
        0.25 * linear_slop,
    )
}

/// One piece of a moving pair's step: the fractions `[first, first + 1 / pieces]` of the step,
/// swept as endpoint sweeps.
struct PieceCast {
    first: Real,
    pieces: u32,
}

impl PieceCast {
    /// The model a clamp to one of this piece's fractions follows: the endpoint sweep of the
    /// whole step, or of its pieces.
    fn model(&self) -> MotionModel {
        if self.pieces == 1 {
            MotionModel::Endpoint
        } else {
            MotionModel::Pieces(self.pieces)
        }
    }

    /// The step fraction of the piece's own fraction `local`.
    fn global(&self, local: Real) -> Real {
        self.first + local / self.pieces as Real
    }

    /// The piece's own fraction bound for the step fraction bound `max_fraction`.
    fn local(&self, max_fraction: Real) -> Real {
        ((max_fraction - self.first) * self.pieces as Real).min(1.0)
    }

    /// Sweeps the fast collider's pieces `subs` (swept over this piece) against the target
    /// (`sweep2` over this piece) and applies the persistent-contact `policy` to the pieces that
    /// start the piece in contact. Returns the earliest hit as a step fraction.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        dispatcher: &dyn QueryDispatcher,
        fast: &FastColliderInfo,
        subs: &[FastSubShape],
        co2: &Collider,
        rb2: &RigidBody,
        proxy2: &ToiProxy,
        sweep2: Sweep,
        max_fraction: Real,
        dt: Real,
        linear_slop: Real,
        is_pseudo: bool,
        policy: CcdPersistentContactPolicy,
    ) -> Option<(Real, MotionModel)> {
        let mut best = None;
        let mut max_fraction = max_fraction;
        let mut persistent = Vec::new();
        for sub in subs {
            let output = moving_pair_time_of_impact(
                proxy2,
                &sweep2,
                &sub.proxy,
                &sub.sweep,
                self.local(max_fraction),
                linear_slop,
            );
            if output.status == SweepToiStatus::Separated {
                continue;
            }
            if let Some(local) = accept(output.fraction, self.local(max_fraction), is_pseudo) {
                let fraction = self.global(local);
                best = Some((fraction, self.model()));
                max_fraction = fraction;
            } else if output.fraction == 0.0
                && !is_pseudo
                && policy != CcdPersistentContactPolicy::Upstream
            {
                persistent.push(sub);
            }
        }
        if !persistent.is_empty() && dt != 0.0 {
            let inv_dt = 1.0 / dt;
            let target = PersistentTarget::moving(co2, rb2, proxy2, sweep2, inv_dt)?;
            let pair_toi = |pa: &ToiProxy, sa: &Sweep, pb: &ToiProxy, sb: &Sweep, max: Real| {
                let mut output =
                    moving_pair_time_of_impact(pa, sa, pb, sb, self.local(max), linear_slop);
                output.fraction = self.global(output.fraction);
                output
            };
            let window = Window {
                from: self.first,
                max_fraction: max_fraction.min(self.global(1.0)),
                cast_end: self.global(1.0),
            };
            if let Some((fraction, model)) = resolve_persistent(
                policy,
                dispatcher,
                fast,
                &persistent,
                &target,
                window,
                dt,
                pair_toi,
            ) {
                let model = if model == MotionModel::Endpoint {
                    self.model()
                } else {
                    model
                };
                best = Some((fraction, model));
            }
        }
        best
    }
}

/// Casts the bullet's collider against a moving target on both motions; a solid pair that starts
/// in contact goes to the persistent-contact `policy`.
#[allow(clippy::too_many_arguments)]
fn cast_moving_pair(
    dispatcher: &dyn QueryDispatcher,
    fast: &FastColliderInfo,
    co2: &Collider,
    rb2: &RigidBody,
    max_fraction: Real,
    dt: Real,
    linear_slop: Real,
    is_pseudo: bool,
    policy: CcdPersistentContactPolicy,
) -> Option<(Real, MotionModel)> {
    let (start2, end2) = collider_poses(rb2, co2)?;
    let shape2 = co2.shape.as_ref();
    let sub_shapes = match &fast.kind {
        FastShapeKind::Convex(sub) => Some(core::slice::from_ref(sub)),
        FastShapeKind::Compound(children) => Some(children.as_slice()),
        FastShapeKind::Nonlinear => None,
    };

    let inv_dt = if dt == 0.0 { 0.0 } else { 1.0 / dt };
    if let (Some(sub_shapes), Some(proxy2)) = (sub_shapes, ToiProxy::from_shape(shape2)) {
        let parent2 = co2.parent.as_ref()?;
        let local_com2 = parent2
            .pos_wrt_parent
            .inverse_transform_point(rb2.mprops.local_mprops.local_com);
        let pieces = if dt == 0.0 {
            1
        } else {
            piece_count(fast.body, rb2, dt)
        };
        if pieces == 1 {
            let sweep2 = Sweep::from_poses(&start2, &end2, local_com2);
            let cast = PieceCast {
                first: 0.0,
                pieces: 1,
            };
            return cast.run(
                dispatcher,
                fast,
                sub_shapes,
                co2,
                rb2,
                &proxy2,
                sweep2,
                max_fraction,
                dt,
                linear_slop,
                is_pseudo,
                policy,
            );
        }
        // A body turning past twice the piece rotation: the step is swept piece by piece along
        // the nonlinear motion, and the first piece with a hit ends the search.
        let parent1 = fast.collider.parent.as_ref()?;
        let local_com1 = parent1
            .pos_wrt_parent
            .inverse_transform_point(fast.body.mprops.local_mprops.local_com);
        let motion1 = nonlinear_motion(fast.body, inv_dt).prepend(parent1.pos_wrt_parent);
        let motion2 = nonlinear_motion(rb2, inv_dt).prepend(parent2.pos_wrt_parent);
        let at = |motion: &NonlinearRigidMotion, k: u32| {
            motion.position_at_time(k as Real / pieces as Real * dt)
        };
        for k in 0..pieces {
            let cast = PieceCast {
                first: k as Real / pieces as Real,
                pieces,
            };
            if cast.first >= max_fraction {
                break;
            }
            let fast_k = FastColliderInfo::new(
                fast.collider,
                fast.body,
                &at(&motion1, k),
                &at(&motion1, k + 1),
                local_com1,
            )?;
            let sub_k = match &fast_k.kind {
                FastShapeKind::Convex(sub) => core::slice::from_ref(sub),
                FastShapeKind::Compound(children) => children.as_slice(),
                FastShapeKind::Nonlinear => return None,
            };
            let sweep2 = Sweep::from_poses(&at(&motion2, k), &at(&motion2, k + 1), local_com2);
            let hit = cast.run(
                dispatcher,
                &fast_k,
                sub_k,
                co2,
                rb2,
                &proxy2,
                sweep2,
                max_fraction,
                dt,
                linear_slop,
                is_pseudo,
                policy,
            );
            if hit.is_some() {
                return hit;
            }
        }
        return None;
    }

    // Shapes without a point-cloud proxy on either side (cylinders, cones, composites, custom
    // shapes): one nonlinear cast over both constant-velocity motions.
    if dt == 0.0 {
        return None;
    }
    let parent1 = fast.collider.parent.as_ref()?;
    let parent2 = co2.parent.as_ref()?;
    let motion1 = nonlinear_motion(fast.body, inv_dt).prepend(parent1.pos_wrt_parent);
    let motion2 = nonlinear_motion(rb2, inv_dt).prepend(parent2.pos_wrt_parent);
    let hit = dispatcher
        .cast_shapes_nonlinear(
            &motion1,
            fast.collider.shape.as_ref(),
            &motion2,
            shape2,
            0.0,
            dt,
            is_pseudo, // Sensors stop at the first penetration.
        )
        .ok()??;
    let fraction = hit.time_of_impact / dt;
    // Already the full-shape cast policy 2 asks for: honour its fraction 0 too.
    if fraction == 0.0 && !is_pseudo && policy == CcdPersistentContactPolicy::CoreSphereFixedTargets
    {
        return Some((0.0, MotionModel::Nonlinear));
    }
    accept(fraction, max_fraction, is_pseudo).map(|f| (f, MotionModel::Nonlinear))
}

/// The model upstream's [`cast_collider_pair`] used for a non-moving target.
fn static_pair_model(fast: &FastColliderInfo, shape2: &dyn parry::shape::Shape) -> MotionModel {
    let nonlinear = matches!(fast.kind, FastShapeKind::Nonlinear)
        || (ToiProxy::from_shape(shape2).is_none() && !is_composite_shape(shape2));
    if nonlinear {
        MotionModel::Nonlinear
    } else {
        MotionModel::Endpoint
    }
}

/// What one bullet's sweep found.
pub(super) struct BulletSweep {
    hits: Vec<PairHit>,
    pseudo_hits: Vec<PseudoHit>,
}

/// Sweeps every collider of the bullet `handle`: first against non-moving targets (upstream's
/// cast, through the broad-phase BVH), then against `moving` targets on both motions, bounded by
/// the earliest non-moving hit (the bullet never gets past it).
#[allow(clippy::too_many_arguments)]
pub(super) fn sweep_bullet(
    handle: RigidBodyHandle,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    bvh: &Bvh,
    moving: &MovingTargets,
    dispatcher: &dyn QueryDispatcher,
    hooks: &dyn PhysicsHooks,
    dt: Real,
    linear_slop: Real,
    policy: CcdPersistentContactPolicy,
) -> BulletSweep {
    let rb1 = &bodies[handle];
    let mut result = BulletSweep {
        hits: Vec::new(),
        pseudo_hits: Vec::new(),
    };
    let mut static_best: Real = 1.0;
    let mut static_model = MotionModel::Endpoint;
    let mut fast_colliders = Vec::new();

    for ch1 in &rb1.colliders.0 {
        let co1 = &colliders[*ch1];
        let Some((start, end)) = collider_poses(rb1, co1) else {
            continue;
        };
        let parent1 = co1.parent.as_ref().unwrap();
        let local_com = parent1
            .pos_wrt_parent
            .inverse_transform_point(rb1.mprops.local_mprops.local_com);
        let Some(fast) = FastColliderInfo::new(co1, rb1, &start, &end, local_com) else {
            continue; // Never-swept shape (mesh, heightfield, polyline, voxels).
        };
        let swept_aabb = co1.shape.compute_aabb(&start).merged(&co1.shape.compute_aabb(&end));
        for (ch2, co2) in intersect_swept_aabb(bvh, colliders, swept_aabb) {
            let bh2 = co2.parent.map(|p| p.handle);
            let rb2 = bh2.and_then(|h| bodies.get(h));
            if ch2 == *ch1 || bh2 == Some(handle) || is_moving_target(rb2, co2) {
                continue;
            }
            let Some(is_pseudo) = pair_kind(hooks, bodies, colliders, co1, co2, *ch1, ch2, handle, bh2)
            else {
                continue;
            };
            let bound = if is_pseudo { 1.0 } else { static_best };
            if let Some((f, model)) = cast_collider_pair(
                dispatcher,
                &fast,
                co2,
                rb2,
                bound,
                dt,
                linear_slop,
                is_pseudo,
                policy,
            ) {
                if is_pseudo {
                    result.pseudo_hits.push(PseudoHit { ch1: *ch1, ch2, fraction: f });
                } else {
                    static_best = f;
                    // A persistent-contact full-shape hit is nonlinear whatever the shapes.
                    static_model = match model {
                        MotionModel::Endpoint => static_pair_model(&fast, co2.shape.as_ref()),
                        other => other,
                    };
                }
            }
        }
        fast_colliders.push((*ch1, co1, fast));
    }

    if static_best < 1.0 {
        result.hits.push(PairHit {
            fraction: static_best,
            model: static_model,
            bullet: handle,
            other: None,
            carry: Vector::ZERO,
        });
    }

    for (ch1, co1, fast) in &fast_colliders {
        let (Some(bounds1), Some(path1)) =
            (motion_bounds(rb1, co1, linear_slop), ComPath::new(rb1, co1))
        else {
            continue;
        };
        for ch2 in moving.intersecting(&bounds1) {
            let co2 = &colliders[ch2];
            let Some(bh2) = co2.parent.map(|p| p.handle) else {
                continue;
            };
            if bh2 == handle {
                continue;
            }
            let rb2 = &bodies[bh2];
            // A pair of two swept bullets is cast once, by the one with the smaller handle.
            if moving.is_swept(bh2) && bh2.into_raw_parts() < handle.into_raw_parts() {
                continue;
            }
            // A pair that never comes within twice the slop cannot reach the sweep's target
            // separation plus its tolerance (1.25 slop), nor touch: every cast would miss.
            if !ComPath::new(rb2, co2)
                .is_some_and(|path2| path1.may_come_within(&path2, 2.0 * linear_slop))
            {
                continue;
            }
            let Some(is_pseudo) =
                pair_kind(hooks, bodies, colliders, co1, co2, *ch1, ch2, handle, Some(bh2))
            else {
                continue;
            };
            let bound = if is_pseudo { 1.0 } else { static_best };
            let Some((fraction, model)) = cast_moving_pair(
                dispatcher,
                fast,
                co2,
                rb2,
                bound,
                dt,
                linear_slop,
                is_pseudo,
                policy,
            ) else {
                continue;
            };
            if is_pseudo {
                result.pseudo_hits.push(PseudoHit { ch1: *ch1, ch2, fraction });
            } else {
                let moves = rb2.is_dynamic() && rb2.pos.position != rb2.pos.next_position;
                // A kinematic body is never clamped and keeps moving after the impact: the
                // bullet rides along its remaining translation instead of being left in its path.
                let carry = if rb2.is_kinematic() {
                    let com = rb2.mprops.local_mprops.local_com;
                    let delta = rb2.pos.next_position.transform_point(com)
                        - rb2.pos.position.transform_point(com);
                    delta * (1.0 - fraction)
                } else {
                    Vector::ZERO
                };
                result.hits.push(PairHit {
                    fraction,
                    model,
                    bullet: handle,
                    other: moves.then_some(bh2),
                    carry,
                });
            }
        }
    }
    result
}

/// `None` if the pair must not be swept (collision groups, the user's pair filter); otherwise
/// whether it is a pseudo pair (sensor, or mismatched solver groups) — exactly upstream's rules.
#[allow(clippy::too_many_arguments)]
fn pair_kind(
    hooks: &dyn PhysicsHooks,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    co1: &Collider,
    co2: &Collider,
    ch1: ColliderHandle,
    ch2: ColliderHandle,
    bh1: RigidBodyHandle,
    bh2: Option<RigidBodyHandle>,
) -> Option<bool> {
    if !co1.flags.collision_groups.test(co2.flags.collision_groups) {
        return None;
    }
    if pair_filtered_out_by_hooks(hooks, bodies, colliders, co1, co2, ch1, ch2, bh1, bh2) {
        return None;
    }
    Some(co1.is_sensor() || co2.is_sensor() || !co1.flags.solver_groups.test(co2.flags.solver_groups))
}

/// Turns the bullets' sweeps into per-body clamps (each dynamic body's earliest pair; ties go
/// to the endpoint model) and the per-bullet results used for sensor events.
pub(super) fn resolve(
    bullets: &[RigidBodyHandle],
    sweeps: Vec<BulletSweep>,
) -> (Vec<Clamp>, Vec<BodyContinuousResult>) {
    let mut clamps: Vec<Clamp> = Vec::new();
    let mut results = Vec::with_capacity(bullets.len());
    for sweep in &sweeps {
        for hit in &sweep.hits {
            let bullet = (hit.bullet, hit.carry);
            for (handle, carry) in core::iter::once(bullet).chain(hit.other.map(|h| (h, Vector::ZERO))) {
                clamps.push(Clamp {
                    handle,
                    fraction: hit.fraction,
                    model: hit.model,
                    carry,
                });
            }
        }
    }
    // Earliest first, then a total order on the handle: the surviving clamp per body does not
    // depend on the order the bullets were swept in.
    clamps.sort_by(|a, b| {
        a.handle
            .into_raw_parts()
            .cmp(&b.handle.into_raw_parts())
            .then(a.fraction.total_cmp(&b.fraction))
            .then(a.model.cmp(&b.model))
            .then(a.carry.x.total_cmp(&b.carry.x))
            .then(a.carry.y.total_cmp(&b.carry.y))
            .then(a.carry.z.total_cmp(&b.carry.z))
    });
    clamps.dedup_by_key(|c| c.handle);

    for (handle, sweep) in bullets.iter().zip(sweeps) {
        let (fraction, model) = clamps
            .binary_search_by(|c| c.handle.into_raw_parts().cmp(&handle.into_raw_parts()))
            .map(|i| (clamps[i].fraction, clamps[i].model))
            .unwrap_or((1.0, MotionModel::Endpoint));
        results.push(BodyContinuousResult {
            handle: *handle,
            fraction,
            model,
            pseudo_hits: sweep.pseudo_hits,
        });
    }
    (clamps, results)
}

/// Clamps each body's `next_position` to its fraction, along its model. Pose only.
pub(super) fn apply_clamps(bodies: &mut RigidBodySet, clamps: &[Clamp], dt: Real) {
    for clamp in clamps {
        let rb = bodies.index_mut_internal(clamp.handle);
        let clamped = clamped_pose(rb, clamp.model, clamp.fraction, dt);
        rb.pos.next_position = if clamp.carry == Vector::ZERO {
            clamped
        } else {
            clamped.append_translation(clamp.carry)
        };
    }
}
