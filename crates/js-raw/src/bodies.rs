//! `RawRigidBodySet`: rapier3d's `RigidBodySet` behind stock's `rb*` methods.

use js_sys::{Float32Array, Function};
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::interface::{err, from_flat, to_flat, unit_quat, write};
use crate::math::{RawRotation, RawVector};

/// rapier.js's `RawRigidBodyType`, in its order.
#[wasm_bindgen]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RawRigidBodyType {
    Dynamic = 0,
    Fixed = 1,
    KinematicPositionBased = 2,
    KinematicVelocityBased = 3,
    SoftFrame = 4,
}

impl From<RawRigidBodyType> for RigidBodyType {
    fn from(t: RawRigidBodyType) -> Self {
        match t {
            RawRigidBodyType::Dynamic => RigidBodyType::Dynamic,
            RawRigidBodyType::Fixed => RigidBodyType::Fixed,
            RawRigidBodyType::KinematicPositionBased => RigidBodyType::KinematicPositionBased,
            RawRigidBodyType::KinematicVelocityBased => RigidBodyType::KinematicVelocityBased,
            // Only the engine makes soft frames (soft bodies, not in this build): a user's
            // request for one is a dynamic body, as rapier3d's builder treats it.
            RawRigidBodyType::SoftFrame => RigidBodyType::Dynamic,
        }
    }
}

fn raw_type(t: RigidBodyType) -> RawRigidBodyType {
    match t {
        RigidBodyType::Dynamic => RawRigidBodyType::Dynamic,
        RigidBodyType::Fixed => RawRigidBodyType::Fixed,
        RigidBodyType::KinematicPositionBased => RawRigidBodyType::KinematicPositionBased,
        RigidBodyType::KinematicVelocityBased => RawRigidBodyType::KinematicVelocityBased,
        #[allow(unreachable_patterns)]
        _ => RawRigidBodyType::SoftFrame,
    }
}

pub(crate) fn body_handle(handle: f64) -> RigidBodyHandle {
    let (i, g) = from_flat(handle);
    RigidBodyHandle::from_raw_parts(i, g)
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawRigidBodySet(pub(crate) RigidBodySet);

impl RawRigidBodySet {
    /// The set itself, for the pinned layer's digest (crates/js).
    pub fn set(&self) -> &RigidBodySet {
        &self.0
    }
    pub(crate) fn get(&self, handle: f64) -> Result<&RigidBody, JsValue> {
        self.0
            .get(body_handle(handle))
            .ok_or_else(|| err(&format!("no rigid-body with handle {handle:e}")))
    }
    pub(crate) fn get_mut(&mut self, handle: f64) -> Result<&mut RigidBody, JsValue> {
        self.0
            .get_mut(body_handle(handle))
            .ok_or_else(|| err(&format!("no rigid-body with handle {handle:e}")))
    }
}

#[wasm_bindgen]
impl RawRigidBodySet {
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
        self.0.contains(body_handle(handle))
    }

    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = createRigidBody)]
    pub fn create_rigid_body(
        &mut self,
        enabled: bool,
        translation: &RawVector,
        rotation: &RawRotation,
        gravity_scale: f32,
        mass: f32,
        mass_only: bool,
        center_of_mass: &RawVector,
        linvel: &RawVector,
        angvel: &RawVector,
        principal_angular_inertia: &RawVector,
        angular_inertia_frame: &RawRotation,
        translation_enabled_x: bool,
        translation_enabled_y: bool,
        translation_enabled_z: bool,
        rotation_enabled_x: bool,
        rotation_enabled_y: bool,
        rotation_enabled_z: bool,
        linear_damping: f32,
        angular_damping: f32,
        rb_type: RawRigidBodyType,
        can_sleep: bool,
        sleeping: bool,
        soft_ccd_prediction: f32,
        ccd_enabled: bool,
        dominance_group: i8,
        additional_solver_iterations: usize,
        additional_pgs_iterations: usize,
    ) -> f64 {
        let pose = Pose::from_parts(translation.0, rotation.0);
        let mut b = RigidBodyBuilder::new(rb_type.into())
            .enabled(enabled)
            .pose(pose)
            .gravity_scale(gravity_scale)
            .enabled_translations(
                translation_enabled_x,
                translation_enabled_y,
                translation_enabled_z,
            )
            .enabled_rotations(rotation_enabled_x, rotation_enabled_y, rotation_enabled_z)
            .linvel(linvel.0)
            .angvel(angvel.0)
            .linear_damping(linear_damping)
            .angular_damping(angular_damping)
            .can_sleep(can_sleep)
            .sleeping(sleeping)
            .ccd_enabled(ccd_enabled)
            .soft_ccd_prediction(soft_ccd_prediction)
            .dominance_group(dominance_group)
            .additional_solver_iterations(additional_solver_iterations)
            .additional_pgs_iterations(additional_pgs_iterations);
        b = if mass_only {
            b.additional_mass(mass)
        } else {
            b.additional_mass_properties(MassProperties::with_principal_inertia_frame(
                center_of_mass.0,
                mass,
                principal_angular_inertia.0,
                angular_inertia_frame.0,
            ))
        };
        to_flat(self.0.insert(b).into_raw_parts())
    }

    #[wasm_bindgen(js_name = forEachRigidBodyHandle)]
    pub fn for_each_rigid_body_handle(&self, f: &Function) {
        for (h, _) in self.0.iter() {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())));
        }
    }

    #[wasm_bindgen(js_name = rbTranslation)]
    pub fn rb_translation(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let t = self.get(handle)?.translation();
        write(buf, &[t.x, t.y, t.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbRotation)]
    pub fn rb_rotation(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let r = self.get(handle)?.rotation();
        write(buf, &[r.x, r.y, r.z, r.w]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbNextTranslation)]
    pub fn rb_next_translation(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let t = self.get(handle)?.next_position().translation;
        write(buf, &[t.x, t.y, t.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbNextRotation)]
    pub fn rb_next_rotation(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let r = self.get(handle)?.next_position().rotation;
        write(buf, &[r.x, r.y, r.z, r.w]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbLinvel)]
    pub fn rb_linvel(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get(handle)?.linvel();
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbAngvel)]
    pub fn rb_angvel(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get(handle)?.angvel();
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbVelocityAtPoint)]
    pub fn rb_velocity_at_point(
        &self,
        handle: f64,
        point: &RawVector,
        buf: &Float32Array,
    ) -> Result<(), JsValue> {
        let v = self.get(handle)?.velocity_at_point(point.0);
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbLocalCom)]
    pub fn rb_local_com(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get(handle)?.local_center_of_mass();
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbWorldCom)]
    pub fn rb_world_com(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get(handle)?.center_of_mass();
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbInvPrincipalInertia)]
    pub fn rb_inv_principal_inertia(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self
            .get(handle)?
            .mass_properties()
            .local_mprops
            .inv_principal_inertia;
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbPrincipalInertia)]
    pub fn rb_principal_inertia(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self
            .get(handle)?
            .mass_properties()
            .local_mprops
            .principal_inertia();
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbPrincipalInertiaLocalFrame)]
    pub fn rb_principal_inertia_local_frame(
        &self,
        handle: f64,
        buf: &Float32Array,
    ) -> Result<(), JsValue> {
        let r = self
            .get(handle)?
            .mass_properties()
            .local_mprops
            .principal_inertia_local_frame;
        write(buf, &[r.x, r.y, r.z, r.w]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbEffectiveInvMass)]
    pub fn rb_effective_inv_mass(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get(handle)?.mass_properties().effective_inv_mass;
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbEffectiveWorldInvInertia)]
    pub fn rb_effective_world_inv_inertia(
        &self,
        handle: f64,
        buf: &Float32Array,
    ) -> Result<(), JsValue> {
        let m = self
            .get(handle)?
            .mass_properties()
            .effective_world_inv_inertia;
        write(buf, &[m.m11, m.m12, m.m13, m.m22, m.m23, m.m33]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbEffectiveAngularInertia)]
    pub fn rb_effective_angular_inertia(
        &self,
        handle: f64,
        buf: &Float32Array,
    ) -> Result<(), JsValue> {
        let m = self
            .get(handle)?
            .mass_properties()
            .effective_angular_inertia();
        write(buf, &[m.m11, m.m12, m.m13, m.m22, m.m23, m.m33]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbUserForce)]
    pub fn rb_user_force(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get(handle)?.user_force();
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbUserTorque)]
    pub fn rb_user_torque(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get(handle)?.user_torque();
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }

    #[wasm_bindgen(js_name = rbSetTranslation)]
    pub fn rb_set_translation(
        &mut self,
        handle: f64,
        x: f32,
        y: f32,
        z: f32,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_translation(Vector::new(x, y, z), wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetRotation)]
    pub fn rb_set_rotation(
        &mut self,
        handle: f64,
        x: f32,
        y: f32,
        z: f32,
        w: f32,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_rotation(unit_quat(x, y, z, w), wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetLinvel)]
    pub fn rb_set_linvel(
        &mut self,
        handle: f64,
        v: &RawVector,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_linvel(v.0, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetAngvel)]
    pub fn rb_set_angvel(
        &mut self,
        handle: f64,
        v: &RawVector,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_angvel(v.0, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetNextKinematicTranslation)]
    pub fn rb_set_next_kinematic_translation(
        &mut self,
        handle: f64,
        x: f32,
        y: f32,
        z: f32,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_next_kinematic_translation(Vector::new(x, y, z));
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetNextKinematicRotation)]
    pub fn rb_set_next_kinematic_rotation(
        &mut self,
        handle: f64,
        x: f32,
        y: f32,
        z: f32,
        w: f32,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_next_kinematic_rotation(unit_quat(x, y, z, w));
        Ok(())
    }
    #[wasm_bindgen(js_name = rbAddForce)]
    pub fn rb_add_force(
        &mut self,
        handle: f64,
        v: &RawVector,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.add_force(v.0, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbAddTorque)]
    pub fn rb_add_torque(
        &mut self,
        handle: f64,
        v: &RawVector,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.add_torque(v.0, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbAddForceAtPoint)]
    pub fn rb_add_force_at_point(
        &mut self,
        handle: f64,
        force: &RawVector,
        point: &RawVector,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .add_force_at_point(force.0, point.0, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbApplyImpulse)]
    pub fn rb_apply_impulse(
        &mut self,
        handle: f64,
        v: &RawVector,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.apply_impulse(v.0, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbApplyTorqueImpulse)]
    pub fn rb_apply_torque_impulse(
        &mut self,
        handle: f64,
        v: &RawVector,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.apply_torque_impulse(v.0, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbApplyImpulseAtPoint)]
    pub fn rb_apply_impulse_at_point(
        &mut self,
        handle: f64,
        impulse: &RawVector,
        point: &RawVector,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .apply_impulse_at_point(impulse.0, point.0, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbResetForces)]
    pub fn rb_reset_forces(&mut self, handle: f64, wake_up: bool) -> Result<(), JsValue> {
        self.get_mut(handle)?.reset_forces(wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbResetTorques)]
    pub fn rb_reset_torques(&mut self, handle: f64, wake_up: bool) -> Result<(), JsValue> {
        self.get_mut(handle)?.reset_torques(wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbLockTranslations)]
    pub fn rb_lock_translations(
        &mut self,
        handle: f64,
        locked: bool,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.lock_translations(locked, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbLockRotations)]
    pub fn rb_lock_rotations(
        &mut self,
        handle: f64,
        locked: bool,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.lock_rotations(locked, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetEnabledTranslations)]
    pub fn rb_set_enabled_translations(
        &mut self,
        handle: f64,
        x: bool,
        y: bool,
        z: bool,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_enabled_translations(x, y, z, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetEnabledRotations)]
    pub fn rb_set_enabled_rotations(
        &mut self,
        handle: f64,
        x: bool,
        y: bool,
        z: bool,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_enabled_rotations(x, y, z, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetBodyType)]
    pub fn rb_set_body_type(
        &mut self,
        handle: f64,
        status: RawRigidBodyType,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_body_type(status.into(), wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbBodyType)]
    pub fn rb_body_type(&self, handle: f64) -> Result<RawRigidBodyType, JsValue> {
        Ok(raw_type(self.get(handle)?.body_type()))
    }
    #[wasm_bindgen(js_name = rbIsFixed)]
    pub fn rb_is_fixed(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_fixed())
    }
    #[wasm_bindgen(js_name = rbIsKinematic)]
    pub fn rb_is_kinematic(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_kinematic())
    }
    #[wasm_bindgen(js_name = rbIsDynamic)]
    pub fn rb_is_dynamic(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_dynamic())
    }
    #[wasm_bindgen(js_name = rbIsSoftFrame)]
    pub fn rb_is_soft_frame(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_soft_frame())
    }
    #[wasm_bindgen(js_name = rbSoftBody)]
    pub fn rb_soft_body(&self, handle: f64) -> Result<Option<f64>, JsValue> {
        Ok(self
            .get(handle)?
            .soft_body()
            .map(|h| to_flat(h.into_raw_parts())))
    }
    #[wasm_bindgen(js_name = rbSoftCluster)]
    pub fn rb_soft_cluster(&self, handle: f64) -> Result<Option<u32>, JsValue> {
        Ok(self.get(handle)?.soft_cluster())
    }
    #[wasm_bindgen(js_name = rbIsSleeping)]
    pub fn rb_is_sleeping(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_sleeping())
    }
    #[wasm_bindgen(js_name = rbIsMoving)]
    pub fn rb_is_moving(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_moving())
    }
    #[wasm_bindgen(js_name = rbIsEnabled)]
    pub fn rb_is_enabled(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_enabled())
    }
    #[wasm_bindgen(js_name = rbSetEnabled)]
    pub fn rb_set_enabled(&mut self, handle: f64, enabled: bool) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_enabled(enabled);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSleep)]
    pub fn rb_sleep(&mut self, handle: f64) -> Result<(), JsValue> {
        self.get_mut(handle)?.sleep();
        Ok(())
    }
    #[wasm_bindgen(js_name = rbWakeUp)]
    pub fn rb_wake_up(&mut self, handle: f64) -> Result<(), JsValue> {
        self.get_mut(handle)?.wake_up(true);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbIsCcdEnabled)]
    pub fn rb_is_ccd_enabled(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_ccd_enabled())
    }
    #[wasm_bindgen(js_name = rbEnableCcd)]
    pub fn rb_enable_ccd(&mut self, handle: f64, enabled: bool) -> Result<(), JsValue> {
        self.get_mut(handle)?.enable_ccd(enabled);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSoftCcdPrediction)]
    pub fn rb_soft_ccd_prediction(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.soft_ccd_prediction())
    }
    #[wasm_bindgen(js_name = rbSetSoftCcdPrediction)]
    pub fn rb_set_soft_ccd_prediction(&mut self, handle: f64, v: f32) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_soft_ccd_prediction(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbMass)]
    pub fn rb_mass(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.mass())
    }
    #[wasm_bindgen(js_name = rbInvMass)]
    pub fn rb_inv_mass(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.mass_properties().local_mprops.inv_mass)
    }
    #[wasm_bindgen(js_name = rbSetAdditionalMass)]
    pub fn rb_set_additional_mass(
        &mut self,
        handle: f64,
        mass: f32,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_additional_mass(mass, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbSetAdditionalMassProperties)]
    pub fn rb_set_additional_mass_properties(
        &mut self,
        handle: f64,
        mass: f32,
        center_of_mass: &RawVector,
        principal_angular_inertia: &RawVector,
        angular_inertia_frame: &RawRotation,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        let props = MassProperties::with_principal_inertia_frame(
            center_of_mass.0,
            mass,
            principal_angular_inertia.0,
            angular_inertia_frame.0,
        );
        self.get_mut(handle)?
            .set_additional_mass_properties(props, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbNumColliders)]
    pub fn rb_num_colliders(&self, handle: f64) -> Result<usize, JsValue> {
        Ok(self.get(handle)?.colliders().len())
    }
    #[wasm_bindgen(js_name = rbCollider)]
    pub fn rb_collider(&self, handle: f64, at: usize) -> Result<f64, JsValue> {
        let c = self.get(handle)?.colliders();
        c.get(at)
            .map(|h| to_flat(h.into_raw_parts()))
            .ok_or_else(|| err(&format!("rbCollider: index {at} out of {}", c.len())))
    }
    #[wasm_bindgen(js_name = rbGravityScale)]
    pub fn rb_gravity_scale(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.gravity_scale())
    }
    #[wasm_bindgen(js_name = rbSetGravityScale)]
    pub fn rb_set_gravity_scale(
        &mut self,
        handle: f64,
        v: f32,
        wake_up: bool,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_gravity_scale(v, wake_up);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbLinearDamping)]
    pub fn rb_linear_damping(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.linear_damping())
    }
    #[wasm_bindgen(js_name = rbSetLinearDamping)]
    pub fn rb_set_linear_damping(&mut self, handle: f64, v: f32) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_linear_damping(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbAngularDamping)]
    pub fn rb_angular_damping(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.angular_damping())
    }
    #[wasm_bindgen(js_name = rbSetAngularDamping)]
    pub fn rb_set_angular_damping(&mut self, handle: f64, v: f32) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_angular_damping(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbDominanceGroup)]
    pub fn rb_dominance_group(&self, handle: f64) -> Result<i8, JsValue> {
        Ok(self.get(handle)?.dominance_group())
    }
    #[wasm_bindgen(js_name = rbSetDominanceGroup)]
    pub fn rb_set_dominance_group(&mut self, handle: f64, v: i8) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_dominance_group(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbAdditionalSolverIterations)]
    pub fn rb_additional_solver_iterations(&self, handle: f64) -> Result<usize, JsValue> {
        Ok(self.get(handle)?.additional_solver_iterations())
    }
    #[wasm_bindgen(js_name = rbSetAdditionalSolverIterations)]
    pub fn rb_set_additional_solver_iterations(
        &mut self,
        handle: f64,
        v: usize,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_additional_solver_iterations(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbAdditionalPgsIterations)]
    pub fn rb_additional_pgs_iterations(&self, handle: f64) -> Result<usize, JsValue> {
        Ok(self.get(handle)?.additional_pgs_iterations())
    }
    #[wasm_bindgen(js_name = rbSetAdditionalPgsIterations)]
    pub fn rb_set_additional_pgs_iterations(
        &mut self,
        handle: f64,
        v: usize,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_additional_pgs_iterations(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = rbUserData)]
    pub fn rb_user_data(&self, handle: f64) -> Result<u32, JsValue> {
        Ok(self.get(handle)?.user_data as u32)
    }
    #[wasm_bindgen(js_name = rbSetUserData)]
    pub fn rb_set_user_data(&mut self, handle: f64, v: u32) -> Result<(), JsValue> {
        self.get_mut(handle)?.user_data = v as u128;
        Ok(())
    }
}
