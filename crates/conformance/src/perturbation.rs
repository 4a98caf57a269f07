//! The perturbation suite (design §6, issue 5): every thin-part set of the scene catalog, run
//! from each of its starts and speeds under a CCD configuration, measured for strict
//! pass-through, end-of-frame penetration and truncation.

use rapier3d::prelude::*;
use rapier_pinned_scenes::{state_digest, ThinCase, ThinSet, STARTS};

use crate::measure::{crosses_within_face, frame, strict_pass_through, Frame, Placed};
use crate::truncation::Truncation;

/// The two CCD settings the suite varies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CcdConfig {
    pub policy: CcdPersistentContactPolicy,
    pub relative_motion: bool,
}

impl CcdConfig {
    /// Policies 0, 1, 2, each with relative motion off then on.
    pub fn all() -> Vec<CcdConfig> {
        use CcdPersistentContactPolicy::*;
        [Upstream, CoreSphere, CoreSphereFixedTargets]
            .into_iter()
            .flat_map(|policy| [false, true].map(|relative_motion| CcdConfig { policy, relative_motion }))
            .collect()
    }

    /// Upstream's default parameters with these two settings.
    pub fn params(&self) -> IntegrationParameters {
        let mut params = IntegrationParameters::default();
        params.ccd_persistent_contact_policy = self.policy;
        params.ccd_relative_motion = self.relative_motion;
        params
    }

    /// `p<policy number> rm<off|on>`.
    pub fn label(&self) -> String {
        format!("p{} rm {}", self.policy as u8, if self.relative_motion { "on " } else { "off" })
    }
}

/// One set's figures under one configuration, over all its starts and speeds.
#[derive(Clone, Debug, Default)]
pub struct SetReport {
    pub runs: usize,
    pub pass_throughs: usize,
    pub max_penetration: Real,
    /// The target's half-thickness: the penetration gate.
    pub half_thickness: Real,
    pub truncation: Truncation,
    /// XXH3 digests of every run's final state, in run order: equal digests, equal runs.
    pub digests: Vec<u64>,
}

impl SetReport {
    /// Strict pass-through = 0 and penetration <= the target's half-thickness.
    pub fn meets_gates(&self) -> bool {
        self.pass_throughs == 0 && self.max_penetration <= self.half_thickness
    }
}

/// Runs `set` from every start at every speed under `config`; `truncation` also measures
/// truncation (three steps per step: slower).
pub fn run_set(set: &ThinSet, config: CcdConfig, truncation: bool) -> SetReport {
    run_set_with(set, config.params(), truncation)
}

/// [`run_set`] under any parameters.
pub fn run_set_with(set: &ThinSet, params: IntegrationParameters, truncation: bool) -> SetReport {
    let mut report = SetReport::default();
    for &speed in set.speeds {
        for start in 0..STARTS {
            let (world, case) = set.build(params, start, speed);
            report.half_thickness = set.half_thickness(&world, &case);
            run_case(world, case, truncation, &mut report);
        }
    }
    report
}

/// The case's part against its cuboid target, measured at the world's current poses.
pub fn case_frame(world: &PhysicsWorld, case: &ThinCase) -> Frame {
    let (part, target) = (&world.colliders[case.part], &world.colliders[case.target]);
    let cuboid = target.shape().as_cuboid().expect("cuboid target");
    frame(part.shape(), part.position(), cuboid, target.position())
}

/// The case's part and target as they are placed in the world now (see [`Placed`]).
pub fn case_placed(world: &PhysicsWorld, case: &ThinCase) -> (Placed, Placed) {
    let placed = |handle: ColliderHandle| {
        let co = &world.colliders[handle];
        // A parentless (fixed) collider does not move: any centre and no spin.
        let (com, angvel) = co.parent().map_or((co.translation(), Vector::ZERO), |h| (world.bodies[h].center_of_mass(), world.bodies[h].angvel()));
        Placed { pose: *co.position(), local_com: co.position().inverse_transform_point(com), angvel }
    };
    (placed(case.part), placed(case.target))
}

/// Tracks a case frame by frame: call [`CaseTracker::step`] after each world step.
pub struct CaseTracker {
    frame: Frame,
    placed: (Placed, Placed),
}

impl CaseTracker {
    pub fn new(world: &PhysicsWorld, case: &ThinCase) -> Self {
        Self { frame: case_frame(world, case), placed: case_placed(world, case) }
    }

    /// The new frame, and whether the step that led to it was a strict pass-through (design §6,
    /// with the crossing followed between the frames, see [`crosses_within_face`]).
    pub fn step(&mut self, world: &PhysicsWorld, case: &ThinCase) -> (Frame, bool) {
        let (frame, placed) = (case_frame(world, case), case_placed(world, case));
        let strict = strict_pass_through(&self.frame, &frame) && {
            let (part, target) = (&world.colliders[case.part], &world.colliders[case.target]);
            let cuboid = target.shape().as_cuboid().expect("cuboid target");
            let dt = world.integration_parameters.dt;
            crosses_within_face(part.shape(), (&self.placed.0, &placed.0), cuboid, (&self.placed.1, &placed.1), dt)
        };
        (self.frame, self.placed) = (frame, placed);
        (frame, strict)
    }
}

/// Runs one built case for its steps and adds its figures to `report` (the half-thickness is
/// the caller's to set).
pub fn run_case(mut world: PhysicsWorld, case: ThinCase, truncation: bool, report: &mut SetReport) {
    let mut tracker = CaseTracker::new(&world, &case);
    for _ in 0..case.steps {
        if truncation {
            report.truncation.measure_step(&world);
        }
        world.step();
        let (next, strict) = tracker.step(&world, &case);
        report.pass_throughs += strict as usize;
        report.max_penetration = report.max_penetration.max(next.penetration);
    }
    report.runs += 1;
    report.digests.push(state_digest(&world.bodies));
}

/// The suite's table, one line per set and configuration, as `rapier-pinned perturbation`
/// prints it. The gate column applies to moving-target sets; fixed-target sets are reported.
pub fn table(sets: &[&ThinSet], configs: &[CcdConfig], truncation: bool) -> String {
    let mut out = format!(
        "{:<22} {:<9} {:>4} {:>6} {:>10} {:>7} {:>7}  {}\n",
        "set", "config", "runs", "strict", "max pen mm", "half mm", "trunc %", "gate"
    );
    for set in sets {
        for config in configs {
            let r = run_set(set, *config, truncation);
            let trunc = if truncation { format!("{:>7.1}", 100.0 * r.truncation.ratio()) } else { format!("{:>7}", "-") };
            let gate = match (set.moving_target, r.meets_gates()) {
                (true, true) => "holds",
                (true, false) => "FAILS",
                (false, true) => "holds (fixed target, reported)",
                (false, false) => "fails (fixed target, reported)",
            };
            out += &format!(
                "{:<22} {:<9} {:>4} {:>6} {:>10.3} {:>7.1} {trunc}  {gate}\n",
                set.name,
                config.label(),
                r.runs,
                r.pass_throughs,
                r.max_penetration * 1e3,
                r.half_thickness * 1e3,
            );
        }
    }
    out
}
