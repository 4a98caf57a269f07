// The raw module stock rapier.js's API layer imports ("./raw"): the fork's (crates/js-raw,
// compiled into crates/js's wasm module), in place of stock's rapier_wasm3d.
export * from "./pkg/rapier_pinned_js.js";
