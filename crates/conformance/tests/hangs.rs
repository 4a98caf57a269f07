//! The worlds whose step never returns under physics-version 4's settings
//! (`conformance/hangs/`, found by the differential test's programs): parry's nonlinear cast
//! probes a pair that starts in contact without bound, and a multibody blown up by the solver
//! (10¹⁵ m/s) stalls it. With `CcdRelativeMotion::BoundedCasts` the fork steps each to the end.
//!
//! The blow-up is upstream's solver's (program 10288 at default settings reaches 2·10³³ m/s in
//! the same step, 20201 4.7·10¹⁴ m/s in its first), and such bodies go on to non-finite values
//! within a few steps: what is asserted here is that every step returns, not that the bodies
//! stay finite.
mod package_world;

use package_world::{fixtures, package_world};
use rapier3d::dynamics::CcdRelativeMotion;
use rapier_pinned::CcdConfig;
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn bounded_casts_step_every_world_version_4_hangs_on() {
    let files = fixtures("hangs");
    assert!(
        files.len() >= 2,
        "conformance/hangs/ holds {} fixtures",
        files.len()
    );
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let mut world = package_world(&std::fs::read(&file).expect("fixture"));
        let written = CcdConfig::of(&world.integration_parameters);
        assert_eq!(
            written,
            CcdConfig::version(rapier_pinned::PhysicsVersion::V4).unwrap(),
            "{name}: written under version 4's settings"
        );
        // The same world, its casts bounded: 120 steps return (they take milliseconds; the
        // wait is a liveness bound, so that a regression fails instead of stalling CI).
        world.integration_parameters.ccd_relative_motion = CcdRelativeMotion::BoundedCasts;
        let (done, stepped) = mpsc::channel();
        std::thread::spawn(move || {
            for step in 1..=120 {
                world.step();
                let _ = done.send(step);
            }
        });
        let mut last = 0;
        while last < 120 {
            match stepped.recv_timeout(Duration::from_secs(60)) {
                Ok(step) => last = step,
                Err(_) => panic!("{name}: step {} did not return within 60 s", last + 1),
            }
        }
    }
}
