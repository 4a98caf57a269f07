//! The fork's two continuous-collision settings as one value: [`CcdConfig`].
//!
//! `IntegrationParameters::ccd_relative_motion` (bullet pairs swept on both bodies' motions) and
//! `IntegrationParameters::ccd_persistent_contact_policy` (what the continuous pass does with a
//! pair that starts in contact) are the two fields a physics-version sets beyond upstream's
//! rules. Every tool of the project that runs a world under a chosen CCD configuration (the
//! thin-part evaluation, its bench and examples, the CLI's `perturbation` table, the tests of the
//! two settings) builds it here, from upstream's defaults, a physics-version of the table, or one
//! of the six combinations, and writes it into parameters with [`CcdConfig::apply`].
//! The physics-version table ([`crate::version`]) stays the source of each version's settings.

use crate::error::Error;
use crate::version::{entry, PhysicsVersion, PHYSICS_VERSION_CURRENT};
use rapier3d::dynamics::{CcdPersistentContactPolicy, IntegrationParameters};

/// The pair (`ccd_relative_motion`, `ccd_persistent_contact_policy`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CcdConfig {
    /// `IntegrationParameters::ccd_relative_motion`.
    pub relative_motion: bool,
    /// `IntegrationParameters::ccd_persistent_contact_policy`.
    pub policy: CcdPersistentContactPolicy,
}

impl CcdConfig {
    /// Upstream's rules (rapier3d's defaults; physics-version 1): relative motion off, policy 0.
    pub const UPSTREAM: CcdConfig = CcdConfig {
        relative_motion: false,
        policy: CcdPersistentContactPolicy::Upstream,
    };

    /// The given settings.
    pub const fn new(relative_motion: bool, policy: CcdPersistentContactPolicy) -> CcdConfig {
        CcdConfig {
            relative_motion,
            policy,
        }
    }

    /// Upstream's rules: [`CcdConfig::UPSTREAM`].
    pub const fn upstream() -> CcdConfig {
        CcdConfig::UPSTREAM
    }

    /// The settings a released physics-version pins (read from its table entry).
    pub fn version(version: PhysicsVersion) -> Result<CcdConfig, Error> {
        Ok(CcdConfig::of(&entry(version)?.params()))
    }

    /// The settings of [`PHYSICS_VERSION_CURRENT`].
    pub fn current() -> CcdConfig {
        CcdConfig::version(PHYSICS_VERSION_CURRENT).expect("the current version is released")
    }

    /// Policies 0, 1 and 2 (in that order), each with relative motion off, then on.
    pub fn all_six() -> [CcdConfig; 6] {
        use CcdPersistentContactPolicy::*;
        let mut all = [CcdConfig::UPSTREAM; 6];
        for (i, policy) in [Upstream, CoreSphere, CoreSphereFixedTargets]
            .into_iter()
            .enumerate()
        {
            all[2 * i] = CcdConfig::new(false, policy);
            all[2 * i + 1] = CcdConfig::new(true, policy);
        }
        all
    }

    /// The settings `params` holds.
    pub fn of(params: &IntegrationParameters) -> CcdConfig {
        CcdConfig::new(
            params.ccd_relative_motion,
            params.ccd_persistent_contact_policy,
        )
    }

    /// Writes both settings into `params`; every other field stays as it is.
    pub fn apply(self, params: &mut IntegrationParameters) {
        params.ccd_relative_motion = self.relative_motion;
        params.ccd_persistent_contact_policy = self.policy;
    }

    /// Upstream's default parameters with these two settings applied.
    pub fn params(self) -> IntegrationParameters {
        let mut params = IntegrationParameters::default();
        self.apply(&mut params);
        params
    }

    /// Reads a policy number (`0`, `1`, `2`) and `on`/`off` for relative motion, as the
    /// evaluation examples take them on the command line.
    pub fn parse(policy: &str, relative_motion: &str) -> Result<CcdConfig, String> {
        let number: u8 = policy
            .parse()
            .map_err(|e| format!("policy '{policy}': {e}"))?;
        let policy = CcdPersistentContactPolicy::try_from(number)
            .map_err(|e| format!("policy {number}: {e:?}"))?;
        let relative_motion = match relative_motion {
            "on" => true,
            "off" => false,
            other => return Err(format!("relative motion '{other}': expected on or off")),
        };
        Ok(CcdConfig::new(relative_motion, policy))
    }

    /// `p<policy number> rm <off|on >` (fixed width), as the evaluation tables print it.
    pub fn label(self) -> String {
        format!(
            "p{} rm {}",
            self.policy as u8,
            if self.relative_motion { "on " } else { "off" }
        )
    }
}

impl Default for CcdConfig {
    /// Upstream's rules, like `IntegrationParameters::default()`.
    fn default() -> CcdConfig {
        CcdConfig::UPSTREAM
    }
}
