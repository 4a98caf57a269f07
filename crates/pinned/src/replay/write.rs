//! Recording a match: [`ReplayWriter`] appends the header, the start and then one chunk per
//! tick, keyframe and event, each written whole and flushed, so a process killed mid-match
//! leaves every chunk before the one it was writing intact.

use std::io::Write;

use rapier_pinned_digest::state_digest;

use crate::baseline::Baseline;
use crate::level::Level;
use crate::replay::format::{
    event_parts, frame_chunk, frame_header, ReplayEvent, ReplayHeader, CHUNK_EVENT, CHUNK_KEYFRAME,
    CHUNK_START, CHUNK_TICK, MAX_INPUT_BYTES, MAX_INPUT_FORMAT,
};
use crate::replay::ReplayError;
use crate::snapshot::SnapshotKey;
use crate::world::PinnedWorld;

/// Appends a match to a replay file (or any writer).
pub struct ReplayWriter<W: Write> {
    out: W,
    key: Option<SnapshotKey>,
    /// The last chunk's checksum (the header's, at first).
    chain: [u8; 32],
    /// The level the world is on (a clone shares its bytes): a keyframe may refer to its
    /// shapes (format 3).
    level: Option<Level>,
    /// The last keyframe's baseline (the start's, at first): a delta keyframe is against it.
    baseline: Baseline,
    start_tick: u64,
    keyframe_every: u64,
    /// Bytes written so far.
    written: u64,
}

impl<W: Write> ReplayWriter<W> {
    /// Starts the replay of `world` (at its tick now) on `level` (the config's, if any): writes
    /// the header and the starting snapshot (format 1, or format 3 on a level). A keyframe
    /// follows every `keyframe_every`-th tick record (at least 1); `input_format` names how the
    /// tick records' inputs are encoded. With `key`, every chunk carries a MAC.
    pub fn start(
        out: W,
        world: &PinnedWorld,
        level: Option<&Level>,
        keyframe_every: u32,
        input_format: &str,
        key: Option<SnapshotKey>,
    ) -> Result<Self, ReplayError> {
        if keyframe_every == 0 {
            return Err(ReplayError::KeyframeEvery);
        }
        if input_format.len() > MAX_INPUT_FORMAT || !input_format.is_ascii() {
            return Err(ReplayError::InputFormatName {
                len: input_format.len() as u64,
            });
        }
        let header = ReplayHeader::new(world.config(), keyframe_every, input_format, key.is_some());
        let start = match level {
            Some(_) => world.snapshot_linked(level, key.as_ref()),
            None => world
                .check_level(None)
                .map(|()| world.snapshot(key.as_ref())),
        }
        .map_err(ReplayError::Snapshot)?;
        let (head, sum) = frame_header(&header, key.as_ref());
        let mut writer = Self {
            out,
            key,
            chain: sum,
            level: level.cloned(),
            baseline: world.baseline(),
            start_tick: world.tick(),
            keyframe_every: u64::from(keyframe_every),
            written: 0,
        };
        writer.emit(&head)?;
        writer.chunk(CHUNK_START, &[&start])?;
        Ok(writer)
    }

    /// Records the tick `world` just stepped: `inputs` (the game's encoding of what was applied
    /// before the step, at most [`MAX_INPUT_BYTES`]) and the state digest after it
    /// (`rapier_pinned_digest::state_digest`, the one servers and clients compare);
    /// then a keyframe when the tick is due one: a delta (format 4) against the previous
    /// keyframe's world (the first: the start's), not against the start, because a world's
    /// payload grows and drifts from its start as contacts come and go (the arena after 10 s:
    /// 5.9 KB against 1 s earlier, 31 KB against the start); on a level, the smaller of that
    /// delta and the world with the level's shapes by reference (format 3), which is the
    /// smaller when contacts with the level changed much since the last keyframe.
    pub fn tick(&mut self, world: &PinnedWorld, inputs: &[u8]) -> Result<(), ReplayError> {
        if inputs.len() > MAX_INPUT_BYTES {
            return Err(ReplayError::InputsTooLong {
                tick: world.tick(),
                len: inputs.len() as u64,
            });
        }
        let tick = world.tick();
        let digest = state_digest(world.bodies());
        self.chunk(
            CHUNK_TICK,
            &[&tick.to_le_bytes(), &digest.to_le_bytes(), inputs],
        )?;
        if (tick - self.start_tick) % self.keyframe_every == 0 {
            let delta = world.snapshot_delta(&self.baseline, self.key.as_ref());
            let keyframe = match &self.level {
                Some(level) => {
                    let linked = world
                        .snapshot_linked(Some(level), self.key.as_ref())
                        .map_err(ReplayError::Snapshot)?;
                    if linked.len() < delta.len() {
                        linked
                    } else {
                        delta
                    }
                }
                None => delta,
            };
            self.baseline = world.baseline();
            self.chunk(CHUNK_KEYFRAME, &[&keyframe])?;
        }
        Ok(())
    }

    /// Records an event (its text cut to [`crate::MAX_EVENT_TEXT`] bytes, at a character
    /// boundary).
    pub fn event(&mut self, event: &ReplayEvent) -> Result<(), ReplayError> {
        self.chunk(CHUNK_EVENT, &[&event_parts(event)])
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes one chunk, in one write.
    fn chunk(&mut self, kind: u8, parts: &[&[u8]]) -> Result<(), ReplayError> {
        let bytes = frame_chunk(kind, parts, &mut self.chain, self.key.as_ref());
        self.emit(&bytes)
    }

    /// Writes `bytes` and flushes them.
    fn emit(&mut self, bytes: &[u8]) -> Result<(), ReplayError> {
        self.out
            .write_all(bytes)
            .and_then(|()| self.out.flush())
            .map_err(|e| ReplayError::Write(e.to_string()))?;
        self.written += bytes.len() as u64;
        Ok(())
    }
}
