//! The bounds policy 4
//! ([`CcdPersistentContactPolicy::KeepDepthBounded`](crate::dynamics::CcdPersistentContactPolicy::KeepDepthBounded))
//! skips work with (rapier-pinned patch). Each says what the skipped cast or query could have
//! found, and is conservative: it may fail to prove what holds, never prove what does not. A pose
//! or a sweep that is not finite proves nothing.
//!
//! The face bounds rest on one fact: a cuboid lies behind each face's plane. A convex part none of
//! whose points gets more than `eps` behind that plane is never more than `eps` inside the cuboid;
//! with `eps` the thinner part's half-thickness, neither can pass through the other.

use crate::math::{Pose, Real, Vector};
use parry::query::sweep_toi::{Sweep, ToiProxy};

/// Whether every position and rotation of `sweep` is finite (the bounds' `min` and `max` would
/// otherwise pass a NaN over).
fn finite(sweep: &Sweep) -> bool {
    sweep.c1.is_finite() && sweep.c2.is_finite() && sweep.q1.is_finite() && sweep.q2.is_finite()
}

/// The face of the cuboid of half-extents `half` at `pose` that the point `p` is farthest outside
/// of: its outward unit normal `n` and its plane's offset, the cuboid lying where `n · y ≤ offset`.
fn farthest_face(half: Vector, pose: &Pose, p: Vector) -> (Vector, Real) {
    let x = pose.inverse_transform_point(p);
    let out = x.abs() - half;
    let axis = if out.x >= out.y && out.x >= out.z {
        0
    } else if out.y >= out.z {
        1
    } else {
        2
    };
    let mut local = Vector::ZERO;
    local[axis] = if x[axis] >= 0.0 { 1.0 } else { -1.0 };
    let n = pose.rotation * local;
    (n, n.dot(pose.translation) + half[axis])
}

/// How far the body's rotation over the step moves a point at unit distance from its centre of
/// mass, at most: `2 sin(θ / 2)`, θ the larger of the sweep's angle (its nlerp stays on that
/// arc) and the body's `turn` along its constant-velocity motion; 2 from half a turn on.
fn chord(sweep: &Sweep, turn: Real) -> Real {
    let cos_half = sweep.q1.dot(sweep.q2).abs().min(1.0);
    let short = 2.0 * (1.0 - cos_half * cos_half).max(0.0).sqrt();
    let half_turn = core::f64::consts::PI as Real;
    let long = 2.0 * (turn.min(half_turn) * 0.5).sin();
    short.max(long)
}

/// Whether the convex piece `proxy`, swept by `sweep` on a body that turns `turn` this step,
/// stays less than `eps` inside the fixed cuboid of half-extents `half` at `pose` all step, on
/// any of the pass's motion models (the centre of mass moves on the segment from `c1` to `c2`
/// in each). The bound, along the normal of the face the start centre of mass is farthest
/// outside of: the piece's lowest point at the start, less the centre's descent and the chord
/// its farthest point turns through.
pub(super) fn stays_within_face(
    proxy: &ToiProxy,
    sweep: &Sweep,
    turn: Real,
    half: Vector,
    pose: &Pose,
    eps: Real,
) -> bool {
    if !(finite(sweep) && pose.is_finite()) {
        return false;
    }
    let (n, offset) = farthest_face(half, pose, sweep.c1);
    let points = proxy.points();
    let low = points[proxy.support(sweep.q1.inverse() * -n) as usize];
    let start = n.dot(sweep.c1 + sweep.q1 * (low - sweep.local_center)) - proxy.radius;
    let descent = (-n.dot(sweep.c2 - sweep.c1)).max(0.0);
    let reach = (points.iter())
        .map(|p| (*p - sweep.local_center).length())
        .fold(0.0, Real::max);
    start - descent - chord(sweep, turn) * reach - offset >= -eps
}

/// Whether the convex `proxy` at `pose` is less than `eps` inside the fixed cuboid of
/// half-extents `half` at `cuboid_pose`, behind the face its pose's origin is farthest outside of.
pub(super) fn ends_within_face(
    proxy: &ToiProxy,
    pose: &Pose,
    half: Vector,
    cuboid_pose: &Pose,
    eps: Real,
) -> bool {
    if !(pose.is_finite() && cuboid_pose.is_finite()) {
        return false;
    }
    let (n, offset) = farthest_face(half, cuboid_pose, pose.translation);
    let low = proxy.points()[proxy.support(pose.rotation.inverse() * -n) as usize];
    n.dot(pose.transform_point(low)) - proxy.radius - offset >= -eps
}

/// Whether the cores of the proxies `pa` and `pb`, swept by `sa` and `sb`, stay farther apart
/// than a full-shape cast's target (`ra + rb + slop`) and its tolerance at every fraction in
/// `[0, bound]`, so that the cast would find nothing. The separating axis is the line between
/// the centres of mass at the start; the separation along it shrinks by at most each proxy's
/// reach (its centre's travel plus the chord of its farthest point).
pub(super) fn proven_apart(
    pa: &ToiProxy,
    sa: &Sweep,
    pb: &ToiProxy,
    sb: &Sweep,
    bound: Real,
    slop: Real,
) -> bool {
    let n = (sb.c1 - sa.c1).normalize_or_zero();
    if n == Vector::ZERO || !(finite(sa) && finite(sb)) {
        return false;
    }
    // The proxy's extent along `n` from its centre of mass at the start, and its reach.
    let span = |p: &ToiProxy, s: &Sweep| {
        let local = s.q1.inverse() * n;
        let (mut lo, mut hi, mut far): (Real, Real, Real) = (Real::MAX, Real::MIN, 0.0);
        for x in p.points() {
            let r = *x - s.local_center;
            let v = local.dot(r);
            lo = lo.min(v);
            hi = hi.max(v);
            far = far.max(r.length_squared());
        }
        let reach = (s.c2 - s.c1).length() * bound.max(0.0) + chord(s, 0.0) * far.sqrt();
        (lo, hi, reach)
    };
    let (lo_a, hi_a, reach_a) = span(pa, sa);
    let (lo_b, hi_b, reach_b) = span(pb, sb);
    let (ca, cb) = (n.dot(sa.c1), n.dot(sb.c1));
    let separation = (cb + lo_b - (ca + hi_a)).max(ca + lo_a - (cb + hi_b));
    separation > pa.radius + pb.radius + 1.5 * slop + reach_a + reach_b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;

    /// A unit cube's proxy (its 8 corners), centred on its origin.
    fn cube(points: &mut [Vector; 8]) -> ToiProxy<'_> {
        for (i, p) in points.iter_mut().enumerate() {
            *p = Vector::new(
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.5 } else { 0.5 },
                if i & 4 == 0 { -0.5 } else { 0.5 },
            );
        }
        ToiProxy::from_points(points, 0.0)
    }

    /// A floor: the fixed cuboid of half-extents (10, 0.5, 10) whose top face is y = 0.
    const FLOOR: Vector = Vector::new(10.0, 0.5, 10.0);

    fn floor_pose() -> Pose {
        Pose::from_translation(Vector::new(0.0, -0.5, 0.0))
    }

    fn sweep(from: Vector, to: Vector, turn_to: Rotation) -> Sweep {
        Sweep::from_poses(
            &Pose::from_translation(from),
            &Pose::from_parts(to, turn_to),
            Vector::ZERO,
        )
    }

    #[test]
    fn a_cube_sliding_on_the_floor_stays_within_the_face() {
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        // Resting 1 mm deep, sliding 1 m sideways, sinking 2 mm: 3 mm deep at most.
        let s = sweep(
            Vector::new(0.0, 0.499, 0.0),
            Vector::new(1.0, 0.497, 0.0),
            Rotation::IDENTITY,
        );
        assert!(stays_within_face(
            &proxy,
            &s,
            0.0,
            FLOOR,
            &floor_pose(),
            0.004
        ));
        assert!(!stays_within_face(
            &proxy,
            &s,
            0.0,
            FLOOR,
            &floor_pose(),
            0.002
        ));
    }

    #[test]
    fn a_turn_counts_with_the_farthest_point() {
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        // 1 cm above the floor, turning a tenth of a radian: a corner (0.87 m from the centre)
        // may sweep down about 8.7 cm.
        let s = sweep(
            Vector::new(0.0, 0.51, 0.0),
            Vector::new(0.0, 0.51, 0.0),
            Rotation::from_rotation_z(0.1),
        );
        assert!(!stays_within_face(
            &proxy,
            &s,
            0.0,
            FLOOR,
            &floor_pose(),
            0.05
        ));
        assert!(stays_within_face(
            &proxy,
            &s,
            0.0,
            FLOOR,
            &floor_pose(),
            0.09
        ));
        // The same poses, but the body turned a whole turn and a tenth on the way: any corner
        // may have swept down by twice its distance.
        assert!(!stays_within_face(
            &proxy,
            &s,
            6.4,
            FLOOR,
            &floor_pose(),
            0.09
        ));
    }

    #[test]
    fn a_nan_proves_nothing() {
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        let nan = Vector::new(Real::NAN, 0.6, 0.0);
        let s = sweep(nan, nan, Rotation::IDENTITY);
        assert!(!stays_within_face(
            &proxy,
            &s,
            0.0,
            FLOOR,
            &floor_pose(),
            1.0
        ));
        let pose = Pose::from_translation(nan);
        assert!(!ends_within_face(&proxy, &pose, FLOOR, &floor_pose(), 1.0));
        let still = sweep(Vector::ZERO, Vector::ZERO, Rotation::IDENTITY);
        assert!(!proven_apart(&proxy, &still, &proxy, &s, 1.0, 0.01));
        // A rotation that is not finite, at a finite centre: its extents and its turn would
        // otherwise read as empty and none.
        let nan_turn = Rotation::from_xyzw(Real::NAN, 0.0, 0.0, 1.0);
        let far = Vector::new(5.0, 0.6, 0.0);
        let turning = sweep(far, far, nan_turn);
        assert!(!stays_within_face(
            &proxy,
            &turning,
            0.0,
            FLOOR,
            &floor_pose(),
            1.0
        ));
        let mut spun = sweep(far, far, Rotation::IDENTITY);
        spun.q1 = nan_turn;
        assert!(!proven_apart(&proxy, &still, &proxy, &spun, 1.0, 0.01));
        let pose = Pose::from_parts(far, nan_turn);
        assert!(!ends_within_face(&proxy, &pose, FLOOR, &floor_pose(), 1.0));
    }

    #[test]
    fn ending_deeper_than_eps_is_not_within_the_face() {
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        let at = |y| Pose::from_translation(Vector::new(3.0, y, 0.0));
        assert!(ends_within_face(
            &proxy,
            &at(0.499),
            FLOOR,
            &floor_pose(),
            0.002
        ));
        assert!(!ends_within_face(
            &proxy,
            &at(0.497),
            FLOOR,
            &floor_pose(),
            0.002
        ));
        // Beside a wall, the wall's face counts, not the floor's.
        let wall = Pose::from_translation(Vector::new(-10.0, 0.0, 0.0));
        let half = Vector::new(0.5, 10.0, 10.0);
        let beside = Pose::from_translation(Vector::new(-9.0, 0.0, 0.0));
        assert!(ends_within_face(&proxy, &beside, half, &wall, 0.0));
        let into = Pose::from_translation(Vector::new(-9.1, 0.0, 0.0));
        assert!(!ends_within_face(&proxy, &into, half, &wall, 0.05));
    }

    #[test]
    fn the_apart_proof_needs_the_gap_to_outlast_both_reaches() {
        let mut pa = [Vector::ZERO; 8];
        let mut pb = [Vector::ZERO; 8];
        let (a, b) = (cube(&mut pa), cube(&mut pb));
        let still = sweep(Vector::ZERO, Vector::ZERO, Rotation::IDENTITY);
        // 1 m between the faces; b comes 0.5 m closer: apart with 0.5 m to spare.
        let near = sweep(
            Vector::new(2.0, 0.0, 0.0),
            Vector::new(1.5, 0.0, 0.0),
            Rotation::IDENTITY,
        );
        assert!(proven_apart(&a, &still, &b, &near, 1.0, 0.01));
        // Coming 1.2 m closer it would touch: not proven.
        let into = sweep(
            Vector::new(2.0, 0.0, 0.0),
            Vector::new(0.8, 0.0, 0.0),
            Rotation::IDENTITY,
        );
        assert!(!proven_apart(&a, &still, &b, &into, 1.0, 0.01));
        // Within half the step it is still 0.4 m away: proven for that bound.
        assert!(proven_apart(&a, &still, &b, &into, 0.5, 0.01));
    }
}
