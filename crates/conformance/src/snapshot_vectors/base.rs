//! What every vector is made from: the constants of the vectors (keys, match ids, scene, tick,
//! steps), `ball_drop` adopted and stepped under a physics-version and under the other version,
//! its snapshots in every format the table needs and the verdict of each, and the generator's
//! checks that its own checksum, MAC and format-2 framing are the wrapper's.

use rapier3d::prelude::{IntegrationParameters, PhysicsWorld};
use rapier_pinned::testing::{compress_payload, encode_world, seal, seal_stored};
use rapier_pinned::{
    Baseline, PhysicsVersion, PinnedWorld, SnapshotHeader, SnapshotKey, WorldConfig,
    FLAG_COMPRESSED, FLAG_MAC, FORMAT_VERSION_2, FORMAT_VERSION_3, FORMAT_VERSION_4, HEADER_LEN,
};

use super::byte_edits::{overwrite, reframed};
use super::header::reseal;
use super::manifest::digest;
use super::world_edits::{ball_up, Change};
use crate::verdict::{Accept, Expect};
use crate::GenerateError;

/// The published test key every authenticated vector is made with: bytes `00 01 02 .. 1f`.
pub const TEST_KEY: [u8; 32] = byte_run(0x00);
/// Another key, for the wrong-key vector: bytes `20 21 22 .. 3f`.
pub const OTHER_KEY: [u8; 32] = byte_run(0x20);
/// The match id of the vectors.
pub const MATCH_ID: u64 = 7;
/// A match id with seven nonzero bytes (below 2^53, so exact as a JSON number in every language).
pub const WIDE_MATCH_ID: u64 = 0x0012_3456_789a_bcde;
/// The catalog scene every vector is made from.
pub const SCENE: &str = "ball_drop";
/// The tick of the snapshots.
pub const TICK: u64 = 30;
/// How many steps an accepted vector is continued for.
pub const STEPS: u32 = 20;

const fn byte_run(first: u8) -> [u8; 32] {
    let mut key = [0; 32];
    let mut i = 0;
    while i < 32 {
        key[i] = first + i as u8;
        i += 1;
    }
    key
}

/// What the vectors of a physics-version are made from: `ball_drop` adopted under it in match 7
/// and stepped 30 times, its four snapshots, its payload and what continuing it gives, and the
/// same scene under the other version.
pub(super) struct Base {
    /// The physics-version of the vectors.
    pub(super) version: PhysicsVersion,
    /// The version the mismatch vectors are made with ([`other_version`]).
    pub(super) other: PhysicsVersion,
    /// The world's config: `version` in match 7.
    pub(super) config: WorldConfig,
    /// `accept.snap`: the snapshot without a key.
    pub(super) plain: Vec<u8>,
    /// `accept_mac.snap`: the snapshot with the test key.
    pub(super) mac: Vec<u8>,
    /// `accept_compressed.snap`: the compressed snapshot (format 2) without a key.
    pub(super) compressed: Vec<u8>,
    /// `accept_compressed_mac.snap`: the compressed snapshot with the test key.
    pub(super) compressed_mac: Vec<u8>,
    /// The world's encoding: the payload of `accept.snap`.
    pub(super) payload: Vec<u8>,
    /// The stored payload of `accept_compressed.snap`: the uncompressed length (u32 LE), then
    /// the LZ4 block.
    pub(super) stored: Vec<u8>,
    /// The verdict of every snapshot of the world: tick 30 and the digests of the next steps.
    pub(super) accepted: Expect,
    /// The snapshot without a key of `ball_drop` after 30 steps under `other` (same match).
    pub(super) other_plain: Vec<u8>,
    /// Its payload.
    pub(super) other_payload: Vec<u8>,
}

impl Base {
    /// The base of `version`, after checking that the generator's checksum, MAC and format-2
    /// framing are the wrapper's.
    pub(super) fn new(version: PhysicsVersion) -> Result<Base, GenerateError> {
        let config = WorldConfig::new(version)
            .map_err(|source| GenerateError::Config { version, source })?
            .with_match_id(MATCH_ID);
        let other = other_version(version);
        let other_config = WorldConfig::new(other)
            .map_err(|source| GenerateError::OtherConfig {
                version: other,
                source,
            })?
            .with_match_id(MATCH_ID);
        let key = SnapshotKey::new(TEST_KEY);
        let world = ball_drop(config, TICK)?;
        let other_world = ball_drop(other_config, TICK)?;
        let payload = encode_world(world.world());
        let base = Base {
            version,
            other,
            config,
            plain: world.snapshot(None),
            mac: world.snapshot(Some(&key)),
            compressed: world.snapshot_compressed(None),
            compressed_mac: world.snapshot_compressed(Some(&key)),
            stored: compress_payload(&payload),
            payload,
            accepted: accepted(world),
            other_plain: other_world.snapshot(None),
            other_payload: encode_world(other_world.world()),
        };
        reseal_matches_wrapper(&base.plain, &base.mac)?;
        format2_matches_wrapper(
            &base.plain,
            &base.stored,
            &base.compressed,
            &base.compressed_mac,
        )?;
        Ok(base)
    }

    /// `payload` sealed as a snapshot of this version at tick 30 in match 7, with a valid
    /// checksum and no MAC.
    pub(super) fn sealed(&self, payload: &[u8]) -> Vec<u8> {
        seal(
            SnapshotHeader {
                physics_version: self.version,
                tick: TICK,
                config_digest: self.config.digest(),
            },
            payload,
            None,
        )
    }

    /// The payload of `accept.snap`'s world changed by `change`.
    fn changed(&self, change: Change) -> Result<Vec<u8>, GenerateError> {
        let mut world = decode(&self.payload)?;
        change(&mut world)?;
        Ok(encode_world(&world))
    }

    /// `accept.snap`'s world changed by `change`, re-encoded and [sealed](Base::sealed).
    pub(super) fn sealed_world(&self, change: Change) -> Result<Vec<u8>, GenerateError> {
        Ok(self.sealed(&self.changed(change)?))
    }

    /// `accept_compressed.snap` with `stored` as its stored payload, length field and checksum
    /// recomputed.
    pub(super) fn compressed_with(&self, stored: &[u8]) -> Vec<u8> {
        reframed(&self.compressed, stored)
    }

    /// `accept_compressed.snap` with the uncompressed length its payload states (the first 4
    /// stored bytes) set to `stated`, checksum recomputed.
    pub(super) fn compressed_stating(&self, stated: u32) -> Vec<u8> {
        self.compressed_with(&overwrite(&self.stored, 0, &stated.to_le_bytes()))
    }

    /// The forged snapshot: `accept_mac.snap` with the ball's linear velocity set to 5 m/s up in
    /// the payload, length field and checksum recomputed and the old MAC kept; and its verdict
    /// without a key: the changed world's, at tick 30.
    pub(super) fn forged(&self) -> Result<(Vec<u8>, Expect), GenerateError> {
        let payload = self.changed(ball_up)?;
        let world = PinnedWorld::adopt(self.config, decode(&payload)?)
            .map_err(GenerateError::ForgedRefused)?;
        let mut expect = accepted(world);
        if let Expect::Accept(a) = &mut expect {
            a.tick = TICK;
        }
        Ok((reframed(&self.mac, &payload), expect))
    }

    /// The offset in the payload of `ccd_persistent_contact_policy`, the last integration
    /// parameter (after the 12 bytes of gravity; every parameter has a fixed size, the policy
    /// one byte), and its value under this version. Err if the payload holds another value there.
    pub(super) fn policy_byte(&self) -> Result<(usize, u8), GenerateError> {
        let at = 12
            + bincode::serialize(&IntegrationParameters::default())
                .map_err(GenerateError::ParamsEncoding)?
                .len()
            - 1;
        let policy = self.config.params().ccd_persistent_contact_policy as u8;
        if self.payload[at] != policy {
            return Err(GenerateError::PolicyByte {
                at,
                found: self.payload[at],
                policy,
            });
        }
        Ok((at, policy))
    }
}

/// The tick of the delta vectors: 10 steps after their baseline, `accept.snap`.
pub(super) const DELTA_TICK: u64 = TICK + 10;

impl Base {
    /// `ball_drop` after `steps` steps as a delta against `accept.snap`'s payload, and its
    /// verdict.
    pub(super) fn delta(&self, steps: u64) -> Result<(Vec<u8>, Expect), GenerateError> {
        let world = ball_drop(self.config, steps)?;
        let baseline = Baseline::from_payload(self.payload.clone());
        Ok((world.snapshot_delta(&baseline, None), accepted(world)))
    }

    /// A format-4 snapshot of this version at tick 30 in match 7 against `accept.snap`'s
    /// payload, with a valid checksum: the baseline's id, then `stream`, with `flags`.
    pub(super) fn delta_with(&self, flags: u16, stream: &[u8]) -> Vec<u8> {
        let id = Baseline::from_payload(self.payload.clone()).id();
        let stored = [&id.0[..], stream].concat();
        seal_stored(
            FORMAT_VERSION_4,
            flags,
            SnapshotHeader {
                physics_version: self.version,
                tick: TICK,
                config_digest: self.config.digest(),
            },
            &stored,
            None,
        )
    }

    /// A format-3 snapshot of this version at tick 30 in match 7 on no level, with a valid
    /// checksum: the level id (zero), then `stream`, with `flags`.
    pub(super) fn linked_with(&self, flags: u16, stream: &[u8]) -> Vec<u8> {
        self.linked_stored(&[&[0; 32][..], stream].concat(), flags)
    }

    /// A format-3 snapshot of this version at tick 30 in match 7 storing `stored`, with `flags`.
    pub(super) fn linked_stored(&self, stored: &[u8], flags: u16) -> Vec<u8> {
        seal_stored(
            FORMAT_VERSION_3,
            flags,
            SnapshotHeader {
                physics_version: self.version,
                tick: TICK,
                config_digest: self.config.digest(),
            },
            stored,
            None,
        )
    }
}

/// `ball_drop` adopted under `config` and stepped `steps` times, snapshotted without a key, and
/// the verdict of that snapshot.
pub(super) fn unauthenticated(
    config: WorldConfig,
    steps: u64,
) -> Result<(Vec<u8>, Expect), GenerateError> {
    let world = ball_drop(config, steps)?;
    Ok((world.snapshot(None), accepted(world)))
}

/// The released version a mismatch vector of `version` is made with: version 1 uses 2, every
/// later version the one before it.
fn other_version(version: PhysicsVersion) -> PhysicsVersion {
    if version == PhysicsVersion::V1 {
        PhysicsVersion::V2
    } else {
        PhysicsVersion::new(version.get() - 1)
    }
}

/// The catalog's `ball_drop` adopted under `config` and stepped `steps` times (the path of
/// `rapier-pinned snapshot save`).
pub(super) fn ball_drop(config: WorldConfig, steps: u64) -> Result<PinnedWorld, GenerateError> {
    let scene = rapier_pinned_scenes::find(SCENE).ok_or(GenerateError::NoScene(SCENE))?;
    let mut world = PinnedWorld::adopt(config, scene.build(config.params())).map_err(|source| {
        GenerateError::SceneRefused {
            scene: SCENE,
            config: Box::new(config),
            source,
        }
    })?;
    for _ in 0..steps {
        world.step();
    }
    Ok(world)
}

/// The verdict of a snapshot of `world` taken now: its tick and the digests of the next
/// [`STEPS`] steps, from `world` itself.
pub(super) fn accepted(mut world: PinnedWorld) -> Expect {
    let tick = world.tick();
    let digests = (0..STEPS)
        .map(|_| {
            world.step();
            digest(&world)
        })
        .collect();
    Expect::Accept(Accept {
        tick,
        steps: STEPS,
        digests,
    })
}

fn decode(payload: &[u8]) -> Result<PhysicsWorld, GenerateError> {
    bincode::deserialize(payload).map_err(GenerateError::Undecodable)
}

/// The wrapper's format-2 compressed snapshots are the protocol's: `accept.snap`'s header with
/// format 2 and flag bit 1 (and the MAC flag), the payload length of the stored bytes, and the
/// stored bytes = the uncompressed length (u32 LE) then the block; checksum and MAC over them.
fn format2_matches_wrapper(
    plain: &[u8],
    stored: &[u8],
    compressed: &[u8],
    compressed_mac: &[u8],
) -> Result<(), GenerateError> {
    let payload_len = (plain.len() - HEADER_LEN) as u32;
    if stored[..4] != payload_len.to_le_bytes() {
        return Err(GenerateError::CompressedLength);
    }
    for (bytes, key) in [(compressed, None), (compressed_mac, Some(&TEST_KEY))] {
        let flags = FLAG_COMPRESSED | if key.is_some() { FLAG_MAC } else { 0 };
        let mut made = plain[..HEADER_LEN].to_vec();
        made[8..10].copy_from_slice(&FORMAT_VERSION_2.to_le_bytes());
        made[10..12].copy_from_slice(&flags.to_le_bytes());
        made[56..64].copy_from_slice(&(stored.len() as u64).to_le_bytes());
        made[64..].fill(0);
        made.extend_from_slice(stored);
        reseal(&mut made, key);
        if made != bytes {
            return Err(GenerateError::CompressedFraming);
        }
    }
    Ok(())
}

/// [`reseal`] computes what the wrapper's `seal` writes.
fn reseal_matches_wrapper(plain: &[u8], mac: &[u8]) -> Result<(), GenerateError> {
    for (bytes, key) in [(plain, None), (mac, Some(&TEST_KEY))] {
        let mut again = bytes.to_vec();
        again[64..128].fill(0);
        reseal(&mut again, key);
        if again != bytes {
            return Err(GenerateError::Checksum);
        }
    }
    Ok(())
}
