//! The physics-version table: each released physics-version and everything it pins.
//!
//! A released entry never changes (`tests/version_table.rs` pins each entry's [`VersionEntry::digest`]);
//! a behaviour change is a new physics-version. Every [`IntegrationParameters`] field of version 1
//! is written out as a literal in an exhaustive struct expression (no `..Default::default()`), so
//! neither an upstream default change nor a new field can move a released version silently: the
//! first changes nothing here, the second fails to compile. A later version is written as the
//! version before it plus exactly the fields it changes.

use crate::codec;
use crate::diff::{diff_fields, gravity_fields, FieldDiff, FieldValue, Fields};
use crate::error::Error;
use crate::param_fields::param_fields;
pub use crate::physics_version::PhysicsVersion;
use crate::settings::{Choices, GameSettings};
use rapier3d::dynamics::{
    CcdPersistentContactPolicy, CcdRelativeMotion, FrictionModel, IntegrationParameters,
    SoftBodiesSettings, SoftPatchConstraints, SoftRecoverySettings, SpringCoefficients,
};

/// The released physics-versions, by name: an inherent impl of [`PhysicsVersion`] kept here, next
/// to the table that releases them.
impl PhysicsVersion {
    /// Physics-version 1: upstream rapier3d 0.36.1's behaviour.
    pub const V1: PhysicsVersion = PhysicsVersion::new(1);
    /// Physics-version 2: version 1 with relative-motion CCD and persistent-contact policy 2.
    pub const V2: PhysicsVersion = PhysicsVersion::new(2);
    /// Physics-version 3: version 2 with persistent-contact policy 3 (`KeepDepth`).
    pub const V3: PhysicsVersion = PhysicsVersion::new(3);
    /// Physics-version 4: version 3 with persistent-contact policy 5 (`KeepSide`) and the time
    /// slices of relative motion bounded (`CcdRelativeMotion::Bounded`).
    pub const V4: PhysicsVersion = PhysicsVersion::new(4);
    /// Physics-version 5: version 4 with the continuous pass's nonlinear casts bounded
    /// (`CcdRelativeMotion::BoundedCasts`).
    pub const V5: PhysicsVersion = PhysicsVersion::new(5);
    /// Physics-version 6: version 5 with persistent-contact policy 6 (`KeepSideSurfaceBounds`).
    pub const V6: PhysicsVersion = PhysicsVersion::new(6);
    /// The newest released physics-version ([`PHYSICS_VERSION_CURRENT`]).
    pub const CURRENT: PhysicsVersion = PhysicsVersion::V6;
}

/// The newest released physics-version.
pub const PHYSICS_VERSION_CURRENT: PhysicsVersion = PhysicsVersion::CURRENT;

/// The patch series versions 1 and 2 were released with (see `patch_series_hash` in
/// `tests/series/mod.rs`). A released entry pins the series it was released with, for good: its
/// digest, which snapshots and clients compare, never moves.
pub const RELEASED_SERIES_1_2: &str =
    "c8950ceb95cdaf44be3272e1151ac30226ad73754841f1b9a89bb65dc78e60d9";

/// The patch series version 3 was released with: the series re-cut of the
/// [`BIT_IDENTICAL_SERIES`] entry of the same hash, which policy 3 (patch
/// `0009-rapier-ccd-keep-depth-policy`) had reached its released form in.
pub const RELEASED_SERIES_3: &str =
    "b25b6abf99b78bdf64b7730e77cbdbbbd71dc20e39c5e3add29287817b2df7a4";

/// The patch series version 4 was released with (listed in [`BIT_IDENTICAL_SERIES`]; it
/// serves versions 1 to 3 bit for bit too).
pub const RELEASED_SERIES_4: &str =
    "67ba6d9506c4bc491284d98da888ba69d212e9e97eb28a95b79fc28e50268f83";

/// The patch series version 5 was released with (listed in [`BIT_IDENTICAL_SERIES`]; it
/// serves versions 1 to 4 bit for bit too).
pub const RELEASED_SERIES_5: &str =
    "9211d713a1159e0b3988ae7ccd99ad54742eec225e69a7b4a4cbd1b7dc6f7f26";

/// The patch series version 6 was released with (listed in [`BIT_IDENTICAL_SERIES`]; it
/// serves versions 1 to 5 bit for bit too).
pub const RELEASED_SERIES_6: &str =
    "b675ad87175c3b9b1f2cee17f6f4a50e729d4f6410a8b339cee84fbf0a444b5f";

/// Later patch series that changed the fork's code but no trajectory of any version released
/// before it, oldest first, each with what changed. Each was proven bit-identical in the commit
/// that made it by the golden check (`rapier-pinned check --all`: every golden trajectory and
/// conformance vector of every released version unchanged), which CI runs on every change. A
/// build from one of them serves the versions released before it (and with it) under their
/// released digests: [`serves`]. Version 3 was released with the last series below that predates
/// it ([`RELEASED_SERIES_3`]); the ones before that changed policy 3's trajectories and serve
/// versions 1 and 2 only.
pub const BIT_IDENTICAL_SERIES: &[(&str, &str)] = &[
    (
        "8a9bd8a40679b3e616bbd94e41290b80f468775d0b634e2f41bcfaccd08154ae",
        "series re-cut: a motion module, one sub-shape cast loop, one concern per patch",
    ),
    (
        "25e1e620694c97c33659e9d03e89d492642285cf07c15c0553fa7b7e296baf37",
        "relative motion: moving targets found by sweep and prune, not a scan of all",
    ),
    (
        "b7a4beb20b6c25d64ae38d9ee7d9a9f59f6c31a46de3b66c875c8917b9a4c5bb",
        "relative motion: each collider's centre-of-mass path computed once per pass",
    ),
    (
        "059b9cd7e4be4682ecddead295db610051405d2f6595cf49d508e878edc4a650",
        "continuous pass: each body's motion once per sweep, fixed targets' faces before their \
         contact, the pruning axis by window load",
    ),
    (
        "e5d1df24d630d2b8b506511f8317c42b38ba2a480f45e81916b39004b626cabe",
        "parry's nonlinear motions prepared once per cast and per persistent pair (new patch 0002)",
    ),
    (
        "54af7ac99c7aa5e242563746c8c8cce0519e4d7fd6035e0de8fea1abdea25691",
        "relative-motion pass: a bullet's colliders kept without allocating, swept bullets \
         marked on their targets",
    ),
    (
        "50e35de97834911b1495f6056e88212ce7dbd0b75133e663bd9046646ac3d1ee",
        "review follow-ups: parry's start-in-contact loop reuses the cast's prepared motions, \
         a moving target's body read from its entry",
    ),
    (
        "819e481480ce15122fd5b9fc04c184b27bdbaa6a46b97f593481c8e597f51519",
        "persistent-contact policy 3 (patch 0008), a candidate no released version sets",
    ),
    (
        "5bc322308a1a1cd8ccbb6cc08178be26c07a2576b66c9c24c5f73bea3cccce87",
        "relative-motion pass: few bullets scan every target, the targets' sort keys sorted \
         once; policy 3's depth rule queried at the end poses first",
    ),
    (
        "b0fecaff2dc0c8f561aee15ac354a4ee468ea16a6da4cf752adf7db547b57c51",
        "parry's validate methods for decoded structures (new patch 0009; nothing in the \
         engine calls them)",
    ),
    (
        "98e30276faf9c86b69b34e9be254abdbee3a4a4c320664b7ce2f8ec474d09a32",
        "rapier's validate methods for a decoded narrow phase and island manager (new patch \
         0010; nothing in the engine calls them)",
    ),
    (
        "c95f9f8a713587577b19121fdae7dec1626d9e67964c30965b523094a54df6d1",
        "patch 0010 also validates multibodies (nothing in the engine calls it)",
    ),
    (
        "4c52a20c05140d478813ad11493fe6bdf6e19b4cf87ddbdb7bd4ea7c566f0975",
        "review: the relative-motion pass's sweep-and-prune state in one optional struct",
    ),
    (
        "d43538875cb4da93404068d1862f18d78c7596b41981cd3483ece4197f2962c5",
        "patches 0009 and 0010 validate manifolds, workspaces, the solver contact graph, joints, the \
         impulse joint graph, convexity, shape bounds and dimensions (nothing in the engine \
         calls them)",
    ),
    (
        "b25b6abf99b78bdf64b7730e77cbdbbbd71dc20e39c5e3add29287817b2df7a4",
        "series re-cut: the clamps their own patch (0003), the pruning with the pair culling \
         (0005), upstream's `sweep_fast_body` kept over the fork's `SweepRules`",
    ),
    (
        "4097dfeafdf453f02253b082cad242e839b78c983cb6667e10b4ab2dc0d06adb",
        "policy 3's depth rule keeps its lists from step to step, and runs alone when no body \
         is fast (patch 0009; versions 1, 2 and 3 bit-identical)",
    ),
    (
        "e4031d74032b60af84f7173becec8155accccf65278bbbfff3457febb267788b",
        "issue 46: the policy's meaning as methods, the sweep's context in one struct, casts \
         that return their crossing, the end-contact cache its own patch (0010; the validation \
         patches 0011 and 0012, bevy 0013)",
    ),
    (
        "fe40e11e9c0409d74e7df56a2c98b97fd32f5b7ce51f93a167f89e630400a796",
        "issue 43: the pruning axis kept from pass to pass, no still-target walk without a still \
         collider, a bullet's moving hits without allocating (0005); no depth-rule pair walk \
         without a thin collider (0010)",
    ),
    (
        "0e303c84062a99265f02612e8b49a7df0669eaf701412a10beb23741b0bdac64",
        "issue 43: when most moving bounds are swept bullets', every pair found in one sweep of \
         the sorted bounds (0005)",
    ),
    (
        "7d3a8089205fc8ab4707ccb9d99b1430b669802f099d8fd9329bad8cf9543c46",
        "review: the pair search's lookup without unwraps, the search test's targets cloned \
         (0005)",
    ),
    (
        "db8178420667518606a030204bb8fdcd559d7eb15d3f0c74d884e734b986ae17",
        "issue 43: the depth rule's start query skipped when the end contact is not below 0 \
         (0009)",
    ),
    (
        "86a239042b75605cf8bc0c10b1aacab6f92b00f688536f90bc605fd829a0a91e",
        "issue 43: persistent-contact policy 4 (KeepDepthBounded), a candidate no version uses \
         (0011)",
    ),
    (
        RELEASED_SERIES_4,
        "issue 62: physics-version 4's series: `ccd_relative_motion` a mode (0004), policy 4 \
         casting every part that arrives at a face from apart (0011), policy 5 (0012, 0013), \
         bounded slices (0014)",
    ),
    (
        "e6e31cd29a439a453be8053d350f4712e58b3f83f9427fea54f4845492a3e8ba",
        "issue 66: a step whose solver contact graph holds an entry that no longer resolves \
         rebuilds the graph instead of panicking (0017): changes only steps that panicked",
    ),
    (
        RELEASED_SERIES_5,
        "issue 66: physics-version 5's series: parry's nonlinear cast bounded by a new \
         dispatcher (0018) and `CcdRelativeMotion::BoundedCasts` (0019)",
    ),
    (
        "ebc79dd033519ee2368c3797fe02b334021b4bc4624a529af75755ddcac842ac",
        "issue 66: 0017 also rebuilds a solver graph whose orphaned entry lands on a manifold \
         without an active contact (program 90439), checked after the graph's maintenance",
    ),
    (
        "87d0c5b328772584abe89621d842737aa1a8663b98435794ea635a7036191fd2",
        "issue 63: the continuous pass at defaults copies less (results moved, not copied; \
         FastColliderInfo::new and BodySteps::new inlined: 0004)",
    ),
    (
        RELEASED_SERIES_6,
        "issue 63: physics-version 6's series: persistent-contact policy 6 \
         (KeepSideSurfaceBounds), the depth rule bounded on fixed meshes and heightfields (0020)",
    ),
    (
        "aeba803e0be02ce47e4d63843924c9e6ffab61e70a2fbf3380da33938306d511",
        "issue 65: the CCD patches re-cut: the relative-motion pass's moving targets a file of \
         their own (0004, 0005), one SweepContext constructor (0006), one plane test for the \
         bounds of policies 4 and 6 (0011, 0020)",
    ),
];

/// The patch-series hash of the fork at `patches/` today: the released series, or the newest of
/// [`BIT_IDENTICAL_SERIES`] (`tests/version_table.rs` checks it against the tree).
pub const PATCH_SERIES: &str = "aeba803e0be02ce47e4d63843924c9e6ffab61e70a2fbf3380da33938306d511";

/// Whether the fork built from the patch series `hash` gives `entry`'s trajectories: the series
/// it was released with, or one proven bit-identical later, listed in [`BIT_IDENTICAL_SERIES`]
/// after the entry's own series (versions 1 and 2's series precedes the whole list).
pub fn serves(entry: &VersionEntry, hash: &str) -> bool {
    let later = BIT_IDENTICAL_SERIES
        .iter()
        .position(|(h, _)| *h == entry.patch_series)
        .map_or(0, |own| own + 1);
    entry.patch_series == hash
        || BIT_IDENTICAL_SERIES[later..]
            .iter()
            .any(|(h, _)| *h == hash)
}

/// Everything one physics-version pins: what changes a trajectory.
#[derive(Debug)]
pub struct VersionEntry {
    /// The physics-version number.
    pub number: PhysicsVersion,
    /// The upstream rapier3d version the fork is based on.
    pub rapier3d: &'static str,
    /// The upstream parry3d version the fork is based on.
    pub parry3d: &'static str,
    /// The patch-series hash (`patch_series_hash` in `tests/series/mod.rs`) of the patches applied
    /// to them, as 64 lowercase hex digits.
    pub patch_series: &'static str,
    /// The scalar type (`f32`).
    pub scalar: &'static str,
    /// rapier3d features every build must enable.
    pub features: &'static [&'static str],
    /// parry3d's `query::sweep_toi::CORE_FRACTION` (the core-sphere radius of the CCD policies).
    pub core_fraction: f32,
    /// The gravity vector, bit for bit: upstream's default `Vector::Y * -9.81` is
    /// `[-0.0, -9.81, -0.0]` (negative zeros), and so are the released entries.
    pub gravity: [f32; 3],
    /// Builds the pinned [`IntegrationParameters`] (a function: the struct is not `const`).
    pub params: fn() -> IntegrationParameters,
    /// The tick rate whose `dt` is `params().dt`: the default of [`GameSettings::tick_hz`].
    pub tick_hz: u32,
    /// What a game may choose per world ([`GameSettings`]); everything else is pinned. Not in
    /// [`Self::digest`]: it decides which configs can be made, not what a config's world does.
    pub choices: Choices,
}

/// The choices versions 1 and 2 allow: the tick rates their gates were measured to hold at
/// (`docs/physics-engine.md`, "Gates at each tick rate": not 30 Hz, where version 2's vehicle ram
/// goes through and version 1's capped blade sinks 7.7 mm), length units from centimetre-sized to
/// 100-unit objects, and gravity up to about 100 g.
const CHOICES_1_2: Choices = Choices {
    tick_hz: &[60, 120],
    length_unit: [0.01, 100.0],
    max_gravity: 1000.0,
};

/// The choices version 3 allows: the tick rates its gates were measured to hold at
/// (`docs/physics-engine.md`, "Gates at each tick rate": 30 and 144 Hz too, where version 2's
/// vehicle ram goes through; not 50 Hz, where one rotor step stays gated), and versions 1 and 2's
/// length units and gravity.
const CHOICES_3: Choices = Choices {
    tick_hz: &[30, 60, 120, 144],
    ..CHOICES_1_2
};

/// The choices version 4 allows: version 3's. Measured at 30, 50, 60, 120 and 144 Hz, every
/// fixed-target cell of the CCD safety matrix and every thin-part set hold at the rates version 3
/// allows; at 50 Hz, as under version 3, one rotor step stays gated (`docs/physics-engine.md`,
/// "Gates at each tick rate").
const CHOICES_4: Choices = CHOICES_3;

/// The choices version 5 allows: version 4's. Its safety matrix and thin-part sets hold as
/// version 4's, cell for cell (`docs/decisions/physics-version-5.md`).
const CHOICES_5: Choices = CHOICES_4;

/// The choices version 6 allows: version 5's. It steps every thin-part set and catalog scene as
/// version 5 does, and its safety matrix holds as version 5's, cell for cell
/// (`docs/decisions/physics-version-6.md`).
const CHOICES_6: Choices = CHOICES_5;

static TABLE: [VersionEntry; 6] = [
    VersionEntry {
        number: PhysicsVersion::V1,
        rapier3d: "0.36.1",
        parry3d: "0.31.1",
        patch_series: RELEASED_SERIES_1_2,
        scalar: "f32",
        features: &["enhanced-determinism"],
        core_fraction: 0.25,
        gravity: [-0.0, -9.81, -0.0],
        params: params_v1,
        tick_hz: 60,
        choices: CHOICES_1_2,
    },
    VersionEntry {
        number: PhysicsVersion::V2,
        rapier3d: "0.36.1",
        parry3d: "0.31.1",
        patch_series: RELEASED_SERIES_1_2,
        scalar: "f32",
        features: &["enhanced-determinism"],
        core_fraction: 0.25,
        gravity: [-0.0, -9.81, -0.0],
        params: params_v2,
        tick_hz: 60,
        choices: CHOICES_1_2,
    },
    VersionEntry {
        number: PhysicsVersion::V3,
        rapier3d: "0.36.1",
        parry3d: "0.31.1",
        patch_series: RELEASED_SERIES_3,
        scalar: "f32",
        features: &["enhanced-determinism"],
        core_fraction: 0.25,
        gravity: [-0.0, -9.81, -0.0],
        params: params_v3,
        tick_hz: 60,
        choices: CHOICES_3,
    },
    VersionEntry {
        number: PhysicsVersion::V4,
        rapier3d: "0.36.1",
        parry3d: "0.31.1",
        patch_series: RELEASED_SERIES_4,
        scalar: "f32",
        features: &["enhanced-determinism"],
        core_fraction: 0.25,
        gravity: [-0.0, -9.81, -0.0],
        params: params_v4,
        tick_hz: 60,
        choices: CHOICES_4,
    },
    VersionEntry {
        number: PhysicsVersion::V5,
        rapier3d: "0.36.1",
        parry3d: "0.31.1",
        patch_series: RELEASED_SERIES_5,
        scalar: "f32",
        features: &["enhanced-determinism"],
        core_fraction: 0.25,
        gravity: [-0.0, -9.81, -0.0],
        params: params_v5,
        tick_hz: 60,
        choices: CHOICES_5,
    },
    VersionEntry {
        number: PhysicsVersion::V6,
        rapier3d: "0.36.1",
        parry3d: "0.31.1",
        patch_series: RELEASED_SERIES_6,
        scalar: "f32",
        features: &["enhanced-determinism"],
        core_fraction: 0.25,
        gravity: [-0.0, -9.81, -0.0],
        params: params_v6,
        tick_hz: 60,
        choices: CHOICES_6,
    },
];

/// Every released entry, oldest first.
pub fn version_table() -> &'static [VersionEntry] {
    &TABLE
}

/// The entry of physics-version `version`.
pub fn entry(version: PhysicsVersion) -> Result<&'static VersionEntry, Error> {
    TABLE
        .iter()
        .find(|e| e.number == version)
        .ok_or(Error::UnknownPhysicsVersion(version))
}

impl VersionEntry {
    /// The pinned integration parameters.
    pub fn params(&self) -> IntegrationParameters {
        (self.params)()
    }

    /// The settings every world of this version had before games could choose: the pinned
    /// gravity, tick and length unit.
    pub fn default_settings(&self) -> GameSettings {
        GameSettings {
            gravity: self.gravity,
            tick_hz: self.tick_hz,
            length_unit: self.params().length_unit,
        }
    }

    /// BLAKE3 of the canonical encoding of every field: the codec's bincode of
    /// `(number, rapier3d, parry3d, patch_series, scalar, features, core_fraction, gravity,
    /// params())` (floats as their bits, strings and lists length-prefixed by a u64).
    pub fn digest(&self) -> [u8; 32] {
        let fields = (
            self.number,
            self.rapier3d,
            self.parry3d,
            self.patch_series,
            self.scalar,
            self.features,
            self.core_fraction.to_bits(),
            self.gravity.map(f32::to_bits),
            self.params(),
        );
        *blake3::hash(&codec::encode(&fields)).as_bytes()
    }

    /// Every field as `(name, value)` (printed bit-exact); parameter fields as in
    /// [`param_fields`].
    pub fn fields(&self) -> Fields {
        let mut out = vec![
            ("number", FieldValue::Whole(self.number.get().into())),
            ("rapier3d", FieldValue::Text(self.rapier3d)),
            ("parry3d", FieldValue::Text(self.parry3d)),
            ("patch_series", FieldValue::Text(self.patch_series)),
            ("scalar", FieldValue::Text(self.scalar)),
            ("features", FieldValue::List(self.features)),
            ("core_fraction", FieldValue::Real(self.core_fraction)),
        ];
        out.extend(gravity_fields(self.gravity));
        out.extend(param_fields(&self.params()));
        out
    }
}

/// The fields that differ between two entries: `pinned` is `a`'s value, `snapshot` is `b`'s.
pub fn diff_entries(a: &VersionEntry, b: &VersionEntry) -> Vec<FieldDiff> {
    diff_fields(a.fields(), b.fields())
}

/// Physics-version 1: upstream rapier3d 0.36.1's defaults, both CCD settings off.
fn params_v1() -> IntegrationParameters {
    IntegrationParameters {
        dt: 1.0 / 60.0,
        min_ccd_dt: 1.0 / 60.0 / 100.0,
        contact_softness: SpringCoefficients {
            natural_frequency: 30.0,
            damping_ratio: 10.0,
        },
        static_contact_softness: SpringCoefficients {
            natural_frequency: 60.0,
            damping_ratio: 10.0,
        },
        warmstart_coefficient: 1.0,
        length_unit: 1.0,
        soft_bodies: SoftBodiesSettings {
            recovery: soft_recovery_v1(),
            resweep_strain: 0.75,
            max_extra_substeps: 4,
            contact_stiffening: 4.0,
        },
        normalized_allowed_linear_error: 0.005,
        normalized_max_corrective_velocity: 3.0,
        normalized_prediction_distance: 0.02,
        normalized_max_linear_velocity: 400.0,
        num_solver_iterations: 4,
        num_internal_pgs_iterations: 1,
        num_internal_stabilization_iterations: 1,
        max_ccd_substeps: 1,
        contact_clustering: true,
        contact_recycling: true,
        normalized_contact_recycle_distance: 0.05,
        friction_in_bias_pass: false,
        warmstart_joints: false,
        friction_model: FrictionModel::Simplified,
        ccd_relative_motion: CcdRelativeMotion::Off,
        ccd_persistent_contact_policy: CcdPersistentContactPolicy::Upstream,
    }
}

/// Physics-version 2: version 1 with `ccd_relative_motion` and policy 2 (`CoreSphereFixedTargets`),
/// written as exactly that difference. Version 1 is released and its digest pinned, so it cannot
/// move under version 2.
fn params_v2() -> IntegrationParameters {
    IntegrationParameters {
        ccd_relative_motion: CcdRelativeMotion::On,
        ccd_persistent_contact_policy: CcdPersistentContactPolicy::CoreSphereFixedTargets,
        ..params_v1()
    }
}

/// Physics-version 3: version 2 with policy 3 (`KeepDepth`), written as exactly that difference:
/// a pair in contact at the start of a step is not clamped, and no pair with a part thinner than
/// the allowed error ends the step deeper than it started
/// (`docs/decisions/physics-version-3.md`).
fn params_v3() -> IntegrationParameters {
    IntegrationParameters {
        ccd_persistent_contact_policy: CcdPersistentContactPolicy::KeepDepth,
        ..params_v2()
    }
}

/// Physics-version 4: version 3 with policy 5 (`KeepSide`) and bounded time slices, written as
/// exactly that difference: no centre of a fast body's or a bullet's piece ends a step past a
/// fixed collider's surface it crossed, meshes' and heightfields' faces included, and no pair is
/// swept in more than 32 time slices (`docs/decisions/physics-version-4.md`).
fn params_v4() -> IntegrationParameters {
    IntegrationParameters {
        ccd_relative_motion: CcdRelativeMotion::Bounded,
        ccd_persistent_contact_policy: CcdPersistentContactPolicy::KeepSide,
        ..params_v3()
    }
}

/// Physics-version 5: version 4 with bounded nonlinear casts, written as exactly that
/// difference: every nonlinear cast of the continuous pass probes a pair that starts in contact
/// at most 1,024 times, so no step's cost grows without bound with a body's speed or spin
/// (`docs/decisions/physics-version-5.md`).
fn params_v5() -> IntegrationParameters {
    IntegrationParameters {
        ccd_relative_motion: CcdRelativeMotion::BoundedCasts,
        ..params_v4()
    }
}

/// Physics-version 6: version 5 with policy 6 (`KeepSideSurfaceBounds`), written as exactly that
/// difference: the depth rule does not query a pair of a fixed mesh or heightfield and a convex
/// part that ends within half its half-thickness of every face near it, its centre in front of
/// each, so a part resting on a level's surface costs no query per face each step
/// (`docs/decisions/physics-version-6.md`).
fn params_v6() -> IntegrationParameters {
    IntegrationParameters {
        ccd_persistent_contact_policy: CcdPersistentContactPolicy::KeepSideSurfaceBounds,
        ..params_v5()
    }
}

/// The soft-body recovery settings of versions 1 to 6 (rapier3d 0.36.1's defaults), released:
/// never edit; a later version that wants others writes its own function.
fn soft_recovery_v1() -> SoftRecoverySettings {
    SoftRecoverySettings {
        authored_velocity_margin: true,
        edge_speculation: false,
        inverted_cell_detection: true,
        self_crossing_detection: true,
        detection_motion_gating: true,
        cross_body_detection: true,
        self_stand_down: true,
        cross_body_expel_gate: true,
        edge_stand_down: true,
        crossing_repulsion: false,
        crossing_repulsion_guide: false,
        crossing_repulsion_self_guide: false,
        recovery_pace: 0.5,
        overlap_constraints: true,
        overlap_rigid: true,
        overlap_skip_self_tangled: true,
        overlap_edge_stand_down: true,
        overlap_constraint_pace: 1.0,
        overlap_patch_constraints: SoftPatchConstraints::AlongNormal,
        overlap_skin_volume: false,
        overlap_kept_depth: 0.0,
        overlap_normal_push: true,
        overlap_self_regions: false,
        overlap_multi_volume: false,
        overlap_split: 3,
        overlap_patience: 240,
        overlap_progress_margin: 0.02,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_physics_version_encodes_as_its_bare_number() {
        for n in [0, 1, 2, 0x0102_0304, u32::MAX] {
            let v = PhysicsVersion::new(n);
            assert_eq!(codec::encode(&v), codec::encode(&n), "{n}");
            assert_eq!(
                codec::decode_prefix::<PhysicsVersion>(&n.to_le_bytes()),
                Ok(v)
            );
            assert_eq!(v.get(), n);
        }
        // Inside a struct too: the entry digest hashes `(number, ...)` as it did when it was a u32.
        assert_eq!(
            codec::encode(&(PhysicsVersion::V2, "x")),
            codec::encode(&(2u32, "x"))
        );
    }

    #[test]
    fn display_is_the_bare_number_with_the_formatters_options() {
        assert_eq!(PhysicsVersion::V2.to_string(), "2");
        assert_eq!(
            format!("physics-version {}", PhysicsVersion::V1),
            "physics-version 1"
        );
        assert_eq!(
            format!("[{:>3}|{:<3}]", PhysicsVersion::V2, PhysicsVersion::V1),
            "[  2|1  ]"
        );
        assert_eq!(PHYSICS_VERSION_CURRENT, PhysicsVersion::CURRENT);
        assert_eq!(
            version_table().last().map(|e| e.number),
            Some(PhysicsVersion::CURRENT)
        );
    }

    #[test]
    fn from_str_reads_and_refuses_as_clap_reads_a_u32() {
        let parse = |t: &str| t.parse::<PhysicsVersion>().map_err(|e| e.to_string());
        assert_eq!(parse("2"), Ok(PhysicsVersion::V2));
        assert_eq!(parse("+1"), Ok(PhysicsVersion::V1));
        assert_eq!(parse("4294967295"), Ok(PhysicsVersion::new(u32::MAX)));
        // clap's `u32` parser: an `i64`, then its range (`RangedI64ValueParser`).
        for (text, message) in [
            ("x", "invalid digit found in string"),
            (" 1", "invalid digit found in string"),
            ("", "cannot parse integer from empty string"),
            ("-1", "-1 is not in 0..=4294967295"),
            ("4294967296", "4294967296 is not in 0..=4294967295"),
            (
                "99999999999999999999",
                "number too large to fit in target type",
            ),
            (
                "-99999999999999999999",
                "number too small to fit in target type",
            ),
        ] {
            assert_eq!(parse(text), Err(message.to_string()), "{text:?}");
        }
    }
}
