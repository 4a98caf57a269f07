//! Snapshot cost: what the pinned snapshot format and its checks cost over a plain bincode world.
//!
//! `cargo bench -p rapier-pinned --bench snapshot` prints, for `pyramid` (after its 200 steps) and
//! `mixed_5000` (after its 30 steps), both under physics-version 1 and adopted with
//! `PinnedWorld::adopt`, the median wall-clock time of:
//! - encode: plain `bincode::serialize(&PhysicsWorld)` vs `PinnedWorld::snapshot` (unauthenticated
//!   and with a key);
//! - decode: plain `bincode::deserialize::<PhysicsWorld>` vs `PinnedWorld::restore` (framing,
//!   checksum, decode, parameter diff, structural and finiteness checks; unauthenticated and with
//!   a key);
//! - the pieces of a restore: `inspect` (framing + checksum: the BLAKE3 pass), the codec's decode
//!   alone (bincode with a read limit and no trailing bytes), and `PinnedWorld::adopt` on an
//!   already-decoded world (parameter diff + structural + finiteness checks). A restore is about
//!   the sum of the three (both sums are printed, with and without the hash);
//! - bytes: total, and per body, plain and framed (the header is 128 bytes).
//!
//! Style as `rapier-pinned bench` (docs/benchmarks.md): `harness = false`, plain `std::time::Instant`,
//! every measured operation timed once per round with the rounds interleaved (so drift and the
//! other builds sharing this 2-core machine hit every operation alike; the order rotates each
//! round), medians (and minimums, printed too). No criterion: the
//! question is one ratio (checked restore over plain decode, aim ≤ +10%) on whole worlds that
//! take milliseconds, not a regression detector for nanosecond functions; the project's one other
//! benchmark works the same way; and it keeps criterion's dependency tree out of the lockfile.
//!
//! A second part measures **size and compression** (`docs/snapshot-cost.md`, "Size"): for the
//! catalog scenes `pyramid` (after 60 steps), `arena` (after 120) and `mixed_5000` (after 30)
//! under the current physics-version, bytes per body of the payload as it is, LZ4-compressed
//! (snapshot format 2, `PinnedWorld::snapshot_compressed`) and deflated (`miniz_oxide` levels 1
//! and 6, the better-ratio alternative that was measured, a dev-dependency only); the bincode
//! size of every serialized `PhysicsWorld` field (alone and LZ4-compressed alone); and the
//! medians of `snapshot` vs `snapshot_compressed`, `restore` of each, and each codec's
//! compression and decompression of the payload alone.
//!
//! A third part measures **snapshot format 3** (`linked`; `docs/snapshot-cost.md`, "Format 3"):
//! for `pyramid` (60 steps), `arena` (120), `mixed_5000` (30) and the level scene
//! `trimesh_level` (60 steps, on its level: a 50,562-triangle terrain and a rock), bytes per body
//! of formats 1, 2 and 3, and the medians of each format's save and validated restore (with and
//! without a MAC) against a plain decode of format 1.
//!
//! A fourth part measures **delta snapshots** (format 4, `delta`; `docs/snapshot-cost.md`,
//! "Deltas"): `pyramid` and `arena` after 60 steps and 120, `trimesh_level` after its steps and
//! after 300, then one second more: bytes per body of the same tick's format 3 and of its delta against the
//! baseline of one second earlier, and the medians of the delta's save and validated restore
//! (with and without a MAC).
//!
//! Any non-`--` argument is a scene-name filter (`cargo bench -p rapier-pinned --bench snapshot
//! -- pyramid`); `overhead`, `sizes`, `linked` or `delta` runs only that part.

use std::time::Instant;

use bincode::Options;
use rapier3d::prelude::*;
use rapier_pinned::testing::{compress_payload, decompress_payload, encode_world};
use rapier_pinned::{
    inspect, Level, PhysicsVersion, PinnedWorld, SnapshotKey, WorldConfig, HEADER_LEN,
    PHYSICS_VERSION_CURRENT,
};

/// Interleaved rounds for a scene whose plain decode takes about a millisecond (`pyramid`), and
/// for one that takes tens (`mixed_5000`); odd, so the median is one of the samples.
const ROUNDS_SMALL: usize = 201;
const ROUNDS_LARGE: usize = 101;
/// The aim of `docs/protocol.md` §3: a checked restore at most 10% over a plain decode.
const AIM: f64 = 0.10;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// One measured operation: `run` does the work once and returns what it built, which is dropped
/// after the clock stops (dropping a world is not part of any operation measured here).
struct Op<'a> {
    name: &'static str,
    run: Box<dyn FnMut() -> Box<dyn std::any::Any> + 'a>,
    /// Milliseconds, one call per round.
    samples: Vec<f64>,
}

impl<'a> Op<'a> {
    fn new<T: 'static>(name: &'static str, mut f: impl FnMut() -> T + 'a) -> Self {
        Self {
            name,
            run: Box::new(move || Box::new(f()) as Box<dyn std::any::Any>),
            samples: Vec::new(),
        }
    }

    /// One call; its result is dropped outside the clock. A sample is a single call, never a
    /// batch: on this shared 2-core machine a batch longer than a scheduler slice nearly always
    /// contains a preemption, while a single millisecond call often does not, so batching makes
    /// the medians of short and long operations incomparable.
    fn sample(&mut self) -> f64 {
        let start = Instant::now();
        let result = (self.run)();
        let secs = start.elapsed().as_secs_f64();
        drop(result);
        secs * 1e3
    }

    fn median_ms(&self) -> f64 {
        median(self.samples.clone())
    }

    fn min_ms(&self) -> f64 {
        self.samples.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

/// The codec's decode (`crates/pinned/src/codec.rs`, private) spelled out: `bincode::serialize`'s
/// encoding plus a read limit and no trailing bytes.
fn codec_decode(payload: &[u8]) -> PhysicsWorld {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_little_endian()
        .with_limit(payload.len() as u64)
        .reject_trailing_bytes()
        .deserialize(payload)
        .expect("decodes")
}

/// Measures one scene and prints its table; returns whether the aim is met.
fn bench_scene(name: &str, steps: Option<usize>) -> bool {
    let scene = rapier_pinned_scenes::find(name).expect("catalog scene");
    let steps = steps.unwrap_or(scene.steps);
    let config = WorldConfig::new(PhysicsVersion::V1).expect("physics-version 1");
    let mut world = PinnedWorld::adopt(config, scene.build(config.params())).expect("adopt");
    for _ in 0..steps {
        world.step();
    }
    let key = SnapshotKey::new([0x5a; 32]);
    let plain = bincode::serialize(world.world()).expect("serialize");
    let snap = world.snapshot(None);
    let snap_mac = world.snapshot(Some(&key));
    assert_eq!(&snap[HEADER_LEN..], &plain[..], "payload = plain bincode");
    assert_eq!(snap.len(), plain.len() + HEADER_LEN);
    let bodies = world.bodies().len();
    let colliders = world.colliders().len();

    let w = world.world();
    let mut ops = vec![
        Op::new("plain serialize", || bincode::serialize(w).unwrap()),
        Op::new("snapshot", || world.snapshot(None)),
        Op::new("snapshot + MAC", || world.snapshot(Some(&key))),
        Op::new("plain deserialize", || {
            bincode::deserialize::<PhysicsWorld>(&plain).unwrap()
        }),
        Op::new("restore", || {
            PinnedWorld::restore(config, &snap, None).unwrap()
        }),
        Op::new("restore + MAC", || {
            PinnedWorld::restore(config, &snap_mac, Some(&key)).unwrap()
        }),
        Op::new("  inspect (checksum)", || inspect(&snap).unwrap()),
        Op::new("  codec decode", || codec_decode(&snap[HEADER_LEN..])),
        // The same plain decode as above, reading the snapshot's payload slice instead of the
        // plain buffer: separates the decoder options from the input buffer.
        Op::new("  plain deser. (payload)", || {
            bincode::deserialize::<PhysicsWorld>(&snap[HEADER_LEN..]).unwrap()
        }),
    ];
    // `adopt` consumes a world: each call gets a fresh decode, made before its clock starts.
    let mut adopt = Op::new("  adopt (validate)", || ());
    let time_adopt = || {
        let decoded = codec_decode(&plain);
        let start = Instant::now();
        let adopted = PinnedWorld::adopt(config, decoded).unwrap();
        let ms = start.elapsed().as_secs_f64() * 1e3;
        drop(adopted);
        ms
    };
    let rounds = if bodies > 1000 {
        ROUNDS_LARGE
    } else {
        ROUNDS_SMALL
    };
    // Warm-up: one call of each.
    for op in &mut ops {
        op.sample();
    }
    time_adopt();
    // Round r starts at operation r mod n: what ran just before an operation (and what it left
    // in the allocator) rotates, instead of always being the same neighbour.
    let n = ops.len() + 1;
    for r in 0..rounds {
        for i in 0..n {
            match (r + i) % n {
                k if k < ops.len() => {
                    let s = ops[k].sample();
                    ops[k].samples.push(s);
                }
                _ => adopt.samples.push(time_adopt()),
            }
        }
    }
    ops.push(adopt);
    let ms = |n: &str| ops.iter().find(|o| o.name == n).unwrap().median_ms();

    println!(
        "\n{name} after {steps} steps (physics-version 1): {bodies} bodies, {colliders} colliders; \
         {rounds} interleaved rounds"
    );
    println!(
        "  bytes: plain {} ({:.1} per body), snapshot {} ({:.1} per body; header {HEADER_LEN})",
        plain.len(),
        plain.len() as f64 / bodies as f64,
        snap.len(),
        snap.len() as f64 / bodies as f64,
    );
    println!(
        "  {:<22} {:>10} {:>10}   median vs plain",
        "operation", "median ms", "min ms"
    );
    let row = |n: &str, base: Option<&str>| {
        let op = ops.iter().find(|o| o.name == n).unwrap();
        let m = op.median_ms();
        let ratio = base
            .map(|b| format!("{:.3}x ({:+.1}%)", m / ms(b), (m / ms(b) - 1.0) * 100.0))
            .unwrap_or_default();
        println!("  {:<22} {:>10.4} {:>10.4}   {}", n, m, op.min_ms(), ratio);
    };
    row("plain serialize", None);
    row("snapshot", Some("plain serialize"));
    row("snapshot + MAC", Some("plain serialize"));
    row("plain deserialize", None);
    row("restore", Some("plain deserialize"));
    row("restore + MAC", Some("plain deserialize"));
    row("  inspect (checksum)", Some("plain deserialize"));
    row("  codec decode", Some("plain deserialize"));
    row("  plain deser. (payload)", Some("plain deserialize"));
    row("  adopt (validate)", Some("plain deserialize"));
    let restore = ms("restore");
    let critical = ms("  codec decode") + ms("  adopt (validate)");
    let pieces = ms("  inspect (checksum)") + critical;
    println!(
        "  pieces: checksum + codec decode + validate = {pieces:.4} ms ({:.1}% of restore); \
         codec decode + validate (all a restore does but the hash) = {critical:.4} ms ({:.1}%)",
        pieces / restore * 100.0,
        critical / restore * 100.0
    );
    // The verdict's baseline is the faster of the two plain decodes (same decoder, same bytes,
    // two buffers): decoding from the separate `plain` Vec measures slower than from the
    // snapshot's payload slice on this machine (buffer placement), which would flatter restore.
    let plain_de = ms("plain deserialize").min(ms("  plain deser. (payload)"));
    let overhead = restore / plain_de - 1.0;
    let overhead_mac = ms("restore + MAC") / plain_de - 1.0;
    let met = overhead <= AIM;
    println!(
        "  restore over the codec's own decode (same decoder options): {:+.1}%",
        (restore / ms("  codec decode") - 1.0) * 100.0
    );
    println!(
        "  validation overhead (medians, baseline = faster plain decode {plain_de:.4} ms): \
         restore {:+.1}%, restore + MAC {:+.1}% (aim <= {:+.0}%): {}",
        overhead * 100.0,
        overhead_mac * 100.0,
        AIM * 100.0,
        if met { "aim met" } else { "aim NOT met" }
    );
    met
}

/// Interleaved rounds of the size part: small scenes, and `mixed_5000`.
const SIZE_ROUNDS_SMALL: usize = 101;
const SIZE_ROUNDS_LARGE: usize = 21;

/// The bincode size of each serialized field of a `PhysicsWorld`, in field order.
fn field_sizes(w: &PhysicsWorld) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("gravity", encode_world_part(&w.gravity)),
        (
            "integration_parameters",
            encode_world_part(&w.integration_parameters),
        ),
        ("islands", encode_world_part(&w.islands)),
        ("broad_phase", encode_world_part(&w.broad_phase)),
        ("narrow_phase", encode_world_part(&w.narrow_phase)),
        ("bodies", encode_world_part(&w.bodies)),
        ("colliders", encode_world_part(&w.colliders)),
        ("impulse_joints", encode_world_part(&w.impulse_joints)),
        ("multibody_joints", encode_world_part(&w.multibody_joints)),
        ("soft_bodies", encode_world_part(&w.soft_bodies)),
    ]
}

/// One field as the payload encodes it (`bincode::serialize`'s encoding).
fn encode_world_part<T: serde::Serialize>(value: &T) -> Vec<u8> {
    bincode::serialize(value).expect("serialize")
}

fn deflate(payload: &[u8], level: u8) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec(payload, level)
}

fn inflate(stored: &[u8], limit: usize) -> Vec<u8> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(stored, limit).expect("inflates")
}

/// The size part for one scene: bytes, breakdown, and timings. Returns the table row.
fn size_scene(name: &str, steps: usize) -> String {
    let scene = rapier_pinned_scenes::find(name).expect("catalog scene");
    let config = WorldConfig::new(PHYSICS_VERSION_CURRENT).expect("current physics-version");
    let mut world = PinnedWorld::adopt(config, scene.build(config.params())).expect("adopt");
    for _ in 0..steps {
        world.step();
    }
    let bodies = world.bodies().len();
    let per_body = |n: usize| n as f64 / bodies as f64;
    let payload = encode_world(world.world());
    let snap = world.snapshot(None);
    let compressed = world.snapshot_compressed(None);
    let lz4 = compress_payload(&payload);
    let deflate1 = deflate(&payload, 1);
    let deflate6 = deflate(&payload, 6);
    assert_eq!(&compressed[HEADER_LEN..], &lz4[..]);
    assert_eq!(decompress_payload(&lz4).unwrap(), payload);
    assert_eq!(inflate(&deflate6, payload.len()), payload);

    println!(
        "\n{name} after {steps} steps (physics-version {PHYSICS_VERSION_CURRENT}): {bodies} bodies, \
         {} colliders",
        world.colliders().len()
    );
    println!(
        "  payload: plain {} B ({:.1} per body), LZ4 {} B ({:.1} per body, {:.2}x), deflate-1 {} B \
         ({:.1}, {:.2}x), deflate-6 {} B ({:.1}, {:.2}x); header {HEADER_LEN} B",
        payload.len(),
        per_body(payload.len()),
        lz4.len(),
        per_body(lz4.len()),
        payload.len() as f64 / lz4.len() as f64,
        deflate1.len(),
        per_body(deflate1.len()),
        payload.len() as f64 / deflate1.len() as f64,
        deflate6.len(),
        per_body(deflate6.len()),
        payload.len() as f64 / deflate6.len() as f64,
    );
    println!(
        "  {:<24} {:>10} {:>9} {:>7}   {:>9}",
        "field", "bytes", "B/body", "share", "LZ4 alone"
    );
    let fields = field_sizes(world.world());
    let total: usize = fields.iter().map(|(_, b)| b.len()).sum();
    assert_eq!(total, payload.len(), "the fields are the payload");
    for (field, bytes) in &fields {
        println!(
            "  {:<24} {:>10} {:>9.1} {:>6.1}%   {:>9.1}",
            field,
            bytes.len(),
            per_body(bytes.len()),
            bytes.len() as f64 / total as f64 * 100.0,
            per_body(compress_payload(bytes).len()),
        );
    }

    let len = payload.len();
    let mut ops = vec![
        Op::new("snapshot", || world.snapshot(None)),
        Op::new("snapshot_compressed", || world.snapshot_compressed(None)),
        Op::new("restore", || {
            PinnedWorld::restore(config, &snap, None).unwrap()
        }),
        Op::new("restore (compressed)", || {
            PinnedWorld::restore(config, &compressed, None).unwrap()
        }),
        Op::new("  LZ4 compress", || compress_payload(&payload)),
        Op::new("  LZ4 decompress", || decompress_payload(&lz4).unwrap()),
        Op::new("  deflate-1 compress", || deflate(&payload, 1)),
        Op::new("  deflate-1 decompress", || inflate(&deflate1, len)),
        Op::new("  deflate-6 compress", || deflate(&payload, 6)),
        Op::new("  deflate-6 decompress", || inflate(&deflate6, len)),
    ];
    let rounds = if bodies > 1000 {
        SIZE_ROUNDS_LARGE
    } else {
        SIZE_ROUNDS_SMALL
    };
    interleave(&mut ops, rounds);
    let ms = |n: &str| ops.iter().find(|o| o.name == n).unwrap().median_ms();
    println!("  {:<24} {:>10} {:>10}", "operation", "median ms", "min ms");
    for op in &ops {
        println!(
            "  {:<24} {:>10.4} {:>10.4}",
            op.name,
            op.median_ms(),
            op.min_ms()
        );
    }
    let plain_total = ms("snapshot") + ms("restore");
    let lz4_total = ms("snapshot_compressed") + ms("restore (compressed)");
    let deflate_total = |level: &str| {
        plain_total
            + ms(&format!("  deflate-{level} compress"))
            + ms(&format!("  deflate-{level} decompress"))
    };
    println!(
        "  save + restore: plain {plain_total:.3} ms, LZ4 {lz4_total:.3} ms ({:.2}x); deflate-1 \
         ~{:.3} ms ({:.2}x), deflate-6 ~{:.3} ms ({:.2}x) (plain + the codec alone)",
        lz4_total / plain_total,
        deflate_total("1"),
        deflate_total("1") / plain_total,
        deflate_total("6"),
        deflate_total("6") / plain_total,
    );
    format!(
        "{name:<11} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>7.2}x",
        per_body(payload.len()),
        per_body(lz4.len()),
        per_body(deflate1.len()),
        per_body(deflate6.len()),
        ms("snapshot"),
        ms("snapshot_compressed"),
        ms("restore"),
        ms("restore (compressed)"),
        lz4_total / plain_total,
    )
}

/// One warm-up call of each op, then `rounds` rounds of one sample each, the order rotating each
/// round (so drift and other load hit every op alike).
fn interleave(ops: &mut [Op], rounds: usize) {
    for op in ops.iter_mut() {
        op.sample();
    }
    let n = ops.len();
    for r in 0..rounds {
        for i in 0..n {
            let k = (r + i) % n;
            let s = ops[k].sample();
            ops[k].samples.push(s);
        }
    }
}

/// A world of the current physics-version after `steps` steps: a catalog scene, or the level
/// scene `trimesh_level` on its level.
fn current_world(name: &str, steps: usize) -> (PinnedWorld, Option<Level>) {
    let config = WorldConfig::new(PHYSICS_VERSION_CURRENT).expect("current physics-version");
    let (world, level) = if name == "trimesh_level" {
        let (built, shapes) = rapier_pinned_scenes::trimesh_level(config.params());
        let level = Level::new(shapes).expect("serializable shapes");
        let config = config.with_level(level.id());
        (PinnedWorld::adopt(config, built), Some(level))
    } else {
        let scene = rapier_pinned_scenes::find(name).expect("catalog scene");
        (
            PinnedWorld::adopt(config, scene.build(config.params())),
            None,
        )
    };
    let mut world = world.expect("adopt");
    for _ in 0..steps {
        world.step();
    }
    (world, level)
}

/// The format-3 part for one scene; returns the table row and format 3's bytes per body.
fn linked_scene(name: &str, steps: usize) -> (String, f64) {
    let (world, level) = current_world(name, steps);
    let level = level.as_ref();
    let config = *world.config();
    let key = SnapshotKey::new([0x5a; 32]);
    let bodies = world.bodies().len();
    let per_body = |n: usize| n as f64 / bodies as f64;
    let f1 = world.snapshot(None);
    let f2 = world.snapshot_compressed(None);
    let f3 = world
        .snapshot_linked(level, None)
        .expect("the config's level");
    let f3_mac = world.snapshot_linked(level, Some(&key)).unwrap();
    let restored = PinnedWorld::restore_on(config, level, &f3, None).unwrap();
    assert_eq!(
        restored.snapshot(None),
        f1,
        "format 3 restores format 1's world"
    );
    let payload = &f1[HEADER_LEN..];
    let mut ops = vec![
        Op::new("plain decode (format 1)", || codec_decode(payload)),
        Op::new("save format 1", || world.snapshot(None)),
        Op::new("save format 2", || world.snapshot_compressed(None)),
        Op::new("save format 3", || {
            world.snapshot_linked(level, None).unwrap()
        }),
        Op::new("restore format 1", || {
            PinnedWorld::restore(config, &f1, None).unwrap()
        }),
        Op::new("restore format 2", || {
            PinnedWorld::restore(config, &f2, None).unwrap()
        }),
        Op::new("restore format 3", || {
            PinnedWorld::restore_on(config, level, &f3, None).unwrap()
        }),
        Op::new("restore format 3, MAC", || {
            PinnedWorld::restore_on(config, level, &f3_mac, Some(&key)).unwrap()
        }),
    ];
    let rounds = if bodies > 1000 { 21 } else { 101 };
    interleave(&mut ops, rounds);
    let ms = |n: &str| ops.iter().find(|o| o.name == n).unwrap().median_ms();
    println!(
        "\n{name} after {steps} steps (physics-version {PHYSICS_VERSION_CURRENT}): {bodies} \
         bodies{}",
        level.map_or(String::new(), |l| format!(
            ", on a level of {} B",
            l.bytes().len()
        ))
    );
    for op in &ops {
        println!(
            "  {:<26} {:>10.4} ms median {:>10.4} min",
            op.name,
            op.median_ms(),
            op.min_ms()
        );
    }
    let decode = ms("plain decode (format 1)");
    let row = format!(
        "{name:<14} {:>9.1} {:>9.1} {:>9.1} {:>9.2}x {:>9.2}x {:>9.2}x {:>9.2}x",
        per_body(f1.len()),
        per_body(f2.len()),
        per_body(f3.len()),
        ms("save format 3") / ms("save format 1"),
        ms("restore format 1") / decode,
        ms("restore format 3") / decode,
        ms("restore format 3, MAC") / decode,
    );
    (row, per_body(f3.len()))
}

/// The delta part for one scene: `steps` steps, a baseline, one second of steps more; returns
/// the table row.
fn delta_scene(name: &str, steps: usize) -> String {
    let (mut world, level) = current_world(name, steps);
    let level = level.as_ref();
    let config = *world.config();
    let baseline = world.baseline();
    let second = (1.0 / config.params().dt).round() as usize;
    for _ in 0..second {
        world.step();
    }
    let bodies = world.bodies().len();
    let per_body = |n: usize| n as f64 / bodies as f64;
    let f1 = world.snapshot(None);
    let f3 = world.snapshot_linked(level, None).unwrap();
    let f4 = world.snapshot_delta(&baseline, None);
    let key = SnapshotKey::new([0x5a; 32]);
    let f4_mac = world.snapshot_delta(&baseline, Some(&key));
    let restored = PinnedWorld::restore_delta(config, &baseline, &f4, None).unwrap();
    assert_eq!(
        restored.snapshot(None),
        f1,
        "a delta restores format 1's world"
    );
    let payload = &f1[HEADER_LEN..];
    let mut ops = vec![
        Op::new("plain decode (format 1)", || codec_decode(payload)),
        Op::new("save format 1", || world.snapshot(None)),
        Op::new("save delta", || world.snapshot_delta(&baseline, None)),
        Op::new("restore delta", || {
            PinnedWorld::restore_delta(config, &baseline, &f4, None).unwrap()
        }),
        Op::new("restore delta, MAC", || {
            PinnedWorld::restore_delta(config, &baseline, &f4_mac, Some(&key)).unwrap()
        }),
    ];
    interleave(&mut ops, 51);
    let ms = |n: &str| ops.iter().find(|o| o.name == n).unwrap().median_ms();
    format!(
        "{name:<14} {:>6} {:>9.1} {:>9.1} {:>9.3} {:>9.2}x {:>9.2}x {:>9.2}x",
        world.tick(),
        per_body(f3.len()),
        per_body(f4.len()),
        f4.len() as f64 / f3.len() as f64,
        ms("save delta") / ms("save format 1"),
        ms("restore delta") / ms("plain decode (format 1)"),
        ms("restore delta, MAC") / ms("plain decode (format 1)"),
    )
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a scene-name filter, or a part.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let parts: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| matches!(*a, "overhead" | "sizes" | "linked" | "delta"))
        .collect();
    let filter: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !matches!(*a, "overhead" | "sizes" | "linked" | "delta"))
        .collect();
    let part = |p: &str| parts.is_empty() || parts.contains(&p);
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f));
    if part("overhead") {
        let mut all = true;
        for (name, steps) in [("pyramid", None), ("mixed_5000", None)] {
            if wanted(name) {
                all &= bench_scene(name, steps);
            }
        }
        println!(
            "\noverall (unauthenticated restore vs plain decode, every scene): {}",
            if all { "aim met" } else { "aim NOT met" }
        );
    }
    if part("sizes") {
        let mut rows = Vec::new();
        for (name, steps) in [("pyramid", 60), ("arena", 120), ("mixed_5000", 30)] {
            if wanted(name) {
                rows.push(size_scene(name, steps));
            }
        }
        println!(
            "\nsizes (B/body of the payload) and medians (ms), physics-version \
             {PHYSICS_VERSION_CURRENT}:"
        );
        println!(
            "{:<11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8}",
            "scene",
            "plain",
            "LZ4",
            "deflate1",
            "deflate6",
            "save",
            "save LZ4",
            "restore",
            "rest. LZ4",
            "LZ4/plain"
        );
        for row in rows {
            println!("{row}");
        }
    }
    if part("linked") {
        let mut rows = Vec::new();
        let scenes = [
            ("pyramid", 60),
            ("arena", 120),
            ("mixed_5000", 30),
            ("trimesh_level", rapier_pinned_scenes::LEVEL_STEPS),
        ];
        for (name, steps) in scenes {
            if wanted(name) {
                rows.push((name, linked_scene(name, steps)));
            }
        }
        println!(
            "\nformat 3 (B/body of the whole snapshot; times as ratios), physics-version \
             {PHYSICS_VERSION_CURRENT}:"
        );
        println!(
            "{:<14} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10}",
            "scene",
            "format 1",
            "format 2",
            "format 3",
            "save 3/1",
            "rest.1/dec",
            "rest.3/dec",
            "+MAC/dec"
        );
        for (_, (row, _)) in &rows {
            println!("{row}");
        }
        let per_body = |n: &str| rows.iter().find(|r| r.0 == n).map(|r| r.1 .1);
        if let (Some(level), Some(pyramid)) = (per_body("trimesh_level"), per_body("pyramid")) {
            println!(
                "trimesh_level / pyramid, format 3 B/body: {:.2}x (gate <= 2)",
                level / pyramid
            );
        }
    }
    if part("delta") {
        let mut rows = Vec::new();
        let scenes = [
            ("pyramid", 60),
            ("arena", 120),
            ("trimesh_level", rapier_pinned_scenes::LEVEL_STEPS),
            ("trimesh_level", 300),
        ];
        for (name, steps) in scenes {
            if wanted(name) {
                rows.push(delta_scene(name, steps));
            }
        }
        println!(
            "\ndelta against one second earlier (B/body of the whole snapshot; gate: delta/full <= 0.5), physics-version {PHYSICS_VERSION_CURRENT}:"
        );
        println!(
            "{:<14} {:>6} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10}",
            "scene", "tick", "format 3", "delta", "delta/3", "save 4/1", "rest.4/dec", "+MAC/dec"
        );
        for row in rows {
            println!("{row}");
        }
    }
}
