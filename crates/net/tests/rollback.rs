//! Rollback reaches exactly the state of a world that had the input on time.

use rapier_pinned::{PinnedWorld, WorldConfig};
use rapier_pinned_digest::state_digest;
use rapier_pinned_net::inputs::{scripted, Action, Input};
use rapier_pinned_net::rollback::Rollback;

fn arena() -> PinnedWorld {
    let config = WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let scene = rapier_pinned_scenes::find("arena").unwrap();
    PinnedWorld::adopt(config, scene.build(config.params())).unwrap()
}

/// A player's input that arrives late: a kick on crate 28v0 (a body no scripted input touches).
fn kick(tick: u64) -> Input {
    Input {
        body: (28, 0),
        action: Action::Impulse([0.0, 30.0 + tick as f32, 20.0]),
    }
}

#[test]
fn a_late_input_rolled_back_equals_the_input_on_time_at_every_later_tick() {
    for k in [1u64, 3, 8] {
        for late_tick in [40u64, 151, 333] {
            // On time: the kick is applied before stepping into `late_tick`.
            let mut on_time = Rollback::new(arena(), 8);
            let mut late = Rollback::new(arena(), 8);
            let mut expected = Vec::new();
            for tick in 1..=late_tick + k + 60 {
                let mut inputs = scripted(tick);
                if tick == late_tick {
                    inputs.push(kick(tick));
                }
                on_time.step(inputs);
                expected.push(state_digest(on_time.world().bodies()));
            }
            for tick in 1..=late_tick + k + 60 {
                late.step(scripted(tick));
                if tick == late_tick + k - 1 {
                    // k ticks late: it belongs to `late_tick`, the world is at late_tick + k - 1.
                    assert_eq!(late.late_input(late_tick, kick(late_tick)).unwrap(), k);
                }
                if tick >= late_tick + k - 1 {
                    let got = state_digest(late.world().bodies());
                    assert_eq!(
                        got,
                        expected[tick as usize - 1],
                        "k {k}, late tick {late_tick}: tick {tick}"
                    );
                }
            }
        }
    }
}

#[test]
fn an_input_older_than_the_ring_is_refused_and_changes_nothing() {
    let mut world = Rollback::new(arena(), 8);
    for tick in 1..=20 {
        world.step(scripted(tick));
    }
    let before = state_digest(world.world().bodies());
    let err = world.late_input(11, kick(11)).unwrap_err().to_string();
    assert!(err.contains("older than the 8 ticks kept"), "{err}");
    assert!(
        world.late_input(21, kick(21)).is_err(),
        "an input from the future"
    );
    assert_eq!(state_digest(world.world().bodies()), before);
    // The oldest tick still kept works.
    assert_eq!(world.late_input(13, kick(13)).unwrap(), 8);
}
