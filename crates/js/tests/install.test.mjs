// A rapier.js game adopts the package by changing one dependency line: its package.json maps
// `@dimforge/rapier3d-compat` to the package's tarball (`npm pack` output of scripts/js-package),
// and its code, which imports `@dimforge/rapier3d-compat` (or requires it: CommonJS), runs unchanged.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import test from "node:test";
import { join as joinPath } from "node:path";
import { pathToFileURL } from "node:url";
import { packageDir, stockDir } from "./common.mjs";
import { run } from "./programs/game.mjs";

const here = dirname(fileURLToPath(import.meta.url));

test("a game switches with one dependency line and keeps its code", async () => {
  const tarballs = readdirSync(dirname(packageDir)).filter((f) => f.endsWith(".tgz"));
  assert.equal(tarballs.length, 1, `one tarball beside ${packageDir}`);
  const game = mkdtempSync(join(tmpdir(), "rapier-pinned-game-"));
  const tarball = join(dirname(packageDir), tarballs[0]);
  writeFileSync(join(game, "package.json"), JSON.stringify({
    name: "a-game",
    private: true,
    type: "module",
    // The one line: was "@dimforge/rapier3d-compat": "0.21.0".
    dependencies: { "@dimforge/rapier3d-compat": `file:${tarball}` },
  }));
  copyFileSync(join(here, "programs/ccd.mjs"), join(game, "ccd.mjs"));
  copyFileSync(join(here, "programs/game.mjs"), join(game, "game.mjs"));
  writeFileSync(join(game, "events.mjs"), `
    import RAPIER from "@dimforge/rapier3d-compat";
    import { run } from "./game.mjs";
    await RAPIER.init();
    console.log(JSON.stringify(run(RAPIER)));
  `);
  writeFileSync(join(game, "main.mjs"), `
    import RAPIER from "@dimforge/rapier3d-compat";
    import { initWorld } from "./ccd.mjs";
    await RAPIER.init();
    let world;
    initWorld(RAPIER, { setWorld: (w) => (world = w), lookAt() {} });
    for (let i = 0; i < 60; i++) world.step();
    console.log(RAPIER.version(), typeof RAPIER.PinnedWorld, world.digest());
  `);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent", "--offline"], { cwd: game });
  const out = execFileSync("node", ["main.mjs"], { cwd: game, encoding: "utf8" }).trim().split(" ");
  assert.equal(out[0], "0.21.0", "version(): the rapier.js API the package implements");
  assert.equal(out[1], "function");
  assert.match(out[2], /^[0-9a-f]{16}$/);
  // A game using events, queries and the character controller: the log stock rapier.js gives.
  const log = JSON.parse(execFileSync("node", ["events.mjs"], { cwd: game, encoding: "utf8" }));
  const STOCK = (await import(pathToFileURL(joinPath(stockDir, "dist/rapier.mjs")).href)).default;
  await STOCK.init();
  const expected = run(STOCK);
  assert.ok(expected.some((l) => l.startsWith("collision")) && expected.some((l) => l.startsWith("force")));
  assert.deepEqual(log, expected);
  // CommonJS, as stock's -compat ships it too: `require()` of the same name (rapier.cjs) runs the
  // same game, and a PinnedWorld, with the results of the ES import.
  writeFileSync(join(game, "events.cjs"), `
    const RAPIER = require("@dimforge/rapier3d-compat");
    (async () => {
      const { run } = await import("./game.mjs");
      await RAPIER.init();
      const pinned = RAPIER.PinnedWorld.new(RAPIER.physicsVersionCurrent(), 7n);
      const ball = pinned.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 2, 0));
      pinned.createCollider(RAPIER.ColliderDesc.ball(0.5), ball);
      for (let i = 0; i < 30; i++) pinned.step();
      const snapshot = Buffer.from(pinned.snapshot()).toString("hex");
      console.log(JSON.stringify({ log: run(RAPIER), same: RAPIER.default.World === RAPIER.World,
        digest: pinned.digest(), snapshot }));
    })();
  `);
  const cjs = JSON.parse(execFileSync("node", ["events.cjs"], { cwd: game, encoding: "utf8" }));
  assert.deepEqual(cjs.log, expected);
  assert.ok(cjs.same, "the default export is the namespace, as in stock's rapier.cjs");
  const RAPIER = (await import(pathToFileURL(joinPath(packageDir, "rapier.mjs")).href)).default;
  await RAPIER.init();
  const pinned = RAPIER.PinnedWorld.new(RAPIER.physicsVersionCurrent(), 7n);
  const ball = pinned.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 2, 0));
  pinned.createCollider(RAPIER.ColliderDesc.ball(0.5), ball);
  for (let i = 0; i < 30; i++) pinned.step();
  assert.equal(cjs.digest, pinned.digest());
  assert.equal(cjs.snapshot, Buffer.from(pinned.snapshot()).toString("hex"));
});

test("the non-inlined variant: init(bytes of the shipped .wasm) in a fresh process", () => {
  const script = `
    import { readFileSync } from "node:fs";
    const RAPIER = (await import(${JSON.stringify(pathToFileURL(joinPath(packageDir, "rapier.mjs")).href)})).default;
    await RAPIER.init(readFileSync(${JSON.stringify(joinPath(packageDir, "pkg/rapier_pinned_js_bg.wasm"))}));
    const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    const b = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 1, 0));
    world.createCollider(RAPIER.ColliderDesc.ball(0.5), b);
    for (let i = 0; i < 10; i++) world.step();
    console.log(b.translation().y < 1, world.digest());
  `;
  const out = execFileSync("node", ["--input-type=module", "-e", script], { encoding: "utf8" }).trim();
  assert.match(out, /^true [0-9a-f]{16}$/);
});
