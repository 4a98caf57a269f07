// The package's entry point, shaped like rapier.js's -compat builds: stock rapier.js 0.21.0's API
// (its own published files, ./exports.js) over the fork's raw module, plus the fork's additions
// (./pinned.js: PinnedWorld, PinnedError, ...). Named exports, and the same namespace as the
// default export (`import RAPIER from ...; await RAPIER.init();`).
export * from "./exports.js";
export * from "./pinned.js";
import * as RAPIER from "./rapier.mjs";
export default RAPIER;
