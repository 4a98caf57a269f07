//! Golden trajectories of every released physics-version, through insta: a change shows up in
//! `cargo insta review` as a diff of `golden/<physics-version>/<scene>.snap`.
//! (`rapier-pinned golden check` compares the same files and names the first diverging step.)

use rapier_pinned_golden::{golden_dir, golden_scenes, text};

#[test]
fn every_scene_of_every_released_physics_version_steps_as_its_golden_file() {
    for entry in rapier_pinned::version_table() {
        let version = entry.number;
        for scene in golden_scenes() {
            let golden = scene.record(version).unwrap();
            insta::with_settings!({
                snapshot_path => golden_dir().join(version.to_string()),
                prepend_module_to_snapshot => false,
                omit_expression => true,
            }, {
                insta::assert_snapshot!(scene.name, text::render(&golden));
            });
        }
    }
}
