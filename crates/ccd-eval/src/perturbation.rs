//! The perturbation suite: every thin-part set of the scene catalog, run from each of its starts
//! and speeds under a CCD configuration, measured for strict pass-through, end-of-frame
//! penetration and truncation (see [`crate::measure`] and [`crate::truncation`]). The gates:
//! on every set whose target moves, no gated strict pass-through and end-of-frame penetration at
//! most the target's half-thickness.

use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_scenes::{state_digest, ThinCase, ThinSet};

use crate::error::CcdEvalError;
use crate::measure::{clears, frame, strict_pass_through, Frame, Placed, Stands};
use crate::truncation::Truncation;

/// One set's figures under one configuration, over all its starts and speeds.
#[derive(Clone, Debug, Default)]
pub struct SetReport {
    /// Runs the set has (speeds × starts): the gates need every one of them measured.
    pub expected_runs: usize,
    /// Runs measured to the end.
    pub runs: usize,
    /// Strict pass-throughs by the frame definition ([`crate::measure`]), before any refinement.
    pub frame_strict: usize,
    /// Frame-strict steps the between-frames refinement cleared, having proven its own
    /// assumption on each (`measure::clears`).
    pub cleared: usize,
    /// Frame-strict collision steps the substep replay cleared (see [`replay_clears`]).
    pub replayed: usize,
    /// The gated count: `frame_strict - cleared - replayed`.
    pub pass_throughs: usize,
    pub max_penetration: Real,
    /// The target's half-thickness: the penetration gate.
    pub half_thickness: Real,
    pub truncation: Truncation,
    /// XXH3 digests of every run's final state, in run order: equal digests, equal runs.
    pub digests: Vec<u64>,
    /// Runs that could not be measured (a non-finite state or a failed query), each with why.
    pub errors: Vec<String>,
}

impl SetReport {
    /// Every expected run measured without error, gated strict pass-throughs = 0 and penetration
    /// <= the target's half-thickness.
    pub fn meets_gates(&self) -> bool {
        self.expected_runs > 0
            && self.runs == self.expected_runs
            && self.errors.is_empty()
            && self.pass_throughs == 0
            && self.max_penetration <= self.half_thickness
    }
}

/// Runs `set` from every start at every speed under `config`; `truncation` also measures
/// truncation (three steps per step: slower).
pub fn run_set(set: &ThinSet, config: CcdConfig, truncation: bool) -> SetReport {
    run_set_with(set, config.params(), truncation)
}

/// `config`'s parameters at `tick_hz` steps per second: `dt = 1 / tick_hz` (f32 division; at 60
/// Hz upstream's `1.0 / 60.0`, bit for bit), every other field as [`CcdConfig::params`] has it
/// (`min_ccd_dt` included). The sets run the same simulated time at every rate
/// ([`ThinSet::steps_at`]).
pub fn params_at(config: CcdConfig, tick_hz: u32) -> IntegrationParameters {
    let mut params = config.params();
    params.dt = 1.0 / tick_hz as Real;
    params
}

/// [`run_set`] under any parameters.
pub fn run_set_with(set: &ThinSet, params: IntegrationParameters, truncation: bool) -> SetReport {
    run_set_edited(set, params, truncation, |_| {})
}

/// [`run_set_with`], with `edit` applied to each built world before its first step (e.g. to
/// switch CCD off: a known-bad case for the gates).
pub fn run_set_edited(
    set: &ThinSet,
    params: IntegrationParameters,
    truncation: bool,
    edit: impl Fn(&mut PhysicsWorld),
) -> SetReport {
    let mut report = SetReport {
        expected_runs: set.run_count(),
        ..SetReport::default()
    };
    for run in set.runs() {
        let (mut world, case) = set.build_run(params, run);
        edit(&mut world);
        report.half_thickness = set.half_thickness(&world, &case);
        if let Err(e) = run_case(world, case, truncation, &mut report) {
            report.errors.push(format!("{run}: {e}"));
        }
    }
    report
}

/// The case's part against its cuboid target, measured at the world's current poses.
pub fn case_frame(world: &PhysicsWorld, case: &ThinCase) -> Result<Frame, CcdEvalError> {
    let (part, target) = (&world.colliders[case.part], &world.colliders[case.target]);
    let cuboid = target.shape().as_cuboid().expect("cuboid target");
    frame(part.shape(), part.position(), cuboid, target.position())
}

/// The case's part and target as they are placed in the world now (see [`Placed`]).
pub fn case_placed(
    world: &PhysicsWorld,
    case: &ThinCase,
) -> Result<(Placed, Placed), CcdEvalError> {
    let placed = |handle: ColliderHandle| {
        let co = &world.colliders[handle];
        // A parentless (fixed) collider does not move: any centre and no velocity.
        let (com, linvel, angvel) =
            co.parent()
                .map_or((co.translation(), Vector::ZERO, Vector::ZERO), |h| {
                    let body = &world.bodies[h];
                    (body.center_of_mass(), body.linvel(), body.angvel())
                });
        Placed {
            pose: *co.position(),
            local_com: co.position().inverse_transform_point(com),
            linvel,
            angvel,
        }
    };
    let (part, target) = (placed(case.part), placed(case.target));
    part.check_finite("part")?;
    target.check_finite("target")?;
    Ok((part, target))
}

/// What one step of a case measured.
#[derive(Clone, Copy, Debug)]
pub struct StepMeasure {
    pub frame: Frame,
    /// A strict pass-through by the frames alone.
    pub frame_strict: bool,
    /// Frame-strict, and cleared by the refinement on its own proof.
    pub cleared: bool,
    /// Frame-strict and not cleared: why the frame count stands.
    pub stands: Option<Stands>,
}

/// Tracks a case frame by frame: call [`CaseTracker::step`] after each world step.
pub struct CaseTracker {
    frame: Frame,
    placed: (Placed, Placed),
}

impl CaseTracker {
    pub fn new(world: &PhysicsWorld, case: &ThinCase) -> Result<Self, CcdEvalError> {
        Ok(Self {
            frame: case_frame(world, case)?,
            placed: case_placed(world, case)?,
        })
    }

    /// The step that led to the world's current frame (see [`crate::measure`]).
    pub fn step(
        &mut self,
        world: &PhysicsWorld,
        case: &ThinCase,
    ) -> Result<StepMeasure, CcdEvalError> {
        let (frame, placed) = (case_frame(world, case)?, case_placed(world, case)?);
        let frame_strict = strict_pass_through(&self.frame, &frame);
        let stands = if frame_strict {
            let (part, target) = (&world.colliders[case.part], &world.colliders[case.target]);
            let cuboid = target.shape().as_cuboid().expect("cuboid target");
            let dt = world.integration_parameters.dt;
            clears(
                part.shape(),
                (&self.placed.0, &placed.0),
                cuboid,
                (&self.placed.1, &placed.1),
                dt,
            )?
        } else {
            None
        };
        (self.frame, self.placed) = (frame, placed);
        Ok(StepMeasure {
            frame,
            frame_strict,
            cleared: frame_strict && stands.is_none(),
            stands,
        })
    }
}

/// Runs one built case for its steps and adds its figures to `report` (the half-thickness is
/// the caller's to set). `Err`: the run could not be measured (its figures are not added).
pub fn run_case(
    mut world: PhysicsWorld,
    case: ThinCase,
    truncation: bool,
    report: &mut SetReport,
) -> Result<(), CcdEvalError> {
    let mut tracker = CaseTracker::new(&world, &case)?;
    let (mut frame_strict, mut cleared, mut replayed) = (0, 0, 0);
    let mut max_penetration: Real = 0.0;
    let mut trunc = report.truncation;
    for step in 1..=case.steps {
        if truncation {
            trunc.measure_step(&world);
        }
        let saved = bincode::serialize(&world)?;
        world.step();
        let m = tracker
            .step(&world, &case)
            .map_err(|e| CcdEvalError::Step {
                run: None,
                step,
                source: Box::new(e),
            })?;
        frame_strict += m.frame_strict as usize;
        cleared += m.cleared as usize;
        if let Some(stands) = m.stands {
            let gated = GatedStep {
                run: String::new(),
                step,
                stands,
                saved,
                case,
            };
            replayed += replay_clears(&gated, m.frame.side) as usize;
        }
        max_penetration = max_penetration.max(m.frame.penetration);
    }
    report.runs += 1;
    report.frame_strict += frame_strict;
    report.cleared += cleared;
    report.replayed += replayed;
    report.pass_throughs += frame_strict - cleared - replayed;
    report.max_penetration = report.max_penetration.max(max_penetration);
    report.truncation = trunc;
    report.digests.push(state_digest(&world.bodies));
    Ok(())
}

/// The substep counts a collision step is replayed at by [`replay_clears`].
pub const REPLAY_SUBSTEPS: [usize; 3] = [16, 64, 256];

/// The second refinement, for a *collision step* (a frame-strict step the between-frames
/// refinement could not clear because a velocity changed or the shapes touch): no
/// constant-velocity path is the step's, so the step is replayed from the world saved before it
/// in each of [`REPLAY_SUBSTEPS`] CCD-checked substeps. It is cleared only when every replay
/// proves what clearing assumes: no crossing within the face that its own measure cannot clear
/// (the part went around the target, not through it), and the part ending on the same side of
/// the mid-plane as the coarse step did (`coarse_side`), so the coarse step's outcome is the
/// one the fine path reaches. A step the engine tunnelled through is not cleared: its fine
/// replays hit the target and end on the near side. A replay that cannot be measured clears
/// nothing.
pub fn replay_clears(gated: &GatedStep, coarse_side: Real) -> bool {
    if gated.stands == Stands::CrossesWithinFace {
        return false;
    }
    REPLAY_SUBSTEPS.iter().all(|n| {
        gated.replay(*n).is_ok_and(|r| {
            r.gated() == 0 && r.end_side != 0.0 && (r.end_side > 0.0) == (coarse_side > 0.0)
        })
    })
}

/// A gated strict pass-through: a step the frames call one and the refinement could not clear.
pub struct GatedStep {
    /// `set@speed#start`.
    pub run: String,
    /// The step (from 1).
    pub step: usize,
    /// Why the frame count stands.
    pub stands: Stands,
    /// The world before the step (bincode), and the case in it.
    saved: Vec<u8>,
    case: ThinCase,
}

/// What re-running a gated step in substeps showed: the fine run's own measures.
#[derive(Clone, Copy, Debug)]
pub struct Replay {
    pub substeps: usize,
    pub frame_strict: usize,
    pub cleared: usize,
    pub max_penetration: Real,
    /// The part's side of the target's mid-plane at the end of the fine run.
    pub end_side: Real,
}

impl Replay {
    /// Frame-strict crossings the fine run's own refinement could not clear.
    pub fn gated(&self) -> usize {
        self.frame_strict - self.cleared
    }
}

/// Every gated step of `set` under `params`, each with the world saved before it.
pub fn gated_steps(
    set: &ThinSet,
    params: IntegrationParameters,
) -> Result<Vec<GatedStep>, CcdEvalError> {
    let mut out = Vec::new();
    for run in set.runs() {
        let (mut world, case) = set.build_run(params, run);
        let run = run.to_string();
        let mut tracker = CaseTracker::new(&world, &case).map_err(|e| CcdEvalError::Run {
            run: run.clone(),
            source: Box::new(e),
        })?;
        for step in 1..=case.steps {
            let saved = bincode::serialize(&world)?;
            world.step();
            let m = tracker
                .step(&world, &case)
                .map_err(|e| CcdEvalError::Step {
                    run: Some(run.clone()),
                    step,
                    source: Box::new(e),
                })?;
            if let Some(stands) = m.stands {
                out.push(GatedStep {
                    run: run.clone(),
                    step,
                    stands,
                    saved,
                    case,
                });
            }
        }
    }
    Ok(out)
}

impl GatedStep {
    /// The gated `step` of `run` (why it stands: `stands`), with the world before it as
    /// bincode (`saved`) and its case.
    pub fn new(run: String, step: usize, stands: Stands, saved: Vec<u8>, case: ThinCase) -> Self {
        Self {
            run,
            step,
            stands,
            saved,
            case,
        }
    }

    /// Re-runs the step from the saved world in `substeps` steps of dt / substeps (the solver's
    /// own path, CCD-checked at each substep), measured like any run.
    pub fn replay(&self, substeps: usize) -> Result<Replay, CcdEvalError> {
        let mut world: PhysicsWorld = bincode::deserialize(&self.saved)?;
        world.integration_parameters.dt /= substeps as Real;
        let mut tracker = CaseTracker::new(&world, &self.case)?;
        let mut r = Replay {
            substeps,
            frame_strict: 0,
            cleared: 0,
            max_penetration: 0.0,
            end_side: 0.0,
        };
        for _ in 0..substeps {
            world.step();
            let m = tracker.step(&world, &self.case)?;
            r.frame_strict += m.frame_strict as usize;
            r.cleared += m.cleared as usize;
            r.max_penetration = r.max_penetration.max(m.frame.penetration);
            r.end_side = m.frame.side;
        }
        Ok(r)
    }
}

/// The suite's table, one line per set and configuration, as `rapier-pinned perturbation`
/// prints it: frame-strict pass-throughs, those the refinement cleared on its own proof, the
/// gated count, penetration and truncation. The gate column applies to moving-target sets, and
/// under the current physics-version to every set (version 3 gates fixed targets too); other
/// configurations' fixed-target sets are reported. A run that could not be measured is listed and
/// fails.
pub fn table(sets: &[&ThinSet], configs: &[CcdConfig], truncation: bool) -> String {
    table_at(sets, configs, truncation, ThinSet::STEPS_HZ)
}

/// [`table`] at `tick_hz` steps per second ([`params_at`]); at 60 Hz, [`table`] itself.
pub fn table_at(
    sets: &[&ThinSet],
    configs: &[CcdConfig],
    truncation: bool,
    tick_hz: u32,
) -> String {
    let mut out = format!(
        "{:<22} {:<9} {:>7} {:>5} {:>7} {:>8} {:>5} {:>10} {:>7} {:>7}  {}\n",
        "set",
        "config",
        "runs",
        "frame",
        "cleared",
        "replayed",
        "gated",
        "max pen mm",
        "half mm",
        "trunc %",
        "gate"
    );
    let (mut errors, mut gated) = (Vec::new(), Vec::new());
    for set in sets {
        for config in configs {
            let r = run_set_with(set, params_at(*config, tick_hz), truncation);
            let current = *config == CcdConfig::current();
            if r.pass_throughs > 0 && current {
                gated.push(*set);
            }
            let trunc = if truncation {
                format!("{:>7.2}", 100.0 * r.truncation.ratio())
            } else {
                format!("{:>7}", "-")
            };
            // From policy 3 (version 3) on, the gates apply to the fixed-target sets too.
            let gated_fixed = config.policy as u8 >= CcdPersistentContactPolicy::KeepDepth as u8;
            let gate = match (set.moving_target || gated_fixed, r.meets_gates()) {
                (true, true) => "holds",
                (true, false) => "FAILS",
                (false, true) => "holds (fixed target, reported)",
                (false, false) => "fails (fixed target, reported)",
            };
            out += &format!(
                "{:<22} {:<9} {:>7} {:>5} {:>7} {:>8} {:>5} {:>10.3} {:>7.1} {trunc}  {gate}\n",
                set.name,
                crate::configs::label(*config),
                format!("{}/{}", r.runs, r.expected_runs),
                r.frame_strict,
                r.cleared,
                r.replayed,
                r.pass_throughs,
                r.max_penetration * 1e3,
                r.half_thickness * 1e3,
            );
            errors.extend(
                r.errors
                    .iter()
                    .map(|e| format!("{} {}: {e}", set.name, crate::configs::label(*config))),
            );
        }
    }
    for e in errors {
        out += &format!("not measured: {e}\n");
    }
    // The current physics-version's gated steps, each with why the refinement could not clear
    // it and what replaying it in 64 substeps from its saved start shows.
    for set in gated {
        match gated_steps(set, params_at(CcdConfig::current(), tick_hz)) {
            Err(e) => out += &format!("{}: {e}\n", set.name),
            Ok(steps) => {
                for g in steps {
                    let replay = match g.replay(64) {
                        Ok(r) => format!(
                            "{} gated crossings, end side {:.3} m",
                            r.gated(),
                            r.end_side
                        ),
                        Err(e) => format!("not measured: {e}"),
                    };
                    out += &format!(
                        "gated under the current settings: {} step {} ({:?}); replayed in 64 substeps: {replay}\n",
                        g.run, g.step, g.stands
                    );
                }
            }
        }
    }
    out
}
