//! rapier-pinned: a rapier3d world pinned to a *physics-version*, for authoritative multiplayer
//! servers, their clients and replays. The protocol is specified in `docs/protocol.md`.
//!
//! - The physics-version table ([`version_table`], [`entry`]): each released [`VersionEntry`]
//!   pins everything that changes a trajectory (upstream versions, the patch-series hash, scalar,
//!   features, every `IntegrationParameters` field, parry's `CORE_FRACTION`, the default gravity)
//!   and what a game may choose ([`Choices`]); a test pins its digest. Every public name has one
//!   path: the crate's root.
//! - [`WorldConfig`]: a physics-version plus the per-world choices the protocol allows: the
//!   game's [`GameSettings`] (gravity, tick rate, length unit, within the version's [`Choices`])
//!   and the `match_id`. Both are in the config digest, so a snapshot of other settings or of
//!   another match is refused.
//! - [`PinnedWorld`]: the world. No API changes its config: no `&mut IntegrationParameters`,
//!   no `&mut PhysicsWorld`, no public field.
//! - Snapshots: a fixed header with checksum and optional MAC, then the world's payload
//!   (`docs/protocol.md` §3). A restore ([`PinnedWorld::restore`], [`PinnedWorld::restore_into`])
//!   reads every format and validates everything before touching anything; [`inspect`] reads a
//!   header. Four formats:
//!   - format 1 ([`FORMAT_VERSION`], [`PinnedWorld::snapshot`]): the world in bincode, stored as
//!     it is;
//!   - format 2 ([`FORMAT_VERSION_2`], [`PinnedWorld::snapshot_compressed`]): format 1
//!     LZ4-compressed, about 4× smaller;
//!   - format 3 ([`FORMAT_VERSION_3`], [`PinnedWorld::snapshot_linked`]): the world with its
//!     [`Level`] by reference (the level's id, not its shapes), a shared shape once;
//!   - format 4 ([`FORMAT_VERSION_4`], [`PinnedWorld::snapshot_delta`]): a delta against a
//!     [`Baseline`] the receiver holds.
//! - Replays (`docs/protocol.md` §7): a recorded match, [`ReplayWriter`] to write one as it is
//!   played and [`Replay::read`] to read it back (the start, each tick's inputs and digest,
//!   keyframes, events; a torn tail reported, not fatal); [`Replay::verify`] re-steps it with a
//!   game's input decoder and names the first tick that differs.
//!
//! ```
//! use rapier3d::prelude::*;
//! use rapier_pinned::{PinnedWorld, SnapshotKey, WorldConfig, PHYSICS_VERSION_CURRENT};
//!
//! let config = WorldConfig::new(PHYSICS_VERSION_CURRENT).unwrap().with_match_id(7);
//! let mut world = PinnedWorld::new(config);
//! let ball = world.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 2.0, 0.0)));
//! world.insert_collider(ColliderBuilder::ball(0.5), Some(ball));
//! world.step();
//!
//! let key = SnapshotKey::new([9; 32]);
//! let bytes = world.snapshot(Some(&key));
//! let mut other = PinnedWorld::new(config);
//! other.restore_into(&bytes, Some(&key)).unwrap();
//! assert_eq!(other.tick(), 1);
//! assert_eq!(other.snapshot(Some(&key)), bytes);
//!
//! // Format 2: the same world, LZ4-compressed (checksum and MAC over the compressed bytes).
//! let small = world.snapshot_compressed(Some(&key));
//! assert!(small.len() < bytes.len());
//! let mut third = PinnedWorld::new(config);
//! third.restore_into(&small, Some(&key)).unwrap();
//! assert_eq!(third.snapshot(Some(&key)), bytes);
//! ```
//!
//! `enhanced-determinism` is enabled by this crate's own dependency line on rapier3d, so a build
//! of rapier-pinned without it cannot exist (compile-time). The soft-body `fem` feature changes
//! `IntegrationParameters`; the exhaustive field lists of the table ([`param_fields`]) then fail to compile, so a
//! build with it cannot exist either.
//!
//! No global or thread-local mutable state; no hash-map iteration decides any byte.

mod baseline;
mod ccd;
mod codec;
mod config;
mod diff;
mod error;
mod format;
mod level;
mod link;
mod panic;
mod param_fields;
mod physics_version;
mod replay;
mod settings;
mod snapshot;
mod upstream;
mod validate;
mod version;
mod world;

pub use baseline::{Baseline, BaselineId};
pub use ccd::{CcdConfig, ParseCcdConfigError};
pub use codec::DecompressionError;
pub use config::{diff_world, WorldConfig};
pub use diff::{FieldDiff, FieldValue, Fields};
pub use error::{
    Allowed, BodyOrCollider, ConfigError, Error, ErrorKind, ParseErrorKindError, SettingValue,
};
pub use format::{
    FLAG_COMPRESSED, FLAG_MAC, FORMAT_VERSION, FORMAT_VERSION_2, FORMAT_VERSION_3,
    FORMAT_VERSION_4, HEADER_LEN, MAGIC, PAYLOAD_LIMIT,
};
pub use level::{Level, LevelError, LevelId, LEVEL_FORMAT, LEVEL_MAGIC};
pub use link::LinkError;
pub use param_fields::param_fields;
pub use physics_version::{ParsePhysicsVersionError, PhysicsVersion};
pub use replay::{
    ApplyInputs, BodyDifference, Departure, EventKind, KeyframeDeparture, Replay, ReplayDivergence,
    ReplayError, ReplayEvent, ReplayHeader, ReplayVerdict, ReplayWriter, Sizes, Tear, TickRecord,
    MAX_EVENT_TEXT, MAX_INPUT_BYTES, MAX_INPUT_FORMAT, NET_INPUTS, QUANTITIES, REPLAY_FORMAT,
    REPLAY_MAGIC,
};
pub use settings::{Choices, GameSettings};
pub use snapshot::{
    inspect, recorded_params, recorded_params_against, recorded_params_on, SnapshotHeader,
    SnapshotInfo, SnapshotKey,
};
pub use upstream::import_upstream;
pub use version::{
    diff_entries, entry, serves, version_table, VersionEntry, BIT_IDENTICAL_SERIES, PATCH_SERIES,
    PHYSICS_VERSION_CURRENT, RELEASED_SERIES_1_2, RELEASED_SERIES_3, RELEASED_SERIES_4,
    RELEASED_SERIES_5, RELEASED_SERIES_6,
};
pub use world::PinnedWorld;

/// Low-level framing for tests, fuzzing and conformance vectors: sealing any payload under any
/// header (formats every reader refuses included), the payload codec, LZ4 by hand. Not a game's
/// API: a game writes snapshots with [`PinnedWorld::snapshot`] and reads them with
/// [`PinnedWorld::restore`].
#[doc(hidden)]
pub mod testing {
    pub use crate::snapshot::{
        compress_payload, decompress_payload, expand_delta, expand_delta_stream, expand_linked,
        expand_record_stream, seal, seal_compressed, seal_delta, seal_linked, seal_stored,
    };
    pub use crate::world::encode_world;
}
