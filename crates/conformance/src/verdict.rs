//! A snapshot vector's verdict ([`Expect`]), in a module of its own so that the crate's error
//! can name it without an import cycle (re-exported by [`crate::snapshot_vectors`]).

use serde::{Deserialize, Serialize};

/// The verdict of a vector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Expect {
    /// The restore succeeds.
    Accept(Accept),
    /// The restore fails with this `rapier_pinned::ErrorKind` (its Debug name).
    Reject(String),
}

/// What an accepted vector must give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Accept {
    /// The restored world's tick.
    pub tick: u64,
    /// How many steps to continue.
    pub steps: u32,
    /// The state digest (`rapier_pinned_scenes::state_digest`, 16 hex digits) after each step.
    pub digests: Vec<String>,
}

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expect::Accept(a) => write!(f, "accept at tick {} ({} steps checked)", a.tick, a.steps),
            Expect::Reject(kind) => write!(f, "reject {kind}"),
        }
    }
}
