//! `World.integrationParameters`: the fields a rapier.js program reads and sets, by their
//! rapier.js names, plus the fork's two CCD settings (`ccdRelativeMotion`,
//! `ccdPersistentContactPolicy`, off by default as in rapier3d).

use rapier3d::dynamics::{CcdPersistentContactPolicy, IntegrationParameters};
use wasm_bindgen::JsValue;

use crate::error::js_error;

/// Every name [`get`] and [`set`] take.
pub const NAMES: [&str; 15] = [
    "dt",
    "minCcdDt",
    "lengthUnit",
    "numSolverIterations",
    "numInternalPgsIterations",
    "numInternalStabilizationIterations",
    "maxCcdSubsteps",
    "warmstartCoefficient",
    "normalizedAllowedLinearError",
    "normalizedMaxCorrectiveVelocity",
    "normalizedPredictionDistance",
    "contactNaturalFrequency",
    "contactDampingRatio",
    "ccdRelativeMotion",
    "ccdPersistentContactPolicy",
];

/// [`NAMES`], for `js/exports.js`'s `integrationParameters` (one list, here).
#[wasm_bindgen::prelude::wasm_bindgen(js_name = paramNames)]
pub fn param_names() -> Vec<String> {
    NAMES.iter().map(|n| n.to_string()).collect()
}

fn unknown(name: &str) -> JsValue {
    js_error(&format!(
        "integrationParameters has no field {name} (fields: {})",
        NAMES.join(", ")
    ))
}

/// The field `name` of `p` as a number (booleans 0 or 1, the policy its number).
pub fn get(p: &IntegrationParameters, name: &str) -> Result<f64, JsValue> {
    Ok(match name {
        "dt" => p.dt as f64,
        "minCcdDt" => p.min_ccd_dt as f64,
        "lengthUnit" => p.length_unit as f64,
        "numSolverIterations" => p.num_solver_iterations as f64,
        "numInternalPgsIterations" => p.num_internal_pgs_iterations as f64,
        "numInternalStabilizationIterations" => p.num_internal_stabilization_iterations as f64,
        "maxCcdSubsteps" => p.max_ccd_substeps as f64,
        "warmstartCoefficient" => p.warmstart_coefficient as f64,
        "normalizedAllowedLinearError" => p.normalized_allowed_linear_error as f64,
        "normalizedMaxCorrectiveVelocity" => p.normalized_max_corrective_velocity as f64,
        "normalizedPredictionDistance" => p.normalized_prediction_distance as f64,
        "contactNaturalFrequency" => p.contact_softness.natural_frequency as f64,
        "contactDampingRatio" => p.contact_softness.damping_ratio as f64,
        "ccdRelativeMotion" => p.ccd_relative_motion as u8 as f64,
        "ccdPersistentContactPolicy" => p.ccd_persistent_contact_policy as u8 as f64,
        _ => return Err(unknown(name)),
    })
}

/// A count: a whole number from 0 to 2³².
fn count(name: &str, v: f64) -> Result<usize, JsValue> {
    if v.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v) {
        Ok(v as usize)
    } else {
        Err(js_error(&format!("{name} is a count, not {v}")))
    }
}

/// Sets the field `name` of `p` to `v` (see [`get`]).
pub fn set(p: &mut IntegrationParameters, name: &str, v: f64) -> Result<(), JsValue> {
    let f = v as f32;
    match name {
        "dt" => p.dt = f,
        "minCcdDt" => p.min_ccd_dt = f,
        "lengthUnit" => p.length_unit = f,
        "numSolverIterations" => p.num_solver_iterations = count(name, v)?,
        "numInternalPgsIterations" => p.num_internal_pgs_iterations = count(name, v)?,
        "numInternalStabilizationIterations" => {
            p.num_internal_stabilization_iterations = count(name, v)?
        }
        "maxCcdSubsteps" => p.max_ccd_substeps = count(name, v)?,
        "warmstartCoefficient" => p.warmstart_coefficient = f,
        "normalizedAllowedLinearError" => p.normalized_allowed_linear_error = f,
        "normalizedMaxCorrectiveVelocity" => p.normalized_max_corrective_velocity = f,
        "normalizedPredictionDistance" => p.normalized_prediction_distance = f,
        "contactNaturalFrequency" => p.contact_softness.natural_frequency = f,
        "contactDampingRatio" => p.contact_softness.damping_ratio = f,
        "ccdRelativeMotion" => p.ccd_relative_motion = v != 0.0,
        "ccdPersistentContactPolicy" => {
            let n = u8::try_from(count(name, v)?).unwrap_or(u8::MAX);
            p.ccd_persistent_contact_policy = CcdPersistentContactPolicy::try_from(n)
                .map_err(|_| js_error(&format!("ccdPersistentContactPolicy {v}: 0 to 3")))?;
        }
        _ => return Err(unknown(name)),
    }
    Ok(())
}
