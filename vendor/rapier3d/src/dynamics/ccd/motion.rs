//! How a body moves during the continuous pass: the motion models a time of impact is computed
//! on, and the pose a clamp to a fraction of the step puts the body at (rapier-pinned patch).
//!
//! One rule for a step of zero length (`dt == 0`): nothing moves, so there is no
//! constant-velocity motion ([`BodyStep::motion`] is `None`) and only endpoint sweeps apply.

use crate::control::PdErrors;
use crate::dynamics::{RigidBody, RigidBodyHandle, RigidBodySet};
use crate::math::{Pose, Real, Vector};
use arrayvec::ArrayVec;
use core::cell::RefCell;
use parry::query::NonlinearRigidMotion;
use parry::query::sweep_toi::Sweep;

/// The motion model a time of impact was computed on. A clamped body follows the same model:
/// mixing them was measured to cost ~10 cm of penetration at high spin rates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum MotionModel {
    /// Linear center-of-mass interpolation + rotation nlerp between the endpoint poses.
    Endpoint,
    /// Constant linear and angular velocity (exact rotation), as `cast_shapes_nonlinear`: see
    /// [`BodyStep::motion`].
    Nonlinear,
    /// The step cut into this many equal slices of the [`Nonlinear`](Self::Nonlinear) motion,
    /// each swept as an endpoint sweep (see [`slice_count`]).
    Slices(u32),
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
        MotionModel::Slices(n) => {
            let motion = nonlinear_motion(rb, 1.0 / dt);
            let scaled = fraction * n as Real;
            let k = (scaled as u32).min(n - 1);
            let at = |k: u32| motion.position_at_time(k as Real / n as Real * dt);
            Sweep::from_poses(&at(k), &at(k + 1), rb.mprops.local_mprops.local_com)
                .transform_at(scaled - k as Real)
        }
    }
}

/// Where a dynamic body stops: a fraction of its step along a motion model.
#[derive(Copy, Clone, Debug)]
pub(super) struct Clamp {
    pub(super) handle: RigidBodyHandle,
    pub(super) fraction: Real,
    pub(super) model: MotionModel,
    /// Translation added after the clamp: a body stopped by a kinematic body rides along the
    /// kinematic's remaining motion, so it ends the step where the pair touched.
    pub(super) ride_along: Vector,
}

/// Moves each clamped body's `next_position` to its [`clamped_pose`]. Pose only: velocities are
/// kept, and the next step's contacts resolve the collision.
pub(super) fn apply_clamps(
    bodies: &mut RigidBodySet,
    clamps: impl IntoIterator<Item = Clamp>,
    dt: Real,
) {
    for clamp in clamps {
        let rb = bodies.index_mut_internal(clamp.handle);
        let clamped = clamped_pose(rb, clamp.model, clamp.fraction, dt);
        rb.pos.next_position = if clamp.ride_along == Vector::ZERO {
            clamped
        } else {
            clamped.append_translation(clamp.ride_along)
        };
    }
}

/// [`BodyStep::motion`] for a step of length `1 / inv_dt` (`inv_dt` is not zero).
fn nonlinear_motion(rb: &RigidBody, inv_dt: Real) -> NonlinearRigidMotion {
    let local_com = rb.mprops.local_mprops.local_com;
    let errors = rb.pos.pose_errors(local_com);
    motion_from_errors(rb, &errors, inv_dt)
}

/// Constant-velocity motion of `rb` reproducing its start → end step (exact at both ends up to
/// rounding), from the step's pose `errors`: their translation, and their rotation with the
/// whole turns the angular velocity adds to it ([`unwrapped_rotation`]). `inv_dt` is not zero.
fn motion_from_errors(rb: &RigidBody, errors: &PdErrors, inv_dt: Real) -> NonlinearRigidMotion {
    let local_com = rb.mprops.local_mprops.local_com;
    let linvel = errors.linear * inv_dt;
    let angvel = unwrapped_rotation(rb, errors.angular, 1.0 / inv_dt) * inv_dt;
    NonlinearRigidMotion::new(rb.pos.position, local_com, linvel, angvel)
}

/// `rb`'s rotation over the step as a rotation vector: the one reaching its end pose from its
/// start pose (`short`, the short way round, as the pose errors give it) that is nearest its
/// angular velocity times `dt`. The poses alone give the rotation modulo a turn; the velocity
/// says how many turns, and which way.
fn unwrapped_rotation(rb: &RigidBody, short: Vector, dt: Real) -> Vector {
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

/// What the continuous pass needs of one body's step, derived once from its pose errors (the
/// costly part): its constant-velocity motion and how far it turns.
#[derive(Copy, Clone)]
pub(super) struct BodyStep {
    /// The constant-velocity motion reproducing the step ([`motion_from_errors`]); `None` for a
    /// step of zero length, which has no velocity.
    pub(super) motion: Option<NonlinearRigidMotion>,
    /// The angle the body turns this step (0 for a step of zero length), for [`slice_count`]
    /// and policy 4's face bound.
    pub(super) turn: Real,
}

impl BodyStep {
    /// `rb`'s step of length `dt`.
    fn new(rb: &RigidBody, dt: Real) -> Self {
        if dt == 0.0 {
            return Self {
                motion: None,
                turn: 0.0,
            };
        }
        let errors = rb.pos.pose_errors(rb.mprops.local_mprops.local_com);
        Self {
            motion: Some(motion_from_errors(rb, &errors, 1.0 / dt)),
            turn: unwrapped_rotation(rb, errors.angular, dt).length(),
        }
    }
}

/// The [`BodyStep`]s of one sweep, each computed the first time it is asked for: a bullet's
/// sweep asks again for its own and each target's with every pair. Local to one sweep, so
/// nothing is shared between threads; the values do not depend on the order they are asked in.
pub(super) struct BodySteps {
    dt: Real,
    /// The first [`Self::KEPT`] bodies' steps; any further one is computed each time.
    known: RefCell<ArrayVec<(RigidBodyHandle, BodyStep), { BodySteps::KEPT }>>,
}

impl BodySteps {
    /// How many steps a sweep keeps: a bullet and the few bodies it meets, without allocating.
    const KEPT: usize = 8;

    /// No step known yet, for a step of length `dt`. Inline: built for every sweep, and out of
    /// line its few hundred bytes are copied on each return.
    #[inline]
    pub(super) fn new(dt: Real) -> Self {
        Self {
            dt,
            known: RefCell::new(ArrayVec::new()),
        }
    }

    /// The step of `rb`, whose handle is `handle`.
    pub(super) fn of(&self, handle: RigidBodyHandle, rb: &RigidBody) -> BodyStep {
        if let Some((_, step)) = self.known.borrow().iter().find(|(h, _)| *h == handle) {
            return *step;
        }
        let step = BodyStep::new(rb, self.dt);
        let _ = self.known.borrow_mut().try_push((handle, step));
        step
    }
}

/// The largest rotation of one endpoint sweep: upstream's own per-step cap for bodies without
/// `allow_fast_rotation` (π/4; "≥ 0.5π per step breaks CCD").
const SLICE_ROTATION: Real = crate::dynamics::solver::MAX_ROTATION;

/// How many slices a pair's step is swept in: 1 while neither body turns more than twice
/// [`SLICE_ROTATION`] this step (every body under upstream's cap) or the step has zero length,
/// otherwise enough that no slice turns either body more than [`SLICE_ROTATION`]. An endpoint
/// sweep nlerps its rotation the short way round, so a body turning more than half a turn per
/// step would be swept turning the wrong way. With `max` (a bounded relative motion), never more
/// than `max`: a turn past `max` slices of [`SLICE_ROTATION`], or one that is not a number, takes
/// `max`.
pub(super) fn slice_count(step1: &BodyStep, step2: &BodyStep, max: Option<u32>) -> u32 {
    let turn = step1.turn.max(step2.turn);
    if turn <= 2.0 * SLICE_ROTATION {
        return 1;
    }
    let count = (turn / SLICE_ROTATION).ceil();
    match max {
        Some(max) if count.is_nan() || count > max as Real => max,
        _ => count as u32,
    }
}
