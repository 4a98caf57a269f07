// Stock rapier.js 0.21.0's types (its own .d.ts files, shipped unchanged), plus the fork's.
import * as RAPIER from "./exports";
export * from "./exports";
export * from "./pinned";
export default RAPIER;
