use crate::math::{Pose, Real, Vector};
use crate::query::default_query_dispatcher::cast_shapes_nonlinear_with;
use crate::query::details::ShapeCastOptions;
use crate::query::{
    ClosestPoints, Contact, NonlinearRigidMotion, QueryDispatcher, ShapeCastHit, ShapeDistance,
    ShapeIntersection, Unsupported,
};
use crate::shape::Shape;

/// A query dispatcher that answers every query as `inner` does, except that its nonlinear shape
/// casts probe a pair that starts in contact at no more than `max_steps` times (see
/// [`NonlinearShapeCastMode::with_max_steps`](super::NonlinearShapeCastMode::with_max_steps)),
/// the sub-shapes of composite shapes and voxels included.
///
/// Nonlinear casts of the shapes [`DefaultQueryDispatcher`](crate::query::DefaultQueryDispatcher)
/// knows are answered as it answers them, bounded; any other pair is asked of `inner`.
pub struct StepCappedDispatcher<'a> {
    /// The dispatcher that answers every other query.
    pub inner: &'a dyn QueryDispatcher,
    /// The most time steps a pair that starts a cast in contact is probed at (at least 1).
    pub max_steps: u32,
}

impl QueryDispatcher for StepCappedDispatcher<'_> {
    fn intersection_test(
        &self,
        pos12: &Pose,
        g1: &dyn Shape,
        g2: &dyn Shape,
    ) -> Result<ShapeIntersection, Unsupported> {
        self.inner.intersection_test(pos12, g1, g2)
    }

    fn distance(
        &self,
        pos12: &Pose,
        g1: &dyn Shape,
        g2: &dyn Shape,
    ) -> Result<ShapeDistance, Unsupported> {
        self.inner.distance(pos12, g1, g2)
    }

    fn contact(
        &self,
        pos12: &Pose,
        g1: &dyn Shape,
        g2: &dyn Shape,
        prediction: Real,
    ) -> Result<Option<Contact>, Unsupported> {
        self.inner.contact(pos12, g1, g2, prediction)
    }

    fn closest_points(
        &self,
        pos12: &Pose,
        g1: &dyn Shape,
        g2: &dyn Shape,
        max_dist: Real,
    ) -> Result<ClosestPoints, Unsupported> {
        self.inner.closest_points(pos12, g1, g2, max_dist)
    }

    fn cast_shapes(
        &self,
        pos12: &Pose,
        local_vel12: Vector,
        g1: &dyn Shape,
        g2: &dyn Shape,
        options: ShapeCastOptions,
    ) -> Result<Option<ShapeCastHit>, Unsupported> {
        self.inner.cast_shapes(pos12, local_vel12, g1, g2, options)
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
        // `self` answers the sub-shapes' casts, so that the bound reaches them.
        cast_shapes_nonlinear_with(
            self,
            motion1,
            g1,
            motion2,
            g2,
            start_time,
            end_time,
            stop_at_penetration,
            Some(self.max_steps),
        )
        .or_else(|Unsupported| {
            self.inner.cast_shapes_nonlinear(
                motion1,
                g1,
                motion2,
                g2,
                start_time,
                end_time,
                stop_at_penetration,
            )
        })
    }
}
