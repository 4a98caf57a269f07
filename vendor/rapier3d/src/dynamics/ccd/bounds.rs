//! The bounds policy 4
//! ([`CcdPersistentContactPolicy::KeepDepthBounded`](crate::dynamics::CcdPersistentContactPolicy::KeepDepthBounded))
//! skips work with (rapier-pinned patch). Each says what the skipped cast or query could have
//! found, and is conservative: it may fail to prove what holds, never prove what does not. A pose
//! or a sweep that is not finite proves nothing.
//!
//! Policy 6 (`KeepSideSurfaceBounds`) adds one for fixed meshes and heightfields
//! ([`ends_within_surface`]).
//!
//! The face bounds rest on one fact: a cuboid lies behind each face's plane. A point in front of
//! that plane is at least as far from the cuboid as from the plane; a convex part none of whose
//! points is more than `eps` behind it is no more than `eps` inside the cuboid.
//!
//! A cast against a fixed cuboid is skipped only where it provably cannot change the step: a
//! part that stays apart from the face, or one already touching it that does not go deeper than
//! its core's reach. A part arriving from apart is always cast, however shallow it would end: a
//! bound that skipped the cast of a part ending within its half-thickness of the face let a
//! 10 mm ball fired at 60 m/s stop 4.5 mm deep unclamped, then go on through a 0.5 m wall in the
//! next step (issue 62).

use crate::math::{Pose, Real, Vector};
use parry::bounding_volume::Aabb;
use parry::query::sweep_toi::{Sweep, ToiProxy};
use parry::shape::{Shape, Triangle, TypedShape};

/// Whether every position and rotation of `sweep` is finite (the bounds' `min` and `max` would
/// otherwise pass a NaN over).
fn finite(sweep: &Sweep) -> bool {
    sweep.c1.is_finite() && sweep.c2.is_finite() && sweep.q1.is_finite() && sweep.q2.is_finite()
}

/// The face of the cuboid of half-extents `half` at `pose` that the point `p` is farthest outside
/// of: its outward unit normal `n` and its plane's offset, the cuboid lying where `n · y ≤ offset`,
/// and its axis.
fn farthest_face(half: Vector, pose: &Pose, p: Vector) -> (Vector, Real, usize) {
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
    (n, n.dot(pose.translation) + half[axis], axis)
}

/// How far the body's rotation over the step moves a point at unit distance from its centre of
/// mass, at most: `2 sin(θ / 2)`, θ the larger of the sweep's angle (its nlerp stays on that arc)
/// and the body's `turn` along its constant-velocity motion; 2 from half a turn on.
fn chord(sweep: &Sweep, turn: Real) -> Real {
    let cos_half = sweep.q1.dot(sweep.q2).abs().min(1.0);
    let short = 2.0 * (1.0 - cos_half * cos_half).max(0.0).sqrt();
    let half_turn = core::f64::consts::PI as Real;
    let long = 2.0 * (turn.min(half_turn) * 0.5).sin();
    short.max(long)
}

/// Why a cast of a piece against a fixed cuboid cannot change the step (see [`cast_needless`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Needless {
    /// The piece stays apart from the cuboid: the cast would find nothing.
    Apart,
    /// The piece starts touching the cuboid and its core stays clear of it: the cast would find
    /// a persistent contact that policy 3 neither clamps nor flags.
    Touching,
}

/// Why a cast of the convex piece `proxy` against the fixed cuboid of half-extents `half` at
/// `pose` cannot change the step under policy 3, so policy 4 may skip it; `None` if it may. The piece is swept by
/// `sweep` on a body turning `turn()` this step (asked only of a piece with points off its centre
/// of mass: the body's step costs more than the rest); its core sphere is `core`, a centre (in the
/// sweep's local frame) and a radius. Along the normal of the face the piece's centre of mass
/// starts farthest outside of, moving at most the centre's descent and the chord its points turn
/// through, either
/// - the piece stays more than `1.25 slop` in front of the face's plane all step: the cast, whose
///   shapes stop within the slop and a quarter, finds nothing; or
/// - the piece starts over the face's rectangle touching it, within the slop the cast stops at
///   (the cast starts at fraction 0: a persistent contact, which policy 3 does not clamp), and
///   its core sphere stays farther in front of the plane than the quarter radius more that the
///   pass flags a core within (so the pass does not flag the pair as going through).
pub(super) fn cast_needless(
    proxy: &ToiProxy,
    sweep: &Sweep,
    turn: impl FnOnce() -> Real,
    (half, pose): (Vector, &Pose),
    slop: Real,
    core: (Vector, Real),
) -> Option<Needless> {
    if !(finite(sweep) && pose.is_finite()) {
        return None;
    }
    let (n, offset, axis) = farthest_face(half, pose, sweep.c1);
    let points = proxy.points();
    let (centroid, radius) = core;
    let reach = (points.iter())
        .map(|p| (*p - sweep.local_center).length())
        .fold(0.0, Real::max);
    let core_reach = (centroid - sweep.local_center).length();
    let chord = match reach.max(core_reach) > 0.0 {
        true => chord(sweep, turn()),
        false => 0.0,
    };
    let descent = (-n.dot(sweep.c2 - sweep.c1)).max(0.0);
    let point_at_start = |p: Vector| sweep.c1 + sweep.q1 * (p - sweep.local_center);
    let low = point_at_start(points[proxy.support(sweep.q1.inverse() * -n) as usize]);
    let gap = n.dot(low) - proxy.radius - offset;
    if gap - descent - chord * reach > 1.25 * slop {
        return Some(Needless::Apart);
    }
    // The cast's stop, as a gap between the full shapes (the core target less the radius).
    let stop = slop.max(proxy.radius - slop) - proxy.radius;
    let local = pose.inverse_transform_point(low);
    let over_face = (0..3)
        .filter(|i| *i != axis)
        .all(|i| local[i].abs() <= half[i]);
    if !(over_face && -2.0 * half[axis] <= gap && gap <= stop) {
        return None;
    }
    let side = n.dot(point_at_start(centroid)) - offset;
    (side - descent - chord * core_reach > 1.25 * radius).then_some(Needless::Touching)
}

/// The point of a convex shape its bounds keep in front of a face, in its frame: its centroid
/// (the origin of a ball, cuboid or cylinder and their rounded forms, the middle of a capsule's
/// segment).
pub(super) fn centre(shape: &dyn Shape) -> Vector {
    match shape.as_typed_shape() {
        TypedShape::Ball(_)
        | TypedShape::Cuboid(_)
        | TypedShape::Cylinder(_)
        | TypedShape::RoundCuboid(_)
        | TypedShape::RoundCylinder(_) => Vector::ZERO,
        TypedShape::Capsule(capsule) => capsule.center(),
        _ => shape.mass_properties(1.0).local_com,
    }
}

/// Whether the convex `proxy` at `pose` is less than `eps` inside the fixed cuboid of
/// half-extents `half` at `cuboid_pose`, behind the face its pose's origin is farthest outside
/// of, with its [`centre`] `centre` (in its frame) in front of that face.
pub(super) fn ends_within_face(
    proxy: &ToiProxy,
    (pose, centre): (&Pose, Vector),
    half: Vector,
    cuboid_pose: &Pose,
    eps: Real,
) -> bool {
    if !(pose.is_finite() && cuboid_pose.is_finite()) {
        return false;
    }
    let (n, offset, _) = farthest_face(half, cuboid_pose, pose.translation);
    within_plane(proxy, pose, pose.transform_point(centre), (n, offset), eps)
}

/// Whether the convex `proxy` at `pose` is less than `eps` behind the plane of unit normal `n`
/// at `offset` (the points `x` with `n · x = offset`), with the point `centre` in front of it.
fn within_plane(
    proxy: &ToiProxy,
    pose: &Pose,
    centre: Vector,
    (n, offset): (Vector, Real),
    eps: Real,
) -> bool {
    let low = proxy.points()[proxy.support(pose.rotation.inverse() * -n) as usize];
    n.dot(pose.transform_point(low)) - proxy.radius - offset >= -eps && n.dot(centre) - offset > 0.0
}

/// Whether the convex `proxy` at `pose`, in the frame of the fixed mesh or heightfield
/// `surface`, is less than `eps` behind the plane of every face of `surface` that meets its
/// bounding box loosened by `eps`, with its [`centre`] `centre` (in its frame) in front of each
/// (policy 6). A face's plane bounds it as a cuboid's face does (above) where the surface is
/// concave or flat; where it is convex the centre ends behind a neighbouring face's plane and
/// nothing is proven. A part with no face near it is apart from the surface. `false` for any
/// other shape, a face without a normal, or a pose that is not finite.
pub(super) fn ends_within_surface(
    proxy: &ToiProxy,
    (pose, centre): (&Pose, Vector),
    aabb: &Aabb,
    surface: &dyn Shape,
    eps: Real,
) -> bool {
    if !pose.is_finite() {
        return false;
    }
    let centre = pose.transform_point(centre);
    let mut within = true;
    let mut face = |tri: &Triangle| {
        within = within
            && (tri.normal())
                .is_some_and(|n| within_plane(proxy, pose, centre, (n, n.dot(tri.a)), eps));
    };
    match surface.as_typed_shape() {
        TypedShape::TriMesh(mesh) => mesh
            .bvh()
            .intersect_aabb(aabb)
            .for_each(|i| face(&mesh.triangle(i))),
        TypedShape::HeightField(field) => {
            field.map_elements_in_local_aabb(aabb, &mut |_, tri| face(tri))
        }
        _ => return false,
    }
    within
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

    /// [`cast_needless`] against the floor, slop 5 mm, core sphere at the centre of mass.
    fn needless(proxy: &ToiProxy, s: &Sweep, turn: Real) -> Option<Needless> {
        let core = (Vector::ZERO, 0.25 * 0.5);
        cast_needless(proxy, s, || turn, (FLOOR, &floor_pose()), 0.005, core)
    }

    #[test]
    fn a_cube_resting_or_sliding_on_the_floor_needs_no_cast() {
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        // Resting 1 mm deep, sliding 1 m sideways and sinking 2 mm: a persistent contact, its
        // core sphere 0.5 m above the floor.
        let s = sweep(
            Vector::new(0.0, 0.499, 0.0),
            Vector::new(1.0, 0.497, 0.0),
            Rotation::IDENTITY,
        );
        assert_eq!(needless(&proxy, &s, 0.0), Some(Needless::Touching));
        // 2 mm above the floor (within the slop) and spinning a whole turn: the same.
        let s = sweep(
            Vector::new(0.0, 0.502, 0.0),
            Vector::new(0.0, 0.502, 0.0),
            Rotation::from_rotation_y(0.5),
        );
        assert_eq!(needless(&proxy, &s, 6.8), Some(Needless::Touching));
        // Flying 1 m above it, or up from it: the cast would miss.
        let above = |y: Real| Vector::new(0.0, 0.5 + y, 0.0);
        let apart = Some(Needless::Apart);
        let s = sweep(above(1.0), above(0.99), Rotation::IDENTITY);
        assert_eq!(needless(&proxy, &s, 0.0), apart);
        let s = sweep(above(0.01), above(0.5), Rotation::IDENTITY);
        assert_eq!(needless(&proxy, &s, 0.0), apart);
    }

    #[test]
    fn a_part_arriving_from_apart_is_cast() {
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        // 1 cm above the floor, falling 2 cm: it reaches the floor within the step.
        let s = sweep(
            Vector::new(0.0, 0.51, 0.0),
            Vector::new(0.0, 0.49, 0.0),
            Rotation::IDENTITY,
        );
        assert_eq!(needless(&proxy, &s, 0.0), None);
        // 1 cm above, turning a tenth of a radian: a corner (0.87 m out) sweeps down 8.7 cm.
        let s = sweep(
            Vector::new(0.0, 0.51, 0.0),
            Vector::new(0.0, 0.51, 0.0),
            Rotation::from_rotation_z(0.1),
        );
        assert_eq!(needless(&proxy, &s, 0.0), None);
        // A 10 mm ball fired at a thick wall, ending 4.5 mm deep: the hole of the bound this one
        // replaced (issue 62).
        let ball = ToiProxy::point(Vector::ZERO, 0.005);
        let wall = (Vector::new(0.25, 2.0, 2.0), &Pose::IDENTITY);
        let s = sweep(
            Vector::new(-1.25, 0.3, 0.1),
            Vector::new(-0.2505, 0.3, 0.1),
            Rotation::IDENTITY,
        );
        let core = (Vector::ZERO, 0.00125);
        assert_eq!(cast_needless(&ball, &s, || 0.0, wall, 0.005, core), None);
        // Touching the floor, but its core sphere sinking to within its reach of the face: the
        // pass would flag it as going through.
        let s = sweep(
            Vector::new(0.0, 0.5, 0.0),
            Vector::new(0.0, 0.05, 0.0),
            Rotation::IDENTITY,
        );
        assert_eq!(needless(&proxy, &s, 0.0), None);
    }

    #[test]
    fn a_nan_proves_nothing() {
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        let nan = Vector::new(Real::NAN, 0.6, 0.0);
        let s = sweep(nan, nan, Rotation::IDENTITY);
        assert_eq!(needless(&proxy, &s, 0.0), None);
        let pose = Pose::from_translation(nan);
        assert!(!ends_within_face(
            &proxy,
            (&pose, Vector::ZERO),
            FLOOR,
            &floor_pose(),
            1.0
        ));
        let still = sweep(Vector::ZERO, Vector::ZERO, Rotation::IDENTITY);
        assert!(!proven_apart(&proxy, &still, &proxy, &s, 1.0, 0.01));
        // A rotation that is not finite, at a finite centre: its extents and its turn would
        // otherwise read as empty and none.
        let nan_turn = Rotation::from_xyzw(Real::NAN, 0.0, 0.0, 1.0);
        let far = Vector::new(5.0, 0.6, 0.0);
        assert_eq!(needless(&proxy, &sweep(far, far, nan_turn), 0.0), None);
        let mut spun = sweep(far, far, Rotation::IDENTITY);
        spun.q1 = nan_turn;
        assert!(!proven_apart(&proxy, &still, &proxy, &spun, 1.0, 0.01));
        let pose = Pose::from_parts(far, nan_turn);
        assert!(!ends_within_face(
            &proxy,
            (&pose, Vector::ZERO),
            FLOOR,
            &floor_pose(),
            1.0
        ));
    }

    #[test]
    fn ending_deeper_than_eps_is_not_within_the_face() {
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        let at = |y| {
            (
                Pose::from_translation(Vector::new(3.0, y, 0.0)),
                Vector::ZERO,
            )
        };
        let within = |(pose, centre): (Pose, Vector), half, cuboid: &Pose, eps| {
            ends_within_face(&proxy, (&pose, centre), half, cuboid, eps)
        };
        assert!(within(at(0.499), FLOOR, &floor_pose(), 0.002));
        assert!(!within(at(0.497), FLOOR, &floor_pose(), 0.002));
        // Beside a wall, the wall's face counts, not the floor's.
        let wall = Pose::from_translation(Vector::new(-10.0, 0.0, 0.0));
        let half = Vector::new(0.5, 10.0, 10.0);
        let beside = Pose::from_translation(Vector::new(-9.0, 0.0, 0.0));
        assert!(within((beside, Vector::ZERO), half, &wall, 0.0));
        let into = Pose::from_translation(Vector::new(-9.1, 0.0, 0.0));
        assert!(!within((into, Vector::ZERO), half, &wall, 0.05));
    }

    #[test]
    fn a_centre_behind_the_face_is_not_within_it() {
        // A part whose centre sits 0.1 above its lowest point (a flat hull's centre of mass is
        // rarely mid-thickness), 0.15 into the floor: within an eps of 0.2, centre behind.
        let mut points = [Vector::ZERO; 8];
        let proxy = cube(&mut points);
        let centre = Vector::new(0.0, -0.4, 0.0);
        let pose = Pose::from_translation(Vector::new(3.0, 0.35, 0.0));
        assert!(!ends_within_face(
            &proxy,
            (&pose, centre),
            FLOOR,
            &floor_pose(),
            0.2
        ));
        let higher = Pose::from_translation(Vector::new(3.0, 0.45, 0.0));
        assert!(ends_within_face(
            &proxy,
            (&higher, centre),
            FLOOR,
            &floor_pose(),
            0.2
        ));
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
