//! Player inputs as data: what a tick applies to the world before it steps.

use rapier3d::prelude::*;
use rapier_pinned::PinnedWorld;
use serde::{Deserialize, Serialize};

/// One player's input for one tick, on one body (by handle index and generation).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub body: (u32, u32),
    pub action: Action,
}

/// What an input does to its body.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    /// An impulse (N·s) at the centre of mass.
    Impulse([f32; 3]),
    /// A linear velocity target (m/s), set before the step.
    Velocity([f32; 3]),
}

/// Applies `inputs` to `world`; an input naming a body that does not exist is skipped (a
/// client never trusts a handle blindly) and counted in the result.
pub fn apply(world: &mut PinnedWorld, inputs: &[Input]) -> usize {
    let mut skipped = 0;
    for input in inputs {
        let handle = RigidBodyHandle::from_raw_parts(input.body.0, input.body.1);
        let Some(body) = world.body_mut(handle) else {
            skipped += 1;
            continue;
        };
        match input.action {
            Action::Impulse(i) => body.apply_impulse(Vector::from_array(i), true),
            Action::Velocity(v) => body.set_linvel(Vector::from_array(v), true),
        }
    }
    skipped
}

/// How many players the reference server seats: player `p` owns the one body [`body_of`]`(p)`.
/// In the arena these are its four vehicles; further clients are spectators.
pub const PLAYERS: u32 = 4;

/// The largest impulse an input may carry, N·s: ten times the script's 400.
pub const MAX_IMPULSE: f32 = 4000.0;

/// The largest velocity target an input may carry, m/s: ten times the script's 6.
pub const MAX_VELOCITY: f32 = 60.0;

/// The most inputs one message may carry.
pub const MAX_INPUTS: usize = 16;

/// How far ahead of the next tick inputs are taken: a client may send for ticks `now + 1` to
/// `now + 1 + INPUT_WINDOW`.
pub const INPUT_WINDOW: u64 = 120;

/// The body player `player` owns: handle `(player, 0)`.
pub fn body_of(player: u32) -> (u32, u32) {
    (player, 0)
}

/// How a log names a seat: `player 2`, or `a spectator` for `None`.
pub fn seat(player: Option<u32>) -> String {
    match player {
        Some(p) => format!("player {p}"),
        None => "a spectator".to_string(),
    }
}

/// Why `inputs` may not come from `player` (`None`: a spectator, who owns nothing): more than
/// [`MAX_INPUTS`], a body it does not own, a non-finite vector, or one longer than
/// [`MAX_IMPULSE`] / [`MAX_VELOCITY`].
pub fn check(player: Option<u32>, inputs: &[Input]) -> Result<(), InputRefusal> {
    if inputs.len() > MAX_INPUTS {
        return Err(InputRefusal::TooMany {
            count: inputs.len(),
        });
    }
    for input in inputs {
        let body = input.body;
        match player {
            None => return Err(InputRefusal::Spectator { body }),
            Some(p) if body_of(p) != body => {
                return Err(InputRefusal::NotOwned { body, player: p });
            }
            Some(_) => {}
        }
        let action = input.action;
        let (_, v, max, _) = bounds(&action);
        if !v.iter().all(|x| x.is_finite()) {
            return Err(InputRefusal::NonFinite { body, action });
        }
        let length = v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
        if length > f64::from(max) {
            return Err(InputRefusal::TooLarge {
                body,
                action,
                length,
            });
        }
    }
    Ok(())
}

/// Why inputs for `tick` are not taken while the match is at `now`: a tick already stepped, or
/// one more than [`INPUT_WINDOW`] ticks after the next.
pub fn check_tick(now: u64, tick: u64) -> Result<(), InputRefusal> {
    if tick <= now {
        return Err(InputRefusal::Stepped { tick, now });
    }
    if tick > now + 1 + INPUT_WINDOW {
        return Err(InputRefusal::TooFarAhead { tick, now });
    }
    Ok(())
}

/// What an action is called, its vector, the largest length it may have and its unit.
fn bounds(action: &Action) -> (&'static str, [f32; 3], f32, &'static str) {
    match *action {
        Action::Impulse(v) => ("impulse", v, MAX_IMPULSE, "N·s"),
        Action::Velocity(v) => ("velocity", v, MAX_VELOCITY, "m/s"),
    }
}

/// Why the server does not take a client's inputs for a tick: [`check`]'s reasons, and the
/// server's about the tick (`ServerMsg::InputRefused` carries the text; the session goes on).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InputRefusal {
    /// More than [`MAX_INPUTS`] inputs in one message.
    #[error("{count} inputs; at most {MAX_INPUTS} per message")]
    TooMany {
        /// How many.
        count: usize,
    },
    /// An input from a spectator, who owns no body.
    #[error("body {}v{}: a spectator owns no body", .body.0, .body.1)]
    Spectator {
        /// The body it names.
        body: (u32, u32),
    },
    /// An input on a body the player does not own ([`body_of`] is the one it owns).
    #[error(
        "body {}v{} is not player {player}'s (it owns body {}v{})",
        .body.0,
        .body.1,
        body_of(*.player).0,
        body_of(*.player).1
    )]
    NotOwned {
        /// The body it names.
        body: (u32, u32),
        /// The player.
        player: u32,
    },
    /// A vector that is not finite.
    #[error("{}", non_finite(*.body, .action))]
    NonFinite {
        /// The body.
        body: (u32, u32),
        /// The action.
        action: Action,
    },
    /// A vector longer than [`MAX_IMPULSE`] or [`MAX_VELOCITY`].
    #[error("{}", too_large(*.body, .action, *.length))]
    TooLarge {
        /// The body.
        body: (u32, u32),
        /// The action.
        action: Action,
        /// Its vector's length.
        length: f64,
    },
    /// Inputs for a tick the match has already stepped (it is at `now`).
    #[error("tick {tick} is already stepped: {}", takes(*.now))]
    Stepped {
        /// The inputs' tick.
        tick: u64,
        /// The match's.
        now: u64,
    },
    /// Inputs for a tick more than [`INPUT_WINDOW`] ticks after the next.
    #[error("tick {tick} is too far ahead: {}", takes(*.now))]
    TooFarAhead {
        /// The inputs' tick.
        tick: u64,
        /// The match's.
        now: u64,
    },
    /// A second set of inputs for the same tick.
    #[error("inputs for tick {tick} came already")]
    Repeated {
        /// The tick.
        tick: u64,
    },
}

/// The text of [`InputRefusal::NonFinite`], naming the action by [`bounds`].
fn non_finite((i, g): (u32, u32), action: &Action) -> String {
    let (what, v, _, _) = bounds(action);
    format!("non-finite {what} {v:?} on body {i}v{g}")
}

/// The text of [`InputRefusal::TooLarge`], with the action's name, bound and unit by [`bounds`].
fn too_large((i, g): (u32, u32), action: &Action, length: f64) -> String {
    let (what, _, max, unit) = bounds(action);
    format!("{what} of {length:.1} {unit} on body {i}v{g} exceeds {max} {unit}")
}

/// The ticks a match at `now` takes inputs for ([`InputRefusal::Stepped`],
/// [`InputRefusal::TooFarAhead`]).
fn takes(now: u64) -> String {
    format!(
        "the match is at tick {now} and takes ticks {} to {}",
        now + 1,
        now + 1 + INPUT_WINDOW
    )
}

/// What a player whose inputs for a tick are missing gets: the velocity targets of its last
/// confirmed set. Impulses are one-shot (a shot, a jump) and are not repeated.
pub fn repeated(last: &[Input]) -> Vec<Input> {
    last.iter()
        .filter(|i| matches!(i.action, Action::Velocity(_)))
        .copied()
        .collect()
}

/// The scripted player `player` at `tick`: it steers body [`body_of`]`(player)` with a fixed
/// pattern of tick, in integers then one exact conversion, so any peer computes the same inputs
/// (`join --bot`). A game sends its players' real inputs instead.
pub fn scripted_for(player: u32, tick: u64) -> Vec<Input> {
    if (tick + player as u64 * 7) % 10 != 0 {
        return Vec::new();
    }
    let phase = ((tick / 40 + player as u64) % 4) as usize;
    let (x, z) = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][phase];
    let action = if (tick / 120) % 2 == 0 {
        Action::Impulse([x * 400.0, 0.0, z * 400.0])
    } else {
        Action::Velocity([x * 6.0, 0.0, z * 6.0])
    };
    vec![Input {
        body: body_of(player),
        action,
    }]
}

/// Every scripted player's inputs at `tick`, in player order: the arena's four vehicles.
pub fn scripted(tick: u64) -> Vec<Input> {
    (0..PLAYERS).flat_map(|p| scripted_for(p, tick)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_taken_from_the_next_tick_to_the_window_s_end() {
        assert!(check_tick(200, 201).is_ok());
        assert!(check_tick(200, 321).is_ok());
        assert_eq!(
            check_tick(200, 200).unwrap_err().to_string(),
            "tick 200 is already stepped: the match is at tick 200 and takes ticks 201 to 321"
        );
        assert_eq!(
            check_tick(200, 322).unwrap_err().to_string(),
            "tick 322 is too far ahead: the match is at tick 200 and takes ticks 201 to 321"
        );
        assert!(check_tick(200, u64::MAX).is_err());
    }

    /// The script as one function of the tick, before it was split per player.
    fn combined(tick: u64) -> Vec<Input> {
        (0..4u32)
            .filter(|i| (tick + *i as u64 * 7) % 10 == 0)
            .map(|i| {
                let phase = ((tick / 40 + i as u64) % 4) as i32;
                let (x, z) = [(1, 0), (0, 1), (-1, 0), (0, -1)][phase as usize];
                Input {
                    body: (i, 0),
                    action: if (tick / 120) % 2 == 0 {
                        Action::Impulse([x as f32 * 400.0, 0.0, z as f32 * 400.0])
                    } else {
                        Action::Velocity([x as f32 * 6.0, 0.0, z as f32 * 6.0])
                    },
                }
            })
            .collect()
    }

    #[test]
    fn the_players_scripts_together_are_the_old_combined_script() {
        for tick in 0..2400 {
            // Debug keeps the sign of zero, which `==` on f32 would not.
            assert_eq!(
                format!("{:?}", scripted(tick)),
                format!("{:?}", combined(tick)),
                "tick {tick}"
            );
        }
    }

    #[test]
    fn inputs_are_checked_for_owner_finiteness_and_bounds() {
        let input = |body, action| Input { body, action };
        assert!(check(Some(2), &scripted_for(2, 3)).is_ok());
        assert!(check(
            Some(2),
            &[input((2, 0), Action::Impulse([4000.0, 0.0, 0.0]))]
        )
        .is_ok());
        let err = |player, i| check(player, &[i]).unwrap_err().to_string();
        assert_eq!(
            err(Some(2), input((0, 0), Action::Velocity([1.0, 0.0, 0.0]))),
            "body 0v0 is not player 2's (it owns body 2v0)"
        );
        assert_eq!(
            err(None, input((0, 0), Action::Velocity([1.0, 0.0, 0.0]))),
            "body 0v0: a spectator owns no body"
        );
        assert_eq!(
            err(
                Some(2),
                input((2, 0), Action::Velocity([f32::NAN, 0.0, 0.0]))
            ),
            "non-finite velocity [NaN, 0.0, 0.0] on body 2v0"
        );
        assert_eq!(
            err(
                Some(2),
                input((2, 0), Action::Impulse([3000.0, 0.0, 3000.0]))
            ),
            "impulse of 4242.6 N·s on body 2v0 exceeds 4000 N·s"
        );
        assert_eq!(
            err(Some(2), input((2, 0), Action::Velocity([0.0, 61.0, 0.0]))),
            "velocity of 61.0 m/s on body 2v0 exceeds 60 m/s"
        );
        let many = vec![input((2, 0), Action::Velocity([1.0, 0.0, 0.0])); MAX_INPUTS + 1];
        assert_eq!(
            check(Some(2), &many).unwrap_err().to_string(),
            "17 inputs; at most 16 per message"
        );
    }

    #[test]
    fn a_repeat_keeps_velocity_targets_and_drops_impulses() {
        let last = [
            Input {
                body: (1, 0),
                action: Action::Impulse([1.0, 0.0, 0.0]),
            },
            Input {
                body: (1, 0),
                action: Action::Velocity([2.0, 0.0, 0.0]),
            },
        ];
        assert_eq!(repeated(&last), vec![last[1]]);
        assert!(repeated(&scripted_for(1, 3)).is_empty(), "an impulse tick");
    }
}
