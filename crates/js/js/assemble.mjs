// Copies stock rapier.js's published API layer (`@dimforge/rapier3d`, the directory given) into
// the package (the second directory), unchanged but for its relative import specifiers (in its
// .js and .d.ts files): stock writes them for bundlers ("./raw", "../math"), Node and browsers
// need files ("./raw.js", "../math/index.js"). Stock's raw module (rapier_wasm3d*.js, the .wasm), its init.js and its
// source maps are left out: the package's own raw.js, init.js (crates/js/js) take their place.
// Run by scripts/js-package.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, statSync, existsSync } from "node:fs";
import { join, dirname, relative } from "node:path";

const [stock, out] = process.argv.slice(2);
const skip = (rel) =>
  (rel.startsWith("rapier_wasm3d") && rel !== "rapier_wasm3d.d.ts") || rel.startsWith("src/") || rel.endsWith(".map") ||
  ["package.json", "README.md", "init.js", "init.d.ts", "raw.js", "rapier.js", "rapier.d.ts"]
    .includes(rel);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else yield p;
  }
}

let copied = 0, rewritten = 0;
for (const path of files(stock)) {
  const rel = relative(stock, path).split("\\").join("/");
  if (skip(rel)) continue;
  let text = readFileSync(path, "utf8");
  if (rel.endsWith(".js") || rel.endsWith(".d.ts")) {
    // The .d.ts files too: the package is an ES module package, where TypeScript's node16 and
    // nodenext resolution want explicit extensions (and the other resolutions accept them).
    text = text.replace(/(from\s+|import\s*\(\s*)"(\.{1,2}\/[^"]*)"/g, (all, lead, spec) => {
      const base = join(dirname(path), spec);
      let to;
      if (existsSync(base + ".js")) to = spec + ".js";
      else if (existsSync(join(base, "index.js"))) to = spec + "/index.js";
      else throw new Error(`${rel}: cannot resolve ${spec}`);
      rewritten++;
      return `${lead}"${to}"`;
    });
  }
  const dest = join(out, rel);
  mkdirSync(dirname(dest), { recursive: true });
  writeFileSync(dest, text);
  copied++;
}
// Stock's LICENSE (Apache-2.0, as this project) ships with its files.
console.log(`assemble: ${copied} files of stock's API layer, ${rewritten} import specifiers`);
