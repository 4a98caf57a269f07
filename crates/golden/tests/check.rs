//! The golden check can fail, and says where: a tampered file, a perturbed run and the other
//! physics-version are each reported at the right run, step and body.

use rapier3d::prelude::*;
use rapier_pinned::PhysicsVersion;
use rapier_pinned_golden::{
    check_file, find, golden_dir, golden_path, golden_scenes, picture, text, BodyId, GoldenError,
    Verdict,
};
use rapier_pinned_scenes::digest_lines;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("golden-check-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn differs(
    verdict: Verdict,
) -> (
    Box<rapier_pinned_golden::Golden>,
    rapier_pinned_golden::Divergence,
) {
    match verdict {
        Verdict::Same => panic!("the check passed a run that differs"),
        Verdict::Differs(golden, divergence) => (golden, divergence),
    }
}

#[test]
fn the_stored_files_are_exactly_what_bless_writes() {
    // insta wrote or reviewed them; `golden bless` must write the same bytes, so the two review
    // flows never fight over a file.
    let dir = scratch("bless");
    for scene in golden_scenes().into_iter().filter(|s| s.runs() == 1) {
        let path = golden_path(&golden_dir(), PhysicsVersion::V2, scene.name);
        let copy = dir.join(format!("{}.snap", scene.name));
        std::fs::copy(&path, &copy).unwrap();
        let now = scene.record(PhysicsVersion::V2).unwrap();
        assert!(
            rapier_pinned_golden::bless_file(&copy, &now).unwrap()
                == rapier_pinned_golden::Blessed::Unchanged,
            "{}",
            scene.name
        );
    }
}

#[test]
fn a_tampered_digest_is_reported_at_its_step() {
    let scene = find("ball_drop").unwrap();
    let now = scene.record(PhysicsVersion::V2).unwrap();
    let file = std::fs::read_to_string(golden_path(&golden_dir(), PhysicsVersion::V2, "ball_drop"))
        .unwrap();
    let step_50 = text::render(&now)
        .lines()
        .find(|l| l.starts_with("50 "))
        .unwrap()
        .to_string();
    let digest = step_50.split(' ').nth(1).unwrap();
    let tampered_digest = format!("{:016x}", u64::from_str_radix(digest, 16).unwrap() ^ 1);
    let tampered = file.replace(&step_50, &step_50.replacen(digest, &tampered_digest, 1));
    assert_ne!(tampered, file);
    let path = scratch("tampered").join("ball_drop.snap");
    std::fs::write(&path, tampered).unwrap();

    let (_, divergence) = differs(check_file(&path, &now).unwrap());
    assert_eq!(
        (divergence.run.as_str(), divergence.step),
        ("ball_drop", 50)
    );
    assert!(divergence.what.contains(&tampered_digest), "{divergence}");
    // Only the digest was edited: no sampled body differs anywhere.
    assert_eq!(divergence.body, None, "{divergence}");
}

#[test]
fn a_tampered_header_line_is_reported_when_every_run_agrees() {
    let now = find("tower").unwrap().record(PhysicsVersion::V2).unwrap();
    let file =
        std::fs::read_to_string(golden_path(&golden_dir(), PhysicsVersion::V2, "tower")).unwrap();
    let path = scratch("header").join("tower.snap");
    std::fs::write(&path, file.replacen("about: ", "about: (edited) ", 1)).unwrap();
    let (_, divergence) = differs(check_file(&path, &now).unwrap());
    assert!(
        divergence.what.contains("header line 2 differs"),
        "{divergence}"
    );
}

#[test]
fn a_tampered_position_is_reported_with_its_body_and_quantity() {
    let scene = find("vehicles").unwrap();
    let now = scene.record(PhysicsVersion::V2).unwrap();
    let file = std::fs::read_to_string(golden_path(&golden_dir(), PhysicsVersion::V2, "vehicles"))
        .unwrap();
    let line = text::render(&now)
        .lines()
        .find(|l| l.starts_with("77 "))
        .unwrap()
        .to_string();
    // The third sampled body's y (fields: id, hash, x, y, z).
    let body = line.split(" | ").nth(3).unwrap();
    let y = body.split(' ').nth(3).unwrap();
    let tampered_body = body.replacen(&format!(" {y} "), " 1234.5 ", 1);
    let path = scratch("position").join("vehicles.snap");
    std::fs::write(
        &path,
        file.replace(&line, &line.replace(body, &tampered_body)),
    )
    .unwrap();

    let (_, divergence) = differs(check_file(&path, &now).unwrap());
    let diff = divergence.body.clone().unwrap();
    assert_eq!((divergence.step, diff.step), (77, 77), "{divergence}");
    assert_eq!(diff.body.to_string(), body.split(' ').next().unwrap());
    assert_eq!(
        (
            diff.quantity.as_str(),
            diff.golden.as_str(),
            diff.now.as_str()
        ),
        ("translation.y", "1234.5", y)
    );
}

#[test]
fn a_perturbed_run_is_reported_at_the_right_step_and_body_with_a_picture() {
    let scene = find("vehicles").unwrap();
    // Nudge the ramming vehicle (body 0v0) sideways by 1 mm/s before step 5, well before the ram.
    let ram = RigidBodyHandle::from_raw_parts(0, 0);
    let now = scene
        .record_with(PhysicsVersion::V2, &mut |_, step, world| {
            if step == 5 {
                let body = &mut world.bodies[ram];
                body.set_linvel(body.linvel() + Vector::new(0.0, 0.0, 0.001), true);
            }
        })
        .unwrap();
    let path = golden_path(&golden_dir(), PhysicsVersion::V2, "vehicles");
    let (golden, divergence) = differs(check_file(&path, &now).unwrap());
    let diff = divergence.body.clone().unwrap();
    assert_eq!(
        (divergence.run.as_str(), divergence.step),
        ("vehicles", 5),
        "{divergence}"
    );
    assert_eq!((diff.body, diff.step), (BodyId::of(ram), 5), "{divergence}");
    assert_eq!(diff.quantity, "translation.z", "{divergence}");
    assert!(divergence
        .to_string()
        .contains("run vehicles diverges at step 5"));

    let svg = scratch("picture").join("vehicles.svg");
    picture::draw(
        &golden.runs[0],
        &now.runs[0],
        diff.body,
        divergence.step,
        &svg,
    )
    .unwrap();
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.contains("body 0v0 around step 5"));
}

#[test]
fn physics_version_1_runs_fail_physics_version_2_golden_files_where_ccd_matters() {
    // The known-bad case of the gate: the other released version. Both CCD settings change the
    // runs of these two (not every scene: ball_drop has no CCD body, and bullets_vs_plates shoots
    // at fixed plates, which neither setting changes).
    for name in ["bullets_crossing", "spinning_blade"] {
        let now = find(name).unwrap().record(PhysicsVersion::V1).unwrap();
        let path = golden_path(&golden_dir(), PhysicsVersion::V2, name);
        let (_, divergence) = differs(check_file(&path, &now).unwrap());
        assert!(divergence.step > 0, "{name}: {divergence}");
        assert!(
            divergence.what.contains("state digest"),
            "{name}: {divergence}"
        );
    }
}

#[test]
fn physics_version_1_golden_digests_are_upstream_defaults() {
    // Physics-version 1 is upstream behaviour: its golden digests are the parity run's digests at
    // `IntegrationParameters::default()` (which scripts/parity checks against pristine upstream).
    for scene in rapier_pinned_scenes::catalog() {
        let golden = text::parse(
            text::content(
                &std::fs::read_to_string(golden_path(
                    &golden_dir(),
                    PhysicsVersion::V1,
                    scene.name,
                ))
                .unwrap(),
            )
            .unwrap(),
        )
        .unwrap();
        let from_golden: String = golden.runs[0]
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {} {:016x}\n", scene.name, i + 1, s.digest))
            .collect();
        assert_eq!(
            from_golden,
            digest_lines(scene, IntegrationParameters::default()),
            "{}",
            scene.name
        );
    }
}

#[test]
fn the_text_form_reads_back_to_the_same_text() {
    for name in ["pyramid", "box_into_rotor_300", "hex_wheel"] {
        let file =
            std::fs::read_to_string(golden_path(&golden_dir(), PhysicsVersion::V2, name)).unwrap();
        let content = text::content(&file).unwrap();
        assert_eq!(
            text::render(&text::parse(content).unwrap()),
            content,
            "{name}"
        );
    }
}

#[test]
fn a_malformed_or_missing_file_is_an_error_not_a_pass() {
    let now = find("ball_drop")
        .unwrap()
        .record(PhysicsVersion::V2)
        .unwrap();
    let dir = scratch("malformed");
    assert!(check_file(&dir.join("missing.snap"), &now).is_err());
    let bad = dir.join("bad.snap");
    std::fs::write(&bad, "---\nsource: x\n---\nrun ball_drop\n1 zz\n").unwrap();
    let err = check_file(&bad, &now).err().unwrap();
    // Typed: the file, then the line of its content, printed as before.
    let GoldenError::Malformed { path, source } = &err else {
        panic!("{err}");
    };
    assert_eq!(path, &bad);
    assert!(
        matches!(**source, GoldenError::BadLine { line: 2, .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "{}: line 2 of the content: no state digest: `1 zz`",
            bad.display()
        )
    );
}

#[test]
fn a_pinned_world_steps_the_golden_trajectories_of_every_scene_it_adopts() {
    // The golden runs step the catalog's PhysicsWorld under the version's parameters; a game
    // steps a PinnedWorld. For every scene with the pinned gravity they must be the same steps.
    let mut adopted = 0;
    for entry in rapier_pinned::version_table() {
        let config = rapier_pinned::WorldConfig::new(entry.number).unwrap();
        for scene in rapier_pinned_scenes::catalog() {
            let Ok(mut world) =
                rapier_pinned::PinnedWorld::adopt(config, scene.build(entry.params()))
            else {
                continue; // a zero-gravity scene: the pinned gravity refuses it
            };
            adopted += 1;
            let path = golden_path(&golden_dir(), entry.number, scene.name);
            let golden =
                text::parse(text::content(&std::fs::read_to_string(path).unwrap()).unwrap())
                    .unwrap();
            for (i, step) in golden.runs[0].steps.iter().enumerate() {
                world.step();
                let digest = rapier_pinned_scenes::state_digest(world.bodies());
                assert_eq!(
                    digest,
                    step.digest,
                    "{} v{} step {}",
                    scene.name,
                    entry.number,
                    i + 1
                );
            }
        }
    }
    // pyramid, ball_drop, tower, bullets_vs_plates, vehicles, vehicles_clear, arena, arena_clear,
    // mixed_5000 under each of the six versions.
    assert_eq!(adopted, 9 * rapier_pinned::version_table().len());
    assert_eq!(adopted, 54);
}
