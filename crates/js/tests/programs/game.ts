// A rapier.js game written for stock `@dimforge/rapier3d-compat` (events, queries, the character
// controller), then the fork's additions: typescript.test.mjs type-checks it against the
// package's types under that name (the one-line switch), with TypeScript's module resolutions.
import RAPIER from "@dimforge/rapier3d-compat";

export async function main(): Promise<string> {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
  world.createCollider(RAPIER.ColliderDesc.cuboid(10, 0.1, 10), ground);
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(0, 1, 0));
  const collider = world.createCollider(
    RAPIER.ColliderDesc.capsule(0.5, 0.3).setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS), body);
  const queue = new RAPIER.EventQueue(true);
  const controller: RAPIER.KinematicCharacterController = world.createCharacterController(0.01);
  controller.enableSnapToGround(0.3);
  const log: string[] = [];
  for (let i = 0; i < 10; i++) {
    controller.computeColliderMovement(collider, { x: 0.05, y: -0.1, z: 0 });
    const m: RAPIER.Vector = controller.computedMovement();
    const t = body.translation();
    body.setNextKinematicTranslation({ x: t.x + m.x, y: t.y + m.y, z: t.z + m.z });
    world.step(queue);
    queue.drainCollisionEvents((h1: number, h2: number, started: boolean) => log.push(`${h1} ${h2} ${started}`));
  }
  const hit: RAPIER.RayColliderHit | null = world.castRay(
    new RAPIER.Ray({ x: 0, y: 5, z: 0 }, { x: 0, y: -1, z: 0 }), 10, true);
  log.push(String(hit?.timeOfImpact), String(controller.computedGrounded()));
  // The fork's additions.
  world.integrationParameters.ccdRelativeMotion = true; // older code's boolean: mode 1
  world.integrationParameters.ccdRelativeMotion = 2;
  world.integrationParameters.ccdPersistentContactPolicy = 5;
  const mode: number = world.integrationParameters.ccdRelativeMotion;
  log.push(String(mode));
  const pinned: RAPIER.PinnedWorld = RAPIER.PinnedWorld.new(RAPIER.physicsVersionCurrent(), 1n);
  pinned.createRigidBody(RAPIER.RigidBodyDesc.dynamic());
  log.push(world.digest(), pinned.digest());
  return log.join("\n");
}
