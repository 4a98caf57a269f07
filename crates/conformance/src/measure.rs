//! The measurements of design §6, on a moving part and a thin cuboid target.
//!
//! - *Strict pass-through*: between two consecutive frames the part's centre changes side of the
//!   target's mid-plane while the part's bounding box (in the target's frame) lies wholly within
//!   the target's face extent on both frames. Going around an edge or over the top is not one,
//!   which two frames cannot tell apart when the target turns more than half a turn between
//!   them: such a step is also followed along the constant-velocity motion between the frames,
//!   and counts only if the centre crosses the mid-plane within the face extent
//!   ([`crosses_within_face`]).
//! - *End-of-frame penetration*: the contact depth between the two shapes at the frame's poses.

use rapier3d::math::{Pose, Real};
use rapier3d::parry::query::{self, NonlinearRigidMotion};
use rapier3d::parry::shape::Shape;
use rapier3d::prelude::*;

/// A part/target pair's state at one frame, in the target's frame.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// Signed distance of the part's centre from the target's mid-plane.
    pub side: Real,
    /// Whether the part's bounding box lies within the target's face extent.
    pub within_face: bool,
    /// Penetration depth (0 if apart).
    pub penetration: Real,
}

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

/// The part's side of the target's mid-plane and whether it lies within the face extent.
fn side_and_face(part: &dyn Shape, part_pose: &Pose, target: &Cuboid, target_pose: &Pose) -> (Real, bool) {
    let axis = thin_axis(target);
    let rel = target_pose.inv_mul(part_pose);
    let aabb = part.compute_aabb(&rel);
    let he = target.half_extents;
    let within_face = (0..3).filter(|i| *i != axis).all(|i| aabb.mins[i] >= -he[i] && aabb.maxs[i] <= he[i]);
    (rel.translation[axis], within_face)
}

/// Measures the pair at poses `part_pose` / `target_pose` (the colliders' world poses).
pub fn frame(part: &dyn Shape, part_pose: &Pose, target: &Cuboid, target_pose: &Pose) -> Frame {
    let (side, within_face) = side_and_face(part, part_pose, target, target_pose);
    let penetration = query::contact(target_pose, target, part_pose, part, 0.0)
        .ok()
        .flatten()
        .map(|c| (-c.dist).max(0.0))
        .unwrap_or(0.0);
    Frame { side, within_face, penetration }
}

/// A collider at a frame: its world pose, its body's centre of mass (in the collider's frame)
/// and its body's angular velocity over the step that ended at this frame.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    pub pose: Pose,
    pub local_com: Vector,
    pub angvel: Vector,
}

/// The constant-velocity motion from `a` to `b` in `dt`: the centre of mass on a straight line,
/// the rotation reaching `b`'s pose with as many whole turns, and in the direction, that
/// `b.angvel × dt` says (two poses alone give the rotation modulo a turn, the short way round).
fn motion_between(a: &Placed, b: &Placed, dt: Real) -> NonlinearRigidMotion {
    let (c0, c1) = (a.pose.transform_point(a.local_com), b.pose.transform_point(b.local_com));
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
    let (part_motion, target_motion) = (motion_between(part.0, part.1, dt), motion_between(target.0, target.1, dt));
    let at = |s: Real| {
        side_and_face(part_shape, &part_motion.position_at_time(s * dt), target_shape, &target_motion.position_at_time(s * dt))
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

/// Is the step from `prev` to `next` a strict pass-through?
pub fn strict_pass_through(prev: &Frame, next: &Frame) -> bool {
    prev.within_face && next.within_face && (prev.side > 0.0) != (next.side > 0.0) && prev.side != 0.0
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
        let before = frame(&ball, &pose(-0.1, 0.0), &plate, &pose(0.0, 0.0));
        let after = frame(&ball, &pose(0.1, 0.0), &plate, &pose(0.0, 0.0));
        assert!(strict_pass_through(&before, &after));
        // Going over the top (outside the face extent on one frame) is not.
        let above = frame(&ball, &pose(0.1, 0.6), &plate, &pose(0.0, 0.0));
        assert!(!strict_pass_through(&before, &above));
        // Staying on one side is not.
        let closer = frame(&ball, &pose(-0.02, 0.0), &plate, &pose(0.0, 0.0));
        assert!(!strict_pass_through(&before, &closer));
    }

    fn placed(x: Real, z: Real, angle: Real, spin: Real) -> Placed {
        Placed { pose: Pose::new(Vector::new(x, 0.0, z), Vector::new(0.0, angle, 0.0)), local_com: Vector::ZERO, angvel: Vector::new(0.0, spin, 0.0) }
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
        let (f0, f1) = (frame(&ball, &p.pose, &rotor, &r0.pose), frame(&ball, &p.pose, &rotor, &r1.pose));
        assert!(strict_pass_through(&f0, &f1), "the frames alone call it one");
        assert!(!crosses_within_face(&ball, (&p, &p), &rotor, (&r0, &r1), dt));
        // 0.3 m from the axis the arm sweeps through the ball: a pass-through.
        let q = placed(0.1, 0.2828, 0.0, 0.0);
        let (g0, g1) = (frame(&ball, &q.pose, &rotor, &r0.pose), frame(&ball, &q.pose, &rotor, &r1.pose));
        assert!(strict_pass_through(&g0, &g1));
        assert!(crosses_within_face(&ball, (&q, &q), &rotor, (&r0, &r1), dt));
    }

    #[test]
    fn a_part_crossing_a_still_plate_within_its_face_crosses_within_it() {
        let plate = Cuboid::new(Vector::new(0.001, 0.5, 0.5));
        let ball = Ball::new(0.01);
        let still = placed(0.0, 0.0, 0.0, 0.0);
        let (a, b) = (placed(-0.1, 0.0, 0.0, 0.0), placed(0.1, 0.0, 0.0, 0.0));
        assert!(crosses_within_face(&ball, (&a, &b), &plate, (&still, &still), 1.0 / 60.0));
    }

    #[test]
    fn penetration_is_the_contact_depth() {
        let plate = Cuboid::new(Vector::new(0.001, 0.5, 0.5));
        let ball = Ball::new(0.01);
        let f = frame(&ball, &pose(-0.005, 0.0), &plate, &pose(0.0, 0.0));
        assert!((f.penetration - 0.006).abs() < 1e-6, "{}", f.penetration);
        assert_eq!(frame(&ball, &pose(-0.5, 0.0), &plate, &pose(0.0, 0.0)).penetration, 0.0);
    }
}
