// rapier.js's names over the fork's wasm module (crates/js/src): the subset a multiplayer client
// uses (world, bodies, colliders, impulse joints, step, poses, impulses) plus PinnedWorld. A
// rapier.js program written against that subset runs unchanged (docs/js.md says what differs).
// The field orders below are crates/js/src/world.rs's BODY_FIELDS, COLLIDER_FIELDS, JOINT_FIELDS.
import initWasm, * as raw from "./pkg/rapier_pinned_js.js";
import { wasmBase64 } from "./pkg/wasm-inline.js";

let initialized = null;

/** Loads the wasm module (inlined in the package, as in rapier.js's -compat builds). */
export function init() {
  if (!initialized) {
    const bytes = Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
    initialized = initWasm({ module_or_path: bytes });
  }
  return initialized.then(() => undefined);
}

/** The package's version. */
export function version() {
  return "0.1.0+rapier3d-0.36.1";
}

export class Vector3 {
  constructor(x, y, z) {
    this.x = x;
    this.y = y;
    this.z = z;
  }
}

export class Quaternion {
  constructor(x, y, z, w) {
    this.x = x;
    this.y = y;
    this.z = z;
    this.w = w;
  }
}

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

export const RigidBodyType = Object.freeze({
  Dynamic: 0,
  Fixed: 1,
  KinematicPositionBased: 2,
  KinematicVelocityBased: 3,
});

export class RigidBodyDesc {
  constructor(status) {
    this.status = status;
    this.translation = new Vector3(0, 0, 0);
    this.rotation = new Quaternion(0, 0, 0, 1);
    this.linvel = new Vector3(0, 0, 0);
    this.angvel = new Vector3(0, 0, 0);
    this.gravityScale = 1.0;
    this.linearDamping = 0.0;
    this.angularDamping = 0.0;
    this.mass = 0.0;
    this.dominanceGroup = 0;
    this.ccdEnabled = false;
    this.canSleep = true;
    this.sleeping = false;
    this.softCcdPrediction = 0.0;
  }
  static dynamic() {
    return new RigidBodyDesc(RigidBodyType.Dynamic);
  }
  static fixed() {
    return new RigidBodyDesc(RigidBodyType.Fixed);
  }
  static kinematicPositionBased() {
    return new RigidBodyDesc(RigidBodyType.KinematicPositionBased);
  }
  static kinematicVelocityBased() {
    return new RigidBodyDesc(RigidBodyType.KinematicVelocityBased);
  }
  setTranslation(x, y, z) {
    this.translation = new Vector3(x, y, z);
    return this;
  }
  setRotation(q) {
    this.rotation = new Quaternion(q.x, q.y, q.z, q.w);
    return this;
  }
  setLinvel(x, y, z) {
    this.linvel = new Vector3(x, y, z);
    return this;
  }
  setAngvel(v) {
    this.angvel = new Vector3(v.x, v.y, v.z);
    return this;
  }
  setGravityScale(s) {
    this.gravityScale = s;
    return this;
  }
  setLinearDamping(d) {
    this.linearDamping = d;
    return this;
  }
  setAngularDamping(d) {
    this.angularDamping = d;
    return this;
  }
  setAdditionalMass(m) {
    this.mass = m;
    return this;
  }
  setDominanceGroup(g) {
    this.dominanceGroup = g;
    return this;
  }
  setCcdEnabled(enabled) {
    this.ccdEnabled = enabled;
    return this;
  }
  setCanSleep(can) {
    this.canSleep = can;
    return this;
  }
  setSleeping(sleeping) {
    this.sleeping = sleeping;
    return this;
  }
  setSoftCcdPrediction(distance) {
    this.softCcdPrediction = distance;
    return this;
  }
  fields() {
    const t = this.translation, q = this.rotation, v = this.linvel, w = this.angvel;
    return new Float64Array([
      t.x, t.y, t.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z,
      this.gravityScale, this.linearDamping, this.angularDamping, this.mass, this.dominanceGroup,
      this.ccdEnabled ? 1 : 0, this.canSleep ? 1 : 0, this.sleeping ? 1 : 0, this.softCcdPrediction,
    ]);
  }
}

const NO_NUMBERS = new Float32Array(0);
const NO_INDICES = new Uint32Array(0);

export class ColliderDesc {
  constructor(shape, dims, points = NO_NUMBERS, indices = NO_INDICES) {
    this.shape = shape;
    this.dims = new Float32Array(dims);
    this.points = points;
    this.indices = indices;
    this.translation = new Vector3(0, 0, 0);
    this.rotation = new Quaternion(0, 0, 0, 1);
    // rapier3d's ColliderBuilder defaults.
    this.friction = 0.5;
    this.restitution = 0.0;
    this.massMode = 0;
    this.density = 1.0;
    this.isSensor = false;
  }
  static ball(radius) {
    return new ColliderDesc(0, [radius]);
  }
  static cuboid(hx, hy, hz) {
    return new ColliderDesc(1, [hx, hy, hz]);
  }
  static capsule(halfHeight, radius) {
    return new ColliderDesc(2, [halfHeight, radius]);
  }
  static cylinder(halfHeight, radius) {
    return new ColliderDesc(3, [halfHeight, radius]);
  }
  static cone(halfHeight, radius) {
    return new ColliderDesc(4, [halfHeight, radius]);
  }
  static roundCuboid(hx, hy, hz, borderRadius) {
    return new ColliderDesc(5, [hx, hy, hz, borderRadius]);
  }
  static convexHull(points) {
    return new ColliderDesc(6, [], new Float32Array(points));
  }
  static trimesh(vertices, indices) {
    return new ColliderDesc(7, [], new Float32Array(vertices), new Uint32Array(indices));
  }
  setTranslation(x, y, z) {
    this.translation = new Vector3(x, y, z);
    return this;
  }
  setRotation(q) {
    this.rotation = new Quaternion(q.x, q.y, q.z, q.w);
    return this;
  }
  setFriction(friction) {
    this.friction = friction;
    return this;
  }
  setRestitution(restitution) {
    this.restitution = restitution;
    return this;
  }
  setDensity(density) {
    this.massMode = 1;
    this.density = density;
    return this;
  }
  setMass(mass) {
    this.massMode = 2;
    this.density = mass;
    return this;
  }
  setSensor(isSensor) {
    this.isSensor = isSensor;
    return this;
  }
  fields() {
    const t = this.translation, q = this.rotation;
    return new Float64Array([
      t.x, t.y, t.z, q.x, q.y, q.z, q.w, this.friction, this.restitution, this.massMode,
      this.density, this.isSensor ? 1 : 0,
    ]);
  }
}

export const JointType = Object.freeze({ Spherical: 0, Revolute: 1, Prismatic: 2, Fixed: 3 });

export class JointData {
  constructor(type, anchor1, anchor2, axis, frame1, frame2) {
    this.jointType = type;
    this.anchor1 = anchor1;
    this.anchor2 = anchor2;
    this.axis = axis ?? new Vector3(0, 0, 0);
    this.frame1 = frame1 ?? new Quaternion(0, 0, 0, 1);
    this.frame2 = frame2 ?? new Quaternion(0, 0, 0, 1);
  }
  static spherical(anchor1, anchor2) {
    return new JointData(JointType.Spherical, anchor1, anchor2);
  }
  static revolute(anchor1, anchor2, axis) {
    return new JointData(JointType.Revolute, anchor1, anchor2, axis);
  }
  static prismatic(anchor1, anchor2, axis) {
    return new JointData(JointType.Prismatic, anchor1, anchor2, axis);
  }
  static fixed(anchor1, frame1, anchor2, frame2) {
    return new JointData(JointType.Fixed, anchor1, anchor2, null, frame1, frame2);
  }
  fields() {
    const [a, b, x, f, g] = [this.anchor1, this.anchor2, this.axis, this.frame1, this.frame2];
    return new Float64Array([
      a.x, a.y, a.z, b.x, b.y, b.z, x.x, x.y, x.z, f.x, f.y, f.z, f.w, g.x, g.y, g.z, g.w,
    ]);
  }
}

const vec = (v) => new Float64Array([v.x, v.y, v.z]);

export class RigidBody {
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

export class Collider {
  constructor(raw, handle, parent) {
    this.raw = raw;
    this.handle = handle;
    this._parent = parent;
  }
  parent() {
    return this._parent;
  }
}

export class ImpulseJoint {
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

export class World {
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
    return new RigidBody(this.raw, this.raw.createBody(desc.status, desc.fields()));
  }
  createCollider(desc, parent) {
    const p = parent ? parent.handle : -1;
    const h = this.raw.createCollider(desc.shape, desc.dims, desc.points, desc.indices,
      desc.fields(), p);
    return new Collider(this.raw, h, parent ?? null);
  }
  createImpulseJoint(data, body1, body2, wakeUp) {
    const h = this.raw.createImpulseJoint(data.jointType, data.fields(), body1.handle,
      body2.handle, wakeUp);
    return new ImpulseJoint(this.raw, h);
  }
  getRigidBody(handle) {
    return this.raw.hasBody(handle) ? new RigidBody(this.raw, handle) : null;
  }
  forEachRigidBody(f) {
    for (const h of this.raw.bodyHandles()) f(new RigidBody(this.raw, h));
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
export class PinnedWorld extends World {
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
    const world = new World(null, r.takeWorld());
    r.free();
    return { world, steps };
  },
});
