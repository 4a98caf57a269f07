//! Re-stepping a replay: [`Replay::verify`] applies each tick's recorded inputs with the game's
//! own decoder, steps, and compares the state digest with the recorded one; at the first that
//! differs it names the body and quantity at the first keyframe from that tick.
//! [`Replay::depart`] re-steps under another physics-version and measures the departure.
//!
//! A replay stores each tick's digest, not its state: the first differing tick is exact, the
//! body is read at the next keyframe (exact when a keyframe falls on that tick).

use rapier3d::prelude::{Real, RigidBodyHandle, RigidBodySet};
use rapier_pinned_digest::{body_state, state_digest};

use crate::level::Level;
use crate::physics_version::PhysicsVersion;
use crate::replay::{Replay, ReplayError};
use crate::snapshot::SnapshotKey;
use crate::world::PinnedWorld;

/// How a game applies one tick's recorded inputs (its own encoding) to the world before the
/// step; an error is inputs it cannot decode.
pub type ApplyInputs<'a> = dyn FnMut(&[u8], &mut PinnedWorld) -> Result<(), String> + 'a;

/// What a re-stepped replay showed.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayVerdict {
    /// Every tick after `from` to `to` gave its recorded digest.
    Same {
        /// The tick re-stepping started from (the start's or a keyframe's).
        from: u64,
        /// The last tick re-stepped.
        to: u64,
    },
    /// A tick's digest differs.
    Diverges(ReplayDivergence),
}

/// The first tick whose digest differs, and the body that shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayDivergence {
    /// The tick.
    pub tick: u64,
    /// The digest the replay recorded at it.
    pub recorded: u64,
    /// The digest re-stepping gave.
    pub now: u64,
    /// The first body, in handle order, that differs at the first keyframe at or after `tick`
    /// (`None`: the file ends before a keyframe).
    pub body: Option<BodyDifference>,
}

/// A body whose state differs, bit for bit, and the first of its 13 state numbers that does.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDifference {
    /// Its handle's index and generation.
    pub body: (u32, u32),
    /// The tick it was compared at (a keyframe's).
    pub tick: u64,
    /// `translation.x`, …, `angvel.z` ([`QUANTITIES`]), or `exists` for a body only one side has.
    pub quantity: &'static str,
    /// The recorded value (`None`: no such body; for `exists`, any value: a body).
    pub recorded: Option<Real>,
    /// The re-stepped value (the same).
    pub now: Option<Real>,
}

/// The 13 state numbers' names, in the state digest's order.
pub const QUANTITIES: [&str; 13] = [
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

impl std::fmt::Display for ReplayVerdict {
    /// `ticks A..B verified (N ticks)`, or the divergence: what `replay verify` prints after a
    /// file's name, natively and in the npm package alike.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayVerdict::Same { from, to } => {
                write!(f, "ticks {}..{to} verified ({} ticks)", from + 1, to - from)
            }
            ReplayVerdict::Diverges(d) => write!(f, "{d}"),
        }
    }
}

impl std::fmt::Display for ReplayDivergence {
    /// `diverges at tick T: state digest recorded X, now Y`, then the body's line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "diverges at tick {}: state digest recorded {:016x}, now {:016x}",
            self.tick, self.recorded, self.now
        )?;
        let Some(b) = &self.body else {
            return write!(
                f,
                "\n  no keyframe at or after tick {}: the file does not say which body",
                self.tick
            );
        };
        let value = |v: Option<Real>| match (b.quantity, v) {
            (_, None) => "none".to_string(),
            ("exists", Some(_)) => "a body".to_string(),
            (_, Some(v)) => format!("{v:?}"),
        };
        let at = if b.tick == self.tick {
            String::new()
        } else {
            format!("at the next keyframe, tick {}: ", b.tick)
        };
        write!(
            f,
            "\n  {at}body {}v{}: {} recorded {}, now {}",
            b.body.0,
            b.body.1,
            b.quantity,
            value(b.recorded),
            value(b.now)
        )
    }
}

/// How far a replay re-stepped under another physics-version departs from its recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Departure {
    /// The physics-version it was re-stepped under.
    pub under: PhysicsVersion,
    /// The first tick whose digest differs (`None`: none does).
    pub first: Option<u64>,
    /// What differs at each keyframe.
    pub keyframes: Vec<KeyframeDeparture>,
    /// The last tick re-stepped.
    pub to: u64,
}

/// What differs at one keyframe.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyframeDeparture {
    /// The keyframe's tick.
    pub tick: u64,
    /// Bodies whose state differs.
    pub bodies: usize,
    /// The body that moved furthest from its recorded translation (index, generation), and how
    /// far.
    pub furthest: Option<((u32, u32), Real)>,
}

impl Replay {
    /// Re-steps the replay with the game's `apply`, from its start or, with `from`, from the
    /// last keyframe at or before that tick, and compares every tick's digest with the recorded
    /// one; `observe` sees the world after each step. Err: a world cannot be restored (another
    /// level, a bad snapshot), or inputs do not decode ([`ReplayError::Inputs`]).
    pub fn verify(
        &self,
        level: Option<&Level>,
        key: Option<&SnapshotKey>,
        from: Option<u64>,
        apply: &mut ApplyInputs<'_>,
        observe: &mut dyn FnMut(&PinnedWorld),
    ) -> Result<ReplayVerdict, ReplayError> {
        let first = from.and_then(|t| self.keyframes.iter().rposition(|k| k.0 <= t));
        let mut world = self.start_world(level, key)?;
        if let Some(k) = first {
            world = self.keyframe_world(k, &world, level, key)?;
        }
        let from = world.tick();
        let records: Vec<_> = self.ticks.iter().filter(|t| t.tick > from).collect();
        for (i, record) in records.iter().enumerate() {
            restep(&mut world, &record.inputs, apply)?;
            observe(&world);
            let now = state_digest(world.bodies());
            if now == record.digest {
                continue;
            }
            // Step on to the first keyframe at or after the tick, and compare every body there.
            let keyframe = self.keyframes.iter().position(|k| k.0 >= record.tick);
            let mut body = None;
            if let Some(k) = keyframe {
                for later in records[i + 1..]
                    .iter()
                    .take_while(|t| t.tick <= self.keyframes[k].0)
                {
                    restep(&mut world, &later.inputs, apply)?;
                    observe(&world);
                }
                // The start again (only on a divergence): the keyframes restore from it.
                let start = self.start_world(level, key)?;
                let recorded = self.keyframe_world(k, &start, level, key)?;
                body = first_difference(recorded.bodies(), world.bodies(), world.tick());
            }
            return Ok(ReplayVerdict::Diverges(ReplayDivergence {
                tick: record.tick,
                recorded: record.digest,
                now,
                body,
            }));
        }
        Ok(ReplayVerdict::Same {
            from,
            to: world.tick(),
        })
    }

    /// Re-steps the replay from its start under physics-version `under` (the recorded
    /// settings, match and level; the start's world adopted with `under`'s parameters) with the
    /// game's `apply`, and measures where and how far it departs from the recorded digests and
    /// keyframes. Err: `under` does not allow the recorded settings, or a world cannot be
    /// restored.
    pub fn depart(
        &self,
        under: PhysicsVersion,
        level: Option<&Level>,
        key: Option<&SnapshotKey>,
        apply: &mut ApplyInputs<'_>,
    ) -> Result<Departure, ReplayError> {
        let config = self.config_as(under)?;
        let (mut parts, tick) = self.start_world(level, key)?.into_parts();
        parts.integration_parameters = config.params();
        parts.gravity = config.gravity();
        let mut world =
            PinnedWorld::adopt_at(config, parts, tick).map_err(ReplayError::Snapshot)?;
        let mut departure = Departure {
            under,
            first: None,
            keyframes: Vec::new(),
            to: tick,
        };
        let mut recorded = self.start_world(level, key)?;
        let mut keyframes = self.keyframes.iter().enumerate().peekable();
        for record in &self.ticks {
            restep(&mut world, &record.inputs, apply)?;
            if departure.first.is_none() && state_digest(world.bodies()) != record.digest {
                departure.first = Some(record.tick);
            }
            while let Some((k, _)) = keyframes.next_if(|(_, (t, _))| *t == record.tick) {
                recorded = self.next_keyframe(k, &recorded, level, key)?;
                let d = keyframe_departure(recorded.bodies(), world.bodies(), record.tick);
                departure.keyframes.push(d);
            }
        }
        departure.to = world.tick();
        Ok(departure)
    }
}

/// Applies one tick's inputs and steps.
fn restep(
    world: &mut PinnedWorld,
    inputs: &[u8],
    apply: &mut ApplyInputs<'_>,
) -> Result<(), ReplayError> {
    let tick = world.tick() + 1;
    apply(inputs, world).map_err(|reason| ReplayError::Inputs { tick, reason })?;
    world.step();
    Ok(())
}

/// Every body's handle in either set, in handle order.
fn handles(recorded: &RigidBodySet, now: &RigidBodySet) -> Vec<RigidBodyHandle> {
    let mut all: Vec<RigidBodyHandle> = recorded.iter().chain(now.iter()).map(|(h, _)| h).collect();
    all.sort_unstable_by_key(|h| h.into_raw_parts());
    all.dedup();
    all
}

/// The first body, in handle order, whose state differs between `recorded` and `now` (bit for
/// bit), with the first of its numbers that does (or `exists` for a body only one side has).
fn first_difference(
    recorded: &RigidBodySet,
    now: &RigidBodySet,
    tick: u64,
) -> Option<BodyDifference> {
    handles(recorded, now).into_iter().find_map(|h| {
        let (r, n) = (recorded.get(h).map(body_state), now.get(h).map(body_state));
        let (quantity, recorded, now) = match (r, n) {
            (Some(r), Some(n)) => {
                let q = (0..13).find(|&q| r[q].to_bits() != n[q].to_bits())?;
                (QUANTITIES[q], Some(r[q]), Some(n[q]))
            }
            (r, n) => ("exists", r.map(|_| 0.0), n.map(|_| 0.0)),
        };
        Some(BodyDifference {
            body: h.into_raw_parts(),
            tick,
            quantity,
            recorded,
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
        if r.map(|s| s.map(Real::to_bits)) == n.map(|s| s.map(Real::to_bits)) {
            continue;
        }
        departure.bodies += 1;
        if let (Some(r), Some(n)) = (r, n) {
            let d = ((r[0] - n[0]).powi(2) + (r[1] - n[1]).powi(2) + (r[2] - n[2]).powi(2)).sqrt();
            if departure
                .furthest
                .is_none_or(|(_, far)| d > far || far.is_nan())
            {
                departure.furthest = Some((h.into_raw_parts(), d));
            }
        }
    }
    departure
}
