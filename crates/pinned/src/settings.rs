//! A game's own world settings: gravity, tick rate and length unit, chosen per world within what
//! its physics-version allows (issue 30; `docs/protocol.md` §2).
//!
//! Decision: a physics-version pins the engine's rules (code, CCD rules, solver constants); a game
//! chooses the world's gravity, tick and length unit, within the version's [`Choices`]. Every peer
//! must share them, so they are part of the config digest, and a snapshot records them (the
//! payload's gravity and integration parameters).

use crate::diff::{diff_fields, gravity_fields, FieldDiff, FieldValue, Fields};
use crate::error::{Allowed, ConfigError, SettingValue};
use rapier3d::prelude::{IntegrationParameters, Vector};
use serde::{Deserialize, Serialize};

/// What a game may choose, and what it may not: the allowed tick rates, length units and
/// gravity of one physics-version.
#[derive(Debug)]
pub struct Choices {
    /// The tick rates (steps per second) the version allows; `dt` is `1 / tick_hz`. A rate is
    /// allowed only where the version's gates were measured to hold
    /// (`docs/physics-engine.md`, "Gates at each tick rate").
    pub tick_hz: &'static [u32],
    /// The smallest and largest allowed `length_unit` (inclusive).
    pub length_unit: [f32; 2],
    /// The largest allowed gravity magnitude, in length units per second squared.
    pub max_gravity: f32,
}

/// A game's choices for one world. [`crate::VersionEntry::default_settings`] gives a version's
/// defaults, the values every world had before games could choose.
#[derive(Copy, Clone, Debug, Serialize, Deserialize)]
pub struct GameSettings {
    /// Gravity, bit for bit (a `-0.0` component is not a `0.0` one: the state differs in its
    /// sign of zero, so a trajectory can).
    pub gravity: [f32; 3],
    /// Steps per second; the step is `dt = 1 / tick_hz` (f32 division).
    pub tick_hz: u32,
    /// rapier's `IntegrationParameters::length_unit`: the size of a typical object, in the
    /// game's units (1 for metres, 100 for centimetres).
    pub length_unit: f32,
}

impl PartialEq for GameSettings {
    /// Bit for bit: `-0.0 != 0.0`, as in every other pinned field.
    fn eq(&self, other: &Self) -> bool {
        self.gravity.map(f32::to_bits) == other.gravity.map(f32::to_bits)
            && self.tick_hz == other.tick_hz
            && self.length_unit.to_bits() == other.length_unit.to_bits()
    }
}

impl Eq for GameSettings {}

impl GameSettings {
    /// The step, `1 / tick_hz` in f32 (at 60 Hz the released `1.0 / 60.0`, bit for bit).
    pub fn dt(&self) -> f32 {
        1.0 / self.tick_hz as f32
    }

    /// Checks every field against `choices`: the first field outside them is
    /// [`ConfigError::SettingNotAllowed`], naming the field, its value and what is allowed.
    pub fn check(&self, choices: &Choices) -> Result<(), ConfigError> {
        let refuse = |field: &'static str, value: SettingValue, allowed: Allowed| {
            Err(ConfigError::SettingNotAllowed {
                field,
                value,
                allowed,
            })
        };
        if !choices.tick_hz.contains(&self.tick_hz) {
            return refuse(
                "tick_hz",
                SettingValue::Whole(self.tick_hz),
                Allowed::OneOf(choices.tick_hz),
            );
        }
        let [low, high] = choices.length_unit;
        if !(low..=high).contains(&self.length_unit) {
            return refuse(
                "length_unit",
                SettingValue::Real(self.length_unit),
                Allowed::Range { low, high },
            );
        }
        let allowed_gravity = Allowed::MaxMagnitude(choices.max_gravity);
        for (name, g) in ["gravity.x", "gravity.y", "gravity.z"]
            .into_iter()
            .zip(self.gravity)
        {
            if !g.is_finite() {
                return refuse(name, SettingValue::Real(g), allowed_gravity);
            }
        }
        let magnitude = self.gravity.iter().map(|g| g * g).sum::<f32>().sqrt();
        if magnitude > choices.max_gravity * self.length_unit {
            return refuse(
                "gravity",
                SettingValue::Vector(self.gravity),
                allowed_gravity,
            );
        }
        Ok(())
    }

    /// The settings a world with this gravity and these parameters runs under, if its `dt` is
    /// `1 / n` for a whole tick rate `n` (what a snapshot records; [`crate::recorded_params`]).
    pub fn of_world(gravity: Vector, params: &IntegrationParameters) -> Option<Self> {
        let hz = (1.0 / params.dt).round();
        if !(1.0..=u32::MAX as f32).contains(&hz) {
            return None;
        }
        let settings = Self {
            gravity: gravity.to_array(),
            tick_hz: hz as u32,
            length_unit: params.length_unit,
        };
        (settings.dt().to_bits() == params.dt.to_bits()).then_some(settings)
    }

    /// Every field as `(name, value)`: `gravity.x`, `gravity.y`, `gravity.z`, `tick_hz`,
    /// `length_unit` (floats printed bit-exact).
    pub fn fields(&self) -> Fields {
        let mut out = gravity_fields(self.gravity);
        out.push(("tick_hz", FieldValue::Whole(self.tick_hz.into())));
        out.push(("length_unit", FieldValue::Real(self.length_unit)));
        out
    }

    /// The fields of `found` that differ from these (`pinned` is this one's value).
    pub fn diff(&self, found: &GameSettings) -> Vec<FieldDiff> {
        diff_fields(self.fields(), found.fields())
    }

    /// The bytes the config digest appends for these settings: gravity, `dt` and `length_unit`
    /// as their f32 bits, little-endian (20 bytes).
    pub(crate) fn digest_bytes(&self) -> [u8; 20] {
        let mut out = [0; 20];
        let words = [
            self.gravity[0],
            self.gravity[1],
            self.gravity[2],
            self.dt(),
            self.length_unit,
        ];
        for (chunk, x) in out.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&x.to_bits().to_le_bytes());
        }
        out
    }
}

impl std::fmt::Display for GameSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.gravity;
        write!(
            f,
            "gravity [{x:?}, {y:?}, {z:?}], {} Hz (dt {:?}), length_unit {:?}",
            self.tick_hz,
            self.dt(),
            self.length_unit
        )
    }
}
