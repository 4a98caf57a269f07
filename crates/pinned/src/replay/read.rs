//! Reading a replay file: [`Replay::read`] checks the header, every chunk's chained checksum
//! (and MAC, with a key) and order, and reports a torn tail instead of failing on it. It
//! allocates nothing beyond copies of the file's own bytes, so a file's size bounds it; the
//! snapshots inside are only framed and checksummed here, and fully checked when a world is
//! restored from them ([`Replay::start_world`], [`Replay::keyframe_world`]).

use crate::config::WorldConfig;
use crate::format::{FORMAT_VERSION_4, HEADER_LEN, PAYLOAD_LIMIT};
use crate::level::{Level, LevelId};
use crate::physics_version::PhysicsVersion;
use crate::replay::format::{
    chain, event_parts, frame_chunk, frame_header, mac, EventKind, ReplayEvent, ReplayHeader,
    CHUNK_EVENT, CHUNK_HEAD, CHUNK_KEYFRAME, CHUNK_START, CHUNK_TICK, FIXED_HEADER_LEN,
    MAX_EVENT_TEXT, MAX_INPUT_BYTES, MAX_INPUT_FORMAT, REPLAY_FLAG_MAC, REPLAY_FORMAT,
    REPLAY_MAGIC, SUM_LEN,
};
use crate::replay::ReplayError;
use crate::settings::GameSettings;
use crate::snapshot::{self, SnapshotKey};
use crate::world::PinnedWorld;

/// A replay file read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The header.
    pub header: ReplayHeader,
    /// The starting snapshot (format 1, or 3 on a level).
    pub start: Vec<u8>,
    /// The start's tick.
    pub start_tick: u64,
    /// The tick records, one per tick from the start's tick + 1, in order.
    pub ticks: Vec<TickRecord>,
    /// The keyframes: tick and snapshot (a delta against the keyframe before it, the first
    /// against the start; on a level, format 3 where that was smaller), in order.
    pub keyframes: Vec<(u64, Vec<u8>)>,
    /// The events, in order.
    pub events: Vec<ReplayEvent>,
    /// Where the file ends inside a chunk (a recording cut short), if it does.
    pub tear: Option<Tear>,
    /// Bytes of the file by part.
    pub sizes: Sizes,
}

/// One tick's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TickRecord {
    /// The tick the step reached.
    pub tick: u64,
    /// The state digest after the step.
    pub digest: u64,
    /// The inputs applied before the step, in the header's input format.
    pub inputs: Vec<u8>,
}

/// An incomplete last chunk: the file was cut while it was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tear {
    /// The chunk's offset in the file.
    pub offset: u64,
    /// Bytes of it the file holds.
    pub len: u64,
}

/// Bytes of a replay file by part (framing included).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    /// The header.
    pub header: u64,
    /// The start chunk.
    pub start: u64,
    /// Every tick record.
    pub ticks: u64,
    /// Every keyframe.
    pub keyframes: u64,
    /// Every event.
    pub events: u64,
    /// The torn tail.
    pub tear: u64,
}

/// Reads little-endian integers at fixed offsets of a slice the caller sized.
fn le<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    bytes[at..at + N]
        .try_into()
        .expect("the caller checked the length")
}

impl Replay {
    /// Reads a replay file: refuses it whole on any [`ReplayError`]; a file cut inside a chunk
    /// after the start is read up to that chunk, the cut reported in [`Self::tear`]. With
    /// `key`, the file must carry MACs made with it; without, MACs are not checked (the
    /// checksums are).
    pub fn read(bytes: &[u8], key: Option<&SnapshotKey>) -> Result<Self, ReplayError> {
        let (header, mut at, mut sum) = read_header(bytes, key)?;
        let trailer = SUM_LEN * if header.authenticated { 2 } else { 1 };
        let mut replay = Replay {
            header,
            start: Vec::new(),
            start_tick: 0,
            ticks: Vec::new(),
            keyframes: Vec::new(),
            events: Vec::new(),
            tear: None,
            sizes: Sizes {
                header: at as u64,
                ..Sizes::default()
            },
        };
        let mut chunk = 0u64;
        while at < bytes.len() {
            chunk += 1;
            let offset = at as u64;
            let rest = &bytes[at..];
            if rest.len() < CHUNK_HEAD {
                replay.torn(chunk, offset, rest.len())?;
                break;
            }
            let kind = rest[0];
            let len = u64::from(u32::from_le_bytes(le(rest, 1)));
            let limit = match kind {
                CHUNK_START | CHUNK_KEYFRAME => HEADER_LEN as u64 + PAYLOAD_LIMIT,
                CHUNK_TICK => 16 + MAX_INPUT_BYTES as u64,
                CHUNK_EVENT => 17 + MAX_EVENT_TEXT as u64,
                _ => {
                    return Err(ReplayError::UnknownChunk {
                        chunk,
                        offset,
                        kind,
                    })
                }
            };
            if len > limit {
                return Err(ReplayError::ChunkTooLong {
                    chunk,
                    offset,
                    len,
                    limit,
                });
            }
            let framed = CHUNK_HEAD + len as usize;
            if rest.len() < framed + trailer {
                replay.torn(chunk, offset, rest.len())?;
                break;
            }
            let next = chain(&sum, &[&rest[..framed]]);
            if rest[framed..framed + SUM_LEN] != next {
                return Err(ReplayError::ChunkChecksum { chunk, offset });
            }
            if let (Some(key), true) = (key, replay.header.authenticated) {
                if rest[framed + SUM_LEN..framed + trailer] != mac(key, &next) {
                    return Err(ReplayError::BadMac { chunk, offset });
                }
            }
            sum = next;
            let body = &rest[CHUNK_HEAD..framed];
            replay.take(chunk, offset, kind, body)?;
            let size = (framed + trailer) as u64;
            match kind {
                CHUNK_START => replay.sizes.start += size,
                CHUNK_TICK => replay.sizes.ticks += size,
                CHUNK_KEYFRAME => replay.sizes.keyframes += size,
                _ => replay.sizes.events += size,
            }
            at += framed + trailer;
        }
        if replay.start.is_empty() {
            return Err(ReplayError::NoStart {
                len: bytes.len() as u64,
            });
        }
        Ok(replay)
    }

    /// The tick the match had reached when the file ends (the last record's, or the start's).
    pub fn last_tick(&self) -> u64 {
        self.ticks.last().map_or(self.start_tick, |t| t.tick)
    }

    /// The config of the recorded match, checked against the header's digest.
    pub fn config(&self) -> Result<WorldConfig, ReplayError> {
        self.config_as(self.header.physics_version)
    }

    /// The recorded match's config under physics-version `version` instead of its own
    /// (the same settings, match and level): what `replay verify --under` re-steps with. Only
    /// the recorded version's is checked against the header's digest.
    pub fn config_as(&self, version: PhysicsVersion) -> Result<WorldConfig, ReplayError> {
        let h = &self.header;
        let config = WorldConfig::new(version)
            .map_err(|_| ReplayError::UnknownPhysicsVersion(version))?
            .with_settings(h.settings)
            .map_err(ReplayError::Config)?
            .with_match_id(h.match_id);
        let config = match h.level {
            Some(level) => config.with_level(level),
            None => config,
        };
        if version == h.physics_version && config.digest() != h.config_digest {
            return Err(ReplayError::ConfigDigest);
        }
        Ok(config)
    }

    /// The world at the start, restored with every check of a snapshot restore (on `level`
    /// when the match is on one).
    pub fn start_world(
        &self,
        level: Option<&Level>,
        key: Option<&SnapshotKey>,
    ) -> Result<PinnedWorld, ReplayError> {
        PinnedWorld::restore_on(self.config()?, level, &self.start, key)
            .map_err(ReplayError::Snapshot)
    }

    /// The world at keyframe `index`, on `level` when the match is on one, `start` being the
    /// world [`Self::start_world`] gave: a keyframe that is a delta needs the one before it, so
    /// this restores from the last keyframe at or before `index` that is not one (or from the
    /// start).
    pub fn keyframe_world(
        &self,
        index: usize,
        start: &PinnedWorld,
        level: Option<&Level>,
        key: Option<&SnapshotKey>,
    ) -> Result<PinnedWorld, ReplayError> {
        let first = (0..=index).rev().find(|&i| !self.is_delta(i)).unwrap_or(0);
        let mut world = self.next_keyframe(first, start, level, key)?;
        for i in first + 1..=index {
            world = self.next_keyframe(i, &world, level, key)?;
        }
        Ok(world)
    }

    /// The world at keyframe `index`: a delta restored against `previous` (the world of
    /// keyframe `index - 1`, or, for the first, the start's), any other snapshot on its own (on
    /// `level`).
    pub fn next_keyframe(
        &self,
        index: usize,
        previous: &PinnedWorld,
        level: Option<&Level>,
        key: Option<&SnapshotKey>,
    ) -> Result<PinnedWorld, ReplayError> {
        let (_, bytes) = &self.keyframes[index];
        let config = *previous.config();
        match self.is_delta(index) {
            true => PinnedWorld::restore_delta(config, &previous.baseline(), bytes, key),
            false => PinnedWorld::restore_on(config, level, bytes, key),
        }
        .map_err(ReplayError::Snapshot)
    }

    /// Whether keyframe `index` is a delta (format 4): its header's format, not hashed again
    /// (the reader checked the whole snapshot's framing; a restore checks it all).
    fn is_delta(&self, index: usize) -> bool {
        let format = snapshot::frame(&self.keyframes[index].1).map(|i| i.format_version);
        format == Ok(FORMAT_VERSION_4)
    }

    /// The replay framed again, with `key`'s MACs when given: the same bytes as the file it
    /// was read from (without its tear), or, after a test edited it, a file whose checksums are
    /// right for the edit. Chunks go in the writer's order: the start, then the start tick's
    /// events, then per tick its record, its keyframe and its events.
    pub fn seal(&self, key: Option<&SnapshotKey>) -> Vec<u8> {
        let header = ReplayHeader {
            authenticated: key.is_some(),
            ..self.header.clone()
        };
        let (mut out, mut sum) = frame_header(&header, key);
        out.extend(frame_chunk(CHUNK_START, &[&self.start], &mut sum, key));
        let (mut keyframes, mut events) = (
            self.keyframes.iter().peekable(),
            self.events.iter().peekable(),
        );
        let mut after = |tick: u64, out: &mut Vec<u8>, sum: &mut [u8; 32]| {
            while let Some((_, k)) = keyframes.next_if(|(t, _)| *t == tick) {
                out.extend(frame_chunk(CHUNK_KEYFRAME, &[k], sum, key));
            }
            while let Some(e) = events.next_if(|e| e.tick == tick) {
                out.extend(frame_chunk(CHUNK_EVENT, &[&event_parts(e)], sum, key));
            }
        };
        after(self.start_tick, &mut out, &mut sum);
        for t in &self.ticks {
            let parts: [&[u8]; 3] = [&t.tick.to_le_bytes(), &t.digest.to_le_bytes(), &t.inputs];
            out.extend(frame_chunk(CHUNK_TICK, &parts, &mut sum, key));
            after(t.tick, &mut out, &mut sum);
        }
        out
    }

    /// A file that ends inside chunk `chunk` (at `offset`, `len` bytes of it): the tear,
    /// unless the start is not complete yet.
    fn torn(&mut self, chunk: u64, offset: u64, len: usize) -> Result<(), ReplayError> {
        if chunk == 1 {
            return Err(ReplayError::NoStart {
                len: offset + len as u64,
            });
        }
        self.tear = Some(Tear {
            offset,
            len: len as u64,
        });
        self.sizes.tear = len as u64;
        Ok(())
    }

    /// Takes the body of a complete, verified chunk.
    fn take(&mut self, chunk: u64, offset: u64, kind: u8, body: &[u8]) -> Result<(), ReplayError> {
        let malformed = |what| ReplayError::Malformed {
            chunk,
            offset,
            what,
        };
        let now = self.last_tick();
        if (kind == CHUNK_START) != (chunk == 1) {
            return Err(ReplayError::StartPlace { chunk });
        }
        let order = |what, found| {
            if found == now {
                Ok(())
            } else {
                Err(ReplayError::OutOfOrder {
                    chunk,
                    what,
                    expected: now,
                    found,
                })
            }
        };
        match kind {
            CHUNK_START => {
                self.start_tick = self.snapshot_tick(chunk, offset, body, false)?;
                self.start = body.to_vec();
            }
            CHUNK_TICK => {
                if body.len() < 16 {
                    return Err(malformed("tick record"));
                }
                let tick = u64::from_le_bytes(le(body, 0));
                if tick != now + 1 {
                    return Err(ReplayError::OutOfOrder {
                        chunk,
                        what: "tick record",
                        expected: now + 1,
                        found: tick,
                    });
                }
                self.ticks.push(TickRecord {
                    tick,
                    digest: u64::from_le_bytes(le(body, 8)),
                    inputs: body[16..].to_vec(),
                });
            }
            CHUNK_KEYFRAME => {
                let tick = self.snapshot_tick(chunk, offset, body, true)?;
                order("keyframe", tick)?;
                self.keyframes.push((tick, body.to_vec()));
            }
            _ => {
                if body.len() < 17 {
                    return Err(malformed("event"));
                }
                let tick = u64::from_le_bytes(le(body, 0));
                order("event", tick)?;
                let kind = EventKind::from_code(body[8]).ok_or(malformed("event kind"))?;
                let seat = u32::from_le_bytes(le(body, 13));
                let text = std::str::from_utf8(&body[17..]).map_err(|_| malformed("event text"))?;
                self.events.push(ReplayEvent {
                    tick,
                    kind,
                    client: u32::from_le_bytes(le(body, 9)),
                    seat: (seat != u32::MAX).then_some(seat),
                    text: text.to_string(),
                });
            }
        }
        Ok(())
    }

    /// The tick of the snapshot in a start or keyframe chunk, after checking its framing and
    /// checksum, and that it is of this match (a start may not be a delta).
    fn snapshot_tick(
        &self,
        chunk: u64,
        offset: u64,
        body: &[u8],
        delta: bool,
    ) -> Result<u64, ReplayError> {
        let refused = |source| ReplayError::ChunkSnapshot { chunk, source };
        let info = snapshot::inspect(body).map_err(refused)?;
        let h = &info.header;
        if h.physics_version != self.header.physics_version {
            return Err(refused(crate::Error::PhysicsVersionMismatch {
                snapshot: h.physics_version,
                world: self.header.physics_version,
            }));
        }
        if h.config_digest != self.header.config_digest {
            return Err(refused(crate::Error::ConfigDigestMismatch {
                snapshot: h.config_digest,
                world: self.header.config_digest,
            }));
        }
        if !delta && info.format_version == FORMAT_VERSION_4 {
            return Err(ReplayError::Malformed {
                chunk,
                offset,
                what: "start (a delta has no baseline to restore against)",
            });
        }
        Ok(h.tick)
    }
}

/// The header: its fields, where the first chunk starts, and its checksum (the chain's seed).
fn read_header(
    bytes: &[u8],
    key: Option<&SnapshotKey>,
) -> Result<(ReplayHeader, usize, [u8; 32]), ReplayError> {
    let torn = || ReplayError::HeaderTorn {
        len: bytes.len() as u64,
    };
    let magic = bytes.len().min(REPLAY_MAGIC.len());
    if bytes[..magic] != REPLAY_MAGIC[..magic] {
        return Err(ReplayError::BadMagic);
    }
    if bytes.len() < FIXED_HEADER_LEN {
        return Err(torn());
    }
    let format = u16::from_le_bytes(le(bytes, 8));
    if format != REPLAY_FORMAT {
        return Err(ReplayError::UnknownFormat(format));
    }
    let flags = u16::from_le_bytes(le(bytes, 10));
    if flags & !REPLAY_FLAG_MAC != 0 {
        return Err(ReplayError::UnknownFlags(flags));
    }
    let authenticated = flags & REPLAY_FLAG_MAC != 0;
    let name_len = usize::from(u16::from_le_bytes(le(bytes, 113)));
    if name_len > MAX_INPUT_FORMAT {
        return Err(ReplayError::InputFormatName {
            len: name_len as u64,
        });
    }
    let end = FIXED_HEADER_LEN + name_len;
    let trailer = SUM_LEN * if authenticated { 2 } else { 1 };
    if bytes.len() < end + trailer {
        return Err(torn());
    }
    let sum = chain(&[], &[&bytes[..end]]);
    if bytes[end..end + SUM_LEN] != sum {
        return Err(ReplayError::HeaderChecksum);
    }
    match (key, authenticated) {
        (Some(_), false) => return Err(ReplayError::MacMissing),
        (Some(key), true) if bytes[end + SUM_LEN..end + trailer] != mac(key, &sum) => {
            return Err(ReplayError::BadMac {
                chunk: 0,
                offset: 0,
            })
        }
        _ => {}
    }
    let name = &bytes[FIXED_HEADER_LEN..end];
    if !name.is_ascii() {
        return Err(ReplayError::InputFormatName {
            len: name_len as u64,
        });
    }
    let level_id: [u8; 32] = le(bytes, 45);
    let level = match bytes[44] {
        0 if level_id == [0; 32] => None,
        1 => Some(LevelId(level_id)),
        _ => return Err(ReplayError::BadLevelField),
    };
    let keyframe_every = u32::from_le_bytes(le(bytes, 109));
    if keyframe_every == 0 {
        return Err(ReplayError::KeyframeEvery);
    }
    let f32_at = |at| f32::from_bits(u32::from_le_bytes(le(bytes, at)));
    let header = ReplayHeader {
        authenticated,
        physics_version: PhysicsVersion::new(u32::from_le_bytes(le(bytes, 12))),
        match_id: u64::from_le_bytes(le(bytes, 16)),
        settings: GameSettings {
            gravity: [f32_at(24), f32_at(28), f32_at(32)],
            tick_hz: u32::from_le_bytes(le(bytes, 36)),
            length_unit: f32_at(40),
        },
        level,
        config_digest: le(bytes, 77),
        keyframe_every,
        input_format: String::from_utf8_lossy(name).into_owned(),
    };
    Ok((header, end + trailer, sum))
}
