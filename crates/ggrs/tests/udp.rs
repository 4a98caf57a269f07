//! Two GGRS peers in two processes over UDP on loopback, every packet behind a seeded filter that
//! drops 5% and delays the rest by 20–80 ms, input delay 2, 1,800 frames, desync detection
//! every 10 frames; a third process joins late from a keyed pinned snapshot and follows as a
//! spectator; and a peer at another physics-version is reported as a desync (issue 31).

use rapier_pinned::PhysicsVersion;
use rapier_pinned_ggrs::{arena, local_match};
use std::collections::BTreeMap;
use std::net::UdpSocket;
use std::process::{Child, Command, Stdio};

const FRAMES: usize = 1800;
const SEED: u64 = 7;
const KEY: &str = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";
const SNAPSHOT_FRAME: usize = 600;

/// A free UDP port on loopback (bound, read, released).
fn free_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn peer(args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_rapier-pinned-ggrs-peer"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for every peer at once (each drains its own pipes: a peer blocked on a full pipe
/// would stall the match); each one's stdout lines (each must exit 0).
fn finish<const N: usize>(peers: [(Child, &str); N]) -> [Vec<String>; N] {
    let waits = peers.map(|(child, who)| {
        let who = who.to_string();
        std::thread::spawn(move || (who, child.wait_with_output().unwrap()))
    });
    let mut failed = Vec::new();
    let lines = waits.map(|wait| {
        let (who, out) = wait.join().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
        if !out.status.success() {
            failed.push(format!(
                "{who} failed: {}; its last lines: {:#?}",
                String::from_utf8_lossy(&out.stderr).trim(),
                &lines[lines.len().saturating_sub(6)..]
            ));
        }
        lines
    });
    assert!(failed.is_empty(), "{failed:#?}");
    lines
}

/// `frame F digest D` lines as a map.
fn digests(lines: &[String]) -> BTreeMap<usize, String> {
    lines
        .iter()
        .filter_map(|l| {
            let rest = l.strip_prefix("frame ")?;
            let (frame, digest) = rest.split_once(" digest ")?;
            Some((frame.parse().ok()?, digest.to_string()))
        })
        .collect()
}

/// The frames of the `desync at frame F` lines.
fn desyncs(lines: &[String]) -> Vec<usize> {
    lines
        .iter()
        .filter_map(|l| {
            l.strip_prefix("desync at frame ")?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .collect()
}

fn common(port: u16, version: PhysicsVersion) -> Vec<String> {
    [
        "--port".to_string(),
        port.to_string(),
        "--physics-version".into(),
        version.to_string(),
        "--frames".into(),
        FRAMES.to_string(),
        "--seed".into(),
        SEED.to_string(),
        "--key-hex".into(),
        KEY.into(),
    ]
    .to_vec()
}

/// Player `player` on `port` against `remote`, at `version`; the host may name a spectator.
fn player(
    player: usize,
    port: u16,
    remote: u16,
    version: PhysicsVersion,
    extra: &[String],
) -> Child {
    let mut args = vec!["play".to_string()];
    args.extend(common(port, version));
    args.extend([
        "--player".into(),
        player.to_string(),
        "--remote".into(),
        format!("127.0.0.1:{remote}"),
    ]);
    args.extend_from_slice(extra);
    peer(&args)
}

/// The expected checksums of frames 0..=`frames`: the same bots, the same input delay, no
/// network.
fn reference(version: PhysicsVersion, frames: usize) -> Vec<String> {
    local_match(arena(version).unwrap(), SEED, 2, 2, frames)
        .iter()
        .map(|c| format!("{c:016x}"))
        .collect()
}

#[test]
fn two_peers_over_a_lossy_network_stay_in_sync_and_a_late_spectator_follows_from_a_snapshot() {
    let (a, b, s) = (free_port(), free_port(), free_port());
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let snapshot_addr = tcp.local_addr().unwrap().to_string();
    drop(tcp);
    let host = player(
        0,
        a,
        b,
        PhysicsVersion::V2,
        &[
            "--spectator".into(),
            format!("127.0.0.1:{s}"),
            "--snapshot-listen".into(),
            snapshot_addr.clone(),
            "--snapshot-frame".into(),
            SNAPSHOT_FRAME.to_string(),
        ],
    );
    let other = player(1, b, a, PhysicsVersion::V2, &[]);
    let mut args = vec!["spectate".to_string()];
    args.extend(common(s, PhysicsVersion::V2));
    args.extend([
        "--host".into(),
        format!("127.0.0.1:{a}"),
        "--snapshot-from".into(),
        snapshot_addr,
    ]);
    let spectator = peer(&args);
    let [host, other, spectator] = finish([
        (host, "player 0"),
        (other, "player 1"),
        (spectator, "spectator"),
    ]);
    let expected = reference(PhysicsVersion::V2, FRAMES);
    for (who, lines) in [("player 0", &host), ("player 1", &other)] {
        let d = digests(lines);
        assert_eq!(
            d.len(),
            FRAMES + 1,
            "{who}: every frame 0..={FRAMES} reported"
        );
        for (frame, digest) in &d {
            assert_eq!(digest, &expected[*frame], "{who}, frame {frame}");
        }
        assert_eq!(desyncs(lines), Vec::<usize>::new(), "{who}");
        let done = lines.iter().find(|l| l.starts_with("done: ")).unwrap();
        assert!(done.contains(", 0 desyncs, "), "{done}");
        println!("{who}: {done}");
    }
    // The spectator's world starts at the snapshot's frame and equals the players' from there.
    let joined = spectator.iter().find(|l| l.starts_with("joined at frame "));
    assert_eq!(
        joined.map(|l| l.split(' ').nth(3).unwrap()),
        Some(SNAPSHOT_FRAME.to_string().as_str()),
        "{spectator:#?}"
    );
    let d = digests(&spectator);
    assert_eq!(
        d.keys().copied().collect::<Vec<_>>(),
        (SNAPSHOT_FRAME..=FRAMES).collect::<Vec<_>>()
    );
    for (frame, digest) in &d {
        assert_eq!(digest, &expected[*frame], "spectator, frame {frame}");
    }
    println!(
        "spectator: {}, {} frames equal to the players' (first {})",
        joined.unwrap(),
        d.len(),
        d[&SNAPSHOT_FRAME]
    );
}

#[test]
fn a_peer_at_another_physics_version_is_reported_as_a_desync() {
    let (a, b) = (free_port(), free_port());
    let v2 = player(0, a, b, PhysicsVersion::V2, &[]);
    let v1 = player(1, b, a, PhysicsVersion::V1, &[]);
    let [v2, v1] = finish([(v2, "version 2 peer"), (v1, "version 1 peer")]);
    // Where the two versions' matches first differ at a checked frame (every 10th).
    // Players run a little past FRAMES (so that both confirm it) and report desyncs there too.
    let (one, two) = (
        reference(PhysicsVersion::V1, FRAMES + 200),
        reference(PhysicsVersion::V2, FRAMES + 200),
    );
    let first = (10..=FRAMES)
        .step_by(10)
        .find(|f| one[*f] != two[*f])
        .expect("the versions' matches differ at a checked frame");
    for (who, lines) in [("version 2 peer", &v2), ("version 1 peer", &v1)] {
        // GGRS sends each checked frame's checksum once, over the lossy network, and reports a
        // desync when the other's arrives (not in frame order): every reported frame is one
        // where the versions' worlds differ, and the earliest is `first` unless its report
        // was lost (5%), then one of the next checks.
        let frames = desyncs(lines);
        let earliest = *frames.iter().min().expect("no desync reported");
        assert!(
            frames.iter().all(|f| f % 10 == 0 && one[*f] != two[*f]),
            "{who}: {frames:?}"
        );
        assert!(
            (first..=first + 50).contains(&earliest),
            "{who}: {frames:?}"
        );
        println!(
            "{who}: first desync reported at frame {earliest} (the worlds first differ at a \
             check at frame {first}), {} reported",
            frames.len()
        );
    }
}
