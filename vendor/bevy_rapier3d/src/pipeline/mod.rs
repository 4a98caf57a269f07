pub use self::events::{
    CollisionEvent, ContactForceEvent, PhysicsQuarantineEvent, SoftBodyClusterSplit,
    SoftBodyJointMove, SoftBodyTearEvent, SoftBodyTearPiece, SoftBodyTearResult,
};
pub(crate) use self::events::{EventHandlerFanOut, EventQueue};
pub(crate) use self::physics_hooks::BevyPhysicsHooksAdapter;
pub use self::physics_hooks::{
    BevyPhysicsHooks, ContactModificationContextView, PairFilterContextView,
};
pub use query_filter::{QueryFilter, QueryFilterFlags};

mod events;
mod physics_hooks;
mod query_filter;
