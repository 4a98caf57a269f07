//! Replay files: a recorded match as a regression test. A header (the world config, the
//! keyframe cadence, the name of the game's input encoding), then checksummed chunks appended
//! as the match goes: the starting snapshot, one record per tick (the inputs applied, opaque
//! bytes the game decodes, and the state digest after the step), keyframes (a snapshot every
//! `keyframe_every` ticks, a delta against the start) and the server's events (joins,
//! refusals). `docs/protocol.md` §7 gives the bytes.
//!
//! Append-only and crash-safe: each chunk's checksum chains the one before it, so a file cut
//! anywhere reads back as its complete chunks plus a reported tear ([`Replay::tear`]), and a
//! chunk changed, dropped or moved fails the chain. With the fleet key, each chunk also
//! carries a MAC.
//!
//! - `format`: the constants, the header, the chained checksum.
//! - `write`: [`ReplayWriter`], what a server or client records with.
//! - `read`: [`Replay::read`], bounded and typed ([`ReplayError`]); the worlds it holds.
//! - `restep`: [`Replay::verify`] against the recorded digests, [`Replay::depart`] under another
//!   physics-version.

mod error;
mod format;
mod read;
mod restep;
mod write;

pub use error::ReplayError;
pub use format::{
    EventKind, ReplayEvent, ReplayHeader, MAX_EVENT_TEXT, MAX_INPUT_BYTES, MAX_INPUT_FORMAT,
    NET_INPUTS, REPLAY_FORMAT, REPLAY_MAGIC,
};
pub use read::{Replay, Sizes, Tear, TickRecord};
pub use restep::{
    ApplyInputs, BodyDifference, Departure, KeyframeDeparture, ReplayDivergence, ReplayVerdict,
    QUANTITIES,
};
pub use write::ReplayWriter;
