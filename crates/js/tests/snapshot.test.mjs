// Snapshots cross between the native CLI and the package both ways, byte for byte; the package
// restores with every native check and refuses with the native kind and message.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "node:test";
import { cli, nativeBin, rapier } from "./common.mjs";

const RAPIER = await rapier();
/** The current physics-version: the native CLI's default, and the worlds here. */
const V = RAPIER.physicsVersionCurrent();
const dir = mkdtempSync(join(tmpdir(), "rapier-pinned-js-"));
const file = (name) => join(dir, name);
const keyHex = "a5".repeat(32);
const key = Uint8Array.from(Buffer.from(keyHex, "hex"));
writeFileSync(file("key"), keyHex + "\n");
const wrongKeyHex = "5a".repeat(32);
writeFileSync(file("wrong-key"), wrongKeyHex + "\n");

const save = (name, ...args) =>
  cli("snapshot", "save", "--scene", "arena", "--steps", "50", "--out", file(name), ...args);
save("current.snap");
save("v1.snap", "--physics-version", "1");
save("mac.snap", "--key-file", file("key"));
save("lz4.snap", "--compressed");
const bytes = (name) => new Uint8Array(readFileSync(file(name)));

/** The native verdict on a file: `refused: MESSAGE (kind: KIND)` on stderr, as {message, kind}. */
function nativeRefusal(...args) {
  const r = spawnSync(nativeBin(), ["snapshot", "verify", ...args], { encoding: "utf8" });
  assert.equal(r.status, 1, `native verify should refuse: ${r.stdout}${r.stderr}`);
  const m = /^refused: (.*) \(kind: (\w+)\)$/m.exec(r.stderr);
  assert.ok(m, `native refusal line: ${r.stderr}`);
  return { message: m[1], kind: m[2] };
}

/** The package's refusal of `f` as {message, kind}. */
function jsRefusal(f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof RAPIER.PinnedError, `a PinnedError, not ${e}`);
    return { message: e.message, kind: e.kind };
  }
  assert.fail("the package accepted what it must refuse");
}

/** `snapshot continue`'s `tick digest` lines for a file. */
const nativeContinue = (path, steps, ...args) =>
  cli("snapshot", "continue", path, "--steps", String(steps), ...args).trim().split("\n");

function jsContinue(world, steps) {
  const lines = [];
  for (let i = 0; i < steps; i++) {
    world.step();
    lines.push(`${world.tick} ${world.digest()}`);
  }
  return lines;
}

test("a native snapshot restores in the package and continues identically, both formats", () => {
  for (const name of ["current.snap", "lz4.snap"]) {
    const world = RAPIER.PinnedWorld.restore(V, 0, bytes(name));
    assert.equal(world.tick, 50);
    assert.deepEqual(jsContinue(world, 60), nativeContinue(file(name), 60), name);
  }
});

test("the package's snapshot of a world is the native file, byte for byte, and back", () => {
  const world = RAPIER.PinnedWorld.fromScene(V, 0, "arena");
  for (let i = 0; i < 50; i++) world.step();
  assert.deepEqual(world.snapshot(), bytes("current.snap"));
  // Format 2's LZ4 bytes depend on the encoder's word size (lz4_flex matches differently on
  // wasm32 than on x86_64; any valid block is read, docs/protocol.md §3.1), its payload does not:
  // the package's compressed file holds the native world, natively and here.
  const lz4 = world.snapshot(undefined, { compressed: true });
  assert.deepEqual(RAPIER.PinnedWorld.restore(V, 0, lz4).snapshot(), bytes("current.snap"));
  writeFileSync(file("js-lz4.snap"), lz4);
  assert.deepEqual(nativeContinue(file("js-lz4.snap"), 5), nativeContinue(file("current.snap"), 5));
  assert.deepEqual(world.snapshot(key), bytes("mac.snap"));
  // Restored in the package and written again: the same bytes.
  assert.deepEqual(RAPIER.PinnedWorld.restore(V, 0, bytes("current.snap")).snapshot(), bytes("current.snap"));
  // The package's file, continued natively, equals the package continuing it.
  writeFileSync(file("js.snap"), world.snapshot());
  assert.deepEqual(nativeContinue(file("js.snap"), 30), jsContinue(world, 30));
});

test("a world on a level: format 3 refers to the level, natively and in the package", () => {
  // The native level scene and its level file; the package's, built from the same scene, is
  // the same level (its id is the BLAKE3 of canonical bytes).
  cli("snapshot", "save", "--scene", "trimesh_level", "--steps", "20", "--format", "3",
    "--level", file("native.level"), "--out", file("level.snap"));
  const level = bytes("native.level");
  const world = RAPIER.PinnedWorld.fromScene(V, 0, "trimesh_level");
  assert.deepEqual(world.level, level);
  assert.match(world.levelId, /^[0-9a-f]{64}$/);
  for (let i = 0; i < 20; i++) world.step();
  const linked = world.snapshot(undefined, { format: 3 });
  assert.ok(linked.length * 10 < world.snapshot().length, `${linked.length} bytes`);
  // Native and package bytes hold one world: each restores the other's, continuing alike.
  writeFileSync(file("js-level.snap"), linked);
  const fromNative = RAPIER.PinnedWorld.restore(V, 0, bytes("level.snap"), undefined, undefined, level);
  assert.deepEqual(fromNative.snapshot(), world.snapshot());
  assert.deepEqual(jsContinue(fromNative, 10),
    nativeContinue(file("js-level.snap"), 10, "--level", file("native.level")));
  // Without the level: the native refusal, naming the level's id.
  const native = nativeRefusal("--physics-version", String(V), file("level.snap"));
  assert.equal(native.kind, "LevelMissing");
  assert.ok(native.message.includes(world.levelId), native.message);
});

test("a delta: written against a baseline the receiver holds, natively and in the package", () => {
  cli("snapshot", "save", "--scene", "arena", "--steps", "30", "--out", file("base.snap"));
  cli("snapshot", "save", "--scene", "arena", "--steps", "50", "--format", "4",
    "--baseline", file("base.snap"), "--out", file("delta.snap"));
  // The package restores the baseline's snapshot, keeps its baseline and reads the native delta.
  const world = RAPIER.PinnedWorld.restore(V, 0, bytes("base.snap"));
  const baseline = world.baseline();
  world.restore(bytes("delta.snap"), undefined, { baseline });
  assert.equal(world.tick, 50);
  assert.deepEqual(world.snapshot(), bytes("current.snap"));
  // The package's delta of that tick, read natively against the same baseline file.
  writeFileSync(file("js-delta.snap"), world.snapshot(undefined, { format: 4, baseline }));
  assert.deepEqual(nativeContinue(file("js-delta.snap"), 10, "--baseline", file("base.snap")),
    nativeContinue(file("current.snap"), 10));
  // Without its baseline, or with another: refused, natively and in the package alike.
  assert.equal(jsRefusal(() => world.restore(bytes("delta.snap"))).kind, "BaselineMissing");
  assert.equal(nativeRefusal(file("delta.snap")).kind, "BaselineMissing");
  const other = RAPIER.PinnedWorld.restore(V, 0, bytes("current.snap")).baseline();
  const wrong = jsRefusal(() => world.restore(bytes("delta.snap"), undefined, { baseline: other }));
  assert.equal(wrong.kind, "WrongBaseline");
  assert.equal(world.tick, 50);
});

test("an authenticated snapshot restores with its key", () => {
  const world = RAPIER.PinnedWorld.restore(V, 0, bytes("mac.snap"), key);
  assert.deepEqual(jsContinue(world, 10), nativeContinue(file("mac.snap"), 10, "--key-file", file("key")));
});

test("refusals carry the native kind and message", () => {
  const wrongKey = Uint8Array.from(Buffer.from(wrongKeyHex, "hex"));
  const cases = [
    ["a version 1 snapshot in a current-version world", () => RAPIER.PinnedWorld.restore(V, 0, bytes("v1.snap")),
      ["--physics-version", String(V), file("v1.snap")], "PhysicsVersionMismatch"],
    ["a wrong key", () => RAPIER.PinnedWorld.restore(V, 0, bytes("mac.snap"), wrongKey),
      ["--key-file", file("wrong-key"), file("mac.snap")], "MacMismatch"],
    ["no MAC where a key is required", () => RAPIER.PinnedWorld.restore(V, 0, bytes("current.snap"), key),
      ["--key-file", file("key"), file("current.snap")], null],
    ["another match id", () => RAPIER.PinnedWorld.restore(V, 5, bytes("current.snap")),
      ["--match-id", "5", file("current.snap")], "ConfigDigestMismatch"],
  ];
  const damaged = bytes("current.snap");
  damaged[damaged.length - 100] ^= 1;
  writeFileSync(file("damaged.snap"), damaged);
  cases.push(["a flipped payload bit", () => RAPIER.PinnedWorld.restore(V, 0, damaged),
    [file("damaged.snap")], "ChecksumMismatch"]);
  for (const [what, restore, args, kind] of cases) {
    const native = nativeRefusal(...args);
    assert.deepEqual(jsRefusal(restore), native, what);
    if (kind) assert.equal(native.kind, kind, what);
  }
});

test("a game's own settings: a native space game at 120 Hz restores under them, and only them", () => {
  const space = { gravity: { x: 0, y: 0, z: 0 }, tickHz: 120, lengthUnit: 1 };
  cli("snapshot", "save", "--scene", "bullet_swarm", "--steps", "20", "--gravity", "0,0,0",
    "--tick-hz", "120", "--out", file("space.snap"));
  const world = RAPIER.PinnedWorld.restore(V, 0, bytes("space.snap"), undefined, space);
  assert.equal(world.integrationParameters.dt, Math.fround(1 / 120));
  assert.deepEqual(jsContinue(world, 30),
    nativeContinue(file("space.snap"), 30, "--gravity", "0,0,0", "--tick-hz", "120"));
  // Under the default settings: the native refusal, naming the fields that differ.
  const native = nativeRefusal("--physics-version", String(V), file("space.snap"));
  assert.equal(native.kind, "ConfigMismatch");
  assert.match(native.message, /gravity/);
  assert.deepEqual(jsRefusal(() => RAPIER.PinnedWorld.restore(V, 0, bytes("space.snap"))), native);
});

test("a refused restore leaves the world as it was", () => {
  const world = RAPIER.PinnedWorld.restore(V, 0, bytes("current.snap"));
  jsContinue(world, 5);
  const before = world.snapshot();
  jsRefusal(() => world.restore(bytes("v1.snap")));
  assert.equal(world.tick, 55);
  assert.deepEqual(world.snapshot(), before);
});

test("a pinned world's parameters and gravity cannot be changed; a plain world's can", () => {
  // Each released version's two CCD settings (relative motion's mode, the policy); 6 is current.
  const released = { 1: [0, 0], 2: [1, 2], 3: [1, 3], 4: [2, 5], 5: [3, 5], 6: [3, 6] };
  assert.equal(V, 6);
  for (const [v, settings] of Object.entries(released)) {
    const p = RAPIER.PinnedWorld.new(Number(v), 0).integrationParameters;
    assert.deepEqual([p.ccdRelativeMotion, p.ccdPersistentContactPolicy], settings, `version ${v}`);
  }
  const world = RAPIER.PinnedWorld.new(V, 0);
  assert.throws(() => { world.integrationParameters.ccdRelativeMotion = 1; }, /cannot be changed/);
  assert.throws(() => { world.integrationParameters.ccdPersistentContactPolicy = 3; }, /cannot be changed/);
  assert.deepEqual([world.integrationParameters.ccdRelativeMotion, world.integrationParameters.ccdPersistentContactPolicy], [3, 6]);
  assert.throws(() => { world.integrationParameters.dt = 1 / 30; }, /cannot be changed/);
  assert.throws(() => { world.gravity = { x: 0, y: 0, z: 0 }; }, /cannot be set/);
  assert.equal(world.integrationParameters.dt, Math.fround(1 / 60));
  const plain = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const ip = plain.integrationParameters;
  assert.deepEqual([ip.ccdRelativeMotion, ip.ccdPersistentContactPolicy], [0, 0]);
  for (const policy of [6, 5, 4, 2]) {
    ip.ccdPersistentContactPolicy = policy;
    assert.equal(ip.ccdPersistentContactPolicy, policy);
  }
  // ccdRelativeMotion is a mode's number; a boolean (what it was before its third mode) is 0 or 1.
  for (const [given, mode] of [[3, 3], [true, 1], [0, 0], [1, 1], [false, 0], [2, 2]]) {
    ip.ccdRelativeMotion = given;
    assert.equal(ip.ccdRelativeMotion, mode, `ccdRelativeMotion = ${given}`);
  }
  // Anything else throws, naming the setting and the range, and changes nothing.
  for (const bad of [7, 9, 256, -1, 1.5, NaN, "3", null, undefined]) {
    assert.throws(() => { ip.ccdPersistentContactPolicy = bad; },
      /^Error: ccdPersistentContactPolicy: .* is not 0 to 6 \(0 Upstream, .*, 5 KeepSide, 6 KeepSideSurfaceBounds\)$/, `policy ${bad}`);
  }
  for (const bad of [4, 255, -1, 0.5, "1", null]) {
    assert.throws(() => { ip.ccdRelativeMotion = bad; },
      /^Error: ccdRelativeMotion: .* is not 0 to 3 \(0 Off, 1 On, 2 Bounded, 3 BoundedCasts\) or a boolean$/, `mode ${bad}`);
  }
  assert.throws(() => { ip.ccdPersistentContactPolicy = 9; }, /ccdPersistentContactPolicy: 9 is not 0 to 6/);
  assert.deepEqual([ip.ccdRelativeMotion, ip.ccdPersistentContactPolicy], [2, 2]);
  assert.throws(() => RAPIER.PinnedWorld.new(7, 0), (e) => e.kind === "UnknownPhysicsVersion");
  // A pinned world takes finite numbers only (its restore would refuse the rest); a plain one,
  // like stock rapier.js, takes what it is given.
  const nan = () => RAPIER.RigidBodyDesc.dynamic().setTranslation(0, NaN, 0);
  assert.throws(() => world.createRigidBody(nan()), /number 1 is NaN; a PinnedWorld takes finite numbers only/);
  assert.throws(() => world.createCollider(RAPIER.ColliderDesc.ball(Infinity)), /shape: number 0 is inf/);
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic());
  assert.throws(() => body.applyImpulse({ x: NaN, y: 0, z: 0 }, true), /finite numbers only/);
  // The refused calls changed nothing: one body (the finite one), at rest.
  let bodies = 0;
  world.forEachRigidBody(() => bodies++);
  assert.equal(bodies, 1);
  assert.deepEqual(body.linvel(), new RAPIER.Vector3(0, 0, 0));
  assert.ok(plain.createRigidBody(nan()));
  // 30 Hz: allowed by versions 3 to 6, not by version 2; 50 Hz by no version.
  assert.throws(() => RAPIER.PinnedWorld.new(2, 0, { gravity: { x: 0, y: 0, z: 0 }, tickHz: 30, lengthUnit: 1 }),
    (e) => e.kind === "SettingNotAllowed");
  assert.ok(RAPIER.PinnedWorld.new(3, 0, { gravity: { x: 0, y: 0, z: 0 }, tickHz: 30, lengthUnit: 1 }));
  assert.ok(RAPIER.PinnedWorld.new(4, 0, { gravity: { x: 0, y: 0, z: 0 }, tickHz: 30, lengthUnit: 1 }));
  assert.ok(RAPIER.PinnedWorld.new(5, 0, { gravity: { x: 0, y: 0, z: 0 }, tickHz: 30, lengthUnit: 1 }));
  assert.ok(RAPIER.PinnedWorld.new(6, 0, { gravity: { x: 0, y: 0, z: 0 }, tickHz: 30, lengthUnit: 1 }));
  assert.throws(() => RAPIER.PinnedWorld.new(V, 0, { gravity: { x: 0, y: 0, z: 0 }, tickHz: 50, lengthUnit: 1 }),
    (e) => e.kind === "SettingNotAllowed");
});
