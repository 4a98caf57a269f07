//! Probes `ccd_relative_motion` on cases the tests do not cover (the scene catalog's
//! [`bullet_probes`]); prints what happens, off and on.
//! `cargo run --release -p rapier-pinned-ccd-eval --example relative_motion_probe`

use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_scenes::{bullet_probes, probe_world, ProbeBody};

/// Runs `bodies` for 20 steps (relative motion as given, policy 0, no speed cap); returns (any
/// contact seen, worst overlap between any two shapes at a frame end, whether any pair ended
/// swapped along its initial separation).
fn run(bodies: &[ProbeBody], relative_motion: bool) -> (bool, Real, bool) {
    let mode = match relative_motion {
        true => CcdRelativeMotion::On,
        false => CcdRelativeMotion::Off,
    };
    let mut params = CcdConfig::new(mode, CcdPersistentContactPolicy::Upstream).params();
    params.normalized_max_linear_velocity = Real::MAX;
    let (mut world, handles) = probe_world(bodies, params);
    let start: Vec<Vector> = bodies.iter().map(|b| b.pos).collect();
    let (mut contact, mut worst, mut swapped): (bool, Real, bool) = (false, 0.0, false);
    for _ in 0..20 {
        world.step();
        for i in 0..handles.len() {
            for j in i + 1..handles.len() {
                let (ci, cj) = (handles[i].1, handles[j].1);
                contact |= world
                    .contact_pair(ci, cj)
                    .is_some_and(|p| p.has_any_active_contact());
                let (a, b) = (&world.colliders[ci], &world.colliders[cj]);
                if let Ok(Some(c)) = rapier3d::parry::query::contact(
                    a.position(),
                    a.shape(),
                    b.position(),
                    b.shape(),
                    0.0,
                ) {
                    worst = worst.max(-c.dist);
                }
                let d0 = start[j] - start[i];
                let d = world.bodies[handles[j].0].translation()
                    - world.bodies[handles[i].0].translation();
                swapped |= d0.dot(d) < 0.0;
            }
        }
    }
    (contact, worst, swapped)
}

fn main() {
    for (name, bodies) in &bullet_probes() {
        for rm in [false, true] {
            let (contact, worst, swapped) = run(bodies, rm);
            println!(
                "{name:<66} relative motion {:<5}: contact {contact:<5} worst end-of-frame overlap {:>7.2} mm, swapped {swapped}",
                rm,
                worst * 1e3
            );
        }
    }
}
