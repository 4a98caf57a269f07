//! Recorded matches as regression tests: re-step a replay file ([`rapier_pinned::Replay`]) from
//! its start, or from a keyframe, applying each tick's recorded inputs with the game's own
//! decoder, and compare every tick's state digest with the recorded one ([`verify`]); or re-step
//! it under another physics-version and measure where and how far it departs ([`depart`]).
//!
//! A replay stores each tick's digest, not its state: the first tick whose digest differs is
//! exact, and the body and quantity that show it are read at the first keyframe at or after
//! that tick (exact when a keyframe is at that tick: record with a keyframe every tick to name
//! it at the tick itself).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use rapier3d::prelude::*;
use rapier_pinned::{Level, PhysicsVersion, PinnedWorld, Replay, SnapshotKey};
use rapier_pinned_scenes::{body_state, state_digest};

use crate::compare::BodyDiff;
use crate::error::GoldenError;
use crate::picture::{draw_points, WINDOW};
use crate::trajectory::BodyId;

/// How a game applies one tick's recorded inputs (its own encoding) to the world before the
/// step; an error is inputs it cannot decode.
pub type ApplyInputs<'a> = dyn FnMut(&[u8], &mut PinnedWorld) -> Result<(), String> + 'a;

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

/// What a re-stepped replay showed.
#[derive(Debug)]
pub enum ReplayVerdict {
    /// Every tick from `from` to `to` gave its recorded digest.
    Same {
        /// The tick it was re-stepped from (the start's or a keyframe's).
        from: u64,
        /// The last tick re-stepped.
        to: u64,
    },
    /// A tick's digest differs.
    Diverges(Box<ReplayDivergence>),
}

/// The first tick whose digest differs, and what shows it.
#[derive(Debug)]
pub struct ReplayDivergence {
    /// The tick.
    pub tick: u64,
    /// The digest the replay recorded at it.
    pub recorded: u64,
    /// The digest re-stepping gave.
    pub now: u64,
    /// The first body (in handle order) whose state differs, with the first of its 13 state
    /// numbers that does, at the tick of [`BodyDiff::step`]: the first keyframe at or after
    /// `tick`. `None` when no keyframe follows (the file ends first).
    pub body: Option<BodyDiff>,
    /// The picture of that body's translation, recorded against re-stepped, when drawn (or why
    /// not).
    pub picture: Option<Result<PathBuf, String>>,
}

impl std::fmt::Display for ReplayDivergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "diverges at tick {}: state digest recorded {:016x}, now {:016x}",
            self.tick, self.recorded, self.now
        )?;
        match &self.body {
            Some(b) if b.step as u64 == self.tick => write!(
                f,
                "\n  body {}: {} recorded {}, now {}",
                b.body, b.quantity, b.golden, b.now
            )?,
            Some(b) => write!(
                f,
                "\n  at the next keyframe, tick {}: body {}: {} recorded {}, now {}",
                b.step, b.body, b.quantity, b.golden, b.now
            )?,
            None => write!(
                f,
                "\n  no keyframe at or after tick {}: the file does not say which body",
                self.tick
            )?,
        }
        match &self.picture {
            Some(Ok(p)) => write!(f, "\n  picture: {}", p.display()),
            Some(Err(e)) => write!(f, "\n  no picture: {e}"),
            None => Ok(()),
        }
    }
}

/// Re-steps `replay` with the game's `apply` and compares every tick's digest with the
/// recorded one. Err: the replay's worlds cannot be restored (another level, a bad snapshot),
/// or its inputs do not decode.
pub fn verify(
    replay: &Replay,
    options: &ReplayOptions<'_>,
    apply: &mut ApplyInputs<'_>,
) -> Result<ReplayVerdict, GoldenError> {
    let start = replay
        .start_world(options.level, options.key)
        .map_err(GoldenError::Replay)?;
    let mut world = first_world(replay, &start, options)?;
    let from = world.tick();
    let mut trail = Trail::default();
    let records = replay.ticks.iter().filter(|t| t.tick > from);
    for (i, record) in records.clone().enumerate() {
        step(&mut world, &record.inputs, apply)?;
        trail.push(&world);
        let now = state_digest(world.bodies());
        if now == record.digest {
            continue;
        }
        // Step on to the first keyframe at or after the tick, and compare every body there.
        let keyframe = replay.keyframes.iter().position(|k| k.0 >= record.tick);
        let (mut body, mut recorded_at) = (None, None);
        if let Some(k) = keyframe {
            for later in records.clone().skip(i + 1) {
                if later.tick > replay.keyframes[k].0 {
                    break;
                }
                step(&mut world, &later.inputs, apply)?;
                trail.push(&world);
            }
            let recorded = replay
                .keyframe_world(k, &start, options.key)
                .map_err(GoldenError::Replay)?;
            body = first_body_diff(recorded.bodies(), world.bodies(), world.tick());
            recorded_at = body
                .as_ref()
                .and_then(|b| recorded.bodies().get(b.body.handle()))
                .map(|b| b.translation().to_array().map(f64::from));
        }
        let picture = match (&body, options.picture) {
            (Some(b), Some(path)) => Some(
                trail
                    .draw(b, record.tick, recorded_at, path)
                    .map(|()| path.to_path_buf()),
            ),
            _ => None,
        };
        return Ok(ReplayVerdict::Diverges(Box::new(ReplayDivergence {
            tick: record.tick,
            recorded: record.digest,
            now,
            body,
            picture,
        })));
    }
    Ok(ReplayVerdict::Same {
        from,
        to: world.tick(),
    })
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
            Ok(ReplayVerdict::Same { .. }) => {}
            Ok(ReplayVerdict::Diverges(d)) => report.push(format!("{name}: {d}")),
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

/// How far a replay re-stepped under another physics-version departs from its recording.
#[derive(Debug)]
pub struct Departure {
    /// The physics-version it was re-stepped under.
    pub under: PhysicsVersion,
    /// The first tick whose digest differs (`None`: none does).
    pub first: Option<u64>,
    /// At each keyframe: how many bodies differ, and the largest distance between a body's
    /// recorded and re-stepped translation, with that body.
    pub keyframes: Vec<KeyframeDeparture>,
    /// The last tick re-stepped.
    pub to: u64,
}

/// What differs at one keyframe.
#[derive(Debug)]
pub struct KeyframeDeparture {
    /// The keyframe's tick.
    pub tick: u64,
    /// Bodies whose state differs.
    pub bodies: usize,
    /// The body that moved furthest from its recorded translation, and how far (m).
    pub furthest: Option<(BodyId, f32)>,
}

/// Re-steps `replay` from its start under physics-version `under` (the recorded settings,
/// match and level; the start's world adopted with `under`'s parameters) with the game's
/// `apply`, and measures where and how far it departs from the recorded digests and
/// keyframes. Err: `under` does not allow the recorded settings, or a world cannot be restored.
pub fn depart(
    replay: &Replay,
    under: PhysicsVersion,
    options: &ReplayOptions<'_>,
    apply: &mut ApplyInputs<'_>,
) -> Result<Departure, GoldenError> {
    let start = replay
        .start_world(options.level, options.key)
        .map_err(GoldenError::Replay)?;
    let config = replay.config_as(under).map_err(GoldenError::Replay)?;
    let (mut parts, tick) = replay
        .start_world(options.level, options.key)
        .map_err(GoldenError::Replay)?
        .into_parts();
    parts.integration_parameters = config.params();
    parts.gravity = config.gravity();
    let mut world = PinnedWorld::adopt_at(config, parts, tick)?;
    let mut departure = Departure {
        under,
        first: None,
        keyframes: Vec::new(),
        to: tick,
    };
    let mut keyframes = replay.keyframes.iter().enumerate().peekable();
    let mut last_keyframe = start;
    for record in &replay.ticks {
        step(&mut world, &record.inputs, apply)?;
        if departure.first.is_none() && state_digest(world.bodies()) != record.digest {
            departure.first = Some(record.tick);
        }
        while let Some((k, _)) = keyframes.next_if(|(_, (t, _))| *t == record.tick) {
            last_keyframe = replay
                .next_keyframe(k, &last_keyframe, options.key)
                .map_err(GoldenError::Replay)?;
            departure.keyframes.push(keyframe_departure(
                last_keyframe.bodies(),
                world.bodies(),
                record.tick,
            ));
        }
    }
    departure.to = world.tick();
    Ok(departure)
}

/// The world re-stepping starts from: the start, or the last keyframe at or before `from`.
fn first_world(
    replay: &Replay,
    start: &PinnedWorld,
    options: &ReplayOptions<'_>,
) -> Result<PinnedWorld, GoldenError> {
    let keyframe = options
        .from
        .and_then(|from| replay.keyframes.iter().rposition(|k| k.0 <= from));
    match keyframe {
        Some(k) => replay.keyframe_world(k, start, options.key),
        None => replay.start_world(options.level, options.key),
    }
    .map_err(GoldenError::Replay)
}

/// Applies one tick's inputs and steps.
fn step(
    world: &mut PinnedWorld,
    inputs: &[u8],
    apply: &mut ApplyInputs<'_>,
) -> Result<(), GoldenError> {
    let tick = world.tick() + 1;
    apply(inputs, world).map_err(|reason| GoldenError::ReplayInputs { tick, reason })?;
    world.step();
    Ok(())
}

/// The 13 state numbers' names, in [`body_state`]'s order.
const QUANTITIES: [&str; 13] = [
    "translation.x",
    "translation.y",
    "translation.z",
    "rotation.x",
    "rotation.y",
    "rotation.z",
    "rotation.w",
    "linvel.x",
    "linvel.y",
    "linvel.z",
    "angvel.x",
    "angvel.y",
    "angvel.z",
];

/// Every body's handle in either set, in handle order.
fn handles(recorded: &RigidBodySet, now: &RigidBodySet) -> Vec<RigidBodyHandle> {
    let mut all: Vec<RigidBodyHandle> = recorded.iter().chain(now.iter()).map(|(h, _)| h).collect();
    all.sort_unstable_by_key(|h| h.into_raw_parts());
    all.dedup();
    all
}

/// The first body, in handle order, whose state differs between `recorded` and `now` (bit for
/// bit), with the first of its numbers that does (or `exists` for a body only one side has).
fn first_body_diff(recorded: &RigidBodySet, now: &RigidBodySet, tick: u64) -> Option<BodyDiff> {
    handles(recorded, now).into_iter().find_map(|h| {
        let (r, n) = (recorded.get(h).map(body_state), now.get(h).map(body_state));
        let (quantity, golden, now) = match (r, n) {
            (Some(r), Some(n)) => {
                let q = (0..13).find(|&q| r[q].to_bits() != n[q].to_bits())?;
                (
                    QUANTITIES[q].to_string(),
                    format!("{:?}", r[q]),
                    format!("{:?}", n[q]),
                )
            }
            (r, n) => {
                let says = |s: Option<[Real; 13]>| if s.is_some() { "a body" } else { "none" };
                (
                    "exists".to_string(),
                    says(r).to_string(),
                    says(n).to_string(),
                )
            }
        };
        Some(BodyDiff {
            body: BodyId::of(h),
            step: tick as usize,
            quantity,
            golden,
            now,
        })
    })
}

/// How many bodies differ between `recorded` and `now`, and which moved furthest.
fn keyframe_departure(recorded: &RigidBodySet, now: &RigidBodySet, tick: u64) -> KeyframeDeparture {
    let mut departure = KeyframeDeparture {
        tick,
        bodies: 0,
        furthest: None,
    };
    for h in handles(recorded, now) {
        let (r, n) = (recorded.get(h).map(body_state), now.get(h).map(body_state));
        if r.map(|s| s.map(f32::to_bits)) == n.map(|s| s.map(f32::to_bits)) {
            continue;
        }
        departure.bodies += 1;
        if let (Some(r), Some(n)) = (r, n) {
            let d = ((r[0] - n[0]).powi(2) + (r[1] - n[1]).powi(2) + (r[2] - n[2]).powi(2)).sqrt();
            if departure
                .furthest
                .is_none_or(|(_, far)| d > far || far.is_nan())
            {
                departure.furthest = Some((BodyId::of(h), d));
            }
        }
    }
    departure
}

/// Every body's translation at one tick.
type Translations = Vec<(BodyId, [f64; 3])>;

/// The re-stepped translations of every body over the last [`WINDOW`] ticks before a
/// divergence and every tick after it: what the picture draws.
#[derive(Default)]
struct Trail {
    ticks: VecDeque<(u64, Translations)>,
    diverged: bool,
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
        // Before the divergence the ring holds the window; after it, everything.
        if !self.diverged && self.ticks.len() > WINDOW + 1 {
            self.ticks.pop_front();
        }
    }

    /// Draws `diff.body`'s translation into `path`: re-stepped at every tick kept, recorded
    /// at every tick before `tick` (the digests agreed there, so the states did) and, as
    /// `recorded_at`, at the keyframe the body was compared at.
    fn draw(
        &mut self,
        diff: &BodyDiff,
        tick: u64,
        recorded_at: Option<[f64; 3]>,
        path: &Path,
    ) -> Result<(), String> {
        self.diverged = true;
        let of =
            |positions: &Translations| positions.iter().find(|(b, _)| *b == diff.body).map(|p| p.1);
        let now: Vec<(usize, [f64; 3])> = self
            .ticks
            .iter()
            .filter_map(|(t, p)| Some((*t as usize, of(p)?)))
            .collect();
        let mut recorded: Vec<(usize, [f64; 3])> = now
            .iter()
            .copied()
            .filter(|(t, _)| (*t as u64) < tick)
            .collect();
        recorded.extend(recorded_at.map(|p| (diff.step, p)));
        let title = format!(
            "body {} from tick {tick} (recorded blue, re-stepped red)",
            diff.body
        );
        draw_points(&title, &recorded, &now, tick as usize, path).map_err(|e| e.to_string())
    }
}
