//! The command line as a user types it. (Also makes `cargo test --workspace` build the
//! `rapier-pinned` binary, which scripts/test then reuses instead of building it again.)

use std::process::Command;

fn rapier_pinned(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rapier-pinned")).args(args).output().expect("run rapier-pinned")
}

#[test]
fn scenes_list_prints_every_catalog_scene() {
    let out = rapier_pinned(&["scenes", "--list"]);
    assert!(out.status.success());
    let names: Vec<String> = String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect();
    let catalog: Vec<&str> = rapier_pinned_scenes::catalog().iter().map(|s| s.name).collect();
    assert_eq!(names, catalog);
}

#[test]
fn unknown_scene_is_a_clear_error() {
    let out = rapier_pinned(&["scenes", "--scene", "no_such_scene"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("unknown scene 'no_such_scene'"));
}

#[test]
fn digests_are_one_line_per_step() {
    let out = rapier_pinned(&["digests", "--scene", "ball_drop"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let scene = rapier_pinned_scenes::find("ball_drop").unwrap();
    assert_eq!(text.lines().count(), scene.steps);
    assert_eq!(text, rapier_pinned_scenes::digest_lines(scene, Default::default()));
}
