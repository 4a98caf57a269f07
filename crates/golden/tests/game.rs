//! The game-facing API (`GoldenRun`, `assert_golden!`) on a small scene of its own, as a game's
//! test would use it: a golden file stored by insta next to this file (`snapshots/`), a broken run
//! reported at its step, body (with `user_data`) and quantity with a picture beside the file, a
//! missing file that fails, an unpinned world refused with its typed error, and the guard rails.

use rapier3d::parry::bounding_volume::{Aabb, BoundingSphere};
use rapier3d::parry::query::{PointProjection, PointQuery, Ray, RayCast, RayIntersection};
use rapier3d::parry::shape::{Ball, FeatureId, Shape, ShapeType, TypedShape};
use rapier3d::prelude::*;
use rapier_pinned::{ErrorKind, GameSettings, PhysicsVersion, PinnedWorld};
use rapier_pinned_golden::{assert_golden, snapshot_site, BodyId, GoldenError, GoldenRun};
use std::path::{Path, PathBuf};

/// A ball (user_data 42) and a crate (user_data 7) slide down a ramp onto the ground; a third
/// body (no user_data) falls beside them.
fn ramp(world: &mut PinnedWorld) {
    world.insert_collider(ColliderBuilder::cuboid(20.0, 0.1, 20.0), None);
    world.insert_collider(
        ColliderBuilder::cuboid(3.0, 0.1, 1.0)
            .translation(Vector::new(0.0, 1.5, 0.0))
            .rotation(Vector::new(0.0, 0.0, -0.4)),
        None,
    );
    let ball = world.insert_body(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-2.0, 3.2, 0.0))
            .user_data(42),
    );
    world.insert_collider(ColliderBuilder::ball(0.3), Some(ball));
    let crate_ = world.insert_body(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-1.0, 2.9, 0.3))
            .user_data(7),
    );
    world.insert_collider(ColliderBuilder::cuboid(0.2, 0.2, 0.2), Some(crate_));
    let other =
        world.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(4.0, 1.0, 2.0)));
    world.insert_collider(ColliderBuilder::capsule_y(0.3, 0.2), Some(other));
}

/// The ball's handle (the first body inserted).
fn ball() -> RigidBodyHandle {
    RigidBodyHandle::from_raw_parts(0, 0)
}

/// The ramp for 90 steps, with the ball pushed along +x from tick 10 to 19; `nudge` adds a
/// 1 mm/s sideways kick to the crate before the given tick (the deliberately broken run).
fn ramp_run(nudge: Option<u64>) -> GoldenRun<'static> {
    GoldenRun::new(PhysicsVersion::V2, 90, ramp)
        .about("ball and crate down a ramp, ball pushed for 10 ticks")
        .inputs(move |tick, world| {
            let ball = world.body_mut(ball()).unwrap();
            ball.reset_forces(false);
            if (10..20).contains(&tick) {
                ball.add_force(Vector::new(2.0, 0.0, 0.0), true);
            }
            if Some(tick) == nudge {
                let crate_ = world
                    .body_mut(RigidBodyHandle::from_raw_parts(1, 0))
                    .unwrap();
                crate_.set_linvel(crate_.linvel() + Vector::new(0.0, 0.0, 0.001), true);
            }
        })
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("golden-game-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap()
}

fn force_pass() -> bool {
    std::env::var("INSTA_FORCE_PASS").as_deref() == Ok("1")
}

#[test]
fn a_game_scene_steps_as_its_golden_file() {
    assert_golden!("ramp", ramp_run(None));
}

/// `version`'s default settings with `edit` applied.
fn settings(edit: impl FnOnce(&mut GameSettings)) -> GameSettings {
    let mut s = rapier_pinned::entry(PhysicsVersion::V2)
        .unwrap()
        .default_settings();
    edit(&mut s);
    s
}

/// Two balls and a spinning box in zero gravity (a space game's world, issue 30): the balls
/// collide head-on and one of them hits the box.
fn drift(world: &mut PinnedWorld) {
    for (x, v) in [(-3.0, 4.0), (3.0, -4.0)] {
        let ball = world.insert_body(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(x, 0.1 * x, 0.0))
                .linvel(Vector::new(v, 0.0, 0.0)),
        );
        world.insert_collider(ColliderBuilder::ball(0.5), Some(ball));
    }
    let spinner = world.insert_body(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, -2.0, 0.0))
            .angvel(Vector::new(0.0, 0.0, 3.0))
            .linvel(Vector::new(0.0, 1.0, 0.0))
            .user_data(9),
    );
    world.insert_collider(ColliderBuilder::cuboid(1.0, 0.2, 0.5), Some(spinner));
}

#[test]
fn a_zero_gravity_scene_steps_as_its_golden_file() {
    let run = GoldenRun::new(PhysicsVersion::V2, 120, drift)
        .settings(settings(|s| s.gravity = [0.0; 3]))
        .about("two balls and a spinning box in zero gravity");
    assert_golden!("drift_zero_gravity", run);
}

#[test]
fn a_120_hz_scene_steps_as_its_golden_file() {
    // The ramp at twice the tick rate: 180 steps cover the 90 of 60 Hz. (30 Hz is not allowed by
    // versions 1 and 2: a gate fails there, docs/physics-engine.md "Gates at each tick rate".)
    let run = GoldenRun::new(PhysicsVersion::V2, 180, ramp)
        .settings(settings(|s| s.tick_hz = 120))
        .about("ball and crate down a ramp at 120 Hz");
    assert_golden!("ramp_120hz", run);
}

#[test]
fn settings_are_in_the_header_and_refused_when_the_version_does_not_allow_them() {
    let zero = GoldenRun::new(PhysicsVersion::V2, 2, drift)
        .settings(settings(|s| s.gravity = [0.0; 3]))
        .record("z")
        .unwrap();
    let header = zero.golden.header.join("\n");
    assert!(
        header
            .contains("settings: gravity [0.0, 0.0, 0.0], 60 Hz (dt 0.016666668), length_unit 1.0"),
        "{header}"
    );
    // Default settings add no line: the files of default runs read as before settings existed.
    let plain = GoldenRun::new(PhysicsVersion::V2, 2, ramp)
        .record("p")
        .unwrap();
    assert!(!plain
        .golden
        .header
        .iter()
        .any(|l| l.starts_with("settings:")));
    let err = GoldenRun::new(PhysicsVersion::V2, 2, ramp)
        .settings(settings(|s| s.tick_hz = 30))
        .record("bad")
        .unwrap_err();
    let GoldenError::SettingNotAllowed { error, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(error.kind(), ErrorKind::SettingNotAllowed);
    // A plain world built for other settings is adopted only under them.
    let config = rapier_pinned::WorldConfig::new(PhysicsVersion::V2)
        .unwrap()
        .with_settings(settings(|s| s.tick_hz = 120))
        .unwrap();
    let fast_world = || {
        let mut world = PhysicsWorld::new();
        world.integration_parameters = config.params();
        world.gravity = config.gravity();
        world
    };
    let err = GoldenRun::adopt(PhysicsVersion::V2, 2, fast_world())
        .record("w")
        .unwrap_err();
    assert!(err.to_string().contains("dt: pinned 0.016666668"), "{err}");
    GoldenRun::adopt(PhysicsVersion::V2, 2, fast_world())
        .settings(settings(|s| s.tick_hz = 120))
        .record("w")
        .unwrap();
}

#[test]
fn the_snapshot_is_where_insta_keeps_this_test_files_snapshots() {
    let expected =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/game__ramp@physics-v2.snap");
    assert_eq!(snapshot_site!().snapshot_file("ramp@physics-v2"), expected);
    assert!(expected.is_file());
    // insta's settings apply: a suffix, no module prefix, another directory.
    let dir = scratch("site");
    rapier_pinned_golden::insta::with_settings!({ snapshot_path => &dir, prepend_module_to_snapshot => false, snapshot_suffix => "linux" }, {
        assert_eq!(
            snapshot_site!().snapshot_file("a/b"),
            dir.join("a__b@linux.snap")
        );
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_run_names_its_step_body_user_data_and_quantity_and_draws_the_picture() {
    if force_pass() {
        return; // `cargo insta test` forces insta to pass: nothing fails to look at.
    }
    // The stored golden file, copied: insta's pending file and the picture go beside the copy.
    let dir = scratch("broken");
    let stored = snapshot_site!().snapshot_file("ramp@physics-v2");
    std::fs::copy(&stored, dir.join("game__ramp@physics-v2.snap")).unwrap();
    let result = std::panic::catch_unwind(|| {
        rapier_pinned_golden::insta::with_settings!({ snapshot_path => &dir }, {
            assert_golden!("ramp", ramp_run(Some(40)));
        });
    });
    let message = panic_message(result.expect_err("a broken run passed"));
    assert!(
        message.starts_with(
            "golden `ramp` (physics-version 2) diverges at step 41: state digest golden "
        ),
        "{message}"
    );
    assert!(
        message.contains("\n  body 1v0 (user_data 7): translation.x golden "),
        "{message}"
    );
    assert!(
        message.contains("\n  insta: snapshot assertion for 'ramp@physics-v2' failed"),
        "{message}"
    );
    let svg = dir.join("game__ramp@physics-v2.divergence.svg");
    assert!(
        message.contains(&format!("picture: {}", svg.display())),
        "{message}"
    );
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.contains("body 1v0 around step 41"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_golden_file_fails_and_in_ci_mode_nothing_is_written() {
    if force_pass() {
        return;
    }
    let dir = scratch("missing");
    let result = std::panic::catch_unwind(|| {
        rapier_pinned_golden::insta::with_settings!({ snapshot_path => &dir }, {
            assert_golden!("never_blessed", ramp_run(None));
        });
    });
    let message = panic_message(result.expect_err("a missing golden file passed"));
    assert!(
        message.starts_with("golden `never_blessed` (physics-version 2): no golden file at "),
        "{message}"
    );
    if std::env::var("INSTA_UPDATE").as_deref() == Ok("no") {
        let written: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(written.is_empty(), "{written:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_world_that_is_not_pinned_is_refused_with_the_typed_error() {
    let mut world = PhysicsWorld::new();
    world.integration_parameters = rapier_pinned::entry(PhysicsVersion::V2).unwrap().params();
    world.gravity = Vector::new(0.0, -10.0, 0.0);
    world.insert_body(RigidBodyBuilder::dynamic());
    let err = GoldenRun::adopt(PhysicsVersion::V2, 10, world)
        .record("unpinned")
        .unwrap_err();
    let GoldenError::NotPinned { version, error, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(
        (*version, error.kind()),
        (PhysicsVersion::V2, ErrorKind::ConfigMismatch)
    );
    let text = err.to_string();
    assert!(
        text.starts_with("golden `unpinned` refused: the scene's world is not pinned to physics-version 2 (PinnedWorld::adopt: config mismatch: "),
        "{text}"
    );
    assert!(
        text.contains("gravity.y: pinned -9.81 (0xc11cf5c3), found -10.0 (0xc1200000)"),
        "{text}"
    );
}

#[test]
#[should_panic(
    expected = "golden `unpinned` refused: the scene's world is not pinned to physics-version 2"
)]
fn assert_golden_panics_with_the_refusal() {
    assert_golden!(
        "unpinned",
        GoldenRun::adopt(PhysicsVersion::V2, 10, PhysicsWorld::new())
    );
}

#[test]
fn a_pinned_physics_world_records_the_same_steps_as_the_same_scene_built_in_place() {
    let entry = rapier_pinned::entry(PhysicsVersion::V2).unwrap();
    let mut world = PhysicsWorld::new();
    world.integration_parameters = entry.params();
    world.gravity = Vector::from_array(entry.gravity);
    world.insert_collider(ColliderBuilder::cuboid(10.0, 0.1, 10.0), None);
    let (ball, _) = world.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 2.0, 0.0)),
        ColliderBuilder::ball(0.5),
    );
    let adopted = GoldenRun::adopt(PhysicsVersion::V2, 60, world)
        .record("drop")
        .unwrap();
    let built = GoldenRun::new(PhysicsVersion::V2, 60, |w| {
        w.insert_collider(ColliderBuilder::cuboid(10.0, 0.1, 10.0), None);
        let b = w.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 2.0, 0.0)));
        assert_eq!(b, ball);
        w.insert_collider(ColliderBuilder::ball(0.5), Some(b));
    })
    .record("drop")
    .unwrap();
    assert_eq!(adopted.golden.runs, built.golden.runs);
    assert_ne!(
        adopted.golden.header, built.golden.header,
        "the header says how the world was made"
    );
}

#[test]
fn a_run_records_the_same_steps_every_time_and_inputs_see_each_tick() {
    assert_eq!(
        ramp_run(None).record("ramp").unwrap(),
        ramp_run(None).record("ramp").unwrap()
    );
    let mut ticks = Vec::new();
    GoldenRun::new(PhysicsVersion::V2, 5, ramp)
        .inputs(|tick, world| {
            assert_eq!(tick, world.tick());
            ticks.push(tick);
        })
        .record("ticks")
        .unwrap();
    assert_eq!(ticks, [0, 1, 2, 3, 4]);
}

#[test]
fn bad_runs_are_refused() {
    for (name, steps) in [("", 10), ("a\nrun b", 10), ("zero", 0)] {
        let err = GoldenRun::new(PhysicsVersion::V2, steps, ramp)
            .record(name)
            .unwrap_err();
        assert!(matches!(err, GoldenError::BadRun { .. }), "{err}");
    }
    let err = GoldenRun::new(PhysicsVersion::new(99), 10, ramp)
        .record("v99")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "golden `v99` refused: unknown physics-version 99"
    );
}

#[test]
fn labels_name_user_data_and_the_header_lists_it() {
    let recording = ramp_run(None).record("ramp").unwrap();
    assert_eq!(
        recording.label(BodyId {
            index: 0,
            generation: 0
        }),
        "0v0 (user_data 42)"
    );
    assert_eq!(
        recording.label(BodyId {
            index: 2,
            generation: 0
        }),
        "2v0"
    );
    assert!(recording
        .golden
        .header
        .contains(&"sampled: 3 of 3 moving bodies; user_data: 0v0 42, 1v0 7".to_string()));
    assert!(recording.warnings.is_empty(), "{:?}", recording.warnings);
}

#[test]
fn non_finite_state_is_warned_with_its_step_and_body() {
    // A game's input that divides by zero: the body's translation becomes NaN before step 2.
    let recording = GoldenRun::new(PhysicsVersion::V2, 3, |w| {
        w.insert_body(RigidBodyBuilder::dynamic().user_data(5));
        let b = w.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(5.0, 0.0, 0.0)));
        w.insert_collider(ColliderBuilder::ball(0.5), Some(b));
    })
    .inputs(|tick, w| {
        if tick == 1 {
            let b = w.body_mut(RigidBodyHandle::from_raw_parts(1, 0)).unwrap();
            b.set_translation(Vector::new(f32::NAN, 0.0, 0.0), true);
        }
    })
    .record("nan")
    .unwrap();
    assert_eq!(recording.warnings.len(), 1, "{:?}", recording.warnings);
    assert!(
        recording.warnings[0].starts_with(
            "warning: body 1v0 has a non-finite translation, rotation or velocity after step 2"
        ),
        "{:?}",
        recording.warnings
    );
}

#[test]
fn physics_hooks_and_custom_shapes_are_warned() {
    let recording = GoldenRun::new(PhysicsVersion::V2, 2, |w| {
        let b = w.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 5.0, 0.0)));
        w.insert_collider(
            ColliderBuilder::ball(0.5).active_hooks(ActiveHooks::FILTER_CONTACT_PAIRS),
            Some(b),
        );
        let c = w.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(9.0, 5.0, 0.0)));
        w.insert_collider(
            ColliderBuilder::new(SharedShape::new(GameBall(Ball::new(0.5)))),
            Some(c),
        );
    })
    .record("hooks")
    .unwrap();
    assert_eq!(recording.warnings.len(), 2, "{:?}", recording.warnings);
    assert!(recording.warnings[0]
        .starts_with("warning: collider 0v0 (body 0v0) asks for physics hooks"));
    assert!(
        recording.warnings[1].starts_with("warning: collider 1v0 (body 1v0) has a custom shape")
    );
}

#[test]
fn rapier_parallel_is_detected_at_compile_time() {
    // The workspace's test builds do not enable rapier3d's `parallel`; the detection mechanism
    // itself is unit-tested in src/guard.rs.
    // GOLDEN_EXPECT_PARALLEL=1 with `--features rapier3d/parallel` checks the other way.
    let expected = std::env::var_os("GOLDEN_EXPECT_PARALLEL").is_some();
    assert_eq!(rapier_pinned_golden::guard::RAPIER_PARALLEL, expected);
}

/// A game's own shape (here a ball in disguise): `ShapeType::Custom`.
#[derive(Clone)]
struct GameBall(Ball);

impl RayCast for GameBall {
    fn cast_local_ray_and_get_normal(
        &self,
        ray: &Ray,
        max: Real,
        solid: bool,
    ) -> Option<RayIntersection> {
        self.0.cast_local_ray_and_get_normal(ray, max, solid)
    }
}

impl PointQuery for GameBall {
    fn project_local_point(&self, pt: Vector, solid: bool) -> PointProjection {
        self.0.project_local_point(pt, solid)
    }
    fn project_local_point_and_get_feature(&self, pt: Vector) -> (PointProjection, FeatureId) {
        self.0.project_local_point_and_get_feature(pt)
    }
}

impl Shape for GameBall {
    fn compute_local_aabb(&self) -> Aabb {
        self.0.compute_local_aabb()
    }
    fn compute_local_bounding_sphere(&self) -> BoundingSphere {
        self.0.compute_local_bounding_sphere()
    }
    fn clone_dyn(&self) -> Box<dyn Shape> {
        Box::new(self.clone())
    }
    fn scale_dyn(&self, _: Vector, _: u32) -> Option<Box<dyn Shape>> {
        None
    }
    fn mass_properties(&self, density: Real) -> MassProperties {
        self.0.mass_properties(density)
    }
    fn shape_type(&self) -> ShapeType {
        ShapeType::Custom
    }
    fn as_typed_shape(&self) -> TypedShape<'_> {
        TypedShape::Custom(self)
    }
    fn ccd_thickness(&self) -> Real {
        self.0.ccd_thickness()
    }
    fn ccd_angular_thickness(&self) -> Real {
        self.0.ccd_angular_thickness()
    }
}
