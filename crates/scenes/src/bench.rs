//! The benchmark cases: what `scripts/bench` times on the fork and on pristine upstream alike
//! (this crate compiles against both), so both sides build and step exactly the same worlds.

use rapier3d::prelude::*;

use crate::catalog::{find, mixed_pile, Scene};
use crate::generated::{arena_generated_in, generated_arenas, Room, ARENA_GENERATED_STEPS};
use crate::spin::{spin_scene, SPIN_CASES, SPIN_STEPS};
use crate::thin::{thin_sets, ThinSet};

/// What a case steps.
pub enum Workload {
    /// A catalog scene, for its step count.
    Scene(&'static Scene),
    /// The mixed pile at `layers` x 500 bodies, for [`MIXED_STEPS`] steps (cost growth).
    Mixed { layers: usize },
    /// Every run of a thin-part set (speeds x starts), each for its step count.
    Thin(&'static ThinSet),
    /// The generated arena of a seed in a room, for [`ARENA_GENERATED_STEPS`] steps.
    Generated { seed: u64, room: Room },
    /// The spin scene at a spin rate (rad/s), for [`SPIN_STEPS`] steps.
    Spin { spin: Real },
}

/// Steps of a mixed-pile case: the catalog's `mixed_5000` step count.
pub const MIXED_STEPS: usize = 30;

/// One benchmark case: a name, what it steps, and the aim for the current physics-version's
/// cost relative to upstream (docs/benchmarks.md says where each aim comes from).
pub struct BenchCase {
    pub name: &'static str,
    pub workload: Workload,
    pub aim: f64,
}

/// Every case, in the order the table prints them.
pub fn bench_cases() -> Vec<BenchCase> {
    let scene = |name: &'static str, aim| BenchCase {
        name,
        workload: Workload::Scene(find(name).expect("catalog scene")),
        aim,
    };
    let mixed = |name, layers| BenchCase {
        name,
        workload: Workload::Mixed { layers },
        aim: 1.02,
    };
    let mut cases = vec![
        scene("pyramid", 1.02),
        scene("tower", 1.02),
        scene("bullets_vs_plates", 1.25),
        scene("bullet_swarm", 1.15),
        scene("vehicles", 1.10),
        scene("vehicles_clear", 1.10),
        scene("arena", 1.10),
        scene("arena_clear", 1.10),
        mixed("mixed_1000", 2),
        mixed("mixed_2000", 4),
        mixed("mixed_5000", 10),
        mixed("mixed_10000", 20),
    ];
    cases.extend(generated_arenas().map(|(name, seed, room)| BenchCase {
        name,
        workload: Workload::Generated { seed, room },
        aim: 1.10,
    }));
    // What one spinning body costs (the step's cost must not grow with the spin): the thin-part
    // sets' aim.
    cases.extend(SPIN_CASES.iter().map(|&(name, spin)| BenchCase {
        name,
        workload: Workload::Spin { spin },
        aim: 1.25,
    }));
    cases.extend(thin_sets().iter().map(|set| BenchCase {
        name: set.name,
        workload: Workload::Thin(set),
        aim: 1.25,
    }));
    cases
}

/// The case called `name`.
pub fn find_case(name: &str) -> Option<BenchCase> {
    bench_cases().into_iter().find(|c| c.name == name)
}

impl BenchCase {
    /// Fresh worlds of one run of the case under `params`, each with its step count. `limit`
    /// caps both the step count and, for a thin-part set, the number of runs (the quick mode).
    pub fn worlds(
        &self,
        params: IntegrationParameters,
        limit: Option<usize>,
    ) -> Vec<(PhysicsWorld, usize)> {
        let cap = |n: usize| limit.map_or(n, |l| n.min(l));
        match self.workload {
            Workload::Scene(scene) => vec![(scene.build(params), cap(scene.steps))],
            Workload::Mixed { layers } => {
                let mut world = PhysicsWorld::new();
                world.integration_parameters = params;
                mixed_pile(&mut world, layers);
                vec![(world, cap(MIXED_STEPS))]
            }
            Workload::Thin(set) => set
                .runs()
                .take(cap(set.run_count()))
                .map(|run| {
                    let (world, case) = set.build_run(params, run);
                    (world, cap(case.steps))
                })
                .collect(),
            Workload::Generated { seed, room } => {
                let mut world = PhysicsWorld::new();
                world.integration_parameters = params;
                arena_generated_in(&mut world, seed, room);
                vec![(world, cap(ARENA_GENERATED_STEPS))]
            }
            Workload::Spin { spin } => {
                let mut world = PhysicsWorld::new();
                world.integration_parameters = params;
                spin_scene(&mut world, spin);
                vec![(world, cap(SPIN_STEPS))]
            }
        }
    }

    /// Milliseconds per step of one run of the case: every world is built first, only the
    /// stepping is timed.
    pub fn time(&self, params: IntegrationParameters, limit: Option<usize>) -> f64 {
        let mut worlds = self.worlds(params, limit);
        let steps: usize = worlds.iter().map(|(_, n)| n).sum();
        let start = std::time::Instant::now();
        for (world, n) in &mut worlds {
            for _ in 0..*n {
                bench_step(world);
            }
        }
        start.elapsed().as_secs_f64() * 1e3 / steps.max(1) as f64
    }

    /// [`BenchCase::time`] of runs repeated until they took `min_ms` in all (at least one run):
    /// short cases get more runs, so one process's sample is not a few milliseconds of noise.
    pub fn times(
        &self,
        params: IntegrationParameters,
        limit: Option<usize>,
        min_ms: f64,
    ) -> Vec<f64> {
        let (mut times, mut spent) = (Vec::new(), 0.0);
        while times.is_empty() || spent < min_ms {
            let started = std::time::Instant::now();
            times.push(self.time(params, limit));
            spent += started.elapsed().as_secs_f64() * 1e3;
        }
        times
    }
}

/// One step. Never inlined: instruction counts collect inside this function only
/// (`valgrind --tool=callgrind --toggle-collect=*bench_step*`), not the scene's building.
#[inline(never)]
pub fn bench_step(world: &mut PhysicsWorld) {
    world.step();
}
