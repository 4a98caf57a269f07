//! A level: a game's static shapes (trimeshes, heightfields, hulls, compounds, with their BVHs),
//! a content-addressed asset shipped once to every peer, out of band. Snapshot format 3 refers to
//! its shapes instead of copying them (`docs/protocol.md` §3.2).
//!
//! The level's bytes (`docs/protocol.md` §3.3): magic `RPINLEVL`, a u16 level format (1), six zero
//! bytes, then bincode of the shapes (`Vec<SharedShape>`, the codec of the payload). Its id is
//! the BLAKE3 of those bytes. They are canonical: a level is read only if its shapes re-encode to
//! exactly the bytes read, so one set of shapes has one id.

use crate::codec;
use crate::format::PAYLOAD_LIMIT;
use crate::panic::catch_panic;
use rapier3d::prelude::SharedShape;
use std::ops::Range;
use std::sync::Arc;

/// The first 8 bytes of a level.
pub const LEVEL_MAGIC: [u8; 8] = *b"RPINLEVL";
/// The level format this build writes and reads.
pub const LEVEL_FORMAT: u16 = 1;
/// Bytes before the shapes: magic, format, six zero bytes.
const LEVEL_HEADER_LEN: usize = 16;

/// A level's id: the BLAKE3 of its bytes. Printed as lowercase hex.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LevelId(pub [u8; 32]);

impl std::fmt::Display for LevelId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl std::fmt::Debug for LevelId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LevelId({self})")
    }
}

/// Why a level could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LevelError {
    /// The first 8 bytes are not `RPINLEVL`, or there are fewer than the 16-byte header.
    #[error("not a rapier-pinned level (bad magic or shorter than its header)")]
    BadMagic,
    /// A level format this build does not read, or non-zero reserved bytes.
    #[error("unknown level format {0}")]
    UnknownFormat(u16),
    /// More bytes than a payload may have ([`crate::PAYLOAD_LIMIT`]).
    #[error("level of {len} bytes exceeds the limit {limit}")]
    TooLarge {
        /// The level's length.
        len: u64,
        /// The limit.
        limit: u64,
    },
    /// The shapes do not decode. Text: bincode's message, or the panic's.
    #[error("undecodable level: {0}")]
    Undecodable(String),
    /// The shapes decode but re-encode to other bytes: not a level's canonical form.
    #[error("level bytes are not canonical (its shapes re-encode to other bytes)")]
    NotCanonical,
    /// The bytes do not hash to the id they were fetched by.
    #[error("level bytes hash to {found}, not to the requested {expected}")]
    WrongId {
        /// The id asked for.
        expected: LevelId,
        /// The bytes' id.
        found: LevelId,
    },
    /// A shape that cannot be serialized (a custom shape).
    #[error("level shape {0} cannot be serialized (custom shape)")]
    Unserializable(usize),
}

/// A game's static shapes as a content-addressed asset.
///
/// Meshes go in as a game builds them: `ColliderBuilder::trimesh` with no flags (as bevy's
/// `Collider::trimesh` does) or with `TriMeshFlags::ORIENTED | FIX_INTERNAL_EDGES`, one collider
/// for the whole level or many. Physics-version 4 keeps fast parts out of and off the far side of
/// both builds, and of heightfields; versions 1 to 3 protect neither (`docs/physics-engine.md`,
/// "Levels: no flags needed").
#[derive(Clone)]
pub struct Level {
    id: LevelId,
    /// Shared: a clone of a level (a recording keeps one) copies no bytes.
    bytes: Arc<[u8]>,
    shapes: Vec<SharedShape>,
    ranges: Vec<Range<usize>>,
}

impl std::fmt::Debug for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Level")
            .field("id", &self.id)
            .field("shapes", &self.shapes.len())
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl Level {
    /// The level of `shapes`, in this order. A game builds its static colliders from
    /// [`Self::shape`] (or from these same shapes); a snapshot refers to any collider shape whose
    /// bytes are one of them.
    pub fn new(shapes: Vec<SharedShape>) -> Result<Self, LevelError> {
        let mut bytes = header();
        bytes.extend_from_slice(&(shapes.len() as u64).to_le_bytes());
        let mut ranges = Vec::with_capacity(shapes.len());
        for (i, shape) in shapes.iter().enumerate() {
            let start = bytes.len();
            codec::encode_into(&mut bytes, shape).map_err(|_| LevelError::Unserializable(i))?;
            ranges.push(start..bytes.len());
        }
        if bytes.len() as u64 > PAYLOAD_LIMIT {
            return Err(LevelError::TooLarge {
                len: bytes.len() as u64,
                limit: PAYLOAD_LIMIT,
            });
        }
        Ok(Self {
            id: LevelId(*blake3::hash(&bytes).as_bytes()),
            bytes: bytes.into(),
            shapes,
            ranges,
        })
    }

    /// The level stored in `bytes`, if they hash to `expected` (what a peer checks of a level it
    /// fetched by its id) and are a level's canonical bytes.
    pub fn from_bytes(bytes: &[u8], expected: LevelId) -> Result<Self, LevelError> {
        let found = LevelId(*blake3::hash(bytes).as_bytes());
        if found != expected {
            return Err(LevelError::WrongId { expected, found });
        }
        Self::read(bytes)
    }

    /// The level stored in `bytes`, whatever its id (bounded; never panics).
    pub fn read(bytes: &[u8]) -> Result<Self, LevelError> {
        if bytes.len() < LEVEL_HEADER_LEN || bytes[..8] != LEVEL_MAGIC {
            return Err(LevelError::BadMagic);
        }
        if bytes[..LEVEL_HEADER_LEN] != header()[..] {
            return Err(LevelError::UnknownFormat(u16::from_le_bytes([
                bytes[8], bytes[9],
            ])));
        }
        if bytes.len() as u64 > PAYLOAD_LIMIT {
            return Err(LevelError::TooLarge {
                len: bytes.len() as u64,
                limit: PAYLOAD_LIMIT,
            });
        }
        let shapes = catch_panic(
            || {
                codec::decode_exact::<Vec<SharedShape>>(&bytes[LEVEL_HEADER_LEN..])
                    .map_err(LevelError::Undecodable)
            },
            "decoding",
            LevelError::Undecodable,
        )?;
        let level = Self::new(shapes)?;
        if *level.bytes != *bytes {
            return Err(LevelError::NotCanonical);
        }
        Ok(level)
    }

    /// The id: BLAKE3 of [`Self::bytes`].
    pub fn id(&self) -> LevelId {
        self.id
    }

    /// The canonical bytes, what is shipped to peers.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The shapes, in order.
    pub fn shapes(&self) -> &[SharedShape] {
        &self.shapes
    }

    /// Shape `i` (an `Arc` clone: colliders built from it share the level's shape).
    pub fn shape(&self, i: usize) -> Option<SharedShape> {
        self.shapes.get(i).cloned()
    }

    /// Each shape's bytes (its bincode encoding, what a collider's shape serializes to).
    pub(crate) fn shape_bytes(&self) -> Vec<&[u8]> {
        self.ranges.iter().map(|r| &self.bytes[r.clone()]).collect()
    }
}

/// The 16 header bytes of a level this build writes.
fn header() -> Vec<u8> {
    let mut h = LEVEL_MAGIC.to_vec();
    h.extend_from_slice(&LEVEL_FORMAT.to_le_bytes());
    h.extend_from_slice(&[0; 6]);
    h
}
