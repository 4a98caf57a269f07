// A browser client of the reference server: a page joins `rapier-pinned serve --ws` late (tick
// 300), steps 600 lockstep ticks reporting its digest every 60, and ends at the server's digest;
// a page of another physics-version is refused with the server's reason.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { openPage } from "./browser.mjs";
import { nativeBin } from "./common.mjs";

let browser;
let server;
const lines = [];
let url;

before(async () => {
  server = spawn(nativeBin(), ["serve", "--ws", "127.0.0.1:0", "--ticks", "900", "--join-at", "300",
    "--unpaced"], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((ok) => server.on("exit", (code) => ok(code)));
  server.exited = exited;
  const reader = createInterface({ input: server.stdout });
  url = await new Promise((ok, fail) => {
    reader.on("line", (line) => {
      lines.push(line);
      const m = /^websocket on (ws:\/\/\S+)$/.exec(line);
      if (m) ok(m[1]);
    });
    exited.then((code) => fail(new Error(`serve exited (${code}) before listening: ${lines.join("\n")}`)));
  });
  browser = await openPage();
});
after(async () => {
  await browser?.close();
  server?.kill();
});

const join = (version) => browser.page.evaluate(async (url, version) => {
  const log = [];
  try {
    const session = await RAPIER.joinWebSocket(url, version, 0, { log: (l) => log.push(l) });
    return { session, log };
  } catch (e) {
    return { error: e.message, log };
  }
}, url, version);

test("a page of physics-version 1 is refused with the server's reason", async () => {
  const { error } = await join(1);
  assert.match(error, /^refused by the server: .*physics-version/);
  const reason = error.replace("refused by the server: ", "");
  assert.ok(lines.some((l) => l.includes(reason)), `the server logged ${reason}:\n${lines.join("\n")}`);
});

test("a page joins at tick 300 and steps 600 ticks in lockstep to the server's digest", async () => {
  const { session, log, error } = await join(await browser.page.evaluate(() => RAPIER.physicsVersionCurrent()));
  assert.equal(error, undefined, `${error}\n${log.join("\n")}`);
  assert.deepEqual([session.joined, session.tick, session.reported], [300, 900, 11]);
  assert.match(log[0], /^joined at tick 300 as (player 0|a spectator) \(snapshot \d+ bytes\)$/);
  assert.equal(await server.exited, 0, lines.join("\n"));
  const done = lines.find((l) => l.startsWith("done tick 900"));
  assert.ok(done?.includes(session.digest), `server: ${done}, page: ${session.digest}`);
  assert.ok(lines.some((l) => /left .* after 11 equal digests, joined at tick 300/.test(l)), lines.join("\n"));
  assert.deepEqual(browser.errors, []);
});
