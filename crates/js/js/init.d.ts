/**
 * Loads the wasm module; await it before any other call. Without an argument, from the copy
 * inlined in the package (as rapier.js's -compat packages); with one, from `source` (the
 * non-inlined variant: a URL or Response of `pkg/rapier_pinned_js_bg.wasm`, its bytes, or a
 * compiled module), and the inlined copy is never loaded.
 */
export declare function init(source?: URL | string | Response | BufferSource | WebAssembly.Module): Promise<void>;
