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

/** The bench's scenes (crates/js/bench/step.mjs), through the rapier.js API only, at rapier's
 * defaults: the pyramid as above, and an arena after crates/scenes's `arena` (the same room,
 * vehicles, blades, plates, bullets and crates; no golden file: rapier.js has no
 * `allowFastRotation`, so the blades are not the catalog's). */
export function benchScenes(RAPIER) {
  const { pyramid } = scenes(RAPIER);
  const add = (world, body, collider) => {
    const b = world.createRigidBody(body);
    world.createCollider(collider, b);
    return b;
  };
  const D = () => RAPIER.RigidBodyDesc.dynamic();
  const C = RAPIER.ColliderDesc;
  const arena = (world) => {
    world.createCollider(C.cuboid(200, 0.1, 200).setTranslation(0, -0.1, 0).setFriction(0.6));
    const [hx, hy, hz] = [8, 2, 6];
    for (const side of [-1, 1]) {
      world.createCollider(C.cuboid(0.1, hy, hz).setTranslation(side * (hx + 0.1), hy, 0).setFriction(0.5));
      world.createCollider(C.cuboid(hx, hy, 0.1).setTranslation(0, hy, side * (hz + 0.1)).setFriction(0.5));
    }
    world.createCollider(C.cuboid(hx, 0.1, hz).setTranslation(0, 2 * hy + 0.1, 0).setFriction(0.5));
    const vehicle = (x, z, vx, side) => {
      const b = add(world, D().setTranslation(x, 0.3, z).setLinvel(vx, 0, 0).setCcdEnabled(true),
        C.cuboid(1, 0.3, 0.5).setFriction(0.2));
      world.createCollider(C.cuboid(0.001, 0.4, 0.6).setTranslation(side * 1.001, 0, 0).setFriction(0.2), b);
    };
    for (const [z, [xa, va], [xb, vb]] of [[-3, [-5, 12], [5, -12]], [3, [-4, 20], [4, -8]]]) {
      vehicle(xa, z, va, 1);
      vehicle(xb, z, vb, -1);
    }
    for (let i = 0; i < 4; i++) {
      const s = i % 2 === 0 ? 1 : -1;
      add(world, D().setTranslation(-3 * s, 1.2 + 0.2 * i, -1.5 + i).setLinvel(15 * s, 0, 0)
        .setAngvel({ x: 0, y: 0, z: 200 + 50 * i }).setCcdEnabled(true), C.cuboid(0.25, 0.02, 0.0005));
    }
    for (let i = 0; i < 8; i++) {
      add(world, D().setTranslation(-5.25 + 1.5 * i, 0.301, i % 2 === 0 ? -1 : 1).setCcdEnabled(true),
        C.cuboid(0.001, 0.3, 0.4).setFriction(0.5));
    }
    for (let i = 0; i < 12; i++) {
      const s = i % 2 === 0 ? 1 : -1, k = Math.floor(i / 2), speed = 80 + 14 * k;
      const d = [s, 0, 0.15 * (2.5 - k)], n = Math.sqrt(d[0] * d[0] + d[2] * d[2]);
      add(world, D().setTranslation(-7.5 * s, 0.2 + 0.25 * k, -2.5 + k)
        .setLinvel((d[0] / n) * speed, 0, (d[2] / n) * speed).setCcdEnabled(true), C.ball(0.02).setDensity(8));
    }
    for (let i = 0; i < 6; i++) {
      add(world, D().setTranslation(-2.5 + i, 0.25, i % 2 === 0 ? 4.5 : -4.5), C.cuboid(0.25, 0.25, 0.25).setFriction(0.6));
    }
  };
  return { pyramid: Object.assign(pyramid, { steps: 200 }), arena: Object.assign(arena, { steps: 240 }) };
}
