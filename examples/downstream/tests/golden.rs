//! The game's golden trajectories: its own scenes, stepped by `rapier_pinned::PinnedWorld` under
//! the physics-version the game ships, compared step by step with `tests/snapshots/` through
//! insta (`cargo insta review` to look at a change). See docs/golden.md of rapier-pinned.

use rapier3d::prelude::*;
use rapier_pinned_golden::rapier_pinned::PinnedWorld;
use rapier_pinned_golden::{assert_golden, snapshot_site, GoldenRun};

mod common;

use common::{arena, PHYSICS_VERSION};

/// The player's input: a velocity target of 3 m/s along +x from `start` to tick 120, then stop.
fn walk(start: u64) -> impl FnMut(u64, &mut PinnedWorld) {
    move |tick, world| {
        let player = world
            .body_mut(RigidBodyHandle::from_raw_parts(0, 0))
            .expect("the player is body 0v0");
        let target = if (start..120).contains(&tick) {
            3.0
        } else {
            0.0
        };
        let v = player.linvel();
        player.set_linvel(Vector::new(target, v.y, v.z), true);
    }
}

fn player_pushes_the_stack(start: u64) -> GoldenRun<'static> {
    GoldenRun::new(PHYSICS_VERSION, 180, arena)
        .about("the player walks into a stack of four crates from tick 30 to 120")
        .inputs(walk(start))
}

#[test]
fn the_player_pushes_the_crate_stack() {
    assert_golden!("player_pushes_the_stack", player_pushes_the_stack(30));
}

/// Deliberately broken: the same scene with the player starting 10 ticks late, against the
/// stored golden file (copied to a scratch directory, so insta's pending file and the picture
/// land there and not in tests/snapshots/). The failure must name step 31, the player and x.
#[test]
fn a_late_input_is_reported_at_its_first_diverging_step_and_body() {
    if std::env::var("INSTA_FORCE_PASS").as_deref() == Ok("1") {
        return; // `cargo insta test` makes every insta assertion pass: there is no failure to see.
    }
    let stored = snapshot_site!().snapshot_file("player_pushes_the_stack@physics-v2");
    let dir = std::env::temp_dir().join(format!("downstream-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&stored, dir.join(stored.file_name().unwrap())).unwrap();

    let failure = std::panic::catch_unwind(|| {
        rapier_pinned_golden::insta::with_settings!({ snapshot_path => &dir }, {
            assert_golden!("player_pushes_the_stack", player_pushes_the_stack(40));
        })
    })
    .expect_err("a run whose input changed passed its golden file");
    let message = failure
        .downcast_ref::<String>()
        .expect("a text panic")
        .clone();
    println!("the failure, as a developer sees it:\n{message}");
    assert!(
        message.starts_with(
            "golden `player_pushes_the_stack` (physics-version 2) diverges at step 31: state digest golden "
        ),
        "{message}"
    );
    assert!(
        message.contains("\n  body 0v0 (user_data 1): translation.x golden "),
        "{message}"
    );
    let picture = dir.join("golden__player_pushes_the_stack@physics-v2.divergence.svg");
    assert!(
        message.contains(&format!("\n  picture: {}", picture.display())),
        "{message}"
    );
    assert!(std::fs::read_to_string(&picture)
        .unwrap()
        .contains("body 0v0 around step 31"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A golden file that does not exist fails (never passes by being written); in insta's CI mode
/// (INSTA_UPDATE=no, which scripts/tests/downstream.sh sets) nothing is written at all.
#[test]
fn a_missing_golden_file_fails() {
    if std::env::var("INSTA_FORCE_PASS").as_deref() == Ok("1") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("downstream-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let failure = std::panic::catch_unwind(|| {
        rapier_pinned_golden::insta::with_settings!({ snapshot_path => &dir }, {
            assert_golden!("never_blessed", player_pushes_the_stack(30));
        })
    })
    .expect_err("a missing golden file passed");
    let message = failure.downcast_ref::<String>().unwrap();
    assert!(
        message.starts_with("golden `never_blessed` (physics-version 2): no golden file at "),
        "{message}"
    );
    if std::env::var("INSTA_UPDATE").as_deref() == Ok("no") {
        let written: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(written.is_empty(), "insta wrote {written:?} in CI mode");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
