//! The glue GGRS asks a game for: save the state at a frame, load it on a rollback, advance a
//! frame with the inputs, and a checksum per frame.

use ggrs::{Frame, GgrsRequest, InputStatus, PredictRepeatLast};
use rapier_pinned::PinnedWorld;
use std::net::SocketAddr;

use crate::error::GgrsError;
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
    pub fn handle(&mut self, requests: Vec<GgrsRequest<GgrsConfig>>) -> Result<(), GgrsError> {
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    if frame != self.frame {
                        let world = self.frame;
                        return Err(GgrsError::SaveFrame { frame, world });
                    }
                    cell.save(frame, Some(self.world.clone()), Some(checksum(&self.world)));
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    let world = cell.load().ok_or(GgrsError::EmptyCell { frame })?;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use ggrs::GameStateCell;
    use rapier_pinned::PHYSICS_VERSION_CURRENT;

    #[test]
    fn a_save_out_of_order_and_a_load_of_an_empty_cell_are_refused_typed() {
        let mut game = GgrsWorld::new(crate::arena(PHYSICS_VERSION_CURRENT).unwrap());
        let cell = GameStateCell::default();
        let save = GgrsRequest::SaveGameState {
            cell: cell.clone(),
            frame: 5,
        };
        let err = game.handle(vec![save]).unwrap_err();
        assert!(matches!(err, GgrsError::SaveFrame { frame: 5, world: 0 }));
        assert_eq!(
            err.to_string(),
            "save of frame 5, but the world is at frame 0"
        );
        let load = GgrsRequest::LoadGameState { cell, frame: 0 };
        let err = game.handle(vec![load]).unwrap_err();
        assert!(matches!(err, GgrsError::EmptyCell { frame: 0 }));
        assert_eq!(game.frame(), 0, "a refused request changes nothing");
    }
}
