//! The wire format: length-prefixed frames over TCP, each one message encoded with bincode 1.3.
//! Over a WebSocket (`rapier-pinned serve --ws`) each binary message is one whole frame, the same
//! bytes: [`encode_frame`] and [`decode_frame`] work on such buffers, [`send`] and [`receive`] on
//! streams, with the same checks.
//!
//! A frame is the magic [`MAGIC`], the protocol version [`PROTOCOL_VERSION`] (u16 little-endian),
//! a little-endian `u32` length, then that many bytes. A peer of another protocol, or not of
//! this one at all, is told apart by its first frame's first six bytes. Every length read from
//! the socket is bounded by [`MAX_FRAME`] before anything is allocated (a client's message, read
//! by the server, by [`MAX_CLIENT_FRAME`]: [`read_client_frame`]), and a message is decoded
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
/// Version 2 (issue 45): the hello and the welcome name the match's level.
pub const PROTOCOL_VERSION: u16 = 2;

/// The largest frame either side accepts: a snapshot of the 5,000-body scene fits.
pub const MAX_FRAME: u32 = 64 << 20;

/// The largest payload of a client's message the server (and the WebSocket bridge) accepts:
/// 64 KiB, far above the largest real one (a hello, about 400 bytes; inputs refused past
/// [`crate::inputs::MAX_INPUTS`] fit too), so a peer cannot make the server buffer
/// [`MAX_FRAME`] bytes before it has even said hello.
pub const MAX_CLIENT_FRAME: u32 = 64 << 10;

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// The first message: the client's physics-version, match and game settings (the server
    /// refuses any that differ from its own, naming each); `resume` when it already holds the
    /// world (reconnecting after a host migration); `sends_inputs` when it sends its player's
    /// inputs for every tick (a bot: an unpaced server waits for them).
    Hello {
        /// The number of the client's [`rapier_pinned::PhysicsVersion`]. The wire keeps the bare
        /// `u32` (a `PhysicsVersion` would serialize to the same bytes): the messages stay the
        /// protocol's plain schema, their `Debug` too, which the server logs for an unexpected
        /// message. Converted at the two ends: [`crate::client::Lockstep::hello`] and the
        /// server's handshake.
        physics_version: u32,
        match_id: u64,
        settings: GameSettings,
        resume: Option<Resume>,
        sends_inputs: bool,
        /// The id of the level the client's world is on, whose bytes it holds
        /// ([`rapier_pinned::Level`]); `None`: no level.
        level: Option<[u8; 32]>,
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
    /// The world at `tick` as a pinned snapshot (format 3, linked to the match's `level` when it
    /// is on one); ticks after it follow. The client reports its digest every `digest_every`
    /// ticks, plays `player` (`None`: a spectator) and sends its inputs `input_delay` ticks ahead.
    Welcome {
        tick: u64,
        digest_every: u64,
        player: Option<u32>,
        input_delay: u64,
        level: Option<[u8; 32]>,
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
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// The socket failed or closed.
    #[error("connection: {0}")]
    Io(#[source] std::io::Error),
    /// The frame does not start with [`MAGIC`] (the four bytes found).
    #[error("not a rapier-pinned frame (first bytes {0:02x?})")]
    BadMagic([u8; 4]),
    /// The frame's protocol version is not [`PROTOCOL_VERSION`].
    #[error("wire protocol version {0}; this build speaks version {PROTOCOL_VERSION}")]
    UnknownVersion(u16),
    /// The length prefix exceeds [`MAX_FRAME`].
    #[error("frame of {0} bytes exceeds the limit {MAX_FRAME}")]
    TooLarge(u32),
    /// The length prefix of a client's message exceeds [`MAX_CLIENT_FRAME`]
    /// ([`read_client_frame`]).
    #[error("frame of {0} bytes exceeds the limit {MAX_CLIENT_FRAME} of a client's message")]
    ClientTooLarge(u32),
    /// The frame is not a message of this protocol: bincode's message, kept as text (another
    /// library's, of no structure this crate defines).
    #[error("undecodable message: {0}")]
    Undecodable(String),
    /// A buffer given to [`decode_frame`] is not exactly one frame: `found` bytes where the
    /// header announces a frame of `frame` bytes (or, shorter than a header, needs at least
    /// [`HEADER_LEN`]).
    #[error("{}", length_mismatch(*.frame, *.found))]
    Length { frame: u64, found: usize },
    /// The message cannot be sent: its encoding exceeds [`MAX_FRAME`] (bincode's message, or
    /// the encoding's size in bytes).
    #[error("message larger than a frame: {0}")]
    Unencodable(String),
}

/// The text of [`WireError::Length`]: a truncated frame, or bytes after one (two sentences, by
/// which side of `frame` `found` is on: more than one `#[error]` format).
fn length_mismatch(frame: u64, found: usize) -> String {
    if (found as u64) < frame {
        format!("truncated frame: {found} bytes of {frame}")
    } else {
        format!(
            "{} bytes after a frame of {frame} bytes: one message is one frame",
            found as u64 - frame
        )
    }
}

/// The one bincode configuration of the wire: `bincode::serialize`'s encoding, bounded.
fn codec() -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .allow_trailing_bytes()
        .with_limit(MAX_FRAME as u64)
}

/// The inputs of a tick as a replay records them ([`rapier_pinned::NET_INPUTS`]): the `Vec<Input>`
/// of the `Tick` message, in the wire's bincode.
pub fn encode_inputs(inputs: &[Input]) -> Vec<u8> {
    codec()
        .serialize(inputs)
        .expect("a vector of inputs encodes")
}

/// Decodes a replay's tick inputs ([`encode_inputs`]): bounded, no trailing bytes, at most
/// [`crate::inputs::PLAYERS`] × [`crate::inputs::MAX_INPUTS`] inputs.
pub fn decode_inputs(bytes: &[u8]) -> Result<Vec<Input>, WireError> {
    let inputs: Vec<Input> = decode_payload(bytes)?;
    let most = crate::inputs::PLAYERS as usize * crate::inputs::MAX_INPUTS;
    if inputs.len() > most {
        return Err(WireError::Undecodable(format!(
            "{} inputs in one tick, more than {most}",
            inputs.len()
        )));
    }
    Ok(inputs)
}

/// The length of a frame's header: the magic, the protocol version and the payload's length.
pub const HEADER_LEN: usize = 10;

/// The payload length a frame's header announces, once its magic, protocol version and length
/// are checked: the one header check of [`receive`], [`read_frame`] and [`decode_frame`].
fn check_header(header: &[u8; HEADER_LEN]) -> Result<u32, WireError> {
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
    Ok(len)
}

/// Decodes one message from a frame's payload: bounded, no trailing bytes.
fn decode_payload<T: DeserializeOwned>(payload: &[u8]) -> Result<T, WireError> {
    let mut de = bincode::Deserializer::from_slice(payload, codec().reject_trailing_bytes());
    T::deserialize(&mut de).map_err(|e| WireError::Undecodable(e.to_string()))
}

/// `msg` as one whole frame: exactly the bytes [`send`] writes (a WebSocket binary message
/// carries these). A message whose encoding exceeds [`MAX_FRAME`] is
/// [`WireError::Unencodable`].
pub fn encode_frame<T: Serialize>(msg: &T) -> Result<Vec<u8>, WireError> {
    let payload = codec()
        .serialize(msg)
        .map_err(|e| WireError::Unencodable(e.to_string()))?;
    let len = u32::try_from(payload.len())
        .ok()
        .filter(|n| *n <= MAX_FRAME)
        .ok_or_else(|| WireError::Unencodable(format!("{} bytes", payload.len())))?;
    let mut frame = Vec::with_capacity(HEADER_LEN + payload.len());
    frame.extend_from_slice(&MAGIC);
    frame.extend_from_slice(&PROTOCOL_VERSION.to_le_bytes());
    frame.extend_from_slice(&len.to_le_bytes());
    frame.extend_from_slice(&payload);
    Ok(frame)
}

/// Decodes `bytes` as exactly one whole frame, checked as [`receive`] checks one: a buffer that
/// ends inside the frame, or holds bytes after it, is [`WireError::Length`].
pub fn decode_frame<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    let Some(header) = bytes.first_chunk::<HEADER_LEN>() else {
        // Too short for a header: still name a foreign protocol by its first bytes.
        if let Some(magic) = bytes.first_chunk::<4>().filter(|m| **m != MAGIC) {
            return Err(WireError::BadMagic(*magic));
        }
        return Err(WireError::Length {
            frame: HEADER_LEN as u64,
            found: bytes.len(),
        });
    };
    let len = check_header(header)?;
    let frame = HEADER_LEN as u64 + u64::from(len);
    if bytes.len() as u64 != frame {
        return Err(WireError::Length {
            frame,
            found: bytes.len(),
        });
    }
    decode_payload(&bytes[HEADER_LEN..])
}

/// Writes `msg` as one frame ([`encode_frame`]'s bytes) and flushes.
pub fn send<T: Serialize>(out: &mut impl Write, msg: &T) -> std::io::Result<()> {
    let frame = encode_frame(msg).map_err(|e| std::io::Error::other(e.to_string()))?;
    out.write_all(&frame)?;
    out.flush()
}

/// Whether a socket error is a timeout: a read or write timeout of a blocking socket
/// (`WouldBlock` on Unix, `TimedOut` elsewhere) or a deadline's. A send that times out made no
/// progress within the socket's write timeout: its peer is not reading.
pub fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// Reads one whole frame, header checked, without decoding its message: the bytes
/// [`decode_frame`] takes (a relay forwards them as they are).
pub fn read_frame(input: &mut impl Read) -> Result<Vec<u8>, WireError> {
    read_frame_within(input, MAX_FRAME)
}

/// [`read_frame`] for a frame of a client's message, whose length is also bounded by
/// [`MAX_CLIENT_FRAME`] ([`WireError::ClientTooLarge`]) before anything is allocated: what the
/// server reads from its clients.
pub fn read_client_frame(input: &mut impl Read) -> Result<Vec<u8>, WireError> {
    read_frame_within(input, MAX_CLIENT_FRAME)
}

/// Reads one client's message ([`read_client_frame`]) and decodes it.
pub fn receive_client(input: &mut impl Read) -> Result<ClientMsg, WireError> {
    let frame = read_client_frame(input)?;
    decode_payload(&frame[HEADER_LEN..])
}

/// [`read_frame`] with a payload of at most `limit` bytes (at most [`MAX_FRAME`]); a larger one
/// under [`MAX_FRAME`] is [`WireError::ClientTooLarge`].
fn read_frame_within(input: &mut impl Read, limit: u32) -> Result<Vec<u8>, WireError> {
    let mut frame = vec![0; HEADER_LEN];
    input.read_exact(&mut frame).map_err(WireError::Io)?;
    let header: &[u8; HEADER_LEN] = frame[..].try_into().expect("10 bytes");
    let len = check_header(header)?;
    if len > limit {
        return Err(WireError::ClientTooLarge(len));
    }
    frame.resize(HEADER_LEN + len as usize, 0);
    input
        .read_exact(&mut frame[HEADER_LEN..])
        .map_err(WireError::Io)?;
    Ok(frame)
}

/// Reads one frame and decodes it.
pub fn receive<T: DeserializeOwned>(input: &mut impl Read) -> Result<T, WireError> {
    let frame = read_frame(input)?;
    decode_payload(&frame[HEADER_LEN..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hello() -> ClientMsg {
        ClientMsg::Hello {
            physics_version: 2,
            match_id: 7,
            settings: rapier_pinned::WorldConfig::new(rapier_pinned::PhysicsVersion::V2)
                .unwrap()
                .settings(),
            resume: Some(Resume {
                tick: 300,
                player: None,
            }),
            sends_inputs: true,
            level: Some([5; 32]),
        }
    }

    #[test]
    fn a_frame_is_the_bytes_send_writes_and_decodes_whole() {
        let mut sent = Vec::new();
        send(&mut sent, &hello()).unwrap();
        let frame = encode_frame(&hello()).unwrap();
        assert_eq!(frame, sent);
        assert_eq!(read_frame(&mut &sent[..]).unwrap(), frame);
        assert_eq!(decode_frame::<ClientMsg>(&frame).unwrap(), hello());
        assert_eq!(receive::<ClientMsg>(&mut &sent[..]).unwrap(), hello());
    }

    #[test]
    fn a_buffer_that_is_not_exactly_one_frame_is_refused_with_its_reason() {
        let frame = encode_frame(&hello()).unwrap();
        let n = frame.len();
        let reason = |bytes: &[u8]| decode_frame::<ClientMsg>(bytes).unwrap_err().to_string();
        assert_eq!(
            reason(&[&frame[..], &[0]].concat()),
            format!("1 bytes after a frame of {n} bytes: one message is one frame")
        );
        assert_eq!(
            reason(&frame[..n - 1]),
            format!("truncated frame: {} bytes of {n}", n - 1)
        );
        assert_eq!(reason(&frame[..6]), "truncated frame: 6 bytes of 10");
        assert!(reason(b"GET / HTTP").starts_with("not a rapier-pinned frame"));
        assert!(reason(b"GET").starts_with("truncated frame"));
        let mut other = frame.clone();
        other[4] = 9;
        assert_eq!(
            reason(&other),
            "wire protocol version 9; this build speaks version 2"
        );
        // A whole frame whose payload is not a message.
        let mut garbage = frame[..HEADER_LEN].to_vec();
        garbage[6..].copy_from_slice(&3u32.to_le_bytes());
        garbage.extend_from_slice(&[0xff; 3]);
        assert!(reason(&garbage).starts_with("undecodable message"));
    }

    #[test]
    fn a_client_frame_is_bounded_before_its_payload_is_read() {
        let frame = encode_frame(&hello()).unwrap();
        assert_eq!(receive_client(&mut &frame[..]).unwrap(), hello());
        // A header announcing one byte more than the limit: refused from the header alone (no
        // payload follows it), while the reader of server frames would wait for the bytes.
        let mut header = frame[..HEADER_LEN].to_vec();
        header[6..].copy_from_slice(&(MAX_CLIENT_FRAME + 1).to_le_bytes());
        let e = read_client_frame(&mut &header[..]).unwrap_err();
        assert!(matches!(e, WireError::ClientTooLarge(n) if n == MAX_CLIENT_FRAME + 1));
        assert_eq!(
            e.to_string(),
            "frame of 65537 bytes exceeds the limit 65536 of a client's message"
        );
        assert!(matches!(
            read_frame(&mut &header[..]).unwrap_err(),
            WireError::Io(e) if e.kind() == std::io::ErrorKind::UnexpectedEof
        ));
        // Past MAX_FRAME either reader says so.
        header[6..].copy_from_slice(&(MAX_FRAME + 1).to_le_bytes());
        assert!(matches!(
            read_client_frame(&mut &header[..]).unwrap_err(),
            WireError::TooLarge(_)
        ));
    }
}
