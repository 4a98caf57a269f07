//! Checks the engine's own moving-pair sweep (`parry3d::query::sweep_toi::sweep_time_of_impact_full_shapes`,
//! what the `ccd_relative_motion` pass calls) against the oracle, case by case.
//!
//! The engine stops two shapes `slop` apart (within `tol = slop / 4`), so against the exact first
//! contact it must: never miss; report no hit unless the spheres come within `R + slop + tol`;
//! never be later than the oracle; be earlier by at most `(slop + tol) / |v|` along the relative
//! displacement `v` — a bound that holds for head-on approach. For oblique approach the
//! separation closes slower than |v|, so the time bound is reported separately and the check
//! that applies to every case is on distance: at the engine's fraction the spheres are at most
//! `slop + tol` apart. `EPS` absorbs f32 rounding of the engine's inputs (positions ≤ ~30 m).
//!
//! A query that ends with [`SweepToiStatus::Failed`] (the root finder gave up) is an error, not a
//! hit: it is counted on its own (`failed`), never compared with the oracle, and fails the gates.

use crate::oracle::{
    centre_distance, closest_approach, first_contact, relative_displacement, residual, SphereMotion,
};
use rapier3d::math::{Pose, Real, Vector};
use rapier3d::parry::query::sweep_toi::sweep_time_of_impact_full_shapes;
use rapier3d::parry::query::sweep_toi::{Sweep, SweepToiStatus, ToiProxy};

/// Distance slack for f32 inputs (m): ~100 × the f32 spacing at 30 m, 1/50 of the default slop.
pub const EPS: f64 = 1e-4;

/// The engine's verdict on one case.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EngineVerdict {
    /// No impact in the step (`SweepToiStatus::Separated`).
    Separated,
    /// An impact at this fraction (`Hit`, `Overlapped` or `Penetrating`).
    Hit(Real),
    /// The query failed (`SweepToiStatus::Failed`), at this fraction: an error, not a hit.
    Failed(Real),
}

/// What the engine's moving-pair sweep (the kernel the `ccd_relative_motion` pass calls) reports.
pub fn engine_verdict(a: &SphereMotion, b: &SphereMotion, slop: Real) -> EngineVerdict {
    let pose = |p: [f32; 3]| Pose::from_translation(Vector::new(p[0], p[1], p[2]));
    let end = |m: &SphereMotion| pose([0, 1, 2].map(|i| m.start[i] + m.displacement[i]));
    let sweep_a = Sweep::from_poses(&pose(a.start), &end(a), Vector::ZERO);
    let sweep_b = Sweep::from_poses(&pose(b.start), &end(b), Vector::ZERO);
    let proxy_a = ToiProxy::point(Vector::ZERO, a.radius as Real);
    let proxy_b = ToiProxy::point(Vector::ZERO, b.radius as Real);
    let out = sweep_time_of_impact_full_shapes(&proxy_a, &sweep_a, &proxy_b, &sweep_b, 1.0, slop);
    match out.status {
        SweepToiStatus::Separated => EngineVerdict::Separated,
        SweepToiStatus::Failed => EngineVerdict::Failed(out.fraction),
        _ => EngineVerdict::Hit(out.fraction),
    }
}

/// Counts and worst errors over a set of cases.
#[derive(Debug, Default, Clone)]
pub struct Report {
    pub cases: usize,
    pub oracle_hits: usize,
    pub positive_hits: usize,
    pub engine_hits: usize,
    /// The engine's query failed (`SweepToiStatus::Failed`): an error of its own, neither a hit
    /// nor a miss, and a failed gate.
    pub failed: usize,
    /// Oracle contact, engine none.
    pub misses: usize,
    /// Engine hit while the spheres never come within R + slop + tol.
    pub false_hits: usize,
    /// Engine hit, oracle none, closest approach inside the slop band (allowed).
    pub band_hits: usize,
    /// Engine later than the oracle.
    pub late: usize,
    /// Engine earlier than (slop + tol) / |v| (oblique approach; reported, see module docs).
    pub early_beyond_time_bound: usize,
    /// At the engine's fraction the spheres are more than slop + tol apart.
    pub early_beyond_distance_bound: usize,
    pub worst_late: f64,
    pub worst_early_fraction: f64,
    pub worst_separation_at_hit: f64,
    /// Seed 000's residual check over positive oracle roots.
    pub max_residual: f64,
}

impl Report {
    /// The gates: no failed query, no miss, no false hit, never late, never apart by more than
    /// the band.
    pub fn passed(&self) -> bool {
        self.failed_cases() == 0
    }

    /// How many cases fail a gate (each case fails at most one).
    pub fn failed_cases(&self) -> usize {
        self.failed + self.misses + self.false_hits + self.late + self.early_beyond_distance_bound
    }

    /// Checks one case: the engine's verdict on it against the oracle's.
    pub fn add(&mut self, a: &SphereMotion, b: &SphereMotion, slop: Real) {
        if first_contact(a, b).is_err() {
            return; // Invalid input: the engine is never given such motions.
        }
        self.add_verdict(a, b, slop, engine_verdict(a, b, slop));
    }

    /// Adds one case given the engine's verdict on it (what [`Self::add`] computes).
    pub fn add_verdict(
        &mut self,
        a: &SphereMotion,
        b: &SphereMotion,
        slop: Real,
        verdict: EngineVerdict,
    ) {
        let Ok(oracle) = first_contact(a, b) else {
            return; // Invalid input: the engine is never given such motions.
        };
        let (slop64, tol) = (slop as f64, 0.25 * slop as f64);
        let r = a.radius + b.radius;
        let rel = relative_displacement(a, b);
        self.cases += 1;
        self.oracle_hits += oracle.is_some() as usize;
        if let Some(t) = oracle.filter(|t| *t > 0.0) {
            self.positive_hits += 1;
            self.max_residual = self.max_residual.max(residual(a, b, t).abs());
        }
        let engine = match verdict {
            EngineVerdict::Separated => None,
            EngineVerdict::Hit(f) => Some(f as f64),
            EngineVerdict::Failed(_) => {
                self.failed += 1;
                return;
            }
        };
        self.engine_hits += engine.is_some() as usize;
        match (oracle, engine) {
            (Some(_), None) => self.misses += 1,
            (None, Some(_)) => {
                let closest = centre_distance(a, b, closest_approach(a, b));
                if closest > r + slop64 + tol + EPS {
                    self.false_hits += 1;
                } else {
                    self.band_hits += 1;
                }
            }
            (Some(t), Some(f)) => {
                if f > t && (f - t) * rel > EPS {
                    self.late += 1;
                }
                self.worst_late = self.worst_late.max(f - t);
                self.worst_early_fraction = self.worst_early_fraction.max(t - f);
                if (t - f) * rel > slop64 + tol + EPS {
                    self.early_beyond_time_bound += 1;
                }
                let separation = centre_distance(a, b, f) - r;
                self.worst_separation_at_hit = self.worst_separation_at_hit.max(separation);
                if separation > slop64 + tol + EPS {
                    self.early_beyond_distance_bound += 1;
                }
            }
            (None, None) => {}
        }
    }
}

/// The engine check over every valid fixed case and every random case on disk.
pub fn run_all(slop: Real) -> Result<(Report, Report), crate::ConformanceError> {
    let mut fixed = Report::default();
    for case in crate::sweep_vectors::load_fixed()? {
        fixed.add(&case.a.motion(), &case.b.motion(), slop);
    }
    let mut random = Report::default();
    for (a, b, _) in crate::sweep_vectors::load_random()? {
        random.add(&a, &b, slop);
    }
    Ok((fixed, random))
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cases {}, oracle hits {} ({} at t > 0), engine hits {}; failed queries {}, misses {}, \
             false hits {}, slop-band hits {}, late {}, apart > slop+tol at hit {}, \
             earlier than (slop+tol)/|v| {}; worst late {:.3e}, worst early {:.3e}, \
             worst separation at hit {:.3e} m, max residual {:.3e}",
            self.cases, self.oracle_hits, self.positive_hits, self.engine_hits, self.failed, self.misses,
            self.false_hits, self.band_hits, self.late, self.early_beyond_distance_bound,
            self.early_beyond_time_bound, self.worst_late, self.worst_early_fraction,
            self.worst_separation_at_hit, self.max_residual
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 000's head-on crossing: contact at 0.4, centres at -1 and +1.
    fn head_on() -> (SphereMotion, SphereMotion) {
        let a = SphereMotion {
            start: [-5.0, 0.0, 0.0],
            displacement: [10.0, 0.0, 0.0],
            radius: 1.0,
        };
        let b = SphereMotion {
            start: [5.0, 0.0, 0.0],
            displacement: [-10.0, 0.0, 0.0],
            radius: 1.0,
        };
        (a, b)
    }

    #[test]
    fn a_failed_query_is_a_failure_not_a_hit() {
        let (a, b) = head_on();
        let slop = 0.005;
        // At the oracle's fraction, a `Hit` passes; the same fraction from a `Failed` query fails.
        let mut hit = Report::default();
        hit.add_verdict(&a, &b, slop, EngineVerdict::Hit(0.4));
        assert!(
            hit.passed() && hit.engine_hits == 1 && hit.failed == 0,
            "{hit}"
        );
        let mut failed = Report::default();
        failed.add_verdict(&a, &b, slop, EngineVerdict::Failed(0.4));
        assert!(!failed.passed(), "{failed}");
        assert_eq!(
            (
                failed.cases,
                failed.failed,
                failed.engine_hits,
                failed.misses
            ),
            (1, 1, 0, 0)
        );
        assert_eq!(failed.failed_cases(), 1);
        // And the engine's own verdict on this case is a hit.
        assert!(matches!(
            engine_verdict(&a, &b, slop),
            EngineVerdict::Hit(_)
        ));
    }
}
