//! `RawPhysicsPipeline` (steps, with events and JavaScript physics hooks),
//! `RawSerializationPipeline` and `RawDeserializedWorld`.

use js_sys::{Function, Uint8Array};
use rapier3d::prelude::*;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::bodies::RawRigidBodySet;
use crate::colliders::RawColliderSet;
use crate::events::RawEventQueue;
use crate::interface::{to_flat, unsupported};
use crate::joints::{RawImpulseJointSet, RawMultibodyJointSet};
use crate::math::RawVector;
use crate::sets::{
    RawBroadPhase, RawCCDSolver, RawIntegrationParameters, RawIslandManager, RawNarrowPhase,
    RawSoftBodySet,
};

#[wasm_bindgen]
#[derive(Default)]
pub struct RawPhysicsPipeline(PhysicsPipeline);

/// The game's `PhysicsHooks` object, called from inside the step. rapier3d asks hooks to be
/// `Sync` for its parallel build; this module is single-threaded wasm (no `parallel` feature),
/// so the JavaScript values never cross a thread.
struct JsHooks {
    object: JsValue,
    filter_contact_pair: Option<Function>,
    filter_intersection_pair: Option<Function>,
}

// SAFETY: see the type's docs: wasm32 without threads; the hooks live for one step only.
unsafe impl Send for JsHooks {}
unsafe impl Sync for JsHooks {}

fn handle_or_nan(h: Option<RigidBodyHandle>) -> JsValue {
    match h {
        Some(h) => JsValue::from(to_flat(h.into_raw_parts())),
        None => JsValue::from(f64::NAN),
    }
}

impl JsHooks {
    fn args(ctx: &PairFilterContext) -> js_sys::Array {
        let a = js_sys::Array::new();
        a.push(&JsValue::from(to_flat(ctx.collider1.into_raw_parts())));
        a.push(&JsValue::from(to_flat(ctx.collider2.into_raw_parts())));
        a.push(&handle_or_nan(ctx.rigid_body1));
        a.push(&handle_or_nan(ctx.rigid_body2));
        a
    }
}

impl PhysicsHooks for JsHooks {
    fn filter_contact_pair(&self, ctx: &PairFilterContext) -> Option<SolverFlags> {
        let f = self.filter_contact_pair.as_ref()?;
        // A hook that throws or answers null drops the pair, as a `None` would.
        let r = f.apply(&self.object, &Self::args(ctx)).ok()?;
        let bits = r.as_f64()?;
        Some(SolverFlags::from_bits_truncate(bits as u32))
    }
    fn filter_intersection_pair(&self, ctx: &PairFilterContext) -> bool {
        match &self.filter_intersection_pair {
            Some(f) => f
                .apply(&self.object, &Self::args(ctx))
                .ok()
                .and_then(|r| r.as_bool())
                .unwrap_or(false),
            None => true,
        }
    }
}

#[wasm_bindgen]
impl RawPhysicsPipeline {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self::default()
    }

    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        gravity: &RawVector,
        integration_parameters: &RawIntegrationParameters,
        islands: &mut RawIslandManager,
        broad_phase: &mut RawBroadPhase,
        narrow_phase: &mut RawNarrowPhase,
        bodies: &mut RawRigidBodySet,
        colliders: &mut RawColliderSet,
        soft_bodies: &mut RawSoftBodySet,
        joints: &mut RawImpulseJointSet,
        articulations: &mut RawMultibodyJointSet,
        ccd_solver: &mut RawCCDSolver,
    ) {
        self.0.step(
            gravity.0,
            &integration_parameters.0,
            &mut islands.0,
            &mut broad_phase.0,
            &mut narrow_phase.0,
            &mut bodies.0,
            &mut colliders.0,
            &mut joints.0,
            &mut articulations.0,
            &mut soft_bodies.0,
            &mut ccd_solver.0,
            &(),
            &(),
        );
    }

    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = stepWithEvents)]
    pub fn step_with_events(
        &mut self,
        gravity: &RawVector,
        integration_parameters: &RawIntegrationParameters,
        islands: &mut RawIslandManager,
        broad_phase: &mut RawBroadPhase,
        narrow_phase: &mut RawNarrowPhase,
        bodies: &mut RawRigidBodySet,
        colliders: &mut RawColliderSet,
        soft_bodies: &mut RawSoftBodySet,
        joints: &mut RawImpulseJointSet,
        articulations: &mut RawMultibodyJointSet,
        ccd_solver: &mut RawCCDSolver,
        event_queue: &mut RawEventQueue,
        hook_object: JsValue,
        hook_filter_contact_pair: JsValue,
        hook_filter_intersection_pair: JsValue,
    ) {
        if event_queue.auto_drain {
            event_queue.clear();
        }
        let collector = event_queue.collector();
        let mut step = |hooks: &dyn PhysicsHooks| {
            self.0.step(
                gravity.0,
                &integration_parameters.0,
                &mut islands.0,
                &mut broad_phase.0,
                &mut narrow_phase.0,
                &mut bodies.0,
                &mut colliders.0,
                &mut joints.0,
                &mut articulations.0,
                &mut soft_bodies.0,
                &mut ccd_solver.0,
                hooks,
                &collector,
            )
        };
        if hook_object.is_object() {
            step(&JsHooks {
                object: hook_object,
                filter_contact_pair: hook_filter_contact_pair.dyn_into().ok(),
                filter_intersection_pair: hook_filter_intersection_pair.dyn_into().ok(),
            });
        } else {
            step(&());
        }
        event_queue.collect();
    }

    /// This build has no profiler (rapier3d's `profiler` feature is off): timings would be 0.
    pub fn is_profiler_enabled(&self) -> bool {
        false
    }
    pub fn set_profiler_enabled(&mut self, enabled: bool) -> Result<(), JsValue> {
        if enabled {
            Err(unsupported("RawPhysicsPipeline.set_profiler_enabled(true)"))
        } else {
            Ok(())
        }
    }
}

macro_rules! timings {
    ($($name:ident),*) => {
        #[wasm_bindgen]
        impl RawPhysicsPipeline {
            $(
                pub fn $name(&self) -> Result<f64, JsValue> {
                    Err(unsupported(concat!("RawPhysicsPipeline.", stringify!($name))))
                }
            )*
        }
    };
}

timings!(
    timing_step,
    timing_collision_detection,
    timing_broad_phase,
    timing_narrow_phase,
    timing_solver,
    timing_velocity_assembly,
    timing_velocity_resolution,
    timing_velocity_update,
    timing_velocity_writeback,
    timing_ccd,
    timing_ccd_toi_computation,
    timing_ccd_broad_phase,
    timing_ccd_narrow_phase,
    timing_ccd_solver,
    timing_island_construction,
    timing_user_changes
);

/// What a snapshot holds: what `World.restoreSnapshot` rebuilds a world from.
#[derive(Serialize)]
struct WorldRef<'a> {
    gravity: Vector,
    integration_parameters: &'a IntegrationParameters,
    islands: &'a IslandManager,
    broad_phase: &'a BroadPhaseBvh,
    narrow_phase: &'a NarrowPhase,
    bodies: &'a RigidBodySet,
    colliders: &'a ColliderSet,
    soft_bodies: &'a SoftBodySet,
    impulse_joints: &'a ImpulseJointSet,
    multibody_joints: &'a MultibodyJointSet,
}

#[derive(Deserialize)]
struct WorldOwned {
    gravity: Vector,
    integration_parameters: IntegrationParameters,
    islands: IslandManager,
    broad_phase: BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    soft_bodies: SoftBodySet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
}

#[wasm_bindgen]
#[derive(Default)]
pub struct RawSerializationPipeline;

#[wasm_bindgen]
impl RawSerializationPipeline {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self
    }

    /// The world as bytes (bincode; this build's own format, read back by `deserializeAll`).
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = serializeAll)]
    pub fn serialize_all(
        &self,
        gravity: &RawVector,
        integration_parameters: &RawIntegrationParameters,
        islands: &RawIslandManager,
        broad_phase: &RawBroadPhase,
        narrow_phase: &RawNarrowPhase,
        bodies: &RawRigidBodySet,
        colliders: &RawColliderSet,
        soft_bodies: &RawSoftBodySet,
        impulse_joints: &RawImpulseJointSet,
        multibody_joints: &RawMultibodyJointSet,
    ) -> Option<Uint8Array> {
        let w = WorldRef {
            gravity: gravity.0,
            integration_parameters: &integration_parameters.0,
            islands: &islands.0,
            broad_phase: &broad_phase.0,
            narrow_phase: &narrow_phase.0,
            bodies: &bodies.0,
            colliders: &colliders.0,
            soft_bodies: &soft_bodies.0,
            impulse_joints: &impulse_joints.0,
            multibody_joints: &multibody_joints.0,
        };
        bincode::serialize(&w)
            .ok()
            .map(|b| Uint8Array::from(&b[..]))
    }

    /// `undefined` for bytes that are not a snapshot of this build, as stock.
    #[wasm_bindgen(js_name = deserializeAll)]
    pub fn deserialize_all(&self, data: &[u8]) -> Option<RawDeserializedWorld> {
        let w: WorldOwned = bincode::deserialize(data).ok()?;
        Some(RawDeserializedWorld {
            gravity: Some(w.gravity),
            integration_parameters: Some(w.integration_parameters),
            islands: Some(w.islands),
            broad_phase: Some(w.broad_phase),
            narrow_phase: Some(w.narrow_phase),
            bodies: Some(w.bodies),
            colliders: Some(w.colliders),
            soft_bodies: Some(w.soft_bodies),
            impulse_joints: Some(w.impulse_joints),
            multibody_joints: Some(w.multibody_joints),
        })
    }
}

#[wasm_bindgen]
pub struct RawDeserializedWorld {
    gravity: Option<Vector>,
    integration_parameters: Option<IntegrationParameters>,
    islands: Option<IslandManager>,
    broad_phase: Option<BroadPhaseBvh>,
    narrow_phase: Option<NarrowPhase>,
    bodies: Option<RigidBodySet>,
    colliders: Option<ColliderSet>,
    soft_bodies: Option<SoftBodySet>,
    impulse_joints: Option<ImpulseJointSet>,
    multibody_joints: Option<MultibodyJointSet>,
}

#[wasm_bindgen]
impl RawDeserializedWorld {
    #[wasm_bindgen(js_name = takeGravity)]
    pub fn take_gravity(&mut self) -> Option<RawVector> {
        self.gravity.take().map(RawVector)
    }
    #[wasm_bindgen(js_name = takeIntegrationParameters)]
    pub fn take_integration_parameters(&mut self) -> Option<RawIntegrationParameters> {
        self.integration_parameters
            .take()
            .map(RawIntegrationParameters)
    }
    #[wasm_bindgen(js_name = takeIslandManager)]
    pub fn take_island_manager(&mut self) -> Option<RawIslandManager> {
        self.islands.take().map(RawIslandManager)
    }
    #[wasm_bindgen(js_name = takeBroadPhase)]
    pub fn take_broad_phase(&mut self) -> Option<RawBroadPhase> {
        self.broad_phase.take().map(RawBroadPhase)
    }
    #[wasm_bindgen(js_name = takeNarrowPhase)]
    pub fn take_narrow_phase(&mut self) -> Option<RawNarrowPhase> {
        self.narrow_phase.take().map(RawNarrowPhase)
    }
    #[wasm_bindgen(js_name = takeBodies)]
    pub fn take_bodies(&mut self) -> Option<RawRigidBodySet> {
        self.bodies.take().map(RawRigidBodySet)
    }
    #[wasm_bindgen(js_name = takeColliders)]
    pub fn take_colliders(&mut self) -> Option<RawColliderSet> {
        self.colliders.take().map(RawColliderSet)
    }
    #[wasm_bindgen(js_name = takeSoftBodies)]
    pub fn take_soft_bodies(&mut self) -> Option<RawSoftBodySet> {
        self.soft_bodies.take().map(RawSoftBodySet)
    }
    #[wasm_bindgen(js_name = takeImpulseJoints)]
    pub fn take_impulse_joints(&mut self) -> Option<RawImpulseJointSet> {
        self.impulse_joints.take().map(RawImpulseJointSet)
    }
    #[wasm_bindgen(js_name = takeMultibodyJoints)]
    pub fn take_multibody_joints(&mut self) -> Option<RawMultibodyJointSet> {
        self.multibody_joints.take().map(RawMultibodyJointSet)
    }
}

impl RawDeserializedWorld {
    /// The parts of `world`, for stock's `World.fromRaw`: how the pinned layer (crates/js) hands
    /// a world it made (a PinnedWorld's empty world, a catalog scene) to stock's API layer.
    pub fn from_world(w: PhysicsWorld) -> Self {
        Self {
            gravity: Some(w.gravity),
            integration_parameters: Some(w.integration_parameters),
            islands: Some(w.islands),
            broad_phase: Some(w.broad_phase),
            narrow_phase: Some(w.narrow_phase),
            bodies: Some(w.bodies),
            colliders: Some(w.colliders),
            soft_bodies: Some(w.soft_bodies),
            impulse_joints: Some(w.impulse_joints),
            multibody_joints: Some(w.multibody_joints),
        }
    }
}

/// A stock `World`'s parts (the wasm objects its API layer holds), borrowed: what the pinned
/// layer (crates/js) snapshots, checks and restores in place under a `PinnedWorld`.
pub struct WorldParts<'a> {
    pub params: &'a mut RawIntegrationParameters,
    pub islands: &'a mut RawIslandManager,
    pub broad_phase: &'a mut RawBroadPhase,
    pub narrow_phase: &'a mut RawNarrowPhase,
    pub bodies: &'a mut RawRigidBodySet,
    pub colliders: &'a mut RawColliderSet,
    pub soft_bodies: &'a mut RawSoftBodySet,
    pub impulse_joints: &'a mut RawImpulseJointSet,
    pub multibody_joints: &'a mut RawMultibodyJointSet,
}

impl WorldParts<'_> {
    /// The parameters.
    pub fn params(&self) -> &IntegrationParameters {
        &self.params.0
    }

    /// A copy as one rapier3d world under `gravity` (a stock World keeps its gravity in
    /// JavaScript), its pipelines and CCD solver fresh: workspaces a snapshot does not carry.
    pub fn to_world(&self, gravity: Vector) -> PhysicsWorld {
        let mut w = PhysicsWorld::new();
        w.gravity = gravity;
        w.integration_parameters = self.params.0;
        w.islands = self.islands.0.clone();
        w.broad_phase = self.broad_phase.0.clone();
        w.narrow_phase = self.narrow_phase.0.clone();
        w.bodies = self.bodies.0.clone();
        w.colliders = self.colliders.0.clone();
        w.soft_bodies = self.soft_bodies.0.clone();
        w.impulse_joints = self.impulse_joints.0.clone();
        w.multibody_joints = self.multibody_joints.0.clone();
        w
    }

    /// Replaces the parts by `w`'s (not its gravity, see [`Self::to_world`]); the caller also
    /// resets the workspaces ([`reset_workspaces`]), as a restored world starts with fresh ones.
    pub fn replace(&mut self, w: PhysicsWorld) {
        self.params.0 = w.integration_parameters;
        self.islands.0 = w.islands;
        self.broad_phase.0 = w.broad_phase;
        self.narrow_phase.0 = w.narrow_phase;
        self.bodies.0 = w.bodies;
        self.colliders.0 = w.colliders;
        self.soft_bodies.0 = w.soft_bodies;
        self.impulse_joints.0 = w.impulse_joints;
        self.multibody_joints.0 = w.multibody_joints;
    }
}

/// Fresh CCD solver and physics pipeline: what a world restored from a snapshot starts with.
pub fn reset_workspaces(ccd_solver: &mut RawCCDSolver, pipeline: &mut RawPhysicsPipeline) {
    ccd_solver.0 = CCDSolver::new();
    pipeline.0 = PhysicsPipeline::new();
}
