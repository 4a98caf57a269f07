//! Why a measurement or a configuration was refused: [`CcdEvalError`], the crate's one error.

use rapier3d::dynamics::UnknownCcdPersistentContactPolicy;
use rapier3d::math::Real;

/// An error of the crate's public functions: a pair that cannot be measured, a world that
/// cannot be copied, or a CCD configuration that cannot be read.
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
    /// A policy that is not a number.
    #[error("policy '{text}': {source}")]
    PolicyNotANumber {
        /// The text given.
        text: String,
        /// Why it is not a `u8`.
        source: std::num::ParseIntError,
    },
    /// A number that names no policy.
    #[error("policy {number}: {source:?}")]
    UnknownPolicy {
        /// The number given.
        number: u8,
        /// rapier's refusal.
        source: UnknownCcdPersistentContactPolicy,
    },
    /// Relative motion given as neither `off`, `on` nor `bounded`.
    #[error("relative motion '{0}': expected off, on or bounded")]
    RelativeMotion(String),
}
