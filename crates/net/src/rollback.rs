//! GGPO-style rollback: a ring of the last ticks' snapshots and inputs; an input that arrives
//! late for tick t − k restores the snapshot before t − k and re-simulates to now with it.

use std::collections::{BTreeMap, VecDeque};

use rapier_pinned::PinnedWorld;

use crate::error::NetError;
use crate::inputs::{apply, Input};

/// A world that can take inputs late, up to `capacity` ticks.
pub struct Rollback {
    world: PinnedWorld,
    /// `(tick, snapshot of the world after that tick)`, oldest first.
    ring: VecDeque<(u64, Vec<u8>)>,
    /// The inputs applied before stepping into each tick still in the ring.
    inputs: BTreeMap<u64, Vec<Input>>,
    capacity: usize,
}

impl Rollback {
    /// Starts from `world` at its tick, keeping `capacity` ticks for late inputs.
    pub fn new(world: PinnedWorld, capacity: usize) -> Self {
        let ring = VecDeque::from([(world.tick(), world.snapshot(None))]);
        Rollback {
            world,
            ring,
            inputs: BTreeMap::new(),
            capacity,
        }
    }

    /// The world now.
    pub fn world(&self) -> &PinnedWorld {
        &self.world
    }

    /// Applies `inputs` and steps one tick; remembers both for a later rollback.
    pub fn step(&mut self, inputs: Vec<Input>) {
        apply(&mut self.world, &inputs);
        self.world.step();
        let tick = self.world.tick();
        self.inputs.insert(tick, inputs);
        self.ring.push_back((tick, self.world.snapshot(None)));
        while self.ring.len() > self.capacity + 1 {
            let (old, _) = self.ring.pop_front().expect("not empty");
            self.inputs.remove(&(old + 1));
        }
        self.inputs.retain(|t, _| *t > self.ring[0].0);
    }

    /// `input` should have been applied before stepping into `tick` (≤ now): restores the
    /// snapshot of `tick - 1`, adds the input and re-simulates every tick to now. Returns how
    /// many ticks were re-simulated. `Err` if `tick` is older than the ring
    /// ([`NetError::LateInputTooOld`]) or in the future ([`NetError::LateInputNotStepped`]).
    pub fn late_input(&mut self, tick: u64, input: Input) -> Result<u64, NetError> {
        let now = self.world.tick();
        if tick > now || tick == 0 {
            return Err(NetError::LateInputNotStepped { tick, now });
        }
        let Some((_, bytes)) = self.ring.iter().find(|(t, _)| *t == tick - 1) else {
            return Err(NetError::LateInputTooOld {
                tick,
                kept: self.capacity,
            });
        };
        self.world
            .restore_into(bytes, None)
            .map_err(NetError::Restore)?;
        self.inputs.entry(tick).or_default().push(input);
        self.ring.retain(|(t, _)| *t < tick);
        for t in tick..=now {
            let inputs = self.inputs.get(&t).cloned().unwrap_or_default();
            apply(&mut self.world, &inputs);
            self.world.step();
            self.ring.push_back((t, self.world.snapshot(None)));
        }
        Ok(now - tick + 1)
    }
}
