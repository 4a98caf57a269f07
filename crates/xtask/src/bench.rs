//! `rapier-pinned-xtask bench`: the fork side by side with pristine upstream (`scripts/bench`
//! builds both sides and runs this; docs/benchmarks.md).
//!
//! Every sample is a fresh process of one side timing one case (`bench-case`): the upstream side
//! is conformance/parity's binary (pristine crates.io rapier3d 0.36.1, the same scene code), the
//! fork side is this binary. Rounds alternate which side goes first, so drift of a noisy machine
//! hits both. Truncation is measured on the fork only: at default settings it steps bit for bit
//! like upstream (scripts/parity), so its defaults row is upstream's truncation.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::ValueEnum;
use rapier3d::prelude::*;
use rapier_pinned::{entry, CcdConfig, PhysicsVersion, PHYSICS_VERSION_CURRENT};
use rapier_pinned_ccd_eval::truncation::Truncation;
use rapier_pinned_scenes::{bench_cases, find_case, BenchCase, SPIN_CASES};

use crate::failure::Failure;

/// The fork's configurations: defaults, the current physics-version and the one before it, and
/// each CCD setting of the current version alone.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum Config {
    /// `IntegrationParameters::default()`: upstream's behaviour.
    Defaults,
    /// The current physics-version's pinned parameters.
    Current,
    /// The physics-version before the current one: what a new version must cost no more than
    /// (its release rule, `docs/decisions/physics-version-3.md`).
    Previous,
    /// The current physics-version's `ccd_relative_motion` alone.
    RelativeMotion,
    /// The current physics-version's `ccd_persistent_contact_policy` alone.
    Policy,
}

impl Config {
    /// The configurations whose instructions `--callgrind` counts: the control, the version
    /// before the current one and the current one.
    const COUNTED: [Config; 3] = [Config::Defaults, Config::Previous, Config::Current];

    const ALL: [Config; 5] = [
        Config::Defaults,
        Config::Previous,
        Config::Current,
        Config::RelativeMotion,
        Config::Policy,
    ];

    /// The physics-version before the current one.
    fn previous() -> PhysicsVersion {
        PhysicsVersion::new(PHYSICS_VERSION_CURRENT.get() - 1)
    }

    /// The integration parameters the fork runs this configuration with.
    fn params(self) -> IntegrationParameters {
        let pinned = |v| entry(v).expect("a released version").params();
        match self {
            Config::Defaults => IntegrationParameters::default(),
            Config::Current => pinned(PHYSICS_VERSION_CURRENT),
            Config::Previous => pinned(Config::previous()),
            Config::RelativeMotion => {
                let current = CcdConfig::of(&pinned(PHYSICS_VERSION_CURRENT));
                CcdConfig::new(current.relative_motion, CcdConfig::UPSTREAM.policy).params()
            }
            Config::Policy => {
                let current = CcdConfig::of(&pinned(PHYSICS_VERSION_CURRENT));
                CcdConfig::new(CcdConfig::UPSTREAM.relative_motion, current.policy).params()
            }
        }
    }

    /// The configuration column of the table.
    fn label(self) -> String {
        match self {
            Config::Defaults => "defaults".into(),
            Config::Current => format!("v{PHYSICS_VERSION_CURRENT} (current)"),
            Config::Previous => format!("v{}", Config::previous()),
            Config::RelativeMotion => "relative motion".into(),
            Config::Policy => {
                let policy = CcdConfig::of(&Config::Current.params()).policy as u8;
                format!("policy {policy}")
            }
        }
    }

    /// The `--config` value `bench-case` takes for it.
    fn arg(self) -> String {
        self.to_possible_value()
            .expect("no skipped value")
            .get_name()
            .into()
    }
}

/// `bench`'s options.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// The upstream side: conformance/parity's binary, `rapier-pinned-parity` (scripts/bench
    /// builds it).
    #[arg(long, value_name = "BIN")]
    upstream: PathBuf,
    /// Rounds: each runs every case once on each side, the side going first alternating.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// A sample repeats its case's run until it took this many milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 150)]
    min_ms: u64,
    /// Only these cases (repeatable; default: all).
    #[arg(long = "case", value_name = "NAME")]
    cases: Vec<String>,
    /// Seconds instead of minutes, so the command cannot rot (CI): one round, runs cut to 3
    /// steps, thin-part sets to 3 runs, one instruction count.
    #[arg(long)]
    quick: bool,
    /// Also count instructions (valgrind --tool=callgrind) of the stepping: of the arena and
    /// vehicles scenes, or of the `--case` cases when some are named.
    #[arg(long)]
    callgrind: bool,
    /// Only the spin table (valgrind): the worst step's instructions of each spin case
    /// (`spin_1e3` to `spin_1e7`) on upstream, the version before the current one and the current
    /// one, and the gate: the current version's worst step at 10⁷ rad/s at most
    /// twice its worst at 10³. With `--quick`, the current version only. Exits
    /// non-zero if the current version fails the gate.
    #[arg(long)]
    spin: bool,
}

/// `bench-case`: one sample of the fork side.
#[derive(clap::Args)]
pub struct BenchCaseArgs {
    #[arg(long, value_name = "NAME")]
    case: String,
    #[arg(long, value_enum, default_value = "defaults")]
    config: Config,
    #[arg(long, value_name = "MS", default_value_t = 0)]
    min_ms: u64,
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

/// `bench-case`: prints one line of milliseconds per step per run (the parity binary's
/// `bench-case` too); an unknown case is a usage error.
pub fn bench_case(args: BenchCaseArgs) -> Result<(), Failure> {
    let case = find_case(&args.case)
        .ok_or_else(|| Failure::Usage(format!("unknown case '{}'", args.case)))?;
    for ms in case.times(args.config.params(), args.limit, args.min_ms as f64) {
        println!("{ms}");
    }
    Ok(())
}

/// One side of a comparison: a binary and the `bench-case` arguments choosing its configuration.
struct Side {
    bin: PathBuf,
    config: Vec<String>,
}

impl Side {
    /// Pristine upstream: the parity binary at its (only) default settings.
    fn upstream(bin: &Path) -> Side {
        Side {
            bin: bin.to_path_buf(),
            config: vec![],
        }
    }

    /// The fork under `config`: this very binary.
    fn fork(config: Config) -> Result<Side, String> {
        let bin = std::env::current_exe().map_err(|e| format!("own path: {e}"))?;
        Ok(Side {
            bin,
            config: vec!["--config".into(), config.arg()],
        })
    }

    /// `bench-case` for `case` on this side (the caller adds `--min-ms`, or runs it in valgrind).
    fn command(&self, case: &str, limit: Option<usize>) -> Command {
        let mut command = Command::new(&self.bin);
        command
            .args(["bench-case", "--case", case])
            .args(&self.config);
        if let Some(limit) = limit {
            command.args(["--limit", &limit.to_string()]);
        }
        command
    }

    /// One sample: a fresh process timing `case`; its runs' milliseconds per step.
    fn sample(&self, case: &str, min_ms: u64, limit: Option<usize>) -> Result<Vec<f64>, String> {
        let out = self
            .command(case, limit)
            .args(["--min-ms", &min_ms.to_string()])
            .output()
            .map_err(|e| format!("{}: {e}", self.bin.display()))?;
        if !out.status.success() {
            return Err(format!(
                "{} bench-case --case {case} {}: {}\n{}",
                self.bin.display(),
                self.config.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let times: Vec<f64> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{}: bad output: {e}", self.bin.display()))?;
        match times.iter().find(|t| !t.is_finite() || **t <= 0.0) {
            Some(t) => Err(format!("{case}: a sample of {t} ms/step")),
            None if times.is_empty() => Err(format!("{case}: no sample")),
            None => Ok(times),
        }
    }
}

/// The median (the upper one of an even count) of non-empty `xs`.
fn median(xs: &[f64]) -> f64 {
    let mut xs = xs.to_vec();
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Truncation of one run of `case` under `params`, or None when no body of it has CCD enabled
/// (truncation is measured over CCD-active body-steps: there are none).
fn truncation(
    case: &BenchCase,
    params: IntegrationParameters,
    limit: Option<usize>,
) -> Option<f64> {
    let mut worlds = case.worlds(params, limit);
    let has_ccd = |w: &PhysicsWorld| w.bodies.iter().any(|(_, b)| b.is_ccd_enabled());
    if !worlds.iter().any(|(w, _)| has_ccd(w)) {
        return None;
    }
    let mut t = Truncation::default();
    for (world, steps) in &mut worlds {
        for _ in 0..*steps {
            t.measure_step(world);
            world.step();
        }
    }
    Some(t.ratio())
}

/// A truncation as the table prints it: `12.9%`, or `-` when there is none to measure.
fn percent(t: Option<f64>) -> String {
    t.map_or("-".into(), |t| format!("{:.1}%", t * 100.0))
}

/// `bench`: runs the comparison and prints the tables. Every error (an unknown case, a side that
/// does not run, valgrind failing) is a usage error: the command could not do its job.
pub fn run(bench: BenchArgs) -> Result<(), Failure> {
    if bench.spin {
        return spin_table(&Side::upstream(&bench.upstream), bench.quick);
    }
    compare(&bench).map_err(Failure::Usage)
}

/// How many times its worst step at 10³ rad/s the current version's worst step at 10⁷ may cost
/// (issue 62: one spinning body must not stall a step).
const SPIN_RATIO: f64 = 2.0;

/// The spin table: the worst step's instructions of each spin case, upstream / previous /
/// current (quick: current only), the ratio of the highest spin's to the lowest's, and the gate
/// on the current version. Valgrind missing or failing is a usage error; the gate failing is
/// [`Failure::Failed`].
fn spin_table(upstream: &Side, quick: bool) -> Result<(), Failure> {
    let mut sides = vec![(
        "v".to_string() + &PHYSICS_VERSION_CURRENT.to_string(),
        Side::fork(Config::Current),
    )];
    if !quick {
        sides.insert(
            0,
            (
                format!("v{}", Config::previous()),
                Side::fork(Config::Previous),
            ),
        );
        sides.insert(0, ("upstream".into(), Ok(Side::upstream(&upstream.bin))));
    }
    println!("worst step of each spin case, instructions (callgrind, stepping only)");
    print!("{:<10}", "side");
    for (name, _) in SPIN_CASES {
        print!(" {name:>14}");
    }
    println!(" {:>9}", "1e7 / 1e3");
    let mut current_ratio = 0.0;
    for (name, side) in sides {
        let side = side.map_err(Failure::Usage)?;
        let worst = (SPIN_CASES.iter())
            .map(|(case, _)| worst_step(&side, case).map_err(Failure::Usage))
            .collect::<Result<Vec<u64>, _>>()?;
        let ratio = worst[worst.len() - 1] as f64 / worst[0] as f64;
        print!("{name:<10}");
        for w in &worst {
            print!(" {w:>14}");
        }
        println!(" {ratio:>9.2}");
        current_ratio = ratio;
    }
    let holds = current_ratio <= SPIN_RATIO;
    println!(
        "gate: v{PHYSICS_VERSION_CURRENT}'s worst step at 1e7 rad/s at most {SPIN_RATIO}x its worst at 1e3: {current_ratio:.2}x, {}",
        if holds { "holds" } else { "FAILS" }
    );
    match holds {
        true => Ok(()),
        false => Err(Failure::Failed(format!(
            "spin: {current_ratio:.2}x > {SPIN_RATIO}x"
        ))),
    }
}

/// The instructions of the costliest step (`bench_step`) of one run of `case` on `side`.
fn worst_step(side: &Side, case: &str) -> Result<u64, String> {
    match callgrind_dumps(side, case, None, true)?.into_iter().max() {
        Some(worst) if worst > 0 => Ok(worst),
        _ => Err(format!("callgrind counted no step of {case}")),
    }
}

/// The instruction totals inside `bench_step` of one run of `case` on `side`, one per callgrind
/// dump: one for the whole run, or with `each_step` one per step (and the rest of the run's).
fn callgrind_dumps(
    side: &Side,
    case: &str,
    limit: Option<usize>,
    each_step: bool,
) -> Result<Vec<u64>, String> {
    let dir = std::env::temp_dir().join(format!(
        "rapier-pinned-callgrind-{}-{case}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut command = Command::new("valgrind");
    command.args(["--tool=callgrind", "--toggle-collect=*bench_step*"]);
    if each_step {
        command.arg("--dump-after=*bench_step*");
    }
    command
        .arg(format!(
            "--callgrind-out-file={}",
            dir.join("out").display()
        ))
        .arg(&side.bin);
    command.args(side.command(case, limit).get_args());
    let out = command.output().map_err(|e| format!("valgrind: {e}"));
    let totals = (|| {
        let out = out?;
        if !out.status.success() {
            return Err(format!(
                "valgrind on {case}: {}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let mut totals = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            totals.push(
                callgrind_total(&text)
                    .ok_or_else(|| format!("{}: no totals line", path.display()))?,
            );
        }
        Ok(totals)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    totals
}

/// The instruction total of a callgrind output file.
fn callgrind_total(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// Times every case on both sides, round after round, and prints the tables.
fn compare(bench: &BenchArgs) -> Result<(), String> {
    let (rounds, min_ms, limit) = if bench.quick {
        (1, 0, Some(3))
    } else {
        (bench.rounds.max(1), bench.min_ms, None)
    };
    if let Some(unknown) = bench.cases.iter().find(|n| find_case(n).is_none()) {
        return Err(format!("unknown case '{unknown}'"));
    }
    let cases: Vec<BenchCase> = bench_cases()
        .into_iter()
        .filter(|c| bench.cases.is_empty() || bench.cases.iter().any(|n| n == c.name))
        .collect();
    let upstream = Side::upstream(&bench.upstream);
    let forks: Vec<Side> = Config::ALL
        .into_iter()
        .map(Side::fork)
        .collect::<Result<_, _>>()?;

    // samples[case][0] upstream, [1 + i] the fork under Config::ALL[i].
    let mut samples = vec![vec![Vec::new(); 1 + forks.len()]; cases.len()];
    for round in 0..rounds {
        eprintln!("bench: round {} of {rounds}", round + 1);
        for (c, case) in cases.iter().enumerate() {
            let mut order: Vec<usize> = (0..=forks.len()).collect();
            if round % 2 == 1 {
                order.reverse();
            }
            for side in order {
                let runner = if side == 0 {
                    &upstream
                } else {
                    &forks[side - 1]
                };
                samples[c][side].extend(runner.sample(case.name, min_ms, limit)?);
            }
        }
    }

    println!(
        "{rounds} round(s), samples alternating fork / pristine upstream; ms/step = median; \
         ratio = fork / upstream{}",
        if bench.quick {
            "; QUICK: 3 steps per run, numbers not meaningful"
        } else {
            ""
        }
    );
    println!(
        "{:<22} {:<16} {:>11} {:>12} {:>6} {:>5} {:>4} {:>11}",
        "case", "config", "fork ms", "upstream ms", "ratio", "aim", "met", "truncation"
    );
    let (mut met, mut judged) = (0, 0);
    // The control's spread: the fork at defaults runs upstream's code paths, so how far its
    // ratio strays from 1 is this run's noise floor.
    let (mut control_lo, mut control_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (c, case) in cases.iter().enumerate() {
        let up = median(&samples[c][0]);
        for (i, config) in Config::ALL.into_iter().enumerate() {
            let fork = median(&samples[c][1 + i]);
            let ratio = fork / up;
            if config == Config::Defaults {
                control_lo = control_lo.min(ratio);
                control_hi = control_hi.max(ratio);
            }
            let (aim, verdict) = if config == Config::Current {
                judged += 1;
                met += usize::from(ratio <= case.aim);
                let verdict = if ratio <= case.aim { "yes" } else { "no" };
                (format!("{:.2}", case.aim), verdict)
            } else {
                ("".into(), "")
            };
            let trunc = truncation(case, config.params(), limit);
            println!(
                "{:<22} {:<16} {fork:>11.4} {up:>12.4} {ratio:>6.3} {aim:>5} {verdict:>4} {:>11}",
                if i == 0 { case.name } else { "" },
                config.label(),
                percent(trunc)
            );
        }
    }
    println!(
        "aims met by v{PHYSICS_VERSION_CURRENT} (current): {met} of {judged} \
         (truncation of defaults = upstream's: bit-identical, scripts/parity)"
    );
    println!(
        "noise floor: the control (defaults: upstream's code paths) reads {control_lo:.3} to \
         {control_hi:.3} over the cases; only ratios well outside that band are differences"
    );

    if bench.callgrind || bench.quick {
        let named: Vec<&str> = bench.cases.iter().map(String::as_str).collect();
        instruction_counts(&upstream, &named, bench.quick)?;
    }
    Ok(())
}

/// Instruction counts of the stepping only (`--toggle-collect=*bench_step*`) of `named` cases
/// (default: arena and vehicles), upstream and the fork, with their ratio: repeatable where
/// wall-clock time is not. The current version's row also reads against the version before it,
/// judged by the release rule ([`release_rule`]). Quick: arena's first 3 steps, the current
/// physics-version only.
fn instruction_counts(upstream: &Side, named: &[&str], quick: bool) -> Result<(), String> {
    if Command::new("valgrind").arg("--version").output().is_err() {
        println!("WARNING: valgrind not found: instruction counts skipped");
        return Ok(());
    }
    let (cases, configs, limit): (&[&str], &[Config], _) = if quick {
        (&["arena"], &[Config::Current], Some(3))
    } else if named.is_empty() {
        (&["arena", "vehicles"], &Config::COUNTED, None)
    } else {
        (named, &Config::COUNTED, None)
    };
    let span = if quick { "first 3 steps" } else { "whole run" };
    println!("\ninstruction counts (callgrind, stepping only, {span})");
    println!(
        "{:<22} {:<16} {:>16} {:>16} {:>6}  release rule (against v{})",
        "case",
        "config",
        "fork Ir",
        "upstream Ir",
        "ratio",
        Config::previous()
    );
    let mut failed = Vec::new();
    for case in cases {
        let up = callgrind(upstream, case, limit)?;
        let mut previous = None;
        for config in configs {
            let fork = callgrind(&Side::fork(*config)?, case, limit)?;
            let ratio = fork as f64 / up as f64;
            let rule = match (config, previous) {
                (Config::Previous, _) => {
                    previous = Some(fork);
                    String::new()
                }
                (Config::Current, Some(before)) => {
                    let (text, holds) = release_rule(case, ratio, fork, before);
                    if !holds {
                        failed.push(*case);
                    }
                    text
                }
                _ => String::new(),
            };
            println!(
                "{case:<22} {:<16} {fork:>16} {up:>16} {ratio:>6.3}  {rule}",
                config.label(),
            );
        }
    }
    if configs.contains(&Config::Previous) {
        println!(
            "release rule: v{PHYSICS_VERSION_CURRENT} at most {:+.0}% of v{}'s instructions on every \
             case, the piles at most {PILE_RATIO}x upstream; {} of {} cases fail{}",
            100.0 * (RELEASE_RATIO - 1.0),
            Config::previous(),
            failed.len(),
            cases.len(),
            if failed.is_empty() {
                String::new()
            } else {
                format!(": {}", failed.join(", "))
            }
        );
    }
    Ok(())
}

/// The release rule's cost clause (`docs/decisions/physics-version-3.md`): a new version spends at
/// most this times the version before it's instructions on every case.
const RELEASE_RATIO: f64 = 1.05;
/// ... and at most this times upstream's on the piles (pyramid, tower, the mixed piles).
const PILE_RATIO: f64 = 1.02;

/// The release rule's verdict on one case: the current version's `fork` instructions against the
/// previous version's `before`, and on a pile its `ratio` to upstream. The text and whether it
/// holds.
fn release_rule(case: &str, ratio: f64, fork: u64, before: u64) -> (String, bool) {
    let change = fork as f64 / before as f64;
    let pile = ["pyramid", "tower"].contains(&case) || case.starts_with("mixed_");
    let holds = change <= RELEASE_RATIO && (!pile || ratio <= PILE_RATIO);
    let verdict = if holds { "holds" } else { "FAILS" };
    let pile = if pile {
        format!(", {ratio:.3}x upstream (pile)")
    } else {
        String::new()
    };
    (
        format!("{:+.1}%{pile}: {verdict}", 100.0 * (change - 1.0)),
        holds,
    )
}

/// Instructions executed inside `bench_step` by one run of `case` on `side`.
fn callgrind(side: &Side, case: &str, limit: Option<usize>) -> Result<u64, String> {
    let total: u64 = callgrind_dumps(side, case, limit, false)?.into_iter().sum();
    if total == 0 {
        return Err(format!(
            "callgrind counted 0 instructions in bench_step on {case}"
        ));
    }
    Ok(total)
}
