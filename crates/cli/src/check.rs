//! `rapier-pinned check`: golden trajectories and conformance vectors, one summary table.

use std::path::Path;

use rapier_pinned::PhysicsVersion;

use crate::{conformance, golden};

/// Runs the golden check and every conformance suite for `versions`; prints the failures, then
/// the table. Err when anything failed.
pub fn run(versions: &[PhysicsVersion], pictures: &Path) -> Result<(), String> {
    let scenes = golden::scenes(&[])?;
    let mut rows: Vec<(String, usize, usize)> = Vec::new();
    for &v in versions {
        let tally = golden::check(&rapier_pinned_golden::golden_dir(), v, &scenes, pictures)?;
        rows.push((
            format!("golden {v}/ (scene files)"),
            tally.files,
            tally.failures.len(),
        ));
    }
    for suite in conformance::suites(versions)? {
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
        Err(format!("{failed} of {cases} checks failed (details above)"))
    }
}
