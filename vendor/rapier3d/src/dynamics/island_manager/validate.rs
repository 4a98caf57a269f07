//! [`IslandManager::validate`] (rapier-pinned patch): the ids of a decoded island manager.

use super::IslandManager;
use super::persistent::id_space;
use alloc::format;
use crate::dynamics::RigidBodySet;
use parry::utils::InvalidStructure;

impl IslandManager {
    /// Checks, without panicking, the island ids of a decoded island manager and its bodies:
    /// the awake and sleeping islands' id space (ids `0..islands + free`, each once), the awake
    /// island exists, every island's bodies exist and name it and their index in it (the
    /// solver indexes its bodies by that index), and every other body names none; then the
    /// persistent islands the same way, with their link location tables. The first broken
    /// invariant is the error.
    pub fn validate(&self, bodies: &RigidBodySet) -> Result<(), InvalidStructure> {
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
        self.persistent.validate(bodies).or_else(fail)
    }
}
