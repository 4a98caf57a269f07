//! The reference authoritative server: seats each client as a player, takes its inputs for
//! coming ticks (checked: owner, finite, bounded, within the window), steps a pinned world at a
//! fixed tick with every player's confirmed inputs, streams them to every client, and checks the
//! clients' digests against its own.
//!
//! Strangers never hold the match: connections are accepted and their hellos read off the match
//! loop, bounded ([`crate::admission`]: one deadline for a whole hello, caps on handshakes under
//! way in all and per address); the loop seats a hello that passed at a tick boundary, with the
//! snapshot of that tick, and never waits for one (except at a `join_at` point, which waits for
//! a hello on purpose). A paced server logs how late it started its ticks at the end
//! ([`crate::lateness`]).
//!
//! Every client's socket has a write timeout, the server's `timeout`: a client that stops reading
//! is dropped (logged `client#N left (not reading: ...)`) once a send to it makes no progress
//! that long, and the match goes on. Client frames are read bounded by
//! [`crate::wire::MAX_CLIENT_FRAME`].

use std::collections::BTreeMap;
use std::io::Write;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::{Duration, Instant};

use rapier_pinned::{EventKind, Level, PinnedWorld, SnapshotKey};
use rapier_pinned_digest::state_digest;

use crate::admission::{self, Door, Hello};
use crate::error::{NetError, Refusal};
use crate::inputs::{
    apply, check, check_tick, repeated, seat as seat_name, Input, InputRefusal, PLAYERS,
};
use crate::lateness::Lateness;
use crate::record::{Journal, RecordConfig, Recorder};
use crate::wire::{is_timeout, receive_client, send, ClientMsg, Resume, ServerMsg, WireError};

/// The stack of a client's reader thread: it holds no large buffer (frames live on the heap).
const READER_STACK: usize = 256 << 10;

/// How many digests the server keeps to compare reports with: 1,024 report ticks, 17 minutes at
/// 60 Hz with a report every 60 ticks.
pub const KEPT_DIGESTS: usize = 1024;

/// How a server runs.
pub struct ServerConfig {
    /// Stop after this tick.
    pub ticks: u64,
    /// Step in real time, at the world's tick rate (its settings' `tick_hz`); unpaced, as fast
    /// as it can (tests).
    pub paced: bool,
    /// At each of these ticks, hold until one more client has joined (a tick listed twice waits
    /// for two); hellos are kept for the points to come, one each, and any hello beyond them is
    /// seated at the next tick. With none, clients are seated
    /// whenever they come.
    pub join_at: Vec<u64>,
    /// Clients report their digest every this many ticks.
    pub digest_every: u64,
    /// Clients send their inputs this many ticks ahead (1 to [`crate::inputs::INPUT_WINDOW`]).
    pub input_delay: u64,
    /// The fleet key snapshots are authenticated with.
    pub key: Option<SnapshotKey>,
    /// The level the world is on (its config's), which the welcome's snapshot refers to; a
    /// client must hold it.
    pub level: Option<Level>,
    /// Hand the match over at this tick: write the snapshot to the file, tell the clients to
    /// reconnect to the address, and stop.
    pub migrate: Option<(u64, String, PathBuf)>,
    /// Record the match into a replay file ([`crate::record`]).
    pub record: Option<RecordConfig>,
    /// How long a join point waits, how long an unpaced tick waits for a player's inputs, how
    /// long the end waits for the clients' last digests, the deadline for a connection's whole
    /// hello (from the connection), how long a send to a client may make no progress (a client
    /// that does not read is dropped).
    pub timeout: Duration,
}

/// A connected client.
struct Peer {
    id: usize,
    stream: TcpStream,
    joined: u64,
    checked: usize,
    alive: bool,
    /// Its seat; `None`: a spectator.
    player: Option<u32>,
    /// An unpaced server waits for its inputs: it said it sends them and has not timed out.
    awaited: bool,
    /// The inputs it sent for ticks not yet stepped.
    pending: BTreeMap<u64, Vec<Input>>,
    /// Its player's inputs of the last tick stepped.
    last: Vec<Input>,
    /// Its socket's write timeout: a send that makes no progress this long drops it.
    timeout: Duration,
}

/// What a client's reader thread reports.
enum Event {
    Msg(ClientMsg),
    Closed(String),
}

/// Runs the match in `world` on `listener` until `config.ticks` (or the migration tick),
/// writing one line per event to `log`. Returns the final tick and digest. Connections are
/// accepted and their hellos read off this loop ([`Door`]); a hello is seated at the next tick
/// boundary, its snapshot taken there, unless it is one the join points still to come wait for
/// (with `join_at`, each point seats one hello that waits, in the order they came).
pub fn serve(
    listener: TcpListener,
    mut world: PinnedWorld,
    config: ServerConfig,
    log: &mut dyn Write,
) -> Result<(u64, u64), NetError> {
    // The welcome's snapshot refers to the server's level: it must be the world's.
    world
        .check_level(config.level.as_ref())
        .map_err(NetError::Snapshot)?;
    let recorder = config
        .record
        .as_ref()
        .map(|r| Recorder::start(r, &world, config.level.as_ref(), config.key.as_ref()))
        .transpose()?;
    let log = &mut Journal {
        log,
        recorder,
        now: world.tick(),
    };
    let mut door = Door::open(listener, *world.config(), config.timeout).map_err(NetError::Io)?;
    let (tx, rx) = channel();
    let mut peers: Vec<Peer> = Vec::new();
    let mut digests = BTreeMap::from([(world.tick(), state_digest(world.bodies()))]);
    let mut lateness = Lateness::default();
    let (mut start, mut first_tick) = (Instant::now(), world.tick());
    loop {
        let tick = world.tick();
        let wanted = config.join_at.iter().filter(|t| **t == tick).count();
        // The hellos the join points still to come will seat, one each: any more that wait are
        // seated now, as without join points, never left waiting for a point that is not there.
        let later = config.join_at.iter().filter(|t| **t > tick).count();
        let deadline = Instant::now() + config.timeout;
        // A client that left is forgotten, its socket closed: nothing grows with the match.
        peers.retain(|p| p.alive);
        door.poll(log)?;
        let mut joined = 0;
        while joined < wanted || door.waiting() > later {
            let Some(hello) = door.next() else {
                if joined >= wanted {
                    break;
                }
                if !door.wait(deadline, log)? {
                    return Err(NetError::NoClientJoined {
                        tick,
                        timeout: config.timeout,
                    });
                }
                continue;
            };
            let (id, from) = (hello.id, hello.from);
            let taken: Vec<u32> = peers
                .iter()
                .filter(|p| p.alive)
                .filter_map(|p| p.player)
                .collect();
            match seat(hello, &world, &config, &taken, &tx) {
                Ok(peer) => {
                    let seat = seat_name(peer.player);
                    let line = format!("joined client#{id} at tick {tick} as {seat} from {from}");
                    log.log_event(EventKind::Joined, id, peer.player, &line)?;
                    peers.push(peer);
                    joined += 1;
                }
                Err(reason) => {
                    let line = format!("refused client#{id} from {from}: {reason}");
                    log.log_event(EventKind::Refused, id, None, &line)?;
                }
            }
        }
        drain(&rx, &mut peers, &digests, tick, log)?;
        if let Some((at, addr, path)) = &config.migrate {
            if *at == tick {
                door.close(config.timeout, log)?;
                let bytes = world.snapshot(config.key.as_ref());
                std::fs::write(path, &bytes).map_err(|source| NetError::WriteSnapshot {
                    path: path.clone(),
                    source,
                })?;
                broadcast(
                    &mut peers,
                    &ServerMsg::Migrate {
                        addr: addr.clone(),
                        tick,
                    },
                    log,
                )?;
                writeln!(
                    log,
                    "migrated at tick {tick} to {addr}: snapshot {} bytes",
                    bytes.len()
                )
                .map_err(NetError::Log)?;
                return finish(&rx, &mut peers, &digests, tick, log, config.timeout);
            }
        }
        if tick >= config.ticks {
            door.close(config.timeout, log)?;
            let digest = digests[&tick];
            broadcast(&mut peers, &ServerMsg::Bye { tick, digest }, log)?;
            writeln!(log, "done tick {tick} digest {digest:016x}").map_err(NetError::Log)?;
            if config.paced {
                writeln!(log, "{lateness}").map_err(NetError::Log)?;
            }
            return finish(&rx, &mut peers, &digests, tick, log, config.timeout);
        }
        if config.paced {
            // On time: the schedule starts again after a join point held the match.
            if wanted > 0 {
                (start, first_tick) = (Instant::now(), tick);
            }
            let hz = f64::from(world.config().settings().tick_hz);
            let due = start + Duration::from_secs_f64((tick + 1 - first_tick) as f64 / hz);
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
            drain(&rx, &mut peers, &digests, tick, log)?;
            let late = Instant::now().saturating_duration_since(due);
            lateness.record(late);
            if late.as_secs_f64() * hz > 1.0 {
                // Players' inputs for the ticks it now steps at once may come too late.
                let (next, ms) = (tick + 1, late.as_secs_f64() * 1e3);
                writeln!(
                    log,
                    "tick {next} started {ms:.1} ms late (more than a tick)"
                )
                .map_err(NetError::Log)?;
            }
        } else {
            await_inputs(&rx, &mut peers, &digests, tick, config.timeout, log)?;
        }
        let inputs = confirm(&mut peers, tick + 1);
        apply(&mut world, &inputs);
        world.step();
        let digest = state_digest(world.bodies());
        log.tick(&world, &inputs);
        keep(&mut digests, world.tick(), digest, &config);
        broadcast(
            &mut peers,
            &ServerMsg::Tick {
                tick: world.tick(),
                inputs,
            },
            log,
        )?;
    }
}

/// Seats a client whose hello passed the door's checks, the match being at `world`'s tick: with
/// the snapshot taken now, or as a reconnection at this tick in the seat it held; a new client
/// takes the lowest seat not `taken`. Or refuses it with the reason
/// ([`NetError::RefusedClient`]).
fn seat(
    hello: Hello,
    world: &PinnedWorld,
    config: &ServerConfig,
    taken: &[u32],
    tx: &Sender<(usize, Event)>,
) -> Result<Peer, NetError> {
    let Hello {
        id,
        mut stream,
        resume,
        sends_inputs,
        ..
    } = hello;
    let refuse = |stream: &mut TcpStream, refusal: Refusal| {
        admission::refuse(stream, &refusal);
        NetError::RefusedClient(refusal)
    };
    let tick = world.tick();
    let (digest_every, input_delay) = (config.digest_every, config.input_delay);
    let player = match resume {
        None => (0..PLAYERS).find(|p| !taken.contains(p)),
        Some(Resume { tick: t, .. }) if t != tick => {
            let refusal = Refusal::ResumeTick {
                client: t,
                server: tick,
            };
            return Err(refuse(&mut stream, refusal));
        }
        Some(Resume {
            player: Some(p), ..
        }) if p >= PLAYERS || taken.contains(&p) => {
            return Err(refuse(&mut stream, Refusal::ResumeSeat { player: p }));
        }
        Some(Resume { player, .. }) => player,
    };
    let welcome = match resume {
        None => ServerMsg::Welcome {
            tick,
            digest_every,
            player,
            input_delay,
            level: world.config().level().map(|id| id.0),
            snapshot: world
                .snapshot_linked(config.level.as_ref(), config.key.as_ref())
                .expect("the level was checked against the world's when the server started"),
        },
        Some(_) => ServerMsg::Resumed {
            tick,
            digest_every,
            player,
            input_delay,
        },
    };
    // A client that stops reading fails a send after the write timeout the door set, and is
    // dropped (`deliver`).
    send(&mut stream, &welcome).map_err(NetError::Io)?;
    let mut reader = stream.try_clone().map_err(NetError::Io)?;
    reader.set_read_timeout(None).map_err(NetError::Io)?;
    let tx = tx.clone();
    let reads = move || loop {
        match receive_client(&mut reader) {
            Ok(msg) => {
                if tx.send((id, Event::Msg(msg))).is_err() {
                    return;
                }
            }
            Err(e) => {
                let why = match e {
                    WireError::Io(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                        "closed".to_string()
                    }
                    e => e.to_string(),
                };
                let _ = tx.send((id, Event::Closed(why)));
                return;
            }
        }
    };
    std::thread::Builder::new()
        .name(format!("client#{id}"))
        .stack_size(READER_STACK)
        .spawn(reads)
        .map_err(NetError::Io)?;
    Ok(Peer {
        id,
        stream,
        joined: tick,
        checked: 0,
        alive: true,
        player,
        awaited: sends_inputs && player.is_some(),
        pending: BTreeMap::new(),
        last: Vec::new(),
        timeout: config.timeout,
    })
}

/// Keeps the digest of `tick`, just stepped, to compare the clients' reports with, and forgets
/// what no report needs: the previous tick's unless clients report it (a multiple of
/// `digest_every`), and the oldest past [`KEPT_DIGESTS`]. So the server's memory does not grow
/// with the match.
fn keep(digests: &mut BTreeMap<u64, u64>, tick: u64, digest: u64, config: &ServerConfig) {
    digests.insert(tick, digest);
    let previous = tick - 1;
    if previous % config.digest_every.max(1) != 0 {
        digests.remove(&previous);
    }
    while digests.len() > KEPT_DIGESTS {
        digests.pop_first();
    }
}

/// Sends `msg` to every live client ([`deliver`]).
fn broadcast(peers: &mut [Peer], msg: &ServerMsg, log: &mut Journal<'_>) -> Result<(), NetError> {
    for peer in peers.iter_mut().filter(|p| p.alive) {
        deliver(peer, msg, log)?;
    }
    Ok(())
}

/// Sends `msg` to a live client; one whose socket fails has left and is logged so: a client
/// that closed (seen here or by its reader thread, whichever comes first), or one that does not
/// read (the send made no progress within its write timeout). The match goes on without it.
fn deliver(peer: &mut Peer, msg: &ServerMsg, log: &mut Journal<'_>) -> Result<(), NetError> {
    if let Err(e) = send(&mut peer.stream, msg) {
        let why = if is_timeout(&e) {
            format!(
                "not reading: a send made no progress within {:?}",
                peer.timeout
            )
        } else {
            e.to_string()
        };
        leave(peer, &why, log)?;
    }
    Ok(())
}

/// Logs that a live client left and why, and stops serving it: its connection is shut down
/// (after a failed send part of a frame may have gone out; nothing may follow it).
fn leave(peer: &mut Peer, why: &str, log: &mut Journal<'_>) -> Result<(), NetError> {
    if peer.alive {
        let line = format!(
            "client#{} left ({why}) after {} equal digests, joined at tick {}",
            peer.id, peer.checked, peer.joined
        );
        log.log_event(EventKind::Left, peer.id, peer.player, &line)?;
    }
    peer.alive = false;
    let _ = peer.stream.shutdown(Shutdown::Both);
    Ok(())
}

/// Handles every event the clients sent so far, the match being at tick `now`.
fn drain(
    rx: &Receiver<(usize, Event)>,
    peers: &mut [Peer],
    digests: &BTreeMap<u64, u64>,
    now: u64,
    log: &mut Journal<'_>,
) -> Result<(), NetError> {
    while let Ok((id, event)) = rx.try_recv() {
        handle(id, event, peers, digests, now, log)?;
    }
    Ok(())
}

/// Lockstep (unpaced): handles events until every awaited player has sent its inputs for
/// `now + 1`, at most `timeout`; a player still missing then is logged and no longer awaited.
fn await_inputs(
    rx: &Receiver<(usize, Event)>,
    peers: &mut [Peer],
    digests: &BTreeMap<u64, u64>,
    now: u64,
    timeout: Duration,
    log: &mut Journal<'_>,
) -> Result<(), NetError> {
    let deadline = Instant::now() + timeout;
    let missing = |p: &Peer| p.alive && p.awaited && !p.pending.contains_key(&(now + 1));
    while peers.iter().any(missing) {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok((id, event)) => handle(id, event, peers, digests, now, log)?,
            Err(_) => {
                for peer in peers.iter_mut().filter(|p| missing(p)) {
                    let (id, tick) = (peer.id, now + 1);
                    let why = format!("no inputs for tick {tick} within {timeout:?}");
                    writeln!(
                        log,
                        "client#{id} sent {why}: repeating its last, no longer awaited"
                    )
                    .map_err(NetError::Log)?;
                    peer.awaited = false;
                }
            }
        }
    }
    Ok(())
}

/// Every seated player's confirmed inputs for `tick`, in player order: what its client sent for
/// `tick`, or else [`repeated`] of its last.
fn confirm(peers: &mut [Peer], tick: u64) -> Vec<Input> {
    let mut seated: Vec<&mut Peer> = peers
        .iter_mut()
        .filter(|p| p.alive && p.player.is_some())
        .collect();
    seated.sort_by_key(|p| p.player);
    let mut inputs = Vec::new();
    for peer in seated {
        peer.last = match peer.pending.remove(&tick) {
            Some(sent) => sent,
            None => repeated(&peer.last),
        };
        inputs.extend_from_slice(&peer.last);
    }
    inputs
}

/// Takes `peer`'s inputs for `tick` while the match is at `now`, or says why not: [`check`]'s
/// reasons, [`check_tick`]'s, or a second set for the same tick.
fn take(peer: &mut Peer, now: u64, tick: u64, inputs: Vec<Input>) -> Result<(), InputRefusal> {
    check(peer.player, &inputs)?;
    check_tick(now, tick)?;
    if peer.pending.contains_key(&tick) {
        return Err(InputRefusal::Repeated { tick });
    }
    peer.pending.insert(tick, inputs);
    Ok(())
}

/// Handles one client's event, the match being at tick `now`: a digest is compared with the
/// server's (a mismatch ends that session with the tick and both values); inputs are taken for
/// their tick, or refused to that client with the reason.
fn handle(
    id: usize,
    event: Event,
    peers: &mut [Peer],
    digests: &BTreeMap<u64, u64>,
    now: u64,
    log: &mut Journal<'_>,
) -> Result<(), NetError> {
    let Some(peer) = peers.iter_mut().find(|p| p.id == id) else {
        return Ok(());
    };
    match event {
        Event::Msg(ClientMsg::Digest { tick, digest }) => {
            match digests.get(&tick) {
                Some(&ours) if ours == digest => peer.checked += 1,
                Some(&ours) => {
                    let line = format!("diverged client#{id} at tick {tick}: server {ours:016x}, client {digest:016x}");
                    log.log_event(EventKind::Diverged, id, peer.player, &line)?;
                    let _ = send(
                        &mut peer.stream,
                        &ServerMsg::Diverged {
                            tick,
                            server: ours,
                            client: digest,
                        },
                    );
                    peer.alive = false;
                }
                None if tick > now => {
                    let line = format!("dropped client#{id}: digest for tick {tick}, which the server has not stepped");
                    log.log_event(EventKind::Left, id, peer.player, &line)?;
                    peer.alive = false;
                }
                None => {
                    let line = format!("dropped client#{id}: digest for tick {tick}, which the server does not keep (it keeps the digest-every ticks' and the last tick's, the last {KEPT_DIGESTS})");
                    log.log_event(EventKind::Left, id, peer.player, &line)?;
                    peer.alive = false;
                }
            }
        }
        Event::Msg(ClientMsg::Inputs { tick, inputs }) => {
            if let Err(reason) = take(peer, now, tick, inputs) {
                let line = format!("refused inputs of client#{id} for tick {tick}: {reason}");
                log.log_event(EventKind::InputRefused, id, peer.player, &line)?;
                let reason = reason.to_string();
                deliver(peer, &ServerMsg::InputRefused { tick, reason }, log)?;
            }
        }
        Event::Msg(other) => {
            let line = format!("dropped client#{id}: unexpected {other:?}");
            log.log_event(EventKind::Left, id, peer.player, &line)?;
            peer.alive = false;
        }
        Event::Closed(why) => leave(peer, &why, log)?,
    }
    Ok(())
}

/// Waits for every client to send its last digests and close, then reports.
fn finish(
    rx: &Receiver<(usize, Event)>,
    peers: &mut [Peer],
    digests: &BTreeMap<u64, u64>,
    tick: u64,
    log: &mut Journal<'_>,
    timeout: Duration,
) -> Result<(u64, u64), NetError> {
    let deadline = Instant::now() + timeout;
    while peers.iter().any(|p| p.alive) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok((id, event)) => handle(id, event, peers, digests, tick, log)?,
            Err(_) => return Err(NetError::ClientsStillConnected { timeout }),
        }
    }
    Ok((tick, digests[&tick]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digests_kept_are_the_report_ticks_and_the_last_at_most_kept_digests() {
        let config = ServerConfig {
            ticks: 0,
            paced: false,
            join_at: Vec::new(),
            digest_every: 60,
            input_delay: 2,
            key: None,
            level: None,
            migrate: None,
            record: None,
            timeout: Duration::from_secs(1),
        };
        let mut digests = BTreeMap::from([(7, 0)]);
        for tick in 8..=200 {
            keep(&mut digests, tick, tick * 10, &config);
        }
        assert_eq!(
            digests.into_iter().collect::<Vec<_>>(),
            [(60, 600), (120, 1200), (180, 1800), (200, 2000)]
        );
        let mut digests = BTreeMap::new();
        let last = 60 * (KEPT_DIGESTS as u64 + 10);
        for tick in 1..=last {
            keep(&mut digests, tick, tick, &config);
        }
        assert_eq!(digests.len(), KEPT_DIGESTS);
        assert_eq!(digests.last_key_value(), Some((&last, &last)));
    }
}
