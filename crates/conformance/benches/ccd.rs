//! CCD cost: step time with a setting on / off in one run, and truncation, on catalog scenes.
//!
//! `cargo bench -p rapier-pinned-conformance --bench ccd` prints, per scene, the median
//! wall-clock time per step of each configuration (runs interleaved, so drift hits both), the
//! ratio, and the truncation of each (design §6). Off = upstream behaviour (the fork at default
//! settings is bit-identical to upstream, scripts/parity).

use std::time::Instant;

use rapier3d::prelude::*;
use rapier_pinned_conformance::truncation::Truncation;
use rapier_pinned_scenes::{find, Scene};

const RUNS: usize = 15;

fn time_run(scene: &Scene, params: IntegrationParameters) -> f64 {
    let mut world = scene.build(params);
    let start = Instant::now();
    for _ in 0..scene.steps {
        world.step();
    }
    start.elapsed().as_secs_f64() * 1e3 / scene.steps as f64
}

fn truncation(scene: &Scene, params: IntegrationParameters) -> Truncation {
    let mut world = scene.build(params);
    let mut t = Truncation::default();
    for _ in 0..scene.steps {
        t.measure_step(&world);
        world.step();
    }
    t
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn compare(name: &str, label: &str, off: IntegrationParameters, on: IntegrationParameters) {
    let scene = find(name).expect("catalog scene");
    let (mut t_off, mut t_on) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        t_off.push(time_run(scene, off));
        t_on.push(time_run(scene, on));
    }
    let (m_off, m_on) = (median(t_off), median(t_on));
    let (tr_off, tr_on) = (truncation(scene, off), truncation(scene, on));
    println!(
        "{name:<18} {label:<22} off {m_off:>8.4} ms/step  on {m_on:>8.4} ms/step  ratio {:>5.3}  \
         truncation off {:>5.1}% ({} body-steps)  on {:>5.1}% ({} body-steps)",
        m_on / m_off,
        tr_off.ratio() * 100.0,
        tr_off.active_body_steps,
        tr_on.ratio() * 100.0,
        tr_on.active_body_steps,
    );
}

/// Strict pass-throughs and worst penetration of the spinning blade into the 2 mm dynamic plate,
/// 7 offsets x 30/60/120 m/s (design §6), under `params`.
fn blade_set(params: IntegrationParameters) -> (usize, Real) {
    let (mut passes, mut depth) = (0, 0.0 as Real);
    for speed in [30.0, 60.0, 120.0] {
        for i in 0..7 {
            let mut world = PhysicsWorld::new();
            world.integration_parameters = params;
            rapier_pinned_scenes::blade_into_plate_with(&mut world, -0.3 + 0.1 * i as Real, speed, 300.0);
            let cs: Vec<_> = world.colliders.iter().map(|(h, _)| h).collect();
            let run = rapier_pinned_conformance::measure::run_pair(&mut world, cs[1], cs[0], 90);
            passes += run.pass_throughs;
            depth = depth.max(run.max_penetration);
        }
    }
    (passes, depth)
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a scene-name filter.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let off = IntegrationParameters::default();
    let mut relative = off;
    relative.ccd_relative_motion = true;
    println!("median of {RUNS} interleaved runs; on/off = ccd_relative_motion");
    for name in ["bullets_vs_plates", "bullet_swarm", "bullets_crossing", "blade_into_plate", "vehicles", "pyramid"] {
        if filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str())) {
            compare(name, "relative motion", off, relative);
        }
    }
    for (label, params) in [("off", off), ("relative motion", relative)] {
        let (passes, depth) = blade_set(params);
        println!("blade vs 2 mm dynamic plate, 21 starts, {label:<16} strict pass-throughs {passes}, max end-of-frame penetration {:.2} mm", depth * 1e3);
    }
}
