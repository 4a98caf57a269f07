//! GGRS's `SyncTestSession` on the pinned arena: every frame it rolls back `check distance`
//! frames, re-simulates them and compares each frame's checksum with the first one recorded —
//! the standard determinism test of a rollback game (issue 31).

use ggrs::{GgrsError, GgrsRequest, SessionBuilder};
use rapier_pinned::{version_table, PhysicsVersion, PinnedWorld};
use rapier_pinned_ggrs::{arena, checksum, local_match, Bot, GgrsConfig, GgrsWorld, PlayerInput};

const FRAMES: usize = 1000;
const PLAYERS: usize = 4;
const SEED: u64 = 20261201;

/// How a test game carries out GGRS's requests.
trait Game {
    fn handle(&mut self, requests: Vec<GgrsRequest<GgrsConfig>>) -> Result<(), String>;
    fn world(&self) -> &PinnedWorld;
}

impl Game for GgrsWorld {
    fn handle(&mut self, requests: Vec<GgrsRequest<GgrsConfig>>) -> Result<(), String> {
        GgrsWorld::handle(self, requests).map_err(|e| e.to_string())
    }
    fn world(&self) -> &PinnedWorld {
        GgrsWorld::world(self)
    }
}

/// The fault a naive rollback makes: it saves the whole world but loads back only each body's
/// pose and velocities, so the contacts, warm-start impulses and islands of the frame it
/// rolled back from stay. (Known bad: the sync test must catch it.)
struct BodiesOnly(GgrsWorld);

impl Game for BodiesOnly {
    fn handle(&mut self, requests: Vec<GgrsRequest<GgrsConfig>>) -> Result<(), String> {
        for request in requests {
            let GgrsRequest::LoadGameState { cell, frame } = request else {
                self.0.handle(vec![request]).map_err(|e| e.to_string())?;
                continue;
            };
            let saved = cell.load().ok_or("no state to load")?;
            let mut world = self.0.world().clone();
            for (handle, body) in saved.bodies().iter() {
                let now = world.body_mut(handle).ok_or("a body went missing")?;
                now.set_position(*body.position(), false);
                now.set_linvel(body.linvel(), false);
                now.set_angvel(body.angvel(), false);
            }
            self.0.load(world, frame);
        }
        Ok(())
    }
    fn world(&self) -> &PinnedWorld {
        self.0.world()
    }
}

/// Runs a sync test of `FRAMES` frames with check distance `distance` and four seeded bots;
/// `Err` names the frame GGRS found a mismatch at. Returns the checksums of frames 1..=FRAMES.
fn sync_test(game: &mut dyn Game, distance: usize) -> Result<Vec<u128>, String> {
    let mut session = SessionBuilder::<GgrsConfig>::new()
        .with_num_players(PLAYERS)
        .map_err(|e| e.to_string())?
        // GGRS needs a prediction window longer than the check distance (8 by default).
        .with_max_prediction_window(distance.max(8) + 1)
        .with_check_distance(distance)
        .with_input_delay(0)
        .start_synctest_session()
        .map_err(|e| e.to_string())?;
    let mut bots: Vec<Bot> = (0..PLAYERS).map(|p| Bot::new(SEED, p)).collect();
    let mut sums = Vec::new();
    for frame in 0..FRAMES {
        for (player, bot) in bots.iter_mut().enumerate() {
            session
                .add_local_input(player, bot.next_input())
                .map_err(|e| e.to_string())?;
        }
        match session.advance_frame() {
            Ok(requests) => game.handle(requests)?,
            Err(GgrsError::MismatchedChecksum {
                current_frame,
                mismatched_frames,
            }) => {
                return Err(format!(
                    "frame {frame}: GGRS found mismatched checksums at frames \
                     {mismatched_frames:?} (rolling back from {current_frame})"
                ))
            }
            Err(e) => return Err(e.to_string()),
        }
        sums.push(checksum(game.world()));
    }
    Ok(sums)
}

#[test]
fn the_arena_passes_the_sync_test_at_check_distances_2_4_and_8_under_every_version() {
    for entry in version_table() {
        let v = entry.number;
        // The same match stepped straight through, without GGRS: the sync test must end there.
        let straight = local_match(arena(v).unwrap(), SEED, PLAYERS, 0, FRAMES);
        for distance in [2, 4, 8] {
            let mut game = GgrsWorld::new(arena(v).unwrap());
            let sums = sync_test(&mut game, distance)
                .unwrap_or_else(|e| panic!("version {v}, check distance {distance}: {e}"));
            assert_eq!(
                sums,
                straight[1..],
                "version {v}, check distance {distance}"
            );
            println!(
                "version {v}, check distance {distance}: {FRAMES} frames, 0 mismatches, about {} \
                 re-simulated frames, final checksum {:016x}",
                FRAMES * distance,
                sums[FRAMES - 1]
            );
        }
    }
}

#[test]
fn the_sync_test_catches_a_rollback_that_loads_back_only_the_bodies() {
    let mut bad = BodiesOnly(GgrsWorld::new(arena(PhysicsVersion::V2).unwrap()));
    let err = sync_test(&mut bad, 2).expect_err("a bodies-only rollback passed the sync test");
    println!("known-bad rollback (bodies only): {err}");
    assert!(err.contains("mismatched checksums at frames"), "{err}");
}

#[test]
fn inputs_are_two_bytes_and_equal_inputs_are_equal_bytes() {
    let input = PlayerInput { x: -4, z: 3 };
    let bytes = bincode::serialize(&input).unwrap();
    assert_eq!(bytes, [0xfc, 0x03]);
    assert_eq!(bincode::deserialize::<PlayerInput>(&bytes).unwrap(), input);
    assert_eq!(bincode::serialize(&PlayerInput::default()).unwrap(), [0, 0]);
}
