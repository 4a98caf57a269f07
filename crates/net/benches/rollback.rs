//! What rollback costs on the arena (docs/multiplayer.md): one step, the ring's upkeep per tick
//! (one snapshot), a restore, and a k-tick rollback (restore + k steps + k snapshots), as medians
//! in ms and as multiples of one step. `cargo bench -p rapier-pinned-net --bench rollback`

use std::time::Instant;

use rapier_pinned::{PinnedWorld, WorldConfig};
use rapier_pinned_net::inputs::{apply, scripted, Action, Input};
use rapier_pinned_net::rollback::Rollback;

const ROUNDS: usize = 41;
const START: u64 = 120;

/// The median over [`ROUNDS`] of `run`'s time in ms, each on a fresh `setup()` (not timed).
fn median_ms<S>(mut setup: impl FnMut() -> S, mut run: impl FnMut(S)) -> f64 {
    let mut times: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let state = setup();
            let t = Instant::now();
            run(state);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[ROUNDS / 2]
}

fn main() {
    let config = WorldConfig::new(rapier_pinned::PHYSICS_VERSION_CURRENT).unwrap();
    let scene = rapier_pinned_scenes::find("arena").unwrap();
    let mut base = PinnedWorld::adopt(config, scene.build(config.params())).unwrap();
    for t in 1..=START {
        apply(&mut base, &scripted(t));
        base.step();
    }
    let bytes = base.snapshot(None);
    let fresh = || PinnedWorld::restore(config, &bytes, None).unwrap();
    let step = median_ms(fresh, |mut w| w.step());
    let snapshot = median_ms(|| (), |_| drop(std::hint::black_box(base.snapshot(None))));
    let restore = median_ms(|| (), |_| drop(std::hint::black_box(fresh())));
    println!(
        "arena, 34 bodies, tick {START}, physics-version {}, medians of {ROUNDS}:",
        config.physics_version()
    );
    println!("  one step                      {step:>7.3} ms");
    println!(
        "  ring upkeep (one snapshot)    {snapshot:>7.3} ms = {:>5.2} steps, every tick",
        snapshot / step
    );
    println!(
        "  restore                       {restore:>7.3} ms = {:>5.2} steps",
        restore / step
    );
    for k in [1u64, 4, 8] {
        let ring = || {
            let mut r = Rollback::new(fresh(), 8);
            (1..=k).for_each(|i| r.step(scripted(START + i)));
            r
        };
        let kick = Input {
            body: (28, 0),
            action: Action::Impulse([0.0, 40.0, 20.0]),
        };
        let cost = median_ms(ring, |mut r| {
            assert_eq!(r.late_input(START + 1, kick).unwrap(), k)
        });
        println!(
            "  rollback k = {k}                {cost:>7.3} ms = {:>5.2} steps",
            cost / step
        );
    }
}
