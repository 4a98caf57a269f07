//! The multiplayer round trip, as a game team would run it: an authoritative
//! server steps a pinned world at a fixed tick and streams the players' inputs; clients join
//! late from a validated snapshot and step in lockstep, reporting digests; a match moves between
//! hosts as a snapshot; rollback re-simulates from a ring of snapshots. `docs/multiplayer.md`.
//!
//! - [`wire`]: length-prefixed frames and the messages.
//! - [`inputs`]: player inputs as data.
//! - [`server`], [`client`]: the reference server and client (`rapier-pinned serve|join`);
//!   [`client::Lockstep`], the client without I/O, for any transport (WebSocket, a browser).
//! - [`admission`]: connections accepted and hellos read off the match loop, bounded.
//! - `ws` (feature `ws`): WebSocket clients (a browser's) bridged to the server's TCP listener.
//! - [`lateness`]: how late a paced server starts its ticks.
//! - [`record`]: the match as a replay file (`serve --record`, `join --record`).
//! - [`rollback`]: the snapshot ring.
//! - [`error`]: why a server, a client or a rollback stopped ([`NetError`]).

pub mod admission;
pub mod client;
pub mod error;
pub mod inputs;
pub mod lateness;
pub mod record;
pub mod rollback;
pub mod server;
pub mod wire;
#[cfg(feature = "ws")]
pub mod ws;

pub use error::NetError;
