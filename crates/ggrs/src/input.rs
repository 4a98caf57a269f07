//! Player inputs as data: two signed bytes per player and frame, what GGRS sends and compares.

use ggrs::InputStatus;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rapier3d::prelude::*;
use rapier_pinned::PinnedWorld;
use serde::{Deserialize, Serialize};

/// The impulse of one input unit along an axis, in N·s.
pub const IMPULSE_STEP: f32 = 10.0;

/// One player's input for one frame: a push on its vehicle of `x` and `z` units of
/// [`IMPULSE_STEP`]. Integers, so equal inputs are equal bytes on every peer (bincode: 2 bytes);
/// the default (no push) is what GGRS uses for "no input".
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerInput {
    pub x: i8,
    pub z: i8,
}

impl PlayerInput {
    /// The impulse it applies: each unit converts to f32 exactly.
    pub fn impulse(self) -> Vector {
        Vector::new(
            f32::from(self.x) * IMPULSE_STEP,
            0.0,
            f32::from(self.z) * IMPULSE_STEP,
        )
    }
}

/// The body player `player` drives: the arena's vehicle `player` (bodies 0–3 are its vehicles).
pub fn body_of(player: usize) -> RigidBodyHandle {
    RigidBodyHandle::from_raw_parts(player as u32, 0)
}

/// Applies each player's input for a frame, in player order (GGRS gives them by handle). A
/// disconnected player's input is the default, which pushes nothing.
pub fn apply(world: &mut PinnedWorld, inputs: &[(PlayerInput, InputStatus)]) {
    for (player, (input, _)) in inputs.iter().enumerate() {
        if *input == PlayerInput::default() {
            continue;
        }
        if let Some(body) = world.body_mut(body_of(player)) {
            body.apply_impulse(input.impulse(), true);
        }
    }
}

/// A seeded player: holds a push and, on one frame in ten, picks another (each axis −4..=4).
/// The same seed and player give the same inputs on every machine.
pub struct Bot {
    rng: StdRng,
    current: PlayerInput,
}

impl Bot {
    /// Player `player`'s bot for `seed`.
    pub fn new(seed: u64, player: usize) -> Self {
        let stream = seed ^ (player as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Bot {
            rng: StdRng::seed_from_u64(stream),
            current: PlayerInput::default(),
        }
    }

    /// The input for the next frame.
    pub fn next_input(&mut self) -> PlayerInput {
        if self.rng.gen_ratio(1, 10) {
            self.current = PlayerInput {
                x: self.rng.gen_range(-4..=4),
                z: self.rng.gen_range(-4..=4),
            };
        }
        self.current
    }
}
