//! `RawColliderSet`: rapier3d's `ColliderSet` behind stock's `co*` methods (its per-collider
//! queries are in queries.rs).

use js_sys::{Float32Array, Function, Uint32Array};
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::bodies::{body_handle, RawRigidBodySet};
use crate::interface::{err, from_flat, to_flat, unit_quat, unsupported, write};
use crate::math::{RawRotation, RawVector};
use crate::sets::{RawIslandManager, RawSoftBodySet};
use crate::shapes::{self, RawShape, RawShapeType};

pub(crate) fn collider_handle(handle: f64) -> ColliderHandle {
    let (i, g) = from_flat(handle);
    ColliderHandle::from_raw_parts(i, g)
}

/// rapier.js packs a collider's groups in one number: memberships in the high 16 bits, the
/// filter in the low 16.
pub(crate) fn unpack_groups(groups: u32) -> InteractionGroups {
    InteractionGroups::new(
        Group::from_bits_retain(groups >> 16),
        Group::from_bits_retain(groups & 0xffff),
        InteractionTestMode::And,
    )
}

fn pack_groups(g: InteractionGroups) -> u32 {
    (g.memberships.bits() << 16) | (g.filter.bits() & 0xffff)
}

fn combine_rule(rule: u32) -> Result<CoefficientCombineRule, JsValue> {
    Ok(match rule {
        0 => CoefficientCombineRule::Average,
        1 => CoefficientCombineRule::Min,
        2 => CoefficientCombineRule::Multiply,
        3 => CoefficientCombineRule::Max,
        _ => {
            return Err(err(&format!(
                "{rule} is not a coefficient combine rule (0 to 3)"
            )))
        }
    })
}

fn combine_rule_number(rule: CoefficientCombineRule) -> u32 {
    rule as u32
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawColliderSet(pub(crate) ColliderSet);

impl RawColliderSet {
    pub(crate) fn get(&self, handle: f64) -> Result<&Collider, JsValue> {
        self.0
            .get(collider_handle(handle))
            .ok_or_else(|| err(&format!("no collider with handle {handle:e}")))
    }
    fn get_mut(&mut self, handle: f64) -> Result<&mut Collider, JsValue> {
        self.0
            .get_mut(collider_handle(handle))
            .ok_or_else(|| err(&format!("no collider with handle {handle:e}")))
    }
}

#[wasm_bindgen]
impl RawColliderSet {
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
        self.0.contains(collider_handle(handle))
    }
    #[wasm_bindgen(js_name = isHandleValid)]
    pub fn is_handle_valid(&self, handle: f64) -> bool {
        self.contains(handle)
    }
    #[wasm_bindgen(js_name = forEachColliderHandle)]
    pub fn for_each_collider_handle(&self, f: &Function) {
        for (h, _) in self.0.iter() {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(to_flat(h.into_raw_parts())));
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = createCollider)]
    pub fn create_collider(
        &mut self,
        enabled: bool,
        shape: &RawShape,
        translation: &RawVector,
        rotation: &RawRotation,
        mass_props_mode: u32,
        mass: f32,
        center_of_mass: &RawVector,
        principal_angular_inertia: &RawVector,
        angular_inertia_frame: &RawRotation,
        density: f32,
        friction: f32,
        restitution: f32,
        friction_combine_rule: u32,
        restitution_combine_rule: u32,
        is_sensor: bool,
        collision_groups: u32,
        solver_groups: u32,
        active_collision_types: u16,
        active_hooks: u32,
        active_events: u32,
        contact_force_event_threshold: f32,
        contact_skin: f32,
        has_parent: bool,
        parent: f64,
        bodies: &mut RawRigidBodySet,
    ) -> Result<Option<f64>, JsValue> {
        let mut b = ColliderBuilder::new(shape.0.clone())
            .enabled(enabled)
            .position(Pose::from_parts(translation.0, rotation.0))
            .friction(friction)
            .restitution(restitution)
            .friction_combine_rule(combine_rule(friction_combine_rule)?)
            .restitution_combine_rule(combine_rule(restitution_combine_rule)?)
            .sensor(is_sensor)
            .collision_groups(unpack_groups(collision_groups))
            .solver_groups(unpack_groups(solver_groups))
            .active_collision_types(ActiveCollisionTypes::from_bits_truncate(
                active_collision_types,
            ))
            .active_hooks(ActiveHooks::from_bits_truncate(active_hooks))
            .active_events(ActiveEvents::from_bits_truncate(active_events))
            .contact_force_event_threshold(contact_force_event_threshold)
            .contact_skin(contact_skin);
        b = match mass_props_mode {
            0 => b.density(density),
            1 => b.mass(mass),
            2 => b.mass_properties(MassProperties::with_principal_inertia_frame(
                center_of_mass.0,
                mass,
                principal_angular_inertia.0,
                angular_inertia_frame.0,
            )),
            m => return Err(err(&format!("{m} is not a mass properties mode (0 to 2)"))),
        };
        if has_parent {
            let parent = body_handle(parent);
            if !bodies.0.contains(parent) {
                return Ok(None);
            }
            let h = self.0.insert_with_parent(b, parent, &mut bodies.0);
            Ok(Some(to_flat(h.into_raw_parts())))
        } else {
            Ok(Some(to_flat(self.0.insert(b).into_raw_parts())))
        }
    }

    #[wasm_bindgen(js_name = createDeformableCollider)]
    pub fn create_deformable_collider(&mut self) -> Result<f64, JsValue> {
        Err(unsupported("RawColliderSet.createDeformableCollider"))
    }

    pub fn remove(
        &mut self,
        handle: f64,
        islands: &mut RawIslandManager,
        bodies: &mut RawRigidBodySet,
        soft_bodies: &mut RawSoftBodySet,
        wake_up: bool,
    ) {
        self.0.remove(
            collider_handle(handle),
            &mut islands.0,
            &mut bodies.0,
            &mut soft_bodies.0,
            wake_up,
        );
    }

    #[wasm_bindgen(js_name = coTranslation)]
    pub fn co_translation(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let t = self.get(handle)?.translation();
        write(buf, &[t.x, t.y, t.z]);
        Ok(())
    }
    #[wasm_bindgen(js_name = coRotation)]
    pub fn co_rotation(&self, handle: f64, buf: &Float32Array) -> Result<(), JsValue> {
        let r = self.get(handle)?.rotation();
        write(buf, &[r.x, r.y, r.z, r.w]);
        Ok(())
    }
    #[wasm_bindgen(js_name = coTranslationWrtParent)]
    pub fn co_translation_wrt_parent(
        &self,
        handle: f64,
        buf: &Float32Array,
    ) -> Result<bool, JsValue> {
        Ok(match self.get(handle)?.position_wrt_parent() {
            Some(p) => {
                write(buf, &[p.translation.x, p.translation.y, p.translation.z]);
                true
            }
            None => false,
        })
    }
    #[wasm_bindgen(js_name = coRotationWrtParent)]
    pub fn co_rotation_wrt_parent(&self, handle: f64, buf: &Float32Array) -> Result<bool, JsValue> {
        Ok(match self.get(handle)?.position_wrt_parent() {
            Some(p) => {
                let r = p.rotation;
                write(buf, &[r.x, r.y, r.z, r.w]);
                true
            }
            None => false,
        })
    }
    #[wasm_bindgen(js_name = coSetTranslation)]
    pub fn co_set_translation(
        &mut self,
        handle: f64,
        x: f32,
        y: f32,
        z: f32,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_translation(Vector::new(x, y, z));
        Ok(())
    }
    #[wasm_bindgen(js_name = coSetTranslationWrtParent)]
    pub fn co_set_translation_wrt_parent(
        &mut self,
        handle: f64,
        x: f32,
        y: f32,
        z: f32,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_translation_wrt_parent(Vector::new(x, y, z));
        Ok(())
    }
    #[wasm_bindgen(js_name = coSetRotation)]
    pub fn co_set_rotation(
        &mut self,
        handle: f64,
        x: f32,
        y: f32,
        z: f32,
        w: f32,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_rotation(unit_quat(x, y, z, w));
        Ok(())
    }
    #[wasm_bindgen(js_name = coSetRotationWrtParent)]
    pub fn co_set_rotation_wrt_parent(
        &mut self,
        handle: f64,
        x: f32,
        y: f32,
        z: f32,
        w: f32,
    ) -> Result<(), JsValue> {
        // rapier3d's setter takes an axis-angle; stock's takes the quaternion as is.
        let c = self.get_mut(handle)?;
        let t = c
            .position_wrt_parent()
            .map(|p| p.translation)
            .unwrap_or_default();
        c.set_position_wrt_parent(Pose::from_parts(t, unit_quat(x, y, z, w)));
        Ok(())
    }
    #[wasm_bindgen(js_name = coIsSensor)]
    pub fn co_is_sensor(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_sensor())
    }
    #[wasm_bindgen(js_name = coSetSensor)]
    pub fn co_set_sensor(&mut self, handle: f64, is_sensor: bool) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_sensor(is_sensor);
        Ok(())
    }
    #[wasm_bindgen(js_name = coIsEnabled)]
    pub fn co_is_enabled(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.is_enabled())
    }
    #[wasm_bindgen(js_name = coSetEnabled)]
    pub fn co_set_enabled(&mut self, handle: f64, enabled: bool) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_enabled(enabled);
        Ok(())
    }
    #[wasm_bindgen(js_name = coIsDeformable)]
    pub fn co_is_deformable(&self, handle: f64) -> Result<bool, JsValue> {
        Ok(self.get(handle)?.deformable_mesh_ref().is_some())
    }
    #[wasm_bindgen(js_name = coSoftBody)]
    pub fn co_soft_body(&self, handle: f64) -> Result<Option<f64>, JsValue> {
        Ok(self
            .get(handle)?
            .deformable_mesh_ref()
            .map(|m| to_flat(m.body.into_raw_parts())))
    }
    #[wasm_bindgen(js_name = coParent)]
    pub fn co_parent(&self, handle: f64) -> Result<Option<f64>, JsValue> {
        Ok(self
            .get(handle)?
            .parent()
            .map(|h| to_flat(h.into_raw_parts())))
    }
    #[wasm_bindgen(js_name = coShapeType)]
    pub fn co_shape_type(&self, handle: f64) -> Result<RawShapeType, JsValue> {
        shapes::raw_shape_type(self.get(handle)?.shape().shape_type())
            .ok_or_else(|| err("coShapeType: a shape type rapier.js has no number for"))
    }
    #[wasm_bindgen(js_name = coShape)]
    pub fn co_shape(&self, handle: f64) -> Result<RawShape, JsValue> {
        Ok(RawShape(self.get(handle)?.shared_shape().clone()))
    }
    #[wasm_bindgen(js_name = coSetShape)]
    pub fn co_set_shape(&mut self, handle: f64, shape: &RawShape) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_shape(shape.0.clone());
        Ok(())
    }
    #[wasm_bindgen(js_name = coHalfExtents)]
    pub fn co_half_extents(&self, handle: f64, buf: &Float32Array) -> Result<bool, JsValue> {
        Ok(
            match shapes::shape_half_extents(self.get(handle)?.shape()) {
                Some(h) => {
                    write(buf, &[h.x, h.y, h.z]);
                    true
                }
                None => false,
            },
        )
    }
    #[wasm_bindgen(js_name = coRadius)]
    pub fn co_radius(&self, handle: f64) -> Result<Option<f32>, JsValue> {
        Ok(shapes::shape_radius(self.get(handle)?.shape()))
    }
    #[wasm_bindgen(js_name = coHalfHeight)]
    pub fn co_half_height(&self, handle: f64) -> Result<Option<f32>, JsValue> {
        Ok(shapes::shape_half_height(self.get(handle)?.shape()))
    }
    #[wasm_bindgen(js_name = coRoundRadius)]
    pub fn co_round_radius(&self, handle: f64) -> Result<Option<f32>, JsValue> {
        Ok(shapes::shape_round_radius(self.get(handle)?.shape()))
    }
    #[wasm_bindgen(js_name = coVertices)]
    pub fn co_vertices(&self, handle: f64) -> Result<Option<Float32Array>, JsValue> {
        Ok(shapes::shape_vertices(self.get(handle)?.shape()).map(|v| Float32Array::from(&v[..])))
    }
    #[wasm_bindgen(js_name = coIndices)]
    pub fn co_indices(&self, handle: f64) -> Result<Option<Uint32Array>, JsValue> {
        Ok(shapes::shape_indices(self.get(handle)?.shape()).map(|v| Uint32Array::from(&v[..])))
    }
    #[wasm_bindgen(js_name = coFriction)]
    pub fn co_friction(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.friction())
    }
    #[wasm_bindgen(js_name = coSetFriction)]
    pub fn co_set_friction(&mut self, handle: f64, v: f32) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_friction(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = coRestitution)]
    pub fn co_restitution(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.restitution())
    }
    #[wasm_bindgen(js_name = coSetRestitution)]
    pub fn co_set_restitution(&mut self, handle: f64, v: f32) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_restitution(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = coFrictionCombineRule)]
    pub fn co_friction_combine_rule(&self, handle: f64) -> Result<u32, JsValue> {
        Ok(combine_rule_number(
            self.get(handle)?.friction_combine_rule(),
        ))
    }
    #[wasm_bindgen(js_name = coSetFrictionCombineRule)]
    pub fn co_set_friction_combine_rule(&mut self, handle: f64, rule: u32) -> Result<(), JsValue> {
        let rule = combine_rule(rule)?;
        self.get_mut(handle)?.set_friction_combine_rule(rule);
        Ok(())
    }
    #[wasm_bindgen(js_name = coRestitutionCombineRule)]
    pub fn co_restitution_combine_rule(&self, handle: f64) -> Result<u32, JsValue> {
        Ok(combine_rule_number(
            self.get(handle)?.restitution_combine_rule(),
        ))
    }
    #[wasm_bindgen(js_name = coSetRestitutionCombineRule)]
    pub fn co_set_restitution_combine_rule(
        &mut self,
        handle: f64,
        rule: u32,
    ) -> Result<(), JsValue> {
        let rule = combine_rule(rule)?;
        self.get_mut(handle)?.set_restitution_combine_rule(rule);
        Ok(())
    }
    #[wasm_bindgen(js_name = coDensity)]
    pub fn co_density(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.density())
    }
    #[wasm_bindgen(js_name = coSetDensity)]
    pub fn co_set_density(&mut self, handle: f64, v: f32) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_density(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = coMass)]
    pub fn co_mass(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.mass())
    }
    #[wasm_bindgen(js_name = coSetMass)]
    pub fn co_set_mass(&mut self, handle: f64, v: f32) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_mass(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = coSetMassProperties)]
    pub fn co_set_mass_properties(
        &mut self,
        handle: f64,
        mass: f32,
        center_of_mass: &RawVector,
        principal_angular_inertia: &RawVector,
        angular_inertia_frame: &RawRotation,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_mass_properties(MassProperties::with_principal_inertia_frame(
                center_of_mass.0,
                mass,
                principal_angular_inertia.0,
                angular_inertia_frame.0,
            ));
        Ok(())
    }
    #[wasm_bindgen(js_name = coVolume)]
    pub fn co_volume(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.volume())
    }
    #[wasm_bindgen(js_name = coCollisionGroups)]
    pub fn co_collision_groups(&self, handle: f64) -> Result<u32, JsValue> {
        Ok(pack_groups(self.get(handle)?.collision_groups()))
    }
    #[wasm_bindgen(js_name = coSetCollisionGroups)]
    pub fn co_set_collision_groups(&mut self, handle: f64, groups: u32) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_collision_groups(unpack_groups(groups));
        Ok(())
    }
    #[wasm_bindgen(js_name = coSolverGroups)]
    pub fn co_solver_groups(&self, handle: f64) -> Result<u32, JsValue> {
        Ok(pack_groups(self.get(handle)?.solver_groups()))
    }
    #[wasm_bindgen(js_name = coSetSolverGroups)]
    pub fn co_set_solver_groups(&mut self, handle: f64, groups: u32) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_solver_groups(unpack_groups(groups));
        Ok(())
    }
    #[wasm_bindgen(js_name = coActiveHooks)]
    pub fn co_active_hooks(&self, handle: f64) -> Result<u32, JsValue> {
        Ok(self.get(handle)?.active_hooks().bits())
    }
    #[wasm_bindgen(js_name = coSetActiveHooks)]
    pub fn co_set_active_hooks(&mut self, handle: f64, hooks: u32) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_active_hooks(ActiveHooks::from_bits_truncate(hooks));
        Ok(())
    }
    #[wasm_bindgen(js_name = coActiveEvents)]
    pub fn co_active_events(&self, handle: f64) -> Result<u32, JsValue> {
        Ok(self.get(handle)?.active_events().bits())
    }
    #[wasm_bindgen(js_name = coSetActiveEvents)]
    pub fn co_set_active_events(&mut self, handle: f64, events: u32) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_active_events(ActiveEvents::from_bits_truncate(events));
        Ok(())
    }
    #[wasm_bindgen(js_name = coActiveCollisionTypes)]
    pub fn co_active_collision_types(&self, handle: f64) -> Result<u16, JsValue> {
        Ok(self.get(handle)?.active_collision_types().bits())
    }
    #[wasm_bindgen(js_name = coSetActiveCollisionTypes)]
    pub fn co_set_active_collision_types(
        &mut self,
        handle: f64,
        types: u16,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .set_active_collision_types(ActiveCollisionTypes::from_bits_truncate(types));
        Ok(())
    }
    #[wasm_bindgen(js_name = coContactForceEventThreshold)]
    pub fn co_contact_force_event_threshold(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.contact_force_event_threshold())
    }
    #[wasm_bindgen(js_name = coSetContactForceEventThreshold)]
    pub fn co_set_contact_force_event_threshold(
        &mut self,
        handle: f64,
        v: f32,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_contact_force_event_threshold(v);
        Ok(())
    }
    #[wasm_bindgen(js_name = coContactSkin)]
    pub fn co_contact_skin(&self, handle: f64) -> Result<f32, JsValue> {
        Ok(self.get(handle)?.contact_skin())
    }
    #[wasm_bindgen(js_name = coSetContactSkin)]
    pub fn co_set_contact_skin(&mut self, handle: f64, v: f32) -> Result<(), JsValue> {
        self.get_mut(handle)?.set_contact_skin(v);
        Ok(())
    }
}
