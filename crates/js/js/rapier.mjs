// The package's entry point, shaped like rapier.js's -compat builds: named exports, and the same
// namespace as the default export (`import RAPIER from ...; await RAPIER.init();`).
export * from "./exports.js";
import * as RAPIER from "./exports.js";
export default RAPIER;
