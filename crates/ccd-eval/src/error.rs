//! Why a measurement or a configuration was refused: [`CcdEvalError`], the crate's one error.

use rapier3d::math::Real;

/// An error of the crate's public functions: a pair that cannot be measured, a world that
/// cannot be copied.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CcdEvalError {
    /// A pose, a velocity or a measured depth holds a non-finite number.
    #[error("non-finite {what}: {values:?}")]
    NonFinite {
        /// Which quantity, e.g. `part pose` or `target velocity`.
        what: String,
        /// Its numbers.
        values: Vec<Real>,
    },
    /// parry does not support the query for these shapes: `contact query` or `nonlinear shape
    /// cast`.
    #[error("the {0} is unsupported for these shapes")]
    Unsupported(&'static str),
    /// A world could not be copied through bincode (bincode's message).
    #[error(transparent)]
    Copy(#[from] bincode::Error),
    /// A run of a set could not be measured.
    #[error("{run}: {source}")]
    Run {
        /// The run, `set@speed#start`.
        run: String,
        /// Why.
        source: Box<CcdEvalError>,
    },
    /// A step of a run could not be measured.
    #[error("{}step {step}: {source}", run.as_ref().map_or(String::new(), |r| format!("{r} ")))]
    Step {
        /// The run, `set@speed#start`, when the caller names it.
        run: Option<String>,
        /// The step, from 1.
        step: usize,
        /// Why.
        source: Box<CcdEvalError>,
    },
}
