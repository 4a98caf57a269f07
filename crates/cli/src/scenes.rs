//! `rapier-pinned scenes`: the scene catalog, listed or run as a table.

use std::time::Instant;

use rapier3d::prelude::*;
use rapier_pinned_digest::state_digest;
use rapier_pinned_scenes::{catalog, Scene};

use crate::args::catalog_scenes;
use crate::failure::Failure;

/// The options of `scenes`.
#[derive(clap::Args)]
pub struct Args {
    /// Print one scene name per line and run nothing.
    #[arg(long)]
    list: bool,
    /// Run only these scenes (default: all).
    #[arg(long = "scene", value_name = "NAME")]
    scenes: Vec<String>,
}

/// Lists the catalog, or runs the chosen scenes and prints the table; an unknown scene is a
/// usage error.
pub fn run(args: Args) -> Result<(), Failure> {
    if args.list {
        catalog().iter().for_each(|s| println!("{}", s.name));
        return Ok(());
    }
    let scenes = catalog_scenes(&args.scenes).map_err(Failure::Usage)?;
    table(&scenes);
    Ok(())
}

/// Steps each scene at upstream's defaults and prints its row: bodies, steps, ms/step and the
/// final state digest.
fn table(scenes: &[&Scene]) {
    println!(
        "{:<18} {:>6} {:>6} {:>9}  {:<16}",
        "scene", "bodies", "steps", "ms/step", "final digest"
    );
    for scene in scenes {
        let mut world = scene.build(IntegrationParameters::default());
        let start = Instant::now();
        for _ in 0..scene.steps {
            world.step();
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / scene.steps as f64;
        let digest = state_digest(&world.bodies);
        println!(
            "{:<18} {:>6} {:>6} {:>9.3}  {:016x}",
            scene.name,
            world.bodies.len(),
            scene.steps,
            ms,
            digest
        );
    }
}
