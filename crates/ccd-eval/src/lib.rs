//! CCD evaluation for rapier-pinned: runs the scene catalog's thin-part sets (and the variation
//! families beyond them) under a chosen [`rapier_pinned::CcdConfig`] and measures what the
//! continuous pass lets through.
//!
//! What lives here, and why not in `rapier-pinned-conformance`: nothing in this crate reads the
//! language-neutral vectors under `conformance/`; it measures behaviour of the CCD settings on
//! worlds the scene catalog builds.
//!
//! - [`configs`]: the six CCD configurations the evaluation measures, their table label and
//!   their `POLICY on|off` command-line form;
//! - [`measure`]: strict pass-through (by the frames, and the between-frames refinement that may
//!   clear a step), end-of-frame penetration;
//! - [`truncation`]: motion lost to CCD clamps;
//! - [`perturbation`]: the thin-part perturbation suite (every set × speeds × starts) and the
//!   table `rapier-pinned perturbation` prints; replays of gated steps;
//! - [`variations`]: families of runs beyond the suite's starts, speeds, sizes and spin rates;
//! - [`CcdEvalError`]: why a measurement or a configuration was refused (the crate's one error).
//!
//! Also in this crate: `examples/` (tracing and replaying sets, the variation families,
//! relative-motion probes, the suite under a smaller slop) and `tests/` (the gates of the
//! thin-part sets, the `ccd_relative_motion` scenarios, thread-count determinism of the CCD pass
//! with the `parallel` feature).

pub mod configs;
mod error;
pub mod measure;
pub mod perturbation;
pub mod safety;
pub mod truncation;
pub mod variations;

pub use error::CcdEvalError;
