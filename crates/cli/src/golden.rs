//! `rapier-pinned golden check|bless`: the golden trajectories of `golden/<physics-version>/`
//! (crate `rapier-pinned-golden`), compared or rewritten.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use rapier_pinned::PhysicsVersion;
use rapier_pinned_golden::{
    bless_file, check_file, golden_dir, golden_path, golden_scenes, picture, Blessed, GoldenScene,
    Verdict,
};

/// What a golden check found: files compared, and one report per file that failed.
pub struct Tally {
    pub files: usize,
    pub failures: Vec<String>,
}

/// The golden scenes named in `names` (all when empty).
pub fn scenes(names: &[String]) -> Result<Vec<GoldenScene>, String> {
    if names.is_empty() {
        return Ok(golden_scenes());
    }
    names
        .iter()
        .map(|n| {
            rapier_pinned_golden::find(n).ok_or_else(|| {
                format!("unknown scene '{n}' (catalog scenes and thin-part sets: `rapier-pinned digests --help`)")
            })
        })
        .collect()
}

/// Where divergence pictures go by default.
pub fn default_pictures() -> PathBuf {
    golden_dir().join("../target/golden-divergence")
}

/// A bar over `len` files on stderr; drawn only on a terminal (CI logs stay clean).
fn bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

/// Runs every scene of `scenes` under `version` and compares it with its golden file; prints a
/// report (first diverging step, body, quantity, both values, picture) for each that differs.
pub fn check(
    dir: &Path,
    version: PhysicsVersion,
    scenes: &[GoldenScene],
    pictures: &Path,
) -> Result<Tally, String> {
    let bar = bar(scenes.len());
    bar.set_prefix(format!("golden physics-version {version}"));
    let mut failures = Vec::new();
    for scene in scenes {
        bar.set_message(scene.name);
        let now = scene.record(version)?;
        let path = golden_path(dir, version, scene.name);
        let report = match check_file(&path, &now) {
            Ok(Verdict::Same) => None,
            Ok(Verdict::Differs(golden, divergence)) => {
                let mut report = format!("golden {version}/{}: {divergence}", scene.name);
                if let Some(body) = &divergence.body {
                    let (g, n) = (
                        golden.runs.iter().find(|r| r.name == divergence.run),
                        now.runs.iter().find(|r| r.name == divergence.run),
                    );
                    if let (Some(g), Some(n)) = (g, n) {
                        let file = format!("{version}-{}-{}.svg", divergence.run, body.body)
                            .replace(['@', '#'], "_");
                        let svg = pictures.join(file);
                        std::fs::create_dir_all(pictures)
                            .map_err(|e| format!("{}: {e}", pictures.display()))?;
                        report += &match picture::draw(g, n, body.body, body.step, &svg) {
                            Ok(()) => format!("\n  picture: {}", svg.display()),
                            Err(e) => format!("\n  no picture: {e}"),
                        };
                    }
                }
                Some(report)
            }
            Err(e) => Some(format!(
                "golden {version}/{}: {e} (write it on purpose with `rapier-pinned golden bless`)",
                scene.name
            )),
        };
        if let Some(report) = report {
            bar.suspend(|| eprintln!("{report}"));
            failures.push(report);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(Tally {
        files: scenes.len(),
        failures,
    })
}

/// Rewrites the golden files of `scenes` under `version`; prints what was created and changed,
/// and the rule when a released version's file changed.
pub fn bless(dir: &Path, version: PhysicsVersion, scenes: &[GoldenScene]) -> Result<(), String> {
    let bar = bar(scenes.len());
    bar.set_prefix(format!("bless physics-version {version}"));
    let (mut created, mut changed) = (Vec::new(), Vec::new());
    for scene in scenes {
        bar.set_message(scene.name);
        let path = golden_path(dir, version, scene.name);
        match bless_file(&path, &scene.record(version)?)? {
            Blessed::Unchanged => {}
            Blessed::Created => created.push(scene.name),
            Blessed::Changed => changed.push(scene.name),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!(
        "physics-version {version}: {} golden files created, {} changed, {} unchanged",
        created.len(),
        changed.len(),
        scenes.len() - created.len() - changed.len()
    );
    for (what, names) in [("created", &created), ("changed", &changed)] {
        if !names.is_empty() {
            println!("{what}: {}", names.join(", "));
        }
    }
    if !changed.is_empty() && rapier_pinned::entry(version).is_ok() && dir == golden_dir() {
        println!(
            "physics-version {version} is released: released versions never change. If this is a \
             behaviour change, make it a new physics-version instead — table entry, golden files, \
             conformance vectors and a CHANGELOG.md section in the same commit (docs/testing.md). \
             Review the diff with `git diff golden/` or `cargo insta review`."
        );
    }
    Ok(())
}
