//! Determinism guard rails of a game's golden run: what makes a trajectory non-portable, where it
//! can be detected. `docs/golden.md` lists what is detected and what is not.
//!
//! Detected:
//!
//! - **A world that is not pinned** ([`crate::GoldenRun::adopt`]): refused, with the typed error
//!   of `PinnedWorld::adopt` ([`crate::GoldenError::NotPinned`]).
//! - **Non-finite state** (a NaN or an infinity in a body's translation, rotation or velocity after
//!   a step): the state digest hashes bit patterns, and the bits of a NaN are not the same on
//!   every target (x86's default NaN has its sign bit set, ARM's and wasm's canonical one has
//!   not), so such a golden file does not travel; a `PinnedWorld` snapshot of that world is
//!   refused too. Warned, with the step and the body.
//! - **Custom shapes** (`ShapeType::Custom`): the game's own collision code runs inside the step,
//!   outside what the fork guarantees (`enhanced-determinism` routes rapier's and parry's math
//!   through `libm`, not the game's). Warned, with the collider.
//! - **Physics hooks asked for** (`Collider::active_hooks` not empty): a golden run steps with
//!   `PinnedWorld::step`, which calls no hooks, so a game that steps with hooks
//!   (`step_with_events`) runs something else than what the golden file records. Warned.
//! - **rapier3d's `parallel` feature** ([`RAPIER_PARALLEL`]), at compile time: see there. Not a
//!   portability problem in this fork, so a note, not a warning.
//!
//! Not detectable: per-step inputs or a scene builder that read the wall clock, a random
//! generator or a `HashMap`'s iteration order; the game's own float math (`f32::sin`, `powf`,
//! ... from the platform's libm) before its values reach the world.
//!
//! Each kind of warning is printed (stderr) once per process; every finding of a run is in its
//! [`crate::Recording::warnings`].

use rapier3d::prelude::*;
use std::collections::BTreeSet;
use std::sync::Mutex;

/// Whether this build's rapier3d has its `parallel` feature (and not `unsync-callbacks`, which
/// removes the item this looks for), decided at compile time.
///
/// A dependent crate cannot read another crate's features with `cfg`. It can see which items
/// exist: `PhysicsWorld::num_threads` is an inherent method only under `parallel`, and an
/// inherent method takes precedence over a trait method of the same name, so the path
/// `PhysicsWorld::num_threads` names the inherent one when it exists and this module's fallback
/// (which returns a different type) when it does not.
///
/// `parallel` does not make golden files non-portable here: rapier-pinned's dependency line
/// enables `enhanced-determinism` in every build that contains it (so "`parallel` without
/// determinism" cannot be built), and under it the fork steps the same bits with and without
/// `parallel`, at any thread count (`vendor/rapier3d/tests/parallel_path_parity.rs`,
/// `thread_count_determinism`, run by the fork's CI with `parallel`).
pub const RAPIER_PARALLEL: bool = probe::has_inherent_num_threads(PhysicsWorld::num_threads);

mod probe {
    /// What the fallback `num_threads` returns: the inherent one returns `Option<usize>`.
    pub struct NotParallel;

    /// The fallback, for every type; an inherent `num_threads` wins over it.
    pub trait Fallback {
        #[allow(dead_code)]
        fn num_threads(&self) -> NotParallel {
            NotParallel
        }
    }
    impl<T> Fallback for T {}

    /// Whether a `num_threads` return type is the inherent method's.
    pub trait Inherent {
        const IS: bool;
    }
    impl Inherent for NotParallel {
        const IS: bool = false;
    }
    impl Inherent for Option<usize> {
        const IS: bool = true;
    }

    /// Whether `_f` (the path `T::num_threads`) named an inherent method.
    pub const fn has_inherent_num_threads<T, R: Inherent>(_f: fn(&T) -> R) -> bool {
        R::IS
    }

    #[cfg(test)]
    mod tests {
        #[allow(unused_imports)]
        use super::Fallback;

        struct WithInherent;
        impl WithInherent {
            fn num_threads(&self) -> Option<usize> {
                Some(1)
            }
        }
        struct Without;

        #[test]
        fn an_inherent_method_is_found_and_its_absence_too() {
            assert!(super::has_inherent_num_threads(WithInherent::num_threads));
            assert!(!super::has_inherent_num_threads(Without::num_threads));
            let _ = WithInherent.num_threads();
        }
    }
}
#[allow(unused_imports)]
use probe::Fallback;

/// Kinds of findings already printed in this process.
static PRINTED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// Prints `message` on stderr if no finding of `kind` was printed in this process yet.
pub(crate) fn warn_once(kind: &'static str, message: &str) {
    let first = PRINTED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(kind);
    if first {
        eprintln!("{message}\n  (rapier-pinned-golden prints each kind once per process; docs/golden.md says what it checks)");
    }
}

/// The note about `parallel`, once per process, when this build has it.
pub(crate) fn note_parallel() {
    if RAPIER_PARALLEL {
        warn_once(
            "parallel",
            "note: rapier3d is built with `parallel` (and `enhanced-determinism`, which rapier-pinned \
             always enables): the fork steps the same bits as a serial build at any thread count, so \
             golden files recorded with and without it are interchangeable; a difference is a fork bug",
        );
    }
}

/// What the scene's build holds that makes its trajectory non-portable or not what the game runs.
pub(crate) fn scene_findings(colliders: &ColliderSet) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut handles: Vec<_> = colliders.iter().map(|(h, _)| h).collect();
    handles.sort_unstable_by_key(|h| h.into_raw_parts());
    for h in handles {
        let co = &colliders[h];
        let (index, generation) = h.into_raw_parts();
        let parent = match co.parent() {
            Some(p) => {
                let (i, g) = p.into_raw_parts();
                format!(" (body {i}v{g})")
            }
            None => String::new(),
        };
        if co.shape().shape_type() == ShapeType::Custom {
            out.push((
                "custom-shape",
                format!(
                    "warning: collider {index}v{generation}{parent} has a custom shape \
                     (ShapeType::Custom): its code runs inside the step, outside what the fork \
                     guarantees bit for bit across targets (e.g. platform libm calls); the golden \
                     file may not hold on another target"
                ),
            ));
        }
        if !co.active_hooks().is_empty() {
            out.push((
                "hooks",
                format!(
                    "warning: collider {index}v{generation}{parent} asks for physics hooks ({:?}): a \
                     golden run steps with PinnedWorld::step, which calls no hooks, so if the game \
                     steps with hooks (step_with_events) this golden file does not record what the \
                     game runs",
                    co.active_hooks()
                ),
            ));
        }
    }
    out
}

/// The first body (handle order) with a non-finite translation, rotation or velocity, if any.
pub(crate) fn non_finite(bodies: &RigidBodySet) -> Option<RigidBodyHandle> {
    let mut bad: Vec<_> = bodies
        .iter()
        .filter(|(_, b)| {
            rapier_pinned_scenes::body_state(b)
                .iter()
                .any(|x| !x.is_finite())
        })
        .map(|(h, _)| h)
        .collect();
    bad.sort_unstable_by_key(|h| h.into_raw_parts());
    bad.first().copied()
}
