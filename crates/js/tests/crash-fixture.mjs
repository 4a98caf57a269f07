// Writes the world a differential program (differential.mjs) holds just before one of its steps,
// as the package's `World.takeSnapshot()` bytes: the native fixtures of conformance/crashes/ and
// conformance/hangs/ (their READMEs). At default settings the package steps as upstream does up
// to that step, so the bytes are the world upstream rapier3d then panics on; with
// --physics-version V, the program runs under version V's two CCD settings, as the differential
// test's --physics-version does.
//
// node crates/js/tests/crash-fixture.mjs --seed SEED --step STEP --out FILE [--physics-version V]
import { writeFileSync } from "node:fs";
import { rapier } from "./common.mjs";
import { runProgram } from "./differential.mjs";

const arg = (name) => {
  const i = process.argv.indexOf(name);
  if (i < 0) throw new Error(`usage: crash-fixture.mjs --seed SEED --step STEP --out FILE (no ${name})`);
  return process.argv[i + 1];
};
const seed = Number(arg("--seed")), at = Number(arg("--step")), out = arg("--out");
const version = process.argv.includes("--physics-version") ? Number(arg("--physics-version")) : false;
const R = await rapier();
// The program's own calls, untouched: only `step` is wrapped, to take the snapshot and stop (the
// throw ends the program; runProgram reports it as the program's crash).
const step = R.World.prototype.step;
let index = 0, written = false;
R.World.prototype.step = function (...args) {
  if (index++ === at) {
    writeFileSync(out, this.takeSnapshot());
    written = true;
    throw new Error("fixture written");
  }
  return step.apply(this, args);
};
try {
  runProgram(R, seed, { forkSettings: version });
} catch (e) {
  if (!written) throw e;
}
if (!written) throw new Error(`program ${seed} has no step ${at}`);
console.log(`crash-fixture: program ${seed}, the world before step ${at} -> ${out}`);
