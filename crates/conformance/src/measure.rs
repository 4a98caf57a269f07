//! The measurements of design §6, on a moving part and a thin cuboid target.
//!
//! - *Strict pass-through*: between two consecutive frames the part's centre changes side of the
//!   target's mid-plane while the part's bounding box (in the target's frame) lies wholly within
//!   the target's face extent on both frames. Going around an edge or over the top is not one.
//! - *End-of-frame penetration*: the contact depth between the two shapes at the frame's poses.

use rapier3d::math::{Pose, Real};
use rapier3d::parry::query;
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

/// Measures the pair at poses `part_pose` / `target_pose` (the colliders' world poses).
pub fn frame(part: &dyn Shape, part_pose: &Pose, target: &Cuboid, target_pose: &Pose) -> Frame {
    let axis = thin_axis(target);
    let rel = target_pose.inv_mul(part_pose);
    let centre = rel.translation;
    let aabb = part.compute_aabb(&rel);
    let he = target.half_extents;
    let within_face = (0..3).filter(|i| *i != axis).all(|i| aabb.mins[i] >= -he[i] && aabb.maxs[i] <= he[i]);
    let penetration = query::contact(target_pose, target, part_pose, part, 0.0)
        .ok()
        .flatten()
        .map(|c| (-c.dist).max(0.0))
        .unwrap_or(0.0);
    Frame { side: centre[axis], within_face, penetration }
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

    #[test]
    fn penetration_is_the_contact_depth() {
        let plate = Cuboid::new(Vector::new(0.001, 0.5, 0.5));
        let ball = Ball::new(0.01);
        let f = frame(&ball, &pose(-0.005, 0.0), &plate, &pose(0.0, 0.0));
        assert!((f.penetration - 0.006).abs() < 1e-6, "{}", f.penetration);
        assert_eq!(frame(&ball, &pose(-0.5, 0.0), &plate, &pose(0.0, 0.0)).penetration, 0.0);
    }
}
