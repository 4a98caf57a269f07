pub use self::ccd_solver::CCDSolver;
pub(crate) use self::sweeps::shape_never_ccd_swept;

mod bounds;
mod ccd_solver;
mod keep_depth;
mod keep_side;
mod motion;
mod moving_targets;
mod persistent_contact;
mod relative_motion;
mod sweeps;
