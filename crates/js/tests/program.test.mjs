// An unmodified rapier.js program (programs/ccd.mjs, written against rapier.js's API in the shape
// of its testbed demos) runs on the package: with the settings off it gives stock
// @dimforge/rapier3d-deterministic-compat 0.21.0's result bit for bit; under the CCD settings of
// each physics-version from 2 to the current one (6), set through the TypeScript API, another
// one, with no ball passing through a moving plate or a spinning blade; older code's booleans
// `ccdRelativeMotion = true` and `false` are modes 1 and 0.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import test from "node:test";
import { rapier, stockDir } from "./common.mjs";
import * as program from "./programs/ccd.mjs";

const RAPIER = await rapier();
const STEPS = 60;

/** Runs the program on `R` (after `configure(world)`): every body's state hashed, and how many
 * CCD balls ended past the last blades. */
function run(R, configure = () => {}) {
  let world;
  program.initWorld(R, { setWorld: (w) => (world = w), lookAt() {} });
  configure(world);
  for (let i = 0; i < STEPS; i++) world.step();
  const hash = createHash("sha256");
  let through = 0;
  world.forEachRigidBody((b) => {
    const [t, r, v, w] = [b.translation(), b.rotation(), b.linvel(), b.angvel()];
    const state = [t.x, t.y, t.z, r.x, r.y, r.z, r.w, v.x, v.y, v.z, w.x, w.y, w.z];
    hash.update(new Uint8Array(new Float32Array(state).buffer));
    if (b.isCcdEnabled() && t.x > 14.0) through++;
  });
  return { state: hash.digest("hex"), through };
}

/** Sets a world's two CCD settings to physics-version `v`'s. */
const version = (v) => (world) => {
  const pinned = RAPIER.PinnedWorld.new(v, 0).integrationParameters;
  world.integrationParameters.ccdRelativeMotion = pinned.ccdRelativeMotion;
  world.integrationParameters.ccdPersistentContactPolicy = pinned.ccdPersistentContactPolicy;
};

test("settings off: the package gives stock rapier.js 0.21.0's result bit for bit", async (t) => {
  const STOCK = (await import(pathToFileURL(join(stockDir, "dist/rapier.mjs")).href)).default;
  await STOCK.init();
  assert.equal(STOCK.version(), "0.21.0");
  const stock = run(STOCK);
  const ours = run(RAPIER);
  t.diagnostic(`stock ${stock.state.slice(0, 16)}, ${stock.through} of 10 balls through`);
  assert.deepEqual(ours, stock);
});

// Every released version with the fork's settings on: 2 to the current one.
const versions = Array.from({ length: RAPIER.physicsVersionCurrent() - 1 }, (_, i) => i + 2);
assert.deepEqual(versions, [2, 3, 4, 5, 6]);

for (const v of versions) {
  test(`physics-version ${v}'s settings: another result, and no ball through (upstream: some)`, (t) => {
    const upstream = run(RAPIER);
    const pinned = run(RAPIER, version(v));
    t.diagnostic(`upstream rules: ${upstream.through} of 10 through; version ${v}: ${pinned.through}`);
    assert.notEqual(pinned.state, upstream.state);
    assert.ok(upstream.through > 0, "the known-bad case: upstream's CCD lets a ball through");
    assert.equal(pinned.through, 0);
  });
}

// Older code's booleans: true is mode 1 (with policy 3, version 3's settings and result), false
// mode 0 (relative motion off: the balls go through the moving plates, as upstream). This program
// cannot tell mode 1 from mode 2, which differ only for a body turning more than 4 turns a step.
test("older code's booleans: ccdRelativeMotion = true is mode 1 (version 3's result), false 0", () => {
  const set = (on) => (world) => {
    world.integrationParameters.ccdRelativeMotion = on;
    world.integrationParameters.ccdPersistentContactPolicy = 3;
    assert.equal(world.integrationParameters.ccdRelativeMotion, on ? 1 : 0);
  };
  assert.deepEqual(run(RAPIER, set(true)), run(RAPIER, version(3)));
  assert.ok(run(RAPIER, set(false)).through > 0, "relative motion off: a ball goes through");
});
