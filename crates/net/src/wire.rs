//! The wire format: length-prefixed frames over TCP, each one message encoded with bincode 1.3.
//!
//! A frame is the magic [`MAGIC`], the protocol version [`PROTOCOL_VERSION`] (u16 little-endian),
//! a little-endian `u32` length, then that many bytes. A peer of another protocol, or not of
//! this one at all, is told apart by its first frame's first six bytes. Every length read from
//! the socket is bounded by [`MAX_FRAME`] before anything is allocated, and a message is decoded
//! with bincode's own size limit, so a peer sending garbage gets a typed error, never a panic or
//! an unbounded allocation. Plain `std::net` with blocking sockets: the server is one lockstep
//! loop with a reader thread per client, which needs no async runtime.

use std::io::{Read, Write};

use bincode::Options;
use rapier_pinned::GameSettings;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::inputs::Input;

/// The first bytes of every frame.
pub const MAGIC: [u8; 4] = *b"RPNW";
/// The wire protocol's version, after the magic: a change of any message is a new version.
pub const PROTOCOL_VERSION: u16 = 1;

/// The largest frame either side accepts: a snapshot of the 5,000-body scene fits.
pub const MAX_FRAME: u32 = 64 << 20;

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// The first message: the client's physics-version, match and game settings (the server
    /// refuses any that differ from its own, naming each); `resume` when it already holds the
    /// world (reconnecting after a host migration); `sends_inputs` when it sends its player's
    /// inputs for every tick (a bot: an unpaced server waits for them).
    Hello {
        physics_version: u32,
        match_id: u64,
        settings: GameSettings,
        resume: Option<Resume>,
        sends_inputs: bool,
    },
    /// The inputs of the client's player for `tick` (applied before stepping into it).
    Inputs { tick: u64, inputs: Vec<Input> },
    /// The client's state digest after stepping `tick`.
    Digest { tick: u64, digest: u64 },
}

/// A reconnection after a host migration: the client holds the world at `tick` and held
/// `player` (`None`: a spectator), which the new host gives back.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resume {
    pub tick: u64,
    pub player: Option<u32>,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ServerMsg {
    /// The world at `tick` as a pinned snapshot; ticks after it follow. The client reports its
    /// digest every `digest_every` ticks, plays `player` (`None`: a spectator) and sends its
    /// inputs `input_delay` ticks ahead.
    Welcome {
        tick: u64,
        digest_every: u64,
        player: Option<u32>,
        input_delay: u64,
        snapshot: Vec<u8>,
    },
    /// A reconnecting client's world is the server's at `tick`; ticks after it follow, as after
    /// a welcome.
    Resumed {
        tick: u64,
        digest_every: u64,
        player: Option<u32>,
        input_delay: u64,
    },
    /// The hello is refused; the connection closes.
    Refused { reason: String },
    /// The client's inputs for `tick` are refused; the session goes on.
    InputRefused { tick: u64, reason: String },
    /// Step `tick` after applying `inputs`: every player's confirmed inputs, in player order.
    Tick { tick: u64, inputs: Vec<Input> },
    /// The client's digest for `tick` is not the server's: the session ends.
    Diverged { tick: u64, server: u64, client: u64 },
    /// The match moves to the server at `addr`, which holds it at `tick`: reconnect there.
    Migrate { addr: String, tick: u64 },
    /// The match ended after `tick` with the server's digest.
    Bye { tick: u64, digest: u64 },
}

/// Why a frame could not be read or decoded.
#[derive(Debug)]
pub enum WireError {
    /// The socket failed or closed.
    Io(std::io::Error),
    /// The frame does not start with [`MAGIC`] (the four bytes found).
    BadMagic([u8; 4]),
    /// The frame's protocol version is not [`PROTOCOL_VERSION`].
    UnknownVersion(u16),
    /// The length prefix exceeds [`MAX_FRAME`].
    TooLarge(u32),
    /// The frame is not a message of this protocol.
    Undecodable(String),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Io(e) => write!(f, "connection: {e}"),
            WireError::BadMagic(m) => write!(f, "not a rapier-pinned frame (first bytes {m:02x?})"),
            WireError::UnknownVersion(v) => write!(
                f,
                "wire protocol version {v}; this build speaks version {PROTOCOL_VERSION}"
            ),
            WireError::TooLarge(n) => write!(f, "frame of {n} bytes exceeds the limit {MAX_FRAME}"),
            WireError::Undecodable(e) => write!(f, "undecodable message: {e}"),
        }
    }
}

/// The one bincode configuration of the wire: `bincode::serialize`'s encoding, bounded.
fn codec() -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .allow_trailing_bytes()
        .with_limit(MAX_FRAME as u64)
}

/// Writes `msg` as one frame.
pub fn send<T: Serialize>(out: &mut impl Write, msg: &T) -> std::io::Result<()> {
    let bytes = codec().serialize(msg).map_err(std::io::Error::other)?;
    let len = u32::try_from(bytes.len())
        .ok()
        .filter(|n| *n <= MAX_FRAME)
        .ok_or_else(|| std::io::Error::other("message larger than a frame"))?;
    out.write_all(&MAGIC)?;
    out.write_all(&PROTOCOL_VERSION.to_le_bytes())?;
    out.write_all(&len.to_le_bytes())?;
    out.write_all(&bytes)?;
    out.flush()
}

/// Reads one frame and decodes it.
pub fn receive<T: DeserializeOwned>(input: &mut impl Read) -> Result<T, WireError> {
    let mut header = [0; 10];
    input.read_exact(&mut header).map_err(WireError::Io)?;
    let magic: [u8; 4] = header[..4].try_into().expect("4 bytes");
    if magic != MAGIC {
        return Err(WireError::BadMagic(magic));
    }
    let version = u16::from_le_bytes([header[4], header[5]]);
    if version != PROTOCOL_VERSION {
        return Err(WireError::UnknownVersion(version));
    }
    let len = u32::from_le_bytes(header[6..].try_into().expect("4 bytes"));
    if len > MAX_FRAME {
        return Err(WireError::TooLarge(len));
    }
    let mut bytes = vec![0; len as usize];
    input.read_exact(&mut bytes).map_err(WireError::Io)?;
    let mut de = bincode::Deserializer::from_slice(&bytes, codec().reject_trailing_bytes());
    let msg = T::deserialize(&mut de).map_err(|e| WireError::Undecodable(e.to_string()))?;
    Ok(msg)
}
