//! The body set's methods that reach the collider and joint sets (removing a body with its
//! colliders and joints, moving colliders with their bodies, mass from colliders): apart from
//! `bodies`, so that the collider and joint sets, which name bodies, come after it.

use wasm_bindgen::prelude::*;

use crate::bodies::{body_handle, RawRigidBodySet};
use crate::colliders::RawColliderSet;
use crate::joints::{RawImpulseJointSet, RawMultibodyJointSet};
use crate::sets::{RawIslandManager, RawSoftBodySet};

#[wasm_bindgen]
impl RawRigidBodySet {
    pub fn remove(
        &mut self,
        handle: f64,
        islands: &mut RawIslandManager,
        colliders: &mut RawColliderSet,
        soft_bodies: &mut RawSoftBodySet,
        joints: &mut RawImpulseJointSet,
        articulations: &mut RawMultibodyJointSet,
    ) {
        self.0.remove(
            body_handle(handle),
            &mut islands.0,
            &mut colliders.0,
            &mut joints.0,
            &mut articulations.0,
            &mut soft_bodies.0,
            true,
        );
    }

    #[wasm_bindgen(js_name = propagateModifiedBodyPositionsToColliders)]
    pub fn propagate_modified_body_positions_to_colliders(
        &mut self,
        colliders: &mut RawColliderSet,
    ) {
        self.0
            .propagate_modified_body_positions_to_colliders(&mut colliders.0);
    }

    #[wasm_bindgen(js_name = rbRecomputeMassPropertiesFromColliders)]
    pub fn rb_recompute_mass_properties_from_colliders(
        &mut self,
        handle: f64,
        colliders: &RawColliderSet,
    ) -> Result<(), JsValue> {
        self.get_mut(handle)?
            .recompute_mass_properties_from_colliders(&colliders.0);
        Ok(())
    }
}
