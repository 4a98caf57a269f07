//! The thin-part measurements, on a moving part and a thin cuboid target.
//!
//! - *Strict pass-through (frame count)*: between two consecutive frames the part's centre changes
//!   side of the target's mid-plane while the part lies within the target's face extent on both
//!   frames ([`strict_pass_through`]). "Within the face" is the part's bounding box (in the
//!   target's frame) on each face axis along which the part is narrower than the face, and the
//!   part's centre on each axis along which it is not ([`side_and_face`]): a part as wide as the
//!   face (a vehicle's guard against another's) never has its bounding box within it, and a
//!   convex part whose centre crosses the mid-plane within the face went through the target
//!   there, because the centre is a point of the part.
//! - *Cleared*: two frames cannot tell a pass-through from a target turning past the part (going
//!   around its tip). A frame-strict step may be cleared only when the constant-velocity motion
//!   between the frames is provably the step's path and shows no crossing within the face
//!   ([`clears`]): both bodies' linear and angular velocities agree at the two frames within
//!   [`VELOCITY_TOLERANCE`] (no impulse changed the motion during the step), the two shapes do
//!   not touch anywhere along that motion (a nonlinear shape cast), and the part's centre
//!   crosses the mid-plane along it only outside the face ([`crosses_within_face`]). Otherwise
//!   the frame count stands. The gated count is the frame count minus the cleared steps.
//! - *End-of-frame penetration*: the contact depth between the two shapes at the frame's poses.
//!
//! Nothing here turns a failure into a zero: a non-finite pose, velocity or depth, or a query
//! parry cannot answer, is an [`Err`] naming it.

use crate::error::CcdEvalError;
use rapier3d::math::{Pose, Real};
use rapier3d::parry::query::{self, NonlinearRigidMotion};
use rapier3d::parry::shape::Shape;
use rapier3d::prelude::*;

/// A part/target pair's state at one frame, in the target's frame.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// Signed distance of the part's centre from the target's mid-plane.
    pub side: Real,
    /// Whether the part lies within the target's face extent (see the module docs).
    pub within_face: bool,
    /// Penetration depth (0 if apart).
    pub penetration: Real,
}

/// How much a body's velocity may change between two frames for the step between them to count
/// as constant-velocity motion: 1% of the larger speed plus 1 mm/s (linear) or 1 mrad/s
/// (angular). Free flight in zero gravity keeps it exactly (up to the gyroscopic term); a
/// contact impulse during the step does not.
pub const VELOCITY_TOLERANCE: (Real, Real) = (0.01, 1e-3);

/// The target's thin axis (0, 1 or 2) and its half-extents: the smallest half-extent.
fn thin_axis(target: &Cuboid) -> usize {
    let he = target.half_extents;
    if he.x <= he.y && he.x <= he.z {
        0
    } else if he.y <= he.z {
        1
    } else {
        2
    }
}

/// The part's side of the target's mid-plane and whether it lies within the face extent: on
/// each face axis its bounding box if it is narrower than the face there, else its centre.
pub fn side_and_face(
    part: &dyn Shape,
    part_pose: &Pose,
    target: &Cuboid,
    target_pose: &Pose,
) -> (Real, bool) {
    let axis = thin_axis(target);
    let rel = target_pose.inv_mul(part_pose);
    let aabb = part.compute_aabb(&rel);
    let he = target.half_extents;
    let within_face = (0..3).filter(|i| *i != axis).all(|i| {
        if aabb.maxs[i] - aabb.mins[i] < 2.0 * he[i] {
            aabb.mins[i] >= -he[i] && aabb.maxs[i] <= he[i]
        } else {
            rel.translation[i].abs() <= he[i]
        }
    });
    (rel.translation[axis], within_face)
}

/// `Err` naming `what` unless every number is finite.
fn finite(what: &str, values: &[Real]) -> Result<(), CcdEvalError> {
    match values.iter().all(|v| v.is_finite()) {
        true => Ok(()),
        false => Err(CcdEvalError::NonFinite {
            what: what.to_string(),
            values: values.to_vec(),
        }),
    }
}

/// The 7 numbers of a pose.
fn pose_numbers(pose: &Pose) -> [Real; 7] {
    let (t, r) = (pose.translation, pose.rotation);
    [t.x, t.y, t.z, r.x, r.y, r.z, r.w]
}

/// Measures the pair at poses `part_pose` / `target_pose` (the colliders' world poses).
pub fn frame(
    part: &dyn Shape,
    part_pose: &Pose,
    target: &Cuboid,
    target_pose: &Pose,
) -> Result<Frame, CcdEvalError> {
    finite("part pose", &pose_numbers(part_pose))?;
    finite("target pose", &pose_numbers(target_pose))?;
    let (side, within_face) = side_and_face(part, part_pose, target, target_pose);
    let contact = query::contact(target_pose, target, part_pose, part, 0.0)
        .map_err(|_| CcdEvalError::Unsupported("contact query"))?;
    let penetration = contact.map_or(0.0, |c| (-c.dist).max(0.0));
    finite("penetration depth", &[side, penetration])?;
    Ok(Frame {
        side,
        within_face,
        penetration,
    })
}

/// A collider at a frame: its world pose, its body's centre of mass (in the collider's frame)
/// and its body's linear and angular velocity over the step that ended at this frame.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    pub pose: Pose,
    pub local_com: Vector,
    pub linvel: Vector,
    pub angvel: Vector,
}

impl Placed {
    /// `Err` naming the non-finite number, if any.
    pub fn check_finite(&self, what: &str) -> Result<(), CcdEvalError> {
        finite(&format!("{what} pose"), &pose_numbers(&self.pose))?;
        finite(
            &format!("{what} velocity"),
            &[self.linvel.to_array(), self.angvel.to_array()].concat(),
        )
    }
}

/// The constant-velocity motion from `a` to `b` in `dt`: the centre of mass on a straight line,
/// the rotation reaching `b`'s pose with as many whole turns, and in the direction, that
/// `b.angvel × dt` says (two poses alone give the rotation modulo a turn, the short way round).
fn motion_between(a: &Placed, b: &Placed, dt: Real) -> NonlinearRigidMotion {
    let (c0, c1) = (
        a.pose.transform_point(a.local_com),
        b.pose.transform_point(b.local_com),
    );
    let short = (b.pose.rotation * a.pose.rotation.inverse()).to_scaled_axis();
    let angle = short.length();
    let rotation = if angle == 0.0 {
        short
    } else {
        let axis = short / angle;
        let turn = core::f64::consts::TAU as Real;
        axis * (angle + ((b.angvel.dot(axis) * dt - angle) / turn).round() * turn)
    };
    NonlinearRigidMotion::new(a.pose, a.local_com, (c1 - c0) / dt, rotation / dt)
}

/// Whether a body's velocities at two frames agree within [`VELOCITY_TOLERANCE`].
fn same_velocity(a: &Placed, b: &Placed) -> bool {
    let (relative, floor) = VELOCITY_TOLERANCE;
    let close =
        |x: Vector, y: Vector| (y - x).length() <= relative * x.length().max(y.length()) + floor;
    close(a.linvel, b.linvel) && close(a.angvel, b.angvel)
}

/// Followed along the constant-velocity motions of both colliders between two frames (`part`
/// and `target` at the first and at the second), does the part's centre cross the target's
/// mid-plane while the part lies within the face extent? Each crossing is found by sampling
/// the step and bisecting the sign change. A step whose model shows no crossing (both frames'
/// sides differ only by rounding) keeps the frames' verdict.
pub fn crosses_within_face(
    part_shape: &dyn Shape,
    part: (&Placed, &Placed),
    target_shape: &Cuboid,
    target: (&Placed, &Placed),
    dt: Real,
) -> bool {
    const SAMPLES: usize = 64;
    let (part_motion, target_motion) = (
        motion_between(part.0, part.1, dt),
        motion_between(target.0, target.1, dt),
    );
    let at = |s: Real| {
        side_and_face(
            part_shape,
            &part_motion.position_at_time(s * dt),
            target_shape,
            &target_motion.position_at_time(s * dt),
        )
    };
    let mut crossed = false;
    let (mut s0, mut prev) = (0.0, at(0.0));
    for k in 1..=SAMPLES {
        let s1 = k as Real / SAMPLES as Real;
        let next = at(s1);
        if (prev.0 > 0.0) != (next.0 > 0.0) {
            crossed = true;
            let (mut lo, mut hi) = (s0, s1);
            for _ in 0..32 {
                let mid = 0.5 * (lo + hi);
                if (at(mid).0 > 0.0) == (prev.0 > 0.0) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            if at(lo).1 && at(hi).1 {
                return true;
            }
        }
        (s0, prev) = (s1, next);
    }
    !crossed
}

/// Why a frame-strict step was not cleared (see the module docs), or `None` if it is cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stands {
    /// A body's velocity changed during the step: the constant-velocity path is not its path.
    VelocityChanged,
    /// The shapes touch somewhere along the constant-velocity path.
    ShapesTouch,
    /// Along that path the part's centre crosses the mid-plane within the face.
    CrossesWithinFace,
}

/// Whether the frame-strict step from the first to the second frame is cleared: `Ok(None)` if
/// it is, `Ok(Some(reason))` if the frame count stands, `Err` if the shape cast fails.
pub fn clears(
    part_shape: &dyn Shape,
    part: (&Placed, &Placed),
    target_shape: &Cuboid,
    target: (&Placed, &Placed),
    dt: Real,
) -> Result<Option<Stands>, CcdEvalError> {
    if !same_velocity(part.0, part.1) || !same_velocity(target.0, target.1) {
        return Ok(Some(Stands::VelocityChanged));
    }
    let (part_motion, target_motion) = (
        motion_between(part.0, part.1, dt),
        motion_between(target.0, target.1, dt),
    );
    let touch = query::cast_shapes_nonlinear(
        &target_motion,
        target_shape,
        &part_motion,
        part_shape,
        0.0,
        dt,
        true,
    )
    .map_err(|_| CcdEvalError::Unsupported("nonlinear shape cast"))?;
    if touch.is_some() {
        return Ok(Some(Stands::ShapesTouch));
    }
    if crosses_within_face(part_shape, part, target_shape, target, dt) {
        return Ok(Some(Stands::CrossesWithinFace));
    }
    Ok(None)
}

/// Is the step from `prev` to `next` a strict pass-through by the frames alone?
pub fn strict_pass_through(prev: &Frame, next: &Frame) -> bool {
    prev.within_face
        && next.within_face
        && (prev.side > 0.0) != (next.side > 0.0)
        && prev.side != 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: Real, y: Real) -> Pose {
        Pose::from_translation(Vector::new(x, y, 0.0))
    }

    #[test]
    fn crossing_the_plate_within_its_face_is_a_pass_through() {
        let plate = Cuboid::new(Vector::new(0.001, 0.5, 0.5));
        let ball = Ball::new(0.01);
        let before = frame(&ball, &pose(-0.1, 0.0), &plate, &pose(0.0, 0.0)).unwrap();
        let after = frame(&ball, &pose(0.1, 0.0), &plate, &pose(0.0, 0.0)).unwrap();
        assert!(strict_pass_through(&before, &after));
        // Going over the top (outside the face extent on one frame) is not.
        let above = frame(&ball, &pose(0.1, 0.6), &plate, &pose(0.0, 0.0)).unwrap();
        assert!(!strict_pass_through(&before, &above));
        // Staying on one side is not.
        let closer = frame(&ball, &pose(-0.02, 0.0), &plate, &pose(0.0, 0.0)).unwrap();
        assert!(!strict_pass_through(&before, &closer));
    }

    fn placed(x: Real, z: Real, angle: Real, spin: Real) -> Placed {
        Placed {
            pose: Pose::new(Vector::new(x, 0.0, z), Vector::new(0.0, angle, 0.0)),
            local_com: Vector::ZERO,
            linvel: Vector::ZERO,
            angvel: Vector::new(0.0, spin, 0.0),
        }
    }

    #[test]
    fn a_rotor_turning_past_the_part_outside_its_reach_is_not_a_pass_through() {
        // A 1 m rotor (thin along z) turning 3 rad in one 1/60 s step about y; a ball at rest.
        let rotor = Cuboid::new(Vector::new(0.5, 0.05, 0.001));
        let ball = Ball::new(0.01);
        let dt = 1.0 / 60.0;
        let (r0, r1) = (placed(0.0, 0.0, 0.0, 180.0), placed(0.0, 0.0, 3.0, 180.0));
        // 0.6 m from the axis, beyond the tip: on both frames within the face's extent in the
        // rotor's frame, on opposite sides of its mid-plane, yet never within reach.
        let p = placed(0.2, 0.5657, 0.0, 0.0);
        let (f0, f1) = (
            frame(&ball, &p.pose, &rotor, &r0.pose).unwrap(),
            frame(&ball, &p.pose, &rotor, &r1.pose).unwrap(),
        );
        assert!(
            strict_pass_through(&f0, &f1),
            "the frames alone call it one"
        );
        assert!(!crosses_within_face(
            &ball,
            (&p, &p),
            &rotor,
            (&r0, &r1),
            dt
        ));
        // 0.3 m from the axis the arm sweeps through the ball: a pass-through.
        let q = placed(0.1, 0.2828, 0.0, 0.0);
        let (g0, g1) = (
            frame(&ball, &q.pose, &rotor, &r0.pose).unwrap(),
            frame(&ball, &q.pose, &rotor, &r1.pose).unwrap(),
        );
        assert!(strict_pass_through(&g0, &g1));
        assert!(crosses_within_face(&ball, (&q, &q), &rotor, (&r0, &r1), dt));
    }

    #[test]
    fn a_part_crossing_a_still_plate_within_its_face_crosses_within_it() {
        let plate = Cuboid::new(Vector::new(0.001, 0.5, 0.5));
        let ball = Ball::new(0.01);
        let still = placed(0.0, 0.0, 0.0, 0.0);
        let (a, b) = (placed(-0.1, 0.0, 0.0, 0.0), placed(0.1, 0.0, 0.0, 0.0));
        assert!(crosses_within_face(
            &ball,
            (&a, &b),
            &plate,
            (&still, &still),
            1.0 / 60.0
        ));
    }

    #[test]
    fn penetration_is_the_contact_depth() {
        let plate = Cuboid::new(Vector::new(0.001, 0.5, 0.5));
        let ball = Ball::new(0.01);
        let f = frame(&ball, &pose(-0.005, 0.0), &plate, &pose(0.0, 0.0)).unwrap();
        assert!((f.penetration - 0.006).abs() < 1e-6, "{}", f.penetration);
        assert_eq!(
            frame(&ball, &pose(-0.5, 0.0), &plate, &pose(0.0, 0.0))
                .unwrap()
                .penetration,
            0.0
        );
    }

    #[test]
    fn a_step_is_cleared_only_when_its_constant_velocity_path_is_proven() {
        // The rotor case above, beyond the tip: cleared while the rotor spins steadily and the
        // shapes never touch.
        let rotor = Cuboid::new(Vector::new(0.5, 0.05, 0.001));
        let ball = Ball::new(0.01);
        let dt = 1.0 / 60.0;
        let (r0, r1) = (placed(0.0, 0.0, 0.0, 180.0), placed(0.0, 0.0, 3.0, 180.0));
        let p = placed(0.2, 0.5657, 0.0, 0.0);
        assert_eq!(
            clears(&ball, (&p, &p), &rotor, (&r0, &r1), dt).unwrap(),
            None
        );
        // The same frames with the rotor's spin changed by an impulse during the step: the frame
        // count stands.
        let r1_slowed = placed(0.0, 0.0, 3.0, 150.0);
        assert_eq!(
            clears(&ball, (&p, &p), &rotor, (&r0, &r1_slowed), dt).unwrap(),
            Some(Stands::VelocityChanged)
        );
        // Within reach of the arm: the shapes touch along the path.
        let q = placed(0.1, 0.2828, 0.0, 0.0);
        assert_eq!(
            clears(&ball, (&q, &q), &rotor, (&r0, &r1), dt).unwrap(),
            Some(Stands::ShapesTouch)
        );
    }

    #[test]
    fn a_part_wider_than_the_face_is_within_it_by_its_centre() {
        // A 1.2 m guard against a 1 m plate: its bounding box is never within the face, its
        // centre is when it faces the plate.
        let plate = Cuboid::new(Vector::new(0.001, 0.5, 0.5));
        let guard = Cuboid::new(Vector::new(0.001, 0.6, 0.6));
        let facing = frame(&guard, &pose(-0.1, 0.0), &plate, &pose(0.0, 0.0)).unwrap();
        let through = frame(&guard, &pose(0.1, 0.0), &plate, &pose(0.0, 0.0)).unwrap();
        assert!(facing.within_face && strict_pass_through(&facing, &through));
        assert!(
            !frame(&guard, &pose(0.1, 0.7), &plate, &pose(0.0, 0.0))
                .unwrap()
                .within_face
        );
    }

    #[test]
    fn non_finite_poses_are_errors_not_zeros() {
        let plate = Cuboid::new(Vector::new(0.001, 0.5, 0.5));
        let ball = Ball::new(0.01);
        let err = frame(&ball, &pose(Real::NAN, 0.0), &plate, &pose(0.0, 0.0)).unwrap_err();
        assert!(
            matches!(&err, CcdEvalError::NonFinite { what, .. } if what == "part pose"),
            "{err}"
        );
        assert!(
            err.to_string().starts_with("non-finite part pose: ["),
            "{err}"
        );
        let mut p = placed(0.0, 0.0, 0.0, 0.0);
        p.linvel.x = Real::INFINITY;
        assert!(p
            .check_finite("part")
            .unwrap_err()
            .to_string()
            .contains("non-finite part velocity"));
    }
}
