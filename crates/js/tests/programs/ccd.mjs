// A rapier.js program as a game would write it, in the shape of rapier.js's testbed demos
// (`initWorld(RAPIER, testbed)`), using only rapier.js's API: nothing here knows the fork. Fast
// balls with CCD are fired at thin kinematic plates that move to meet them, and at thin blades
// that spin: the moving-target cases where rapier's upstream CCD lets a ball pass through and
// the fork's settings (physics-version 2: relative motion, policy 2; version 3: policy 3;
// version 4: bounded relative motion, policy 5) do not.
export function initWorld(RAPIER, testbed) {
  const gravity = new RAPIER.Vector3(0.0, -9.81, 0.0);
  const world = new RAPIER.World(gravity);

  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.1, 0));
  world.createCollider(RAPIER.ColliderDesc.cuboid(60.0, 0.1, 60.0), ground);

  // Five 2 mm plates, 1.5 m apart in z, closing in at 40 m/s.
  for (let i = 0; i < 5; i++) {
    const z = (i - 2) * 1.5;
    const plate = world.createRigidBody(
      RAPIER.RigidBodyDesc.kinematicVelocityBased().setTranslation(6.0, 1.0, z).setLinvel(-40.0, 0, 0),
    );
    world.createCollider(RAPIER.ColliderDesc.cuboid(0.001, 0.6, 0.6), plate);
    // A 1 mm blade spinning at 300 rad/s about x, one row further.
    const blade = world.createRigidBody(
      RAPIER.RigidBodyDesc.kinematicVelocityBased().setTranslation(12.0, 1.0, z)
        .setAngvel({ x: 0, y: 300.0, z: 0 }),
    );
    world.createCollider(RAPIER.ColliderDesc.cuboid(0.6, 0.5, 0.0005), blade);
  }

  // Two balls per lane, at 60 m/s, with CCD.
  for (let i = 0; i < 5; i++) {
    for (const [y, x] of [[0.8, -4.0], [1.2, -6.0]]) {
      const ball = world.createRigidBody(
        RAPIER.RigidBodyDesc.dynamic().setTranslation(x, y, (i - 2) * 1.5 + 0.2)
          .setLinvel(60.0, 0, 0).setCcdEnabled(true),
      );
      world.createCollider(RAPIER.ColliderDesc.ball(0.05).setDensity(2.0), ball);
    }
  }

  testbed.setWorld(world);
  testbed.lookAt({ eye: { x: -10, y: 5, z: 10 }, target: { x: 6, y: 1, z: 0 } });
}
