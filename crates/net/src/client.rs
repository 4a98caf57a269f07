//! The reference client: joins a match, restores the server's snapshot, steps in lockstep with
//! the server's inputs, reports its digest, follows a host migration.

use std::io::Write;
use std::net::TcpStream;

use rapier_pinned::{PinnedWorld, SnapshotKey, WorldConfig};
use rapier_pinned_scenes::state_digest;

use crate::inputs::{apply, Action, Input};
use crate::wire::{receive, send, ClientMsg, ServerMsg};

/// What a finished session saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The tick the client joined at.
    pub joined: u64,
    /// The last tick, and the client's digest there (equal to the server's).
    pub tick: u64,
    pub digest: u64,
    /// Digests the client reported.
    pub reported: usize,
    /// Host migrations followed.
    pub migrations: usize,
}

/// Joins the match at `addr` as a client of `config`'s physics-version and match, restores the
/// snapshot (checked with `key` when given) and steps until the server says goodbye. Every
/// refusal, divergence or broken connection is an `Err` naming it. `desync_at` nudges a body
/// after that tick on purpose, to show that the digest exchange catches a divergence.
pub fn join(
    addr: &str,
    config: WorldConfig,
    key: Option<&SnapshotKey>,
    desync_at: Option<u64>,
    log: &mut dyn Write,
) -> Result<Session, String> {
    let io = |e: std::io::Error| e.to_string();
    let mut stream = connect(addr, config, None)?;
    let (mut world, digest_every) = match receive::<ServerMsg>(&mut stream)
        .map_err(|e| e.to_string())?
    {
        ServerMsg::Welcome {
            tick,
            digest_every,
            snapshot,
        } => {
            let world = PinnedWorld::restore(config, &snapshot, key).map_err(|e| {
                format!("refused the server's snapshot: {e} (kind: {:?})", e.kind())
            })?;
            if world.tick() != tick {
                return Err(format!(
                    "the snapshot is at tick {}, the server said {tick}",
                    world.tick()
                ));
            }
            writeln!(
                log,
                "joined at tick {tick} (snapshot {} bytes)",
                snapshot.len()
            )
            .map_err(io)?;
            (world, digest_every.max(1))
        }
        ServerMsg::Refused { reason } => return Err(format!("refused by the server: {reason}")),
        other => return Err(format!("expected a welcome, got {other:?}")),
    };
    let mut session = Session {
        joined: world.tick(),
        tick: world.tick(),
        digest: 0,
        reported: 0,
        migrations: 0,
    };
    loop {
        match receive::<ServerMsg>(&mut stream).map_err(|e| e.to_string())? {
            ServerMsg::Tick { tick, inputs } => {
                if tick != world.tick() + 1 {
                    return Err(format!("tick {tick} after tick {}", world.tick()));
                }
                apply(&mut world, &inputs);
                world.step();
                if desync_at == Some(tick) {
                    let nudge = [Input {
                        body: (0, 0),
                        action: Action::Impulse([0.0, 0.0, 1e-3]),
                    }];
                    apply(&mut world, &nudge);
                    writeln!(log, "nudged body 0v0 after tick {tick} on purpose").map_err(io)?;
                }
                if tick % digest_every == 0 {
                    send(
                        &mut stream,
                        &ClientMsg::Digest {
                            tick,
                            digest: state_digest(world.bodies()),
                        },
                    )
                    .map_err(io)?;
                    session.reported += 1;
                }
            }
            ServerMsg::Migrate { addr, tick } => {
                if tick != world.tick() {
                    return Err(format!(
                        "migration at tick {tick}, the client is at {}",
                        world.tick()
                    ));
                }
                drop(stream);
                // The new host may still be starting (restoring the snapshot): retry for a while.
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
                stream = loop {
                    match connect(&addr, config, Some(tick)) {
                        Ok(stream) => break stream,
                        Err(e) if std::time::Instant::now() > deadline => return Err(e),
                        Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
                    }
                };
                match receive::<ServerMsg>(&mut stream).map_err(|e| e.to_string())? {
                    ServerMsg::Resumed { tick: t, .. } if t == tick => {}
                    ServerMsg::Refused { reason } => {
                        return Err(format!("refused by {addr}: {reason}"))
                    }
                    other => {
                        return Err(format!("expected a resumption from {addr}, got {other:?}"))
                    }
                }
                session.migrations += 1;
                writeln!(log, "migrated to {addr} at tick {tick}").map_err(io)?;
            }
            ServerMsg::Bye { tick, digest } => {
                let ours = state_digest(world.bodies());
                send(&mut stream, &ClientMsg::Digest { tick, digest: ours }).map_err(io)?;
                session.reported += 1;
                if (tick, digest) != (world.tick(), ours) {
                    return Err(format!("at the end: server tick {tick} digest {digest:016x}, client tick {} digest {ours:016x}", world.tick()));
                }
                (session.tick, session.digest) = (tick, ours);
                writeln!(
                    log,
                    "done tick {tick} digest {ours:016x}, equal to the server's"
                )
                .map_err(io)?;
                return Ok(session);
            }
            ServerMsg::Diverged {
                tick,
                server,
                client,
            } => {
                return Err(format!(
                    "diverged at tick {tick}: server {server:016x}, client {client:016x}"
                ));
            }
            other => return Err(format!("unexpected {other:?}")),
        }
    }
}

/// Connects and says hello.
fn connect(addr: &str, config: WorldConfig, resume_tick: Option<u64>) -> Result<TcpStream, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("{addr}: {e}"))?;
    let hello = ClientMsg::Hello {
        physics_version: config.physics_version(),
        match_id: config.match_id(),
        settings: config.settings(),
        resume_tick,
    };
    send(&mut stream, &hello).map_err(|e| format!("{addr}: {e}"))?;
    Ok(stream)
}
