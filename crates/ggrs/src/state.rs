//! The glue GGRS asks a game for: save the state at a frame, load it on a rollback, advance a
//! frame with the inputs, and a checksum per frame.

use ggrs::{Frame, GgrsRequest, InputStatus, PredictRepeatLast};
use rapier_pinned::PinnedWorld;
use std::net::SocketAddr;

use crate::input::{apply, PlayerInput};

/// The GGRS config of a pinned world: the state GGRS keeps per frame is the world itself (a
/// clone: no serialization), the input is [`PlayerInput`], peers are UDP addresses.
pub struct GgrsConfig;

impl ggrs::Config for GgrsConfig {
    type Input = PlayerInput;
    type InputPredictor = PredictRepeatLast;
    type State = PinnedWorld;
    type Address = SocketAddr;
}

/// The checksum GGRS compares between peers and across a rollback: the world's state digest
/// (`rapier_pinned_digest::state_digest`, every body's pose and velocities, bit for bit).
pub fn checksum(world: &PinnedWorld) -> u128 {
    u128::from(rapier_pinned_digest::state_digest(world.bodies()))
}

/// A pinned world stepped by GGRS's requests, and the GGRS frame it is at.
pub struct GgrsWorld {
    world: PinnedWorld,
    frame: Frame,
}

impl GgrsWorld {
    /// Starts at frame 0 from `world` (at any tick: a late joiner's restored world).
    pub fn new(world: PinnedWorld) -> Self {
        GgrsWorld { world, frame: 0 }
    }

    /// The world now.
    pub fn world(&self) -> &PinnedWorld {
        &self.world
    }

    /// The frame the world is at.
    pub fn frame(&self) -> Frame {
        self.frame
    }

    /// Makes `world` the state at `frame` (what a `LoadGameState` request does).
    pub fn load(&mut self, world: PinnedWorld, frame: Frame) {
        self.world = world;
        self.frame = frame;
    }

    /// Carries out `requests` in order. A save whose frame is not the world's (a request out of
    /// order) or a load from a cell without a state is an error, never a silent skip.
    pub fn handle(&mut self, requests: Vec<GgrsRequest<GgrsConfig>>) -> Result<(), String> {
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    self.expect_frame(frame, "save")?;
                    cell.save(frame, Some(self.world.clone()), Some(checksum(&self.world)));
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    let world = cell
                        .load()
                        .ok_or_else(|| format!("load of frame {frame}: the cell holds no state"))?;
                    self.load(world, frame);
                }
                GgrsRequest::AdvanceFrame { inputs } => self.advance(&inputs),
            }
        }
        Ok(())
    }

    /// Applies one frame's inputs and steps.
    pub fn advance(&mut self, inputs: &[(PlayerInput, InputStatus)]) {
        apply(&mut self.world, inputs);
        self.world.step();
        self.frame += 1;
    }

    /// GGRS's frame for a request against the world's.
    fn expect_frame(&self, frame: Frame, what: &str) -> Result<(), String> {
        if frame == self.frame() {
            Ok(())
        } else {
            Err(format!(
                "{what} of frame {frame}, but the world is at frame {}",
                self.frame()
            ))
        }
    }
}
