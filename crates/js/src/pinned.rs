//! Pinned worlds from JavaScript: a physics-version from the wrapper's table (compiled in, never
//! typed in JS), a match id and optionally a game's settings; made empty or restored from a
//! snapshot with every check of `docs/protocol.md`.

use rapier_pinned::{
    GameSettings, PhysicsVersion, PinnedWorld, WorldConfig, PHYSICS_VERSION_CURRENT,
};
use wasm_bindgen::prelude::*;

use crate::error::{js_error, pinned_error};
use crate::world::RawWorld;

/// The config of `version` and `match_id`, with `settings` (`[gx, gy, gz, tickHz, lengthUnit]`)
/// when given: a version or a setting the table does not allow is a `PinnedError`. Takes them as
/// JavaScript gives them: the physics-version as its number, made a [`PhysicsVersion`] here.
pub fn config(
    version: u32,
    match_id: u64,
    settings: Option<Vec<f64>>,
) -> Result<WorldConfig, JsValue> {
    let config = WorldConfig::new(PhysicsVersion::new(version))
        .map_err(|e| pinned_error(&e.into()))?
        .with_match_id(match_id);
    let Some(s) = settings else {
        return Ok(config);
    };
    let [gx, gy, gz, tick_hz, length_unit] = <[f64; 5]>::try_from(s.as_slice())
        .map_err(|_| js_error("settings are [gx, gy, gz, tickHz, lengthUnit]"))?;
    if tick_hz.fract() != 0.0 || !(0.0..=u32::MAX as f64).contains(&tick_hz) {
        return Err(js_error(&format!(
            "tickHz is a whole number, not {tick_hz}"
        )));
    }
    let settings = GameSettings {
        gravity: [gx as f32, gy as f32, gz as f32],
        tick_hz: tick_hz as u32,
        length_unit: length_unit as f32,
    };
    config
        .with_settings(settings)
        .map_err(|e| pinned_error(&e.into()))
}

#[wasm_bindgen]
impl RawWorld {
    /// An empty pinned world at tick 0.
    #[wasm_bindgen(js_name = newPinned)]
    pub fn new_pinned(
        version: u32,
        match_id: u64,
        settings: Option<Vec<f64>>,
    ) -> Result<RawWorld, JsValue> {
        Ok(RawWorld::pinned(PinnedWorld::new(config(
            version, match_id, settings,
        )?)))
    }

    /// The pinned world a snapshot holds, restored under `version`, `match_id` and `settings`
    /// with `key` (32 bytes) when given; a refusal is a `PinnedError`.
    #[wasm_bindgen(js_name = restorePinned)]
    pub fn restore_pinned(
        version: u32,
        match_id: u64,
        settings: Option<Vec<f64>>,
        bytes: &[u8],
        key: Option<Vec<u8>>,
    ) -> Result<RawWorld, JsValue> {
        let config = config(version, match_id, settings)?;
        let mut world = RawWorld::pinned(PinnedWorld::new(config));
        world.restore(bytes, key)?;
        Ok(world)
    }
}

/// The current physics-version of this build's table.
#[wasm_bindgen(js_name = physicsVersionCurrent)]
pub fn physics_version_current() -> u32 {
    PHYSICS_VERSION_CURRENT.get()
}
