//! The moving-target gates beyond the suite's own starts, speeds, thicknesses and spin rates:
//! `cargo run --release -p rapier-pinned-ccd-eval --example perturbation_variations`.
//! Prints, per family and configuration, runs, strict pass-throughs and the worst end-of-frame
//! penetration as a fraction of the target's half-thickness (the gate is <= 1). `-- --dt SECONDS`
//! runs everything at another time step (the default is upstream's 1/60 s).

use rapier3d::prelude::*;
use rapier_pinned::{CcdConfig, PhysicsVersion};
use rapier_pinned_ccd_eval::configs;
use rapier_pinned_ccd_eval::variations::{rotors, spinning_blades, FamilyReport};

/// The time step: `--dt SECONDS` on the command line, upstream's default otherwise.
fn dt() -> Real {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--dt")
        .map(|i| args[i + 1].parse().expect("--dt SECONDS"))
        .unwrap_or(IntegrationParameters::default().dt)
}

fn print(name: &str, config: CcdConfig, r: FamilyReport) {
    println!(
        "{name:<44} {:<9} runs {:>5} strict: frame {:>4} cleared {:>4} gated {:>4}; worst penetration / half-thickness {:>7.3}; unmeasured {}",
        configs::label(config),
        r.runs,
        r.frame_strict,
        r.cleared,
        r.pass_throughs,
        r.worst_penetration_ratio,
        r.errors.len()
    );
}

fn main() {
    let dt = dt();
    // Upstream's rules, physics-versions 2 and 3 and the current version (4).
    let v2 = CcdConfig::version(PhysicsVersion::V2).expect("released");
    let v3 = CcdConfig::version(PhysicsVersion::V3).expect("released");
    for config in [CcdConfig::upstream(), v2, v3, CcdConfig::current()] {
        for spin in [100.0, 300.0, 600.0, 1000.0, 2000.0] {
            print(
                &format!("spinning blade {spin} rad/s, 3 thicknesses"),
                config,
                spinning_blades(config, dt, spin, false),
            );
        }
        for spin in [0.0, 30.0] {
            print(
                &format!("pressed blade, spin {spin} rad/s, 3 thicknesses"),
                config,
                spinning_blades(config, dt, spin, true),
            );
        }
        for spin in [50.0, 200.0, 500.0, 1000.0] {
            print(
                &format!("box into rotor {spin} rad/s, 3 box sizes"),
                config,
                rotors(config, dt, spin),
            );
        }
    }
}
