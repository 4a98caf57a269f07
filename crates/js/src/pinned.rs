//! Pinned worlds from JavaScript: a physics-version from the wrapper's table (compiled in, never
//! typed in JS), a match id and optionally a game's settings ([`RawPinnedConfig`]). The world
//! itself is stock rapier.js's `World` (`js/pinned.js`: `PinnedWorld extends World`), whose parts
//! are the raw module's objects (crates/js-raw); this module makes its first parts, checks its
//! parameters before every step, and snapshots and restores its parts with every check of
//! `docs/protocol.md` (the native code: [`PinnedWorld::adopt_at`], [`PinnedWorld::restore`]).

use rapier_pinned::{
    diff_world, Baseline, Error, GameSettings, Level, PhysicsVersion, PinnedWorld, SnapshotKey,
    WorldConfig, PHYSICS_VERSION_CURRENT,
};
use rapier_pinned_js_raw::{
    reset_workspaces, RawBroadPhase, RawCCDSolver, RawColliderSet, RawDeserializedWorld,
    RawImpulseJointSet, RawIntegrationParameters, RawIslandManager, RawMultibodyJointSet,
    RawNarrowPhase, RawPhysicsPipeline, RawRigidBodySet, RawSoftBodySet, WorldParts,
};
use rapier_pinned_scenes::{catalog, trimesh_level, LEVEL_SCENE};
use wasm_bindgen::prelude::*;

use crate::error::{js_error, pinned_error};

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

/// A key from JavaScript: `undefined`, or exactly 32 bytes.
pub fn key(bytes: Option<Vec<u8>>) -> Result<Option<SnapshotKey>, JsValue> {
    bytes
        .map(|b| {
            <[u8; 32]>::try_from(b.as_slice())
                .map(SnapshotKey::new)
                .map_err(|_| js_error(&format!("a snapshot key is 32 bytes, not {}", b.len())))
        })
        .transpose()
}

/// A level from JavaScript: `undefined`, or a level file's bytes (`docs/protocol.md` §3.3);
/// bytes that are not a level are a `PinnedError` (`BadLevel`).
pub fn level(bytes: Option<Vec<u8>>) -> Result<Option<Level>, JsValue> {
    bytes
        .map(|b| Level::read(&b).map_err(|e| pinned_error(&e.into())))
        .transpose()
}

/// A tick from JavaScript (a number), as the wrapper counts it.
fn tick(t: f64) -> Result<u64, JsValue> {
    if t.is_finite() && t >= 0.0 && t.fract() == 0.0 && t < 2f64.powi(53) {
        Ok(t as u64)
    } else {
        Err(js_error(&format!("{t} is not a tick")))
    }
}

/// A pinned world's config, held by its `PinnedWorld` (js/pinned.js).
#[wasm_bindgen]
pub struct RawPinnedConfig {
    config: WorldConfig,
    level: Option<Level>,
}

#[wasm_bindgen]
impl RawPinnedConfig {
    /// The config of `version`, `match_id` and `settings` (see [`config`]), on the level whose
    /// bytes are `level_bytes` when given.
    #[wasm_bindgen(constructor)]
    pub fn new(
        version: u32,
        match_id: u64,
        settings: Option<Vec<f64>>,
        level_bytes: Option<Vec<u8>>,
    ) -> Result<RawPinnedConfig, JsValue> {
        let config = config(version, match_id, settings)?;
        let level = level(level_bytes)?;
        Ok(RawPinnedConfig {
            config: level.as_ref().map_or(config, |l| config.with_level(l.id())),
            level,
        })
    }

    /// The id of the level the world is on (64 hex digits), if any.
    #[wasm_bindgen(js_name = levelId)]
    pub fn level_id(&self) -> Option<String> {
        self.config.level().map(|id| id.to_string())
    }

    /// The bytes of the level the world is on, if any.
    #[wasm_bindgen(js_name = levelBytes)]
    pub fn level_bytes(&self) -> Option<Vec<u8>> {
        self.level.as_ref().map(|l| l.bytes().to_vec())
    }

    #[wasm_bindgen(js_name = physicsVersion)]
    pub fn physics_version(&self) -> u32 {
        self.config.physics_version().get()
    }

    #[wasm_bindgen(js_name = matchId)]
    pub fn match_id(&self) -> u64 {
        self.config.match_id()
    }

    /// The gravity, `[x, y, z]`.
    pub fn gravity(&self) -> Vec<f32> {
        self.config.gravity().to_array().to_vec()
    }

    /// An empty world of the config, as parts for stock's `World.fromRaw`.
    #[wasm_bindgen(js_name = emptyWorld)]
    pub fn empty_world(&self) -> RawDeserializedWorld {
        let (world, _) = PinnedWorld::new(self.config).into_parts();
        RawDeserializedWorld::from_world(world)
    }

    /// Catalog scene `name` at tick 0, as parts for stock's `World.fromRaw` (the path of
    /// `rapier-pinned snapshot save`: the scene built under the config's parameters, then
    /// adopted with every check).
    /// The level scene (`trimesh_level`) puts the config on its level.
    pub fn scene(&mut self, name: &str) -> Result<RawDeserializedWorld, JsValue> {
        if name == LEVEL_SCENE {
            let (built, shapes) = trimesh_level(self.config.params());
            let level = Level::new(shapes).map_err(|e| pinned_error(&e.into()))?;
            self.config = self.config.with_level(level.id());
            self.level = Some(level);
            let world = PinnedWorld::adopt(self.config, built).map_err(|e| pinned_error(&e))?;
            return Ok(RawDeserializedWorld::from_world(world.into_parts().0));
        }
        let scene = catalog()
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| js_error(&format!("no catalog scene {name}")))?;
        let world = PinnedWorld::adopt(self.config, scene.build(self.config.params()))
            .map_err(|e| pinned_error(&e))?;
        Ok(RawDeserializedWorld::from_world(world.into_parts().0))
    }

    /// Throws unless `params` are the config's, bit for bit (run before every step: a program
    /// that reached the raw parameters past the pinned setters cannot step with others).
    pub fn check(&self, params: &RawIntegrationParameters) -> Result<(), JsValue> {
        // The bits first: naming the fields that differ formats every field, too slow per step.
        if params.same_bits(&self.config.params()) {
            return Ok(());
        }
        let diffs = diff_world(&self.config, params.params(), self.config.gravity());
        Err(pinned_error(&Error::ConfigMismatch(diffs)))
    }

    /// The snapshot of the parts at `tick` in snapshot `format` (1; 2, LZ4; 3, linked to the
    /// config's level; 4, a delta against the payload `baseline`), with a MAC when `key` (32
    /// bytes) is given: the parts adopted with every check, then written as native code writes a
    /// pinned world.
    #[allow(clippy::too_many_arguments)]
    pub fn snapshot(
        &self,
        at: f64,
        key_bytes: Option<Vec<u8>>,
        format: u32,
        baseline: Option<Vec<u8>>,
        params: &mut RawIntegrationParameters,
        islands: &mut RawIslandManager,
        broad_phase: &mut RawBroadPhase,
        narrow_phase: &mut RawNarrowPhase,
        bodies: &mut RawRigidBodySet,
        colliders: &mut RawColliderSet,
        soft_bodies: &mut RawSoftBodySet,
        impulse_joints: &mut RawImpulseJointSet,
        multibody_joints: &mut RawMultibodyJointSet,
    ) -> Result<Vec<u8>, JsValue> {
        let key = key(key_bytes)?;
        let parts = WorldParts {
            params,
            islands,
            broad_phase,
            narrow_phase,
            bodies,
            colliders,
            soft_bodies,
            impulse_joints,
            multibody_joints,
        };
        let world = PinnedWorld::adopt_at(
            self.config,
            parts.to_world(self.config.gravity()),
            tick(at)?,
        )
        .map_err(|e| pinned_error(&e))?;
        match format {
            1 => Ok(world.snapshot(key.as_ref())),
            2 => Ok(world.snapshot_compressed(key.as_ref())),
            3 => world
                .snapshot_linked(self.level.as_ref(), key.as_ref())
                .map_err(|e| pinned_error(&e)),
            4 => match baseline {
                Some(payload) => {
                    Ok(world.snapshot_delta(&Baseline::from_payload(payload), key.as_ref()))
                }
                None => Err(js_error(
                    "snapshot format 4 is a delta: it needs a baseline",
                )),
            },
            f => Err(js_error(&format!(
                "snapshot format {f}: this build writes 1, 2, 3 and 4"
            ))),
        }
    }

    /// Replaces the parts by the world of snapshot `bytes`, restored with every check of
    /// `docs/protocol.md` and `key` when given (a delta against the payload `baseline`), and
    /// answers its tick; on a refusal (a `PinnedError`) nothing is changed. The CCD solver and
    /// the pipeline start fresh, as in a native restore.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = restoreInto)]
    pub fn restore_into(
        &self,
        bytes: &[u8],
        key_bytes: Option<Vec<u8>>,
        baseline: Option<Vec<u8>>,
        params: &mut RawIntegrationParameters,
        islands: &mut RawIslandManager,
        broad_phase: &mut RawBroadPhase,
        narrow_phase: &mut RawNarrowPhase,
        bodies: &mut RawRigidBodySet,
        colliders: &mut RawColliderSet,
        soft_bodies: &mut RawSoftBodySet,
        impulse_joints: &mut RawImpulseJointSet,
        multibody_joints: &mut RawMultibodyJointSet,
        ccd_solver: &mut RawCCDSolver,
        pipeline: &mut RawPhysicsPipeline,
    ) -> Result<f64, JsValue> {
        let key = key(key_bytes)?;
        let restored = match baseline {
            Some(payload) => {
                let baseline = Baseline::from_payload(payload);
                PinnedWorld::restore_delta(self.config, &baseline, bytes, key.as_ref())
            }
            None => PinnedWorld::restore_on(self.config, self.level.as_ref(), bytes, key.as_ref()),
        };
        let restored = restored.map_err(|e| pinned_error(&e))?;
        let (world, tick) = restored.into_parts();
        let mut parts = WorldParts {
            params,
            islands,
            broad_phase,
            narrow_phase,
            bodies,
            colliders,
            soft_bodies,
            impulse_joints,
            multibody_joints,
        };
        parts.replace(world);
        reset_workspaces(ccd_solver, pipeline);
        Ok(tick as f64)
    }
}

/// The state digest (crates/digest) of the bodies of a world of stock's API (`World.digest()`,
/// an addition of the package), as native code prints it.
#[wasm_bindgen(js_name = bodiesDigest)]
pub fn bodies_digest(bodies: &RawRigidBodySet) -> String {
    format!("{:016x}", rapier_pinned_digest::state_digest(bodies.set()))
}

/// The current physics-version of this build's table.
#[wasm_bindgen(js_name = physicsVersionCurrent)]
pub fn physics_version_current() -> u32 {
    PHYSICS_VERSION_CURRENT.get()
}
