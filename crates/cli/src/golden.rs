//! `rapier-pinned golden check|bless`: the golden trajectories of `golden/<physics-version>/`
//! (crate `rapier-pinned-golden`), compared or rewritten.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use rapier_pinned::PhysicsVersion;
use rapier_pinned_golden::{
    bless_file, check_file, golden_dir, golden_path, golden_scenes, picture, Blessed, GoldenScene,
    Verdict,
};

use crate::args::physics_versions;
use crate::failure::Failure;

/// `golden check` and `golden bless`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Step every golden scene and compare it with its file; exit 1 on any difference, naming
    /// the first diverging step, body and quantity with both values, and drawing that body's
    /// trajectory (golden against now) as an SVG.
    Check {
        #[command(flatten)]
        select: Select,
        /// Where divergence pictures are written (default: target/golden-divergence/).
        #[arg(long, value_name = "DIR")]
        pictures: Option<PathBuf>,
    },
    /// Rewrite golden files on purpose (a released physics-version never changes: see
    /// docs/testing.md before blessing one).
    Bless {
        #[command(flatten)]
        select: Select,
    },
}

/// Which golden files: physics-versions, scenes and the golden directory.
#[derive(clap::Args)]
pub struct Select {
    /// Physics-version (repeatable; default: the current one).
    #[arg(long = "physics-version", value_name = "V")]
    versions: Vec<PhysicsVersion>,
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

impl Select {
    /// The physics-versions chosen (default: the current one).
    fn versions(&self) -> Vec<PhysicsVersion> {
        physics_versions(self.all, &self.versions)
    }

    /// The golden directory chosen (default: the repository's).
    fn dir(&self) -> PathBuf {
        self.golden_dir.clone().unwrap_or_else(golden_dir)
    }
}

/// Runs `golden check` or `golden bless`. A file that differs (or is missing) is a failed check;
/// any other error (an unknown scene or version, I/O) is a usage error.
pub fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Check { select, pictures } => {
            let scenes = scenes(&select.scenes).map_err(Failure::Usage)?;
            let pictures = pictures.unwrap_or_else(default_pictures);
            let (mut files, mut failed) = (0, 0);
            for v in select.versions() {
                let tally = check(&select.dir(), v, &scenes, &pictures).map_err(Failure::Usage)?;
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
        Command::Bless { select } => {
            let scenes = scenes(&select.scenes).map_err(Failure::Usage)?;
            for v in select.versions() {
                bless(&select.dir(), v, &scenes).map_err(Failure::Usage)?;
            }
            Ok(())
        }
    }
}

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
        let now = scene.record(version).map_err(|e| e.to_string())?;
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
        let now = scene.record(version).map_err(|e| e.to_string())?;
        match bless_file(&path, &now).map_err(|e| e.to_string())? {
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
