//! The perturbation suite under the current physics-version with a smaller linear slop, the lever
//! the design names for millimetre parts (`normalized_allowed_linear_error`):
//! `cargo run --release -p rapier-pinned-ccd-eval --example slop_probe -- 0.005 0.001 0.0005`.
//! Prints, per slop and set, frame/cleared/gated strict pass-throughs, the worst penetration (mm),
//! truncation and whether the set meets its gates (fixed-target sets are reported, not gated).

use rapier3d::prelude::*;
use rapier_pinned::entry;
use rapier_pinned::PHYSICS_VERSION_CURRENT;
use rapier_pinned_ccd_eval::perturbation::run_set_with;
use rapier_pinned_scenes::thin_sets;

fn main() {
    let slops: Vec<Real> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("each argument is a slop, in metres"))
        .collect();
    let current = entry(PHYSICS_VERSION_CURRENT)
        .expect("the current version is released")
        .params();
    for slop in slops {
        let params = IntegrationParameters {
            normalized_allowed_linear_error: slop,
            ..current
        };
        println!("v{PHYSICS_VERSION_CURRENT} with normalized_allowed_linear_error = {slop}");
        for set in thin_sets() {
            let r = run_set_with(set, params, true);
            println!(
                "  {:<22} {}/{}/{} · pen {:.3} mm · trunc {:.1}% · gates {} · unmeasured {}",
                set.name,
                r.frame_strict,
                r.cleared,
                r.pass_throughs,
                r.max_penetration * 1000.0,
                r.truncation.ratio() * 100.0,
                if r.meets_gates() { "hold" } else { "fail" },
                r.errors.len()
            );
        }
    }
}
