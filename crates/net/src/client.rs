//! The reference client: joins a match, restores the server's snapshot, steps in lockstep with
//! the server's confirmed inputs, reports its digest, follows a host migration; as a bot, sends
//! its player's scripted inputs ahead.

use std::io::Write;
use std::net::TcpStream;
use std::ops::RangeInclusive;

use rapier_pinned::{PinnedWorld, SnapshotKey, WorldConfig};
use rapier_pinned_scenes::state_digest;

use crate::inputs::{apply, scripted_for, seat, Action, Input};
use crate::wire::{receive, send, ClientMsg, Resume, ServerMsg};

/// What a finished session saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The tick the client joined at, and its seat (`None`: a spectator).
    pub joined: u64,
    pub player: Option<u32>,
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
/// refusal, divergence or broken connection is an `Err` naming it. A `bot` sends its player's
/// scripted inputs ([`scripted_for`]) `input_delay` ticks ahead; otherwise the client sends no
/// inputs. `desync_at` nudges a body after that tick on purpose, to show that the digest
/// exchange catches a divergence.
pub fn join(
    addr: &str,
    config: WorldConfig,
    key: Option<&SnapshotKey>,
    bot: bool,
    desync_at: Option<u64>,
    log: &mut dyn Write,
) -> Result<Session, String> {
    let io = |e: std::io::Error| e.to_string();
    let mut stream = connect(addr, config, None, bot)?;
    let (mut world, digest_every, player, mut delay) = match receive::<ServerMsg>(&mut stream)
        .map_err(|e| e.to_string())?
    {
        ServerMsg::Welcome {
            tick,
            digest_every,
            player,
            input_delay,
            snapshot,
        } => {
            let world = PinnedWorld::restore(config, &snapshot, key)
                .map_err(|e| format!("refused the server's snapshot: {e} (kind: {})", e.kind()))?;
            if world.tick() != tick {
                return Err(format!(
                    "the snapshot is at tick {}, the server said {tick}",
                    world.tick()
                ));
            }
            writeln!(
                log,
                "joined at tick {tick} as {} (snapshot {} bytes)",
                seat(player),
                snapshot.len()
            )
            .map_err(io)?;
            (world, digest_every.max(1), player, input_delay)
        }
        ServerMsg::Refused { reason } => return Err(format!("refused by the server: {reason}")),
        other => return Err(format!("expected a welcome, got {other:?}")),
    };
    let plays = player.filter(|_| bot);
    let now = world.tick();
    script(&mut stream, plays, now + 1..=now + delay).map_err(io)?;
    let mut session = Session {
        joined: world.tick(),
        player,
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
                script(&mut stream, plays, tick + delay..=tick + delay).map_err(io)?;
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
                    match connect(&addr, config, Some(Resume { tick, player }), bot) {
                        Ok(stream) => break stream,
                        Err(e) if std::time::Instant::now() > deadline => return Err(e),
                        Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
                    }
                };
                match receive::<ServerMsg>(&mut stream).map_err(|e| e.to_string())? {
                    ServerMsg::Resumed {
                        tick: t,
                        input_delay,
                        ..
                    } if t == tick => delay = input_delay,
                    ServerMsg::Refused { reason } => {
                        return Err(format!("refused by {addr}: {reason}"))
                    }
                    other => {
                        return Err(format!("expected a resumption from {addr}, got {other:?}"))
                    }
                }
                // The inputs sent to the old host for the next ticks are gone with it.
                script(&mut stream, plays, tick + 1..=tick + delay).map_err(io)?;
                session.migrations += 1;
                writeln!(log, "migrated to {addr} at tick {tick}").map_err(io)?;
            }
            ServerMsg::InputRefused { tick, reason } => {
                writeln!(log, "inputs for tick {tick} refused: {reason}").map_err(io)?;
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

/// Sends player `plays`'s scripted inputs for each of `ticks` (nothing for `None`: not a bot, or
/// a spectator).
fn script(
    stream: &mut TcpStream,
    plays: Option<u32>,
    ticks: RangeInclusive<u64>,
) -> std::io::Result<()> {
    let Some(player) = plays else {
        return Ok(());
    };
    for tick in ticks {
        let inputs = scripted_for(player, tick);
        send(stream, &ClientMsg::Inputs { tick, inputs })?;
    }
    Ok(())
}

/// Connects and says hello.
fn connect(
    addr: &str,
    config: WorldConfig,
    resume: Option<Resume>,
    sends_inputs: bool,
) -> Result<TcpStream, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("{addr}: {e}"))?;
    // Inputs are small frames the server may be waiting for: no Nagle delay.
    stream
        .set_nodelay(true)
        .map_err(|e| format!("{addr}: {e}"))?;
    let hello = ClientMsg::Hello {
        physics_version: config.physics_version(),
        match_id: config.match_id(),
        settings: config.settings(),
        resume,
        sends_inputs,
    };
    send(&mut stream, &hello).map_err(|e| format!("{addr}: {e}"))?;
    Ok(stream)
}
