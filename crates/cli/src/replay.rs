//! `rapier-pinned replay verify|inspect`: recorded matches (`serve --record`, `join --record`;
//! the format: docs/protocol.md §7) re-stepped against their digests, or described.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::path::{Path, PathBuf};

use rapier_pinned::{Departure, PhysicsVersion, PinnedWorld, Replay, NET_INPUTS};
use rapier_pinned_golden::replay::{verify, ReplayOptions};
use rapier_pinned_net::inputs::apply;
use rapier_pinned_net::wire::decode_inputs;

use crate::args::key;
use crate::failure::Failure;
use crate::snapshot::read_level;

/// `replay`'s subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Re-step each replay file from its start (or a keyframe) with its recorded inputs and
    /// compare every tick's state digest; exit 1 at the first tick that differs, naming the
    /// tick, the body and quantity (at the first keyframe from that tick) and both values, with
    /// a picture of that body's trajectory. With --under V, re-step under physics-version V
    /// instead and print where and how far the match departs (exit 0).
    Verify(VerifyArgs),
    /// Print a replay file's header, ticks, players, keyframes, events and size by part.
    Inspect(InspectArgs),
}

/// The options of `replay verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Replay files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Start from the last keyframe at or before tick T.
    #[arg(long, value_name = "T")]
    from: Option<u64>,
    /// Re-step under this physics-version and measure the departure.
    #[arg(long, value_name = "V")]
    under: Option<PhysicsVersion>,
    /// The level the matches are on (the file `serve --level` wrote).
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// The fleet key the replays' MACs are checked with.
    #[arg(long, value_name = "F")]
    key_file: Option<PathBuf>,
    /// Where divergence pictures are written (`NAME.divergence.svg` per replay; default: beside
    /// each replay file).
    #[arg(long, value_name = "DIR")]
    pictures: Option<PathBuf>,
}

/// The options of `replay inspect`.
#[derive(clap::Args)]
pub struct InspectArgs {
    /// Replay file.
    file: PathBuf,
    /// The fleet key the replay's MACs are checked with.
    #[arg(long, value_name = "F")]
    key_file: Option<PathBuf>,
}

/// Runs a `replay` subcommand.
pub fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Verify(args) => run_verify(args),
        Command::Inspect(args) => inspect(args),
    }
}

/// Reads and decodes a replay file: unreadable is usage, refused is refused.
fn read(path: &Path, key: Option<&rapier_pinned::SnapshotKey>) -> Result<Replay, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
    Replay::read(&bytes, key).map_err(|e| Failure::Refused(format!("{}: {e}", path.display())))
}

/// The reference server's inputs applied to the world: [`NET_INPUTS`] decoded.
fn apply_net_inputs(bytes: &[u8], world: &mut PinnedWorld) -> Result<(), String> {
    let inputs = decode_inputs(bytes).map_err(|e| e.to_string())?;
    apply(world, &inputs);
    Ok(())
}

/// `replay verify`.
fn run_verify(args: VerifyArgs) -> Result<(), Failure> {
    let key = key(args.key_file.as_deref()).map_err(Failure::Usage)?;
    let level = args.level.as_deref().map(read_level).transpose()?;
    let mut diverged = Vec::new();
    for path in &args.files {
        let replay = read(path, key.as_ref())?;
        let show = path.display();
        if replay.header.input_format != NET_INPUTS {
            return Err(Failure::Usage(format!(
                "{show}: inputs in `{}`, a game's own encoding: verify it from the game's tests \
                 (rapier_pinned_golden::replay::verify with its decoder)",
                replay.header.input_format
            )));
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let picture = match &args.pictures {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| Failure::Usage(format!("{}: {e}", dir.display())))?;
                dir.join(format!("{name}.divergence.svg"))
            }
            None => path.with_file_name(format!("{name}.divergence.svg")),
        };
        let options = ReplayOptions {
            level: level.as_ref(),
            key: key.as_ref(),
            from: args.from,
            picture: Some(&picture),
        };
        let failed =
            |e: rapier_pinned_golden::GoldenError| Failure::Refused(format!("{show}: {e}"));
        let tear = match replay.tear {
            Some(t) => format!(
                "; the file is torn: {} bytes of an incomplete chunk at byte {} (not read)",
                t.len, t.offset
            ),
            None => String::new(),
        };
        if let Some(under) = args.under {
            let d = replay
                .depart(under, options.level, options.key, &mut apply_net_inputs)
                .map_err(|e| Failure::Refused(format!("{show}: {e}")))?;
            print_departure(&show, &replay, &d, &tear);
            continue;
        }
        let report = verify(&replay, &options, &mut apply_net_inputs).map_err(failed)?;
        let version = replay.header.physics_version;
        if report.divergence().is_none() {
            println!("{show}: {report}, physics-version {version}{tear}");
        } else {
            eprintln!("{show}: {report}");
            diverged.push(show.to_string());
        }
    }
    if diverged.is_empty() {
        Ok(())
    } else {
        Err(Failure::Failed(format!(
            "{} of {} replays diverge: {}",
            diverged.len(),
            args.files.len(),
            diverged.join(", ")
        )))
    }
}

/// `replay verify --under`'s lines: where the match departs, then each keyframe's bodies that
/// differ and the furthest.
fn print_departure(show: &dyn Display, replay: &Replay, d: &Departure, tear: &str) {
    let (under, recorded) = (d.under, replay.header.physics_version);
    match d.first {
        None => println!(
            "{show}: under physics-version {under}, ticks {}..{} step as recorded under \
             {recorded}{tear}",
            replay.start_tick + 1,
            d.to
        ),
        Some(t) => {
            println!(
                "{show}: under physics-version {under}, departs from {recorded} at tick {t}{tear}"
            )
        }
    }
    for k in &d.keyframes {
        let furthest = match k.furthest {
            Some(((index, generation), far)) => {
                format!(", furthest body {index}v{generation} {far:.6} m")
            }
            None => String::new(),
        };
        println!(
            "  keyframe tick {:>6}: {:>4} bodies differ{furthest}",
            k.tick, k.bodies
        );
    }
}

/// `replay inspect`.
fn inspect(args: InspectArgs) -> Result<(), Failure> {
    let key = key(args.key_file.as_deref()).map_err(Failure::Usage)?;
    let replay = read(&args.file, key.as_ref())?;
    let h = &replay.header;
    println!("replay            {}", args.file.display());
    println!("physics-version   {}", h.physics_version);
    println!("match id          {}", h.match_id);
    println!("settings          {}", h.settings);
    match h.level {
        Some(level) => println!("level             {level}"),
        None => println!("level             none"),
    }
    println!("config digest     {}", crate::show::hex(&h.config_digest));
    println!("input format      {}", h.input_format);
    println!(
        "authenticated     {}",
        if h.authenticated {
            "yes (MAC per chunk)"
        } else {
            "no"
        }
    );
    let ticks = replay.ticks.len() as u64;
    let seconds = ticks as f64 / f64::from(h.settings.tick_hz.max(1));
    println!(
        "ticks             {}..{} ({ticks} ticks, {seconds:.1} s)",
        replay.start_tick + 1,
        replay.last_tick()
    );
    let keyframes: Vec<String> = replay.keyframes.iter().map(|k| k.0.to_string()).collect();
    println!(
        "keyframes         {} (every {} ticks){}",
        keyframes.len(),
        h.keyframe_every,
        match (keyframes.first(), keyframes.last()) {
            (Some(a), Some(b)) => format!(": ticks {a}..{b}"),
            _ => String::new(),
        }
    );
    if h.input_format == NET_INPUTS {
        let mut players: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        for t in &replay.ticks {
            for input in decode_inputs(&t.inputs).unwrap_or_default() {
                *players.entry(input.body).or_default() += 1;
            }
        }
        let list: Vec<String> = players
            .iter()
            .map(|((i, g), n)| format!("body {i}v{g} ({n} inputs)"))
            .collect();
        println!(
            "players           {}",
            if list.is_empty() {
                "none".into()
            } else {
                list.join(", ")
            }
        );
    }
    println!("events            {}", replay.events.len());
    for e in &replay.events {
        println!("  tick {:>6}  {:?}: {}", e.tick, e.kind, e.text);
    }
    let s = replay.sizes;
    println!(
        "size              {} bytes: header {}, start {}, tick records {}, keyframes {}, events {}, torn tail {}",
        s.header + s.start + s.ticks + s.keyframes + s.events + s.tear,
        s.header,
        s.start,
        s.ticks,
        s.keyframes,
        s.events,
        s.tear
    );
    if let Some(t) = replay.tear {
        println!(
            "torn              {} bytes of an incomplete chunk at byte {} (a recording cut short)",
            t.len, t.offset
        );
    }
    Ok(())
}
