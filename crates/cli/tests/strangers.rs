//! Strangers at the door of a paced match (docs/multiplayer.md, "Admission"): idle connections,
//! hellos dripped a byte at a time, garbage, oversize frames and WebSocket upgrades with junk
//! never cost a seated player an input. Each stranger is refused or timed out with a logged
//! reason, the match's digests stay equal, and the server's threads and descriptors come back to
//! where they were. The servers run in real time (60 Hz), so a stall of the match loop shows as
//! inputs refused as late.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{digest_of, listening, Proc};
use rapier_pinned_net::wire::{encode_frame, ClientMsg, MAGIC, MAX_CLIENT_FRAME, PROTOCOL_VERSION};

/// A paced server of `ticks` ticks with `--timeout-secs secs` and `extra` options, and `bots`
/// bots, once all have joined (whenever they come, as players do: no join point holds the
/// match): the server, its address, the bots. The input delay is 6 ticks (100 ms): the tests run
/// at once on two cores, and a bot process just started may take a few ticks to step its
/// first; a stall of the match loop for a stranger is seconds.
fn paced_match(ticks: u64, bots: usize, secs: u64, extra: &[&str]) -> (Proc, String, Vec<Proc>) {
    let (ticks, secs) = (ticks.to_string(), secs.to_string());
    let mut args = vec!["serve", "--ticks", &ticks, "--timeout-secs", &secs];
    args.extend(["--input-delay", "6"]);
    args.extend(extra);
    let (mut srv, addr) = listening(&args);
    let bots: Vec<Proc> = (0..bots)
        .map(|_| Proc::start(&["join", &addr, "--bot"]))
        .collect();
    srv.expect(&format!("joined client#{} at tick ", bots.len()));
    (srv, addr, bots)
}

/// The server's lines that refuse a seated client's inputs (a bot sends only good ones: each is
/// one that came after its tick was stepped).
fn refused_inputs(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("refused inputs of client#"))
        .collect()
}

/// The server's lines refusing a connection's hello (TCP, or a bridged WebSocket).
fn refused_hellos(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with("refused client#"))
        .count()
}

/// Plays the match to its end: every bot ends at the server's digest, and none of their inputs
/// was refused. The server's lines.
fn end_match(srv: Proc, bots: Vec<Proc>, ticks: u64) -> Vec<String> {
    let bot_lines: Vec<Vec<String>> = bots.into_iter().map(Proc::finish_ok).collect();
    let lines = srv.finish_ok();
    let done = format!("done tick {ticks}");
    for bot in &bot_lines {
        assert_eq!(digest_of(bot, &done), digest_of(&lines, &done));
    }
    let late = refused_inputs(&lines);
    assert!(
        late.is_empty(),
        "{} of the bots' inputs refused: {late:#?}",
        late.len()
    );
    lines
}

#[test]
fn one_idle_connection_for_3_s_costs_the_player_no_input() {
    let (mut srv, addr, bots) = paced_match(300, 1, 30, &[]);
    let idle = TcpStream::connect(&addr).unwrap();
    // The stranger's 3 s of silence is the scenario (issue 47's first reproduction).
    std::thread::sleep(Duration::from_secs(3));
    drop(idle);
    srv.expect("refused client#2 from 127.0.0.1:");
    end_match(srv, bots, 300);
}

#[test]
fn eighty_idle_connections_for_4_s_cost_the_player_no_input() {
    let (mut srv, addr, bots) = paced_match(360, 1, 30, &[]);
    let idle: Vec<TcpStream> = (0..80)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_secs(4));
    drop(idle);
    srv.expect("refused client#81 from 127.0.0.1:");
    let lines = end_match(srv, bots, 360);
    assert_eq!(refused_hellos(&lines), 80, "{lines:#?}");
}

/// The threads and open descriptors of process `pid` (Linux: /proc).
fn resources(pid: u32) -> (usize, usize) {
    let count = |what: &str| {
        std::fs::read_dir(format!("/proc/{pid}/{what}"))
            .unwrap()
            .count()
    };
    (count("task"), count("fd"))
}

/// What [`resources`] counts, by name: each thread's and each descriptor's (for a failure).
fn named(pid: u32) -> (Vec<String>, Vec<String>) {
    let list = |what: &str, name: &dyn Fn(std::path::PathBuf) -> String| {
        let mut names: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/{what}"))
            .unwrap()
            .map(|e| name(e.unwrap().path()))
            .collect();
        names.sort();
        names
    };
    let comm = |p: std::path::PathBuf| std::fs::read_to_string(p.join("comm")).unwrap_or_default();
    let link = |p: std::path::PathBuf| {
        std::fs::read_link(p).map_or(String::new(), |l| l.display().to_string())
    };
    (list("task", &comm), list("fd", &link))
}

/// [`resources`] once unchanged for 200 ms (at most 3 s): a thread that has handed its work over
/// may still be ending.
fn settled(pid: u32) -> (usize, usize) {
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut last = resources(pid);
    loop {
        std::thread::sleep(Duration::from_millis(200));
        let now = resources(pid);
        if now == last || Instant::now() > deadline {
            return now;
        }
        last = now;
    }
}

/// The strangers of one burst, connected and each started on its way.
struct Burst {
    /// Connections that say nothing.
    idle: Vec<TcpStream>,
    /// A hello sent a byte at a time, and how much of it has gone.
    drip: (TcpStream, usize),
    /// Connections that sent garbage, a header announcing an oversize frame, an HTTP request
    /// that is no upgrade, an upgrade followed by a frame of junk.
    sent: Vec<TcpStream>,
}

/// How many TCP and WebSocket strangers a burst holds.
const BURST_TCP: usize = 5;
const BURST_WS: usize = 2;

/// Opens one burst of strangers to the server at `addr` and its WebSocket bridge at `ws`.
fn burst(addr: &str, ws: &str) -> Burst {
    let connect = |to: &str| TcpStream::connect(to).unwrap();
    let write = |mut s: TcpStream, bytes: &[u8]| {
        // The server may refuse and close before all is written.
        let _ = s.write_all(bytes);
        s
    };
    let oversize = [
        &MAGIC[..],
        &PROTOCOL_VERSION.to_le_bytes(),
        &(MAX_CLIENT_FRAME + 1).to_le_bytes(),
    ]
    .concat();
    let mut upgraded = connect(ws);
    let request = format!(
        "GET / HTTP/1.1\r\nHost: {ws}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    upgraded.write_all(request.as_bytes()).unwrap();
    // A masked binary frame of 11 bytes of junk.
    let mut junk = vec![0x82, 0x80 | 11, 1, 2, 3, 4];
    junk.extend(
        [0xffu8; 11]
            .iter()
            .zip([1, 2, 3, 4].iter().cycle())
            .map(|(b, m)| b ^ m),
    );
    Burst {
        idle: vec![connect(addr), connect(addr)],
        drip: (connect(addr), 0),
        sent: vec![
            write(
                connect(addr),
                &[0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6, 7],
            ),
            write(connect(addr), &oversize),
            write(
                connect(ws),
                b"GET / HTTP/1.1\r\nHost: junk\r\n\r\n\x00\x01junk",
            ),
            write(upgraded, &junk),
        ],
    }
}

/// Reads `stream` to its end, at most `wait`: whether the peer closed it by then.
fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    let mut buf = [0; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return false,
            Err(_) => return true,
        }
    }
}

#[test]
fn strangers_in_bursts_cost_the_bots_no_input_and_the_server_nothing_it_keeps() {
    // 9 s of match: 5 s of bursts from the bots' join, then the strangers' ends are checked
    // while it runs. The server records the match (a keyframe every second): recording costs
    // the bots no input either, and the file verifies, holding the players' joins and none of
    // the strangers.
    const TICKS: u64 = 540;
    const BURSTS: usize = 25;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("strangers");
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("attack.rpl");
    let record_arg = record.to_str().unwrap();
    let (mut srv, addr, bots) = paced_match(
        TICKS,
        2,
        1,
        &["--ws", "127.0.0.1:0", "--record", record_arg],
    );
    let ws = srv.expect("websocket on ")["websocket on ws://".len()..].to_string();
    let base = settled(srv.id());
    let base_named = named(srv.id());
    // A burst every 200 ms for 5 s; the drips get one byte every 100 ms.
    let current = rapier_pinned::PHYSICS_VERSION_CURRENT;
    let hello = encode_frame(&ClientMsg::Hello {
        physics_version: current.get(),
        match_id: 0,
        settings: rapier_pinned::WorldConfig::new(current).unwrap().settings(),
        resume: None,
        sends_inputs: true,
        level: None,
    })
    .unwrap();
    let start = Instant::now();
    let mut bursts: Vec<Burst> = Vec::new();
    for beat in 0..BURSTS * 2 {
        if beat % 2 == 0 {
            bursts.push(burst(&addr, &ws));
        }
        for b in &mut bursts {
            let (stream, sent) = &mut b.drip;
            if *sent < hello.len() && stream.write_all(&hello[*sent..*sent + 1]).is_ok() {
                *sent += 1;
            }
        }
        let next = start + Duration::from_millis(100 * (beat as u64 + 1));
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
    }
    // Every stranger is refused, each with a logged reason, within the 1 s deadline of its hello.
    let (tcp, ws_count) = (BURSTS * BURST_TCP, BURSTS * BURST_WS);
    let settle = Instant::now() + Duration::from_secs(4);
    let counts = |lines: &[String]| {
        let bridge = lines
            .iter()
            .filter(|l| l.starts_with("websocket 127.0.0.1:") && l.contains(" refused: "))
            .count();
        (refused_hellos(lines), bridge)
    };
    while counts(srv.lines_after(Duration::from_millis(50))) != (tcp, ws_count)
        && Instant::now() < settle
    {}
    let lines = srv.lines_after(Duration::ZERO).to_vec();
    let late = refused_inputs(&lines);
    assert!(
        late.is_empty(),
        "{} of the bots' inputs refused during the attack: {:#?}",
        late.len(),
        &late[..late.len().min(5)]
    );
    assert_eq!(counts(&lines), (tcp, ws_count), "{lines:#?}");
    for b in &mut bursts {
        for stream in b.idle.iter_mut().chain([&mut b.drip.0]).chain(&mut b.sent) {
            assert!(closed_within(stream, Duration::from_secs(2)), "still open");
        }
    }
    // Every thread and descriptor of a stranger is gone (a thread exits just after its line).
    if cfg!(target_os = "linux") {
        let deadline = Instant::now() + Duration::from_secs(2);
        while resources(srv.id()) != base && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let now = resources(srv.id());
        let before = base_named;
        assert_eq!(
            now,
            base,
            "(threads, descriptors): {before:?} then {:?}",
            named(srv.id())
        );
    }
    let lines = end_match(srv, bots, TICKS);
    assert!(!lines.iter().any(|l| l.contains("diverged")), "{lines:#?}");
    let out = std::process::Command::new(common::BIN)
        .args(["replay", "verify", record_arg])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!(": ticks 1..{TICKS} verified")),
        "{text}"
    );
    let replay = rapier_pinned::Replay::read(&std::fs::read(&record).unwrap(), None).unwrap();
    // The match's events are the players': no stranger that never said hello is in it.
    let kinds: Vec<_> = replay.events.iter().map(|e| e.kind).collect();
    assert!(refused_hellos(&lines) >= tcp);
    assert!(
        !kinds.contains(&rapier_pinned::EventKind::Refused),
        "{kinds:?}"
    );
    assert_eq!(
        (kinds.iter())
            .filter(|k| **k == rapier_pinned::EventKind::Joined)
            .count(),
        2
    );
}
