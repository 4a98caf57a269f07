// The fork's additions to stock rapier.js's API (pinned.js). Stock's own types: exports.d.ts.
import type { Vector } from "./math.js";
import { World } from "./pipeline/world.js";

/** A refusal of the pinned layer: `kind` is the native ErrorKind's stable name. */
export declare class PinnedError extends Error { kind: string }

/** The current physics-version of the table compiled in. */
export declare function physicsVersionCurrent(): number;

export interface GameSettings { gravity: Vector; tickHz: number; lengthUnit: number }

/**
 * A world pinned to a physics-version: stock's `World` (events, scene queries, controllers, every
 * body, collider and joint), whose parameters and gravity are the version's and cannot be set
 * (every setter throws, and a step checks them), and which takes finite numbers only.
 */
export declare class PinnedWorld extends World {
  /** `level`: the bytes of the level file the world is on (its shapes are referred to by format-3 snapshots). */
  static new(physicsVersion: number, matchId: bigint | number, settings?: GameSettings, level?: Uint8Array): PinnedWorld;
  static restore(physicsVersion: number, matchId: bigint | number, bytes: Uint8Array, key?: Uint8Array, settings?: GameSettings, level?: Uint8Array): PinnedWorld;
  /** `trimesh_level`, the level scene, is on its level (`level`). */
  static fromScene(physicsVersion: number, matchId: bigint | number, name: string): PinnedWorld;
  private constructor();
  readonly physicsVersion: number;
  readonly matchId: bigint;
  /** Steps taken since tick 0 (carried by snapshots). */
  readonly tick: number;
  /** The bytes of the level file the world is on, if any. */
  readonly level: Uint8Array | undefined;
  /** The id of the level the world is on (64 hex digits), if any. */
  readonly levelId: string | undefined;
  /** The snapshot (format 1; 2 with `{compressed: true}` or `{format: 2}`; 3, linked to the world's level, with `{format: 3}`; 4, a delta against `baseline`, with `{format: 4, baseline}`), native bytes, with a MAC when `key` is given. */
  snapshot(key?: Uint8Array, options?: { compressed?: boolean; format?: 1 | 2 | 3 | 4; baseline?: Uint8Array }): Uint8Array;
  /** The world's state now as a baseline (its format-1 payload): what a delta is written against and read with. */
  baseline(): Uint8Array;
  /** Replaces the world by the snapshot's, with every check; a refusal (a PinnedError) changes nothing. A delta (format 4) needs `{baseline}`. */
  restore(bytes: Uint8Array, key?: Uint8Array, options?: { baseline?: Uint8Array }): void;
}

export interface Session { joined: number; tick: number; reported: number; digest: string }
/** A client of `rapier-pinned serve --ws` that sends no inputs: lockstep to the server's goodbye. */
export declare function joinWebSocket(url: string, physicsVersion: number, matchId: bigint | number,
  options?: { settings?: GameSettings; key?: Uint8Array; level?: Uint8Array; log?: (line: string) => void; WebSocket?: unknown }): Promise<Session>;

export interface ReplayCheck { verified: boolean; text: string; tick: number | null; torn: number | null }
/** Re-steps a recorded match (`serve --record`, `join --record`) as native `replay verify` does; `text` in its words. */
export declare function verifyReplay(bytes: Uint8Array, options?: { key?: Uint8Array; level?: Uint8Array }): ReplayCheck;

export declare const catalog: {
  goldenScenes(): string[];
  goldenRuns(name: string): string[];
  goldenRun(physicsVersion: number, name: string, run: string): { world: World; steps: number };
};

declare module "./dynamics/integration_parameters.js" {
  interface IntegrationParameters {
    /**
     * The fork's setting (design §4.1): bullet pairs swept on both bodies' motions. 0 off
     * (upstream, the default), 1 on (physics-versions 2 and 3), 2 on with at most 32 time slices
     * per pair (bounded; version 4), 3 bounded with every nonlinear cast bounded to 1,024 probes
     * (versions 5 and 6). Also set by a boolean, as before it had a third mode (false is 0, true 1);
     * reads as the number.
     */
    get ccdRelativeMotion(): number;
    set ccdRelativeMotion(mode: number | boolean);
    /**
     * The fork's setting (design §4.2), 0 to 6: 0 upstream (the default), 1 core sphere, 2 core
     * sphere against fixed targets (version 2), 3 keep depth (version 3), 4 keep depth bounded,
     * 5 keep side (versions 4 and 5), 6 keep side with the depth rule bounded on fixed meshes
     * and heightfields (version 6).
     */
    ccdPersistentContactPolicy: number;
  }
}

declare module "./pipeline/world.js" {
  interface World {
    /** The state digest of the world's bodies (crates/digest/src/lib.rs), 16 hex digits. */
    digest(): string;
  }
}
