//! The game's recorded matches as its regression suite: every file in `tests/replays/` is a
//! match as the game's server recorded it (`rapier_pinned::ReplayWriter`, with the game's own
//! input encoding), re-stepped by rapier-pinned-golden's replay runner with the game's own input
//! decoder; a tick whose state digest differs fails the test, naming the tick, the body and the
//! quantity. See docs/golden.md of rapier-pinned, "Recorded matches".
//!
//! `DOWNSTREAM_RECORD=1 cargo test --test replays` records `tests/replays/walk.rpl` again (a new
//! physics-version's match, or a changed scene: review it like a golden file).

use std::path::{Path, PathBuf};

use rapier3d::prelude::*;
use rapier_pinned_golden::rapier_pinned::{
    PinnedWorld, Replay, ReplayVerdict, ReplayWriter, WorldConfig,
};
use rapier_pinned_golden::replay::{verify, verify_folder, ReplayOptions};

mod common;

use common::{arena, PHYSICS_VERSION};

/// The name of the game's input encoding, written in every replay's header.
const INPUTS: &str = "downstream-game/walk-1";

/// The game's input for one tick: the player's target speed along x (m/s).
fn encode(speed: f32) -> [u8; 4] {
    speed.to_le_bytes()
}

/// The game's decoder: applies one tick's recorded input to the world.
fn apply(bytes: &[u8], world: &mut PinnedWorld) -> Result<(), String> {
    let speed: [u8; 4] = bytes
        .try_into()
        .map_err(|_| format!("{} bytes, expected 4", bytes.len()))?;
    let player = world
        .body_mut(RigidBodyHandle::from_raw_parts(0, 0))
        .ok_or("no player body 0v0")?;
    let v = player.linvel();
    player.set_linvel(Vector::new(f32::from_le_bytes(speed), v.y, v.z), true);
    Ok(())
}

/// What the game's server does for a match: the player walks at 3 m/s from tick 30 to 120;
/// each tick's input applied, the world stepped and the tick recorded into `path`.
fn record_match(path: &Path) {
    let config = WorldConfig::new(PHYSICS_VERSION).unwrap().with_match_id(11);
    let mut world = PinnedWorld::new(config);
    arena(&mut world);
    let file = std::fs::File::create(path).unwrap();
    let mut writer = ReplayWriter::start(file, &world, None, 30, INPUTS, None).unwrap();
    for tick in 0..180 {
        let input = encode(if (30..120).contains(&tick) { 3.0 } else { 0.0 });
        apply(&input, &mut world).unwrap();
        world.step();
        writer.tick(&world, &input).unwrap();
    }
}

fn replays() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays")
}

#[test]
fn every_recorded_match_steps_as_recorded() {
    if std::env::var("DOWNSTREAM_RECORD").as_deref() == Ok("1") {
        record_match(&replays().join("walk.rpl"));
    }
    let verified =
        verify_folder(&replays(), None, None, &mut apply).unwrap_or_else(|e| panic!("{e}"));
    assert!(verified >= 1, "no recorded match in tests/replays/");
}

/// A match recorded now verifies; with one input byte changed (the file sealed again, so only
/// the input differs), the runner names exactly that tick, the player and its x.
#[test]
fn a_changed_input_is_reported_at_its_tick() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("downstream-replays");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("now.rpl");
    record_match(&path);
    let replay = Replay::read(&std::fs::read(&path).unwrap(), None).unwrap();
    let options = ReplayOptions::default();
    let report = verify(&replay, &options, &mut apply).unwrap();
    assert_eq!(report.verdict, ReplayVerdict::Same { from: 0, to: 180 });

    let mut changed = replay.clone();
    changed.ticks[59].inputs = encode(2.5).to_vec(); // tick 60
    let changed = Replay::read(&changed.seal(None), None).unwrap();
    let report = verify(&changed, &options, &mut apply).unwrap();
    println!("the failure, as a developer sees it:\n{report}");
    let d = report.divergence().expect("a changed input verified");
    assert_eq!(d.tick, 60);
    let body = d.body.as_ref().expect("a keyframe follows");
    assert_eq!(
        (body.tick, body.body, body.quantity),
        (60, (0, 0), "translation.x")
    );
}
