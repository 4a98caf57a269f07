// The package's cost, reported, not gated (issue 32): module sizes against stock rapier.js 0.21.0,
// and ms/step in Node and in headless Chromium against the native build on the arena and the
// pyramid under the current physics-version. `node crates/js/bench/step.mjs [--quick]`, after
// scripts/js-package and `npm ci` in crates/js/tests; the native side is `rapier-pinned
// bench-case` (RAPIER_PINNED_BIN). Medians of whole runs of each scene (its golden step count).
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { openPage } from "../tests/browser.mjs";
import { pathToFileURL } from "node:url";
import { packageDir, rapier, root, stockDir } from "../tests/common.mjs";
import { scenes } from "../tests/programs/scenes.mjs";

const quick = process.argv.includes("--quick");
const MIN_MS = quick ? 20 : 1500;
const CASES = ["arena", "pyramid"];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function sizes() {
  const stock = join(root, "crates/js/tests/node_modules/@dimforge");
  const files = [
    ["this package's wasm module", join(packageDir, "pkg/rapier_pinned_js_bg.wasm")],
    ["stock rapier3d-deterministic 0.21.0 wasm", join(stock, "rapier3d-deterministic/rapier_wasm3d_bg.wasm")],
    ["this package's rapier.mjs + exports.js + pkg/*.js (wasm inlined)", null],
    ["stock rapier3d-deterministic-compat 0.21.0 dist/rapier.mjs (wasm inlined)", join(stock, "rapier3d-deterministic-compat/dist/rapier.mjs")],
  ];
  const ours = ["rapier.mjs", "exports.js", "pkg/rapier_pinned_js.js", "pkg/wasm-inline.js"]
    .map((f) => readFileSync(join(packageDir, f)));
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
  const bin = process.env.RAPIER_PINNED_BIN ?? join(root, "target/release/rapier-pinned");
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
// Against stock rapier.js itself: the pyramid written against the rapier.js API (the golden
// test's copy of the catalog scene), in a plain World at rapier's defaults, in Node.
const STOCK = (await import(pathToFileURL(join(stockDir, "dist/rapier.mjs")).href)).default;
await STOCK.init();
function timeApiPyramid(R) {
  const perStep = [];
  let total = 0;
  while (total < MIN_MS || perStep.length < 3) {
    const world = new R.World({ x: 0, y: -9.81, z: 0 });
    scenes(R).pyramid(world);
    const start = performance.now();
    for (let i = 0; i < 200; i++) world.step();
    const ms = performance.now() - start;
    world.free();
    total += ms;
    perStep.push(ms / 200);
  }
  return median(perStep);
}
const stock = timeApiPyramid(STOCK);
const ours = timeApiPyramid(RAPIER);
console.log(`  pyramid through the JS API at rapier's defaults, Node: stock rapier.js 0.21.0 ${stock.toFixed(3)}, this package ${ours.toFixed(3)} (${(ours / stock).toFixed(2)}x stock)`);
console.log(`  (Node ${process.version}, ${browser.userAgent}${quick ? "; --quick: the figures mean nothing" : ""})`);
await browser.close();
