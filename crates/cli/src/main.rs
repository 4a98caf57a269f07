//! `rapier-pinned`: the project's command-line tool.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use rapier3d::prelude::*;
use rapier_pinned_scenes::{catalog, digest_lines, find, state_digest, Scene};

#[derive(Parser)]
#[command(name = "rapier-pinned", version, about = "A patched Rapier 3D for multiplayer games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the scene catalog and print a table: scene, bodies, steps, ms/step, final digest.
    Scenes {
        /// Print one scene name per line and run nothing.
        #[arg(long)]
        list: bool,
        /// Run only these scenes (default: all).
        #[arg(long = "scene", value_name = "NAME")]
        scenes: Vec<String>,
    },
    /// Check the engine's moving-pair sweep against seed 000's vectors (conformance/sweeps) and
    /// print the figures.
    Sweeps {
        /// Regenerate conformance/sweeps/random.csv from the documented generator and oracle.
        #[arg(long)]
        write: bool,
    },
    /// Write every step's state digest (`scene step digest`), at upstream default settings.
    Digests {
        /// Only these scenes (default: all).
        #[arg(long = "scene", value_name = "NAME")]
        scenes: Vec<String>,
    },
}

fn selected(names: &[String]) -> Result<Vec<&'static Scene>, String> {
    if names.is_empty() {
        return Ok(catalog().iter().collect());
    }
    names
        .iter()
        .map(|n| find(n).ok_or_else(|| format!("unknown scene '{n}' (see `rapier-pinned scenes --list`)")))
        .collect()
}

fn run_table(scenes: &[&Scene]) {
    println!("{:<18} {:>6} {:>6} {:>9}  {:<16}", "scene", "bodies", "steps", "ms/step", "final digest");
    for scene in scenes {
        let mut world = scene.build(IntegrationParameters::default());
        let start = Instant::now();
        for _ in 0..scene.steps {
            world.step();
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / scene.steps as f64;
        let digest = state_digest(&world.bodies);
        println!("{:<18} {:>6} {:>6} {:>9.3}  {:016x}", scene.name, world.bodies.len(), scene.steps, ms, digest);
    }
}

fn sweeps() -> Result<(), String> {
    let slop = IntegrationParameters::default().allowed_linear_error();
    let (fixed, random) = rapier_pinned_conformance::sweep_check::run_all(slop)?;
    println!("slop {slop} m, tolerance {} m", 0.25 * slop);
    println!("fixed cases:  {fixed}");
    println!("random cases: {random}");
    if fixed.passed() && random.passed() {
        Ok(())
    } else {
        Err("the moving-pair sweep fails the conformance gates".into())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Scenes { list: true, .. } => {
            catalog().iter().for_each(|s| println!("{}", s.name));
            Ok(())
        }
        Command::Scenes { scenes, .. } => selected(&scenes).map(|s| run_table(&s)),
        Command::Sweeps { write: true } => {
            use rapier_pinned_conformance::{conformance_dir, generator, vectors};
            let path = conformance_dir().join("sweeps/random.csv");
            let csv = vectors::random_csv(&generator::random_cases(generator::SEED, generator::CASES));
            std::fs::write(&path, csv).map_err(|e| format!("{}: {e}", path.display()))
        }
        Command::Sweeps { write: false } => sweeps(),
        Command::Digests { scenes } => selected(&scenes).map(|s| {
            let mut out = std::io::stdout().lock();
            for scene in s {
                // A closed pipe (e.g. `| head`) is not an error worth a panic.
                if out.write_all(digest_lines(scene, IntegrationParameters::default()).as_bytes()).is_err() {
                    break;
                }
            }
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
