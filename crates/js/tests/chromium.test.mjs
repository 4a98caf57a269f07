// The package in headless Chromium: every golden digest of the current physics-version computed
// in the page equals the golden files; a native snapshot crosses into the page and back byte for
// byte, and the page continues it as the native CLI does; a sample of the differential tests'
// random programs gives in the page what it gives stock rapier.js in the page and the package in
// Node; recorded matches verify in the page with Node's (the native command's) verdicts.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { openPage } from "./browser.mjs";
import { cli, goldenDigests, rapier, root } from "./common.mjs";
import { programDigest } from "./differential.mjs";

let browser;
before(async () => {
  browser = await openPage();
});
after(async () => {
  await browser?.close();
});

test("every golden digest of the current version, computed in the page", async (t) => {
  t.diagnostic(browser.userAgent);
  const { version, scenes } = await browser.page.evaluate(() => {
    const version = RAPIER.physicsVersionCurrent();
    const scenes = {};
    for (const scene of RAPIER.catalog.goldenScenes()) {
      scenes[scene] = {};
      for (const run of RAPIER.catalog.goldenRuns(scene)) {
        const { world, steps } = RAPIER.catalog.goldenRun(version, scene, run);
        const digests = [];
        for (let i = 0; i < steps; i++) {
          world.step();
          digests.push(world.digest());
        }
        world.free();
        scenes[scene][run] = digests;
      }
    }
    return { version, scenes };
  });
  assert.ok(Object.keys(scenes).length > 20);
  for (const [scene, runs] of Object.entries(scenes)) {
    assert.deepEqual(runs, Object.fromEntries(goldenDigests(version, scene)), scene);
  }
  assert.deepEqual(browser.errors, []);
});

test("a native snapshot crosses into the page and back byte-identical, and continues alike", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rapier-pinned-page-"));
  const file = join(dir, "arena.snap");
  cli("snapshot", "save", "--scene", "arena", "--steps", "50", "--out", file);
  const native = readFileSync(file);
  const { back, lines } = await browser.page.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const world = RAPIER.PinnedWorld.restore(RAPIER.physicsVersionCurrent(), 0, bytes);
    const back = btoa(String.fromCharCode(...world.snapshot()));
    const lines = [];
    for (let i = 0; i < 60; i++) {
      world.step();
      lines.push(`${world.tick} ${world.digest()}`);
    }
    return { back, lines };
  }, native.toString("base64"));
  assert.deepEqual(Buffer.from(back, "base64"), native);
  assert.deepEqual(lines, cli("snapshot", "continue", file, "--steps", "60").trim().split("\n"));
});

test("the page refuses a version 1 snapshot with the native reason", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rapier-pinned-page-"));
  const file = join(dir, "v1.snap");
  cli("snapshot", "save", "--scene", "pyramid", "--steps", "5", "--physics-version", "1", "--out", file);
  const { refusal, version } = await browser.page.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const version = RAPIER.physicsVersionCurrent();
    try {
      RAPIER.PinnedWorld.restore(version, 0, bytes);
      return { refusal: null, version };
    } catch (e) {
      return { refusal: { kind: e.kind, message: e.message, pinned: e instanceof RAPIER.PinnedError }, version };
    }
  }, readFileSync(file).toString("base64"));
  assert.deepEqual(refusal, {
    kind: "PhysicsVersionMismatch",
    message: `physics-version mismatch: snapshot 1, world ${version}`,
    pinned: true,
  });
});

test("random rapier.js programs in the page: the package equals stock rapier.js there, and Node", async () => {
  const seeds = Array.from({ length: 20 }, (_, i) => 200001 + i);
  const page = await browser.page.evaluate(async (seeds) => {
    const STOCK = (await import("/stock/dist/rapier.mjs")).default;
    await STOCK.init();
    const { programDigest } = await import("/tests/differential.mjs");
    return seeds.map((seed) => [programDigest(STOCK, seed), programDigest(RAPIER, seed)]);
  }, seeds);
  const RAPIER = await rapier();
  const node = seeds.map((seed) => programDigest(RAPIER, seed));
  assert.deepEqual(page.map(([stock]) => stock), page.map(([, pkg]) => pkg), "page: stock vs the package");
  assert.deepEqual(page.map(([, pkg]) => pkg), node, "the package: page vs Node");
  assert.equal(new Set(node).size, seeds.length, "20 different programs");
});

test("a stock rapier.js game (events, queries, the character controller) runs in the page as in Node", async () => {
  const page = await browser.page.evaluate(async () => {
    const { run } = await import("/tests/programs/game.mjs");
    return run(RAPIER);
  });
  const { run } = await import("./programs/game.mjs");
  const node = run(await rapier());
  assert.ok(node.some((l) => l.startsWith("collision")));
  assert.deepEqual(page, node);
});

test("recorded matches verify in the page with Node's verdicts, word for word", async () => {
  const R = await rapier();
  for (const name of ["arena-v3.rpl", "arena-v3-late-desync.rpl"]) {
    const bytes = readFileSync(join(root, "conformance/replays", name));
    const page = await browser.page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      return RAPIER.verifyReplay(bytes);
    }, bytes.toString("base64"));
    // Node's verdict is the native command's (replay.test.mjs).
    assert.deepEqual(page, R.verifyReplay(new Uint8Array(bytes)), name);
  }
  assert.deepEqual(browser.errors, []);
});

test("the non-inlined variant in a page: init(URL of the .wasm) never loads the inlined copy", async () => {
  const page = await browser.page.browser().newPage();
  try {
    await page.goto(browser.page.url());
    const result = await page.evaluate(async () => {
      const R = (await import("/pkg/rapier.mjs")).default;
      await R.init(new URL("/pkg/pkg/rapier_pinned_js_bg.wasm", location.href));
      const world = new R.World({ x: 0, y: -9.81, z: 0 });
      world.createRigidBody(R.RigidBodyDesc.dynamic());
      world.step();
      const loaded = performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
      return { digest: world.digest(), loaded };
    });
    assert.match(result.digest, /^[0-9a-f]{16}$/);
    assert.ok(result.loaded.includes("/pkg/pkg/rapier_pinned_js_bg.wasm"), result.loaded.join(" "));
    assert.ok(!result.loaded.some((p) => p.endsWith("wasm-inline.js")), result.loaded.join(" "));
  } finally {
    await page.close();
  }
});
