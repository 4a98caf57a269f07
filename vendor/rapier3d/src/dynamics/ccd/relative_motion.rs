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
//! - a pair of two bullets this pass sweeps is cast once, by the bullet with the smaller handle;
//! - a moving pair stops when the full shapes are `allowed_linear_error` apart, whatever their
//!   radii (upstream's proxy target lets round shapes sink `allowed_linear_error` deep instead,
//!   which misses grazing and tangent contacts and clamps late);
//! - a pair with a body turning more than half a turn in the step is swept in time slices of at
//!   most π/4 of rotation each, since an endpoint sweep turns the short way round;
//! - every dynamic body in a hit takes the earliest fraction over all its pairs and is clamped
//!   along the motion model that fraction was computed on; kinematic bodies are never clamped
//!   (their motion is the user's); velocities are kept: the next step's contacts resolve the
//!   collision.
//!
//! All pairs are cast on the same (post non-bullet pass) motions and the per-body minimum is
//! order-independent, so the result does not depend on iteration order or thread count.

use crate::alloc_prelude::*;
use crate::dynamics::{
    CcdPersistentContactPolicy, CcdRelativeMotion, RigidBody, RigidBodyHandle, RigidBodySet,
};
use crate::geometry::{Collider, ColliderHandle, ColliderSet};
use crate::math::{Pose, Real, Vector};
use crate::parry::partitioning::Bvh;
use crate::pipeline::PhysicsHooks;
use arrayvec::ArrayVec;
use parry::query::sweep_toi::{Sweep, SweepToiStatus, ToiProxy, sweep_time_of_impact_full_shapes};
use parry::query::{NonlinearRigidMotion, QueryDispatcher};

use super::bounds::proven_apart;
use super::motion::{BodyStep, BodySteps, Clamp, MotionModel, slice_count};
use super::moving_targets::{ComPath, MovingTargets, PruneAxis};
use super::persistent_contact::{
    FastCollider, PairCast, PersistentTarget, TouchingSubShape, Window, core_sphere_touches,
    resolve_persistent,
};
use super::sweeps::{
    BodyContinuousResult, CcdTargets, FastBodyRule, FastColliderInfo, FastShapeKind, FastSubShape,
    PseudoHit, PseudoHitMode, SubShapeCast, SweepContext, cast_sub_shapes, ordered,
    pair_filtered_out_by_hooks, sweep_fast_body_with,
};

/// One solid hit of a bullet's pair: the bullet, and the other body if it can be clamped.
struct PairHit {
    fraction: Real,
    model: MotionModel,
    bullet: RigidBodyHandle,
    /// The other body if it is dynamic and moves this step (fixed, kinematic and resting bodies
    /// are never clamped).
    other: Option<RigidBodyHandle>,
    /// The bullet's [`Clamp::ride_along`]: non-zero only against a kinematic body.
    ride_along: Vector,
}

/// The world pose of `co` at the start and at the end of its body's step.
fn collider_poses(rb: &RigidBody, co: &Collider) -> Option<(Pose, Pose)> {
    let parent = co.parent.as_ref()?;
    Some((
        rb.pos.position * parent.pos_wrt_parent,
        rb.pos.next_position * parent.pos_wrt_parent,
    ))
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

/// The fast collider's convex sub-shapes, or `None` for the nonlinear fallback kind.
fn sub_shapes<'f>(fast: &'f FastColliderInfo) -> Option<&'f [FastSubShape<'f>]> {
    match &fast.kind {
        FastShapeKind::Convex(sub) => Some(core::slice::from_ref(sub)),
        FastShapeKind::Compound(children) => Some(children.as_slice()),
        FastShapeKind::Nonlinear => None,
    }
}

/// One time slice of a moving pair's step: the step fractions `[first, first + 1 / count]`,
/// swept as endpoint sweeps.
struct Slice {
    first: Real,
    count: u32,
}

impl Slice {
    /// The model a clamp to one of this slice's fractions follows: the endpoint sweep of the
    /// whole step, or of its slices.
    fn model(&self) -> MotionModel {
        if self.count == 1 {
            MotionModel::Endpoint
        } else {
            MotionModel::Slices(self.count)
        }
    }

    /// The step fraction of the slice's own fraction `in_slice`.
    fn step_fraction(&self, in_slice: Real) -> Real {
        self.first + in_slice / self.count as Real
    }

    /// The slice's own fraction bound for the step fraction bound `max_fraction`.
    fn slice_bound(&self, max_fraction: Real) -> Real {
        ((max_fraction - self.first) * self.count as Real).min(1.0)
    }
}

/// A bullet's collider against one moving target with a point-cloud proxy.
struct MovingPair<'a> {
    co2: &'a Collider,
    rb2: &'a RigidBody,
    proxy2: &'a ToiProxy<'a>,
    /// Both bodies' constant-velocity motions ([`BodyStep::motion`]), the bullet's first.
    motions: [Option<NonlinearRigidMotion>; 2],
    is_pseudo: bool,
}

/// Whether a pair is cast as solid or pseudo (sensor, or mismatched solver groups).
#[derive(Copy, Clone, PartialEq, Eq)]
enum PairKind {
    Solid,
    Pseudo,
}

/// What one bullet's sweep found.
pub(super) struct BulletSweep {
    hits: Vec<PairHit>,
    pseudo_hits: Vec<PseudoHit>,
    /// Policy 3's crossed pairs (see [`BodyContinuousResult::crossings`]).
    crossings: Vec<(ColliderHandle, ColliderHandle)>,
    /// See [`BodyContinuousResult::fixed_contact`].
    fixed_contact: bool,
}

/// The relative-motion pass of one step: what every bullet's sweep shares. Built after the
/// non-bullet pass, whose clamps its poses include.
pub(super) struct BulletPass<'a> {
    bodies: &'a RigidBodySet,
    colliders: &'a ColliderSet,
    bvh: &'a Bvh,
    dispatcher: &'a dyn QueryDispatcher,
    moving: MovingTargets,
    dt: Real,
    linear_slop: Real,
    policy: CcdPersistentContactPolicy,
    /// The most time slices a moving pair is swept in (`None`: as many as its turn needs).
    max_slices: Option<u32>,
}

/// How many of a bullet's swept colliders [`BulletPass::sweep_bullet`] keeps without allocating.
const KEPT_COLLIDERS: usize = 4;

impl<'a> BulletPass<'a> {
    /// The pass over `bullets` (awake, CCD-active bullets, any order); `bvh` holds the
    /// broad phase's start-of-step bounds; `mode` bounds the time slices or not; `axis` is the
    /// pruning axis kept from pass to pass.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        bodies: &'a RigidBodySet,
        colliders: &'a ColliderSet,
        bvh: &'a Bvh,
        dispatcher: &'a dyn QueryDispatcher,
        bullets: &[RigidBodyHandle],
        dt: Real,
        linear_slop: Real,
        policy: CcdPersistentContactPolicy,
        mode: CcdRelativeMotion,
        axis: &mut PruneAxis,
    ) -> Self {
        Self {
            bodies,
            colliders,
            bvh,
            dispatcher,
            moving: MovingTargets::collect(bodies, colliders, linear_slop, bullets, axis),
            dt,
            linear_slop,
            policy,
            max_slices: mode.max_slices(),
        }
    }

    /// Sweeps every collider of the bullet `handle`: first against the targets that do not move
    /// (upstream's sweep, through the broad-phase BVH), then against the moving targets on both
    /// motions, bounded by the earliest still hit (the bullet never gets past it).
    pub(super) fn sweep_bullet(
        &self,
        handle: RigidBodyHandle,
        hooks: &dyn PhysicsHooks,
    ) -> BulletSweep {
        // The bullet's swept colliders, for the moving targets once the still ones bound them:
        // the first few without allocating (most bullets have one).
        let mut fast_colliders = ArrayVec::<_, KEPT_COLLIDERS>::new();
        let mut more_colliders = Vec::new();
        let steps = BodySteps::new(self.dt);
        // Without a still collider, the walk of the tree would only find moving targets.
        let targets = match self.moving.still {
            0 => CcdTargets::Lists {
                fixed: &[],
                soft: &[],
            },
            _ => CcdTargets::FullBvh(self.bvh),
        };
        let still = sweep_fast_body_with(
            handle,
            self.bodies,
            self.colliders,
            self.bodies[handle].pos.next_position,
            targets,
            SweepContext {
                rule: FastBodyRule::StillTargets,
                ..SweepContext::new(
                    (self.dispatcher, hooks),
                    self.dt,
                    self.linear_slop,
                    PseudoHitMode::Record,
                    self.policy,
                    &steps,
                )
            },
            |ch1, fast| {
                if let Err(full) = fast_colliders.try_push((ch1, fast)) {
                    more_colliders.push(full.element());
                }
            },
        );
        let mut sweep = BulletSweep {
            hits: Vec::new(),
            pseudo_hits: still.pseudo_hits,
            crossings: still.crossings,
            fixed_contact: still.fixed_contact,
        };
        if still.fraction < 1.0 {
            sweep.hits.push(PairHit {
                fraction: still.fraction,
                model: still.model,
                bullet: handle,
                other: None,
                ride_along: Vector::ZERO,
            });
        }
        for (ch1, fast) in fast_colliders.iter().chain(&more_colliders) {
            let bound = still.fraction;
            self.sweep_moving_targets(handle, *ch1, fast, bound, hooks, &steps, &mut sweep);
        }
        sweep
    }

    /// Sweeps the bullet `handle`'s collider `ch1` (`fast`) against every moving target it may
    /// reach, solid pairs bounded by `bound`, into `sweep`; `steps` are the bodies' steps of this
    /// bullet's sweep.
    #[allow(clippy::too_many_arguments)]
    fn sweep_moving_targets(
        &self,
        handle: RigidBodyHandle,
        ch1: ColliderHandle,
        fast: &FastColliderInfo,
        bound: Real,
        hooks: &dyn PhysicsHooks,
        steps: &BodySteps,
        sweep: &mut BulletSweep,
    ) {
        let co1 = fast.collider;
        // The collider's entry in the list has its path and bounds (the same margin).
        let entry1 = MovingTargets::index_of(&self.moving.list, ch1);
        let (path1, bounds1) = match entry1 {
            Some(i) => (self.moving.list[i].path, self.moving.list[i].bounds),
            None => {
                let Some(path) = ComPath::new(fast.body, co1) else {
                    return;
                };
                (path, path.bounds(self.linear_slop))
            }
        };
        for target in self.moving.intersecting(&bounds1, entry1, handle) {
            let ch2 = target.collider;
            let co2 = &self.colliders[ch2];
            let bh2 = target.body;
            if !target.is_cast_by(handle) || !self.may_reach(&path1, &target.path) {
                continue;
            }
            let rb2 = &self.bodies[bh2];
            let Some(kind) = pair_kind(
                hooks,
                self.bodies,
                self.colliders,
                co1,
                co2,
                ch1,
                ch2,
                handle,
                Some(bh2),
            ) else {
                continue;
            };
            let is_pseudo = kind == PairKind::Pseudo;
            let bound = if is_pseudo { 1.0 } else { bound };
            let pair_steps = [steps.of(handle, fast.body), steps.of(bh2, rb2)];
            let cast = self.cast_moving_pair(fast, co2, rb2, pair_steps, bound, is_pseudo);
            if cast.crossed {
                sweep.crossings.push(ordered(ch1, ch2));
            }
            let Some((fraction, model)) = cast.hit else {
                continue;
            };
            if is_pseudo {
                sweep.pseudo_hits.push(PseudoHit { ch1, ch2, fraction });
            } else {
                let hit = moving_pair_hit(handle, rb2, bh2, fraction, model);
                sweep.hits.push(hit);
            }
        }
    }

    /// Whether a collider whose centre-of-mass path is `path1` can come within reach of the
    /// moving target whose path is `path2`. A pair that never comes within twice the slop cannot
    /// reach the sweep's target separation plus its tolerance (1.25 slop), nor touch: every cast
    /// would miss.
    fn may_reach(&self, path1: &ComPath, path2: &ComPath) -> bool {
        path1.may_come_within(path2, 2.0 * self.linear_slop)
    }

    /// Casts the bullet's collider against a moving target on both motions: in time slices when
    /// a body turns fast (see [`slice_count`]), as one nonlinear cast for shapes without a
    /// point-cloud proxy. A solid pair that starts in contact goes to the persistent-contact
    /// policy (which may flag it as crossing).
    fn cast_moving_pair(
        &self,
        fast: &FastColliderInfo,
        co2: &Collider,
        rb2: &RigidBody,
        [step1, step2]: [BodyStep; 2],
        max_fraction: Real,
        is_pseudo: bool,
    ) -> PairCast<(Real, MotionModel)> {
        let Some((start2, end2)) = collider_poses(rb2, co2) else {
            return PairCast::default();
        };
        let motions = [step1.motion, step2.motion];
        let Some(proxy2) =
            ToiProxy::from_shape(co2.shape.as_ref()).filter(|_| sub_shapes(fast).is_some())
        else {
            return self.cast_moving_nonlinear(fast, co2, rb2, motions, max_fraction, is_pseudo);
        };
        let pair = MovingPair {
            co2,
            rb2,
            proxy2: &proxy2,
            motions,
            is_pseudo,
        };
        let Some(parent2) = co2.parent.as_ref() else {
            return PairCast::default();
        };
        let local_com2 = parent2
            .pos_wrt_parent
            .inverse_transform_point(rb2.mprops.local_mprops.local_com);
        let count = slice_count(&step1, &step2, self.max_slices);
        if count == 1 {
            let sweep2 = Sweep::from_poses(&start2, &end2, local_com2);
            let slice = Slice { first: 0.0, count };
            self.cast_slice(&pair, &slice, fast, sweep2, max_fraction)
        } else {
            self.cast_in_slices(&pair, fast, count, max_fraction)
        }
    }

    /// A moving pair with a body turning fast, swept slice by slice along the nonlinear motion:
    /// the first slice with a hit ends the search (a crossing flagged before it is kept).
    fn cast_in_slices(
        &self,
        pair: &MovingPair,
        fast: &FastColliderInfo,
        count: u32,
        max_fraction: Real,
    ) -> PairCast<(Real, MotionModel)> {
        let dt = self.dt;
        let (Some(parent1), Some(parent2)) = (&fast.collider.parent, &pair.co2.parent) else {
            return PairCast::default();
        };
        let [Some(motion1), Some(motion2)] = pair.motions else {
            return PairCast::default();
        };
        let local_com1 = parent1
            .pos_wrt_parent
            .inverse_transform_point(fast.body.mprops.local_mprops.local_com);
        let local_com2 = parent2
            .pos_wrt_parent
            .inverse_transform_point(pair.rb2.mprops.local_mprops.local_com);
        let motion1 = motion1.prepend(parent1.pos_wrt_parent);
        let motion2 = motion2.prepend(parent2.pos_wrt_parent);
        let at = |motion: &NonlinearRigidMotion, k: u32| {
            motion.position_at_time(k as Real / count as Real * dt)
        };
        let mut crossed = false;
        for k in 0..count {
            let slice = Slice {
                first: k as Real / count as Real,
                count,
            };
            if slice.first >= max_fraction {
                break;
            }
            let (start1, end1) = (at(&motion1, k), at(&motion1, k + 1));
            let Some(fast_k) =
                FastColliderInfo::new(fast.collider, fast.body, &start1, &end1, local_com1)
            else {
                break;
            };
            let sweep2 = Sweep::from_poses(&at(&motion2, k), &at(&motion2, k + 1), local_com2);
            let cast = self.cast_slice(pair, &slice, &fast_k, sweep2, max_fraction);
            crossed |= cast.crossed;
            if cast.hit.is_some() {
                return PairCast { crossed, ..cast };
            }
        }
        PairCast {
            crossed,
            ..PairCast::default()
        }
    }

    /// Sweeps the fast collider (swept over `slice` as `fast`) against the target (`sweep2` over
    /// `slice`), then applies the persistent-contact policy to the sub-shapes that start the
    /// slice in contact. Returns the earliest hit as a step fraction.
    fn cast_slice(
        &self,
        pair: &MovingPair,
        slice: &Slice,
        fast: &FastColliderInfo,
        sweep2: Sweep,
        max_fraction: Real,
    ) -> PairCast<(Real, MotionModel)> {
        let Some(subs) = sub_shapes(fast) else {
            return PairCast::default();
        };
        let collect_touching = !pair.is_pseudo && self.policy.resolves_persistent_contacts();
        let mut touching = Vec::new();
        let best = cast_sub_shapes(
            subs,
            max_fraction,
            collect_touching.then_some(&mut touching),
            |sub, max_fraction| {
                let bound = slice.slice_bound(max_fraction);
                let (proxy1, sweep1) = (&sub.proxy, &sub.sweep);
                if self.policy.skips_bounded_work()
                    && proven_apart(
                        pair.proxy2,
                        &sweep2,
                        proxy1,
                        sweep1,
                        bound,
                        self.linear_slop,
                    )
                {
                    return SubShapeCast::Miss; // Policy 4: the cast would find nothing.
                }
                let output = sweep_time_of_impact_full_shapes(
                    pair.proxy2,
                    &sweep2,
                    &sub.proxy,
                    &sub.sweep,
                    bound,
                    self.linear_slop,
                );
                if output.status == SweepToiStatus::Separated {
                    SubShapeCast::Miss
                } else if let Some(fraction) = accept(output.fraction, bound, pair.is_pseudo) {
                    SubShapeCast::Hit(slice.step_fraction(fraction))
                } else if output.fraction == 0.0 && !pair.is_pseudo {
                    SubShapeCast::Touching
                } else {
                    SubShapeCast::Miss
                }
            },
        );
        let hit = best.map(|fraction| (fraction, slice.model()));
        if touching.is_empty() {
            return hit.into();
        }
        let bound = best.unwrap_or(max_fraction);
        let resolved = self.resolve_touching(pair, slice, fast, sweep2, &touching, bound);
        let hit = match resolved.hit {
            Some((fraction, MotionModel::Endpoint)) => Some((fraction, slice.model())),
            Some(other) => Some(other),
            None => hit,
        };
        PairCast { hit, ..resolved }
    }

    /// Applies the persistent-contact policy to the `touching` sub-shapes of a slice's cast
    /// (see [`Self::cast_slice`]), hits accepted before `max_fraction`.
    fn resolve_touching(
        &self,
        pair: &MovingPair,
        slice: &Slice,
        fast: &FastColliderInfo,
        sweep2: Sweep,
        touching: &[TouchingSubShape],
        max_fraction: Real,
    ) -> PairCast<(Real, MotionModel)> {
        let Some(target) = PersistentTarget::moving(pair.co2, pair.motions[1], pair.proxy2, sweep2)
        else {
            return PairCast::default();
        };
        let pair_toi = |pa: &ToiProxy, sa: &Sweep, pb: &ToiProxy, sb: &Sweep, max: Real| {
            let bound = slice.slice_bound(max);
            let mut output =
                sweep_time_of_impact_full_shapes(pa, sa, pb, sb, bound, self.linear_slop);
            output.fraction = slice.step_fraction(output.fraction);
            output
        };
        let window = Window {
            from: slice.first,
            max_fraction: max_fraction.min(slice.step_fraction(1.0)),
            cast_end: slice.step_fraction(1.0),
        };
        let fast = FastCollider {
            collider: fast.collider,
            body_motion: pair.motions[0],
        };
        resolve_persistent(
            self.policy,
            self.dispatcher,
            fast,
            touching,
            &target,
            window,
            self.dt,
            pair_toi,
        )
    }

    /// A moving pair where either shape has no point-cloud proxy (cylinders, cones, composites,
    /// custom shapes): one nonlinear cast over both constant-velocity motions. Policy 2 honours
    /// its fraction 0 (it is already the full-shape cast that policy asks for); policy 5 flags a
    /// pair that starts in contact as crossing when the fast collider's core sphere reaches the
    /// target ([`Self::core_reaches`]), as policy 3 flags a piece with a proxy.
    fn cast_moving_nonlinear(
        &self,
        fast: &FastColliderInfo,
        co2: &Collider,
        rb2: &RigidBody,
        [motion1, motion2]: [Option<NonlinearRigidMotion>; 2],
        max_fraction: Real,
        is_pseudo: bool,
    ) -> PairCast<(Real, MotionModel)> {
        let (Some(parent1), Some(parent2)) = (&fast.collider.parent, &co2.parent) else {
            return PairCast::default();
        };
        let (Some(body1), Some(body2)) = (motion1, motion2) else {
            return PairCast::default();
        };
        let hit = self.dispatcher.cast_shapes_nonlinear(
            &body1.prepend(parent1.pos_wrt_parent),
            fast.collider.shape.as_ref(),
            &body2.prepend(parent2.pos_wrt_parent),
            co2.shape.as_ref(),
            0.0,
            self.dt,
            is_pseudo, // Sensors stop at the first penetration.
        );
        let Some(hit) = hit.ok().flatten() else {
            return PairCast::default();
        };
        let fraction = hit.time_of_impact / self.dt;
        if fraction == 0.0 && !is_pseudo {
            if self.policy.casts_full_shape_against_moving_targets() {
                return Some((0.0, MotionModel::Nonlinear)).into();
            }
            if self.policy.keeps_side() {
                let crossed = self.core_reaches(fast, co2, rb2, body2);
                return PairCast {
                    crossed,
                    ..PairCast::default()
                };
            }
        }
        (accept(fraction, max_fraction, is_pseudo))
            .map(|f| (f, MotionModel::Nonlinear))
            .into()
    }

    /// Whether the core sphere of the fast collider (a ball at its centroid, `CORE_FRACTION` of
    /// its thickness wide) reaches the moving target `co2` (of body `rb2`, moving along
    /// `motion2`) on both colliders' endpoint sweeps of the step: the fast collider is going
    /// through the target, not around it. `false` when the target has no point-cloud proxy.
    fn core_reaches(
        &self,
        fast: &FastColliderInfo,
        co2: &Collider,
        rb2: &RigidBody,
        motion2: NonlinearRigidMotion,
    ) -> bool {
        let shape1 = fast.collider.shape.as_ref();
        let Some(proxy2) = ToiProxy::from_shape(co2.shape.as_ref()) else {
            return false;
        };
        let sweep = |rb: &RigidBody, co: &Collider| {
            let (start, end) = collider_poses(rb, co)?;
            let parent = co.parent.as_ref()?;
            let local_com =
                (parent.pos_wrt_parent).inverse_transform_point(rb.mprops.local_mprops.local_com);
            Some(Sweep::from_poses(&start, &end, local_com))
        };
        let (Some(sweep1), Some(sweep2)) = (sweep(fast.body, fast.collider), sweep(rb2, co2))
        else {
            return false;
        };
        let sub = TouchingSubShape::new(
            sweep1,
            shape1.mass_properties(1.0).local_com,
            shape1.ccd_thickness(),
        );
        PersistentTarget::moving(co2, Some(motion2), &proxy2, sweep2)
            .is_some_and(|target| core_sphere_touches(&target, &sub))
    }
}

/// How the pair is swept, or `None` if it must not be (collision groups, the user's pair
/// filter): exactly upstream's rules.
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
) -> Option<PairKind> {
    if !co1.flags.collision_groups.test(co2.flags.collision_groups) {
        return None;
    }
    if pair_filtered_out_by_hooks(hooks, bodies, colliders, co1, co2, ch1, ch2, bh1, bh2) {
        return None;
    }
    let pseudo = co1.is_sensor()
        || co2.is_sensor()
        || !co1.flags.solver_groups.test(co2.flags.solver_groups);
    Some(if pseudo {
        PairKind::Pseudo
    } else {
        PairKind::Solid
    })
}

/// The hit of the bullet `bullet` against the moving body `rb2` (`bh2`) at `fraction`: the other
/// body is clamped too if it is dynamic and moves this step; against a kinematic body, which is
/// never clamped and keeps moving after the impact, the bullet rides along its remaining
/// translation instead of being left in its path.
fn moving_pair_hit(
    bullet: RigidBodyHandle,
    rb2: &RigidBody,
    bh2: RigidBodyHandle,
    fraction: Real,
    model: MotionModel,
) -> PairHit {
    let moves = rb2.is_dynamic() && rb2.pos.position != rb2.pos.next_position;
    let ride_along = if rb2.is_kinematic() {
        let com = rb2.mprops.local_mprops.local_com;
        let delta =
            rb2.pos.next_position.transform_point(com) - rb2.pos.position.transform_point(com);
        delta * (1.0 - fraction)
    } else {
        Vector::ZERO
    };
    PairHit {
        fraction,
        model,
        bullet,
        other: moves.then_some(bh2),
        ride_along,
    }
}

/// Turns the bullets' sweeps into per-body clamps (each dynamic body's earliest pair; ties go
/// to the endpoint model) and the per-bullet results used for sensor events.
pub(super) fn bullet_clamps(
    bullets: &[RigidBodyHandle],
    sweeps: Vec<BulletSweep>,
) -> (Vec<Clamp>, Vec<BodyContinuousResult>) {
    let mut clamps: Vec<Clamp> = Vec::new();
    for sweep in &sweeps {
        for hit in &sweep.hits {
            let bullet = (hit.bullet, hit.ride_along);
            let other = hit.other.map(|h| (h, Vector::ZERO));
            for (handle, ride_along) in core::iter::once(bullet).chain(other) {
                clamps.push(Clamp {
                    handle,
                    fraction: hit.fraction,
                    model: hit.model,
                    ride_along,
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
            .then(a.ride_along.x.total_cmp(&b.ride_along.x))
            .then(a.ride_along.y.total_cmp(&b.ride_along.y))
            .then(a.ride_along.z.total_cmp(&b.ride_along.z))
    });
    clamps.dedup_by_key(|c| c.handle);

    let results = bullets
        .iter()
        .zip(sweeps)
        .map(|(handle, sweep)| {
            let (fraction, model) = clamps
                .binary_search_by(|c| c.handle.into_raw_parts().cmp(&handle.into_raw_parts()))
                .map(|i| (clamps[i].fraction, clamps[i].model))
                .unwrap_or((1.0, MotionModel::Endpoint));
            BodyContinuousResult {
                handle: *handle,
                fraction,
                model,
                pseudo_hits: sweep.pseudo_hits,
                crossings: sweep.crossings,
                fixed_contact: sweep.fixed_contact,
            }
        })
        .collect();
    (clamps, results)
}
