//! parry's nonlinear cast bounded (patch `0018-parry-nonlinear-cast-step-cap`, used by
//! `CcdRelativeMotion::BoundedCasts`): a pair that starts in contact is probed at most
//! `max_steps` times however fast it moves, and a cast that needs fewer probes is unchanged.
use rapier3d::math::{Pose, Real, Vector};
use rapier3d::parry::query::details::ShapeCastOptions;
use rapier3d::parry::query::{
    ClosestPoints, Contact, DefaultQueryDispatcher, NonlinearRigidMotion, QueryDispatcher,
    ShapeCastHit, ShapeDistance, ShapeIntersection, StepCappedDispatcher, Unsupported,
};
use rapier3d::parry::shape::{Cuboid, Shape};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The default dispatcher, counting its contact queries: each probe of a cast that starts in
/// contact is one.
#[derive(Default)]
struct Counting(AtomicUsize);

impl QueryDispatcher for Counting {
    fn intersection_test(
        &self,
        pos12: &Pose,
        g1: &dyn Shape,
        g2: &dyn Shape,
    ) -> Result<ShapeIntersection, Unsupported> {
        DefaultQueryDispatcher.intersection_test(pos12, g1, g2)
    }
    fn distance(
        &self,
        pos12: &Pose,
        g1: &dyn Shape,
        g2: &dyn Shape,
    ) -> Result<ShapeDistance, Unsupported> {
        DefaultQueryDispatcher.distance(pos12, g1, g2)
    }
    fn contact(
        &self,
        pos12: &Pose,
        g1: &dyn Shape,
        g2: &dyn Shape,
        prediction: Real,
    ) -> Result<Option<Contact>, Unsupported> {
        self.0.fetch_add(1, Ordering::Relaxed);
        DefaultQueryDispatcher.contact(pos12, g1, g2, prediction)
    }
    fn closest_points(
        &self,
        pos12: &Pose,
        g1: &dyn Shape,
        g2: &dyn Shape,
        max_dist: Real,
    ) -> Result<ClosestPoints, Unsupported> {
        DefaultQueryDispatcher.closest_points(pos12, g1, g2, max_dist)
    }
    fn cast_shapes(
        &self,
        pos12: &Pose,
        local_vel12: Vector,
        g1: &dyn Shape,
        g2: &dyn Shape,
        options: ShapeCastOptions,
    ) -> Result<Option<ShapeCastHit>, Unsupported> {
        DefaultQueryDispatcher.cast_shapes(pos12, local_vel12, g1, g2, options)
    }
    fn cast_shapes_nonlinear(
        &self,
        motion1: &NonlinearRigidMotion,
        g1: &dyn Shape,
        motion2: &NonlinearRigidMotion,
        g2: &dyn Shape,
        start_time: Real,
        end_time: Real,
        stop_at_penetration: bool,
    ) -> Result<Option<ShapeCastHit>, Unsupported> {
        DefaultQueryDispatcher.cast_shapes_nonlinear(
            motion1,
            g1,
            motion2,
            g2,
            start_time,
            end_time,
            stop_at_penetration,
        )
    }
}

/// One step (1/60 s) of two cubes that start it overlapping, the second sliding off the first
/// along the tangent at `speed` (turning slowly), cast in directional mode through a dispatcher bounded to
/// `max_steps` probes: the hit (its time and normal as bits) and the probes it took.
fn sliding_cast(speed: Real, max_steps: u32) -> (Option<(u32, [u32; 3])>, usize) {
    let cube = Cuboid::new(Vector::splat(0.5));
    let still = NonlinearRigidMotion::constant_position(Pose::IDENTITY);
    let sliding = NonlinearRigidMotion::new(
        Pose::translation(0.99, 0.0, 0.0),
        Vector::ZERO,
        Vector::new(0.0, speed, 0.0),
        // A slow turn about the sliding direction: without one the cast stops at its first probe.
        Vector::new(0.0, 0.01, 0.0),
    );
    let counting = Counting::default();
    let capped = StepCappedDispatcher {
        inner: &counting,
        max_steps,
    };
    let hit = capped
        .cast_shapes_nonlinear(&still, &cube, &sliding, &cube, 0.0, 1.0 / 60.0, false)
        .expect("cuboids are supported");
    let bits = hit.map(|h| {
        let n = h.normal1;
        (
            h.time_of_impact.to_bits(),
            [n.x, n.y, n.z].map(Real::to_bits),
        )
    });
    (bits, counting.0.load(Ordering::Relaxed))
}

#[test]
fn probes_grow_with_speed_without_a_bound_and_stop_at_it_with_one() {
    // u32::MAX probes is no bound at these speeds: the count grows with the speed.
    let (_, slow) = sliding_cast(1.0e3, u32::MAX);
    let (_, fast) = sliding_cast(1.0e6, u32::MAX);
    assert!(
        fast > 100 * slow && fast > 10_000,
        "unbounded probes: {slow} at 1e3 m/s, {fast} at 1e6 m/s"
    );
    // Bounded to 1,024, the fast cast takes no more (one more for the rounding of the last).
    let (_, bounded) = sliding_cast(1.0e6, 1024);
    assert!(
        (1..=1025).contains(&bounded),
        "bounded probes at 1e6 m/s: {bounded}"
    );
    // At 10^15 m/s the unbounded cast would not return (its probe time stops advancing in f32);
    // bounded, it does, with the same number of probes.
    let (_, blown_up) = sliding_cast(1.0e15, 1024);
    assert!(
        (1..=1025).contains(&blown_up),
        "bounded probes at 1e15 m/s: {blown_up}"
    );
}

#[test]
fn a_cast_under_the_bound_is_unchanged() {
    for speed in [0.5, 10.0, 1.0e3, 3.0e4] {
        let unbounded = sliding_cast(speed, u32::MAX);
        let bounded = sliding_cast(speed, 1024);
        assert!(unbounded.1 <= 1024, "{speed} m/s: {} probes", unbounded.1);
        assert_eq!(bounded, unbounded, "{speed} m/s");
    }
}
