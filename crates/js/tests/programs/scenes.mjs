// crates/scenes/src/catalog.rs's scenes of the same names, written against the rapier.js API
// only (so they also run on stock rapier.js): the golden test steps them in a PinnedWorld, the
// bench on stock rapier.js and on the package alike. `settings`: what a PinnedWorld needs.
export function scenes(RAPIER) {
  const ground = (world, friction, restitution) =>
    world.createCollider(RAPIER.ColliderDesc.cuboid(200, 0.1, 200).setTranslation(0, -0.1, 0)
      .setFriction(friction).setRestitution(restitution));
  const add = (world, body, collider) => world.createCollider(collider, world.createRigidBody(body));
  const ZERO_G = { gravity: { x: 0, y: 0, z: 0 }, tickHz: 60, lengthUnit: 1 };
  return {
    pyramid(world) {
      ground(world, 0.5, 0.0);
      for (let row = 0; row < 20; row++) {
        const count = 20 - row;
        for (let i = 0; i < count; i++) {
          const x = Math.fround((i - (count - 1) / 2) * 1.0);
          add(world, RAPIER.RigidBodyDesc.dynamic().setTranslation(x, 0.5 + row, 0).setCanSleep(false),
            RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5));
        }
      }
    },
    ball_drop(world) {
      ground(world, 0.6, 0.5);
      add(world, RAPIER.RigidBodyDesc.dynamic().setTranslation(0, Math.fround(1.0 + 0.1), 0),
        RAPIER.ColliderDesc.ball(0.1).setMass(1.0).setRestitution(0.5).setFriction(0.6));
    },
    bullets_crossing: Object.assign((world) => {
      for (const [x, v] of [[-10, 400], [10, -400]]) {
        add(world, RAPIER.RigidBodyDesc.dynamic().setTranslation(x, 0, 0).setLinvel(v, 0, 0)
          .setCcdEnabled(true), RAPIER.ColliderDesc.ball(1.0));
      }
    }, { settings: ZERO_G }),
  };
}
