//! [`NarrowPhase::validate`] (rapier-pinned patch): the pair graphs, manifolds and solver
//! tables of a decoded narrow phase.

use super::{ColliderGraphIndices, NarrowPhase, PAIR_HINT_COUNT_MASK, PAIR_HINT_DYN_BIT};
use crate::alloc_prelude::*;
use crate::data::Coarena;
use crate::dynamics::solver::solver_contact_graph::{
    GENERIC_BUCKET, GraphPos, NUM_BUCKETS_WITH_GENERIC,
};
use crate::dynamics::{IslandManager, MultibodyJointSet, RigidBodyHandle, RigidBodySet};
use crate::geometry::contact_pair::{SOLVER_COLOR_OVERFLOW, SOLVER_COLOR_UNCOLORED};
use crate::geometry::{
    ColliderGraphIndex, ColliderHandle, ColliderSet, ContactPair, InteractionGraph, SolverFlags,
};
use crate::math::Real;
use alloc::format;
use parry::utils::InvalidStructure;

impl NarrowPhase {
    /// Checks, without panicking or looping, a narrow phase decoded from untrusted bytes against
    /// the decoded `bodies`, `islands` (validated first) and `multibody_joints`: each pair graph's
    /// adjacency lists ([`crate::data::Graph::validate`]); every node is a collider whose graph
    /// index points back at it, and every collider's graph index is a node of that collider or
    /// the invalid index; every contact pair names the colliders of its edge's nodes; the
    /// force-event list and its back-references; every manifold's solver contacts and workspace
    /// ([`check_pair`]); the persistent solver contact graph ([`Self::check_solver_graph`]). Pair
    /// removal, the contact update and the solver follow these indices. The first broken
    /// invariant is the error.
    pub fn validate(
        &self,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
        islands: &IslandManager,
        multibody_joints: &MultibodyJointSet,
    ) -> Result<(), InvalidStructure> {
        let fail = |detail| Err(InvalidStructure::new("NarrowPhase", detail));
        check_graph("contact", &self.contact_graph, &self.graph_indices, |g| {
            g.contact_graph_index
        })
        .or_else(fail)?;
        check_graph(
            "intersection",
            &self.intersection_graph,
            &self.graph_indices,
            |g| g.intersection_graph_index,
        )
        .or_else(fail)?;
        self.check_force_events(colliders).or_else(fail)?;
        let graph = &self.contact_graph.graph;
        for (e, edge) in graph.edges.iter().enumerate() {
            let ends = [edge.source(), edge.target()].map(|n| graph.nodes[n.index()].weight);
            let pair = [edge.weight.collider1, edge.weight.collider2];
            if pair != ends && pair != [ends[1], ends[0]] {
                return fail(format!(
                    "contact pair {e} names other colliders than its nodes"
                ));
            }
            check_pair(&edge.weight).or_else(|d| fail(format!("contact pair {e}: {d}")))?;
        }
        self.check_solver_graph(bodies, islands, multibody_joints)
            .or_else(fail)
    }

    /// The force-event list and its per-edge back-references point into each other: pair
    /// removal rewires one through the other (and grows the back-references to the edge count
    /// on pair insertion, whatever they held). While the list is marked intact, the engine
    /// maintains it incrementally, so the two must be exact inverses over every edge, and the
    /// list must hold exactly the solver-active pairs with a force-event threshold, but for the
    /// pairs flagged for the next step's reconciliation.
    fn check_force_events(&self, colliders: &ColliderSet) -> Result<(), String> {
        let (pairs, pos) = (&self.force_event_pairs, &self.force_event_pos);
        let edges = self.contact_graph.graph.edges.len();
        let in_range = pos
            .iter()
            .all(|&p| p == u32::MAX || (p as usize) < pairs.len())
            && pairs.iter().all(|&e| (e as usize) < pos.len());
        let inverse = || {
            pos.len() == edges
                && (pairs.iter().enumerate()).all(|(i, &e)| pos[e as usize] as usize == i)
                && pos.iter().filter(|&&p| p != u32::MAX).count() == pairs.len()
        };
        if !in_range || (self.force_list_valid && !inverse()) {
            return Err(format!(
                "force-event list of {} pairs and {} back-references ({edges} edges) do not match",
                pairs.len(),
                pos.len()
            ));
        }
        if !self.force_list_valid {
            return Ok(());
        }
        let threshold = |h| {
            (colliders.get(h))
                .map(|co| co.effective_contact_force_event_threshold())
                .unwrap_or(Real::MAX)
        };
        for (edge, e) in self.contact_graph.graph.edges.iter().enumerate() {
            if self.force_event_flagged.contains(&(edge as u32)) {
                continue;
            }
            let hint = self.pair_solver_hints.get(edge).copied().unwrap_or(0);
            let selectable = hint & PAIR_HINT_DYN_BIT != 0 && hint & PAIR_HINT_COUNT_MASK != 0;
            let pair = &e.weight;
            let want =
                selectable && threshold(pair.collider1).min(threshold(pair.collider2)) < Real::MAX;
            if want != (pos[edge] != u32::MAX) {
                return Err(format!(
                    "force-event list membership of contact pair {edge} is stale"
                ));
            }
        }
        Ok(())
    }

    /// The persistent solver contact graph, when it is marked valid (else the next step rebuilds
    /// it from scratch and no stored position is read): its buckets, and a one-to-one match
    /// between their entries and the solver manifolds' stored positions, which pair removal
    /// swap-removes through. When no rebuild is pending either (the island and multibody
    /// epochs it was built at are current), the next step reconciles only the pairs it updates
    /// and solves the rest as stored, so the graph must also hold exactly what a from-scratch
    /// selection would ([`Self::solver_selection`]), with the solver-body ids of the current
    /// active set stamped on each manifold, and a color's dynamic bodies each at most once
    /// (the wide solver's lanes scatter without merging).
    fn check_solver_graph(
        &self,
        bodies: &RigidBodySet,
        islands: &IslandManager,
        multibody_joints: &MultibodyJointSet,
    ) -> Result<(), String> {
        if !self.solver_graph_valid {
            return Ok(());
        }
        let buckets = self.solver_contact_graph.raw_buckets();
        if buckets.len() != NUM_BUCKETS_WITH_GENERIC {
            return Err(format!("solver contact graph of {} buckets", buckets.len()));
        }
        let edges = &self.contact_graph.graph.edges;
        let mut entries = 0usize;
        for (bucket, refs) in buckets.iter().enumerate() {
            for (local, r) in refs.iter().enumerate() {
                let manifold = (edges.get(r.edge as usize))
                    .and_then(|e| e.weight.solver_manifolds().get(r.manifold as usize));
                let pos = GraphPos::checked(bucket as u16, local);
                if pos.is_none() || manifold.map(|m| m.data.graph_pos) != pos {
                    return Err(format!(
                        "solver contact graph entry {local} of bucket {bucket} is not its manifold's"
                    ));
                }
                entries += 1;
            }
        }
        let positioned = (edges.iter())
            .flat_map(|e| e.weight.solver_manifolds())
            .filter(|m| m.data.graph_pos.is_some())
            .count();
        if positioned != entries {
            return Err(format!(
                "{positioned} solver manifolds hold a solver-graph position, the graph {entries}"
            ));
        }
        if islands.active_set_epoch != self.solver_graph_epoch
            || multibody_joints.topology_epoch != self.solver_graph_mb_epoch
        {
            return Ok(());
        }
        let mut qualify = Vec::new();
        for handle in islands.active_bodies() {
            let index = handle.into_raw_parts().0 as usize;
            if qualify.len() <= index {
                qualify.resize(index + 1, u64::MAX);
            }
            if let Some(rb) = bodies.get(handle) {
                qualify[index] = ((rb.ids.active_set_id as u64) << 32) | rb.is_dynamic() as u64;
            }
        }
        // Each solver manifold's stored position and stamps against what the selection wants
        // for it; with the one-to-one match above, the graph then holds exactly the selection.
        let selected = self.solver_selection(&qualify, multibody_joints, |edge, ordinal, want| {
            let data = &edges[edge as usize].weight.solver_manifolds()[ordinal as usize].data;
            let pos = data.graph_pos;
            let holds = match want {
                None => !pos.is_some(),
                Some((color, generic, ids)) => {
                    let bucket = if generic {
                        GENERIC_BUCKET
                    } else {
                        color as u16
                    };
                    pos.is_some()
                        && pos.bucket() == bucket
                        && (!generic || data.solver_color == color)
                        && data.solver_body_ids == ids
                }
            };
            holds.then_some(()).ok_or(edge)
        });
        if let Err(edge) = selected {
            return Err(format!(
                "contact pair {edge}: the solver contact graph is not the selection"
            ));
        }
        // A color's dynamic bodies, each at most once: per solver body (active-set index),
        // dynamic, and the last bucket it was seen in.
        let dynamic: Vec<bool> = (islands.active_bodies())
            .map(|h| bodies.get(h).is_some_and(|rb| rb.is_dynamic()))
            .collect();
        let mut seen_in = vec![usize::MAX; dynamic.len()];
        for (bucket, refs) in buckets
            .iter()
            .enumerate()
            .take(SOLVER_COLOR_OVERFLOW as usize)
        {
            for r in refs {
                let data =
                    &edges[r.edge as usize].weight.solver_manifolds()[r.manifold as usize].data;
                for id in data.solver_body_ids.map(|id| id as usize) {
                    if dynamic.get(id) == Some(&true) {
                        if seen_in[id] == bucket {
                            return Err(format!(
                                "solver color {bucket} holds a dynamic body twice"
                            ));
                        }
                        seen_in[id] = bucket;
                    }
                }
            }
        }
        Ok(())
    }

    /// Visits every solver manifold with what a from-scratch solver-graph rebuild wants for it
    /// (the rule of `reconcile_pair`, from the stored pair hints, colors and manifolds, `qualify`
    /// being the body qualification table): `None`, out of the graph, or its color, whether it
    /// goes to the generic (multibody) list, and its solver-body ids. Stops at `visit`'s first
    /// error.
    fn solver_selection<E>(
        &self,
        qualify: &[u64],
        multibody_joints: &MultibodyJointSet,
        mut visit: impl FnMut(u32, u32, Option<(u8, bool, [u32; 2])>) -> Result<(), E>,
    ) -> Result<(), E> {
        let has_multibodies = multibody_joints.iter().next().is_some();
        let in_multibody = |h: Option<RigidBodyHandle>| {
            h.and_then(|h| multibody_joints.rigid_body_link(h))
                .is_some()
        };
        for (edge, e) in self.contact_graph.graph.edges.iter().enumerate() {
            let hint = self.pair_solver_hints.get(edge).copied().unwrap_or(0);
            let selectable = hint & PAIR_HINT_DYN_BIT != 0 && hint & PAIR_HINT_COUNT_MASK != 0;
            let pair = &e.weight;
            let mut first_of_pair = true;
            for (ordinal, manifold) in pair.solver_manifolds().iter().enumerate() {
                let data = &manifold.data;
                let qualifies = selectable
                    && data
                        .solver_flags
                        .contains(SolverFlags::COMPUTE_RIGID_IMPULSES)
                    && data.num_active_contacts() != 0;
                let ids = qualifies
                    .then(|| Self::qualify_manifold_bqi(qualify, manifold))
                    .flatten();
                let want = ids.map(|ids| {
                    let mut color = pair.solver_color();
                    if !first_of_pair || color == SOLVER_COLOR_UNCOLORED {
                        color = SOLVER_COLOR_OVERFLOW;
                    }
                    first_of_pair = false;
                    let generic = has_multibodies
                        && (in_multibody(data.rigid_body1) || in_multibody(data.rigid_body2));
                    (color, generic, ids)
                });
                visit(edge as u32, ordinal as u32, want)?;
            }
        }
        Ok(())
    }
}

/// A contact pair's manifolds and solver clusters: every solver contact names a point of its
/// manifold (the solver reads its warm-start impulses there), the numbers the solver reads are
/// finite, and the workspace indexes only the pair's manifolds
/// ([`parry::query::ContactManifoldsWorkspace::validate`]).
fn check_pair(pair: &ContactPair) -> Result<(), String> {
    let Some(rigid) = pair.rigid() else {
        return Ok(());
    };
    for (what, manifolds) in [
        ("manifold", &rigid.manifolds),
        ("solver cluster", &rigid.solver_clusters),
    ] {
        for (i, m) in manifolds.iter().enumerate() {
            let data = &m.data;
            let named = (data.solver_contacts.iter())
                .all(|c| (c.contact_indices()[0] as usize) < m.points.len());
            if !named {
                return Err(format!("{what} {i}: a solver contact names no point"));
            }
            let finite = data.normal.is_finite()
                && data.friction.is_finite()
                && data.restitution.is_finite()
                && data.solver_contacts.iter().all(|c| {
                    c.anchor1.is_finite()
                        && c.anchor2.is_finite()
                        && c.dist.is_finite()
                        && c.tangent_velocity.is_finite()
                })
                && m.points.iter().all(|p| {
                    let d = &p.data;
                    p.dist.is_finite()
                        && p.local_p1.is_finite()
                        && p.local_p2.is_finite()
                        && d.impulse.is_finite()
                        && d.tangent_impulse.iter().all(|x| x.is_finite())
                        && d.warmstart_impulse.is_finite()
                        && d.warmstart_tangent_impulse.iter().all(|x| x.is_finite())
                        && d.warmstart_twist_impulse.is_finite()
                        && d.warmstart_tangent_world.is_finite()
                        && d.solver_dp1.is_finite()
                        && d.solver_dp2.is_finite()
                });
            if !finite {
                return Err(format!(
                    "{what} {i}: a number the solver reads is not finite"
                ));
            }
        }
    }
    if let Some(workspace) = &rigid.workspace {
        workspace
            .validate(rigid.manifolds.len())
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// One pair graph against the colliders' graph indices (`index` picks this graph's).
fn check_graph<E>(
    name: &str,
    graph: &InteractionGraph<ColliderHandle, E>,
    graph_indices: &Coarena<ColliderGraphIndices>,
    index: impl Fn(&ColliderGraphIndices) -> ColliderGraphIndex,
) -> Result<(), String> {
    let nodes = &graph.graph.nodes;
    graph
        .graph
        .validate()
        .map_err(|e| format!("{name} graph: {e}"))?;
    for (i, node) in nodes.iter().enumerate() {
        let back = graph_indices.get(node.weight.0).map(|g| index(g).index());
        if back != Some(i) {
            return Err(format!(
                "{name} graph node {i}'s collider does not point back at it"
            ));
        }
    }
    let invalid = InteractionGraph::<(), ()>::invalid_graph_index();
    for (handle, indices) in graph_indices.iter() {
        let i = index(indices);
        let here = nodes.get(i.index()).map(|node| node.weight.0);
        if i != invalid && here != Some(handle) {
            return Err(format!(
                "a collider's {name} graph index {} is not its node",
                i.index()
            ));
        }
    }
    Ok(())
}
