//! [`IslandManager::validate`] (rapier-pinned patch): the ids of a decoded island manager.

use super::IslandManager;
use super::persistent::id_space;
use crate::dynamics::{RigidBodyHandle, RigidBodySet};
use crate::geometry::{ColliderSet, NarrowPhase};
use alloc::format;
use parry::utils::InvalidStructure;

impl IslandManager {
    /// Checks, without panicking, the island ids of a decoded island manager and its bodies:
    /// the awake and sleeping islands' id space (ids `0..islands + free`, each once), the awake
    /// island exists, every island's bodies exist and name it and their index in it (the
    /// solver indexes its bodies by that index), and every other body names none; then the
    /// persistent islands the same way, with their link location tables, links and sleep state,
    /// and every touching contact pair of a member body linked into its island. The first broken
    /// invariant is the error.
    pub fn validate(
        &self,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
        narrow_phase: &NarrowPhase,
    ) -> Result<(), InvalidStructure> {
        let fail = |detail| Err(InvalidStructure::new("IslandManager", detail));
        if id_space(&self.islands, self.free_islands.iter().copied()).is_none() {
            return fail("island ids are not 0..islands + free, each once".into());
        }
        if self
            .awake_island
            .is_some_and(|id| self.islands.get(id).is_none())
        {
            return fail("the awake island does not exist".into());
        }
        let mut members = 0usize;
        for (id, island) in self.islands.iter() {
            for (index, handle) in island.bodies.iter().enumerate() {
                let ids =
                    (bodies.get(*handle)).map(|rb| (rb.ids.active_island_id, rb.ids.active_set_id));
                if ids != Some((id as u32, index as u32)) {
                    return fail(format!("island {id}'s body {index} is not there"));
                }
                members += 1;
            }
        }
        let in_islands = (bodies.iter()).filter(|(_, rb)| rb.ids.active_island_id != u32::MAX);
        if in_islands.count() != members {
            return fail("a body names an island it is not in".into());
        }
        self.persistent.validate(bodies).or_else(fail)?;
        // Contact links are made when a pair starts touching: a touching pair the next step keeps
        // must already be linked, into the island of each side that is a member.
        let pending =
            |h: Option<RigidBodyHandle>| h.is_some_and(|h| bodies.modified_bodies.contains(&h));
        let member = |h: Option<RigidBodyHandle>| {
            (h.and_then(|h| bodies.get(h)))
                .filter(|rb| !rb.is_fixed() && rb.is_enabled())
                .map(|rb| rb.ids.island_id)
        };
        for (edge, h1, h2) in narrow_phase.touching_pairs_with_ids(colliders) {
            let sides = [member(h1), member(h2)];
            let linked = (self.persistent.contact_link_locs.get(edge as usize))
                .filter(|loc| loc.0 != u32::MAX)
                .map(|loc| loc.0);
            let holds =
                sides == [None, None] || sides.into_iter().flatten().all(|m| Some(m) == linked);
            // The pending test walks the modified list: only where the invariant fails.
            if !holds && !pending(h1) && !pending(h2) {
                return fail(format!(
                    "touching contact pair {edge} is not linked into its bodies' island"
                ));
            }
        }
        Ok(())
    }
}
