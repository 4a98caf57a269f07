// Differential tests of the package against stock rapier.js (issue 44): a seeded generator of
// random rapier.js programs, each run on two rapier.js modules through the same public API, the
// trace of every step compared. A program's choices come from its seed only (never from a
// result), so both runs make the same calls; the trace holds, at every step, every body's state
// as float bits, every collision and contact-force event (the queue is drained each step), and
// every query result, character-controller and vehicle-controller output.
//
// What a program may contain: bodies of the four types (damping, gravity scale, dominance, CCD,
// soft CCD, locked axes, sleeping); colliders of every shape stock offers to a game (ball,
// cuboid, capsule, cylinder, cone, their round forms, triangle and round triangle, segment,
// polyline, convex hull and mesh and their round forms, trimesh, heightfield, compound, voxels) with collision and solver groups,
// sensors, events, contact-force thresholds, combine rules, density or mass; impulse joints of
// every kind (fixed, spherical, revolute with a motor, prismatic with limits, rope, spring,
// generic) and multibody joints; impulses, forces, kinematic targets; ray casts, shape casts,
// point projections and intersection queries; contact pairs and manifolds; physics hooks; a
// kinematic character controller; a ray-cast vehicle; a PID controller; removal of bodies and
// colliders; a snapshot taken and restored mid-run.
//
// A program that throws (a Rust panic is a wasm trap, "RuntimeError: unreachable") is a result:
// its trace so far and the crash (step, call, message, a journal of the calls that led there).
// Both modules crashing at the same step is no difference (stock's own bug, listed as upstream);
// the run goes on with a fresh instance of a module that trapped. By hand (in Node) a program
// whose call into the module does not return (a loop in the wasm) is a result too, a hang: each
// program runs in a worker thread (differential-worker.mjs), terminated when a call makes no
// progress for --hang-ms.
//
// By hand: node crates/js/tests/differential.mjs [--programs N] [--first SEED] [--fork-settings |
// --physics-version V] [--step-times | --crashes-only [--stock]] [--hang-ms MS]
// (RAPIER_PINNED_JS: the package; the stock module: common.mjs's stockDir). --fork-settings: the
// package with the current physics-version's two CCD settings (--physics-version V: version V's);
// --step-times: the package alone, each step's ms (not watched for hangs); --crashes-only: the
// package alone (--stock: stock alone), its crashes only, for a sweep over many seeds; --hang-ms:
// how long a call may run before it is a hang (20000; the slowest step seen took 0.5 s). The
// summary counts each module's crashes and hangs ("crashed: X, hung: Y") and lists them (seed,
// step from 0, call, message, the journal); a crash or a hang of the package fails the run (exit 1).
// No Node-only import at the top: the Chromium test runs this module in a page too.

/** A step's trace as 16 hex digits: two FNV-1a lanes over its UTF-16 code units (the same in
 * Node and in a page; a difference anywhere in the text changes it). */
function hash(text) {
  let a = 0x811c9dc5, b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
    b = (b ^ (b >>> 13)) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

/** mulberry32: a small seeded generator, the same numbers in every JavaScript engine. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    range: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    vec: (s) => ({ x: r.range(-s, s), y: r.range(-s, s), z: r.range(-s, s) }),
    quat: () => {
      const q = { x: r.range(-1, 1), y: r.range(-1, 1), z: r.range(-1, 1), w: r.range(-1, 1) };
      // Not Math.hypot: engines may round it differently; a square root is exact everywhere.
      const n = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) || 1;
      return { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n };
    },
  };
  return r;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** A number's float32 bits, as hex: what the trace compares. Every NaN is one "nan": wasm
 * leaves a NaN's sign and payload to the engine and the compiled code (the WebAssembly spec's NaN
 * nondeterminism), so two builds of the same computation may give NaNs of other bits. */
const bits = (x) => {
  if (x === null || x === undefined) return String(x);
  if (typeof x === "boolean") return x ? "T" : "F";
  if (Number.isNaN(x)) return "nan";
  f32[0] = x;
  return u32[0].toString(16);
};
const vbits = (v) => (v ? `${bits(v.x)},${bits(v.y)},${bits(v.z)}` : String(v));
const qbits = (q) => `${bits(q.x)},${bits(q.y)},${bits(q.z)},${bits(q.w)}`;

/** Handles as the same text on both sides (stock's bit pattern; see crates/js-raw). */
const h = (x) => (x === null || x === undefined ? String(x) : bits(x) + ":" + x.toString());

/** A shape kind drawn from `r`; `onFixed`: the shapes only a fixed body takes too. */
function shapeKind(r, onFixed) {
  const kinds = ["ball", "cuboid", "capsule", "cylinder", "cone", "roundCuboid", "roundCylinder",
    "roundCone", "convexHull", "roundConvexHull", "convexMesh", "compound", "triangle"];
  if (onFixed) kinds.push("trimesh", "heightfield", "voxels", "trimesh", "heightfield", "polyline", "segment");
  kinds.push("roundTriangle", "roundConvexMesh");
  return r.pick(kinds);
}

/** A ColliderDesc of shape `kind`, its sizes drawn from `r`. */
function colliderDesc(R, r, kind) {
  const s = () => r.range(0.1, 1.0);
  const cloud = () => {
    const n = r.int(4, 10);
    const p = new Float32Array(3 * n);
    for (let i = 0; i < 3 * n; i++) p[i] = r.range(-0.8, 0.8);
    return p;
  };
  switch (kind) {
    case "ball": return R.ColliderDesc.ball(s());
    case "cuboid": return R.ColliderDesc.cuboid(s(), s(), s());
    case "capsule": return R.ColliderDesc.capsule(s(), s());
    case "cylinder": return R.ColliderDesc.cylinder(s(), s());
    case "cone": return R.ColliderDesc.cone(s(), s());
    case "roundCuboid": return R.ColliderDesc.roundCuboid(s(), s(), s(), 0.05);
    case "roundCylinder": return R.ColliderDesc.roundCylinder(s(), s(), 0.05);
    case "roundCone": return R.ColliderDesc.roundCone(s(), s(), 0.05);
    case "convexHull": return R.ColliderDesc.convexHull(cloud()) ?? R.ColliderDesc.ball(0.3);
    case "roundConvexHull":
      return R.ColliderDesc.roundConvexHull(cloud(), 0.05) ?? R.ColliderDesc.ball(0.3);
    case "convexMesh": {
      // A tetrahedron, outward-facing.
      const v = new Float32Array([0, 0, 0, s(), 0, 0, 0, s(), 0, 0, 0, s()]);
      const i = new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
      return R.ColliderDesc.convexMesh(v, i) ?? R.ColliderDesc.ball(0.3);
    }
    case "compound": {
      const shapes = [new R.Ball(s()), new R.Cuboid(s(), s(), s())];
      const positions = [{ x: r.range(-0.5, 0.5), y: 0, z: 0 }, { x: 0, y: r.range(-0.5, 0.5), z: 0 }];
      const rotations = [{ x: 0, y: 0, z: 0, w: 1 }, r.quat()];
      return R.ColliderDesc.compound(shapes, positions, rotations);
    }
    case "roundTriangle": {
      const a = r.vec(1), b = r.vec(1), c = r.vec(1);
      return R.ColliderDesc.roundTriangle(a, b, c, 0.05);
    }
    case "roundConvexMesh": {
      const v = new Float32Array([0, 0, 0, s(), 0, 0, 0, s(), 0, 0, 0, s()]);
      const i = new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
      return R.ColliderDesc.roundConvexMesh(v, i, 0.05) ?? R.ColliderDesc.ball(0.3);
    }
    case "segment": return R.ColliderDesc.segment(r.vec(3), r.vec(3));
    case "polyline": {
      const n = r.int(3, 6);
      const v = new Float32Array(3 * n);
      for (let i = 0; i < v.length; i++) v[i] = r.range(-4, 4);
      return R.ColliderDesc.polyline(v, null);
    }
    case "triangle": {
      const a = r.vec(1), b = r.vec(1), c = r.vec(1);
      return R.ColliderDesc.triangle(a, b, c);
    }
    case "trimesh": {
      // A bumpy grid of quads.
      const n = r.int(2, 5), size = r.range(4, 12);
      const v = [], idx = [];
      for (let i = 0; i <= n; i++) {
        for (let j = 0; j <= n; j++) v.push((i / n - 0.5) * size, r.range(-0.3, 0.3), (j / n - 0.5) * size);
      }
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const a = i * (n + 1) + j;
          idx.push(a, a + 1, a + n + 1, a + 1, a + n + 2, a + n + 1);
        }
      }
      return R.ColliderDesc.trimesh(new Float32Array(v), new Uint32Array(idx));
    }
    case "heightfield": {
      const nrows = r.int(2, 6), ncols = r.int(2, 6);
      const heights = new Float32Array((nrows + 1) * (ncols + 1));
      for (let i = 0; i < heights.length; i++) heights[i] = r.range(-0.5, 0.5);
      return R.ColliderDesc.heightfield(nrows, ncols, heights, { x: r.range(5, 15), y: 1, z: r.range(5, 15) });
    }
    case "voxels": {
      const pts = new Float32Array(3 * 6);
      for (let i = 0; i < pts.length; i++) pts[i] = r.range(-2, 2);
      return R.ColliderDesc.voxels(pts, { x: 0.5, y: 0.5, z: 0.5 });
    }
  }
  throw new Error(kind);
}

function decorate(R, r, desc, hooks) {
  if (r.chance(0.3)) desc.setTranslation(r.range(-0.3, 0.3), r.range(-0.3, 0.3), r.range(-0.3, 0.3));
  if (r.chance(0.3)) desc.setRotation(r.quat());
  if (r.chance(0.5)) desc.setFriction(r.range(0, 1.5));
  if (r.chance(0.5)) desc.setRestitution(r.range(0, 1));
  if (r.chance(0.2)) desc.setFrictionCombineRule(r.int(0, 3));
  if (r.chance(0.2)) desc.setRestitutionCombineRule(r.int(0, 3));
  if (r.chance(0.3)) desc.setDensity(r.range(0.2, 5));
  else if (r.chance(0.15)) desc.setMass(r.range(0.2, 5));
  if (r.chance(0.1)) desc.setSensor(true);
  if (r.chance(0.2)) desc.setCollisionGroups((r.int(1, 0xffff) << 16) | r.int(1, 0xffff));
  if (r.chance(0.1)) desc.setSolverGroups((r.int(1, 0xffff) << 16) | r.int(1, 0xffff));
  if (r.chance(0.6)) {
    desc.setActiveEvents(r.pick([R.ActiveEvents.COLLISION_EVENTS, R.ActiveEvents.CONTACT_FORCE_EVENTS,
      R.ActiveEvents.COLLISION_EVENTS | R.ActiveEvents.CONTACT_FORCE_EVENTS]));
  }
  if (r.chance(0.3)) desc.setContactForceEventThreshold(r.range(0, 20));
  if (r.chance(0.1)) desc.setActiveCollisionTypes(R.ActiveCollisionTypes.ALL);
  if (r.chance(0.1)) desc.setContactSkin(r.range(0, 0.05));
  if (hooks && r.chance(0.5)) {
    desc.setActiveHooks(R.ActiveHooks.FILTER_CONTACT_PAIRS | R.ActiveHooks.FILTER_INTERSECTION_PAIRS);
  }
  return desc;
}

function bodyDesc(R, r, type) {
  const d = type === "dynamic" ? R.RigidBodyDesc.dynamic()
    : type === "fixed" ? R.RigidBodyDesc.fixed()
      : type === "kpos" ? R.RigidBodyDesc.kinematicPositionBased()
        : R.RigidBodyDesc.kinematicVelocityBased();
  d.setTranslation(r.range(-6, 6), r.range(0.5, 8), r.range(-6, 6));
  if (r.chance(0.5)) d.setRotation(r.quat());
  if (type !== "fixed") {
    if (r.chance(0.5)) d.setLinvel(r.range(-5, 5), r.range(-5, 5), r.range(-5, 5));
    if (r.chance(0.5)) d.setAngvel(r.vec(5));
  }
  if (type === "dynamic") {
    if (r.chance(0.2)) d.setGravityScale(r.range(-1, 2));
    if (r.chance(0.3)) d.setLinearDamping(r.range(0, 2));
    if (r.chance(0.3)) d.setAngularDamping(r.range(0, 2));
    if (r.chance(0.15)) d.setDominanceGroup(r.int(-3, 3));
    if (r.chance(0.15)) d.setAdditionalMass(r.range(0.1, 3));
    if (r.chance(0.1)) d.lockRotations();
    if (r.chance(0.1)) d.enabledTranslations(r.chance(0.5), true, r.chance(0.5));
    if (r.chance(0.1)) d.setCanSleep(false);
    if (r.chance(0.05)) d.setSleeping(true);
    if (r.chance(0.1)) d.setSoftCcdPrediction(r.range(0, 1));
    if (r.chance(0.1)) d.setAdditionalSolverIterations(r.int(0, 3));
  }
  if (type !== "fixed" && r.chance(0.25)) d.setCcdEnabled(true);
  return d;
}

/** Physics-version `v`'s two CCD settings (the current version's when `v` is `true`), as a
 * PinnedWorld of the package R has them. */
export function ccdSettings(R, v = true) {
  const pinned = R.PinnedWorld.new(v === true ? R.physicsVersionCurrent() : v, 0);
  const { ccdRelativeMotion, ccdPersistentContactPolicy } = pinned.integrationParameters;
  pinned.free();
  return { ccdRelativeMotion, ccdPersistentContactPolicy };
}

/** Runs program `seed` on module R; returns its trace, one hash per step (and the texts).
 * `forkSettings`: false (rapier's defaults), true (the current physics-version's two CCD
 * settings) or a physics-version's number (its settings); `onStep(i, ms)`: each step's time;
 * `onCall(journal)`: each call as the journal notes it, before it is made (a watched runner's
 * progress; a throw there ends the program as a crash, the journal ending in that call).
 * A program that throws (a Rust panic traps the wasm: "RuntimeError: unreachable") ends there:
 * the trace so far and `crash: { step, call, message, calls }` (`step` from 0, -1 in the setup;
 * `call`: the journal's last; `calls`: the journal, the setup's calls then the crashing step's). */
export function runProgram(R, seed, options = {}) {
  const trace = { steps: 0, hashes: [], texts: [], bullets: false };
  const journal = { step: -1, call: "new World", calls: [] };
  try {
    play(R, seed, options, trace, journal);
  } catch (e) {
    const { step, call, calls } = journal;
    trace.crash = { step, call, message: String(e), calls: [...calls] };
  }
  return trace;
}

function play(R, seed, { forkSettings = false, keepText = false, off = new Set(), onStep, onCall }, trace, journal) {
  // The journal: short strings only, never a draw from `r` nor a call into R (the calls stay the same).
  const { calls } = journal;
  const note = (what) => {
    journal.call = what;
    calls.push(journal.step < 0 ? what : `step ${journal.step}: ${what}`);
    onCall?.(journal);
  };
  const r = rng(seed);
  const steps = trace.steps = r.int(40, 100);
  let world = new R.World(r.chance(0.8) ? { x: 0, y: -9.81, z: 0 } : r.vec(12));
  if (forkSettings) Object.assign(world.integrationParameters, ccdSettings(R, forkSettings));
  const queue = new R.EventQueue(true);
  // Physics hooks in some programs: a game's filter, deciding from the handles alone.
  const useHooks = r.chance(0.15);
  const index = (handle) => new Uint32Array(new Float64Array([handle]).buffer)[0];
  if (useHooks) note("physics hooks");
  const hooks = useHooks ? {
    filterContactPair: (c1, c2) => ((index(c1) + index(c2)) % 3 === 0 ? null : R.SolverFlags.COMPUTE_IMPULSE),
    filterIntersectionPair: (c1, c2) => (index(c1) + index(c2)) % 2 === 0,
  } : undefined;
  const bodies = []; // {handle, type}
  const colliders = []; // handles
  const ground = world.createRigidBody(R.RigidBodyDesc.fixed());
  const groundKind = r.chance(0.5) ? null : shapeKind(r, true);
  note(`ground: collider ${groundKind ?? "cuboid floor"} on fixed body ${index(ground.handle)}`);
  colliders.push(world.createCollider(groundKind ? decorate(R, r, colliderDesc(R, r, groundKind), useHooks)
    : R.ColliderDesc.cuboid(20, 0.5, 20).setTranslation(0, -0.5, 0), ground).handle);
  bodies.push({ handle: ground.handle, type: "fixed" });

  const addBody = () => {
    const type = r.pick(["dynamic", "dynamic", "dynamic", "dynamic", "fixed", "kpos", "kvel"]);
    const b = world.createRigidBody(bodyDesc(R, r, type));
    note(`new ${type} body ${index(b.handle)}`);
    const n = r.int(1, 2);
    for (let i = 0; i < n; i++) {
      const kind = shapeKind(r, type === "fixed");
      note(`collider ${kind} on ${type} body ${index(b.handle)}`);
      colliders.push(world.createCollider(decorate(R, r, colliderDesc(R, r, kind), useHooks), b).handle);
    }
    bodies.push({ handle: b.handle, type });
    return b;
  };
  const nBodies = r.int(3, 14);
  for (let i = 0; i < nBodies; i++) addBody();

  // A head-on pair of CCD bullets in some programs: where the fork's settings act.
  const bullets = trace.bullets = r.chance(0.35);
  if (bullets) {
    const y = r.range(1, 3), speed = r.range(150, 400);
    for (const s of [-1, 1]) {
      const b = world.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(-s * 5, y, 0)
        .setLinvel(s * speed, 0, 0).setCcdEnabled(true).setGravityScale(0));
      note(`bullet: CCD ball on dynamic body ${index(b.handle)}`);
      colliders.push(world.createCollider(R.ColliderDesc.ball(r.range(0.2, 1)), b).handle);
      bodies.push({ handle: b.handle, type: "dynamic" });
    }
  }

  // Joints between random pairs of the bodies so far.
  const dyn = () => bodies.filter((b) => b.type === "dynamic");
  const nJoints = r.int(0, 4);
  for (let i = 0; i < nJoints && bodies.length > 2; i++) {
    const b1 = world.getRigidBody(r.pick(bodies).handle), b2 = world.getRigidBody(r.pick(dyn().length ? dyn() : bodies).handle);
    if (!b1 || !b2 || b1.handle === b2.handle) continue;
    const a1 = r.vec(0.5), a2 = r.vec(0.5), axis = r.vec(1);
    const kind = r.pick(["fixed", "spherical", "revolute", "prismatic", "rope", "spring", "generic"]);
    let data;
    switch (kind) {
      case "fixed": data = R.JointData.fixed(a1, r.quat(), a2, r.quat()); break;
      case "spherical": data = R.JointData.spherical(a1, a2); break;
      case "revolute": data = R.JointData.revolute(a1, a2, axis); break;
      case "prismatic":
        data = R.JointData.prismatic(a1, a2, axis);
        data.limitsEnabled = true;
        data.limits = [-r.range(0, 1), r.range(0, 1)];
        break;
      case "rope": data = R.JointData.rope(r.range(0.5, 3), a1, a2); break;
      case "spring": data = R.JointData.spring(r.range(0.5, 2), r.range(1, 50), r.range(0, 5), a1, a2); break;
      case "generic": data = R.JointData.generic(a1, a2, axis, R.JointAxesMask.LinX | R.JointAxesMask.LinY | R.JointAxesMask.LinZ); break;
    }
    if (r.chance(0.3) && ["fixed", "spherical", "revolute", "prismatic"].includes(kind)) {
      // To a body made for it: a multibody joint closing a loop is refused by rapier3d, and
      // stock's API layer then traps (it asks the type of the invalid handle).
      const link = world.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(r.range(-3, 3), r.range(2, 6), r.range(-3, 3)));
      colliders.push(world.createCollider(R.ColliderDesc.ball(r.range(0.2, 0.5)), link).handle);
      bodies.push({ handle: link.handle, type: "dynamic" });
      note(`multibody joint ${kind}: body ${index(b1.handle)} to a new dynamic ball body ${index(link.handle)}`);
      world.createMultibodyJoint(data, b1, link, true);
    } else {
      note(`impulse joint ${kind}: body ${index(b1.handle)} to body ${index(b2.handle)}`);
      const j = world.createImpulseJoint(data, b1, b2, true);
      if (kind === "revolute" && r.chance(0.5)) j.configureMotorVelocity(r.range(-5, 5), r.range(0.1, 2));
    }
  }

  // A character: a kinematic capsule moved by the controller each step.
  let character = null;
  const makeController = () => {
    const c = world.createCharacterController(0.01);
    c.setUp({ x: 0, y: 1, z: 0 });
    if (character.autostep) c.enableAutostep(0.3, 0.1, true);
    if (character.snap) c.enableSnapToGround(0.3);
    c.setApplyImpulsesToDynamicBodies(character.impulses);
    return c;
  };
  if (r.chance(0.4)) {
    const b = world.createRigidBody(R.RigidBodyDesc.kinematicPositionBased().setTranslation(r.range(-3, 3), 2, r.range(-3, 3)));
    note(`character controller: capsule on kinematic body ${index(b.handle)}`);
    const c = world.createCollider(R.ColliderDesc.capsule(0.5, 0.3), b);
    character = { body: b.handle, collider: c.handle, autostep: r.chance(0.5), snap: r.chance(0.5), impulses: r.chance(0.5) };
    character.controller = makeController();
  }

  // A vehicle: a dynamic box chassis with four wheels.
  let vehicle = null;
  const makeVehicle = () => {
    const v = world.createVehicleController(world.getRigidBody(vehicle.chassis));
    for (const [x, z] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
      v.addWheel({ x, y: -0.2, z }, { x: 0, y: -1, z: 0 }, { x: 0, y: 0, z: 1 }, 0.4, 0.3);
    }
    for (let i = 0; i < 4; i++) v.setWheelEngineForce(i, vehicle.force);
    v.setWheelSteering(0, vehicle.steer);
    return v;
  };
  if (r.chance(0.3)) {
    const b = world.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(r.range(-3, 3), 1.5, r.range(-3, 3)));
    note(`vehicle controller: chassis dynamic body ${index(b.handle)}, 4 wheels`);
    world.createCollider(R.ColliderDesc.cuboid(1.2, 0.3, 1.2), b);
    vehicle = { chassis: b.handle, force: r.range(-20, 20), steer: r.range(-0.5, 0.5) };
    bodies.push({ handle: b.handle, type: "dynamic" });
    vehicle.controller = makeVehicle();
  }

  // A PID controller pulling a body to a target, in some programs.
  let pid = null;
  const makePid = () => world.createPidController(pid.kp, pid.ki, pid.kd, R.PidAxesMask.All);
  if (r.chance(0.2)) {
    const b = world.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(r.range(-3, 3), 3, r.range(-3, 3)));
    note(`PID controller on dynamic body ${index(b.handle)}`);
    world.createCollider(R.ColliderDesc.ball(0.3), b);
    bodies.push({ handle: b.handle, type: "dynamic" });
    pid = { body: b.handle, kp: r.range(1, 20), ki: r.range(0, 2), kd: r.range(0, 5), target: r.vec(4) };
    pid.controller = makePid();
  }

  const snapshotAt = r.chance(0.3) ? r.int(5, steps - 5) : -1;
  if (snapshotAt >= 0) note(`snapshot taken and restored after step ${snapshotAt}`);
  const { hashes, texts } = trace;
  const setupCalls = calls.length;
  for (let step = 0; step < steps; step++) {
    // The journal keeps the setup's calls and this step's.
    calls.length = setupCalls;
    journal.step = step;
    journal.call = "actions before the step";
    const out = [];
    // Actions before the step, all drawn from the seed.
    if (r.chance(0.3) && bodies.length) {
      const b = world.getRigidBody(r.pick(bodies).handle);
      if (b && b.isDynamic()) {
        note(`applyImpulse body ${index(b.handle)}`);
        b.applyImpulse(r.vec(3), true);
      }
    }
    if (r.chance(0.15) && bodies.length) {
      const b = world.getRigidBody(r.pick(bodies).handle);
      if (b && b.isDynamic()) {
        note(`addTorque body ${index(b.handle)}`);
        b.addTorque(r.vec(2), true);
      }
    }
    for (const kb of bodies) {
      if (kb.type === "kpos" && r.chance(0.5)) {
        note(`setNextKinematicTranslation body ${index(kb.handle)}`);
        const b = world.getRigidBody(kb.handle);
        const t = b.translation();
        b.setNextKinematicTranslation({ x: t.x + r.range(-0.2, 0.2), y: t.y, z: t.z + r.range(-0.2, 0.2) });
      } else if (kb.type === "kvel" && r.chance(0.2)) {
        note(`setLinvel body ${index(kb.handle)}`);
        world.getRigidBody(kb.handle).setLinvel(r.vec(2), true);
      }
    }
    if (r.chance(0.04) && bodies.length > 3) {
      const i = r.int(1, bodies.length - 1);
      const kept = [vehicle?.chassis, character?.body, pid?.body];
      if (!kept.includes(bodies[i].handle)) {
        note(`removeRigidBody ${index(bodies[i].handle)}`);
        world.removeRigidBody(world.getRigidBody(bodies[i].handle));
        bodies.splice(i, 1);
      }
    }
    if (r.chance(0.04)) {
      const live = colliders.filter((c) => world.getCollider(c) && !(character && c === character.collider));
      if (live.length > 1) {
        const c = r.pick(live.slice(1));
        note(`removeCollider ${index(c)}`);
        world.removeCollider(world.getCollider(c), true);
      }
    }
    if (r.chance(0.05)) addBody();
    if (character && off.has("kcc")) {
      r.range(-0.1, 0.1), r.range(-0.1, 0.1);
    } else if (character) {
      note("character computeColliderMovement");
      const collider = world.getCollider(character.collider);
      character.controller.computeColliderMovement(collider, { x: r.range(-0.1, 0.1), y: -0.05, z: r.range(-0.1, 0.1) });
      const m = character.controller.computedMovement();
      out.push(`kcc ${vbits(m)} ${character.controller.computedGrounded()} ${character.controller.numComputedCollisions()}`);
      for (let i = 0; i < character.controller.numComputedCollisions(); i++) {
        const c = character.controller.computedCollision(i);
        out.push(`kcc-hit ${h(c.collider?.handle)} ${bits(c.timeOfImpact)} ${vbits(c.normal1)} ${vbits(c.witness1)} ${vbits(c.translationDeltaApplied)}`);
      }
      const b = world.getRigidBody(character.body);
      const t = b.translation();
      b.setNextKinematicTranslation({ x: t.x + m.x, y: t.y + m.y, z: t.z + m.z });
    }
    if (vehicle && !off.has("vehicle")) {
      note("vehicle updateVehicle");
      vehicle.controller.updateVehicle(world.timestep);
      out.push(`vehicle ${bits(vehicle.controller.currentVehicleSpeed())}`);
      for (let i = 0; i < 4; i++) {
        // The ground object only in contact: out of contact stock's layer looks `undefined` up as
        // a handle, whose NaN bits (and so the collider found) depend on the JavaScript engine.
        const contact = vehicle.controller.wheelIsInContact(i);
        const ground = contact ? h(vehicle.controller.wheelGroundObject(i)?.handle) : "-";
        out.push(`wheel ${i} ${contact} ${bits(vehicle.controller.wheelSuspensionLength(i))} ${bits(vehicle.controller.wheelRotation(i))} ${ground}`);
      }
    }

    if (step === 0) {
      // Mass properties as the bodies start (the colliders' shapes and densities made them).
      note("mass properties");
      world.forEachRigidBody((b) => {
        out.push(`mass ${h(b.handle)} ${bits(b.mass())} ${vbits(b.localCom())} ${vbits(b.principalInertia())} ${qbits(b.principalInertiaLocalFrame())}`);
      });
      world.forEachCollider((c) => {
        out.push(`collider ${h(c.handle)} ${c.shapeType()} ${bits(c.mass())} ${bits(c.density())} ${vbits(c.translation())} ${qbits(c.rotation())}`);
      });
    }
    if (pid) {
      note("PID correction");
      const b = world.getRigidBody(pid.body);
      pid.controller.applyLinearCorrection(b, pid.target, { x: 0, y: 0, z: 0 });
      const c = pid.controller.angularCorrection(b, { x: 0, y: 0, z: 0, w: 1 }, { x: 0, y: 0, z: 0 });
      out.push(`pid ${vbits(c)}`);
    }
    note("world.step");
    const t0 = onStep ? performance.now() : 0;
    world.step(queue, hooks);
    onStep?.(step, performance.now() - t0);

    note("drain events");
    queue.drainCollisionEvents((h1, h2, started) => out.push(`collision ${h(h1)} ${h(h2)} ${started}`));
    queue.drainContactForceEvents((e) => out.push(`force ${h(e.collider1())} ${h(e.collider2())} ${bits(e.totalForceMagnitude())} ${vbits(e.maxForceDirection())}`));

    // Queries after the step.
    note("queries: rays, shape cast, point projection, intersections");
    const ray = new R.Ray(r.vec(6), r.vec(1));
    const hit = world.castRay(ray, r.range(1, 30), r.chance(0.5));
    out.push(`ray ${h(hit?.collider.handle)} ${bits(hit?.timeOfImpact)}`);
    const hitn = world.castRayAndGetNormal(ray, 30, true, r.chance(0.2) ? R.QueryFilterFlags.EXCLUDE_FIXED : undefined);
    out.push(`rayn ${h(hitn?.collider.handle)} ${bits(hitn?.timeOfImpact)} ${vbits(hitn?.normal)}`);
    const all = [];
    world.intersectionsWithRay(ray, 20, true, (i) => { all.push(`${h(i.collider.handle)}/${bits(i.timeOfImpact)}`); return true; });
    out.push(`rays ${all.join(" ")}`);
    const shape = r.chance(0.5) ? new R.Ball(r.range(0.2, 1)) : new R.Cuboid(0.5, 0.3, 0.4);
    const pos = r.vec(5), rot = r.quat();
    const sc = world.castShape(pos, rot, r.vec(3), shape, 0, r.range(0.5, 5), true);
    out.push(`shapecast ${h(sc?.collider.handle)} ${bits(sc?.time_of_impact)} ${vbits(sc?.witness1)} ${vbits(sc?.normal1)}`);
    const inter = [];
    world.intersectionsWithShape(pos, rot, shape, (c) => { inter.push(h(c.handle)); return true; });
    out.push(`shapes ${inter.join(" ")}`);
    const pp = world.projectPoint(r.vec(6), r.chance(0.5));
    out.push(`project ${h(pp?.collider.handle)} ${vbits(pp?.point)} ${pp?.isInside}`);
    const pts = [];
    world.intersectionsWithPoint(r.vec(4), (c) => { pts.push(h(c.handle)); return true; });
    out.push(`points ${pts.join(" ")}`);

    // The narrow phase's pairs of one collider.
    const live = [];
    world.forEachCollider((c) => live.push(c));
    if (live.length > 1) {
      const c1 = live[r.int(0, live.length - 1)];
      note(`contact and intersection pairs of collider ${index(c1.handle)}`);
      const others = [];
      world.contactPairsWith(c1, (c2) => others.push(c2));
      out.push(`pairs ${h(c1.handle)} ${others.map((c) => h(c.handle)).join(" ")}`);
      const sensed = [];
      world.intersectionPairsWith(c1, (c2) => sensed.push(h(c2.handle)));
      out.push(`sensed ${sensed.join(" ")}`);
      for (const c2 of others.slice(0, 2)) {
        world.contactPair(c1, c2, (m, flipped) => {
          const n = m.numContacts(), ns = m.numSolverContacts();
          out.push(`manifold ${flipped} ${vbits(m.normal())} ${n} ${ns} ${bits(m.friction())} ${bits(m.restitution())}` +
            (n > 0 ? ` ${bits(m.contactDist(0))} ${bits(m.contactImpulse(0))}` : "") +
            (ns > 0 ? ` ${vbits(m.solverContactPoint(0))} ${bits(m.solverContactDist(0))}` : ""));
        });
      }
    }

    // Every body's state.
    note("body states");
    world.forEachRigidBody((b) => {
      out.push(`body ${h(b.handle)} ${vbits(b.translation())} ${qbits(b.rotation())} ${vbits(b.linvel())} ${vbits(b.angvel())} ${b.isSleeping()}`);
    });

    if (step === snapshotAt) {
      note("takeSnapshot, World.restoreSnapshot");
      const bytes = world.takeSnapshot();
      const restored = R.World.restoreSnapshot(bytes);
      out.push(`snapshot ${restored ? "restored" : "refused"}`);
      if (restored) {
        note("controllers moved to the restored world");
        if (character) world.removeCharacterController(character.controller);
        if (vehicle) world.removeVehicleController(vehicle.controller);
        if (pid) world.removePidController(pid.controller);
        world.free();
        world = restored;
        if (character) character.controller = makeController();
        if (vehicle) vehicle.controller = makeVehicle();
        if (pid) pid.controller = makePid();
      }
    }
    const text = out.join("\n");
    hashes.push(hash(text));
    if (keepText) texts.push(text);
  }
  world.free();
}

/** Program `seed`'s whole trace on module R, as one digest (Node and a page compare these). */
export function programDigest(R, seed, options) {
  return hash(runProgram(R, seed, options).hashes.join(""));
}

/** The first step where two traces differ, or -1. */
export function firstDifference(a, b) {
  const n = Math.max(a.hashes.length, b.hashes.length);
  for (let i = 0; i < n; i++) if (a.hashes[i] !== b.hashes[i]) return i;
  return -1;
}

/** The first lines that differ at step `i` of two traces run with `keepText`. */
export function describe(a, b, i) {
  const la = (a.texts[i] ?? "").split("\n"), lb = (b.texts[i] ?? "").split("\n");
  for (let k = 0; k < Math.max(la.length, lb.length); k++) {
    if (la[k] !== lb[k]) return `step ${i}, line ${k}:\n  stock:   ${la[k]}\n  package: ${lb[k]}`;
  }
  return `step ${i}: the traces differ in length`;
}

/** Instance `n` (from 1) of the rapier.js module at `url`, initialized. Instance n > 1 is the file
 * imported again as `url?instance=n`: a fresh module with its own wasm memory (in Node and in a page). */
export async function loadModule(url, n = 1) {
  const R = (await import(n > 1 ? `${url}?instance=${n}` : url)).default;
  await R.init();
  return R;
}

/** runProgram on the instances `load(n)` gives, a fresh one after each crash: a wasm trap leaves
 * the instance's memory untrustworthy. */
export function runner(load) {
  let R = null, n = 0;
  return async (seed, options) => {
    R ??= await load(++n);
    const result = runProgram(R, seed, options);
    if (result.crash) R = null;
    return result;
  };
}

/** A runner for Node alone, as runner's on the module at `url` but each program in a worker
 * thread (differential-worker.mjs), watched: a loop in the wasm cannot be interrupted from its own
 * thread, so a program that notes no new call for `hangMs` is a hang, a crash with `hang: true`:
 * the worker terminated, the program run again in a fresh one and stopped right before the call
 * that hung gives its trace and journal up to there. */
export function watchedRunner(url, hangMs = 20000) {
  // Written by the worker at each call the journal notes (its event loop is blocked in a step):
  // the step, the journal's length, a count of calls.
  const progress = new Int32Array(new SharedArrayBuffer(12));
  let worker = null;
  /** Posts `message` to the worker (a fresh one if none): the trace it returns, or `hung`: where
   * the program stopped ({ step, calls }) when it made no progress for `hangMs`. */
  const exec = async (message) => {
    if (!worker) {
      const { Worker } = await import("node:worker_threads");
      worker = new Worker(new URL("./differential-worker.mjs", import.meta.url), { workerData: { url, progress: progress.buffer } });
      worker.unref(); // an idle worker does not hold the process; the poll below does while it runs
    }
    const w = worker;
    return new Promise((resolve, reject) => {
      let count = Atomics.load(progress, 2), since = Date.now();
      const end = () => {
        clearInterval(poll);
        w.off("message", done).off("error", fail);
      };
      const done = (trace) => {
        end();
        resolve({ trace });
      };
      const fail = (e) => {
        end();
        worker = null;
        reject(e);
      };
      const poll = setInterval(() => {
        const now = Atomics.load(progress, 2);
        if (now !== count) [count, since] = [now, Date.now()];
        else if (Date.now() - since >= hangMs) {
          const hung = { step: Atomics.load(progress, 0), calls: Atomics.load(progress, 1) };
          end();
          worker = null;
          resolve(w.terminate().then(() => ({ hung })));
        }
      }, 250);
      w.on("message", done).on("error", fail);
      w.postMessage(message);
    });
  };
  return async (seed, options = {}) => {
    const { trace, hung } = await exec({ seed, options });
    if (!hung) return trace;
    // The journal, deterministic: the same program in a fresh worker, stopped before that call.
    const again = (await exec({ seed, options, stopAt: hung })).trace;
    if (again?.crash?.step !== hung.step || again.crash.calls.length !== hung.calls) {
      throw new Error(`program ${seed} hung at step ${hung.step}, run again it did not reach that call`);
    }
    again.crash = { ...again.crash, message: `hang: did not return within ${hangMs} ms`, hang: true };
    return again;
  };
}

const crashText = (c) => (!c ? "runs to the end"
  : `${c.hang ? "hangs" : "crashes"} at step ${c.step} in ${c.call}: ${c.message}`);

/** Runs `programs` programs from seed `first` on both modules (`stock`, `pkg`: a runner of each,
 * runner's or watchedRunner's): the differing seeds. `differing.crashes`: each program that
 * crashed (or hung) a module, `{ seed, upstream, stock, package }` (each side's crash or
 * undefined); both at the same step (`upstream`: stock's own) is no difference, one alone or at
 * another step is. */
export async function compare(stock, pkg, { programs, first = 1, forkSettings = false, detail = !forkSettings, log = () => {} }) {
  const differing = [];
  differing.bulletPrograms = [];
  differing.crashes = [];
  for (let seed = first; seed < first + programs; seed++) {
    const a = await stock(seed);
    const b = await pkg(seed, { forkSettings });
    const at = firstDifference(a, b);
    // The package completing a program stock crashes on, equal up to stock's crash: a crash the
    // fork fixes (conformance/crashes/), not a difference.
    const fixed = Boolean(a.crash && !b.crash) && at === a.hashes.length;
    if (a.crash || b.crash) {
      const upstream = Boolean(a.crash && b.crash) && a.crash.step === b.crash.step;
      differing.crashes.push({ seed, upstream, fixed, stock: a.crash, package: b.crash });
    }
    if (a.bullets) differing.bulletPrograms.push({ seed, differs: at >= 0 && !fixed });
    if (fixed) {
      log(`seed ${seed}: stock crashes at step ${a.crash.step}, the package runs on (equal until then)`);
    } else if (at >= 0 && at >= Math.min(a.hashes.length, b.hashes.length)) {
      // The traces end apart: a crash on one side, or at another step.
      differing.push({ seed, step: at, bullets: a.bullets, detail: `step ${at}: stock ${crashText(a.crash)}, the package ${crashText(b.crash)}` });
      log(`seed ${seed}: differs, ${differing.at(-1).detail}`);
    } else if (at >= 0 && !detail) {
      differing.push({ seed, step: at, bullets: a.bullets });
    } else if (at >= 0) {
      const ta = await stock(seed, { keepText: true });
      const tb = await pkg(seed, { forkSettings, keepText: true });
      differing.push({ seed, step: at, bullets: a.bullets, detail: describe(ta, tb, firstDifference(ta, tb)) });
      log(`seed ${seed}: differs, ${differing.at(-1).detail}`);
    }
  }
  return differing;
}

/** Runs `programs` programs from seed `first` on one module alone (`run`: its runner, as
 * compare's; `side`: "stock" or "package"), nothing compared: its crashes and hangs, as compare's. */
export async function crashSweep(run, side, { programs, first = 1, forkSettings = false }) {
  const crashes = [];
  for (let seed = first; seed < first + programs; seed++) {
    const { crash } = await run(seed, { forkSettings });
    if (crash) crashes.push({ seed, [side]: crash });
  }
  return crashes;
}

/** compare's or crashSweep's crashes as lines: seed, step, call and message, the journal indented. */
export function crashLines(crashes) {
  const lines = [];
  for (const c of crashes) {
    const sides = c.upstream ? [["both", c.package, " (upstream)"]]
      : [["stock", c.stock, c.fixed ? ", the package runs on (fixed)" : ""], ["the package", c.package, ""]];
    for (const [who, crash, tail] of sides.filter(([, crash]) => crash)) {
      const verb = (crash.hang ? "hang" : "crash") + (who === "both" ? "" : crash.hang ? "s" : "es");
      const message = c.upstream && c.stock.message !== crash.message ? `stock ${c.stock.message}, the package ${crash.message}`
        : crash.message;
      lines.push(`seed ${c.seed}: ${who} ${verb}${tail} at step ${crash.step} in ${crash.call}: ${message}`);
      for (const call of crash.calls) lines.push(`    ${call}`);
    }
  }
  return lines;
}

// By hand: node differential.mjs [--programs N] [--first SEED] [--fork-settings | --physics-version V]
// [--step-times | --crashes-only [--stock]] [--hang-ms MS]
const main = globalThis.process?.argv?.[1] &&
  import.meta.url === (await import("node:url")).pathToFileURL(process.argv[1]).href;
if (main) {
  const { join } = await import("node:path");
  const { pathToFileURL } = await import("node:url");
  const { packageDir, stockDir } = await import("./common.mjs");
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : dflt;
  };
  const programs = arg("--programs", 1000), first = arg("--first", 1), hangMs = arg("--hang-ms", 20000);
  // --fork-settings: the current physics-version's two CCD settings; --physics-version V: V's.
  const forkSettings = arg("--physics-version", undefined) ?? process.argv.includes("--fork-settings");
  const stockUrl = pathToFileURL(join(stockDir, "dist/rapier.mjs")).href;
  const pkgUrl = pathToFileURL(join(packageDir, "rapier.mjs")).href;
  const loadPkg = (n) => loadModule(pkgUrl, n);
  const pkg = await loadPkg(1);
  const settings = forkSettings ? ccdSettings(pkg, forkSettings) : null;
  const named = settings ? `physics-version ${forkSettings === true ? pkg.physicsVersionCurrent() : forkSettings}'s ` +
    `settings (ccdRelativeMotion ${settings.ccdRelativeMotion}, ccdPersistentContactPolicy ${settings.ccdPersistentContactPolicy})`
    : "defaults";
  const seeds = `${programs} programs (seeds ${first}..${first + programs - 1})`;
  const t0 = Date.now();
  const seconds = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  if (process.argv.includes("--step-times")) {
    // The package alone, each step's wall-clock time (a program's cost, not a comparison).
    const run = runner(loadPkg);
    for (let seed = first; seed < first + programs; seed++) {
      const ms = [];
      const { crash } = await run(seed, { forkSettings, onStep: (_, t) => ms.push(t) });
      const max = Math.max(...ms), total = ms.reduce((a, b) => a + b, 0);
      console.log(`seed ${seed}, the package at ${named}: ${ms.length} steps, ${total.toFixed(1)} ms in all, ` +
        `slowest: step ${ms.indexOf(max) + 1}, ${max.toFixed(2)} ms\n  ms per step: ${ms.map((t) => t.toFixed(2)).join(" ")}`);
      if (crash) {
        console.log(`  ${crashText(crash)}`);
        process.exitCode = 1;
      }
    }
  } else if (process.argv.includes("--crashes-only")) {
    // One module alone (stock at defaults with --stock), for a sweep over many seeds.
    const side = process.argv.includes("--stock") ? "stock" : "package";
    const crashes = side === "stock" ? await crashSweep(watchedRunner(stockUrl, hangMs), side, { programs, first })
      : await crashSweep(watchedRunner(pkgUrl, hangMs), side, { programs, first, forkSettings });
    const hung = crashes.filter((c) => c[side].hang).length;
    console.log(`${seeds}, ${side === "stock" ? "stock at defaults" : `the package at ${named}`}, crashes only: ` +
      `crashed: ${crashes.length - hung}, hung: ${hung} (${seconds()})`);
    for (const line of crashLines(crashes)) console.log(line);
    process.exitCode = side === "package" && crashes.length ? 1 : 0;
  } else {
    const differing = await compare(watchedRunner(stockUrl, hangMs), watchedRunner(pkgUrl, hangMs),
      { programs, first, forkSettings, log: console.log });
    const bp = differing.bulletPrograms, { crashes } = differing;
    const count = (side, hang) => crashes.filter((c) => c[side] && Boolean(c[side].hang) === hang).length;
    console.log(`${seeds}, the package at ${named}: ` +
      `${differing.length} differ; of the ${bp.length} with a head-on bullet pair, ${bp.filter((b) => b.differs).length} differ; ` +
      `crashed: ${count("stock", false)} on stock, ${count("package", false)} on the package, ` +
      `hung: ${count("stock", true)} on stock, ${count("package", true)} on the package (${seconds()})`);
    for (const line of crashLines(crashes)) console.log(line);
    // A crash or a hang of the package fails the run; stock's alone are listed only.
    process.exitCode = crashes.some((c) => c.package) ? 1 : forkSettings ? (bp.filter((b) => b.differs).length * 2 > bp.length ? 0 : 1)
      : differing.length === 0 ? 0 : 1;
  }
}
