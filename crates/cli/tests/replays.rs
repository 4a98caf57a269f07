//! Recorded matches (`serve --record`, `join --record`, `replay verify|inspect`; docs/protocol.md
//! §7): a two-bot match with a late joiner verifies from the server's recording and from each
//! client's; an input byte changed (the file sealed again) is reported at exactly its tick; a
//! file cut anywhere verifies its complete chunks and reports the tear; a client that diverged
//! has its divergence named, tick, body and picture; another physics-version's departure is
//! measured; a server killed mid-match leaves a file that verifies.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{server, Proc, BIN};
use rapier_pinned::{EventKind, Replay};
use rapier_pinned_net::inputs::Action;
use rapier_pinned_net::wire::{decode_inputs, encode_inputs};

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("replays-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `rapier-pinned` to its end: exit status, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap(),
        text(out.stdout),
        text(out.stderr),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A 600-tick match recorded by the server and by its two bots, the second joining at tick
/// 300 (`extra` goes to the second bot), a client of another physics-version refused between
/// them: the three files.
fn record_match(dir: &Path, extra: &[&str]) -> [PathBuf; 3] {
    let files = ["server.rpl", "first.rpl", "late.rpl"].map(|f| dir.join(f));
    let (mut srv, addr) = server(&[
        "--ticks",
        "600",
        "--join-at",
        "0",
        "--join-at",
        "300",
        "--record",
        path(&files[0]),
    ]);
    let first = Proc::start(&["join", &addr, "--bot", "--record", path(&files[1])]);
    srv.expect("joined client#1 at tick 0");
    // A player of another physics-version is refused, and the refusal recorded.
    let (code, _, err) = run(&["join", &addr, "--physics-version", "4"]);
    assert_eq!(code, 1, "{err}");
    let mut late_args = vec!["join", &addr, "--bot", "--record", path(&files[2])];
    late_args.extend(extra);
    let late = Proc::start(&late_args);
    first.finish_ok();
    let _ = late.finish();
    srv.finish_ok();
    files
}

#[test]
fn a_two_bot_match_with_a_late_joiner_verifies_from_every_recording() {
    let dir = scratch("match");
    let [server, first, late] = record_match(&dir, &[]);
    let (code, out, err) = run(&["replay", "verify", path(&server), path(&first), path(&late)]);
    assert_eq!(code, 0, "{out}{err}");
    for (file, ticks) in [(&server, "1..600"), (&first, "1..600"), (&late, "301..600")] {
        let line = format!("{}: ticks {ticks} verified", file.display());
        assert!(out.contains(&line), "{line} in {out}");
    }
    let (code, out, err) = run(&["replay", "inspect", path(&server)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("ticks             1..600 (600 ticks, 10.0 s)"),
        "{out}"
    );
    assert!(out.contains("players           body 0v0 ("), "{out}");
    assert!(out.contains(", body 1v0 ("), "{out}");
    assert!(out.contains(": refused client#2 from 127.0.0.1:"), "{out}");
    assert!(
        out.contains("physics-version 4; this match runs physics-version 6"),
        "{out}"
    );
    assert!(
        out.contains("  tick    300  Joined: joined client#3 at tick 300 as player 1"),
        "{out}"
    );
    // From a keyframe: only the ticks after it are stepped.
    let (code, out, _) = run(&["replay", "verify", "--from", "450", path(&server)]);
    assert_eq!(code, 0);
    assert!(out.contains("ticks 421..600 verified (180 ticks"), "{out}");
    // Under physics-version 1 (upstream's rules) the arena departs, and how far is printed.
    let (code, out, err) = run(&["replay", "verify", "--under", "1", path(&server)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("under physics-version 1, departs from "),
        "{out}"
    );
    assert!(out.contains("keyframe tick    600: "), "{out}");
}

#[test]
fn a_changed_input_byte_is_reported_at_exactly_its_tick() {
    let dir = scratch("changed");
    let [server, ..] = record_match(&dir, &[]);
    let mut replay = Replay::read(&std::fs::read(&server).unwrap(), None).unwrap();
    // The first tick after 100 whose inputs carry an impulse; change one byte of its largest
    // component (the second byte of the f32: a change of about 1%).
    let (index, offset) = replay
        .ticks
        .iter()
        .enumerate()
        .skip(100)
        .find_map(|(i, t)| {
            let inputs = decode_inputs(&t.inputs).unwrap();
            let Action::Impulse(v) = inputs.first()?.action else {
                return None;
            };
            let axis = (0..3).max_by(|&a, &b| v[a].abs().total_cmp(&v[b].abs()))?;
            // Vec length (8), body (8), the variant (4), then the three f32s.
            Some((i, 20 + 4 * axis + 2))
        })
        .expect("an impulse after tick 100");
    let tick = replay.ticks[index].tick;
    let before = replay.ticks[index].inputs.clone();
    replay.ticks[index].inputs[offset] ^= 0x01;
    assert_ne!(
        decode_inputs(&replay.ticks[index].inputs).unwrap(),
        decode_inputs(&before).unwrap()
    );
    assert_eq!(encode_inputs(&decode_inputs(&before).unwrap()), before);
    let changed = dir.join("changed.rpl");
    std::fs::write(&changed, replay.seal(None)).unwrap();
    let (code, out, err) = run(&["replay", "verify", path(&changed), "--pictures", path(&dir)]);
    assert_eq!(code, 1, "{out}{err}");
    let head = format!(
        "{}: diverges at tick {tick}: state digest recorded ",
        changed.display()
    );
    assert!(err.contains(&head), "{head} in {err}");
    assert!(err.contains(": body "), "{err}");
    assert!(dir.join("changed.rpl.divergence.svg").exists());
}

#[test]
fn a_file_cut_anywhere_verifies_its_complete_chunks() {
    let dir = scratch("cut");
    let [server, ..] = record_match(&dir, &[]);
    let bytes = std::fs::read(&server).unwrap();
    let replay = Replay::read(&bytes, None).unwrap();
    let after_start = replay.sizes.header + replay.sizes.start;
    let cut = dir.join("cut.rpl");
    for n in 1..=6u64 {
        let at = after_start + (bytes.len() as u64 - after_start) * n / 7 + n;
        std::fs::write(&cut, &bytes[..at as usize]).unwrap();
        let (code, out, err) = run(&["replay", "verify", path(&cut)]);
        assert_eq!(code, 0, "cut at {at}: {out}{err}");
        assert!(out.contains("; the file is torn: "), "cut at {at}: {out}");
    }
    std::fs::write(&cut, &bytes[..after_start as usize - 1]).unwrap();
    let (code, _, err) = run(&["replay", "verify", path(&cut)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("before its start snapshot is complete"),
        "{err}"
    );
}

#[test]
fn a_client_that_diverged_recorded_its_divergence() {
    let dir = scratch("diverged");
    let [server, _, late] = record_match(&dir, &["--desync-at", "400"]);
    let (code, out, err) = run(&[
        "replay",
        "verify",
        path(&server),
        path(&late),
        "--pictures",
        path(&dir),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("server.rpl: ticks 1..600 verified"), "{out}");
    // Nudged after tick 400: the digest it recorded there is the nudged world's.
    assert!(err.contains("late.rpl: diverges at tick 400: "), "{err}");
    assert!(
        err.contains("at the next keyframe, tick 420: body 0v0: translation."),
        "{err}"
    );
    assert!(err.contains("failed: 1 of 2 replays diverge"), "{err}");
    // The server recorded the divergence it saw at the digest exchange of tick 420.
    let replay = Replay::read(&std::fs::read(&server).unwrap(), None).unwrap();
    // (recorded at the tick the server had reached when the report came).
    let diverged: Vec<_> = (replay.events.iter())
        .filter(|e| e.kind == EventKind::Diverged)
        .map(|e| (e.client, e.seat, e.text.contains(" at tick 420: server ")))
        .collect();
    assert_eq!(diverged, [(3, Some(1), true)]);
}

#[test]
fn the_conformance_replays_give_their_verdicts() {
    let dir = scratch("conformance");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/replays");
    let (code, out, err) = run(&[
        "replay",
        "verify",
        path(&fixtures.join("arena-v3.rpl")),
        path(&fixtures.join("arena-v3-late-desync.rpl")),
        "--pictures",
        path(&dir),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.ends_with("arena-v3.rpl: ticks 1..300 verified (300 ticks), physics-version 3\n"),
        "{out}"
    );
    assert!(
        err.contains(
            "arena-v3-late-desync.rpl: diverges at tick 200: state digest recorded \
             cbd9e188684af461, now 4318dcf6570e0dee\n  at the next keyframe, tick 240: body 0v0: \
             translation.x recorded -3.2590942, now -3.2591896\n"
        ),
        "{err}"
    );
}

#[test]
fn a_server_killed_mid_match_leaves_a_file_that_verifies() {
    let dir = scratch("killed");
    let file = dir.join("killed.rpl");
    let (mut srv, addr) = server(&[
        "--ticks",
        "1000000",
        "--join-at",
        "0",
        "--record",
        path(&file),
    ]);
    let bot = Proc::start(&["join", &addr, "--bot"]);
    srv.expect("joined client#1 at tick 0");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    drop(srv); // killed (SIGKILL), mid-match
    drop(bot);
    let (code, out, err) = run(&["replay", "verify", path(&file)]);
    assert_eq!(code, 0, "{out}{err}");
    let ticks: u64 = out
        .split("ticks 1..")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(ticks > 60, "{out}");
}
