//! The command line as a user types it. (Also makes `cargo test --workspace` build the
//! `rapier-pinned` binary, which scripts/test then reuses instead of building it again.)

use std::process::Command;

fn rapier_pinned(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rapier-pinned"))
        .args(args)
        .output()
        .expect("run rapier-pinned")
}

#[test]
fn scenes_list_prints_every_catalog_scene() {
    let out = rapier_pinned(&["scenes", "--list"]);
    assert!(out.status.success());
    let names: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let catalog: Vec<&str> = rapier_pinned_scenes::catalog()
        .iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, catalog);
}

#[test]
fn unknown_scene_is_a_clear_error() {
    let out = rapier_pinned(&["scenes", "--scene", "no_such_scene"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("unknown scene 'no_such_scene'"));
}

#[test]
fn digests_are_one_line_per_step() {
    let out = rapier_pinned(&["digests", "--scene", "ball_drop"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let scene = rapier_pinned_scenes::find("ball_drop").unwrap();
    assert_eq!(text.lines().count(), scene.steps);
    assert_eq!(
        text,
        rapier_pinned_scenes::digest_lines(scene, Default::default())
    );
}

#[test]
fn digests_cover_a_thin_part_set_run_by_run() {
    let out = rapier_pinned(&["digests", "--scene", "vehicle_push"]);
    assert!(out.status.success());
    let set = rapier_pinned_scenes::thin_sets()
        .iter()
        .find(|t| t.name == "vehicle_push")
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        set.digest_lines(Default::default())
    );
}

#[test]
fn digests_take_a_ccd_configuration() {
    use rapier3d::dynamics::CcdPersistentContactPolicy::KeepDepth;
    let set = rapier_pinned_scenes::thin_sets()
        .iter()
        .find(|s| s.name == "blade_pressed")
        .unwrap();
    let out = rapier_pinned(&["digests", "--scene", "blade_pressed", "--config", "3:on"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let candidate =
        rapier_pinned::CcdConfig::new(rapier3d::dynamics::CcdRelativeMotion::On, KeepDepth)
            .params();
    assert_eq!(text, set.digest_lines(candidate));
    assert_ne!(text, set.digest_lines(Default::default()));
    let bad = rapier_pinned(&["digests", "--scene", "blade_pressed", "--config", "9:on"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// A generated arena is printed when named, after the catalog scenes, and only then: the default
/// output (what the determinism matrix compares) stays the catalog's and the sets'. Under
/// policy 6 a mesh room steps differently from policy 5, so these digests reach the depth rule's
/// surface bound, which no catalog scene has near a CCD body.
#[test]
fn digests_cover_a_generated_arena_when_named() {
    use rapier_pinned_scenes::{generated_digest_lines, Room};
    let digests = |config: &str| {
        let args = ["digests", "--scene", "arena_mesh_1", "--scene", "ball_drop"];
        let out = rapier_pinned(&[&args[..], &["--config", config]].concat());
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let config: rapier_pinned::CcdConfig = "6:bounded-casts".parse().unwrap();
    let scene = rapier_pinned_scenes::find("ball_drop").unwrap();
    let arena = generated_digest_lines(("arena_mesh_1", 1, Room::Mesh), config.params());
    let text = digests("6:bounded-casts");
    assert_eq!(
        text,
        rapier_pinned_scenes::digest_lines(scene, config.params()) + &arena
    );
    assert_eq!(
        arena.lines().count(),
        rapier_pinned_scenes::ARENA_GENERATED_STEPS
    );
    assert_ne!(text, digests("5:bounded-casts"));
    let all = rapier_pinned(&["digests"]);
    assert!(all.status.success());
    let all = String::from_utf8(all.stdout).unwrap();
    assert!(!all.lines().any(|l| l.starts_with("arena_mesh_1 ")));
}

/// The perturbation table's rows of `set`.
fn rows_of<'a>(table: &'a str, set: &str) -> Vec<&'a str> {
    table.lines().filter(|l| l.starts_with(set)).collect()
}

#[test]
fn perturbation_prints_every_configuration_of_a_set() {
    let out = rapier_pinned(&["perturbation", "--set", "vehicle_push", "--no-truncation"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows = rows_of(&text, "vehicle_push");
    // Policies 0, 1 and 2, each with relative motion off and on, then the current version's.
    assert_eq!(rows.len(), 7, "{text}");
    // The configurations versions 2 and 6 (the current one) pin meet the gates on this
    // moving-target set.
    for config in ["p2 rm on", "p6 rm bounded-casts"] {
        assert!(
            rows.iter()
                .any(|r| r.contains(config) && r.ends_with("holds")),
            "{config}: {text}"
        );
    }
}

#[test]
fn perturbation_runs_only_the_configurations_asked_for() {
    let args = ["perturbation", "--set", "vehicle_push", "--no-truncation"];
    let out = rapier_pinned(&[&args[..], &["--config", "3:on"]].concat());
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows = rows_of(&text, "vehicle_push");
    assert_eq!(rows.len(), 1, "{text}");
    assert!(rows[0].contains("p3 rm on"), "{text}");
    for bad in ["7:on", "3:maybe", "3"] {
        let out = rapier_pinned(&[&args[..], &["--config", bad]].concat());
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(!String::from_utf8(out.stderr).unwrap().is_empty(), "{bad}");
    }
}

#[test]
fn unknown_perturbation_set_is_a_clear_error() {
    let out = rapier_pinned(&["perturbation", "--set", "no_such_set"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("unknown set 'no_such_set'"));
}

// ---- versions -------------------------------------------------------------------------------

#[test]
fn versions_names_exactly_the_fields_that_differ_between_consecutive_versions() {
    let out = rapier_pinned(&["versions"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("physics-version 1\n"), "{text}");
    assert!(text.contains("physics-version 2\n"), "{text}");
    assert!(text.contains("physics-version 3\n"), "{text}");
    assert!(text.contains("physics-version 4\n"), "{text}");
    assert!(text.contains("physics-version 5\n"), "{text}");
    assert!(text.contains("physics-version 6 (current)\n"), "{text}");
    for entry in rapier_pinned::version_table() {
        let digest = rapier_pinned_hex(&entry.digest());
        assert!(
            text.contains(&digest),
            "entry digest of {} missing: {text}",
            entry.number
        );
    }
    // Each version is the one before it plus exactly these changes.
    for (section, fields, changed) in [
        (
            "changes from 1 to 2",
            &["ccd_relative_motion", "ccd_persistent_contact_policy"][..],
            &[
                "ccd_relative_motion: Off -> On",
                "ccd_persistent_contact_policy: Upstream -> CoreSphereFixedTargets",
            ][..],
        ),
        (
            // The policy, and the series version 3 was released with.
            "changes from 2 to 3",
            &["patch_series", "ccd_persistent_contact_policy"],
            &["ccd_persistent_contact_policy: CoreSphereFixedTargets -> KeepDepth"],
        ),
        (
            // The mode and the policy, and the series version 4 was released with.
            "changes from 3 to 4",
            &[
                "patch_series",
                "ccd_relative_motion",
                "ccd_persistent_contact_policy",
            ],
            &[
                "ccd_relative_motion: On -> Bounded",
                "ccd_persistent_contact_policy: KeepDepth -> KeepSide",
            ],
        ),
        (
            // The mode alone, and the series version 5 was released with.
            "changes from 4 to 5",
            &["patch_series", "ccd_relative_motion"],
            &["ccd_relative_motion: Bounded -> BoundedCasts"],
        ),
        (
            // The policy alone, and the series version 6 was released with.
            "changes from 5 to 6",
            &["patch_series", "ccd_persistent_contact_policy"],
            &["ccd_persistent_contact_policy: KeepSide -> KeepSideSurfaceBounds"],
        ),
    ] {
        let changes = text.split(section).nth(1).expect(section);
        let named: Vec<&str> = changes
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.trim().split(':').next().unwrap())
            .collect();
        assert_eq!(named, fields, "{text}");
        for change in changed {
            assert!(changes.contains(change), "{change}: {text}");
        }
    }
}

#[test]
fn versions_fields_prints_every_pinned_field() {
    let out = rapier_pinned(&["versions", "--fields", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let entry = rapier_pinned::entry(rapier_pinned::PhysicsVersion::V1).unwrap();
    for (name, value) in entry.fields() {
        let value = value.to_string();
        assert!(
            text.lines()
                .any(|l| l.starts_with(name) && l.trim_end().ends_with(&value)),
            "{name} = {value} missing: {text}"
        );
    }
    let out = rapier_pinned(&["versions", "--fields", "99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("unknown physics-version 99"));
}

// ---- snapshots ------------------------------------------------------------------------------

fn rapier_pinned_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh directory for one test's files.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Runs `args`; the exit code must be `code`; returns (stdout, stderr).
fn run(args: &[&str], code: i32) -> (String, String) {
    let out = rapier_pinned(args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}\nstdout: {stdout}\nstderr: {stderr}"
    );
    (stdout, stderr)
}

/// `snapshot verify` of `file` with `extra` arguments must be refused (exit 1) with `kind`.
fn refused(file: &std::path::Path, extra: &[&str], kind: &str) -> String {
    let mut args = vec!["snapshot", "verify", file.to_str().unwrap()];
    args.extend(extra);
    let (stdout, stderr) = run(&args, 1);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.starts_with("refused: "), "{stderr}");
    assert!(
        stderr.contains(&format!("(kind: {kind})")),
        "{args:?}: {stderr}"
    );
    stderr
}

#[test]
fn snapshot_save_inspect_verify_round_trip() {
    let dir = scratch("round-trip");
    let file = dir.join("ball.snap");
    let f = file.to_str().unwrap();
    let (stdout, _) = run(
        &[
            "snapshot",
            "save",
            "--scene",
            "ball_drop",
            "--steps",
            "30",
            "--match-id",
            "5",
            "--out",
            f,
        ],
        0,
    );
    assert!(
        stdout.starts_with(&format!("saved {f}: scene ball_drop, physics-version 6")),
        "{stdout}"
    );

    // The same bytes as the wrapper's own snapshot of that world.
    let config = rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT)
        .unwrap()
        .with_match_id(5);
    let scene = rapier_pinned_scenes::find("ball_drop").unwrap();
    let mut world =
        rapier_pinned::PinnedWorld::adopt(config, scene.build(config.params())).unwrap();
    (0..30).for_each(|_| world.step());
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(bytes, world.snapshot(None));

    let (stdout, _) = run(&["snapshot", "inspect", f, "--match-id", "5"], 0);
    for line in [
        "format version   1",
        "flags            0x0000",
        "authenticated    no",
        "physics-version  6 (current)",
        "tick             30",
        "match id         5",
        "bodies           1",
        "colliders        2",
        "impulse joints   0",
        "multibody joints 0",
    ] {
        assert!(
            stdout.lines().any(|l| l == line),
            "{line:?} missing:\n{stdout}"
        );
    }
    let payload = bytes.len() - rapier_pinned::HEADER_LEN;
    assert!(
        stdout.contains(&format!(
            "config digest    {}",
            rapier_pinned_hex(&config.digest())
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "payload          {payload} bytes, {payload}.0 bytes per body"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "ccd_relative_motion BoundedCasts, ccd_persistent_contact_policy KeepSideSurfaceBounds"
        ),
        "{stdout}"
    );

    let (stdout, _) = run(&["snapshot", "verify", f, "--match-id", "5"], 0);
    // The payload id: the BLAKE3 of the format-1 payload, the file's own here.
    let id =
        rapier_pinned::Baseline::from_payload(bytes[rapier_pinned::HEADER_LEN..].to_vec()).id();
    assert_eq!(
        stdout,
        format!("ok: {f}: physics-version 6, match 5, tick 30, 1 bodies, 2 colliders, 0 joints, unauthenticated; gravity [-0.0, -9.81, -0.0], 60 Hz (dt 0.016666668), length_unit 1.0; payload id {id}\n")
    );
    // The physics-version can be demanded explicitly.
    run(
        &[
            "snapshot",
            "verify",
            f,
            "--match-id",
            "5",
            "--physics-version",
            "6",
        ],
        0,
    );
}

#[test]
fn snapshot_verify_refuses_damaged_and_mismatched_snapshots() {
    let dir = scratch("refusals");
    let file = dir.join("ball.snap");
    let f = file.to_str().unwrap();
    run(
        &[
            "snapshot",
            "save",
            "--scene",
            "ball_drop",
            "--steps",
            "10",
            "--out",
            f,
        ],
        0,
    );
    let bytes = std::fs::read(&file).unwrap();

    let truncated = dir.join("truncated.snap");
    std::fs::write(&truncated, &bytes[..bytes.len() - 7]).unwrap();
    refused(&truncated, &[], "Truncated");
    std::fs::write(&truncated, &bytes[..100]).unwrap();
    refused(&truncated, &[], "Truncated");

    let flipped = dir.join("flipped.snap");
    let mut damaged = bytes.clone();
    damaged[rapier_pinned::HEADER_LEN + 40] ^= 0x10;
    std::fs::write(&flipped, &damaged).unwrap();
    refused(&flipped, &[], "ChecksumMismatch");

    let not_a_snapshot = dir.join("not.snap");
    std::fs::write(&not_a_snapshot, b"hello, world").unwrap();
    refused(&not_a_snapshot, &[], "BadMagic");

    let stderr = refused(&file, &["--physics-version", "1"], "PhysicsVersionMismatch");
    assert!(stderr.contains("snapshot 6, world 1"), "{stderr}");
    let stderr = refused(&file, &["--match-id", "3"], "ConfigDigestMismatch");
    assert!(stderr.contains("another match id than 3"), "{stderr}");

    // inspect refuses the same way, after printing what it could read.
    let (stdout, stderr) = run(&["snapshot", "inspect", flipped.to_str().unwrap()], 1);
    assert!(stdout.starts_with("file "), "{stdout}");
    assert!(stderr.contains("(kind: ChecksumMismatch)"), "{stderr}");
    // Another match's snapshot is shown, not refused.
    let (stdout, _) = run(&["snapshot", "inspect", f, "--match-id", "3"], 0);
    assert!(stdout.contains("of another match than 3"), "{stdout}");
    assert!(stdout.contains("bodies           1"), "{stdout}");

    // I/O and usage errors are exit 2.
    let (_, stderr) = run(
        &["snapshot", "verify", dir.join("missing").to_str().unwrap()],
        2,
    );
    assert!(stderr.starts_with("error: "), "{stderr}");
    let (_, stderr) = run(&["snapshot", "verify", f, "--physics-version", "99"], 2);
    assert!(stderr.contains("unknown physics-version 99"), "{stderr}");
}

/// `snapshot save --compressed` writes format 2, which every command reads; and the hint that a
/// refused snapshot is of another match holds for both formats (the wrapper skips the digest
/// check itself: nothing is re-sealed), while a damaged payload gets no such hint.
#[test]
fn both_formats_save_restore_and_tell_another_match() {
    let dir = scratch("formats");
    let mut payload_ids = Vec::new();
    for (name, extra, format) in [
        ("plain.snap", None, 1u16),
        ("lz4.snap", Some("--compressed"), 2),
    ] {
        let file = dir.join(name);
        let f = file.to_str().unwrap();
        let mut args = vec![
            "snapshot", "save", "--scene", "tower", "--steps", "5", "--out", f,
        ];
        args.extend(extra);
        let (stdout, _) = run(&args, 0);
        assert!(stdout.contains(&format!("(format {format}")), "{stdout}");
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(
            rapier_pinned::inspect(&bytes).unwrap().format_version,
            format
        );
        let (stdout, _) = run(&["snapshot", "verify", f], 0);
        payload_ids.push(stdout.split("; payload id ").nth(1).unwrap().to_string());
        let stderr = refused(&file, &["--match-id", "3"], "ConfigDigestMismatch");
        assert!(
            stderr.contains("another match id than 3"),
            "{name}: {stderr}"
        );
        let (stdout, _) = run(&["snapshot", "inspect", f, "--match-id", "3"], 0);
        assert!(
            stdout.contains("of another match than 3"),
            "{name}: {stdout}"
        );

        // A damaged world re-sealed for another match: refused with what is wrong with it.
        let config = rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT)
            .unwrap()
            .with_match_id(9);
        let mut payload =
            rapier_pinned::testing::decompress_payload(&bytes[rapier_pinned::HEADER_LEN..])
                .unwrap_or_else(|_| bytes[rapier_pinned::HEADER_LEN..].to_vec());
        payload.truncate(payload.len() / 2);
        let sealed = if format == 2 {
            rapier_pinned::testing::seal_compressed(
                rapier_pinned::SnapshotHeader::new(&config, 5),
                &payload,
                None,
            )
        } else {
            rapier_pinned::testing::seal(
                rapier_pinned::SnapshotHeader::new(&config, 5),
                &payload,
                None,
            )
        };
        let damaged = dir.join(format!("damaged-{name}"));
        std::fs::write(&damaged, &sealed).unwrap();
        let stderr = refused(&damaged, &[], "ConfigDigestMismatch");
        assert!(
            stderr.contains("not a valid physics-version 6 world"),
            "{name}: {stderr}"
        );
        let (_, stderr) = run(&["snapshot", "inspect", damaged.to_str().unwrap()], 1);
        assert!(stderr.contains("(kind: Undecodable)"), "{name}: {stderr}");
    }
    // One world, one payload id, whatever bytes its format stores (format 3 too).
    let linked = dir.join("linked.snap");
    let l = linked.to_str().unwrap();
    let save = [
        "snapshot", "save", "--scene", "tower", "--steps", "5", "--format", "3",
    ];
    run(&[&save[..], &["--out", l]].concat(), 0);
    let (stdout, _) = run(&["snapshot", "verify", l], 0);
    payload_ids.push(stdout.split("; payload id ").nth(1).unwrap().to_string());
    assert_eq!(payload_ids.len(), 3);
    assert!(
        payload_ids.iter().all(|id| *id == payload_ids[0]),
        "{payload_ids:?}"
    );
}

/// `snapshot save --format 4 --baseline FILE` writes a delta that `inspect`, `verify` and
/// `continue` read with the same `--baseline` (and continue to the same digests as the full
/// snapshot of that tick); without it, or with another, it is refused, typed.
#[test]
fn a_delta_is_read_with_its_baseline_only() {
    let dir = scratch("delta");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (base, early, full, delta) = (
        path("base.snap"),
        path("early.snap"),
        path("full.snap"),
        path("delta.snap"),
    );
    let save = |steps: &str, out: &str, extra: &[&str]| {
        let mut args = vec![
            "snapshot",
            "save",
            "--scene",
            "tower",
            "--steps",
            steps,
            "--match-id",
            "4",
            "--out",
            out,
        ];
        args.extend(extra);
        run(&args, 0).0
    };
    save("20", &base, &["--format", "2"]);
    save("19", &early, &[]);
    save("60", &full, &[]);
    let stdout = save("60", &delta, &["--format", "4", "--baseline", &base]);
    assert!(stdout.contains("(format 4, a delta against"), "{stdout}");
    let (stdout, _) = run(
        &[
            "snapshot",
            "inspect",
            &delta,
            "--match-id",
            "4",
            "--baseline",
            &base,
        ],
        0,
    );
    assert!(
        stdout.contains("format version   4") && stdout.contains("baseline         "),
        "{stdout}"
    );
    assert!(stdout.contains("bodies"), "{stdout}");
    let continued = |file: &str, extra: &[&str]| {
        let mut args = vec![
            "snapshot",
            "continue",
            file,
            "--match-id",
            "4",
            "--steps",
            "10",
        ];
        args.extend(extra);
        run(&args, 0).0
    };
    assert_eq!(
        continued(&delta, &["--baseline", &base]),
        continued(&full, &[])
    );
    let delta = std::path::Path::new(&delta);
    refused(delta, &["--match-id", "4"], "BaselineMissing");
    refused(
        delta,
        &["--match-id", "4", "--baseline", &early],
        "WrongBaseline",
    );
    // Saving a delta needs a baseline of the same match.
    let (_, stderr) = run(
        &[
            "snapshot",
            "save",
            "--scene",
            "tower",
            "--steps",
            "60",
            "--out",
            &path("x.snap"),
            "--format",
            "4",
            "--baseline",
            &base,
        ],
        2,
    );
    assert!(stderr.contains("not a snapshot of this match"), "{stderr}");
}

#[test]
fn snapshot_keys_authenticate_and_their_file_format_is_checked() {
    let dir = scratch("keys");
    let hex_key = dir.join("key.hex");
    std::fs::write(&hex_key, format!("{}\n", "ab".repeat(32))).unwrap();
    let raw_key = dir.join("key.raw");
    std::fs::write(&raw_key, [0xab; 32]).unwrap(); // the same key, raw
    let other_key = dir.join("other.raw");
    std::fs::write(&other_key, [0xcd; 32]).unwrap();
    let (hk, rk, ok) = (
        hex_key.to_str().unwrap(),
        raw_key.to_str().unwrap(),
        other_key.to_str().unwrap(),
    );

    let signed = dir.join("signed.snap");
    let s = signed.to_str().unwrap();
    run(
        &[
            "snapshot",
            "save",
            "--scene",
            "tower",
            "--steps",
            "5",
            "--key-file",
            hk,
            "--out",
            s,
        ],
        0,
    );
    let key = rapier_pinned::SnapshotKey::new([0xab; 32]);
    let config = rapier_pinned::WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    rapier_pinned::PinnedWorld::restore(config, &std::fs::read(&signed).unwrap(), Some(&key))
        .unwrap();

    let (stdout, _) = run(&["snapshot", "verify", s, "--key-file", rk], 0);
    assert!(stdout.contains(", MAC verified; gravity "), "{stdout}");
    refused(&signed, &["--key-file", ok], "MacMismatch");
    // The wrapper's decision: without a key, an authenticated snapshot is accepted on its
    // checksum alone (its MAC is not checked); the tool says so.
    let (stdout, _) = run(&["snapshot", "verify", s], 0);
    assert!(
        stdout.contains(", MAC present but not checked (no --key-file); gravity "),
        "{stdout}"
    );
    let (stdout, _) = run(&["snapshot", "inspect", s], 0);
    assert!(
        stdout.contains("authenticated    yes (MAC present, not checked: no --key-file)"),
        "{stdout}"
    );
    let (_, stderr) = run(&["snapshot", "inspect", s, "--key-file", ok], 1);
    assert!(stderr.contains("(kind: MacMismatch)"), "{stderr}");

    // A key given for an unauthenticated snapshot: the MAC is missing.
    let plain = dir.join("plain.snap");
    run(
        &[
            "snapshot",
            "save",
            "--scene",
            "tower",
            "--steps",
            "5",
            "--out",
            plain.to_str().unwrap(),
        ],
        0,
    );
    refused(&plain, &["--key-file", hk], "MacMissing");

    // Key files: 32 raw bytes or 64 hex digits (+ one newline); anything else is an error.
    let bad = dir.join("bad.key");
    for content in [
        &b""[..],
        &[0xab; 31][..],
        &[0xab; 33][..],
        "ab".repeat(16).as_bytes(), // 32 bytes of hex text: a 16-byte key, too short
        "ab".repeat(31).as_bytes(),
        format!("{}\n\n", "ab".repeat(32)).as_bytes(),
        format!("{}zz", "ab".repeat(31)).as_bytes(),
    ] {
        std::fs::write(&bad, content).unwrap();
        let (_, stderr) = run(
            &["snapshot", "verify", s, "--key-file", bad.to_str().unwrap()],
            2,
        );
        assert!(
            stderr.contains(
                "expected exactly 32 raw bytes, or 64 hex digits optionally followed by a newline"
            ),
            "{content:?}: {stderr}"
        );
    }
    std::fs::write(&bad, format!("{}\r\n", "AB".repeat(32))).unwrap();
    run(
        &["snapshot", "verify", s, "--key-file", bad.to_str().unwrap()],
        0,
    );
}

#[test]
fn a_game_chooses_its_settings_and_a_snapshot_is_refused_under_others() {
    let dir = scratch("settings");
    let zero = dir.join("zero.snap");
    let z = zero.to_str().unwrap();
    let save = |scene: &str, out: &str, extra: &[&str], code: i32| {
        let mut args = vec![
            "snapshot", "save", "--scene", scene, "--steps", "5", "--out", out,
        ];
        args.extend(extra);
        run(&args, code)
    };
    let (stdout, _) = save("bullets_crossing", z, &["--gravity", "0,0,0"], 0);
    assert!(
        stdout.contains("gravity [0.0, 0.0, 0.0], 60 Hz"),
        "{stdout}"
    );
    let (stdout, _) = run(&["snapshot", "inspect", z], 0);
    assert!(
        stdout.contains(
            "stored settings  gravity [0.0, 0.0, 0.0], 60 Hz (dt 0.016666668), length_unit 1.0"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("bodies           2"), "{stdout}");
    let stderr = refused(&zero, &[], "ConfigMismatch");
    assert!(
        stderr.contains("gravity.y: pinned -9.81 (0xc11cf5c3), found 0.0 (0x00000000)"),
        "{stderr}"
    );
    let (stdout, _) = run(&["snapshot", "verify", z, "--gravity", "0,0,0"], 0);
    assert!(
        stdout.contains("; gravity [0.0, 0.0, 0.0], 60 Hz (dt 0.016666668), length_unit 1.0; "),
        "{stdout}"
    );

    // The catalog's gravity scenes in centimetres at 120 Hz: each setting is checked on its own.
    let slow = dir.join("slow.snap");
    let w = slow.to_str().unwrap();
    let game = ["--tick-hz", "120", "--length-unit", "100"];
    save("pyramid", w, &game, 0);
    run(&[&["snapshot", "verify", w][..], &game[..]].concat(), 0);
    for (i, value, field) in [(1, "60", "dt"), (3, "10", "length_unit")] {
        let mut other = game;
        other[i] = value;
        let stderr = refused(&slow, &other, "ConfigMismatch");
        assert_eq!(stderr.matches(": pinned ").count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("config mismatch: {field}: pinned ")),
            "{stderr}"
        );
    }
    // A catalog scene has its own gravity: another is refused, naming it.
    let (_, stderr) = save("pyramid", w, &["--gravity", "0,0,-9.81"], 2);
    assert!(
        stderr.contains("gravity.z: pinned -9.81 (0xc11cf5c3), found -0.0 (0x80000000)"),
        "{stderr}"
    );
    // Values the version does not allow are usage errors, before anything is built.
    for bad in [
        &["--tick-hz", "45"][..],
        &["--tick-hz", "50"],
        &["--length-unit", "0"],
        &["--gravity", "0,NaN,0"],
        &["--gravity", "0,-9.81"],
    ] {
        let (_, stderr) = save("pyramid", w, bad, 2);
        assert!(stderr.starts_with("error: "), "{stderr}");
    }
}

#[test]
fn snapshot_save_refuses_a_zero_gravity_scene_with_the_typed_error() {
    let dir = scratch("zero-gravity");
    let out = dir.join("x.snap");
    let (_, stderr) = run(
        &[
            "snapshot",
            "save",
            "--scene",
            "bullets_crossing",
            "--steps",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    assert!(stderr.contains("(kind: ConfigMismatch)"), "{stderr}");
    assert!(
        stderr.contains("gravity.y: pinned -9.81 (0xc11cf5c3), found 0.0 (0x00000000)"),
        "{stderr}"
    );
    assert!(!out.exists());
    let (_, stderr) = run(
        &[
            "snapshot",
            "save",
            "--scene",
            "nope",
            "--steps",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    assert!(stderr.contains("unknown scene 'nope'"), "{stderr}");
}

#[test]
fn snapshot_import_upstream_fixture_then_verify() {
    let dir = scratch("import");
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/snapshots");
    for (name, steps, bodies) in [("ball_drop", 30, 1), ("tower", 60, 50)] {
        let input = fixtures.join(format!("upstream-0.36.1-{name}-{steps}.bin"));
        let output = dir.join(format!("{name}.snap"));
        let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());
        let (stdout, _) = run(&["snapshot", "import-upstream", i, o, "--match-id", "9"], 0);
        assert!(
            stdout.contains(&format!(
                "physics-version 1, match 9, tick 0, {bodies} bodies"
            )),
            "{stdout}"
        );
        let (stdout, _) = run(
            &[
                "snapshot",
                "verify",
                o,
                "--match-id",
                "9",
                "--physics-version",
                "1",
            ],
            0,
        );
        assert!(
            stdout.starts_with(&format!(
                "ok: {o}: physics-version 1, match 9, tick 0, {bodies} bodies"
            )),
            "{stdout}"
        );
        refused(
            &output,
            &["--match-id", "9", "--physics-version", "2"],
            "PhysicsVersionMismatch",
        );
        // The library's import gives the same bytes.
        let config = rapier_pinned::WorldConfig::new(rapier_pinned::PhysicsVersion::V1)
            .unwrap()
            .with_match_id(9);
        let expected =
            rapier_pinned::import_upstream(config, &std::fs::read(&input).unwrap()).unwrap();
        assert_eq!(std::fs::read(&output).unwrap(), expected);
    }

    // A fork snapshot is not an upstream world; nor is a truncated one.
    let fork = dir.join("fork.snap");
    run(
        &[
            "snapshot",
            "save",
            "--scene",
            "ball_drop",
            "--steps",
            "1",
            "--physics-version",
            "1",
            "--out",
            fork.to_str().unwrap(),
        ],
        0,
    );
    let out = dir.join("x.snap");
    let (_, stderr) = run(
        &[
            "snapshot",
            "import-upstream",
            fork.to_str().unwrap(),
            out.to_str().unwrap(),
        ],
        1,
    );
    assert!(stderr.contains("(kind: Undecodable)"), "{stderr}");
    let short = dir.join("short.bin");
    std::fs::write(
        &short,
        &std::fs::read(fixtures.join("upstream-0.36.1-ball_drop-30.bin")).unwrap()[..40],
    )
    .unwrap();
    let (_, stderr) = run(
        &[
            "snapshot",
            "import-upstream",
            short.to_str().unwrap(),
            out.to_str().unwrap(),
        ],
        1,
    );
    assert!(stderr.contains("(kind: Truncated)"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn snapshot_save_help_names_exactly_the_zero_gravity_scenes() {
    let (help, _) = run(&["snapshot", "save", "--help"], 0);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let listed = help
        .split("zero-gravity scenes (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("a list of zero-gravity scenes in --help");
    let pinned = rapier_pinned::entry(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let refused: Vec<&str> = rapier_pinned_scenes::catalog()
        .iter()
        .filter(|s| s.build(pinned.params()).gravity.to_array() != pinned.gravity)
        .map(|s| s.name)
        .collect();
    assert_eq!(listed.split(", ").collect::<Vec<_>>(), refused, "{help}");
}

#[test]
fn golden_check_passes_on_the_stored_files_and_fails_on_a_tampered_copy() {
    let (stdout, _) = run(
        &[
            "golden",
            "check",
            "--scene",
            "ball_drop",
            "--scene",
            "vehicles",
        ],
        0,
    );
    assert!(
        stdout.contains("golden physics-version 6: 2 files, 2 identical, 0 differ"),
        "{stdout}"
    );

    // A copy of golden/ with one step of vehicles edited: exit 1, the step and the body named,
    // and a picture written.
    let dir = scratch("golden-tampered");
    let golden = dir.join("golden");
    std::fs::create_dir_all(golden.join("6")).unwrap();
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../golden/6/vehicles.snap");
    let file = std::fs::read_to_string(root).unwrap();
    let line = file.lines().find(|l| l.starts_with("60 ")).unwrap();
    let body = line.split(" | ").nth(2).unwrap();
    let x = body.split(' ').nth(2).unwrap();
    let tampered = line.replace(body, &body.replacen(&format!(" {x} "), " 99.5 ", 1));
    std::fs::write(
        golden.join("6/vehicles.snap"),
        file.replace(line, &tampered),
    )
    .unwrap();
    let pictures = dir.join("pictures");
    let (_, stderr) = run(
        &[
            "golden",
            "check",
            "--scene",
            "vehicles",
            "--golden-dir",
            golden.to_str().unwrap(),
            "--pictures",
            pictures.to_str().unwrap(),
        ],
        1,
    );
    let id = body.split(' ').next().unwrap();
    assert!(
        stderr.contains("run vehicles diverges at step 60"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("body {id}: translation.x golden 99.5, now {x}")),
        "{stderr}"
    );
    let svg = pictures.join(format!("6-vehicles-{id}.svg"));
    assert!(
        std::fs::read_to_string(&svg).unwrap().starts_with("<svg"),
        "{}",
        svg.display()
    );
    assert!(
        stderr.contains("failed: 1 of 1 golden files differ"),
        "{stderr}"
    );
}

#[test]
fn golden_bless_writes_the_files_check_reads_and_names_the_rule() {
    let dir = scratch("golden-bless").join("golden");
    let dir_arg = dir.to_str().unwrap();
    let (stdout, _) = run(
        &[
            "golden",
            "bless",
            "--scene",
            "tower",
            "--physics-version",
            "1",
            "--golden-dir",
            dir_arg,
        ],
        0,
    );
    assert!(
        stdout.contains("physics-version 1: 1 golden files created, 0 changed, 0 unchanged"),
        "{stdout}"
    );
    let (stdout, _) = run(
        &[
            "golden",
            "bless",
            "--scene",
            "tower",
            "--physics-version",
            "1",
            "--golden-dir",
            dir_arg,
        ],
        0,
    );
    assert!(
        stdout.contains("0 golden files created, 0 changed, 1 unchanged"),
        "{stdout}"
    );
    run(
        &[
            "golden",
            "check",
            "--scene",
            "tower",
            "--physics-version",
            "1",
            "--golden-dir",
            dir_arg,
        ],
        0,
    );
    // A missing file is a failure that says how to write it, never a pass.
    let (_, stderr) = run(
        &[
            "golden",
            "check",
            "--scene",
            "tower",
            "--physics-version",
            "2",
            "--golden-dir",
            dir_arg,
        ],
        1,
    );
    assert!(stderr.contains("golden bless"), "{stderr}");
}

#[test]
fn conformance_prints_one_line_per_suite_and_a_total() {
    let (stdout, _) = run(&["conformance"], 0);
    for suite in [
        "sweeps/fixed.json",
        "sweeps/random.csv",
        "snapshots/1",
        "snapshots/2",
        "snapshots/3",
        "snapshots/upstream-0.36.1",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(suite) && l.ends_with(" 0 failed")),
            "{suite}: {stdout}"
        );
    }
    let last = stdout.lines().last().unwrap();
    assert!(
        last.ends_with("passed, 0 failed") && !last.starts_with("0 "),
        "{last}"
    );
}

#[test]
fn check_prints_the_summary_table_for_the_current_version() {
    let (stdout, _) = run(&["check"], 0);
    assert!(stdout.contains("golden 6/ (scene files)"), "{stdout}");
    assert!(!stdout.contains("golden 1/"), "{stdout}");
    assert!(
        stdout.lines().last().unwrap().starts_with("total"),
        "{stdout}"
    );
}

#[test]
fn snapshot_continue_prints_the_digests_of_stepping_on() {
    let dir = scratch("continue");
    let file = dir.join("t.snap");
    let f = file.to_str().unwrap();
    run(
        &[
            "snapshot",
            "save",
            "--scene",
            "ball_drop",
            "--steps",
            "10",
            "--out",
            f,
        ],
        0,
    );
    let (stdout, _) = run(&["snapshot", "continue", f, "--steps", "5"], 0);
    // Ticks 11..15, and the digests of the scene stepped 15 times from scratch.
    let golden = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../golden/2/ball_drop.snap"),
    )
    .unwrap();
    let expected: Vec<String> = golden
        .lines()
        .filter_map(|l| {
            let mut it = l.split(' ');
            let step: u64 = it.next()?.parse().ok()?;
            (11..=15)
                .contains(&step)
                .then(|| format!("{step} {}", it.next().unwrap()))
        })
        .collect();
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
}

/// The commands only the project's scripts run: `rapier-pinned-xtask`'s (crates/xtask).
const CI_ONLY: [&str; 3] = ["matrix-compare", "bench-case", "bench"];

#[test]
fn help_lists_user_commands_only() {
    let (help, _) = run(&["--help"], 0);
    let commands: Vec<&str> = (help.lines())
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.contains(&"check"), "{help}");
    for ci in CI_ONLY {
        assert!(!commands.contains(&ci), "{ci} in --help:\n{help}");
        // Not a hidden command either: not in the user's build.
        let out = rapier_pinned(&[ci, "--help"]);
        assert_eq!(out.status.code(), Some(2), "{ci} runs in rapier-pinned");
        assert!(
            text(&out.stderr).contains("unrecognized subcommand"),
            "{ci}"
        );
    }
}

#[test]
fn a_spin_case_is_a_scene_a_server_can_host() {
    let dir = scratch("spin");
    let file = dir.join("spin.snap");
    let f = file.to_str().unwrap();
    let save = |spin: &str, gravity: &[&str], code| {
        let args = [
            &[
                "snapshot", "save", "--scene", spin, "--steps", "3", "--out", f,
            ][..],
            gravity,
        ];
        run(&args.concat(), code)
    };
    // Zero gravity, as the zero-gravity catalog scenes: the default gravity is refused.
    let (stdout, _) = save("spin_1e7", &["--gravity", "0,0,0"], 0);
    assert!(stdout.contains("scene spin_1e7"), "{stdout}");
    save("spin_1e7", &[], 2);
    save("spin_1e8", &["--gravity", "0,0,0"], 2);
}
