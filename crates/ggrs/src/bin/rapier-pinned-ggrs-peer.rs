//! One process of a GGRS match on a pinned arena over UDP (the two-process tests of
//! `tests/udp.rs`; `docs/multiplayer.md`, "GGRS").
//!
//! - `play`: one of two players, driven by a seeded bot, over GGRS's UDP socket behind a lossy
//!   filter ([`LossySocket`]), at 60 frames per second, with desync detection. Prints
//!   `frame F digest D` for every confirmed frame up to `--frames`, `desync at frame F ...` for
//!   each desync GGRS reports, and a summary line. The host (`--player 0`) may serve a keyed
//!   snapshot of a confirmed frame to a late joiner over TCP (`--snapshot-listen`).
//! - `spectate`: a GGRS spectator of the host that has no world until it gets that snapshot; it
//!   restores it, then follows the match, printing `frame F digest D` from the snapshot's frame on.

use clap::{Args, Parser, Subcommand};
use ggrs::{
    DesyncDetection, Frame, GgrsError, GgrsEvent, GgrsRequest, InputStatus, PlayerType,
    SessionBuilder, SessionState,
};
use rapier_pinned::{PhysicsVersion, PinnedWorld, SnapshotKey, WorldConfig};
use rapier_pinned_ggrs::lossy::{LossySocket, Network};
use rapier_pinned_ggrs::{arena, checksum, Bot, GgrsConfig, GgrsWorld, PlayerInput};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

/// Frames per second every peer runs at.
const FPS: u32 = 60;
/// How long a peer waits for the others to connect or to catch up before giving up.
const TIMEOUT: Duration = Duration::from_secs(60);
/// Frames a player runs past `--frames` so that the other confirms its last ones too.
const MARGIN: Frame = 60;
/// How long players wait, once their session is synchronized, before the first frame: a
/// spectator whose own synchronization ends more than 60 frames (GGRS's spectator input buffer)
/// after the host's starts too far behind to ever catch up; a countdown keeps it in range.
const COUNTDOWN: Duration = Duration::from_secs(2);
/// Silence after which GGRS reports a peer disconnected (its default, 2 s, is short for a
/// loaded 2-core test machine running five peers).
const DISCONNECT: Duration = Duration::from_secs(10);

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    role: Role,
}

#[derive(Subcommand)]
enum Role {
    /// One of the two players.
    Play(Play),
    /// A spectator that joins late from a pinned snapshot.
    Spectate(Spectate),
}

/// What every peer of a match shares.
#[derive(Args)]
struct Common {
    /// Local UDP port.
    #[arg(long)]
    port: u16,
    /// Physics-version of this peer's world.
    #[arg(long, default_value_t = rapier_pinned::PHYSICS_VERSION_CURRENT)]
    physics_version: PhysicsVersion,
    /// Frames to report.
    #[arg(long, default_value_t = 1800)]
    frames: Frame,
    /// Seed of the bots and of the network's losses and delays.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Share of packets this peer's socket drops.
    #[arg(long, default_value_t = 0.05)]
    loss: f64,
    /// Shortest and longest delay of a packet, in ms.
    #[arg(long, default_value_t = 20)]
    delay_min_ms: u64,
    #[arg(long, default_value_t = 80)]
    delay_max_ms: u64,
    /// The fleet key of the late-join snapshot, 64 hex digits.
    #[arg(long)]
    key_hex: Option<String>,
}

impl Common {
    /// How long the whole run may take: its frames at [`FPS`] plus [`TIMEOUT`].
    fn deadline(&self) -> Duration {
        TIMEOUT + Duration::from_secs_f64(f64::from(self.frames) / f64::from(FPS))
    }

    fn network(&self) -> Network {
        Network {
            loss: self.loss,
            delay: (
                Duration::from_millis(self.delay_min_ms),
                Duration::from_millis(self.delay_max_ms),
            ),
        }
    }

    fn key(&self) -> Result<Option<SnapshotKey>, String> {
        let Some(hex) = &self.key_hex else {
            return Ok(None);
        };
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("?"), 16))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("--key-hex: {e}"))?;
        let bytes: [u8; 32] = bytes
            .try_into()
            .map_err(|_| "--key-hex: expected 64 hex digits".to_string())?;
        Ok(Some(SnapshotKey::new(bytes)))
    }
}

#[derive(Args)]
struct Play {
    #[command(flatten)]
    common: Common,
    /// This peer's player (0 hosts the spectator and the snapshot).
    #[arg(long)]
    player: usize,
    /// The other player's UDP address.
    #[arg(long)]
    remote: SocketAddr,
    /// A spectator's UDP address (GGRS registers spectators when the session starts).
    #[arg(long)]
    spectator: Option<SocketAddr>,
    /// Frames a local input waits before it applies.
    #[arg(long, default_value_t = 2)]
    input_delay: usize,
    /// Desync detection interval in frames.
    #[arg(long, default_value_t = 10)]
    desync_every: u32,
    /// Serve a snapshot of confirmed frame `--snapshot-frame` to the first TCP client here.
    #[arg(long, requires = "snapshot_frame")]
    snapshot_listen: Option<SocketAddr>,
    #[arg(long)]
    snapshot_frame: Option<Frame>,
}

#[derive(Args)]
struct Spectate {
    #[command(flatten)]
    common: Common,
    /// The host's UDP address.
    #[arg(long)]
    host: SocketAddr,
    /// Where the host serves the snapshot (TCP).
    #[arg(long)]
    snapshot_from: SocketAddr,
}

fn main() -> ExitCode {
    let result = match Cli::parse().role {
        Role::Play(p) => play(p),
        Role::Spectate(s) => spectate(s),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn ggrs_error(e: GgrsError) -> String {
    format!("ggrs: {e}")
}

/// Sleeps until frame `frame` is due at [`FPS`] from `start`.
fn pace(start: Instant, frame: u64) {
    let due = start + Duration::from_secs_f64(frame as f64 / f64::from(FPS));
    std::thread::sleep(due.saturating_duration_since(Instant::now()));
}

/// A player: runs until its confirmed frame is `--frames` + [`MARGIN`].
fn play(o: Play) -> Result<(), String> {
    let c = &o.common;
    let key = c.key()?;
    if o.snapshot_frame.is_some_and(|f| f > c.frames) {
        return Err("--snapshot-frame is past --frames: it would never be reported".into());
    }
    let socket = LossySocket::bind(c.port, c.network(), c.seed ^ (o.player as u64 + 1) << 32)
        .map_err(|e| format!("UDP port {}: {e}", c.port))?;
    let traffic = socket.traffic();
    let mut builder = SessionBuilder::<GgrsConfig>::new()
        .with_num_players(2)
        .map_err(ggrs_error)?
        .with_input_delay(o.input_delay)
        .with_disconnect_timeout(DISCONNECT)
        .with_desync_detection_mode(DesyncDetection::On {
            interval: o.desync_every,
        })
        .add_player(PlayerType::Local, o.player)
        .map_err(ggrs_error)?
        .add_player(PlayerType::Remote(o.remote), 1 - o.player)
        .map_err(ggrs_error)?;
    if let Some(addr) = o.spectator {
        builder = builder
            .add_player(PlayerType::Spectator(addr), 2)
            .map_err(ggrs_error)?;
    }
    let mut session = builder.start_p2p_session(socket).map_err(ggrs_error)?;
    let listener = o
        .snapshot_listen
        .map(|addr| {
            let l = TcpListener::bind(addr).map_err(|e| format!("{addr}: {e}"))?;
            l.set_nonblocking(true).map_err(|e| e.to_string())?;
            Ok::<_, String>(l)
        })
        .transpose()?;
    let mut served = listener.is_none();
    let mut game = GgrsWorld::new(arena(c.physics_version).map_err(|e| e.to_string())?);
    let mut bot = Bot::new(c.seed, o.player);
    let mut pending: Option<PlayerInput> = None;
    // The checksum of every saved frame not reported yet, and the world at the snapshot frame
    // (each kept from its latest save: a confirmed frame is never saved again).
    let mut sums: BTreeMap<Frame, u128> = BTreeMap::new();
    let mut at_snapshot: Option<PinnedWorld> = None;
    let (mut reported, mut desyncs, mut rollbacks, mut advanced) = (-1, 0, 0u64, 0u64);
    let start = Instant::now();
    let mut running_since = None;
    loop {
        if start.elapsed() > c.deadline() {
            return Err(format!("timed out at frame {}", game.frame()));
        }
        session.poll_remote_clients();
        for event in session.events() {
            match event {
                GgrsEvent::DesyncDetected {
                    frame,
                    local_checksum,
                    remote_checksum,
                    ..
                } => {
                    desyncs += 1;
                    println!(
                        "desync at frame {frame}: local {local_checksum:016x}, remote \
                         {remote_checksum:016x}"
                    );
                }
                // A spectator leaving does not end the match; the other player leaving early does.
                GgrsEvent::Disconnected { addr } if addr != o.remote => {
                    println!("the spectator at {addr} left at frame {}", game.frame());
                }
                GgrsEvent::Disconnected { .. } if reported < c.frames => {
                    return Err(format!("the other player left at frame {}", game.frame()));
                }
                _ => {}
            }
        }
        if session.current_state() != SessionState::Running {
            std::thread::sleep(Duration::from_millis(2));
            continue;
        }
        let first_frame = *running_since.get_or_insert_with(Instant::now) + COUNTDOWN;
        if Instant::now() < first_frame {
            std::thread::sleep(Duration::from_millis(2));
            continue;
        }
        // The bot's input for this frame, kept until the frame really advances: at the
        // prediction threshold GGRS returns no AdvanceFrame for it (and keeps the input it got).
        let input = *pending.get_or_insert_with(|| bot.next_input());
        session
            .add_local_input(o.player, input)
            .map_err(ggrs_error)?;
        let before = session.current_frame();
        match session.advance_frame() {
            Ok(requests) => {
                if session.current_frame() > before {
                    pending = None;
                    advanced += 1;
                } else {
                    // Too far ahead of the other peer: wait for its inputs.
                    std::thread::sleep(Duration::from_millis(1));
                }
                for request in requests {
                    let saved = match &request {
                        GgrsRequest::SaveGameState { frame, .. } => Some(*frame),
                        GgrsRequest::LoadGameState { .. } => {
                            rollbacks += 1;
                            None
                        }
                        GgrsRequest::AdvanceFrame { .. } => None,
                    };
                    game.handle(vec![request]).map_err(|e| e.to_string())?;
                    if let Some(frame) = saved {
                        sums.insert(frame, checksum(game.world()));
                        if Some(frame) == o.snapshot_frame {
                            at_snapshot = Some(game.world().clone());
                        }
                    }
                }
            }
            Err(e) => return Err(ggrs_error(e)),
        }
        // A frame is final once every input before it is confirmed and it has been saved (the
        // confirmed frame may run ahead of the world by the input delay).
        let confirmed = session.confirmed_frame();
        let last = confirmed.min(game.frame() - 1).min(c.frames);
        while reported < last {
            reported += 1;
            let sum = sums
                .get(&reported)
                .ok_or_else(|| format!("confirmed frame {reported} was never saved"))?;
            println!("frame {reported} digest {sum:016x}");
        }
        sums.retain(|f, _| *f > reported);
        if let (false, Some(listener), Some(frame)) = (served, &listener, o.snapshot_frame) {
            // Once reported, the frame is final and saved (the confirmed frame alone may run
            // ahead of the world, which then has not reached the frame yet).
            if reported >= frame {
                let world = at_snapshot
                    .as_ref()
                    .ok_or("the snapshot frame was never saved")?;
                if let Ok((stream, _)) = listener.accept() {
                    send_snapshot(stream, &world.snapshot(key.as_ref()))?;
                    println!("served the snapshot of frame {frame}");
                    served = true;
                }
            }
        }
        if reported >= c.frames && confirmed >= c.frames + MARGIN && served {
            break;
        }
        pace(first_frame, advanced);
    }
    let (sent, dropped, bytes) = (
        traffic.sent.load(Relaxed),
        traffic.dropped.load(Relaxed),
        traffic.bytes.load(Relaxed),
    );
    println!(
        "done: {} frames confirmed, {desyncs} desyncs, {rollbacks} rollbacks; sent {bytes} bytes \
         in {sent} packets ({dropped} dropped), {:.1} bytes per frame",
        reported + 1,
        bytes as f64 / advanced as f64
    );
    Ok(())
}

/// Writes a length-prefixed snapshot.
fn send_snapshot(mut stream: TcpStream, bytes: &[u8]) -> Result<(), String> {
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    stream
        .write_all(&(bytes.len() as u32).to_le_bytes())
        .and_then(|_| stream.write_all(bytes))
        .map_err(|e| format!("sending the snapshot: {e}"))
}

/// Reads a length-prefixed snapshot of at most 64 MiB from `addr`, retrying the connection
/// until the host listens.
fn fetch_snapshot(addr: SocketAddr) -> Result<Vec<u8>, String> {
    let start = Instant::now();
    let mut stream = loop {
        match TcpStream::connect(addr) {
            Ok(s) => break s,
            Err(_) if start.elapsed() < TIMEOUT => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("{addr}: {e}")),
        }
    };
    let mut len = [0; 4];
    stream.read_exact(&mut len).map_err(|e| e.to_string())?;
    let len = u32::from_le_bytes(len);
    if len > 64 << 20 {
        return Err(format!(
            "a snapshot of {len} bytes is over the 64 MiB limit"
        ));
    }
    let mut bytes = vec![0; len as usize];
    stream.read_exact(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// A spectator: buffers the host's confirmed inputs until the snapshot arrives, restores it,
/// then steps each frame's inputs from the snapshot's frame on.
fn spectate(o: Spectate) -> Result<(), String> {
    let c = &o.common;
    let key = c.key()?;
    let socket = LossySocket::bind(c.port, c.network(), c.seed ^ 3 << 32)
        .map_err(|e| format!("UDP port {}: {e}", c.port))?;
    let mut session = SessionBuilder::<GgrsConfig>::new()
        .with_num_players(2)
        .map_err(ggrs_error)?
        .with_disconnect_timeout(DISCONNECT)
        .start_spectator_session(o.host, socket);
    let from = o.snapshot_from;
    let snapshot = std::thread::spawn(move || fetch_snapshot(from));
    let mut snapshot = Some(snapshot);
    let config = WorldConfig::new(c.physics_version).map_err(|e| e.to_string())?;
    // Every frame's inputs from frame 0, until the world exists; then only the ones ahead of it.
    let mut inputs: BTreeMap<Frame, Vec<(PlayerInput, InputStatus)>> = BTreeMap::new();
    let mut next_frame: Frame = 0;
    let mut game: Option<(GgrsWorld, Frame)> = None;
    let start = Instant::now();
    loop {
        if start.elapsed() > c.deadline() {
            return Err(format!("timed out after frame {next_frame}"));
        }
        session.poll_remote_clients();
        for event in session.events() {
            if let GgrsEvent::Disconnected { .. } = event {
                return Err(format!("the host left after frame {next_frame}"));
            }
        }
        if session.current_state() == SessionState::Running {
            match session.advance_frame() {
                Ok(requests) => {
                    for request in requests {
                        if let GgrsRequest::AdvanceFrame { inputs: i } = request {
                            inputs.insert(next_frame, i);
                            next_frame += 1;
                        }
                    }
                }
                Err(GgrsError::PredictionThreshold) => {}
                Err(e) => {
                    return Err(format!(
                    "{} at frame {next_frame}, {} ms after the start, {} frames behind the host",
                    ggrs_error(e),
                    start.elapsed().as_millis(),
                    session.frames_behind_host()
                ))
                }
            }
        }
        if game.is_none() && snapshot.as_ref().is_some_and(|t| t.is_finished()) {
            let bytes = snapshot
                .take()
                .expect("checked")
                .join()
                .expect("no panic")?;
            let world = PinnedWorld::restore(config, &bytes, key.as_ref())
                .map_err(|e| format!("the host's snapshot is refused: {e}"))?;
            let frame = world.tick() as Frame;
            println!(
                "joined at frame {frame} from a {} byte snapshot",
                bytes.len()
            );
            println!("frame {frame} digest {:016x}", checksum(&world));
            // The world is at `frame` of the match; GGRS's frames count from the match's start.
            game = Some((GgrsWorld::new(world), frame));
        }
        if let Some((world, first)) = game.as_mut() {
            let at = *first + world.frame();
            inputs.retain(|f, _| *f >= at);
            while let Some(frame_inputs) = inputs.remove(&(*first + world.frame())) {
                world.advance(&frame_inputs);
                let frame = *first + world.frame();
                println!("frame {frame} digest {:016x}", checksum(world.world()));
                if frame >= c.frames {
                    println!("done: followed to frame {frame}");
                    return Ok(());
                }
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}
