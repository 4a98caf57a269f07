// `init()`, as in rapier.js's -compat packages: loads the wasm module inlined in the package as
// base64 (one import works the same in Node and in a browser, no .wasm file to serve).
// `init(source)` is the non-inlined variant: the module from `source` (a URL or Response of
// pkg/rapier_pinned_js_bg.wasm, which the package ships, its bytes, or a WebAssembly.Module), and
// the base64 copy is then never loaded.
import initWasm from "./pkg/rapier_pinned_js.js";

let initialized = null;

export function init(source) {
  if (!initialized) {
    initialized = source === undefined
      ? import("./pkg/wasm-inline.js").then(({ wasmBase64 }) =>
        initWasm({ module_or_path: Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)) }))
      : initWasm({ module_or_path: source });
  }
  return initialized.then(() => undefined);
}
