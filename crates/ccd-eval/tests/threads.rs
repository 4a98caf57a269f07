//! With the `parallel` feature the CCD sweeps fan out over rayon (64 bodies or more): the digests
//! must not depend on the thread count, with and without `ccd_relative_motion`, under every
//! persistent-contact policy.
#![cfg(feature = "parallel")]

use rapier3d::prelude::*;
use rapier_pinned::CcdConfig;
use rapier_pinned_scenes::{find, step_digests};

#[test]
fn digests_do_not_depend_on_the_thread_count() {
    use CcdPersistentContactPolicy::*;
    for config in [
        CcdConfig::new(CcdRelativeMotion::Off, Upstream),
        CcdConfig::new(CcdRelativeMotion::On, Upstream),
        CcdConfig::new(CcdRelativeMotion::Off, CoreSphere),
        CcdConfig::new(CcdRelativeMotion::On, CoreSphereFixedTargets),
        CcdConfig::new(CcdRelativeMotion::On, KeepDepth),
        CcdConfig::new(CcdRelativeMotion::Bounded, KeepSide),
    ] {
        let CcdConfig {
            relative_motion,
            policy,
        } = config;
        let params = config.params();
        for name in ["bullet_swarm", "bullets_vs_plates", "pyramid"] {
            let scene = find(name).unwrap();
            let runs: Vec<Vec<u64>> = [1, 2, 4]
                .iter()
                .map(|n| {
                    let pool = rapier3d::rayon::ThreadPoolBuilder::new()
                        .num_threads(*n)
                        .build()
                        .unwrap();
                    pool.install(|| step_digests(scene, params))
                })
                .collect();
            assert_eq!(
                runs[0], runs[1],
                "{name}, relative motion {relative_motion:?}, {policy:?}: 1 vs 2 threads"
            );
            assert_eq!(
                runs[0], runs[2],
                "{name}, relative motion {relative_motion:?}, {policy:?}: 1 vs 4 threads"
            );
        }
    }
}
