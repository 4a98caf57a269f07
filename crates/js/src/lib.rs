//! rapier-pinned for JavaScript: the wasm module under the npm package `js/` (`docs/js.md`).
//!
//! - [`pinned`]: pinned worlds from the wrapper's version table: the config a `PinnedWorld` (stock
//!   rapier.js's `World` underneath, over crates/js-raw's parts) holds, its parameter check,
//!   snapshots and restores.
//! - [`catalog`]: the scene catalog, for the tests that compare digests with native ones.
//! - [`client`]: the reference client's lockstep core, for a page joining `serve --ws`.
//! - [`replay`]: a recorded match re-stepped against its digests, as `replay verify` does.
//! - [`error`]: refusals as `PinnedError`s with the native kind and message.
//! - `rapier_pinned_js_raw` (crates/js-raw): rapier.js 0.21.0's raw interface, for stock's API layer.
//!
//! A program sees the package's entry point, `js/rapier.mjs`: stock rapier.js's API over the raw
//! interface, and `js/pinned.js` (`PinnedWorld`, a subclass of stock's `World`) over this crate's
//! pinned layer.

pub mod catalog;
pub mod client;
pub mod error;
pub mod pinned;
pub mod replay;

// Linked in for its wasm-bindgen exports: stock rapier.js's API layer runs on them (docs/js.md).
pub use rapier_pinned_js_raw;
