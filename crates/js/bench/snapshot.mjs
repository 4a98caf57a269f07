// Snapshot cost on wasm32, through the package (issue 45: "also measure ... on wasm32 through the
// npm package"), reported, not gated: the scenes of the native bench's format-3 and delta parts
// (`cargo bench -p rapier-pinned --bench snapshot -- linked delta`), under the current
// physics-version, in Node. Bytes per body of formats 1, 2 and 3 (and of a delta a second after
// its baseline) as the package writes them, and the medians of each format's save and validated
// restore (with and without a MAC), each as a ratio to the package's own format 1: the package
// has no plain bincode decode, so its format-1 restore is the baseline here.
// `node crates/js/bench/snapshot.mjs [--quick]`, after scripts/js-package (RAPIER_PINNED_JS).
import { rapier } from "../tests/common.mjs";

const quick = process.argv.includes("--quick");
const RAPIER = await rapier();
const V = RAPIER.physicsVersionCurrent();
const KEY = new Uint8Array(32).fill(0x5a);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The scene after `steps` steps.
function stepped(name, steps) {
  const world = RAPIER.PinnedWorld.fromScene(V, 0, name);
  for (let i = 0; i < steps; i++) world.step();
  return world;
}

// Times every op once per round, the order rotating each round (as the native bench); ms medians.
function interleave(ops, rounds) {
  const samples = ops.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < ops.length; j++) {
      const k = (round + j) % ops.length;
      const start = performance.now();
      const made = ops[k][1]();
      samples[k].push(performance.now() - start);
      made?.free?.();
    }
  }
  return new Map(ops.map(([name], k) => [name, median(samples[k])]));
}

const perBody = (bytes, world) => (bytes.length / world.bodies.len()).toFixed(1);
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;

function linked(name, steps) {
  const world = stepped(name, steps);
  const level = world.level;
  const f = [1, 2, 3].map((format) => world.snapshot(undefined, { format }));
  const f3mac = world.snapshot(KEY, { format: 3 });
  const restore = (bytes, key) => () => RAPIER.PinnedWorld.restore(V, 0, bytes, key, undefined, level);
  const ms = interleave([
    ["save 1", () => world.snapshot()],
    ["save 3", () => world.snapshot(undefined, { format: 3 })],
    ["restore 1", restore(f[0])],
    ["restore 2", restore(f[1])],
    ["restore 3", restore(f[2])],
    ["restore 3, MAC", restore(f3mac, KEY)],
  ], quick ? 1 : world.bodies.len() > 1000 ? 11 : 41);
  console.log(`  ${name} @${steps}: B/body ${f.map((b) => perBody(b, world)).join(" / ")}; ` +
    `save 3 ${ratio(ms.get("save 3"), ms.get("save 1"))} (format 1 ${ms.get("save 1").toFixed(3)} ms); ` +
    `restore 2 ${ratio(ms.get("restore 2"), ms.get("restore 1"))}, 3 ${ratio(ms.get("restore 3"), ms.get("restore 1"))}, ` +
    `3 + MAC ${ratio(ms.get("restore 3, MAC"), ms.get("restore 1"))} (format 1 ${ms.get("restore 1").toFixed(3)} ms)`);
  world.free();
}

function delta(name, steps) {
  const world = stepped(name, steps);
  const baseline = world.baseline();
  for (let i = 0; i < 60; i++) world.step();
  const full = world.snapshot(undefined, { format: 3 });
  const d = world.snapshot(undefined, { format: 4, baseline });
  const f1 = world.snapshot();
  const receiver = RAPIER.PinnedWorld.restore(V, 0, f1);
  const ms = interleave([
    ["save 1", () => world.snapshot()],
    ["save 4", () => world.snapshot(undefined, { format: 4, baseline })],
    ["restore 1", () => receiver.restore(f1)],
    ["restore 4", () => receiver.restore(d, undefined, { baseline })],
  ], quick ? 1 : 41);
  console.log(`  ${name} @${steps + 60} against @${steps}: delta ${perBody(d, world)} B/body, ` +
    `format 3 ${perBody(full, world)} (${(d.length / full.length).toFixed(3)}); ` +
    `save ${ratio(ms.get("save 4"), ms.get("save 1"))}, restore ${ratio(ms.get("restore 4"), ms.get("restore 1"))} of format 1's`);
  receiver.free();
  world.free();
}

console.log(`snapshots in the package (wasm32, Node ${process.version}), physics-version ${V}: ` +
  "B/body of formats 1 / 2 / 3; medians as ratios to the package's format 1");
for (const [name, steps] of [["pyramid", 60], ["arena", 120], ["mixed_5000", 30], ["trimesh_level", 60]]) {
  linked(name, steps);
}
console.log("deltas one second after their baseline:");
for (const [name, steps] of [["pyramid", 60], ["arena", 120]]) delta(name, steps);
if (quick) console.log("  (--quick: one round, the times mean nothing)");
