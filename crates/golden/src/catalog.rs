//! The project's golden scenes: every catalog scene and every thin-part perturbation set, each
//! recorded under a physics-version's pinned integration parameters.

use crate::error::GoldenError;
use crate::trajectory::{Golden, Recorder};
use rapier3d::prelude::*;
use rapier_pinned::PhysicsVersion;
use rapier_pinned_scenes::{catalog, thin_sets, Scene, ThinSet, STARTS};

/// A hook called before each step: run name, the step about to be taken (from 1), the world.
/// Tests use it to perturb a run on purpose.
pub type Hook<'a> = &'a mut dyn FnMut(&str, usize, &mut PhysicsWorld);

/// One golden file's worth of runs.
#[derive(Copy, Clone)]
pub struct GoldenScene {
    pub name: &'static str,
    pub about: &'static str,
    source: Source,
}

#[derive(Copy, Clone)]
enum Source {
    Scene(&'static Scene),
    Thin(&'static ThinSet),
}

/// Every golden scene: the catalog in order, then the thin-part sets in order.
pub fn golden_scenes() -> Vec<GoldenScene> {
    let scenes = catalog().iter().map(|s| GoldenScene {
        name: s.name,
        about: s.about,
        source: Source::Scene(s),
    });
    let sets = thin_sets().iter().map(|t| GoldenScene {
        name: t.name,
        about: t.about,
        source: Source::Thin(t),
    });
    scenes.chain(sets).collect()
}

/// The golden scene called `name`.
pub fn find(name: &str) -> Option<GoldenScene> {
    golden_scenes().into_iter().find(|s| s.name == name)
}

impl GoldenScene {
    /// How many runs the file holds.
    pub fn runs(&self) -> usize {
        match self.source {
            Source::Scene(_) => 1,
            Source::Thin(t) => t.run_count(),
        }
    }

    /// Every run under `version`'s pinned integration parameters.
    pub fn record(&self, version: PhysicsVersion) -> Result<Golden, GoldenError> {
        self.record_with(version, &mut |_, _, _| {})
    }

    /// [`GoldenScene::record`], calling `hook` before each step.
    pub fn record_with(&self, version: PhysicsVersion, hook: Hook) -> Result<Golden, GoldenError> {
        let params = rapier_pinned::entry(version)?.params();
        let mut runs = Vec::new();
        let mut first: Option<(String, Vector)> = None;
        let mut record = |name: String, mut world: PhysicsWorld, steps: usize| {
            let mut recorder = Recorder::new(name.clone(), &world.bodies);
            first.get_or_insert((recorder.sampling(), world.gravity));
            for step in 1..=steps {
                hook(&name, step, &mut world);
                world.step();
                recorder.step(&world.bodies);
            }
            runs.push(recorder.finish());
        };
        let runs_line = match self.source {
            Source::Scene(scene) => {
                record(scene.name.to_string(), scene.build(params), scene.steps);
                format!("runs: 1 of {} steps", scene.steps)
            }
            Source::Thin(set) => {
                for run in set.runs() {
                    let (world, case) = set.build_run(params, run);
                    record(run.to_string(), world, case.steps);
                }
                format!(
                    "runs: {} (`set@speed#start`: speeds {:?} m/s x starts 0-{})",
                    runs.len(),
                    set.speeds,
                    STARTS - 1
                )
            }
        };
        let (sampling, gravity) = first.expect("every golden scene has a run");
        Ok(Golden {
            header: vec![
                format!("golden trajectory of `{}` under physics-version {version}", self.name),
                format!("about: {}", self.about),
                format!(
                    "world: the scene catalog's build with physics-version {version}'s integration parameters; gravity {:?}",
                    gravity.to_array()
                ),
                runs_line,
                format!("sampled (first run): {sampling}"),
                "line: step, state digest | per sampled body: id, state hash, x y z".into(),
            ],
            runs,
        })
    }
}
