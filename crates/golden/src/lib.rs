//! Golden trajectories: per physics-version and scene, every step's state digest and a few
//! sampled bodies, stored as reviewable insta snapshots under `golden/<physics-version>/`.
//!
//! - [`trajectory`]: what a run records ([`Recorder`]) and what a file holds ([`Golden`]).
//! - [`text`]: the file's text form (an insta snapshot) and its parser.
//! - [`compare`]: the first step, body and quantity where a run differs from its file.
//! - [`picture`]: an SVG of that body's trajectory, golden against now.
//! - [`catalog`]: the project's golden scenes (catalog scenes and thin-part sets).
//! - [`game`]: golden trajectories of a game's own scenes, from the game's own tests:
//!   [`GoldenRun`] and [`assert_golden!`] (insta snapshots next to the test file, `docs/golden.md`).
//! - [`replay`]: recorded matches (replay files) as regression tests: [`replay::verify`]
//!   re-steps one with the game's own inputs, names the first tick that differs and draws the
//!   body that shows it; [`replay::verify_folder`] checks a folder of them.
//! - [`GoldenError`]: why a run, a file or a picture failed (the crate's one error type).
//! - [`guard`]: the determinism guard rails of a game's golden run (what is detected, what not).

pub mod catalog;
pub mod compare;
mod error;
pub mod game;
pub mod guard;
pub mod picture;
pub mod replay;
pub mod text;
pub mod trajectory;

pub use catalog::{find, golden_scenes, GoldenScene};
pub use compare::{compare, Divergence};
pub use trajectory::{BodyId, Golden, Recorder, Run, Sample, Step};

pub use error::GoldenError;
#[doc(hidden)]
pub use game::__private;
pub use game::{picture_path, GoldenRun, Inputs, Outcome, Recording, SnapshotSite};
/// insta, for [`assert_golden!`] (and for a game's own `insta::with_settings!`): a game needs no
/// insta dependency of its own.
pub use insta;
/// The wrapper the scene builders and inputs take (`PinnedWorld`, `PHYSICS_VERSION_CURRENT`).
pub use rapier_pinned;

use rapier_pinned::PhysicsVersion;
use std::path::{Path, PathBuf};

/// `golden/` at the repository root.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../golden")
}

/// The golden file of `scene` under `version` in `dir` (`dir/<version>/<scene>.snap`).
pub fn golden_path(dir: &Path, version: PhysicsVersion, scene: &str) -> PathBuf {
    dir.join(version.to_string()).join(format!("{scene}.snap"))
}

/// What a check of one file found.
pub enum Verdict {
    /// The file's content is exactly the run now.
    Same,
    /// The first difference, and the parsed golden file (for the picture).
    Differs(Box<Golden>, Divergence),
}

/// Compares `now` with the golden file at `path`. Err: the file is missing or malformed.
pub fn check_file(path: &Path, now: &Golden) -> Result<Verdict, GoldenError> {
    let file = std::fs::read_to_string(path).map_err(|source| GoldenError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let malformed = |e: GoldenError| GoldenError::Malformed {
        path: path.to_path_buf(),
        source: Box::new(e),
    };
    let content = text::content(&file).map_err(malformed)?;
    let rendered = text::render(now);
    if content == rendered {
        return Ok(Verdict::Same);
    }
    let golden = text::parse(content).map_err(malformed)?;
    let divergence = compare(&golden, now).unwrap_or_else(|| {
        // Same values, different text (e.g. a hand edit of the spacing): name the line.
        let line = content
            .lines()
            .zip(rendered.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(content.lines().count().min(rendered.lines().count()));
        Divergence {
            run: String::new(),
            step: 0,
            what: format!(
                "the text differs at content line {} (same values)",
                line + 1
            ),
            body: None,
        }
    });
    Ok(Verdict::Differs(Box::new(golden), divergence))
}

/// What [`bless_file`] did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Blessed {
    /// The file already held exactly this run.
    Unchanged,
    /// There was no file: a new scene (or a new physics-version) got its golden file.
    Created,
    /// The file held another trajectory and was rewritten.
    Changed,
}

/// Writes `now` as the golden file at `path`, and says whether that created or changed it.
pub fn bless_file(path: &Path, now: &Golden) -> Result<Blessed, GoldenError> {
    let new = text::render_file(now);
    let old = std::fs::read_to_string(path).ok();
    if old.as_deref() == Some(new.as_str()) {
        return Ok(Blessed::Unchanged);
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GoldenError::Io { path, source }
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    std::fs::write(path, new).map_err(io(path))?;
    Ok(if old.is_some() {
        Blessed::Changed
    } else {
        Blessed::Created
    })
}
