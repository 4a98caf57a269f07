//! `rapier-pinned perturbation`: the thin-part perturbation suite under CCD configurations.

use std::time::Instant;

use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_ccd_eval::configs::all_six;
use rapier_pinned_ccd_eval::perturbation::{table, table_at};
use rapier_pinned_scenes::thin_sets;

use crate::args::ccd_config;
use crate::failure::Failure;

/// The options of `perturbation`.
#[derive(clap::Args)]
pub struct Args {
    /// Only these sets (default: all; `--list` names them).
    #[arg(long = "set", value_name = "NAME")]
    sets: Vec<String>,
    /// Print one set name per line and run nothing.
    #[arg(long)]
    list: bool,
    /// Skip the truncation measurement (it steps every frame three times).
    #[arg(long)]
    no_truncation: bool,
    /// Only these configurations, each `POLICY:on` or `POLICY:off` (relative motion), e.g.
    /// `3:on` (default: policies 0, 1 and 2, each off and on, then the current physics-version's
    /// `3:on`).
    #[arg(long = "config", value_name = "POLICY:RM")]
    configs: Vec<String>,
    /// Run at N steps per second (`dt = 1 / N`, the same simulated time per case), one
    /// table per rate, each headed by its rate, its run time on stderr (default: 60, one
    /// table without a heading).
    #[arg(long = "tick-hz", value_name = "N")]
    tick_hz: Vec<u32>,
}

/// Lists the sets, or runs the suite and prints its tables; every error (an unknown set or
/// configuration, a zero rate) is a usage error.
pub fn run(args: Args) -> Result<(), Failure> {
    if args.list {
        thin_sets()
            .iter()
            .for_each(|t| println!("{:<22} {}", t.name, t.about));
        return Ok(());
    }
    perturbation(
        &args.sets,
        !args.no_truncation,
        &args.configs,
        &args.tick_hz,
    )
    .map_err(Failure::Usage)
}

/// Runs the sets named in `names` (all when empty) under `configs` (all six when empty), at
/// each rate of `tick_hz` (60 Hz without a heading when empty), and prints the tables.
fn perturbation(
    names: &[String],
    truncation: bool,
    configs: &[String],
    tick_hz: &[u32],
) -> Result<(), String> {
    if let Some(n) = tick_hz.iter().find(|&&n| n == 0) {
        return Err(format!("--tick-hz {n}: expected a positive rate"));
    }
    let sets = names
        .iter()
        .map(|n| {
            thin_sets()
                .iter()
                .find(|t| t.name == n.as_str())
                .ok_or_else(|| {
                    format!("unknown set '{n}' (see `rapier-pinned perturbation --list`)")
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let sets = if sets.is_empty() {
        thin_sets().iter().collect()
    } else {
        sets
    };
    let configs = configs
        .iter()
        .map(|c| ccd_config(c))
        .collect::<Result<Vec<_>, _>>()?;
    let configs = if configs.is_empty() {
        default_configs()
    } else {
        configs
    };
    if tick_hz.is_empty() {
        print!("{}", table(&sets, &configs, truncation));
    }
    for &hz in tick_hz {
        let start = Instant::now();
        let text = table_at(&sets, &configs, truncation, hz);
        println!("tick rate {hz} Hz (dt {:?} s)", 1.0 / hz as Real);
        print!("{text}");
        eprintln!("tick rate {hz} Hz: {:.2} s", start.elapsed().as_secs_f64());
    }
    Ok(())
}

/// The table's configurations by default: policies 0, 1 and 2, each with relative motion off and
/// on, then the current physics-version's settings when they are not among them.
fn default_configs() -> Vec<CcdConfig> {
    let mut configs = all_six().to_vec();
    if !configs.contains(&CcdConfig::current()) {
        configs.push(CcdConfig::current());
    }
    configs
}
