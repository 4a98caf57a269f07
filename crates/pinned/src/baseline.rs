//! A baseline: a world's format-1 payload that a receiver already holds, which a delta snapshot
//! (format 4, `docs/protocol.md` §3.4) is written against. Named by the BLAKE3 of those bytes,
//! so a delta against a baseline the receiver does not hold, or holds at another tick, is refused
//! before any of it is read.

use crate::link::Index;
use std::sync::OnceLock;

/// A baseline's id: the BLAKE3 of its payload. Printed as lowercase hex.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BaselineId(pub [u8; 32]);

impl std::fmt::Display for BaselineId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl std::fmt::Debug for BaselineId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BaselineId({self})")
    }
}

/// The payload of a world at one tick, kept to write or read deltas against it. Made by
/// [`crate::PinnedWorld::baseline`]; a world restored from a snapshot makes the same baseline as
/// the world the snapshot was taken of (its payload re-encodes byte for byte).
#[derive(Clone)]
pub struct Baseline {
    id: BaselineId,
    payload: Vec<u8>,
    /// Built by the first delta written against it (a reader never needs it).
    index: OnceLock<Index>,
}

impl std::fmt::Debug for Baseline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Baseline")
            .field("id", &self.id)
            .field("bytes", &self.payload.len())
            .finish()
    }
}

impl Baseline {
    /// The baseline of a format-1 payload the caller holds (a replay's keyframe, say, expanded
    /// once). Bytes that are no world's payload are no risk to a restore: what a delta expands
    /// to is decoded and checked as every payload is.
    pub fn from_payload(payload: Vec<u8>) -> Self {
        let id = BaselineId(*blake3::hash(&payload).as_bytes());
        let index = OnceLock::new();
        Self { id, payload, index }
    }

    /// The id a delta names this baseline by.
    pub fn id(&self) -> BaselineId {
        self.id
    }

    /// The payload's bytes.
    pub fn payload(&self) -> &[u8] {
        &self.payload
    }

    /// Where the payload's byte windows are, for writing deltas.
    pub(crate) fn index(&self) -> &Index {
        self.index.get_or_init(|| Index::new(&self.payload))
    }
}
