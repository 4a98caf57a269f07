//! Shared by the fuzz targets of rapier-pinned: the target world, its reference snapshots, the
//! panic policy, and the seed writer.
//!
//! Panic policy. libfuzzer-sys installs a panic hook that aborts the process on *any* panic, even
//! one a `catch_unwind` would catch. rapier-pinned runs decoding and validation under
//! `catch_unwind` on purpose (`docs/protocol.md` §5: a panic in rapier's accessors on a crafted
//! payload becomes `Undecodable("panic while decoding: …")`). So, by default, the targets replace
//! the hook while a restore runs: a panic there is logged once per source location and process
//! (with the input saved under `caught/<target>/`) and left to the wrapper to catch; every other panic — one
//! that escapes `restore_into`, one in `step`, an assertion of a target — still aborts with
//! libFuzzer's stack trace and crash artifact. With `PINNED_FUZZ_STRICT=1` the hook is left
//! alone: every panic, caught or not, is a crash.

use rapier3d::prelude::*;
use rapier_pinned::{PinnedWorld, SnapshotKey, WorldConfig};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::{Mutex, Once};

/// The physics-version of the target world.
pub const VERSION: u32 = 2;
/// Its match id.
pub const MATCH_ID: u64 = 7;

/// The target world's config.
pub fn config() -> WorldConfig {
    WorldConfig::new(VERSION)
        .expect("physics-version 2")
        .with_match_id(MATCH_ID)
}

/// The fleet key authenticated inputs are sealed with.
pub fn key() -> SnapshotKey {
    SnapshotKey::new([0xa5; 32])
}

/// A small world that still holds one of most things a snapshot can carry: a fixed ground,
/// dynamic bodies with a cuboid, ball, capsule, cylinder, cone, convex hull, compound and a
/// round cuboid, a trimesh and a heightfield on fixed bodies, a kinematic body, a sensor, a
/// sleeping body, a CCD body, a revolute impulse joint and a two-link multibody. Stepped `steps`
/// times under [`config`].
pub fn small_world(steps: usize) -> PinnedWorld {
    let mut w = PinnedWorld::new(config());
    let ground = w.insert_body(RigidBodyBuilder::fixed());
    w.insert_collider(
        ColliderBuilder::cuboid(20.0, 0.1, 20.0).translation(Vector::new(0.0, -0.1, 0.0)),
        Some(ground),
    );
    let shapes: Vec<ColliderBuilder> = vec![
        ColliderBuilder::cuboid(0.5, 0.5, 0.5),
        ColliderBuilder::ball(0.4).restitution(0.5),
        ColliderBuilder::capsule_y(0.3, 0.2),
        ColliderBuilder::cylinder(0.3, 0.4),
        ColliderBuilder::cone(0.3, 0.4),
        ColliderBuilder::convex_hull(&[
            Vector::new(0.0, 0.0, 0.0),
            Vector::new(0.6, 0.0, 0.0),
            Vector::new(0.0, 0.6, 0.0),
            Vector::new(0.0, 0.0, 0.6),
            Vector::new(0.4, 0.4, 0.4),
        ])
        .expect("convex hull"),
        ColliderBuilder::compound(vec![
            (
                Pose::from_translation(Vector::new(-0.3, 0.0, 0.0)),
                SharedShape::cuboid(0.2, 0.2, 0.2),
            ),
            (
                Pose::from_translation(Vector::new(0.3, 0.0, 0.0)),
                SharedShape::ball(0.2),
            ),
        ]),
        ColliderBuilder::round_cuboid(0.3, 0.2, 0.3, 0.05),
    ];
    for (i, shape) in shapes.into_iter().enumerate() {
        let x = (i % 4) as f32 * 1.5 - 2.25;
        let y = 0.6 + (i / 4) as f32 * 1.2;
        let mut body = RigidBodyBuilder::dynamic().translation(Vector::new(x, y, 0.0));
        if i == 1 {
            body = body.ccd_enabled(true).linvel(Vector::new(0.0, -20.0, 0.0));
        }
        let h = w.insert_body(body);
        w.insert_collider(shape.friction(0.7), Some(h));
    }
    // A sleeping body away from the rest.
    let sleeper = w.insert_body(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(6.0, 0.5, 6.0))
            .sleeping(true),
    );
    w.insert_collider(ColliderBuilder::cuboid(0.5, 0.5, 0.5), Some(sleeper));
    // A fixed trimesh ramp and a heightfield patch.
    let ramp = w.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(-6.0, 0.0, 0.0)));
    w.insert_collider(
        ColliderBuilder::trimesh(
            vec![
                Vector::new(-1.0, 0.0, -1.0),
                Vector::new(1.0, 0.0, -1.0),
                Vector::new(1.0, 1.0, 1.0),
                Vector::new(-1.0, 1.0, 1.0),
            ],
            vec![[0, 1, 2], [0, 2, 3]],
        )
        .expect("trimesh"),
        Some(ramp),
    );
    let field = w.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(6.0, 0.0, -6.0)));
    w.insert_collider(
        ColliderBuilder::heightfield(
            rapier3d::geometry::Array2::new(
                3,
                3,
                vec![0.0, 0.1, 0.0, 0.1, 0.0, 0.1, 0.0, 0.1, 0.0],
            ),
            Vector::new(2.0, 1.0, 2.0),
        ),
        Some(field),
    );
    let ball_on_field =
        w.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(6.0, 0.6, -6.0)));
    w.insert_collider(ColliderBuilder::ball(0.3), Some(ball_on_field));
    // A kinematic paddle and a sensor it sweeps through.
    let paddle = w.insert_body(
        RigidBodyBuilder::kinematic_velocity_based()
            .translation(Vector::new(0.0, 0.5, 4.0))
            .linvel(Vector::new(1.0, 0.0, 0.0)),
    );
    w.insert_collider(ColliderBuilder::cuboid(0.2, 0.2, 0.2), Some(paddle));
    w.insert_collider(
        ColliderBuilder::ball(1.0)
            .sensor(true)
            .translation(Vector::new(0.5, 0.5, 4.0)),
        None,
    );
    // A pendulum on a revolute impulse joint.
    let anchor = w.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(0.0, 4.0, -4.0)));
    let bob = w.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(1.0, 4.0, -4.0)));
    w.insert_collider(ColliderBuilder::ball(0.2), Some(bob));
    w.insert_impulse_joint(
        anchor,
        bob,
        RevoluteJointBuilder::new(Vector::Z).local_anchor2(Vector::new(-1.0, 0.0, 0.0)),
    );
    // A two-link multibody chain.
    let root = w.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(-4.0, 4.0, -4.0)));
    let mut prev = root;
    for k in 1..=2 {
        let link = w.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(
            -4.0 + k as f32 * 0.8,
            4.0,
            -4.0,
        )));
        w.insert_collider(ColliderBuilder::cuboid(0.3, 0.1, 0.1), Some(link));
        w.insert_multibody_joint(
            prev,
            link,
            SphericalJointBuilder::new().local_anchor2(Vector::new(-0.8, 0.0, 0.0)),
        )
        .expect("multibody joint");
        prev = link;
    }
    for _ in 0..steps {
        w.step();
    }
    w
}

/// Ticks of the base worlds a `restore_then_step` input can pick.
pub const BASE_TICKS: [usize; 2] = [3, 40];

thread_local! {
    static IN_RESTORE: Cell<bool> = const { Cell::new(false) };
    static NEW_CAUGHT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Panics seen inside a restore, by source location: (count, first message).
static CAUGHT: Mutex<BTreeMap<String, (u64, String)>> = Mutex::new(BTreeMap::new());

/// Installs the panic policy of the module docs (once; nothing with `PINNED_FUZZ_STRICT=1`).
pub fn install_panic_policy() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("PINNED_FUZZ_STRICT").is_some_and(|v| v != "0") {
            eprintln!("pinned-fuzz: strict: every panic, caught or not, is a crash");
            return;
        }
        let abort_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_RESTORE.with(Cell::get) {
                abort_hook(info); // libfuzzer-sys's: prints, then aborts
                return;
            }
            let place = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let mut caught = CAUGHT.lock().unwrap_or_else(|e| e.into_inner());
            let entry = caught.entry(place.clone()).or_insert((0, msg.clone()));
            entry.0 += 1;
            if entry.0 == 1 {
                NEW_CAUGHT.with(|c| *c.borrow_mut() = Some(place.clone()));
                eprintln!(
                    "pinned-fuzz: panic inside restore (caught by the wrapper), new location \
                     #{}: {place}: {msg}\n{}",
                    caught.len(),
                    std::backtrace::Backtrace::force_capture()
                );
            }
        }));
    });
}

/// Runs a restore with the panic policy; if it hit a panic at a new location, saves `input`
/// as `caught/<target>/<file>_<line>-<hash of the input>` (unique across fork-mode jobs).
pub fn in_restore<R>(target: &str, input: &[u8], f: impl FnOnce() -> R) -> R {
    IN_RESTORE.with(|c| c.set(true));
    let r = f();
    IN_RESTORE.with(|c| c.set(false));
    if let Some(place) = NEW_CAUGHT.with(|c| c.borrow_mut().take()) {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        input.hash(&mut h);
        let place: String = place
            .rsplit('/')
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let dir = std::path::Path::new("caught").join(target);
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{place}-{:016x}", h.finish()));
        match std::fs::write(&path, input) {
            Ok(()) => eprintln!("pinned-fuzz: input saved to {}", path.display()),
            Err(e) => eprintln!("pinned-fuzz: could not save the input: {e}"),
        }
    }
    r
}

/// Writes seed inputs to `$PINNED_FUZZ_SEEDS` (a directory) when that variable is set: `seeds`
/// gives (file name, bytes). Used by `seed.sh`.
pub fn write_seeds(seeds: impl FnOnce() -> Vec<(String, Vec<u8>)>) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let Some(dir) = std::env::var_os("PINNED_FUZZ_SEEDS") else {
            return;
        };
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("seed dir");
        for (name, bytes) in seeds() {
            std::fs::write(dir.join(&name), &bytes).expect("write seed");
            eprintln!("pinned-fuzz: seed {name}: {} bytes", bytes.len());
        }
    });
}
