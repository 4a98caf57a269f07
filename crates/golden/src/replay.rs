//! Recorded matches as regression tests: a replay file ([`rapier_pinned::Replay`]) re-stepped
//! with the game's own input decoder ([`rapier_pinned::Replay::verify`]), its divergence
//! reported with a picture of the body that shows it ([`verify`]), and a folder of a game's
//! recorded matches checked from its `cargo test` ([`verify_folder`]).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use rapier_pinned::{
    ApplyInputs, Level, PinnedWorld, Replay, ReplayDivergence, ReplayVerdict, SnapshotKey,
};

use crate::error::GoldenError;
use crate::picture::{draw_points, WINDOW};
use crate::trajectory::BodyId;

/// Where and how a re-stepped replay is checked.
#[derive(Clone, Copy, Default)]
pub struct ReplayOptions<'a> {
    /// The level the match is on (its file's bytes), when it is on one.
    pub level: Option<&'a Level>,
    /// The fleet key the replay's MACs (and snapshots) are checked with.
    pub key: Option<&'a SnapshotKey>,
    /// Start from the last keyframe at or before this tick instead of the start.
    pub from: Option<u64>,
    /// Where a divergence's picture is drawn (none: no picture).
    pub picture: Option<&'a Path>,
}

/// What [`verify`] found: the verdict, and the divergence's picture when one was drawn (or why
/// not).
#[derive(Debug)]
pub struct ReplayReport {
    /// The verdict.
    pub verdict: ReplayVerdict,
    /// The picture of the diverging body's translation, recorded against re-stepped.
    pub picture: Option<Result<PathBuf, String>>,
}

impl ReplayReport {
    /// The divergence, when there is one.
    pub fn divergence(&self) -> Option<&ReplayDivergence> {
        match &self.verdict {
            ReplayVerdict::Diverges(d) => Some(d),
            ReplayVerdict::Same { .. } => None,
        }
    }
}

impl std::fmt::Display for ReplayReport {
    /// The verdict ([`ReplayVerdict`]'s text), then the picture's line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.verdict)?;
        match &self.picture {
            Some(Ok(p)) => write!(f, "\n  picture: {}", p.display()),
            Some(Err(e)) => write!(f, "\n  no picture: {e}"),
            None => Ok(()),
        }
    }
}

/// Re-steps `replay` with the game's `apply` ([`Replay::verify`]) and, on a divergence, draws
/// the diverging body's translation into `options.picture`.
pub fn verify(
    replay: &Replay,
    options: &ReplayOptions<'_>,
    apply: &mut ApplyInputs<'_>,
) -> Result<ReplayReport, GoldenError> {
    // The window before the divergence, and the ticks re-stepped after it to the next keyframe.
    let after = (replay.header.keyframe_every as usize).min(MAX_AFTER);
    let mut trail = Trail {
        ticks: VecDeque::new(),
        capacity: WINDOW + 1 + after,
    };
    let verdict = replay
        .verify(options.level, options.key, options.from, apply, &mut |w| {
            // Kept only for a picture.
            if options.picture.is_some() {
                trail.push(w)
            }
        })
        .map_err(GoldenError::Replay)?;
    let picture = match (&verdict, options.picture) {
        (ReplayVerdict::Diverges(d), Some(path)) => {
            Some(trail.draw(d, path).map(|()| path.to_path_buf()))
        }
        _ => None,
    };
    Ok(ReplayReport { verdict, picture })
}

/// The extension of replay files [`verify_folder`] reads.
pub const REPLAY_EXTENSION: &str = "rpl";

/// A game's recorded matches as its regression suite, from its own `cargo test`: verifies
/// every replay file (`*.rpl`) in `dir`, in name order, with the game's `apply` (its own input
/// decoder), on `level` and with `key` when given; a divergence's picture goes beside its file
/// (`NAME.rpl.divergence.svg`). Ok: how many files verified. Err
/// ([`GoldenError::ReplaysDiverge`]): every file that diverged or could not be read, with the
/// first divergence of each (tick, body, quantity, both values).
pub fn verify_folder(
    dir: &Path,
    level: Option<&Level>,
    key: Option<&SnapshotKey>,
    apply: &mut ApplyInputs<'_>,
) -> Result<usize, GoldenError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GoldenError::Io { path, source }
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io(dir))?;
    files.retain(|p| p.extension().is_some_and(|e| e == REPLAY_EXTENSION));
    files.sort();
    let mut report = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let picture = path.with_file_name(format!("{name}.divergence.svg"));
        let options = ReplayOptions {
            level,
            key,
            from: None,
            picture: Some(&picture),
        };
        let bytes = std::fs::read(path).map_err(io(path))?;
        let verdict = Replay::read(&bytes, key)
            .map_err(GoldenError::Replay)
            .and_then(|replay| verify(&replay, &options, apply));
        match verdict {
            Ok(r) if r.divergence().is_none() => {}
            Ok(r) => report.push(format!("{name}: {r}")),
            Err(e) => report.push(format!("{name}: {e}")),
        }
    }
    if report.is_empty() {
        Ok(files.len())
    } else {
        Err(GoldenError::ReplaysDiverge {
            failed: report.len(),
            total: files.len(),
            report: report.join("\n"),
        })
    }
}

/// Every body's translation at one tick.
type Translations = Vec<(BodyId, [f64; 3])>;

/// The most ticks after a divergence the picture keeps (re-stepping goes on to the next
/// keyframe): 10 s at 60 Hz.
const MAX_AFTER: usize = 600;

/// The re-stepped translations of every body over the last `capacity` ticks: the window
/// before the divergence and the ticks after it to the next keyframe, what the picture draws.
struct Trail {
    ticks: VecDeque<(u64, Translations)>,
    capacity: usize,
}

impl Trail {
    /// Keeps the world's translations at its tick.
    fn push(&mut self, world: &PinnedWorld) {
        let positions = world
            .bodies()
            .iter()
            .map(|(h, b)| (BodyId::of(h), b.translation().to_array().map(f64::from)))
            .collect();
        self.ticks.push_back((world.tick(), positions));
        if self.ticks.len() > self.capacity {
            self.ticks.pop_front();
        }
    }

    /// Draws the diverging body's translation into `path`: re-stepped at every tick kept,
    /// recorded at every tick before the divergence (the digests agreed there, so the states
    /// did), and where the keyframe says (when the body's translation is what differs there).
    fn draw(&self, d: &ReplayDivergence, path: &Path) -> Result<(), String> {
        let b = d.body.as_ref().ok_or("no keyframe names the body")?;
        let body = BodyId {
            index: b.body.0,
            generation: b.body.1,
        };
        let of = |positions: &Translations| positions.iter().find(|p| p.0 == body).map(|p| p.1);
        let now: Vec<(usize, [f64; 3])> = self
            .ticks
            .iter()
            .filter_map(|(t, p)| Some((*t as usize, of(p)?)))
            .collect();
        let mut recorded: Vec<(usize, [f64; 3])> = now
            .iter()
            .copied()
            .filter(|(t, _)| (*t as u64) < d.tick)
            .collect();
        let axis = ["translation.x", "translation.y", "translation.z"]
            .iter()
            .position(|q| *q == b.quantity);
        let at_keyframe = now.iter().find(|(t, _)| *t as u64 == b.tick);
        if let (Some(axis), Some(value), Some((t, p))) = (axis, b.recorded, at_keyframe) {
            let mut p = *p;
            p[axis] = f64::from(value);
            recorded.push((*t, p));
        }
        let title = format!(
            "body {body} from tick {} (recorded blue, re-stepped red)",
            d.tick
        );
        draw_points(&title, &recorded, &now, d.tick as usize, path).map_err(|e| e.to_string())
    }
}
