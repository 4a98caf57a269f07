//! [`RawWorld`]: one world, plain or pinned, behind the numbers-only interface that `js/pinned.js`
//! wraps in `PinnedWorld` (on stock rapier.js's classes).
//!
//! A plain world is rapier3d's [`PhysicsWorld`] with parameters a program may change (rapier.js's
//! `World`); a pinned world is [`PinnedWorld`], whose parameters no call can change. Handles cross
//! the boundary as one number, `index + generation · 2³²` (exact in an f64), and descriptions as
//! fixed-layout `Float64Array`s whose field order is [`BODY_FIELDS`] / [`COLLIDER_FIELDS`] /
//! [`JOINT_FIELDS`], written out once more in `js/pinned.js`.

use rapier3d::prelude::*;
use rapier_pinned::{PinnedWorld, SnapshotKey};
use wasm_bindgen::prelude::*;

use crate::error::{js_error, pinned_error};

/// The body description's fields, in order (rapier.js's `RigidBodyDesc`).
pub const BODY_FIELDS: [&str; 22] = [
    "tx",
    "ty",
    "tz",
    "qx",
    "qy",
    "qz",
    "qw",
    "vx",
    "vy",
    "vz",
    "wx",
    "wy",
    "wz",
    "gravityScale",
    "linearDamping",
    "angularDamping",
    "additionalMass",
    "dominanceGroup",
    "ccdEnabled",
    "canSleep",
    "sleeping",
    "softCcdPrediction",
];

/// The collider description's fields, in order (rapier.js's `ColliderDesc`, less the shape).
/// `massMode`: 0 the default density, 1 `density`, 2 `mass`.
pub const COLLIDER_FIELDS: [&str; 12] = [
    "tx",
    "ty",
    "tz",
    "qx",
    "qy",
    "qz",
    "qw",
    "friction",
    "restitution",
    "massMode",
    "density",
    "sensor",
];

/// The joint description's fields, in order (rapier.js's `JointData`): both anchors, the axis
/// (revolute, prismatic), both frames' rotations (fixed).
pub const JOINT_FIELDS: [&str; 17] = [
    "a1x", "a1y", "a1z", "a2x", "a2y", "a2z", "axx", "axy", "axz", "f1x", "f1y", "f1z", "f1w",
    "f2x", "f2y", "f2z", "f2w",
];

/// A world as JavaScript holds it.
#[wasm_bindgen]
pub struct RawWorld {
    inner: Inner,
}

enum Inner {
    Plain(Box<PhysicsWorld>),
    Pinned(Box<PinnedWorld>),
}

/// A handle as one number (see the module docs).
fn flat((index, generation): (u32, u32)) -> f64 {
    index as f64 + generation as f64 * 4_294_967_296.0
}

/// The (index, generation) of a flat handle, or an error for a number that is not one.
fn parts(handle: f64) -> Result<(u32, u32), JsValue> {
    let ok = handle.is_finite() && handle >= 0.0 && handle.fract() == 0.0 && handle < 2f64.powi(64);
    if !ok {
        return Err(js_error(&format!("{handle} is not a handle")));
    }
    let bits = handle as u64;
    Ok((bits as u32, (bits >> 32) as u32))
}

fn body_handle(handle: f64) -> Result<RigidBodyHandle, JsValue> {
    let (index, generation) = parts(handle)?;
    Ok(RigidBodyHandle::from_raw_parts(index, generation))
}

fn vec3(f: &[f64], at: usize) -> Vector {
    Vector::new(f[at] as Real, f[at + 1] as Real, f[at + 2] as Real)
}

fn quat(f: &[f64], at: usize) -> Rotation {
    Rotation::from_xyzw(
        f[at] as Real,
        f[at + 1] as Real,
        f[at + 2] as Real,
        f[at + 3] as Real,
    )
}

/// `fields` when it has exactly `n` numbers, else an error naming `what`.
fn layout<'a>(fields: &'a [f64], n: usize, what: &str) -> Result<&'a [f64], JsValue> {
    if fields.len() == n {
        Ok(fields)
    } else {
        Err(js_error(&format!(
            "{what}: {} fields, expected {n}",
            fields.len()
        )))
    }
}

impl RawWorld {
    /// A plain world.
    pub fn plain(world: PhysicsWorld) -> RawWorld {
        RawWorld {
            inner: Inner::Plain(Box::new(world)),
        }
    }

    /// A pinned world.
    pub fn pinned(world: PinnedWorld) -> RawWorld {
        RawWorld {
            inner: Inner::Pinned(Box::new(world)),
        }
    }

    fn bodies(&self) -> &RigidBodySet {
        match &self.inner {
            Inner::Plain(w) => &w.bodies,
            Inner::Pinned(w) => w.bodies(),
        }
    }

    fn body_mut(&mut self, handle: f64) -> Result<&mut RigidBody, JsValue> {
        let handle = body_handle(handle)?;
        let body = match &mut self.inner {
            Inner::Plain(w) => w.bodies.get_mut(handle),
            Inner::Pinned(w) => w.body_mut(handle),
        };
        body.ok_or_else(|| js_error("no such rigid body"))
    }

    fn body(&self, handle: f64) -> Result<&RigidBody, JsValue> {
        self.bodies()
            .get(body_handle(handle)?)
            .ok_or_else(|| js_error("no such rigid body"))
    }

    /// `numbers`, unless this is a pinned world and one is NaN or infinite: a pinned world
    /// takes only what its snapshot's restore would take (non-finite state is refused there),
    /// while a plain world, like stock rapier.js, takes anything.
    fn finite<'a>(&self, numbers: &'a [f64], what: &str) -> Result<&'a [f64], JsValue> {
        match numbers.iter().position(|x| !x.is_finite()) {
            Some(i) if self.is_pinned() => Err(js_error(&format!(
                "{what}: number {i} is {}; a PinnedWorld takes finite numbers only",
                numbers[i]
            ))),
            _ => Ok(numbers),
        }
    }

    fn pinned_world(&self) -> Result<&PinnedWorld, JsValue> {
        match &self.inner {
            Inner::Pinned(w) => Ok(w),
            Inner::Plain(_) => Err(js_error("a plain World has no snapshots: use PinnedWorld")),
        }
    }

    /// The parameters the next step uses.
    pub fn params(&self) -> IntegrationParameters {
        match &self.inner {
            Inner::Plain(w) => w.integration_parameters,
            Inner::Pinned(w) => *w.integration_parameters(),
        }
    }
}

/// A key from JavaScript: `undefined`, or exactly 32 bytes.
pub fn key(bytes: Option<Vec<u8>>) -> Result<Option<SnapshotKey>, JsValue> {
    bytes
        .map(|b| {
            <[u8; 32]>::try_from(b.as_slice())
                .map(SnapshotKey::new)
                .map_err(|_| js_error(&format!("a snapshot key is 32 bytes, not {}", b.len())))
        })
        .transpose()
}

#[wasm_bindgen]
impl RawWorld {
    /// A plain world with rapier3d's default parameters and this gravity.
    #[wasm_bindgen(js_name = newPlain)]
    pub fn new_plain(gx: f32, gy: f32, gz: f32) -> RawWorld {
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(gx, gy, gz);
        RawWorld::plain(world)
    }

    /// Whether the world is pinned.
    #[wasm_bindgen(js_name = isPinned)]
    pub fn is_pinned(&self) -> bool {
        matches!(self.inner, Inner::Pinned(_))
    }

    /// One step.
    pub fn step(&mut self) {
        match &mut self.inner {
            Inner::Plain(w) => w.step(),
            Inner::Pinned(w) => w.step(),
        }
    }

    /// The state digest of every body, as 16 hex digits (`crates/digest/src/lib.rs`).
    pub fn digest(&self) -> String {
        format!("{:016x}", rapier_pinned_digest::state_digest(self.bodies()))
    }

    /// The gravity, `[x, y, z]`.
    pub fn gravity(&self) -> Vec<f32> {
        let g = match &self.inner {
            Inner::Plain(w) => w.gravity,
            Inner::Pinned(w) => w.gravity(),
        };
        g.to_array().to_vec()
    }

    /// Sets a plain world's gravity; a pinned world's is its config's, so this throws.
    #[wasm_bindgen(js_name = setGravity)]
    pub fn set_gravity(&mut self, gx: f32, gy: f32, gz: f32) -> Result<(), JsValue> {
        match &mut self.inner {
            Inner::Plain(w) => {
                w.gravity = Vector::new(gx, gy, gz);
                Ok(())
            }
            Inner::Pinned(_) => Err(js_error(
                "a PinnedWorld's gravity is its physics-version's settings: it cannot be set",
            )),
        }
    }

    /// One integration parameter by its rapier.js name ([`crate::params::NAMES`]).
    pub fn param(&self, name: &str) -> Result<f64, JsValue> {
        crate::params::get(&self.params(), name)
    }

    /// Sets one integration parameter of a plain world; a pinned world's are pinned, so this
    /// throws.
    #[wasm_bindgen(js_name = setParam)]
    pub fn set_param(&mut self, name: &str, value: f64) -> Result<(), JsValue> {
        match &mut self.inner {
            Inner::Plain(w) => crate::params::set(&mut w.integration_parameters, name, value),
            Inner::Pinned(w) => Err(js_error(&format!(
                "integrationParameters.{name}: a PinnedWorld's parameters are physics-version {}'s and cannot be changed",
                w.config().physics_version()
            ))),
        }
    }

    /// Inserts a body of `kind` (rapier.js's `RigidBodyType`: 0 dynamic, 1 fixed, 2 kinematic
    /// position-based, 3 kinematic velocity-based) described by [`BODY_FIELDS`].
    #[wasm_bindgen(js_name = createBody)]
    pub fn create_body(&mut self, kind: u8, fields: &[f64]) -> Result<f64, JsValue> {
        let f = self.finite(
            layout(fields, BODY_FIELDS.len(), "RigidBodyDesc")?,
            "RigidBodyDesc",
        )?;
        let kind = match kind {
            0 => RigidBodyType::Dynamic,
            1 => RigidBodyType::Fixed,
            2 => RigidBodyType::KinematicPositionBased,
            3 => RigidBodyType::KinematicVelocityBased,
            k => return Err(js_error(&format!("{k} is not a RigidBodyType"))),
        };
        let mut body = RigidBodyBuilder::new(kind)
            .pose(Pose::from_parts(vec3(f, 0), quat(f, 3)))
            .linvel(vec3(f, 7))
            .angvel(vec3(f, 10))
            .gravity_scale(f[13] as Real)
            .linear_damping(f[14] as Real)
            .angular_damping(f[15] as Real)
            .dominance_group(f[17] as i8)
            .ccd_enabled(f[18] != 0.0)
            .can_sleep(f[19] != 0.0)
            .sleeping(f[20] != 0.0)
            .soft_ccd_prediction(f[21] as Real);
        if f[16] != 0.0 {
            body = body.additional_mass(f[16] as Real);
        }
        let handle = match &mut self.inner {
            Inner::Plain(w) => w.insert_body(body),
            Inner::Pinned(w) => w.insert_body(body),
        };
        Ok(flat(handle.into_raw_parts()))
    }

    /// Inserts a collider of `shape` ([`crate::shapes::build`]) described by
    /// [`COLLIDER_FIELDS`], attached to `parent` (a body handle) or to nothing (`parent` < 0).
    #[wasm_bindgen(js_name = createCollider)]
    pub fn create_collider(
        &mut self,
        shape: u8,
        dims: &[f32],
        points: &[f32],
        indices: &[u32],
        fields: &[f64],
        parent: f64,
    ) -> Result<f64, JsValue> {
        let f = self.finite(
            layout(fields, COLLIDER_FIELDS.len(), "ColliderDesc")?,
            "ColliderDesc",
        )?;
        let shape_numbers: Vec<f64> = dims.iter().chain(points).map(|&x| x as f64).collect();
        self.finite(&shape_numbers, "ColliderDesc's shape")?;
        let mut collider = crate::shapes::build(shape, dims, points, indices)?
            .position(Pose::from_parts(vec3(f, 0), quat(f, 3)))
            .friction(f[7] as Real)
            .restitution(f[8] as Real)
            .sensor(f[11] != 0.0);
        collider = match f[9] as u8 {
            0 => collider,
            1 => collider.density(f[10] as Real),
            2 => collider.mass(f[10] as Real),
            m => return Err(js_error(&format!("{m} is not a mass mode"))),
        };
        let parent = if parent < 0.0 {
            None
        } else {
            let handle = body_handle(parent)?;
            if self.bodies().get(handle).is_none() {
                return Err(js_error(
                    "the collider's parent is no rigid body of this world",
                ));
            }
            Some(handle)
        };
        let handle = match &mut self.inner {
            Inner::Plain(w) => w.insert_collider(collider, parent),
            Inner::Pinned(w) => w.insert_collider(collider, parent),
        };
        Ok(flat(handle.into_raw_parts()))
    }

    /// Inserts an impulse joint of `kind` (0 spherical, 1 revolute, 2 prismatic, 3 fixed)
    /// described by [`JOINT_FIELDS`] between two bodies.
    #[wasm_bindgen(js_name = createImpulseJoint)]
    pub fn create_impulse_joint(
        &mut self,
        kind: u8,
        fields: &[f64],
        body1: f64,
        body2: f64,
        wake_up: bool,
    ) -> Result<f64, JsValue> {
        let f = self.finite(
            layout(fields, JOINT_FIELDS.len(), "JointData")?,
            "JointData",
        )?;
        let (a1, a2, axis) = (vec3(f, 0), vec3(f, 3), vec3(f, 6));
        let joint: GenericJoint = match kind {
            0 => SphericalJointBuilder::new()
                .local_anchor1(a1)
                .local_anchor2(a2)
                .into(),
            1 => RevoluteJointBuilder::new(axis)
                .local_anchor1(a1)
                .local_anchor2(a2)
                .into(),
            2 => PrismaticJointBuilder::new(axis)
                .local_anchor1(a1)
                .local_anchor2(a2)
                .into(),
            3 => FixedJointBuilder::new()
                .local_frame1(Pose::from_parts(a1, quat(f, 9)))
                .local_frame2(Pose::from_parts(a2, quat(f, 13)))
                .into(),
            k => return Err(js_error(&format!("{k} is not a joint type"))),
        };
        let (b1, b2) = (body_handle(body1)?, body_handle(body2)?);
        if self.bodies().get(b1).is_none() || self.bodies().get(b2).is_none() {
            return Err(js_error(
                "a joint's bodies must be rigid bodies of this world",
            ));
        }
        let handle = match &mut self.inner {
            Inner::Plain(w) => w.impulse_joints.insert(b1, b2, joint, wake_up),
            // PinnedWorld's insertion always wakes both bodies.
            Inner::Pinned(w) => w.insert_impulse_joint(b1, b2, joint),
        };
        Ok(flat(handle.0.into_raw_parts()))
    }

    /// Every body's handle, in ascending handle order.
    #[wasm_bindgen(js_name = bodyHandles)]
    pub fn body_handles(&self) -> Vec<f64> {
        let mut handles: Vec<(u32, u32)> = self
            .bodies()
            .iter()
            .map(|(h, _)| h.into_raw_parts())
            .collect();
        handles.sort_unstable();
        handles.into_iter().map(flat).collect()
    }

    /// Whether `handle` is a body of this world.
    #[wasm_bindgen(js_name = hasBody)]
    pub fn has_body(&self, handle: f64) -> bool {
        self.body(handle).is_ok()
    }

    /// A body's 13 state numbers: translation, rotation (x y z w), linear and angular velocity.
    #[wasm_bindgen(js_name = bodyState)]
    pub fn body_state(&self, handle: f64) -> Result<Vec<f32>, JsValue> {
        Ok(rapier_pinned_digest::body_state(self.body(handle)?).to_vec())
    }

    /// A body's type (rapier.js's `RigidBodyType` numbers), mass, sleep and CCD flags:
    /// `[type, mass, sleeping, ccdEnabled]`.
    #[wasm_bindgen(js_name = bodyInfo)]
    pub fn body_info(&self, handle: f64) -> Result<Vec<f64>, JsValue> {
        let body = self.body(handle)?;
        let kind = match body.body_type() {
            RigidBodyType::Dynamic => 0.0,
            RigidBodyType::Fixed => 1.0,
            RigidBodyType::KinematicPositionBased => 2.0,
            RigidBodyType::KinematicVelocityBased => 3.0,
            // A soft body's frame: no rapier.js type; this API never makes one.
            _ => -1.0,
        };
        Ok(vec![
            kind,
            body.mass() as f64,
            body.is_sleeping() as u8 as f64,
            body.is_ccd_enabled() as u8 as f64,
        ])
    }

    /// Changes a body: `what` is 0 translation, 1 rotation (x y z w), 2 linear velocity,
    /// 3 angular velocity, 4 apply an impulse, 5 apply a torque impulse, 6 add a force,
    /// 7 add a torque, 8 reset forces and torques.
    #[wasm_bindgen(js_name = bodySet)]
    pub fn body_set(
        &mut self,
        handle: f64,
        what: u8,
        v: &[f64],
        wake_up: bool,
    ) -> Result<(), JsValue> {
        let want = match what {
            1 => 4,
            8 => 0,
            _ => 3,
        };
        let v = self.finite(layout(v, want, "a body change")?, "a body change")?;
        let body = self.body_mut(handle)?;
        match what {
            0 => body.set_translation(vec3(v, 0), wake_up),
            1 => body.set_rotation(quat(v, 0), wake_up),
            2 => body.set_linvel(vec3(v, 0), wake_up),
            3 => body.set_angvel(vec3(v, 0), wake_up),
            4 => body.apply_impulse(vec3(v, 0), wake_up),
            5 => body.apply_torque_impulse(vec3(v, 0), wake_up),
            6 => body.add_force(vec3(v, 0), wake_up),
            7 => body.add_torque(vec3(v, 0), wake_up),
            8 => body.reset_forces(wake_up),
            w => return Err(js_error(&format!("{w} is not a body change"))),
        }
        Ok(())
    }

    /// How many bodies and colliders the world holds: `[bodies, colliders]`.
    pub fn counts(&self) -> Vec<u32> {
        let colliders = match &self.inner {
            Inner::Plain(w) => w.colliders.len(),
            Inner::Pinned(w) => w.colliders().len(),
        };
        vec![self.bodies().len() as u32, colliders as u32]
    }

    /// A pinned world's tick (steps since its config's world was made).
    pub fn tick(&self) -> Result<f64, JsValue> {
        Ok(self.pinned_world()?.tick() as f64)
    }

    /// A pinned world's physics-version.
    #[wasm_bindgen(js_name = physicsVersion)]
    pub fn physics_version(&self) -> Result<u32, JsValue> {
        Ok(self.pinned_world()?.config().physics_version().get())
    }

    /// A pinned world's match id.
    #[wasm_bindgen(js_name = matchId)]
    pub fn match_id(&self) -> Result<u64, JsValue> {
        Ok(self.pinned_world()?.config().match_id())
    }

    /// A pinned world's snapshot (format 1; format 2, LZ4, when `compressed`), with a MAC when
    /// `key` (32 bytes) is given.
    pub fn snapshot(
        &self,
        key_bytes: Option<Vec<u8>>,
        compressed: bool,
    ) -> Result<Vec<u8>, JsValue> {
        let world = self.pinned_world()?;
        let key = key(key_bytes)?;
        Ok(if compressed {
            world.snapshot_compressed(key.as_ref())
        } else {
            world.snapshot(key.as_ref())
        })
    }

    /// Replaces a pinned world by the snapshot `bytes`, with every check of `docs/protocol.md`;
    /// on a refusal (a `PinnedError`) the world is unchanged.
    pub fn restore(&mut self, bytes: &[u8], key_bytes: Option<Vec<u8>>) -> Result<(), JsValue> {
        let key = key(key_bytes)?;
        match &mut self.inner {
            Inner::Pinned(w) => w
                .restore_into(bytes, key.as_ref())
                .map_err(|e| pinned_error(&e)),
            Inner::Plain(_) => Err(js_error("a plain World has no snapshots: use PinnedWorld")),
        }
    }
}

/// The state digest (crates/digest) of the bodies of a world of stock's API (`World.digest()`,
/// an addition of the package), as `RawWorld::digest` and native code print it.
#[wasm_bindgen(js_name = bodiesDigest)]
pub fn bodies_digest(bodies: &rapier_pinned_js_raw::RawRigidBodySet) -> String {
    format!("{:016x}", rapier_pinned_digest::state_digest(bodies.set()))
}
