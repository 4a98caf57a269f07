//! `rapier-pinned`: the project's command-line tool.

mod bench;
mod check;
mod conformance;
mod golden;
mod net;
mod snapshot;
mod versions;
mod ws;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use rapier3d::prelude::*;
use rapier_pinned::{SnapshotKey, WorldConfig};
use rapier_pinned_digest::state_digest;
use rapier_pinned_scenes::{catalog, digest_lines, find, thin_sets, Scene};

#[derive(Parser)]
#[command(
    name = "rapier-pinned",
    version,
    about = "A patched Rapier 3D for multiplayer games",
    after_help = "Exit status: 0 ok; 1 a snapshot (or an upstream world to import) was refused \
                  (the typed reason is on stderr), or a golden / conformance check found a \
                  difference; 2 usage or I/O error, or a command that failed (e.g. a gate not \
                  met, a scene that cannot be adopted)."
)]
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
    /// Check the engine's moving-pair sweep against the sphere-sweep vectors of conformance/sweeps and
    /// print the figures.
    Sweeps {
        /// Regenerate conformance/sweeps/random.csv from the documented generator and oracle.
        #[arg(long)]
        write: bool,
    },
    /// Run the thin-part perturbation suite under persistent-contact policies 0, 1 and
    /// 2, each with `ccd_relative_motion` off and on: strict pass-throughs (by the frames,
    /// cleared by the between-frames refinement, gated), max end-of-frame penetration and
    /// truncation per set; then the current physics-version's gated steps, each replayed.
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
        /// Only these configurations, each `POLICY:on` or `POLICY:off` (relative motion), e.g.
        /// `3:on` (default: policies 0, 1 and 2, each off and on).
        #[arg(long = "config", value_name = "POLICY:RM")]
        configs: Vec<String>,
        /// Run at N steps per second (`dt = 1 / N`, the same simulated time per case), one
        /// table per rate, each headed by its rate, its run time on stderr (default: 60, one
        /// table without a heading).
        #[arg(long = "tick-hz", value_name = "N")]
        tick_hz: Vec<u32>,
    },
    /// Write every step's state digest (`scene step digest`) of the catalog scenes and of every
    /// run of the thin-part sets, at upstream default settings (or `--config`).
    Digests {
        /// Only these scenes or thin-part sets (default: all).
        #[arg(long = "scene", value_name = "NAME")]
        scenes: Vec<String>,
        /// Upstream's defaults with these CCD settings instead, `POLICY:on` or `POLICY:off`
        /// (relative motion), e.g. `3:on`.
        #[arg(long = "config", value_name = "POLICY:RM")]
        config: Option<String>,
    },
    /// Print the physics-version table (the current version marked) and, for each consecutive
    /// pair, every pinned field that differs with both values.
    Versions {
        /// Instead, print every pinned field of physics-version V (floats bit-exact).
        #[arg(long, value_name = "V")]
        fields: Option<u32>,
    },
    /// Save, inspect, verify and import pinned snapshots (docs/protocol.md).
    Snapshot {
        #[command(subcommand)]
        command: SnapshotCommand,
    },
    /// Golden trajectories (golden/<physics-version>/<scene>.snap): check or bless.
    Golden {
        #[command(subcommand)]
        command: GoldenCommand,
    },
    /// Run every vector suite under conformance/ (sweeps, snapshot vectors of every released
    /// physics-version, pristine-upstream snapshots): one line per suite, then `N passed, M failed`.
    Conformance,
    /// Run a reference authoritative server (docs/multiplayer.md): seat each client as a player,
    /// take its inputs, step a pinned world at a fixed tick with every player's confirmed inputs,
    /// stream them to every client, check the clients' digests. Prints `listening on ADDR` first
    /// (with `--ws`, then `websocket on ws://ADDR`), then one line per join, refusal,
    /// divergence, migration and the end.
    Serve(net::Serve),
    /// Join a match as a client: announce the physics-version, restore the server's snapshot,
    /// step in lockstep and report digests; exit 1 with the reason if refused or diverged.
    Join {
        /// The server's address.
        addr: String,
        #[command(flatten)]
        game: MatchArgs,
        /// Play the seat the server gives: send its scripted inputs ahead (without it, the client
        /// sends no inputs and its player gets none).
        #[arg(long)]
        bot: bool,
        /// A check aid: nudge a body after tick T on purpose, so the server reports the
        /// divergence at the next digest exchange.
        #[arg(long, value_name = "T")]
        desync_at: Option<u64>,
    },
    /// Time the benchmark cases on the fork (defaults, the current physics-version, each CCD
    /// setting alone) and on pristine upstream, alternating, and print the table: ms/step
    /// medians, ratios against upstream, the aims, truncation (docs/benchmarks.md; scripts/bench
    /// builds both sides and runs this).
    Bench(bench::Bench),
    /// One sample of `bench`'s fork side: time a benchmark case, print ms/step per run.
    #[command(hide = true)]
    BenchCase(bench::BenchCaseArgs),
    /// The main check: golden trajectories and conformance vectors of the current
    /// physics-version (--all: of every released one), a summary table; exit 1 on any failure.
    Check {
        /// Every released physics-version, not only the current one.
        #[arg(long)]
        all: bool,
        /// Where divergence pictures are written.
        #[arg(long, value_name = "DIR")]
        pictures: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum GoldenCommand {
    /// Step every golden scene and compare it with its file; exit 1 on any difference, naming
    /// the first diverging step, body and quantity with both values, and drawing that body's
    /// trajectory (golden against now) as an SVG.
    Check {
        #[command(flatten)]
        select: GoldenSelect,
        /// Where divergence pictures are written (default: target/golden-divergence/).
        #[arg(long, value_name = "DIR")]
        pictures: Option<PathBuf>,
    },
    /// Rewrite golden files on purpose (a released physics-version never changes: see
    /// docs/testing.md before blessing one).
    Bless {
        #[command(flatten)]
        select: GoldenSelect,
    },
}

#[derive(clap::Args)]
struct GoldenSelect {
    /// Physics-version (repeatable; default: the current one).
    #[arg(long = "physics-version", value_name = "V")]
    versions: Vec<u32>,
    /// Every released physics-version.
    #[arg(long, conflicts_with = "versions")]
    all: bool,
    /// Only these catalog scenes or thin-part sets (repeatable; default: all).
    #[arg(long = "scene", value_name = "NAME")]
    scenes: Vec<String>,
    /// The golden directory (default: the repository's golden/).
    #[arg(long, value_name = "DIR")]
    golden_dir: Option<PathBuf>,
}

impl GoldenSelect {
    fn versions(&self) -> Vec<u32> {
        versions(self.all, &self.versions)
    }

    fn dir(&self) -> PathBuf {
        self.golden_dir
            .clone()
            .unwrap_or_else(rapier_pinned_golden::golden_dir)
    }
}

/// Every released physics-version with `all`, else `chosen`, else the current one.
fn versions(all: bool, chosen: &[u32]) -> Vec<u32> {
    if all {
        rapier_pinned::version::table()
            .iter()
            .map(|e| e.number)
            .collect()
    } else if chosen.is_empty() {
        vec![rapier_pinned::PHYSICS_VERSION_CURRENT]
    } else {
        chosen.to_vec()
    }
}

pub(crate) const KEY_FILE_HELP: &str =
    "The 32-byte fleet key of the snapshot MAC, in a file holding exactly 32 raw bytes, or 64 \
     hex digits optionally followed by one newline (e.g. `openssl rand -hex 32 > key`); anything \
     else is an error";

#[derive(Subcommand)]
enum SnapshotCommand {
    /// Build a catalog scene under a physics-version's pinned parameters and the game's settings,
    /// step it and write its snapshot (authenticated with --key-file).
    ///
    /// The scene is adopted into a pinned world, which refuses a world whose parameters or
    /// gravity differ from the config's: the catalog's zero-gravity scenes (bullets_crossing,
    /// bullet_swarm, blade_into_plate, box_into_rotor) need `--gravity 0,0,0`; under the default
    /// gravity [-0.0, -9.81, -0.0] they are refused with the typed error (ConfigMismatch naming
    /// gravity.x/y/z), exit status 2.
    Save {
        /// Catalog scene (`rapier-pinned scenes --list`).
        #[arg(long, value_name = "NAME")]
        scene: String,
        /// Steps to take before the snapshot (its tick).
        #[arg(long, value_name = "N")]
        steps: u64,
        #[command(flatten)]
        game: MatchArgs,
        /// Output file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Write snapshot format 2 with an LZ4-compressed payload (docs/protocol.md §3.1).
        #[arg(long)]
        compressed: bool,
    },
    /// Print a snapshot's header and the settings it records; then restore it under its
    /// physics-version, those settings and --match-id and print the config summary,
    /// body/collider/joint counts and payload size per body.
    ///
    /// A snapshot that is a valid world of another match is shown too (exit status 0, the
    /// counts printed as decoded ignoring the match id). Exit status 1 if the header is refused
    /// or the snapshot does not restore for any match (the reason names the typed error).
    Inspect {
        /// Snapshot file.
        file: PathBuf,
        /// Match id to restore it for (the config digest covers it and cannot be read back).
        #[arg(long, value_name = "M", default_value_t = 0)]
        match_id: u64,
        /// Also check the MAC with this key: 32 raw bytes or 64 hex digits (+ optional newline).
        #[arg(long, value_name = "F")]
        key_file: Option<PathBuf>,
    },
    /// Restore a snapshot with every check of docs/protocol.md; print `ok: ...` and exit 0, or the
    /// typed reason (message and kind) on stderr and exit 1.
    ///
    /// Without --key-file an authenticated snapshot is accepted once its checksum verifies (its
    /// MAC is not checked: the wrapper's decision); with one, the MAC must be present and match.
    Verify {
        #[command(flatten)]
        restore: RestoreArgs,
    },
    /// Restore a snapshot with every check (like verify), step it and print `tick digest` after
    /// each step (the per-step state digest of crates/scenes).
    Continue {
        #[command(flatten)]
        restore: RestoreArgs,
        /// Steps to take after the restore.
        #[arg(long, value_name = "N")]
        steps: u64,
    },
    /// Convert a plain `bincode::serialize(&PhysicsWorld)` of upstream rapier3d 0.36.1 into a
    /// physics-version 1 snapshot at tick 0 (rapier_pinned::import_upstream).
    ///
    /// The world must have upstream's default parameters and gravity (physics-version 1 is
    /// upstream's behaviour); anything else is refused with the typed error, exit status 1.
    ImportUpstream {
        /// Upstream world (bincode).
        input: PathBuf,
        /// Snapshot to write.
        output: PathBuf,
        /// Match id of the snapshot.
        #[arg(long, value_name = "M", default_value_t = 0)]
        match_id: u64,
        /// Authenticate the snapshot with this key: 32 raw bytes or 64 hex digits (+ optional
        /// newline).
        #[arg(long, value_name = "F")]
        key_file: Option<PathBuf>,
    },
}

/// The match a pinned world belongs to, and its fleet key (`serve`, `join`, `snapshot save`).
#[derive(clap::Args)]
pub struct MatchArgs {
    /// Physics-version (default: the current one; `rapier-pinned versions`).
    #[arg(long, value_name = "V", default_value_t = rapier_pinned::PHYSICS_VERSION_CURRENT)]
    pub physics_version: u32,
    /// Match id, part of the config digest.
    #[arg(long, value_name = "M", default_value_t = 0)]
    pub match_id: u64,
    #[command(flatten)]
    pub settings: snapshot::SettingsArgs,
    #[arg(long, value_name = "F", help = KEY_FILE_HELP)]
    pub key_file: Option<PathBuf>,
}

impl MatchArgs {
    /// The world config of this physics-version, match and settings.
    pub fn config(&self) -> Result<WorldConfig, String> {
        snapshot::config(self.physics_version, self.match_id, &self.settings)
    }

    /// The fleet key, if a key file was given.
    pub fn key(&self) -> Result<Option<SnapshotKey>, String> {
        snapshot::key(self.key_file.as_deref())
    }
}

/// A snapshot file to restore and what it must match (`snapshot verify`, `snapshot continue`).
#[derive(clap::Args)]
pub struct RestoreArgs {
    /// Snapshot file.
    pub file: PathBuf,
    /// Physics-version the snapshot must be (default: the one in its header).
    #[arg(long, value_name = "V")]
    pub physics_version: Option<u32>,
    /// Match id the snapshot must be for.
    #[arg(long, value_name = "M", default_value_t = 0)]
    pub match_id: u64,
    /// The settings the snapshot must be of (default: the physics-version's).
    #[command(flatten)]
    pub settings: snapshot::SettingsArgs,
    #[arg(long, value_name = "F", help = KEY_FILE_HELP)]
    pub key_file: Option<PathBuf>,
}

/// Why a command failed; decides the exit status.
pub enum Failure {
    /// Usage or I/O error, or a command that could not do its job: exit 2.
    Usage(String),
    /// A snapshot (or upstream world) refused by the wrapper: exit 1.
    Refused(String),
    /// A check that ran and found a difference (golden, conformance): exit 1.
    Failed(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Usage(message)
    }
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn selected(names: &[String]) -> Result<Vec<&'static Scene>, String> {
    if names.is_empty() {
        return Ok(catalog().iter().collect());
    }
    names
        .iter()
        .map(|n| {
            find(n)
                .ok_or_else(|| format!("unknown scene '{n}' (see `rapier-pinned scenes --list`)"))
        })
        .collect()
}

fn run_table(scenes: &[&Scene]) {
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

/// Catalog scenes and thin-part sets named in `names` (all of both when empty), in catalog order.
/// A `--config` value, `POLICY:on` or `POLICY:off` (relative motion).
fn parse_config(text: &str) -> Result<rapier_pinned::CcdConfig, String> {
    let (policy, rm) = text
        .split_once(':')
        .ok_or_else(|| format!("config '{text}': expected POLICY:on or POLICY:off"))?;
    rapier_pinned_ccd_eval::configs::parse(policy, rm)
}

fn digests(names: &[String], config: Option<&str>) -> Result<(), String> {
    let sets: Vec<_> = thin_sets()
        .iter()
        .filter(|t| names.is_empty() || names.iter().any(|n| n == t.name))
        .collect();
    let scene_names: Vec<String> = names
        .iter()
        .filter(|n| !sets.iter().any(|t| t.name == n.as_str()))
        .cloned()
        .collect();
    let scenes = if names.is_empty() || !scene_names.is_empty() {
        selected(&scene_names)?
    } else {
        Vec::new()
    };
    let params = match config {
        Some(text) => parse_config(text)?.params(),
        None => IntegrationParameters::default(),
    };
    let mut out = std::io::stdout().lock();
    let texts = scenes
        .iter()
        .map(|s| digest_lines(s, params))
        .chain(sets.iter().map(|t| t.digest_lines(params)));
    for text in texts {
        match out.write_all(text.as_bytes()) {
            Ok(()) => {}
            // A closed pipe (e.g. `| head`) ends the output; any other write error is an error.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(format!("writing the digests: {e}")),
        }
    }
    Ok(())
}

fn perturbation(
    names: &[String],
    truncation: bool,
    configs: &[String],
    tick_hz: &[u32],
) -> Result<(), String> {
    use rapier_pinned_ccd_eval::configs::all_six;
    use rapier_pinned_ccd_eval::perturbation::{table, table_at};
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
        .map(|c| parse_config(c))
        .collect::<Result<Vec<_>, _>>()?;
    let configs = if configs.is_empty() {
        all_six().to_vec()
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

fn golden_command(command: GoldenCommand) -> Result<(), Failure> {
    match command {
        GoldenCommand::Check { select, pictures } => {
            let scenes = golden::scenes(&select.scenes)?;
            let pictures = pictures.unwrap_or_else(golden::default_pictures);
            let (mut files, mut failed) = (0, 0);
            for v in select.versions() {
                let tally = golden::check(&select.dir(), v, &scenes, &pictures)?;
                println!(
                    "golden physics-version {v}: {} files, {} identical, {} differ",
                    tally.files,
                    tally.files - tally.failures.len(),
                    tally.failures.len()
                );
                files += tally.files;
                failed += tally.failures.len();
            }
            if failed > 0 {
                return Err(Failure::Failed(format!(
                    "{failed} of {files} golden files differ (reports above)"
                )));
            }
            Ok(())
        }
        GoldenCommand::Bless { select } => {
            let scenes = golden::scenes(&select.scenes)?;
            for v in select.versions() {
                golden::bless(&select.dir(), v, &scenes)?;
            }
            Ok(())
        }
    }
}

fn conformance_command() -> Result<(), Failure> {
    let all = versions(true, &[]);
    let (mut passed, mut failed) = (0, 0);
    for suite in conformance::suites(&all)? {
        for failure in &suite.failures {
            eprintln!("  {failure}");
        }
        println!(
            "{:<28} {:>6} passed, {} failed",
            suite.name,
            suite.cases - suite.failed,
            suite.failed
        );
        passed += suite.cases - suite.failed;
        failed += suite.failed;
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        return Err(Failure::Failed(format!(
            "{failed} conformance cases failed"
        )));
    }
    Ok(())
}

fn snapshot_command(command: SnapshotCommand) -> Result<(), Failure> {
    match command {
        SnapshotCommand::Save {
            scene,
            steps,
            game,
            out,
            compressed,
        } => snapshot::save(&scene, steps, &game, &out, compressed),
        SnapshotCommand::Inspect {
            file,
            match_id,
            key_file,
        } => snapshot::inspect_file(&file, match_id, key_file.as_deref()),
        SnapshotCommand::Verify { restore } => snapshot::verify(&restore),
        SnapshotCommand::Continue { restore, steps } => snapshot::continue_file(&restore, steps),
        SnapshotCommand::ImportUpstream {
            input,
            output,
            match_id,
            key_file,
        } => snapshot::import(&input, &output, match_id, key_file.as_deref()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), String> = match cli.command {
        Command::Scenes { list: true, .. } => {
            catalog().iter().for_each(|s| println!("{}", s.name));
            Ok(())
        }
        Command::Scenes { scenes, .. } => selected(&scenes).map(|s| run_table(&s)),
        Command::Sweeps { write: true } => {
            use rapier_pinned_conformance::{conformance_dir, generator, vectors};
            let path = conformance_dir().join("sweeps/random.csv");
            let csv =
                vectors::random_csv(&generator::random_cases(generator::SEED, generator::CASES));
            std::fs::write(&path, csv).map_err(|e| format!("{}: {e}", path.display()))
        }
        Command::Sweeps { write: false } => sweeps(),
        Command::Digests { scenes, config } => digests(&scenes, config.as_deref()),
        Command::Perturbation { list: true, .. } => {
            thin_sets()
                .iter()
                .for_each(|t| println!("{:<22} {}", t.name, t.about));
            Ok(())
        }
        Command::Perturbation {
            sets,
            no_truncation,
            configs,
            tick_hz,
            ..
        } => perturbation(&sets, !no_truncation, &configs, &tick_hz),
        Command::Versions { fields: None } => {
            print!("{}", versions::table());
            Ok(())
        }
        Command::Versions { fields: Some(v) } => versions::fields(v).map(|text| print!("{text}")),
        Command::Snapshot { command } => return exit(snapshot_command(command)),
        Command::Golden { command } => return exit(golden_command(command)),
        Command::Conformance => return exit(conformance_command()),
        Command::Serve(serve) => return exit(net::serve(serve)),
        Command::Join {
            addr,
            game,
            bot,
            desync_at,
        } => return exit(net::join(&addr, &game, bot, desync_at)),
        Command::Bench(args) => bench::run(&args),
        Command::BenchCase(args) => bench::bench_case(&args),
        Command::Check { all, pictures } => {
            let pictures = pictures.unwrap_or_else(golden::default_pictures);
            return exit(check::run(&versions(all, &[]), &pictures).map_err(Failure::Failed));
        }
    };
    exit(result.map_err(Failure::from))
}

fn exit(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Refused(message)) => {
            eprintln!("refused: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Failed(message)) => {
            eprintln!("failed: {message}");
            ExitCode::from(1)
        }
    }
}
