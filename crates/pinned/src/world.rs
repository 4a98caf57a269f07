//! [`PinnedWorld`]: a rapier world whose configuration no API can change.

use crate::baseline::Baseline;
use crate::codec;
use crate::config::WorldConfig;
use crate::error::Error;
use crate::level::{Level, LevelId};
use crate::snapshot::{self, SnapshotHeader, SnapshotKey};
use crate::validate;
use rapier3d::prelude::*;

/// A world pinned to a [`WorldConfig`]: its integration parameters and gravity are the
/// physics-version's with the game's settings ([`WorldConfig::params`], [`WorldConfig::gravity`]),
/// and no method hands out `&mut IntegrationParameters` or `&mut PhysicsWorld`.
///
/// The config cannot be changed through it:
///
/// ```compile_fail
/// # use rapier_pinned::{PhysicsVersion, PinnedWorld, WorldConfig};
/// let mut world = PinnedWorld::new(WorldConfig::new(PhysicsVersion::V2).unwrap());
/// world.integration_parameters().dt = 1.0;
/// ```
///
/// ```compile_fail
/// # use rapier_pinned::{PhysicsVersion, PinnedWorld, WorldConfig};
/// let mut world = PinnedWorld::new(WorldConfig::new(PhysicsVersion::V2).unwrap());
/// world.world_mut().gravity = Default::default();
/// ```
///
/// ```compile_fail
/// # use rapier_pinned::{PhysicsVersion, PinnedWorld, WorldConfig};
/// let mut world = PinnedWorld::new(WorldConfig::new(PhysicsVersion::V2).unwrap());
/// world.world.integration_parameters.dt = 1.0;
/// ```
///
/// ```compile_fail
/// # use rapier_pinned::{PhysicsVersion, PinnedWorld, WorldConfig};
/// let mut world = PinnedWorld::new(WorldConfig::new(PhysicsVersion::V2).unwrap());
/// world.config = WorldConfig::new(PhysicsVersion::V1).unwrap();
/// ```
pub struct PinnedWorld {
    config: WorldConfig,
    world: PhysicsWorld,
    tick: u64,
}

impl std::fmt::Debug for PinnedWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PinnedWorld")
            .field("config", &self.config)
            .field("tick", &self.tick)
            .field("bodies", &self.world.bodies.len())
            .field("colliders", &self.world.colliders.len())
            .finish_non_exhaustive()
    }
}

impl Clone for PinnedWorld {
    /// The same world without serializing it: every part a snapshot carries is cloned, and the
    /// pipelines and the CCD solver (workspaces a snapshot does not carry) start fresh, as after
    /// a restore. So a clone steps as the original and as its restored snapshot do, bit for bit
    /// (`tests/resume.rs`): what a rollback ring keeps when a clone serves.
    fn clone(&self) -> Self {
        let w = &self.world;
        let mut world = PhysicsWorld::new();
        world.gravity = w.gravity;
        world.integration_parameters = w.integration_parameters;
        world.islands = w.islands.clone();
        world.broad_phase = w.broad_phase.clone();
        world.narrow_phase = w.narrow_phase.clone();
        world.bodies = w.bodies.clone();
        world.colliders = w.colliders.clone();
        world.impulse_joints = w.impulse_joints.clone();
        world.multibody_joints = w.multibody_joints.clone();
        world.soft_bodies = w.soft_bodies.clone();
        Self {
            config: self.config,
            world,
            tick: self.tick,
        }
    }
}

impl PinnedWorld {
    /// An empty world under `config`, at tick 0.
    pub fn new(config: WorldConfig) -> Self {
        let mut world = PhysicsWorld::new();
        world.integration_parameters = config.params();
        world.gravity = config.gravity();
        Self {
            config,
            world,
            tick: 0,
        }
    }

    /// Takes a world built by other code, at tick 0, if it passes the checks a restore runs on
    /// a decoded world (one function for both): its integration parameters and gravity equal
    /// `config`'s bit for bit ([`Error::ConfigMismatch`]), then the structural, finiteness and
    /// range checks. They run under `catch_unwind`, as on restore, with restore's mapping: a
    /// world whose internal indices make one of rapier's accessors panic is refused with
    /// `Undecodable("panic while decoding: …")`.
    pub fn adopt(config: WorldConfig, world: PhysicsWorld) -> Result<Self, Error> {
        Self::adopt_at(config, world, 0)
    }

    /// [`Self::adopt`] at `tick`: for a pinned world whose parts other code holds between steps
    /// (the npm package's `PinnedWorld`, on stock rapier.js's `World`), snapshotted with the
    /// checks of an adoption.
    pub fn adopt_at(config: WorldConfig, world: PhysicsWorld, tick: u64) -> Result<Self, Error> {
        validate::validate_world(&config, &world)?;
        Ok(Self {
            config,
            world,
            tick,
        })
    }

    /// The world and its tick, giving the pinned world up (its config goes with it): for code
    /// that steps the parts itself and adopts them again to snapshot ([`Self::adopt_at`]).
    pub fn into_parts(self) -> (PhysicsWorld, u64) {
        (self.world, self.tick)
    }

    /// Advances one step.
    pub fn step(&mut self) {
        self.world.step();
        self.tick += 1;
    }

    /// Advances one step with physics hooks and an event handler.
    pub fn step_with_events(&mut self, hooks: &dyn PhysicsHooks, events: &dyn EventHandler) {
        self.world.step_with_events(hooks, events);
        self.tick += 1;
    }

    /// The config.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Steps taken since [`Self::new`] or [`Self::adopt`] (carried by snapshots).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The whole world, read-only.
    pub fn world(&self) -> &PhysicsWorld {
        &self.world
    }

    /// The rigid bodies.
    pub fn bodies(&self) -> &RigidBodySet {
        &self.world.bodies
    }

    /// The colliders.
    pub fn colliders(&self) -> &ColliderSet {
        &self.world.colliders
    }

    /// The impulse joints.
    pub fn impulse_joints(&self) -> &ImpulseJointSet {
        &self.world.impulse_joints
    }

    /// The multibody joints.
    pub fn multibody_joints(&self) -> &MultibodyJointSet {
        &self.world.multibody_joints
    }

    /// The pinned integration parameters.
    pub fn integration_parameters(&self) -> &IntegrationParameters {
        &self.world.integration_parameters
    }

    /// The pinned gravity.
    pub fn gravity(&self) -> Vector {
        self.world.gravity
    }

    /// Inserts a rigid body.
    pub fn insert_body(&mut self, body: impl Into<RigidBody>) -> RigidBodyHandle {
        self.world.insert_body(body)
    }

    /// Inserts a collider, attached to `parent` if given.
    pub fn insert_collider(
        &mut self,
        collider: impl Into<Collider>,
        parent: Option<RigidBodyHandle>,
    ) -> ColliderHandle {
        self.world.insert_collider(collider, parent)
    }

    /// Inserts an impulse joint between two bodies (waking them up).
    pub fn insert_impulse_joint(
        &mut self,
        body1: RigidBodyHandle,
        body2: RigidBodyHandle,
        joint: impl Into<GenericJoint>,
    ) -> ImpulseJointHandle {
        self.world.insert_impulse_joint(body1, body2, joint)
    }

    /// Inserts a multibody joint between two bodies; `None` if it would close a loop.
    pub fn insert_multibody_joint(
        &mut self,
        body1: RigidBodyHandle,
        body2: RigidBodyHandle,
        joint: impl Into<GenericJoint>,
    ) -> Option<MultibodyJointHandle> {
        self.world.insert_multibody_joint(body1, body2, joint)
    }

    /// Removes a body with its colliders and joints.
    pub fn remove_body(&mut self, handle: RigidBodyHandle) -> Option<RigidBody> {
        self.world.remove_body(handle)
    }

    /// Removes a collider.
    pub fn remove_collider(&mut self, handle: ColliderHandle) -> Option<Collider> {
        self.world.remove_collider(handle)
    }

    /// Removes an impulse joint.
    pub fn remove_impulse_joint(&mut self, handle: ImpulseJointHandle) -> Option<GenericJoint> {
        self.world.remove_impulse_joint(handle)
    }

    /// Removes a multibody joint.
    pub fn remove_multibody_joint(&mut self, handle: MultibodyJointHandle) {
        self.world.remove_multibody_joint(handle)
    }

    /// A body, mutable (its state, not the world's config).
    pub fn body_mut(&mut self, handle: RigidBodyHandle) -> Option<&mut RigidBody> {
        self.world.bodies.get_mut(handle)
    }

    /// A collider, mutable.
    pub fn collider_mut(&mut self, handle: ColliderHandle) -> Option<&mut Collider> {
        self.world.colliders.get_mut(handle)
    }

    /// Upstream's scene-query pipeline over this world, with `filter`.
    pub fn query_pipeline<'a>(&'a self, filter: QueryFilter<'a>) -> QueryPipeline<'a> {
        self.world.query_pipeline_with_filter(filter)
    }

    /// What every snapshot of the world at this tick holds, whatever its format: the header
    /// (physics-version, tick, config digest) and the payload (the world in the codec's encoding).
    fn sealing(&self) -> (SnapshotHeader, Vec<u8>) {
        let header = SnapshotHeader::new(&self.config, self.tick);
        (header, codec::encode(&self.world))
    }

    /// The world as a snapshot at this tick, authenticated when `key` is given: format 1, the
    /// payload stored as it is.
    pub fn snapshot(&self, key: Option<&SnapshotKey>) -> Vec<u8> {
        let (header, payload) = self.sealing();
        snapshot::seal(header, &payload, key)
    }

    /// The world as a compressed snapshot at this tick, authenticated when `key` is given:
    /// format 2 with flag bit 1, the payload (the same bytes [`Self::snapshot`] stores) compressed
    /// with LZ4; checksum and MAC cover the compressed bytes. [`Self::restore`] reads both
    /// formats.
    ///
    /// The world is the same: a restore gives the world [`Self::snapshot`]'s bytes give. The
    /// compressed bytes are what this build's encoder writes; they are not canonical across
    /// targets (`docs/protocol.md` §3.1): compare worlds by [`Self::snapshot`] or by the
    /// decompressed payload, never by compressed bytes.
    pub fn snapshot_compressed(&self, key: Option<&SnapshotKey>) -> Vec<u8> {
        let (header, payload) = self.sealing();
        snapshot::seal_compressed(header, &payload, key)
    }

    /// The world as a linked snapshot at this tick, authenticated when `key` is given: format 3.
    /// The payload is [`Self::snapshot`]'s, written as records: every shape of `level` found in
    /// it is a reference to the level, every further copy of a shape the world's colliders
    /// share (one `Arc`) repeats the first, and the records are LZ4-compressed.
    ///
    /// `level` must be the config's ([`WorldConfig::level`]): [`Error::LevelMissing`] without
    /// one when the config names one, [`Error::WrongLevel`] for another. A restore needs the
    /// same level ([`Self::restore_on`]). As for format 2, the bytes are not canonical across
    /// targets; the expanded payload is.
    pub fn snapshot_linked(
        &self,
        level: Option<&Level>,
        key: Option<&SnapshotKey>,
    ) -> Result<Vec<u8>, Error> {
        self.check_level(level)?;
        let (header, payload) = self.sealing();
        let shared = shared_shapes(&self.world.colliders);
        Ok(snapshot::seal_linked(header, &payload, level, &shared, key))
    }

    /// The world's state at this tick as a baseline, kept to write deltas against
    /// ([`Self::snapshot_delta`]) or to read them ([`Self::restore_delta`]). A world restored from
    /// a snapshot makes the same baseline as the world the snapshot was taken of.
    pub fn baseline(&self) -> Baseline {
        Baseline::from_payload(codec::encode(&self.world))
    }

    /// The world as a delta snapshot at this tick against `baseline`, authenticated when `key`
    /// is given: format 4. The payload is [`Self::snapshot`]'s, written as records of literal
    /// bytes and of bytes of the baseline's payload, LZ4-compressed. A receiver restores it with
    /// the same baseline ([`Self::restore_delta`]); as for format 2, the bytes are not canonical
    /// across targets, the expanded payload is.
    pub fn snapshot_delta(&self, baseline: &Baseline, key: Option<&SnapshotKey>) -> Vec<u8> {
        let (header, payload) = self.sealing();
        snapshot::seal_delta(header, &payload, baseline, key)
    }

    /// Whether `level` is the world's (its config's, [`WorldConfig::level`]): a world on a level
    /// needs it ([`Error::LevelMissing`]), another level or one for a world on none is
    /// [`Error::WrongLevel`] (`needed` all zero: none).
    pub fn check_level(&self, level: Option<&Level>) -> Result<(), Error> {
        match (self.config.level(), level) {
            (Some(needed), given) => snapshot::require_level(needed, given).map(drop),
            (None, Some(given)) => Err(Error::WrongLevel {
                needed: LevelId([0; 32]),
                given: given.id(),
            }),
            (None, None) => Ok(()),
        }
    }

    /// A world under `config` restored from `bytes` (format 1, 2 or 3 without a level,
    /// compressed or not), after every check of `docs/protocol.md`.
    ///
    /// With `key`, the snapshot must carry a MAC made with it. Without, a MAC is not checked (the
    /// checksum still is).
    pub fn restore(
        config: WorldConfig,
        bytes: &[u8],
        key: Option<&SnapshotKey>,
    ) -> Result<Self, Error> {
        Self::restore_on(config, None, bytes, key)
    }

    /// [`Self::restore`] of a snapshot that may refer to `level` (format 3): a snapshot naming
    /// a level is [`Error::LevelMissing`] without one, [`Error::WrongLevel`] with another. A
    /// delta (format 4) is [`Error::BaselineMissing`]: it needs [`Self::restore_delta`].
    pub fn restore_on(
        config: WorldConfig,
        level: Option<&Level>,
        bytes: &[u8],
        key: Option<&SnapshotKey>,
    ) -> Result<Self, Error> {
        let held = snapshot::Held::level(level);
        Self::open_held(config, held, bytes, key)
    }

    /// [`Self::restore`] of a delta snapshot (format 4) written against `baseline`, after every
    /// check of `docs/protocol.md`: a delta against another baseline is
    /// [`Error::WrongBaseline`]. (Formats 1-3 on no level restore here too.)
    pub fn restore_delta(
        config: WorldConfig,
        baseline: &Baseline,
        bytes: &[u8],
        key: Option<&SnapshotKey>,
    ) -> Result<Self, Error> {
        let held = snapshot::Held::baseline(baseline);
        Self::open_held(config, held, bytes, key)
    }

    /// The world in `bytes` under `config`, with what the restore `held`.
    fn open_held(
        config: WorldConfig,
        held: snapshot::Held<'_>,
        bytes: &[u8],
        key: Option<&SnapshotKey>,
    ) -> Result<Self, Error> {
        let (world, tick) = snapshot::open(&config, bytes, key, held, snapshot::Match::Checked)?;
        Ok(Self {
            config,
            world,
            tick,
        })
    }

    /// Every check of [`Self::restore`] but the config digest's, for a diagnosis: when a
    /// restore under `config` fails with [`Error::ConfigDigestMismatch`], a world here means the
    /// snapshot is a valid world of `config`'s physics-version written for another match id (the
    /// digest hashes the match id, so which one cannot be read back); an error is what else is
    /// wrong with it. Returns the decoded world and its tick, not a `PinnedWorld`: it belongs to
    /// no match this process knows, so it must not be resumed as one.
    pub fn open_ignoring_match(
        config: WorldConfig,
        bytes: &[u8],
        key: Option<&SnapshotKey>,
    ) -> Result<(PhysicsWorld, u64), Error> {
        let held = snapshot::Held::default();
        snapshot::open(&config, bytes, key, held, snapshot::Match::Ignored)
    }

    /// Replaces this world by the one in `bytes` (same config), atomically: the snapshot is
    /// decoded and checked completely into a fresh world first; on any error `self` is unchanged.
    pub fn restore_into(&mut self, bytes: &[u8], key: Option<&SnapshotKey>) -> Result<(), Error> {
        *self = Self::restore(self.config, bytes, key)?;
        Ok(())
    }
}

/// The bytes of every shape two or more colliders hold, shared (one `Arc`) or as equal copies
/// (a world restored from a snapshot, or a game that built each collider's mesh anew, holds
/// copies), in the order of their first collider, when long enough to be worth a reference:
/// what a linked snapshot stores once. Only shapes of a kind that can be large are compared,
/// and only those with the same kind and local AABB (exact bits) are encoded to compare their
/// bytes; an `Arc` seen before is not encoded again. Neither the hash maps' order nor pointers
/// decide anything in the result: it is ordered by collider.
fn shared_shapes(colliders: &ColliderSet) -> Vec<Vec<u8>> {
    use std::collections::HashMap;
    let mut groups: HashMap<Fingerprint, Vec<(usize, &SharedShape)>> = HashMap::new();
    for (i, (_, collider)) in colliders.iter().enumerate() {
        let shape = collider.shared_shape();
        let kind = shape.shape_type();
        if can_be_large(kind) {
            let aabb = shape.compute_local_aabb();
            let (lo, hi) = (aabb.mins.to_array(), aabb.maxs.to_array());
            let bits = [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]].map(f32::to_bits);
            groups.entry((kind, bits)).or_default().push((i, shape));
        }
    }
    let mut found: Vec<(usize, Vec<u8>)> = Vec::new(); // (first collider, bytes)
    for members in groups.values().filter(|members| members.len() >= 2) {
        // Each distinct shape of the group: its first collider, its bytes, how many hold it.
        let mut distinct: Vec<(usize, Vec<u8>, usize)> = Vec::new();
        let mut by_bytes: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut by_arc: HashMap<*const (), usize> = HashMap::new();
        for &(i, shape) in members {
            let arc = std::sync::Arc::as_ptr(&shape.0) as *const ();
            let k = *by_arc.entry(arc).or_insert_with(|| {
                let bytes = codec::encode(shape);
                *by_bytes.entry(bytes.clone()).or_insert_with(|| {
                    distinct.push((i, bytes, 0));
                    distinct.len() - 1
                })
            });
            distinct[k].2 += 1;
        }
        found.extend(
            (distinct.into_iter())
                .filter(|(_, bytes, n)| *n >= 2 && bytes.len() >= crate::link::MIN_REFERENCED)
                .map(|(i, bytes, _)| (i, bytes)),
        );
    }
    found.sort_unstable_by_key(|&(i, _)| i);
    found.into_iter().map(|(_, bytes)| bytes).collect()
}

/// What two equal shapes have in common and most different ones do not: the kind, and the local
/// AABB's corners, exact bits.
type Fingerprint = (ShapeType, [u32; 6]);

/// Whether a shape of this kind can be large enough to be worth a reference (a mesh, a hull, a
/// compound, ...): the others (balls, boxes, capsules, ...) are a few numbers.
fn can_be_large(kind: ShapeType) -> bool {
    use ShapeType::*;
    matches!(
        kind,
        Voxels
            | TriMesh
            | Polyline
            | HeightField
            | Compound
            | ConvexPolyhedron
            | RoundConvexPolyhedron
    )
}

/// The payload encoding of a world (the bytes a snapshot carries after its header).
pub fn encode_world(world: &PhysicsWorld) -> Vec<u8> {
    codec::encode(world)
}
