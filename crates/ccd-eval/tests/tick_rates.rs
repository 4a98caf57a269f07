//! The gates at each tick rate (issue 30; docs/physics-engine.md §3, "Gates at each tick rate"):
//! a tick rate is allowed by a physics-version when every set its gates apply to that holds under
//! it at 60 Hz (its release rate) also holds at that rate: the moving-target sets, and from
//! version 3 on the fixed-target sets too. This test runs the table's rates and fails when a
//! verdict there is stale: an allowed rate where a deciding set fails, or a rate marked not
//! allowed where the documented sets do not fail (or others fail too).

use rapier_pinned::{CcdConfig, PhysicsVersion};
use rapier_pinned_ccd_eval::perturbation::{params_at, run_set_with};
use rapier_pinned_scenes::{thin_sets, ThinSet};

/// One version's row of verdicts: each rate measured and not allowed with the deciding sets
/// that fail there. The rates it allows are the version table's (`VersionEntry::choices`).
struct Verdicts {
    version: PhysicsVersion,
    /// Whether the version's gates apply to the fixed-target sets too (from version 3's release
    /// rule on).
    fixed_targets: bool,
    /// The sets its gates apply to that hold at 60 Hz, as documented.
    deciding: &'static [&'static str],
    not_allowed: &'static [(u32, &'static [&'static str])],
}

/// Every set, in the suite's order: what decides from version 3 on, where every set holds at 60 Hz.
const EVERY_SET: &[&str] = &[
    "spinning_blade",
    "spinning_blade_capped",
    "box_into_rotor_100",
    "box_into_rotor_300",
    "blade_pressed",
    "projectile_pressed",
    "projectile_pushed",
    "vehicle_ram",
    "vehicle_push",
    "vehicle_ram_clear",
    "vehicle_push_clear",
    "fixed_plate",
    "fixed_wall",
    "slanted_blade",
    "hex_wheel",
];

const VERSIONS: [Verdicts; 6] = [
    Verdicts {
        version: PhysicsVersion::V1,
        fixed_targets: false,
        deciding: &[
            "spinning_blade_capped",
            "projectile_pressed",
            "vehicle_push_clear",
        ],
        not_allowed: &[
            (30, &["spinning_blade_capped"]),
            (50, &["spinning_blade_capped"]),
            (144, &["spinning_blade_capped"]),
        ],
    },
    Verdicts {
        version: PhysicsVersion::V2,
        fixed_targets: false,
        deciding: &[
            "spinning_blade",
            "spinning_blade_capped",
            "box_into_rotor_100",
            "box_into_rotor_300",
            "blade_pressed",
            "projectile_pressed",
            "vehicle_ram",
            "vehicle_push",
            "vehicle_ram_clear",
            "vehicle_push_clear",
        ],
        not_allowed: &[
            (30, &["vehicle_ram"]),
            (50, &["vehicle_ram"]),
            (144, &["vehicle_ram"]),
        ],
    },
    Verdicts {
        version: PhysicsVersion::V3,
        fixed_targets: true,
        deciding: EVERY_SET,
        not_allowed: &[(50, &["box_into_rotor_300"])],
    },
    Verdicts {
        version: PhysicsVersion::V4,
        fixed_targets: true,
        deciding: EVERY_SET,
        not_allowed: &[(50, &["box_into_rotor_300"])],
    },
    Verdicts {
        version: PhysicsVersion::V5,
        fixed_targets: true,
        deciding: EVERY_SET,
        not_allowed: &[(50, &["box_into_rotor_300"])],
    },
    Verdicts {
        version: PhysicsVersion::V6,
        fixed_targets: true,
        deciding: EVERY_SET,
        not_allowed: &[(50, &["box_into_rotor_300"])],
    },
];

/// The deciding sets of `config` that fail their gates at `tick_hz`.
fn failing(config: CcdConfig, sets: &[&ThinSet], tick_hz: u32) -> Vec<&'static str> {
    sets.iter()
        .filter(|set| !run_set_with(set, params_at(config, tick_hz), false).meets_gates())
        .map(|set| set.name)
        .collect()
}

#[test]
fn each_versions_tick_rate_verdicts_hold() {
    let mut stale = Vec::new();
    for v in &VERSIONS {
        let config = CcdConfig::version(v.version).unwrap();
        // The rule's deciding sets, measured: the moving-target sets that hold at 60 Hz.
        let deciding: Vec<&ThinSet> = thin_sets()
            .iter()
            .filter(|s| s.moving_target || v.fixed_targets)
            .filter(|s| run_set_with(s, params_at(config, 60), false).meets_gates())
            .collect();
        let names: Vec<&str> = deciding.iter().map(|s| s.name).collect();
        if names != v.deciding {
            stale.push(format!(
                "version {}: deciding sets {names:?}, documented {:?}",
                v.version, v.deciding
            ));
        }
        // What a game may choose is what the table allows: each of those rates must hold.
        let allowed = rapier_pinned::entry(v.version).unwrap().choices.tick_hz;
        for &hz in allowed {
            let failed = failing(config, &deciding, hz);
            println!(
                "version {} at {hz} Hz: allowed, failing {failed:?}",
                v.version
            );
            if !failed.is_empty() {
                stale.push(format!(
                    "version {} at {hz} Hz is allowed, but fails {failed:?}",
                    v.version
                ));
            }
        }
        for &(hz, documented) in v.not_allowed {
            assert!(
                !allowed.contains(&hz),
                "version {} allows {hz} Hz",
                v.version
            );
            let failed = failing(config, &deciding, hz);
            println!(
                "version {} at {hz} Hz: not allowed, failing {failed:?}",
                v.version
            );
            if failed != documented {
                stale.push(format!(
                    "version {} at {hz} Hz is not allowed for {documented:?}, but fails {failed:?}",
                    v.version
                ));
            }
        }
    }
    assert!(stale.is_empty(), "stale tick-rate table: {stale:#?}");
}

/// At tick rate N every case runs the simulated time of its 60 Hz steps, and 60 Hz is the
/// released `dt` bit for bit.
#[test]
fn a_tick_rate_scales_the_steps_and_only_dt() {
    for (hz, steps) in [(30, 45), (50, 75), (60, 90), (120, 180), (144, 216)] {
        assert_eq!(ThinSet::steps_at(90, 1.0 / hz as f32), steps, "{hz} Hz");
    }
    let config = CcdConfig::current();
    let (at_60, released) = (params_at(config, 60), config.params());
    assert_eq!(at_60.dt.to_bits(), (1.0f32 / 60.0).to_bits());
    assert_eq!(format!("{at_60:?}"), format!("{released:?}"));
    let at_30 = params_at(config, 30);
    assert_eq!(at_30.min_ccd_dt.to_bits(), released.min_ccd_dt.to_bits());
    let set = &thin_sets()[0];
    assert_eq!(set.build(at_30, 0, set.speeds[0]).1.steps, 45);
    assert_eq!(set.build(released, 0, set.speeds[0]).1.steps, 90);
}
