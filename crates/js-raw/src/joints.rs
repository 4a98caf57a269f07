//! `RawGenericJoint`, `RawImpulseJointSet`, `RawMultibodyJointSet` and the joint enums.

use js_sys::{Float32Array, Function};
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::bodies::body_handle;
use crate::interface::{err, from_flat, to_flat, write};
use crate::math::{RawRotation, RawVector};

#[wasm_bindgen]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RawJointType {
    Revolute = 0,
    Fixed = 1,
    Prismatic = 2,
    Rope = 3,
    Spring = 4,
    Spherical = 5,
    Generic = 6,
}

#[wasm_bindgen]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RawJointAxis {
    LinX = 0,
    LinY = 1,
    LinZ = 2,
    AngX = 3,
    AngY = 4,
    AngZ = 5,
}

impl From<RawJointAxis> for JointAxis {
    fn from(a: RawJointAxis) -> Self {
        match a {
            RawJointAxis::LinX => JointAxis::LinX,
            RawJointAxis::LinY => JointAxis::LinY,
            RawJointAxis::LinZ => JointAxis::LinZ,
            RawJointAxis::AngX => JointAxis::AngX,
            RawJointAxis::AngY => JointAxis::AngY,
            RawJointAxis::AngZ => JointAxis::AngZ,
        }
    }
}

#[wasm_bindgen]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RawMotorModel {
    AccelerationBased = 0,
    ForceBased = 1,
}

impl From<RawMotorModel> for MotorModel {
    fn from(m: RawMotorModel) -> Self {
        match m {
            RawMotorModel::AccelerationBased => MotorModel::AccelerationBased,
            RawMotorModel::ForceBased => MotorModel::ForceBased,
        }
    }
}

/// The joint's kind as stock reports it, read back from its locked axes (a `GenericJoint` keeps no
/// kind of its own): fixed, revolute and prismatic are recognized; every other joint (spherical,
/// rope, spring, generic) is `Generic`, as in stock.
fn joint_type(j: &GenericJoint) -> RawJointType {
    let locked = j.locked_axes;
    if locked == JointAxesMask::LOCKED_FIXED_AXES {
        RawJointType::Fixed
    } else if locked == JointAxesMask::LOCKED_REVOLUTE_AXES {
        RawJointType::Revolute
    } else if locked == JointAxesMask::LOCKED_PRISMATIC_AXES {
        RawJointType::Prismatic
    } else {
        RawJointType::Generic
    }
}

/// Normalized `v` (times the reciprocal length, as stock rounds it), or `None` for a zero or
/// non-finite axis: stock answers `undefined` then.
fn unit(v: Vector) -> Option<Vector> {
    v.try_normalize()
}

#[wasm_bindgen]
pub struct RawGenericJoint(pub(crate) GenericJoint);

#[wasm_bindgen]
impl RawGenericJoint {
    pub fn fixed(
        anchor1: &RawVector,
        axes1: &RawRotation,
        anchor2: &RawVector,
        axes2: &RawRotation,
    ) -> RawGenericJoint {
        RawGenericJoint(
            FixedJointBuilder::new()
                .local_frame1(Pose::from_parts(anchor1.0, axes1.0))
                .local_frame2(Pose::from_parts(anchor2.0, axes2.0))
                .build()
                .into(),
        )
    }
    pub fn spherical(anchor1: &RawVector, anchor2: &RawVector) -> RawGenericJoint {
        RawGenericJoint(
            SphericalJointBuilder::new()
                .local_anchor1(anchor1.0)
                .local_anchor2(anchor2.0)
                .build()
                .into(),
        )
    }
    pub fn revolute(
        anchor1: &RawVector,
        anchor2: &RawVector,
        axis: &RawVector,
    ) -> Option<RawGenericJoint> {
        let axis = unit(axis.0)?;
        Some(RawGenericJoint(
            RevoluteJointBuilder::new(axis)
                .local_anchor1(anchor1.0)
                .local_anchor2(anchor2.0)
                .build()
                .into(),
        ))
    }
    #[wasm_bindgen(js_name = revoluteWithAxes)]
    pub fn revolute_with_axes(
        anchor1: &RawVector,
        anchor2: &RawVector,
        axis1: &RawVector,
        axis2: &RawVector,
    ) -> Option<RawGenericJoint> {
        let (axis1, axis2) = (unit(axis1.0)?, unit(axis2.0)?);
        let mut j: GenericJoint = RevoluteJointBuilder::new(axis1)
            .local_anchor1(anchor1.0)
            .local_anchor2(anchor2.0)
            .build()
            .into();
        j.set_local_axis2(axis2);
        Some(RawGenericJoint(j))
    }
    pub fn prismatic(
        anchor1: &RawVector,
        anchor2: &RawVector,
        axis: &RawVector,
        limits_enabled: bool,
        limits_min: f32,
        limits_max: f32,
    ) -> Option<RawGenericJoint> {
        let axis = unit(axis.0)?;
        let mut b = PrismaticJointBuilder::new(axis)
            .local_anchor1(anchor1.0)
            .local_anchor2(anchor2.0);
        if limits_enabled {
            b = b.limits([limits_min, limits_max]);
        }
        Some(RawGenericJoint(b.build().into()))
    }
    pub fn rope(length: f32, anchor1: &RawVector, anchor2: &RawVector) -> RawGenericJoint {
        RawGenericJoint(
            RopeJointBuilder::new(length)
                .local_anchor1(anchor1.0)
                .local_anchor2(anchor2.0)
                .build()
                .into(),
        )
    }
    pub fn spring(
        rest_length: f32,
        stiffness: f32,
        damping: f32,
        anchor1: &RawVector,
        anchor2: &RawVector,
    ) -> RawGenericJoint {
        RawGenericJoint(
            SpringJointBuilder::new(rest_length, stiffness, damping)
                .local_anchor1(anchor1.0)
                .local_anchor2(anchor2.0)
                .build()
                .into(),
        )
    }
    pub fn generic(
        anchor1: &RawVector,
        anchor2: &RawVector,
        axis: &RawVector,
        locked_axes: u8,
    ) -> Option<RawGenericJoint> {
        let axis = unit(axis.0)?;
        Some(RawGenericJoint(
            GenericJointBuilder::new(JointAxesMask::from_bits_truncate(locked_axes))
                .local_anchor1(anchor1.0)
                .local_anchor2(anchor2.0)
                .local_axis1(axis)
                .local_axis2(axis)
                .build(),
        ))
    }
}

fn ij_handle(handle: f64) -> ImpulseJointHandle {
    let (i, g) = from_flat(handle);
    ImpulseJointHandle::from_raw_parts(i, g)
}

fn mj_handle(handle: f64) -> MultibodyJointHandle {
    let (i, g) = from_flat(handle);
    MultibodyJointHandle::from_raw_parts(i, g)
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawImpulseJointSet(pub(crate) ImpulseJointSet);

impl RawImpulseJointSet {
    fn get(&self, handle: f64) -> Result<&ImpulseJoint, JsValue> {
        self.0
            .get(ij_handle(handle))
            .ok_or_else(|| err(&format!("no impulse joint with handle {handle:e}")))
    }
    /// Mutable access wakes both bodies, as stock's setters do.
    fn data_mut(&mut self, handle: f64) -> Result<&mut GenericJoint, JsValue> {
        self.0
            .get_mut(ij_handle(handle), true)
            .map(|j| &mut j.data)
            .ok_or_else(|| err(&format!("no impulse joint with handle {handle:e}")))
    }
}

#[wasm_bindgen]
impl RawImpulseJointSet {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn contains(&self, handle: f64) -> bool {
        self.0.contains(ij_handle(handle))
    }
    #[wasm_bindgen(js_name = createJoint)]
    pub fn create_joint(
        &mut self,
        params: &RawGenericJoint,
        parent1: f64,
        parent2: f64,
        wake_up: bool,
    ) -> f64 {
        let h = self.0.insert(
            body_handle(parent1),
            body_handle(parent2),
            params.0,
            wake_up,
        );
        to_flat(h.into_raw_parts())
    }
    pub fn remove(&mut self, handle: f64, wake_up: bool) {
        self.0.remove(ij_handle(handle), wake_up);
    }
    #[wasm_bindgen(js_name = forEachJointHandle)]
    pub fn for_each_joint_handle(&self, f: &Function) {
        for (h, _) in self.0.iter() {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())));
        }
    }
    #[wasm_bindgen(js_name = forEachJointAttachedToRigidBody)]
    pub fn for_each_joint_attached_to_rigid_body(&self, body: f64, f: &Function) {
        for (_, _, h, _) in self.0.attached_joints(body_handle(body)) {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())));
        }
    }
    #[wasm_bindgen(js_name = jointType)]
    pub fn joint_type(&self, handle: f64) -> Result<RawJointType, JsValue> {
        Ok(joint_type(&self.get(handle)?.data))
    }
    #[wasm_bindgen(js_name = jointBodyHandle1)]
    pub fn joint_body_handle1(&self, handle: f64) -> Result<f64, JsValue> {
        Ok(to_flat(self.get(handle)?.body1().into_raw_parts()))
    }
    #[wasm_bindgen(js_name = jointBodyHandle2)]
    pub fn joint_body_handle2(&self, handle: f64) -> Result<f64, JsValue> {
        Ok(to_flat(self.get(handle)?.body2().into_raw_parts()))
    }
    #[wasm_bindgen(js_name = jointFrameX1)]
    pub fn joint_frame_x1(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let r = self.get(handle)?.data.local_frame1.rotation;
        write(buf, &[r.x, r.y, r.z, r.w]);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointFrameX2)]
    pub fn joint_frame_x2(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let r = self.get(handle)?.data.local_frame2.rotation;
        write(buf, &[r.x, r.y, r.z, r.w]);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointAnchor1)]
    pub fn joint_anchor1(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let t = self.get(handle)?.data.local_frame1.translation;
        write(buf, &[t.x, t.y, t.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointAnchor2)]
    pub fn joint_anchor2(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let t = self.get(handle)?.data.local_frame2.translation;
        write(buf, &[t.x, t.y, t.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointSetAnchor1)]
    pub fn joint_set_anchor1(&mut self, handle: f64, p: &RawVector) -> Result<(), JsValue> {
        self.data_mut(handle)?.set_local_anchor1(p.0);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointSetAnchor2)]
    pub fn joint_set_anchor2(&mut self, handle: f64, p: &RawVector) -> Result<(), JsValue> {
        self.data_mut(handle)?.set_local_anchor2(p.0);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointSetFrameX1)]
    pub fn joint_set_frame_x1(&mut self, handle: f64, r: &RawRotation) -> Result<(), JsValue> {
        let d = self.data_mut(handle)?;
        let f = Pose::from_parts(d.local_frame1.translation, r.0);
        d.set_local_frame1(f);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointSetFrameX2)]
    pub fn joint_set_frame_x2(&mut self, handle: f64, r: &RawRotation) -> Result<(), JsValue> {
        let d = self.data_mut(handle)?;
        let f = Pose::from_parts(d.local_frame2.translation, r.0);
        d.set_local_frame2(f);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointSetLocalFrame1)]
    pub fn joint_set_local_frame1(
        &mut self,
        handle: f64,
        a: &RawVector,
        r: &RawRotation,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?
            .set_local_frame1(Pose::from_parts(a.0, r.0));
        Ok(())
    }
    #[wasm_bindgen(js_name = jointSetLocalFrame2)]
    pub fn joint_set_local_frame2(
        &mut self,
        handle: f64,
        a: &RawVector,
        r: &RawRotation,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?
            .set_local_frame2(Pose::from_parts(a.0, r.0));
        Ok(())
    }
    #[wasm_bindgen(js_name = jointContactsEnabled)]
    pub fn joint_contacts_enabled(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.data.contacts_enabled)
    }
    #[wasm_bindgen(js_name = jointSetContactsEnabled)]
    pub fn joint_set_contacts_enabled(
        &mut self,
        handle: f64,
        enabled: bool,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?.set_contacts_enabled(enabled);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointLimitsEnabled)]
    pub fn joint_limits_enabled(&self, handle: f64, axis: RawJointAxis) -> Result<bool, JsValue> {
        let axis: JointAxis = axis.into();
        Ok(self.get(handle)?.data.limit_axes.contains(axis.into()))
    }
    #[wasm_bindgen(js_name = jointLimitsMin)]
    pub fn joint_limits_min(&self, handle: f64, axis: RawJointAxis) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.data.limits[axis as usize].min)
    }
    #[wasm_bindgen(js_name = jointLimitsMax)]
    pub fn joint_limits_max(&self, handle: f64, axis: RawJointAxis) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.data.limits[axis as usize].max)
    }
    #[wasm_bindgen(js_name = jointSetLimits)]
    pub fn joint_set_limits(
        &mut self,
        handle: f64,
        axis: RawJointAxis,
        min: f32,
        max: f32,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?.set_limits(axis.into(), [min, max]);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointConfigureMotorModel)]
    pub fn joint_configure_motor_model(
        &mut self,
        handle: f64,
        axis: RawJointAxis,
        model: RawMotorModel,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?
            .set_motor_model(axis.into(), model.into());
        Ok(())
    }
    #[wasm_bindgen(js_name = jointConfigureMotorVelocity)]
    pub fn joint_configure_motor_velocity(
        &mut self,
        handle: f64,
        axis: RawJointAxis,
        target_vel: f32,
        factor: f32,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?
            .set_motor_velocity(axis.into(), target_vel, factor);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointConfigureMotorPosition)]
    pub fn joint_configure_motor_position(
        &mut self,
        handle: f64,
        axis: RawJointAxis,
        target_pos: f32,
        stiffness: f32,
        damping: f32,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?
            .set_motor_position(axis.into(), target_pos, stiffness, damping);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointConfigureMotor)]
    pub fn joint_configure_motor(
        &mut self,
        handle: f64,
        axis: RawJointAxis,
        target_pos: f32,
        target_vel: f32,
        stiffness: f32,
        damping: f32,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?
            .set_motor(axis.into(), target_pos, target_vel, stiffness, damping);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointSetMotorMaxForce)]
    pub fn joint_set_motor_max_force(
        &mut self,
        handle: f64,
        axis: RawJointAxis,
        max_force: f32,
    ) -> Result<(), JsValue> {
        self.data_mut(handle)?
            .set_motor_max_force(axis.into(), max_force);
        Ok(())
    }
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawMultibodyJointSet(pub(crate) MultibodyJointSet);

impl RawMultibodyJointSet {
    fn data(&self, handle: f64) -> Result<&GenericJoint, JsValue> {
        let (mb, link) = self
            .0
            .get(mj_handle(handle))
            .ok_or_else(|| err(&format!("no multibody joint with handle {handle:e}")))?;
        Ok(&mb.link(link).expect("a joint's own link").joint().data)
    }
}

#[wasm_bindgen]
impl RawMultibodyJointSet {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
    pub fn contains(&self, handle: f64) -> bool {
        self.0.get(mj_handle(handle)).is_some()
    }
    /// The new joint's handle; rapier3d refuses a joint that would close a loop (stock then
    /// answers an invalid handle too: this is rapier3d's `None`, as NaN bits).
    #[wasm_bindgen(js_name = createJoint)]
    pub fn create_joint(
        &mut self,
        params: &RawGenericJoint,
        parent1: f64,
        parent2: f64,
        wake_up: bool,
    ) -> f64 {
        match self.0.insert(
            body_handle(parent1),
            body_handle(parent2),
            params.0,
            wake_up,
        ) {
            Some(h) => to_flat(h.into_raw_parts()),
            None => to_flat((u32::MAX, u32::MAX)),
        }
    }
    pub fn remove(&mut self, handle: f64, wake_up: bool) {
        self.0.remove(mj_handle(handle), wake_up);
    }
    #[wasm_bindgen(js_name = forEachJointHandle)]
    pub fn for_each_joint_handle(&self, f: &Function) {
        for (h, _, _, _) in self.0.iter() {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())));
        }
    }
    #[wasm_bindgen(js_name = forEachJointAttachedToRigidBody)]
    pub fn for_each_joint_attached_to_rigid_body(&self, body: f64, f: &Function) {
        for (_, _, h) in self.0.attached_joints(body_handle(body)) {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())));
        }
    }
    #[wasm_bindgen(js_name = jointType)]
    pub fn joint_type(&self, handle: f64) -> Result<RawJointType, JsValue> {
        Ok(joint_type(self.data(handle)?))
    }
    #[wasm_bindgen(js_name = jointFrameX1)]
    pub fn joint_frame_x1(&self, handle: f64) -> Result<RawRotation, JsValue> {
        Ok(RawRotation(self.data(handle)?.local_frame1.rotation))
    }
    #[wasm_bindgen(js_name = jointFrameX2)]
    pub fn joint_frame_x2(&self, handle: f64) -> Result<RawRotation, JsValue> {
        Ok(RawRotation(self.data(handle)?.local_frame2.rotation))
    }
    #[wasm_bindgen(js_name = jointAnchor1)]
    pub fn joint_anchor1(&self, handle: f64) -> Result<RawVector, JsValue> {
        Ok(RawVector(self.data(handle)?.local_frame1.translation))
    }
    #[wasm_bindgen(js_name = jointAnchor2)]
    pub fn joint_anchor2(&self, handle: f64) -> Result<RawVector, JsValue> {
        Ok(RawVector(self.data(handle)?.local_frame2.translation))
    }
    #[wasm_bindgen(js_name = jointContactsEnabled)]
    pub fn joint_contacts_enabled(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.data(handle)?.contacts_enabled)
    }
    #[wasm_bindgen(js_name = jointSetContactsEnabled)]
    pub fn joint_set_contacts_enabled(
        &mut self,
        handle: f64,
        enabled: bool,
    ) -> Result<(), JsValue> {
        let (mb, link) = self
            .0
            .get_mut(mj_handle(handle))
            .ok_or_else(|| err(&format!("no multibody joint with handle {handle:e}")))?;
        mb.link_mut(link)
            .expect("a joint's own link")
            .joint
            .data
            .set_contacts_enabled(enabled);
        Ok(())
    }
    #[wasm_bindgen(js_name = jointLimitsEnabled)]
    pub fn joint_limits_enabled(&self, handle: f64, axis: RawJointAxis) -> Result<bool, JsValue> {
        let axis: JointAxis = axis.into();
        Ok(self.data(handle)?.limit_axes.contains(axis.into()))
    }
    #[wasm_bindgen(js_name = jointLimitsMin)]
    pub fn joint_limits_min(&self, handle: f64, axis: RawJointAxis) -> Result<f32, JsValue> {
        Ok(self.data(handle)?.limits[axis as usize].min)
    }
    #[wasm_bindgen(js_name = jointLimitsMax)]
    pub fn joint_limits_max(&self, handle: f64, axis: RawJointAxis) -> Result<f32, JsValue> {
        Ok(self.data(handle)?.limits[axis as usize].max)
    }
}
