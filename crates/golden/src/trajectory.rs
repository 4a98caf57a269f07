//! What a golden file holds: per run, per step, the world's state digest and a few sampled bodies.

use rapier3d::prelude::*;
use rapier_pinned_scenes::{body_state, body_state_bytes, state_digest};

/// How many moving bodies a run samples: all of them when there are this many or fewer, else
/// this many, evenly spaced in handle order.
pub const SAMPLED_BODIES: usize = 8;

/// A body, named by its handle's index and generation (`3v0`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BodyId {
    pub index: u32,
    pub generation: u32,
}

impl BodyId {
    /// The id of `handle`.
    pub fn of(handle: RigidBodyHandle) -> Self {
        let (index, generation) = handle.into_raw_parts();
        BodyId { index, generation }
    }

    /// The handle this id names.
    pub fn handle(self) -> RigidBodyHandle {
        RigidBodyHandle::from_raw_parts(self.index, self.generation)
    }
}

impl std::fmt::Display for BodyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

/// One sampled body after one step.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub body: BodyId,
    /// Low 32 bits of XXH3-64 of the body's 60 digest bytes: catches a change of any of its 13
    /// state numbers, including those the file does not print.
    pub hash: u32,
    /// Translation x y z.
    pub position: [Real; 3],
    /// All 13 state numbers (digest order), when recorded now; a golden file stores only the
    /// hash and the position.
    pub state: Option<[Real; 13]>,
}

/// The state after one step.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// [`rapier_pinned_scenes::state_digest`] of every body.
    pub digest: u64,
    pub samples: Vec<Sample>,
}

/// One run: a world stepped from its build, step 1 first.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub name: String,
    pub steps: Vec<Step>,
}

/// A golden file: free-text header lines (compared, not parsed) and its runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Golden {
    pub header: Vec<String>,
    pub runs: Vec<Run>,
}

/// Records one run: choose the sampled bodies before the first step, then [`Recorder::step`]
/// after each step.
pub struct Recorder {
    sampled: Vec<RigidBodyHandle>,
    total_moving: usize,
    run: Run,
}

impl Recorder {
    /// Starts run `name` of a world holding `bodies`: samples every non-fixed body when there
    /// are at most [`SAMPLED_BODIES`], else that many evenly spaced in handle order (first and
    /// last included).
    pub fn new(name: impl Into<String>, bodies: &RigidBodySet) -> Self {
        let mut moving: Vec<RigidBodyHandle> = bodies
            .iter()
            .filter(|(_, b)| !b.is_fixed())
            .map(|(h, _)| h)
            .collect();
        moving.sort_unstable_by_key(|h| h.into_raw_parts());
        let total_moving = moving.len();
        let sampled = if moving.len() <= SAMPLED_BODIES {
            moving
        } else {
            let last = moving.len() - 1;
            (0..SAMPLED_BODIES)
                .map(|i| moving[i * last / (SAMPLED_BODIES - 1)])
                .collect()
        };
        Recorder {
            sampled,
            total_moving,
            run: Run {
                name: name.into(),
                steps: Vec::new(),
            },
        }
    }

    /// Records the state after the next step.
    pub fn step(&mut self, bodies: &RigidBodySet) {
        let samples = self
            .sampled
            .iter()
            .filter_map(|&h| bodies.get(h).map(|body| sample(h, body)))
            .collect();
        self.run.steps.push(Step {
            digest: state_digest(bodies),
            samples,
        });
    }

    /// `sampled N of M moving bodies`, for a file's header.
    pub fn sampling(&self) -> String {
        format!(
            "{} of {} moving bodies",
            self.sampled.len(),
            self.total_moving
        )
    }

    /// The recorded run.
    pub fn finish(self) -> Run {
        self.run
    }
}

/// The sample of `body` now.
fn sample(handle: RigidBodyHandle, body: &RigidBody) -> Sample {
    let state = body_state(body);
    let hash = xxhash_rust::xxh3::xxh3_64(&body_state_bytes(handle, body)) as u32;
    Sample {
        body: BodyId::of(handle),
        hash,
        position: [state[0], state[1], state[2]],
        state: Some(state),
    }
}
