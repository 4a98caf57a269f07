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
#[derive(Debug)]
#[non_exhaustive]
pub enum NetError {
    /// A frame could not be read or decoded: the connection failed or closed, or the peer does
    /// not speak this protocol.
    Wire(WireError),
    /// A socket operation failed: listening, accepting, setting a socket's options, sending.
    Io(std::io::Error),
    /// Connecting to the host at `addr`, or saying hello there, failed.
    Connect {
        /// The host's address, as given.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// The log could not be written.
    Log(std::io::Error),
    /// The migration's snapshot could not be written to `path`.
    WriteSnapshot {
        /// The snapshot file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A join point waited `timeout` at `tick` and no client came.
    NoClientJoined {
        /// The join point's tick.
        tick: u64,
        /// How long it waited.
        timeout: Duration,
    },
    /// Clients were still connected `timeout` after the end.
    ClientsStillConnected {
        /// How long the end waited.
        timeout: Duration,
    },
    /// The server refused a client's hello (it sends the reason and goes on; the client sees
    /// [`NetError::Refused`]).
    RefusedClient(Refusal),
    /// The server refused this client's hello: `by` is `None` for the server joined first, the
    /// address of the new host after a migration. The reason is the server's text, as it came
    /// in [`ServerMsg::Refused`].
    Refused {
        /// The new host's address; `None`: the server joined first.
        by: Option<String>,
        /// The server's reason.
        reason: String,
    },
    /// The server's snapshot failed the wrapper's checks.
    Snapshot(rapier_pinned::Error),
    /// The welcome's snapshot is at another tick than the welcome says.
    SnapshotTick {
        /// The snapshot's tick.
        snapshot: u64,
        /// The welcome's.
        welcome: u64,
    },
    /// The server found the client's digest for `tick` different from its own.
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
    Protocol(Violation),
    /// A late input for a tick not yet stepped, or for tick 0 (no step goes into it).
    LateInputNotStepped {
        /// The input's tick.
        tick: u64,
        /// The world's.
        now: u64,
    },
    /// A late input for a tick older than the ring keeps.
    LateInputTooOld {
        /// The input's tick.
        tick: u64,
        /// How many ticks the ring keeps.
        kept: usize,
    },
    /// The rollback ring's own snapshot was refused on restore.
    Restore(rapier_pinned::Error),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Wire(e) => write!(f, "{e}"),
            NetError::Io(e) | NetError::Log(e) => write!(f, "{e}"),
            NetError::Connect { addr, source } => write!(f, "{addr}: {source}"),
            NetError::WriteSnapshot { path, source } => write!(f, "{}: {source}", path.display()),
            NetError::NoClientJoined { tick, timeout } => {
                write!(f, "tick {tick}: no client joined within {timeout:?}")
            }
            NetError::ClientsStillConnected { timeout } => {
                write!(f, "clients still connected {timeout:?} after the end")
            }
            NetError::RefusedClient(r) => write!(f, "{r}"),
            NetError::Refused { by: None, reason } => {
                write!(f, "refused by the server: {reason}")
            }
            NetError::Refused {
                by: Some(addr),
                reason,
            } => write!(f, "refused by {addr}: {reason}"),
            NetError::Snapshot(e) => {
                write!(f, "refused the server's snapshot: {e} (kind: {})", e.kind())
            }
            NetError::SnapshotTick { snapshot, welcome } => write!(
                f,
                "the snapshot is at tick {snapshot}, the server said {welcome}"
            ),
            NetError::Diverged {
                tick,
                server,
                client,
            } => write!(
                f,
                "diverged at tick {tick}: server {server:016x}, client {client:016x}"
            ),
            NetError::EndMismatch {
                server_tick,
                server_digest,
                client_tick,
                client_digest,
            } => write!(
                f,
                "at the end: server tick {server_tick} digest {server_digest:016x}, client tick \
                 {client_tick} digest {client_digest:016x}"
            ),
            NetError::Protocol(v) => write!(f, "{v}"),
            NetError::LateInputNotStepped { tick, now } => {
                write!(f, "input for tick {tick}; the world is at tick {now}")
            }
            NetError::LateInputTooOld { tick, kept } => {
                write!(
                    f,
                    "input for tick {tick} is older than the {kept} ticks kept"
                )
            }
            NetError::Restore(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetError::Wire(e) => Some(e),
            NetError::Io(e) | NetError::Log(e) => Some(e),
            NetError::Connect { source, .. } | NetError::WriteSnapshot { source, .. } => {
                Some(source)
            }
            NetError::RefusedClient(r) => Some(r),
            NetError::Snapshot(e) | NetError::Restore(e) => Some(e),
            NetError::Protocol(v) => Some(v),
            _ => None,
        }
    }
}

impl From<WireError> for NetError {
    fn from(e: WireError) -> Self {
        NetError::Wire(e)
    }
}

/// A message the server should not have sent then ([`NetError::Protocol`]); the message is
/// kept whole.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Violation {
    /// A message after the session ended.
    AfterEnd(Box<ServerMsg>),
    /// The first message is neither a welcome nor a refusal.
    NotWelcome(Box<ServerMsg>),
    /// The new host at `addr` answered neither with the resumption at the migration's tick
    /// nor with a refusal.
    NotResumption {
        /// The new host.
        addr: String,
        /// What it sent.
        got: Box<ServerMsg>,
    },
    /// A message a playing client does not take (a second welcome, ...).
    Unexpected(Box<ServerMsg>),
    /// A tick that is not the one after the client's.
    TickOutOfOrder {
        /// The tick sent.
        tick: u64,
        /// The client's.
        after: u64,
    },
    /// A migration at another tick than the client's.
    MigrationTick {
        /// The migration's tick.
        tick: u64,
        /// The client's.
        client: u64,
    },
    /// The client was to play or resume (`doing`) but holds no world (a bug of the client).
    NoWorld {
        /// `playing` or `resuming`.
        doing: &'static str,
    },
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::AfterEnd(msg) => write!(f, "the session has ended; got {msg:?}"),
            Violation::NotWelcome(msg) => write!(f, "expected a welcome, got {msg:?}"),
            Violation::NotResumption { addr, got } => {
                write!(f, "expected a resumption from {addr}, got {got:?}")
            }
            Violation::Unexpected(msg) => write!(f, "unexpected {msg:?}"),
            Violation::TickOutOfOrder { tick, after } => {
                write!(f, "tick {tick} after tick {after}")
            }
            Violation::MigrationTick { tick, client } => {
                write!(f, "migration at tick {tick}, the client is at {client}")
            }
            Violation::NoWorld { doing } => write!(f, "{doing} without a world"),
        }
    }
}

impl std::error::Error for Violation {}

/// Why the server refuses a client's hello ([`NetError::RefusedClient`]): the text is the reason
/// it sends in [`ServerMsg::Refused`] and logs.
#[derive(Debug)]
#[non_exhaustive]
pub enum Refusal {
    /// The first frame could not be read or is not a message.
    BadHello(WireError),
    /// The first message is not a hello.
    NotHello(Box<ClientMsg>),
    /// The client's physics-version is not the match's.
    PhysicsVersion {
        /// The client's.
        client: PhysicsVersion,
        /// The match's.
        server: PhysicsVersion,
    },
    /// The client's game settings are not the match's: every field that differs (the match's
    /// value is `pinned`), and the match's settings.
    Settings {
        /// The fields that differ.
        differ: Vec<FieldDiff>,
        /// The match's settings.
        server: GameSettings,
    },
    /// The client's match id is not the server's.
    Match {
        /// The client's.
        client: u64,
        /// The server's.
        server: u64,
    },
    /// The client's world is not on the match's level (or on one when the match is on none):
    /// it lacks the level's bytes, or holds another level.
    Level {
        /// The client's.
        client: Option<LevelId>,
        /// The match's.
        server: Option<LevelId>,
    },
    /// A reconnection at another tick than the match's.
    ResumeTick {
        /// The client's.
        client: u64,
        /// The match's.
        server: u64,
    },
    /// A reconnection in a seat that is taken or not one of the [`PLAYERS`].
    ResumeSeat {
        /// The seat asked for.
        player: u32,
    },
    /// No whole hello within the deadline after the connection (however its bytes came).
    NoHello {
        /// The deadline, from the connection.
        timeout: Duration,
    },
    /// The handshake was the oldest under way when a new connection came with as many under way
    /// as the server takes at once ([`crate::admission::MAX_PENDING`]): it was cut to make room.
    Evicted {
        /// The cap.
        max: usize,
    },
    /// As many handshakes as the server takes at once from one address are under way
    /// ([`crate::admission::MAX_PENDING_PER_ADDRESS`]).
    BusyAddress {
        /// The address.
        ip: IpAddr,
        /// The cap.
        max: usize,
    },
    /// The match ended before the client was seated.
    Over,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::BadHello(e) => write!(f, "bad hello: {e}"),
            Refusal::NotHello(msg) => write!(f, "expected a hello, got {msg:?}"),
            Refusal::PhysicsVersion { client, server } => write!(
                f,
                "physics-version {client}; this match runs physics-version {server}"
            ),
            Refusal::Level {
                client,
                server: Some(server),
            } => match client {
                None => write!(f, "this match is on level {server}, which the client lacks"),
                Some(client) => write!(
                    f,
                    "the client is on level {client}; this match is on level {server}"
                ),
            },
            Refusal::Level {
                client,
                server: None,
            } => write!(
                f,
                "the client is on level {}; this match is on no level",
                client.map_or("none".to_string(), |c| c.to_string())
            ),
            Refusal::Settings { differ, server } => {
                let list: Vec<String> = differ.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "settings differ from this match's: {} (the match runs {server})",
                    list.join("; ")
                )
            }
            Refusal::Match { client, server } => {
                write!(f, "match {client}; this server runs match {server}")
            }
            Refusal::ResumeTick { client, server } => {
                write!(f, "resume at tick {client}; the match is at tick {server}")
            }
            Refusal::ResumeSeat { player } => write!(
                f,
                "resume as player {player}, which is taken or not one of the {PLAYERS}"
            ),
            Refusal::NoHello { timeout } => {
                write!(f, "no hello within {timeout:?} of connecting")
            }
            Refusal::Evicted { max } => write!(
                f,
                "cut to make room: no hello yet, the oldest of {max} handshakes under way"
            ),
            Refusal::BusyAddress { ip, max } => write!(
                f,
                "too many handshakes under way from {ip} (at most {max} at once); try again later"
            ),
            Refusal::Over => write!(f, "the match is over"),
        }
    }
}

impl std::error::Error for Refusal {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Refusal::BadHello(e) => Some(e),
            _ => None,
        }
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
