// A small rapier.js game written for stock rapier.js 0.21.0: a character walks over a heap of
// crates and balls under a ray-cast lookout, with collision events, contact-force events and
// scene queries. `run(RAPIER)` returns its log; install.test.mjs runs it from a game folder that
// imports "@dimforge/rapier3d-compat" (the package, after the one-line switch) and compares the
// log with stock rapier.js's; chromium.test.mjs runs it in a page.
export function run(RAPIER) {
  const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const queue = new RAPIER.EventQueue(true);
  const log = [];
  world.createCollider(RAPIER.ColliderDesc.cuboid(20, 0.1, 20));
  for (let i = 0; i < 12; i++) {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic()
      .setTranslation((i % 4) - 1.5, 0.5 + Math.floor(i / 4), (i % 3) - 1));
    const shape = i % 2 ? RAPIER.ColliderDesc.ball(0.3) : RAPIER.ColliderDesc.cuboid(0.3, 0.3, 0.3);
    world.createCollider(shape.setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS |
      RAPIER.ActiveEvents.CONTACT_FORCE_EVENTS).setContactForceEventThreshold(5), body);
  }
  const player = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(-5, 1, 0));
  const playerCollider = world.createCollider(RAPIER.ColliderDesc.capsule(0.4, 0.3), player);
  const controller = world.createCharacterController(0.02);
  controller.enableAutostep(0.4, 0.2, true);
  controller.enableSnapToGround(0.3);
  controller.setApplyImpulsesToDynamicBodies(true);
  for (let step = 0; step < 120; step++) {
    controller.computeColliderMovement(playerCollider, { x: 0.08, y: -0.05, z: 0.01 });
    const m = controller.computedMovement();
    const t = player.translation();
    player.setNextKinematicTranslation({ x: t.x + m.x, y: t.y + m.y, z: t.z + m.z });
    world.step(queue);
    queue.drainCollisionEvents((a, b, started) => log.push(`collision ${a} ${b} ${started}`));
    queue.drainContactForceEvents((e) => log.push(`force ${e.collider1()} ${e.collider2()} ${e.totalForceMagnitude()}`));
    const hit = world.castRay(new RAPIER.Ray({ x: 0, y: 10, z: 0 }, { x: 0, y: -1, z: 0 }), 20, true);
    log.push(`step ${step} ray ${hit?.collider.handle} ${hit?.timeOfImpact} grounded ${controller.computedGrounded()} ` +
      `collisions ${controller.numComputedCollisions()}`);
  }
  world.forEachRigidBody((b) => {
    const t = b.translation();
    log.push(`body ${b.handle} ${t.x} ${t.y} ${t.z}`);
  });
  return log;
}
