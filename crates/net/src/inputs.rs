//! Player inputs as data: what a tick applies to the world before it steps.

use rapier3d::prelude::*;
use rapier_pinned::PinnedWorld;
use serde::{Deserialize, Serialize};

/// One player's input for one tick, on one body (by handle index and generation).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub body: (u32, u32),
    pub action: Action,
}

/// What an input does to its body.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    /// An impulse (N·s) at the centre of mass.
    Impulse([f32; 3]),
    /// A linear velocity target (m/s), set before the step.
    Velocity([f32; 3]),
}

/// Applies `inputs` to `world`; an input naming a body that does not exist is skipped (a
/// client never trusts a handle blindly) and counted in the result.
pub fn apply(world: &mut PinnedWorld, inputs: &[Input]) -> usize {
    let mut skipped = 0;
    for input in inputs {
        let handle = RigidBodyHandle::from_raw_parts(input.body.0, input.body.1);
        let Some(body) = world.body_mut(handle) else {
            skipped += 1;
            continue;
        };
        match input.action {
            Action::Impulse(i) => body.apply_impulse(Vector::from_array(i), true),
            Action::Velocity(v) => body.set_linvel(Vector::from_array(v), true),
        }
    }
    skipped
}

/// The reference server's scripted players: the arena's four vehicles (bodies 0–3) steered by a
/// fixed pattern of tick, in integers then one exact conversion, so any peer computes the same
/// inputs. A game sends its players' real inputs instead.
pub fn scripted(tick: u64) -> Vec<Input> {
    (0..4u32)
        .filter(|i| (tick + *i as u64 * 7) % 10 == 0)
        .map(|i| {
            let phase = ((tick / 40 + i as u64) % 4) as i32;
            let (x, z) = [(1, 0), (0, 1), (-1, 0), (0, -1)][phase as usize];
            Input {
                body: (i, 0),
                action: if (tick / 120) % 2 == 0 {
                    Action::Impulse([x as f32 * 400.0, 0.0, z as f32 * 400.0])
                } else {
                    Action::Velocity([x as f32 * 6.0, 0.0, z as f32 * 6.0])
                },
            }
        })
        .collect()
}
