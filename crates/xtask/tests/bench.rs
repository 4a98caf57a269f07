//! `bench` and `bench-case` as scripts/bench runs them. (Also makes `cargo test --workspace`
//! build the `rapier-pinned-xtask` binary, which scripts/test then hands to the later stages.)

use std::process::Command;

/// Runs `rapier-pinned-xtask` with `args`.
fn xtask(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rapier-pinned-xtask"))
        .args(args)
        .output()
        .expect("run rapier-pinned-xtask")
}

/// Bytes of a process's output as text.
fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn bench_case_prints_milliseconds_per_step_of_each_run() {
    let out = xtask(&[
        "bench-case",
        "--case",
        "vehicles",
        "--config",
        "current",
        "--limit",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let times: Vec<f64> = text(&out.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(times.len(), 1);
    assert!(times[0].is_finite() && times[0] > 0.0);
}

#[test]
fn bench_prints_every_configuration_against_the_upstream_side() {
    // The fork side's binary stands in for the upstream side (scripts/bench passes conformance/parity's):
    // both answer `bench-case --case NAME`, the fork at default settings.
    let own = env!("CARGO_BIN_EXE_rapier-pinned-xtask");
    let out = xtask(&["bench", "--quick", "--case", "vehicles", "--upstream", own]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let current = format!("v{} (current)", rapier_pinned::PHYSICS_VERSION_CURRENT);
    for config in ["defaults", &current, "relative motion", "policy "] {
        assert!(table.contains(config), "no {config} row:\n{table}");
    }
    assert!(
        table.contains(&format!("aims met by {current}: ")),
        "{table}"
    );
    assert!(table.contains("QUICK"), "a quick run says so:\n{table}");
    assert!(table.contains("noise floor: the control"), "{table}");
}

#[test]
fn bench_names_a_missing_upstream_binary_or_an_unknown_case() {
    for (case, upstream, named) in [
        ("vehicles", "/no/such/binary", "/no/such/binary"),
        ("no_such_case", "x", "no_such_case"),
    ] {
        let out = xtask(&["bench", "--quick", "--case", case, "--upstream", upstream]);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains(named), "{}", text(&out.stderr));
    }
}
