// Stock rapier.js 0.21.0's types (its own .d.ts files, shipped unchanged but for their import
// specifiers), plus the fork's (pinned.d.ts). The default export is the namespace of both, as
// stock's is of its own: a game uses it for values and types alike (`RAPIER.Vector`).
import * as RAPIER from "./namespace.js";
export * from "./namespace.js";
export default RAPIER;
