//! `rapier-pinned ccd-matrix`: the CCD safety matrix (`rapier_pinned_ccd_eval::safety`) under
//! CCD configurations, one table of cells per configuration.

use std::time::Instant;

use rapier_pinned::{CcdConfig, PhysicsVersion, PHYSICS_VERSION_CURRENT};
use rapier_pinned_ccd_eval::configs::label;
use rapier_pinned_ccd_eval::safety::{self, Verdict, RATES, SEED};

use crate::args::ccd_config;
use crate::failure::Failure;

/// The options of `ccd-matrix`.
#[derive(clap::Args)]
pub struct Args {
    /// The seed every shot is drawn from.
    #[arg(long, value_name = "N", default_value_t = SEED)]
    seed: u64,
    /// Shots per cell (a target kind and a part kind) at each rate.
    #[arg(long, value_name = "N", default_value_t = 8)]
    shots: u32,
    /// Run at these steps per second (default: 30, 50, 60, 120 and 144).
    #[arg(long = "tick-hz", value_name = "N")]
    tick_hz: Vec<u32>,
    /// Only these configurations, each `POLICY:MODE` (relative motion `off`, `on`, `bounded` or
    /// `bounded-casts`), e.g. `5:bounded` (default: upstream's rules, the physics-version before
    /// the current one and the current one).
    #[arg(long = "config", value_name = "POLICY:RM")]
    configs: Vec<String>,
    /// Also print one table per rate.
    #[arg(long)]
    by_rate: bool,
    /// List every failing shot: its cell and index, rate, breach, step, depth and draws.
    #[arg(long)]
    failures: bool,
}

/// Runs the matrix under each configuration and prints its tables; an unknown configuration or
/// a zero rate is a usage error.
pub fn run(args: Args) -> Result<(), Failure> {
    if args.tick_hz.contains(&0) {
        return Err(Failure::Usage(
            "--tick-hz 0: expected a positive rate".into(),
        ));
    }
    let rates = match args.tick_hz.is_empty() {
        true => RATES.to_vec(),
        false => args.tick_hz.clone(),
    };
    let configs = match args.configs.is_empty() {
        true => default_configs(),
        false => (args.configs.iter())
            .map(|c| ccd_config(c).map(|config| (label(config).trim().to_string(), config)))
            .collect::<Result<_, _>>()
            .map_err(Failure::Usage)?,
    };
    let shots = rapier_pinned_scenes::shots(args.seed, args.shots);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let rate_list = (rates.iter().map(u32::to_string)).collect::<Vec<_>>();
    for (name, config) in configs {
        let start = Instant::now();
        let verdicts = safety::run(&shots, config, &rates, threads);
        let failed = verdicts.iter().filter(|v| v.failure.is_some()).count();
        println!(
            "## {name}: seed {}, {} shots per cell at {} Hz: {failed} of {} failed ({:.1} s)\n",
            args.seed,
            args.shots,
            rate_list.join(", "),
            verdicts.len(),
            start.elapsed().as_secs_f64(),
        );
        println!("{}", safety::table(&safety::cells(&verdicts, None)));
        println!("{}\n", per_rate(&verdicts, &rates));
        if args.by_rate {
            for hz in &rates {
                println!("### {hz} Hz\n");
                println!("{}", safety::table(&safety::cells(&verdicts, Some(*hz))));
            }
        }
        if args.failures {
            safety::failures(&verdicts)
                .iter()
                .for_each(|line| println!("- {line}"));
            println!();
        }
    }
    Ok(())
}

/// Upstream's rules, the physics-version before the current one and the current one, named.
fn default_configs() -> Vec<(String, CcdConfig)> {
    let previous = PhysicsVersion::new(PHYSICS_VERSION_CURRENT.get() - 1);
    [PhysicsVersion::V1, previous, PHYSICS_VERSION_CURRENT]
        .into_iter()
        .map(|v| {
            let config = CcdConfig::version(v).expect("a released version");
            let name = format!("physics-version {v} ({})", label(config).trim());
            (name, config)
        })
        .collect()
}

/// `failed per rate: 30 Hz f/n, ...`.
fn per_rate(verdicts: &[Verdict], rates: &[u32]) -> String {
    let cells = rates.iter().map(|hz| {
        let at: Vec<_> = verdicts.iter().filter(|v| v.tick_hz == *hz).collect();
        let failed = at.iter().filter(|v| v.failure.is_some()).count();
        format!("{hz} Hz {failed}/{}", at.len())
    });
    format!("failed per rate: {}", cells.collect::<Vec<_>>().join(", "))
}
