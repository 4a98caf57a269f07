//! The worlds pristine rapier3d 0.36.1 panics on (`conformance/crashes/`, found by the
//! differential test's programs): the fork steps each to the end, at default settings and under
//! the current physics-version's CCD settings. `scripts/parity` shows upstream panicking on each.
mod package_world;

use package_world::{fixtures, package_world};
use rapier3d::prelude::*;

/// The fixtures whose world upstream's solver had already blown up before the step it panics
/// on, each with why: their bodies may go non-finite whatever the fork does, so only their
/// steps returning is asserted.
const BLOWN_UP: &[(&str, &str)] = &[(
    "program-96571-step-2.world",
    "a body at 3.3e6 m/s after the program's step 1 (the same in stock rapier.js): without \
     the program's later calls it goes non-finite in the fixture's step 2",
)];

/// Steps `world` `steps` times; every body's pose and velocity must stay finite (but in the
/// [`BLOWN_UP`] worlds).
fn step_through(name: &str, mut world: PhysicsWorld, steps: usize) {
    let blown_up = BLOWN_UP.iter().any(|(file, _)| *file == name);
    for step in 1..=steps {
        world.step();
        if blown_up {
            continue;
        }
        for (handle, body) in world.bodies.iter() {
            let finite = body.translation().is_finite()
                && body.linvel().is_finite()
                && body.angvel().is_finite();
            assert!(finite, "{name}: body {handle:?} not finite at step {step}");
        }
    }
}

#[test]
fn the_fork_steps_every_world_upstream_panics_on() {
    let files = fixtures("crashes");
    assert!(
        files.len() >= 2,
        "conformance/crashes/ holds {} fixtures",
        files.len()
    );
    for (file, _) in BLOWN_UP {
        assert!(
            files.iter().any(|f| f.ends_with(file)),
            "{file} is no fixture"
        );
    }
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&file).expect("fixture");
        let defaults = package_world(&bytes);
        assert_eq!(
            defaults.integration_parameters,
            IntegrationParameters::default(),
            "{name}: written at default settings"
        );
        step_through(&name, defaults, 120);

        // The current version's two CCD settings (its other parameters are upstream's too).
        let current = rapier_pinned::entry(rapier_pinned::PhysicsVersion::CURRENT)
            .expect("the current version")
            .params();
        let mut pinned = package_world(&bytes);
        let params = &mut pinned.integration_parameters;
        params.ccd_relative_motion = current.ccd_relative_motion;
        params.ccd_persistent_contact_policy = current.ccd_persistent_contact_policy;
        step_through(&name, pinned, 120);
    }
}
