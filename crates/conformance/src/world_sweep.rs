//! Every sweep vector of `conformance/sweeps/` through a full world step, as a game sees it.
//!
//! [`crate::sweep_check`] calls the moving-pair kernel alone. Here each case becomes a world of
//! two dynamic, `ccd_enabled` balls (the case's radii; zero gravity, no damping) under a
//! physics-version's integration parameters, each body's linear velocity its displacement / `dt`,
//! so that one `step()` covers the vector's normalized time [0, 1]. What runs is the whole
//! pipeline: broad and narrow phase, the velocity solver, the fast-body test, the continuous
//! pass (pair culling, the accept rule, the persistent-contact policy, the clamps) and the final
//! positions. Each body's clamp fraction is read from where it ended along its planned straight
//! motion, and the engine is checked against the exact oracle with [`crate::sweep_check`]'s
//! gates: no miss, no false hit, never late, at the clamp the spheres at most `slop + tol`
//! apart; and both bodies clamped to the same fraction (the relative-motion pass clamps both
//! bodies of a hit).
//!
//! **Planned motion.** Under [`Motion::AsWritten`] the version's parameters are used with one
//! field changed: the solver's speed cap (`normalized_max_linear_velocity`, 400 m/s at
//! `dt` = 1/60 s, i.e. 6.67 m per step) is lifted, so that every vector is stepped exactly as
//! written; most random vectors move a body farther than that. The continuous pass never reads
//! that field. Under [`Motion::Pinned`] the parameters are exactly the version's: a body faster
//! than the cap is slowed by the solver before the continuous pass, its planned motion is the
//! capped displacement, and the oracle is computed on the capped motions (the file's verdict is
//! for the uncapped vector; capped bodies are counted in `speed_capped_bodies`).
//!
//! **Cases the contact solver sees first.** A pair that starts less than the contact prediction
//! distance apart (2 cm; every overlap and every start within the sweep's `slop + tol` target
//! is among them) has contact points before the step: the velocity solver acts on it before
//! the continuous pass, and a pair that starts within the target separation is a persistent
//! contact, left to the persistent-contact policy and the contacts (the kernel's fraction 0 is
//! never accepted as a hit by the pass). Such cases are not compared with the oracle: they are
//! counted as `start_within_prediction`, split by what happened (the solver changed a velocity;
//! velocities kept and clamped; kept and not clamped). In those vectors every such case
//! starts overlapping: the approaching ones have their velocities changed by the contact solver,
//! the separating ones keep them and are not clamped. Every other case must keep both velocities
//! (the solver must not act on it) and end on its planned straight segment; a case that does not
//! is a failure (`solver_acted`, `off_path`).
//!
//! **Tolerances.** Positions: [`EPS`] (1e-4 m, as in `sweep_check`) for "on the planned path",
//! for "clamped" (stopped more than `EPS` short of the planned end) and for "the same fraction"
//! (the two bodies' clamps, as distances along the longer motion). Measured worst cases: off the
//! path 3.0e-6 m, clamps 3.0e-6 m apart. Velocities: [`VEL_REL_TOL`].
//!
//! Invalid inputs (the oracle's error cases: non-finite, negative radius, out of range) are not
//! stepped and are counted as `invalid`.

use crate::oracle::{
    centre_distance, closest_approach, first_contact, relative_displacement, SphereMotion,
};
use crate::sweep_check::EPS;
use crate::ConformanceError;
use rapier3d::prelude::*;
use rapier_pinned::PhysicsVersion;

/// Velocity slack (m/s) relative to the speed: the solver must leave a checked case's velocities
/// as they were, up to f32 rounding of a write-back (f32 spacing is 6e-8 relative).
pub const VEL_REL_TOL: f64 = 1e-6;

/// Which motions the bodies are given (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    /// The version's parameters with the solver's speed cap lifted: every vector as written.
    AsWritten,
    /// The version's parameters exactly: bodies above the speed cap are slowed to it.
    Pinned,
}

/// The integration parameters a world sweep runs under.
pub fn params(
    version: PhysicsVersion,
    motion: Motion,
) -> Result<IntegrationParameters, ConformanceError> {
    let mut params = rapier_pinned::entry(version)?.params();
    if motion == Motion::AsWritten {
        params.normalized_max_linear_velocity = Real::MAX;
    }
    Ok(params)
}

/// One body after the step.
#[derive(Debug, Clone, Copy)]
pub struct BodyOutcome {
    /// The displacement it was to make in the step (m, f64): the vector's, or the capped one.
    pub planned: [f64; 3],
    /// Where it ended, relative to its start (m).
    pub moved: [f64; 3],
    /// Its fraction along `planned` (the projection; 1 if it plans no motion).
    pub fraction: f64,
    /// Its distance from the planned straight segment (m).
    pub off_path: f64,
    /// Its velocity change over the step, relative to the velocity it was to keep.
    pub velocity_change: f64,
    /// Whether the solver's speed cap slowed it.
    pub capped: bool,
}

impl BodyOutcome {
    fn planned_length(&self) -> f64 {
        norm(self.planned)
    }

    /// Stopped short of its planned end by more than `EPS`.
    pub fn clamped(&self) -> bool {
        (1.0 - self.fraction) * self.planned_length() > EPS
    }
}

/// Steps one case in its own world and reads both bodies.
pub fn step_case(
    a: &SphereMotion,
    b: &SphereMotion,
    params: &IntegrationParameters,
) -> [BodyOutcome; 2] {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::ZERO;
    world.integration_parameters = *params;
    let dt = params.dt;
    let max_lin = params.max_linear_velocity();
    let mut handles = Vec::with_capacity(2);
    let mut planned = Vec::with_capacity(2);
    for m in [a, b] {
        let start = Vector::new(m.start[0], m.start[1], m.start[2]);
        let d = Vector::new(m.displacement[0], m.displacement[1], m.displacement[2]);
        let linvel = d / dt;
        let body = RigidBodyBuilder::dynamic()
            .translation(start)
            .linvel(linvel)
            .linear_damping(0.0)
            .angular_damping(0.0)
            .can_sleep(false)
            .ccd_enabled(true);
        let (handle, _) = world.insert(body, ColliderBuilder::ball(m.radius as Real));
        handles.push(handle);
        // The solver caps |v| at `max_lin` before it integrates (staged solver, per substep).
        let speed = linvel.length();
        let (kept, capped) = if max_lin != Real::MAX && speed > max_lin {
            (
                widen(linvel).map(|x| x * (max_lin as f64 / speed as f64)),
                true,
            )
        } else {
            (widen(linvel), false)
        };
        planned.push((start, kept, capped));
    }
    world.step();
    let mut out = [None, None];
    for (i, (handle, (start, kept, capped))) in handles.iter().zip(planned).enumerate() {
        let rb = &world.bodies[*handle];
        let moved = sub(widen(rb.translation()), widen(start));
        let plan = kept.map(|v| v * dt as f64);
        let len2 = dot(plan, plan);
        let fraction = if len2 > 0.0 {
            dot(moved, plan) / len2
        } else {
            1.0
        };
        let on_segment = plan.map(|x| x * fraction.clamp(0.0, 1.0));
        let off_path = norm(sub(moved, on_segment));
        let dv = norm(sub(widen(rb.linvel()), kept));
        let velocity_change = dv / norm(kept).max(1.0);
        out[i] = Some(BodyOutcome {
            planned: plan,
            moved,
            fraction,
            off_path,
            velocity_change,
            capped,
        });
    }
    out.map(Option::unwrap)
}

/// A case that failed a gate, with what is needed to reproduce it.
#[derive(Debug, Clone)]
pub struct Failure {
    /// `fixed.json` case name, or `random.csv` case number.
    pub case: String,
    pub gate: &'static str,
    pub a: SphereMotion,
    pub b: SphereMotion,
    pub oracle: Option<f64>,
    pub fractions: [f64; 2],
    pub detail: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let oracle = self.oracle.map_or("none".to_string(), |t| format!("{t:?}"));
        write!(
            f,
            "{} {}: a {:?} + {:?} r {}, b {:?} + {:?} r {}; oracle t {oracle}, engine fractions {:?} / {:?}{}",
            self.case,
            self.gate,
            self.a.start,
            self.a.displacement,
            self.a.radius,
            self.b.start,
            self.b.displacement,
            self.b.radius,
            self.fractions[0],
            self.fractions[1],
            if self.detail.is_empty() { String::new() } else { format!("; {}", self.detail) }
        )
    }
}

/// How many failures a report keeps in full (every failure is counted).
pub const KEPT_FAILURES: usize = 20;

/// Counts over a set of cases (see the module docs for the categories).
#[derive(Debug, Default, Clone)]
pub struct WorldReport {
    pub cases: usize,
    /// Not stepped: the oracle rejects the input.
    pub invalid: usize,
    /// Bodies slowed by the solver's speed cap ([`Motion::Pinned`]); their case is checked on
    /// the capped motion.
    pub speed_capped_bodies: usize,
    /// Cases starting less than the prediction distance apart: the contact solver sees them
    /// first; not compared with the oracle.
    pub start_within_prediction: usize,
    /// ... of which overlapping or touching at the start (the oracle's t = 0).
    pub start_overlapping: usize,
    /// ... of which the solver changed a velocity (the bodies left their planned paths).
    pub start_solver_changed_velocity: usize,
    /// ... of which the velocities were kept and the continuous pass clamped a body.
    pub start_kept_clamped: usize,
    /// ... of which the velocities were kept and neither body was clamped.
    pub start_kept_unclamped: usize,
    /// Cases compared with the oracle.
    pub checked: usize,
    pub oracle_hits: usize,
    pub positive_hits: usize,
    /// Checked cases where the continuous pass clamped the pair.
    pub engine_clamps: usize,
    /// The solver changed a velocity of a pair that started beyond the prediction distance.
    pub solver_acted: usize,
    /// A body ended off its planned straight path (or outside its segment) by more than `EPS`.
    pub off_path: usize,
    /// Oracle contact, not clamped (and the contact is not within `EPS` of the step's end).
    pub misses: usize,
    /// Oracle contact within `EPS` of the step's end, not clamped: allowed.
    pub end_touches: usize,
    /// Clamped while the spheres never come within `R + slop + tol`.
    pub false_hits: usize,
    /// Clamped, no oracle contact, closest approach within the slop band: allowed.
    pub band_hits: usize,
    /// Clamped later than the oracle.
    pub late: usize,
    /// At the clamp the spheres are more than `slop + tol` apart.
    pub early_beyond_distance_bound: usize,
    /// Clamped earlier than `(slop + tol) / |v|` (oblique approach; reported, not a gate).
    pub early_beyond_time_bound: usize,
    /// The two moving bodies were not clamped to the same fraction.
    pub unequal_clamps: usize,
    pub worst_late: f64,
    pub worst_early_fraction: f64,
    pub worst_separation_at_hit: f64,
    pub worst_off_path: f64,
    pub worst_clamp_mismatch: f64,
    pub worst_velocity_change: f64,
    /// The first [`KEPT_FAILURES`] failures.
    pub failures: Vec<Failure>,
}

impl WorldReport {
    /// How many cases fail a gate (each case counts once, at its first failed gate).
    pub fn failed_cases(&self) -> usize {
        self.solver_acted
            + self.off_path
            + self.misses
            + self.false_hits
            + self.late
            + self.early_beyond_distance_bound
            + self.unequal_clamps
    }

    /// The gates: no failed case.
    pub fn passed(&self) -> bool {
        self.failed_cases() == 0
    }

    fn fail(
        &mut self,
        gate: &'static str,
        label: &dyn Fn() -> String,
        case: (&SphereMotion, &SphereMotion),
        oracle: Option<f64>,
        bodies: &[BodyOutcome; 2],
        detail: String,
    ) {
        if self.failures.len() < KEPT_FAILURES {
            self.failures.push(Failure {
                case: label(),
                gate,
                a: *case.0,
                b: *case.1,
                oracle,
                fractions: [bodies[0].fraction, bodies[1].fraction],
                detail,
            });
        }
    }

    /// Steps a case under `params` and adds it; `label` names it in a failure.
    pub fn add(
        &mut self,
        label: &dyn Fn() -> String,
        a: &SphereMotion,
        b: &SphereMotion,
        params: &IntegrationParameters,
    ) {
        if first_contact(a, b).is_err() {
            self.invalid += 1;
            return;
        }
        self.cases += 1;
        let bodies = step_case(a, b, params);
        self.speed_capped_bodies += bodies.iter().filter(|o| o.capped).count();
        // The motions the bodies planned: the vector's, or the capped ones.
        let planned = |m: &SphereMotion, o: &BodyOutcome| SphereMotion {
            displacement: o.planned.map(|x| x as f32),
            ..*m
        };
        let (pa, pb) = if bodies.iter().any(|o| o.capped) {
            (planned(a, &bodies[0]), planned(b, &bodies[1]))
        } else {
            (*a, *b)
        };
        let case = (a, b);
        let r = a.radius + b.radius;
        let slop = params.allowed_linear_error() as f64;
        let band = slop + 0.25 * slop + EPS;
        let velocity_change = bodies[0].velocity_change.max(bodies[1].velocity_change);
        let clamped = bodies.iter().any(BodyOutcome::clamped);

        if centre_distance(&pa, &pb, 0.0) - r < params.prediction_distance() as f64 + EPS {
            self.start_within_prediction += 1;
            self.start_overlapping += (first_contact(&pa, &pb) == Ok(Some(0.0))) as usize;
            if velocity_change > VEL_REL_TOL {
                self.start_solver_changed_velocity += 1;
            } else if clamped {
                self.start_kept_clamped += 1;
            } else {
                self.start_kept_unclamped += 1;
            }
            return;
        }

        self.checked += 1;
        let oracle = first_contact(&pa, &pb).expect("valid input");
        self.oracle_hits += oracle.is_some() as usize;
        self.positive_hits += oracle.is_some_and(|t| t > 0.0) as usize;
        self.worst_velocity_change = self.worst_velocity_change.max(velocity_change);
        if velocity_change > VEL_REL_TOL {
            self.solver_acted += 1;
            let detail = format!("velocity changed by {velocity_change:.3e} of its speed");
            self.fail("solver acted", label, case, oracle, &bodies, detail);
            return;
        }
        let off = bodies[0].off_path.max(bodies[1].off_path);
        self.worst_off_path = self.worst_off_path.max(off);
        let outside = bodies.iter().any(|o| {
            o.fraction < -EPS / o.planned_length().max(EPS)
                || o.fraction > 1.0 + EPS / o.planned_length().max(EPS)
        });
        if off > EPS || outside {
            self.off_path += 1;
            self.fail(
                "off path",
                label,
                case,
                oracle,
                &bodies,
                format!("{off:.3e} m off the planned segment"),
            );
            return;
        }

        // The pair's fraction: the earliest clamped moving body's (1 if neither was clamped).
        let moving: Vec<&BodyOutcome> =
            bodies.iter().filter(|o| o.planned_length() > 0.0).collect();
        let engine = moving
            .iter()
            .filter(|o| o.clamped())
            .map(|o| o.fraction)
            .fold(None, |m: Option<f64>, f| Some(m.map_or(f, |m| m.min(f))));
        let rel = relative_displacement(&pa, &pb);
        self.engine_clamps += engine.is_some() as usize;
        if engine.is_some() && moving.len() == 2 {
            let mismatch = (moving[0].fraction - moving[1].fraction).abs()
                * moving[0].planned_length().max(moving[1].planned_length());
            self.worst_clamp_mismatch = self.worst_clamp_mismatch.max(mismatch);
            if mismatch > EPS {
                self.unequal_clamps += 1;
                self.fail(
                    "unequal clamps",
                    label,
                    case,
                    oracle,
                    &bodies,
                    format!("the bodies' clamps {mismatch:.3e} m apart"),
                );
                return;
            }
        }
        match (oracle, engine) {
            (Some(t), None) => {
                if (1.0 - t) * rel > EPS {
                    self.misses += 1;
                    self.fail("miss", label, case, oracle, &bodies, String::new());
                } else {
                    self.end_touches += 1;
                }
            }
            (None, Some(_)) => {
                let closest = centre_distance(&pa, &pb, closest_approach(&pa, &pb));
                if closest > r + band {
                    self.false_hits += 1;
                    let detail = format!("closest approach {:.3e} m apart", closest - r);
                    self.fail("false hit", label, case, oracle, &bodies, detail);
                } else {
                    self.band_hits += 1;
                }
            }
            (Some(t), Some(f)) => {
                self.worst_late = self.worst_late.max(f - t);
                self.worst_early_fraction = self.worst_early_fraction.max(t - f);
                let separation = centre_distance(&pa, &pb, f) - r;
                self.worst_separation_at_hit = self.worst_separation_at_hit.max(separation);
                if (t - f) * rel > band {
                    self.early_beyond_time_bound += 1;
                }
                if f > t && (f - t) * rel > EPS {
                    self.late += 1;
                    let detail = format!("{:.3e} m of relative motion late", (f - t) * rel);
                    self.fail("late", label, case, oracle, &bodies, detail);
                } else if separation > band {
                    self.early_beyond_distance_bound += 1;
                    let detail = format!("{separation:.3e} m apart at the clamp");
                    self.fail(
                        "apart > slop+tol at the clamp",
                        label,
                        case,
                        oracle,
                        &bodies,
                        detail,
                    );
                }
            }
            (None, None) => {}
        }
    }
}

/// The world check over every fixed case and every random case on disk.
pub fn run_all(
    params: &IntegrationParameters,
) -> Result<(WorldReport, WorldReport), ConformanceError> {
    let mut fixed = WorldReport::default();
    for (i, case) in crate::sweep_vectors::load_fixed()?.iter().enumerate() {
        let label = || format!("fixed.json #{i} '{}'", case.name);
        fixed.add(&label, &case.a.motion(), &case.b.motion(), params);
    }
    let mut random = WorldReport::default();
    for (i, (a, b, _)) in crate::sweep_vectors::load_random()?.iter().enumerate() {
        random.add(&|| format!("random.csv case {i}"), a, b, params);
    }
    Ok((fixed, random))
}

impl std::fmt::Display for WorldReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "cases {} (+{} invalid, not stepped), speed-capped bodies {}",
            self.cases, self.invalid, self.speed_capped_bodies
        )?;
        writeln!(
            f,
            "  start within the prediction distance (contact solver first, not compared): {} \
             ({} overlapping or touching); velocities changed by the solver {}, kept and clamped \
             {}, kept and not clamped {}",
            self.start_within_prediction,
            self.start_overlapping,
            self.start_solver_changed_velocity,
            self.start_kept_clamped,
            self.start_kept_unclamped
        )?;
        writeln!(
            f,
            "  checked {}: oracle hits {} ({} at t > 0), engine clamps {}, end-of-step touches {}, \
             slop-band hits {}, earlier than (slop+tol)/|v| {}",
            self.checked,
            self.oracle_hits,
            self.positive_hits,
            self.engine_clamps,
            self.end_touches,
            self.band_hits,
            self.early_beyond_time_bound
        )?;
        writeln!(
            f,
            "  failed {}: misses {}, false hits {}, late {}, apart > slop+tol at clamp {}, \
             unequal clamps {}, solver acted {}, off path {}",
            self.failed_cases(),
            self.misses,
            self.false_hits,
            self.late,
            self.early_beyond_distance_bound,
            self.unequal_clamps,
            self.solver_acted,
            self.off_path
        )?;
        write!(
            f,
            "  worst: late {:.3e}, early {:.3e}, separation at clamp {:.3e} m, clamp mismatch \
             {:.3e} m, off path {:.3e} m, velocity change {:.3e}",
            self.worst_late,
            self.worst_early_fraction,
            self.worst_separation_at_hit,
            self.worst_clamp_mismatch,
            self.worst_off_path,
            self.worst_velocity_change
        )
    }
}

fn widen(v: Vector) -> [f64; 3] {
    [v.x as f64, v.y as f64, v.z as f64]
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}
