//! The narrow phase's contacts as stock reads them: `RawNarrowPhase.contact_pair` and the
//! copies it returns (`RawContactPair`, `RawContactManifold`).

use js_sys::Float32Array;
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::bodies::RawRigidBodySet;
use crate::colliders::collider_handle;
use crate::interface::{to_flat, write};
use crate::sets::RawNarrowPhase;

#[wasm_bindgen]
impl RawNarrowPhase {
    /// The contact pair of the two colliders, if their bounding volumes meet.
    pub fn contact_pair(&self, handle1: f64, handle2: f64) -> Option<RawContactPair> {
        let pair = self
            .0
            .contact_pair(collider_handle(handle1), collider_handle(handle2))?;
        Some(RawContactPair {
            collider1: pair.collider1,
            collider2: pair.collider2,
            manifolds: pair.manifolds().to_vec(),
        })
    }
}

/// A copy of a contact pair (the narrow phase keeps changing the original).
#[wasm_bindgen]
pub struct RawContactPair {
    collider1: ColliderHandle,
    collider2: ColliderHandle,
    manifolds: Vec<ContactManifold>,
}

#[wasm_bindgen]
impl RawContactPair {
    pub fn collider1(&self) -> f64 {
        to_flat(self.collider1.into_raw_parts())
    }
    pub fn collider2(&self) -> f64 {
        to_flat(self.collider2.into_raw_parts())
    }
    #[wasm_bindgen(js_name = numContactManifolds)]
    pub fn num_contact_manifolds(&self) -> usize {
        self.manifolds.len()
    }
    #[wasm_bindgen(js_name = contactManifold)]
    pub fn contact_manifold(&self, i: usize) -> Option<RawContactManifold> {
        self.manifolds.get(i).cloned().map(RawContactManifold)
    }
}

#[wasm_bindgen]
pub struct RawContactManifold(ContactManifold);

#[wasm_bindgen]
impl RawContactManifold {
    pub fn normal(&self, buf: &Float32Array) {
        let n = self.0.data.normal;
        write(buf, &[n.x, n.y, n.z]);
    }
    pub fn local_n1(&self, buf: &Float32Array) {
        let n = self.0.local_n1;
        write(buf, &[n.x, n.y, n.z]);
    }
    pub fn local_n2(&self, buf: &Float32Array) {
        let n = self.0.local_n2;
        write(buf, &[n.x, n.y, n.z]);
    }
    pub fn subshape1(&self) -> u32 {
        self.0.subshape1
    }
    pub fn subshape2(&self) -> u32 {
        self.0.subshape2
    }
    pub fn num_contacts(&self) -> usize {
        self.0.points.len()
    }
    pub fn contact_local_p1(&self, i: usize, buf: &Float32Array) -> bool {
        match self.0.points.get(i) {
            Some(p) => {
                write(buf, &[p.local_p1.x, p.local_p1.y, p.local_p1.z]);
                true
            }
            None => false,
        }
    }
    pub fn contact_local_p2(&self, i: usize, buf: &Float32Array) -> bool {
        match self.0.points.get(i) {
            Some(p) => {
                write(buf, &[p.local_p2.x, p.local_p2.y, p.local_p2.z]);
                true
            }
            None => false,
        }
    }
    pub fn contact_dist(&self, i: usize) -> f32 {
        self.0.points.get(i).map(|p| p.dist).unwrap_or(0.0)
    }
    pub fn contact_fid1(&self, i: usize) -> u32 {
        self.0.points.get(i).map(|p| p.fid1.0).unwrap_or(0)
    }
    pub fn contact_fid2(&self, i: usize) -> u32 {
        self.0.points.get(i).map(|p| p.fid2.0).unwrap_or(0)
    }
    pub fn contact_impulse(&self, i: usize) -> f32 {
        self.0.points.get(i).map(|p| p.data.impulse).unwrap_or(0.0)
    }
    pub fn contact_tangent_impulse_x(&self, i: usize) -> f32 {
        self.0
            .points
            .get(i)
            .map(|p| p.data.tangent_impulse[0])
            .unwrap_or(0.0)
    }
    pub fn contact_tangent_impulse_y(&self, i: usize) -> f32 {
        self.0
            .points
            .get(i)
            .map(|p| p.data.tangent_impulse[1])
            .unwrap_or(0.0)
    }
    pub fn num_solver_contacts(&self) -> usize {
        self.0.data.solver_contacts.len()
    }
    /// The solver contact's effective point: the midpoint of its two anchors in world space.
    pub fn solver_contact_point(
        &self,
        bodies: &RawRigidBodySet,
        i: usize,
        buf: &Float32Array,
    ) -> bool {
        match self.0.data.solver_contacts.get(i) {
            Some(c) => {
                let (p1, p2) = self.0.data.solver_contact_world_points(c, bodies.set());
                let p = (p1 + p2) * 0.5;
                write(buf, &[p.x, p.y, p.z]);
                true
            }
            None => false,
        }
    }
    pub fn solver_contact_dist(&self, i: usize) -> f32 {
        self.0
            .data
            .solver_contacts
            .get(i)
            .map(|c| c.dist)
            .unwrap_or(0.0)
    }
    pub fn solver_contact_tangent_velocity(&self, i: usize, buf: &Float32Array) {
        if let Some(c) = self.0.data.solver_contacts.get(i) {
            let v = c.tangent_velocity;
            write(buf, &[v.x, v.y, v.z]);
        }
    }
    pub fn friction(&self) -> f32 {
        self.0.data.friction
    }
    pub fn restitution(&self) -> f32 {
        self.0.data.restitution
    }
}
