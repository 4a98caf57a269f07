//! [`NarrowPhase::validate`] (rapier-pinned patch): the pair graphs of a decoded narrow phase.

use super::{ColliderGraphIndices, NarrowPhase};
use crate::alloc_prelude::*;
use crate::data::Coarena;
use crate::geometry::{ColliderGraphIndex, ColliderHandle, InteractionGraph};
use alloc::format;
use parry::utils::InvalidStructure;

impl NarrowPhase {
    /// Checks, without panicking or looping, the pair graphs of a narrow phase decoded from
    /// untrusted bytes: each graph's adjacency lists ([`crate::data::Graph::validate`]); every
    /// node is a collider whose graph index points back at it, and every collider's graph index
    /// is a node of that collider or the invalid index; every contact pair names the colliders
    /// of its edge's nodes; the force-event list's indices are in range. Removing a pair or a collider follows these indices. The first
    /// broken invariant is the error.
    pub fn validate(&self) -> Result<(), InvalidStructure> {
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
        let graph = &self.contact_graph.graph;
        // The force-event list and its per-edge back-references point into each other: pair
        // removal rewires one through the other (and grows the back-references to the edges
        // count on pair insertion, whatever they held).
        let (pairs, pos) = (&self.force_event_pairs, &self.force_event_pos);
        if pos
            .iter()
            .any(|&p| p != u32::MAX && p as usize >= pairs.len())
            || pairs
                .iter()
                .any(|&e| e as usize >= pos.len().max(graph.edges.len()))
        {
            return fail(format!(
                "force-event list of {} pairs and {} back-references out of range",
                pairs.len(),
                pos.len()
            ));
        }
        for (e, edge) in graph.edges.iter().enumerate() {
            let ends = [edge.source(), edge.target()].map(|n| graph.nodes[n.index()].weight);
            let pair = [edge.weight.collider1, edge.weight.collider2];
            if pair != ends && pair != [ends[1], ends[0]] {
                return fail(format!(
                    "contact pair {e} names other colliders than its nodes"
                ));
            }
        }
        Ok(())
    }
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
