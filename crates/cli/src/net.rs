//! `rapier-pinned serve|join`: the reference multiplayer server and client (crate
//! `rapier-pinned-net`, docs/multiplayer.md) on loopback or any address.

use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

use rapier_pinned::PinnedWorld;
use rapier_pinned_net::client::Lockstep;
use rapier_pinned_net::inputs::INPUT_WINDOW;
use rapier_pinned_net::record::RecordConfig;
use rapier_pinned_net::server::{serve as run_server, ServerConfig};

use crate::args::MatchArgs;
use crate::failure::Failure;
use crate::show::typed;
use crate::snapshot::{build_scene, read_level};

/// The options of `serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Catalog scene to start from (a zero-gravity one needs `--gravity 0,0,0`), or a spin case
    /// (`spin_1e3` to `spin_1e7`: a blade spinning at that many rad/s beside bullets; zero
    /// gravity).
    #[arg(long, value_name = "NAME", default_value = "arena")]
    scene: String,
    #[command(flatten)]
    game: MatchArgs,
    /// Address to listen on (port 0: any free port, printed).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    listen: String,
    /// Also accept WebSocket clients on this address (port 0: any free port), printed as
    /// `websocket on ws://ADDR`: each binary message is one wire frame, relayed to this server
    /// over loopback TCP.
    #[arg(long, value_name = "ADDR")]
    ws: Option<String>,
    /// Stop after this tick.
    #[arg(long, value_name = "N", default_value_t = 1500)]
    ticks: u64,
    /// Step as fast as possible instead of in real time at the settings' --tick-hz (tests).
    #[arg(long)]
    unpaced: bool,
    /// Hold at tick T until one more client has joined (repeatable; a tick given twice waits
    /// for two). Clients wait for the points to come, one each; any client beyond them joins at
    /// the next tick, as without it.
    #[arg(long = "join-at", value_name = "T")]
    join_at: Vec<u64>,
    /// Clients report their state digest every N ticks.
    #[arg(long, value_name = "N", default_value_t = 60)]
    digest_every: u64,
    /// Clients send their inputs for tick t + N when they see tick t (1 to 120).
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(1..=INPUT_WINDOW))]
    input_delay: u64,
    /// Start from this snapshot instead of the scene (host migration: the new host).
    #[arg(long, value_name = "FILE")]
    restore: Option<PathBuf>,
    /// The match's level: with the level scene (`trimesh_level`), where its level is written
    /// (the file clients join with); with --restore, the level the snapshot's world is on. The
    /// welcome names it and refers to it; a client without it is refused.
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Hand the match over at tick T: write the snapshot to --snapshot-out, tell the clients to
    /// reconnect to --migrate-to, and stop.
    #[arg(long, value_name = "T", requires_all = ["migrate_to", "snapshot_out"])]
    migrate_at: Option<u64>,
    #[arg(long, value_name = "ADDR")]
    migrate_to: Option<String>,
    #[arg(long, value_name = "FILE")]
    snapshot_out: Option<PathBuf>,
    /// Record the match into this replay file (docs/protocol.md §7): the start, every tick's
    /// confirmed inputs and digest, keyframes, joins and refusals; `rapier-pinned replay
    /// verify FILE` re-steps it.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// With --record: a keyframe (a delta snapshot) every S seconds of ticks.
    #[arg(long, value_name = "S", default_value_t = 1.0)]
    keyframe_secs: f64,
    /// How long a join point waits for a client, an unpaced tick for a player's inputs, and the
    /// end for the clients' last digests; the deadline for a connection's whole hello (over
    /// WebSocket, the upgrade and the first frame), and for a send to a client to make progress.
    #[arg(long, value_name = "S", default_value_t = 30)]
    timeout_secs: u64,
}

/// The options of `join`.
#[derive(clap::Args)]
pub struct JoinArgs {
    /// The server's address.
    addr: String,
    #[command(flatten)]
    game: MatchArgs,
    /// Play the seat the server gives: send its scripted inputs ahead (without it, the client
    /// sends no inputs and its player gets none).
    #[arg(long)]
    bot: bool,
    /// A check aid: nudge a body after tick T on purpose, so the server reports the
    /// divergence at the next digest exchange.
    #[arg(long, value_name = "T")]
    desync_at: Option<u64>,
    /// The level the match is on (the file the server wrote with `serve --level`).
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Record what this client sees into this replay file: from its welcome, every tick's
    /// inputs and the client's own digest after it.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// With --record: a keyframe every S seconds of ticks.
    #[arg(long, value_name = "S", default_value_t = 1.0)]
    keyframe_secs: f64,
}

/// Where `--record` writes and how often it keeps a keyframe (at least every tick).
fn record(
    path: Option<PathBuf>,
    keyframe_secs: f64,
    tick_hz: u32,
) -> Result<Option<RecordConfig>, Failure> {
    if !(keyframe_secs.is_finite() && keyframe_secs > 0.0) {
        return Err(Failure::Usage(format!(
            "--keyframe-secs {keyframe_secs}: a positive number of seconds"
        )));
    }
    let keyframe_every = (keyframe_secs * f64::from(tick_hz))
        .round()
        .clamp(1.0, f64::from(u32::MAX)) as u32;
    Ok(path.map(|path| RecordConfig {
        path,
        keyframe_every,
    }))
}

/// `serve`: runs the server until its last tick or its migration. A restored snapshot the
/// wrapper refuses is refused; a match the server could not run to its end (a socket, the log,
/// the migration's snapshot, a join point or the end timing out) is failed; anything that keeps
/// the server from starting is a usage error.
pub fn serve(o: ServeArgs) -> Result<(), Failure> {
    let config = o.game.config().map_err(Failure::Usage)?;
    let key = o.game.key().map_err(Failure::Usage)?;
    let (world, level) = match &o.restore {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
            let level = o.level.as_deref().map(read_level).transpose()?;
            let config = level.as_ref().map_or(config, |l| config.with_level(l.id()));
            let world = PinnedWorld::restore_on(config, level.as_ref(), &bytes, key.as_ref())
                .map_err(|e| Failure::Refused(format!("{}: {}", path.display(), typed(&e))))?;
            (world, level)
        }
        None => {
            let (built, config, level) = build_scene(&o.scene, config, o.level.as_deref())?;
            let world = PinnedWorld::adopt(config, built).map_err(|e| Failure::Usage(typed(&e)))?;
            (world, level)
        }
    };
    let listener =
        TcpListener::bind(&o.listen).map_err(|e| Failure::Usage(format!("{}: {e}", o.listen)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let timeout = Duration::from_secs(o.timeout_secs);
    let ws = match &o.ws {
        Some(ws) => Some(TcpListener::bind(ws).map_err(|e| Failure::Usage(format!("{ws}: {e}")))?),
        None => None,
    };
    println!(
        "listening on {addr}, match {}, physics-version {}, {}, tick {}{}",
        o.game.match_id,
        o.game.physics_version,
        config.settings(),
        world.tick(),
        level
            .as_ref()
            .map_or(String::new(), |l| format!(", level {}", l.id()))
    );
    let bridges = match ws {
        Some(ws_listener) => {
            let ws_addr = ws_listener
                .local_addr()
                .map_err(|e| Failure::Usage(e.to_string()))?;
            let server = rapier_pinned_net::admission::loopback(addr);
            let bridges = rapier_pinned_net::ws::spawn(ws_listener, server, timeout)
                .map_err(|e| Failure::Usage(format!("websocket bridge: {e}")))?;
            // Once its threads run: the line says the bridge is up.
            println!("websocket on ws://{ws_addr}");
            Some(bridges)
        }
        None => None,
    };
    let record = record(o.record, o.keyframe_secs, config.settings().tick_hz)?;
    let server = ServerConfig {
        ticks: o.ticks,
        paced: !o.unpaced,
        join_at: o.join_at,
        digest_every: o.digest_every.max(1),
        input_delay: o.input_delay,
        key,
        level,
        migrate: o
            .migrate_at
            .zip(o.migrate_to)
            .zip(o.snapshot_out)
            .map(|((t, a), f)| (t, a, f)),
        record,
        timeout,
    };
    let end = run_server(listener, world, server, &mut std::io::stdout());
    if let Some(bridges) = bridges {
        // The server's sockets are closed now: each bridge relays what is left and logs.
        bridges.wait(Duration::from_secs(5));
    }
    end.map_err(|e| Failure::Failed(e.to_string()))?;
    Ok(())
}

/// `join`: joins the match at the address and steps it to the end; a bot plays its seat with the
/// script. Any error of the match (the connection, a refusal, a divergence) is refused; a bad
/// option or key file is a usage error.
pub fn join(args: JoinArgs) -> Result<(), Failure> {
    let config = args.game.config().map_err(Failure::Usage)?;
    let key = args.game.key().map_err(Failure::Usage)?;
    let mut client = Lockstep::new(config, key, args.bot, args.desync_at);
    if let Some(path) = &args.level {
        client = client.on_level(read_level(path)?);
    }
    let record = record(args.record, args.keyframe_secs, config.settings().tick_hz)?;
    rapier_pinned_net::client::join_with(
        client,
        &args.addr,
        record.as_ref(),
        &mut std::io::stdout(),
    )
    .map_err(|e| Failure::Refused(e.to_string()))?;
    Ok(())
}
