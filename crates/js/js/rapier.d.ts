// Types of @rapier-pinned/rapier3d-compat: rapier.js's names for the subset this package has,
// plus PinnedWorld (docs/js.md).
export declare function init(): Promise<void>;
export declare function version(): string;
export declare function physicsVersionCurrent(): number;

export interface Vector { x: number; y: number; z: number }
export interface Rotation { x: number; y: number; z: number; w: number }
export declare class Vector3 implements Vector { constructor(x: number, y: number, z: number); x: number; y: number; z: number }
export declare class Quaternion implements Rotation { constructor(x: number, y: number, z: number, w: number); x: number; y: number; z: number; w: number }

/** A refusal of the pinned layer: `kind` is the native ErrorKind's stable name. */
export declare class PinnedError extends Error { kind: string }

export declare const RigidBodyType: { Dynamic: 0; Fixed: 1; KinematicPositionBased: 2; KinematicVelocityBased: 3 };
export declare const JointType: { Spherical: 0; Revolute: 1; Prismatic: 2; Fixed: 3 };

export declare class RigidBodyDesc {
  static dynamic(): RigidBodyDesc;
  static fixed(): RigidBodyDesc;
  static kinematicPositionBased(): RigidBodyDesc;
  static kinematicVelocityBased(): RigidBodyDesc;
  setTranslation(x: number, y: number, z: number): RigidBodyDesc;
  setRotation(q: Rotation): RigidBodyDesc;
  setLinvel(x: number, y: number, z: number): RigidBodyDesc;
  setAngvel(v: Vector): RigidBodyDesc;
  setGravityScale(scale: number): RigidBodyDesc;
  setLinearDamping(damping: number): RigidBodyDesc;
  setAngularDamping(damping: number): RigidBodyDesc;
  setAdditionalMass(mass: number): RigidBodyDesc;
  setDominanceGroup(group: number): RigidBodyDesc;
  setCcdEnabled(enabled: boolean): RigidBodyDesc;
  setCanSleep(can: boolean): RigidBodyDesc;
  setSleeping(sleeping: boolean): RigidBodyDesc;
  setSoftCcdPrediction(distance: number): RigidBodyDesc;
}

export declare class ColliderDesc {
  static ball(radius: number): ColliderDesc;
  static cuboid(hx: number, hy: number, hz: number): ColliderDesc;
  static capsule(halfHeight: number, radius: number): ColliderDesc;
  static cylinder(halfHeight: number, radius: number): ColliderDesc;
  static cone(halfHeight: number, radius: number): ColliderDesc;
  static roundCuboid(hx: number, hy: number, hz: number, borderRadius: number): ColliderDesc;
  static convexHull(points: Float32Array | number[]): ColliderDesc;
  static trimesh(vertices: Float32Array | number[], indices: Uint32Array | number[]): ColliderDesc;
  setTranslation(x: number, y: number, z: number): ColliderDesc;
  setRotation(q: Rotation): ColliderDesc;
  setFriction(friction: number): ColliderDesc;
  setRestitution(restitution: number): ColliderDesc;
  setDensity(density: number): ColliderDesc;
  setMass(mass: number): ColliderDesc;
  setSensor(isSensor: boolean): ColliderDesc;
}

export declare class JointData {
  static spherical(anchor1: Vector, anchor2: Vector): JointData;
  static revolute(anchor1: Vector, anchor2: Vector, axis: Vector): JointData;
  static prismatic(anchor1: Vector, anchor2: Vector, axis: Vector): JointData;
  static fixed(anchor1: Vector, frame1: Rotation, anchor2: Vector, frame2: Rotation): JointData;
}

export declare class RigidBody {
  readonly handle: number;
  translation(): Vector3;
  rotation(): Quaternion;
  linvel(): Vector3;
  angvel(): Vector3;
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

export declare class Collider { readonly handle: number; parent(): RigidBody | null }
export declare class ImpulseJoint { readonly handle: number }

/** rapier3d's IntegrationParameters by rapier.js names, plus the fork's two CCD settings. */
export interface IntegrationParameters {
  dt: number; minCcdDt: number; lengthUnit: number; numSolverIterations: number;
  numInternalPgsIterations: number; numInternalStabilizationIterations: number;
  maxCcdSubsteps: number; warmstartCoefficient: number; normalizedAllowedLinearError: number;
  normalizedMaxCorrectiveVelocity: number; normalizedPredictionDistance: number;
  contactNaturalFrequency: number; contactDampingRatio: number;
  /** Bullet pairs swept on both bodies' motions (physics-versions 2 and 3: true). */
  ccdRelativeMotion: boolean;
  /** What CCD does with a pair in contact at the start of a step, 0 to 3 (version 2: 2; version 3: 3). */
  ccdPersistentContactPolicy: number;
}

export declare class World {
  constructor(gravity: Vector);
  readonly integrationParameters: IntegrationParameters;
  gravity: Vector3;
  timestep: number;
  step(): void;
  createRigidBody(desc: RigidBodyDesc): RigidBody;
  createCollider(desc: ColliderDesc, parent?: RigidBody): Collider;
  createImpulseJoint(data: JointData, body1: RigidBody, body2: RigidBody, wakeUp: boolean): ImpulseJoint;
  getRigidBody(handle: number): RigidBody | null;
  forEachRigidBody(f: (body: RigidBody) => void): void;
  /** The state digest (crates/digest/src/lib.rs) as 16 hex digits. */
  digest(): string;
  free(): void;
}

export interface GameSettings { gravity: Vector; tickHz: number; lengthUnit: number }

/** A world pinned to a physics-version: parameters and gravity are the version's and cannot be set. */
export declare class PinnedWorld extends World {
  static new(physicsVersion: number, matchId: bigint | number, settings?: GameSettings): PinnedWorld;
  static restore(physicsVersion: number, matchId: bigint | number, bytes: Uint8Array, key?: Uint8Array, settings?: GameSettings): PinnedWorld;
  static fromScene(physicsVersion: number, matchId: bigint | number, name: string): PinnedWorld;
  readonly physicsVersion: number;
  readonly matchId: bigint;
  readonly tick: number;
  snapshot(key?: Uint8Array, options?: { compressed?: boolean }): Uint8Array;
  restore(bytes: Uint8Array, key?: Uint8Array): void;
}

export interface Session { joined: number; tick: number; reported: number; digest: string }
/** A client of `rapier-pinned serve --ws` that sends no inputs: lockstep to the server's goodbye. */
export declare function joinWebSocket(url: string, physicsVersion: number, matchId: bigint | number,
  options?: { settings?: GameSettings; key?: Uint8Array; log?: (line: string) => void; WebSocket?: unknown }): Promise<Session>;

export declare const catalog: {
  goldenScenes(): string[];
  goldenRuns(name: string): string[];
  goldenRun(physicsVersion: number, name: string, run: string): { world: World; steps: number };
};

declare const RAPIER: typeof import("./rapier");
export default RAPIER;
