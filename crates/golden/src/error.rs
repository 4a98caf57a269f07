//! Why a golden run, a golden file or a picture failed: [`GoldenError`], the crate's one error.

use crate::trajectory::BodyId;
use rapier_pinned::PhysicsVersion;
use std::path::PathBuf;

/// Why a run was not recorded ([`crate::GoldenRun::record`], [`crate::GoldenScene::record`]), a
/// golden file could not be read, parsed or written ([`crate::check_file`],
/// [`crate::bless_file`], [`crate::text`]), or a picture not drawn ([`crate::picture::draw`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GoldenError {
    /// No released physics-version has this number.
    #[error("golden `{name}` refused: {error}")]
    UnknownPhysicsVersion {
        /// The run's name.
        name: String,
        /// The wrapper's refusal.
        error: rapier_pinned::ConfigError,
    },
    /// The scene's world is not pinned to the physics-version: `PinnedWorld::adopt` refused it
    /// (its error names every differing field with both values, or the failed check).
    #[error(
        "golden `{name}` refused: the scene's world is not pinned to physics-version {version} \
         (PinnedWorld::adopt: {error}); build it with the config's integration parameters and \
         gravity (WorldConfig::params() and ::gravity(), with the run's settings), or build the \
         scene into a PinnedWorld with GoldenRun::new"
    )]
    NotPinned {
        /// The run's name.
        name: String,
        /// The physics-version it was recorded under.
        version: PhysicsVersion,
        /// `PinnedWorld::adopt`'s refusal.
        error: rapier_pinned::Error,
    },
    /// Settings the physics-version does not allow ([`crate::GoldenRun::settings`]).
    #[error("golden `{name}` refused: {error}")]
    SettingNotAllowed {
        /// The run's name.
        name: String,
        /// The wrapper's refusal.
        error: rapier_pinned::ConfigError,
    },
    /// No steps, or a name that cannot be a snapshot name.
    #[error("golden `{name}` refused: {reason}")]
    BadRun {
        /// The run's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A catalog scene recorded under a physics-version with no table entry.
    #[error(transparent)]
    Version(#[from] rapier_pinned::Error),
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A golden file's text is not a golden trajectory.
    #[error("{}: {source}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong: [`GoldenError::NotInsta`], [`GoldenError::BadLine`] or
        /// [`GoldenError::NoRun`].
        source: Box<GoldenError>,
    },
    /// The text has no insta metadata block (which part is missing).
    #[error("not an insta snapshot: {0}")]
    NotInsta(&'static str),
    /// A content line (numbered from 1) that is not a step of the run above it.
    #[error("line {line} of the content: {reason}: `{text}`")]
    BadLine {
        /// The line's number in the content.
        line: usize,
        /// What is wrong with it (e.g. `no state digest`, `expected step 3`).
        reason: String,
        /// The line.
        text: String,
    },
    /// The content has no `run` line.
    #[error("no `run` line")]
    NoRun,
    /// The picture's body is not sampled in the golden run.
    #[error("body {body} is not sampled in run {run}")]
    NotSampled {
        /// The body.
        body: BodyId,
        /// The golden run's name.
        run: String,
    },
    /// A replay could not be read or re-stepped: refused, its worlds not restored, its inputs
    /// not decoded.
    #[error("replay: {0}")]
    Replay(rapier_pinned::ReplayError),
    /// Replay files of a folder diverged or could not be read ([`crate::replay::verify_folder`]).
    #[error("{failed} of {total} replays do not verify:\n{report}")]
    ReplaysDiverge {
        /// How many failed.
        failed: usize,
        /// How many files the folder holds.
        total: usize,
        /// One entry per failed file: its first divergence, or why it could not be read.
        report: String,
    },
    /// The picture could not be drawn into its SVG file (plotters' message).
    #[error("{}: {reason}", path.display())]
    Picture {
        /// The SVG file.
        path: PathBuf,
        /// plotters' message.
        reason: String,
    },
}
