// A PinnedWorld is stock rapier.js's World (a subclass): events, scene queries and the character
// controller work on it as on a plain World with the same parameters, also after a snapshot is
// restored into it; its parameters stay the physics-version's however a program reaches them.
import assert from "node:assert/strict";
import test from "node:test";
import { rapier } from "./common.mjs";
import { run } from "./programs/game.mjs";

const RAPIER = await rapier();
const V = RAPIER.physicsVersionCurrent();

/** RAPIER whose `new World(gravity)` makes `make(gravity)` instead (game.mjs calls `new World`). */
const withWorld = (make) => ({ ...RAPIER, World: function World(g) { return make(g); } });

test("game.mjs (events, contact forces, ray casts, the character controller) in a PinnedWorld", () => {
  const pinned = RAPIER.PinnedWorld.new(V, 0);
  assert.ok(pinned instanceof RAPIER.World);
  const { ccdRelativeMotion, ccdPersistentContactPolicy } = pinned.integrationParameters;
  // The current version's parameters are rapier3d's defaults plus the fork's two settings, and its
  // gravity is game.mjs's: a plain World given the two settings must log exactly the same.
  const log = run(withWorld(() => RAPIER.PinnedWorld.new(V, 0)));
  const plain = run(withWorld((g) => {
    const w = new RAPIER.World(g);
    Object.assign(w.integrationParameters, { ccdRelativeMotion, ccdPersistentContactPolicy });
    return w;
  }));
  assert.ok(log.some((l) => l.startsWith("collision")) && log.some((l) => l.startsWith("force")));
  assert.ok(log.some((l) => /ray \d/.test(l)), "the ray hits");
  assert.deepEqual(log, plain);
});

/** Steps `world` `n` times with an event queue: per step, the digest and the events. */
function trace(world, n) {
  const queue = new RAPIER.EventQueue(true);
  const lines = [];
  for (let i = 0; i < n; i++) {
    world.step(queue);
    queue.drainCollisionEvents((a, b, started) => lines.push(`collision ${a} ${b} ${started}`));
    const hit = world.castRay(new RAPIER.Ray({ x: 0, y: 10, z: 0 }, { x: 0, y: -1, z: 0 }), 20, true);
    lines.push(`${world.tick} ${world.digest()} ray ${hit?.collider.handle} ${hit?.timeOfImpact}`);
  }
  queue.free();
  return lines;
}

function heap() {
  const world = RAPIER.PinnedWorld.new(V, 0);
  world.createCollider(RAPIER.ColliderDesc.cuboid(20, 0.1, 20));
  for (let i = 0; i < 8; i++) {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0.3 * (i % 3), 0.5 + i, 0));
    world.createCollider(RAPIER.ColliderDesc.cuboid(0.3, 0.3, 0.3)
      .setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS), body);
  }
  return world;
}

test("a snapshot mid-run: restored into a new PinnedWorld or in place, the same events and queries", () => {
  const world = heap();
  trace(world, 40);
  const bytes = world.snapshot();
  const expected = trace(world, 60);
  assert.ok(expected.some((l) => l.startsWith("collision")));
  assert.deepEqual(trace(RAPIER.PinnedWorld.restore(V, 0, bytes), 60), expected);
  world.restore(bytes);
  assert.equal(world.tick, 40);
  assert.deepEqual(trace(world, 60), expected);
  // Bodies and colliders are the restored world's: every handle resolves.
  world.forEachCollider((c) => assert.equal(world.getCollider(c.handle), c));
});

test("the parameters stay the version's however they are reached", () => {
  const world = heap();
  assert.throws(() => { world.timestep = 1 / 30; }, /cannot be changed/);
  assert.throws(() => { world.numSolverIterations = 8; }, /cannot be changed/);
  assert.throws(() => { world.integrationParameters = new RAPIER.IntegrationParameters(); }, /cannot be replaced/);
  // Past the setters, on the raw object: the step refuses, as a native restore would.
  world.integrationParameters.raw.dt = 1 / 30;
  assert.throws(() => world.step(), (e) => e instanceof RAPIER.PinnedError && e.kind === "ConfigMismatch");
  assert.equal(world.tick, 0);
  world.free();
});
