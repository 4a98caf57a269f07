// The package's namespace for types: stock's names and the fork's (rapier.d.ts exports it and
// makes it the default export, as stock's rapier.d.ts does with its own).
export * from "./exports.js";
export * from "./pinned.js";
