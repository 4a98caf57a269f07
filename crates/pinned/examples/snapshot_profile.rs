//! One snapshot operation on a catalog scene, for callgrind: where a save and a validated restore
//! spend their instructions (`docs/snapshot-cost.md`, "Where the last three gates stand").
//!
//! ```text
//! cargo build --release --locked -p rapier-pinned --example snapshot_profile
//! valgrind --tool=callgrind --toggle-collect='*profiled*' \
//!     target/release/examples/snapshot_profile mixed_5000 30 restore3
//! callgrind_annotate --inclusive=yes callgrind.out.<pid>
//! ```
//!
//! The scene is built, stepped and saved outside the collected function, so the counts are the
//! operation's alone: `decode` (the issue's baseline, a plain bincode decode of the format-1
//! payload), `restore1` and `restore3` (`PinnedWorld::restore_on` of a format-1 or format-3
//! snapshot: framing, checksum, decompression and expansion, decode, every check), `save1` and
//! `save3` (`PinnedWorld::snapshot` and `snapshot_linked`), under the current physics-version.

use bincode::Options;
use rapier_pinned::{PinnedWorld, WorldConfig, HEADER_LEN, PHYSICS_VERSION_CURRENT};

/// The measured operation; the only function callgrind collects.
#[inline(never)]
fn profiled(op: &str, config: WorldConfig, world: &PinnedWorld, f1: &[u8], f3: &[u8]) {
    match op {
        "decode" => {
            let payload = &f1[HEADER_LEN..];
            drop(
                bincode::DefaultOptions::new()
                    .with_fixint_encoding()
                    .with_little_endian()
                    .with_limit(payload.len() as u64)
                    .reject_trailing_bytes()
                    .deserialize::<rapier3d::prelude::PhysicsWorld>(payload)
                    .expect("decodes"),
            )
        }
        "restore1" => drop(PinnedWorld::restore_on(config, None, f1, None).expect("restores")),
        "restore3" => drop(PinnedWorld::restore_on(config, None, f3, None).expect("restores")),
        "save1" => drop(world.snapshot(None)),
        "save3" => drop(world.snapshot_linked(None, None).expect("no level")),
        _ => panic!("operation: decode, restore1, restore3, save1 or save3"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, scene, steps, op] = &args[..] else {
        panic!("usage: snapshot_profile SCENE STEPS decode|restore1|restore3|save1|save3");
    };
    let config = WorldConfig::new(PHYSICS_VERSION_CURRENT).expect("current physics-version");
    let scene = rapier_pinned_scenes::find(scene).expect("a catalog scene");
    let mut world = PinnedWorld::adopt(config, scene.build(config.params())).expect("adopts");
    for _ in 0..steps.parse::<usize>().expect("steps") {
        world.step();
    }
    let f1 = world.snapshot(None);
    let f3 = world.snapshot_linked(None, None).expect("no level");
    profiled(op, config, &world, &f1, &f3);
}
