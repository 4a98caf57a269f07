//! Why the server, a client or a rollback stopped: [`NetError`], one variant per cause, its data
//! in typed fields; [`Violation`], a message the server should not have sent; [`Refusal`], why
//! the server refuses a client's hello. Each prints the text the command line and the logs show.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use rapier_pinned::{FieldDiff, GameSettings, LevelId, PhysicsVersion};

use crate::inputs::PLAYERS;
use crate::wire::{ClientMsg, ServerMsg, WireError};

/// Why a server ([`crate::server::serve`]), a client ([`crate::client::join`],
/// [`crate::client::Lockstep::on_message`]) or a rollback
/// ([`crate::rollback::Rollback::late_input`]) stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NetError {
    /// A frame could not be read or decoded: the connection failed or closed, or the peer does
    /// not speak this protocol.
    #[error("{0}")]
    Wire(#[from] WireError),
    /// A socket operation failed: listening, accepting, setting a socket's options, sending.
    #[error("{0}")]
    Io(#[source] std::io::Error),
    /// Connecting to the host at `addr`, or saying hello there, failed.
    #[error("{addr}: {source}")]
    Connect {
        /// The host's address, as given.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// The log could not be written.
    #[error("{0}")]
    Log(#[source] std::io::Error),
    /// A recording could not be started at `path` (the file, or the world's snapshot).
    #[error("record {}: {reason}", .path.display())]
    Record {
        /// The replay file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The migration's snapshot could not be written to `path`.
    #[error("{}: {source}", .path.display())]
    WriteSnapshot {
        /// The snapshot file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A join point waited `timeout` at `tick` and no client came.
    #[error("tick {tick}: no client joined within {timeout:?}")]
    NoClientJoined {
        /// The join point's tick.
        tick: u64,
        /// How long it waited.
        timeout: Duration,
    },
    /// Clients were still connected `timeout` after the end.
    #[error("clients still connected {timeout:?} after the end")]
    ClientsStillConnected {
        /// How long the end waited.
        timeout: Duration,
    },
    /// The server refused a client's hello (it sends the reason and goes on; the client sees
    /// [`NetError::Refused`]).
    #[error("{0}")]
    RefusedClient(#[source] Refusal),
    /// The server refused this client's hello: `by` is `None` for the server joined first, the
    /// address of the new host after a migration. The reason is the server's text, as it came
    /// in [`ServerMsg::Refused`].
    #[error("refused by {}: {reason}", .by.as_deref().unwrap_or("the server"))]
    Refused {
        /// The new host's address; `None`: the server joined first.
        by: Option<String>,
        /// The server's reason.
        reason: String,
    },
    /// The server's snapshot failed the wrapper's checks.
    #[error("refused the server's snapshot: {0} (kind: {kind})", kind = .0.kind())]
    Snapshot(#[source] rapier_pinned::Error),
    /// The welcome's snapshot is at another tick than the welcome says.
    #[error("the snapshot is at tick {snapshot}, the server said {welcome}")]
    SnapshotTick {
        /// The snapshot's tick.
        snapshot: u64,
        /// The welcome's.
        welcome: u64,
    },
    /// The server found the client's digest for `tick` different from its own.
    #[error("diverged at tick {tick}: server {server:016x}, client {client:016x}")]
    Diverged {
        /// The tick.
        tick: u64,
        /// The server's digest.
        server: u64,
        /// The client's.
        client: u64,
    },
    /// At the goodbye the client is not at the server's tick and digest (the server's are in
    /// its goodbye, the client's are its own).
    #[error(
        "at the end: server tick {server_tick} digest {server_digest:016x}, client tick \
         {client_tick} digest {client_digest:016x}"
    )]
    EndMismatch {
        /// The server's last tick.
        server_tick: u64,
        /// The server's digest there.
        server_digest: u64,
        /// The client's tick.
        client_tick: u64,
        /// The client's digest.
        client_digest: u64,
    },
    /// The server sent a message out of order.
    #[error("{0}")]
    Protocol(#[source] Violation),
    /// A late input for a tick not yet stepped, or for tick 0 (no step goes into it).
    #[error("input for tick {tick}; the world is at tick {now}")]
    LateInputNotStepped {
        /// The input's tick.
        tick: u64,
        /// The world's.
        now: u64,
    },
    /// A late input for a tick older than the ring keeps.
    #[error("input for tick {tick} is older than the {kept} ticks kept")]
    LateInputTooOld {
        /// The input's tick.
        tick: u64,
        /// How many ticks the ring keeps.
        kept: usize,
    },
    /// The rollback ring's own snapshot was refused on restore.
    #[error("{0}")]
    Restore(#[source] rapier_pinned::Error),
}

/// A message the server should not have sent then ([`NetError::Protocol`]); the message is
/// kept whole.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Violation {
    /// A message after the session ended.
    #[error("the session has ended; got {0:?}")]
    AfterEnd(Box<ServerMsg>),
    /// The first message is neither a welcome nor a refusal.
    #[error("expected a welcome, got {0:?}")]
    NotWelcome(Box<ServerMsg>),
    /// The new host at `addr` answered neither with the resumption at the migration's tick
    /// nor with a refusal.
    #[error("expected a resumption from {addr}, got {got:?}")]
    NotResumption {
        /// The new host.
        addr: String,
        /// What it sent.
        got: Box<ServerMsg>,
    },
    /// A message a playing client does not take (a second welcome, ...).
    #[error("unexpected {0:?}")]
    Unexpected(Box<ServerMsg>),
    /// A tick that is not the one after the client's.
    #[error("tick {tick} after tick {after}")]
    TickOutOfOrder {
        /// The tick sent.
        tick: u64,
        /// The client's.
        after: u64,
    },
    /// A migration at another tick than the client's.
    #[error("migration at tick {tick}, the client is at {client}")]
    MigrationTick {
        /// The migration's tick.
        tick: u64,
        /// The client's.
        client: u64,
    },
    /// The client was to play or resume (`doing`) but holds no world (a bug of the client).
    #[error("{doing} without a world")]
    NoWorld {
        /// `playing` or `resuming`.
        doing: &'static str,
    },
}

/// Why the server refuses a client's hello ([`NetError::RefusedClient`]): the text is the reason
/// it sends in [`ServerMsg::Refused`] and logs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The first frame could not be read or is not a message.
    #[error("bad hello: {0}")]
    BadHello(#[source] WireError),
    /// The first message is not a hello.
    #[error("expected a hello, got {0:?}")]
    NotHello(Box<ClientMsg>),
    /// The client's physics-version is not the match's.
    #[error("physics-version {client}; this match runs physics-version {server}")]
    PhysicsVersion {
        /// The client's.
        client: PhysicsVersion,
        /// The match's.
        server: PhysicsVersion,
    },
    /// The client's game settings are not the match's: every field that differs (the match's
    /// value is `pinned`), and the match's settings.
    #[error("settings differ from this match's: {} (the match runs {server})", joined(.differ))]
    Settings {
        /// The fields that differ.
        differ: Vec<FieldDiff>,
        /// The match's settings.
        server: GameSettings,
    },
    /// The client's match id is not the server's.
    #[error("match {client}; this server runs match {server}")]
    Match {
        /// The client's.
        client: u64,
        /// The server's.
        server: u64,
    },
    /// The client's world is not on the match's level (or on one when the match is on none):
    /// it lacks the level's bytes, or holds another level.
    #[error("{}", level_mismatch(.client, .server))]
    Level {
        /// The client's.
        client: Option<LevelId>,
        /// The match's.
        server: Option<LevelId>,
    },
    /// A reconnection at another tick than the match's.
    #[error("resume at tick {client}; the match is at tick {server}")]
    ResumeTick {
        /// The client's.
        client: u64,
        /// The match's.
        server: u64,
    },
    /// A reconnection in a seat that is taken or not one of the [`PLAYERS`].
    #[error("resume as player {player}, which is taken or not one of the {PLAYERS}")]
    ResumeSeat {
        /// The seat asked for.
        player: u32,
    },
    /// No whole hello within the deadline after the connection (however its bytes came).
    #[error("no hello within {timeout:?} of connecting")]
    NoHello {
        /// The deadline, from the connection.
        timeout: Duration,
    },
    /// The handshake was the oldest under way when a new connection came with as many under way
    /// as the server takes at once ([`crate::admission::MAX_PENDING`]): it was cut to make room.
    #[error("cut to make room: no hello yet, the oldest of {max} handshakes under way")]
    Evicted {
        /// The cap.
        max: usize,
    },
    /// As many handshakes as the server takes at once from one address are under way
    /// ([`crate::admission::MAX_PENDING_PER_ADDRESS`]).
    #[error("too many handshakes under way from {ip} (at most {max} at once); try again later")]
    BusyAddress {
        /// The address.
        ip: IpAddr,
        /// The cap.
        max: usize,
    },
    /// The match ended before the client was seated.
    #[error("the match is over")]
    Over,
}

/// The differing fields of [`Refusal::Settings`], each as it prints, joined by `; `.
fn joined(differ: &[FieldDiff]) -> String {
    let list: Vec<String> = differ.iter().map(ToString::to_string).collect();
    list.join("; ")
}

/// The text of [`Refusal::Level`]: three sentences, by which side is on a level (too many
/// cases for one `#[error]` format).
fn level_mismatch(client: &Option<LevelId>, server: &Option<LevelId>) -> String {
    match (client, server) {
        (None, Some(server)) => format!("this match is on level {server}, which the client lacks"),
        (Some(client), Some(server)) => {
            format!("the client is on level {client}; this match is on level {server}")
        }
        (client, None) => format!(
            "the client is on level {}; this match is on no level",
            client.map_or("none".to_string(), |c| c.to_string())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each variant prints the text its construction site formatted before it was typed
    /// (issue 33): the expected strings are those `format!`s.
    #[test]
    fn every_cause_prints_its_former_text() {
        let bye = ServerMsg::Bye { tick: 3, digest: 4 };
        let (tick, server, client) = (7u64, 0xabcu64, 0x12u64);
        let timeout = Duration::from_millis(1500);
        let io = || std::io::Error::other("boom");
        let cases: Vec<(NetError, String)> = vec![
            (
                NetError::Connect {
                    addr: "h:1".into(),
                    source: io(),
                },
                "h:1: boom".into(),
            ),
            (NetError::Log(io()), "boom".into()),
            (
                NetError::WriteSnapshot {
                    path: "/x/y".into(),
                    source: io(),
                },
                "/x/y: boom".into(),
            ),
            (
                NetError::NoClientJoined { tick, timeout },
                format!("tick {tick}: no client joined within {timeout:?}"),
            ),
            (
                NetError::ClientsStillConnected { timeout },
                format!("clients still connected {timeout:?} after the end"),
            ),
            (
                NetError::Refused {
                    by: Some("b:2".into()),
                    reason: "no".into(),
                },
                "refused by b:2: no".into(),
            ),
            (
                NetError::Snapshot(rapier_pinned::Error::BadMagic),
                format!(
                    "refused the server's snapshot: {} (kind: BadMagic)",
                    rapier_pinned::Error::BadMagic
                ),
            ),
            (
                NetError::SnapshotTick {
                    snapshot: 5,
                    welcome: tick,
                },
                format!("the snapshot is at tick 5, the server said {tick}"),
            ),
            (
                NetError::Diverged {
                    tick,
                    server,
                    client,
                },
                format!("diverged at tick {tick}: server {server:016x}, client {client:016x}"),
            ),
            (
                NetError::Protocol(Violation::AfterEnd(Box::new(bye.clone()))),
                format!("the session has ended; got {bye:?}"),
            ),
            (
                NetError::Protocol(Violation::NotWelcome(Box::new(bye.clone()))),
                format!("expected a welcome, got {bye:?}"),
            ),
            (
                NetError::Protocol(Violation::NotResumption {
                    addr: "b:2".into(),
                    got: Box::new(bye.clone()),
                }),
                format!("expected a resumption from b:2, got {bye:?}"),
            ),
            (
                NetError::Protocol(Violation::Unexpected(Box::new(bye.clone()))),
                format!("unexpected {bye:?}"),
            ),
            (
                NetError::Protocol(Violation::MigrationTick { tick, client: 6 }),
                format!("migration at tick {tick}, the client is at 6"),
            ),
            (
                NetError::Protocol(Violation::NoWorld { doing: "resuming" }),
                "resuming without a world".into(),
            ),
            (
                NetError::LateInputNotStepped { tick, now: 3 },
                format!("input for tick {tick}; the world is at tick 3"),
            ),
            (
                NetError::LateInputTooOld { tick, kept: 8 },
                format!("input for tick {tick} is older than the 8 ticks kept"),
            ),
            (
                NetError::RefusedClient(Refusal::NotHello(Box::new(ClientMsg::Digest {
                    tick,
                    digest: 1,
                }))),
                format!(
                    "expected a hello, got {:?}",
                    ClientMsg::Digest { tick, digest: 1 }
                ),
            ),
            (
                NetError::RefusedClient(Refusal::BadHello(WireError::TooLarge(u32::MAX))),
                format!("bad hello: {}", WireError::TooLarge(u32::MAX)),
            ),
            (
                NetError::RefusedClient(Refusal::Match {
                    client: 3,
                    server: 0,
                }),
                "match 3; this server runs match 0".into(),
            ),
            (
                NetError::RefusedClient(Refusal::ResumeTick {
                    client: 3,
                    server: tick,
                }),
                format!("resume at tick 3; the match is at tick {tick}"),
            ),
            (
                NetError::RefusedClient(Refusal::ResumeSeat { player: 9 }),
                format!("resume as player 9, which is taken or not one of the {PLAYERS}"),
            ),
            (
                NetError::RefusedClient(Refusal::NoHello { timeout }),
                "no hello within 1.5s of connecting".into(),
            ),
            (
                NetError::RefusedClient(Refusal::Evicted { max: 64 }),
                "cut to make room: no hello yet, the oldest of 64 handshakes under way".into(),
            ),
            (
                NetError::RefusedClient(Refusal::BusyAddress {
                    ip: [127, 0, 0, 2].into(),
                    max: 8,
                }),
                "too many handshakes under way from 127.0.0.2 (at most 8 at once); try again \
                 later"
                    .into(),
            ),
            (
                NetError::RefusedClient(Refusal::Over),
                "the match is over".into(),
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text, "{error:?}");
        }
    }
}
