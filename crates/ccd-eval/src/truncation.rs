//! Truncation: motion lost to CCD clamps, Σ(1 − fraction)·|motion| / Σ|motion| over
//! the CCD-active body-steps of a run.
//!
//! Measured from outside the engine: before each step the world is copied (through a bincode
//! snapshot) and the copy is stepped twice, with CCD and with CCD off (`max_ccd_substeps = 0`).
//! For every body the CCD run flags as CCD-active, |motion| is its centre-of-mass displacement
//! without CCD and (1 − fraction)·|motion| the part of it the clamp removed.

use rapier3d::prelude::*;

fn copy(world: &PhysicsWorld) -> PhysicsWorld {
    bincode::deserialize(&bincode::serialize(world).expect("snapshot")).expect("restore")
}

/// Accumulates truncation over steps.
#[derive(Debug, Default, Clone, Copy)]
pub struct Truncation {
    pub lost: f64,
    pub motion: f64,
    pub active_body_steps: usize,
}

impl Truncation {
    /// The ratio, 0 when nothing was CCD-active.
    pub fn ratio(&self) -> f64 {
        if self.motion == 0.0 {
            0.0
        } else {
            self.lost / self.motion
        }
    }

    /// Measures one step of `world` (without stepping it).
    pub fn measure_step(&mut self, world: &PhysicsWorld) {
        let mut with_ccd = copy(world);
        let mut without = copy(world);
        without.integration_parameters.max_ccd_substeps = 0;
        with_ccd.step();
        without.step();
        for (handle, body) in with_ccd.bodies.iter() {
            if !body.is_ccd_active() {
                continue;
            }
            let start = world.bodies[handle].center_of_mass();
            let free = without.bodies[handle].center_of_mass() - start;
            let actual = body.center_of_mass() - start;
            let motion = free.length() as f64;
            self.motion += motion;
            self.lost += (motion - actual.length() as f64).max(0.0);
            self.active_body_steps += 1;
        }
    }
}
