//! `rapier-pinned sweeps`: the moving-pair sweep against the sphere-sweep vectors, or the random
//! vectors regenerated.

use rapier3d::prelude::*;
use rapier_pinned_conformance::{conformance_dir, generator, sweep_check, sweep_vectors};

use crate::failure::Failure;

/// The options of `sweeps`.
#[derive(clap::Args)]
pub struct Args {
    /// Regenerate conformance/sweeps/random.csv from the documented generator and oracle.
    #[arg(long)]
    write: bool,
}

/// Writes the random vectors, or checks the sweep and prints the figures. Every error, a failed
/// gate included, is a usage error: a gate not met is a command that could not do its job.
pub fn run(args: Args) -> Result<(), Failure> {
    if args.write { write() } else { check() }.map_err(Failure::Usage)
}

/// Regenerates conformance/sweeps/random.csv.
fn write() -> Result<(), String> {
    let path = conformance_dir().join("sweeps/random.csv");
    let csv =
        sweep_vectors::random_csv(&generator::random_cases(generator::SEED, generator::CASES));
    std::fs::write(&path, csv).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs both vector sets at upstream's slop, prints the figures; Err when a gate is not met.
fn check() -> Result<(), String> {
    let slop = IntegrationParameters::default().allowed_linear_error();
    let (fixed, random) = sweep_check::run_all(slop).map_err(|e| e.to_string())?;
    println!("slop {slop} m, tolerance {} m", 0.25 * slop);
    println!("fixed cases:  {fixed}");
    println!("random cases: {random}");
    if fixed.passed() && random.passed() {
        Ok(())
    } else {
        Err("the moving-pair sweep fails the conformance gates".into())
    }
}
