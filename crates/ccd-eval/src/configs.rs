//! The evaluation's names for CCD configurations ([`rapier_pinned::CcdConfig`]): the six
//! combinations it measures, the label its tables print, and the `POLICY on|off` form its
//! examples and the CLI's `perturbation --config` read. They moved here from the wrapper
//! (`crates/pinned/src/ccd.rs`, issue 33): only the evaluation tooling uses them, and a game's
//! wrapper keeps only what a game uses (`CcdConfig` itself, `UPSTREAM`, `new`, `version`,
//! `current`, `of`, `apply`, `params`).
//!
//! Free functions, not an extension trait on `CcdConfig`: a call reads `configs::label(config)`
//! and says where the function lives, needs no trait in scope, and does not pass off tooling as
//! a method of the wrapper's type.

use crate::error::CcdEvalError;
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

/// Reads a policy number (`0` to `5`) and `off`, `on` or `bounded` for relative motion, as the
/// evaluation examples take them on the command line.
pub fn parse(policy: &str, relative_motion: &str) -> Result<CcdConfig, CcdEvalError> {
    let number: u8 = policy
        .parse()
        .map_err(|source| CcdEvalError::PolicyNotANumber {
            text: policy.to_string(),
            source,
        })?;
    let policy = CcdPersistentContactPolicy::try_from(number)
        .map_err(|source| CcdEvalError::UnknownPolicy { number, source })?;
    let relative_motion = match relative_motion {
        "off" => CcdRelativeMotion::Off,
        "on" => CcdRelativeMotion::On,
        "bounded" => CcdRelativeMotion::Bounded,
        other => return Err(CcdEvalError::RelativeMotion(other.to_string())),
    };
    Ok(CcdConfig::new(relative_motion, policy))
}

/// `p<policy number> rm <off|on|bounded>` (padded to a fixed width), as the evaluation tables
/// print it.
pub fn label(config: CcdConfig) -> String {
    let mode = match config.relative_motion {
        CcdRelativeMotion::Off => "off",
        CcdRelativeMotion::On => "on",
        CcdRelativeMotion::Bounded => "bounded",
    };
    format!("{:<13}", format!("p{} rm {mode}", config.policy as u8))
}
