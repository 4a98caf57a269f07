//! Every sweep vector of `conformance/sweeps/` through a full world step (`world_sweep`): two dynamic `ccd_enabled`
//! balls per case, one `step()` per vector, the engine's clamps checked against the exact oracle.
//! Physics-versions 2 to 4 (4 current) pass every gate; physics-version 1 (upstream's rules, which never
//! sweep a bullet against another bullet) fails them, which shows the check fires.

use rapier3d::dynamics::{CcdPersistentContactPolicy, IntegrationParameters};
use rapier_pinned::PhysicsVersion;
use rapier_pinned_conformance::generator::CASES;
use rapier_pinned_conformance::world_sweep::{params, run_all, Motion, WorldReport};

fn run(version: PhysicsVersion, motion: Motion) -> (WorldReport, WorldReport) {
    run_params(
        &format!("physics-version {version}"),
        &params(version, motion).unwrap(),
        motion,
    )
}

fn run_params(
    label: &str,
    params: &IntegrationParameters,
    motion: Motion,
) -> (WorldReport, WorldReport) {
    let start = std::time::Instant::now();
    let (fixed, random) = run_all(params).unwrap();
    println!(
        "{label}, {motion:?} ({:.2} s)\nfixed.json:\n{fixed}\nrandom.csv:\n{random}",
        start.elapsed().as_secs_f64()
    );
    for failure in fixed.failures.iter().chain(&random.failures) {
        println!("  {failure}");
    }
    assert_eq!(fixed.cases + fixed.invalid, 18);
    assert_eq!(
        fixed.invalid, 4,
        "the four invalid fixed cases are not stepped"
    );
    assert_eq!(random.cases, CASES);
    (fixed, random)
}

/// Versions 2 to 6 (current) keep every sweep vector's verdict in a world step: version 3's
/// depth rule, version 4's side rule, version 5's bounded casts and version 6's surface bound
/// never move a pair the moving-pair sweep clamped correctly (docs/decisions/physics-version-3.md
/// to -6.md).
#[test]
fn versions_2_to_6_pass_every_gate_in_a_world_step() {
    assert_eq!(rapier_pinned::PHYSICS_VERSION_CURRENT, PhysicsVersion::V6);
    for version in [
        PhysicsVersion::V2,
        PhysicsVersion::V3,
        PhysicsVersion::V4,
        PhysicsVersion::V5,
        PhysicsVersion::V6,
    ] {
        for motion in [Motion::AsWritten, Motion::Pinned] {
            let (fixed, random) = run(version, motion);
            assert!(fixed.passed(), "v{version} fixed, {motion:?}:\n{fixed}");
            assert!(random.passed(), "v{version} random, {motion:?}:\n{random}");
        }
    }
}

/// Policy 4 (version 3 with `KeepDepthBounded`, which no version pins; version 4's policy 5 builds
/// on it) keeps every verdict too: what its bounds skip never changes a clamp the oracle checks.
#[test]
fn policy_4_passes_every_gate_in_a_world_step() {
    for motion in [Motion::AsWritten, Motion::Pinned] {
        let mut p = params(PhysicsVersion::V3, motion).unwrap();
        p.ccd_persistent_contact_policy = CcdPersistentContactPolicy::KeepDepthBounded;
        let (fixed, random) = run_params("policy 4", &p, motion);
        assert!(fixed.passed(), "policy 4 fixed, {motion:?}:\n{fixed}");
        assert!(random.passed(), "policy 4 random, {motion:?}:\n{random}");
    }
}

/// Upstream's bullet pass never sweeps a bullet against another bullet: no pair is ever clamped,
/// so every contact the oracle finds in the step is missed (a touch within `EPS` of the step's
/// end excepted), and nothing else fails.
#[test]
fn upstream_rules_miss_every_bullet_pair_contact() {
    for motion in [Motion::AsWritten, Motion::Pinned] {
        let (fixed, random) = run(PhysicsVersion::V1, motion);
        for (name, r) in [("fixed", &fixed), ("random", &random)] {
            assert!(
                !r.passed(),
                "{name}, {motion:?}: physics-version 1 passes:\n{r}"
            );
            assert!(r.misses > 0, "{name}, {motion:?}");
            assert_eq!(r.engine_clamps, 0, "{name}, {motion:?}");
            assert_eq!(r.failed_cases(), r.misses, "{name}, {motion:?}: {r}");
            assert_eq!(
                r.misses + r.end_touches,
                r.oracle_hits,
                "{name}, {motion:?}"
            );
        }
    }
}
