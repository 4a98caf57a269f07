//! Traces a perturbation set (a debugging aid): strict pass-throughs and worst penetration per
//! run; with SPEED and START, that run frame by frame on stderr.
//! `cargo run --release -p rapier-pinned-ccd-eval --example perturbation_trace -- SET POLICY on|off [SPEED START] [--tick-hz N]`
//! (`--tick-hz`: `perturbation::params_at`, default 60).
use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_ccd_eval::perturbation::{params_at, CaseTracker};
use rapier_pinned_scenes::thin_sets;
fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let tick_hz: u32 = match args.iter().position(|a| a == "--tick-hz") {
        Some(i) => args
            .drain(i..i + 2)
            .nth(1)
            .expect("--tick-hz N")
            .parse()
            .expect("N"),
        None => 60,
    };
    let set = thin_sets().iter().find(|s| s.name == args[1]).expect("set");
    let config = CcdConfig::from_parts(&args[2], &args[3]).expect("POLICY and MODE: 5 bounded");
    let only: Option<(Real, usize)> = args
        .get(5)
        .map(|s| (args[4].parse().unwrap(), s.parse().unwrap()));
    for run in set.runs() {
        let (speed, start) = (run.speed, run.start);
        if only.is_some_and(|o| o != (speed, start)) {
            continue;
        }
        let (mut world, case) = set.build_run(params_at(config, tick_hz), run);
        let mut tracker = CaseTracker::new(&world, &case).expect("measurable start");
        let (mut strict, mut pen): (usize, Real) = (0, 0.0);
        for i in 0..case.steps {
            if only.is_some() {
                eprintln!("-- step {i}");
            }
            world.step();
            let m = tracker.step(&world, &case).expect("measurable step");
            let (next, pt) = (m.frame, m.frame_strict && !m.cleared);
            strict += pt as usize;
            pen = pen.max(next.penetration);
            if only.is_some() {
                // The part's state, its pose in the target's frame, and the pair's manifolds.
                let rb = &world.bodies[world.colliders[case.part].parent().unwrap()];
                let verdict = match (m.frame_strict, m.cleared) {
                    (true, false) => "PASS-THROUGH",
                    (true, true) => "frame-strict, cleared",
                    _ => "",
                };
                eprintln!(
                    "   side {:>9.5} within {} pen {:>7.3} mm {verdict} ccd {} v {:?} w {:?}",
                    next.side,
                    next.within_face,
                    next.penetration * 1e3,
                    rb.is_ccd_active(),
                    rb.linvel(),
                    rb.angvel()
                );
                let rel = world.colliders[case.target]
                    .position()
                    .inv_mul(world.colliders[case.part].position());
                let axes = [Vector::X, Vector::Y, Vector::Z].map(|a| rel.rotation * a);
                eprintln!(
                    "   part in target frame: t {:?} x {:?} y {:?} z {:?}",
                    rel.translation, axes[0], axes[1], axes[2]
                );
                if let Some(pair) = world.contact_pair(case.part, case.target) {
                    for m in pair.manifolds() {
                        eprintln!(
                            "   manifold n1 {:?} pts {:?}",
                            m.data.normal,
                            m.points
                                .iter()
                                .map(|p| (p.dist, p.data.impulse))
                                .collect::<Vec<_>>()
                        );
                    }
                }
            }
        }
        println!(
            "speed {speed:>5} start {start}: strict {strict} max pen {:.3} mm",
            pen * 1e3
        );
    }
}
