// The package's cost, reported, not gated (issue 32): module sizes against stock rapier.js 0.21.0,
// ms/step in Node and in headless Chromium against the native build on the arena and the
// pyramid under the current physics-version, and (issue 44) the pyramid and an arena written
// against the rapier.js API at rapier's defaults, on stock rapier.js and on the package side by
// side in one run, in Node and in Chromium (alternating runs, medians). `node crates/js/bench/step.mjs [--quick]`, after
// scripts/js-package and `npm ci` in crates/js/tests; the native side is `rapier-pinned-xtask
// bench-case` (RAPIER_PINNED_XTASK_BIN; crates/xtask). Medians of whole runs of each scene (its golden step count).
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { openPage } from "../tests/browser.mjs";
import { pathToFileURL } from "node:url";
import { packageDir, rapier, root, stockDir } from "../tests/common.mjs";
import { benchScenes } from "../tests/programs/scenes.mjs";

const quick = process.argv.includes("--quick");
const MIN_MS = quick ? 20 : 1500;
const CASES = ["arena", "pyramid"];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function sizes() {
  const stock = join(root, "crates/js/tests/node_modules/@dimforge");
  const files = [
    ["this package's wasm module", join(packageDir, "pkg/rapier_pinned_js_bg.wasm")],
    ["stock rapier3d-deterministic 0.21.0 wasm", join(stock, "rapier3d-deterministic/rapier_wasm3d_bg.wasm")],
    ["this package, what a page loads for init(): rapier.mjs (bundled, minified) and pkg/wasm-inline.js", null],
    ["stock rapier3d-deterministic-compat 0.21.0 dist/rapier.mjs (wasm inlined)", join(stock, "rapier3d-deterministic-compat/dist/rapier.mjs")],
  ];
  const ours = ["rapier.mjs", "pkg/wasm-inline.js"].map((f) => readFileSync(join(packageDir, f)));
  console.log("module sizes (bytes, gzip -9):");
  for (const [what, path] of files) {
    const bytes = path ? readFileSync(path) : Buffer.concat(ours);
    console.log(`  ${what}: ${bytes.length} raw, ${gzipSync(bytes, { level: 9 }).length} gzip`);
  }
}

// Times whole runs of `scene` until MIN_MS have passed: ms/step of each run. Runs anywhere the
// package is loaded as RAPIER (Node here, the page below: the same source, sent as text).
function timeScene(RAPIER, scene, minMs) {
  const version = RAPIER.physicsVersionCurrent();
  const perStep = [];
  let total = 0;
  while (total < minMs || perStep.length < 3) {
    const { world, steps } = RAPIER.catalog.goldenRun(version, scene, scene);
    const start = performance.now();
    for (let i = 0; i < steps; i++) world.step();
    const ms = performance.now() - start;
    world.free();
    total += ms;
    perStep.push(ms / steps);
  }
  return perStep;
}

function native(scene) {
  const bin = process.env.RAPIER_PINNED_XTASK_BIN ?? join(root, "target/release/rapier-pinned-xtask");
  const out = execFileSync(bin, ["bench-case", "--case", scene, "--config", "current",
    "--min-ms", String(MIN_MS)], { encoding: "utf8" });
  return median(out.trim().split("\n").map(Number));
}

sizes();
const RAPIER = await rapier();
const browser = await openPage();
console.log(`ms/step, physics-version ${RAPIER.physicsVersionCurrent()} (medians; ratio to native):`);
for (const scene of CASES) {
  const n = native(scene);
  const node = median(timeScene(RAPIER, scene, MIN_MS));
  const page = median(await browser.page.evaluate(
    (src, scene, minMs) => new Function("return " + src)()(globalThis.RAPIER, scene, minMs),
    timeScene.toString(), scene, MIN_MS));
  const r = (x) => `${x.toFixed(3)} (${(x / n).toFixed(2)}x)`;
  console.log(`  ${scene}: native ${n.toFixed(3)}, Node ${r(node)}, Chromium ${r(page)}`);
}
// Against stock rapier.js itself: scenes written against the rapier.js API, in a plain World at
// rapier's defaults, stock and the package alternating, in Node and in the page.
const STOCK = (await import(pathToFileURL(join(stockDir, "dist/rapier.mjs")).href)).default;
await STOCK.init();
// Whole runs of `scene` on R: ms/step of each (runs anywhere; sent to the page as text).
function timeApi(R, build, steps, minMs) {
  const perStep = [];
  let total = 0;
  while (total < minMs || perStep.length < 3) {
    const world = new R.World({ x: 0, y: -9.81, z: 0 });
    build(world);
    const start = performance.now();
    for (let i = 0; i < steps; i++) world.step();
    const ms = performance.now() - start;
    world.free();
    total += ms;
    perStep.push(ms / steps);
  }
  return perStep;
}
await browser.page.evaluate(async () => {
  globalThis.STOCK = (await import("/stock/dist/rapier.mjs")).default;
  await globalThis.STOCK.init();
  globalThis.benchScenes = (await import("/tests/programs/scenes.mjs")).benchScenes;
});
console.log("ms/step through the rapier.js API at rapier's defaults (medians of alternating runs; ratio to stock):");
for (const name of ["pyramid", "arena"]) {
  const row = {};
  for (const where of ["Node", "Chromium"]) {
    const times = { stock: [], ours: [] };
    for (let round = 0; round < 3; round++) {
      for (const who of ["stock", "ours"]) {
        if (where === "Node") {
          const R = who === "stock" ? STOCK : RAPIER;
          const build = benchScenes(R)[name];
          times[who].push(...timeApi(R, build, build.steps, MIN_MS / 3));
        } else {
          times[who].push(...await browser.page.evaluate((src, who, name, minMs) => {
            const R = who === "stock" ? globalThis.STOCK : globalThis.RAPIER;
            const build = globalThis.benchScenes(R)[name];
            return new Function("return " + src)()(R, build, build.steps, minMs);
          }, timeApi.toString(), who, name, MIN_MS / 3));
        }
      }
    }
    const [s, o] = [median(times.stock), median(times.ours)];
    row[where] = `stock ${s.toFixed(3)}, package ${o.toFixed(3)} (${(o / s).toFixed(2)}x)`;
  }
  console.log(`  ${name}: Node ${row.Node}; Chromium ${row.Chromium}`);
}
console.log(`  (Node ${process.version}, ${browser.userAgent}${quick ? "; --quick: the figures mean nothing" : ""})`);
await browser.close();
