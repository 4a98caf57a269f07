//! `rapier-pinned-xtask`: the project's CI and maintainer commands, out of the `rapier-pinned`
//! tool that users build (cargo's `xtask` convention, issue 46). `rapier-pinned --help` lists
//! what a game team runs; what only the project's scripts run lives here:
//!
//! - `matrix-compare` (module `matrix`): the determinism matrix's comparison of its result files
//!   (scripts/determinism-matrix). The result format is defined once, in `format`; the judge's
//!   rules are `judge`'s, what a failure says `mismatch`'s, the summary `table`'s: one idea a
//!   module, each with its tests.
//! - `bench` and `bench-case` (module `bench`): the fork against pristine upstream
//!   (scripts/bench, docs/benchmarks.md). They move together: `bench` runs every sample of the
//!   fork side as a fresh process of its own binary's `bench-case`, so the command and its
//!   sampler must share a binary; the upstream side stays conformance/parity's
//!   `rapier-pinned-parity bench-case`. Both sides time `rapier_pinned_scenes::bench_step`, the
//!   function callgrind's `--toggle-collect=*bench_step*` counts.
//!
//! The crate links the fork like the tool does (same features), so `bench-case` times the same
//! engine code a game ships; scripts/test builds this binary in its workspace build, beside the
//! tool, and exports it as `RAPIER_PINNED_XTASK_BIN`.

// Shared leaf: imports no command module.
mod failure;

// The result file, its judge (and the judge's messages) and its table (the matrix's three
// concerns), then the commands.
mod format;
mod judge;
mod mismatch;
mod table;

mod bench;
mod matrix;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

// The tool: its name, about and the exit statuses; one subcommand.
#[derive(Parser)]
#[command(
    name = "rapier-pinned-xtask",
    version,
    about = "rapier-pinned's CI and maintainer commands (the user's tool is `rapier-pinned`)",
    after_help = "Exit status: 0 ok; 1 a check that ran found a difference (matrix-compare); \
                  2 usage or I/O error, or a command that could not do its job."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Every command, wrapping its module's arguments (the variant's doc is the command's help).
#[derive(Subcommand)]
enum Command {
    /// The determinism matrix's comparison (scripts/determinism-matrix): every target's result
    /// file against the reference's, the mismatches and the summary table; exit 1 on any mismatch.
    MatrixCompare(matrix::Args),
    /// Time the benchmark cases on the fork (defaults, the physics-version before the current
    /// one, the current one, each CCD setting alone) and on pristine upstream, alternating, and
    /// print the table: ms/step medians, ratios against upstream, the aims, truncation
    /// (docs/benchmarks.md; scripts/bench builds both sides and runs this).
    Bench(bench::BenchArgs),
    /// One sample of `bench`'s fork side: time a benchmark case, print ms/step per run.
    BenchCase(bench::BenchCaseArgs),
}

/// Parses the command line, runs the command and maps its failure to the exit status.
fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::MatrixCompare(args) => matrix::run(args),
        Command::Bench(args) => bench::run(args),
        Command::BenchCase(args) => bench::bench_case(args),
    };
    failure::exit(result)
}
