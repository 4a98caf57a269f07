//! The fork's two continuous-collision settings as one value: [`CcdConfig`].
//!
//! `IntegrationParameters::ccd_relative_motion` (bullet pairs swept on both bodies' motions) and
//! `IntegrationParameters::ccd_persistent_contact_policy` (what the continuous pass does with a
//! pair that starts in contact) are the two fields a physics-version sets beyond upstream's
//! rules. Every tool of the project that runs a world under a chosen CCD configuration (the
//! thin-part evaluation, its bench and examples, the CLI's `perturbation` table, the tests of the
//! two settings) builds it here, from upstream's defaults, a physics-version of the table or any
//! pair of settings, and writes it into parameters with [`CcdConfig::apply`]. The evaluation's
//! own names for configurations (the six combinations it measures, their table label) are in
//! `rapier_pinned_ccd_eval::configs`; their command-line form, `POLICY:MODE` (`5:bounded`), is
//! read here ([`CcdConfig`]'s `FromStr`), for every tool that takes one.
//! The physics-version table (`version.rs`, [`crate::version_table`]) stays the source of each version's settings.

use crate::error::Error;
use crate::version::{entry, PhysicsVersion, PHYSICS_VERSION_CURRENT};
use rapier3d::dynamics::{
    CcdPersistentContactPolicy, CcdRelativeMotion, IntegrationParameters,
    UnknownCcdPersistentContactPolicy,
};
use std::str::FromStr;

/// The pair (`ccd_relative_motion`, `ccd_persistent_contact_policy`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CcdConfig {
    /// `IntegrationParameters::ccd_relative_motion`.
    pub relative_motion: CcdRelativeMotion,
    /// `IntegrationParameters::ccd_persistent_contact_policy`.
    pub policy: CcdPersistentContactPolicy,
}

impl CcdConfig {
    /// Upstream's rules (rapier3d's defaults; physics-version 1): relative motion off, policy 0.
    pub const UPSTREAM: CcdConfig = CcdConfig {
        relative_motion: CcdRelativeMotion::Off,
        policy: CcdPersistentContactPolicy::Upstream,
    };

    /// The given settings.
    pub const fn new(
        relative_motion: CcdRelativeMotion,
        policy: CcdPersistentContactPolicy,
    ) -> CcdConfig {
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
}

/// Why a `POLICY:MODE` text is not a [`CcdConfig`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseCcdConfigError {
    /// No `:` between the policy and the mode.
    #[error("config '{0}': expected POLICY:MODE, MODE one of off, on, bounded, bounded-casts")]
    Form(String),
    /// A policy that is not a number.
    #[error("policy '{text}': {source}")]
    PolicyNotANumber {
        /// The text given.
        text: String,
        /// Why it is not a `u8`.
        source: std::num::ParseIntError,
    },
    /// A number that names no policy.
    #[error("policy {number}: {source}")]
    UnknownPolicy {
        /// The number given.
        number: u8,
        /// rapier's refusal.
        source: UnknownCcdPersistentContactPolicy,
    },
    /// Relative motion given as none of the modes' names.
    #[error("relative motion '{0}': expected off, on, bounded or bounded-casts")]
    RelativeMotion(String),
}

impl CcdConfig {
    /// The relative-motion mode's name in the `POLICY:MODE` form (`off`, `on`, `bounded` or
    /// `bounded-casts`).
    pub fn mode_name(self) -> &'static str {
        // Exhaustive: a new mode fails to compile until it has a name.
        match self.relative_motion {
            CcdRelativeMotion::Off => "off",
            CcdRelativeMotion::On => "on",
            CcdRelativeMotion::Bounded => "bounded",
            CcdRelativeMotion::BoundedCasts => "bounded-casts",
        }
    }

    /// Reads a policy number (`0` to `5`) and a relative-motion mode (its name),
    /// the two halves of the `POLICY:MODE` form.
    pub fn from_parts(policy: &str, mode: &str) -> Result<CcdConfig, ParseCcdConfigError> {
        let number: u8 =
            policy
                .parse()
                .map_err(|source| ParseCcdConfigError::PolicyNotANumber {
                    text: policy.to_string(),
                    source,
                })?;
        let policy = CcdPersistentContactPolicy::try_from(number)
            .map_err(|source| ParseCcdConfigError::UnknownPolicy { number, source })?;
        // Every mode is a number from 0 up (`TryFrom<u8>`): the one whose name is `mode`.
        let relative_motion = (0..=u8::MAX)
            .map_while(|n| CcdRelativeMotion::try_from(n).ok())
            .find(|m| CcdConfig::new(*m, policy).mode_name() == mode)
            .ok_or_else(|| ParseCcdConfigError::RelativeMotion(mode.to_string()))?;
        Ok(CcdConfig::new(relative_motion, policy))
    }
}

impl FromStr for CcdConfig {
    type Err = ParseCcdConfigError;

    /// `POLICY:MODE`, e.g. `6:bounded-casts` (physics-version 6's settings), `5:bounded-casts`
    /// (version 5's), `5:bounded` (version 4's) or `0:off` (upstream's).
    fn from_str(text: &str) -> Result<CcdConfig, ParseCcdConfigError> {
        let (policy, mode) = text
            .split_once(':')
            .ok_or_else(|| ParseCcdConfigError::Form(text.to_string()))?;
        CcdConfig::from_parts(policy, mode)
    }
}

impl std::fmt::Display for CcdConfig {
    /// The `POLICY:MODE` form `FromStr` reads.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.policy as u8, self.mode_name())
    }
}

impl Default for CcdConfig {
    /// Upstream's rules, like `IntegrationParameters::default()`.
    fn default() -> CcdConfig {
        CcdConfig::UPSTREAM
    }
}
