//! The exact double-precision oracle of the sphere sweeps (`SphereSweep.FirstContact`), independent of
//! parry: first contact of two spheres moving linearly in the same normalized step time u ∈ [0, 1].
//!
//! With p = a0 − b0, v = da − db, R = ra + rb: |p + u·v|² = R², i.e. A·u² + 2B·u + C = 0 with
//! A = v·v, B = p·v, C = p·p − R². Initial overlap or touch (C ≤ 0) is checked **before** the
//! approach direction and answers 0; otherwise a contact needs A > 0, B < 0, D = B² − A·C ≥ 0,
//! and the entry root is the stable form C / (−B + √D), accepted in [0, 1].
//! Inputs are f32 (as stored by an engine) and every component is widened before subtracting.

/// Why a motion was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OracleError {
    /// A coordinate or radius is not finite, or a radius is negative.
    InvalidInput,
    /// C is not representable in f64 (e.g. a radius whose square overflows).
    RangeExceeded,
}

/// One sphere's motion over the step: start centre, full displacement, radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereMotion {
    pub start: [f32; 3],
    pub displacement: [f32; 3],
    pub radius: f64,
}

fn widen(a: [f32; 3], b: [f32; 3]) -> [f64; 3] {
    [
        a[0] as f64 - b[0] as f64,
        a[1] as f64 - b[1] as f64,
        a[2] as f64 - b[2] as f64,
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn valid(m: &SphereMotion) -> bool {
    m.start.iter().chain(&m.displacement).all(|x| x.is_finite())
        && m.radius.is_finite()
        && m.radius >= 0.0
}

/// First contact fraction: `Ok(None)` no contact in the step, `Ok(Some(0.0))` initial contact.
pub fn first_contact(a: &SphereMotion, b: &SphereMotion) -> Result<Option<f64>, OracleError> {
    if !valid(a) || !valid(b) {
        return Err(OracleError::InvalidInput);
    }
    let p = widen(a.start, b.start);
    let v = widen(a.displacement, b.displacement);
    let r = a.radius + b.radius;
    let c = dot(p, p) - r * r;
    if !c.is_finite() {
        return Err(OracleError::RangeExceeded);
    }
    if c <= 0.0 {
        return Ok(Some(0.0));
    }
    let aa = dot(v, v);
    let bb = dot(p, v);
    if aa == 0.0 || bb >= 0.0 {
        return Ok(None);
    }
    let d = bb * bb - aa * c;
    if d < 0.0 {
        return Ok(None);
    }
    let t = c / (-bb + d.sqrt());
    Ok((0.0..=1.0).contains(&t).then_some(t))
}

/// Distance between the two centres at fraction `u`.
pub fn centre_distance(a: &SphereMotion, b: &SphereMotion, u: f64) -> f64 {
    let p = widen(a.start, b.start);
    let v = widen(a.displacement, b.displacement);
    let d = [p[0] + u * v[0], p[1] + u * v[1], p[2] + u * v[2]];
    dot(d, d).sqrt()
}

/// Length of the relative displacement |da − db| over the step.
pub fn relative_displacement(a: &SphereMotion, b: &SphereMotion) -> f64 {
    let v = widen(a.displacement, b.displacement);
    dot(v, v).sqrt()
}

/// The fraction of closest approach in [0, 1]: clamp(−p·v / v·v, 0, 1) (0 if v = 0).
pub fn closest_approach(a: &SphereMotion, b: &SphereMotion) -> f64 {
    let p = widen(a.start, b.start);
    let v = widen(a.displacement, b.displacement);
    let vv = dot(v, v);
    if vv == 0.0 {
        0.0
    } else {
        (-dot(p, v) / vv).clamp(0.0, 1.0)
    }
}

/// Seed 000's residual check: |p + t·v|² − R² at a positive-time root.
pub fn residual(a: &SphereMotion, b: &SphereMotion, t: f64) -> f64 {
    let r = a.radius + b.radius;
    let d = centre_distance(a, b, t);
    d * d - r * r
}
