//! The scene catalog (`crates/scenes`), compiled in: the same worlds the golden files, the
//! conformance vectors and the benches run, so a JavaScript test compares its digests with the
//! native ones file for file.

use rapier_pinned::{entry, PhysicsVersion};
use rapier_pinned_js_raw::RawDeserializedWorld;
use rapier_pinned_scenes::{catalog, thin_sets};
use wasm_bindgen::prelude::*;

use crate::error::{js_error, pinned_error};

/// The names of the golden files (`golden/<version>/<name>.snap`): every catalog scene, then every
/// thin-part set, in the order the golden suite records them.
#[wasm_bindgen(js_name = goldenScenes)]
pub fn golden_scenes() -> Vec<String> {
    let scenes = catalog().iter().map(|s| s.name.to_string());
    scenes
        .chain(thin_sets().iter().map(|t| t.name.to_string()))
        .collect()
}

/// The runs of golden scene `name` (one, named after the scene, or a set's `set@speed#start`).
#[wasm_bindgen(js_name = goldenRuns)]
pub fn golden_runs(name: &str) -> Result<Vec<String>, JsValue> {
    if let Some(scene) = catalog().iter().find(|s| s.name == name) {
        return Ok(vec![scene.name.to_string()]);
    }
    let set = thin_sets()
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| js_error(&format!("no golden scene {name}")))?;
    Ok(set.runs().map(|r| r.to_string()).collect())
}

/// Run `run` of golden scene `name` as the golden suite builds it under `version`'s parameters:
/// a plain world (the golden suite steps rapier3d's `PhysicsWorld`), as parts for stock's
/// `World.fromRaw`, and its step count.
#[wasm_bindgen(js_name = goldenRun)]
pub fn golden_run(version: u32, name: &str, run: &str) -> Result<GoldenRun, JsValue> {
    let params = entry(PhysicsVersion::new(version))
        .map_err(|e| pinned_error(&e))?
        .params();
    if let Some(scene) = catalog().iter().find(|s| s.name == name && s.name == run) {
        return Ok(GoldenRun {
            world: Some(RawDeserializedWorld::from_world(scene.build(params))),
            steps: scene.steps as u32,
        });
    }
    let set = thin_sets().iter().find(|t| t.name == name);
    let found = set.and_then(|t| t.runs().find(|r| r.to_string() == run).map(|r| (t, r)));
    let (set, r) = found.ok_or_else(|| js_error(&format!("no run {run} of {name}")))?;
    let (world, case) = set.build_run(params, r);
    Ok(GoldenRun {
        world: Some(RawDeserializedWorld::from_world(world)),
        steps: case.steps as u32,
    })
}

/// A golden run: its world (taken once) and its step count.
#[wasm_bindgen]
pub struct GoldenRun {
    world: Option<RawDeserializedWorld>,
    steps: u32,
}

#[wasm_bindgen]
impl GoldenRun {
    /// The step count.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The world; a second call throws.
    #[wasm_bindgen(js_name = takeWorld)]
    pub fn take_world(&mut self) -> Result<RawDeserializedWorld, JsValue> {
        self.world
            .take()
            .ok_or_else(|| js_error("the world was taken"))
    }
}
