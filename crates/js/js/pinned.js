// PinnedWorld and the pinned layer (crates/js/src), on top of stock rapier.js's API: a
// PinnedWorld takes stock's descriptions (RigidBodyDesc, ColliderDesc, JointData) and answers
// with bodies of the subset a multiplayer client uses (poses, velocities, impulses), as before
// issue 44. Its parameters are the physics-version's, compiled in; snapshots use the native format
// and every native check. The package's other names are stock's (rapier.mjs).
import * as raw from "./pkg/rapier_pinned_js.js";
import {
  Vector3, Quaternion, ShapeType, JointType, MassPropsMode, IntegrationParameters, World,
} from "./exports.js";
/** A refusal of the pinned layer: `kind` is the native ErrorKind's stable name. */
export class PinnedError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = "PinnedError";
    this.kind = kind;
  }
}

// Runs `f`, turning the module's PinnedError-named errors into PinnedError instances.
function pinned(f) {
  try {
    return f();
  } catch (e) {
    if (e && e.name === "PinnedError") throw new PinnedError(e.kind, e.message);
    throw e;
  }
}

// Stock's descriptions as the module's fixed layouts (crates/js/src/world.rs: BODY_FIELDS,
// COLLIDER_FIELDS, JOINT_FIELDS). What the pinned subset does not have throws rather than being
// dropped silently.
function bodyFields(d) {
  const t = d.translation, q = d.rotation, v = d.linvel, w = d.angvel;
  if (d.massOnly === false && d.mass !== 0) {
    throw new Error("PinnedWorld: setAdditionalMassProperties is not in the pinned subset");
  }
  return new Float64Array([
    t.x, t.y, t.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z,
    d.gravityScale, d.linearDamping, d.angularDamping, d.mass, d.dominanceGroup,
    d.ccdEnabled ? 1 : 0, d.canSleep ? 1 : 0, d.sleeping ? 1 : 0, d.softCcdPrediction,
  ]);
}

const NO_NUMBERS = new Float32Array(0);
const NO_INDICES = new Uint32Array(0);

// [shape code of crates/js/src/shapes.rs, dims, points, indices]
function colliderShape(s) {
  switch (s.type) {
    case ShapeType.Ball: return [0, new Float32Array([s.radius]), NO_NUMBERS, NO_INDICES];
    case ShapeType.Cuboid: {
      const h = s.halfExtents;
      return [1, new Float32Array([h.x, h.y, h.z]), NO_NUMBERS, NO_INDICES];
    }
    case ShapeType.Capsule:
      return [2, new Float32Array([s.halfHeight, s.radius]), NO_NUMBERS, NO_INDICES];
    case ShapeType.Cylinder:
      return [3, new Float32Array([s.halfHeight, s.radius]), NO_NUMBERS, NO_INDICES];
    case ShapeType.Cone:
      return [4, new Float32Array([s.halfHeight, s.radius]), NO_NUMBERS, NO_INDICES];
    case ShapeType.RoundCuboid: {
      const h = s.halfExtents;
      return [5, new Float32Array([h.x, h.y, h.z, s.borderRadius]), NO_NUMBERS, NO_INDICES];
    }
    case ShapeType.ConvexPolyhedron:
      if (s.indices) throw new Error("PinnedWorld: convexMesh is not in the pinned subset");
      return [6, NO_NUMBERS, new Float32Array(s.vertices), NO_INDICES];
    case ShapeType.TriMesh:
      return [7, NO_NUMBERS, new Float32Array(s.vertices), new Uint32Array(s.indices)];
    default:
      throw new Error(`PinnedWorld: shape type ${ShapeType[s.type]} is not in the pinned subset`);
  }
}

function colliderFields(d) {
  const t = d.translation, q = d.rotation;
  let massMode, amount;
  if (d.massPropsMode === MassPropsMode.Density) [massMode, amount] = [1, d.density];
  else if (d.massPropsMode === MassPropsMode.Mass) [massMode, amount] = [2, d.mass];
  else throw new Error("PinnedWorld: setMassProperties is not in the pinned subset");
  return new Float64Array([
    t.x, t.y, t.z, q.x, q.y, q.z, q.w, d.friction, d.restitution, massMode, amount,
    d.isSensor ? 1 : 0,
  ]);
}

// The module's joint codes: spherical 0, revolute 1, prismatic 2, fixed 3.
function jointKind(d) {
  switch (d.jointType) {
    case JointType.Spherical: return 0;
    case JointType.Revolute:
      if (d.axis2) throw new Error("PinnedWorld: revoluteWithAxes is not in the pinned subset");
      return 1;
    case JointType.Prismatic:
      if (d.limitsEnabled) throw new Error("PinnedWorld: joint limits are not in the pinned subset");
      return 2;
    case JointType.Fixed: return 3;
    default:
      throw new Error(`PinnedWorld: joint type ${JointType[d.jointType]} is not in the pinned subset`);
  }
}

function jointFields(d) {
  const zero = { x: 0, y: 0, z: 0 }, id = { x: 0, y: 0, z: 0, w: 1 };
  const [a, b, x, f, g] = [d.anchor1, d.anchor2, d.axis ?? zero, d.frame1 ?? id, d.frame2 ?? id];
  return new Float64Array([
    a.x, a.y, a.z, b.x, b.y, b.z, x.x, x.y, x.z, f.x, f.y, f.z, f.w, g.x, g.y, g.z, g.w,
  ]);
}

const vec = (v) => new Float64Array([v.x, v.y, v.z]);

class PinnedRigidBody {
  constructor(raw, handle) {
    this.raw = raw;
    this.handle = handle;
  }
  state() {
    return this.raw.bodyState(this.handle);
  }
  translation() {
    const s = this.state();
    return new Vector3(s[0], s[1], s[2]);
  }
  rotation() {
    const s = this.state();
    return new Quaternion(s[3], s[4], s[5], s[6]);
  }
  linvel() {
    const s = this.state();
    return new Vector3(s[7], s[8], s[9]);
  }
  angvel() {
    const s = this.state();
    return new Vector3(s[10], s[11], s[12]);
  }
  bodyType() {
    return this.raw.bodyInfo(this.handle)[0];
  }
  mass() {
    return this.raw.bodyInfo(this.handle)[1];
  }
  isSleeping() {
    return this.raw.bodyInfo(this.handle)[2] === 1;
  }
  isCcdEnabled() {
    return this.raw.bodyInfo(this.handle)[3] === 1;
  }
  setTranslation(v, wakeUp) {
    this.raw.bodySet(this.handle, 0, vec(v), wakeUp);
  }
  setRotation(q, wakeUp) {
    this.raw.bodySet(this.handle, 1, new Float64Array([q.x, q.y, q.z, q.w]), wakeUp);
  }
  setLinvel(v, wakeUp) {
    this.raw.bodySet(this.handle, 2, vec(v), wakeUp);
  }
  setAngvel(v, wakeUp) {
    this.raw.bodySet(this.handle, 3, vec(v), wakeUp);
  }
  applyImpulse(v, wakeUp) {
    this.raw.bodySet(this.handle, 4, vec(v), wakeUp);
  }
  applyTorqueImpulse(v, wakeUp) {
    this.raw.bodySet(this.handle, 5, vec(v), wakeUp);
  }
  addForce(v, wakeUp) {
    this.raw.bodySet(this.handle, 6, vec(v), wakeUp);
  }
  addTorque(v, wakeUp) {
    this.raw.bodySet(this.handle, 7, vec(v), wakeUp);
  }
  resetForces(wakeUp) {
    this.raw.bodySet(this.handle, 8, new Float64Array(0), wakeUp);
  }
}

class PinnedCollider {
  constructor(raw, handle, parent) {
    this.raw = raw;
    this.handle = handle;
    this._parent = parent;
  }
  parent() {
    return this._parent;
  }
}

class PinnedImpulseJoint {
  constructor(raw, handle) {
    this.raw = raw;
    this.handle = handle;
  }
}

// `world.integrationParameters`: each field read from and written to the world itself, so a
// pinned world refuses every write (the names: crates/js/src/params.rs's NAMES, `paramNames()`).
function parameters(world) {
  const p = {};
  for (const name of raw.paramNames()) {
    Object.defineProperty(p, name, {
      enumerable: true,
      get: () => (name === "ccdRelativeMotion" ? world.param(name) === 1 : world.param(name)),
      set: (v) => world.setParam(name, typeof v === "boolean" ? (v ? 1 : 0) : v),
    });
  }
  return Object.seal(p);
}

class PlainWorld {
  constructor(gravity, rawWorld) {
    this.raw = rawWorld ?? raw.RawWorld.newPlain(gravity.x, gravity.y, gravity.z);
    this.integrationParameters = parameters(this.raw);
  }
  get gravity() {
    const g = this.raw.gravity();
    return new Vector3(g[0], g[1], g[2]);
  }
  set gravity(g) {
    this.raw.setGravity(g.x, g.y, g.z);
  }
  get timestep() {
    return this.integrationParameters.dt;
  }
  set timestep(dt) {
    this.integrationParameters.dt = dt;
  }
  step() {
    this.raw.step();
  }
  createRigidBody(desc) {
    return new PinnedRigidBody(this.raw, this.raw.createBody(desc.status, bodyFields(desc)));
  }
  createCollider(desc, parent) {
    const p = parent ? parent.handle : -1;
    const [shape, dims, points, indices] = colliderShape(desc.shape);
    const h = this.raw.createCollider(shape, dims, points, indices, colliderFields(desc), p);
    return new PinnedCollider(this.raw, h, parent ?? null);
  }
  createImpulseJoint(data, body1, body2, wakeUp) {
    const h = this.raw.createImpulseJoint(jointKind(data), jointFields(data), body1.handle,
      body2.handle, wakeUp);
    return new PinnedImpulseJoint(this.raw, h);
  }
  getRigidBody(handle) {
    return this.raw.hasBody(handle) ? new PinnedRigidBody(this.raw, handle) : null;
  }
  forEachRigidBody(f) {
    for (const h of this.raw.bodyHandles()) f(new PinnedRigidBody(this.raw, h));
  }
  /** The state digest (crates/digest/src/lib.rs), 16 hex digits. */
  digest() {
    return this.raw.digest();
  }
  free() {
    this.raw.free();
  }
}

const settingsArray = (s) =>
  s === undefined ? undefined
    : new Float64Array([s.gravity.x, s.gravity.y, s.gravity.z, s.tickHz, s.lengthUnit]);
const keyBytes = (key) => (key === undefined || key === null ? undefined : Uint8Array.from(key));

/**
 * A world pinned to a physics-version of the fork's table: its parameters are the version's,
 * compiled in, and cannot be set; snapshots use the native format and every native check.
 */
export class PinnedWorld extends PlainWorld {
  /** An empty world of `physicsVersion` and `matchId` (a bigint or a safe integer), at tick 0;
   * `settings` ({gravity, tickHz, lengthUnit}) when the game chose its own. */
  static new(physicsVersion, matchId, settings) {
    const w = pinned(() =>
      raw.RawWorld.newPinned(physicsVersion, BigInt(matchId), settingsArray(settings)));
    return new PinnedWorld(null, w);
  }
  /** The world `bytes` holds, restored with every check (`key`: 32 bytes, or none). */
  static restore(physicsVersion, matchId, bytes, key, settings) {
    const w = pinned(() => raw.RawWorld.restorePinned(physicsVersion, BigInt(matchId),
      settingsArray(settings), bytes, keyBytes(key)));
    return new PinnedWorld(null, w);
  }
  /** Catalog scene `name` (crates/scenes), adopted at tick 0 as `rapier-pinned snapshot save` does. */
  static fromScene(physicsVersion, matchId, name) {
    return new PinnedWorld(null, pinned(() =>
      raw.RawWorld.pinnedScene(physicsVersion, BigInt(matchId), name)));
  }
  get physicsVersion() {
    return this.raw.physicsVersion();
  }
  get matchId() {
    return this.raw.matchId();
  }
  /** Steps taken since tick 0. */
  get tick() {
    return this.raw.tick();
  }
  /** The snapshot (format 1, or 2 with `{compressed: true}`), with a MAC when `key` is given. */
  snapshot(key, options = {}) {
    return this.raw.snapshot(keyBytes(key), options.compressed === true);
  }
  /** Replaces the world by the snapshot's, with every check; a refusal changes nothing. */
  restore(bytes, key) {
    pinned(() => this.raw.restore(bytes, keyBytes(key)));
  }
}

/**
 * Joins the match of `rapier-pinned serve --ws` at `url` as a client that sends no inputs (the
 * server may seat it; its player then stands still): restores the server's
 * snapshot (checked with `options.key` when given), steps in lockstep with its ticks and reports
 * its digest, as the native client does (the same Rust core). Resolves at the server's goodbye
 * with {joined, tick, reported, digest}; rejects with the reason on a refusal or a divergence.
 * `options`: settings, key, log (a function taking each log line), WebSocket (a constructor).
 */
export function joinWebSocket(url, physicsVersion, matchId, options = {}) {
  return new Promise((resolve, reject) => {
    const client = pinned(() => new raw.NetClient(physicsVersion, BigInt(matchId),
      settingsArray(options.settings), keyBytes(options.key)));
    const log = options.log ?? (() => {});
    const ws = new (options.WebSocket ?? globalThis.WebSocket)(url);
    ws.binaryType = "arraybuffer";
    let settled = false;
    const settle = (f, value) => {
      if (settled) return;
      settled = true;
      ws.close();
      client.free();
      f(value);
    };
    ws.onopen = () => {
      for (const frame of client.hello()) ws.send(frame);
    };
    ws.onmessage = (event) => {
      try {
        for (const frame of client.onFrame(new Uint8Array(event.data))) ws.send(frame);
        for (const line of client.takeLog()) log(line);
        if (client.ended) {
          const [joined, tick, reported, digest] = client.outcome();
          settle(resolve, { joined: Number(joined), tick: Number(tick), reported: Number(reported), digest });
        }
      } catch (e) {
        settle(reject, e);
      }
    };
    ws.onerror = () => settle(reject, new Error(`WebSocket ${url}: connection failed`));
    ws.onclose = (e) => settle(reject, new Error(`WebSocket ${url} closed (${e.code}) before the goodbye`));
  });
}

/** The current physics-version of the table compiled in. */
export function physicsVersionCurrent() {
  return raw.physicsVersionCurrent();
}

/** The scene catalog, for tests comparing digests with native ones. */
export const catalog = Object.freeze({
  goldenScenes: () => raw.goldenScenes(),
  goldenRuns: (name) => raw.goldenRuns(name),
  /** Run `run` of golden scene `name` under `physicsVersion`: {world, steps}. */
  goldenRun(physicsVersion, name, run) {
    const r = pinned(() => raw.goldenRun(physicsVersion, name, run));
    const steps = r.steps;
    const world = new PlainWorld(null, r.takeWorld());
    r.free();
    return { world, steps };
  },
});

// The fork's two CCD settings on stock's IntegrationParameters (its other fields are stock's
// accessors): both default to upstream behaviour (false, 0).
for (const name of ["ccdRelativeMotion", "ccdPersistentContactPolicy"]) {
  Object.defineProperty(IntegrationParameters.prototype, name, {
    configurable: true,
    enumerable: true,
    get() {
      return this.raw[name];
    },
    set(v) {
      this.raw[name] = v;
    },
  });
}

// `world.digest()` on stock's World: the state digest of its bodies (crates/digest), the number
// a PinnedWorld, the native CLI and the reference server print.
Object.defineProperty(World.prototype, "digest", {
  configurable: true,
  value: function digest() {
    return raw.bodiesDigest(this.bodies.raw);
  },
});
