//! Four bot clients seated in the arena's four players, against an unpaced (lockstep) server,
//! step exactly the world of the combined script applied offline; a player that promises inputs
//! and sends none holds the match up once, for the timeout, and no more.

use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use rapier_pinned::{PinnedWorld, WorldConfig};
use rapier_pinned_digest::state_digest;
use rapier_pinned_net::client::join;
use rapier_pinned_net::inputs::{apply, scripted, PLAYERS};
use rapier_pinned_net::server::{serve, ServerConfig};
use rapier_pinned_net::wire::{receive, send, ClientMsg, ServerMsg};
use rapier_pinned_net::NetError;

const TICKS: u64 = 300;

fn arena(config: WorldConfig) -> PinnedWorld {
    let scene = rapier_pinned_scenes::find("arena").unwrap();
    PinnedWorld::adopt(config, scene.build(config.params())).unwrap()
}

/// A server thread: the match's end (the final tick and digest) and its log.
type Server = std::thread::JoinHandle<(Result<(u64, u64), NetError>, String)>;

/// An unpaced server of the arena for `ticks`, holding tick 0 for `clients`, in a thread: its
/// address and the thread.
fn server(ticks: u64, clients: usize, timeout: Duration) -> (String, Server) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let world = arena(WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap());
    let handle = std::thread::spawn(move || {
        let config = ServerConfig {
            ticks,
            paced: false,
            join_at: vec![0; clients],
            digest_every: 60,
            input_delay: 3,
            key: None,
            level: None,
            migrate: None,
            record: None,
            timeout,
        };
        let mut log = Vec::new();
        let end = serve(listener, world, config, &mut log);
        (end, String::from_utf8(log).unwrap())
    });
    (addr, handle)
}

#[test]
fn four_bots_step_the_combined_script() {
    let config = WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let mut offline = arena(config);
    for tick in 1..=TICKS {
        apply(&mut offline, &scripted(tick));
        offline.step();
    }
    let expected = state_digest(offline.bodies());

    let (addr, server) = server(TICKS, PLAYERS as usize, Duration::from_secs(20));
    let bots: Vec<_> = (0..PLAYERS)
        .map(|_| {
            let addr = addr.clone();
            std::thread::spawn(move || join(&addr, config, None, true, None, &mut std::io::sink()))
        })
        .collect();
    let mut seats: Vec<Option<u32>> = bots
        .into_iter()
        .map(|b| {
            let session = b.join().unwrap().unwrap();
            assert_eq!((session.tick, session.digest), (TICKS, expected));
            session.player
        })
        .collect();
    seats.sort();
    assert_eq!(seats, (0..PLAYERS).map(Some).collect::<Vec<_>>());
    let (end, log) = server.join().unwrap();
    assert_eq!(end.unwrap(), (TICKS, expected), "{log}");
    assert_eq!(log.matches("after 6 equal digests").count(), 4, "{log}");
}

#[test]
fn a_player_that_sends_no_inputs_holds_the_match_up_once_for_the_timeout() {
    let config = WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let (addr, server) = server(120, 2, Duration::from_millis(300));
    let bot = {
        let addr = addr.clone();
        std::thread::spawn(move || join(&addr, config, None, true, None, &mut std::io::sink()))
    };
    // A client that promises inputs, never sends any, and reads to the end.
    let mut silent = TcpStream::connect(&addr).unwrap();
    let hello = ClientMsg::Hello {
        physics_version: config.physics_version().get(),
        match_id: 0,
        settings: config.settings(),
        resume: None,
        sends_inputs: true,
        level: None,
    };
    send(&mut silent, &hello).unwrap();
    while !matches!(receive(&mut silent).unwrap(), ServerMsg::Bye { .. }) {}
    drop(silent);
    let session = bot.join().unwrap().unwrap();
    let (end, log) = server.join().unwrap();
    assert_eq!(end.unwrap(), (120, session.digest), "{log}");
    assert_eq!(
        log.matches(" sent no inputs for tick 1 within 300ms")
            .count(),
        1,
        "{log}"
    );
    assert!(log.contains("after 3 equal digests"), "{log}");
}
