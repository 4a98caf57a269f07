// What the package's tests share: the built package (RAPIER_PINNED_JS, else scripts/js-package's
// default output), the repository root, the native CLI (RAPIER_PINNED_BIN, else target/release)
// and the golden files' per-step digests.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, "target");
export const packageDir = process.env.RAPIER_PINNED_JS ?? join(targetDir, "js-package/package");
const here = dirname(fileURLToPath(import.meta.url));
/** Stock rapier.js, installed by `npm ci` from this folder's package-lock.json. */
export const stockDir = process.env.RAPIER_STOCK_JS ??
  join(here, "node_modules/@dimforge/rapier3d-deterministic-compat");

/** The package, initialized. */
export async function rapier() {
  const RAPIER = (await import(pathToFileURL(join(packageDir, "rapier.mjs")).href)).default;
  await RAPIER.init();
  return RAPIER;
}

/** The native CLI: RAPIER_PINNED_BIN, else the release build in the target dir. */
export function nativeBin() {
  const bin = process.env.RAPIER_PINNED_BIN ?? join(targetDir, "release/rapier-pinned");
  if (!existsSync(bin)) throw new Error(`no native CLI at ${bin} (set RAPIER_PINNED_BIN)`);
  return bin;
}

/** Runs the native CLI; its stdout. */
export function cli(...args) {
  return execFileSync(nativeBin(), args, { encoding: "utf8", maxBuffer: 1 << 28 });
}

/** The runs of golden/<version>/<scene>.snap: Map run name -> per-step digests (hex). */
export function goldenDigests(version, scene) {
  const text = readFileSync(join(root, "golden", String(version), `${scene}.snap`), "utf8");
  const runs = new Map();
  let current = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("run ")) {
      current = [];
      runs.set(line.slice(4), current);
    } else if (current && /^\d+ [0-9a-f]{16} /.test(line)) {
      const [step, digest] = line.split(" ");
      if (Number(step) !== current.length + 1) throw new Error(`${scene}: step ${step} out of order`);
      current.push(digest);
    }
  }
  if (runs.size === 0) throw new Error(`${scene}: no runs in the golden file`);
  return runs;
}
