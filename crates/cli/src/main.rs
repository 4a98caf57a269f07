//! `rapier-pinned`: the project's command-line tool.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use rapier3d::prelude::*;
use rapier_pinned_scenes::{catalog, digest_lines, find, state_digest, thin_sets, Scene};

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
    /// Run the thin-part perturbation suite (design §6) under persistent-contact policies 0, 1 and
    /// 2, each with `ccd_relative_motion` off and on: strict pass-throughs, max end-of-frame
    /// penetration and truncation per set.
    Perturbation {
        /// Only these sets (default: all; `--list` names them).
        #[arg(long = "set", value_name = "NAME")]
        sets: Vec<String>,
        /// Print one set name per line and run nothing.
        #[arg(long)]
        list: bool,
        /// Skip the truncation measurement (it steps every frame three times).
        #[arg(long)]
        no_truncation: bool,
    },
    /// Write every step's state digest (`scene step digest`) of the catalog scenes and of every
    /// run of the thin-part sets, at upstream default settings.
    Digests {
        /// Only these scenes or thin-part sets (default: all).
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

/// Catalog scenes and thin-part sets named in `names` (all of both when empty), in catalog order.
fn digests(names: &[String]) -> Result<(), String> {
    let sets: Vec<_> = thin_sets().iter().filter(|t| names.is_empty() || names.iter().any(|n| n == t.name)).collect();
    let scene_names: Vec<String> = names.iter().filter(|n| !sets.iter().any(|t| t.name == n.as_str())).cloned().collect();
    let scenes = if names.is_empty() || !scene_names.is_empty() { selected(&scene_names)? } else { Vec::new() };
    let params = IntegrationParameters::default();
    let mut out = std::io::stdout().lock();
    let texts = scenes.iter().map(|s| digest_lines(s, params)).chain(sets.iter().map(|t| t.digest_lines(params)));
    for text in texts {
        // A closed pipe (e.g. `| head`) is not an error worth a panic.
        if out.write_all(text.as_bytes()).is_err() {
            break;
        }
    }
    Ok(())
}

fn perturbation(names: &[String], truncation: bool) -> Result<(), String> {
    use rapier_pinned_conformance::perturbation::{table, CcdConfig};
    let sets = names
        .iter()
        .map(|n| thin_sets().iter().find(|t| t.name == n.as_str()).ok_or_else(|| format!("unknown set '{n}' (see `rapier-pinned perturbation --list`)")))
        .collect::<Result<Vec<_>, _>>()?;
    let sets = if sets.is_empty() { thin_sets().iter().collect() } else { sets };
    print!("{}", table(&sets, &CcdConfig::all(), truncation));
    Ok(())
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
        Command::Digests { scenes } => digests(&scenes),
        Command::Perturbation { list: true, .. } => {
            thin_sets().iter().for_each(|t| println!("{:<22} {}", t.name, t.about));
            Ok(())
        }
        Command::Perturbation { sets, no_truncation, .. } => perturbation(&sets, !no_truncation),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
