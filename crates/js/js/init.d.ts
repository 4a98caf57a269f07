/** Loads the wasm module (inlined in the package); await it before any other call. */
export declare function init(): Promise<void>;
