//! The snapshot vectors of `conformance/snapshots/<physics-version>/`: every stored vector gets its
//! manifest's verdict from the wrapper, the generator makes exactly the stored bytes, and the
//! check fails on known-bad cases.
//!
//! The files are written once, by the ignored test `write_vectors`:
//! `cargo test --release -p rapier-pinned-conformance --test snapshot_vectors -- --ignored write_vectors`.

use std::path::PathBuf;

use rapier_pinned::{PhysicsVersion, PHYSICS_VERSION_CURRENT};
use rapier_pinned_conformance::snapshot_vectors::{
    check, check_dir, check_vector, generate, level_files, manifest_json, read_manifest,
    version_dir, write_to, Expect, Vector,
};

/// The released physics-versions that have vectors.
const VERSIONS: [PhysicsVersion; 6] = [
    PhysicsVersion::V1,
    PhysicsVersion::V2,
    PhysicsVersion::V3,
    PhysicsVersion::V4,
    PhysicsVersion::V5,
    PhysicsVersion::V6,
];

fn stored(version: PhysicsVersion) -> Vec<(Vector, Vec<u8>)> {
    let dir = version_dir(version);
    read_manifest(&dir)
        .unwrap()
        .into_iter()
        .map(|v| {
            let bytes = std::fs::read(dir.join(&v.file)).unwrap();
            (v, bytes)
        })
        .collect()
}

#[test]
fn every_stored_vector_gets_its_verdict() {
    assert_eq!(
        PHYSICS_VERSION_CURRENT,
        PhysicsVersion::V6,
        "a new physics-version needs its vectors"
    );
    for version in VERSIONS {
        let (passed, failures) = check(version).unwrap();
        assert!(
            failures.is_empty(),
            "physics-version {version}:\n{}",
            failures.join("\n")
        );
        let listed = read_manifest(&version_dir(version)).unwrap().len();
        assert!(passed > 0);
        assert_eq!(passed, listed);
        println!("physics-version {version}: {passed} vectors passed");
    }
}

#[test]
fn the_generator_makes_exactly_the_stored_bytes() {
    for version in VERSIONS {
        let generated = generate(version).unwrap();
        let on_disk = stored(version);
        let names = |list: &[(Vector, Vec<u8>)]| -> Vec<String> {
            list.iter().map(|(v, _)| v.name.clone()).collect()
        };
        assert_eq!(
            names(&generated),
            names(&on_disk),
            "physics-version {version}"
        );
        for (file, bytes) in level_files().unwrap() {
            let stored = std::fs::read(version_dir(version).join(&file)).unwrap();
            assert!(stored == bytes, "physics-version {version}: {file} changed");
        }
        for ((g, g_bytes), (s, s_bytes)) in generated.iter().zip(&on_disk) {
            assert_eq!(g, s, "physics-version {version}: manifest entry {}", g.name);
            assert!(
                g_bytes == s_bytes,
                "physics-version {version}: {} changed",
                s.file
            );
        }
        let vectors: Vec<Vector> = generated.into_iter().map(|(v, _)| v).collect();
        let text = std::fs::read_to_string(version_dir(version).join("vectors.json")).unwrap();
        assert_eq!(
            manifest_json(&vectors),
            text,
            "physics-version {version}: vectors.json"
        );
    }
}

/// Every verdict the manifest states is one the protocol names, and both kinds of verdict occur.
#[test]
fn manifests_are_well_formed() {
    for version in VERSIONS {
        let vectors = read_manifest(&version_dir(version)).unwrap();
        let accepts = vectors
            .iter()
            .filter(|v| matches!(v.expect, Expect::Accept(_)))
            .count();
        assert!(accepts > 0 && accepts < vectors.len());
        for v in &vectors {
            assert!(!v.about.is_empty(), "{}", v.name);
            if let Expect::Accept(a) = &v.expect {
                assert_eq!(a.digests.len(), a.steps as usize, "{}", v.name);
                assert!(a.digests.iter().all(|d| d.len() == 16), "{}", v.name);
            }
        }
    }
}

/// The gate fires: changed bytes, a changed expectation or another verdict all fail.
#[test]
fn the_check_fails_on_known_bad_cases() {
    let version = PHYSICS_VERSION_CURRENT;
    let vectors = stored(version);
    let find = |name: &str| {
        vectors
            .iter()
            .find(|(v, _)| v.name == name)
            .unwrap()
            .clone()
    };
    let (accept, bytes) = find("accept");
    check_vector(version, &accept, &bytes, None, None).unwrap();

    let mut bad = Vec::new();
    // A flipped payload byte.
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    bad.push(("flipped byte", accept.clone(), flipped));
    // A changed expected digest.
    let mut v = accept.clone();
    let Expect::Accept(a) = &mut v.expect else {
        unreachable!()
    };
    let middle = a.digests.len() / 2;
    let d = &mut a.digests[middle];
    *d = if d.as_str() == "0000000000000000" {
        "1".repeat(16)
    } else {
        "0".repeat(16)
    };
    bad.push(("changed digest", v, bytes.clone()));
    // A digest list shorter than the steps.
    let mut v = accept.clone();
    let Expect::Accept(a) = &mut v.expect else {
        unreachable!()
    };
    a.digests.pop();
    bad.push(("missing digest", v, bytes.clone()));
    // A changed expected tick.
    let mut v = accept.clone();
    let Expect::Accept(a) = &mut v.expect else {
        unreachable!()
    };
    a.tick += 1;
    bad.push(("changed tick", v, bytes.clone()));
    // An accepted file expected to be rejected.
    let mut v = accept.clone();
    v.expect = Expect::Reject("ChecksumMismatch".to_string());
    bad.push(("accept expected as reject", v, bytes.clone()));
    // Another match.
    let mut v = accept.clone();
    v.match_id += 1;
    bad.push(("another match", v, bytes.clone()));
    // A rejected file with another expected kind, and one expected to be accepted.
    let (reject, reject_bytes) = find("checksum_mismatch_payload");
    check_vector(version, &reject, &reject_bytes, None, None).unwrap();
    let mut v = reject.clone();
    v.expect = Expect::Reject("MacMismatch".to_string());
    bad.push(("changed kind", v, reject_bytes.clone()));
    let mut v = reject.clone();
    v.expect = accept.expect.clone();
    bad.push(("reject expected as accept", v, reject_bytes.clone()));
    // The authenticated file restored with another key.
    let (mac, mac_bytes) = find("accept_mac");
    let mut v = mac.clone();
    v.key = Some("ff".repeat(32));
    bad.push(("wrong key", v, mac_bytes.clone()));
    // A compressed file (format 2): a flipped stored byte, a changed digest.
    let (compressed, compressed_bytes) = find("accept_compressed");
    check_vector(version, &compressed, &compressed_bytes, None, None).unwrap();
    let mut flipped = compressed_bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    bad.push(("flipped compressed byte", compressed.clone(), flipped));
    let mut v = compressed.clone();
    let Expect::Accept(a) = &mut v.expect else {
        unreachable!()
    };
    a.digests[0] = "0".repeat(16);
    bad.push(("compressed, changed digest", v, compressed_bytes.clone()));

    // A world on a level (format 3): its level checked, another level, no level.
    let (on_level, on_level_bytes) = find("accept_level");
    let dir = version_dir(version);
    let level = std::fs::read(dir.join("level.level")).unwrap();
    let other = std::fs::read(dir.join("other.level")).unwrap();
    check_vector(version, &on_level, &on_level_bytes, Some(&level), None).unwrap();
    let mut level_bad = vec![
        (
            "another level",
            on_level.clone(),
            on_level_bytes.clone(),
            Some(other),
        ),
        ("no level", on_level.clone(), on_level_bytes.clone(), None),
    ];
    for (case, vector, bytes) in bad {
        level_bad.push((case, vector, bytes, None));
    }
    for (case, vector, bytes, level) in level_bad {
        let err = check_vector(version, &vector, &bytes, level.as_deref(), None)
            .expect_err(&format!("{case}: the check passed"))
            .to_string();
        assert!(err.starts_with(&vector.name), "{case}: {err}");
        println!("{case}: {err}");
    }

    // A delta (format 4): its baseline checked, another baseline, none.
    let (delta, delta_bytes) = find("accept_delta");
    let baseline = std::fs::read(dir.join("accept.snap")).unwrap();
    let other = std::fs::read(dir.join("accept_tick_0.snap")).unwrap();
    check_vector(version, &delta, &delta_bytes, None, Some(&baseline)).unwrap();
    for (case, given) in [
        ("another baseline", Some(&other[..])),
        ("no baseline", None),
    ] {
        let err = check_vector(version, &delta, &delta_bytes, None, given)
            .expect_err(case)
            .to_string();
        assert!(err.starts_with(&delta.name), "{case}: {err}");
        println!("{case}: {err}");
    }
}

/// A scratch directory under the target dir, removed first.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn write_keeps_released_bytes_and_check_reports_drift() {
    let version = PHYSICS_VERSION_CURRENT;
    let dir = scratch("snapshot_vectors_write");
    let written = write_to(&dir, version).unwrap();
    let vectors = read_manifest(&dir).unwrap();
    let files: std::collections::BTreeSet<&str> = vectors.iter().map(|v| v.file.as_str()).collect();
    let levels = level_files().unwrap().len();
    assert_eq!(
        written,
        files.len() + levels + 1,
        "every file, the level files and the manifest"
    );
    assert_eq!(write_to(&dir, version).unwrap(), 0, "nothing left to write");
    std::fs::remove_file(dir.join("stray_mac.snap")).unwrap();
    assert_eq!(write_to(&dir, version).unwrap(), 1, "only the missing file");
    assert_eq!(check_dir(&dir, version).unwrap(), (vectors.len(), vec![]));

    // A stored file with other bytes: write refuses, check fails every vector of that file.
    let victim = dir.join("accept.snap");
    let mut bytes = std::fs::read(&victim).unwrap();
    bytes[200] ^= 1;
    std::fs::write(&victim, &bytes).unwrap();
    let err = write_to(&dir, version).unwrap_err().to_string();
    assert!(
        err.contains("accept.snap") && err.contains("released vector bytes changed"),
        "{err}"
    );
    // (The vectors of that file whose verdict comes before the checksum, such as another
    // match's config digest, still pass; the deltas against it as a baseline may fail.)
    let (passed, failures) = check_dir(&dir, version).unwrap();
    let accept = Some("accept.snap".to_string());
    let sharing: Vec<&str> = vectors
        .iter()
        .filter(|v| v.file == "accept.snap" || v.baseline == accept)
        .map(|v| v.name.as_str())
        .collect();
    assert!(
        failures.iter().any(|f| f.starts_with("accept: ")),
        "{failures:#?}"
    );
    for f in &failures {
        assert!(
            sharing.iter().any(|n| f.starts_with(&format!("{n}: "))),
            "{f}"
        );
    }
    assert_eq!(passed + failures.len(), vectors.len());

    // A changed manifest entry: write refuses.
    std::fs::write(
        &victim,
        std::fs::read(version_dir(version).join("accept.snap")).unwrap(),
    )
    .unwrap();
    let mut changed = vectors.clone();
    changed[0].about.push_str(" Edited.");
    std::fs::write(dir.join("vectors.json"), manifest_json(&changed)).unwrap();
    let err = write_to(&dir, version).unwrap_err().to_string();
    assert!(err.contains("released vector accept changed"), "{err}");

    // A stray file and a missing file are failures; an empty or absent manifest is an error.
    std::fs::write(dir.join("vectors.json"), manifest_json(&vectors)).unwrap();
    std::fs::write(dir.join("extra.snap"), b"RPINSNAP").unwrap();
    std::fs::remove_file(dir.join("bad_magic.snap")).unwrap();
    let (_, failures) = check_dir(&dir, version).unwrap();
    assert_eq!(failures.len(), 2, "{failures:#?}");
    assert!(failures.iter().any(|f| f.contains("extra.snap")));
    assert!(failures.iter().any(|f| f.starts_with("bad_magic")));
    std::fs::write(dir.join("vectors.json"), "[]\n").unwrap();
    assert!(check_dir(&dir, version).is_err());
    std::fs::write(dir.join("vectors.json"), "{").unwrap();
    assert!(check_dir(&dir, version).is_err());
    std::fs::remove_file(dir.join("vectors.json")).unwrap();
    assert!(check_dir(&dir, version).is_err());
    assert!(
        check(PhysicsVersion::new(99)).is_err(),
        "no vectors for an unreleased version"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes the vectors that do not exist yet (never changes a stored file):
/// `cargo test --release -p rapier-pinned-conformance --test snapshot_vectors -- --ignored write_vectors`.
#[test]
#[ignore = "writes conformance/snapshots/<version>/; run on purpose"]
fn write_vectors() {
    for version in VERSIONS {
        let written = rapier_pinned_conformance::snapshot_vectors::write(version).unwrap();
        println!("physics-version {version}: {written} files written");
    }
}
