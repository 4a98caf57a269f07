pub use self::ccd_solver::CCDSolver;
pub use self::relative_motion::moving_pair_time_of_impact;
pub(crate) use self::sweeps::shape_never_ccd_swept;

mod ccd_solver;
mod persistent_contact;
mod relative_motion;
mod sweeps;
