//! The wire format: length-prefixed frames over TCP, each one message encoded with bincode 1.3.
//!
//! A frame is a little-endian `u32` length followed by that many bytes. Every length read from
//! the socket is bounded by [`MAX_FRAME`] before anything is allocated, and a message is decoded
//! with bincode's own size limit, so a peer sending garbage gets a typed error, never a panic or
//! an unbounded allocation. Plain `std::net` with blocking sockets: the server is one lockstep
//! loop with a reader thread per client, which needs no async runtime.

use std::io::{Read, Write};

use bincode::Options;
use rapier_pinned::GameSettings;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::inputs::Input;

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
    /// The length prefix exceeds [`MAX_FRAME`].
    TooLarge(u32),
    /// The frame is not a message of this protocol.
    Undecodable(String),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Io(e) => write!(f, "connection: {e}"),
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
    out.write_all(&len.to_le_bytes())?;
    out.write_all(&bytes)?;
    out.flush()
}

/// Reads one frame and decodes it.
pub fn receive<T: DeserializeOwned>(input: &mut impl Read) -> Result<T, WireError> {
    let mut len = [0; 4];
    input.read_exact(&mut len).map_err(WireError::Io)?;
    let len = u32::from_le_bytes(len);
    if len > MAX_FRAME {
        return Err(WireError::TooLarge(len));
    }
    let mut bytes = vec![0; len as usize];
    input.read_exact(&mut bytes).map_err(WireError::Io)?;
    let mut de = bincode::Deserializer::from_slice(&bytes, codec().reject_trailing_bytes());
    let msg = T::deserialize(&mut de).map_err(|e| WireError::Undecodable(e.to_string()))?;
    Ok(msg)
}
