//! rapier-pinned-ggrs: rollback netcode the way Rust games do it — [GGRS](https://docs.rs/ggrs)
//! (the GGPO model) — on a [`PinnedWorld`].
//!
//! GGRS asks a game for three things; this crate gives them for a pinned world:
//! - **save** the state at a frame: the world itself, cloned ([`PinnedWorld`]'s `Clone`: no
//!   serialization; the clone steps as the original, bit for bit);
//! - **load** it on a rollback: the clone back;
//! - a **checksum** per frame for desync detection: the state digest ([`checksum`]).
//!
//! Inputs are data ([`PlayerInput`]: two signed bytes, equal on every peer when equal at all).
//! GGRS does the networking, the prediction and the rollbacks; nothing of it is re-implemented
//! here. What the fork adds: a world pinned to a physics-version every peer shares, and a
//! validated snapshot for what GGRS lacks, late join (`docs/multiplayer.md`, "GGRS").
//!
//! ```
//! use rapier_pinned::PhysicsVersion;
//! use rapier_pinned_ggrs::ggrs::SessionBuilder;
//! use rapier_pinned_ggrs::{arena, GgrsConfig, GgrsWorld, PlayerInput};
//!
//! let mut game = GgrsWorld::new(arena(PhysicsVersion::V2).unwrap());
//! let mut session = SessionBuilder::<GgrsConfig>::new()
//!     .with_num_players(1)
//!     .unwrap()
//!     .with_check_distance(2)
//!     .start_synctest_session()
//!     .unwrap();
//! for _ in 0..10 {
//!     session.add_local_input(0, PlayerInput { x: 1, z: 0 }).unwrap();
//!     game.handle(session.advance_frame().unwrap()).unwrap();
//! }
//! assert_eq!(game.frame(), 10);
//! ```

pub mod error;
pub mod input;
pub mod lossy;
pub mod state;

pub use error::GgrsError;
pub use ggrs;
pub use input::{apply, body_of, Bot, PlayerInput};
pub use state::{checksum, GgrsConfig, GgrsWorld};

use ggrs::InputStatus;
use rapier_pinned::{PhysicsVersion, PinnedWorld, WorldConfig};

/// The arena (`rapier_pinned_scenes` catalog: four vehicles, bodies 0–3, for four players) under
/// physics-version `version`, at tick 0.
pub fn arena(version: PhysicsVersion) -> Result<PinnedWorld, GgrsError> {
    let config = WorldConfig::new(version)?;
    let scene = rapier_pinned_scenes::find("arena").ok_or(GgrsError::NoArena)?;
    Ok(PinnedWorld::adopt(config, scene.build(config.params()))?)
}

/// The checksums of frames 0..=`frames` of `world` stepped with `players` seeded bots' inputs
/// ([`Bot::new`]`(seed, p)`), each input applied `input_delay` frames after it was made, as GGRS
/// schedules a local input: what every peer of such a match must see, computed without any
/// network (the tests' reference).
pub fn local_match(
    world: PinnedWorld,
    seed: u64,
    players: usize,
    input_delay: usize,
    frames: usize,
) -> Vec<u128> {
    let mut game = GgrsWorld::new(world);
    let mut bots: Vec<Bot> = (0..players).map(|p| Bot::new(seed, p)).collect();
    let mut made: Vec<Vec<PlayerInput>> = vec![Vec::new(); players];
    let mut sums = vec![checksum(game.world())];
    for frame in 0..frames {
        let inputs: Vec<(PlayerInput, InputStatus)> = (0..players)
            .map(|p| {
                made[p].push(bots[p].next_input());
                let input = frame
                    .checked_sub(input_delay)
                    .map_or(PlayerInput::default(), |f| made[p][f]);
                (input, InputStatus::Confirmed)
            })
            .collect();
        game.advance(&inputs);
        sums.push(checksum(game.world()));
    }
    sums
}
