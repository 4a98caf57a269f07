//! rapier3d's controllers behind stock's raw classes: `RawKinematicCharacterController` (and
//! `RawCharacterCollision`), `RawDynamicRayCastVehicleController`, `RawPidController`.

use js_sys::{Float32Array, Function};
use rapier3d::control::{
    CharacterAutostep, CharacterCollision, CharacterLength, DynamicRayCastVehicleController,
    EffectiveCharacterMovement, KinematicCharacterController, PidController, WheelTuning,
};
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::bodies::{body_handle, RawRigidBodySet};
use crate::colliders::{collider_handle, unpack_groups, RawColliderSet};
use crate::interface::{err, to_flat, write};
use crate::math::{RawRotation, RawVector};
use crate::sets::{RawBroadPhase, RawNarrowPhase};

/// A JavaScript predicate's answer: only `false` filters out (stock's layer passes a closure
/// answering `undefined` when the game gave none).
fn predicate_of(f: &Function) -> impl Fn(ColliderHandle, &Collider) -> bool + '_ {
    move |h, _| {
        f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true)
    }
}

fn length(l: CharacterLength) -> f32 {
    match l {
        CharacterLength::Absolute(x) | CharacterLength::Relative(x) => x,
    }
}

#[wasm_bindgen]
pub struct RawKinematicCharacterController {
    controller: KinematicCharacterController,
    result: EffectiveCharacterMovement,
    collisions: Vec<CharacterCollision>,
}

#[wasm_bindgen]
impl RawKinematicCharacterController {
    /// rapier3d's defaults but for the offset, absolute as stock's.
    #[wasm_bindgen(constructor)]
    pub fn new(offset: f32) -> Self {
        let controller = KinematicCharacterController {
            offset: CharacterLength::Absolute(offset),
            autostep: None,
            snap_to_ground: None,
            ..KinematicCharacterController::default()
        };
        Self {
            controller,
            result: EffectiveCharacterMovement {
                translation: Vector::ZERO,
                grounded: false,
                is_sliding_down_slope: false,
            },
            collisions: Vec::new(),
        }
    }
    pub fn up(&self) -> RawVector {
        RawVector(self.controller.up)
    }
    #[wasm_bindgen(js_name = setUp)]
    pub fn set_up(&mut self, v: &RawVector) {
        self.controller.up = v.0.normalize_or_zero();
    }
    pub fn offset(&self) -> f32 {
        length(self.controller.offset)
    }
    #[wasm_bindgen(js_name = setOffset)]
    pub fn set_offset(&mut self, v: f32) {
        self.controller.offset = CharacterLength::Absolute(v);
    }
    #[wasm_bindgen(js_name = normalNudgeFactor)]
    pub fn normal_nudge_factor(&self) -> f32 {
        self.controller.normal_nudge_factor
    }
    #[wasm_bindgen(js_name = setNormalNudgeFactor)]
    pub fn set_normal_nudge_factor(&mut self, v: f32) {
        self.controller.normal_nudge_factor = v;
    }
    #[wasm_bindgen(js_name = slideEnabled)]
    pub fn slide_enabled(&self) -> bool {
        self.controller.slide
    }
    #[wasm_bindgen(js_name = setSlideEnabled)]
    pub fn set_slide_enabled(&mut self, v: bool) {
        self.controller.slide = v;
    }
    #[wasm_bindgen(js_name = autostepEnabled)]
    pub fn autostep_enabled(&self) -> bool {
        self.controller.autostep.is_some()
    }
    #[wasm_bindgen(js_name = autostepMaxHeight)]
    pub fn autostep_max_height(&self) -> Option<f32> {
        self.controller.autostep.map(|a| length(a.max_height))
    }
    #[wasm_bindgen(js_name = autostepMinWidth)]
    pub fn autostep_min_width(&self) -> Option<f32> {
        self.controller.autostep.map(|a| length(a.min_width))
    }
    #[wasm_bindgen(js_name = autostepIncludesDynamicBodies)]
    pub fn autostep_includes_dynamic_bodies(&self) -> Option<bool> {
        self.controller.autostep.map(|a| a.include_dynamic_bodies)
    }
    #[wasm_bindgen(js_name = enableAutostep)]
    pub fn enable_autostep(
        &mut self,
        max_height: f32,
        min_width: f32,
        include_dynamic_bodies: bool,
    ) {
        self.controller.autostep = Some(CharacterAutostep {
            max_height: CharacterLength::Absolute(max_height),
            min_width: CharacterLength::Absolute(min_width),
            include_dynamic_bodies,
        });
    }
    #[wasm_bindgen(js_name = disableAutostep)]
    pub fn disable_autostep(&mut self) {
        self.controller.autostep = None;
    }
    #[wasm_bindgen(js_name = maxSlopeClimbAngle)]
    pub fn max_slope_climb_angle(&self) -> f32 {
        self.controller.max_slope_climb_angle
    }
    #[wasm_bindgen(js_name = setMaxSlopeClimbAngle)]
    pub fn set_max_slope_climb_angle(&mut self, v: f32) {
        self.controller.max_slope_climb_angle = v;
    }
    #[wasm_bindgen(js_name = minSlopeSlideAngle)]
    pub fn min_slope_slide_angle(&self) -> f32 {
        self.controller.min_slope_slide_angle
    }
    #[wasm_bindgen(js_name = setMinSlopeSlideAngle)]
    pub fn set_min_slope_slide_angle(&mut self, v: f32) {
        self.controller.min_slope_slide_angle = v;
    }
    #[wasm_bindgen(js_name = snapToGroundDistance)]
    pub fn snap_to_ground_distance(&self) -> Option<f32> {
        self.controller.snap_to_ground.map(length)
    }
    #[wasm_bindgen(js_name = enableSnapToGround)]
    pub fn enable_snap_to_ground(&mut self, distance: f32) {
        self.controller.snap_to_ground = Some(CharacterLength::Absolute(distance));
    }
    #[wasm_bindgen(js_name = disableSnapToGround)]
    pub fn disable_snap_to_ground(&mut self) {
        self.controller.snap_to_ground = None;
    }
    #[wasm_bindgen(js_name = snapToGroundEnabled)]
    pub fn snap_to_ground_enabled(&self) -> bool {
        self.controller.snap_to_ground.is_some()
    }

    /// Moves the collider's shape from its pose by up to `desired_translation_delta`, recording
    /// the collisions; with `apply_impulses_to_dynamic_bodies`, pushes the dynamic bodies hit
    /// (mass: `character_mass`, else the collider's body's).
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = computeColliderMovement)]
    pub fn compute_collider_movement(
        &mut self,
        dt: f32,
        broad_phase: &RawBroadPhase,
        narrow_phase: &RawNarrowPhase,
        bodies: &mut RawRigidBodySet,
        colliders: &mut RawColliderSet,
        collider_handle_: f64,
        desired_translation_delta: &RawVector,
        apply_impulses_to_dynamic_bodies: bool,
        character_mass: Option<f32>,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_predicate: &Function,
    ) -> Result<(), JsValue> {
        let handle = collider_handle(collider_handle_);
        let collider = colliders
            .0
            .get(handle)
            .ok_or_else(|| err(&format!("no collider with handle {collider_handle_:e}")))?;
        let pose = *collider.position();
        let shape = collider.shared_shape().clone();
        let parent = collider.parent();
        let predicate = predicate_of(filter_predicate);
        let filter = QueryFilter {
            flags: QueryFilterFlags::from_bits_truncate(filter_flags),
            groups: filter_groups.map(unpack_groups),
            exclude_collider: Some(handle),
            exclude_rigid_body: None,
            predicate: Some(&predicate),
        };
        self.collisions.clear();
        let collisions = &mut self.collisions;
        let mut qp = broad_phase.0.as_query_pipeline_mut(
            narrow_phase.0.query_dispatcher(),
            &mut bodies.0,
            &mut colliders.0,
            filter,
        );
        self.result = self.controller.move_shape(
            dt,
            &qp.as_ref(),
            &*shape,
            &pose,
            desired_translation_delta.0,
            |c| collisions.push(c),
        );
        if apply_impulses_to_dynamic_bodies {
            let mass = character_mass.unwrap_or_else(|| {
                parent
                    .and_then(|h| qp.bodies.get(h))
                    .map(|b| b.mass())
                    .unwrap_or(0.0)
            });
            self.controller.solve_character_collision_impulses(
                dt,
                &mut qp,
                &*shape,
                mass,
                self.collisions.iter(),
            );
        }
        Ok(())
    }
    #[wasm_bindgen(js_name = computedMovement)]
    pub fn computed_movement(&self, buf: &Float32Array) {
        let t = self.result.translation;
        write(buf, &[t.x, t.y, t.z]);
    }
    #[wasm_bindgen(js_name = computedGrounded)]
    pub fn computed_grounded(&self) -> bool {
        self.result.grounded
    }
    #[wasm_bindgen(js_name = numComputedCollisions)]
    pub fn num_computed_collisions(&self) -> usize {
        self.collisions.len()
    }
    /// Copies collision `i` into `collision`; false when there is none.
    #[wasm_bindgen(js_name = computedCollision)]
    pub fn computed_collision(&self, i: usize, collision: &mut RawCharacterCollision) -> bool {
        match self.collisions.get(i) {
            Some(c) => {
                collision.0 = Some(*c);
                true
            }
            None => false,
        }
    }
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawCharacterCollision(Option<CharacterCollision>);

impl RawCharacterCollision {
    fn get(&self) -> Result<&CharacterCollision, JsValue> {
        self.0
            .as_ref()
            .ok_or_else(|| err("RawCharacterCollision: no collision copied into it yet"))
    }
}

/// A collision's vectors in world space: the query pipeline's hits have their first witness and
/// normal on the obstacle side, in world space, the second in the character's frame.
#[wasm_bindgen]
impl RawCharacterCollision {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }
    pub fn handle(&self) -> Result<f64, JsValue> {
        Ok(to_flat(self.get()?.handle.into_raw_parts()))
    }
    pub fn toi(&self) -> Result<f32, JsValue> {
        Ok(self.get()?.hit.time_of_impact)
    }
    #[wasm_bindgen(js_name = translationDeltaApplied)]
    pub fn translation_delta_applied(&self, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get()?.translation_applied;
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = translationDeltaRemaining)]
    pub fn translation_delta_remaining(&self, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get()?.translation_remaining;
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = worldWitness1)]
    pub fn world_witness1(&self, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get()?.hit.witness1;
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = worldWitness2)]
    pub fn world_witness2(&self, buf: &Float32Array) -> Result<(), JsValue> {
        let c = self.get()?;
        let v = c.character_pos * c.hit.witness2;
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = worldNormal1)]
    pub fn world_normal1(&self, buf: &Float32Array) -> Result<(), JsValue> {
        let v = self.get()?.hit.normal1;
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = worldNormal2)]
    pub fn world_normal2(&self, buf: &Float32Array) -> Result<(), JsValue> {
        let c = self.get()?;
        let v = c.character_pos.rotation * c.hit.normal2;
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
}

#[wasm_bindgen]
pub struct RawDynamicRayCastVehicleController(DynamicRayCastVehicleController);

macro_rules! wheel_fields {
    ($($get:ident / $set:ident => $field:ident),* $(,)?) => {
        #[wasm_bindgen]
        impl RawDynamicRayCastVehicleController {
            $(
                pub fn $get(&self, i: usize) -> Option<f32> {
                    self.0.wheels().get(i).map(|w| w.$field)
                }
                pub fn $set(&mut self, i: usize, value: f32) -> Result<(), JsValue> {
                    self.wheel_mut(i)?.$field = value;
                    Ok(())
                }
            )*
        }
    };
}

wheel_fields!(
    wheel_brake / set_wheel_brake => brake,
    wheel_engine_force / set_wheel_engine_force => engine_force,
    wheel_friction_slip / set_wheel_friction_slip => friction_slip,
    wheel_max_suspension_force / set_wheel_max_suspension_force => max_suspension_force,
    wheel_max_suspension_travel / set_wheel_max_suspension_travel => max_suspension_travel,
    wheel_radius / set_wheel_radius => radius,
    wheel_side_friction_stiffness / set_wheel_side_friction_stiffness => side_friction_stiffness,
    wheel_steering / set_wheel_steering => steering,
    wheel_suspension_compression / set_wheel_suspension_compression => damping_compression,
    wheel_suspension_relaxation / set_wheel_suspension_relaxation => damping_relaxation,
    wheel_suspension_rest_length / set_wheel_suspension_rest_length => suspension_rest_length,
    wheel_suspension_stiffness / set_wheel_suspension_stiffness => suspension_stiffness,
);

impl RawDynamicRayCastVehicleController {
    fn wheel_mut(&mut self, i: usize) -> Result<&mut rapier3d::control::Wheel, JsValue> {
        let n = self.0.wheels().len();
        self.0
            .wheels_mut()
            .get_mut(i)
            .ok_or_else(|| err(&format!("no wheel {i} (the vehicle has {n})")))
    }
    fn wheel_vector(
        &self,
        i: usize,
        buf: &Float32Array,
        f: impl Fn(&rapier3d::control::Wheel) -> Vector,
    ) -> bool {
        match self.0.wheels().get(i) {
            Some(w) => {
                let v = f(w);
                write(buf, &[v.x, v.y, v.z]);
                true
            }
            None => false,
        }
    }
}

#[wasm_bindgen]
impl RawDynamicRayCastVehicleController {
    #[wasm_bindgen(constructor)]
    pub fn new(chassis: f64) -> Self {
        Self(DynamicRayCastVehicleController::new(body_handle(chassis)))
    }
    pub fn chassis(&self) -> f64 {
        to_flat(self.0.chassis.into_raw_parts())
    }
    pub fn current_vehicle_speed(&self) -> f32 {
        self.0.current_vehicle_speed
    }
    pub fn index_up_axis(&self) -> usize {
        self.0.index_up_axis
    }
    pub fn set_index_up_axis(&mut self, axis: usize) -> Result<(), JsValue> {
        if axis > 2 {
            return Err(err(&format!("index_up_axis: {axis} is not 0, 1 or 2")));
        }
        self.0.index_up_axis = axis;
        Ok(())
    }
    pub fn index_forward_axis(&self) -> usize {
        self.0.index_forward_axis
    }
    pub fn set_index_forward_axis(&mut self, axis: usize) -> Result<(), JsValue> {
        if axis > 2 {
            return Err(err(&format!("index_forward_axis: {axis} is not 0, 1 or 2")));
        }
        self.0.index_forward_axis = axis;
        Ok(())
    }
    /// A wheel with rapier3d's default tuning.
    pub fn add_wheel(
        &mut self,
        chassis_connection_cs: &RawVector,
        direction_cs: &RawVector,
        axle_cs: &RawVector,
        suspension_rest_length: f32,
        radius: f32,
    ) {
        self.0.add_wheel(
            chassis_connection_cs.0,
            direction_cs.0,
            axle_cs.0,
            suspension_rest_length,
            radius,
            &WheelTuning::default(),
        );
    }
    pub fn num_wheels(&self) -> usize {
        self.0.wheels().len()
    }
    /// Updates the vehicle's velocity from its suspension, engine forces and brakes; the wheels'
    /// rays ignore the chassis.
    #[allow(clippy::too_many_arguments)]
    pub fn update_vehicle(
        &mut self,
        dt: f32,
        broad_phase: &RawBroadPhase,
        narrow_phase: &RawNarrowPhase,
        bodies: &mut RawRigidBodySet,
        colliders: &mut RawColliderSet,
        filter_flags: u32,
        filter_groups: Option<u32>,
        filter_predicate: &Function,
    ) -> Result<(), JsValue> {
        if !bodies.0.contains(self.0.chassis) {
            return Err(err("update_vehicle: the chassis is not in the world"));
        }
        let predicate = predicate_of(filter_predicate);
        let filter = QueryFilter {
            flags: QueryFilterFlags::from_bits_truncate(filter_flags),
            groups: filter_groups.map(unpack_groups),
            exclude_collider: None,
            exclude_rigid_body: Some(self.0.chassis),
            predicate: Some(&predicate),
        };
        let qp = broad_phase.0.as_query_pipeline_mut(
            narrow_phase.0.query_dispatcher(),
            &mut bodies.0,
            &mut colliders.0,
            filter,
        );
        self.0.update_vehicle(dt, qp);
        Ok(())
    }
    pub fn wheel_chassis_connection_point_cs(&self, i: usize, buf: &Float32Array) -> bool {
        self.wheel_vector(i, buf, |w| w.chassis_connection_point_cs)
    }
    pub fn set_wheel_chassis_connection_point_cs(
        &mut self,
        i: usize,
        v: &RawVector,
    ) -> Result<(), JsValue> {
        self.wheel_mut(i)?.chassis_connection_point_cs = v.0;
        Ok(())
    }
    pub fn wheel_direction_cs(&self, i: usize, buf: &Float32Array) -> bool {
        self.wheel_vector(i, buf, |w| w.direction_cs)
    }
    pub fn set_wheel_direction_cs(&mut self, i: usize, v: &RawVector) -> Result<(), JsValue> {
        self.wheel_mut(i)?.direction_cs = v.0;
        Ok(())
    }
    pub fn wheel_axle_cs(&self, i: usize, buf: &Float32Array) -> bool {
        self.wheel_vector(i, buf, |w| w.axle_cs)
    }
    pub fn set_wheel_axle_cs(&mut self, i: usize, v: &RawVector) -> Result<(), JsValue> {
        self.wheel_mut(i)?.axle_cs = v.0;
        Ok(())
    }
    pub fn wheel_rotation(&self, i: usize) -> Option<f32> {
        self.0.wheels().get(i).map(|w| w.rotation)
    }
    pub fn wheel_forward_impulse(&self, i: usize) -> Option<f32> {
        self.0.wheels().get(i).map(|w| w.forward_impulse)
    }
    pub fn wheel_side_impulse(&self, i: usize) -> Option<f32> {
        self.0.wheels().get(i).map(|w| w.side_impulse)
    }
    pub fn wheel_suspension_force(&self, i: usize) -> Option<f32> {
        self.0.wheels().get(i).map(|w| w.wheel_suspension_force)
    }
    pub fn wheel_suspension_length(&self, i: usize) -> Option<f32> {
        self.0
            .wheels()
            .get(i)
            .map(|w| w.raycast_info().suspension_length)
    }
    pub fn wheel_contact_normal_ws(&self, i: usize, buf: &Float32Array) -> bool {
        self.wheel_vector(i, buf, |w| w.raycast_info().contact_normal_ws)
    }
    pub fn wheel_contact_point_ws(&self, i: usize, buf: &Float32Array) -> bool {
        self.wheel_vector(i, buf, |w| w.raycast_info().contact_point_ws)
    }
    pub fn wheel_hard_point_ws(&self, i: usize, buf: &Float32Array) -> bool {
        self.wheel_vector(i, buf, |w| w.raycast_info().hard_point_ws)
    }
    pub fn wheel_is_in_contact(&self, i: usize) -> bool {
        self.0
            .wheels()
            .get(i)
            .map(|w| w.raycast_info().is_in_contact)
            .unwrap_or(false)
    }
    pub fn wheel_ground_object(&self, i: usize) -> Option<f64> {
        self.0
            .wheels()
            .get(i)
            .and_then(|w| w.raycast_info().ground_object)
            .map(|h| to_flat(h.into_raw_parts()))
    }
}

#[wasm_bindgen]
pub struct RawPidController(PidController);

/// The axes of `mask` (rapier3d's `AxesMask` bits: linear x, y, z, angular x, y, z).
fn set_gains(lin: &mut Vector, ang: &mut Vector, value: f32, mask: u8) {
    for i in 0..3 {
        if mask & (1 << i) != 0 {
            lin[i] = value;
        }
        if mask & (1 << (i + 3)) != 0 {
            ang[i] = value;
        }
    }
}

#[wasm_bindgen]
impl RawPidController {
    #[wasm_bindgen(constructor)]
    pub fn new(kp: f32, ki: f32, kd: f32, axes_mask: u8) -> Self {
        Self(PidController::new(
            kp,
            ki,
            kd,
            AxesMask::from_bits_truncate(axes_mask),
        ))
    }
    pub fn set_kp(&mut self, kp: f32, axes: u8) {
        let pd = &mut self.0.pd;
        set_gains(&mut pd.lin_kp, &mut pd.ang_kp, kp, axes);
    }
    pub fn set_ki(&mut self, ki: f32, axes: u8) {
        set_gains(&mut self.0.lin_ki, &mut self.0.ang_ki, ki, axes);
    }
    pub fn set_kd(&mut self, kd: f32, axes: u8) {
        let pd = &mut self.0.pd;
        set_gains(&mut pd.lin_kd, &mut pd.ang_kd, kd, axes);
    }
    pub fn set_axes_mask(&mut self, axes_mask: u8) {
        self.0.set_axes(AxesMask::from_bits_truncate(axes_mask));
    }
    pub fn reset_integrals(&mut self) {
        self.0.reset_integrals();
    }
    pub fn linear_correction(
        &mut self,
        dt: f32,
        bodies: &RawRigidBodySet,
        rb_handle: f64,
        target_translation: &RawVector,
        target_linvel: &RawVector,
        buf: &Float32Array,
    ) -> Result<(), JsValue> {
        let rb = bodies.get(rb_handle)?;
        let v = self
            .0
            .linear_rigid_body_correction(dt, rb, target_translation.0, target_linvel.0);
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    pub fn angular_correction(
        &mut self,
        dt: f32,
        bodies: &RawRigidBodySet,
        rb_handle: f64,
        target_rotation: &RawRotation,
        target_angvel: &RawVector,
        buf: &Float32Array,
    ) -> Result<(), JsValue> {
        let rb = bodies.get(rb_handle)?;
        let v = self
            .0
            .angular_rigid_body_correction(dt, rb, target_rotation.0, target_angvel.0);
        write(buf, &[v.x, v.y, v.z]);
        Ok(())
    }
    /// Adds the correction to the body's linear velocity (and wakes it).
    pub fn apply_linear_correction(
        &mut self,
        dt: f32,
        bodies: &mut RawRigidBodySet,
        rb_handle: f64,
        target_translation: &RawVector,
        target_linvel: &RawVector,
    ) -> Result<(), JsValue> {
        let rb = bodies.get(rb_handle)?;
        let v = self
            .0
            .linear_rigid_body_correction(dt, rb, target_translation.0, target_linvel.0);
        let rb = bodies.get_mut(rb_handle)?;
        rb.set_linvel(rb.linvel() + v, true);
        Ok(())
    }
    /// Adds the correction to the body's angular velocity (and wakes it).
    pub fn apply_angular_correction(
        &mut self,
        dt: f32,
        bodies: &mut RawRigidBodySet,
        rb_handle: f64,
        target_rotation: &RawRotation,
        target_angvel: &RawVector,
    ) -> Result<(), JsValue> {
        let rb = bodies.get(rb_handle)?;
        let v = self
            .0
            .angular_rigid_body_correction(dt, rb, target_rotation.0, target_angvel.0);
        let rb = bodies.get_mut(rb_handle)?;
        rb.set_angvel(rb.angvel() + v, true);
        Ok(())
    }
}
