//! The multiplayer round trip with real processes on loopback (docs/multiplayer.md): late join,
//! several bot clients playing their seats, refusals of hellos and of inputs while the others
//! keep stepping, host migration, and WebSocket clients (`serve --ws`, the sans-IO client core
//! over tungstenite). Each server runs unpaced (`--unpaced`: lockstep, it waits for
//! every bot's inputs) with a bounded timeout, so every test ends in seconds.

mod common;

use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{digest_of, server, server_timing_out, Proc};
use rapier_pinned_net::inputs::{apply, body_of, scripted_for, Action, Input};
use rapier_pinned_net::wire::{receive, send, ClientMsg, ServerMsg, MAGIC, PROTOCOL_VERSION};

#[test]
fn a_client_joins_at_tick_300_and_steps_1200_ticks_in_lockstep() {
    let (srv, addr) = server(&["--ticks", "1500", "--join-at", "300"]);
    let client = Proc::start(&["join", &addr, "--bot"]);
    let lines = client.finish_ok();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("joined at tick 300 as player 0")),
        "{lines:#?}"
    );
    let server_lines = srv.finish_ok();
    // 20 periodic digests (every 60 ticks from 360 to 1500) and the final one, all equal.
    assert!(
        server_lines
            .iter()
            .any(|l| l == "client#1 left (closed) after 21 equal digests, joined at tick 300"),
        "{server_lines:#?}"
    );
    assert_eq!(
        digest_of(&lines, "done tick 1500"),
        digest_of(&server_lines, "done tick 1500")
    );
}

#[test]
fn clients_beyond_the_join_points_are_seated_at_the_next_tick() {
    // One join point, three clients: two bots at once and one late. The point seats one bot;
    // the other, and the late client, are seated at the next tick as without `--join-at`
    // (the server used to leave them waiting for a point that never came, then reset them).
    // 5,700 ticks after the point leave the late client time to come on a slow machine.
    let (mut srv, addr) = server(&["--ticks", "6000", "--join-at", "300"]);
    let bots: Vec<Proc> = (0..2)
        .map(|_| Proc::start(&["join", &addr, "--bot"]))
        .collect();
    srv.expect(" at tick 300 as player ");
    let late = Proc::start(&["join", &addr, "--bot"]);
    let finals: Vec<String> = (bots.into_iter().chain([late]))
        .map(|client| digest_of(&client.finish_ok(), "done tick 6000"))
        .collect();
    let lines = srv.finish_ok();
    let joined: Vec<&String> = (lines.iter())
        .filter(|l| l.starts_with("joined client#"))
        .collect();
    assert_eq!(joined.len(), 3, "{lines:#?}");
    assert!(!lines.iter().any(|l| l.contains("refused")), "{lines:#?}");
    let digest = digest_of(&lines, "done tick 6000");
    assert!(finals.iter().all(|d| *d == digest), "{finals:?} {lines:#?}");
}

#[test]
fn a_divergence_is_reported_at_its_tick_and_ends_only_that_session() {
    let (mut srv, addr) = server(&["--ticks", "900", "--join-at", "100", "--join-at", "100"]);
    let honest = Proc::start(&["join", &addr, "--bot"]);
    srv.expect("joined client#1 at tick 100 as player 0");
    // Not a bot: when the server drops it depends on timing, so its seat sends nothing.
    let drifting = Proc::start(&["join", &addr, "--desync-at", "450"]);
    let (code, lines, err) = drifting.finish();
    assert_eq!(code, 1, "{lines:#?}");
    // Nudged after tick 450: the next exchange, at tick 480, catches it.
    assert!(err.contains("diverged at tick 480: server "), "{err}");
    honest.finish_ok();
    let lines = srv.finish_ok();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("diverged client#") && l.contains(" at tick 480: server "))
            .count(),
        1,
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("left (closed) after 15 equal digests, joined at tick 100")),
        "{lines:#?}"
    );
}

#[test]
fn several_clients_join_at_different_ticks() {
    let (srv, addr) = server(&[
        "--ticks",
        "1200",
        "--join-at",
        "100",
        "--join-at",
        "400",
        "--join-at",
        "900",
    ]);
    let clients: Vec<Proc> = (0..3)
        .map(|_| Proc::start(&["join", &addr, "--bot"]))
        .collect();
    let mut joined = Vec::new();
    for client in clients {
        let lines = client.finish_ok();
        joined.push(lines[0].clone());
    }
    joined.sort();
    let lines = srv.finish_ok();
    for (player, tick) in [100, 400, 900].into_iter().enumerate() {
        let seat = format!(" at tick {tick} as player {player}");
        assert!(
            lines.iter().any(|l| l.starts_with("joined client#")
                && l.contains(&format!("{seat} from 127.0.0.1:"))),
            "{lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("left (closed)")
                    && l.ends_with(&format!("joined at tick {tick}"))),
            "{lines:#?}"
        );
    }
    assert!(!lines.iter().any(|l| l.contains("diverged")), "{lines:#?}");
}

#[test]
fn a_zero_gravity_match_announces_its_settings_and_refuses_a_client_with_others() {
    let (srv, addr) = server(&[
        "--ticks",
        "400",
        "--join-at",
        "100",
        "--join-at",
        "100",
        "--scene",
        "bullet_swarm",
        "--gravity",
        "0,0,0",
    ]);
    // A client with the default gravity is refused at its hello, each differing field named
    // with both values; one with the match's settings joins and steps in lockstep.
    let wrong = Proc::start(&["join", &addr]);
    let (code, _, err) = wrong.finish();
    assert_eq!(code, 1);
    assert!(
        err.contains("settings differ from this match's: gravity.x: pinned 0.0 (0x00000000), found -0.0 (0x80000000)")
            && err.contains("gravity.y: pinned 0.0 (0x00000000), found -9.81 (0xc11cf5c3)")
            && err.contains("the match runs gravity [0.0, 0.0, 0.0], 60 Hz"),
        "{err}"
    );
    let fast = Proc::start(&["join", &addr, "--gravity", "0,0,0", "--tick-hz", "120"]);
    let (code, _, err) = fast.finish();
    assert_eq!(code, 1);
    assert!(err.contains("tick_hz: pinned 60, found 120"), "{err}");
    let good: Vec<Proc> = (0..2)
        .map(|_| Proc::start(&["join", &addr, "--bot", "--gravity", "0,0,0"]))
        .collect();
    let lines: Vec<Vec<String>> = good.into_iter().map(Proc::finish_ok).collect();
    let server_lines = srv.finish_ok();
    assert!(
        server_lines
            .iter()
            .any(|l| l.starts_with("listening on ") && l.contains("gravity [0.0, 0.0, 0.0], 60 Hz")),
        "{server_lines:#?}"
    );
    for client in &lines {
        assert_eq!(
            digest_of(client, "done tick 400"),
            digest_of(&server_lines, "done tick 400")
        );
    }
}

/// A match on a level (the level scene, 50,562 triangles): the server writes the level, names it
/// in its welcome and sends the late joiner a snapshot that refers to it, a few hundred KB
/// instead of megabytes; a client without the level, or with another, is refused naming the level it lacks.
#[test]
fn a_late_joiner_gets_the_level_by_reference_and_one_without_it_is_refused() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("multiplayer_level");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let level = dir.join("match.level");
    let level_arg = level.to_str().unwrap();
    let (srv, addr) = server(&[
        "--ticks",
        "240",
        "--join-at",
        "60",
        "--scene",
        "trimesh_level",
        "--level",
        level_arg,
    ]);
    let id = rapier_pinned::Level::read(&std::fs::read(&level).unwrap())
        .unwrap()
        .id();
    let (code, _, err) = Proc::start(&["join", &addr]).finish();
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "this match is on level {id}, which the client lacks"
        )),
        "{err}"
    );
    let other = dir.join("other.level");
    let shape = rapier3d::prelude::SharedShape::cuboid(1.0, 1.0, 1.0);
    std::fs::write(
        &other,
        rapier_pinned::Level::new(vec![shape]).unwrap().bytes(),
    )
    .unwrap();
    let (code, _, err) = Proc::start(&["join", &addr, "--level", other.to_str().unwrap()]).finish();
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("this match is on level {id}")),
        "{err}"
    );
    let lines = Proc::start(&["join", &addr, "--bot", "--level", level_arg]).finish_ok();
    let joined = lines
        .iter()
        .find(|l| l.starts_with("joined at tick 60"))
        .unwrap();
    let bytes: usize = joined["joined at tick 60 as player 0 (snapshot ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // The level is 5 MB; the snapshot has the bodies and their contacts.
    let level_len = std::fs::metadata(&level).unwrap().len() as usize;
    assert!(bytes * 20 < level_len, "{joined}, level {level_len} bytes");
    let server_lines = srv.finish_ok();
    assert!(
        server_lines
            .iter()
            .any(|l| l.starts_with("listening on ") && l.ends_with(&format!("level {id}"))),
        "{server_lines:#?}"
    );
    assert_eq!(
        digest_of(&lines, "done tick 240"),
        digest_of(&server_lines, "done tick 240")
    );
}

#[test]
fn wrong_version_garbage_and_a_bad_snapshot_are_refused_while_the_others_keep_stepping() {
    let key = std::env::temp_dir().join(format!("mp-key-{}", std::process::id()));
    let other_key = std::env::temp_dir().join(format!("mp-other-key-{}", std::process::id()));
    std::fs::write(&key, "11".repeat(32) + "\n").unwrap();
    std::fs::write(&other_key, "22".repeat(32) + "\n").unwrap();
    let key_arg = key.to_str().unwrap();
    // Tick 600 admits two: the client with the wrong key is welcomed (the server cannot know its
    // key) and refuses the snapshot itself; then the good late client.
    let (mut srv, addr) = server(&[
        "--ticks",
        "1500",
        "--join-at",
        "200",
        "--join-at",
        "600",
        "--join-at",
        "600",
        "--key-file",
        key_arg,
    ]);
    let first = Proc::start(&["join", &addr, "--bot", "--key-file", key_arg]);
    srv.expect("joined client#1 at tick 200");

    // Held at tick 600 until a good client joins, the server meets these first.
    let wrong = Proc::start(&[
        "join",
        &addr,
        "--physics-version",
        "1",
        "--key-file",
        key_arg,
    ]);
    let (code, _, err) = wrong.finish();
    assert_eq!(code, 1);
    let why = format!(
        "refused by the server: physics-version 1; this match runs physics-version {}",
        rapier_pinned::PHYSICS_VERSION_CURRENT
    );
    assert!(err.contains(&why), "{err}");

    // Garbage, another protocol version and an oversized frame: each refused with its reason.
    let huge = [
        &MAGIC[..],
        &PROTOCOL_VERSION.to_le_bytes(),
        &[0xff, 0xff, 0xff, 0x7f, 1],
    ]
    .concat();
    let other = [&MAGIC[..], &[9, 0], &[0; 5]].concat();
    for (bytes, why) in [
        (
            &[0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6, 7][..],
            "not a rapier-pinned frame",
        ),
        (
            &other[..],
            "wire protocol version 9; this build speaks version 2",
        ),
        (&huge[..], "exceeds the limit"),
    ] {
        let mut raw = TcpStream::connect(&addr).unwrap();
        std::io::Write::write_all(&mut raw, bytes).unwrap();
        match receive::<ServerMsg>(&mut raw).unwrap() {
            ServerMsg::Refused { reason } => assert!(reason.contains(why), "{reason}"),
            other => panic!("{other:?}"),
        }
    }

    let bad_key = Proc::start(&[
        "join",
        &addr,
        "--bot",
        "--key-file",
        other_key.to_str().unwrap(),
    ]);
    let (code, _, err) = bad_key.finish();
    assert_eq!(code, 1);
    assert!(
        err.contains("refused the server's snapshot") && err.contains("MacMismatch"),
        "{err}"
    );

    let late = Proc::start(&["join", &addr, "--bot", "--key-file", key_arg]);
    for client in [first, late] {
        client.finish_ok();
    }
    let lines = srv.finish_ok();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("refused client#"))
            .count(),
        // The wrong version and the three raw connections.
        4,
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(
            |l| l.contains("client#1 left (closed) after 23 equal digests, joined at tick 200")
        ),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("joined at tick 600") && l.contains("after 0 equal digests")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("joined at tick 600") && l.contains("after 16 equal digests")),
        "{lines:#?}"
    );
}

#[test]
fn host_migration_continues_exactly_as_if_the_first_host_had_gone_on() {
    let key = std::env::temp_dir().join(format!("mp-fleet-{}", std::process::id()));
    std::fs::write(&key, "5a".repeat(32)).unwrap();
    let key_arg = key.to_str().unwrap();
    let snapshot = std::env::temp_dir().join(format!("mp-migrate-{}.snap", std::process::id()));
    let _ = std::fs::remove_file(&snapshot);
    // The reference: one host all the way.
    let (reference, addr) = server(&["--ticks", "1500", "--join-at", "200", "--key-file", key_arg]);
    Proc::start(&["join", &addr, "--bot", "--key-file", key_arg]).finish_ok();
    let (_, reference_lines, _) = reference.finish();
    let expected = digest_of(&reference_lines, "done tick 1500");

    // Host A hands the match over at tick 700 to host B, which restores the authenticated
    // snapshot; the client reconnects to B.
    let b_addr = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().to_string()
    };
    let snap_arg = snapshot.to_str().unwrap();
    let (a, a_addr) = server(&[
        "--ticks",
        "1500",
        "--join-at",
        "200",
        "--key-file",
        key_arg,
        "--migrate-at",
        "700",
        "--migrate-to",
        &b_addr,
        "--snapshot-out",
        snap_arg,
    ]);
    let client = Proc::start(&["join", &a_addr, "--bot", "--key-file", key_arg]);
    let a_lines = a.finish_ok();
    assert!(
        a_lines
            .iter()
            .any(|l| l.starts_with(&format!("migrated at tick 700 to {b_addr}"))),
        "{a_lines:#?}"
    );
    let (b, _) = server(&[
        "--ticks",
        "1500",
        "--listen",
        &b_addr,
        "--restore",
        snap_arg,
        "--join-at",
        "700",
        "--key-file",
        key_arg,
    ]);
    let client_lines = client.finish_ok();
    assert!(
        client_lines
            .iter()
            .any(|l| l == &format!("migrated to {b_addr} at tick 700")),
        "{client_lines:#?}"
    );
    let b_lines = b.finish_ok();
    assert_eq!(digest_of(&b_lines, "done tick 1500"), expected);
    assert_eq!(digest_of(&client_lines, "done tick 1500"), expected);
    assert!(
        b_lines
            .iter()
            .any(|l| l.contains("left (closed) after 15 equal digests, joined at tick 700")),
        "{b_lines:#?}"
    );
}

#[test]
fn two_bots_and_a_late_third_report_every_digest_equal() {
    let (srv, addr) = server(&[
        "--ticks",
        "1200",
        "--join-at",
        "100",
        "--join-at",
        "100",
        "--join-at",
        "700",
    ]);
    let bots: Vec<Proc> = (0..3)
        .map(|_| Proc::start(&["join", &addr, "--bot"]))
        .collect();
    let bot_lines: Vec<Vec<String>> = bots.into_iter().map(Proc::finish_ok).collect();
    let lines = srv.finish_ok();
    for player in 0..3 {
        assert!(
            lines.iter().any(|l| l.starts_with("joined client#")
                && l.contains(&format!(" as player {player} from 127.0.0.1:"))),
            "{lines:#?}"
        );
    }
    // Joined at 100: 19 periodic digests (120 to 1200) and the final one; at 700: 9 and 1.
    for (count, tick) in [
        (2, "after 20 equal digests, joined at tick 100"),
        (1, "after 10 equal digests, joined at tick 700"),
    ] {
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.contains("left (closed)") && l.ends_with(tick))
                .count(),
            count,
            "{lines:#?}"
        );
    }
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("diverged") || l.contains("refused")),
        "{lines:#?}"
    );
    for bot in &bot_lines {
        assert_eq!(
            digest_of(bot, "done tick 1200"),
            digest_of(&lines, "done tick 1200")
        );
    }
    // Deterministic whatever the timing: the world of players 0 and 1 from tick 101 and player
    // 2 from tick 701, stepped offline.
    let config = rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let scene = rapier_pinned_scenes::find("arena").unwrap();
    let mut world =
        rapier_pinned::PinnedWorld::adopt(config, scene.build(config.params())).unwrap();
    for tick in 1..=1200 {
        let players = match tick {
            ..=100 => 0..0,
            101..=700 => 0..2,
            _ => 0..3,
        };
        let inputs: Vec<Input> = players.flat_map(|p| scripted_for(p, tick)).collect();
        apply(&mut world, &inputs);
        world.step();
    }
    let offline = format!(
        "{:016x}",
        rapier_pinned_digest::state_digest(world.bodies())
    );
    assert_eq!(digest_of(&lines, "done tick 1200"), offline);
}

#[test]
fn malformed_inputs_are_refused_with_their_reason_while_the_bots_play_on() {
    let (mut srv, addr) = server(&[
        "--ticks",
        "600",
        "--join-at",
        "100",
        "--join-at",
        "100",
        "--join-at",
        "200",
    ]);
    let bots: Vec<Proc> = (0..2)
        .map(|_| Proc::start(&["join", &addr, "--bot"]))
        .collect();
    srv.expect("joined client#2 at tick 100");
    // A raw client at tick 200: a hello, then four bad input messages.
    let config = rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let mut raw = TcpStream::connect(&addr).unwrap();
    let hello = ClientMsg::Hello {
        physics_version: config.physics_version().get(),
        match_id: 0,
        settings: config.settings(),
        resume: None,
        sends_inputs: false,
        level: None,
    };
    send(&mut raw, &hello).unwrap();
    let (tick, player) = match receive::<ServerMsg>(&mut raw).unwrap() {
        ServerMsg::Welcome { tick, player, .. } => (tick, player.unwrap()),
        other => panic!("{other:?}"),
    };
    assert_eq!((tick, player), (200, 2));
    let mine = body_of(player);
    let input = |body, action| vec![Input { body, action }];
    let bad = [
        (
            tick + 1,
            input(body_of(0), Action::Velocity([1.0, 0.0, 0.0])),
        ),
        (
            tick + 2,
            input(mine, Action::Impulse([0.0, f32::INFINITY, 0.0])),
        ),
        (5, input(mine, Action::Velocity([1.0, 0.0, 0.0]))),
        (
            tick + 10_000,
            input(mine, Action::Velocity([1.0, 0.0, 0.0])),
        ),
    ];
    for (tick, inputs) in bad.clone() {
        send(&mut raw, &ClientMsg::Inputs { tick, inputs }).unwrap();
    }
    let mut refused = Vec::new();
    loop {
        match receive::<ServerMsg>(&mut raw).unwrap() {
            ServerMsg::InputRefused { tick, reason } => refused.push((tick, reason)),
            ServerMsg::Tick { .. } => {}
            ServerMsg::Bye { .. } => break,
            other => panic!("{other:?}"),
        }
    }
    drop(raw);
    let ticks: Vec<u64> = refused.iter().map(|(t, _)| *t).collect();
    assert_eq!(ticks, bad.map(|(t, _)| t), "{refused:#?}");
    for ((_, reason), expected) in refused.iter().zip([
        "body 0v0 is not player 2's (it owns body 2v0)",
        "non-finite impulse [0.0, inf, 0.0] on body 2v0",
        "tick 5 is already stepped: the match is at tick ",
        "tick 10200 is too far ahead: the match is at tick ",
    ]) {
        assert!(reason.starts_with(expected), "{reason}");
    }
    for bot in bots {
        bot.finish_ok();
    }
    let lines = srv.finish_ok();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("refused inputs of client#3 for tick "))
            .count(),
        4,
        "{lines:#?}"
    );
    // 9 periodic digests (120 to 600) and the final one, from each bot.
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.ends_with("left (closed) after 10 equal digests, joined at tick 100"))
            .count(),
        2,
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "client#3 left (closed) after 0 equal digests, joined at tick 200"),
        "{lines:#?}"
    );
}

/// A WebSocket connection to `serve --ws`, TCP_NODELAY as the reference client's.
type Ws = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

/// Starts a server with `--ws 127.0.0.1:0` and `args`: it, its TCP address and its WebSocket
/// URL, read from its `websocket on ` line.
fn ws_server(args: &[&str]) -> (Proc, String, String) {
    ws_server_timing_out(20, args)
}

/// [`ws_server`] with `--timeout-secs secs`.
fn ws_server_timing_out(secs: u64, args: &[&str]) -> (Proc, String, String) {
    let mut all = vec!["--ws", "127.0.0.1:0"];
    all.extend(args);
    let (mut srv, addr) = server_timing_out(secs, &all);
    let line = srv.expect("websocket on ");
    let url = line["websocket on ".len()..].to_string();
    assert!(url.starts_with("ws://127.0.0.1:"), "{line}");
    (srv, addr, url)
}

fn ws_connect(url: &str) -> Ws {
    let (mut ws, _) = tungstenite::connect(url).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_nodelay(true).unwrap();
    }
    ws
}

/// Sends `msg` as one binary message: one wire frame.
fn ws_send(ws: &mut Ws, msg: &ClientMsg) {
    let frame = rapier_pinned_net::wire::encode_frame(msg).unwrap();
    ws.send(tungstenite::Message::Binary(frame.into())).unwrap();
}

/// The server's next message, or the close frame that ended the connection (`Err`).
fn ws_receive(ws: &mut Ws) -> Result<ServerMsg, Option<tungstenite::protocol::CloseFrame>> {
    loop {
        match ws.read() {
            Ok(tungstenite::Message::Binary(bytes)) => {
                return Ok(rapier_pinned_net::wire::decode_frame(&bytes).unwrap())
            }
            Ok(tungstenite::Message::Close(frame)) => {
                // Answers the close frame, as a browser does.
                let _ = ws.flush();
                return Err(frame);
            }
            Ok(_) => {}
            Err(e) => panic!("{e}"),
        }
    }
}

/// Runs a [`Lockstep`](rapier_pinned_net::client::Lockstep) client over a WebSocket to its end,
/// then closes: the session and its log.
fn ws_play(
    url: &str,
    mut client: rapier_pinned_net::client::Lockstep,
) -> (
    Result<rapier_pinned_net::client::Session, String>,
    Vec<String>,
) {
    let mut ws = ws_connect(url);
    ws_send(&mut ws, &client.hello());
    let mut log = Vec::new();
    let end = loop {
        let msg = match ws_receive(&mut ws) {
            Ok(msg) => msg,
            Err(close) => break Err(format!("closed: {close:?}")),
        };
        match client.on_message(msg) {
            Ok(step) => {
                log.extend(step.log);
                for msg in &step.send {
                    ws_send(&mut ws, msg);
                }
                assert_eq!(step.reconnect, None);
                if let Some(end) = step.end {
                    break end.map_err(|e| e.to_string());
                }
            }
            Err(e) => break Err(e.to_string()),
        }
    };
    let _ = ws.close(None);
    while ws.read().is_ok() {}
    (end, log)
}

#[test]
fn a_websocket_spectator_joins_at_tick_300_and_ends_at_the_server_s_digest() {
    // Four bots (TCP, the library's client) take the four seats at tick 0; the WebSocket client,
    // the sans-IO core over tungstenite, comes at tick 300 as a spectator.
    let (mut srv, addr, url) = ws_server(&[
        "--ticks",
        "900",
        "--join-at",
        "0",
        "--join-at",
        "0",
        "--join-at",
        "0",
        "--join-at",
        "0",
        "--join-at",
        "300",
    ]);
    let config = rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let bots: Vec<_> = (0..4)
        .map(|_| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                rapier_pinned_net::client::join(&addr, config, None, true, None, &mut Vec::new())
            })
        })
        .collect();
    srv.expect("joined client#4 at tick 0 as player");
    let client = rapier_pinned_net::client::Lockstep::new(config, None, false, None);
    let (end, log) = ws_play(&url, client);
    let session = end.unwrap();
    assert_eq!(
        (session.joined, session.player, session.tick),
        (300, None, 900)
    );
    // 10 periodic digests (every 60 ticks from 360 to 900) and the final one.
    assert_eq!(session.reported, 11);
    assert!(
        log[0].starts_with("joined at tick 300 as a spectator (snapshot "),
        "{log:#?}"
    );
    for bot in bots {
        assert_eq!(bot.join().unwrap().unwrap().digest, session.digest);
    }
    let lines = srv.finish_ok();
    assert_eq!(
        digest_of(&lines, "done tick 900"),
        format!("{:016x}", session.digest)
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("joined client#5 at tick 300 as a spectator from 127.0.0.1:")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "client#5 left (closed) after 11 equal digests, joined at tick 300"),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("websocket 127.0.0.1:")
                && l.ends_with(" closed: the client closed")),
        "{lines:#?}"
    );
}

#[test]
fn over_websocket_a_wrong_version_is_refused_and_garbage_closes_only_that_connection() {
    let (mut srv, _, url) = ws_server(&["--ticks", "300", "--join-at", "100"]);
    // Not one frame of a client message: each gets `Refused` with the wire's reason and a close
    // frame, from the bridge; the server never sees them.
    let hello = rapier_pinned_net::client::Lockstep::new(
        rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap(),
        None,
        true,
        None,
    )
    .hello();
    let frame = rapier_pinned_net::wire::encode_frame(&hello).unwrap();
    use tungstenite::protocol::frame::coding::CloseCode;
    for (message, why, code) in [
        (
            tungstenite::Message::Binary(vec![0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6, 7].into()),
            "bad hello: not a rapier-pinned frame",
            CloseCode::Invalid,
        ),
        (
            tungstenite::Message::Binary([&frame[..], &[0]].concat().into()),
            "bad hello: 1 bytes after a frame of ",
            CloseCode::Invalid,
        ),
        (
            tungstenite::Message::Binary(frame[..frame.len() - 1].to_vec().into()),
            "bad hello: truncated frame: ",
            CloseCode::Invalid,
        ),
        (
            tungstenite::Message::Text("hello".into()),
            "a text message; each message must be one binary wire frame",
            CloseCode::Unsupported,
        ),
    ] {
        let mut ws = ws_connect(&url);
        ws.send(message).unwrap();
        match ws_receive(&mut ws) {
            Ok(ServerMsg::Refused { reason }) => assert!(reason.starts_with(why), "{reason}"),
            other => panic!("{other:?}"),
        }
        match ws_receive(&mut ws) {
            Err(Some(close)) => assert_eq!(close.code, code, "{close:?}"),
            other => panic!("{other:?}"),
        }
        srv.expect(&format!(" refused: {why}"));
    }
    // Another physics-version: the server's own refusal, relayed.
    let wrong = rapier_pinned_net::client::Lockstep::new(
        rapier_pinned::WorldConfig::new(rapier_pinned::PhysicsVersion::V1).unwrap(),
        None,
        false,
        None,
    );
    let (end, _) = ws_play(&url, wrong);
    assert_eq!(
        end.unwrap_err(),
        format!(
            "refused by the server: physics-version 1; this match runs physics-version {}",
            rapier_pinned::PHYSICS_VERSION_CURRENT
        )
    );
    // The server goes on: a bot over WebSocket plays player 0 from tick 100 to the end.
    let bot = rapier_pinned_net::client::Lockstep::new(
        rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap(),
        None,
        true,
        None,
    );
    let (end, log) = ws_play(&url, bot);
    let session = end.unwrap();
    assert_eq!((session.joined, session.player), (100, Some(0)));
    assert_eq!(
        log.last().unwrap(),
        &format!(
            "done tick 300 digest {:016x}, equal to the server's",
            session.digest
        )
    );
    let lines = srv.finish_ok();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("refused client#"))
            .map(|l| l.split_once(": ").unwrap().1)
            .collect::<Vec<_>>(),
        [format!(
            "physics-version 1; this match runs physics-version {}",
            rapier_pinned::PHYSICS_VERSION_CURRENT
        )],
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "client#2 left (closed) after 5 equal digests, joined at tick 100"),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("diverged")), "{lines:#?}");
}

/// The hello of a spectator of the default match (it sends no inputs).
fn spectator_hello() -> ClientMsg {
    rapier_pinned_net::client::Lockstep::new(
        rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap(),
        None,
        false,
        None,
    )
    .hello()
}

#[test]
fn a_websocket_and_a_tcp_client_that_never_read_are_dropped_and_the_match_ends() {
    // Each sends its hello and then reads nothing: once the socket buffers are full, a send to
    // it makes no progress within --timeout-secs and that client is dropped; the match goes on.
    // 300,000 unpaced ticks of 30-byte frames fill the buffers of both paths.
    let (mut srv, addr, url) = ws_server_timing_out(
        2,
        &[
            "--scene",
            "ball_drop",
            "--ticks",
            "300000",
            "--join-at",
            "0",
            "--join-at",
            "0",
        ],
    );
    let mut ws = ws_connect(&url);
    ws_send(&mut ws, &spectator_hello());
    srv.expect("joined client#1 at tick 0 as player 0");
    let mut tcp = TcpStream::connect(&addr).unwrap();
    send(&mut tcp, &spectator_hello()).unwrap();
    srv.expect_within("done tick 300000", Duration::from_secs(25));
    let lines = srv.finish_ok();
    for id in [1, 2] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("client#{id} left ("))),
            "{lines:#?}"
        );
    }
    assert!(
        lines.iter().any(|l| l.starts_with("websocket 127.0.0.1:")
            && l.contains(" closed: the client is not reading")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("client#2 left (not reading")),
        "{lines:#?}"
    );
    drop((ws, tcp));
}

/// Reads the next message of a WebSocket whose socket has a read timeout, answering pings:
/// `None` when the read timed out.
fn ws_poll(ws: &mut Ws) -> Option<Result<ServerMsg, Option<tungstenite::protocol::CloseFrame>>> {
    match ws.read() {
        Ok(tungstenite::Message::Binary(bytes)) => {
            Some(Ok(rapier_pinned_net::wire::decode_frame(&bytes).unwrap()))
        }
        Ok(tungstenite::Message::Close(frame)) => {
            let _ = ws.flush();
            Some(Err(frame))
        }
        Ok(_) => None,
        Err(tungstenite::Error::Io(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            None
        }
        Err(e) => panic!("{e}"),
    }
}

/// Sets the read timeout of a WebSocket's socket.
fn ws_read_timeout(ws: &mut Ws, timeout: Duration) {
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(timeout)).unwrap();
    }
}

/// A server with `--ws` and `--timeout-secs secs` that runs in real time with no join point
/// (so no timeout of its own ends it while a test's connection is timed out), for a long
/// match; the test's end kills it. It and its WebSocket URL.
fn real_time_ws_server(secs: u64) -> (Proc, String) {
    let secs = secs.to_string();
    let mut srv = Proc::start(&[
        "serve",
        "--timeout-secs",
        &secs,
        "--ws",
        "127.0.0.1:0",
        "--ticks",
        "1000000",
    ]);
    let line = srv.expect("websocket on ");
    let url = line["websocket on ".len()..].to_string();
    (srv, url)
}

#[test]
fn over_websocket_a_client_that_only_pings_is_refused_at_the_timeout_in_total() {
    // Each ping is a read that succeeds: the deadline for the first frame is still 2 s after
    // the connection, not 2 s after the last ping.
    let (mut srv, url) = real_time_ws_server(2);
    let start = Instant::now();
    let mut ws = ws_connect(&url);
    ws_read_timeout(&mut ws, Duration::from_millis(300));
    let refused = loop {
        assert!(start.elapsed() < Duration::from_secs(6), "still open");
        ws.send(tungstenite::Message::Ping(Vec::new().into()))
            .unwrap();
        match ws_poll(&mut ws) {
            Some(Ok(ServerMsg::Refused { reason })) => break reason,
            Some(other) => panic!("{other:?}"),
            None => {}
        }
    };
    assert_eq!(refused, "no first message within 2s of connecting");
    let close = loop {
        assert!(start.elapsed() < Duration::from_secs(6), "no close frame");
        if let Some(end) = ws_poll(&mut ws) {
            break end.unwrap_err().unwrap();
        }
    };
    use tungstenite::protocol::frame::coding::CloseCode;
    assert_eq!(close.code, CloseCode::Policy, "{close:?}");
    assert_eq!(close.reason.as_str(), refused);
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(1900), "{took:?}");
    srv.expect(" refused: no first message within 2s of connecting");
}

#[test]
fn over_websocket_an_upgrade_dribbled_byte_by_byte_is_dropped_at_the_timeout() {
    let (mut srv, url) = real_time_ws_server(2);
    let mut raw = TcpStream::connect(url.trim_start_matches("ws://")).unwrap();
    raw.set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let start = Instant::now();
    let request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n".repeat(10);
    for byte in request.iter().cycle() {
        assert!(start.elapsed() < Duration::from_secs(6), "still open");
        if std::io::Write::write_all(&mut raw, &[*byte]).is_err() {
            break;
        }
        // The read is the pause between bytes; the bridge closing ends it at once.
        match std::io::Read::read(&mut raw, &mut [0; 64]) {
            Ok(0) => break,
            Ok(_) => panic!("an answer to half a request"),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => break,
        }
    }
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(1900), "{took:?}");
    srv.expect(" refused: no WebSocket upgrade within 2s");
}

#[test]
fn an_oversize_client_message_is_refused_before_it_is_buffered() {
    let (mut srv, addr, url) = ws_server(&["--ticks", "300", "--join-at", "100"]);
    use rapier_pinned_net::wire::{HEADER_LEN, MAX_CLIENT_FRAME};
    use tungstenite::protocol::frame::coding::CloseCode;
    // Over WebSocket: one byte more than a frame of a client message may be, refused by its
    // WebSocket length, with `Refused` and close 1009.
    let most = HEADER_LEN + MAX_CLIENT_FRAME as usize;
    let mut ws = ws_connect(&url);
    ws.send(tungstenite::Message::Binary(vec![0; most + 1].into()))
        .unwrap();
    let why = format!(
        "a message of {} bytes exceeds the limit {most} of a client's message (one frame)",
        most + 1
    );
    match ws_receive(&mut ws) {
        Ok(ServerMsg::Refused { reason }) => assert_eq!(reason, why),
        other => panic!("{other:?}"),
    }
    match ws_receive(&mut ws) {
        Err(Some(close)) => assert_eq!(close.code, CloseCode::Size, "{close:?}"),
        other => panic!("{other:?}"),
    }
    srv.expect(&format!(" refused: {why}"));
    // Over TCP: a header announcing as much is refused at once, with no payload sent.
    let mut raw = TcpStream::connect(&addr).unwrap();
    let header = [
        &MAGIC[..],
        &PROTOCOL_VERSION.to_le_bytes(),
        &(MAX_CLIENT_FRAME + 1).to_le_bytes(),
    ]
    .concat();
    std::io::Write::write_all(&mut raw, &header).unwrap();
    let why = "bad hello: frame of 65537 bytes exceeds the limit 65536 of a client's message";
    match receive::<ServerMsg>(&mut raw).unwrap() {
        ServerMsg::Refused { reason } => assert_eq!(reason, why),
        other => panic!("{other:?}"),
    }
    srv.expect(why);
}

#[test]
fn over_websocket_garbage_after_the_link_closes_with_the_reason_and_the_client_leaves() {
    let (mut srv, _, url) = ws_server(&["--ticks", "300", "--join-at", "100"]);
    let mut ws = ws_connect(&url);
    ws_send(&mut ws, &spectator_hello());
    match ws_receive(&mut ws) {
        Ok(ServerMsg::Welcome { tick: 100, .. }) => {}
        other => panic!("{other:?}"),
    }
    ws.send(tungstenite::Message::Binary(vec![0xff; 11].into()))
        .unwrap();
    // Ticks may come before the close frame; none after it. No `Refused`: the hello was taken.
    let close = loop {
        match ws_receive(&mut ws) {
            Ok(ServerMsg::Tick { .. }) => {}
            Ok(other) => panic!("{other:?}"),
            Err(close) => break close.unwrap(),
        }
    };
    use tungstenite::protocol::frame::coding::CloseCode;
    assert_eq!(close.code, CloseCode::Invalid, "{close:?}");
    let why = "not a rapier-pinned frame (first bytes [ff, ff, ff, ff])";
    assert_eq!(close.reason.as_str(), why);
    let bridge = srv.expect(&format!(" refused: {why}"));
    srv.expect("client#1 left (");
    let lines = srv.finish_ok();
    // The bridge names its loopback connection as the server names the client.
    let via = bridge
        .split(" via ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l == &format!("joined client#1 at tick 100 as player 0 from {via}")),
        "{via} {lines:#?}"
    );
    // Seen by its reader (closed) or by a send (the socket's error), whichever comes first.
    assert!(
        lines.iter().any(|l| l.starts_with("client#1 left (")
            && l.ends_with(") after 0 equal digests, joined at tick 100")),
        "{lines:#?}"
    );
}

#[test]
fn over_websocket_handshakes_beyond_the_cap_from_one_address_are_refused_with_1013() {
    use rapier_pinned_net::admission::MAX_PENDING_PER_ADDRESS as MOST;
    let (mut srv, _, url) = ws_server(&["--ticks", "300", "--join-at", "100"]);
    // Connections from this address that say nothing yet hold every slot it has.
    let held: Vec<Ws> = (0..MOST).map(|_| ws_connect(&url)).collect();
    let mut ws = ws_connect(&url);
    ws_read_timeout(&mut ws, Duration::from_secs(5));
    let why = format!(
        "too many handshakes under way from 127.0.0.1 (at most {MOST} at once); try again later"
    );
    match ws_receive(&mut ws) {
        Ok(ServerMsg::Refused { reason }) => assert_eq!(reason, why),
        other => panic!("{other:?}"),
    }
    use tungstenite::protocol::frame::coding::CloseCode;
    match ws_receive(&mut ws) {
        Err(Some(close)) => assert_eq!(close.code, CloseCode::Again, "{close:?}"),
        other => panic!("{other:?}"),
    }
    srv.expect(&format!(" refused: {why}"));
    // A slot freed is a slot taken: a client that comes after one leaves is bridged.
    drop(held);
    let start = Instant::now();
    loop {
        let lines = srv.lines_after(Duration::from_millis(50));
        let left = lines
            .iter()
            .filter(|l| l.ends_with("closed: the client left without a close frame"))
            .count();
        if left == MOST {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{left} of {MOST} ended"
        );
    }
    let bot = rapier_pinned_net::client::Lockstep::new(
        rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap(),
        None,
        true,
        None,
    );
    let (end, _) = ws_play(&url, bot);
    assert_eq!(end.unwrap().player, Some(0));
    srv.finish_ok();
}
