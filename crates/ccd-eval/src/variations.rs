//! The moving-target gates beyond the perturbation suite's own starts, speeds, thicknesses and
//! spin rates: families of runs, each a scene-catalog builder ([`blade_into_guard`],
//! [`box_into_free_rotor`]) over 13 starts × 4 speeds × 3 sizes. The `perturbation_variations`
//! example prints them all; a test runs the fastest spin rates.

use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_scenes::{blade_into_guard, box_into_free_rotor, ThinCase};

use crate::perturbation::{run_case, SetReport};

pub const STARTS: [Real; 13] = [
    -0.36, -0.3, -0.24, -0.18, -0.12, -0.06, 0.0, 0.06, 0.12, 0.18, 0.24, 0.3, 0.36,
];
pub const SPEEDS: [Real; 4] = [10.0, 45.0, 90.0, 200.0];
/// Blade and guard half-thicknesses.
pub const BLADES: [(Real, Real); 3] = [(0.0005, 0.001), (0.00025, 0.0005), (0.002, 0.0025)];
/// Box half-sizes.
pub const BOXES: [Real; 3] = [0.005, 0.01, 0.05];

/// `config` over upstream's defaults, at time step `dt`.
fn params(config: CcdConfig, dt: Real) -> IntegrationParameters {
    let mut params = config.params();
    params.dt = dt;
    params
}

/// A family's figures: runs, strict pass-throughs (frame count, cleared, gated; see
/// `measure`), the worst end-of-frame penetration as a fraction of the target's half-thickness
/// (the gate is ≤ 1), and the runs that could not be measured.
#[derive(Clone, Debug, Default)]
pub struct FamilyReport {
    pub runs: usize,
    pub frame_strict: usize,
    pub cleared: usize,
    pub pass_throughs: usize,
    pub worst_penetration_ratio: Real,
    pub errors: Vec<String>,
}

impl FamilyReport {
    /// At least one run, none unmeasured, no gated pass-through, penetration within the gate.
    pub fn meets_gates(&self) -> bool {
        self.runs > 0
            && self.errors.is_empty()
            && self.pass_throughs == 0
            && self.worst_penetration_ratio <= 1.0
    }
}

/// Runs every case (a built world and its target's half-thickness).
pub fn run_family(cases: impl Iterator<Item = ((PhysicsWorld, ThinCase), Real)>) -> FamilyReport {
    let mut family = FamilyReport::default();
    for (i, ((world, case), half_thickness)) in cases.enumerate() {
        let mut r = SetReport::default();
        if let Err(e) = run_case(world, case, false, &mut r) {
            family.errors.push(format!("case {i}: {e}"));
            continue;
        }
        family.runs += 1;
        family.frame_strict += r.frame_strict;
        family.cleared += r.cleared;
        family.pass_throughs += r.pass_throughs;
        family.worst_penetration_ratio = family
            .worst_penetration_ratio
            .max(r.max_penetration / half_thickness);
    }
    family
}

/// The spinning-blade family at `spin` rad/s: every start, speed and blade/guard thickness.
pub fn spinning_blades(config: CcdConfig, dt: Real, spin: Real, pressed: bool) -> FamilyReport {
    let params = params(config, dt);
    run_family(STARTS.iter().flat_map(|&s| {
        SPEEDS.iter().flat_map(move |&v| {
            BLADES
                .into_iter()
                .map(move |b| (blade_into_guard(params, s, v, spin, b, pressed), b.1))
        })
    }))
}

/// The box-into-rotor family at `spin` rad/s: every start, speed and box size.
pub fn rotors(config: CcdConfig, dt: Real, spin: Real) -> FamilyReport {
    let params = params(config, dt);
    run_family(STARTS.iter().flat_map(|&s| {
        SPEEDS.iter().flat_map(move |&v| {
            BOXES
                .into_iter()
                .map(move |size| (box_into_free_rotor(params, s, v, spin, size), 0.001))
        })
    }))
}
