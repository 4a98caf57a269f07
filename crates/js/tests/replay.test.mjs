// Recorded matches in Node: the package re-steps conformance/replays' version-3 matches with the
// same verdict as native `rapier-pinned replay verify`, word for word; a file cut short verifies
// its complete ticks and reports the tear; a changed byte is refused.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "node:test";
import { nativeBin, rapier, root } from "./common.mjs";

const RAPIER = await rapier();
const dir = join(root, "conformance/replays");
const pictures = mkdtempSync(join(tmpdir(), "rapier-pinned-replays-"));
const bytes = (name) => new Uint8Array(readFileSync(join(dir, name)));

/** Native `replay verify NAME`: exit status and its report (stdout and stderr). */
function native(name) {
  const r = spawnSync(nativeBin(), ["replay", "verify", name, "--pictures", pictures], {
    cwd: dir,
    encoding: "utf8",
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

test("a recorded match verifies as natively", () => {
  const check = RAPIER.verifyReplay(bytes("arena-v3.rpl"));
  assert.equal(check.verified, true);
  assert.equal(check.tick, null);
  assert.equal(check.torn, null);
  assert.equal(check.text, "ticks 1..300 verified (300 ticks)");
  const n = native("arena-v3.rpl");
  assert.equal(n.status, 0, n.out);
  assert.equal(n.out, `arena-v3.rpl: ${check.text}, physics-version 3\n`);
});

test("a client's divergence is named as natively: tick, body, quantity, both values", () => {
  const check = RAPIER.verifyReplay(bytes("arena-v3-late-desync.rpl"));
  assert.equal(check.verified, false);
  assert.equal(check.tick, 200);
  assert.match(check.text, /^diverges at tick 200: state digest recorded [0-9a-f]{16}, now [0-9a-f]{16}\n  at the next keyframe, tick 240: body 0v0: translation\.x recorded /);
  const n = native("arena-v3-late-desync.rpl");
  assert.equal(n.status, 1, n.out);
  assert.ok(n.out.startsWith(`arena-v3-late-desync.rpl: ${check.text}\n  picture: `), n.out);
});

test("a file cut short verifies its complete ticks; a changed byte is refused", () => {
  const whole = bytes("arena-v3.rpl");
  const cut = whole.slice(0, whole.length - 1000);
  const check = RAPIER.verifyReplay(cut);
  assert.equal(check.verified, true);
  assert.ok(check.torn > 0, String(check.torn));
  assert.match(check.text, /^ticks 1\.\.\d+ verified/);
  const changed = whole.slice();
  changed[whole.length - 100] ^= 1;
  assert.throws(() => RAPIER.verifyReplay(changed), /checksum does not match/);
});
