//! The evaluation's names for CCD configurations ([`rapier_pinned::CcdConfig`]): the six
//! combinations it measures and the label its tables print. They moved here from the wrapper
//! (`crates/pinned/src/ccd.rs`, issue 33): only the evaluation tooling uses them. The
//! command-line form `POLICY:MODE` is read by the wrapper (`CcdConfig`'s `FromStr` and
//! `from_parts`), below this crate and the CLI, which both take it.
//!
//! Free functions, not an extension trait on `CcdConfig`: a call reads `configs::label(config)`
//! and says where the function lives, needs no trait in scope, and does not pass off tooling as
//! a method of the wrapper's type.

use rapier3d::dynamics::{CcdPersistentContactPolicy, CcdRelativeMotion};
use rapier_pinned::CcdConfig;

/// Policies 0, 1 and 2 (in that order), each with relative motion off, then on.
pub fn all_six() -> [CcdConfig; 6] {
    use CcdPersistentContactPolicy::*;
    let mut all = [CcdConfig::UPSTREAM; 6];
    for (i, policy) in [Upstream, CoreSphere, CoreSphereFixedTargets]
        .into_iter()
        .enumerate()
    {
        all[2 * i] = CcdConfig::new(CcdRelativeMotion::Off, policy);
        all[2 * i + 1] = CcdConfig::new(CcdRelativeMotion::On, policy);
    }
    all
}

/// `p<policy number> rm <mode>` (padded to a fixed width; the mode as `POLICY:MODE` names it),
/// as the evaluation tables print it.
pub fn label(config: CcdConfig) -> String {
    let mode = config.mode_name();
    format!("{:<13}", format!("p{} rm {mode}", config.policy as u8))
}
