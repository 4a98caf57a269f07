//! The two ways of giving several shapes to a rigid-body: one child collider per shape (blue),
//! or a single `Collider::compound` (orange).

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;

fn main() {
    App::new()
        .insert_resource(ClearColor(Color::srgb(
            0xF9 as f32 / 255.0,
            0xF9 as f32 / 255.0,
            0xFF as f32 / 255.0,
        )))
        .add_plugins((
            DefaultPlugins,
            RapierPhysicsPlugin::<NoUserData>::default(),
            RapierDebugRenderPlugin::default(),
        ))
        .add_systems(Startup, (setup_graphics, setup_physics))
        .run();
}

fn setup_graphics(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(-30.0, 30.0, 50.0).looking_at(Vec3::new(0.0, 5.0, 0.0), Vec3::Y),
    ));
}

fn setup_physics(mut commands: Commands) {
    /*
     * Ground
     */
    let ground_size = 50.0;
    let ground_height = 0.1;

    commands.spawn((
        Transform::from_xyz(0.0, -ground_height, 0.0),
        Collider::cuboid(ground_size, ground_height, ground_size),
    ));

    /*
     * Create the U-shaped bodies
     */
    let num = 4;
    let numy = 10;
    let rad = 0.2;

    let shift = rad * 4.0 + rad;
    let centerx = shift * (num / 2) as f32;
    let centery = shift / 2.0;
    let centerz = shift * (num / 2) as f32;

    let mut offset = -(num as f32) * (rad * 2.0 + rad) * 0.5;
    let blue = Hsla::hsl(220.0, 1.0, 0.3);
    let orange = Hsla::hsl(30.0, 1.0, 0.5);

    let parts = [
        (Vec3::ZERO, Vec3::new(rad * 10.0, rad, rad)),
        (
            Vec3::new(rad * 10.0, rad * 10.0, 0.0),
            Vec3::new(rad, rad * 10.0, rad),
        ),
        (
            Vec3::new(-rad * 10.0, rad * 10.0, 0.0),
            Vec3::new(rad, rad * 10.0, rad),
        ),
    ];

    for j in 0usize..numy {
        for i in 0..num {
            for k in 0usize..num {
                let x = i as f32 * shift * 5.0 - centerx + offset;
                let y = j as f32 * (shift * 5.0) + centery + 3.0;
                let z = k as f32 * shift * 2.0 - centerz + offset;
                let mut body = commands.spawn((Transform::from_xyz(x, y, z), RigidBody::Dynamic));

                if j < numy / 2 {
                    // First option: attach several colliders to a single rigid-body.
                    body.with_children(|children| {
                        for (pos, half_extents) in parts {
                            children.spawn((
                                Transform::from_translation(pos),
                                Collider::cuboid(half_extents.x, half_extents.y, half_extents.z),
                                ColliderDebugColor(blue),
                            ));
                        }
                    });
                } else {
                    // Second option: create a compound shape attached to a single collider.
                    let shapes = parts
                        .iter()
                        .map(|(pos, half_extents)| {
                            (
                                *pos,
                                Quat::IDENTITY,
                                Collider::cuboid(half_extents.x, half_extents.y, half_extents.z),
                            )
                        })
                        .collect();
                    body.insert((Collider::compound(shapes), ColliderDebugColor(orange)));
                }
            }
        }

        offset -= 0.05 * rad * (num as f32 - 1.0);
    }
}
