//! The world's containers that have little behaviour of their own: `RawIntegrationParameters`,
//! `RawIslandManager`, `RawBroadPhase` (its queries are in queries.rs), `RawNarrowPhase`,
//! `RawCCDSolver`, `RawSoftBodySet`.

use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::interface::{from_flat, to_flat, unsupported};

#[wasm_bindgen]
pub struct RawIntegrationParameters(pub(crate) IntegrationParameters);

impl RawIntegrationParameters {
    /// The parameters, for the pinned layer's check before each step (crates/js).
    pub fn params(&self) -> &IntegrationParameters {
        &self.0
    }

    /// Whether the parameters are `other`'s bit for bit (their bincode bytes hold every float's
    /// bits): the pinned layer's check before each step, cheap enough for every step.
    pub fn same_bits(&self, other: &IntegrationParameters) -> bool {
        bincode::serialize(&self.0).ok() == bincode::serialize(other).ok()
    }
}

#[wasm_bindgen]
impl RawIntegrationParameters {
    /// rapier3d's defaults: the fork's CCD settings are off (upstream behaviour).
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Self(IntegrationParameters::default())
    }
    #[wasm_bindgen(getter)]
    pub fn dt(&self) -> f32 {
        self.0.dt
    }
    #[wasm_bindgen(setter)]
    pub fn set_dt(&mut self, v: f32) {
        self.0.dt = v
    }
    #[wasm_bindgen(getter)]
    pub fn contact_erp(&self) -> f32 {
        self.0.contact_softness.erp(self.0.dt)
    }
    #[wasm_bindgen(setter)]
    pub fn set_contact_natural_frequency(&mut self, v: f32) {
        self.0.contact_softness.natural_frequency = v
    }
    #[wasm_bindgen(getter, js_name = lengthUnit)]
    pub fn length_unit(&self) -> f32 {
        self.0.length_unit
    }
    #[wasm_bindgen(setter, js_name = lengthUnit)]
    pub fn set_length_unit(&mut self, v: f32) {
        self.0.length_unit = v
    }
    #[wasm_bindgen(getter, js_name = normalizedAllowedLinearError)]
    pub fn normalized_allowed_linear_error(&self) -> f32 {
        self.0.normalized_allowed_linear_error
    }
    #[wasm_bindgen(setter, js_name = normalizedAllowedLinearError)]
    pub fn set_normalized_allowed_linear_error(&mut self, v: f32) {
        self.0.normalized_allowed_linear_error = v
    }
    #[wasm_bindgen(getter, js_name = normalizedPredictionDistance)]
    pub fn normalized_prediction_distance(&self) -> f32 {
        self.0.normalized_prediction_distance
    }
    #[wasm_bindgen(setter, js_name = normalizedPredictionDistance)]
    pub fn set_normalized_prediction_distance(&mut self, v: f32) {
        self.0.normalized_prediction_distance = v
    }
    #[wasm_bindgen(getter, js_name = numSolverIterations)]
    pub fn num_solver_iterations(&self) -> usize {
        self.0.num_solver_iterations
    }
    #[wasm_bindgen(setter, js_name = numSolverIterations)]
    pub fn set_num_solver_iterations(&mut self, v: usize) {
        self.0.num_solver_iterations = v
    }
    #[wasm_bindgen(getter, js_name = numInternalPgsIterations)]
    pub fn num_internal_pgs_iterations(&self) -> usize {
        self.0.num_internal_pgs_iterations
    }
    #[wasm_bindgen(setter, js_name = numInternalPgsIterations)]
    pub fn set_num_internal_pgs_iterations(&mut self, v: usize) {
        self.0.num_internal_pgs_iterations = v
    }
    #[wasm_bindgen(getter, js_name = maxCcdSubsteps)]
    pub fn max_ccd_substeps(&self) -> usize {
        self.0.max_ccd_substeps
    }
    #[wasm_bindgen(setter, js_name = maxCcdSubsteps)]
    pub fn set_max_ccd_substeps(&mut self, v: usize) {
        self.0.max_ccd_substeps = v
    }
    #[wasm_bindgen(getter, js_name = softBodiesResweepStrain)]
    pub fn soft_bodies_resweep_strain(&self) -> f32 {
        self.0.soft_bodies.resweep_strain
    }
    #[wasm_bindgen(setter, js_name = softBodiesResweepStrain)]
    pub fn set_soft_bodies_resweep_strain(&mut self, v: f32) {
        self.0.soft_bodies.resweep_strain = v
    }
    #[wasm_bindgen(getter, js_name = softBodiesMaxExtraSubsteps)]
    pub fn soft_bodies_max_extra_substeps(&self) -> usize {
        self.0.soft_bodies.max_extra_substeps
    }
    #[wasm_bindgen(setter, js_name = softBodiesMaxExtraSubsteps)]
    pub fn set_soft_bodies_max_extra_substeps(&mut self, v: usize) {
        self.0.soft_bodies.max_extra_substeps = v
    }
    #[wasm_bindgen(getter, js_name = softBodiesContactStiffening)]
    pub fn soft_bodies_contact_stiffening(&self) -> f32 {
        self.0.soft_bodies.contact_stiffening
    }
    #[wasm_bindgen(setter, js_name = softBodiesContactStiffening)]
    pub fn set_soft_bodies_contact_stiffening(&mut self, v: f32) {
        self.0.soft_bodies.contact_stiffening = v
    }
    /// FEM soft bodies: rapier3d's `fem` feature is off in this build.
    #[wasm_bindgen(getter, js_name = softBodiesFemLinearTolerance)]
    pub fn soft_bodies_fem_linear_tolerance(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawIntegrationParameters.softBodiesFemLinearTolerance",
        ))
    }
    #[wasm_bindgen(setter, js_name = softBodiesFemLinearTolerance)]
    pub fn set_soft_bodies_fem_linear_tolerance(&mut self, _v: JsValue) -> Result<(), JsValue> {
        Err(unsupported(
            "RawIntegrationParameters.softBodiesFemLinearTolerance",
        ))
    }
    /// FEM soft bodies: rapier3d's `fem` feature is off in this build.
    #[wasm_bindgen(getter, js_name = softBodiesFemMaxLinearIterations)]
    pub fn soft_bodies_fem_max_linear_iterations(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawIntegrationParameters.softBodiesFemMaxLinearIterations",
        ))
    }
    #[wasm_bindgen(setter, js_name = softBodiesFemMaxLinearIterations)]
    pub fn set_soft_bodies_fem_max_linear_iterations(
        &mut self,
        _v: JsValue,
    ) -> Result<(), JsValue> {
        Err(unsupported(
            "RawIntegrationParameters.softBodiesFemMaxLinearIterations",
        ))
    }
    /// FEM soft bodies: rapier3d's `fem` feature is off in this build.
    #[wasm_bindgen(getter, js_name = softBodiesFemMaxDenseDofs)]
    pub fn soft_bodies_fem_max_dense_dofs(&self) -> Result<JsValue, JsValue> {
        Err(unsupported(
            "RawIntegrationParameters.softBodiesFemMaxDenseDofs",
        ))
    }
    #[wasm_bindgen(setter, js_name = softBodiesFemMaxDenseDofs)]
    pub fn set_soft_bodies_fem_max_dense_dofs(&mut self, _v: JsValue) -> Result<(), JsValue> {
        Err(unsupported(
            "RawIntegrationParameters.softBodiesFemMaxDenseDofs",
        ))
    }
    /// Soft bodies are not supported by this build (nor their recovery settings).
    #[wasm_bindgen(getter, js_name = softBodiesRecovery)]
    pub fn soft_bodies_recovery(&self) -> Result<JsValue, JsValue> {
        Err(unsupported("RawIntegrationParameters.softBodiesRecovery"))
    }
    #[wasm_bindgen(setter, js_name = softBodiesRecovery)]
    pub fn set_soft_bodies_recovery(&mut self, _v: JsValue) -> Result<(), JsValue> {
        Err(unsupported("RawIntegrationParameters.softBodiesRecovery"))
    }
    /// The fork's setting (design §4.1), as its mode's number (`CcdRelativeMotion`: 0 off, 1 on,
    /// 2 bounded); not in stock's `.d.ts`: 0 is upstream behaviour.
    #[wasm_bindgen(getter, js_name = ccdRelativeMotion)]
    pub fn ccd_relative_motion(&self) -> u32 {
        self.0.ccd_relative_motion as u32
    }
    /// Takes the mode's number, or a boolean (`false` is 0, `true` 1: what the setting was
    /// before it had a third mode); anything else is an error that changes nothing.
    #[wasm_bindgen(setter, js_name = ccdRelativeMotion)]
    pub fn set_ccd_relative_motion(&mut self, v: JsValue) -> Result<(), JsValue> {
        let v = v.as_bool().map_or(v, |on| JsValue::from(u8::from(on)));
        self.0.ccd_relative_motion = ccd_setting("ccdRelativeMotion", " or a boolean", &v)?;
        Ok(())
    }
    /// The fork's setting (design §4.2), as its policy's number; 0 is upstream behaviour.
    #[wasm_bindgen(getter, js_name = ccdPersistentContactPolicy)]
    pub fn ccd_persistent_contact_policy(&self) -> u32 {
        self.0.ccd_persistent_contact_policy as u32
    }
    /// Takes the policy's number; anything else is an error that changes nothing.
    #[wasm_bindgen(setter, js_name = ccdPersistentContactPolicy)]
    pub fn set_ccd_persistent_contact_policy(&mut self, v: JsValue) -> Result<(), JsValue> {
        self.0.ccd_persistent_contact_policy = ccd_setting("ccdPersistentContactPolicy", "", &v)?;
        Ok(())
    }
}

/// The value of the CCD setting `name` given from JavaScript: the whole number `n` such that
/// `T::try_from(n)` names it. The numbers `T` takes (from 0 up: rapier3d's `TryFrom<u8>` is
/// the one list of them) are read from `T` itself, for the error, which names the setting, the
/// range and each number's meaning (`also`: what else the setter takes).
fn ccd_setting<T: TryFrom<u8> + core::fmt::Debug>(
    name: &str,
    also: &str,
    v: &JsValue,
) -> Result<T, JsValue> {
    let number = v
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..256.0).contains(n));
    if let Some(Ok(setting)) = number.map(|n| T::try_from(n as u8)) {
        return Ok(setting);
    }
    let known: Vec<String> = (0..=u8::MAX)
        .map_while(|n| T::try_from(n).ok().map(|t| format!("{n} {t:?}")))
        .collect();
    let given = if let Some(n) = v.as_f64() {
        n.to_string()
    } else if let Some(s) = v.as_string() {
        format!("{s:?}")
    } else if let Some(b) = v.as_bool() {
        b.to_string()
    } else if v.is_null() {
        "null".to_string()
    } else if v.is_undefined() {
        "undefined".to_string()
    } else {
        format!(
            "a value of type {}",
            v.js_typeof().as_string().unwrap_or_default()
        )
    };
    Err(crate::interface::err(&format!(
        "{name}: {given} is not 0 to {} ({}){also}",
        known.len().saturating_sub(1),
        known.join(", ")
    )))
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawIslandManager(pub(crate) IslandManager);

#[wasm_bindgen]
impl RawIslandManager {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
    #[wasm_bindgen(js_name = forEachActiveRigidBodyHandle)]
    pub fn for_each_active_rigid_body_handle(&self, f: &js_sys::Function) {
        for h in self.0.active_bodies() {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())));
        }
    }
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawBroadPhase(pub(crate) BroadPhaseBvh);

#[wasm_bindgen]
impl RawBroadPhase {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawNarrowPhase(pub(crate) NarrowPhase);

#[wasm_bindgen]
impl RawNarrowPhase {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
    /// Calls `f(otherCollider)` for every contact pair of `handle1`.
    pub fn contact_pairs_with(&self, handle1: f64, f: &js_sys::Function) {
        let (i, g) = from_flat(handle1);
        let h = ColliderHandle::from_raw_parts(i, g);
        for pair in self.0.contact_pairs_with(h) {
            let other = if pair.collider1 == h {
                pair.collider2
            } else {
                pair.collider1
            };
            let _ = f.call1(
                &JsValue::NULL,
                &JsValue::from(to_flat(other.into_raw_parts())),
            );
        }
    }
    /// Calls `f(otherCollider)` for every intersecting sensor pair of `handle1`.
    pub fn intersection_pairs_with(&self, handle1: f64, f: &js_sys::Function) {
        let (i, g) = from_flat(handle1);
        let h = ColliderHandle::from_raw_parts(i, g);
        for (h1, h2, inter) in self.0.intersection_pairs_with(h) {
            if inter {
                let other = if h1 == h { h2 } else { h1 };
                let _ = f.call1(
                    &JsValue::NULL,
                    &JsValue::from(to_flat(other.into_raw_parts())),
                );
            }
        }
    }
    pub fn intersection_pair(&self, handle1: f64, handle2: f64) -> bool {
        let (i1, g1) = from_flat(handle1);
        let (i2, g2) = from_flat(handle2);
        self.0.intersection_pair(
            ColliderHandle::from_raw_parts(i1, g1),
            ColliderHandle::from_raw_parts(i2, g2),
        ) == Some(true)
    }
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawCCDSolver(pub(crate) CCDSolver);

#[wasm_bindgen]
impl RawCCDSolver {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
}

/// The world's soft bodies: always empty here (no method of this build creates one); the set
/// exists because every step and snapshot takes it. Its other methods throw.
#[wasm_bindgen]
#[derive(Default)]
pub struct RawSoftBodySet(pub(crate) SoftBodySet);

#[wasm_bindgen]
impl RawSoftBodySet {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn contains(&self, handle: f64) -> bool {
        let (i, g) = from_flat(handle);
        self.0.contains(SoftBodyHandle::from_raw_parts(i, g))
    }
    #[wasm_bindgen(js_name = forEachSoftBodyHandle)]
    pub fn for_each_soft_body_handle(&self, f: &js_sys::Function) {
        for (h, _) in self.0.iter() {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())));
        }
    }
    pub fn insert(&mut self) -> Result<f64, JsValue> {
        Err(unsupported("RawSoftBodySet.insert"))
    }
    #[wasm_bindgen(js_name = wakeUp)]
    pub fn wake_up(&mut self) -> Result<(), JsValue> {
        Err(unsupported("RawSoftBodySet.wakeUp"))
    }
}
