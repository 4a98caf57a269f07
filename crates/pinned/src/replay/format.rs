//! The replay file's constants, header and chunk framing (`docs/protocol.md` §7).

use crate::config::WorldConfig;
use crate::level::LevelId;
use crate::physics_version::PhysicsVersion;
use crate::settings::GameSettings;
use crate::snapshot::SnapshotKey;

/// The first 8 bytes of every replay file.
pub const REPLAY_MAGIC: [u8; 8] = *b"RPINRPLY";
/// The replay format version this build writes and reads.
pub const REPLAY_FORMAT: u16 = 1;
/// Header flag bit 0: every chunk (and the header) carries a MAC made with the fleet key.
pub const REPLAY_FLAG_MAC: u16 = 1;
/// Bytes of the header's fixed fields, before the input format's name.
pub const FIXED_HEADER_LEN: usize = 115;
/// Longest name of an input encoding (ASCII).
pub const MAX_INPUT_FORMAT: usize = 64;
/// Most bytes of inputs one tick record may hold.
pub const MAX_INPUT_BYTES: usize = 1 << 16;
/// Most bytes of an event's text (UTF-8).
pub const MAX_EVENT_TEXT: usize = 1024;
/// Bytes of a chunk's frame before its body: kind (1) and body length (u32).
pub const CHUNK_HEAD: usize = 5;
/// Bytes of a checksum, and of a MAC.
pub const SUM_LEN: usize = 32;

/// Chunk kind: the starting snapshot (format 1, or 3 on a level), exactly once, first.
pub const CHUNK_START: u8 = 1;
/// Chunk kind: one tick's record.
pub const CHUNK_TICK: u8 = 2;
/// Chunk kind: a keyframe, the world after the tick record before it (format 4 against the
/// previous keyframe's world, or, on a level, format 3 when that is smaller; a reader takes
/// formats 1-4).
pub const CHUNK_KEYFRAME: u8 = 3;
/// Chunk kind: an event of the match.
pub const CHUNK_EVENT: u8 = 4;

/// The input encoding of the reference server's (`rapier-pinned-net`) seat inputs: every
/// player's confirmed `Vec<Input>` of the tick, in bincode.
pub const NET_INPUTS: &str = "rapier-pinned-net/inputs-1";

/// What a replay's header says: the world config, whether it is authenticated, how often it
/// keeps a keyframe and how its inputs are encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayHeader {
    /// Whether every chunk carries a MAC ([`REPLAY_FLAG_MAC`]).
    pub authenticated: bool,
    /// The match's physics-version.
    pub physics_version: PhysicsVersion,
    /// The match id.
    pub match_id: u64,
    /// The game's settings.
    pub settings: GameSettings,
    /// The level the match is on, if any.
    pub level: Option<LevelId>,
    /// The config digest of the world (`docs/protocol.md` §2): a reader checks it against the
    /// config it makes of the fields above.
    pub config_digest: [u8; 32],
    /// A keyframe follows every tick record whose tick is a multiple of this (≥ 1) after the
    /// start's.
    pub keyframe_every: u32,
    /// The name of the inputs' encoding (ASCII, at most [`MAX_INPUT_FORMAT`] bytes): which
    /// game decodes them, e.g. [`NET_INPUTS`].
    pub input_format: String,
}

impl ReplayHeader {
    /// The header of a replay of a world under `config`.
    pub fn new(
        config: &WorldConfig,
        keyframe_every: u32,
        input_format: &str,
        authenticated: bool,
    ) -> Self {
        Self {
            authenticated,
            physics_version: config.physics_version(),
            match_id: config.match_id(),
            settings: config.settings(),
            level: config.level(),
            config_digest: config.digest(),
            keyframe_every,
            input_format: input_format.to_string(),
        }
    }

    /// The header's bytes, without its checksum.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FIXED_HEADER_LEN + self.input_format.len());
        out.extend_from_slice(&REPLAY_MAGIC);
        out.extend_from_slice(&REPLAY_FORMAT.to_le_bytes());
        let flags = if self.authenticated {
            REPLAY_FLAG_MAC
        } else {
            0
        };
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&self.physics_version.get().to_le_bytes());
        out.extend_from_slice(&self.match_id.to_le_bytes());
        for g in self.settings.gravity {
            out.extend_from_slice(&g.to_bits().to_le_bytes());
        }
        out.extend_from_slice(&self.settings.tick_hz.to_le_bytes());
        out.extend_from_slice(&self.settings.length_unit.to_bits().to_le_bytes());
        out.push(u8::from(self.level.is_some()));
        out.extend_from_slice(&self.level.map_or([0; 32], |l| l.0));
        out.extend_from_slice(&self.config_digest);
        out.extend_from_slice(&self.keyframe_every.to_le_bytes());
        out.extend_from_slice(&(self.input_format.len() as u16).to_le_bytes());
        out.extend_from_slice(self.input_format.as_bytes());
        out
    }
}

/// An event of the match, at the tick the world was at when it happened (before the next
/// step).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayEvent {
    /// The world's tick.
    pub tick: u64,
    /// What happened.
    pub kind: EventKind,
    /// The client's number in the server's log (`client#N`).
    pub client: u32,
    /// Its seat (`None`: a spectator, or none yet).
    pub seat: Option<u32>,
    /// The log's words for it (a refusal's reason), at most [`MAX_EVENT_TEXT`] bytes.
    pub text: String,
}

/// What an event records.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A client joined (late joiners included), seated as [`ReplayEvent::seat`].
    Joined = 1,
    /// A client's hello was refused (a player's: another version, settings, match or level).
    Refused = 2,
    /// A client's inputs were refused.
    InputRefused = 3,
    /// A client left, or was dropped.
    Left = 4,
    /// A client's digest differed from the server's (the server dropped it).
    Diverged = 5,
}

impl EventKind {
    /// The kind with this code.
    pub(crate) fn from_code(code: u8) -> Option<Self> {
        [
            Self::Joined,
            Self::Refused,
            Self::InputRefused,
            Self::Left,
            Self::Diverged,
        ]
        .into_iter()
        .find(|k| *k as u8 == code)
    }
}

/// The chained checksum of a chunk (or, with `previous` empty, of the header): BLAKE3 of the
/// previous checksum followed by the chunk's bytes.
pub(crate) fn chain(previous: &[u8], bytes: &[&[u8]]) -> [u8; 32] {
    let mut hasher = blake3::Hasher::new();
    hasher.update(previous);
    for b in bytes {
        hasher.update(b);
    }
    *hasher.finalize().as_bytes()
}

/// The header's bytes framed: its bytes, checksum and (with a key) MAC; and the checksum, the
/// chain's seed.
pub(crate) fn frame_header(
    header: &ReplayHeader,
    key: Option<&SnapshotKey>,
) -> (Vec<u8>, [u8; 32]) {
    let mut bytes = header.encode();
    let sum = chain(&[], &[&bytes]);
    bytes.extend_from_slice(&sum);
    if let Some(key) = key {
        bytes.extend_from_slice(&mac(key, &sum));
    }
    (bytes, sum)
}

/// One chunk's bytes: kind, body length, the body (`parts` in order), the checksum chained on
/// `chain` (which becomes this chunk's), and (with a key) the MAC.
pub(crate) fn frame_chunk(
    kind: u8,
    parts: &[&[u8]],
    chain_sum: &mut [u8; 32],
    key: Option<&SnapshotKey>,
) -> Vec<u8> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let mut bytes = Vec::with_capacity(CHUNK_HEAD + len + 2 * SUM_LEN);
    bytes.push(kind);
    bytes.extend_from_slice(&(len as u32).to_le_bytes());
    for p in parts {
        bytes.extend_from_slice(p);
    }
    *chain_sum = chain(chain_sum, &[&bytes]);
    bytes.extend_from_slice(chain_sum);
    if let Some(key) = key {
        bytes.extend_from_slice(&mac(key, chain_sum));
    }
    bytes
}

/// The body of an event chunk, its text cut to [`MAX_EVENT_TEXT`] bytes at a character
/// boundary.
pub(crate) fn event_parts(event: &ReplayEvent) -> Vec<u8> {
    let mut end = event.text.len().min(MAX_EVENT_TEXT);
    while !event.text.is_char_boundary(end) {
        end -= 1;
    }
    let mut body = Vec::with_capacity(17 + end);
    body.extend_from_slice(&event.tick.to_le_bytes());
    body.push(event.kind as u8);
    body.extend_from_slice(&event.client.to_le_bytes());
    body.extend_from_slice(&event.seat.unwrap_or(u32::MAX).to_le_bytes());
    body.extend_from_slice(&event.text.as_bytes()[..end]);
    body
}

/// The MAC of a checksum: BLAKE3 keyed with the fleet key.
pub(crate) fn mac(key: &SnapshotKey, checksum: &[u8; 32]) -> [u8; 32] {
    *blake3::keyed_hash(key.bytes(), checksum).as_bytes()
}
