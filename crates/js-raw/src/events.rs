//! `RawEventQueue` and `RawContactForceEvent`.

use std::sync::mpsc::{channel, Receiver};

use js_sys::{Float32Array, Function};
use rapier3d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::interface::{to_flat, unsupported, write};

/// The events of the steps since the last drain, in the order rapier3d reported them.
#[wasm_bindgen]
pub struct RawEventQueue {
    pub(crate) auto_drain: bool,
    collisions: Vec<CollisionEvent>,
    forces: Vec<ContactForceEvent>,
    pending: Option<(
        Receiver<CollisionEvent>,
        Receiver<ContactForceEvent>,
        Receiver<SoftBodyTearEvent>,
    )>,
}

impl RawEventQueue {
    /// A collector for one step; `collect` moves what it gathered into the queue.
    pub(crate) fn collector(&mut self) -> ChannelEventCollector {
        let (cs, cr) = channel();
        let (fs, fr) = channel();
        let (ts, tr) = channel();
        self.pending = Some((cr, fr, tr));
        ChannelEventCollector::new(cs, fs, ts)
    }
    pub(crate) fn collect(&mut self) {
        if let Some((cr, fr, _)) = self.pending.take() {
            self.collisions.extend(cr.try_iter());
            self.forces.extend(fr.try_iter());
        }
    }
}

#[wasm_bindgen]
impl RawEventQueue {
    /// `autoDrain`: the queue empties itself at the start of each step.
    #[wasm_bindgen(constructor)]
    pub fn new(auto_drain: bool) -> Self {
        Self {
            auto_drain,
            collisions: Vec::new(),
            forces: Vec::new(),
            pending: None,
        }
    }
    pub fn clear(&mut self) {
        self.collisions.clear();
        self.forces.clear();
    }
    /// Calls `f(collider1, collider2, started)` for each collision event, then forgets them.
    #[wasm_bindgen(js_name = drainCollisionEvents)]
    pub fn drain_collision_events(&mut self, f: &Function) {
        for e in self.collisions.drain(..) {
            let (h1, h2, started) = match e {
                CollisionEvent::Started(h1, h2, _) => (h1, h2, true),
                CollisionEvent::Stopped(h1, h2, _) => (h1, h2, false),
            };
            let _ = f.call3(
                &JsValue::NULL,
                &JsValue::from(to_flat(h1.into_raw_parts())),
                &JsValue::from(to_flat(h2.into_raw_parts())),
                &JsValue::from(started),
            );
        }
    }
    /// Calls `f(event)` for each contact-force event, then forgets them.
    #[wasm_bindgen(js_name = drainContactForceEvents)]
    pub fn drain_contact_force_events(&mut self, f: &Function) {
        for e in self.forces.drain(..) {
            let _ = f.call1(&JsValue::NULL, &JsValue::from(RawContactForceEvent(e)));
        }
    }
    /// No soft bodies in this build, hence no tears.
    #[wasm_bindgen(js_name = drainSoftBodyTearEvents)]
    pub fn drain_soft_body_tear_events(&mut self, _f: &Function) -> Result<(), JsValue> {
        Err(unsupported("RawEventQueue.drainSoftBodyTearEvents"))
    }
}

#[wasm_bindgen]
pub struct RawContactForceEvent(ContactForceEvent);

#[wasm_bindgen]
impl RawContactForceEvent {
    pub fn collider1(&self) -> f64 {
        to_flat(self.0.collider1.into_raw_parts())
    }
    pub fn collider2(&self) -> f64 {
        to_flat(self.0.collider2.into_raw_parts())
    }
    pub fn total_force(&self, buf: &Float32Array) {
        let v = self.0.total_force;
        write(buf, &[v.x, v.y, v.z]);
    }
    pub fn total_force_magnitude(&self) -> f32 {
        self.0.total_force_magnitude
    }
    pub fn max_force_direction(&self, buf: &Float32Array) {
        let v = self.0.max_force_direction;
        write(buf, &[v.x, v.y, v.z]);
    }
    pub fn max_force_magnitude(&self) -> f32 {
        self.0.max_force_magnitude
    }
}
