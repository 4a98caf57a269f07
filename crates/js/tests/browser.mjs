// Headless Chromium for the package's tests: Debian's /usr/bin/chromium (CHROMIUM overrides)
// driven by puppeteer-core, a page served from a local HTTP server that maps /pkg/ to the
// package, /stock/ to stock rapier.js (-deterministic-compat 0.21.0) and /tests/ to this folder's
// modules, and `inPage(f, ...args)` to run a function in the page with the package loaded.
import { createServer } from "node:http";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";
import { packageDir, stockDir } from "./common.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ROOTS = { "/pkg/": packageDir, "/stock/": stockDir, "/tests/": here };

const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".html": "text/html",
  ".wasm": "application/wasm" };

/** Starts the server and the browser; returns {page, close}. */
export async function openPage() {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<!doctype html><title>rapier-pinned</title>");
    }
    const prefix = Object.keys(ROOTS).find((p) => path.startsWith(p));
    if (!prefix) {
      res.writeHead(404);
      return res.end();
    }
    try {
      const body = readFileSync(join(ROOTS[prefix], path.slice(prefix.length)));
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    userDataDir: mkdtempSync(join(tmpdir(), "rapier-pinned-chromium-")),
    // The machine's network is closed: no background connections, no sandbox (root in CI).
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.evaluate(async () => {
    const RAPIER = (await import("/pkg/rapier.mjs")).default;
    await RAPIER.init();
    globalThis.RAPIER = RAPIER;
  });
  return {
    page,
    errors,
    userAgent: await browser.version(),
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}
