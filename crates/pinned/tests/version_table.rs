//! The physics-version table: pinned digests, the patch-series hash against the tree, and what
//! versions 1 to 6 pin.

mod series;

use rapier3d::prelude::*;
use rapier_pinned::{
    diff_entries, entry, param_fields, serves, version_table, ErrorKind, PhysicsVersion,
    WorldConfig, BIT_IDENTICAL_SERIES, PATCH_SERIES, PHYSICS_VERSION_CURRENT, RELEASED_SERIES_1_2,
    RELEASED_SERIES_3, RELEASED_SERIES_4, RELEASED_SERIES_5, RELEASED_SERIES_6,
};
use series::patch_series_hash;
use std::path::Path;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Each released entry's digest, pinned: a released entry never changes.
const PINNED_DIGESTS: [(PhysicsVersion, &str); 6] = [
    (
        PhysicsVersion::V1,
        "e698f707fccdef2994bc4954c4763198b1c98d67673c3e2834989a85315c257e",
    ),
    (
        PhysicsVersion::V2,
        "f57624ac07bbde19ccc34dfbdf465e101a3a1ba44d27dbeb5000529ab975c844",
    ),
    (
        PhysicsVersion::V3,
        "5780c11eb2715a7933c94c43a44c1a85970ba602af5dc02009d78c394ab38206",
    ),
    (
        PhysicsVersion::V4,
        "69ba083735165b5e7008af86aaef22404b604cd8268d2785ef4be2a455a3d060",
    ),
    (
        PhysicsVersion::V5,
        "7bc182c8118ddd168c42721d6a08ef9332f3d143bf078bd9d063d5c7da44a43d",
    ),
    (
        PhysicsVersion::V6,
        "b137fd8c878323178682fa91c145a4097ef4ae1042fdb271005e16c697b5f2e6",
    ),
];

#[test]
fn released_digests_are_pinned() {
    for (number, digest) in PINNED_DIGESTS {
        println!(
            "physics-version {number}: {}",
            hex(&entry(number).unwrap().digest())
        );
        let found = hex(&entry(number).unwrap().digest());
        assert_eq!(found, digest, "physics-version {number} changed");
    }
    assert_eq!(
        version_table().len(),
        PINNED_DIGESTS.len(),
        "every entry has a pinned digest"
    );
    assert_eq!(
        version_table().last().unwrap().number,
        PHYSICS_VERSION_CURRENT
    );
}

#[test]
fn the_tree_serves_every_released_version() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../patches");
    let tree = patch_series_hash(&dir).unwrap();
    assert_eq!(PATCH_SERIES, tree, "PATCH_SERIES is not the tree's series");
    for e in version_table() {
        assert!(
            serves(e, &tree),
            "patches/ changed (series {tree}) but version {} pins {} and the series is not in \
             BIT_IDENTICAL_SERIES: prove it bit-identical with `rapier-pinned check --all` and \
             list it, or release a new physics-version",
            e.number,
            e.patch_series
        );
    }
}

#[test]
fn an_unlisted_series_serves_no_released_version() {
    let unlisted = "0".repeat(64);
    assert!(version_table().iter().all(|e| !serves(e, &unlisted)));
    // Released entries keep the series they were released with.
    let series: Vec<&str> = version_table().iter().map(|e| e.patch_series).collect();
    assert_eq!(
        series,
        [
            RELEASED_SERIES_1_2,
            RELEASED_SERIES_1_2,
            RELEASED_SERIES_3,
            RELEASED_SERIES_4,
            RELEASED_SERIES_5,
            RELEASED_SERIES_6
        ]
    );
}

/// A bit-identical series serves the versions released before it, never one released after it:
/// the series before version 3's release changed policy 3's trajectories, and version 6's is
/// the newest.
#[test]
fn a_series_serves_only_the_versions_released_before_it() {
    let [v1, v2, v3, v4, v5, v6] = [
        PhysicsVersion::V1,
        PhysicsVersion::V2,
        PhysicsVersion::V3,
        PhysicsVersion::V4,
        PhysicsVersion::V5,
        PhysicsVersion::V6,
    ]
    .map(|v| entry(v).unwrap());
    let position = |series: &str| {
        (BIT_IDENTICAL_SERIES.iter())
            .position(|(h, _)| *h == series)
            .expect("released with a series proven bit-identical for the versions before it")
    };
    let (own3, own4, own5, own6) = (
        position(RELEASED_SERIES_3),
        position(RELEASED_SERIES_4),
        position(RELEASED_SERIES_5),
        position(RELEASED_SERIES_6),
    );
    for (i, (hash, _)) in BIT_IDENTICAL_SERIES.iter().enumerate() {
        assert!(serves(v1, hash) && serves(v2, hash), "{hash}");
        assert_eq!(serves(v3, hash), i >= own3, "{hash}");
        assert_eq!(serves(v4, hash), i >= own4, "{hash}");
        assert_eq!(serves(v5, hash), i >= own5, "{hash}");
        assert_eq!(serves(v6, hash), i >= own6, "{hash}");
    }
    assert!(serves(v1, RELEASED_SERIES_1_2) && !serves(v3, RELEASED_SERIES_1_2));
    assert!(serves(v3, RELEASED_SERIES_4) && !serves(v4, RELEASED_SERIES_3));
    assert!(serves(v4, RELEASED_SERIES_5) && !serves(v5, RELEASED_SERIES_4));
    assert!(serves(v5, RELEASED_SERIES_6) && !serves(v6, RELEASED_SERIES_5));
}

#[test]
fn series_hash_sees_a_changed_patch() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../patches");
    let tmp = std::env::temp_dir().join(format!("rapier-pinned-series-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), tmp.join(e.file_name())).unwrap();
    }
    let before = patch_series_hash(&tmp).unwrap();
    assert_eq!(before, patch_series_hash(&src).unwrap());
    // The first patch of the series, whatever it is named.
    let series = std::fs::read_to_string(src.join("series")).unwrap();
    let first = (series.lines())
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap();
    let patch = tmp.join(first.trim());
    let mut bytes = std::fs::read(&patch).unwrap();
    bytes.push(b'\n');
    std::fs::write(&patch, bytes).unwrap();
    let after = patch_series_hash(&tmp).unwrap();
    std::fs::remove_dir_all(&tmp).unwrap();
    assert_ne!(before, after);
}

#[test]
fn every_version_pins_the_same_upstream() {
    let (v1, v2) = (
        entry(PhysicsVersion::V1).unwrap(),
        entry(PhysicsVersion::V2).unwrap(),
    );
    for e in version_table() {
        assert_eq!(e.rapier3d, "0.36.1");
        assert_eq!(e.parry3d, "0.31.1");
        assert_eq!(e.scalar, "f32");
        assert_eq!(e.features, ["enhanced-determinism"]);
        let upstream = PhysicsWorld::default().gravity.to_array();
        assert_eq!(e.gravity.map(f32::to_bits), upstream.map(f32::to_bits));
        assert_eq!(
            e.core_fraction.to_bits(),
            rapier3d::parry::query::sweep_toi::CORE_FRACTION.to_bits(),
            "the entry pins parry's CORE_FRACTION"
        );
    }
    assert_eq!(v1.patch_series, v2.patch_series);
}

#[test]
fn version_1_is_upstream_defaults() {
    let p = entry(PhysicsVersion::V1).unwrap().params();
    assert_eq!(
        param_fields(&p),
        param_fields(&IntegrationParameters::default())
    );
}

/// Each released version differs from the one before in exactly the fields listed, and pins the
/// CCD settings given: version 2 the two CCD fields; 3 the policy (`KeepDepth`); 4 both
/// (`Bounded`, `KeepSide`); 5 the relative-motion mode (`BoundedCasts`); 6 the policy
/// (`KeepSideSurfaceBounds`). Versions 1 and 2 share a patch series; every later one has its own.
#[test]
fn each_version_differs_from_the_one_before_in_exactly_its_fields() {
    use CcdPersistentContactPolicy as Policy;
    use CcdRelativeMotion as Mode;
    const MODE: &str = "ccd_relative_motion";
    const POLICY: &str = "ccd_persistent_contact_policy";
    let steps: [(u32, &[&str], Mode, Policy); 5] = [
        (
            2,
            &["number", MODE, POLICY],
            Mode::On,
            Policy::CoreSphereFixedTargets,
        ),
        (
            3,
            &["number", "patch_series", POLICY],
            Mode::On,
            Policy::KeepDepth,
        ),
        (
            4,
            &["number", "patch_series", MODE, POLICY],
            Mode::Bounded,
            Policy::KeepSide,
        ),
        (
            5,
            &["number", "patch_series", MODE],
            Mode::BoundedCasts,
            Policy::KeepSide,
        ),
        (
            6,
            &["number", "patch_series", POLICY],
            Mode::BoundedCasts,
            Policy::KeepSideSurfaceBounds,
        ),
    ];
    for (to, fields, mode, policy) in steps {
        let (before, after) = (PhysicsVersion::new(to - 1), PhysicsVersion::new(to));
        let diffs = diff_entries(entry(before).unwrap(), entry(after).unwrap());
        let changed: Vec<&str> = diffs.iter().map(|d| d.field).collect();
        assert_eq!(changed, fields, "version {to} against {}", to - 1);
        let p = entry(after).unwrap().params();
        assert_eq!(p.ccd_relative_motion, mode, "version {to}");
        assert_eq!(p.ccd_persistent_contact_policy, policy, "version {to}");
    }
}

#[test]
fn param_fields_names_every_field_once() {
    let fields = param_fields(&IntegrationParameters::default());
    let mut names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "duplicate field name");
    // 20 plain fields + 2 springs of 2 + 3 soft-body settings + 27 recovery settings.
    assert_eq!(count, 20 + 4 + 3 + 27);
}

#[test]
fn unknown_versions_are_refused() {
    for v in [0, 7, u32::MAX].map(PhysicsVersion::new) {
        assert_eq!(
            entry(v).unwrap_err().kind(),
            ErrorKind::UnknownPhysicsVersion
        );
        assert_eq!(
            WorldConfig::new(v).unwrap_err().kind(),
            ErrorKind::UnknownPhysicsVersion
        );
    }
}

#[test]
fn config_digest_covers_version_and_match_id() {
    let a = WorldConfig::new(PhysicsVersion::V2).unwrap();
    assert_ne!(
        a.digest(),
        WorldConfig::new(PhysicsVersion::V1).unwrap().digest()
    );
    assert_ne!(a.digest(), a.with_match_id(7).digest());
    let mut expected = blake3::Hasher::new();
    expected.update(&entry(PhysicsVersion::V2).unwrap().digest());
    expected.update(&7u64.to_le_bytes());
    assert_eq!(a.with_match_id(7).digest(), *expected.finalize().as_bytes());
}
