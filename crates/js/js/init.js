// `init()`, as in rapier.js's -compat packages: loads the wasm module, inlined in the package as
// base64 (one import works the same in Node and in a browser, no .wasm file to serve).
import initWasm from "./pkg/rapier_pinned_js.js";
import { wasmBase64 } from "./pkg/wasm-inline.js";

let initialized = null;

export function init() {
  if (!initialized) {
    const bytes = Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
    initialized = initWasm({ module_or_path: bytes });
  }
  return initialized.then(() => undefined);
}
