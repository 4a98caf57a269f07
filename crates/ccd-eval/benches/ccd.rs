//! CCD cost: step time of two configurations in one run, and truncation, on catalog scenes and
//! on the thin-part perturbation sets.
//!
//! `cargo bench -p rapier-pinned-ccd-eval --bench ccd` prints, per scene, the median
//! wall-clock time per step of each configuration (runs interleaved, so drift hits both), the
//! ratio, and the truncation of each (`truncation`: motion lost to CCD clamps):
//! - `ccd_relative_motion` on / off (off = upstream: the fork at default settings is
//!   bit-identical to upstream, scripts/parity);
//! - `ccd_persistent_contact_policy` 2 / 0, both with relative motion on.

use std::time::Instant;

use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_ccd_eval::perturbation::run_set_with;
use rapier_pinned_ccd_eval::truncation::Truncation;
use rapier_pinned_scenes::{find, thin_sets, Scene, ThinSet};

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

/// Times `run` (ms per step) under `off` and `on`, interleaved, and prints the medians, their
/// ratio and the truncation `truncation` measures under each.
fn compare_with(
    name: &str,
    label: &str,
    off: IntegrationParameters,
    on: IntegrationParameters,
    run: impl Fn(IntegrationParameters) -> f64,
    truncation: impl Fn(IntegrationParameters) -> Truncation,
) {
    let (mut t_off, mut t_on) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        t_off.push(run(off));
        t_on.push(run(on));
    }
    let (m_off, m_on) = (median(t_off), median(t_on));
    let (tr_off, tr_on) = (truncation(off), truncation(on));
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

/// A catalog scene under `off` and `on`.
fn compare(name: &str, label: &str, off: IntegrationParameters, on: IntegrationParameters) {
    let scene = find(name).expect("catalog scene");
    compare_with(
        name,
        label,
        off,
        on,
        |p| time_run(scene, p),
        |p| truncation(scene, p),
    );
}

/// A whole thin-part set (every start and speed) under `off` and `on`.
fn compare_set(set: &ThinSet, label: &str, off: IntegrationParameters, on: IntegrationParameters) {
    let time = |params| {
        let start = Instant::now();
        let mut steps = 0;
        for run in set.runs() {
            let (mut world, case) = set.build_run(params, run);
            for _ in 0..case.steps {
                world.step();
            }
            steps += case.steps;
        }
        start.elapsed().as_secs_f64() * 1e3 / steps as f64
    };
    compare_with(set.name, label, off, on, time, |p| {
        run_set_with(set, p, true).truncation
    });
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a scene-name filter.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    use CcdPersistentContactPolicy::*;
    let off = CcdConfig::upstream().params();
    let relative = CcdConfig::new(true, Upstream).params();
    let policy2 = CcdConfig::new(true, CoreSphereFixedTargets).params();

    println!("median of {RUNS} interleaved runs; on/off = ccd_relative_motion (policy 0)");
    for name in [
        "bullets_vs_plates",
        "bullet_swarm",
        "bullets_crossing",
        "blade_into_plate",
        "vehicles",
        "pyramid",
    ] {
        if wanted(name) {
            compare(name, "relative motion", off, relative);
        }
    }
    println!("on/off = ccd_persistent_contact_policy 2 / 0, relative motion on in both");
    for name in ["blade_into_plate", "vehicles", "pyramid"] {
        if wanted(name) {
            compare(name, "policy 2 / policy 0", relative, policy2);
        }
    }
    for set in thin_sets().iter().filter(|t| {
        matches!(
            t.name,
            "spinning_blade" | "blade_pressed" | "vehicle_ram" | "vehicle_push"
        )
    }) {
        if wanted(set.name) {
            compare_set(set, "policy 2 / policy 0", relative, policy2);
        }
    }
}
