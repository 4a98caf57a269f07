//! `rapier-pinned`: the project's command-line tool.
//!
//! One module per command, each owning its clap arguments and its `run` (cargo's split): this
//! file holds only the top-level parser, the command enum wrapping each module's arguments (or,
//! for `snapshot` and `golden`, its subcommand enum) and the dispatch; `failure` turns the
//! result into the exit status. Commands: `scenes`, `sweeps`, `perturbation`, `ccd-matrix`,
//! `digests`, `versions`, `snapshot`, `golden`, `conformance`, `check`, `replay`, and `net`'s two
//! (`serve`, `join`).
//! Shared leaves, importing no command module: `args` (options and selections several commands
//! take), `failure` (why a command failed, the exit status), `show` (hex, typed wrapper errors).
//! `serve --ws`'s WebSocket transport is the reference server's, `rapier_pinned_net::ws`.
//!
//! Only what a game team runs is here: the commands only the project's scripts run (the
//! determinism matrix's `matrix-compare`, the benchmark's `bench` and `bench-case`) are
//! `rapier-pinned-xtask`'s (`crates/xtask`), so they are neither in `--help` nor in the user's
//! build (`tests/cli.rs` checks both that and this folder's file sizes).
//!
//! The layout is flat, `src/<command>.rs`, rather than cargo's `src/commands/<name>.rs`: ten
//! command modules and three others read well in one folder, the modules that already held
//! command bodies keep their paths (and history), and the two groups are told apart by the `mod`
//! lists below.

// Shared leaves: they import no command module.
mod args;
mod failure;
mod show;

// One module per command (net: two).
mod ccd_matrix;
mod check;
mod conformance;
mod digests;
mod golden;
mod net;
mod perturbation;
mod replay;
mod scenes;
mod snapshot;
mod sweeps;
mod versions;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

// The tool: its name, version, about and the exit statuses; one subcommand.
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

// Every command, wrapping its module's arguments (the variant's doc is the command's help).
#[derive(Subcommand)]
enum Command {
    /// Run the scene catalog and print a table: scene, bodies, steps, ms/step, final digest.
    Scenes(scenes::Args),
    /// Check the engine's moving-pair sweep against the sphere-sweep vectors of conformance/sweeps and
    /// print the figures.
    Sweeps(sweeps::Args),
    /// Run the thin-part perturbation suite under persistent-contact policies 0, 1 and
    /// 2, each with `ccd_relative_motion` off and on, and the current physics-version's
    /// settings: strict pass-throughs (by the frames, cleared by the between-frames refinement,
    /// gated), max end-of-frame penetration and truncation per set; then the current
    /// physics-version's gated steps, each replayed.
    Perturbation(perturbation::Args),
    /// Run the CCD safety matrix: fast parts of every shape, size, speed, angle and spin fired at
    /// every kind of target (cuboids, meshes, heightfields, hulls, compounds, a level, rooms,
    /// moving plates), drawn from a seed, at every tick rate; each shot judged by one rule (no
    /// centre of the part ends a step inside a solid, past a surface or through a moving plate
    /// it reached); a table per configuration: failures/shots and the worst depth per cell.
    CcdMatrix(ccd_matrix::Args),
    /// Write every step's state digest (`scene step digest`) of the catalog scenes and of every
    /// run of the thin-part sets, at upstream default settings (or `--config`).
    Digests(digests::Args),
    /// Print the physics-version table (the current version marked) and, for each consecutive
    /// pair, every pinned field that differs with both values.
    Versions(versions::Args),
    /// Save, inspect, verify and import pinned snapshots (docs/protocol.md).
    #[command(subcommand)]
    Snapshot(snapshot::Command),
    /// Golden trajectories (golden/<physics-version>/<scene>.snap): check or bless.
    #[command(subcommand)]
    Golden(golden::Command),
    /// Run every vector suite under conformance/ (sweeps, snapshot vectors of every released
    /// physics-version, pristine-upstream snapshots): one line per suite, then `N passed, M failed`.
    Conformance,
    /// Run a reference authoritative server (docs/multiplayer.md): seat each client as a player,
    /// take its inputs, step a pinned world at a fixed tick with every player's confirmed inputs,
    /// stream them to every client, check the clients' digests. Prints `listening on ADDR` first
    /// (with `--ws`, then `websocket on ws://ADDR`), then one line per join, refusal,
    /// divergence, migration and the end.
    Serve(net::ServeArgs),
    /// Join a match as a client: announce the physics-version, restore the server's snapshot,
    /// step in lockstep and report digests; exit 1 with the reason if refused or diverged.
    Join(net::JoinArgs),
    /// Recorded matches (`serve --record`, `join --record`): verify them against their digests
    /// (exit 1 at the first tick that differs, naming it), or under another physics-version;
    /// inspect them.
    #[command(subcommand)]
    Replay(replay::Command),
    /// The main check: golden trajectories and conformance vectors of the current
    /// physics-version (--all: of every released one), a summary table; exit 1 on any
    /// difference, 2 if a check cannot run.
    Check(check::Args),
}

/// Parses the command line, runs the command and maps its failure to the exit status.
fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Scenes(args) => scenes::run(args),
        Command::Sweeps(args) => sweeps::run(args),
        Command::Perturbation(args) => perturbation::run(args),
        Command::CcdMatrix(args) => ccd_matrix::run(args),
        Command::Digests(args) => digests::run(args),
        Command::Versions(args) => versions::run(args),
        Command::Snapshot(command) => snapshot::run(command),
        Command::Golden(command) => golden::run(command),
        Command::Conformance => conformance::run(),
        Command::Serve(args) => net::serve(args),
        Command::Join(args) => net::join(args),
        Command::Replay(command) => replay::run(command),
        Command::Check(args) => check::run(args),
    };
    failure::exit(result)
}
