//! How a body moves during the continuous pass: the motion models a time of impact is computed
//! on, and the pose a clamp to a fraction of the step puts the body at (rapier-pinned patch).
//!
//! One rule for a step of zero length (`dt == 0`): nothing moves, so there is no
//! constant-velocity motion ([`step_motion`] is `None`) and only endpoint sweeps apply.

use crate::dynamics::{RigidBody, RigidBodyHandle, RigidBodySet};
use crate::math::{Pose, Real, Vector};
use parry::query::NonlinearRigidMotion;
use parry::query::sweep_toi::Sweep;

/// The motion model a time of impact was computed on. A clamped body follows the same model:
/// mixing them was measured to cost ~10 cm of penetration at high spin rates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum MotionModel {
    /// Linear center-of-mass interpolation + rotation nlerp between the endpoint poses.
    Endpoint,
    /// Constant linear and angular velocity (exact rotation), as `cast_shapes_nonlinear`: see
    /// [`step_motion`].
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

/// `rb`'s constant-velocity motion over a step of length `dt` (see [`nonlinear_motion`]), or
/// `None` for a step of zero length, which has no velocity.
pub(super) fn step_motion(rb: &RigidBody, dt: Real) -> Option<NonlinearRigidMotion> {
    (dt != 0.0).then(|| nonlinear_motion(rb, 1.0 / dt))
}

/// Constant-velocity motion of `rb` reproducing its start → end step (exact at both ends up to
/// rounding): derived from the poses, with the whole turns the angular velocity adds to them
/// ([`unwrapped_rotation`]). `inv_dt` is not zero.
fn nonlinear_motion(rb: &RigidBody, inv_dt: Real) -> NonlinearRigidMotion {
    let local_com = rb.mprops.local_mprops.local_com;
    let vels = rb.pos.interpolate_velocity(inv_dt, local_com);
    let angvel = unwrapped_rotation(rb, 1.0 / inv_dt) * inv_dt;
    NonlinearRigidMotion::new(rb.pos.position, local_com, vels.linvel, angvel)
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

/// The largest rotation of one endpoint sweep: upstream's own per-step cap for bodies without
/// `allow_fast_rotation` (π/4; "≥ 0.5π per step breaks CCD").
const SLICE_ROTATION: Real = crate::dynamics::solver::MAX_ROTATION;

/// How many slices a pair's step is swept in: 1 while neither body turns more than twice
/// [`SLICE_ROTATION`] this step (every body under upstream's cap) or the step has zero length,
/// otherwise enough that no slice turns either body more than [`SLICE_ROTATION`]. An endpoint
/// sweep nlerps its rotation the short way round, so a body turning more than half a turn per
/// step would be swept turning the wrong way.
pub(super) fn slice_count(rb1: &RigidBody, rb2: &RigidBody, dt: Real) -> u32 {
    if dt == 0.0 {
        return 1;
    }
    let turn = |rb: &RigidBody| unwrapped_rotation(rb, dt).length();
    let turn = turn(rb1).max(turn(rb2));
    if turn <= 2.0 * SLICE_ROTATION {
        1
    } else {
        (turn / SLICE_ROTATION).ceil() as u32
    }
}
