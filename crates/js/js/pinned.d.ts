// The fork's additions to stock rapier.js's API (pinned.js). Stock's own types: exports.d.ts.
import type { Vector, Rotation } from "./math.js";
import type { RigidBodyDesc } from "./dynamics/rigid_body.js";
import type { ColliderDesc } from "./geometry/collider.js";
import type { JointData } from "./dynamics/impulse_joint.js";

/** A refusal of the pinned layer: `kind` is the native ErrorKind's stable name. */
export declare class PinnedError extends Error { kind: string }

/** The current physics-version of the table compiled in. */
export declare function physicsVersionCurrent(): number;

/** A body of a PinnedWorld: the subset a multiplayer client uses. */
export declare class PinnedRigidBody {
  readonly handle: number;
  translation(): Vector;
  rotation(): Rotation;
  linvel(): Vector;
  angvel(): Vector;
  bodyType(): number;
  mass(): number;
  isSleeping(): boolean;
  isCcdEnabled(): boolean;
  setTranslation(v: Vector, wakeUp: boolean): void;
  setRotation(q: Rotation, wakeUp: boolean): void;
  setLinvel(v: Vector, wakeUp: boolean): void;
  setAngvel(v: Vector, wakeUp: boolean): void;
  applyImpulse(v: Vector, wakeUp: boolean): void;
  applyTorqueImpulse(v: Vector, wakeUp: boolean): void;
  addForce(v: Vector, wakeUp: boolean): void;
  addTorque(v: Vector, wakeUp: boolean): void;
  resetForces(wakeUp: boolean): void;
}
export declare class PinnedCollider { readonly handle: number; parent(): PinnedRigidBody | null }
export declare class PinnedImpulseJoint { readonly handle: number }

/** The pinned version's parameters, by rapier.js names, read-only (every write throws). */
export interface PinnedIntegrationParameters {
  readonly dt: number; readonly minCcdDt: number; readonly lengthUnit: number;
  readonly numSolverIterations: number; readonly numInternalPgsIterations: number;
  readonly numInternalStabilizationIterations: number; readonly maxCcdSubsteps: number;
  readonly warmstartCoefficient: number; readonly normalizedAllowedLinearError: number;
  readonly normalizedMaxCorrectiveVelocity: number; readonly normalizedPredictionDistance: number;
  readonly contactNaturalFrequency: number; readonly contactDampingRatio: number;
  readonly ccdRelativeMotion: boolean; readonly ccdPersistentContactPolicy: number;
}

export interface GameSettings { gravity: Vector; tickHz: number; lengthUnit: number }

/** A world pinned to a physics-version: parameters and gravity are the version's and cannot be set. */
export declare class PinnedWorld {
  static new(physicsVersion: number, matchId: bigint | number, settings?: GameSettings): PinnedWorld;
  static restore(physicsVersion: number, matchId: bigint | number, bytes: Uint8Array, key?: Uint8Array, settings?: GameSettings): PinnedWorld;
  static fromScene(physicsVersion: number, matchId: bigint | number, name: string): PinnedWorld;
  readonly integrationParameters: PinnedIntegrationParameters;
  readonly gravity: Vector;
  readonly timestep: number;
  readonly physicsVersion: number;
  readonly matchId: bigint;
  readonly tick: number;
  step(): void;
  createRigidBody(desc: RigidBodyDesc): PinnedRigidBody;
  createCollider(desc: ColliderDesc, parent?: PinnedRigidBody): PinnedCollider;
  createImpulseJoint(data: JointData, body1: PinnedRigidBody, body2: PinnedRigidBody, wakeUp: boolean): PinnedImpulseJoint;
  getRigidBody(handle: number): PinnedRigidBody | null;
  forEachRigidBody(f: (body: PinnedRigidBody) => void): void;
  /** The state digest (crates/digest/src/lib.rs) as 16 hex digits. */
  digest(): string;
  snapshot(key?: Uint8Array, options?: { compressed?: boolean }): Uint8Array;
  restore(bytes: Uint8Array, key?: Uint8Array): void;
  free(): void;
}

export interface Session { joined: number; tick: number; reported: number; digest: string }
/** A client of `rapier-pinned serve --ws` that sends no inputs: lockstep to the server's goodbye. */
export declare function joinWebSocket(url: string, physicsVersion: number, matchId: bigint | number,
  options?: { settings?: GameSettings; key?: Uint8Array; log?: (line: string) => void; WebSocket?: unknown }): Promise<Session>;

export declare const catalog: {
  goldenScenes(): string[];
  goldenRuns(name: string): string[];
  goldenRun(physicsVersion: number, name: string, run: string): { world: PinnedWorld; steps: number };
};

declare module "./dynamics/integration_parameters.js" {
  interface IntegrationParameters {
    /** The fork's setting (design §4.1): bullet pairs swept on both bodies' motions. Default false (upstream). */
    ccdRelativeMotion: boolean;
    /** The fork's setting (design §4.2), 0 to 3. Default 0 (upstream). */
    ccdPersistentContactPolicy: number;
  }
}

declare module "./pipeline/world.js" {
  interface World {
    /** The state digest of the world's bodies (crates/digest/src/lib.rs), 16 hex digits. */
    digest(): string;
  }
}
