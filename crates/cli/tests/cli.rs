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

#[test]
fn digests_cover_a_thin_part_set_run_by_run() {
    let out = rapier_pinned(&["digests", "--scene", "vehicle_push"]);
    assert!(out.status.success());
    let set = rapier_pinned_scenes::thin_sets().iter().find(|t| t.name == "vehicle_push").unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), set.digest_lines(Default::default()));
}

#[test]
fn perturbation_prints_every_configuration_of_a_set() {
    let out = rapier_pinned(&["perturbation", "--set", "vehicle_push", "--no-truncation"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("vehicle_push")).collect();
    assert_eq!(rows.len(), 6, "{text}");
    // The configuration the physics-version will pin meets the gates on this moving-target set.
    assert!(rows.iter().any(|r| r.contains("p2 rm on") && r.ends_with("holds")), "{text}");
}

#[test]
fn unknown_perturbation_set_is_a_clear_error() {
    let out = rapier_pinned(&["perturbation", "--set", "no_such_set"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("unknown set 'no_such_set'"));
}
