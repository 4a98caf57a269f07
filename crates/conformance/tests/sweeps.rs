//! Seed 000's sphere-sweep vectors: the oracle reproduces them, they regenerate from the documented
//! generator, and the engine's moving-pair sweep passes the gates on all of them.

use rapier3d::prelude::IntegrationParameters;
use rapier_pinned_conformance::generator::{random_cases, CASES, SEED};
use rapier_pinned_conformance::oracle::{centre_distance, first_contact};
use rapier_pinned_conformance::sweep_check::run_all;
use rapier_pinned_conformance::sweep_vectors::{load_fixed, load_random, random_csv, Verdict};

fn close(a: Verdict, b: Verdict) -> bool {
    match (a, b) {
        (Verdict::Hit { t: x }, Verdict::Hit { t: y }) => (x - y).abs() <= 1e-12,
        _ => a == b,
    }
}

#[test]
fn oracle_reproduces_every_fixed_case() {
    let cases = load_fixed().unwrap();
    assert_eq!(cases.len(), 18);
    for case in &cases {
        let got = Verdict::of(first_contact(&case.a.motion(), &case.b.motion()));
        assert!(
            close(got, case.expect),
            "{}: oracle {got:?}, file {:?}",
            case.name,
            case.expect
        );
    }
}

#[test]
fn head_on_crossing_reference() {
    let cases = load_fixed().unwrap();
    let find = |n: &str| cases.iter().find(|c| c.name == n).unwrap();
    let head_on = find("head_on_crossing");
    let (a, b) = (head_on.a.motion(), head_on.b.motion());
    let t = first_contact(&a, &b).unwrap().unwrap();
    assert!((t - 0.4).abs() < 1e-12);
    let centre = |m: &rapier_pinned_conformance::oracle::SphereMotion| {
        m.start[0] as f64 + t * m.displacement[0] as f64
    };
    assert!((centre(&a) + 1.0).abs() < 1e-12 && (centre(&b) - 1.0).abs() < 1e-12);
    assert!(
        (centre_distance(&a, &b, 1.0) - 10.0).abs() < 1e-12,
        "they end 10 apart, swapped"
    );
    let frozen = find("frozen_target");
    assert_eq!(
        first_contact(&frozen.a.motion(), &frozen.b.motion()).unwrap(),
        Some(0.8)
    );
}

#[test]
fn oracle_is_symmetric_in_the_two_spheres() {
    for (a, b) in random_cases(SEED, CASES) {
        assert_eq!(first_contact(&a, &b), first_contact(&b, &a));
    }
}

#[test]
fn random_vectors_regenerate_from_the_documented_generator() {
    let path = rapier_pinned_conformance::conformance_dir().join("sweeps/random.csv");
    let on_disk = std::fs::read_to_string(path).unwrap();
    assert!(
        on_disk == random_csv(&random_cases(SEED, CASES)),
        "random.csv differs from SplitMix64(20261021) + oracle"
    );
    assert_eq!(load_random().unwrap().len(), CASES);
}

#[test]
fn engine_moving_pair_sweep_passes_the_gates() {
    let slop = IntegrationParameters::default().allowed_linear_error();
    let (fixed, random) = run_all(slop).unwrap();
    println!("fixed:  {fixed}\nrandom: {random}");
    assert_eq!(fixed.cases, 14, "every valid fixed case is checked");
    assert_eq!(random.cases, CASES);
    assert!(fixed.passed(), "fixed: {fixed}");
    assert!(random.passed(), "random: {random}");
}
