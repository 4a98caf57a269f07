//! Why the glue refused: a world it could not build, or a GGRS request it could not carry out.

use ggrs::Frame;

/// An error of [`crate::arena`] or [`crate::GgrsWorld::handle`].
#[derive(Debug, thiserror::Error)]
pub enum GgrsError {
    /// The physics-version has no table entry.
    #[error(transparent)]
    Config(#[from] rapier_pinned::ConfigError),
    /// The catalog's arena did not match its config (the wrapper's refusal).
    #[error(transparent)]
    World(#[from] rapier_pinned::Error),
    /// The scene catalog has no arena.
    #[error("no arena in the catalog")]
    NoArena,
    /// A save for another frame than the world's (a request out of order).
    #[error("save of frame {frame}, but the world is at frame {world}")]
    SaveFrame {
        /// The request's frame.
        frame: Frame,
        /// The world's.
        world: Frame,
    },
    /// A load from a cell that holds no state.
    #[error("load of frame {frame}: the cell holds no state")]
    EmptyCell {
        /// The request's frame.
        frame: Frame,
    },
}
