pub use self::character_controller::{
    CharacterAutostep, CharacterCollision, CharacterLength, KinematicCharacterController,
    KinematicCharacterControllerOutput, MoveShapeOptions, MoveShapeOutput,
};
pub use self::controller_filter::{ControllerFilterPredicate, ControllerIgnored};
pub use self::pid_controller::{AxesMask, PdController, PdErrors, PidController, PidTarget};
#[cfg(feature = "dim3")]
pub use self::vehicle_controller::{
    RayCastVehicleController, VehicleWheel, VehicleWheelState, WheelTuning,
};

mod character_controller;
pub(crate) mod controller_filter;
mod pid_controller;
#[cfg(feature = "dim3")]
mod vehicle_controller;
