//! The world the restore fuzz targets start from, and the input format of `restore_then_step`,
//! `restore_compressed_then_step` and `restore_delta_then_step`. Also compiled into `crates/pinned/tests/`
//! `restore_regressions.rs` and `restore_mutations.rs` (by `#[path]`), which replay the
//! committed reproducers and the mutation gate in CI: keep it to `rapier3d` and `rapier_pinned`.

use rapier3d::prelude::*;
use rapier_pinned::testing::{
    compress_payload, decompress_payload, expand_delta_stream, seal, seal_compressed, seal_delta,
    seal_stored,
};
use rapier_pinned::{
    Baseline, PhysicsVersion, PinnedWorld, SnapshotHeader, SnapshotKey, WorldConfig,
    FLAG_COMPRESSED, FORMAT_VERSION_2, FORMAT_VERSION_4, HEADER_LEN, PHYSICS_VERSION_CURRENT,
};

/// The physics-version of the target world: the current one, so that the fuzzers, the committed
/// reproducers and the mutation gate step restored worlds through the rules games run today
/// (version 3's depth rule included; version 2's pass was the target until version 3's release).
pub const VERSION: PhysicsVersion = PHYSICS_VERSION_CURRENT;
/// Its match id.
pub const MATCH_ID: u64 = 7;

/// The target world's config.
pub fn config() -> WorldConfig {
    WorldConfig::new(VERSION)
        .expect("the current physics-version")
        .with_match_id(MATCH_ID)
}

/// The fleet key authenticated inputs are sealed with.
pub fn key() -> SnapshotKey {
    SnapshotKey::new([0xa5; 32])
}

/// A level of [`small_world`]'s trimesh and heightfield (the `expand` target's).
pub fn small_level() -> rapier_pinned::Level {
    let world = small_world(0);
    let shapes = (world.colliders().iter())
        .map(|(_, c)| c.shared_shape().clone())
        .filter(|s| s.as_trimesh().is_some() || s.as_heightfield().is_some())
        .collect();
    rapier_pinned::Level::new(shapes).expect("serializable shapes")
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

/// A `restore_then_step` input made into a snapshot: byte 0 picks the base world (bit 0: tick
/// `BASE_TICKS[0]` or `[1]`) and the seal (bit 1: authenticated with [`key`]), bits 2..=3 + 1 are
/// the steps to take after a successful restore (1–4); the rest is read as 4-byte operations
/// `[o0, o1, o2, x]` xor-ing `x` into byte `(o0 | o1 << 8 | o2 << 16) % payload length` of the
/// base's payload, which is then sealed (physics-version [`VERSION`], [`config`]'s digest, the
/// base's tick) so that it passes the checksum and the MAC; bits 5..=7 are ignored. A
/// `restore_compressed_then_step` input is the same with bit 4 ([`MUTATE_STORED`]) choosing
/// which bytes the operations mutate, sealed as format 2 compressed
/// ([`MutatedSnapshot::new_compressed`]), and a `restore_delta_then_step` input the same sealed
/// as a format-4 delta against [`BASE_TICKS`]`[0]`'s payload ([`MutatedSnapshot::new_delta`]);
/// [`MutatedSnapshot::new`] ignores bit 4.
pub struct MutatedSnapshot {
    /// The sealed snapshot.
    pub bytes: Vec<u8>,
    /// The mutated payload it seals (uncompressed).
    pub payload: Vec<u8>,
    /// Whether it is sealed with [`key`] (restore it with the key).
    pub authenticated: bool,
    /// How many steps to take after a successful restore.
    pub steps: usize,
    /// Whether the operations changed the payload (the stored bytes, when they mutate those) at
    /// all.
    pub mutated: bool,
}

/// Bit 4 of a `restore_compressed_then_step` input's byte 0: the operations apply to the stored,
/// compressed bytes (they reach the bounded decompression first) instead of to the plain payload
/// before it is compressed (they reach the decoder and the validation).
pub const MUTATE_STORED: u8 = 1 << 4;

impl MutatedSnapshot {
    /// The snapshot of `input`, over `bases` (each base's payload and tick, in `BASE_TICKS`
    /// order); `None` for an empty input.
    pub fn new(bases: &[(Vec<u8>, u64)], input: &[u8]) -> Option<Self> {
        let (selector, ops) = input.split_first()?;
        let (base, tick) = &bases[(selector & 1) as usize];
        let payload = apply_ops(base, ops);
        let mut snapshot = Self::framed(*selector, base, payload);
        snapshot.bytes = seal(
            SnapshotHeader::new(&config(), *tick),
            &snapshot.payload,
            snapshot.authenticated.then_some(&key()),
        );
        Some(snapshot)
    }

    /// The format-2 compressed snapshot of `input` (flag bit 1, `docs/protocol.md` §3.1), read as
    /// for [`Self::new`] but for bit 4 of byte 0 ([`MUTATE_STORED`]): clear, the operations
    /// mutate the plain payload, which is then compressed and sealed (`seal_compressed`); set,
    /// they mutate the compressed bytes of the base's payload (the u32 length prefix and the LZ4
    /// block, offsets modulo their length), which are sealed as they are (`seal_stored`). Then
    /// `payload` is what the stored bytes decompress to, or empty when they do not (a restore
    /// must refuse them), and `mutated` is whether the stored bytes changed.
    pub fn new_compressed(bases: &[(Vec<u8>, u64)], input: &[u8]) -> Option<Self> {
        let (selector, ops) = input.split_first()?;
        let (base, tick) = &bases[(selector & 1) as usize];
        let header = SnapshotHeader::new(&config(), *tick);
        let key = key();
        let key = (selector & 2 != 0).then_some(&key);
        if selector & MUTATE_STORED == 0 {
            let mut snapshot = Self::framed(*selector, base, apply_ops(base, ops));
            snapshot.bytes = seal_compressed(header, &snapshot.payload, key);
            return Some(snapshot);
        }
        let stored = compress_payload(base);
        let mutated_stored = apply_ops(&stored, ops);
        let payload = decompress_payload(&mutated_stored).unwrap_or_default();
        let mut snapshot = Self::framed(*selector, base, payload);
        snapshot.mutated = mutated_stored != stored;
        snapshot.bytes = seal_stored(
            FORMAT_VERSION_2,
            FLAG_COMPRESSED,
            header,
            &mutated_stored,
            key,
        );
        Some(snapshot)
    }

    /// The format-4 delta of `input` against `baseline` (`docs/protocol.md` §3.4), read as for
    /// [`Self::new_compressed`]: bit 4 clear, the operations mutate the plain payload, which is
    /// then written as a delta and sealed (`seal_delta`); set, they mutate the record stream of
    /// the base's delta (uncompressed: its tags, offsets, lengths, literal and XOR bytes; offsets
    /// modulo its length), sealed as it is after the baseline's id, flag bit 1 clear. Then
    /// `payload` is what the stored stream expands to against the baseline, or empty when it
    /// does not (a restore must refuse it).
    pub fn new_delta(bases: &[(Vec<u8>, u64)], baseline: &Baseline, input: &[u8]) -> Option<Self> {
        let (selector, ops) = input.split_first()?;
        let (base, tick) = &bases[(selector & 1) as usize];
        let header = SnapshotHeader::new(&config(), *tick);
        let key = key();
        let key = (selector & 2 != 0).then_some(&key);
        if selector & MUTATE_STORED == 0 {
            let mut snapshot = Self::framed(*selector, base, apply_ops(base, ops));
            snapshot.bytes = seal_delta(header, &snapshot.payload, baseline, key);
            return Some(snapshot);
        }
        let written = seal_delta(header, base, baseline, None);
        let stream = decompress_payload(&written[HEADER_LEN + 32..]).expect("a written delta");
        let mutated = apply_ops(&stream, ops);
        let payload = expand_delta_stream(&mutated, baseline).unwrap_or_default();
        let mut snapshot = Self::framed(*selector, base, payload);
        snapshot.mutated = mutated != stream;
        let stored = [&baseline.id().0[..], &mutated].concat();
        snapshot.bytes = seal_stored(FORMAT_VERSION_4, 0, header, &stored, key);
        Some(snapshot)
    }

    /// The fields but `bytes` (left empty) for `selector` and the mutated `payload` of `base`.
    fn framed(selector: u8, base: &[u8], payload: Vec<u8>) -> Self {
        Self {
            mutated: payload != base,
            bytes: Vec::new(),
            payload,
            authenticated: selector & 2 != 0,
            steps: 1 + ((selector >> 2) & 3) as usize,
        }
    }
}

/// `bytes` with the 4-byte operations `ops` applied: `[o0, o1, o2, x]` xors `x` into byte
/// `(o0 | o1 << 8 | o2 << 16) % len`; a trailing partial operation is ignored.
fn apply_ops(bytes: &[u8], ops: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let n = out.len();
    for op in ops.chunks_exact(4) {
        let at = (op[0] as usize | (op[1] as usize) << 8 | (op[2] as usize) << 16) % n;
        out[at] ^= op[3];
    }
    out
}

/// The payload and tick of every base world (`small_world` at each of `BASE_TICKS`).
pub fn bases() -> Vec<(Vec<u8>, u64)> {
    BASE_TICKS
        .iter()
        .map(|&t| {
            let w = small_world(t);
            (rapier_pinned::testing::encode_world(w.world()), w.tick())
        })
        .collect()
}
