// PinnedWorld and the pinned layer (crates/js/src) on top of stock rapier.js's API: a
// PinnedWorld is a stock `World` (a subclass: events, scene queries, controllers, every body,
// collider and joint kind work as on a plain World) whose parameters and gravity are the
// physics-version's, compiled in, checked before every step and never settable; snapshots use
// the native format and every native check. The package's other names are stock's (rapier.mjs).
import * as raw from "./pkg/rapier_pinned_js.js";
import {
  Vector3, IntegrationParameters, World, RigidBody, Collider, ImpulseJoint, MultibodyJoint,
} from "./exports.js";
import { VectorOps } from "./math.js";
import { Coarena } from "./coarena.js";

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

// A pinned world takes finite numbers only (its snapshot's restore refuses non-finite state), and
// refuses at the call, so a refused call changes nothing; a plain World, like stock, takes
// anything. Rust prints non-finite numbers so ("NaN", "inf", "-inf"), as the messages did before.
const show = (x) => (Number.isNaN(x) ? "NaN" : x > 0 ? "inf" : "-inf");

function finite(numbers, what) {
  let i = 0;
  for (const x of numbers) {
    if (!Number.isFinite(x)) {
      throw new Error(`${what}: number ${i} is ${show(x)}; a PinnedWorld takes finite numbers only`);
    }
    i++;
  }
}

// The numbers of a raw call's arguments, in order (vectors and rotations as their components).
function* argNumbers(args) {
  for (const a of args) {
    if (typeof a === "number") yield a;
    else if (a instanceof raw.RawVector) yield* [a.x, a.y, a.z];
    else if (a instanceof raw.RawRotation) yield* [a.x, a.y, a.z, a.w];
    else if (a instanceof Float32Array || a instanceof Float64Array) yield* a;
  }
}

// The numbers of a description (a shape, a JointData), walked through its fields but for its
// kind (`type`, `jointType`: an enum).
function* fieldNumbers(v, depth = 0) {
  if (typeof v === "number") yield v;
  else if (v instanceof Float32Array || v instanceof Float64Array) yield* v;
  else if (v && typeof v === "object" && depth < 4 && !ArrayBuffer.isView(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (k !== "type" && k !== "jointType") yield* fieldNumbers(x, depth + 1);
    }
  }
}

// A raw set whose every method first checks its numeric arguments (what stock's bodies,
// colliders and joints call to create and change them): an object whose prototype is the set
// (so `instanceof` and the wasm pointer read through), each method applied to the set itself.
// Not a Proxy: stock calls some methods once per body every step, and a Proxy's trap costs.
function finiteOnly(set) {
  const view = Object.create(set);
  const proto = Object.getPrototypeOf(set);
  for (const name of Object.getOwnPropertyNames(proto)) {
    const method = Object.getOwnPropertyDescriptor(proto, name).value;
    if (name === "constructor" || typeof method !== "function") continue;
    view[name] = (...args) => {
      // The full scan only when a number is not finite or an argument is an object (a vector,
      // an array); handles and flags are finite numbers.
      for (const a of args) {
        if (typeof a === "number" ? !Number.isFinite(a) : typeof a === "object" && a !== null) {
          finite(argNumbers(args), name);
          break;
        }
      }
      return method.apply(set, args);
    };
  }
  return view;
}

// Stock's IntegrationParameters whose every setter throws: a PinnedWorld's parameters are its
// physics-version's (and `RawPinnedConfig.check` refuses a step with others, however set).
class PinnedIntegrationParameters extends IntegrationParameters {
  constructor(rawParams, version) {
    super(rawParams);
    this.physicsVersion = version;
  }
}

function pinParameters() {
  const proto = IntegrationParameters.prototype;
  for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
    if (!d.set) continue;
    Object.defineProperty(PinnedIntegrationParameters.prototype, name, {
      configurable: true,
      enumerable: d.enumerable,
      get: d.get,
      set() {
        throw new Error(`integrationParameters.${name}: a PinnedWorld's parameters are physics-version ${this.physicsVersion}'s and cannot be changed`);
      },
    });
  }
}

// Rebuilds the wrappers of a world's sets after their raw contents were replaced (a restore in
// place), as stock's constructors and World do for a deserialized world. The soft-body set is
// always empty in this build (docs/js.md).
function remap(world) {
  const { bodies: b, colliders: c, impulseJoints: ij, multibodyJoints: mj } = world;
  b.map = new Coarena();
  b.raw.forEachRigidBodyHandle((h) => b.map.set(h, new RigidBody(b.raw, null, h)));
  c.map = new Coarena();
  c.raw.forEachColliderHandle((h) => c.map.set(h, new Collider(c, h, null)));
  ij.map = new Coarena();
  ij.raw.forEachJointHandle((h) => ij.map.set(h, ImpulseJoint.newTyped(ij.raw, null, h)));
  mj.map = new Coarena();
  mj.raw.forEachJointHandle((h) => mj.map.set(h, MultibodyJoint.newTyped(mj.raw, h)));
  ij.finalizeDeserialization(b);
  b.finalizeDeserialization(c);
  c.finalizeDeserialization(b);
}

const settingsArray = (s) =>
  s === undefined ? undefined
    : new Float64Array([s.gravity.x, s.gravity.y, s.gravity.z, s.tickHz, s.lengthUnit]);
const keyBytes = (key) => (key === undefined || key === null ? undefined : Uint8Array.from(key));
/** The snapshot header's length (docs/protocol.md §3): a format-1 snapshot's payload follows it. */
const HEADER_LEN = 128;
const optionalBytes = (b) => (b === undefined || b === null ? undefined : Uint8Array.from(b));

/**
 * A world pinned to a physics-version of the fork's table: stock's `World`, whose parameters and
 * gravity are the version's, compiled in, and cannot be set; snapshots use the native format and
 * every native check. Made by `PinnedWorld.new`, `.restore` or `.fromScene`.
 */
export class PinnedWorld extends World {
  #config;
  #tick;
  #freed = false;

  /** @internal `config`: a RawPinnedConfig; `parts`: a RawDeserializedWorld of its world. */
  constructor(config, parts, tick) {
    super(VectorOps.fromRaw(parts.takeGravity()), parts.takeIntegrationParameters(),
      parts.takeIslandManager(), parts.takeBroadPhase(), parts.takeNarrowPhase(),
      finiteOnly(parts.takeBodies()), finiteOnly(parts.takeColliders()), parts.takeSoftBodies(),
      finiteOnly(parts.takeImpulseJoints()), finiteOnly(parts.takeMultibodyJoints()));
    parts.free();
    this.#config = config;
    this.#tick = tick;
    const version = config.physicsVersion();
    const params = new PinnedIntegrationParameters(this.integrationParameters.raw, version);
    const g = config.gravity();
    // Own, non-configurable properties: neither can be replaced (but by stock's free(), which
    // clears its fields), and gravity is a copy.
    Object.defineProperty(this, "integrationParameters", {
      enumerable: true,
      get: () => params,
      set: (v) => {
        if (!(this.#freed && v === undefined)) {
          throw new Error("a PinnedWorld's integrationParameters cannot be replaced");
        }
      },
    });
    Object.defineProperty(this, "gravity", {
      enumerable: true,
      get: () => new Vector3(g[0], g[1], g[2]),
      set: () => {
        throw new Error(`a PinnedWorld's gravity is physics-version ${version}'s settings: it cannot be set`);
      },
    });
  }

  /** An empty world of `physicsVersion` and `matchId` (a bigint or a safe integer), at tick 0;
   * `settings` ({gravity, tickHz, lengthUnit}) when the game chose its own; on the level whose
   * file's bytes are `level` when given (docs/protocol.md §3.3). */
  static new(physicsVersion, matchId, settings, level) {
    const config = pinned(() =>
      new raw.RawPinnedConfig(physicsVersion, BigInt(matchId), settingsArray(settings), optionalBytes(level)));
    return new PinnedWorld(config, config.emptyWorld(), 0);
  }

  /** The world `bytes` holds, restored with every check (`key`: 32 bytes, or none; `level`: the
   * bytes of the level the world is on, for a format-3 snapshot that refers to it). */
  static restore(physicsVersion, matchId, bytes, key, settings, level) {
    const world = PinnedWorld.new(physicsVersion, matchId, settings, level);
    try {
      world.restore(bytes, key);
    } catch (e) {
      world.free();
      throw e;
    }
    return world;
  }

  /** Catalog scene `name` (crates/scenes), adopted at tick 0 as `rapier-pinned snapshot save` does;
   * `trimesh_level`, the level scene, is on its level (`world.level`). */
  static fromScene(physicsVersion, matchId, name) {
    const config = pinned(() => new raw.RawPinnedConfig(physicsVersion, BigInt(matchId)));
    return new PinnedWorld(config, pinned(() => config.scene(name)), 0);
  }

  get physicsVersion() {
    return this.#config.physicsVersion();
  }

  get matchId() {
    return this.#config.matchId();
  }

  /** The bytes of the level the world is on (a level file), or undefined. */
  get level() {
    const bytes = this.#config.levelBytes();
    return bytes === undefined ? undefined : new Uint8Array(bytes);
  }

  /** The id of the level the world is on (64 hex digits), or undefined. */
  get levelId() {
    return this.#config.levelId();
  }

  /** Steps taken since tick 0. */
  get tick() {
    return this.#tick;
  }

  /** Stock's step (events, hooks), after checking that the parameters are the version's. */
  step(eventQueue, hooks) {
    pinned(() => this.#config.check(this.integrationParameters.raw));
    super.step(eventQueue, hooks);
    this.#tick++;
  }

  // The raw parts a snapshot holds, in RawPinnedConfig's order.
  #parts() {
    return [this.integrationParameters.raw, this.islands.raw, this.broadPhase.raw,
      this.narrowPhase.raw, this.bodies.raw, this.colliders.raw, this.softBodies.raw,
      this.impulseJoints.raw, this.multibodyJoints.raw];
  }

  /** The snapshot (format 1; 2 with `{compressed: true}` or `{format: 2}`; 3, linked to the
   * world's level, with `{format: 3}`; 4, a delta against a baseline the receiver holds, with
   * `{format: 4, baseline}`), with a MAC when `key` is given. */
  snapshot(key, options = {}) {
    const format = options.format ?? (options.compressed === true ? 2 : 1);
    return pinned(() => this.#config.snapshot(this.#tick, keyBytes(key), format,
      optionalBytes(options.baseline), ...this.#parts()));
  }

  /** The world's state now as a baseline (its format-1 payload, docs/protocol.md §3.4): what a
   * delta (`snapshot(key, {format: 4, baseline})`) is written against and read with. A world
   * restored from a snapshot has the same baseline as the world it was taken of. */
  baseline() {
    return this.snapshot().subarray(HEADER_LEN);
  }

  /** Replaces the world by the snapshot's, with every check; a refusal changes nothing. Its
   * bodies, colliders and joints are new objects (`getRigidBody` etc.); controllers stay. A delta
   * (format 4) needs `{baseline}`, the baseline it was written against. */
  restore(bytes, key, options = {}) {
    this.#tick = pinned(() => this.#config.restoreInto(bytes, keyBytes(key),
      optionalBytes(options.baseline), ...this.#parts(), this.ccdSolver.raw, this.physicsPipeline.raw));
    remap(this);
  }

  free() {
    this.#freed = true;
    super.free();
    this.#config.free();
  }

  // A PinnedWorld checks a description's numbers that the raw sets receive inside a raw object
  // (a shape, a joint's data), which the raw sets' check cannot read.
  createCollider(desc, parent) {
    finite(fieldNumbers(desc.shape), "ColliderDesc's shape");
    return super.createCollider(desc, parent);
  }

  createImpulseJoint(params, parent1, parent2, wakeUp) {
    finite(fieldNumbers(params), "JointData");
    return super.createImpulseJoint(params, parent1, parent2, wakeUp);
  }

  createMultibodyJoint(params, parent1, parent2, wakeUp) {
    finite(fieldNumbers(params), "JointData");
    return super.createMultibodyJoint(params, parent1, parent2, wakeUp);
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
      settingsArray(options.settings), keyBytes(options.key), optionalBytes(options.level)));
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

/**
 * Re-steps a recorded match (a replay file of `rapier-pinned serve --record` or `join
 * --record`; docs/protocol.md §7) with the same Rust code as native `rapier-pinned replay
 * verify`: {verified, text, tick, torn}, `text` in the native command's words, `tick` the first
 * tick whose digest differs (or null), `torn` the bytes of an incomplete last chunk (or null).
 * `options`: key (MACs checked with it), level (the level file's bytes). A file the reader
 * refuses throws.
 */
export function verifyReplay(bytes, options = {}) {
  const check = pinned(() => raw.verifyReplay(bytes, keyBytes(options.key), optionalBytes(options.level)));
  const tick = check.tick;
  const torn = check.torn;
  const result = {
    verified: check.verified,
    text: check.text,
    tick: tick === undefined ? null : Number(tick),
    torn: torn === undefined ? null : Number(torn),
  };
  check.free();
  return result;
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
    const world = World.fromRaw(r.takeWorld());
    r.free();
    return { world, steps };
  },
});

// The fork's two CCD settings on stock's IntegrationParameters (its other fields are stock's
// accessors), numbers (the raw setters check them; ccdRelativeMotion takes a boolean too): both
// default to upstream behaviour (0).
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

// After the fork's two settings: they are pinned too.
pinParameters();

// `world.digest()` on stock's World: the state digest of its bodies (crates/digest), the number
// a PinnedWorld, the native CLI and the reference server print.
Object.defineProperty(World.prototype, "digest", {
  configurable: true,
  value: function digest() {
    return raw.bodiesDigest(this.bodies.raw);
  },
});
