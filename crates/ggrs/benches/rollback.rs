//! What GGRS's rollback costs on the pinned arena (docs/multiplayer.md, "GGRS"): GGRS's own
//! requests for one frame that rolls back 8 frames — load, then 8 × (save + re-simulated step),
//! then the new frame's save and step — against a plain step, as medians in ms and in steps.
//! `cargo bench -p rapier-pinned-ggrs --bench rollback`

use ggrs::SessionBuilder;
use rapier_pinned_ggrs::{arena, Bot, GgrsConfig, GgrsWorld};
use std::time::Instant;

const PLAYERS: usize = 4;
const FRAMES: usize = 400;
/// Frames stepped before measuring (the arena settles, the vehicles meet).
const WARMUP: usize = 120;

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Per-frame times in ms of a sync-test session with check distance `distance` (0: no save, no
/// rollback: one step per frame), after [`WARMUP`] frames.
fn frame_times(distance: usize) -> Vec<f64> {
    let mut game = GgrsWorld::new(arena(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap());
    let mut session = SessionBuilder::<GgrsConfig>::new()
        .with_num_players(PLAYERS)
        .unwrap()
        .with_max_prediction_window(distance.max(8) + 1)
        .with_check_distance(distance)
        .with_input_delay(0)
        .start_synctest_session()
        .unwrap();
    let mut bots: Vec<Bot> = (0..PLAYERS).map(|p| Bot::new(1, p)).collect();
    let mut times = Vec::new();
    for frame in 0..WARMUP + FRAMES {
        for (p, bot) in bots.iter_mut().enumerate() {
            session.add_local_input(p, bot.next_input()).unwrap();
        }
        let t = Instant::now();
        let requests = session.advance_frame().unwrap();
        game.handle(requests).unwrap();
        if frame >= WARMUP {
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    times
}

fn main() {
    let step = median(frame_times(0));
    let rollback = median(frame_times(8));
    println!(
        "arena, 34 bodies, 4 players, physics-version {}, medians of {FRAMES} frames after {WARMUP}:",
        rapier_pinned::PHYSICS_VERSION_CURRENT
    );
    println!("  one frame, no rollback (one step)                 {step:>7.3} ms");
    println!(
        "  one frame rolling back 8 (load, 8 x save + step,  {rollback:>7.3} ms = {:>5.2} steps",
        rollback / step
    );
    println!("    then the frame's own save + step)");
}
