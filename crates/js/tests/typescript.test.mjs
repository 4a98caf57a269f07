// A TypeScript game written for stock rapier.js type-checks unchanged against the package under
// stock's name (the one-line switch), with TypeScript's module resolutions for Node (nodenext,
// node10) and for bundlers; the fork's additions (PinnedWorld, digest(), the CCD settings) are
// typed too. Known bad: a call stock's types do not have is refused.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import test from "node:test";
import { packageDir } from "./common.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, "node_modules/typescript/bin/tsc");

function project(source, type = "module") {
  const dir = mkdtempSync(join(tmpdir(), "rapier-pinned-ts-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "a-game", private: true, type }));
  mkdirSync(join(dir, "node_modules/@dimforge"), { recursive: true });
  symlinkSync(packageDir, join(dir, "node_modules/@dimforge/rapier3d-compat"), "dir");
  writeFileSync(join(dir, "game.ts"), source);
  return dir;
}

// Stock's own .d.ts files use `Symbol.dispose`: as for stock, the game's lib includes esnext.
const check = (dir, resolution) => execFileSync(process.execPath, [tsc, "--noEmit", "--strict",
  "--target", "es2022", "--lib", "esnext,dom", ...resolution, "game.ts"], { cwd: dir, encoding: "utf8" });

const game = (await import("node:fs")).readFileSync(join(here, "programs/game.ts"), "utf8");
const RESOLUTIONS = {
  nodenext: ["--module", "nodenext", "--moduleResolution", "nodenext"],
  bundler: ["--module", "esnext", "--moduleResolution", "bundler"],
  node10: ["--module", "commonjs", "--moduleResolution", "node10"],
};

for (const [name, resolution] of Object.entries(RESOLUTIONS)) {
  test(`a stock rapier.js TypeScript game type-checks against the package (${name})`, () => {
    check(project(game), resolution);
  });
}

// A CommonJS game (its package.json's type): TypeScript resolves the package's `require`
// condition, the .d.cts declarations.
test("a stock rapier.js TypeScript game type-checks against the package (nodenext, CommonJS)", () => {
  check(project(game, "commonjs"), RESOLUTIONS.nodenext);
});

test("known bad: ccdRelativeMotion reads as a number, not a boolean", () => {
  const dir = project(game.replace("const mode: number =", "const mode: boolean ="));
  assert.throws(() => check(dir, RESOLUTIONS.nodenext),
    (e) => /error TS2322: Type 'number' is not assignable to type 'boolean'/.test(e.stdout));
});

test("known bad: a method stock's types lack is a type error", () => {
  const dir = project(game.replace("controller.enableSnapToGround(0.3);", "controller.enableSnapToTheMoon(0.3);"));
  assert.throws(() => check(dir, RESOLUTIONS.nodenext), (e) => /enableSnapToTheMoon/.test(e.stdout));
});
