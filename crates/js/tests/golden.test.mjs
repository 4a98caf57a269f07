// Every golden digest of the current physics-version, computed by the package: each run of each
// golden file (the scene catalog and the thin-part sets, compiled into the module) stepped in
// wasm must give the file's digest at every step; and scenes written here against the rapier.js
// API, in a PinnedWorld, must give the catalog's native digests too.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { goldenDigests, rapier, root } from "./common.mjs";
import { scenes } from "./programs/scenes.mjs";

const RAPIER = await rapier();
const version = RAPIER.physicsVersionCurrent();

test("every golden scene of the current version has a golden file, and back", () => {
  const files = readdirSync(join(root, "golden", String(version)))
    .filter((f) => f.endsWith(".snap")).map((f) => f.slice(0, -5)).sort();
  assert.deepEqual([...RAPIER.catalog.goldenScenes()].sort(), files);
});

for (const scene of RAPIER.catalog.goldenScenes()) {
  test(`golden/${version}/${scene}: every run, every step`, () => {
    const golden = goldenDigests(version, scene);
    assert.deepEqual(RAPIER.catalog.goldenRuns(scene), [...golden.keys()]);
    for (const [run, digests] of golden) {
      const { world, steps } = RAPIER.catalog.goldenRun(version, scene, run);
      assert.equal(steps, digests.length, `${run}: step count`);
      for (let step = 1; step <= steps; step++) {
        world.step();
        assert.equal(world.digest(), digests[step - 1], `${run} step ${step}`);
      }
      world.free();
    }
  });
}

const byApi = scenes(RAPIER);
for (const [scene, build] of Object.entries(byApi)) {
  test(`${scene} built through the rapier.js API in a PinnedWorld equals golden/${version}`, () => {
    const [digests] = goldenDigests(version, scene).values();
    const world = RAPIER.PinnedWorld.new(version, 0, build.settings);
    build(world);
    for (let step = 1; step <= digests.length; step++) {
      world.step();
      assert.equal(world.digest(), digests[step - 1], `step ${step}`);
    }
    assert.equal(world.tick, digests.length);
  });
}

test("known bad: version 1's parameters miss the current version's golden digests on a CCD scene", () => {
  const [digests] = goldenDigests(version, "bullets_crossing").values();
  const { world } = RAPIER.catalog.goldenRun(1, "bullets_crossing", "bullets_crossing");
  const differs = digests.some((d) => (world.step(), world.digest() !== d));
  assert.ok(differs, `upstream rules gave version ${version}'s trajectory`);
});
