//! `rapier-pinned check`: golden trajectories and conformance vectors, one summary table.

use std::path::{Path, PathBuf};

use rapier_pinned::PhysicsVersion;

use crate::args::physics_versions;
use crate::failure::Failure;
use crate::{conformance, golden};

/// The options of `check`.
#[derive(clap::Args)]
pub struct Args {
    /// Every released physics-version, not only the current one.
    #[arg(long)]
    all: bool,
    /// Where divergence pictures are written.
    #[arg(long, value_name = "DIR")]
    pictures: Option<PathBuf>,
}

/// Runs the check: a golden file or a conformance case that differs is a failed check (exit 1); a
/// check that cannot run (a scene that cannot be built, a vector file that cannot be read) is an
/// error (exit 2), as in `golden check` and `conformance`.
pub fn run(args: Args) -> Result<(), Failure> {
    let pictures = args.pictures.unwrap_or_else(golden::default_pictures);
    table(&physics_versions(args.all, &[]), &pictures)
}

/// Runs the golden check and every conformance suite for `versions`; prints the failures, then
/// the table.
fn table(versions: &[PhysicsVersion], pictures: &Path) -> Result<(), Failure> {
    let scenes = golden::scenes(&[]).map_err(Failure::Usage)?;
    let mut rows: Vec<(String, usize, usize)> = Vec::new();
    for &v in versions {
        let tally = golden::check(&rapier_pinned_golden::golden_dir(), v, &scenes, pictures)
            .map_err(Failure::Usage)?;
        rows.push((
            format!("golden {v}/ (scene files)"),
            tally.files,
            tally.failures.len(),
        ));
    }
    for suite in conformance::suites(versions).map_err(Failure::Usage)? {
        for failure in &suite.failures {
            eprintln!("conformance {failure}");
        }
        rows.push((
            format!("conformance {}", suite.name),
            suite.cases,
            suite.failed,
        ));
    }
    println!(
        "{:<40} {:>7} {:>7} {:>7}",
        "check", "cases", "passed", "failed"
    );
    for (name, cases, failed) in &rows {
        println!("{name:<40} {cases:>7} {:>7} {failed:>7}", cases - failed);
    }
    let (cases, failed) = rows.iter().fold((0, 0), |(c, f), r| (c + r.1, f + r.2));
    println!(
        "{:<40} {cases:>7} {:>7} {failed:>7}",
        "total",
        cases - failed
    );
    if failed == 0 {
        Ok(())
    } else {
        Err(Failure::Failed(format!(
            "{failed} of {cases} checks failed (details above)"
        )))
    }
}
